// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD encoders for the legacy block types (Q8_0, Q4_0, Q4_1, Q5_0,
// Q5_1), compiled once per target and chosen at run time
// (quantize_dispatch.cc wires them in).
//
// Q4_0, Q4_1, Q5_0, Q5_1: lanes = blocks. A batch is as many 32-element
// blocks as a vector has f32 lanes (kN: 16 on AVX3, 8 on AVX2, 4 on SSE4).
// Each block's min and max are folded to one vector in element order, and a
// transpose-reduce tree (interleaves, then 256-/128-bit block shuffles; no
// per-block horizontal reduction) leaves block b's min and max in lane b.
// The scales, reciprocals and f16 conversions then run once per batch,
// lane-wise; the codes are computed element-wise per block. Each batch
// prefetches 64 KiB ahead (hardware prefetchers stop at 4 KiB pages).
//
// Bit-exactness with the scalar reference (quantize_legacy.cc, = ggml's
// quantize_row_<type>_ref):
// - min and max do not depend on the order of comparisons (finite values;
//   the sign of a zero is handled below). Q4_0 and Q5_0 take ggml's signed
//   absmax (`if (amax < fabsf(v))`, the *first* element of that magnitude)
//   as max when max > −min and min when −min > max; when max = −min the first
//   one decides, and the block takes the scalar path;
// - the scale and its reciprocal are the same f32 expressions (max / −8,
//   (max − min) / 15, 1.0f / d), lane by lane;
// - per element: the same f32 multiply (after the same `x − min`) and the
//   same offset add (8.5f, 16.5f, 0.5f), then truncation (cvttps2dq, = the
//   cast for values in range) and ggml's MIN(15 or 31, ·) where it can bite
//   (Q4_0, Q5_0). Q4_1 and Q5_1 need none: x − min ≤ max − min and
//   (max − min)·id + 0.5 < 15.5 (31.5), so the code never exceeds 15 (31);
// - a block goes to the scalar reference when its scale is zero, subnormal
//   or not finite, when (Q4_0, Q5_0) both signs reach the largest magnitude,
//   and (Q4_1, Q5_1) when its min is a zero (the stored sign of m is that of
//   the first zero). A whole batch goes to the scalar reference when any code
//   falls outside 0…15 (0…31): a NaN input gives 0x80000000 there, and so
//   would any slip in the reasoning above. Everywhere else |x·id| stays within
//   a few ulp of the largest code, so every conversion is in range; the
//   scalar code reproduces ggml's undefined casts with x86 GCC semantics;
// - fewer than kN trailing blocks are copied into a zero-padded batch;
// - the SCALAR target (one lane) calls the scalar reference directly.
//
// Q8_0 (quantize_row_q8_0_ref) uses the same batches: amax = max(|min|,
// |max|) per lane, d = amax / 127 and id = 1 / d lane-wise (the same f32
// divisions), d to f16 as above; per element roundf(x·id), computed as
// trunc(x·id + copysign(0.49999997f, x·id)) with cvttps2dq: equal to roundf
// for every float below 2^23 in magnitude (checked exhaustively over all of
// them), and here |x·id| < 127.5. Blocks whose d is zero, subnormal or not
// finite take the scalar reference (their id is set to 0 in the batch so
// that no NaN code appears); a NaN element gives the code 0x80000000, out of
// −127…127, and sends the whole batch to the scalar reference.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/quantize_simd_legacy.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "gguf_quantize.hpp"
#include "quantize_common.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
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
using DU = hn::RebindToUnsigned<DF>;

// ---- lanes = blocks (all five types) ----------------------------

// Blocks per batch: one per f32 lane.
constexpr std::size_t kN = hn::MaxLanes(DF());
static_assert(kN == 1 || kN == 4 || kN == 8 || kN == 16, "the reduce tree handles 1, 4, 8 or 16 lanes");

// Bytes ahead of the current batch that are prefetched: 16 pages.
constexpr std::uintptr_t kPrefetchBytes = 64 * 1024;

struct MinOp {
    HWY_INLINE VF operator()(VF a, VF b) const { return hn::Min(a, b); }
};
struct MaxOp {
    HWY_INLINE VF operator()(VF a, VF b) const { return hn::Max(a, b); }
};

