// SPDX-License-Identifier: MIT OR Apache-2.0
// SIMD GPTQ / AWQ / bitsandbytes element kernels (quant_kernels.hpp),
// compiled once per Highway target and chosen at run time
// (HWY_DYNAMIC_DISPATCH), like fp8_convert.cc.
//
// Every target must produce exactly the bits of quant::scalar
// (quant_scalar.cc); tests/core/test_quant_kernels.cc checks each one.
// The arithmetic is the same single IEEE operations in the same order, so
// only the data movement differs:
//   * bit fields: per-lane variable shifts (`v >> shifts`) of a broadcast
//     word, vectors capped at one word's fields;
//   * 3-bit fields: per-lane constants over each 3-word group (Unpack3);
//   * act-order groups: up to 4 vectors of groups, the per-group zero and
//     scale are held in registers and picked by TableLookupLanes; more
//     groups use GatherIndex;
//   * 4-bit codebooks: the 16 products code × absmax in registers, picked
//     by TableLookupLanes with nibble indices interleaved in output order
//     (AVX3/AVX2; the scalar loop on 128-bit targets);
//   * tails shorter than a vector use the scalar
//     reference, which computes the same operations.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "int/quant_simd.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "quant_kernels.hpp"

#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::quant {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;  // one byte per f32 lane
using DI8 = hn::Rebind<std::int8_t, DF>;
using VF = hn::Vec<DF>;
using VU = hn::Vec<DU>;
using VI = hn::Vec<DI>;

/// u32 lanes holding values ≤ 255 → bytes.
HWY_INLINE void StoreBytes(VU v, std::uint8_t* HWY_RESTRICT dst) {
    const DI di;
    const DU8 du8;
    hn::StoreU(hn::DemoteTo(du8, hn::BitCast(di, v)), du8, dst);
}

/// Bytes → f32 lanes (exact).
HWY_INLINE VF BytesToF32(const std::uint8_t* HWY_RESTRICT src) {
    const DF df;
    const DI di;
    const DU du;
    const DU8 du8;
    return hn::ConvertTo(df, hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(du8, src))));
}

/// Fields of a 2/4/8-bit stream with vectors of at most one word (CappedTag):
/// each vector is a broadcast word shifted per lane (no gather, which is
/// slow on AVX-512 for this).
template <unsigned kBits>
HWY_INLINE void UnpackBitsT(const std::uint32_t* HWY_RESTRICT words, std::uint8_t* HWY_RESTRICT q, std::size_t n) {
    constexpr unsigned kPer = 32 / kBits;  // fields per word (power of two)
    const hn::CappedTag<std::uint32_t, kPer> du;
    const hn::RebindToSigned<decltype(du)> di;
    const hn::Rebind<std::uint8_t, decltype(du)> du8;
    const std::size_t N = hn::Lanes(du);
    const auto mask = hn::Set(du, (1u << kBits) - 1u);
    const auto base_shift = hn::Mul(hn::Iota(du, 0), hn::Set(du, kBits));
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const auto w = hn::Set(du, words[i / kPer]);
        const auto sh = hn::Add(base_shift, hn::Set(du, static_cast<std::uint32_t>((i % kPer) * kBits)));
        hn::StoreU(hn::DemoteTo(du8, hn::BitCast(di, hn::And(w >> sh, mask))), du8, q + i);
    }
    if (i < n) {
        // Restart the scalar stream at the word boundary at or before i.
        const std::size_t f0 = i / kPer * kPer;
        scalar::unpack_bits(kBits, words + f0 / kPer, q + f0, n - f0);
    }
}

/// 3-bit fields: 32 fields per group of 3 words, field f at stream bit 3f.
/// A vector of N ≤ 16 lanes covering fields [c, c + N) of a group touches
/// at most two words, `wb` (the word of field c) and `wn` (the next one):
/// field = ((sel ? wn : wb) >> lo) | (wn << hi), masked to 3 bits, where
/// `sel` marks lanes living in wn and `hi` is 2 / 1 for the fields
/// straddling words (10, 21) and 31 for the others (their wn bits all land
/// above bit 2 and are masked off). Constants per field, one table each.
alignas(64) constexpr std::uint32_t k3Lo[32] = {0,  3,  6,  9,  12, 15, 18, 21, 24, 27, 30, 1,  4,  7,  10, 13,
                                                16, 19, 22, 25, 28, 31, 2,  5,  8,  11, 14, 17, 20, 23, 26, 29};
alignas(64) constexpr std::uint32_t k3Word[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
                                                  1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};

