// SPDX-License-Identifier: MIT OR Apache-2.0
#include "backgroundpool.hpp"

#include <QThreadPool>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace amn::ui {

bool lowerThreadPriority() {
#ifdef Q_OS_LINUX
    // On Linux the nice value is per thread: PRIO_PROCESS with a thread id
    // changes that thread only. QThread priorities do nothing under SCHED_OTHER
    // (only IdlePriority, SCHED_IDLE, which starves the work on a busy machine).
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    return setpriority(PRIO_PROCESS, tid, 10) == 0;
#else
    return false;
#endif
}

QThreadPool* backgroundPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;  // never deleted: jobs may still run while statics are destroyed
        p->setMaxThreadCount(1);
        p->setExpiryTimeout(-1);  // one thread, lowered once, kept
        p->start([] { lowerThreadPriority(); });
        return p;
    }();
    return pool;
}

}  // namespace amn::ui