#if HWY_TARGET != HWY_SCALAR
// Per 128-bit block: [op(a0, a2), op(b0, b2), op(a1, a3), op(b1, b3)].
template <class Op>
HWY_INLINE VF Fold32(VF a, VF b, Op op) {
    const DF df;
    return op(hn::InterleaveLower(df, a, b), hn::InterleaveUpper(df, a, b));
}

// Per 128-bit block, from c = Fold32(a, b) and e = Fold32(a', b'): lanes
// a, b, a', b', each folded over the four lanes of that block.
template <class Op>
HWY_INLINE VF Fold64(VF c, VF e, Op op) {
    const DF df;
    const hn::Repartition<std::uint64_t, DF> d64;
    const auto c64 = hn::BitCast(d64, c), e64 = hn::BitCast(d64, e);
    return op(hn::BitCast(df, hn::InterleaveLower(d64, c64, e64)), hn::BitCast(df, hn::InterleaveUpper(d64, c64, e64)));
}
#endif

// lo/hi: lanes folded (min/max) over the 32 elements of the block at x.
HWY_INLINE void BlockMinMax(const float* HWY_RESTRICT x, VF& lo, VF& hi) {
    const DF df;
    lo = hi = hn::LoadU(df, x);
    for (std::size_t j = kN; j < 32; j += kN) {
        const VF v = hn::LoadU(df, x + j);
        lo = hn::Min(lo, v);
        hi = hn::Max(hi, v);
    }
}

// Lane b of lo/hi: the smallest/largest element of block b of the kN blocks
// at x (32 floats each). Lane k of a fold of w[g] belongs to block 4g + k.
HWY_INLINE void BatchMinMax(const float* HWY_RESTRICT x, VF& lo, VF& hi) {
#if HWY_TARGET == HWY_SCALAR
    BlockMinMax(x, lo, hi);
#else
    const DF df;
    const MinOp mn;
    const MaxOp mx;
    VF wl[kN / 4], wh[kN / 4];
    for (std::size_t g = 0; g < kN / 4; ++g) {
        VF l[4], h[4];
        for (std::size_t k = 0; k < 4; ++k) BlockMinMax(x + 32 * (4 * g + k), l[k], h[k]);
        wl[g] = Fold64(Fold32(l[0], l[1], mn), Fold32(l[2], l[3], mn), mn);
        wh[g] = Fold64(Fold32(h[0], h[1], mx), Fold32(h[2], h[3], mx), mx);
    }
    if constexpr (kN == 4) {
        lo = wl[0];
        hi = wh[0];
    } else {
        // Halves: lower = fold of w[2i]'s halves, upper = fold of w[2i + 1]'s.
        // kN / 8 of them; this branch is compiled (not run) on 4-lane
        // targets too, where the arrays keep one unused element rather than
        // none (a zero-length array is not C++).
        constexpr std::size_t kHalves = kN >= 8 ? kN / 8 : 1;
        VF xl[kHalves], xh[kHalves];
        for (std::size_t i = 0; i < kN / 8; ++i) {
            xl[i] = hn::Min(hn::ConcatLowerLower(df, wl[2 * i + 1], wl[2 * i]),
                            hn::ConcatUpperUpper(df, wl[2 * i + 1], wl[2 * i]));
            xh[i] = hn::Max(hn::ConcatLowerLower(df, wh[2 * i + 1], wh[2 * i]),
                            hn::ConcatUpperUpper(df, wh[2 * i + 1], wh[2 * i]));
        }
#if HWY_TARGET <= HWY_AVX3
        if constexpr (kN == 16) {
            // 128-bit blocks (0, 2) against (1, 3) of xl[0] and xl[1]: block g = w[g] folded.
            lo = hn::Min(VF{_mm512_shuffle_f32x4(xl[0].raw, xl[1].raw, 0x88)},
                         VF{_mm512_shuffle_f32x4(xl[0].raw, xl[1].raw, 0xDD)});
            hi = hn::Max(VF{_mm512_shuffle_f32x4(xh[0].raw, xh[1].raw, 0x88)},
                         VF{_mm512_shuffle_f32x4(xh[0].raw, xh[1].raw, 0xDD)});
        }
#else
        if constexpr (kN == 8) {
            lo = xl[0];
            hi = xh[0];
        }
#endif
    }
#endif
}

