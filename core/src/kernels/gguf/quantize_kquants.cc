// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference encoders of ggml's k-quants (Q2_K, Q3_K, Q4_K, Q5_K,
// Q6_K): the inverse of kquants.cc. Each matches ggml's
// quantize_row_<type>_ref (ggml 34af94c), which is what
// ggml_quantize_chunk runs without an importance matrix, byte for byte.
//
// These are not plain absmax quantizers: every 16- or 32-element sub-block
// gets its scale (and min) from a small search — make_qkx2_quants for the
// types with a min (Q2_K, Q4_K, Q5_K), make_q3_quants for Q3_K and
// make_qx_quants for Q6_K — and the sub-block scales are then quantized
// against the super-block's f16 scale and every value is re-rounded with
// the scale as stored. The searches compare sums of f32 products, so the
// same binary32 operations in ggml's order (no FMA contraction, no double,
// `a*b*c` evaluated as `(a*b)*c` with ints converted to float on the spot)
// are what makes the bytes identical.
#include "kernels/gguf/gguf_kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/gguf/quantize_common.hpp"
#include "kernels/gguf/quantize_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::scalar {

namespace {

using q::QK_K;
using q::store_fp16;

// The Q4_K/Q5_K part shared by both (quantize_row_q{4,5}_K_ref): search
// each 32-sub-block with make_qkx2_quants (weights av_x + |x|), quantize
// scales and mins to 6 bits against max/63, pack them into the 12 scale
// bytes, store d and dmin at `dd`, then re-round every value to
// 0..nmax with the stored scale and min. L receives the levels.
void quantize_k_scale_min(const float* x, int nmax, float rmin, float rdelta, int nstep, std::uint8_t* dd,
                          std::uint8_t* L) {
    std::uint8_t Laux[32];
    float weights[32];
    float mins[QK_K / 32];
    float scales[QK_K / 32];
    float max_scale = 0;  // as the min is deducted, scales are never negative
    float max_min = 0;
    for (int j = 0; j < QK_K / 32; ++j) {
        float sum_x2 = 0;
        for (int l = 0; l < 32; ++l) sum_x2 += x[32 * j + l] * x[32 * j + l];
        const float av_x = std::sqrt(sum_x2 / 32);
        for (int l = 0; l < 32; ++l) weights[l] = av_x + std::fabs(x[32 * j + l]);
        scales[j] = search::make_qkx2_quants(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux, rmin, rdelta,
                                             nstep, false);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }

    const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
    const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    std::uint8_t Ls[QK_K / 32], Lm[QK_K / 32];
    for (int j = 0; j < QK_K / 32; ++j) {
        // ggml stores nearest_int's int to a uint8_t (low bits) before the MIN.
        Ls[j] = static_cast<std::uint8_t>(q::nearest_int(inv_scale * scales[j]));
        Lm[j] = static_cast<std::uint8_t>(q::nearest_int(inv_min * mins[j]));
    }
    q::k4_scales_and_levels(x, nmax, Ls, Lm, max_scale / 63.f, max_min / 63.f, dd, L);
}

}  // namespace

