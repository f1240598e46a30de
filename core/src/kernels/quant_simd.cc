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
//   * act-order groups: GatherIndex of the per-group zero and scale;
//   * 4-bit codebooks: the 16 products code × absmax in registers, picked
//     by TableLookupLanes with nibble indices interleaved in output order
//     (AVX3/AVX2; the scalar loop on 128-bit targets);
//   * tails shorter than a vector (and 3-bit fields) use the scalar
//     reference, which computes the same operations.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "quant_simd.cc"  // found through the kernels include dir
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

void UnpackBits(unsigned bits, const std::uint32_t* HWY_RESTRICT words, std::uint8_t* HWY_RESTRICT q, std::size_t n) {
    switch (bits) {
        case 2: return UnpackBitsT<2>(words, q, n);
        case 4: return UnpackBitsT<4>(words, q, n);
        case 8: return UnpackBitsT<8>(words, q, n);
        default: return scalar::unpack_bits(bits, words, q, n);  // 3-bit: fields straddle words
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

void AffineGather(const std::uint8_t* HWY_RESTRICT q, const std::int32_t* HWY_RESTRICT g, const float* HWY_RESTRICT zero,
                  const float* HWY_RESTRICT scale, float* HWY_RESTRICT y, std::size_t n) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
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
void affine_gather(const std::uint8_t* q, const std::int32_t* g, const float* zero, const float* scale, float* y,
                   std::size_t n) {
    HWY_DYNAMIC_DISPATCH(AffineGather)(q, g, zero, scale, y, n);
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
