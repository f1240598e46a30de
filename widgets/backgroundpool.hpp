// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// A thread for work nobody waits for (freeing a closed model's memory): it
// runs below the UI thread's CPU priority, so that on a busy machine waking
// it does not take the core the UI thread is painting on.

class QThreadPool;

namespace amn::ui {

/// One worker thread that never expires and runs at a lower priority (Linux:
/// nice +10 for that thread only; elsewhere the normal priority). Jobs run
/// one after another in the order started. Call once early on the UI thread
/// (MainWindow does) so that the thread is started and lowered before the
/// first job: a thread woken at normal priority may preempt the UI thread.
/// Never fails; the pool lives until the process exits.
QThreadPool* backgroundPool();

/// Lower the calling thread's CPU priority as backgroundPool()'s thread is
/// (Linux: nice +10, which an unprivileged process cannot undo, so call it
/// only on a thread of its own). Returns false when the platform has no such
/// per-thread priority or refuses it; nothing else changes then.
bool lowerThreadPriority();

}  // namespace amn::ui
