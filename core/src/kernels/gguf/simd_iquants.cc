// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD decoders of the IQ types: the 4-bit codebook (IQ4_NL,
// IQ4_XS), the lattice grids with sign tables (IQ2_XXS, IQ2_XS, IQ2_S,
// IQ3_XXS, IQ3_S) and the ternary grids with a delta (IQ1_S, IQ1_M);
// compiled once per target, chosen at run time. Helpers and the
// bit-exactness rules: simd-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/simd_iquants.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd-inl.h"
#include "iq_tables.hpp"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void DequantIQ4_NL(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq4_nl;
    const DF df;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems)
        StoreCodebookHalves(df, tables::kvalues_iq4nl, x + offsetof(B, qs), 16, hn::Set(df, load_fp16(x + offsetof(B, d))), y);
}

void DequantIQ4_XS(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq4_xs;
    const DF df;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint16_t scales_h = load_u16(x + offsetof(B, scales_h));
        const std::uint8_t* scales_l = x + offsetof(B, scales_l);
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int ib = 0; ib < 8; ++ib, y += 32, qs += 16) {
            const int ls = ((scales_l[ib / 2] >> (4 * (ib % 2))) & 0xf) | (((scales_h >> (2 * ib)) & 3) << 4);
            StoreCodebookHalves(df, tables::kvalues_iq4nl, qs, 16, hn::Set(df, d * static_cast<float>(ls - 32)), y);
        }
    }
}

// ---- IQ grid types: one 8-value (or two 4-value) grid entry per 8 lanes.
using DF8 = hn::CappedTag<float, 8>;
using DI8x = hn::RebindToSigned<DF8>;
using DU8x = hn::RebindToUnsigned<DF8>;

// 8 unsigned bytes of a grid entry (grid byte j = element j) → f32.
HWY_INLINE void StoreGrid8(const std::uint8_t* g, float db, std::uint8_t signs, float* y) {
    const DF8 df;
    const DU8x du;
    const std::size_t N = hn::Lanes(df);
    const hn::Rebind<std::uint8_t, DF8> d8;
    const auto bits = hn::Set(du, signs);
    const auto iota = hn::Iota(du, 0);
    const auto one = hn::Set(du, 1);
    const auto vdb = hn::Set(df, db);
    const auto minus = hn::Set(df, -1.f), plus = hn::Set(df, 1.f);
    for (std::size_t j = 0; j < 8; j += N) {
        const auto gv = hn::ConvertTo(df, hn::BitCast(DI8x(), hn::PromoteTo(du, hn::LoadU(d8, g + j))));
#if HWY_TARGET == HWY_SCALAR
        // One lane: at -O3 g++ folds `x × (c ? −1 : 1)` into a conditional
        // negation, which flips a NaN's sign where the reference's multiply
        // keeps it. A volatile read of the sign keeps the multiply.
        (void)bits, (void)iota, (void)one, (void)minus, (void)plus;
        const volatile float sign = (signs >> j) & 1 ? -1.f : 1.f;
        hn::StoreU(hn::Mul(hn::Mul(vdb, gv), hn::Set(df, static_cast<float>(sign))), df, y + j);
#else
        const auto neg = hn::RebindMask(df, hn::Eq(hn::And(hn::Shr(bits, hn::Add(iota, hn::Set(du, static_cast<std::uint32_t>(j)))), one), one));
        hn::StoreU(hn::Mul(hn::Mul(vdb, gv), hn::IfThenElse(neg, minus, plus)), df, y + j);
#endif
    }
}

HWY_INLINE const std::uint8_t* GridBytes(const std::uint64_t* grid, unsigned idx) {
    return reinterpret_cast<const std::uint8_t*>(grid + idx);
}
HWY_INLINE const std::uint8_t* GridBytes(const std::uint32_t* grid, unsigned idx) {
    return reinterpret_cast<const std::uint8_t*>(grid + idx);
}

