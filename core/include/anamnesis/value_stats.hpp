// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file value_stats.hpp
/// Value statistics of a logical tensor (min, max, mean, standard deviation,
/// zeros, NaN/Inf, a histogram of the dequantized values and what a cast to
/// BF16/F16 loses) — the numbers the GUI's tensor detail shows, computed
/// here so that no UI code ever touches tensor bytes.

#include "anamnesis/dtype.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/plan.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace amn {

/// What writing the dequantized values in a narrower float dtype loses,
/// measured against the exact f32 values over the finite elements: the
/// precision `remember --to bf16/f16` gives up on top of the quantization.
struct CastError {
    DType to = DType::BF16;          ///< BF16 (round to nearest even) or F16 (IEEE RNE)
    double rmse = 0;                 ///< sqrt(mean((cast(x) − x)²))
    double max_abs = 0;              ///< max |cast(x) − x|
    /// 10·log10(Σx² / Σ(cast(x) − x)²) in dB; +inf when the cast is exact
    /// (also when every value is zero): the SQNR rule of every loss report.
    double sqnr_db = 0;
    std::uint64_t overflows = 0;     ///< finite values that become ±Inf (excluded from the sums)
};

/// Statistics over the f32 values a logical tensor dequantizes to
/// (`Recipe::dequantize_rows`), i.e. the values `remember --to f32` writes.
struct ValueStats {
    std::uint64_t count = 0;   ///< elements examined (= numel)
    std::uint64_t finite = 0;  ///< elements that are neither NaN nor ±Inf
    std::uint64_t zeros = 0;   ///< elements equal to ±0.0
    std::uint64_t nans = 0;    ///< NaN elements
    std::uint64_t infs = 0;    ///< +Inf or −Inf elements
    /// Over the finite elements only (0 when there are none). Sums are
    /// accumulated in double; std is the population standard deviation
    /// (numpy `std`, ddof = 0).
    double min = 0, max = 0, mean = 0, std = 0;
    /// Histogram of the finite values: `histogram.size()` equal-width bins
    /// spanning [hist_lo, hist_hi] (= [min, max]); value v falls in bin
    /// floor((v − lo) / (hi − lo) × bins), the maximum in the last bin, as
    /// `numpy.histogram(values, bins)`. When min == max the range is
    /// [min − 0.5, max + 0.5] (numpy's rule), so the values land in the middle bin.
    std::vector<std::uint64_t> histogram;
    double hist_lo = 0, hist_hi = 0;
    /// Cast errors for BF16 and F16, in that order (computed in the second pass).
    std::vector<CastError> cast_errors;
};

/// Compute `ValueStats` with `bins` histogram bins (1..4096) by dequantizing
/// the tensor in row chunks of about `chunk_elems` elements (memory stays
/// bounded: one chunk buffer). Two passes: moments, then the histogram.
/// Runs on the calling thread; call it from a worker.
/// \param progress called after every chunk (may be empty), in rows
///                 dequantized: two passes, so total = 2 × rows.
/// \param cancel   checked before every chunk; when it becomes true the call
///                 throws Error{Cancelled}.
/// \throws Error{Unsupported} when the tensor has an error (no recipe);
///         Error{Usage} for bins outside 1..4096; Error{Cancelled};
///         any Error the recipe raises.
ValueStats compute_value_stats(const LogicalTensor& tensor, std::size_t bins = 64,
                               const ProgressFn& progress = {},
                               const std::atomic<bool>* cancel = nullptr,
                               std::uint64_t chunk_elems = 1u << 20);

}  // namespace amn
