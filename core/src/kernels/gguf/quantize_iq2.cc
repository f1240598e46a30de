// SPDX-License-Identifier: MIT OR Apache-2.0
// ggml's IQ2_XXS, IQ2_XS and IQ2_S quantizers (quantize_row_iq2_xxs_impl,
// quantize_row_iq2_xs_impl, quantize_row_iq2_s_impl; ggml 34af94c). IQ2_XXS
// and IQ2_XS need an importance matrix (ggml aborts without one); IQ2_S
// has a no-imatrix weighting of its own.
//
// Values are split into magnitudes and signs (IQ2_XXS/IQ2_XS keep an even
// number of negatives per 8 and store 7 sign bits), magnitudes are mapped
// to 8-value level vectors (levels 0..2 read as 1, 3, 5) on the E8-lattice
// grid with a scale search, and block scales become 4-bit multiples of the
// super-block scale max_scale/31.
#include "kernels/gguf/quantize_imatrix.hpp"
#include "kernels/gguf/quantize_iq_common.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::imat {

using search::QK_K;

namespace {

constexpr float kGroupMaxEpsIq2s = 1e-8f;

void require(const float* imatrix, const char* type) {
    if (!imatrix)
        throw Error(ErrorCode::Usage, std::string(type) + " cannot be quantized without an importance matrix");
}

float sigma2_plain(const float* xbl) noexcept {
    float sumx2 = 0;
    for (int i = 0; i < QK_K; ++i) sumx2 += xbl[i] * xbl[i];
    return sumx2 / QK_K;
}

// block_iq2_xxs { fp16 d; u32 q2[16]; }: per 32 values one u32 of four grid
// indices and one u32 of four 7-bit sign groups plus the 4-bit scale.
void iq2_xxs_superblock(const iqgrid::GridSearch& g, const float* xbl, const float* qwbl, std::uint8_t* y) {
    constexpr int kMaxQ = 3;
    float scales[QK_K / 32], weight[32], xval[32], waux[32];
    std::int8_t L[32], Laux[32];
    std::uint32_t q2[2 * (QK_K / 32)] = {};
    search::store_fp16(y, 0.f);
    float max_scale = 0;
    const float sigma2 = sigma2_plain(xbl);
    for (int ib = 0; ib < QK_K / 32; ++ib) {
        const float* xb = xbl + 32 * ib;
        search::importance_weights(32, qwbl + 32 * ib, xb, sigma2, weight);
        for (int i = 0; i < 32; ++i) waux[i] = std::sqrt(weight[i]);
        std::uint8_t block_signs[4];
        for (int k = 0; k < 4; ++k)
            block_signs[k] = iqcommon::split_signs(xb + 8 * k, weight + 8 * k, xval + 8 * k, true) & 127;
        float max = xval[0];
        for (int i = 1; i < 32; ++i) max = std::max(max, xval[i]);
        if (max < search::kGroupMaxEps) {
            scales[ib] = 0;
            continue;
        }
        // Start from make_qp_quants' scale over levels 0..kMaxQ (its levels land in L).
        float scale = search::make_qp_quants(32, kMaxQ + 1, xval, reinterpret_cast<std::uint8_t*>(L), weight);
        const float eff_max = scale * kMaxQ;
        if (eff_max <= 0) {
            scales[ib] = 0;
            continue;
        }
        float best = 0;
        for (int is = -6; is <= 6; ++is) {
            const float id = (static_cast<float>(2 * kMaxQ - 1) + static_cast<float>(is) * 0.1f) / eff_max;
            const float this_scale = 1 / id;
            for (int k = 0; k < 4; ++k) {
                const int key = iqcommon::levels_and_key(xval + 8 * k, 8, id, kMaxQ, 2, Laux + 8 * k);
                if (g.map[static_cast<std::size_t>(key)] < 0)
                    iqcommon::find_best_neighbour(g, g.neighbours_of(key), xval + 8 * k, waux + 8 * k, this_scale,
                                                  Laux + 8 * k);
            }
            float sumqx, sumq2;
            iqcommon::fit(32, weight, xval, Laux, sumqx, sumq2);
            if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
                scale = sumqx / sumq2;
                best = scale * sumqx;
                std::memcpy(L, Laux, 32);
            }
        }
        if (scale > 0) {
            const float id = 1 / scale;
            for (int k = 0; k < 4; ++k) {
                const int key = iqcommon::levels_and_key(xval + 8 * k, 8, id, kMaxQ, 2, L + 8 * k);
                if (g.map[static_cast<std::size_t>(key)] < 0)
                    iqcommon::find_best_neighbour(g, g.neighbours_of(key), xval + 8 * k, waux + 8 * k, scale,
                                                  L + 8 * k);
            }
            float sumqx, sumq2;
            iqcommon::fit(32, weight, xval, L, sumqx, sumq2);
            if (sumq2 > 0) scale = sumqx / sumq2;
        }
        if (scale < 0) {
            scale = -scale;
            for (int k = 0; k < 4; ++k) block_signs[k] = static_cast<std::uint8_t>(~block_signs[k] & 127);
        }
        for (int k = 0; k < 4; ++k) {
            q2[2 * ib] |= static_cast<std::uint32_t>(iqcommon::grid_index_of(g, L + 8 * k)) << (8 * k);
            q2[2 * ib + 1] |= static_cast<std::uint32_t>(block_signs[k]) << (7 * k);
        }
        scales[ib] = scale;
        max_scale = std::max(max_scale, scale);
    }
    if (!max_scale) {
        std::memset(y + 2, 0, QK_K / 4);
        return;
    }
    const float d = max_scale / 31;
    search::store_fp16(y, d);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 32; ++ib) {
        const int l = std::max(0, std::min(15, q::nearest_int(0.5f * (id * scales[ib] - 1))));
        q2[2 * ib + 1] |= static_cast<std::uint32_t>(l) << 28;
    }
    std::memcpy(y + 2, q2, QK_K / 4);
}