// h[k] = f32_to_fp16(lane k of v). Targets with F16C convert in one
// instruction (vcvtps2ph rounds to nearest even and overflows to inf, as
// ggml; NaN lanes belong to blocks that take the scalar path).
HWY_INLINE void ToFp16(VF v, std::uint16_t* HWY_RESTRICT h) {
    const DF df;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
    const hn::Rebind<hwy::float16_t, DF> dh;
    hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(h));
#else
    alignas(64) float f[kN];
    hn::Store(v, df, f);
    for (std::size_t k = 0; k < kN; ++k) h[k] = q::f32_to_fp16(f[k]);
#endif
}

// Truncation to int32 as the x86 cast does it: 0x80000000 for NaN and out
// of range (Highway's ConvertTo adds a saturation fix-up that costs four
// instructions; elsewhere it is used as is, and an out-of-range code still
// shows up in `seen` below).
HWY_INLINE VI TruncToInt(VF v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    return VI{_mm512_cvttps_epi32(v.raw)};
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
    return VI{_mm256_cvttps_epi32(v.raw)};
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
    return VI{_mm_cvttps_epi32(v.raw)};
#else
    return hn::ConvertTo(DI(), v);
#endif
}

// Stores the low byte of each of the 16 lanes of t[0 .. 16 / kN) (lanes of
// t[i] are bytes i·kN …) to p. Every lane is in 0…255, except in batches
// the scalar path redoes.
HWY_INLINE void StoreBytes16(const VI* t, std::uint8_t* HWY_RESTRICT p) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(t[0].raw));
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
    // Packs work per 128-bit half: a0-3 b0-3 | a4-7 b4-7 as u16, then bytes
    // (repeated), then dwords 0, 4, 1, 5 give a0-7 b0-7.
    const __m256i w = _mm256_packus_epi32(t[0].raw, t[1].raw);
    const __m256i b = _mm256_packus_epi16(w, w);
    const __m256i o = _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(o));
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
    // Signed saturation (SSE2) is exact for 0…255.
    const __m128i w0 = _mm_packs_epi32(t[0].raw, t[1].raw), w1 = _mm_packs_epi32(t[2].raw, t[3].raw);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_packus_epi16(w0, w1));
#else
    const DU du;
    const DU8 du8;
    for (std::size_t i = 0; i < 16 / kN; ++i) hn::StoreU(hn::TruncateTo(du8, hn::BitCast(du, t[i])), du8, p + i * kN);
#endif
}

// Encodes again, with `reference`, each block of the batch at src/dst whose
// lane is set in `redo` (blocks of 32 floats in, `block_bytes` out).
HWY_INLINE void RedoBlocks(hn::Mask<DF> redo, const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst,
                           std::size_t block_bytes, Encoder reference) {
    std::uint8_t bits[8] = {};
    hn::StoreMaskBits(DF(), redo, bits);
    std::uint32_t todo = bits[0] | (std::uint32_t{bits[1]} << 8);
    for (; todo; todo &= todo - 1) {
        const auto b = static_cast<std::size_t>(__builtin_ctz(todo));
        reference(src + 32 * b, dst + block_bytes * b, 1);
    }
}

// The layout of one legacy type: kBits = 4 or 5, kAsym = with m = min
// (Q4_1, Q5_1) or symmetric (Q4_0, Q5_0).
template <int kBits, bool kAsym>
struct Legacy {
    static constexpr std::size_t kQh = kAsym ? 4 : 2;                   // qh offset (5-bit types)
    static constexpr std::size_t kQs = kQh + (kBits == 5 ? 4 : 0);      // qs offset
    static constexpr std::size_t kBytes = kQs + 16;                     // block bytes
    static constexpr int kMaxQ = (1 << kBits) - 1;                      // 15 or 31
    static constexpr float kOffset = kAsym ? 0.5f : kMaxQ / 2 + 1.5f;   // 0.5, 8.5 or 16.5
    static constexpr float kDivisor = kAsym ? float(kMaxQ) : -float(kMaxQ / 2 + 1);  // 15, 31, −8, −16
    static constexpr bool kClamp = !kAsym;                              // ggml's MIN(kMaxQ, ·) can bite
};

