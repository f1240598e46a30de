// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD FP8 (compressed-tensors, DeepGEMM) and LLM.int8 codes
// straight from the stored BF16 bits (st_kernels.hpp `fp8_encode_bf16`,
// `int8_row_bf16`), compiled once per target and chosen at run time. Each
// lane decodes its value in a register (bits << 16, exact) and then runs the
// f32 kernel's operations of st_simd.cc (the helpers of st_simd-inl.h) in
// the same order: the same codes, without an f32 buffer between the two.
// Counts that are not a multiple of the vector width finish with the scalar
// reference on the decoded values.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fp8/st_simd_fp8.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"
#include "kernels/st/st_simd-inl.h"

#include <algorithm>
#include <cmath>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::st {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The decoded values in[i .. i + n) into buf (n ≤ 64).
inline void DecodeTail(const std::uint16_t* in, std::size_t n, float* buf) {
    for (std::size_t i = 0; i < n; ++i) buf[i] = amn::st::detail::float_of(std::uint32_t(in[i]) << 16);
}

#if HWY_TARGET != HWY_SCALAR
HWY_INLINE VF LoadBf16(const std::uint16_t* p) {
    const DU du;
    const hn::Rebind<std::uint16_t, DU> d16;
    return hn::BitCast(DF(), hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, p))));
}
#endif

