// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the scalar building blocks ggml's quantizers are made of, with
// the exact semantics the reference bytes pin down (shared fixtures
// quantize-ref/README.md): binary32 arithmetic only, ggml's rounding
// functions as written, and x86-64 GCC results for float→int conversions
// that C leaves undefined (NaN, ±inf, out of range).

#include "kernels/gguf/gguf_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace amn::kernels::gguf::q {

/// f32 → binary16 bits, round to nearest even, overflow to ±inf, NaN →
/// 0x7E00 | sign: ggml's GGML_FP32_TO_FP16 (ggml_compute_fp32_to_fp16),
/// equal to F16C `vcvtps2ph` for every non-NaN input.
inline std::uint16_t f32_to_fp16(float f) noexcept {
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t abs = x & 0x7FFFFFFFu;
    if (abs > 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7E00u);  // NaN
    if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // ≥ 65520 rounds to inf
    if (abs < 0x38800000u) {  // below 2^-14: subnormal or zero in f16
        // value × 2^24 rounded to nearest even, in integer arithmetic.
        if (abs < 0x33000000u) return static_cast<std::uint16_t>(sign);  // < 2^-25: rounds to 0
        const std::uint32_t e = abs >> 23;
        const std::uint32_t m = (abs & 0x7FFFFFu) | 0x800000u;
        const std::uint32_t shift = 126u - e;  // 113 - e + 13
        const std::uint32_t half = 1u << (shift - 1);
        const std::uint32_t rest = m & ((1u << shift) - 1u);
        std::uint32_t r = m >> shift;
        if (rest > half || (rest == half && (r & 1u))) ++r;
        return static_cast<std::uint16_t>(sign | r);
    }
    std::uint32_t r = abs - 0x38000000u;  // rebias 127 → 15 (exponent field − 112)
    const std::uint32_t rest = r & 0x1FFFu;
    r >>= 13;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1u))) ++r;
    return static_cast<std::uint16_t>(sign | r);
}

/// ggml's nearest_int: round to nearest, ties to even, through the
/// 1.5·2^23 magic number (valid for |x| ≤ 4194303, as ggml asserts).
inline int nearest_int(float x) noexcept {
    const float v = x + 12582912.0f;
    std::int32_t i;
    std::memcpy(&i, &v, 4);
    return (i & 0x007FFFFF) - 0x00400000;
}

/// C's `(int)x` as x86-64 GCC compiles it (cvttss2si): truncation toward
/// zero; NaN, ±inf and values outside int32 give INT32_MIN (0x80000000).
inline std::int32_t cvtt_i32(float x) noexcept {
    if (!(x > -2147483904.0f && x < 2147483648.0f)) return std::numeric_limits<std::int32_t>::min();
    return static_cast<std::int32_t>(x);
}

/// C's `(int8_t)x` / `(uint8_t)x` under x86-64 GCC: through int32 (above),
/// then the low 8 bits.
inline std::uint8_t cvtt_u8(float x) noexcept { return static_cast<std::uint8_t>(cvtt_i32(x)); }
inline std::int8_t cvtt_i8(float x) noexcept { return static_cast<std::int8_t>(static_cast<std::uint8_t>(cvtt_i32(x))); }

/// glibc `roundf` (half away from zero), as a float.
inline float roundf_away(float x) noexcept { return std::round(x); }

/// glibc `lroundf`: half away from zero; NaN, ±inf and out-of-range give
/// LONG_MIN as on x86-64.
inline long lroundf_x86(float x) noexcept {
    if (!(x > -9.2233720e18f && x < 9.2233720e18f)) return std::numeric_limits<long>::min();
    return std::lround(x);
}

