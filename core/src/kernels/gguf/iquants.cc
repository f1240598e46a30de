// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference decoders of ggml's IQ ("importance") types: lattice
// grids with sign tables (IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S), ternary
// grids with a delta (IQ1_S, IQ1_M) and the non-linear 4-bit codebook
// (IQ4_NL, IQ4_XS). Layouts in blocks.hpp (ggml-common.h); arithmetic as
// ggml's dequantize_row_iq*, in the same order.
#include "blocks.hpp"
#include "gguf_kernels.hpp"
#include "iq_tables.hpp"

namespace amn::kernels::gguf::scalar {
namespace {
using namespace tables;

inline std::uint8_t grid_byte(std::uint64_t entry, int j) { return static_cast<std::uint8_t>(entry >> (8 * j)); }
inline std::uint8_t grid_byte(std::uint32_t entry, int j) { return static_cast<std::uint8_t>(entry >> (8 * j)); }
// ±1 by table lookup, not a branch (sign bits are random: a branch mispredicts half the time).
constexpr float kSign[2] = {1.f, -1.f};
inline float sign_of(std::uint8_t signs, int j) { return kSign[(signs >> j) & 1]; }
constexpr float kIq1Delta[2] = {kIq1sDelta, -kIq1sDelta};

}  // namespace

// qs: per 32 elements, 4 grid index bytes and a u32 of 4 × 7 sign bits + a 4-bit scale.
void dequantize_iq2_xxs(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq2_xxs;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        for (int ib32 = 0; ib32 < 8; ++ib32) {
            const std::uint8_t* aux8 = x + offsetof(B, qs) + 8 * ib32;
            const std::uint32_t aux1 = load_u32(aux8 + 4);
            const float db = d * (0.5f + static_cast<float>(aux1 >> 28)) * 0.25f;
            for (int l = 0; l < 4; ++l) {
                const std::uint64_t grid = iq2xxs_grid[aux8[l]];
                const std::uint8_t signs = ksigns_iq2xs[(aux1 >> (7 * l)) & 127];
                for (int j = 0; j < 8; ++j) y[j] = db * static_cast<float>(grid_byte(grid, j)) * sign_of(signs, j);
                y += 8;
            }
        }
    }
}

void dequantize_iq2_xs(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq2_xs;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* scales = x + offsetof(B, scales);
        for (int ib32 = 0; ib32 < 8; ++ib32) {
            float db[2];
            db[0] = d * (0.5f + static_cast<float>(scales[ib32] & 0xf)) * 0.25f;
            db[1] = d * (0.5f + static_cast<float>(scales[ib32] >> 4)) * 0.25f;
            for (int l = 0; l < 4; ++l) {
                const std::uint16_t q = load_u16(x + offsetof(B, qs) + 2 * (4 * ib32 + l));
                const std::uint64_t grid = iq2xs_grid[q & 511];
                const std::uint8_t signs = ksigns_iq2xs[q >> 9];
                for (int j = 0; j < 8; ++j) y[j] = db[l / 2] * static_cast<float>(grid_byte(grid, j)) * sign_of(signs, j);
                y += 8;
            }
        }
    }
}

void dequantize_iq2_s(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq2_s;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* signs = qs + QK_K / 8;
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::uint8_t* scales = x + offsetof(B, scales);
        for (int ib32 = 0; ib32 < 8; ++ib32) {
            float db[2];
            db[0] = d * (0.5f + static_cast<float>(scales[ib32] & 0xf)) * 0.25f;
            db[1] = d * (0.5f + static_cast<float>(scales[ib32] >> 4)) * 0.25f;
            for (int l = 0; l < 4; ++l) {
                const float dl = db[l / 2];
                const std::uint64_t grid = iq2s_grid[qs[l] | ((qh[ib32] << (8 - 2 * l)) & 0x300)];
                for (int j = 0; j < 8; ++j) y[j] = dl * static_cast<float>(grid_byte(grid, j)) * sign_of(signs[l], j);
                y += 8;
            }
            qs += 4;
            signs += 4;
        }
    }
}

void dequantize_iq3_xxs(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq3_xxs;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* scales_and_signs = qs + QK_K / 4;
        for (int ib32 = 0; ib32 < 8; ++ib32) {
            const std::uint32_t aux32 = load_u32(scales_and_signs + 4 * ib32);
            const float db = d * (0.5f + static_cast<float>(aux32 >> 28)) * 0.5f;
            for (int l = 0; l < 4; ++l) {
                const std::uint8_t signs = ksigns_iq2xs[(aux32 >> (7 * l)) & 127];
                const std::uint32_t grid1 = iq3xxs_grid[qs[2 * l + 0]];
                const std::uint32_t grid2 = iq3xxs_grid[qs[2 * l + 1]];
                for (int j = 0; j < 4; ++j) {
                    y[j + 0] = db * static_cast<float>(grid_byte(grid1, j)) * sign_of(signs, j + 0);
                    y[j + 4] = db * static_cast<float>(grid_byte(grid2, j)) * sign_of(signs, j + 4);
                }
                y += 8;
            }
            qs += 8;
        }
    }
}