#if HWY_TARGET != HWY_SCALAR
// compressed-tensors FP8 of [i, end) (a multiple of the lane count): the f32 kernel's steps.
HWY_INLINE void Fp8CtLanes(const std::uint16_t* in, std::size_t i, std::size_t end, float s, std::uint8_t* q) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    const VF vs = hn::Set(df, s), lim = hn::Set(df, 448.0f), nlim = hn::Set(df, -448.0f);
    VF rounded;
    for (; i + N <= end; i += N) {
        VF v = RoundW<1>(hn::Div(LoadBf16(in + i), vs));
        v = hn::Add(v, hn::Zero(df));  // + zero point 0 (−0 → +0): exact, so its rounding is the identity
        StoreBytes(E4M3Rounded<false>(hn::Min(hn::Max(v, nlim), lim), rounded), q + i);
    }
}
#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// compressed-tensors FP8 of BF16 weights, 32 values at a time. v = rt_BF16(x / s) is
// itself a BF16 value, so after the division the steps run on 16-bit lanes: the +0
// (−0 → +0), the clamp to ±448 (0x43E0) on the magnitude bits, and the E4M3 code of a
// normal |v| ≥ 2^-6 from its bits — rebias by 120 and round the 7 mantissa bits to 3,
// ties to even (a carry moves into the exponent). The unpacks put element 8L + j of
// 128-bit lane L in dword j of lane L of `lo` (j < 4) or `hi` (j ≥ 4), and the
// unsigned pack of their high halves puts them back in order. A vector with a value
// in E4M3's subnormal range (0 < |v| < 2^-6) takes the 16-lane f32 steps instead.
HWY_INLINE std::size_t Fp8CtBf16Avx3(const std::uint16_t* in, std::size_t n, float s, std::uint8_t* q) {
    const __m512 vs = _mm512_set1_ps(s);
    const __m512i zero = _mm512_setzero_si512(), k7fff = _mm512_set1_epi32(0x7FFF), one = _mm512_set1_epi32(1);
    const __m512i negzero = _mm512_set1_epi16(std::int16_t(0x8000)), mag = _mm512_set1_epi16(0x7FFF);
    const __m512i lim = _mm512_set1_epi16(0x43E0), sub_hi = _mm512_set1_epi16(0x3C7F);
    const __m512i seven = _mm512_set1_epi16(7), one16 = _mm512_set1_epi16(1), rebias = _mm512_set1_epi16(120 << 3);
    // f32 → the bits of its BF16 rounding (round to nearest even), in the low half.
    auto bf16_bits = [&](__m512 f) {
        const __m512i u = _mm512_castps_si512(f);
        const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), one);
        return _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(k7fff, lsb)), 16);
    };
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512i raw = _mm512_loadu_si512(in + i);
        const __m512 lo = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, raw));
        const __m512 hi = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, raw));
        __m512i v = _mm512_packus_epi32(bf16_bits(_mm512_div_ps(lo, vs)), bf16_bits(_mm512_div_ps(hi, vs)));
        v = _mm512_maskz_mov_epi16(_mm512_cmpneq_epi16_mask(v, negzero), v);  // + 0
        const __m512i a = _mm512_min_epu16(_mm512_and_si512(v, mag), lim);
        if (_mm512_cmplt_epu16_mask(_mm512_sub_epi16(a, one16), sub_hi) != 0) {
            Fp8CtLanes(in, i, i + 32, s, q);
            continue;
        }
        const __m512i lsb = _mm512_and_si512(_mm512_srli_epi16(a, 4), one16);
        __m512i code = _mm512_sub_epi16(_mm512_srli_epi16(_mm512_add_epi16(a, _mm512_add_epi16(seven, lsb)), 4), rebias);
        code = _mm512_maskz_mov_epi16(_mm512_test_epi16_mask(a, a), code);  // |v| = 0 → 0
        code = _mm512_or_si512(code, _mm512_srli_epi16(_mm512_andnot_si512(mag, v), 8));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + i), _mm512_cvtepi16_epi8(code));
    }
    return i;
}
#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// DeepGEMM FP8 of BF16 weights, 32 values at a time: v = x · f32(1/s) in f32 (decoded by
// unpacks as in Fp8CtBf16Avx3), the E4M3 code of a normal |v| in [2^-6, 464) from its
// f32 bits — mantissa rounded to 3 bits ties to even (+0x7FFFF + bit 20), >> 20, packed
// to 16-bit lanes in element order, rebiased by 120 — and the sign from the stored bits
// (1/s > 0). A vector with 0 < |v| < 2^-6 (E4M3 subnormals) or |v| ≥ 464 (the NaN
// code) takes the 16-lane steps of E4M3Rounded instead.
HWY_INLINE std::size_t Fp8DsBf16Avx3(const std::uint16_t* in, std::size_t n, float s, std::uint8_t* q) {
    const __m512 inv = _mm512_set1_ps(1.0f / s);
    const __m512i zero = _mm512_setzero_si512(), mag = _mm512_set1_epi32(0x7FFFFFFF), one = _mm512_set1_epi32(1);
    const __m512i half = _mm512_set1_epi32(0x7FFFF), sub_lo = _mm512_set1_epi32(0x3C800000);
    const __m512i big = _mm512_set1_epi32(0x43E80000), rebias = _mm512_set1_epi16(120 << 3);
    const __m512i sign16 = _mm512_set1_epi16(std::int16_t(0x8000));
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512i raw = _mm512_loadu_si512(in + i);
        const __m512i alo = _mm512_and_si512(
            _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, raw)), inv)), mag);
        const __m512i ahi = _mm512_and_si512(
            _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, raw)), inv)), mag);
        // Lanes that are not (zero or a normal below 464) go the general way.
        const __mmask16 odd_lo = _kor_mask16(_mm512_mask_cmplt_epu32_mask(_mm512_test_epi32_mask(alo, alo), alo, sub_lo),
                                             _mm512_cmpge_epu32_mask(alo, big));
        const __mmask16 odd_hi = _kor_mask16(_mm512_mask_cmplt_epu32_mask(_mm512_test_epi32_mask(ahi, ahi), ahi, sub_lo),
                                             _mm512_cmpge_epu32_mask(ahi, big));
        if (_kortestz_mask16_u8(odd_lo, odd_hi) == 0) {
            VF rounded;
            for (std::size_t h = 0; h < 32; h += 16)
                StoreBytes(E4M3Rounded<true>(hn::Mul(LoadBf16(in + i + h), VF{inv}), rounded), q + i + h);
            continue;
        }
        auto rn = [&](__m512i a) {
            return _mm512_srli_epi32(_mm512_add_epi32(a, _mm512_add_epi32(half, _mm512_and_si512(_mm512_srli_epi32(a, 20), one))), 20);
        };
        const __m512i c = _mm512_packus_epi32(rn(alo), rn(ahi));
        __m512i code = _mm512_maskz_sub_epi16(_mm512_test_epi16_mask(c, c), c, rebias);  // |v| = 0 → 0
        code = _mm512_or_si512(code, _mm512_srli_epi16(_mm512_and_si512(raw, sign16), 8));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + i), _mm512_cvtepi16_epi8(code));
    }
    return i;
}
#endif

