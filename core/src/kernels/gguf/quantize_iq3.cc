// SPDX-License-Identifier: MIT OR Apache-2.0
// ggml's IQ3_XXS and IQ3_S quantizers (quantize_row_iq3_xxs_impl with the
// 256-point grid, quantize_row_iq3_s_impl with the 512-point grid; ggml
// 34af94c), with or without an importance matrix.
//
// Each 32-value block is split into magnitudes and signs, then searched for
// the scale whose level vectors (4 values each, levels 0..7 read as 2l+1)
// on the D4-lattice grid fit best (iqcommon::grid_fit). Block scales become
// 4-bit multiples of the super-block scale max_scale/31, stored with a
// fudge factor (×1.0125 for IQ3_XXS, ×1.033 for IQ3_S).
#include "kernels/gguf/quantize_imatrix.hpp"
#include "kernels/gguf/quantize_iq_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::imat {

using search::QK_K;

namespace {

constexpr float kGroupMaxEpsIq3xxs = 1e-8f;

// Importance weights of one block: imatrix·sqrt(sigma2 + x²), or x² without one.
void block_weights(int n, const float* qw, const float* xb, float sigma2, float* weight) noexcept {
    if (qw)
        search::importance_weights(n, qw, xb, sigma2, weight);
    else
        for (int i = 0; i < n; ++i) weight[i] = xb[i] * xb[i];
}

// block_iq3_xxs { fp16 d; u8 grid[64]; u32 scales_and_signs[8]; }.
void iq3_xxs_superblock(const iqgrid::GridSearch& g, const float* xbl, const float* qwbl, std::uint8_t* y) {
    constexpr int kMaxQ = 8;
    float scales[QK_K / 32], weight[32], xval[32], waux[32];
    std::int8_t L[32];
    std::uint8_t q3[3 * (QK_K / 8) + QK_K / 32] = {};
    std::uint32_t scales_and_signs[QK_K / 32] = {};
    search::store_fp16(y, 0.f);
    float max_scale = 0;
    const float sigma2 = iqcommon::sigma2x2(xbl);
    for (int ib = 0; ib < QK_K / 32; ++ib) {
        const float* xb = xbl + 32 * ib;
        block_weights(32, qwbl ? qwbl + 32 * ib : nullptr, xb, sigma2, weight);
        for (int i = 0; i < 32; ++i) waux[i] = std::sqrt(weight[i]);
        std::uint8_t block_signs[4];
        for (int k = 0; k < 4; ++k)
            block_signs[k] = iqcommon::split_signs(xb + 8 * k, weight + 8 * k, xval + 8 * k, true) & 127;
        float max = xval[0];
        for (int i = 1; i < 32; ++i) max = std::max(max, xval[i]);
        std::memset(L, 0, 32);
        if (max < kGroupMaxEpsIq3xxs) {
            scales[ib] = 0;
            continue;
        }
        float scale = iqcommon::grid_fit(g, {kMaxQ, 15, 0.2f, true, false}, 32, xval, weight, waux, max, L);
        if (scale < 0) {
            scale = -scale;
            for (int k = 0; k < 4; ++k) block_signs[k] = static_cast<std::uint8_t>(~block_signs[k] & 127);
        }
        for (int k = 0; k < 8; ++k) q3[8 * ib + k] = static_cast<std::uint8_t>(iqcommon::grid_index_of(g, L + 4 * k));
        scales_and_signs[ib] = block_signs[0] | (block_signs[1] << 7) | (block_signs[2] << 14) |
                               (static_cast<std::uint32_t>(block_signs[3]) << 21);
        scales[ib] = scale;
        max_scale = std::max(max_scale, scale);
    }
    if (!max_scale) {
        std::memset(y + 2, 0, 96);
        return;
    }
    const float d = max_scale / 31;
    search::store_fp16(y, d * 1.0125f);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 32; ++ib) {
        const int l = std::max(0, std::min(15, q::nearest_int(0.5f * (id * scales[ib] - 1))));
        scales_and_signs[ib] |= static_cast<std::uint32_t>(l) << 28;
    }
    std::memcpy(y + 2, q3, QK_K / 4);
    std::memcpy(y + 2 + QK_K / 4, scales_and_signs, sizeof scales_and_signs);
}

