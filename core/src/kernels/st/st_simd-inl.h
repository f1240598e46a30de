// SPDX-License-Identifier: MIT OR Apache-2.0
// Internal: the per-target SIMD helpers the safetensors-family kernel files
// share (st_simd.cc, st_simd_fp8.cc): vector types, rounding to the weight
// dtype, the E4M3FN cast and byte stores. Included by each Highway per-target
// file after foreach_target.h (the guard toggles once per target).

#if defined(AMN_ST_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef AMN_ST_SIMD_INL_H_
#undef AMN_ST_SIMD_INL_H_
#else
#define AMN_ST_SIMD_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::st {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using DI8 = hn::Rebind<std::int8_t, DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;

// F16 rounding of values with |v| < 65520 (no overflow to inf); a = |v|.
HWY_INLINE VF RoundF16Finite(VF v, VF a) {
    const DF df;
    const DU du;
    const VU u = hn::BitCast(du, v);
    const VU r = hn::Add(u, hn::Add(hn::Set(du, 0xFFFu), hn::And(hn::ShiftRight<13>(u), hn::Set(du, 1u))));
    const VF normal = hn::BitCast(df, hn::And(r, hn::Set(du, 0xFFFFE000u)));
    // F16 subnormals are the multiples of 2^-24: a·2^24 is exact, Round is half-to-even.
    const VF sub = hn::CopySign(
        hn::Mul(hn::Round(hn::Mul(a, hn::Set(df, 16777216.0f))), hn::Set(df, 5.9604644775390625e-08f)), v);
    return hn::IfThenElse(hn::Lt(a, hn::Set(df, 6.103515625e-05f)), sub, normal);
}

// W: 0 = F32 (no rounding), 1 = BF16, 2 = F16.
template <int W>
HWY_INLINE VF RoundW(VF v) {
    if constexpr (W == 0) {
        return v;
    } else if constexpr (W == 1) {
        const DU du;
        const VU u = hn::BitCast(du, v);
        const VU r = hn::Add(u, hn::Add(hn::Set(du, 0x7FFFu), hn::And(hn::ShiftRight<16>(u), hn::Set(du, 1u))));
        return hn::BitCast(DF(), hn::And(r, hn::Set(du, 0xFFFF0000u)));
    } else {
        const DF df;
        const VF a = hn::Abs(v);
        return hn::IfThenElse(hn::Ge(a, hn::Set(df, 65520.0f)), hn::CopySign(hn::Set(df, HUGE_VALF), v),
                              RoundF16Finite(v, a));
    }
}

// E4M3FN code of f32 values together with the value it stands for: the same
// code as E4M3, and `rounded` = E4M3Value(code), taken from the rounding
// itself instead of a decode of the code (fewer operations). Normal
// |v| ≥ 2^-6: the mantissa rounded to 3 bits ties-to-even in place (a carry
// moves into the exponent); below: |v|·2^9 rounded half-to-even.
// kNaN = false: only for |v| ≤ 464 (the compressed-tensors clamp to ±448),
// where the NaN pattern cannot occur; true: |v| > 464, inf and NaN give the
// NaN code 0x7F|sign and a NaN value, as E4M3.
template <bool kNaN>
HWY_INLINE VI E4M3Rounded(VF v, VF& rounded) {
    const DF df;
    const DI di;
    const DU du;
    const VU u = hn::BitCast(du, v);
    const VU sign = hn::And(u, hn::Set(du, 0x80000000u));
    const VU a = hn::Xor(u, sign);
    const VU lsb = hn::And(hn::ShiftRight<20>(a), hn::Set(du, 1u));
    const VU rn = hn::And(hn::Add(a, hn::Add(hn::Set(du, 0x7FFFFu), lsb)), hn::Set(du, 0xFFF00000u));
    const VF sm = hn::Round(hn::Mul(hn::BitCast(df, a), hn::Set(df, 512.0f)));
    const auto is_sub = hn::Lt(hn::BitCast(di, a), hn::Set(di, 0x3C800000));
    const VF mag = hn::IfThenElse(hn::RebindMask(df, is_sub), hn::Mul(sm, hn::Set(df, 0.001953125f)),
                                  hn::BitCast(df, rn));
    rounded = hn::BitCast(df, hn::Or(hn::BitCast(du, mag), sign));
    VI code = hn::IfThenElse(is_sub, hn::ConvertTo(di, sm),
                             hn::BitCast(di, hn::ShiftRight<20>(hn::Sub(rn, hn::Set(du, 120u << 23)))));
    if constexpr (kNaN) {
        const auto nan = hn::Gt(hn::BitCast(di, a), hn::Set(di, 0x43E80000));
        code = hn::IfThenElse(nan, hn::Set(di, 0x7F), code);
        rounded = hn::IfThenElse(hn::RebindMask(df, nan), hn::Set(df, NAN), rounded);
    }
    return hn::Or(code, hn::BitCast(di, hn::ShiftRight<24>(sign)));
}

// Store the low byte of each int32 lane (every lane already in 0…255 or
// −128…127, so this equals DemoteTo's saturation): VPMOVDB on AVX-512, one
// instruction where DemoteTo is three shuffles.
HWY_INLINE void StoreBytes(VI v, std::uint8_t* p) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(v.raw));
#else
    hn::StoreU(hn::DemoteTo(DU8(), v), DU8(), p);
#endif
}
HWY_INLINE void StoreBytes(VI v, std::int8_t* p) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(v.raw));
#else
    hn::StoreU(hn::DemoteTo(DI8(), v), DI8(), p);
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::st
HWY_AFTER_NAMESPACE();

#endif  // AMN_ST_SIMD_INL_H_ toggle
