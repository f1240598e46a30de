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
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k8 = hn::Set(di, 8);
    for (std::size_t i = 0; i < nb; ++i, x += 18, y += 32) {
        const VF d = hn::Set(df, load_fp16(x));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + 2 + j);
            StoreScaled(hn::Sub(hn::And(q, k15), k8), d, y + j);
            StoreScaled(hn::Sub(hn::ShiftRight<4>(q), k8), d, y + 16 + j);
        }
    }
}

void DequantQ4_1(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, x += 20, y += 32) {
        const VF d = hn::Set(df, load_fp16(x));
        const VF m = hn::Set(df, load_fp16(x + 2));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + 4 + j);
            StoreScaledAdd(hn::And(q, k15), d, m, y + j);
            StoreScaledAdd(hn::ShiftRight<4>(q), d, m, y + 16 + j);
        }
    }
}

void DequantQ5_0(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k16 = hn::Set(di, 16), k1 = hn::Set(di, 1);
    const VI iota = hn::Iota(di, 0);
    for (std::size_t i = 0; i < nb; ++i, x += 22, y += 32) {
        const VF d = hn::Set(df, load_fp16(x));
        const VI qh = hn::Set(di, static_cast<std::int32_t>(load_u32(x + 2)));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + 6 + j);
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
    const DF df;
    const std::size_t N = hn::Lanes(df);
    for (std::size_t i = 0; i < nb; ++i, x += 34, y += 32) {
        const VF d = hn::Set(df, load_fp16(x));
        for (std::size_t j = 0; j < 32; j += N) StoreScaled(LoadI8(x + 2 + j), d, y + j);
    }
}

void DequantQ2_K(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k3 = hn::Set(di, 3);
    for (std::size_t i = 0; i < nb; ++i, x += 84) {
        const std::uint8_t* scales = x;
        const std::uint8_t* q = x + 16;
        const float d = load_fp16(x + 80);
        const float min = load_fp16(x + 82);
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
    const DF df;
    const DI di;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const VI k3 = hn::Set(di, 3), k1 = hn::Set(di, 1);
    constexpr std::uint32_t kmask1 = 0x03030303, kmask2 = 0x0f0f0f0f;
    for (std::size_t i = 0; i < nb; ++i, x += 110) {
        const float d_all = load_fp16(x + 108);
        const std::uint8_t* q = x + 32;
        const std::uint8_t* hm = x;
        std::uint32_t aux[4];
        std::memcpy(aux, x + 96, 12);
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
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, x += 144) {
        const float d = load_fp16(x);
        const float min = load_fp16(x + 2);
        const std::uint8_t* scales = x + 4;
        const std::uint8_t* q = x + 16;
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

void DequantQ5_K(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const DU du;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k1 = hn::Set(di, 1);
    for (std::size_t i = 0; i < nb; ++i, x += 176) {
        const float d = load_fp16(x);
        const float min = load_fp16(x + 2);
        const std::uint8_t* scales = x + 4;
        const std::uint8_t* qh = x + 16;
        const std::uint8_t* ql = x + 48;
        for (int is = 0; is < 8; is += 2, ql += 32, y += 64) {
            std::uint8_t sc, m;
            ScaleMinK4(is, scales, sc, m);
            const VF d1 = hn::Set(df, d * static_cast<float>(sc));
            const VF m1 = hn::Set(df, min * static_cast<float>(m));
            ScaleMinK4(is + 1, scales, sc, m);
            const VF d2 = hn::Set(df, d * static_cast<float>(sc));
            const VF m2 = hn::Set(df, min * static_cast<float>(m));
            const auto b1 = hn::Set(du, static_cast<std::uint32_t>(is));      // bit of u1 = 1 << is
            const auto b2 = hn::Set(du, static_cast<std::uint32_t>(is + 1));  // bit of u2
            for (std::size_t l = 0; l < 32; l += N) {
                const VI v = LoadU8(ql + l);
                const VI h = LoadU8(qh + l);
                const VI h1 = hn::ShiftLeft<4>(hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(du, h), b1)), k1));
                const VI h2 = hn::ShiftLeft<4>(hn::And(hn::BitCast(di, hn::Shr(hn::BitCast(du, h), b2)), k1));
                StoreScaledSub(hn::Add(hn::And(v, k15), h1), d1, m1, y + l);
                StoreScaledSub(hn::Add(hn::ShiftRight<4>(v), h2), d2, m2, y + 32 + l);
            }
        }
    }
}

