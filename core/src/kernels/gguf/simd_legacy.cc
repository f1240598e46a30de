// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD decoders of the 32-element legacy types (Q4_0, Q4_1, Q5_0,
// Q5_1, Q8_0) and of Q1_0, Q2_0; compiled once per target, chosen at run
// time. Helpers and the bit-exactness rules: simd-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/simd_legacy.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void DequantQ4_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q4_0;
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k8 = hn::Set(di, 8);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + offsetof(B, qs) + j);
            StoreScaled(hn::Sub(hn::And(q, k15), k8), d, y + j);
            StoreScaled(hn::Sub(hn::ShiftRight<4>(q), k8), d, y + 16 + j);
        }
    }
}

void DequantQ4_1(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q4_1;
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        const VF m = hn::Set(df, load_fp16(x + offsetof(B, m)));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + offsetof(B, qs) + j);
            StoreScaledAdd(hn::And(q, k15), d, m, y + j);
            StoreScaledAdd(hn::ShiftRight<4>(q), d, m, y + 16 + j);
        }
    }
}

void DequantQ5_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q5_0;
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k16 = hn::Set(di, 16), k1 = hn::Set(di, 1);
    const VI iota = hn::Iota(di, 0);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        const VI qh = hn::Set(di, static_cast<std::int32_t>(load_u32(x + offsetof(B, qh))));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + offsetof(B, qs) + j);
            const VI jj = hn::Add(iota, hn::Set(di, static_cast<std::int32_t>(j)));
            // bit j and bit j + 16 of qh, moved to 0x10
            const VI h0 = hn::ShiftLeft<4>(hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(DU(), qh), hn::BitCast(DU(), jj))), k1));
            const VI h1 = hn::ShiftLeft<4>(hn::And(
                hn::BitCast(di, hn::Shr(hn::BitCast(DU(), qh), hn::BitCast(DU(), hn::Add(jj, k16)))), k1));
            StoreScaled(hn::Sub(hn::Or(hn::And(q, k15), h0), k16), d, y + j);
            StoreScaled(hn::Sub(hn::Or(hn::ShiftRight<4>(q), h1), k16), d, y + 16 + j);
        }
    }
}

void DequantQ5_1(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q5_1;
    const DF df;
    const DI di;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k16 = hn::Set(di, 16), k1 = hn::Set(di, 1);
    const VI iota = hn::Iota(di, 0);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        const VF m = hn::Set(df, load_fp16(x + offsetof(B, m)));
        const auto qh = hn::Set(du, load_u32(x + offsetof(B, qh)));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + offsetof(B, qs) + j);
            const VI jj = hn::Add(iota, hn::Set(di, static_cast<std::int32_t>(j)));
            const VI h0 = hn::ShiftLeft<4>(hn::And(hn::BitCast(di, hn::Shr(qh, hn::BitCast(du, jj))), k1));
            const VI h1 = hn::ShiftLeft<4>(hn::And(hn::BitCast(di, hn::Shr(qh, hn::BitCast(du, hn::Add(jj, k16)))), k1));
            StoreScaledAdd(hn::Or(hn::And(q, k15), h0), d, m, y + j);
            StoreScaledAdd(hn::Or(hn::ShiftRight<4>(q), h1), d, m, y + 16 + j);
        }
    }
}

void DequantQ8_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q8_0;
    const DF df;
    const std::size_t N = hn::Lanes(df);
    std::size_t i = 0;
#if HWY_TARGET <= HWY_AVX2
    // The fp16 scales of 16 blocks at a time, widened by F16C in one vector
    // conversion (exact, as the scalar fp16_to_f32; Highway's emulation on
    // targets without F16C is not: it loses infinities): the per-block
    // scalar conversion was ~10 % of this store-bound loop.
    constexpr std::size_t kBatch = 16;
    const hn::ScalableTag<float> dfs;
    const hn::Rebind<hwy::float16_t, decltype(dfs)> dh;
    const std::size_t NS = hn::Lanes(dfs);
    HWY_ALIGN float scale[kBatch];
    for (; i + kBatch <= nb; i += kBatch) {
        HWY_ALIGN std::uint16_t half[kBatch];
        for (std::size_t b = 0; b < kBatch; ++b) half[b] = load_u16(x + sizeof(B) * b + offsetof(B, d));
        for (std::size_t b = 0; b < kBatch; b += NS)
            hn::Store(hn::PromoteTo(dfs, hn::Load(dh, reinterpret_cast<const hwy::float16_t*>(half + b))), dfs, scale + b);
        for (std::size_t b = 0; b < kBatch; ++b, x += sizeof(B), y += B::elems) {
            const VF d = hn::Set(df, scale[b]);
            for (std::size_t j = 0; j < 32; j += N) StoreScaled(LoadI8(x + offsetof(B, qs) + j), d, y + j);
        }
    }
#endif
    for (; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        for (std::size_t j = 0; j < 32; j += N) StoreScaled(LoadI8(x + offsetof(B, qs) + j), d, y + j);
    }
}

// Little-endian bits [bit0, bit0 + nbits) of `p` (nbits ≤ 32, read byte-exactly).
HWY_INLINE std::uint32_t LoadBits(const std::uint8_t* p, std::size_t bit0, std::size_t nbits) {
    const std::size_t first = bit0 / 8, last = (bit0 + nbits - 1) / 8;
    std::uint64_t w = 0;
    for (std::size_t b = first; b <= last; ++b) w |= static_cast<std::uint64_t>(p[b]) << (8 * (b - first));
    return static_cast<std::uint32_t>(w >> (bit0 % 8));
}

void DequantQ1_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q1_0;
    const DF df;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const auto iota = hn::Iota(du, 0);
    const auto one = hn::Set(du, 1);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float dv = load_fp16(x + offsetof(B, d));
        const VF d = hn::Set(df, dv);
        const VF neg_d = hn::Set(df, -dv);
        for (std::size_t j = 0; j < 128; j += N) {
            const auto w = hn::Set(du, LoadBits(x + offsetof(B, qs), j, N));
            const auto bit = hn::And(hn::Shr(w, iota), one);
            hn::StoreU(hn::IfThenElse(hn::RebindMask(df, hn::Eq(bit, one)), d, neg_d), df, y + j);
        }
    }
}

void DequantQ2_0(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q2_0;
    const DF df;
    const DI di;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const auto shifts = hn::ShiftLeft<1>(hn::Iota(du, 0));
    const auto k3 = hn::Set(du, 3);
    const VI k1 = hn::Set(di, 1);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const VF d = hn::Set(df, load_fp16(x + offsetof(B, d)));
        for (std::size_t j = 0; j < 64; j += N) {
            const auto w = hn::Set(du, LoadBits(x + offsetof(B, qs), 2 * j, 2 * N));
            const VI q = hn::BitCast(di, hn::And(hn::Shr(w, shifts), k3));
            StoreScaled(hn::Sub(q, k1), d, y + j);
        }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf {
AMN_GGUF_SIMD_EXPORT(q4_0, Q4_0)
AMN_GGUF_SIMD_EXPORT(q4_1, Q4_1)
AMN_GGUF_SIMD_EXPORT(q5_0, Q5_0)
AMN_GGUF_SIMD_EXPORT(q5_1, Q5_1)
AMN_GGUF_SIMD_EXPORT(q8_0, Q8_0)
AMN_GGUF_SIMD_EXPORT(q1_0, Q1_0)
AMN_GGUF_SIMD_EXPORT(q2_0, Q2_0)
}  // namespace amn::kernels::gguf
#endif  // HWY_ONCE