HWY_INLINE void Unpack3(const std::uint32_t* HWY_RESTRICT words, std::uint8_t* HWY_RESTRICT q, std::size_t n) {
    const hn::CappedTag<std::uint32_t, 16> du;
    const hn::RebindToSigned<decltype(du)> di;
    const hn::Rebind<std::uint8_t, decltype(du)> du8;
    constexpr std::size_t kMaxN = 16;
    const std::size_t N = hn::Lanes(du);
    const auto mask = hn::Set(du, 7u);
    const std::size_t groups = n / 32;
    // One lane (HWY_SCALAR): the reference loop is faster than 32 passes.
    if (N < 4 || N > kMaxN || 32 % N != 0) return scalar::unpack_bits(3, words, q, n);
    // No whole group (n < 32, q may be null for n = 0): no chunk pointer
    // q + c may be formed (past the end, or on null: UB, found by UBSan).
    for (std::size_t c = 0; groups > 0 && c < 32; c += N) {
        // Lane constants of this chunk (hoisted out of the group loop).
        const std::uint32_t b = k3Word[c];
        const std::uint32_t nx = b + 1 < 3 ? b + 1 : 2;  // never read past the group
        const auto lo = hn::LoadU(du, k3Lo + c);
        const auto sel = hn::Ne(hn::LoadU(du, k3Word + c), hn::Set(du, b));
        alignas(64) std::uint32_t hi_tab[kMaxN];
        for (std::size_t j = 0; j < N; ++j) hi_tab[j] = (c + j == 10) ? 2u : (c + j == 21) ? 1u : 31u;
        const auto hi = hn::Load(du, hi_tab);
        const std::uint32_t* w = words;
        std::uint8_t* out = q + c;
        for (std::size_t g = 0; g < groups; ++g, w += 3, out += 32) {
            const auto wb = hn::Set(du, w[b]), wn = hn::Set(du, w[nx]);
            const auto v = hn::Or(hn::IfThenElse(sel, wn, wb) >> lo, wn << hi);
            hn::StoreU(hn::DemoteTo(du8, hn::BitCast(di, hn::And(v, mask))), du8, out);
        }
    }
    if (groups * 32 < n) scalar::unpack_bits(3, words + groups * 3, q + groups * 32, n - groups * 32);
}

void UnpackBits(unsigned bits, const std::uint32_t* HWY_RESTRICT words, std::uint8_t* HWY_RESTRICT q, std::size_t n) {
    switch (bits) {
        case 2: return UnpackBitsT<2>(words, q, n);
        case 4: return UnpackBitsT<4>(words, q, n);
        case 8: return UnpackBitsT<8>(words, q, n);
        case 3: return Unpack3(words, q, n);
        default: return scalar::unpack_bits(bits, words, q, n);
    }
}

void ExtractField(const std::uint32_t* HWY_RESTRICT words, unsigned shift, unsigned bits, std::uint8_t* HWY_RESTRICT q,
                  std::size_t n) {
    const DU du;
    const std::size_t N = hn::Lanes(du);
    const VU mask = hn::Set(du, (1u << bits) - 1u);
    std::size_t i = 0;
    for (; i + N <= n; i += N)
        StoreBytes(hn::And(hn::ShiftRightSame(hn::LoadU(du, words + i), static_cast<int>(shift)), mask), q + i);
    if (i < n) scalar::extract_field(words + i, shift, bits, q + i, n - i);
}

void AffineConst(const std::uint8_t* HWY_RESTRICT q, float zero, float scale, float* HWY_RESTRICT y, std::size_t n) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    const VF vz = hn::Set(df, zero), vs = hn::Set(df, scale);
    std::size_t i = 0;
    for (; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::Sub(BytesToF32(q + i), vz), vs), df, y + i);
    if (i < n) scalar::affine_const(q + i, zero, scale, y + i, n - i);
}

