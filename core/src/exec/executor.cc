// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/executor.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

namespace amn {

void split_rows(std::vector<WorkUnit>& units, std::size_t item, std::uint64_t rows, std::uint64_t row_weight,
                std::uint64_t granularity, std::uint64_t chunk_weight) {
    if (rows == 0) return;
    const std::uint64_t g = std::max<std::uint64_t>(1, granularity);
    std::uint64_t per = std::max<std::uint64_t>(1, chunk_weight / std::max<std::uint64_t>(1, row_weight));
    per = std::max<std::uint64_t>(g, per / g * g);
    for (std::uint64_t r0 = 0; r0 < rows; r0 += per) {
        const std::uint64_t n = std::min(per, rows - r0);
        units.push_back({item, r0, n, n * row_weight});
    }
}

unsigned worker_count(unsigned threads, std::size_t n_units) noexcept {
    const unsigned n = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::clamp<std::size_t>(n_units, 1, n));
}

void run_units(const std::vector<WorkUnit>& units, unsigned threads,
               const std::function<void(const WorkUnit&, unsigned)>& body, const ProgressFn& progress,
               const std::atomic<bool>* cancel) {
    std::uint64_t total = 0;
    for (const auto& u : units) total += u.weight;
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> stop{false};
    std::mutex mu;
    std::exception_ptr first_error;
    std::uint64_t last_reported = 0;
    const std::uint64_t report_step = std::max<std::uint64_t>(1, total / 1000);

    auto worker = [&](unsigned id) {
        try {
            for (;;) {
                if (stop.load(std::memory_order_relaxed)) return;
                if (cancel && cancel->load(std::memory_order_relaxed)) throw Error(ErrorCode::Cancelled, "cancelled");
                const std::size_t u = next.fetch_add(1);
                if (u >= units.size()) return;
                body(units[u], id);
                const std::uint64_t d = done.fetch_add(units[u].weight) + units[u].weight;
                if (progress) {
                    // A worker that finished earlier may take the lock later:
                    // report only sums above the last one, so `done` never
                    // goes back (and d == total, the largest, is never skipped).
                    std::lock_guard lock(mu);
                    if (d > last_reported && (d - last_reported >= report_step || d == total)) {
                        last_reported = d;
                        progress({d, total});
                    }
                }
            }
        } catch (...) {
            std::lock_guard lock(mu);
            if (!first_error) first_error = std::current_exception();
            stop = true;
        }
    };
    const unsigned n = worker_count(threads, units.size());
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 1; i < n; ++i) pool.emplace_back(worker, i);
        worker(0);
    }
    if (!first_error && cancel && cancel->load()) first_error = std::make_exception_ptr(Error(ErrorCode::Cancelled, "cancelled"));
    if (first_error) std::rethrow_exception(first_error);
    if (progress && total == 0) progress({0, 0});
}

}  // namespace amn
