// SPDX-License-Identifier: MIT OR Apache-2.0
// ggml's importance-matrix quantizers of the legacy types (Q4_0, Q4_1,
// Q5_0, Q5_1), the k-quants (Q2_K … Q6_K) and IQ4_NL / IQ4_XS: the
// `quantize_row_<type>_impl` paths ggml_quantize_chunk takes when it is
// given an imatrix (ggml 34af94c). Without one ggml runs the `_ref`
// encoders of quantize_legacy.cc / quantize_kquants.cc instead.
//
// Every value x of a row gets the weight imatrix[col] · sqrt(sigma2 + x²),
// sigma2 being the row's (legacy) or super-block's (k/IQ4) mean square
// (×2 for Q3_K, Q4_K, Q5_K, IQ4), except Q6_K which uses the imatrix column
// weights as they are and Q2_K which takes sigma2 without the factor 2.
// Scales come from weighted searches (quantize_search.hpp); the k-quants
// then quantize their sub-block scales (and mins) with make_qp_quants or
// make_qx_quants against the same weights summed per sub-block, and re-round
// every value with the scales as stored.
#include "kernels/gguf/quantize_imatrix.hpp"
#include "kernels/gguf/iq_tables.hpp"
#include "kernels/gguf/quantize_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::imat {

using search::QK_K;
using search::store_fp16;
using q::best_index_int8;

namespace {

// Mean square of a row: ggml's sigma2 for the legacy types.
float row_sigma2(const float* x, std::size_t n) noexcept {
    float sum_x2 = 0;
    for (std::size_t j = 0; j < n; ++j) sum_x2 += x[j] * x[j];
    return sum_x2 / static_cast<float>(n);
}

// 2·(mean square) of a 256-super-block: ggml's sigma2 for Q3_K/Q4_K/Q5_K.
float superblock_sigma2x2(const float* x) noexcept {
    float sum_x2 = 0;
    for (int l = 0; l < QK_K; ++l) sum_x2 += x[l] * x[l];
    return 2 * sum_x2 / QK_K;
}

// One Q4_K / Q5_K super-block (quantize_row_q{4,5}_K_impl): d, dmin and
// the scale bytes at dst, the levels 0..nmax in L.
void k4_superblock(const float* x, const float* qw, int nmax, std::uint8_t* dst, std::uint8_t* L) {
    std::uint8_t Laux[32], Ls[QK_K / 32], Lm[QK_K / 32];
    float weights[32], sw[QK_K / 32], mins[QK_K / 32], scales[QK_K / 32];
    const float sigma2 = superblock_sigma2x2(x);
    for (int j = 0; j < QK_K / 32; ++j) {
        search::importance_weights(32, qw + 32 * j, x + 32 * j, sigma2, weights);
        float sumw = 0;
        for (int l = 0; l < 32; ++l) sumw += weights[l];
        sw[j] = sumw;
        scales[j] = search::make_qkx3_quants(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux, -0.9f,
                                             0.05f, 36, false);
    }
    const float d_block = search::make_qp_quants(QK_K / 32, 63, scales, Ls, sw);
    const float m_block = search::make_qp_quants(QK_K / 32, 63, mins, Lm, sw);
    q::k4_scales_and_levels(x, nmax, Ls, Lm, d_block, m_block, dst, L);
}

// quantize_row_iq4_nl_impl(super_block_size, 32, 16, …, kvalues_iq4nl, qw,
// ntry = 7) for one IQ4_NL block (super_block_size 32: d at dh, 16 bytes at
// q4) or one IQ4_XS super-block (256: d, scales_h, scales_l, 128 bytes).
void iq4_superblock(int super_block_size, const float* x, const float* qw, std::uint8_t* dh, std::uint8_t* scales_h,
                    std::uint8_t* scales_l, std::uint8_t* q4) {
    constexpr int block_size = 32;
    constexpr int ntry = 7;
    const std::int8_t* values = tables::kvalues_iq4nl;
    std::uint8_t L[QK_K];
    float scales[QK_K / block_size];
    float weight[block_size];

    float sigma2 = 0;
    for (int j = 0; j < super_block_size; ++j) sigma2 += x[j] * x[j];
    sigma2 *= 2.f / static_cast<float>(super_block_size);

    for (int ib = 0; ib < super_block_size / block_size; ++ib) {
        const float* xb = x + ib * block_size;
        std::uint8_t* Lb = L + ib * block_size;
        search::importance_weights(block_size, qw + ib * block_size, xb, sigma2, weight);
        float amax;
        const float max = q::signed_absmax(block_size, xb, &amax);
        if (amax < search::kGroupMaxEps) {
            scales[ib] = 0;
            std::memset(Lb, 0, block_size);
            continue;
        }
        float d = -max / static_cast<float>(values[0]);
        float id = 1 / d;
        float sumqx = 0, sumq2 = 0;
        for (int j = 0; j < block_size; ++j) {
            const int l = best_index_int8(16, values, id * xb[j]);
            Lb[j] = static_cast<std::uint8_t>(l);
            const float q = static_cast<float>(values[l]);
            sumqx += weight[j] * q * xb[j];
            sumq2 += weight[j] * q * q;
        }
        d = sumq2 > 0 ? sumqx / sumq2 : 0.f;
        float best = d * sumqx;
        for (int itry = -ntry; itry <= ntry; ++itry) {
            id = static_cast<float>(itry + values[0]) / max;
            sumqx = sumq2 = 0;
            for (int j = 0; j < block_size; ++j) {
                const float q = static_cast<float>(values[best_index_int8(16, values, id * xb[j])]);
                sumqx += weight[j] * q * xb[j];
                sumq2 += weight[j] * q * q;
            }
            if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
                d = sumqx / sumq2;
                best = d * sumqx;
            }
        }
        scales[ib] = d;
    }
    q::iq4_scales_and_levels(super_block_size, x, scales, values, dh, scales_h, scales_l, q4);
}

}  // namespace

