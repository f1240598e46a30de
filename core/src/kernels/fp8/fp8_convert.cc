// SPDX-License-Identifier: MIT OR Apache-2.0
// SIMD element kernels (kernels.hpp): FP8 → f32 decoding and the
// f32 ↔ BF16/F16 conversions, compiled once per Highway target and chosen at
// run time (HWY_DYNAMIC_DISPATCH), in the manner of hwy/examples/skeleton.cc.
//
// Every target must produce exactly the bits of amn::kernels::scalar
// (core/src/kernels/fp8/scalar.cc); tests/core/test_kernels.cc checks each one.
//
// Techniques:
//   * FP8 decoding is bit arithmetic in u32 lanes, no table: normal codes
//     move their exponent/mantissa fields into f32 position and add the
//     exponent rebias (an integer add); subnormal codes are the exact product
//     int(mantissa) × 2^(1−bias−M); NaN/inf codes are selected in.
//   * f32 → BF16 adds the round-to-nearest-even bias (Highway 1.0.3's
//     DemoteTo truncates) and keeps NaN quiet.
//   * f32 ↔ F16 use F16C (vcvtps2ph/vcvtph2ps via DemoteTo/PromoteTo) on AVX2
//     and AVX3; the other targets use bit arithmetic here because Highway's
//     emulation there truncates and mishandles inf/NaN.
//   * Tails shorter than a vector go through a zero-padded stack buffer, so
//     every element is computed by the same vector code (Highway 1.0.3 has no
//     LoadN/StoreN).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fp8/fp8_convert.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "anamnesis/kernels.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// F16C is present on every x86 target from AVX2 up (Highway's AVX2 target
// requires it); the 128-bit SSSE3/SSE4 targets and the emulated ones lack it.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
#define AMN_KERNELS_HAVE_F16C 1
#else
#define AMN_KERNELS_HAVE_F16C 0
#endif

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;    // one byte per f32 lane
using DU16 = hn::Rebind<std::uint16_t, DF>;  // one u16 per f32 lane
using VF = hn::Vec<DF>;
using VU = hn::Vec<DU>;

// ---------------------------------------------------------------- loops

/// 2^e for a normal-range exponent (−126 ≤ e ≤ 127), exactly.
HWY_INLINE float Pow2(int e) {
    const std::uint32_t bits = static_cast<std::uint32_t>(e + 127) << 23;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

/// Runs `block(src + i, dst + i)` over whole vectors of `Lanes(DF)` elements,
/// then once more over a zero-padded copy of the tail.
template <typename S, typename D, class Block>
HWY_INLINE void ForEachVector(const S* HWY_RESTRICT src, D* HWY_RESTRICT dst, std::size_t n,
                              const Block& block) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    std::size_t i = 0;
    for (; i + N <= n; i += N) block(src + i, dst + i);
    if (i < n) {
        constexpr std::size_t kMax = HWY_MAX_BYTES / sizeof(float);
        HWY_ALIGN S src_buf[kMax] = {};
        HWY_ALIGN D dst_buf[kMax];
        const std::size_t rest = n - i;
        std::memcpy(src_buf, src + i, rest * sizeof(S));
        block(src_buf, dst_buf);
        std::memcpy(dst + i, dst_buf, rest * sizeof(D));
    }
}

// ---------------------------------------------------------------- FP8

/// Normal and subnormal codes of a sign-magnitude minifloat with M mantissa
/// bits and exponent bias `Bias`; `mag` = code without its sign bit (so the
/// exponent field is never all-ones here for the formats that reserve it:
/// callers select their specials over the result).
template <int M, int Bias>
HWY_INLINE VU MinifloatMagnitude(VU mag) {
    const DF df;
    const DU du;
    const DI di;
    // Normal: fields to f32 position, exponent rebias Bias → 127.
    const VU normal = hn::Add(hn::ShiftLeft<23 - M>(mag), hn::Set(du, std::uint32_t{127 - Bias} << 23));
    // Subnormal (exponent field 0, mag < 2^M): m · 2^(1−Bias−M), exact.
    const float sub_scale = Pow2(1 - Bias - M);
    const VU subnormal =
        hn::BitCast(du, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, mag)), hn::Set(df, sub_scale)));
    return hn::IfThenElse(hn::Lt(mag, hn::Set(du, 1u << M)), subnormal, normal);
}

