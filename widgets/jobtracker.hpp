// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// One small tracker for background jobs of a widget (the hotspot / Qt Creator
// shape): every job gets an id; a result whose id is no longer current is
// dropped (the user moved on); cancel() raises the job's cancel flag and
// forgets it; cancelAndWait() — also run by the destructor — cancels every
// job still running and blocks until their workers have returned, so no
// worker outlives its owner.
//
//   tracker_.start<Result>(this, [model](const std::atomic<bool>& cancel) { … return r; },
//                          [this](Result r) { show(r); });
//
// The work runs on QThreadPool::globalInstance() (or a pool given to
// startIndependent) and must not throw (catch
// and return the error in T). `done` runs on the owner's thread and only for
// the current job.

#include <QFuture>
#include <QPromise>
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace amn::ui {

class JobTracker {
public:
    JobTracker() = default;
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;
    ~JobTracker() { cancelAndWait(); }

    /// Start `work(cancelFlag) -> T` on a worker; `done(T)` is called on
    /// `context`'s thread when it finishes and is still the current job.
    /// Starting a job makes every earlier one stale (they keep running
    /// until they notice their cancel flag, which is raised).
    template <class T, class Work, class Done>
    quint64 start(QObject* context, Work work, Done done) {
        return startWithProgress<T>(
            context, [work = std::move(work)](const std::atomic<bool>& cancel, const std::function<void(int)>&) { return work(cancel); },
            std::move(done), [](int) {});
    }

    /// The same with progress: `work(cancelFlag, report)` calls report(0…1000)
    /// from the worker; `progress(permille)` runs on `context`'s thread for the
    /// current job only (QFutureWatcher delivers at most ~25 updates/s).
    template <class T, class Work, class Done, class Progress>
    quint64 startWithProgress(QObject* context, Work work, Done done, Progress progress) {
        cancel();
        prune();
        const quint64 id = ++id_;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        QFuture<T> future = QtConcurrent::run([work = std::move(work), flag](QPromise<T>& promise) {
            promise.setProgressRange(0, 1000);
            const std::function<void(int)> report = [&promise](int v) { promise.setProgressValue(v); };
            promise.addResult(work(*flag, report));
        });
        auto* watcher = new QFutureWatcher<T>(context);
        QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, context,
                         [this, id, progress = std::move(progress)](int v) mutable {
                             if (id == id_) progress(v);
                         });
        QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                         [this, watcher, id, done = std::move(done)]() mutable {
                             watcher->deleteLater();
                             prune();
                             if (id != id_ || watcher->future().resultCount() == 0) return;  // stale
                             done(watcher->future().result());
                         });
        watcher->setFuture(future);
        running_.push_back({QFuture<void>(future), flag});
        return id;
    }

    /// Start a job that does not make earlier ones stale (several models
    /// opening at once): `done(T)` runs for every job that finishes before
    /// the next cancel() / cancelAndWait(). Use one tracker for one kind of job.
    /// `pool`: where the work runs (null: QThreadPool::globalInstance()).
    template <class T, class Work, class Done>
    quint64 startIndependent(QObject* context, Work work, Done done, QThreadPool* pool = nullptr) {
        prune();
        const quint64 generation = generation_;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        QFuture<T> future = QtConcurrent::run(pool ? pool : QThreadPool::globalInstance(),
                                              [work = std::move(work), flag]() -> T { return work(*flag); });
        auto* watcher = new QFutureWatcher<T>(context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                         [this, watcher, generation, done = std::move(done)]() mutable {
                             watcher->deleteLater();
                             prune();
                             if (generation != generation_ || watcher->future().resultCount() == 0) return;  // cancelled
                             done(watcher->future().result());
                         });
        watcher->setFuture(future);
        running_.push_back({QFuture<void>(future), flag});
        return ++id_;
    }

    /// True while any job, current or stale, still runs.
    bool anyRunning() const {
        return std::any_of(running_.begin(), running_.end(), [](const Running& r) { return !r.future.isFinished(); });
    }

    /// The current job's id (0 before the first).
    quint64 current() const { return id_; }
    /// True while the current job runs.
    bool busy() const {
        return !running_.empty() && !running_.back().future.isFinished() && !running_.back().cancel->load();
    }
    /// Drop the current job's result and raise its cancel flag (returns at once).
    void cancel() {
        ++id_;
        ++generation_;
        for (auto& r : running_) r.cancel->store(true);
    }
    /// Cancel every job and wait for their workers.
    void cancelAndWait() {
        cancel();
        for (auto& r : running_) r.future.waitForFinished();
        running_.clear();
    }

private:
    void prune() {
        running_.erase(std::remove_if(running_.begin(), running_.end(), [](const Running& r) { return r.future.isFinished(); }),
                       running_.end());
    }
    struct Running {
        QFuture<void> future;
        std::shared_ptr<std::atomic<bool>> cancel;
    };
    quint64 id_ = 0;
    quint64 generation_ = 0;
    std::vector<Running> running_;
};

}  // namespace amn::ui