/// Act-order with the per-group zero and scale held in registers: kT
/// tables of N lanes (groups ≤ kT·N), picked by TableLookupLanes on the low
/// index bits and IfThenElse on the bits N and 2N. Same operands as the
/// gather, so the same bits.
template <int kT>
HWY_INLINE void AffineTableT(const std::uint8_t* HWY_RESTRICT q, const std::int32_t* HWY_RESTRICT g,
                             const float* HWY_RESTRICT zero, const float* HWY_RESTRICT scale, std::size_t groups,
                             float* HWY_RESTRICT y, std::size_t n) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    constexpr std::size_t kMax = 4 * HWY_MAX_BYTES / sizeof(float);
    alignas(64) float zb[kMax] = {}, sb[kMax] = {};
    std::memcpy(zb, zero, groups * sizeof(float));
    std::memcpy(sb, scale, groups * sizeof(float));
    const VF z0 = hn::Load(df, zb), s0 = hn::Load(df, sb);
    const VF z1 = kT > 1 ? hn::Load(df, zb + N) : z0, s1 = kT > 1 ? hn::Load(df, sb + N) : s0;
    const VF z2 = kT > 2 ? hn::Load(df, zb + 2 * N) : z0, s2 = kT > 2 ? hn::Load(df, sb + 2 * N) : s0;
    const VF z3 = kT > 2 ? hn::Load(df, zb + 3 * N) : z0, s3 = kT > 2 ? hn::Load(df, sb + 3 * N) : s0;
    const VI low = hn::Set(di, static_cast<std::int32_t>(N - 1));
    const VI bit1 = hn::Set(di, static_cast<std::int32_t>(N)), bit2 = hn::Set(di, static_cast<std::int32_t>(2 * N));
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const VI idx = hn::LoadU(di, g + i);
        const auto ix = hn::IndicesFromVec(df, kT > 1 ? hn::And(idx, low) : idx);
        VF z = hn::TableLookupLanes(z0, ix), s = hn::TableLookupLanes(s0, ix);
        if constexpr (kT > 1) {
            const auto m1 = hn::RebindMask(df, hn::TestBit(idx, bit1));
            z = hn::IfThenElse(m1, hn::TableLookupLanes(z1, ix), z);
            s = hn::IfThenElse(m1, hn::TableLookupLanes(s1, ix), s);
            if constexpr (kT > 2) {
                const auto m2 = hn::RebindMask(df, hn::TestBit(idx, bit2));
                const VF zh = hn::IfThenElse(m1, hn::TableLookupLanes(z3, ix), hn::TableLookupLanes(z2, ix));
                const VF sh = hn::IfThenElse(m1, hn::TableLookupLanes(s3, ix), hn::TableLookupLanes(s2, ix));
                z = hn::IfThenElse(m2, zh, z);
                s = hn::IfThenElse(m2, sh, s);
            }
        }
        hn::StoreU(hn::Mul(hn::Sub(BytesToF32(q + i), z), s), df, y + i);
    }
    if (i < n) scalar::affine_gather(q + i, g + i, zero, scale, y + i, n - i);
}

void AffineGather(const std::uint8_t* HWY_RESTRICT q, const std::int32_t* HWY_RESTRICT g, const float* HWY_RESTRICT zero,
                  const float* HWY_RESTRICT scale, std::size_t groups, float* HWY_RESTRICT y, std::size_t n) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    if (groups <= N) return AffineTableT<1>(q, g, zero, scale, groups, y, n);
    if (groups <= 2 * N) return AffineTableT<2>(q, g, zero, scale, groups, y, n);
    if (groups <= 4 * N) return AffineTableT<4>(q, g, zero, scale, groups, y, n);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const VI idx = hn::LoadU(di, g + i);
        const VF d = hn::Sub(BytesToF32(q + i), hn::GatherIndex(df, zero, idx));
        hn::StoreU(hn::Mul(d, hn::GatherIndex(df, scale, idx)), df, y + i);
    }
    if (i < n) scalar::affine_gather(q + i, g + i, zero, scale, y + i, n - i);
}

void Lut4Scale(const std::uint8_t* HWY_RESTRICT packed, const std::uint64_t* HWY_RESTRICT pairs, float absmax,
               float* HWY_RESTRICT y, std::size_t nbytes) {
#if HWY_TARGET > HWY_AVX2
    // 128-bit and scalar targets: a 16-entry f32 table needs four lookups
    // per vector there, and the scalar loop is faster.
    scalar::lut4_scale(packed, pairs, absmax, y, nbytes);
#else
    // The 16 products code[k] × absmax are computed once per call (the same
    // f32 multiplications as the reference) and held in registers: one
    // 16-lane table on AVX3, two 8-lane halves on AVX2. Indices are built in
    // output order: each byte b widened to u16 as (b >> 4) | (b & 15) << 8
    // puts code index [hi, lo] in memory order, first element = high nibble.
    const DF df;
    const DU du;
    const DI di;
    using D16 = hn::Rebind<std::uint16_t, DF>;
    using D8x2 = hn::Repartition<std::uint8_t, D16>;  // 2N index bytes
    const D16 d16;
    const hn::Half<D8x2> d8h;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);  // packed bytes per iteration → 2N outputs
    const VF va = hn::Set(df, absmax);
    // code[k] is the high half of pairs[k] (pairs[b] high half = code[b & 15]).
    const std::uint32_t* pw = reinterpret_cast<const std::uint32_t*>(pairs);
    auto codes = [&](std::size_t k0) {  // code[k0, k0 + N) × absmax
        return hn::Mul(hn::BitCast(df, hn::ConcatOdd(du, hn::LoadU(du, pw + 2 * k0 + N), hn::LoadU(du, pw + 2 * k0))), va);
    };
