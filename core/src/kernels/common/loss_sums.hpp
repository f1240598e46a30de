// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the one round-trip error accumulator of the loss reports —
// forget to GGUF (forget_gguf.cc), forget to safetensors schemes (forget_st.cc and
// its kernels, st_kernels.hpp), the re-quantization estimates
// (round_trip_estimate.cc, round_trip_estimate_gguf.cc) and the cast errors of the statistics
// (value_stats.cc, the SQNR rule only). x is the original value, y its round trip
// (quantized, then dequantized).
//
// Sums are f64: the difference of two f32 values is exact in f64, so each
// term is the exact error squared, rounded once. A pair enters the sums only
// when both x and y are finite; the others are counted in `nonfinite` (the
// caller says what they were: an LLM.int8 row whose F16 cast overflows, a
// non-finite input value skipped by an estimate).
//
// SQNR rule (one for every report): 10·log10(Σx² / Σ(y−x)²) in dB, and +inf
// when Σ(y−x)² = 0 — nothing was lost, which includes an all-zero tensor
// quantized exactly and a tensor with no finite pair at all. A non-zero
// error over an all-zero signal gives −inf. Reports print +inf as "exact"
// (JSON: null).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace amn::detail {

struct LossSums {
    double sx2 = 0;      ///< Σ x² over the finite pairs
    double sse = 0;      ///< Σ (y − x)² over the finite pairs
    double max_abs = 0;  ///< max |y − x| over the finite pairs (0 when none)
    std::uint64_t count = 0;      ///< finite pairs summed
    std::uint64_t nonfinite = 0;  ///< pairs left out: x or y NaN/±inf

    /// Add one pair (x original, y round trip). Summation order is the
    /// caller's: element by element here.
    void add(float x, float y) noexcept {
        const double xd = x, d = static_cast<double>(y) - xd;  // finite iff x and y are (no f64 overflow)
        if (!std::isfinite(d)) {
            ++nonfinite;
            return;
        }
        sx2 += xd * xd;
        sse += d * d;
        max_abs = std::max(max_abs, std::fabs(d));
        ++count;
    }

    /// Add sums computed elsewhere (SIMD lanes, another chunk): the totals of
    /// both, max of the maxima.
    void merge(const LossSums& o) noexcept {
        sx2 += o.sx2;
        sse += o.sse;
        max_abs = std::max(max_abs, o.max_abs);
        count += o.count;
        nonfinite += o.nonfinite;
    }

    /// sqrt(Σ(y−x)² / count), in the units of x; 0 when nothing was summed.
    double rmse() const noexcept { return count ? std::sqrt(sse / static_cast<double>(count)) : 0.0; }

    /// SQNR in dB by the rule above.
    double sqnr_db() const noexcept { return sqnr_db_of(sx2, sse); }

    /// The SQNR rule on two sums (totals over several tensors, the statistics'
    /// cast errors): sse = 0 → +inf, else 10·log10(sx2 / sse).
    static double sqnr_db_of(double sx2, double sse) noexcept {
        return sse == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(sx2 / sse);
    }
};

/// Copy the sums' figures into a per-tensor report row (ForgetTensor and the
/// like: fields max_abs, sum_sq_error, sum_sq_signal, rmse, sqnr_db, and
/// loss_pairs where the row has it).
template <class Row>
void store_loss(Row& t, const LossSums& l) noexcept {
    if constexpr (requires { t.loss_pairs; }) t.loss_pairs = l.count;
    t.max_abs = l.max_abs;
    t.sum_sq_error = l.sse;
    t.sum_sq_signal = l.sx2;
    t.rmse = l.rmse();
    t.sqnr_db = l.sqnr_db();
}

}  // namespace amn::detail
