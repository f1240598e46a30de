// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file executor.hpp
/// The Executor: every long job (remember, forget, statistics, the loss
/// estimate) is a list of row chunks of tensors run on a pool of threads,
/// with one progress type, cancellation checked per chunk and the first
/// error kept. Memory stays bounded because each thread works on one chunk
/// at a time with buffers it reuses (indexed by the worker number the body
/// receives).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace amn {

/// Progress report: work done so far and in total, in the job's unit
/// (output bytes for conversions).
struct Progress {
    std::uint64_t done = 0;
    std::uint64_t total = 0;
};
/// Called from worker threads (serialised by the executor, at most every
/// ~0.1 % of the total and once at the end). Must be cheap and thread-safe.
using ProgressFn = std::function<void(const Progress&)>;

/// One work unit: rows [row0, row0 + nrows) of item `item` (a tensor index
/// of the caller's choosing); `weight` is what it adds to Progress::done.
struct WorkUnit {
    std::size_t item = 0;
    std::uint64_t row0 = 0, nrows = 0;
    std::uint64_t weight = 0;
};

/// Append the chunks of one item to `units`: `rows` rows of `row_weight`
/// progress units each (output bytes per row), cut into runs of about
/// `chunk_weight` units, every run a multiple of `granularity` rows (the
/// last one may be shorter). Nothing is appended for rows == 0.
void split_rows(std::vector<WorkUnit>& units, std::size_t item, std::uint64_t rows, std::uint64_t row_weight,
                std::uint64_t granularity, std::uint64_t chunk_weight);

/// Run `body(unit, worker)` for every unit on `threads` threads (0 = all
/// cores; never more threads than units; the calling thread is worker 0).
/// Units are taken in order. `cancel` is checked before each unit. After
/// the first exception no new unit starts; it is rethrown once all workers
/// stopped. A set `cancel` ends the run with Error{Cancelled}.
/// `progress` (optional) gets {done, total} in units of WorkUnit::weight,
/// one call at a time, `done` strictly rising, about every 0.1 % of `total`
/// and once with done == total when every unit ran; {0, 0} when there is no
/// weight. Size per-worker buffers with `worker_count(threads, units.size())`.
void run_units(const std::vector<WorkUnit>& units, unsigned threads,
               const std::function<void(const WorkUnit& unit, unsigned worker)>& body,
               const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// The number of workers run_units uses for `threads` and `n_units`.
unsigned worker_count(unsigned threads, std::size_t n_units) noexcept;

}  // namespace amn
