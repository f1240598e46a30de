// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD compressed-tensors INT (`pack-quantized`: W4A16, W8A16, symmetric
// and asymmetric, groups or channel) straight from the stored BF16 bits
// (st_kernels.hpp `ct_int_rows_bf16`), compiled once per target and chosen at
// run time; the f32 kernels are in st_simd.cc.
//
// The bytes are those of the f32 path on the decoded values (minmax,
// amn::st::detail::ct_int_qparams, int_encode with wdtype BF16, pack_int):
// - symmetric: max(|mn|, |mx|) = max |x| is the largest bits & 0x7FFF (for
//   finite values their order is the order of |x|; ≥ 0x7F80: NaN/±inf);
// - asymmetric: min and max come from the bits: key = bits ^ ((bits >>arith 15) & 0x7FFF)
//   orders BF16 patterns as signed 16-bit integers in the order of their
//   values (−0 just below +0, which no caller tells apart: see StKernels::
//   minmax); accumulators start at key 0 (+0), so they give min(0, min x) and
//   max(0, max x). NaN/±inf are the keys above +inf's 0x7F80 or below −inf's
//   (NOT key ≥ 0x7F80): flagged from the same maxima, before anything is
//   computed from them;
// - scales and zero points: ct_int_qparams' operations for 16 groups at a
//   time (f32 lanes: fabs, fmax, true division, subtraction; the BF16 rounding
//   by the integer recipe bits + 0x7FFF + lsb, which keeps the default NaN of
//   0/0 a NaN; the NaN zero point → 0; a zero scale → eps 2^-7);
// - codes: v = rt(x / s) (a true IEEE division, then the BF16 rounding),
//   asymmetric v = rt(v + z), then round half to even (VCVTPS2DQ with
//   {rn-sae}) *before* the clamp to [qmin, qmax], which is then a signed
//   saturation to int8 (packs) and, for 4 bits, a byte clamp to [−8, 7]:
//   round half even is monotone and keeps the integer bounds, so
//   clamp(RNE(v)) = RNE(clamp(v)). |x / s| is small (s comes from the group's
//   own min and max: ≤ ~1.5 · range + |z| even when the scale is a BF16
//   subnormal, 0 when it is inf), far from VCVTPS2DQ's int32 limit;
// - packing: u = q + 2^(bits−1); 4 bits: byte k = u[2k] | u[2k+1] << 4 (one
//   multiply-add of byte pairs by (1, 16), a truncating word → byte move);
//   8 bits: byte k = q[k] ^ 0x80 — pack_to_int32's words, little-endian.
// With 16 lanes (AVX-512, groups of a multiple of 32 values): per row, groups
// go in batches of 16 — the keys' maxima of the 16 groups reduced together,
// their 16 scales and zero points in one pass, then their codes, 64 values
// at a time. Other targets, and other group sizes, decode a row at a time and
// run that target's f32 kernels.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "int/st_simd_ctint.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::st {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A row at a time: decoded (and checked), then this target's f32 kernels, as forget's f32 path.
bool CtIntRowsDecoded(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, unsigned bits,
                      bool symmetric, float* scale, std::int8_t* zp, std::int32_t* packed) {
    const StKernels& k = st_kernels();
    const std::size_t G = C / gs, words = (C * bits + 31) / 32;
    const float qmin = -float(1u << (bits - 1)), qmax = float((1u << (bits - 1)) - 1);
    std::vector<float> x(C);
    std::vector<std::int8_t> q(C);
    for (std::size_t r = 0; r < nrows; ++r) {
        if (k.bf16_decode_checked(in + r * C, C, x.data()) < C) return false;
        float* s = scale + r * G;
        for (std::size_t g = 0; g < G; ++g) {
            float mn, mx;
            std::int8_t z;
            k.minmax(x.data() + g * gs, gs, &mn, &mx);
            amn::st::detail::ct_int_qparams(mn, mx, bits, symmetric, DType::BF16, s[g], z);
            if (zp) zp[r * G + g] = z;
            k.int_encode(x.data() + g * gs, gs, s[g], float(z), qmin, qmax, DType::BF16, q.data() + g * gs, nullptr);
        }
        k.pack_int(q.data(), C, bits, packed + r * words);
    }
    return true;
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// f32 → f32 rounded to BF16 (round to nearest even; the integer recipe of RoundW<1>).
HWY_INLINE __m512 RoundBf16(__m512 f) {
    const __m512i u = _mm512_castps_si512(f);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7FFF), lsb));
    return _mm512_castsi512_ps(_mm512_and_si512(r, _mm512_set1_epi32(std::int32_t(0xFFFF0000u))));
}

