// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference encoders of ggml's 32-element legacy block types (Q4_0,
// Q4_1, Q5_0, Q5_1, Q8_0) and of the 1-/2-bit Q1_0 and Q2_0: the inverse of
// legacy.cc. Each matches ggml's quantize_row_<type>_ref (ggml 34af94c)
// byte for byte: the same binary32 operations in the same order, ggml's
// rounding as written (truncating casts after `+ 0.5f`-style offsets,
// roundf half away from zero), and x86-64 GCC results where a block's
// reciprocal scale overflows to inf and C leaves the cast undefined
// (see quantize_common.hpp).
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/gguf/quantize_common.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::scalar {

namespace {

void store_u16(std::uint8_t* p, std::uint16_t v) noexcept { std::memcpy(p, &v, 2); }
void store_u32(std::uint8_t* p, std::uint32_t v) noexcept { std::memcpy(p, &v, 4); }

// The value of largest magnitude in a block, with its sign, as ggml's
// symmetric types find it (`if (amax < fabsf(v))`: the first one wins).
float signed_absmax(const float* x, int n) noexcept {
    float amax = 0.0f;
    float max = 0.0f;
    for (int j = 0; j < n; ++j) {
        if (amax < std::fabs(x[j])) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    }
    return max;
}

// Smallest and largest value of a block, as ggml's asymmetric types find them.
void min_max(const float* x, int n, float& min, float& max) noexcept {
    min = FLT_MAX;
    max = -FLT_MAX;
    for (int j = 0; j < n; ++j) {
        if (x[j] < min) min = x[j];
        if (x[j] > max) max = x[j];
    }
}

// `MIN(limit, (int8_t)v)` stored to a uint8_t, as ggml writes it.
std::uint8_t min_i8(int limit, float v) noexcept {
    return static_cast<std::uint8_t>(std::min(limit, static_cast<int>(q::cvtt_i8(v))));
}

}  // namespace

// quantize_row_q4_0_ref: block_q4_0 { fp16 d; u8 qs[16]; }, d = max / −8.
void quantize_q4_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 18) {
        const float d = signed_absmax(src, 32) / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, q::f32_to_fp16(d));
        for (int j = 0; j < 16; ++j) {
            const float x0 = src[j] * id;
            const float x1 = src[j + 16] * id;
            const std::uint8_t xi0 = min_i8(15, x0 + 8.5f);
            const std::uint8_t xi1 = min_i8(15, x1 + 8.5f);
            dst[2 + j] = static_cast<std::uint8_t>(xi0 | (xi1 << 4));
        }
    }
}

// quantize_row_q4_1_ref: block_q4_1 { fp16 d; fp16 m; u8 qs[16]; },
// d = (max − min) / 15, m = min.
void quantize_q4_1(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 20) {
        float min, max;
        min_max(src, 32, min, max);
        const float d = (max - min) / 15.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, q::f32_to_fp16(d));
        store_u16(dst + 2, q::f32_to_fp16(min));
        for (int j = 0; j < 16; ++j) {
            const float x0 = (src[j] - min) * id;
            const float x1 = (src[j + 16] - min) * id;
            const std::uint8_t xi0 = min_i8(15, x0 + 0.5f);
            const std::uint8_t xi1 = min_i8(15, x1 + 0.5f);
            dst[4 + j] = static_cast<std::uint8_t>(xi0 | (xi1 << 4));
        }
    }
}

// quantize_row_q5_0_ref: block_q5_0 { fp16 d; u8 qh[4]; u8 qs[16]; },
// d = max / −16; bit 4 of element j goes to bit j of qh.
void quantize_q5_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 22) {
        const float d = signed_absmax(src, 32) / -16.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, q::f32_to_fp16(d));
        std::uint32_t qh = 0;
        for (int j = 0; j < 16; ++j) {
            const float x0 = src[j] * id;
            const float x1 = src[j + 16] * id;
            const std::uint8_t xi0 = min_i8(31, x0 + 16.5f);
            const std::uint8_t xi1 = min_i8(31, x1 + 16.5f);
            dst[6 + j] = static_cast<std::uint8_t>((xi0 & 0x0F) | ((xi1 & 0x0F) << 4));
            qh |= ((xi0 & 0x10u) >> 4) << j;
            qh |= ((xi1 & 0x10u) >> 4) << (j + 16);
        }
        store_u32(dst + 2, qh);
    }
}