/// ggml_fp32_to_ue4m3: positive f32 → unsigned E4M3 (bias 7), rounding half
/// up on the first dropped mantissa bit, saturating at 0x7E; ≤ 0 or NaN → 0.
inline std::uint8_t f32_to_ue4m3(float x) noexcept {
    if (!(x > 0.0f)) return 0;
    if (x > 448.0f) x = 448.0f;
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    const int fp32_exp = static_cast<int>((bits >> 23) & 0xFF) - 127;
    const int fp32_man = static_cast<int>((bits >> 20) & 0x7);
    int exp = fp32_exp + 7;
    if (exp <= 0) {  // subnormal: man × 2^−9
        const int man = std::min(7, cvtt_i32(x * 512.0f + 0.5f));
        return man < 1 ? 0 : static_cast<std::uint8_t>(man);
    }
    if (exp >= 15) return 0x7E;
    int man = fp32_man + static_cast<int>((bits >> 19) & 1);
    if (man > 7) {
        man = 0;
        if (++exp >= 15) return 0x7E;
    }
    return static_cast<std::uint8_t>((exp << 3) | man);
}

/// Elements of a k-quant / IQ super-block.
inline constexpr int QK_K = 256;
/// ggml GROUP_MAX_EPS: a group whose largest magnitude is below this is "all zero".
inline constexpr float kGroupMaxEps = 1e-15f;

/// Stores v as little-endian binary16 (GGML_FP32_TO_FP16) at p.
inline void store_fp16(std::uint8_t* p, float v) noexcept {
    const std::uint16_t h = f32_to_fp16(v);
    std::memcpy(p, &h, 2);
}

/// The value of largest magnitude of x[0..n), with its sign, as ggml's
/// searches find it (`if (ax > amax)`: the first one wins); *amax_out
/// receives its magnitude.
inline float signed_absmax(int n, const float* x, float* amax_out) noexcept {
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        const float ax = std::fabs(x[i]);
        if (ax > amax) {
            amax = ax;
            max = x[i];
        }
    }
    *amax_out = amax;
    return max;
}

/// ggml best_index_int8: index of the entry nearest to x in the sorted
/// codebook val[0..n); a tie goes to the upper entry. The distance
/// comparison is done in f32 as ggml writes it.
inline int best_index_int8(int n, const std::int8_t* val, float x) noexcept {
    if (x <= static_cast<float>(val[0])) return 0;
    if (x >= static_cast<float>(val[n - 1])) return n - 1;
    int ml = 0, mu = n - 1;
    while (mu - ml > 1) {
        const int mav = (ml + mu) / 2;
        if (x < static_cast<float>(val[mav]))
            mu = mav;
        else
            ml = mav;
    }
    return x - static_cast<float>(val[mu - 1]) < static_cast<float>(val[mu]) - x ? mu - 1 : mu;
}

// ---- k-quant block layouts (ggml-common.h), shared by the _ref and _impl
// encoders and the SIMD drivers. Integer work only, or the f32 re-rounding
// exactly as ggml writes it.

/// ggml get_scale_min_k4: 6-bit scale and min of sub-block j (0..7) from
/// the 12 packed bytes of Q4_K / Q5_K.
inline void get_scale_min_k4(int j, const std::uint8_t* q, std::uint8_t& d, std::uint8_t& m) noexcept {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = static_cast<std::uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

/// The 12 scale bytes of Q4_K / Q5_K from eight scales and mins, each
/// clamped to 63 first (ggml's `MIN(63, l)` on a uint8_t).
inline void pack_scale_min_k4(const std::uint8_t* Ls, const std::uint8_t* Lm, std::uint8_t* scales) noexcept {
    for (int j = 0; j < QK_K / 32; ++j) {
        const std::uint8_t ls = std::min<std::uint8_t>(63, Ls[j]);
        const std::uint8_t lm = std::min<std::uint8_t>(63, Lm[j]);
        if (j < 4) {
            scales[j] = ls;
            scales[j + 4] = lm;
        } else {
            scales[j + 4] = static_cast<std::uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
            scales[j - 4] = static_cast<std::uint8_t>(scales[j - 4] | ((ls >> 4) << 6));
            scales[j] = static_cast<std::uint8_t>(scales[j] | ((lm >> 4) << 6));
        }
    }
}

/// Four 2-bit levels per byte as Q2_K and Q3_K store them: in each half of
/// 128, byte l holds elements l, l+32, l+64, l+96.
inline void pack_2bit(const std::uint8_t* L, std::uint8_t* qs) noexcept {
    for (int j = 0; j < QK_K; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) |
                                                      (L[j + l + 96] << 6));
}

