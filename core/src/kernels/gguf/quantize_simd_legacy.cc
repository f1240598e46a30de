// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD encoders for the legacy block types (Q8_0, Q4_0, Q4_1, Q5_0,
// Q5_1), compiled once per target and chosen at run time. They are not yet the
// registry's entry points: quantize_dispatch.cc wires them in.
//
// Bit-exactness with the scalar reference (quantize_legacy.cc, = ggml's
// quantize_row_<type>_ref):
// - the block maximum (of |x|, or min and max) does not depend on the order
//   of comparisons; Q4_0 and Q5_0 then take the *first* element of that
//   magnitude, as ggml's `if (amax < fabsf(v))` scan does;
// - the scale and its reciprocal are the same scalar expressions;
// - per element: the same f32 multiply (and the same `+ 8.5f` for Q4_0)
//   lane by lane, then truncation (cvttps2dq, = the cast for values in
//   range) or roundf (half away from zero, built exactly from Trunc);
// - a block goes to the scalar reference when its scale is zero, subnormal
//   or not finite, when it holds inf or NaN, and (Q4_1, Q5_1) when its min
//   is a zero: there the reciprocal can overflow to inf and ggml's
//   casts are undefined (reproduced with x86 GCC semantics by the scalar
//   code), or the sign of a stored zero depends on which zero came first.
//   For every other block |x·id| stays within a few ulp of the largest code
//   (127, 8, 15, 16 or 31), so every conversion is in range.
// Lanes are capped at 16 so a vector never straddles the two halves of a
// 32-element block.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/quantize_simd_legacy.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "gguf_quantize.hpp"
#include "quantize_common.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, 16>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using DI8 = hn::Rebind<std::int8_t, DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

HWY_INLINE void StoreFp16(std::uint8_t* p, float f) {
    const std::uint16_t h = q::f32_to_fp16(f);
    std::memcpy(p, &h, 2);
}

// max |x[j]| over the 32 elements of a block; false when one is inf or NaN.
HWY_INLINE bool AbsMax32(const float* x, float& amax) {
    const DF df;
    const VF inf = hn::Set(df, HUGE_VALF);
    VF m = hn::Zero(df);
    auto finite = hn::Lt(m, inf);  // all true
    for (std::size_t j = 0; j < 32; j += hn::Lanes(df)) {
        const VF a = hn::Abs(hn::LoadU(df, x + j));
        finite = hn::And(finite, hn::Lt(a, inf));  // false for inf and NaN
        m = hn::Max(m, a);
    }
    amax = hn::GetLane(hn::MaxOfLanes(df, m));
    return hn::AllTrue(df, finite);
}

// Smallest and largest of the 32 elements of a block; false when one is inf or NaN.
HWY_INLINE bool MinMax32(const float* x, float& min, float& max) {
    const DF df;
    const VF inf = hn::Set(df, HUGE_VALF);
    VF lo = hn::Set(df, FLT_MAX), hi = hn::Set(df, -FLT_MAX);
    auto finite = hn::Lt(lo, inf);  // all true
    for (std::size_t j = 0; j < 32; j += hn::Lanes(df)) {
        const VF v = hn::LoadU(df, x + j);
        finite = hn::And(finite, hn::Lt(hn::Abs(v), inf));
        lo = hn::Min(lo, v);
        hi = hn::Max(hi, v);
    }
    min = hn::GetLane(hn::MinOfLanes(df, lo));
    max = hn::GetLane(hn::MaxOfLanes(df, hi));
    return hn::AllTrue(df, finite);
}

// The signed value of the first of the 32 elements with |x| = amax (ggml's
// `if (amax < fabsf(v)) { amax = fabsf(v); max = v; }` scan).
HWY_INLINE float FirstOfMagnitude(const float* x, float amax) {
    const DF df;
    const VF vamax = hn::Set(df, amax);
    for (std::size_t j = 0; j < 32; j += hn::Lanes(df)) {
        const intptr_t k = hn::FindFirstTrue(df, hn::Eq(hn::Abs(hn::LoadU(df, x + j)), vamax));
        if (k >= 0) return x[j + static_cast<std::size_t>(k)];
    }
    return 0.0f;
}