// One segment: n values with scale s.
HWY_INLINE void Fp8SegmentBf16(const std::uint16_t* in, std::size_t n, float s, bool deepseek, std::uint8_t* q) {
    std::size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const std::size_t N = hn::Lanes(df);
    if (deepseek) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
        i = Fp8DsBf16Avx3(in, n, s, q);
#endif
        VF rounded;
        const VF inv = hn::Set(df, 1.0f / s);
        for (; i + N <= n; i += N) StoreBytes(E4M3Rounded<true>(hn::Mul(LoadBf16(in + i), inv), rounded), q + i);
    } else {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
        i = Fp8CtBf16Avx3(in, n, s, q);
#endif
        const std::size_t end = i + (n - i) / N * N;
        Fp8CtLanes(in, i, end, s, q);
        i = end;
    }
#endif
    float buf[64];
    for (; i < n; i += 64) {
        const std::size_t len = std::min<std::size_t>(64, n - i);
        DecodeTail(in + i, len, buf);
        scalar_kernels().fp8_encode(buf, len, s, deepseek, DType::BF16, q + i, nullptr);
    }
}

void Fp8EncodeBf16(const std::uint16_t* in, std::size_t n, const float* s, std::size_t seg, bool deepseek,
                   std::uint8_t* q) {
    for (std::size_t a = 0, t = 0; a < n; a += seg, ++t)
        Fp8SegmentBf16(in + a, std::min(seg, n - a), s[t], deepseek, q + a);
}

bool Int8RowBf16(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb) {
    const std::uint32_t bits = st_kernels().bf16_absmax_bits(in, n);
    if (bits >= 0x7F80u) return false;
    // max |f16(x)| = f16(max |x|): F16 rounding (RNE, ≥ 65520 → inf) is odd and monotone.
    const float amax = amn::st::detail::round_to(DType::F16, amn::st::detail::float_of(bits << 16));
    *scb = amax;
    const float scale = (1.0f / amax) * 127.0f;
    std::size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    // The usual row: every |x| < 65520 (no F16 overflow) and the scale finite: no NaN → 0 step.
    // A BF16 value (8 significant bits) is an F16 value when |x| ≥ 2^-17 (F16 spacing there
    // is ≤ its own): the F16 rounding is needed only for vectors holding 0 < |x| < 2^-17.
    if (amax > 0.0f && amax < HUGE_VALF) {
        const VF vscale = hn::Set(df, scale), tiny = hn::Set(df, 7.62939453125e-06f), zero = hn::Zero(df);
        for (; i + N <= n; i += N) {
            const VF v = LoadBf16(in + i);
            const VF a = hn::Abs(v);
            const VF w = hn::AllFalse(df, hn::AndNot(hn::Eq(a, zero), hn::Lt(a, tiny))) ? v : RoundF16Finite(v, a);
            StoreBytes(hn::ConvertTo(di, hn::Round(hn::Mul(w, vscale))), q + i);
        }
    }
#endif
    for (; i < n; ++i) {  // the tail, and the rows with SCB 0 or inf, as the scalar reference
        const float p = amn::st::detail::round_to(DType::F16, amn::st::detail::float_of(std::uint32_t(in[i]) << 16)) * scale;
        q[i] = std::isnan(p) ? std::int8_t(0) : std::int8_t(std::nearbyint(p));
    }
    return true;
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::st
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::st {

HWY_EXPORT(Fp8EncodeBf16);
HWY_EXPORT(Int8RowBf16);

void simd_fp8_encode_bf16(const std::uint16_t* in, std::size_t n, const float* s, std::size_t seg, bool deepseek,
                          std::uint8_t* q) {
    HWY_DYNAMIC_DISPATCH(Fp8EncodeBf16)(in, n, s, seg, deepseek, q);
}
bool simd_int8_row_bf16(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb) {
    return HWY_DYNAMIC_DISPATCH(Int8RowBf16)(in, n, q, scb);
}

}  // namespace amn::kernels::st
#endif  // HWY_ONCE
