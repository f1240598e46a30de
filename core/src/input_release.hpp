// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: drop the input pages a chunk of a recipe read, so that peak RSS
// stays flat whatever the model size (used by every executor job).
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"

namespace amn::detail {

/// Release the input pages rows [row0, row0 + nrows) of `r` read: per chunk
/// when the payload is row-major, else every input range once the
/// tensor's last chunk (row0 + nrows == rows) is done.
inline void release_inputs(const Catalog& cat, const Recipe& r, std::uint64_t row0, std::uint64_t nrows) {
    const auto ins = r.inputs();
    const std::uint64_t rows = r.rows();
    if (ins.empty() || rows == 0) return;
    if (r.payload_is_row_major()) {
        const auto& in = ins[0];
        const std::uint64_t per_row = in.len / rows;
        cat.shards[in.shard].file->release(in.offset + row0 * per_row, nrows * per_row);
    } else if (row0 + nrows == rows) {
        for (const auto& in : ins) cat.shards[in.shard].file->release(in.offset, in.len);
    }
}

}  // namespace amn::detail
