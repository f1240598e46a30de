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
#define HWY_TARGET_INCLUDE "st/st_simd_fp8.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"
#include "kernels/st/st_simd-inl.h"

#include <algorithm>
#include <cmath>

HWY_BEFORE_NAMESPACE();
namespace amn::st::kern {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The decoded values in[i .. i + n) into buf (n ≤ 64).
inline void DecodeTail(const std::uint16_t* in, std::size_t n, float* buf) {
    for (std::size_t i = 0; i < n; ++i) buf[i] = detail::float_of(std::uint32_t(in[i]) << 16);
}

#if HWY_TARGET != HWY_SCALAR
HWY_INLINE VF LoadBf16(const std::uint16_t* p) {
    const DU du;
    const hn::Rebind<std::uint16_t, DU> d16;
    return hn::BitCast(DF(), hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, p))));
}
#endif

void Fp8EncodeBf16(const std::uint16_t* in, std::size_t n, float s, bool deepseek, std::uint8_t* q) {
    std::size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const std::size_t N = hn::Lanes(df);
    VF rounded;
    if (deepseek) {
        const VF inv = hn::Set(df, 1.0f / s);
        for (; i + N <= n; i += N) StoreBytes(E4M3Rounded<true>(hn::Mul(LoadBf16(in + i), inv), rounded), q + i);
    } else {
        const VF vs = hn::Set(df, s), lim = hn::Set(df, 448.0f), nlim = hn::Set(df, -448.0f);
        for (; i + N <= n; i += N) {
            VF v = RoundW<1>(hn::Div(LoadBf16(in + i), vs));
            v = hn::Add(v, hn::Zero(df));  // + zero point 0 (−0 → +0): exact, so its rounding is the identity
            StoreBytes(E4M3Rounded<false>(hn::Min(hn::Max(v, nlim), lim), rounded), q + i);
        }
    }
#endif
    float buf[64];
    for (; i < n; i += 64) {
        const std::size_t len = std::min<std::size_t>(64, n - i);
        DecodeTail(in + i, len, buf);
        scalar_kernels().fp8_encode(buf, len, s, deepseek, DType::BF16, q + i, nullptr);
    }
}

bool Int8RowBf16(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb) {
    const std::uint32_t bits = st_kernels().bf16_absmax_bits(in, n);
    if (bits >= 0x7F80u) return false;
    // max |f16(x)| = f16(max |x|): F16 rounding (RNE, ≥ 65520 → inf) is odd and monotone.
    const float amax = detail::round_to(DType::F16, detail::float_of(bits << 16));
    *scb = amax;
    const float scale = (1.0f / amax) * 127.0f;
    std::size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    // The usual row: every |x| < 65520 (no F16 overflow) and the scale finite: no NaN → 0 step.
    if (amax > 0.0f && amax < HUGE_VALF) {
        const VF vscale = hn::Set(df, scale);
        for (; i + N <= n; i += N) {
            const VF v = LoadBf16(in + i);
            StoreBytes(hn::ConvertTo(di, hn::Round(hn::Mul(RoundF16Finite(v, hn::Abs(v)), vscale))), q + i);
        }
    }
#endif
    for (; i < n; ++i) {  // the tail, and the rows with SCB 0 or inf, as the scalar reference
        const float p = detail::round_to(DType::F16, detail::float_of(std::uint32_t(in[i]) << 16)) * scale;
        q[i] = std::isnan(p) ? std::int8_t(0) : std::int8_t(std::nearbyint(p));
    }
    return true;
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::st::kern
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::st::kern {

HWY_EXPORT(Fp8EncodeBf16);
HWY_EXPORT(Int8RowBf16);

void simd_fp8_encode_bf16(const std::uint16_t* in, std::size_t n, float s, bool deepseek, std::uint8_t* q) {
    HWY_DYNAMIC_DISPATCH(Fp8EncodeBf16)(in, n, s, deepseek, q);
}
bool simd_int8_row_bf16(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb) {
    return HWY_DYNAMIC_DISPATCH(Int8RowBf16)(in, n, q, scb);
}

}  // namespace amn::st::kern
#endif  // HWY_ONCE
