// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD decoders of the k-quants (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K);
// compiled once per target, chosen at run time. Q8_K (an intermediate of
// ggml's dot products) has the scalar decoder only. Helpers and the
// bit-exactness rules: simd-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/simd_kquants.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void DequantQ2_K(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q2_K;
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k3 = hn::Set(di, 3);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const std::uint8_t* scales = x + offsetof(B, scales);
        const std::uint8_t* q = x + offsetof(B, qs);
        const float d = load_fp16(x + offsetof(B, d));
        const float min = load_fp16(x + offsetof(B, dmin));
        int is = 0;
        for (int n = 0; n < 256; n += 128) {
            for (int shift = 0; shift < 8; shift += 2) {
                for (int half = 0; half < 2; ++half) {
                    const std::uint8_t sc = scales[is++];
                    const VF dl = hn::Set(df, d * static_cast<float>(sc & 0xF));
                    const VF ml = hn::Set(df, min * static_cast<float>(sc >> 4));
                    for (std::size_t l = 0; l < 16; l += N) {
                        const VI v = hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(DU(), LoadU8(q + 16 * half + l)),
                                                                     hn::Set(DU(), static_cast<std::uint32_t>(shift)))),
                                             k3);
                        StoreScaledSub(v, dl, ml, y + l);
                    }
                    y += 16;
                }
            }
            q += 32;
        }
    }
}

void DequantQ3_K(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q3_K;
    const DF df;
    const DI di;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const VI k3 = hn::Set(di, 3), k1 = hn::Set(di, 1);
    constexpr std::uint32_t kmask1 = 0x03030303, kmask2 = 0x0f0f0f0f;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d_all = load_fp16(x + offsetof(B, d));
        const std::uint8_t* q = x + offsetof(B, qs);
        const std::uint8_t* hm = x + offsetof(B, hmask);
        std::uint32_t aux[4];
        std::memcpy(aux, x + offsetof(B, scales), 12);
        const std::uint32_t tmp = aux[2];
        aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
        aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
        aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
        aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
        std::int8_t scales[16];
        std::memcpy(scales, aux, 16);
        int is = 0;
        unsigned bit = 0;
        for (int n = 0; n < 256; n += 128) {
            for (int shift = 0; shift < 8; shift += 2, ++bit) {
                const auto vshift = hn::Set(du, static_cast<std::uint32_t>(shift));
                const auto vbit = hn::Set(du, bit);
                for (int half = 0; half < 2; ++half) {
                    const VF dl = hn::Set(df, d_all * static_cast<float>(scales[is++] - 32));
                    for (std::size_t l = 0; l < 16; l += N) {
                        const std::size_t o = 16 * half + l;
                        const VI lo = hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(du, LoadU8(q + o)), vshift)), k3);
                        const VI hb = hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(du, LoadU8(hm + o)), vbit)), k1);
                        // high bit clear → subtract 4
                        const VI sub = hn::ShiftLeft<2>(hn::Xor(hb, k1));
                        StoreScaled(hn::Sub(lo, sub), dl, y + l);
                    }
                    y += 16;
                }
            }
            q += 32;
        }
    }
}

HWY_INLINE void ScaleMinK4(int j, const std::uint8_t* q, std::uint8_t& d, std::uint8_t& m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = static_cast<std::uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

void DequantQ4_K(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q4_K;
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const float min = load_fp16(x + offsetof(B, dmin));
        const std::uint8_t* scales = x + offsetof(B, scales);
        const std::uint8_t* q = x + offsetof(B, qs);
        for (int is = 0; is < 8; is += 2, q += 32, y += 64) {
            std::uint8_t sc, m;
            ScaleMinK4(is, scales, sc, m);
            const VF d1 = hn::Set(df, d * static_cast<float>(sc));
            const VF m1 = hn::Set(df, min * static_cast<float>(m));
            ScaleMinK4(is + 1, scales, sc, m);
            const VF d2 = hn::Set(df, d * static_cast<float>(sc));
            const VF m2 = hn::Set(df, min * static_cast<float>(m));
            for (std::size_t l = 0; l < 32; l += N) {
                const VI v = LoadU8(q + l);
                StoreScaledSub(hn::And(v, k15), d1, m1, y + l);
                StoreScaledSub(hn::ShiftRight<4>(v), d2, m2, y + 32 + l);
            }
        }
    }
}