/// Levels 0..nmax of n values `x ≈ d·L − dm`: clamp(nearest_int((x + dm)/d)).
inline void round_asym(const float* x, int n, float d, float dm, int nmax, std::uint8_t* L) noexcept {
    for (int i = 0; i < n; ++i) {
        const int l = nearest_int((x[i] + dm) / d);
        L[i] = static_cast<std::uint8_t>(std::max(0, std::min(nmax, l)));
    }
}

/// Levels −nmax..nmax−1 of n values `x ≈ d·l`, stored as l + nmax.
inline void round_sym(const float* x, int n, float d, int nmax, std::int8_t* L) noexcept {
    for (int i = 0; i < n; ++i) {
        const int l = nearest_int(x[i] / d);
        L[i] = static_cast<std::int8_t>(std::max(-nmax, std::min(nmax - 1, l)) + nmax);
    }
}

/// Q2_K tail, once scales[16], d (dst+80) and dmin (dst+82) are stored:
/// re-round every value with the scales as stored (a zero scale keeps the
/// search levels already in L) and pack the levels at dst+16.
inline void q2_K_levels(const float* x, std::uint8_t* dst, std::uint8_t* L) noexcept {
    const float dall = load_fp16(dst + 80), dmin = load_fp16(dst + 82);
    for (int j = 0; j < QK_K / 16; ++j) {
        const float d = dall * static_cast<float>(dst[j] & 0xF);
        if (!d) continue;
        const float dm = dmin * static_cast<float>(dst[j] >> 4);
        round_asym(x + 16 * j, 16, d, dm, 3, L + 16 * j);
    }
    pack_2bit(L, dst + 16);
}

/// Stores the signed 6-bit scale l + 32 (0..63) of Q3_K sub-block j in the
/// 12 scale bytes (zeroed first): low nibbles in 0..7, high 2 bits in 8..11.
inline void q3_K_put_scale(int j, int l, std::uint8_t* y_scales) noexcept {
    if (j < 8)
        y_scales[j] = static_cast<std::uint8_t>(l & 0xF);
    else
        y_scales[j - 8] = static_cast<std::uint8_t>(y_scales[j - 8] | ((l & 0xF) << 4));
    l >>= 4;
    y_scales[j % 4 + 8] = static_cast<std::uint8_t>(y_scales[j % 4 + 8] | (l << (2 * (j / 4))));
}

/// The signed scale of Q3_K sub-block j (−32..31) from the 12 scale bytes.
inline std::int8_t q3_K_get_scale(int j, const std::uint8_t* y_scales) noexcept {
    const int low = j < 8 ? (y_scales[j] & 0xF) : (y_scales[j - 8] >> 4);
    const int high = (y_scales[8 + j % 4] >> (2 * (j / 4))) & 3;
    return static_cast<std::int8_t>((low | (high << 4)) - 32);
}

/// Q3_K tail, once the scale bytes (dst+96) and d (dst+108) are stored:
/// re-round every value to −4..3 with the scale as stored (a zero scale
/// keeps the search levels, +4, in L), then the high bit of level j to bit
/// j/32 of hmask[j%32] and the low two bits packed at dst+32.
inline void q3_K_levels(const float* x, std::uint8_t* dst, std::int8_t* L) noexcept {
    const std::uint8_t* y_scales = dst + 96;
    for (int j = 0; j < QK_K / 16; ++j) {
        const float d = load_fp16(dst + 108) * static_cast<float>(q3_K_get_scale(j, y_scales));
        if (!d) continue;
        round_sym(x + 16 * j, 16, d, 4, L + 16 * j);
    }
    std::uint8_t* y_hmask = dst;
    std::memset(y_hmask, 0, QK_K / 8);
    std::uint8_t low2[QK_K];
    for (int j = 0; j < QK_K; ++j) {
        int l = L[j];
        if (l > 3) {
            y_hmask[j % 32] = static_cast<std::uint8_t>(y_hmask[j % 32] | (1u << (j / 32)));
            l -= 4;
        }
        low2[j] = static_cast<std::uint8_t>(l);
    }
    pack_2bit(low2, dst + 32);
}