// quantize_row_q4_0_impl: make_qx_quants(32, 8) with the weights.
void quantize_q4_0(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r, src += n_per_row) {
        const float sigma2 = row_sigma2(src, n_per_row);
        for (std::size_t ib = 0; ib < n_per_row / 32; ++ib, dst += 18) {
            float weight[32];
            std::int8_t L[32];
            search::importance_weights(32, qw + 32 * ib, src + 32 * ib, sigma2, weight);
            store_fp16(dst, search::make_qx_quants_w(32, 8, src + 32 * ib, L, weight));
            for (int j = 0; j < 16; ++j) dst[2 + j] = static_cast<std::uint8_t>(L[j] | (L[j + 16] << 4));
        }
    }
}

// quantize_row_q4_1_impl: make_qkx3_quants(32, 15, −0.9, 0.05, 36 steps).
void quantize_q4_1(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r, src += n_per_row) {
        const float sigma2 = row_sigma2(src, n_per_row);
        for (std::size_t ib = 0; ib < n_per_row / 32; ++ib, dst += 20) {
            float weight[32], min;
            std::uint8_t L[32], Laux[32];
            search::importance_weights(32, qw + 32 * ib, src + 32 * ib, sigma2, weight);
            const float d = search::make_qkx3_quants(32, 15, src + 32 * ib, weight, L, &min, Laux, -0.9f, 0.05f, 36,
                                                     false);
            store_fp16(dst, d);
            store_fp16(dst + 2, -min);
            for (int j = 0; j < 16; ++j) dst[4 + j] = static_cast<std::uint8_t>(L[j] | (L[j + 16] << 4));
        }
    }
}

namespace {
// Q5_0/Q5_1 level packing: low nibbles in qs, 5th bits in the u32 qh.
void pack_q5(const std::uint8_t* L, std::uint8_t* qh_out, std::uint8_t* qs) noexcept {
    std::uint32_t qh = 0;
    for (int j = 0; j < 16; ++j) {
        const std::uint8_t xi0 = L[j], xi1 = L[j + 16];
        qs[j] = static_cast<std::uint8_t>((xi0 & 0x0F) | ((xi1 & 0x0F) << 4));
        qh |= ((xi0 & 0x10u) >> 4) << j;
        qh |= ((xi1 & 0x10u) >> 4) << (j + 16);
    }
    std::memcpy(qh_out, &qh, 4);
}
}  // namespace

// quantize_row_q5_0_impl: make_qx_quants(32, 16).
void quantize_q5_0(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r, src += n_per_row) {
        const float sigma2 = row_sigma2(src, n_per_row);
        for (std::size_t ib = 0; ib < n_per_row / 32; ++ib, dst += 22) {
            float weight[32];
            std::int8_t L[32];
            search::importance_weights(32, qw + 32 * ib, src + 32 * ib, sigma2, weight);
            store_fp16(dst, search::make_qx_quants_w(32, 16, src + 32 * ib, L, weight));
            std::uint8_t U[32];
            for (int j = 0; j < 32; ++j) U[j] = static_cast<std::uint8_t>(L[j]);
            pack_q5(U, dst + 2, dst + 6);
        }
    }
}

// quantize_row_q5_1_impl: make_qkx3_quants(32, 31, −0.9, 0.05, 36 steps).
void quantize_q5_1(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r, src += n_per_row) {
        const float sigma2 = row_sigma2(src, n_per_row);
        for (std::size_t ib = 0; ib < n_per_row / 32; ++ib, dst += 24) {
            float weight[32], min;
            std::uint8_t L[32], Laux[32];
            search::importance_weights(32, qw + 32 * ib, src + 32 * ib, sigma2, weight);
            const float d = search::make_qkx3_quants(32, 31, src + 32 * ib, weight, L, &min, Laux, -0.9f, 0.05f, 36,
                                                     false);
            store_fp16(dst, d);
            store_fp16(dst + 2, -min);
            pack_q5(L, dst + 4, dst + 8);
        }
    }
}

