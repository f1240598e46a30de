// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference implementations of the element kernels (kernels.hpp).
//
// Written for reading, not for speed: every SIMD target in fp8_convert.cc is
// tested against these bit for bit, and these are tested against an
// independent numpy/PyTorch reference (tests/core/kernel_reference.py).
//
// Conventions shared with the SIMD path (documented in kernels.hpp):
//   * FP8 values are decoded exactly with std::ldexp (a power-of-two scaling
//     of a small integer is exact in f32).
//   * A NaN stays a quiet NaN; see the per-function notes for its bits.
//   * No FMA: the only arithmetic is one f32 multiply (fp8_scale_to_f32).
#include "anamnesis/kernels.hpp"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

namespace amn::kernels::scalar {
namespace {

std::uint32_t bits_of(float x) noexcept {
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

float float_of(std::uint32_t u) noexcept {
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

constexpr std::uint32_t kQuietNaN = 0x7FC00000u;  // +qNaN, the canonical f32 NaN

/// A minifloat with `E` exponent bits, `M` mantissa bits and exponent `bias`,
/// sign in bit E+M, no special values: (-1)^s · 2^(1−bias) · m/2^M when the
/// exponent field is 0 (subnormal), else (-1)^s · 2^(e−bias) · (1 + m/2^M).
/// Exact: the significand is an integer < 2^(M+1) and ldexp only moves the
/// exponent (every result lies in f32's normal or subnormal range).
float minifloat_value(std::uint32_t bits, int E, int M, int bias) noexcept {
    const bool negative = (bits >> (E + M)) & 1u;
    const int e = static_cast<int>((bits >> M) & ((1u << E) - 1u));
    const int m = static_cast<int>(bits & ((1u << M) - 1u));
    const float magnitude = e == 0 ? std::ldexp(static_cast<float>(m), 1 - bias - M)
                                   : std::ldexp(static_cast<float>((1 << M) + m), e - bias - M);
    return negative ? -magnitude : magnitude;
}

/// The quiet NaN a widening conversion makes of an FP8 NaN with `M` mantissa
/// bits: sign kept, mantissa bits moved to the top of f32's, quiet bit set
/// (what PyTorch's fp8e4m3fn/fp8e5m2 → float conversions produce).
float widened_nan(std::uint8_t bits, int M) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x80u) << 24;
    const std::uint32_t mantissa = static_cast<std::uint32_t>(bits & ((1u << M) - 1u)) << (23 - M);
    return float_of(sign | 0x7F800000u | 0x00400000u | mantissa);
}

}  // namespace

float fp8_value(DType fmt, std::uint8_t bits) noexcept {
    switch (fmt) {
    case DType::F8_E4M3:
        // OCP E4M3 "fn": bias 7; S.1111.111 is NaN, no infinities (max 448).
        if ((bits & 0x7Fu) == 0x7Fu) return widened_nan(bits, 3);
        return minifloat_value(bits, 4, 3, 7);
    case DType::F8_E5M2:
        // IEEE-like: bias 15; exponent 31 is inf (mantissa 0) or NaN.
        if ((bits & 0x7Cu) == 0x7Cu) {
            if ((bits & 0x03u) == 0) return (bits & 0x80u) ? -std::numeric_limits<float>::infinity()
                                                            : std::numeric_limits<float>::infinity();
            return widened_nan(bits, 2);
        }
        return minifloat_value(bits, 5, 2, 15);
    case DType::F8_E4M3FNUZ:
        // AMD: bias 8, no infinities, no −0: the code 0x80 is the only NaN.
        if (bits == 0x80u) return float_of(kQuietNaN);
        return minifloat_value(bits, 4, 3, 8);
    case DType::F8_E5M2FNUZ:
        if (bits == 0x80u) return float_of(kQuietNaN);
        return minifloat_value(bits, 5, 2, 16);
    case DType::F8_E8M0:
        // OCP UE8M0: unsigned power of two 2^(e−127); 0xFF is NaN. e = 0
        // gives 2^−127, an f32 subnormal (bits 0x00400000).
        if (bits == 0xFFu) return float_of(kQuietNaN);
        return std::ldexp(1.0f, static_cast<int>(bits) - 127);
    default:
        assert(false && "fp8_value: not an FP8 dtype");
        return float_of(kQuietNaN);
    }
}

void fp8_to_f32(DType fmt, const std::uint8_t* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = fp8_value(fmt, src[i]);
}

void fp8_scale_to_f32(DType fmt, const std::uint8_t* src, float scale, float* dst, std::size_t n) {
    if (std::isnan(scale)) {
        // Every product is NaN; which NaN a NaN × NaN product keeps is left
        // open by IEEE 754 (and by the compiler's operand order), so say it
        // here: the scale's, made quiet.
        const float nan = float_of(bits_of(scale) | 0x00400000u);
        for (std::size_t i = 0; i < n; ++i) dst[i] = nan;
        return;
    }
    for (std::size_t i = 0; i < n; ++i) dst[i] = fp8_value(fmt, src[i]) * scale;
}

std::uint16_t bf16_from_f32(float x) noexcept {
    const std::uint32_t u = bits_of(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) {
        // NaN: keep sign and the top payload bits, force the quiet bit so the
        // truncation cannot turn it into an infinity.
        return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
    }
    // Round to nearest, ties to even: add just under half an ULP of BF16,
    // plus one when the kept part is odd. Overflow carries into the exponent
    // (max finite values round to ±inf, as they should).
    const std::uint32_t rounding_bias = 0x7FFFu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>((u + rounding_bias) >> 16);
}

std::uint16_t f16_from_f32(float x) noexcept {
    const std::uint32_t u = bits_of(x);
    const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
    const std::uint32_t a = u & 0x7FFFFFFFu;  // |x|

    if (a > 0x7F800000u) {
        // NaN: quiet NaN with the sign and the top 9 payload bits (what F16C's
        // vcvtps2ph produces).
        return static_cast<std::uint16_t>(sign | 0x7E00u | ((a >> 13) & 0x03FFu));
    }
    if (a >= 0x477FF000u) {
        // |x| ≥ 65520 = 65504 + half an ULP: rounds to infinity (inf stays inf).
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    }
    if (a >= 0x38800000u) {
        // Normal binary16 (|x| ≥ 2^−14): rebias the exponent 127 → 15 and
        // round the 23-bit mantissa to 10 bits, ties to even. A carry out of
        // the mantissa correctly bumps the exponent.
        const std::uint32_t rounded = (a + 0x0FFFu + ((a >> 13) & 1u)) >> 13;
        return static_cast<std::uint16_t>(sign | (rounded - ((127u - 15u) << 10)));
    }
    // Subnormal binary16 (or zero): the result is round(|x| / 2^−24). With
    // |x| = sig · 2^(e−150) (sig including the implicit bit), that is
    // sig · 2^(e−126) = sig >> shift with shift = 126 − e ≥ 14.
    const int e = static_cast<int>(a >> 23);
    const int shift = 126 - e;
    if (shift > 24) return sign;  // |x| < 2^−25 (≤ half the smallest subnormal, tie → 0)
    const std::uint32_t sig = (a & 0x007FFFFFu) | 0x00800000u;  // e ≥ 102 here: normal f32
    const std::uint32_t kept = sig >> shift;
    const std::uint32_t rest = sig & ((1u << shift) - 1u);
    const std::uint32_t half = 1u << (shift - 1);
    const std::uint32_t rounded = kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
    // rounded ≤ 0x400: 0x400 is the smallest normal, encoded the same way.
    return static_cast<std::uint16_t>(sign | rounded);
}

float f32_from_bf16(std::uint16_t h) noexcept {
    return float_of(static_cast<std::uint32_t>(h) << 16);
}

float f32_from_f16(std::uint16_t h) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1Fu;
    const std::uint32_t m = h & 0x03FFu;
    if (e == 0x1Fu) {
        // inf, or NaN made quiet with its payload kept (as F16C's vcvtph2ps
        // and PyTorch do).
        return float_of(sign | 0x7F800000u | (m << 13) | (m != 0 ? 0x00400000u : 0u));
    }
    const float magnitude = e == 0 ? std::ldexp(static_cast<float>(m), -24)
                                   : std::ldexp(static_cast<float>(0x400u + m), static_cast<int>(e) - 25);
    return float_of(sign | bits_of(magnitude));
}

float fp4_e2m1_value(std::uint8_t nibble) noexcept {
    // OCP MX FP4 E2M1: bias 1, no inf/NaN.
    return minifloat_value(nibble & 0x0Fu, 2, 1, 1);
}

float fp6_value(DType fmt, std::uint8_t bits) noexcept {
    // OCP MX FP6: no inf/NaN. E2M3 bias 1 (max 7.5), E3M2 bias 3 (max 28).
    switch (fmt) {
    case DType::F6_E2M3: return minifloat_value(bits & 0x3Fu, 2, 3, 1);
    case DType::F6_E3M2: return minifloat_value(bits & 0x3Fu, 3, 2, 3);
    default:
        assert(false && "fp6_value: not an FP6 dtype");
        return float_of(kQuietNaN);
    }
}

void f32_to_bf16(const float* src, std::uint16_t* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = bf16_from_f32(src[i]);
}

void f32_to_f16(const float* src, std::uint16_t* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = f16_from_f32(src[i]);
}

void bf16_to_f32(const std::uint16_t* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = f32_from_bf16(src[i]);
}

void f16_to_f32(const std::uint16_t* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = f32_from_f16(src[i]);
}

}  // namespace amn::kernels::scalar
