// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference decoders of ggml's ternary types (TQ1_0, TQ2_0) and the
// FP4 types (MXFP4: E8M0 scale per 32; NVFP4: UE4M3 scale per 16).
// Layouts in blocks.hpp (ggml-common.h); arithmetic as ggml's
// dequantize_row_*.
#include "blocks.hpp"
#include "gguf_kernels.hpp"
#include "iq_tables.hpp"

#include <array>
#include <cmath>

namespace amn::kernels::gguf {

namespace {
float ue4m3_formula(std::uint8_t x) {
    if (x == 0 || x == 0x7F) return 0.0f;
    const int exp = (x >> 3) & 0xF;
    const int man = x & 0x7;
    const float raw = exp == 0 ? std::ldexp(static_cast<float>(man), -9)
                               : std::ldexp(1.0f + static_cast<float>(man) / 8.0f, exp - 7);
    return raw * 0.5f;
}
// All 256 values, computed once with ggml's formula (ldexpf is slow per block).
const std::array<float, 256>& ue4m3_table() {
    static const std::array<float, 256> t = [] {
        std::array<float, 256> a{};
        for (int i = 0; i < 256; ++i) a[static_cast<std::size_t>(i)] = ue4m3_formula(static_cast<std::uint8_t>(i));
        return a;
    }();
    return t;
}
}  // namespace

float ue4m3_to_f32_half(std::uint8_t x) noexcept { return ue4m3_table()[x]; }

namespace scalar {

// TQ1_0: five base-3 digits per qs byte, four per qh byte, fixed-point scaled.
void dequantize_tq1_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_tq1_0;
    static constexpr std::uint8_t pow3[6] = {1, 3, 9, 27, 81, 243};
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const float d = load_fp16(x + offsetof(B, d));
        auto digit = [&](std::uint8_t byte, int n) {
            const std::uint8_t q = static_cast<std::uint8_t>(byte * pow3[n]);
            const std::int16_t xi = static_cast<std::int16_t>((static_cast<std::uint16_t>(q) * 3) >> 8);
            return static_cast<float>(xi - 1) * d;
        };
        for (int n = 0; n < 5; ++n)
            for (int m = 0; m < 32; ++m) *y++ = digit(qs[m], n);
        for (int n = 0; n < 5; ++n)
            for (int m = 0; m < 16; ++m) *y++ = digit(qs[32 + m], n);
        for (int n = 0; n < 4; ++n)
            for (int j = 0; j < 4; ++j) *y++ = digit(qh[j], n);
    }
}

// TQ2_0: 2-bit q, value (q − 1) × d.
void dequantize_tq2_0(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_tq2_0;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; ++l)
                for (int m = 0; m < 32; ++m) {
                    const int q = (qs[j + m] >> (l * 2)) & 3;
                    *y++ = static_cast<float>(q - 1) * d;
                }
    }
}

void dequantize_mxfp4(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_mxfp4;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = e8m0_to_f32_half(x[offsetof(B, e)]);
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 16; ++j) {
            y[j] = static_cast<float>(tables::kvalues_mxfp4[qs[j] & 0x0F]) * d;
            y[j + 16] = static_cast<float>(tables::kvalues_mxfp4[qs[j] >> 4]) * d;
        }
    }
}

// NVFP4: a UE4M3 scale per 16 elements.
void dequantize_nvfp4(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_nvfp4;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        for (int s = 0; s < 4; ++s, y += 16) {
            const float d = ue4m3_to_f32_half(x[offsetof(B, d) + s]);
            const std::uint8_t* qs = x + offsetof(B, qs) + 8 * s;
            for (int j = 0; j < 8; ++j) {
                y[j] = static_cast<float>(tables::kvalues_mxfp4[qs[j] & 0x0F]) * d;
                y[j + 8] = static_cast<float>(tables::kvalues_mxfp4[qs[j] >> 4]) * d;
            }
        }
    }
}

}  // namespace scalar

}  // namespace amn::kernels::gguf
