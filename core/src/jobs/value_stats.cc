// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/value_stats.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "kernels/common/loss_sums.hpp"
#include "exec/row_pass.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace amn {

namespace {

using detail::for_each_row_chunk;

}  // namespace

ValueStats compute_value_stats(const LogicalTensor& t, std::size_t bins, const ProgressFn& progress,
                               const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? std::string("tensor has no recipe") : t.error.message(), {}, t.name);
    if (bins < 1 || bins > 4096) throw Error(ErrorCode::Usage, "histogram bins must be 1..4096", {}, t.name);
    const Recipe& r = *t.recipe;
    const std::uint64_t total = 2 * r.rows();
    std::vector<float> buf;
    ValueStats s;
    double sum = 0;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    try {
        for_each_row_chunk(r, chunk_elems, buf, cancel, "statistics cancelled", progress, 0, total,
                           [&](std::uint64_t, std::uint64_t rows, const float* v) {
            const std::size_t n = static_cast<std::size_t>(rows * r.row_elems());
            for (std::size_t i = 0; i < n; ++i) {
                const float x = v[i];
                if (std::isnan(x)) { ++s.nans; continue; }
                if (std::isinf(x)) { ++s.infs; continue; }
                if (x == 0.0f) ++s.zeros;
                ++s.finite;
                const double d = x;
                sum += d;
                lo = std::min(lo, d);
                hi = std::max(hi, d);
            }
            s.count += n;
        });
        s.histogram.assign(bins, 0);
        if (s.finite == 0) {
            if (progress) progress({total, total});
            return s;
        }
        s.min = lo;
        s.max = hi;
        s.mean = sum / static_cast<double>(s.finite);
        s.hist_lo = lo;
        s.hist_hi = hi;
        if (lo == hi) { s.hist_lo = lo - 0.5; s.hist_hi = hi + 0.5; }
        const double width = s.hist_hi - s.hist_lo;
        const double scale = static_cast<double>(bins) / width;
        double sq = 0;  // second pass: sum of squared deviations (numerically stable)
        const double mean = s.mean, hlo = s.hist_lo;
        double sig = 0, err_b = 0, err_h = 0, max_b = 0, max_h = 0;
        std::uint64_t over_b = 0, over_h = 0, n_b = 0, n_h = 0;
        for_each_row_chunk(r, chunk_elems, buf, cancel, "statistics cancelled", progress, r.rows(), total,
                           [&](std::uint64_t, std::uint64_t rows, const float* v) {
            const std::size_t n = static_cast<std::size_t>(rows * r.row_elems());
            for (std::size_t i = 0; i < n; ++i) {
                const float x = v[i];
                if (!std::isfinite(x)) continue;
                const double d = static_cast<double>(x) - mean;
                sq += d * d;
                double f = (static_cast<double>(x) - hlo) * scale;
                std::size_t b = f <= 0 ? 0 : static_cast<std::size_t>(f);
                if (b >= bins) b = bins - 1;
                ++s.histogram[b];
                // Cast errors of the output dtypes.
                sig += static_cast<double>(x) * static_cast<double>(x);
                const float xb = kernels::scalar::f32_from_bf16(kernels::scalar::bf16_from_f32(x));
                if (std::isinf(xb)) ++over_b;
                else {
                    const double e = static_cast<double>(xb) - static_cast<double>(x);
                    err_b += e * e;
                    max_b = std::max(max_b, std::abs(e));
                    ++n_b;
                }
                const float xh = kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(x));
                if (std::isinf(xh)) ++over_h;
                else {
                    const double e = static_cast<double>(xh) - static_cast<double>(x);
                    err_h += e * e;
                    max_h = std::max(max_h, std::abs(e));
                    ++n_h;
                }
            }
        });
        s.std = std::sqrt(sq / static_cast<double>(s.finite));
        auto cast = [&](DType to, double err, double mx, std::uint64_t n, std::uint64_t over) {
            CastError c;
            c.to = to;
            c.rmse = n ? std::sqrt(err / static_cast<double>(n)) : 0;
            c.max_abs = mx;
            c.overflows = over;
            c.sqnr_db = detail::LossSums::sqnr_db_of(sig, err);  // the one SQNR rule (loss_sums.hpp)
            return c;
        };
        s.cast_errors = {cast(DType::BF16, err_b, max_b, n_b, over_b), cast(DType::F16, err_h, max_h, n_h, over_h)};
    } catch (const Error& e) {
        throw e.with_tensor(t.name);
    }
    return s;
}

}  // namespace amn
