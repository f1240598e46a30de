// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the scale searches ggml's quantizers are built from
// (ggml-quants.c make_qx_quants, make_q3_quants, make_qkx2_quants,
// make_qkx3_quants, make_qp_quants), one implementation each for the
// `_ref` and `_impl` (importance-matrix) encoders. Same binary32 operations in
// ggml's order: `w*x*l` is `(w*x)*(float)l`, ints are converted to float on
// the spot, no FMA contraction (-ffp-contract=off), no double.

#include "kernels/gguf/gguf_kernels.hpp"
#include "kernels/gguf/quantize_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace amn::kernels::gguf::search {

using q::kGroupMaxEps;
using q::QK_K;
using q::store_fp16;
/// f32 → f16 → f32, as ggml re-reads a scale it has just stored.
inline float fp16_round(float v) noexcept { return fp16_to_f32(q::f32_to_fp16(v)); }

/// make_qx_quants(n, nmax, x, L, rmse_type = 1, qw): symmetric levels
/// −nmax..nmax−1 with weights qw; least-squares scale for the levels of
/// −nmax/max, then 18 more inverse scales −(nmax + 0.1·is)/max, is = ±1..±9,
/// keeping the best sumlx²/suml2. L receives levels + nmax.
inline float make_qx_quants_w(int n, int nmax, const float* x, std::int8_t* L, const float* qw) {
    float amax;
    const float max = q::signed_absmax(n, x, &amax);
    if (amax < kGroupMaxEps) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    const float fnmax = static_cast<float>(nmax);
    float iscale = static_cast<float>(-nmax) / max;
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(iscale * x[i])));
        L[i] = static_cast<std::int8_t>(l + nmax);
        const float w = qw[i];
        const float fl = static_cast<float>(l);
        sumlx += w * x[i] * fl;
        suml2 += w * fl * fl;
    }
    float scale = suml2 != 0.f ? sumlx / suml2 : 0.0f;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0) continue;
        iscale = -(fnmax + 0.1f * static_cast<float>(is)) / max;
        sumlx = suml2 = 0;
        for (int i = 0; i < n; ++i) {
            const int l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(iscale * x[i])));
            const float w = qw[i];
            const float fl = static_cast<float>(l);
            sumlx += w * x[i] * fl;
            suml2 += w * fl * fl;
        }
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; ++i) {
                const int l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(iscale * x[i])));
                L[i] = static_cast<std::int8_t>(l + nmax);
            }
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

/// make_qx_quants with rmse_type = 1 and no importance weights (the Q6_K
/// `_ref` use): make_qx_quants_w with the weights x², which ggml computes
/// as the same f32 product.
inline float make_qx_quants_rmse1(int n, int nmax, const float* x, std::int8_t* L) {
    float w[QK_K];
    for (int i = 0; i < n; ++i) w[i] = x[i] * x[i];
    return make_qx_quants_w(n, nmax, x, L, w);
}

/// make_q3_quants (do_rmse = true, the only use): symmetric levels
/// −nmax..nmax−1 with weights x², scale −nmax/max to start, then up to 5
/// passes that move single values to the level minimizing the weighted
/// error while it improves. Returns the scale; L holds levels + nmax.
inline float make_q3_quants(int n, int nmax, const float* x, std::int8_t* L) {
    float amax;
    const float max = q::signed_absmax(n, x, &amax);
    if (amax < kGroupMaxEps) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.0f;
    }
    const float iscale = static_cast<float>(-nmax) / max;
    float sumlx = 0;
    float suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(iscale * x[i])));
        L[i] = static_cast<std::int8_t>(l);
        const float w = x[i] * x[i];
        sumlx += w * x[i] * static_cast<float>(l);
        suml2 += w * static_cast<float>(l) * static_cast<float>(l);
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i];
            const float li = static_cast<float>(L[i]);
            float slx = sumlx - w * x[i] * li;
            if (slx > 0) {
                float sl2 = suml2 - w * li * li;
                const int new_l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(x[i] * sl2 / slx)));
                if (new_l != L[i]) {
                    const float fl = static_cast<float>(new_l);
                    slx += w * x[i] * fl;
                    sl2 += w * fl * fl;
                    if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = static_cast<std::int8_t>(new_l);
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (!n_changed) break;
    }
    for (int i = 0; i < n; ++i) L[i] = static_cast<std::int8_t>(L[i] + nmax);
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