/// u32 lanes holding FP8 codes (0..255) → f32 bits, per format.
template <DType F>
HWY_INLINE VU DecodeFp8(VU b) {
    const DU du;
    if constexpr (F == DType::F8_E8M0) {
        VU r = hn::ShiftLeft<23>(b);
        r = hn::IfThenElse(hn::Eq(b, hn::Zero(du)), hn::Set(du, 0x00400000u), r);  // 2^-127
        return hn::IfThenElse(hn::Eq(b, hn::Set(du, 0xFFu)), hn::Set(du, 0x7FC00000u), r);
    } else {
        const VU mag = hn::And(b, hn::Set(du, 0x7Fu));
        const VU sign = hn::ShiftLeft<24>(hn::And(b, hn::Set(du, 0x80u)));
        VU r;
        if constexpr (F == DType::F8_E4M3) {
            r = MinifloatMagnitude<3, 7>(mag);
            // S.1111.111 → quiet NaN 0x7FF00000 (mantissa 111 widened, quiet bit).
            r = hn::IfThenElse(hn::Eq(mag, hn::Set(du, 0x7Fu)), hn::Set(du, 0x7FF00000u), r);
            return hn::Or(sign, r);
        } else if constexpr (F == DType::F8_E5M2) {
            r = MinifloatMagnitude<2, 15>(mag);
            // Exponent 31: inf (mantissa 0) or quiet NaN with the mantissa widened.
            const VU special = hn::Or(hn::Set(du, 0x7F800000u),
                                      hn::ShiftLeft<21>(hn::And(mag, hn::Set(du, 3u))));
            const VU quiet = hn::IfThenElseZero(hn::Gt(mag, hn::Set(du, 0x7Cu)), hn::Set(du, 0x00400000u));
            r = hn::IfThenElse(hn::Gt(mag, hn::Set(du, 0x7Bu)), hn::Or(special, quiet), r);
            return hn::Or(sign, r);
        } else {
            static_assert(F == DType::F8_E4M3FNUZ || F == DType::F8_E5M2FNUZ);
            if constexpr (F == DType::F8_E4M3FNUZ) r = MinifloatMagnitude<3, 8>(mag);
            else r = MinifloatMagnitude<2, 16>(mag);
            // 0x80 (the would-be −0) is the only NaN: canonical +qNaN.
            return hn::IfThenElse(hn::Eq(b, hn::Set(du, 0x80u)), hn::Set(du, 0x7FC00000u), hn::Or(sign, r));
        }
    }
}

template <DType F, bool kScaled>
HWY_INLINE void Fp8Loop(const std::uint8_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, std::size_t n,
                        float scale) {
    const DF df;
    const DU du;
    const DU8 du8;
    const VF vscale = hn::Set(df, scale);
    ForEachVector(src, dst, n, [&](const std::uint8_t* s, float* d) HWY_ATTR {
        const VU b = hn::PromoteTo(du, hn::LoadU(du8, s));
        VF v = hn::BitCast(df, DecodeFp8<F>(b));
        if constexpr (kScaled) v = hn::Mul(v, vscale);
        hn::StoreU(v, df, d);
    });
}

template <bool kScaled>
void Fp8Dispatch(DType fmt, const std::uint8_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, std::size_t n,
                 float scale) {
    switch (fmt) {
    case DType::F8_E4M3: return Fp8Loop<DType::F8_E4M3, kScaled>(src, dst, n, scale);
    case DType::F8_E5M2: return Fp8Loop<DType::F8_E5M2, kScaled>(src, dst, n, scale);
    case DType::F8_E4M3FNUZ: return Fp8Loop<DType::F8_E4M3FNUZ, kScaled>(src, dst, n, scale);
    case DType::F8_E5M2FNUZ: return Fp8Loop<DType::F8_E5M2FNUZ, kScaled>(src, dst, n, scale);
    case DType::F8_E8M0: return Fp8Loop<DType::F8_E8M0, kScaled>(src, dst, n, scale);
    default:
        assert(false && "fp8_to_f32: not an FP8 dtype");
        std::fill(dst, dst + n, std::numeric_limits<float>::quiet_NaN());
    }
}

void Fp8ToF32(DType fmt, const std::uint8_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, std::size_t n) {
    Fp8Dispatch<false>(fmt, src, dst, n, 1.0f);
}