// quantize_row_q5_1_ref: block_q5_1 { fp16 d; fp16 m; u8 qh[4]; u8 qs[16]; },
// d = (max − min) / 31, m = min.
void quantize_q5_1(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 24) {
        float min, max;
        min_max(src, 32, min, max);
        const float d = (max - min) / 31.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, q::f32_to_fp16(d));
        store_u16(dst + 2, q::f32_to_fp16(min));
        std::uint32_t qh = 0;
        for (int j = 0; j < 16; ++j) {
            const float x0 = (src[j] - min) * id;
            const float x1 = (src[j + 16] - min) * id;
            const std::uint8_t xi0 = q::cvtt_u8(x0 + 0.5f);
            const std::uint8_t xi1 = q::cvtt_u8(x1 + 0.5f);
            dst[8 + j] = static_cast<std::uint8_t>((xi0 & 0x0F) | ((xi1 & 0x0F) << 4));
            qh |= ((xi0 & 0x10u) >> 4) << j;
            qh |= ((xi1 & 0x10u) >> 4) << (j + 16);
        }
        store_u32(dst + 4, qh);
    }
}

// quantize_row_q8_0_ref: block_q8_0 { fp16 d; i8 qs[32]; }, d = amax / 127,
// qs = roundf(x / d) (half away from zero).
void quantize_q8_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 34) {
        float amax = 0.0f;
        for (int j = 0; j < 32; ++j) amax = std::max(std::fabs(src[j]), amax);  // ggml's MAX(amax, |v|)
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, q::f32_to_fp16(d));
        for (int j = 0; j < 32; ++j) dst[2 + j] = static_cast<std::uint8_t>(q::cvtt_i8(q::roundf_away(src[j] * id)));
    }
}

// quantize_row_q1_0_ref: block_q1_0 { fp16 d; u8 qs[16]; } for 128
// elements, d = mean |x|; bit j is set when x[j] ≥ 0 (−0.0 included).
void quantize_q1_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 128, dst += 18) {
        float sum_abs = 0.0f;
        for (int j = 0; j < 128; ++j) sum_abs += std::fabs(src[j]);
        const float d = sum_abs / 128.0f;
        store_u16(dst, q::f32_to_fp16(d));
        std::uint8_t* qs = dst + 2;
        std::memset(qs, 0, 16);
        for (int j = 0; j < 128; ++j)
            if (src[j] >= 0.0f) qs[j / 8] = static_cast<std::uint8_t>(qs[j / 8] | (1u << (j % 8)));
    }
}

// quantize_row_q2_0_ref: block_q2_0 { fp16 d; u8 qs[16]; } for 64 elements,
// d = amax; q = clamp(roundf(x / d) + 1, 0, 3), four 2-bit codes per byte.
void quantize_q2_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 64, dst += 18) {
        float amax = 0.0f;
        for (int j = 0; j < 64; ++j) {
            const float a = std::fabs(src[j]);
            if (a > amax) amax = a;
        }
        const float d = amax;
        const float id = d > 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, q::f32_to_fp16(d));
        std::uint8_t* qs = dst + 2;
        std::memset(qs, 0, 16);
        for (int j = 0; j < 64; ++j) {
            // (int)roundf(...) + 1 wraps like x86 int arithmetic when the cast gives INT32_MIN.
            const std::int32_t r = q::cvtt_i32(q::roundf_away(src[j] * id));
            const std::int32_t q = static_cast<std::int32_t>(static_cast<std::uint32_t>(r) + 1u);
            const int qc = std::clamp(q, 0, 3);
            qs[j / 4] = static_cast<std::uint8_t>(qs[j / 4] | (qc << ((j % 4) * 2)));
        }
    }
}

}  // namespace amn::kernels::gguf::scalar
