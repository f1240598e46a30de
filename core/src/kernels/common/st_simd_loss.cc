// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD round-trip loss of the safetensors-family kernels
// (st_kernels.hpp `loss`), compiled once per target and chosen at run time;
// the other kernels are in st_simd.cc. Unlike them it does not match the
// scalar reference bit for bit: the f64 sums are kept per lane (two
// accumulators of f64 lanes, even and odd vectors) and added at the end, so
// the sums differ from the element-by-element order in the last bits (never
// the file bytes); max_abs, count and nonfinite are exact.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/st_simd_loss.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::st {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

void Loss(const float* x, const float* y, std::size_t n, LossSums& acc) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> dfh;
    const std::size_t N = hn::Lanes(dd);
    using VD = hn::Vec<decltype(dd)>;
    VD sse0 = hn::Zero(dd), sse1 = hn::Zero(dd), sx0 = hn::Zero(dd), sx1 = hn::Zero(dd), mx = hn::Zero(dd);
    const VD inf = hn::Set(dd, HUGE_VAL);
    VD badv = hn::Zero(dd);  // non-finite y per lane (exact as a double)
    std::size_t i = 0;
    auto step = [&](std::size_t at, VD& sse, VD& sx) {
        const VD xd = hn::PromoteTo(dd, hn::LoadU(dfh, x + at));
        const VD yd = hn::PromoteTo(dd, hn::LoadU(dfh, y + at));
        const auto fin = hn::Lt(hn::Abs(yd), inf);
        const VD d = hn::IfThenElseZero(fin, hn::Sub(yd, xd));
        const VD xs = hn::IfThenElseZero(fin, xd);
        sse = hn::Add(sse, hn::Mul(d, d));
        sx = hn::Add(sx, hn::Mul(xs, xs));
        mx = hn::Max(mx, hn::Abs(d));
        badv = hn::Add(badv, hn::IfThenZeroElse(fin, hn::Set(dd, 1.0)));
    };
    // All-finite y (the usual case) skips the masks: the same sums, bit for bit.
    auto fast = [&](std::size_t at, VD& sse, VD& sx) {
        const VD xd = hn::PromoteTo(dd, hn::LoadU(dfh, x + at));
        const VD d = hn::Sub(hn::PromoteTo(dd, hn::LoadU(dfh, y + at)), xd);
        sse = hn::Add(sse, hn::Mul(d, d));
        sx = hn::Add(sx, hn::Mul(xd, xd));
        mx = hn::Max(mx, hn::Abs(d));
    };
    const DF df;
    const VF inff = hn::Set(df, HUGE_VALF);
    if (hn::Lanes(df) == 2 * N) {
        for (; i + 2 * N <= n; i += 2 * N) {
            if (hn::AllTrue(df, hn::Lt(hn::Abs(hn::LoadU(df, y + i)), inff))) {
                fast(i, sse0, sx0);
                fast(i + N, sse1, sx1);
            } else {
                step(i, sse0, sx0);
                step(i + N, sse1, sx1);
            }
        }
    }
    for (; i + 2 * N <= n; i += 2 * N) {
        step(i, sse0, sx0);
        step(i + N, sse1, sx1);
    }
    for (; i + N <= n; i += N) step(i, sse0, sx0);
    acc.sse += hn::GetLane(hn::SumOfLanes(dd, hn::Add(sse0, sse1)));
    acc.sx2 += hn::GetLane(hn::SumOfLanes(dd, hn::Add(sx0, sx1)));
    acc.max_abs = std::max(acc.max_abs, hn::GetLane(hn::MaxOfLanes(dd, mx)));
    const auto bad = std::uint64_t(hn::GetLane(hn::SumOfLanes(dd, badv)));
    acc.nonfinite += bad;
    acc.count += i - bad;
    scalar_kernels().loss(x + i, y + i, n - i, acc);
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::st
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::st {

HWY_EXPORT(Loss);

void simd_loss(const float* x, const float* y, std::size_t n, LossSums& acc) { HWY_DYNAMIC_DISPATCH(Loss)(x, y, n, acc); }

}  // namespace amn::kernels::st
#endif  // HWY_ONCE