void Fp8ScaleToF32(DType fmt, const std::uint8_t* HWY_RESTRICT src, float scale, float* HWY_RESTRICT dst,
                   std::size_t n) {
    if (std::isnan(scale)) {
        // As scalar::fp8_scale_to_f32: the scale's NaN, quiet, everywhere
        // (NaN × NaN would otherwise depend on operand order).
        std::uint32_t u;
        std::memcpy(&u, &scale, sizeof u);
        u |= 0x00400000u;
        float nan;
        std::memcpy(&nan, &u, sizeof nan);
        std::fill(dst, dst + n, nan);
        return;
    }
    Fp8Dispatch<true>(fmt, src, dst, n, scale);
}

// ---------------------------------------------------------------- BF16

void F32ToBf16(const float* HWY_RESTRICT src, std::uint16_t* HWY_RESTRICT dst, std::size_t n) {
    const DF df;
    const DU du;
    const DI di;
    const DU16 du16;
    ForEachVector(src, dst, n, [&](const float* s, std::uint16_t* d) HWY_ATTR {
        const VF v = hn::LoadU(df, s);
        const VU u = hn::BitCast(du, v);
        const VU hi = hn::ShiftRight<16>(u);
        // Round to nearest even: + 0x7FFF + lsb of the kept half.
        const VU bias = hn::Add(hn::Set(du, 0x7FFFu), hn::And(hi, hn::Set(du, 1u)));
        const VU rounded = hn::ShiftRight<16>(hn::Add(u, bias));
        // NaN: truncate and set the quiet bit (sign and top payload kept).
        const VU nan = hn::Or(hi, hn::Set(du, 0x0040u));
        const VU r = hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), nan, rounded);
        // r ≤ 0xFFFF, so the saturating i32 → u16 demotion is exact.
        hn::StoreU(hn::DemoteTo(du16, hn::BitCast(di, r)), du16, d);
    });
}

void Bf16ToF32(const std::uint16_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, std::size_t n) {
    const DF df;
    const DU du;
    const DU16 du16;
    ForEachVector(src, dst, n, [&](const std::uint16_t* s, float* d) HWY_ATTR {
        const VU u = hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(du16, s)));
        hn::StoreU(hn::BitCast(df, u), df, d);
    });
}

// ---------------------------------------------------------------- F16

#if AMN_KERNELS_HAVE_F16C
using DF16 = hn::Rebind<hwy::float16_t, DF>;
#endif

/// f32 → binary16 bits (in u32 lanes) by bit arithmetic, round to nearest
/// even; same results as scalar::f16_from_f32.
HWY_INLINE VU F32ToF16Bits(VF v) {
    const DF df;
    const DU du;
    const VU u = hn::BitCast(du, v);
    const VU sign = hn::And(hn::ShiftRight<16>(u), hn::Set(du, 0x8000u));
    const VU a = hn::And(u, hn::Set(du, 0x7FFFFFFFu));
    // Normal binary16: rebias and round 23 → 10 mantissa bits.
    const VU lsb = hn::And(hn::ShiftRight<13>(a), hn::Set(du, 1u));
    const VU normal = hn::Sub(hn::ShiftRight<13>(hn::Add(a, hn::Add(hn::Set(du, 0x0FFFu), lsb))),
                              hn::Set(du, (127u - 15u) << 10));
    // Subnormal binary16: |x| + 0.5f rounds |x| to a multiple of 2^−24 (the
    // ULP of 0.5f) with the FPU's round-to-nearest-even; the low bits of the
    // sum are then the binary16 mantissa (0x400 = rounded up to the smallest
    // normal, encoded the same way).
    const VU subnormal = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(df, a), hn::Set(df, 0.5f))),
                                 hn::Set(du, 0x3F000000u));
    VU r = hn::IfThenElse(hn::Lt(a, hn::Set(du, 0x38800000u)), subnormal, normal);
    r = hn::IfThenElse(hn::Gt(a, hn::Set(du, 0x477FEFFFu)), hn::Set(du, 0x7C00u), r);
    const VU nan = hn::Or(hn::Set(du, 0x7E00u), hn::And(hn::ShiftRight<13>(a), hn::Set(du, 0x03FFu)));
    r = hn::IfThenElse(hn::Gt(a, hn::Set(du, 0x7F800000u)), nan, r);
    return hn::Or(sign, r);
}

