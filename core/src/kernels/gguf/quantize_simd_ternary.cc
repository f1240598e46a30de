// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD encoders for the absmax ternary types TQ1_0, TQ2_0 and Q2_0,
// compiled once per target and chosen at run time; byte-identical to the
// scalar references (quantize_fp4_ternary.cc, quantize_legacy.cc).
//
// - The block maximum of |x| does not depend on the order of comparisons.
// - Each digit is roundf / lroundf (half away from zero, built exactly from
//   Trunc) of the same f32 product x·(1/d), plus one: 0, 1 or 2 whenever d
//   is a normal finite float, as |x·id| ≤ 1 then. Digits go to a byte array
//   and are packed by plain integer loops in ggml's layout.
// - A block whose d is zero, subnormal or not finite, or that holds inf or
//   NaN, takes the scalar reference (there 1/d overflows and ggml's
//   conversions of inf/NaN are reproduced with x86 semantics).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/quantize_simd_ternary.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "gguf_quantize.hpp"
#include "quantize_common.hpp"
#include "gguf/quantize_simd-inl.h"

#include <cfloat>
#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace tern {

using DF = hn::CappedTag<float, 16>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using VF = hn::Vec<DF>;

using kq::AbsMax;  // quantize_simd-inl.h

HWY_INLINE bool NormalScale(float d) { return std::fabs(d) >= FLT_MIN && std::fabs(d) <= FLT_MAX; }

// digits[j] = roundf(x[j]·id) + 1 (half away from zero), j < n.
HWY_INLINE void Digits(const float* HWY_RESTRICT x, std::size_t n, float id, std::uint8_t* HWY_RESTRICT digits) {
    const DF df;
    const DI di;
    const DU8 du8;
    const VF vid = hn::Set(df, id);
    const VF half = hn::Set(df, 0.5f), one = hn::Set(df, 1.0f);
    for (std::size_t j = 0; j < n; j += hn::Lanes(df)) {
        const VF v = hn::Mul(hn::LoadU(df, x + j), vid);
        const VF t = hn::Trunc(v);
        const VF r = hn::Add(t, hn::IfThenElseZero(hn::Ge(hn::Abs(hn::Sub(v, t)), half), hn::CopySign(one, v)));
        hn::StoreU(hn::DemoteTo(du8, hn::ConvertTo(di, hn::Add(r, one))), du8, digits + j);
    }
}

HWY_INLINE void StoreFp16(std::uint8_t* p, float f) {
    const std::uint16_t h = q::f32_to_fp16(f);
    std::memcpy(p, &h, 2);
}

// ggml's base-3 packing of 5 (or 4, shifted once) digits into [0, 256).
HWY_INLINE std::uint8_t PackTrits(std::uint32_t q) {
    return static_cast<std::uint8_t>((static_cast<std::uint16_t>(static_cast<std::uint8_t>(q)) * 256 + 242) / 243);
}

}  // namespace tern

// quantize_row_tq1_0_ref (see quantize_fp4_ternary.cc for the layout).
void QuantTQ1_0(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, src += 256, dst += 54) {
        float d;
        if (!tern::AbsMax(src, 256, d) || !tern::NormalScale(d)) {
            scalar::quantize_tq1_0(src, dst, 1);
            continue;
        }
        alignas(64) std::uint8_t g[256];
        tern::Digits(src, 256, 1.0f / d, g);
        tern::StoreFp16(dst + 52, d);
        for (int m = 0; m < 32; ++m)
            dst[m] = tern::PackTrits(81u * g[m] + 27u * g[m + 32] + 9u * g[m + 64] + 3u * g[m + 96] + g[m + 128]);
        const std::uint8_t* h = g + 160;
        for (int m = 0; m < 16; ++m)
            dst[32 + m] = tern::PackTrits(81u * h[m] + 27u * h[m + 16] + 9u * h[m + 32] + 3u * h[m + 48] + h[m + 64]);
        h = g + 240;
        for (int j = 0; j < 4; ++j)
            dst[48 + j] = tern::PackTrits(3u * (27u * h[j] + 9u * h[j + 4] + 3u * h[j + 8] + h[j + 12]));
    }
}

// quantize_row_tq2_0_ref: byte 32h + m holds elements 128h + m + 32n in bits 2n..2n+1.
void QuantTQ2_0(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, src += 256, dst += 66) {
        float d;
        if (!tern::AbsMax(src, 256, d) || !tern::NormalScale(d)) {
            scalar::quantize_tq2_0(src, dst, 1);
            continue;
        }
        alignas(64) std::uint8_t g[256];
        tern::Digits(src, 256, 1.0f / d, g);
        tern::StoreFp16(dst + 64, d);
        for (int h = 0; h < 2; ++h)
            for (int m = 0; m < 32; ++m) {
                const std::uint8_t* p = g + 128 * h + m;
                dst[32 * h + m] = static_cast<std::uint8_t>(p[0] | (p[32] << 2) | (p[64] << 4) | (p[96] << 6));
            }
    }
}

// quantize_row_q2_0_ref: element j in bits 2(j % 4) of byte j / 4, code clamp(roundf(x/d) + 1, 0, 3).
void QuantQ2_0(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, src += 64, dst += 18) {
        float d;
        if (!tern::AbsMax(src, 64, d) || !tern::NormalScale(d)) {
            scalar::quantize_q2_0(src, dst, 1);
            continue;
        }
        alignas(64) std::uint8_t g[64];
        tern::Digits(src, 64, 1.0f / d, g);
        tern::StoreFp16(dst, d);
        for (int j = 0; j < 16; ++j) {
            const std::uint8_t* p = g + 4 * j;
            dst[2 + j] = static_cast<std::uint8_t>(p[0] | (p[1] << 2) | (p[2] << 4) | (p[3] << 6));
        }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf::simd {

#define AMN_EXPORT(lower, upper)                                                       \
    HWY_EXPORT(Quant##upper);                                                          \
    void quantize_##lower(const float* src, std::uint8_t* dst, std::size_t n_blocks) { \
        HWY_DYNAMIC_DISPATCH(Quant##upper)(src, dst, n_blocks);                        \
    }
AMN_EXPORT(tq1_0, TQ1_0) AMN_EXPORT(tq2_0, TQ2_0) AMN_EXPORT(q2_0, Q2_0)
#undef AMN_EXPORT

}  // namespace amn::kernels::gguf::simd
#endif  // HWY_ONCE
