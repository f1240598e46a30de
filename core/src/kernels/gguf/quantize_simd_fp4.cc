// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD encoders for MXFP4, NVFP4 and Q1_0, compiled once per target
// and chosen at run time; byte-identical to the scalar references
// (quantize_fp4_ternary.cc, quantize_legacy.cc).
//
// - MXFP4 / NVFP4: the block (sub-block) maximum of |x| does not depend on
//   the order of comparisons; blocks holding inf or NaN take the scalar
//   reference. The MXFP4 exponent floor(log2f(amax)) is read from the bits of
//   amax unless its top 10 mantissa bits are all set (or amax is below
//   2^−125), where glibc's log2f may round up to the next integer: there the
//   scalar formula decides. The NVFP4 scale is the scalar UE4M3 conversion.
// - best_index_mxfp4 (first codebook entry of least |k·d − x|) per lane: for
//   x > 0 the negative entries have error fl(|k|·d + x) ≥ |x| = the error of
//   entry 0 and never win; for x < 0, by symmetry of rounding, the error of
//   entry −k is that of +k at |x|, and the positive entries never win. So the
//   scan runs over the 8 non-negative entries at |x| with the same f32
//   products, differences and strict comparisons, and adds 8 when x < 0 and
//   the winner is not entry 0. NaN errors (d or x not finite) compare false,
//   as in the scalar scan.
// - Q1_0: lanes = blocks. Each lane sums |x| of its own
//   block in element order (0 + |x0| + |x1| + …), the scalar order, read by
//   4×4 transposes of 128-bit loads on AVX2/AVX3, 4 blocks at a time
//   (hardware gathers are slow), and by a gather of one vector of blocks
//   elsewhere; the sign bits (x ≥ 0, −0.0 included, NaN excluded)
//   are a vector comparison. The last blocks (fewer than a batch) take the
//   scalar reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/quantize_simd_fp4.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "gguf_quantize.hpp"
#include "iq_tables.hpp"
#include "quantize_common.hpp"
#include "gguf/quantize_simd-inl.h"

#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace fp4 {

using DF = hn::CappedTag<float, 16>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

using kq::AbsMax;  // quantize_simd-inl.h

// ggml's `(uint8_t)(floorf(log2f(amax)) − 2 + 127)` for a finite amax > 0.
HWY_INLINE std::uint8_t Mxfp4Exponent(float amax) {
    std::uint32_t bits;
    std::memcpy(&bits, &amax, 4);
    const std::uint32_t e = bits >> 23, man = bits & 0x7FFFFFu;
    // amax in [2^k, 2^(k+1)·(1 − 2^−11)): log2 ≤ k + 1 − 7·10^−4, which no
    // f32 rounding near |k| ≤ 128 lifts to k + 1; the floor is k = e − 127.
    if (e >= 3 && man < 0x7FE000u) return static_cast<std::uint8_t>(e - 2);
    return q::cvtt_u8(std::floor(static_cast<float>(std::log2(static_cast<double>(amax)))) - 2.0f + 127.0f);
}

// The 8 non-negative codebook values at scale d (k·d as the scalar computes it).
struct Scaled {
    VF kd[8];
    explicit Scaled(float d) {
        const DF df;
        for (int k = 0; k < 8; ++k) kd[k] = hn::Set(df, static_cast<float>(tables::kvalues_mxfp4[k]) * d);
    }
};

// best_index_mxfp4 lane-wise (see the header comment).
HWY_INLINE VI Codes(VF x, const Scaled& s) {
    const DF df;
    const DI di;
    const VF a = hn::Abs(x);
    VF best = hn::Abs(hn::Sub(s.kd[0], a));
    VI idx = hn::Zero(di);
    for (int k = 1; k < 8; ++k) {
        const VF err = hn::Abs(hn::Sub(s.kd[k], a));
        const auto lt = hn::Lt(err, best);
        best = hn::IfThenElse(lt, err, best);
        idx = hn::IfThenElse(hn::RebindMask(di, lt), hn::Set(di, k), idx);
    }
    const auto neg = hn::And(hn::RebindMask(di, hn::Lt(x, hn::Zero(df))), hn::Ne(idx, hn::Zero(di)));
    return hn::IfThenElse(neg, hn::Add(idx, hn::Set(di, 8)), idx);
}

}  // namespace fp4