/// binary16 bits (in u32 lanes) → f32 by bit arithmetic; same results as
/// scalar::f32_from_f16.
HWY_INLINE VF F16BitsToF32(VU h) {
    const DF df;
    const DU du;
    const DI di;
    const VU sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)));
    const VU a = hn::And(h, hn::Set(du, 0x7FFFu));
    const VU normal = hn::Add(hn::ShiftLeft<13>(a), hn::Set(du, (127u - 15u) << 23));
    const float two_m24 = Pow2(-24);
    const VU subnormal =
        hn::BitCast(du, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, a)), hn::Set(df, two_m24)));
    VU r = hn::IfThenElse(hn::Lt(a, hn::Set(du, 0x0400u)), subnormal, normal);
    // Exponent 31: inf, or NaN made quiet with its payload kept.
    const VU special = hn::Or(hn::Set(du, 0x7F800000u), hn::ShiftLeft<13>(a));
    const VU quiet = hn::IfThenElseZero(hn::Gt(a, hn::Set(du, 0x7C00u)), hn::Set(du, 0x00400000u));
    r = hn::IfThenElse(hn::Gt(a, hn::Set(du, 0x7BFFu)), hn::Or(special, quiet), r);
    return hn::BitCast(df, hn::Or(sign, r));
}

void F32ToF16(const float* HWY_RESTRICT src, std::uint16_t* HWY_RESTRICT dst, std::size_t n) {
    const DF df;
    const DU16 du16;
#if AMN_KERNELS_HAVE_F16C
    const DF16 df16;
    ForEachVector(src, dst, n, [&](const float* s, std::uint16_t* d) HWY_ATTR {
        // vcvtps2ph, round to nearest even (imm 0 | suppress exceptions).
        hn::StoreU(hn::BitCast(du16, hn::DemoteTo(df16, hn::LoadU(df, s))), du16, d);
    });
#else
    const DI di;
    ForEachVector(src, dst, n, [&](const float* s, std::uint16_t* d) HWY_ATTR {
        const VU r = F32ToF16Bits(hn::LoadU(df, s));
        hn::StoreU(hn::DemoteTo(du16, hn::BitCast(di, r)), du16, d);
    });
#endif
}

void F16ToF32(const std::uint16_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, std::size_t n) {
    const DF df;
#if AMN_KERNELS_HAVE_F16C
    const DF16 df16;
    const DU16 du16;
    ForEachVector(src, dst, n, [&](const std::uint16_t* s, float* d) HWY_ATTR {
        const auto h = hn::BitCast(df16, hn::LoadU(du16, s));
        hn::StoreU(hn::PromoteTo(df, h), df, d);  // vcvtph2ps
    });
#else
    const DU du;
    const DU16 du16;
    ForEachVector(src, dst, n, [&](const std::uint16_t* s, float* d) HWY_ATTR {
        hn::StoreU(F16BitsToF32(hn::PromoteTo(du, hn::LoadU(du16, s))), df, d);
    });
#endif
}

const char* ActiveTargetName() { return hwy::TargetName(HWY_TARGET); }

#undef AMN_KERNELS_HAVE_F16C

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels {

HWY_EXPORT(Fp8ToF32);
HWY_EXPORT(Fp8ScaleToF32);
HWY_EXPORT(F32ToBf16);
HWY_EXPORT(Bf16ToF32);
HWY_EXPORT(F32ToF16);
HWY_EXPORT(F16ToF32);
HWY_EXPORT(ActiveTargetName);

void fp8_to_f32(DType fmt, const std::uint8_t* src, float* dst, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(Fp8ToF32)(fmt, src, dst, n);
}

void fp8_scale_to_f32(DType fmt, const std::uint8_t* src, float scale, float* dst, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(Fp8ScaleToF32)(fmt, src, scale, dst, n);
}

void f32_to_bf16(const float* src, std::uint16_t* dst, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(F32ToBf16)(src, dst, n);
}

void f32_to_f16(const float* src, std::uint16_t* dst, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(F32ToF16)(src, dst, n);
}

void bf16_to_f32(const std::uint16_t* src, float* dst, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(Bf16ToF32)(src, dst, n);
}

void f16_to_f32(const std::uint16_t* src, float* dst, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(F16ToF32)(src, dst, n);
}

const char* active_target_name() noexcept { return HWY_DYNAMIC_DISPATCH(ActiveTargetName)(); }

}  // namespace amn::kernels
#endif  // HWY_ONCE
