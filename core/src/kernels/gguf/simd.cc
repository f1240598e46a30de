// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD GGUF dequantizers for the most used block types (Q4_0, Q4_1,
// Q5_0, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS), compiled once per target
// and chosen at run time; the registry's decoder functions for every type
// (the others forward to the scalar reference).
//
// Bit-exactness with the scalar reference (= ggml's dequantize_row_*): the
// per-group scales and mins are computed by the same scalar expressions;
// only the per-element work is vectorized, with the same f32 operations in
// the same order (int → f32 conversion, one multiply, then the subtraction
// or addition of the min; no FMA: -ffp-contract=off and separate Mul/Sub).
// Lanes are capped at 16 so that every vector stays inside one 16-element
// group of a block. tests/core/test_gguf_kernels.cc checks SIMD == scalar
// bit for bit on every compiled target.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/simd.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "blocks.hpp"
#include "gguf_kernels.hpp"
#include "iq_tables.hpp"

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
HWY_INLINE VI LoadU8(const std::uint8_t* p) {
    const DU8 d8;
    const DU du;
    const DI di;
    return hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(d8, p)));
}
HWY_INLINE VI LoadI8(const std::uint8_t* p) {
    const DI8 d8;
    const DI di;
    return hn::PromoteTo(di, hn::LoadU(d8, reinterpret_cast<const std::int8_t*>(p)));
}
HWY_INLINE VF ToF(VI v) { return hn::ConvertTo(DF(), v); }

// y = f32(q) × d
HWY_INLINE void StoreScaled(VI q, VF d, float* y) { hn::StoreU(hn::Mul(ToF(q), d), DF(), y); }
// y = f32(q) × d − m
HWY_INLINE void StoreScaledSub(VI q, VF d, VF m, float* y) { hn::StoreU(hn::Sub(hn::Mul(ToF(q), d), m), DF(), y); }
// y = f32(q) × d + m
HWY_INLINE void StoreScaledAdd(VI q, VF d, VF m, float* y) { hn::StoreU(hn::Add(hn::Mul(ToF(q), d), m), DF(), y); }

void DequantQ4_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ4_1(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ5_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ8_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ2_K(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ3_K(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ4_K(const std::uint8_t* x, float* y, std::size_t nb) {
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
void DequantQ5_K(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ6_K(const std::uint8_t* x, float* y, std::size_t nb) {
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
HWY_INLINE void StoreCodebookHalves(D df, const std::int8_t* table, const std::uint8_t* qs, std::size_t len,
                                    hn::Vec<D> d, float* y) {
    const hn::Rebind<std::uint8_t, D> d8;
    const std::size_t N = hn::Lanes(df);
    const auto k15 = hn::Set(d8, 0x0F);
    for (std::size_t j = 0; j < len; j += N) {
        const auto q = hn::LoadU(d8, qs + j);
        hn::StoreU(hn::Mul(hn::ConvertTo(df, Codebook16(df, table, hn::And(q, k15))), d), df, y + j);
        hn::StoreU(hn::Mul(hn::ConvertTo(df, Codebook16(df, table, hn::ShiftRight<4>(q))), d), df, y + len + j);
    }
}

void DequantIQ4_NL(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq4_nl;
    const DF df;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems)
        StoreCodebookHalves(df, tables::kvalues_iq4nl, x + offsetof(B, qs), 16, hn::Set(df, load_fp16(x + offsetof(B, d))), y);
}

void DequantIQ4_XS(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ5_1(const std::uint8_t* x, float* y, std::size_t nb) {
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

// Little-endian bits [bit0, bit0 + nbits) of `p` (nbits ≤ 32, read byte-exactly).
HWY_INLINE std::uint32_t LoadBits(const std::uint8_t* p, std::size_t bit0, std::size_t nbits) {
    const std::size_t first = bit0 / 8, last = (bit0 + nbits - 1) / 8;
    std::uint64_t w = 0;
    for (std::size_t b = first; b <= last; ++b) w |= static_cast<std::uint64_t>(p[b]) << (8 * (b - first));
    return static_cast<std::uint32_t>(w >> (bit0 % 8));
}

void DequantQ1_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantQ2_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantTQ1_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantTQ2_0(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantMXFP4(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_mxfp4;
    const DF df;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems)
        StoreCodebookHalves(df, tables::kvalues_mxfp4, x + offsetof(B, qs), 16, hn::Set(df, e8m0_to_f32_half(x[offsetof(B, e)])), y);
}

void DequantNVFP4(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_nvfp4;
    const hn::CappedTag<float, 8> df;  // a sub-block is 8 bytes = 16 values
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B))
        for (int s = 0; s < 4; ++s, y += 16)
            StoreCodebookHalves(df, tables::kvalues_mxfp4, x + offsetof(B, qs) + 8 * s, 8, hn::Set(df, ue4m3_to_f32_half(x[offsetof(B, d) + s])), y);
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

void DequantIQ2_XXS(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantIQ2_XS(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantIQ2_S(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantIQ3_XXS(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantIQ3_S(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantIQ1_S(const std::uint8_t* x, float* y, std::size_t nb) {
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

void DequantIQ1_M(const std::uint8_t* x, float* y, std::size_t nb) {
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

#define AMN_EXPORT(NAME, id, block_elems, block_bytes, kernel, decoder) AMN_EXPORT_##decoder(kernel, NAME)
#define AMN_EXPORT_SCALAR(kernel, NAME)
#define AMN_EXPORT_SIMD(kernel, NAME)                                                      \
    HWY_EXPORT(Dequant##NAME);                                                            \
    void dequantize_##kernel(const std::uint8_t* s, float* d, std::size_t n) {             \
        HWY_DYNAMIC_DISPATCH(Dequant##NAME)(s, d, n);                                      \
    }
AMN_GGML_TYPES(AMN_EXPORT)
#undef AMN_EXPORT

}  // namespace amn::kernels::gguf
#endif  // HWY_ONCE