/// Q4_K / Q5_K tail, from the sub-block scales and mins quantized to Ls/Lm
/// against the super-block scale d and min dmin: packs the 12 scale bytes
/// at dst+4, stores d and dmin at dst, dst+2, and re-rounds every value to
/// 0..nmax with the scale and min as stored (a zero scale keeps the search
/// levels already in L).
inline void k4_scales_and_levels(const float* x, int nmax, const std::uint8_t* Ls, const std::uint8_t* Lm, float d_block,
                                 float m_block, std::uint8_t* dst, std::uint8_t* L) noexcept {
    std::uint8_t* sc = dst + 4;
    pack_scale_min_k4(Ls, Lm, sc);
    store_fp16(dst, d_block);
    store_fp16(dst + 2, m_block);
    for (int j = 0; j < QK_K / 32; ++j) {
        std::uint8_t s, m;
        get_scale_min_k4(j, sc, s, m);
        const float d = load_fp16(dst) * static_cast<float>(s);
        if (!d) continue;
        const float dm = load_fp16(dst + 2) * static_cast<float>(m);
        round_asym(x + 32 * j, 32, d, dm, nmax, L + 32 * j);
    }
}

/// Q4_K levels 0..15 into 128 bytes: per 64 elements, l and l+32 share byte l.
inline void pack_q4_K_levels(const std::uint8_t* L, std::uint8_t* q) noexcept {
    for (int j = 0; j < QK_K; j += 64, q += 32)
        for (int l = 0; l < 32; ++l) q[l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 4));
}

/// Q5_K levels 0..31: per 64 elements, low nibbles of l and l+32 in ql, their
/// 5th bits in bits 2k and 2k+1 of qh[l].
inline void pack_q5_K_levels(const std::uint8_t* L, std::uint8_t* qh, std::uint8_t* ql) noexcept {
    std::memset(qh, 0, QK_K / 8);
    std::uint8_t m1 = 1, m2 = 2;
    for (int n = 0; n < QK_K; n += 64, ql += 32) {
        for (int j = 0; j < 32; ++j) {
            int l1 = L[n + j], l2 = L[n + j + 32];
            if (l1 > 15) {
                l1 -= 16;
                qh[j] |= m1;
            }
            if (l2 > 15) {
                l2 -= 16;
                qh[j] |= m2;
            }
            ql[j] = static_cast<std::uint8_t>(l1 | (l2 << 4));
        }
        m1 = static_cast<std::uint8_t>(m1 << 2);
        m2 = static_cast<std::uint8_t>(m2 << 2);
    }
}

/// Q6_K levels 0..63: per 128 elements, low nibbles of l and l+64 in ql[l],
/// of l+32 and l+96 in ql[l+32]; the four top-2-bit pairs in qh[l].
template <typename Level>
inline void pack_q6_K_levels(const Level* L, std::uint8_t* ql, std::uint8_t* qh) noexcept {
    for (int j = 0; j < QK_K; j += 128, ql += 64, qh += 32) {
        for (int l = 0; l < 32; ++l) {
            const int v1 = L[j + l], v2 = L[j + l + 32], v3 = L[j + l + 64], v4 = L[j + l + 96];
            ql[l] = static_cast<std::uint8_t>((v1 & 0xF) | ((v3 & 0xF) << 4));
            ql[l + 32] = static_cast<std::uint8_t>((v2 & 0xF) | ((v4 & 0xF) << 4));
            qh[l] = static_cast<std::uint8_t>((v1 >> 4) | ((v2 >> 4) << 2) | ((v3 >> 4) << 4) | ((v4 >> 4) << 6));
        }
    }
}