// Signed 16-bit maxima of 16 vectors: dword b of the result holds, in each of its two
// 16-bit halves, the max of that half over the dwords of v[b]. Pairs of vectors merged
// by unpacks (within 128-bit lanes), then 128-bit lanes by shuffles.
HWY_INLINE __m512i MaxOf16I16(const __m512i (&v)[16]) {
    __m512i w[8], x[4], y[2];
    for (int i = 0; i < 8; ++i)
        w[i] = _mm512_max_epi16(_mm512_unpacklo_epi32(v[2 * i], v[2 * i + 1]), _mm512_unpackhi_epi32(v[2 * i], v[2 * i + 1]));
    for (int i = 0; i < 4; ++i)
        x[i] = _mm512_max_epi16(_mm512_unpacklo_epi64(w[2 * i], w[2 * i + 1]), _mm512_unpackhi_epi64(w[2 * i], w[2 * i + 1]));
    for (int i = 0; i < 2; ++i)
        y[i] = _mm512_max_epi16(_mm512_shuffle_i32x4(x[2 * i], x[2 * i + 1], 0x44),
                                _mm512_shuffle_i32x4(x[2 * i], x[2 * i + 1], 0xEE));
    return _mm512_max_epi16(_mm512_shuffle_i32x4(y[0], y[1], 0x88), _mm512_shuffle_i32x4(y[0], y[1], 0xDD));
}

