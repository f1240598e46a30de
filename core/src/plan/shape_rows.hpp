// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: rows of a 2-D tensor's shape read through its recipe, whose own
// rows may differ. The passthrough recipe splits a row longer than 1 Mi
// elements into pieces (plan.hpp Recipe::rows(): a [2, 1 049 216] BF16 weight
// is 56 recipe rows of 37 472 elements), so a job that works in the shape's
// rows (forget to safetensors: bitsandbytes blocks, compressed-tensors groups
// and channels run along them) maps them to recipe rows here; their input
// pages are given back by release_shape_rows() (input_release.hpp).
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace amn::detail {

/// Dequantize shape rows [row0, row0 + nrows) of a tensor of `cols` columns
/// per shape row (elements) to f32 into `out` (nrows × cols floats, row-major)
/// through `r` (its rows() × row_elems() = the tensor's elements). Recipe rows
/// are decoded whole, in multiples of r.row_granularity(): straight into `out`
/// when the range starts and ends on such a boundary, else into a per-thread
/// scratch (up to one granule more on each side) and the range copied out.
/// \throws what r.dequantize_rows() throws.
inline void dequantize_shape_rows(const Recipe& r, std::uint64_t cols, std::uint64_t row0, std::uint64_t nrows,
                                  float* out) {
    const std::uint64_t re = r.row_elems(), rows = r.rows();
    if (nrows == 0 || cols == 0 || re == 0) return;
    if (re == cols) {
        r.dequantize_rows(row0, nrows, out);
        return;
    }
    const std::uint64_t g = std::max<std::uint64_t>(1, r.row_granularity());
    const std::uint64_t a = row0 * cols, b = a + nrows * cols;  // element range
    const std::uint64_t r0 = a / re / g * g;
    const std::uint64_t e = (b + re - 1) / re;  // recipe rows touched: [a / re, e)
    const std::uint64_t r1 = std::min(rows, (e + g - 1) / g * g);
    if (r0 * re == a && r1 * re == b) {
        r.dequantize_rows(r0, r1 - r0, out);
        return;
    }
    thread_local std::vector<float> scratch;
    scratch.resize(static_cast<std::size_t>((r1 - r0) * re));
    r.dequantize_rows(r0, r1 - r0, scratch.data());
    std::memcpy(out, scratch.data() + (a - r0 * re), static_cast<std::size_t>(b - a) * sizeof(float));
}

}  // namespace amn::detail