// Encodes the kN blocks at src (32 floats each) to dst.
template <int kBits, bool kAsym>
HWY_INLINE void LegacyBatch(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst, Encoder reference) {
    using L = Legacy<kBits, kAsym>;
    const DF df;
    const DI di;
    VF lo, hi;
    BatchMinMax(src, lo, hi);
    VF d;
    hn::Mask<DF> fallback;
    if constexpr (kAsym) {
        d = hn::Div(hn::Sub(hi, lo), hn::Set(df, L::kDivisor));
        fallback = hn::Eq(lo, hn::Zero(df));  // m's sign is that of the first zero
    } else {
        const VF neg_lo = hn::Neg(lo);
        // ggml's signed absmax; on a tie the first of the two decides (scalar path).
        d = hn::Div(hn::IfThenElse(hn::Gt(hi, neg_lo), hi, lo), hn::Set(df, L::kDivisor));
        fallback = hn::Eq(hi, neg_lo);
    }
    const VF ad = hn::Abs(d);
    fallback = hn::Or(fallback, hn::Not(hn::And(hn::Ge(ad, hn::Set(df, FLT_MIN)), hn::Le(ad, hn::Set(df, FLT_MAX)))));
    alignas(64) float ids[kN], mins[kN];
    alignas(64) std::uint16_t hd[kN], hm[kN];
    hn::Store(hn::Div(hn::Set(df, 1.0f), d), df, ids);
    ToFp16(d, hd);
    if constexpr (kAsym) {
        hn::Store(lo, df, mins);
        ToFp16(lo, hm);
    }

    const VF offset = hn::Set(df, L::kOffset);
    const VI max_q = hn::Set(di, L::kMaxQ), k15 = hn::Set(di, 15), k255 = hn::Set(di, 255), bit4 = hn::Set(di, 16);
    // OR of every code before the clamp: bits above kMaxQ (2·kMaxQ + 1 where
    // ggml clamps, as the code can reach kMaxQ + 1) mean NaN (or a bug).
    const VI in_range = hn::Set(di, L::kClamp ? 2 * L::kMaxQ + 1 : L::kMaxQ);
    VI seen = hn::Zero(di);
    for (std::size_t b = 0; b < kN; ++b) {
        const float* HWY_RESTRICT x = src + 32 * b;
        std::uint8_t* HWY_RESTRICT y = dst + L::kBytes * b;
        const VF id = hn::Set(df, ids[b]);
        VF min = hn::Zero(df);
        if constexpr (kAsym) {
            min = hn::Set(df, mins[b]);
            const std::uint32_t dm = hd[b] | (std::uint32_t{hm[b]} << 16);
            std::memcpy(y, &dm, 4);
        } else {
            std::memcpy(y, hd + b, 2);
        }
        std::uint32_t qh = 0;
        VI packed[16 / kN];
        for (std::size_t j = 0; j < 16; j += kN) {
            VF x0 = hn::LoadU(df, x + j), x1 = hn::LoadU(df, x + 16 + j);
            if constexpr (kAsym) {
                x0 = hn::Sub(x0, min);
                x1 = hn::Sub(x1, min);
            }
            VI q0 = TruncToInt(hn::Add(hn::Mul(x0, id), offset));
            VI q1 = TruncToInt(hn::Add(hn::Mul(x1, id), offset));
            seen = hn::Or(seen, hn::Or(q0, q1));
            if constexpr (L::kClamp) {
                q0 = hn::Min(q0, max_q);
                q1 = hn::Min(q1, max_q);
            }
            if constexpr (kBits == 4) {
                packed[j / kN] = hn::Or(q0, hn::ShiftLeft<4>(q1));
            } else {
                // Bit 4 of q0 would land on q1's nibble; q1's bit 4 lands on bit 8.
                packed[j / kN] = hn::Or(hn::And(q0, k15), hn::And(hn::ShiftLeft<4>(q1), k255));
                // Bit 4 of element j goes to bit j of qh (elements 16… to bits 16…).
                if constexpr (kN >= 8) {
                    hn::StoreMaskBits(di, hn::TestBit(q0, bit4), y + L::kQh + j / 8);
                    hn::StoreMaskBits(di, hn::TestBit(q1, bit4), y + L::kQh + 2 + j / 8);
                } else {
                    std::uint8_t m0[8] = {}, m1[8] = {};
                    hn::StoreMaskBits(di, hn::TestBit(q0, bit4), m0);
                    hn::StoreMaskBits(di, hn::TestBit(q1, bit4), m1);
                    qh |= (std::uint32_t{m0[0]} << j) | (std::uint32_t{m1[0]} << (16 + j));
                }
            }
        }
        StoreBytes16(packed, y + L::kQs);
        if constexpr (kBits == 5 && kN < 8) std::memcpy(y + L::kQh, &qh, 4);
        (void)qh;
    }
    if (!hn::AllTrue(di, hn::Eq(hn::AndNot(in_range, seen), hn::Zero(di)))) {
        reference(src, dst, kN);  // a NaN somewhere in the batch
        return;
    }
    RedoBlocks(fallback, src, dst, L::kBytes, reference);
}

