// SPDX-License-Identifier: MIT OR Apache-2.0
// SIMD MLX affine dequantization (mlx_kernels.hpp affine_group), compiled
// once per Highway target and chosen at run time (HWY_DYNAMIC_DISPATCH).
// The same IEEE operations as scalar::affine_group, lane by lane: q·s in
// f32, rounded to BF16 with integer operations (nearest even, NaN → 0x7FC0),
// + b in f32, rounded again; F32 without the roundings. F16 and tails
// shorter than a vector run the scalar reference.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "mlx/mlx_simd.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "mlx_kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::mlx {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using VF = hn::Vec<DF>;

HWY_INLINE VF RoundBf16(VF x) {
    const DF df;
    const DU du;
    const DI di;
    const auto u = hn::BitCast(du, x);
    const auto lsb = hn::And(hn::ShiftRight<16>(u), hn::Set(du, 1u));
    const auto r = hn::ShiftLeft<16>(hn::ShiftRight<16>(hn::Add(hn::Add(u, hn::Set(du, 0x7FFFu)), lsb)));
    // |x| bits above +inf (as signed: both < 2^31) = NaN.
    const auto nan = hn::Gt(hn::BitCast(di, hn::And(u, hn::Set(du, 0x7FFFFFFFu))), hn::Set(di, 0x7F800000));
    return hn::BitCast(df, hn::IfThenElse(hn::RebindMask(du, nan), hn::Set(du, 0x7FC00000u), r));
}

void AffineGroup(DType dtype, const std::uint8_t* HWY_RESTRICT q, float scale, float bias, float* HWY_RESTRICT y,
                 std::size_t n) {
    const DF df;
    const DU du;
    const DI di;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);
    const auto s = hn::Set(df, scale), b = hn::Set(df, bias);
    std::size_t i = 0;
    if (dtype == DType::BF16) {
        for (; i + N <= n; i += N) {
            const auto qf = hn::ConvertTo(df, hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(du8, q + i))));
            hn::StoreU(RoundBf16(hn::Add(RoundBf16(hn::Mul(qf, s)), b)), df, y + i);
        }
    } else if (dtype == DType::F32) {
        for (; i + N <= n; i += N) {
            const auto qf = hn::ConvertTo(df, hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(du8, q + i))));
            hn::StoreU(hn::Add(hn::Mul(qf, s), b), df, y + i);
        }
    }
    if (i < n) scalar::affine_group(dtype, q + i, scale, bias, y + i, n - i);
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::mlx
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::mlx {

HWY_EXPORT(AffineGroup);
HWY_EXPORT(TargetName);

void affine_group(DType dtype, const std::uint8_t* q, float scale, float bias, float* y, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(AffineGroup)(dtype, q, scale, bias, y, n);
}
const char* mlx_target_name() noexcept { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace amn::kernels::mlx
#endif  // HWY_ONCE