// quantize_row_q2_K_impl: block_q2_K { u8 scales[16]; u8 qs[64]; fp16 d; fp16 dmin; }.
void quantize_q2_K(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r) {
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 84) {
            const float* x = src;
            const float* qwb = qw + QK_K * i;
            std::uint8_t L[QK_K], Laux[16], Ls[QK_K / 16], Lm[QK_K / 16];
            float mins[QK_K / 16], scales[QK_K / 16], sw[QK_K / 16], weight[16];
            float sumx2 = 0;
            for (int j = 0; j < QK_K; ++j) sumx2 += x[j] * x[j];
            const float sigma2 = sumx2 / QK_K;
            for (int j = 0; j < QK_K / 16; ++j) {
                search::importance_weights(16, qwb + 16 * j, x + 16 * j, sigma2, weight);
                sw[j] = 0;
                for (int l = 0; l < 16; ++l) sw[j] += weight[l];
                scales[j] = search::make_qkx3_quants(16, 3, x + 16 * j, weight, L + 16 * j, &mins[j], Laux, -0.9f,
                                                     0.05f, 36, false);
            }
            const float dm0 = search::make_qp_quants(QK_K / 16, 15, scales, Ls, sw);
            const float mm0 = search::make_qp_quants(QK_K / 16, 15, mins, Lm, sw);
            store_fp16(dst + 80, dm0);
            store_fp16(dst + 82, mm0);
            for (int j = 0; j < QK_K / 16; ++j) dst[j] = static_cast<std::uint8_t>(Ls[j] | (Lm[j] << 4));
            q::q2_K_levels(x, dst, L);
        }
    }
}

// quantize_row_q3_K_impl: block_q3_K { u8 hmask[32]; u8 qs[64]; u8 scales[12]; fp16 d; }.
void quantize_q3_K(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r) {
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 110) {
            const float* x = src;
            std::uint8_t* y_scales = dst + 96;
            std::int8_t L[QK_K], Ls[QK_K / 16];
            float scales[QK_K / 16], weight[16], sw[QK_K / 16];
            const float sigma2 = superblock_sigma2x2(x);
            for (int j = 0; j < QK_K / 16; ++j) {
                search::importance_weights(16, qw + QK_K * i + 16 * j, x + 16 * j, sigma2, weight);
                float sumw = 0;
                for (int l = 0; l < 16; ++l) sumw += weight[l];
                sw[j] = sumw;
                scales[j] = search::make_qx_quants_w(16, 4, x + 16 * j, L + 16 * j, weight);
            }
            std::memset(y_scales, 0, 12);
            const float d_block = search::make_qx_quants_w(QK_K / 16, 32, scales, Ls, sw);
            for (int j = 0; j < QK_K / 16; ++j) q::q3_K_put_scale(j, Ls[j], y_scales);
            store_fp16(dst + 108, d_block);
            q::q3_K_levels(x, dst, L);
        }
    }
}

// quantize_row_q4_K_impl: block_q4_K { fp16 d; fp16 dmin; u8 scales[12]; u8 qs[128]; }.
void quantize_q4_K(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r) {
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 144) {
            std::uint8_t L[QK_K];
            k4_superblock(src, qw + QK_K * i, 15, dst, L);
            q::pack_q4_K_levels(L, dst + 16);
        }
    }
}

// quantize_row_q5_K_impl: block_q5_K { fp16 d; fp16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]; }.
void quantize_q5_K(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r) {
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 176) {
            std::uint8_t L[QK_K];
            k4_superblock(src, qw + QK_K * i, 31, dst, L);
            q::pack_q5_K_levels(L, dst + 16, dst + 48);
        }
    }
}

// quantize_row_q6_K_impl: block_q6_K { u8 ql[128]; u8 qh[64]; i8 scales[16]; fp16 d; };
// make_qx_quants(16, 32) with the bare imatrix column weights.
void quantize_q6_K(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r) {
        for (std::size_t i = 0; i < n_per_row / QK_K; ++i, src += QK_K, dst += 210) {
            std::int8_t L[QK_K];
            float scales[QK_K / 16];
            for (int ib = 0; ib < QK_K / 16; ++ib)
                scales[ib] = search::make_qx_quants_w(16, 32, src + 16 * ib, L + 16 * ib, qw + QK_K * i + 16 * ib);
            q::q6_K_finish(src, scales, dst, L);
        }
    }
}

// quantize_iq4_nl with weights: block_iq4_nl { fp16 d; u8 qs[16]; } per 32 values.
void quantize_iq4_nl(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t ib = 0; ib < n_per_row / 32; ++ib, src += 32, dst += 18)
            iq4_superblock(32, src, qw + 32 * ib, dst, nullptr, nullptr, dst + 2);
}

// quantize_iq4_xs with weights: block_iq4_xs { fp16 d; u16 scales_h; u8 scales_l[4]; u8 qs[128]; }.
void quantize_iq4_xs(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* qw) {
    for (std::size_t r = 0; r < nrows; ++r)
        for (std::size_t ib = 0; ib < n_per_row / QK_K; ++ib, src += QK_K, dst += 136)
            iq4_superblock(QK_K, src, qw + QK_K * ib, dst, dst + 2, dst + 4, dst + 8);
}

}  // namespace amn::kernels::gguf::imat
