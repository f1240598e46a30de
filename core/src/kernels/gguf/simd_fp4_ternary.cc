// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD decoders of the ternary types (TQ1_0, TQ2_0) and the FP4
// types (MXFP4, NVFP4); compiled once per target, chosen at run time.
// Helpers and the bit-exactness rules: simd-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/simd_fp4_ternary.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd-inl.h"
#include "iq_tables.hpp"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

alignas(64) constexpr std::uint32_t kTq1ByteShift[16] = {0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24};
alignas(64) constexpr std::int32_t kTq1Pow3[16] = {1, 1, 1, 1, 3, 3, 3, 3, 9, 9, 9, 9, 27, 27, 27, 27};

// Ternary digit t ∈ {0, 1, 2} of each block element → f32(t − 1) × d. On
// AVX2 and AVX3 the three possible products are computed once per block
// and picked by TableLookupLanes (the same three f32 multiplications); on
// 128-bit and scalar targets the lookup is slower than the arithmetic.
struct Ternary {
#if HWY_TARGET > HWY_AVX2
    explicit Ternary(VF d) : d_(d) {}
    HWY_INLINE void Store(VI t, float* y) const { StoreScaled(hn::Sub(t, hn::Set(DI(), 1)), d_, y); }
    VF d_;
#else
    explicit Ternary(VF d) : tab_(hn::Mul(ToF(hn::Sub(hn::Iota(DI(), 0), hn::Set(DI(), 1))), d)) {}
    HWY_INLINE void Store(VI t, float* y) const {
        hn::StoreU(hn::TableLookupLanes(tab_, hn::IndicesFromVec(DF(), t)), DF(), y);
    }
    VF tab_;  // lane t: f32(t − 1) × d
#endif
};

void DequantTQ1_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_tq1_0;
    const DF df;
    const DI di;
    using DU16 = hn::Rebind<std::uint16_t, DF>;
    const DU16 du16;
    const std::size_t N = hn::Lanes(df);
    static constexpr std::uint16_t pow3[5] = {1, 3, 9, 27, 81};
    const auto k16FF = hn::Set(du16, 0xFF), k16_3 = hn::Set(du16, 3);
    const VI kFF = hn::Set(di, 0xFF), k3 = hn::Set(di, 3);
    // t = ((byte × 3^n) mod 256 × 3) >> 8, in u16 lanes (fits: ≤ 765).
    auto digit = [&](hn::Vec<DU16> bytes, int n) {
        const auto q = hn::And(hn::Mul(bytes, hn::Set(du16, pow3[n])), k16FF);
        return hn::BitCast(di, hn::PromoteTo(DU(), hn::ShiftRight<8>(hn::Mul(q, k16_3))));
    };
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const Ternary tern(hn::Set(df, load_fp16(x + offsetof(B, d))));
        for (std::size_t m = 0; m < 32; m += N) {
            const auto bytes = hn::PromoteTo(du16, hn::LoadU(DU8(), x + offsetof(B, qs) + m));
            for (int n = 0; n < 5; ++n) tern.Store(digit(bytes, n), y + 32 * n + m);
        }
        y += 160;
        for (std::size_t m = 0; m < 16; m += N) {
            const auto bytes = hn::PromoteTo(du16, hn::LoadU(DU8(), x + offsetof(B, qs) + 32 + m));
            for (int n = 0; n < 5; ++n) tern.Store(digit(bytes, n), y + 16 * n + m);
        }
        y += 80;
        // 4 qh bytes × 4 digits: lane k is digit k / 4 of byte k % 4.
        const auto qh = hn::Set(DU(), load_u32(x + offsetof(B, qh)));
        for (std::size_t k = 0; k < 16; k += N, y += N) {
            const VI bytes = hn::And(hn::BitCast(di, hn::Shr(qh, hn::LoadU(DU(), kTq1ByteShift + k))), kFF);
            const VI q = hn::And(hn::Mul(bytes, hn::LoadU(di, kTq1Pow3 + k)), kFF);
            tern.Store(hn::ShiftRight<8>(hn::Mul(q, k3)), y);
        }
    }
}

void DequantTQ2_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_tq2_0;
    const DF df;
    const DI di;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const VI k3 = hn::Set(di, 3), k1 = hn::Set(di, 1);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; ++l, y += 32) {
                const auto sh = hn::Set(du, static_cast<std::uint32_t>(2 * l));
                for (std::size_t m = 0; m < 32; m += N) {
                    const VI q = hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(du, LoadU8(x + offsetof(B, qs) + j + m)), sh)), k3);
                    StoreScaled(hn::Sub(q, k1), d, y + m);
                }
            }
    }
}

void DequantMXFP4(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_mxfp4;
    const DF df;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems)
        StoreCodebookHalves(df, tables::kvalues_mxfp4, x + offsetof(B, qs), 16, hn::Set(df, e8m0_to_f32_half(x[offsetof(B, e)])), y);
}

void DequantNVFP4(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_nvfp4;
    const hn::CappedTag<float, 8> df;  // a sub-block is 8 bytes = 16 values
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B))
        for (int s = 0; s < 4; ++s, y += 16)
            StoreCodebookHalves(df, tables::kvalues_mxfp4, x + offsetof(B, qs) + 8 * s, 8, hn::Set(df, ue4m3_to_f32_half(x[offsetof(B, d) + s])), y);
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf {
AMN_GGUF_SIMD_EXPORT(tq1_0, TQ1_0)
AMN_GGUF_SIMD_EXPORT(tq2_0, TQ2_0)
AMN_GGUF_SIMD_EXPORT(mxfp4, MXFP4)
AMN_GGUF_SIMD_EXPORT(nvfp4, NVFP4)
}  // namespace amn::kernels::gguf
#endif  // HWY_ONCE