// Stores the 32 codes t[0 .. 32 / kN) (each in −127…127) as int8 to p, in
// lane order (t[i] holds codes i·kN …); signed saturation, exact in range.
HWY_INLINE void StoreCodes32(const VI* t, std::uint8_t* HWY_RESTRICT p) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtsepi32_epi8(t[0].raw));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 16), _mm512_cvtsepi32_epi8(t[1].raw));
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
    // Packs work per 128-bit half: dwords of bytes a0-3 b0-3 c0-3 d0-3 |
    // a4-7 b4-7 c4-7 d4-7; dwords 0, 4, 1, 5, 2, 6, 3, 7 restore the order.
    const __m256i w0 = _mm256_packs_epi32(t[0].raw, t[1].raw), w1 = _mm256_packs_epi32(t[2].raw, t[3].raw);
    const __m256i b = _mm256_packs_epi16(w0, w1);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                        _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
    for (std::size_t h = 0; h < 2; ++h) {
        const VI* u = t + 4 * h;
        const __m128i w0 = _mm_packs_epi32(u[0].raw, u[1].raw), w1 = _mm_packs_epi32(u[2].raw, u[3].raw);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 16 * h), _mm_packs_epi16(w0, w1));
    }
#else
    const DI8 d8;
    for (std::size_t i = 0; i < 32 / kN; ++i)
        hn::StoreU(hn::DemoteTo(d8, t[i]), d8, reinterpret_cast<std::int8_t*>(p + i * kN));
#endif
}

// Encodes the kN Q8_0 blocks at src (32 floats each) to dst (34 bytes each).
HWY_INLINE void Q8Batch(const float* HWY_RESTRICT src, std::uint8_t* HWY_RESTRICT dst) {
    const DF df;
    const DI di;
    const DU du;
    VF lo, hi;
    BatchMinMax(src, lo, hi);
    const VF d = hn::Div(hn::Max(hn::Abs(lo), hn::Abs(hi)), hn::Set(df, 127.0f));
    const auto fallback = hn::Not(hn::And(hn::Ge(d, hn::Set(df, FLT_MIN)), hn::Le(d, hn::Set(df, FLT_MAX))));
    alignas(64) float ids[kN];
    alignas(64) std::uint16_t hd[kN];
    hn::Store(hn::IfThenZeroElse(fallback, hn::Div(hn::Set(df, 1.0f), d)), df, ids);
    ToFp16(d, hd);
    const VF half = hn::Set(df, 0.49999997f);
    const auto k127 = hn::Set(di, 127);
    auto seen = hn::Zero(du);  // max of code + 127 (unsigned): above 254 only for a NaN
    for (std::size_t b = 0; b < kN; ++b) {
        const float* HWY_RESTRICT x = src + 32 * b;
        std::uint8_t* HWY_RESTRICT y = dst + 34 * b;
        std::memcpy(y, hd + b, 2);
        const VF id = hn::Set(df, ids[b]);
        VI q[32 / kN];
        for (std::size_t j = 0; j < 32 / kN; ++j) {
            const VF v = hn::Mul(hn::LoadU(df, x + j * kN), id);
            q[j] = TruncToInt(hn::Add(v, hn::CopySignToAbs(half, v)));
            seen = hn::Max(seen, hn::BitCast(du, hn::Add(q[j], k127)));
        }
        StoreCodes32(q, y + 2);
    }
    if (!hn::AllFalse(du, hn::Gt(seen, hn::Set(du, 254u)))) {
        scalar::quantize_q8_0(src, dst, kN);  // a NaN somewhere in the batch
        return;
    }
    RedoBlocks(fallback, src, dst, 34, scalar::quantize_q8_0);
}