void dequantize_iq3_s(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq3_s;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* qh = x + offsetof(B, qh);
        const std::uint8_t* signs = x + offsetof(B, signs);
        const std::uint8_t* scales = x + offsetof(B, scales);
        for (int ib32 = 0; ib32 < 8; ib32 += 2) {
            const float db1 = d * static_cast<float>(1 + 2 * (scales[ib32 / 2] & 0xf));
            const float db2 = d * static_cast<float>(1 + 2 * (scales[ib32 / 2] >> 4));
            for (int half = 0; half < 2; ++half) {
                const float db = half == 0 ? db1 : db2;
                for (int l = 0; l < 4; ++l) {
                    const std::uint32_t grid1 = iq3s_grid[qs[2 * l + 0] | ((qh[half] << (8 - 2 * l)) & 256)];
                    const std::uint32_t grid2 = iq3s_grid[qs[2 * l + 1] | ((qh[half] << (7 - 2 * l)) & 256)];
                    for (int j = 0; j < 4; ++j) {
                        y[j + 0] = db * static_cast<float>(grid_byte(grid1, j)) * sign_of(signs[l], j + 0);
                        y[j + 4] = db * static_cast<float>(grid_byte(grid2, j)) * sign_of(signs[l], j + 4);
                    }
                    y += 8;
                }
                qs += 8;
                signs += 4;
            }
            qh += 2;
        }
    }
}

void dequantize_iq1_s(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq1_s;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint16_t qh = load_u16(x + offsetof(B, qh) + 2 * ib);
            const float dl = d * static_cast<float>(2 * ((qh >> 12) & 7) + 1);
            const float delta = kIq1Delta[qh >> 15];
            for (int l = 0; l < 4; ++l) {
                const std::uint64_t grid = iq1s_grid[qs[l] | (((qh >> (3 * l)) & 7) << 8)];
                for (int j = 0; j < 8; ++j)
                    y[j] = dl * (static_cast<float>(static_cast<std::int8_t>(grid_byte(grid, j))) + delta);
                y += 8;
            }
            qs += 4;
        }
    }
}

// IQ1_M: the fp16 super-block scale is spread over the top nibbles of the
// four u16 scales.
void dequantize_iq1_m(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq1_m;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        std::uint16_t sc[4];
        for (int k = 0; k < 4; ++k) sc[k] = load_u16(x + offsetof(B, scales) + 2 * k);
        const std::uint16_t scale = static_cast<std::uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00f0) |
                                                               ((sc[2] >> 4) & 0x0f00) | (sc[3] & 0xf000));
        const float d = fp16_to_f32(scale);
        const std::uint8_t* qs = x + offsetof(B, qs);
        const std::uint8_t* qh = x + offsetof(B, qh);
        for (int ib = 0; ib < 8; ++ib) {
            const float dl1 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 0x7) + 1);
            const float dl2 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 0x7) + 1);
            std::uint16_t idx[4];
            idx[0] = static_cast<std::uint16_t>(qs[0] | ((qh[0] << 8) & 0x700));
            idx[1] = static_cast<std::uint16_t>(qs[1] | ((qh[0] << 4) & 0x700));
            idx[2] = static_cast<std::uint16_t>(qs[2] | ((qh[1] << 8) & 0x700));
            idx[3] = static_cast<std::uint16_t>(qs[3] | ((qh[1] << 4) & 0x700));
            float delta[4];
            delta[0] = kIq1Delta[(qh[0] >> 3) & 1];
            delta[1] = kIq1Delta[(qh[0] >> 7) & 1];
            delta[2] = kIq1Delta[(qh[1] >> 3) & 1];
            delta[3] = kIq1Delta[(qh[1] >> 7) & 1];
            for (int l = 0; l < 4; ++l) {
                const float dl = l < 2 ? dl1 : dl2;
                const std::uint64_t grid = iq1s_grid[idx[l]];
                for (int j = 0; j < 8; ++j)
                    y[j] = dl * (static_cast<float>(static_cast<std::int8_t>(grid_byte(grid, j))) + delta[l]);
                y += 8;
            }
            qs += 4;
            qh += 2;
        }
    }
}

void dequantize_iq4_nl(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq4_nl;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B), y += B::elems) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int j = 0; j < 16; ++j) {
            y[j] = d * static_cast<float>(kvalues_iq4nl[qs[j] & 0xf]);
            y[j + 16] = d * static_cast<float>(kvalues_iq4nl[qs[j] >> 4]);
        }
    }
}

void dequantize_iq4_xs(const std::uint8_t* x, float* y, std::size_t nb) {
    using B = block_iq4_xs;
    for (std::size_t i = 0; i < nb; ++i, x += sizeof(B)) {
        const float d = load_fp16(x + offsetof(B, d));
        const std::uint16_t scales_h = load_u16(x + offsetof(B, scales_h));
        const std::uint8_t* scales_l = x + offsetof(B, scales_l);
        const std::uint8_t* qs = x + offsetof(B, qs);
        for (int ib = 0; ib < 8; ++ib) {
            const int ls = ((scales_l[ib / 2] >> (4 * (ib % 2))) & 0xf) | (((scales_h >> (2 * ib)) & 3) << 4);
            const float dl = d * static_cast<float>(ls - 32);
            for (int j = 0; j < 16; ++j) {
                y[j + 0] = dl * static_cast<float>(kvalues_iq4nl[qs[j] & 0xf]);
                y[j + 16] = dl * static_cast<float>(kvalues_iq4nl[qs[j] >> 4]);
            }
            y += 32;
            qs += 16;
        }
    }
}

}  // namespace amn::kernels::gguf::scalar
