// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference decoders of ggml's 32-element legacy block types
// (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and the 1-/2-bit Q1_0 and Q2_0.
// Layouts in blocks.hpp (ggml-common.h); arithmetic as ggml's dequantize_row_*.
#include "blocks.hpp"
#include "gguf_kernels.hpp"

namespace amn::kernels::gguf::scalar {

void dequantize_q4_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q4_0;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 16; ++j) {
            const int x0 = (qs[j] & 0x0F) - 8;
            const int x1 = (qs[j] >> 4) - 8;
            y[j] = static_cast<float>(x0) * d;
            y[j + 16] = static_cast<float>(x1) * d;
        }
    }
}

void dequantize_q4_1(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q4_1;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const float m = load_fp16(x + offsetof(B, m));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 16; ++j) {
            const int x0 = qs[j] & 0x0F;
            const int x1 = qs[j] >> 4;
            y[j] = static_cast<float>(x0) * d + m;
            y[j + 16] = static_cast<float>(x1) * d + m;
        }
    }
}

void dequantize_q5_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q5_0;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint32_t qh = load_u32(x + offsetof(B, qh));
        const std::uint8_t* qs = x + offsetof(B, qs);
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

void dequantize_q5_1(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q5_1;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const float m = load_fp16(x + offsetof(B, m));
        const std::uint32_t qh = load_u32(x + offsetof(B, qh));
        const std::uint8_t* qs = x + offsetof(B, qs);
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

void dequantize_q8_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q8_0;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(qs[j])) * d;
    }
}

// `s` (= d × Σqs) only serves dot products: the value is qs × d, as for Q8_0.
void dequantize_q8_1(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q8_1;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(qs[j])) * d;
    }
}

// Q1_0: bit j set → +d, clear → −d.
void dequantize_q1_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q1_0;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const float neg_d = -d;
        const float pm[2] = {neg_d, d};  // a table, not a branch: the bits are random
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 128; ++j) y[j] = pm[(qs[j / 8] >> (j % 8)) & 1];
    }
}

// Q2_0: 2-bit q, value (q − 1) × d.
void dequantize_q2_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q2_0;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 64; ++j) {
            const int q = (qs[j / 4] >> ((j % 4) * 2)) & 3;
            y[j] = static_cast<float>(q - 1) * d;
        }
    }
}

}  // namespace amn::kernels::gguf::scalar