template <int kBits, bool kAsym>
HWY_INLINE void LegacyEncode(const float* src, std::uint8_t* dst, std::size_t nb, Encoder reference) {
    using L = Legacy<kBits, kAsym>;
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
    // SCALAR: one block per batch only adds overhead, the reference is faster
    // (and the same bytes). EMU128: its float→int conversion is a C++ cast,
    // undefined for NaN (UBSan), where the batch relies on cvttps2dq's
    // 0x80000000; and it is emulation, no faster than the reference.
    reference(src, dst, nb);
    return;
#endif
    std::size_t i = 0;
    for (; i + kN <= nb; i += kN, src += 32 * kN, dst += L::kBytes * kN) {
        // A prefetch never faults, so running past the end of src is harmless.
        hwy::Prefetch(reinterpret_cast<const float*>(reinterpret_cast<std::uintptr_t>(src) + kPrefetchBytes));
        LegacyBatch<kBits, kAsym>(src, dst, reference);
    }
    if (i < nb) {  // the last blocks, zero-padded to a batch
        alignas(64) float x[32 * kN] = {};
        alignas(64) std::uint8_t y[L::kBytes * kN];
        std::memcpy(x, src, (nb - i) * 32 * sizeof(float));
        LegacyBatch<kBits, kAsym>(x, y, reference);
        std::memcpy(dst, y, (nb - i) * L::kBytes);
    }
}

// quantize_row_q4_0_ref: d = max / −8, codes MIN(15, (int8_t)(x·id + 8.5f)).
void QuantQ4_0(const float* src, std::uint8_t* dst, std::size_t nb) {
    LegacyEncode<4, false>(src, dst, nb, scalar::quantize_q4_0);
}
// quantize_row_q4_1_ref: d = (max − min) / 15, m = min, codes (x − min)·id + 0.5f truncated.
void QuantQ4_1(const float* src, std::uint8_t* dst, std::size_t nb) {
    LegacyEncode<4, true>(src, dst, nb, scalar::quantize_q4_1);
}
// quantize_row_q5_0_ref: d = max / −16, codes MIN(31, (int8_t)(x·id + 16.5f)); bit 4 of element j to bit j of qh.
void QuantQ5_0(const float* src, std::uint8_t* dst, std::size_t nb) {
    LegacyEncode<5, false>(src, dst, nb, scalar::quantize_q5_0);
}
// quantize_row_q5_1_ref: d = (max − min) / 31, m = min, codes (x − min)·id + 0.5f truncated; qh as Q5_0.
void QuantQ5_1(const float* src, std::uint8_t* dst, std::size_t nb) {
    LegacyEncode<5, true>(src, dst, nb, scalar::quantize_q5_1);
}

// quantize_row_q8_0_ref: d = amax / 127, codes roundf(x·id) (see the top).
void QuantQ8_0(const float* src, std::uint8_t* dst, std::size_t nb) {
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
    scalar::quantize_q8_0(src, dst, nb);  // as LegacyEncode: no faster, and cvttps2dq is assumed
    return;
#endif
    std::size_t i = 0;
    for (; i + kN <= nb; i += kN, src += 32 * kN, dst += 34 * kN) {
        hwy::Prefetch(reinterpret_cast<const float*>(reinterpret_cast<std::uintptr_t>(src) + kPrefetchBytes));
        Q8Batch(src, dst);
    }
    if (i < nb) {  // the last blocks, zero-padded to a batch
        alignas(64) float x[32 * kN] = {};
        alignas(64) std::uint8_t y[34 * kN];
        std::memcpy(x, src, (nb - i) * 32 * sizeof(float));
        Q8Batch(x, y);
        std::memcpy(dst, y, (nb - i) * 34);
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
