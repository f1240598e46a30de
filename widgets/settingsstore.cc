// SPDX-License-Identifier: MIT OR Apache-2.0
#include "settingsstore.hpp"

#include "backgroundpool.hpp"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QSettings>
#include <QThreadPool>

namespace amn::ui {

namespace {

struct Store {
    QMutex pendingMutex;  ///< guards pending
    QMutex writeMutex;    ///< one writer at a time: the latest values are written last
    QHash<QString, QVariant> pending;
    QThreadPool pool;
    Store() {
        // One writer thread, kept, below the UI thread's priority (backgroundpool.hpp).
        pool.setMaxThreadCount(1);
        pool.setExpiryTimeout(-1);
        pool.start([] { lowerThreadPriority(); });
    }
};

Store& store() {
    static Store s;
    return s;
}

void writePending() {
    Store& s = store();
    QMutexLocker write(&s.writeMutex);
    QHash<QString, QVariant> batch;
    {
        QMutexLocker lock(&s.pendingMutex);
        if (s.pending.isEmpty()) return;
        batch = s.pending;
    }
    {
        QSettings settings;  // QSettings is reentrant: one object per thread
        for (auto it = batch.cbegin(); it != batch.cend(); ++it) {
            if (it.value().isValid()) settings.setValue(it.key(), it.value());
            else settings.remove(it.key());
        }
        settings.sync();
    }
    // Forget what was written, unless it was set again meanwhile.
    QMutexLocker lock(&s.pendingMutex);
    for (auto it = batch.cbegin(); it != batch.cend(); ++it) {
        const auto p = s.pending.constFind(it.key());
        if (p != s.pending.cend() && p.value() == it.value()) s.pending.erase(p);
    }
}

}  // namespace

void setSettingAsync(const QString& key, const QVariant& value) {
    Store& s = store();
    {
        QMutexLocker lock(&s.pendingMutex);
        s.pending.insert(key, value);
    }
    s.pool.start(writePending);
}

QVariant settingValue(const QString& key, const QVariant& fallback) {
    Store& s = store();
    {
        QMutexLocker lock(&s.pendingMutex);
        if (const auto it = s.pending.constFind(key); it != s.pending.cend()) return it.value().isValid() ? it.value() : fallback;
    }
    return QSettings().value(key, fallback);
}

void flushSettings() {
    store().pool.waitForDone();
    writePending();  // nothing left normally; covers a write queued after waitForDone began
}

}  // namespace amn::ui