// A scale the vector path can use: normal and finite.
HWY_INLINE bool NormalScale(float d) { return std::fabs(d) >= FLT_MIN && std::fabs(d) <= FLT_MAX; }

// Blocks whose scales are computed (and converted to f16) together.
constexpr std::size_t kBatch = 16;

// h[k] = f32_to_fp16(f[k]) for k < kBatch. Targets with F16C convert in
// vectors (vcvtps2ph rounds to nearest even and overflows to inf, as ggml;
// the values here are never NaN); the others call the scalar conversion.
HWY_INLINE void ToFp16(const float* HWY_RESTRICT f, std::uint16_t* HWY_RESTRICT h) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
    const DF df;
    const hn::Rebind<hwy::float16_t, DF> dh;
    for (std::size_t k = 0; k < kBatch; k += hn::Lanes(df))
        hn::StoreU(hn::DemoteTo(dh, hn::Load(df, f + k)), dh, reinterpret_cast<hwy::float16_t*>(h + k));
#else
    for (std::size_t k = 0; k < kBatch; ++k) h[k] = q::f32_to_fp16(f[k]);
#endif
}

// Bit 4 of each of the N lanes of q, as the low N bits of an integer (N ≤ 16).
HWY_INLINE std::uint32_t HighBits(VI q) {
    const DI di;
    std::uint8_t bits[8] = {};
    hn::StoreMaskBits(di, hn::Ne(hn::And(q, hn::Set(di, 16)), hn::Zero(di)), bits);
    const std::size_t N = hn::Lanes(di);
    const std::uint32_t all = static_cast<std::uint32_t>(bits[0]) | (static_cast<std::uint32_t>(bits[1]) << 8);
    return N >= 16 ? all : all & ((1u << N) - 1u);
}

// roundf: half away from zero. v − Trunc(v) is exact for |v| < 2^23.
HWY_INLINE VF RoundHalfAway(VF v) {
    const DF df;
    const VF t = hn::Trunc(v);
    const VF frac = hn::Abs(hn::Sub(v, t));
    const VF step = hn::CopySign(hn::Set(df, 1.0f), v);
    return hn::Add(t, hn::IfThenElseZero(hn::Ge(frac, hn::Set(df, 0.5f)), step));
}

// quantize_row_q8_0_ref, vectorized over the 32 elements of a block.
void QuantQ8_0(const float* src, std::uint8_t* dst, std::size_t nb) {
    const DF df;
    const DI di;
    const DI8 d8;
    const std::size_t N = hn::Lanes(df);
    for (std::size_t i = 0; i < nb; ++i, src += 32, dst += 34) {
        float amax;
        const bool finite = AbsMax32(src, amax);
        const float d = amax / 127.0f;
        if (!finite || !NormalScale(d)) {
            scalar::quantize_q8_0(src, dst, 1);
            continue;
        }
        const VF id = hn::Set(df, 1.0f / d);
        StoreFp16(dst, d);
        for (std::size_t j = 0; j < 32; j += N) {
            const VF r = RoundHalfAway(hn::Mul(hn::LoadU(df, src + j), id));
            const VI q = hn::ConvertTo(di, r);  // |q| ≤ 127: exact
            hn::StoreU(hn::DemoteTo(d8, q), d8, reinterpret_cast<std::int8_t*>(dst + 2 + j));
        }
    }
}

