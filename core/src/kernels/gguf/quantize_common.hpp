// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the scalar building blocks ggml's quantizers are made of, with
// the exact semantics the reference bytes pin down (shared fixtures
// quantize-ref/README.md): binary32 arithmetic only, ggml's rounding
// functions as written, and x86-64 GCC results for float→int conversions
// that C leaves undefined (NaN, ±inf, out of range).

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

}  // namespace amn::kernels::gguf::q
