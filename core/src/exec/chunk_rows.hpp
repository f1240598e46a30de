// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file chunk_rows.hpp
/// Internal: the rows of one work unit of a scheme encoder's tensor, as the
/// runner offers them: the stored BF16 bits as they are, or decoded to f32
/// (optionally rounded through OutputTensor::round_to, checked finite, input
/// pages released).

#include "anamnesis/catalog.hpp"
#include "exec/output_plan.hpp"

#include <cstdint>
#include <vector>

namespace amn::exec {

class ChunkRows {
public:
    /// Rows [row0, row0 + nrows) of `t` (rows of t.cols elements), decoded
    /// into `x` (a worker's buffer, resized as needed).
    ChunkRows(const Catalog& cat, const OutputTensor& t, std::uint64_t row0, std::uint64_t nrows, std::vector<float>& x);

    std::uint64_t row0() const noexcept { return row0_; }
    std::uint64_t nrows() const noexcept { return nrows_; }
    std::uint64_t cols() const noexcept { return t_.cols; }

    /// The stored BF16 values of these rows (nrows · cols), or nullptr when
    /// OutputTensor::stored is unset.
    const std::uint16_t* stored_bf16() const noexcept;

    /// Decode the rows to f32 (nrows · cols values). `check`: a NaN/±inf is
    /// an Error{Unsupported} naming its [row, col]. `release`: give their
    /// input pages back (not in a first pass whose second pass reads them
    /// again).
    const float* decode(bool check, bool release);
    /// The values decode() made.
    const float* values() const noexcept { return x_.data(); }
    /// Error{Unsupported} naming the first NaN/±inf of the decoded values.
    void check_finite() const;
    /// Give the rows' input pages back.
    void release() const;

private:
    const Catalog& cat_;
    const OutputTensor& t_;
    std::uint64_t row0_, nrows_;
    std::vector<float>& x_;
};

}  // namespace amn::exec