// quantize_row_q4_0_ref, vectorized over the two 16-element halves of a
// block; scales, reciprocals and f16 conversions in batches of kBatch blocks.
void QuantQ4_0(const float* src, std::uint8_t* dst, std::size_t nb) {
    const DF df;
    const DI di;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);
    const VF k8_5 = hn::Set(df, 8.5f);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i0 = 0; i0 < nb; i0 += kBatch) {
        const std::size_t count = std::min(kBatch, nb - i0);
        alignas(64) float maxs[kBatch] = {}, ds[kBatch], ids[kBatch];
        alignas(64) std::uint16_t hd[kBatch];
        bool finite[kBatch];
        for (std::size_t b = 0; b < count; ++b) {
            float amax;
            finite[b] = AbsMax32(src + 32 * b, amax);
            maxs[b] = FirstOfMagnitude(src + 32 * b, amax);
        }
        for (std::size_t b = 0; b < kBatch; b += N) {
            // Lanes whose d is not normal are not used (the block takes the scalar path).
            const VF d = hn::Div(hn::Load(df, maxs + b), hn::Set(df, -8.0f));
            hn::Store(d, df, ds + b);
            hn::Store(hn::Div(hn::Set(df, 1.0f), d), df, ids + b);
        }
        ToFp16(ds, hd);
        for (std::size_t b = 0; b < count; ++b, src += 32, dst += 18) {
            if (!finite[b] || !NormalScale(ds[b])) {
                scalar::quantize_q4_0(src, dst, 1);
                continue;
            }
            const VF id = hn::Set(df, ids[b]);
            std::memcpy(dst, hd + b, 2);
            for (std::size_t j = 0; j < 16; j += N) {
                const VF x0 = hn::Mul(hn::LoadU(df, src + j), id);
                const VF x1 = hn::Mul(hn::LoadU(df, src + 16 + j), id);
                // (int8_t)(x + 8.5f) truncates; x + 8.5 lies in (0, 17) here.
                const VI q0 = hn::Min(hn::ConvertTo(di, hn::Add(x0, k8_5)), k15);
                const VI q1 = hn::Min(hn::ConvertTo(di, hn::Add(x1, k8_5)), k15);
                hn::StoreU(hn::DemoteTo(du8, hn::Or(q0, hn::ShiftLeft<4>(q1))), du8, dst + 2 + j);
            }
        }
    }
}

// quantize_row_q4_1_ref: d = (max − min) / 15, codes (x − min)·id + 0.5
// truncated. Blocks go in batches of kBatch: per-block min and max, then the
// scales, reciprocals and f16 conversions in vectors across blocks.
void QuantQ4_1(const float* src, std::uint8_t* dst, std::size_t nb) {
    const DF df;
    const DI di;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);
    const VF half = hn::Set(df, 0.5f);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i0 = 0; i0 < nb; i0 += kBatch) {
        const std::size_t count = std::min(kBatch, nb - i0);
        alignas(64) float mins[kBatch] = {}, maxs[kBatch] = {}, ds[kBatch], ids[kBatch];
        alignas(64) std::uint16_t hd[kBatch], hm[kBatch];
        bool finite[kBatch];
        for (std::size_t b = 0; b < count; ++b) finite[b] = MinMax32(src + 32 * b, mins[b], maxs[b]);
        for (std::size_t b = 0; b < kBatch; b += N) {
            // Lanes whose d is not normal are not used (the block takes the scalar path).
            const VF d = hn::Div(hn::Sub(hn::Load(df, maxs + b), hn::Load(df, mins + b)), hn::Set(df, 15.0f));
            hn::Store(d, df, ds + b);
            hn::Store(hn::Div(hn::Set(df, 1.0f), d), df, ids + b);
        }
        ToFp16(ds, hd);
        ToFp16(mins, hm);
        for (std::size_t b = 0; b < count; ++b, src += 32, dst += 20) {
            // A zero min: its sign, stored in m, is that of the first zero.
            if (!finite[b] || mins[b] == 0.0f || !NormalScale(ds[b])) {
                scalar::quantize_q4_1(src, dst, 1);
                continue;
            }
            const VF id = hn::Set(df, ids[b]);
            const VF vmin = hn::Set(df, mins[b]);
            std::memcpy(dst, hd + b, 2);
            std::memcpy(dst + 2, hm + b, 2);
            for (std::size_t j = 0; j < 16; j += N) {
                const VF x0 = hn::Mul(hn::Sub(hn::LoadU(df, src + j), vmin), id);
                const VF x1 = hn::Mul(hn::Sub(hn::LoadU(df, src + 16 + j), vmin), id);
                const VI q0 = hn::Min(hn::ConvertTo(di, hn::Add(x0, half)), k15);
                const VI q1 = hn::Min(hn::ConvertTo(di, hn::Add(x1, half)), k15);
                hn::StoreU(hn::DemoteTo(du8, hn::Or(q0, hn::ShiftLeft<4>(q1))), du8, dst + 4 + j);
            }
        }
    }
}

