// SPDX-License-Identifier: MIT OR Apache-2.0
// ggml's IQ1_S and IQ1_M quantizers (quantize_row_iq1_s_impl,
// quantize_row_iq1_m_impl; ggml 34af94c). IQ1_S needs an importance matrix
// (ggml aborts without one); IQ1_M falls back to weights x².
//
// Values take three levels {−1, 0, +1} shifted by ±delta (0.125). For each
// block the weighted least-squares problem is solved exactly: values are
// sorted, and every pair of split points (i1, i2) of the sorted order gives
// the three groups (IQ1_S evaluates a split from prefix sums of w·x and w;
// IQ1_M, whose two halves may shift differently, re-sums per split). The
// winning level vectors (8 values each) are then snapped to the 2048-point
// grid (nearest neighbour by weighted distance when off the grid).
#include "kernels/gguf/quantize_imatrix.hpp"
#include "kernels/gguf/quantize_iq_common.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::imat {

using search::QK_K;

namespace {

constexpr float kDelta = 0.125f;  // IQ1S_DELTA = IQ1M_DELTA
constexpr float kGroupMaxEpsIq1s = 1e-12f;
constexpr float kGroupMaxEpsIq1m = 1e-7f;
const float kXp[3] = {-1 + kDelta, kDelta, 1 + kDelta};
const float kXm[3] = {-1 - kDelta, -kDelta, 1 - kDelta};

// The positions of xb[0..n) in ascending value order. glibc's qsort, which
// ggml calls with a comparator that sees only the value, is a stable merge
// sort for arrays this small, so equal values keep their order.
void sort_order(const float* xb, int n, int* idx) {
    for (int j = 0; j < n; ++j) idx[j] = j;
    std::stable_sort(idx, idx + n, [xb](int a, int b) { return xb[a] < xb[b]; });
}

// ggml iq1_find_best_neighbour2: the neighbour with the smallest
// Σ w·(scale·xg[level] − x)²; writes its levels to L.
int find_best_neighbour2(const iqgrid::GridSearch& g, const std::uint16_t* neighbours, const float* xval,
                         const float* weight, float scale, const float* xg, std::int8_t* L) {
    const int num_neighbors = neighbours[0];
    float best_score = FLT_MAX;
    int grid_index = -1;
    for (int j = 1; j <= num_neighbors; ++j) {
        const std::int8_t* pg = g.point(neighbours[j]);
        float d2 = 0;
        for (int i = 0; i < 8; ++i) {
            const float q = xg[(pg[i] - 1) / 2];
            const float diff = scale * q - xval[i];
            d2 += weight[i] * diff * diff;
        }
        if (d2 < best_score) {
            best_score = d2;
            grid_index = neighbours[j];
        }
    }
    if (grid_index < 0) grid_index = neighbours[1];  // ggml asserts; only NaN input gets here
    const std::int8_t* pg = g.point(grid_index);
    for (int i = 0; i < 8; ++i) L[i] = static_cast<std::int8_t>((pg[i] - 1) / 2);
    return grid_index;
}

// Levels 0/1/2 of the sorted positions split at i1 ≤ i2.
void assign_levels(const int* idx, int n, int i1, int i2, std::int8_t* L) noexcept {
    for (int j = 0; j < i1; ++j) L[idx[j]] = 0;
    for (int j = i1; j < i2; ++j) L[idx[j]] = 1;
    for (int j = i2; j < n; ++j) L[idx[j]] = 2;
}

// block_iq1_s { fp16 d; u8 qs[32]; u16 qh[8]; }.
void iq1_s_superblock(const iqgrid::GridSearch& g, const float* xbl, const float* qwbl, std::uint8_t* y) {
    constexpr int block_size = 32;
    float scales[QK_K / block_size], weight[block_size], sumx[block_size + 1], sumw[block_size + 1];
    std::int8_t L[block_size], shifts[QK_K / block_size];
    int idx[block_size];
    std::uint16_t index[block_size / 8];
    std::uint16_t qh[QK_K / 32] = {};
    std::memset(y, 0, 50);
    float max_scale = 0;
    const float sigma2 = iqcommon::sigma2x2(xbl);
    for (int ib = 0; ib < QK_K / block_size; ++ib) {
        const float* xb = xbl + block_size * ib;
        search::importance_weights(block_size, qwbl + block_size * ib, xb, sigma2, weight);
        float max = std::fabs(xb[0]);
        for (int i = 1; i < block_size; ++i) max = std::max(max, std::fabs(xb[i]));
        if (max < kGroupMaxEpsIq1s) {
            scales[ib] = 0;
            shifts[ib] = 1;
            continue;
        }
        sort_order(xb, block_size, idx);
        sumx[0] = sumw[0] = 0;
        for (int j = 0; j < block_size; ++j) {
            const int i = idx[j];
            sumx[j + 1] = sumx[j] + weight[i] * xb[i];
            sumw[j + 1] = sumw[j] + weight[i];
        }
        float best_score = -FLT_MAX, scale = max;
        int besti1 = -1, besti2 = -1, best_shift = 0;
        for (int i1 = 0; i1 <= block_size; ++i1) {
            for (int i2 = i1; i2 <= block_size; ++i2) {
                for (int sh = 1; sh >= -1; sh -= 2) {
                    const float* xv = sh == 1 ? kXp : kXm;
                    const float sumqx = (sumx[i1] - sumx[0]) * xv[0] + (sumx[i2] - sumx[i1]) * xv[1] +
                                        (sumx[block_size] - sumx[i2]) * xv[2];
                    const float sumq2 = (sumw[i1] - sumw[0]) * xv[0] * xv[0] + (sumw[i2] - sumw[i1]) * xv[1] * xv[1] +
                                        (sumw[block_size] - sumw[i2]) * xv[2] * xv[2];
                    if (sumq2 > 0 && sumqx * sumqx > best_score * sumq2) {
                        scale = sumqx / sumq2;
                        best_score = scale * sumqx;
                        besti1 = i1;
                        besti2 = i2;
                        best_shift = sh;
                    }
                }
            }
        }
        if (besti1 < 0 || besti2 < 0 || best_shift == 0) {
            scales[ib] = 0;
            shifts[ib] = 1;
            continue;
        }
        assign_levels(idx, block_size, besti1, besti2, L);
        if (scale < 0) {
            for (int j = 0; j < block_size; ++j) L[j] = static_cast<std::int8_t>(2 - L[j]);
            scale = -scale;
            best_shift = -best_shift;
        }
        bool all_on_grid = true;
        const float* xx = best_shift == 1 ? kXp : kXm;
        for (int k = 0; k < block_size / 8; ++k) {
            const int key = iqcommon::key_of(L + 8 * k, 8, 2);
            int grid_index = g.map[static_cast<std::size_t>(key)];
            if (grid_index < 0) {
                all_on_grid = false;
                grid_index = find_best_neighbour2(g, g.neighbours_of(key), xb + 8 * k, weight + 8 * k, scale, xx, L + 8 * k);
            }
            index[k] = static_cast<std::uint16_t>(grid_index);
        }
        if (!all_on_grid) {
            float sumqx = 0, sumq2 = 0;
            for (int k = 0; k < block_size / 8; ++k) {
                const std::int8_t* pg = g.point(index[k]);
                for (int j = 0; j < 8; ++j) {
                    const float w = weight[8 * k + j];
                    const float q = xx[(pg[j] - 1) / 2];
                    sumqx += w * q * xb[8 * k + j];
                    sumq2 += w * q * q;
                }
            }
            if (sumqx > 0 && sumq2 > 0) scale = sumqx / sumq2;
        }
        std::uint16_t h = 0;
        for (int k = 0; k < block_size / 8; ++k) {
            y[2 + (block_size / 8) * ib + k] = static_cast<std::uint8_t>(index[k] & 255);
            h = static_cast<std::uint16_t>(h | ((index[k] >> 8) << (3 * k)));
        }
        qh[ib] = h;
        scales[ib] = scale;
        shifts[ib] = static_cast<std::int8_t>(best_shift);
        max_scale = std::max(max_scale, scale);
    }
    if (max_scale) {
        const float d = max_scale / 15;
        search::store_fp16(y, d * 1.125f);
        const float id = 1 / d;
        for (int ib = 0; ib < QK_K / block_size; ++ib) {
            int l = std::max(0, std::min(7, q::nearest_int(0.5f * (id * scales[ib] - 1))));
            if (shifts[ib] == -1) l |= 8;
            qh[ib] = static_cast<std::uint16_t>(qh[ib] | (l << 12));
        }
    }
    std::memcpy(y + 34, qh, sizeof qh);
}

// block_iq1_m { u8 qs[32]; u8 qh[16]; u16 scales[4]; } — the super-block
// scale's f16 bits are spread over the top nibbles of the four scales.
void iq1_m_superblock(const iqgrid::GridSearch& g, const float* xbl, const float* qwbl, std::uint8_t* y) {
    constexpr int block_size = 16;
    static const std::uint8_t masks[4] = {0x00, 0x80, 0x08, 0x88};
    float scales[QK_K / block_size], weight[block_size];
    std::int8_t L[block_size], shifts[QK_K / block_size];
    int idx[block_size];
    std::uint16_t index[block_size / 8];
    std::memset(y, 0, 56);
    std::uint8_t* qs = y;
    std::uint8_t* qh = y + 32;
    std::uint16_t sc[4] = {};
    float max_scale = 0;
    const float sigma2 = iqcommon::sigma2x2(xbl);
    auto block_weights = [&](int ib) {
        const float* xb = xbl + block_size * ib;
        if (qwbl)
            search::importance_weights(block_size, qwbl + block_size * ib, xb, sigma2, weight);
        else
            for (int i = 0; i < block_size; ++i) weight[i] = xb[i] * xb[i];
    };
    // Level values of group k (0 or 1) for sign pattern `shift` (0: +,+ 1: +,− 2: −,+ 3: −,−).
    auto group_values = [](int shift, int k) { return (k == 0 ? shift < 2 : shift % 2 == 0) ? kXp : kXm; };
    for (int ib = 0; ib < QK_K / block_size; ++ib) {
        const float* xb = xbl + block_size * ib;
        block_weights(ib);
        float max = std::fabs(xb[0]);
        for (int i = 1; i < block_size; ++i) max = std::max(max, std::fabs(xb[i]));
        if (max < kGroupMaxEpsIq1m) {
            scales[ib] = 0;
            shifts[ib] = 0;
            continue;
        }
        sort_order(xb, block_size, idx);
        float best_score = -FLT_MAX, scale = max;
        int besti1 = -1, besti2 = -1, best_k = -1;
        // Every split (i1, i2) of the sorted order, with each half of 8 on its
        // own shift sign: the four sums are accumulated afresh per split in
        // sorted order, as ggml 34af94c does (later ggml rewrote this with
        // prefix sums, which rounds differently).
        for (int i1 = 0; i1 <= block_size; ++i1) {
            for (int i2 = i1; i2 <= block_size; ++i2) {
                float sumqx[4] = {0, 0, 0, 0}, sumq2[4] = {0, 0, 0, 0};
                for (int j = 0; j < block_size; ++j) {
                    const int i = idx[j];
                    const int level = j < i1 ? 0 : j < i2 ? 1 : 2;
                    const int half = i < block_size / 2 ? 0 : 1;
                    for (int k = 0; k < 4; ++k) {
                        const float v = group_values(k, half)[level];
                        sumqx[k] += weight[i] * v * xb[i];
                        sumq2[k] += weight[i] * v * v;
                    }
                }
                for (int k = 0; k < 4; ++k) {
                    if (sumq2[k] > 0 && sumqx[k] * sumqx[k] > best_score * sumq2[k]) {
                        scale = sumqx[k] / sumq2[k];
                        best_score = scale * sumqx[k];
                        besti1 = i1;
                        besti2 = i2;
                        best_k = k;
                    }
                }
            }
        }
        if (besti1 < 0 || besti2 < 0 || best_k < 0) {
            scales[ib] = 0;
            shifts[ib] = 0;
            continue;
        }
        assign_levels(idx, block_size, besti1, besti2, L);
        if (scale < 0) {
            for (int j = 0; j < block_size; ++j) L[j] = static_cast<std::int8_t>(2 - L[j]);
            scale = -scale;
            best_k = 3 - best_k;
        }
        bool all_on_grid = true;
        for (int k = 0; k < block_size / 8; ++k) {
            const int key = iqcommon::key_of(L + 8 * k, 8, 2);
            int grid_index = g.map[static_cast<std::size_t>(key)];
            if (grid_index < 0) {
                all_on_grid = false;
                grid_index = find_best_neighbour2(g, g.neighbours_of(key), xb + 8 * k, weight + 8 * k, scale,
                                                  group_values(best_k, k), L + 8 * k);
            }
            index[k] = static_cast<std::uint16_t>(grid_index);
        }
        if (!all_on_grid) {
            float sumqx_f = 0, sumq2_f = 0;
            for (int k = 0; k < block_size / 8; ++k) {
                const float* xx = group_values(best_k, k);
                const std::int8_t* pg = g.point(index[k]);
                for (int j = 0; j < 8; ++j) {
                    const float w = weight[8 * k + j];
                    const float q = xx[(pg[j] - 1) / 2];
                    sumqx_f += w * q * xb[8 * k + j];
                    sumq2_f += w * q * q;
                }
            }
            if (sumqx_f > 0 && sumq2_f > 0) scale = sumqx_f / sumq2_f;
        }
        qs[2 * ib] = static_cast<std::uint8_t>(index[0] & 255);
        qs[2 * ib + 1] = static_cast<std::uint8_t>(index[1] & 255);
        qh[ib] = static_cast<std::uint8_t>((index[0] >> 8) | ((index[1] >> 8) << 4));
        scales[ib] = scale;
        shifts[ib] = static_cast<std::int8_t>(best_k);
        max_scale = std::max(max_scale, scale);
    }
    if (!max_scale) return;

    float d = max_scale / 15;
    const float id = 1 / d;
    float sumqx_f = 0, sumq2_f = 0;
    for (int ib = 0; ib < QK_K / block_size; ++ib) {
        const int l = std::max(0, std::min(7, q::nearest_int(0.5f * (id * scales[ib] - 1))));
        sc[ib / 4] = static_cast<std::uint16_t>(sc[ib / 4] | (l << (3 * (ib % 4))));
        qh[ib] = static_cast<std::uint8_t>(qh[ib] | masks[shifts[ib]]);
        const float* xb = xbl + block_size * ib;
        block_weights(ib);
        for (int k = 0; k < block_size / 8; ++k) {
            const float* xx = group_values(shifts[ib], k);
            const std::int8_t* pg = g.point(qs[2 * ib + k] + ((qh[ib] << (8 - 4 * k)) & 0x700));
            for (int j = 0; j < 8; ++j) {
                const float w = weight[8 * k + j];
                const float q = xx[(pg[j] - 1) / 2] * static_cast<float>(2 * l + 1);
                sumqx_f += w * q * xb[8 * k + j];
                sumq2_f += w * q * q;
            }
        }
    }
    if (sumq2_f > 0) d = sumqx_f / sumq2_f;
    const std::uint16_t s = q::f32_to_fp16(d * 1.1125f);
    sc[0] = static_cast<std::uint16_t>(sc[0] | ((s & 0x000f) << 12));
    sc[1] = static_cast<std::uint16_t>(sc[1] | ((s & 0x00f0) << 8));
    sc[2] = static_cast<std::uint16_t>(sc[2] | ((s & 0x0f00) << 4));
    sc[3] = static_cast<std::uint16_t>(sc[3] | (s & 0xf000));
    std::memcpy(y + 48, sc, sizeof sc);
}

}  // namespace

void quantize_iq1_s(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                    const float* imatrix) {
    if (!imatrix) throw Error(ErrorCode::Usage, "IQ1_S cannot be quantized without an importance matrix");
    const iqgrid::GridSearch& g = *iqgrid::grid_search(19);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 50)
            iq1_s_superblock(g, src, imatrix + QK_K * i, dst);
}

void quantize_iq1_m(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                    const float* imatrix) {
    const iqgrid::GridSearch& g = *iqgrid::grid_search(29);
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 56)
            iq1_m_superblock(g, src, imatrix ? imatrix + QK_K * i : nullptr, dst);
}

}  // namespace amn::kernels::gguf::imat
