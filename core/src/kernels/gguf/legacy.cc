// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference decoders of ggml's 32-element legacy block types
// (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and the 1-/2-bit Q1_0 and Q2_0.
// Layouts from ggml-common.h; arithmetic as ggml's dequantize_row_*.
#include "gguf_kernels.hpp"

namespace amn::kernels::gguf::scalar {

// block_q4_0 { fp16 d; u8 qs[16]; } — 32 elements, 18 bytes.
void dequantize_q4_0(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 18, y += 32) {
        const float d = load_fp16(x);
        const std::uint8_t* qs = x + 2;
        for (int j = 0; j < 16; ++j) {
            const int x0 = (qs[j] & 0x0F) - 8;
            const int x1 = (qs[j] >> 4) - 8;
            y[j] = static_cast<float>(x0) * d;
            y[j + 16] = static_cast<float>(x1) * d;
        }
    }
}

// block_q4_1 { fp16 d; fp16 m; u8 qs[16]; } — 32 elements, 20 bytes.
void dequantize_q4_1(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 20, y += 32) {
        const float d = load_fp16(x);
        const float m = load_fp16(x + 2);
        const std::uint8_t* qs = x + 4;
        for (int j = 0; j < 16; ++j) {
            const int x0 = qs[j] & 0x0F;
            const int x1 = qs[j] >> 4;
            y[j] = static_cast<float>(x0) * d + m;
            y[j + 16] = static_cast<float>(x1) * d + m;
        }
    }
}

// block_q5_0 { fp16 d; u8 qh[4]; u8 qs[16]; } — 32 elements, 22 bytes.
void dequantize_q5_0(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 22, y += 32) {
        const float d = load_fp16(x);
        const std::uint32_t qh = load_u32(x + 2);
        const std::uint8_t* qs = x + 6;
        for (int j = 0; j < 16; ++j) {
            const std::uint8_t xh0 = static_cast<std::uint8_t>(((qh >> j) << 4) & 0x10);
            const std::uint8_t xh1 = static_cast<std::uint8_t>((qh >> (j + 12)) & 0x10);
            const std::int32_t x0 = ((qs[j] & 0x0F) | xh0) - 16;
            const std::int32_t x1 = ((qs[j] >> 4) | xh1) - 16;
            y[j] = static_cast<float>(x0) * d;
            y[j + 16] = static_cast<float>(x1) * d;
        }
    }
}

// block_q5_1 { fp16 d; fp16 m; u8 qh[4]; u8 qs[16]; } — 32 elements, 24 bytes.
void dequantize_q5_1(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 24, y += 32) {
        const float d = load_fp16(x);
        const float m = load_fp16(x + 2);
        const std::uint32_t qh = load_u32(x + 4);
        const std::uint8_t* qs = x + 8;
        for (int j = 0; j < 16; ++j) {
            const std::uint8_t xh0 = static_cast<std::uint8_t>(((qh >> j) << 4) & 0x10);
            const std::uint8_t xh1 = static_cast<std::uint8_t>((qh >> (j + 12)) & 0x10);
            const int x0 = (qs[j] & 0x0F) | xh0;
            const int x1 = (qs[j] >> 4) | xh1;
            y[j] = static_cast<float>(x0) * d + m;
            y[j + 16] = static_cast<float>(x1) * d + m;
        }
    }
}

// block_q8_0 { fp16 d; i8 qs[32]; } — 32 elements, 34 bytes.
void dequantize_q8_0(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 34, y += 32) {
        const float d = load_fp16(x);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(x[2 + j])) * d;
    }
}

// block_q8_1 { fp16 d; fp16 s; i8 qs[32]; } — 32 elements, 36 bytes. `s`
// (= d × Σqs) only serves dot products: the value is qs × d, as for Q8_0.
void dequantize_q8_1(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 36, y += 32) {
        const float d = load_fp16(x);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(x[4 + j])) * d;
    }
}

// block_q1_0 { fp16 d; u8 qs[16]; } — 128 elements, 18 bytes: bit j set → +d, clear → −d.
void dequantize_q1_0(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 18, y += 128) {
        const float d = load_fp16(x);
        const float neg_d = -d;
        const float pm[2] = {neg_d, d};  // a table, not a branch: the bits are random
        const std::uint8_t* qs = x + 2;
        for (int j = 0; j < 128; ++j) y[j] = pm[(qs[j / 8] >> (j % 8)) & 1];
    }
}

// block_q2_0 { fp16 d; u8 qs[16]; } — 64 elements, 18 bytes: 2-bit q, value (q − 1) × d.
void dequantize_q2_0(const std::uint8_t* x, float* y, std::size_t nb) {
    for (std::size_t i = 0; i < nb; ++i, x += 18, y += 64) {
        const float d = load_fp16(x);
        const std::uint8_t* qs = x + 2;
        for (int j = 0; j < 64; ++j) {
            const int q = (qs[j / 4] >> ((j % 4) * 2)) & 3;
            y[j] = static_cast<float>(q - 1) * d;
        }
    }
}

}  // namespace amn::kernels::gguf::scalar