void DequantIQ2_XXS(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq2_xxs;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        for (int ib32 = 0; ib32 < 8; ++ib32) {
            const std::uint8_t* aux8 = x + offsetof(B, qs) + 8 * ib32;
            const std::uint32_t aux1 = load_u32(aux8 + 4);
            const float db = d * (0.5f + static_cast<float>(aux1 >> 28)) * 0.25f;
            for (int l = 0; l < 4; ++l, y += 8)
                StoreGrid8(GridBytes(iq2xxs_grid.data(), aux8[l]), db, ksigns_iq2xs[(aux1 >> (7 * l)) & 127], y);
        }
    }
}

void DequantIQ2_XS(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq2_xs;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* scales = x + offsetof(B, scales);
        for (int ib32 = 0; ib32 < 8; ++ib32) {
            const float db0 = d * (0.5f + static_cast<float>(scales[ib32] & 0xf)) * 0.25f;
            const float db1 = d * (0.5f + static_cast<float>(scales[ib32] >> 4)) * 0.25f;
            for (int l = 0; l < 4; ++l, y += 8) {
                const std::uint16_t q = load_u16(x + offsetof(B, qs) + 2 * (4 * ib32 + l));
                StoreGrid8(GridBytes(iq2xs_grid.data(), q & 511), l < 2 ? db0 : db1, ksigns_iq2xs[q >> 9], y);
            }
        }
    }
}

void DequantIQ2_S(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq2_s;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* signs = x + offsetof(B, qs) + QK_K / 8;
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::uint8_t* scales = x + offsetof(B, scales);
        for (int ib32 = 0; ib32 < 8; ++ib32, qs += 4, signs += 4) {
            const float db0 = d * (0.5f + static_cast<float>(scales[ib32] & 0xf)) * 0.25f;
            const float db1 = d * (0.5f + static_cast<float>(scales[ib32] >> 4)) * 0.25f;
            for (int l = 0; l < 4; ++l, y += 8)
                StoreGrid8(GridBytes(iq2s_grid.data(), qs[l] | ((qh[ib32] << (8 - 2 * l)) & 0x300)), l < 2 ? db0 : db1,
                           signs[l], y);
        }
    }
}

// Two 4-byte grid entries side by side, as one 8-byte entry.
HWY_INLINE void StoreGrid4x2(const std::uint8_t* g1, const std::uint8_t* g2, float db, std::uint8_t signs, float* y) {
    alignas(8) std::uint8_t g[8];
    std::memcpy(g, g1, 4);
    std::memcpy(g + 4, g2, 4);
    StoreGrid8(g, db, signs, y);
}

void DequantIQ3_XXS(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq3_xxs;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int ib32 = 0; ib32 < 8; ++ib32, qs += 8) {
            const std::uint32_t aux32 = load_u32(x + offsetof(B, qs) + QK_K / 4 + 4 * ib32);
            const float db = d * (0.5f + static_cast<float>(aux32 >> 28)) * 0.5f;
            for (int l = 0; l < 4; ++l, y += 8)
                StoreGrid4x2(GridBytes(iq3xxs_grid.data(), qs[2 * l]), GridBytes(iq3xxs_grid.data(), qs[2 * l + 1]), db,
                             ksigns_iq2xs[(aux32 >> (7 * l)) & 127], y);
        }
    }
}

void DequantIQ3_S(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq3_s;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::uint8_t* signs = x + offsetof(B, signs);
        const std::uint8_t* scales = x + offsetof(B, scales);
        for (int ib32 = 0; ib32 < 8; ib32 += 2, qh += 2) {
            const float db1 = d * static_cast<float>(1 + 2 * (scales[ib32 / 2] & 0xf));
            const float db2 = d * static_cast<float>(1 + 2 * (scales[ib32 / 2] >> 4));
            for (int half = 0; half < 2; ++half, qs += 8, signs += 4)
                for (int l = 0; l < 4; ++l, y += 8)
                    StoreGrid4x2(GridBytes(iq3s_grid.data(), qs[2 * l] | ((qh[half] << (8 - 2 * l)) & 256)),
                                 GridBytes(iq3s_grid.data(), qs[2 * l + 1] | ((qh[half] << (7 - 2 * l)) & 256)),
                                 half == 0 ? db1 : db2, signs[l], y);
        }
    }
}

