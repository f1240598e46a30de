// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference encoders of ggml's non-linear 4-bit types IQ4_NL and
// IQ4_XS: the inverse of their decoders in iquants.cc. Both match what
// ggml_quantize_chunk writes without an importance matrix (ggml 34af94c):
// quantize_row_iq4_nl_impl with ntry = 7 and weights x², per 32-element
// block for IQ4_NL (quantize_iq4_nl; *not* quantize_row_iq4_nl_ref, which
// passes ntry = −1 and gives other bytes) and per 256-element super-block
// of eight 32-sub-blocks for IQ4_XS (quantize_iq4_xs).
//
// Each value is mapped to the nearest entry of the kvalues_iq4nl codebook
// (−127 … 113) after dividing by the block scale; the scale comes from a
// search over 15 candidate inverse scales (values[0] + itry)/max, itry =
// −7..7, keeping the best weighted least-squares fit. Same binary32
// operations in ggml's order, no FMA contraction.
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/gguf/iq_tables.hpp"
#include "kernels/gguf/quantize_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::scalar {

namespace {

using q::kGroupMaxEps;
constexpr int kNtry = 7;

int nearest_iq4(float x) noexcept { return q::best_index_int8(16, tables::kvalues_iq4nl, x); }

// The scale search of ggml's quantize_row_iq4_nl_impl for one 32-element
// block `xb` (no importance matrix, ntry = 7): weights x², start from
// d = −max/values[0], then try inverse scales (itry + values[0])/max and
// keep the best sumqx²/sumq2. Writes the codebook indices of the starting
// scale to Lb and returns the chosen scale (0 for an all-zero block).
float iq4_block_scale(const float* xb, std::uint8_t* Lb) {
    constexpr int block_size = 32;
    const std::int8_t* values = tables::kvalues_iq4nl;
    float weight[block_size];
    for (int j = 0; j < block_size; ++j) weight[j] = xb[j] * xb[j];
    float amax;
    const float max = q::signed_absmax(block_size, xb, &amax);
    if (amax < kGroupMaxEps) {
        std::memset(Lb, 0, block_size);
        return 0;
    }
    float d = -max / static_cast<float>(values[0]);
    float id = 1 / d;
    float sumqx = 0, sumq2 = 0;
    for (int j = 0; j < block_size; ++j) {
        const int l = nearest_iq4(id * xb[j]);
        Lb[j] = static_cast<std::uint8_t>(l);
        const float q = static_cast<float>(values[l]);
        const float w = weight[j];
        sumqx += w * q * xb[j];
        sumq2 += w * q * q;
    }
    d = sumqx / sumq2;  // sumq2 > 0: the largest |x| ≥ 1e-15 has weight > 0 and |q| ≥ 1
    float best = d * sumqx;
    for (int itry = -kNtry; itry <= kNtry; ++itry) {
        id = static_cast<float>(itry + values[0]) / max;
        sumqx = sumq2 = 0;
        for (int j = 0; j < block_size; ++j) {
            const float q = static_cast<float>(values[nearest_iq4(id * xb[j])]);
            const float w = weight[j];
            sumqx += w * q * xb[j];
            sumq2 += w * q * q;
        }
        if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
            d = sumqx / sumq2;
            best = d * sumqx;
        }
    }
    return d;
}

}  // namespace

// quantize_iq4_nl → quantize_row_iq4_nl_impl(32, 32, …, ntry = 7):
// block_iq4_nl { fp16 d; u8 qs[16]; }. The block scale is stored as is and
// every value re-mapped with its reciprocal.
void quantize_iq4_nl(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += 32, dst += 18) {
        std::uint8_t L[32];
        const float scale = iq4_block_scale(src, L);
        q::iq4_scales_and_levels(32, src, &scale, tables::kvalues_iq4nl, dst, nullptr, nullptr, dst + 2);
    }
}

// quantize_iq4_xs → quantize_row_iq4_nl_impl(256, 32, …, ntry = 7):
// block_iq4_xs { fp16 d; u16 scales_h; u8 scales_l[4]; u8 qs[128]; }.
// Each 32-sub-block's scale is quantized to a signed 6-bit multiple of
// d = −max_scale/32 and its values re-mapped with that quantized scale.
void quantize_iq4_xs(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    constexpr int nsub = 256 / 32;
    for (std::size_t i = 0; i < n_blocks; ++i, src += 256, dst += 136) {
        std::uint8_t L[256];
        float scales[nsub];
        for (int ib = 0; ib < nsub; ++ib) scales[ib] = iq4_block_scale(src + 32 * ib, L + 32 * ib);
        q::iq4_scales_and_levels(256, src, scales, tables::kvalues_iq4nl, dst, dst + 2, dst + 4, dst + 8);
    }
}

}  // namespace amn::kernels::gguf::scalar