/// Q6_K sub-block scales to signed 8 bits against −128/max_scale (d at
/// dst+208, scales at dst+192) into sc; false (and the block zeroed) when
/// every scale is below GROUP_MAX_EPS.
inline bool q6_K_scales(const float* scales, std::uint8_t* dst, std::int8_t* sc) noexcept {
    float max_abs_scale;
    const float max_scale = signed_absmax(QK_K / 16, scales, &max_abs_scale);
    if (max_abs_scale < kGroupMaxEps) {
        std::memset(dst, 0, 210);
        return false;
    }
    const float iscale = -128.f / max_scale;
    store_fp16(dst + 208, 1 / iscale);
    for (int ib = 0; ib < QK_K / 16; ++ib) {
        sc[ib] = static_cast<std::int8_t>(std::min(127, nearest_int(iscale * scales[ib])));
        dst[192 + ib] = static_cast<std::uint8_t>(sc[ib]);
    }
    return true;
}

/// Q6_K tail: scales (q6_K_scales), re-rounding to −32..31 with the scale
/// as stored (a zero scale keeps the search levels in L), packing.
inline void q6_K_finish(const float* x, const float* scales, std::uint8_t* dst, std::int8_t* L) noexcept {
    std::int8_t sc[QK_K / 16];
    if (!q6_K_scales(scales, dst, sc)) return;
    for (int j = 0; j < QK_K / 16; ++j) {
        const float d = load_fp16(dst + 208) * static_cast<float>(sc[j]);
        if (!d) continue;
        round_sym(x + 16 * j, 16, d, 32, L + 16 * j);
    }
    pack_q6_K_levels(L, dst, dst + 128);
}

/// IQ4_NL / IQ4_XS tail of ggml's quantize_row_iq4_nl_impl, once the
/// 32-sub-block scales are found: with one sub-block (IQ4_NL) its scale is
/// stored at dh as is; with eight (IQ4_XS) each is quantized to a signed
/// 6-bit multiple of d = −max_scale/32 (low nibbles in scales_l, high 2 bits
/// in the u16 scales_h). Every value is re-mapped to the nearest entry of
/// `values` with the scale as stored, and byte j of each 16 at q4 holds
/// elements j and j+16 of a 32-sub-block.
inline void iq4_scales_and_levels(int super_block_size, const float* x, const float* scales,
                                  const std::int8_t* values, std::uint8_t* dh, std::uint8_t* scales_h,
                                  std::uint8_t* scales_l, std::uint8_t* q4) noexcept {
    constexpr int block_size = 32;
    std::uint8_t L[QK_K];
    const int nsub = super_block_size / block_size;
    if (nsub > 1) {
        float amax_scale;
        const float max_scale = signed_absmax(nsub, scales, &amax_scale);
        std::uint16_t sh = 0;
        const float d = -max_scale / 32;  // −0.0 for an all-zero super-block, as ggml stores it
        store_fp16(dh, d);
        const float id = d ? 1 / d : 0.f;
        for (int ib = 0; ib < nsub; ++ib) {
            int l = std::max(-32, std::min(31, nearest_int(id * scales[ib])));
            const float dl = d * static_cast<float>(l);
            const float idl = dl ? 1 / dl : 0.f;
            std::uint8_t* Lb = L + ib * block_size;
            const float* xb = x + ib * block_size;
            for (int j = 0; j < block_size; ++j)
                Lb[j] = static_cast<std::uint8_t>(best_index_int8(16, values, idl * xb[j]));
            l += 32;
            const auto l_l = static_cast<std::uint8_t>(l & 0xF);
            const auto l_h = static_cast<std::uint16_t>(l >> 4);
            if (ib % 2 == 0)
                scales_l[ib / 2] = l_l;
            else
                scales_l[ib / 2] = static_cast<std::uint8_t>(scales_l[ib / 2] | (l_l << 4));
            sh = static_cast<std::uint16_t>(sh | (l_h << (2 * (ib % 8))));
        }
        std::memcpy(scales_h, &sh, 2);
    } else {
        store_fp16(dh, scales[0]);
        const float id = scales[0] ? 1 / scales[0] : 0;
        for (int j = 0; j < super_block_size; ++j)
            L[j] = static_cast<std::uint8_t>(best_index_int8(16, values, id * x[j]));
    }
    for (int i = 0; i < nsub; ++i)
        for (int j = 0; j < 16; ++j)
            q4[16 * i + j] = static_cast<std::uint8_t>(L[32 * i + j] | (L[32 * i + 16 + j] << 4));
}

}  // namespace amn::kernels::gguf::q
