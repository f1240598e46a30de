// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference encoders of ggml's ternary types (TQ1_0, TQ2_0) and FP4
// types (MXFP4: E8M0 scale per 32; NVFP4: UE4M3 scale per 16): the inverse
// of fp4_ternary.cc. Each matches ggml's quantize_row_<type>_ref (ggml
// 34af94c) byte for byte, including glibc's lroundf/log2f results and the
// x86-64 GCC casts where a block's reciprocal scale overflows to inf.
#include "kernels/gguf/gguf_kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/gguf/iq_tables.hpp"
#include "kernels/gguf/quantize_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::scalar {

namespace {

void store_u16(std::uint8_t* p, std::uint16_t v) noexcept { std::memcpy(p, &v, 2); }

// MAX(amax, fabsf(v)) over a block, as the ternary types compute it.
float absmax(const float* x, int n) noexcept {
    float amax = 0.0f;
    for (int j = 0; j < n; ++j) amax = std::max(std::fabs(x[j]), amax);
    return amax;
}

// `lroundf(x * id) + 1` stored to an int, as the ternary types compute it:
// −1, 0, 1 → 0, 1, 2 (LONG_MIN + 1 for inf/NaN keeps its low 32 bits, 1).
int ternary_digit(float x, float id) noexcept {
    const long v = q::lroundf_x86(x * id);
    return static_cast<int>(static_cast<std::uint32_t>(static_cast<unsigned long>(v) + 1ul));
}

// Five (or four, then shifted) base-3 digits, most significant first, as a
// uint8_t, then mapped to [0, 256) by ggml's ceiling division by 243.
std::uint8_t pack_trits(const int* xi, int n, bool shift_once) noexcept {
    std::uint8_t q = 0;
    for (int k = 0; k < n; ++k) {
        q = static_cast<std::uint8_t>(q * 3);
        q = static_cast<std::uint8_t>(q + xi[k]);
    }
    if (shift_once) q = static_cast<std::uint8_t>(q * 3);
    return static_cast<std::uint8_t>((static_cast<std::uint16_t>(q) * 256 + (243 - 1)) / 243);
}

// ggml's best_index_mxfp4: the first codebook entry nearest to x at scale e.
int best_index_mxfp4(float x, float e) noexcept {
    int best = 0;
    float best_err = std::fabs(static_cast<float>(tables::kvalues_mxfp4[0]) * e - x);
    for (int i = 1; i < 16; ++i) {
        const float err = std::fabs(static_cast<float>(tables::kvalues_mxfp4[i]) * e - x);
        if (err < best_err) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

}  // namespace

// quantize_row_tq1_0_ref: block_tq1_0 { u8 qs[48]; u8 qh[4]; fp16 d; },
// d = amax; qs[0..32) hold elements m + 32n (n < 5) of the first 160,
// qs[32..48) elements m + 16n of the next 80, qh[j] elements j + 4m of the
// last 16 (four digits, shifted once).
void quantize_tq1_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 256, dst += 54) {
        const float d = absmax(src, 256);
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst + 52, q::f32_to_fp16(d));
        int xi[5];
        const float* x = src;
        for (int m = 0; m < 32; ++m) {
            for (int n = 0; n < 5; ++n) xi[n] = ternary_digit(x[m + n * 32], id);
            dst[m] = pack_trits(xi, 5, false);
        }
        x += 160;
        for (int m = 0; m < 16; ++m) {
            for (int n = 0; n < 5; ++n) xi[n] = ternary_digit(x[m + n * 16], id);
            dst[32 + m] = pack_trits(xi, 5, false);
        }
        x += 80;
        for (int j = 0; j < 4; ++j) {
            for (int m = 0; m < 4; ++m) xi[m] = ternary_digit(x[j + m * 4], id);
            dst[48 + j] = pack_trits(xi, 4, true);
        }
    }
}

// quantize_row_tq2_0_ref: block_tq2_0 { u8 qs[64]; fp16 d; }, d = amax;
// byte 32h + m holds elements 128h + m + 32n (n < 4) in bits 2n..2n+1.
void quantize_tq2_0(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 256, dst += 66) {
        const float d = absmax(src, 256);
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst + 64, q::f32_to_fp16(d));
        for (int h = 0; h < 2; ++h) {
            const float* x = src + 128 * h;
            for (int m = 0; m < 32; ++m) {
                unsigned q = 0;
                for (int n = 0; n < 4; ++n) q += static_cast<unsigned>(ternary_digit(x[m + n * 32], id) & 3) << (2 * n);
                dst[32 * h + m] = static_cast<std::uint8_t>(q);
            }
        }
    }
}

// quantize_row_mxfp4_ref: block_mxfp4 { u8 e; u8 qs[16]; }, shared exponent
// e = floor(log2(amax)) − 2 + 127 (0 for an all-zero block), values the
// nearest E2M1 code at scale 2^(e−128).
void quantize_mxfp4(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 17) {
        float amax = 0.0f;
        for (int j = 0; j < 32; ++j)
            if (amax < std::fabs(src[j])) amax = std::fabs(src[j]);
        // glibc's log2f rounds up for some floats just below 2^k; the double
        // log2 rounded to float reproduces it for every positive float.
        const std::uint8_t e =
            amax > 0.0f ? q::cvtt_u8(std::floor(static_cast<float>(std::log2(static_cast<double>(amax)))) - 2.0f + 127.0f)
                        : 0;
        const float d = e8m0_to_f32_half(e);
        dst[0] = e;
        for (int j = 0; j < 16; ++j) {
            const int x0 = best_index_mxfp4(src[j], d);
            const int x1 = best_index_mxfp4(src[j + 16], d);
            dst[1 + j] = static_cast<std::uint8_t>(x0 | (x1 << 4));
        }
    }
}

// quantize_row_nvfp4_ref: block_nvfp4 { u8 d[4]; u8 qs[32]; } for 64
// elements, one UE4M3 scale per 16 (amax / 6 rounded to UE4M3), values the
// nearest E2M1 code at that (halved) scale.
void quantize_nvfp4(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, dst += 36) {
        for (int s = 0; s < 4; ++s, src += 16) {
            float amax = 0.0f;
            for (int j = 0; j < 16; ++j)
                if (amax < std::fabs(src[j])) amax = std::fabs(src[j]);
            const std::uint8_t ue = q::f32_to_ue4m3(amax / 6.0f);
            dst[s] = ue;
            const float d = ue4m3_to_f32_half(ue);
            for (int j = 0; j < 8; ++j) {
                const int x0 = best_index_mxfp4(src[j], d);
                const int x1 = best_index_mxfp4(src[j + 8], d);
                dst[4 + 8 * s + j] = static_cast<std::uint8_t>(x0 | (x1 << 4));
            }
        }
    }
}

}  // namespace amn::kernels::gguf::scalar
