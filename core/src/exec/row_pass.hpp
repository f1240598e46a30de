// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file row_pass.hpp
/// One pass over the dequantized rows of a tensor on the Executor
/// (executor.hpp), shared by the statistics (value_stats.cc) and the
/// re-quantization estimate (round_trip_estimate.cc).
///
/// The pass runs on one worker, units in row order, so every accumulation
/// happens in exactly the element order of a plain sequential loop (sums of
/// doubles are order dependent; results must not depend on the thread
/// count). Memory is one reused buffer of one chunk.

#include "anamnesis/error.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/plan.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

namespace amn::detail {

/// Rows per chunk: whole multiples of the recipe's granularity, at least one,
/// about `chunk_elems` elements.
inline std::uint64_t rows_per_chunk(const Recipe& r, std::uint64_t chunk_elems) {
    const std::uint64_t re = std::max<std::uint64_t>(r.row_elems(), 1);
    const std::uint64_t g = std::max<std::uint64_t>(r.row_granularity(), 1);
    const std::uint64_t rows = std::max<std::uint64_t>(chunk_elems / re, 1);
    return std::max<std::uint64_t>(rows / g, 1) * g;
}

/// Dequantize the rows of `r` chunk by chunk into `buf` and call
/// `f(row0, nrows, values)` for each chunk, in row order.
/// \param cancel     checked before each chunk; when set the pass throws
///                   Error{Cancelled, cancelled_msg}.
/// \param progress   receives (done_before + rows done, total) in rows.
template <class F>
void for_each_row_chunk(const Recipe& r, std::uint64_t chunk_elems, std::vector<float>& buf,
                        const std::atomic<bool>* cancel, const char* cancelled_msg,
                        const ProgressFn& progress, std::uint64_t done_before, std::uint64_t total, F&& f) {
    std::vector<WorkUnit> units;
    split_rows(units, 0, r.rows(), 1, 1, rows_per_chunk(r, chunk_elems));
    ProgressFn adapter;
    if (progress)
        adapter = [&](const Progress& p) {
            if (p.total) progress({done_before + p.done, total});
        };
    run_units(
        units, 1,
        [&](const WorkUnit& u, unsigned) {
            if (cancel && cancel->load(std::memory_order_relaxed)) throw Error(ErrorCode::Cancelled, cancelled_msg);
            const std::size_t elems = static_cast<std::size_t>(u.nrows * r.row_elems());
            if (buf.size() < elems) buf.resize(elems);
            r.dequantize_rows(u.row0, u.nrows, buf.data());
            f(u.row0, u.nrows, static_cast<const float*>(buf.data()));
        },
        adapter);
}

}  // namespace amn::detail
