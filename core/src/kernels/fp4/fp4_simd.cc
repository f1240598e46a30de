// SPDX-License-Identifier: MIT OR Apache-2.0
// SIMD FP4 (E2M1) group decoder and BF16/F16 rounding of the FP4 safetensors
// schemes (fp4_kernels.hpp), compiled once per Highway target and chosen at
// run time (HWY_DYNAMIC_DISPATCH), like quant_simd.cc.
//
// Every target must produce exactly the bits of the scalar kernels
// (fp4_kernels.cc); tests/core/test_fp4_kernels.cc checks each one.
//   * E2M1 values: a 16-entry int8 table of 2·value looked up with a byte
//     shuffle on the nibbles, put in output order (low nibble first) by
//     interleaving; f32(2·v) × 0.5 is v exactly, then the one multiply by
//     the group's scale, as the scalar path. Code 8 is −0.0 by OR-ing the
//     code's sign bit (negative_zero), +0.0 otherwise.
//   * rounding through BF16/F16 is integer arithmetic on the bits that
//     mirrors scalar::bf16_from_f32 / f16_from_f32 and back (NaN payloads
//     included); F16 subnormals by (|x| + 0.5) − 0.5, which rounds to a
//     multiple of 2^−24, ties to even.
//   * tails shorter than 16 bytes, and the SCALAR target, use the scalar
//     reference.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fp4/fp4_simd.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "fp4_kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::fp4 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, 16>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using DI8 = hn::Rebind<std::int8_t, DF>;
using VF = hn::Vec<DF>;

// x → round_to(dtype, x), per lane.
HWY_INLINE VF RoundBF16(VF x) {
    const DU du;
    const DI di;
    const auto u = hn::BitCast(du, x);
    const auto nan = hn::RebindMask(du, hn::Gt(hn::BitCast(di, hn::And(u, hn::Set(du, 0x7FFFFFFFu))), hn::Set(di, 0x7F800000)));
    const auto hi = hn::Set(du, 0xFFFF0000u);
    const auto bias = hn::Add(hn::Set(du, 0x7FFFu), hn::And(hn::ShiftRight<16>(u), hn::Set(du, 1u)));
    const auto rounded = hn::And(hn::Add(u, bias), hi);
    const auto quiet = hn::Or(hn::And(u, hi), hn::Set(du, 0x00400000u));
    return hn::BitCast(DF(), hn::IfThenElse(nan, quiet, rounded));
}

HWY_INLINE VF RoundF16(VF x) {
    const DF df;
    const DU du;
    const DI di;
    const auto u = hn::BitCast(du, x);
    const auto sign = hn::And(u, hn::Set(du, 0x80000000u));
    const auto a = hn::And(u, hn::Set(du, 0x7FFFFFFFu));
    const auto ai = hn::BitCast(di, a);
    // Subnormal binary16 range (|x| < 2^−14): a multiple of 2^−24.
    const VF half = hn::Set(df, 0.5f);
    const auto sub = hn::BitCast(du, hn::Sub(hn::Add(hn::BitCast(df, a), half), half));
    // Normal: the mantissa rounded to 10 bits, ties to even.
    const auto bias = hn::Add(hn::Set(du, 0x0FFFu), hn::And(hn::ShiftRight<13>(a), hn::Set(du, 1u)));
    const auto normal = hn::And(hn::Add(a, bias), hn::Set(du, 0xFFFFE000u));
    auto mag = hn::IfThenElse(hn::RebindMask(du, hn::Lt(ai, hn::Set(di, 0x38800000))), sub, normal);
    mag = hn::IfThenElse(hn::RebindMask(du, hn::Gt(ai, hn::Set(di, 0x477FEFFF))), hn::Set(du, 0x7F800000u), mag);
    const auto nan = hn::Or(hn::Set(du, 0x7FC00000u), hn::And(a, hn::Set(du, 0x007FE000u)));
    mag = hn::IfThenElse(hn::RebindMask(du, hn::Gt(ai, hn::Set(di, 0x7F800000))), nan, mag);
    return hn::BitCast(df, hn::Or(sign, mag));
}

template <int kRound>  // 0: none, 1: BF16, 2: F16
HWY_INLINE VF Round(VF x) {
    if constexpr (kRound == 1) return RoundBF16(x);
    if constexpr (kRound == 2) return RoundF16(x);
    return x;
}