// Shared by IQ2_XS and IQ2_S: 16-value blocks, two 8-value groups each.
// block_iq2_xs { fp16 d; u16 qs[32] (grid index | signs << 9); u8 scales[8]; }
// block_iq2_s  { fp16 d; u8 qs[32]; u8 signs[32]; u8 qh[8]; u8 scales[8]; }
void iq2_xs_s_superblock(const iqgrid::GridSearch& g, bool is_s, const float* xbl, const float* qwbl, std::uint8_t* y) {
    constexpr int kMaxQ = 3;
    float scales[QK_K / 16], weight[16], xval[16], waux[16];
    std::int8_t L[16];
    std::memset(y, 0, is_s ? 82 : 74);
    std::uint16_t q2[2 * (QK_K / 16)] = {};
    float max_scale = 0;
    const float sigma2 = is_s ? iqcommon::sigma2x2(xbl) : sigma2_plain(xbl);
    for (int ib = 0; ib < QK_K / 16; ++ib) {
        const float* xb = xbl + 16 * ib;
        if (qwbl)
            search::importance_weights(16, qwbl + 16 * ib, xb, sigma2, weight);
        else
            for (int i = 0; i < 16; ++i) weight[i] = 0.25f * sigma2 + xb[i] * xb[i];
        for (int i = 0; i < 16; ++i) waux[i] = std::sqrt(weight[i]);
        std::uint8_t block_signs[2];
        for (int k = 0; k < 2; ++k) {
            const std::uint8_t s = iqcommon::split_signs(xb + 8 * k, weight + 8 * k, xval + 8 * k, !is_s);
            block_signs[k] = is_s ? s : static_cast<std::uint8_t>(s & 127);
        }
        float max = xval[0];
        for (int i = 1; i < 16; ++i) max = std::max(max, xval[i]);
        std::memset(L, 0, 16);
        if (max < (is_s ? kGroupMaxEpsIq2s : search::kGroupMaxEps)) {
            scales[ib] = 0;
            continue;
        }
        float scale = iqcommon::grid_fit(g, {kMaxQ, 9, 0.1f, true, false}, 16, xval, weight, waux, max, L);
        if (scale < 0) {
            scale = -scale;
            for (int k = 0; k < 2; ++k)
                block_signs[k] = static_cast<std::uint8_t>(is_s ? ~block_signs[k] : ~block_signs[k] & 127);
        }
        for (int k = 0; k < 2; ++k) {
            const int grid_index = iqcommon::grid_index_of(g, L + 8 * k);
            if (is_s) {
                const int i8 = 2 * ib + k;
                y[2 + i8] = static_cast<std::uint8_t>(grid_index & 255);
                y[66 + i8 / 4] = static_cast<std::uint8_t>(y[66 + i8 / 4] | ((grid_index >> 8) << (2 * (i8 % 4))));
                y[2 + QK_K / 8 + i8] = block_signs[k];
            } else {
                q2[2 * ib + k] = static_cast<std::uint16_t>(grid_index | (block_signs[k] << 9));
            }
        }
        scales[ib] = scale;
        max_scale = std::max(max_scale, scale);
    }
    if (!max_scale) return;  // all zero (IQ2_XS: qs zeroed as ggml does)
    const float d = max_scale / 31;
    search::store_fp16(y, is_s ? d * 0.9875f : d);
    const float id = 1 / d;
    std::uint8_t* y_scales = y + (is_s ? 74 : 66);
    for (int ib = 0; ib < QK_K / 16; ++ib) {
        const int l = std::max(0, std::min(15, q::nearest_int(0.5f * (id * scales[ib] - 1))));
        if (ib % 2 == 0)
            y_scales[ib / 2] = static_cast<std::uint8_t>(l);
        else
            y_scales[ib / 2] = static_cast<std::uint8_t>(y_scales[ib / 2] | (l << 4));
    }
    if (!is_s) std::memcpy(y + 2, q2, QK_K / 4);
}

}  // namespace

void quantize_iq2_xxs(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                      const float* imatrix) {
    require(imatrix, "IQ2_XXS");
    const iqgrid::GridSearch& g = *iqgrid::grid_search(16);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 66)
            iq2_xxs_superblock(g, src, imatrix + QK_K * i, dst);
}

void quantize_iq2_xs(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                     const float* imatrix) {
    require(imatrix, "IQ2_XS");
    const iqgrid::GridSearch& g = *iqgrid::grid_search(17);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 74)
            iq2_xs_s_superblock(g, false, src, imatrix + QK_K * i, dst);
}

void quantize_iq2_s(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                    const float* imatrix) {
    const iqgrid::GridSearch& g = *iqgrid::grid_search(22);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 82)
            iq2_xs_s_superblock(g, true, src, imatrix ? imatrix + QK_K * i : nullptr, dst);
}

}  // namespace amn::kernels::gguf::imat
