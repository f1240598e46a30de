// SPDX-License-Identifier: MIT OR Apache-2.0
// Per-target helpers of the Highway GGUF decoders (simd_legacy.cc,
// simd_kquants.cc, simd_iquants.cc, simd_fp4_ternary.cc), in the manner of
// hwy/examples/skeleton-inl.h: included once per target by each kernel file
// after <hwy/highway.h>, hence the toggling guard instead of #pragma once.
//
// Bit-exactness with the scalar reference (= ggml's dequantize_row_*): the
// per-group scales and mins are computed by the same scalar expressions;
// only the per-element work is vectorized, with the same f32 operations in
// the same order (int → f32 conversion, one multiply, then the subtraction
// or addition of the min; no FMA: -ffp-contract=off and separate Mul/Sub).
// Lanes are capped at 16 so that every vector stays inside one 16-element
// group of a block. tests/core/test_gguf_kernels.cc checks SIMD == scalar
// bit for bit on every compiled target.

// Not per target: the entry points, written once (HWY_ONCE) by each kernel file.
#ifndef AMN_GGUF_SIMD_INL_ONCE_H_
#define AMN_GGUF_SIMD_INL_ONCE_H_
/// Exports Highway kernel `Dequant<NAME>` as the dispatched decoder
/// `dequantize_<kernel>` (declared in gguf_kernels.hpp for the types that
/// AMN_GGML_TYPES marks SIMD). Use under `#if HWY_ONCE`, in namespace
/// amn::kernels::gguf.
#define AMN_GGUF_SIMD_EXPORT(kernel, NAME)                                                           \
    HWY_EXPORT(Dequant##NAME);                                                                      \
    void dequantize_##kernel(const std::uint8_t* HWY_RESTRICT s, float* HWY_RESTRICT d, std::size_t n) { \
        HWY_DYNAMIC_DISPATCH(Dequant##NAME)(s, d, n);                                                \
    }
#endif  // AMN_GGUF_SIMD_INL_ONCE_H_

#if defined(AMN_GGUF_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef AMN_GGUF_SIMD_INL_H_
#undef AMN_GGUF_SIMD_INL_H_
#else
#define AMN_GGUF_SIMD_INL_H_
#endif

#include <hwy/highway.h>

#include "blocks.hpp"
#include "gguf_kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, 16>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using DU8 = hn::Rebind<std::uint8_t, DF>;
using DI8 = hn::Rebind<std::int8_t, DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

// N bytes → N i32 lanes (zero-extended / sign-extended).
HWY_INLINE VI LoadU8(const std::uint8_t* HWY_RESTRICT p) {
    const DU8 d8;
    const DU du;
    const DI di;
    return hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(d8, p)));
}
HWY_INLINE VI LoadI8(const std::uint8_t* HWY_RESTRICT p) {
    const DI8 d8;
    const DI di;
    return hn::PromoteTo(di, hn::LoadU(d8, reinterpret_cast<const std::int8_t*>(p)));
}
HWY_INLINE VF ToF(VI v) { return hn::ConvertTo(DF(), v); }

// y = f32(q) × d
HWY_INLINE void StoreScaled(VI q, VF d, float* HWY_RESTRICT y) { hn::StoreU(hn::Mul(ToF(q), d), DF(), y); }
// y = f32(q) × d − m
HWY_INLINE void StoreScaledSub(VI q, VF d, VF m, float* HWY_RESTRICT y) { hn::StoreU(hn::Sub(hn::Mul(ToF(q), d), m), DF(), y); }
// y = f32(q) × d + m
HWY_INLINE void StoreScaledAdd(VI q, VF d, VF m, float* HWY_RESTRICT y) { hn::StoreU(hn::Add(hn::Mul(ToF(q), d), m), DF(), y); }

// 16-entry int8 codebooks (IQ4_NL/IQ4_XS, the FP4 types): nibble indices
// in u8 lanes looked up with a byte shuffle (pshufb), then widened.
template <class D>
HWY_INLINE hn::Vec<hn::RebindToSigned<D>> Codebook16(D, const std::int8_t* table,
                                                     hn::Vec<hn::Rebind<std::uint8_t, D>> idx) {
    const hn::RebindToSigned<D> di;
#if HWY_TARGET == HWY_SCALAR
    return hn::Set(di, table[hn::GetLane(idx)]);
#else
    const hn::Full128<std::int8_t> dt;
    const hn::Rebind<std::int8_t, D> di8;
    return hn::PromoteTo(di, hn::TableLookupBytes(hn::LoadU(dt, table), hn::BitCast(di8, idx)));
#endif
}

// 2·len nibbles of `qs` (len bytes: low nibbles first, then high nibbles,
// ggml's split-half order) → codebook values × d into y[0, 2·len).
template <class D>
HWY_INLINE void StoreCodebookHalves(D df, const std::int8_t* HWY_RESTRICT table, const std::uint8_t* HWY_RESTRICT qs, std::size_t len,
                                    hn::Vec<D> d, float* HWY_RESTRICT y) {
    const hn::Rebind<std::uint8_t, D> d8;
    const std::size_t N = hn::Lanes(df);
    const auto k15 = hn::Set(d8, 0x0F);
    for (std::size_t j = 0; j < len; j += N) {
        const auto q = hn::LoadU(d8, qs + j);
        hn::StoreU(hn::Mul(hn::ConvertTo(df, Codebook16(df, table, hn::And(q, k15))), d), df, y + j);
        hn::StoreU(hn::Mul(hn::ConvertTo(df, Codebook16(df, table, hn::ShiftRight<4>(q))), d), df, y + len + j);
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#endif  // AMN_GGUF_SIMD_INL_H_ toggle