void DequantQ6_K(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15), k3 = hn::Set(di, 3), k32 = hn::Set(di, 32);
    for (std::size_t i = 0; i < nb; ++i, x += 210) {
        const float d = load_fp16(x + 208);
        const std::uint8_t* ql = x;
        const std::uint8_t* qh = x + 128;
        const std::int8_t* sc = reinterpret_cast<const std::int8_t*>(x + 192);
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

// IQ4_NL / IQ4_XS: codebook lookup through a 16-entry table of i32.
HWY_INLINE VI Codebook(VI idx) {
    const DI di;
    alignas(64) static constexpr std::int32_t kTable[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                                            1,    13,   25,  38,  53,  69,  89,  113};
    return hn::GatherIndex(di, kTable, idx);
}

void DequantIQ4_NL(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, x += 18, y += 32) {
        const VF d = hn::Set(df, load_fp16(x));
        for (std::size_t j = 0; j < 16; j += N) {
            const VI q = LoadU8(x + 2 + j);
            StoreScaled(Codebook(hn::And(q, k15)), d, y + j);
            StoreScaled(Codebook(hn::ShiftRight<4>(q)), d, y + 16 + j);
        }
    }
}

void DequantIQ4_XS(const std::uint8_t* x, float* y, std::size_t nb) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VI k15 = hn::Set(di, 15);
    for (std::size_t i = 0; i < nb; ++i, x += 136) {
        const float d = load_fp16(x);
        const std::uint16_t scales_h = load_u16(x + 2);
        const std::uint8_t* scales_l = x + 4;
        const std::uint8_t* qs = x + 8;
        for (int ib = 0; ib < 8; ++ib, y += 32, qs += 16) {
            const int ls = ((scales_l[ib / 2] >> (4 * (ib % 2))) & 0xf) | (((scales_h >> (2 * ib)) & 3) << 4);
            const VF dl = hn::Set(df, d * static_cast<float>(ls - 32));
            for (std::size_t j = 0; j < 16; j += N) {
                const VI q = LoadU8(qs + j);
                StoreScaled(Codebook(hn::And(q, k15)), dl, y + j);
                StoreScaled(Codebook(hn::ShiftRight<4>(q)), dl, y + 16 + j);
            }
        }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf {

#define AMN_SIMD_TYPES(X) \
    X(q4_0, Q4_0, 2) X(q4_1, Q4_1, 3) X(q5_0, Q5_0, 6) X(q8_0, Q8_0, 8) X(q2_K, Q2_K, 10) X(q3_K, Q3_K, 11) \
    X(q4_K, Q4_K, 12) X(q5_K, Q5_K, 13) X(q6_K, Q6_K, 14) X(iq4_nl, IQ4_NL, 20) X(iq4_xs, IQ4_XS, 23)

#define AMN_EXPORT(lower, upper, id)                                                       \
    HWY_EXPORT(Dequant##upper);                                                            \
    void dequantize_##lower(const std::uint8_t* s, float* d, std::size_t n) {              \
        HWY_DYNAMIC_DISPATCH(Dequant##upper)(s, d, n);                                     \
    }
AMN_SIMD_TYPES(AMN_EXPORT)
#undef AMN_EXPORT

#define AMN_FORWARD(name) \
    void dequantize_##name(const std::uint8_t* s, float* d, std::size_t n) { scalar::dequantize_##name(s, d, n); }
AMN_FORWARD(q5_1) AMN_FORWARD(q8_1) AMN_FORWARD(q1_0) AMN_FORWARD(q2_0) AMN_FORWARD(q8_K)
AMN_FORWARD(iq2_xxs) AMN_FORWARD(iq2_xs) AMN_FORWARD(iq2_s) AMN_FORWARD(iq3_xxs) AMN_FORWARD(iq3_s)
AMN_FORWARD(iq1_s) AMN_FORWARD(iq1_m) AMN_FORWARD(tq1_0) AMN_FORWARD(tq2_0) AMN_FORWARD(mxfp4) AMN_FORWARD(nvfp4)
#undef AMN_FORWARD

bool has_simd_decoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(lower, upper, id) case id:
        AMN_SIMD_TYPES(AMN_CASE)
#undef AMN_CASE
        return true;
        default: return false;
    }
}

Decoder best_decoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(lower, upper, id) \
    case id: return dequantize_##lower;
        AMN_SIMD_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return scalar_decoder(ggml_id);
    }
}

}  // namespace amn::kernels::gguf
#endif  // HWY_ONCE