// IQ1: y = dl × (f32(grid int8) + delta); delta's sign by table, not a branch.
constexpr float kIq1Delta[2] = {tables::kIq1sDelta, -tables::kIq1sDelta};
HWY_INLINE void StoreGrid1(const std::uint8_t* g, float dl, float delta, float* y) {
    const DF8 df;
    const std::size_t N = hn::Lanes(df);
    const hn::Rebind<std::int8_t, DF8> d8;
    const auto vdl = hn::Set(df, dl), vdelta = hn::Set(df, delta);
    for (std::size_t j = 0; j < 8; j += N) {
        const auto gv = hn::ConvertTo(df, hn::PromoteTo(DI8x(), hn::LoadU(d8, reinterpret_cast<const std::int8_t*>(g + j))));
        hn::StoreU(hn::Mul(vdl, hn::Add(gv, vdelta)), df, y + j);
    }
}

void DequantIQ1_S(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq1_s;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int ib = 0; ib < 8; ++ib, qs += 4) {
            const std::uint16_t qh = load_u16(x + offsetof(B, qh) + 2 * ib);
            const float dl = d * static_cast<float>(2 * ((qh >> 12) & 7) + 1);
            const float delta = kIq1Delta[qh >> 15];
            for (int l = 0; l < 4; ++l, y += 8)
                StoreGrid1(GridBytes(iq1s_grid.data(), qs[l] | (((qh >> (3 * l)) & 7) << 8)), dl, delta, y);
        }
    }
}

void DequantIQ1_M(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_iq1_m;
    using namespace tables;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        std::uint16_t sc[4];
        for (int k = 0; k < 4; ++k) sc[k] = load_u16(x + offsetof(B, scales) + 2 * k);
        const float d = fp16_to_f32(static_cast<std::uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00f0) |
                                                                ((sc[2] >> 4) & 0x0f00) | (sc[3] & 0xf000)));
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* qh = x + offsetof(B, qh);
        for (int ib = 0; ib < 8; ++ib, qs += 4, qh += 2) {
            const float dl1 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 0x7) + 1);
            const float dl2 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 0x7) + 1);
            const unsigned idx[4] = {static_cast<unsigned>(qs[0] | ((qh[0] << 8) & 0x700)),
                                     static_cast<unsigned>(qs[1] | ((qh[0] << 4) & 0x700)),
                                     static_cast<unsigned>(qs[2] | ((qh[1] << 8) & 0x700)),
                                     static_cast<unsigned>(qs[3] | ((qh[1] << 4) & 0x700))};
            const float delta[4] = {kIq1Delta[(qh[0] >> 3) & 1], kIq1Delta[(qh[0] >> 7) & 1], kIq1Delta[(qh[1] >> 3) & 1],
                                    kIq1Delta[(qh[1] >> 7) & 1]};
            for (int l = 0; l < 4; ++l, y += 8) StoreGrid1(GridBytes(iq1s_grid.data(), idx[l]), l < 2 ? dl1 : dl2, delta[l], y);
        }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf {
AMN_GGUF_SIMD_EXPORT(iq4_nl, IQ4_NL)
AMN_GGUF_SIMD_EXPORT(iq4_xs, IQ4_XS)
AMN_GGUF_SIMD_EXPORT(iq2_xxs, IQ2_XXS)
AMN_GGUF_SIMD_EXPORT(iq2_xs, IQ2_XS)
AMN_GGUF_SIMD_EXPORT(iq2_s, IQ2_S)
AMN_GGUF_SIMD_EXPORT(iq3_xxs, IQ3_XXS)
AMN_GGUF_SIMD_EXPORT(iq3_s, IQ3_S)
AMN_GGUF_SIMD_EXPORT(iq1_s, IQ1_S)
AMN_GGUF_SIMD_EXPORT(iq1_m, IQ1_M)
}  // namespace amn::kernels::gguf
#endif  // HWY_ONCE
