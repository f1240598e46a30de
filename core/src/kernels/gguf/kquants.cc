// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference decoders of ggml's k-quants: 256-element super-blocks
// (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, Q8_K). Layouts in blocks.hpp
// (ggml-common.h); arithmetic as ggml's dequantize_row_*_K, in the same order.
#include "blocks.hpp"
#include "gguf_kernels.hpp"

namespace amn::kernels::gguf::scalar {
namespace {

// ggml get_scale_min_k4: 6-bit scale and min j (0..7) from the 12 packed bytes.
inline void scale_min_k4(int j, const std::uint8_t* q, std::uint8_t& d, std::uint8_t& m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = static_cast<std::uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

}  // namespace

void dequantize_q2_K(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q2_K;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const std::uint8_t* scales = x + offsetof(B, scales);
        const std::uint8_t* q = x + offsetof(B, qs);
        const float d = load_fp16(x + offsetof(B, d));
        const float min = load_fp16(x + offsetof(B, dmin));
        int is = 0;
        for (int n = 0; n < 256; n += 128) {
            int shift = 0;
            for (int j = 0; j < 4; ++j) {
                std::uint8_t sc = scales[is++];
                float dl = d * static_cast<float>(sc & 0xF);
                float ml = min * static_cast<float>(sc >> 4);
                for (int l = 0; l < 16; ++l) *y++ = dl * static_cast<float>((q[l] >> shift) & 3) - ml;
                sc = scales[is++];
                dl = d * static_cast<float>(sc & 0xF);
                ml = min * static_cast<float>(sc >> 4);
                for (int l = 0; l < 16; ++l) *y++ = dl * static_cast<float>((q[l + 16] >> shift) & 3) - ml;
                shift += 2;
            }
            q += 32;
        }
    }
}

void dequantize_q3_K(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q3_K;
    constexpr std::uint32_t kmask1 = 0x03030303, kmask2 = 0x0f0f0f0f;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d_all = load_fp16(x + offsetof(B, d));
        const std::uint8_t* q = x + offsetof(B, qs);
        const std::uint8_t* hm = x + offsetof(B, hmask);
        std::uint32_t aux[4];
        std::memcpy(aux, x + offsetof(B, scales), 12);
        const std::uint32_t tmp = aux[2];
        aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
        aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
        aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
        aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
        std::int8_t scales[16];
        std::memcpy(scales, aux, 16);
        std::uint8_t m = 1;
        int is = 0;
        for (int n = 0; n < 256; n += 128) {
            int shift = 0;
            for (int j = 0; j < 4; ++j) {
                float dl = d_all * static_cast<float>(scales[is++] - 32);
                for (int l = 0; l < 16; ++l)
                    *y++ = dl * static_cast<float>(((q[l] >> shift) & 3) - ((hm[l] & m) ? 0 : 4));
                dl = d_all * static_cast<float>(scales[is++] - 32);
                for (int l = 0; l < 16; ++l)
                    *y++ = dl * static_cast<float>(((q[l + 16] >> shift) & 3) - ((hm[l + 16] & m) ? 0 : 4));
                shift += 2;
                m = static_cast<std::uint8_t>(m << 1);
            }
            q += 32;
        }
    }
}

void dequantize_q4_K(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q4_K;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const float min = load_fp16(x + offsetof(B, dmin));
        const std::uint8_t* scales = x + offsetof(B, scales);
        const std::uint8_t* q = x + offsetof(B, qs);
        int is = 0;
        std::uint8_t sc, m;
        for (int j = 0; j < 256; j += 64) {
            scale_min_k4(is + 0, scales, sc, m);
            const float d1 = d * static_cast<float>(sc);
            const float m1 = min * static_cast<float>(m);
            scale_min_k4(is + 1, scales, sc, m);
            const float d2 = d * static_cast<float>(sc);
            const float m2 = min * static_cast<float>(m);
            for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>(q[l] & 0xF) - m1;
            for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
            q += 32;
            is += 2;
        }
    }
}

void dequantize_q5_K(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q5_K;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const float min = load_fp16(x + offsetof(B, dmin));
        const std::uint8_t* scales = x + offsetof(B, scales);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::uint8_t* ql = x + offsetof(B, qs);
        int is = 0;
        std::uint8_t sc, m;
        std::uint8_t u1 = 1, u2 = 2;
        for (int j = 0; j < 256; j += 64) {
            scale_min_k4(is + 0, scales, sc, m);
            const float d1 = d * static_cast<float>(sc);
            const float m1 = min * static_cast<float>(m);
            scale_min_k4(is + 1, scales, sc, m);
            const float d2 = d * static_cast<float>(sc);
            const float m2 = min * static_cast<float>(m);
            for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
            for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
            ql += 32;
            is += 2;
            u1 = static_cast<std::uint8_t>(u1 << 2);
            u2 = static_cast<std::uint8_t>(u2 << 2);
        }
    }
}

void dequantize_q6_K(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q6_K;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* ql = x + offsetof(B, ql);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::int8_t* sc = reinterpret_cast<const std::int8_t*>(x + offsetof(B, scales));
        for (int n = 0; n < 256; n += 128) {
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = static_cast<std::int8_t>((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                const int q2 = static_cast<std::int8_t>((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                const int q3 = static_cast<std::int8_t>((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                const int q4 = static_cast<std::int8_t>((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                y[l + 0] = d * static_cast<float>(sc[is + 0]) * static_cast<float>(q1);
                y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
                y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
                y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
            }
            y += 128;
            ql += 64;
            qh += 32;
            sc += 8;
        }
    }
}

// The bsums only serve dot products.
void dequantize_q8_K(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_q8_K;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        float d;
        std::memcpy(&d, x + offsetof(B, d), sizeof d);
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 256; ++j) *y++ = d * static_cast<float>(static_cast<std::int8_t>(qs[j]));
    }
}

}  // namespace amn::kernels::gguf::scalar