// Rows with gs a multiple of 32. kAsym: zero points; kBits 4 or 8.
template <bool kAsym, unsigned kBits>
bool CtIntRowsAvx3(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, float* scale,
                   std::int8_t* zp, std::int32_t* packed) {
    constexpr float kQmin = -float(1u << (kBits - 1)), kQmax = float((1u << (kBits - 1)) - 1);
    constexpr float kRange = kQmax - kQmin;
    const std::size_t G = C / gs, words = C * kBits / 32;
    const __m512i zero = _mm512_setzero_si512(), mag16 = _mm512_set1_epi16(0x7FFF), ones = _mm512_set1_epi32(-1);
    const __m512i finite_max = _mm512_set1_epi16(0x7F7F);
    const __m512i perm = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    const __m512i pair = _mm512_set1_epi16(0x1001);  // bytes (1, 16): u(2k) + u(2k+1)·16
    const __m512i lo8 = _mm512_set1_epi8(std::int8_t(kQmin)), hi8 = _mm512_set1_epi8(std::int8_t(kQmax));
    const __m512i off8 = _mm512_set1_epi8(std::int8_t(kBits == 4 ? 8 : -128));
    HWY_ALIGN float sv[16], zv[16];
    for (std::size_t r = 0; r < nrows; ++r) {
        const std::uint16_t* xr = in + r * C;
        auto* row = reinterpret_cast<std::uint8_t*>(packed + r * words);
        for (std::size_t g0 = 0; g0 < G; g0 += 16) {
            const std::size_t nb = std::min<std::size_t>(16, G - g0);
            // Asymmetric: the max key in the low half of each dword, the max of NOT min key in
            // the high half. Symmetric: only max(|mn|, |mx|) = max |x| is used, the largest
            // magnitude pattern (bits & 0x7FFF, also a non-negative int16), in the low half.
            __m512i c[16];
            for (std::size_t b = 0; b < 16; ++b) {
                __m512i mx = zero, mn = zero;
                if (b < nb) {
                    const std::uint16_t* xg = xr + (g0 + b) * gs;
                    for (std::size_t j = 0; j < gs; j += 32) {
                        const __m512i raw = _mm512_loadu_si512(xg + j);
                        if constexpr (kAsym) {
                            const __m512i key = _mm512_ternarylogic_epi32(raw, _mm512_srai_epi16(raw, 15), mag16, 0x78);
                            mx = _mm512_max_epi16(mx, key);
                            mn = _mm512_min_epi16(mn, key);
                        } else {
                            mx = _mm512_max_epu16(mx, _mm512_and_si512(raw, mag16));
                        }
                    }
                }
                const __m512i lo = _mm512_max_epi16(mx, _mm512_srli_epi32(mx, 16));
                if constexpr (kAsym) {
                    const __m512i nmn = _mm512_xor_si512(mn, ones);
                    c[b] = _mm512_mask_blend_epi16(__mmask32(0xAAAAAAAAu), lo, _mm512_max_epi16(nmn, _mm512_slli_epi32(nmn, 16)));
                } else {
                    c[b] = lo;
                }
            }
            const __m512i keys = MaxOf16I16(c);
            const __mmask32 valid = (nb == 16 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << (2 * nb)) - 1u)) &
                                    __mmask32(kAsym ? 0xFFFFFFFFu : 0x55555555u);
            if (_mm512_mask_cmpgt_epi16_mask(valid, keys, finite_max) != 0) return false;  // NaN or ±inf
            const __m512 mxf = _mm512_castsi512_ps(_mm512_slli_epi32(keys, 16));  // sym: max |x|
            // ct_int_qparams of the 16 groups.
            __m512 s;
            __m512i zi = zero;
            if constexpr (!kAsym) {
                s = RoundBf16(_mm512_div_ps(mxf, _mm512_set1_ps(kRange / 2.0f)));
            } else {
                const __m512i mnk = _mm512_xor_si512(_mm512_srai_epi32(keys, 16), ones);  // min key, sign-extended
                const __m512i mnb = _mm512_xor_si512(mnk, _mm512_and_si512(_mm512_srai_epi32(mnk, 15), _mm512_set1_epi32(0x7FFF)));
                const __m512 mnf = _mm512_castsi512_ps(_mm512_slli_epi32(mnb, 16));
                s = RoundBf16(_mm512_div_ps(RoundBf16(_mm512_sub_ps(mxf, mnf)), _mm512_set1_ps(kRange)));
                __m512 zf = RoundBf16(_mm512_sub_ps(_mm512_set1_ps(kQmin), RoundBf16(_mm512_div_ps(mnf, s))));
                const __mmask16 ord = _mm512_cmp_ps_mask(zf, zf, _CMP_ORD_Q);
                zf = _mm512_min_ps(_mm512_max_ps(zf, _mm512_set1_ps(kQmin)), _mm512_set1_ps(kQmax));
                zi = _mm512_maskz_cvt_roundps_epi32(ord, zf, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
            }
            s = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(s, _mm512_setzero_ps(), _CMP_EQ_OQ), s, _mm512_set1_ps(0.0078125f));
            const __mmask16 gmask = __mmask16((1u << nb) - 1u);
            _mm512_mask_storeu_ps(scale + r * G + g0, gmask, s);
            if (zp) _mm512_mask_cvtepi32_storeu_epi8(zp + r * G + g0, gmask, zi);
            _mm512_store_ps(sv, s);
            _mm512_store_ps(zv, _mm512_cvtepi32_ps(zi));
            // The codes of the 16 groups.
            for (std::size_t b = 0; b < nb; ++b) {
                const __m512 vs = _mm512_set1_ps(sv[b]), vz = _mm512_set1_ps(zv[b]);
                // 16 values (f32) → their codes as int32 (round half even; not yet clamped).
                auto code16 = [&](__m512 f) {
                    __m512 v = RoundBf16(_mm512_div_ps(f, vs));
                    if constexpr (kAsym) v = RoundBf16(_mm512_add_ps(v, vz));
                    return _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
                };
                // 32 values → 32 int16 codes in order (the unpacks with zero give elements
                // 8L … 8L+3 and 8L+4 … 8L+7 of 128-bit lane L; the pack restores the order).
                auto codes32 = [&](const std::uint16_t* p) {
                    const __m512i raw = _mm512_loadu_si512(p);
                    return _mm512_packs_epi32(code16(_mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, raw))),
                                              code16(_mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, raw))));
                };
                const std::uint16_t* xg = xr + (g0 + b) * gs;
                std::uint8_t* out = row + (g0 + b) * gs * kBits / 8;
                std::size_t j = 0;
                for (; j + 64 <= gs; j += 64) {
                    // Signed saturation to int8 (the 8-bit clamp); lane L holds elements 8L … 8L+7
                    // of both halves: the qword permute puts the 64 in order.
                    __m512i q = _mm512_permutexvar_epi64(perm, _mm512_packs_epi16(codes32(xg + j), codes32(xg + j + 32)));
                    if constexpr (kBits == 4) {
                        q = _mm512_add_epi8(_mm512_min_epi8(_mm512_max_epi8(q, lo8), hi8), off8);
                        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j / 2),
                                            _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(q, pair)));
                    } else {
                        _mm512_storeu_si512(out + j, _mm512_xor_si512(q, off8));
                    }
                }
                if (j < gs) {  // 32 values left
                    __m256i q = _mm512_cvtsepi16_epi8(codes32(xg + j));
                    if constexpr (kBits == 4) {
                        q = _mm256_add_epi8(_mm256_min_epi8(_mm256_max_epi8(q, _mm512_castsi512_si256(lo8)),
                                                            _mm512_castsi512_si256(hi8)),
                                            _mm512_castsi512_si256(off8));
                        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j / 2),
                                         _mm256_cvtepi16_epi8(_mm256_maddubs_epi16(q, _mm512_castsi512_si256(pair))));
                    } else {
                        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j),
                                            _mm256_xor_si256(q, _mm512_castsi512_si256(off8)));
                    }
                }
            }
        }
    }
    return true;
}
#endif

bool CtIntRowsBf16(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, unsigned bits,
                   bool symmetric, float* scale, std::int8_t* zp, std::int32_t* packed) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if (gs % 32 == 0) {
        if (bits == 4) return symmetric ? CtIntRowsAvx3<false, 4>(in, nrows, C, gs, scale, zp, packed)
                                        : CtIntRowsAvx3<true, 4>(in, nrows, C, gs, scale, zp, packed);
        if (bits == 8) return symmetric ? CtIntRowsAvx3<false, 8>(in, nrows, C, gs, scale, zp, packed)
                                        : CtIntRowsAvx3<true, 8>(in, nrows, C, gs, scale, zp, packed);
    }
#endif
    return CtIntRowsDecoded(in, nrows, C, gs, bits, symmetric, scale, zp, packed);
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::st
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::st {

HWY_EXPORT(CtIntRowsBf16);

bool simd_ct_int_rows_bf16(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, unsigned bits,
                           bool symmetric, float* scale, std::int8_t* zp, std::int32_t* packed) {
    return HWY_DYNAMIC_DISPATCH(CtIntRowsBf16)(in, nrows, C, gs, bits, symmetric, scale, zp, packed);
}

}  // namespace amn::kernels::st
#endif  // HWY_ONCE
