// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: drop the input pages a chunk of a recipe read, so that peak RSS
// stays flat whatever the model size (used by every executor job).
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"

#include <algorithm>
#include <cstdint>

namespace amn::detail {

/// Release the input pages of rows [row0, row0 + nrows) of a tensor read
/// through `r`, in rows of `cols` elements (the tensor's shape rows, which
/// may differ from the recipe's: the passthrough recipe splits a row over
/// 1 Mi elements into pieces): when the payload is row-major, the byte range
/// of those elements (whole pages inside it only, MappedFile::release); else
/// what the recipe says those rows finish reading (Recipe::consumed_inputs:
/// a stack's parts row by row, other recipes every input once the tensor's
/// last row is done).
inline void release_shape_rows(const Catalog& cat, const Recipe& r, std::uint64_t cols, std::uint64_t row0,
                               std::uint64_t nrows) {
    const auto ins = r.inputs();
    const std::uint64_t n = r.rows() * r.row_elems();
    if (ins.empty() || n == 0 || cols == 0) return;
    const std::uint64_t a = row0 * cols, b = std::min(n, a + nrows * cols);
    if (r.payload_is_row_major()) {
        const auto& in = ins[0];
        const std::uint64_t re = r.row_elems(), rb = in.len / r.rows();  // bytes per recipe row
        auto byte_of = [&](std::uint64_t x) { return x / re * rb + x % re * rb / re; };
        const std::uint64_t begin = byte_of(a), end = byte_of(b);
        // The tensor's last rows: its edge pages too (shared with its neighbours).
        cat.shards[in.shard].file->release(in.offset + begin, end - begin, b == n);
    } else {
        // The recipe rows the shape rows touch (a partial row at either end is
        // included: a page released early is read again, never lost).
        const std::uint64_t re = r.row_elems();
        const std::uint64_t r0 = a / re, r1 = b == n ? r.rows() : (b + re - 1) / re;
        for (const auto& in : r.consumed_inputs(r0, r1 - r0)) cat.shards[in.shard].file->release(in.offset, in.len, true);
    }
}

/// The same in the recipe's own rows: rows [row0, row0 + nrows) of `r`.
inline void release_inputs(const Catalog& cat, const Recipe& r, std::uint64_t row0, std::uint64_t nrows) {
    release_shape_rows(cat, r, r.row_elems(), row0, nrows);
}

}  // namespace amn::detail