// quantize_row_q2_K_ref: block_q2_K { u8 scales[16]; u8 qs[64]; fp16 d; fp16 dmin; }.
// 16-sub-blocks searched with make_qkx2_quants(nmax 3, weights |x|, mean
// absolute error, 16 steps from −0.5 by 0.1); 4-bit scales and mins
// against max/15.
void quantize_q2_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    constexpr float q4scale = 15.f;
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 84) {
        const float* x = src;
        std::uint8_t* y_scales = dst;
        std::uint8_t* y_d = dst + 80;
        std::uint8_t* y_dmin = dst + 82;

        std::uint8_t L[QK_K];
        std::uint8_t Laux[16];
        float weights[16];
        float mins[QK_K / 16];
        float scales[QK_K / 16];
        float max_scale = 0;
        float max_min = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            for (int l = 0; l < 16; ++l) weights[l] = std::fabs(x[16 * j + l]);
            scales[j] = search::make_qkx2_quants(16, 3, x + 16 * j, weights, L + 16 * j, &mins[j], Laux, -0.5f, 0.1f,
                                                 15, true);
            if (scales[j] > max_scale) max_scale = scales[j];
            if (mins[j] > max_min) max_min = mins[j];
        }

        if (max_scale > 0) {
            const float iscale = q4scale / max_scale;
            for (int j = 0; j < QK_K / 16; ++j)
                y_scales[j] = static_cast<std::uint8_t>(q::nearest_int(iscale * scales[j]));
            store_fp16(y_d, max_scale / q4scale);
        } else {
            for (int j = 0; j < QK_K / 16; ++j) y_scales[j] = 0;
            store_fp16(y_d, 0.f);
        }
        if (max_min > 0) {
            const float iscale = q4scale / max_min;
            for (int j = 0; j < QK_K / 16; ++j) {
                // ggml shifts the int (negative when iscale overflowed to inf) and keeps the low byte.
                const auto l = static_cast<std::uint32_t>(q::nearest_int(iscale * mins[j]));
                y_scales[j] = static_cast<std::uint8_t>(y_scales[j] | (l << 4));
            }
            store_fp16(y_dmin, max_min / q4scale);
        } else {
            store_fp16(y_dmin, 0.f);
        }
        q::q2_K_levels(x, dst, L);
    }
}

// quantize_row_q3_K_ref: block_q3_K { u8 hmask[32]; u8 qs[64]; u8 scales[12]; fp16 d; }.
// 16-sub-blocks searched with make_q3_quants (levels −4..3); signed 6-bit
// scales against −32/max_scale.
void quantize_q3_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 110) {
        const float* x = src;
        std::uint8_t* y_scales = dst + 96;
        std::uint8_t* y_d = dst + 108;

        std::int8_t L[QK_K];
        float scales[QK_K / 16];
        for (int j = 0; j < QK_K / 16; ++j) scales[j] = search::make_q3_quants(16, 4, x + 16 * j, L + 16 * j);
        float amax;
        const float max_scale = q::signed_absmax(QK_K / 16, scales, &amax);

        std::memset(y_scales, 0, 12);
        if (max_scale) {
            const float iscale = -32.f / max_scale;
            for (int j = 0; j < QK_K / 16; ++j) {
                // ggml keeps nearest_int's low byte in an int8_t before clamping.
                const auto l = static_cast<std::int8_t>(q::nearest_int(iscale * scales[j]));
                q::q3_K_put_scale(j, std::max<int>(-32, std::min<int>(31, l)) + 32, y_scales);
            }
            store_fp16(y_d, 1 / iscale);
        } else {
            store_fp16(y_d, 0.f);
        }
        q::q3_K_levels(x, dst, L);
    }
}

// quantize_row_q4_K_ref: block_q4_K { fp16 d; fp16 dmin; u8 scales[12]; u8 qs[128]; }.
// make_qkx2_quants(nmax 15, 21 steps from −1 by 0.1, squared error).
void quantize_q4_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 144) {
        std::uint8_t L[QK_K];
        quantize_k_scale_min(src, 15, -1.f, 0.1f, 20, dst, L);
        q::pack_q4_K_levels(L, dst + 16);
    }
}

// quantize_row_q5_K_ref: block_q5_K { fp16 d; fp16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]; }.
// make_qkx2_quants(nmax 31, 16 steps from −0.5 by 0.1, squared error).
void quantize_q5_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 176) {
        std::uint8_t L[QK_K];
        quantize_k_scale_min(src, 31, -0.5f, 0.1f, 15, dst, L);
        q::pack_q5_K_levels(L, dst + 16, dst + 48);
    }
}

// quantize_row_q6_K_ref: block_q6_K { u8 ql[128]; u8 qh[64]; i8 scales[16]; fp16 d; }.
// 16-sub-blocks searched with make_qx_quants(nmax 32, rmse_type 1); signed
// 8-bit scales against −128/max_scale.
void quantize_q6_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 210) {
        std::int8_t L[QK_K];
        float scales[QK_K / 16];
        for (int ib = 0; ib < QK_K / 16; ++ib) scales[ib] = search::make_qx_quants_rmse1(16, 32, src + 16 * ib, L + 16 * ib);
        q::q6_K_finish(src, scales, dst, L);
    }
}

}  // namespace amn::kernels::gguf::scalar