// The 5-bit values are assembled in u8 lanes (low or high nibble of ql, plus
// 16 where the sub-block's qh bit is set), then widened once to i32.
void DequantQ5_K(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q5_K;
    const DF df;
    const DU8 du8;
    const std::size_t N = hn::Lanes(df);
    const auto k15 = hn::Set(du8, 15), k16 = hn::Set(du8, 16);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const float min = load_fp16(x + offsetof(B, dmin));
        const std::uint8_t* scales = x + offsetof(B, scales);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::uint8_t* ql = x + offsetof(B, qs);
        for (int is = 0; is < 8; is += 2, ql += 32, y += 64) {
            std::uint8_t sc, m;
            ScaleMinK4(is, scales, sc, m);
            const VF d1 = hn::Set(df, d * static_cast<float>(sc));
            const VF m1 = hn::Set(df, min * static_cast<float>(m));
            ScaleMinK4(is + 1, scales, sc, m);
            const VF d2 = hn::Set(df, d * static_cast<float>(sc));
            const VF m2 = hn::Set(df, min * static_cast<float>(m));
            const auto u1 = hn::Set(du8, static_cast<std::uint8_t>(1u << is));  // qh bit of the first sub-block
            const auto u2 = hn::Set(du8, static_cast<std::uint8_t>(2u << is));  // … of the second
            for (std::size_t l = 0; l < 32; l += N) {
                const auto v = hn::LoadU(du8, ql + l);
                const auto h = hn::LoadU(du8, qh + l);
                const auto a = hn::Or(hn::And(v, k15), hn::IfThenElseZero(hn::TestBit(h, u1), k16));
                const auto b = hn::Or(hn::ShiftRight<4>(v), hn::IfThenElseZero(hn::TestBit(h, u2), k16));
                StoreScaledSub(hn::BitCast(DI(), hn::PromoteTo(DU(), a)), d1, m1, y + l);
                StoreScaledSub(hn::BitCast(DI(), hn::PromoteTo(DU(), b)), d2, m2, y + 32 + l);
            }
        }
    }
}

void DequantQ6_K(const std::uint8_t* HWY_RESTRICT x, float* HWY_RESTRICT y, std::size_t nb) {
    using B = block_q6_K;
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k3 = hn::Set(di, 3), k32 = hn::Set(di, 32);
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* ql = x + offsetof(B, ql);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::int8_t* sc = reinterpret_cast<const std::int8_t*>(x + offsetof(B, scales));
        for (int n = 0; n < 256; n += 128, y += 128, ql += 64, qh += 32, sc += 8) {
            for (std::size_t l = 0; l < 32; l += N) {
                const int is = static_cast<int>(l / 16);
                const VF s1 = hn::Set(df, d * static_cast<float>(sc[is + 0]));
                const VF s2 = hn::Set(df, d * static_cast<float>(sc[is + 2]));
                const VF s3 = hn::Set(df, d * static_cast<float>(sc[is + 4]));
                const VF s4 = hn::Set(df, d * static_cast<float>(sc[is + 6]));
                const VI a = LoadU8(ql + l);
                const VI b = LoadU8(ql + 32 + l);
                const VI h = LoadU8(qh + l);
                const VI q1 = hn::Sub(hn::Or(hn::And(a, k15), hn::ShiftLeft<4>(hn::And(h, k3))), k32);
                const VI q2 = hn::Sub(hn::Or(hn::And(b, k15), hn::ShiftLeft<4>(hn::And(hn::ShiftRight<2>(h), k3))), k32);
                const VI q3 = hn::Sub(hn::Or(hn::ShiftRight<4>(a), hn::ShiftLeft<4>(hn::And(hn::ShiftRight<4>(h), k3))), k32);
                const VI q4 = hn::Sub(hn::Or(hn::ShiftRight<4>(b), hn::ShiftLeft<4>(hn::ShiftRight<6>(h))), k32);
                // (d × sc) × q, as ggml
                StoreScaled(q1, s1, y + l);
                StoreScaled(q2, s2, y + 32 + l);
                StoreScaled(q3, s3, y + 64 + l);
                StoreScaled(q4, s4, y + 96 + l);
            }
        }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf {
AMN_GGUF_SIMD_EXPORT(q2_K, Q2_K)
AMN_GGUF_SIMD_EXPORT(q3_K, Q3_K)
AMN_GGUF_SIMD_EXPORT(q4_K, Q4_K)
AMN_GGUF_SIMD_EXPORT(q5_K, Q5_K)
AMN_GGUF_SIMD_EXPORT(q6_K, Q6_K)
}  // namespace amn::kernels::gguf
#endif  // HWY_ONCE