#if HWY_TARGET != HWY_SCALAR
// 2 × the E2M1 values (exact small integers; code 8 → 0).
alignas(16) constexpr std::int8_t kTwice[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

template <int kRound>
void GroupsBody(const std::uint8_t* HWY_RESTRICT packed, const float* HWY_RESTRICT scales, std::size_t group_bytes,
                bool negative_zero, float* HWY_RESTRICT y, std::size_t nfull) {
    const DF df;
    const DU du;
    const DI di;
    const hn::Full128<std::uint8_t> d16;
    const hn::Full128<std::int8_t> dt;
    const std::size_t N = hn::Lanes(df);
    const std::size_t ge = 2 * group_bytes;  // elements per group
    const auto table = hn::Load(dt, kTwice);
    const auto k15 = hn::Set(d16, 0x0F);
    const VF halfv = hn::Set(df, 0.5f);
    const auto k8 = hn::Set(du, 8u);
    alignas(16) std::int8_t vals[32];
    alignas(16) std::uint8_t codes[32];
    for (std::size_t i = 0; i < nfull; i += 16) {
        const auto q = hn::LoadU(d16, packed + i);
        const auto lo = hn::And(q, k15), hi = hn::ShiftRight<4>(q);
        const auto c0 = hn::InterleaveLower(d16, lo, hi), c1 = hn::InterleaveUpper(d16, lo, hi);
        hn::Store(hn::TableLookupBytes(table, hn::BitCast(dt, c0)), dt, vals);
        hn::Store(hn::TableLookupBytes(table, hn::BitCast(dt, c1)), dt, vals + 16);
        if (negative_zero) {
            hn::Store(c0, d16, codes);
            hn::Store(c1, d16, codes + 16);
        }
        const std::size_t e0 = 2 * i;
        for (std::size_t e = 0; e < 32; e += N) {
            VF v = hn::Mul(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(DI8(), vals + e))), halfv);
            if (negative_zero) {
                const auto c = hn::PromoteTo(du, hn::LoadU(DU8(), codes + e));
                v = hn::Or(v, hn::BitCast(df, hn::ShiftLeft<28>(hn::And(c, k8))));
            }
            const VF s = hn::Set(df, scales[(e0 + e) / ge]);
            hn::StoreU(Round<kRound>(hn::Mul(v, s)), df, y + e0 + e);
        }
    }
}
#endif

void E2m1Groups(const std::uint8_t* HWY_RESTRICT packed, const float* HWY_RESTRICT scales, std::size_t group_bytes,
                bool negative_zero, DType round, float* HWY_RESTRICT y, std::size_t groups) {
    std::size_t nfull = 0;
#if HWY_TARGET != HWY_SCALAR
    nfull = group_bytes * groups / 16 * 16;
    if (round == DType::BF16) GroupsBody<1>(packed, scales, group_bytes, negative_zero, y, nfull);
    else if (round == DType::F16) GroupsBody<2>(packed, scales, group_bytes, negative_zero, y, nfull);
    else GroupsBody<0>(packed, scales, group_bytes, negative_zero, y, nfull);
#endif
    // Tail (whole groups, since group_bytes is a multiple of 8): scalar.
    for (std::size_t g = nfull / group_bytes; g < groups; ++g) {
        float* yg = y + 2 * g * group_bytes;
        e2m1_scale(packed + g * group_bytes, negative_zero, scales[g], yg, group_bytes);
        round_through(round, yg, 2 * group_bytes);
    }
}

void RoundThrough(DType dtype, float* HWY_RESTRICT y, std::size_t n) {
    if (dtype != DType::BF16 && dtype != DType::F16) return;
    const DF df;
    const std::size_t N = hn::Lanes(df);
    std::size_t i = 0;
    if (dtype == DType::BF16)
        for (; i + N <= n; i += N) hn::StoreU(RoundBF16(hn::LoadU(df, y + i)), df, y + i);
    else
        for (; i + N <= n; i += N) hn::StoreU(RoundF16(hn::LoadU(df, y + i)), df, y + i);
    round_through(dtype, y + i, n - i);
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::fp4
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::fp4 {

HWY_EXPORT(E2m1Groups);
HWY_EXPORT(RoundThrough);
HWY_EXPORT(TargetName);

void e2m1_groups(const std::uint8_t* packed, const float* scales, std::size_t group_bytes, bool negative_zero, DType round,
                 float* y, std::size_t groups) noexcept {
    HWY_DYNAMIC_DISPATCH(E2m1Groups)(packed, scales, group_bytes, negative_zero, round, y, groups);
}
void round_through_simd(DType dtype, float* y, std::size_t n) noexcept { HWY_DYNAMIC_DISPATCH(RoundThrough)(dtype, y, n); }
const char* fp4_target_name() noexcept { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace amn::kernels::fp4
#endif  // HWY_ONCE