// block_iq3_s { fp16 d; u8 qs[64]; u8 qh[8]; u8 signs[32]; u8 scales[4]; }.
// As in ggml, a block whose values are all zero is skipped without
// advancing the qs/signs write positions.
void iq3_s_superblock(const iqgrid::GridSearch& g, const float* xbl, const float* qwbl, std::uint8_t* y) {
    constexpr int kMaxQ = 8;
    constexpr int block_size = 32;
    constexpr int bs4 = block_size / 4, bs8 = block_size / 8;
    float scales[QK_K / block_size], weight[block_size], xval[block_size], waux[block_size];
    std::int8_t L[block_size];
    std::memset(y, 0, 110);
    std::uint8_t* qs = y + 2;
    std::uint8_t* qh = y + 66;
    std::uint8_t* signs = y + 74;
    std::uint8_t* y_scales = y + 106;
    float max_scale = 0;
    const float sigma2 = iqcommon::sigma2x2(xbl);
    for (int ib = 0; ib < QK_K / block_size; ++ib) {
        const float* xb = xbl + block_size * ib;
        block_weights(block_size, qwbl ? qwbl + block_size * ib : nullptr, xb, sigma2, weight);
        for (int i = 0; i < block_size; ++i) waux[i] = std::sqrt(weight[i]);
        std::uint8_t block_signs[bs8];
        for (int k = 0; k < bs8; ++k)
            block_signs[k] = iqcommon::split_signs(xb + 8 * k, weight + 8 * k, xval + 8 * k, false);
        float max = xval[0];
        for (int i = 1; i < block_size; ++i) max = std::max(max, xval[i]);
        std::memset(L, 0, block_size);
        if (!max) {
            scales[ib] = 0;
            continue;
        }
        float scale = iqcommon::grid_fit(g, {kMaxQ, 9, 0.2f, false, true}, block_size, xval, weight, waux, max, L);
        if (scale < 0) {
            scale = -scale;
            for (int k = 0; k < bs8; ++k) block_signs[k] = static_cast<std::uint8_t>(~block_signs[k]);
        }
        for (int k = 0; k < bs4; ++k) {
            const int grid_index = iqcommon::grid_index_of(g, L + 4 * k);
            qs[k] = static_cast<std::uint8_t>(grid_index & 255);
            const int bit = ib * bs4 + k;
            qh[bit / 8] = static_cast<std::uint8_t>(qh[bit / 8] | ((grid_index >> 8) << (bit % 8)));
        }
        qs += bs4;
        for (int k = 0; k < bs8; ++k) signs[k] = block_signs[k];
        signs += bs8;
        scales[ib] = scale;
        max_scale = std::max(max_scale, scale);
    }
    if (!max_scale) return;
    const float d = max_scale / 31;
    search::store_fp16(y, d * 1.033f);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / block_size; ib += 2) {
        const int l1 = std::max(0, std::min(15, q::nearest_int(0.5f * (id * scales[ib] - 1))));
        const int l2 = std::max(0, std::min(15, q::nearest_int(0.5f * (id * scales[ib + 1] - 1))));
        y_scales[ib / 2] = static_cast<std::uint8_t>(l1 | (l2 << 4));
    }
}

}  // namespace

void quantize_iq3_xxs(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                      const float* imatrix) {
    const iqgrid::GridSearch& g = *iqgrid::grid_search(18);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 98)
            iq3_xxs_superblock(g, src, imatrix ? imatrix + QK_K * i : nullptr, dst);
}

void quantize_iq3_s(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                    const float* imatrix) {
    const iqgrid::GridSearch& g = *iqgrid::grid_search(21);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 110)
            iq3_s_superblock(g, src, imatrix ? imatrix + QK_K * i : nullptr, dst);
}

}  // namespace amn::kernels::gguf::imat