/// ggml make_qkx2_quants / make_qkx3_quants: asymmetric quantization of
/// x[0..n) to levels 0..nmax with weights, `value ≈ scale·L − the_min`.
/// Starts from the min/max fit, then tries nstep+1 inverse scales
/// (rmin + rdelta·is + nmax)/(max − min), each followed by the weighted
/// least-squares scale and min for the levels it gives, and keeps the one
/// with the smallest weighted error (absolute with use_mad, squared
/// otherwise). Returns the scale; L holds the levels, *the_min ≥ 0.
/// The two ggml functions differ only where written below (kQkx3): the
/// all-equal test and how a trial's levels are clamped (which matters for
/// out-of-range products).
template <bool kQkx3>
inline float make_qkx_quants(int n, int nmax, const float* x, const float* weights, std::uint8_t* L, float* the_min,
                             std::uint8_t* Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    float min = x[0], max = x[0];
    float sum_w = weights[0];
    float sum_x = sum_w * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        const float w = weights[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (min > 0) min = 0;
    if (kQkx3 ? max <= min : max == min) {
        std::memset(L, 0, static_cast<std::size_t>(n));
        *the_min = -min;
        return 0.f;
    }
    const float fnmax = static_cast<float>(nmax);
    float iscale = fnmax / (max - min);
    float scale = 1 / iscale;
    float best_error = 0;
    for (int i = 0; i < n; ++i) {
        const int l = q::nearest_int(iscale * (x[i] - min));
        L[i] = static_cast<std::uint8_t>(std::max(0, std::min(nmax, l)));
        float diff = scale * static_cast<float>(L[i]) + min - x[i];
        diff = use_mad ? std::fabs(diff) : diff * diff;
        best_error += weights[i] * diff;
    }
    if (nstep < 1) {
        *the_min = -min;
        return scale;
    }
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * static_cast<float>(is) + fnmax) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; ++i) {
            int l;
            if constexpr (kQkx3) {
                const float v = iscale * (x[i] - min);
                l = v > 0 ? q::nearest_int(v < fnmax ? v : fnmax) : 0;
            } else {
                l = std::max(0, std::min(nmax, q::nearest_int(iscale * (x[i] - min))));
            }
            Laux[i] = static_cast<std::uint8_t>(l);
            const float w = weights[i];
            const float fl = static_cast<float>(l);
            sum_l += w * fl;
            sum_l2 += w * fl * fl;
            sum_xl += w * fl * x[i];
        }
        const float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > 0) {
            float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > 0) {
                this_min = 0;
                this_scale = sum_xl / sum_l2;
            }
            float cur_error = 0;
            for (int i = 0; i < n; ++i) {
                float diff = this_scale * static_cast<float>(Laux[i]) + this_min - x[i];
                diff = use_mad ? std::fabs(diff) : diff * diff;
                cur_error += weights[i] * diff;
            }
            if (cur_error < best_error) {
                std::memcpy(L, Laux, static_cast<std::size_t>(n));
                best_error = cur_error;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    *the_min = -min;
    return scale;
}

/// make_qkx2_quants: the `_ref` k-quant search (Q2_K, Q4_K, Q5_K).
inline float make_qkx2_quants(int n, int nmax, const float* x, const float* weights, std::uint8_t* L, float* the_min,
                              std::uint8_t* Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    return make_qkx_quants<false>(n, nmax, x, weights, L, the_min, Laux, rmin, rdelta, nstep, use_mad);
}

/// make_qkx3_quants: the importance-matrix search (Q4_1, Q5_1, Q2_K … Q5_K).
inline float make_qkx3_quants(int n, int nmax, const float* x, const float* weights, std::uint8_t* L, float* the_min,
                              std::uint8_t* Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    return make_qkx_quants<true>(n, nmax, x, weights, L, the_min, Laux, rmin, rdelta, nstep, use_mad);
}

/// make_qp_quants: non-negative values x (sub-block scales or mins) to
/// levels 0..nmax with weights: best of 9 inverse scales (nmax + 0.1·is)/max
/// by weighted squared error, then up to 5 passes moving single levels while
/// the weighted fit improves. Returns the scale.
inline float make_qp_quants(int n, int nmax, const float* x, std::uint8_t* L, const float* quant_weights) {
    float max = 0;
    for (int i = 0; i < n; ++i) max = std::max(max, x[i]);
    if (max < kGroupMaxEps) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    const float fnmax = static_cast<float>(nmax);
    float iscale = fnmax / max;
    // ggml stores nearest_int's int to a uint8_t (low byte) here, without a clamp.
    for (int i = 0; i < n; ++i) L[i] = static_cast<std::uint8_t>(q::nearest_int(iscale * x[i]));
    const float scale = 1 / iscale;
    float best_mse = 0;
    for (int i = 0; i < n; ++i) {
        const float diff = x[i] - scale * static_cast<float>(L[i]);
        best_mse += quant_weights[i] * diff * diff;
    }
    for (int is = -4; is <= 4; ++is) {
        if (is == 0) continue;
        const float iscale_is = (0.1f * static_cast<float>(is) + fnmax) / max;
        const float scale_is = 1 / iscale_is;
        float mse = 0;
        for (int i = 0; i < n; ++i) {
            const int l = std::min(nmax, q::nearest_int(iscale_is * x[i]));
            const float diff = x[i] - scale_is * static_cast<float>(l);
            mse += quant_weights[i] * diff * diff;
        }
        if (mse < best_mse) {
            best_mse = mse;
            iscale = iscale_is;
        }
    }
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::min(nmax, q::nearest_int(iscale * x[i]));
        L[i] = static_cast<std::uint8_t>(l);
        const float w = quant_weights[i];
        const float fl = static_cast<float>(l);
        sumlx += w * x[i] * fl;
        suml2 += w * fl * fl;
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = quant_weights[i];
            const float li = static_cast<float>(L[i]);
            float slx = sumlx - w * x[i] * li;
            float sl2 = suml2 - w * li * li;
            if (slx > 0 && sl2 > 0) {
                const int new_l = std::min(nmax, q::nearest_int(x[i] * sl2 / slx));
                if (new_l != L[i]) {
                    const float fl = static_cast<float>(new_l);
                    slx += w * x[i] * fl;
                    sl2 += w * fl * fl;
                    if (slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = static_cast<std::uint8_t>(new_l);
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (!n_changed) break;
    }
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

/// ggml's `qw[j] * sqrtf(sigma2 + x[j]*x[j])` importance weights of n values.
inline void importance_weights(int n, const float* qw, const float* x, float sigma2, float* weight) noexcept {
    for (int j = 0; j < n; ++j) weight[j] = qw[j] * std::sqrt(sigma2 + x[j] * x[j]);
}

}  // namespace amn::kernels::gguf::search