// quantize_row_q5_0_ref: d = max / −16, codes x·id + 16.5 truncated, ≤ 31;
// bit 4 of element j goes to bit j of qh.
void QuantQ5_0(const float* src, std::uint8_t* dst, std::size_t nb) {
    const DF df;
    const DI di;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);
    const VF k16_5 = hn::Set(df, 16.5f);
    const VI k31 = hn::Set(di, 31), k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, src += 32, dst += 22) {
        float amax;
        const bool finite = AbsMax32(src, amax);
        const float max = FirstOfMagnitude(src, amax);
        const float d = max / -16.0f;
        if (!finite || !NormalScale(d)) {
            scalar::quantize_q5_0(src, dst, 1);
            continue;
        }
        const VF id = hn::Set(df, 1.0f / d);
        StoreFp16(dst, d);
        std::uint32_t qh = 0;
        for (std::size_t j = 0; j < 16; j += N) {
            const VF x0 = hn::Mul(hn::LoadU(df, src + j), id);
            const VF x1 = hn::Mul(hn::LoadU(df, src + 16 + j), id);
            const VI q0 = hn::Min(hn::ConvertTo(di, hn::Add(x0, k16_5)), k31);
            const VI q1 = hn::Min(hn::ConvertTo(di, hn::Add(x1, k16_5)), k31);
            hn::StoreU(hn::DemoteTo(du8, hn::Or(hn::And(q0, k15), hn::ShiftLeft<4>(hn::And(q1, k15)))), du8,
                       dst + 6 + j);
            qh |= HighBits(q0) << j;
            qh |= HighBits(q1) << (j + 16);
        }
        std::memcpy(dst + 2, &qh, 4);
    }
}

// quantize_row_q5_1_ref: d = (max − min) / 31, codes (x − min)·id + 0.5
// truncated (no clamp); bit 4 of element j goes to bit j of qh.
void QuantQ5_1(const float* src, std::uint8_t* dst, std::size_t nb) {
    const DF df;
    const DI di;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);
    const VF half = hn::Set(df, 0.5f);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, src += 32, dst += 24) {
        float min, max;
        const bool finite = MinMax32(src, min, max);
        const float d = (max - min) / 31.0f;
        if (!finite || min == 0.0f || !NormalScale(d)) {  // as Q4_1
            scalar::quantize_q5_1(src, dst, 1);
            continue;
        }
        const VF id = hn::Set(df, 1.0f / d);
        const VF vmin = hn::Set(df, min);
        StoreFp16(dst, d);
        StoreFp16(dst + 2, min);
        std::uint32_t qh = 0;
        for (std::size_t j = 0; j < 16; j += N) {
            const VF x0 = hn::Mul(hn::Sub(hn::LoadU(df, src + j), vmin), id);
            const VF x1 = hn::Mul(hn::Sub(hn::LoadU(df, src + 16 + j), vmin), id);
            // (uint8_t)(x + 0.5f): x + 0.5 lies in (0, 32) here, so the code ≤ 31 without a clamp.
            const VI q0 = hn::ConvertTo(di, hn::Add(x0, half));
            const VI q1 = hn::ConvertTo(di, hn::Add(x1, half));
            hn::StoreU(hn::DemoteTo(du8, hn::Or(hn::And(q0, k15), hn::ShiftLeft<4>(hn::And(q1, k15)))), du8,
                       dst + 8 + j);
            qh |= HighBits(q0) << j;
            qh |= HighBits(q1) << (j + 16);
        }
        std::memcpy(dst + 4, &qh, 4);
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf::simd {

#define AMN_EXPORT(lower, upper)                                                    \
    HWY_EXPORT(Quant##upper);                                                       \
    void quantize_##lower(const float* src, std::uint8_t* dst, std::size_t n_blocks) { \
        HWY_DYNAMIC_DISPATCH(Quant##upper)(src, dst, n_blocks);                     \
    }
AMN_EXPORT(q4_0, Q4_0) AMN_EXPORT(q4_1, Q4_1) AMN_EXPORT(q5_0, Q5_0) AMN_EXPORT(q5_1, Q5_1) AMN_EXPORT(q8_0, Q8_0)
#undef AMN_EXPORT

}  // namespace amn::kernels::gguf::simd
#endif  // HWY_ONCE