// quantize_row_mxfp4_ref: block_mxfp4 { u8 e; u8 qs[16]; }, element j in the
// low nibble of qs[j], element j + 16 in the high one.
void QuantMXFP4(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, std::size_t nb) {
    const fp4::DF df;
    const fp4::DU8 du8;
    const std::size_t N = hn::Lanes(df);
    for (std::size_t i = 0; i < nb; ++i, src += 32, dst += 17) {
        float amax;
        if (!fp4::AbsMax(src, 32, amax)) {
            scalar::quantize_mxfp4(src, dst, 1);
            continue;
        }
        const std::uint8_t e = amax > 0.0f ? fp4::Mxfp4Exponent(amax) : 0;
        dst[0] = e;
        const fp4::Scaled s(e8m0_to_f32_half(e));
        for (std::size_t j = 0; j < 16; j += N) {
            const fp4::VI c0 = fp4::Codes(hn::LoadU(df, src + j), s);
            const fp4::VI c1 = fp4::Codes(hn::LoadU(df, src + 16 + j), s);
            hn::StoreU(hn::DemoteTo(du8, hn::Or(c0, hn::ShiftLeft<4>(c1))), du8, dst + 1 + j);
        }
    }
}

// quantize_row_nvfp4_ref: block_nvfp4 { u8 d[4]; u8 qs[32]; }, per 16:
// element j in the low nibble of qs[8s + j], element j + 8 in the high one.
void QuantNVFP4(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, std::size_t nb) {
    const fp4::DF df;
    const fp4::DU8 du8;
    const std::size_t N = hn::Lanes(df);
    for (std::size_t i = 0; i < nb; ++i, src += 64, dst += 36) {
        float amax[4];
        bool finite = true;
        for (int s = 0; s < 4; ++s) finite &= fp4::AbsMax(src + 16 * s, 16, amax[s]);
        if (!finite) {
            scalar::quantize_nvfp4(src, dst, 1);
            continue;
        }
        for (int s = 0; s < 4; ++s) {
            const std::uint8_t ue = q::f32_to_ue4m3(amax[s] / 6.0f);
            dst[s] = ue;
            const fp4::Scaled sc(ue4m3_to_f32_half(ue));
            alignas(64) std::uint8_t g[16];
            for (std::size_t j = 0; j < 16; j += N)
                hn::StoreU(hn::DemoteTo(du8, fp4::Codes(hn::LoadU(df, src + 16 * s + j), sc)), du8, g + j);
            for (int j = 0; j < 8; ++j) dst[4 + 8 * s + j] = static_cast<std::uint8_t>(g[j] | (g[j + 8] << 4));
        }
    }
}