#if HWY_TARGET == HWY_AVX2
    const VF tab_lo = codes(0), tab_hi = codes(8);
    const VU k7 = hn::Set(du, 7);
    const VI k7i = hn::Set(di, 7);
    auto emit = [&](VU idx, float* out) {
        const auto i3 = hn::IndicesFromVec(df, hn::BitCast(di, hn::And(idx, k7)));
        const auto hi = hn::RebindMask(df, hn::Gt(hn::BitCast(di, idx), k7i));
        hn::StoreU(hn::IfThenElse(hi, hn::TableLookupLanes(tab_hi, i3), hn::TableLookupLanes(tab_lo, i3)), df, out);
    };
#else
    static_assert(HWY_MAX_BYTES == 64, "one table of 16 f32 lanes");
    const VF tab = codes(0);
    auto emit = [&](VU idx, float* out) {
        hn::StoreU(hn::TableLookupLanes(tab, hn::IndicesFromVec(df, hn::BitCast(di, idx))), df, out);
    };
#endif
    const auto k15 = hn::Set(d16, 15);
    std::size_t j = 0;
    for (; j + N <= nbytes; j += N) {
        const auto w = hn::PromoteTo(d16, hn::LoadU(du8, packed + j));
        const auto idx = hn::BitCast(D8x2(), hn::Or(hn::ShiftRight<4>(w), hn::ShiftLeft<8>(hn::And(w, k15))));
        emit(hn::PromoteTo(du, hn::LowerHalf(d8h, idx)), y + 2 * j);
        emit(hn::PromoteTo(du, hn::UpperHalf(d8h, idx)), y + 2 * j + N);
    }
    if (j < nbytes) scalar::lut4_scale(packed + j, pairs, absmax, y + 2 * j, nbytes - j);
#endif
}

void Int8RowScale(const std::int8_t* HWY_RESTRICT q, float scb, float* HWY_RESTRICT y, std::size_t n) {
    const DF df;
    const DI di;
    const DI8 di8;
    const std::size_t N = hn::Lanes(df);
    const VF vs = hn::Set(df, scb), vk = hn::Set(df, kInt8Inv127);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const VF a = hn::Mul(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(di8, q + i))), vs);
        hn::StoreU(hn::Mul(a, vk), df, y + i);
    }
    if (i < n) scalar::int8_row_scale(q + i, scb, y + i, n - i);
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::quant
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::quant {

HWY_EXPORT(UnpackBits);
HWY_EXPORT(ExtractField);
HWY_EXPORT(AffineConst);
HWY_EXPORT(AffineGather);
HWY_EXPORT(Lut4Scale);
HWY_EXPORT(Int8RowScale);
HWY_EXPORT(TargetName);

void unpack_bits(unsigned bits, const std::uint32_t* words, std::uint8_t* q, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(UnpackBits)(bits, words, q, n);
}
void extract_field(const std::uint32_t* words, unsigned shift, unsigned bits, std::uint8_t* q, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(ExtractField)(words, shift, bits, q, n);
}
void affine_const(const std::uint8_t* q, float zero, float scale, float* y, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(AffineConst)(q, zero, scale, y, n);
}
void affine_gather(const std::uint8_t* q, const std::int32_t* g, const float* zero, const float* scale,
                   std::size_t groups, float* y, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(AffineGather)(q, g, zero, scale, groups, y, n);
}
void lut4_scale(const std::uint8_t* packed, const std::uint64_t* pairs, float absmax, float* y, std::size_t nbytes) {
    HWY_DYNAMIC_DISPATCH(Lut4Scale)(packed, pairs, absmax, y, nbytes);
}
void int8_row_scale(const std::int8_t* q, float scb, float* y, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(Int8RowScale)(q, scb, y, n);
}
const char* quant_target_name() noexcept { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace amn::kernels::quant
#endif  // HWY_ONCE