namespace fp4 {

// Blocks of Q1_0 summed together, then packed while still in L1: four (one
// transposed group; measured faster than 8 or 16), else one vector.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
constexpr std::size_t kQ1Batch = 4;
#else
constexpr std::size_t kQ1Batch = hn::MaxLanes(DF());
#endif

// d[b] = (0 + |x0| + |x1| + … + |x127|) / 128 for the kQ1Batch blocks at
// src, each block's sum in element order in its own lane.
HWY_INLINE void Q1MeanAbs(const float* HWY_RESTRICT src, float* HWY_RESTRICT d) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
    // Hardware gathers are slow on AVX2/AVX3 CPUs. The four blocks in one
    // 128-bit vector: 4×4 transposes of 4 elements of the 4 blocks.
    const hn::Full128<float> d4;
    using V4 = hn::Vec<decltype(d4)>;
    V4 s = hn::Zero(d4);
    for (std::size_t j = 0; j < 128; j += 4) {
        const float* HWY_RESTRICT x = src + j;
        const V4 r0 = hn::Abs(hn::LoadU(d4, x)), r1 = hn::Abs(hn::LoadU(d4, x + 128));
        const V4 r2 = hn::Abs(hn::LoadU(d4, x + 256)), r3 = hn::Abs(hn::LoadU(d4, x + 384));
        const V4 t0 = hn::InterleaveLower(d4, r0, r1), t1 = hn::InterleaveLower(d4, r2, r3);
        const V4 t2 = hn::InterleaveUpper(d4, r0, r1), t3 = hn::InterleaveUpper(d4, r2, r3);
        s = hn::Add(s, hn::ConcatLowerLower(d4, t1, t0));  // element j of blocks 0..3
        s = hn::Add(s, hn::ConcatUpperUpper(d4, t1, t0));  // j + 1
        s = hn::Add(s, hn::ConcatLowerLower(d4, t3, t2));  // j + 2
        s = hn::Add(s, hn::ConcatUpperUpper(d4, t3, t2));  // j + 3
    }
    hn::StoreU(hn::Div(s, hn::Set(d4, 128.0f)), d4, d);
#else
    // SSE4/SSSE3 emulate the gather with scalar loads: measured faster than
    // the transposes there.
    const DF df;
    const DI di;
    const VI offsets = hn::Mul(hn::Iota(di, 0), hn::Set(di, 128));
    for (std::size_t b = 0; b < kQ1Batch; b += hn::Lanes(df)) {
        VF sum = hn::Zero(df);
        for (std::size_t j = 0; j < 128; ++j)
            sum = hn::Add(sum, hn::Abs(hn::GatherIndex(df, src + 128 * b + j, offsets)));
        hn::StoreU(hn::Div(sum, hn::Set(df, 128.0f)), df, d + b);
    }
#endif
}

}  // namespace fp4

// quantize_row_q1_0_ref: block_q1_0 { fp16 d; u8 qs[16]; } for 128
// elements, d = (Σ|x| in element order) / 128, bit j set when x[j] ≥ 0.
// (kQ1Batch is 4, or the lane count: at most 16.)
void QuantQ1_0(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, std::size_t nb) {
    const fp4::DF df;
    const std::size_t N = hn::Lanes(df);
    const fp4::VF zero = hn::Zero(df);
    constexpr std::size_t kB = fp4::kQ1Batch;
    std::size_t i = 0;
    for (; i + kB <= nb; i += kB, src += 128 * kB, dst += 18 * kB) {
        alignas(64) float d[16];
        fp4::Q1MeanAbs(src, d);
        for (std::size_t b = 0; b < kB; ++b) {
            const float* HWY_RESTRICT x = src + 128 * b;
            std::uint8_t* HWY_RESTRICT out = dst + 18 * b;
            const std::uint16_t h = q::f32_to_fp16(d[b]);
            std::memcpy(out, &h, 2);
            std::uint64_t bits[2] = {0, 0};
            for (std::size_t j = 0; j < 128; j += N) {
                std::uint8_t m[8] = {};
                hn::StoreMaskBits(df, hn::Ge(hn::LoadU(df, x + j), zero), m);
                std::uint64_t v;
                std::memcpy(&v, m, 8);
                bits[j / 64] |= v << (j % 64);
            }
            std::memcpy(out + 2, bits, 16);
        }
    }
    if (i < nb) scalar::quantize_q1_0(src, dst, nb - i);
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
AMN_EXPORT(mxfp4, MXFP4) AMN_EXPORT(nvfp4, NVFP4) AMN_EXPORT(q1_0, Q1_0)
#undef AMN_EXPORT

}  // namespace amn::kernels::gguf::simd
#endif  // HWY_ONCE
