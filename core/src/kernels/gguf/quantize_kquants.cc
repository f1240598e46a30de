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

#include <algorithm>
#include <cmath>
#include <cstring>

namespace amn::kernels::gguf::scalar {

namespace {

constexpr int QK_K = 256;
// ggml GROUP_MAX_EPS: a sub-block whose largest magnitude is below this is "all zero".
constexpr float kGroupMaxEps = 1e-15f;

void store_fp16(std::uint8_t* p, float v) noexcept {
    const std::uint16_t h = q::f32_to_fp16(v);
    std::memcpy(p, &h, 2);
}

// The f32 value of the f16 just stored at `p` (ggml re-reads y[i].d).
float stored_fp16(const std::uint8_t* p) noexcept { return load_fp16(p); }

// ggml make_qkx2_quants: asymmetric quantization of x[0..n) to levels
// 0..nmax with weights, `value ≈ scale·L − the_min`. Starts from the
// min/max fit, then tries nstep+1 slightly different inverse scales
// (rmin + rdelta·is + nmax)/(max − min), each followed by the weighted
// least-squares scale and min for the levels it gives, and keeps the one
// with the smallest weighted error (absolute with use_mad, squared
// otherwise). Returns the scale; L holds the levels, *the_min ≥ 0.
float make_qkx2_quants(int n, int nmax, const float* x, const float* weights, std::uint8_t* L, float* the_min,
                       std::uint8_t* Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    float min = x[0];
    float max = x[0];
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
    if (max == min) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        *the_min = -min;
        return 0.0f;
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
            const int l = std::max(0, std::min(nmax, q::nearest_int(iscale * (x[i] - min))));
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

// ggml make_q3_quants (do_rmse = true, the only use): symmetric levels
// −nmax..nmax−1 with weights x², scale −nmax/max to start, then up to 5
// passes that move single values to the level minimizing the weighted
// error while it improves. Returns the scale; L holds levels + nmax.
float make_q3_quants(int n, int nmax, const float* x, std::int8_t* L) {
    float max = 0;
    float amax = 0;
    for (int i = 0; i < n; ++i) {
        const float ax = std::fabs(x[i]);
        if (ax > amax) {
            amax = ax;
            max = x[i];
        }
    }
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

// ggml make_qx_quants with rmse_type = 1 and no importance weights (the
// Q6_K use): symmetric levels −nmax..nmax−1, weights x², the least-squares
// scale for the levels of −nmax/max, then 18 more inverse scales
// −(nmax + 0.1·is)/max, is = ±1..±9, keeping the one with the best
// sumlx²/suml2. Returns the scale; L holds levels + nmax.
float make_qx_quants_rmse1(int n, int nmax, const float* x, std::int8_t* L) {
    float max = 0;
    float amax = 0;
    for (int i = 0; i < n; ++i) {
        const float ax = std::fabs(x[i]);
        if (ax > amax) {
            amax = ax;
            max = x[i];
        }
    }
    if (amax < kGroupMaxEps) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.0f;
    }
    const float fnmax = static_cast<float>(nmax);
    float iscale = static_cast<float>(-nmax) / max;
    float sumlx = 0;
    float suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(iscale * x[i])));
        L[i] = static_cast<std::int8_t>(l + nmax);
        const float w = x[i] * x[i];
        const float fl = static_cast<float>(l);
        sumlx += w * x[i] * fl;
        suml2 += w * fl * fl;
    }
    float scale = suml2 != 0.0f ? sumlx / suml2 : 0.0f;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0) continue;
        iscale = -(fnmax + 0.1f * static_cast<float>(is)) / max;
        sumlx = suml2 = 0;
        for (int i = 0; i < n; ++i) {
            const int l = std::max(-nmax, std::min(nmax - 1, q::nearest_int(iscale * x[i])));
            const float w = x[i] * x[i];
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

// ggml get_scale_min_k4: 6-bit scale and min of sub-block j from the 12 packed bytes.
void get_scale_min_k4(int j, const std::uint8_t* q, std::uint8_t& d, std::uint8_t& m) noexcept {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = static_cast<std::uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

// Packs four 2-bit levels per byte as Q2_K and Q3_K store them: in each
// half of 128, byte l holds elements l, l+32, l+64, l+96.
void pack_2bit(const std::uint8_t* L, std::uint8_t* qs) noexcept {
    for (int j = 0; j < QK_K; j += 128) {
        for (int l = 0; l < 32; ++l) {
            qs[j / 4 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) |
                                                      (L[j + l + 96] << 6));
        }
    }
}

// The Q4_K/Q5_K part shared by both (quantize_row_q{4,5}_K_ref): search
// each 32-sub-block with make_qkx2_quants (weights av_x + |x|), quantize
// scales and mins to 6 bits against max/63, pack them into the 12 scale
// bytes, store d and dmin at `dd`, then re-round every value to
// 0..nmax with the stored scale and min. L receives the levels.
void quantize_k_scale_min(const float* x, int nmax, float rmin, float rdelta, int nstep, std::uint8_t* dd,
                          std::uint8_t* scales_out, std::uint8_t* L) {
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
        scales[j] = make_qkx2_quants(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux, rmin, rdelta, nstep,
                                     false);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }

    const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
    const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    for (int j = 0; j < QK_K / 32; ++j) {
        // ggml stores nearest_int's int to a uint8_t (low bits) before the MIN.
        std::uint8_t ls = static_cast<std::uint8_t>(q::nearest_int(inv_scale * scales[j]));
        std::uint8_t lm = static_cast<std::uint8_t>(q::nearest_int(inv_min * mins[j]));
        ls = std::min<std::uint8_t>(63, ls);
        lm = std::min<std::uint8_t>(63, lm);
        if (j < 4) {
            scales_out[j] = ls;
            scales_out[j + 4] = lm;
        } else {
            scales_out[j + 4] = static_cast<std::uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
            scales_out[j - 4] = static_cast<std::uint8_t>(scales_out[j - 4] | ((ls >> 4) << 6));
            scales_out[j] = static_cast<std::uint8_t>(scales_out[j] | ((lm >> 4) << 6));
        }
    }
    store_fp16(dd, max_scale / 63.f);
    store_fp16(dd + 2, max_min / 63.f);

    for (int j = 0; j < QK_K / 32; ++j) {
        std::uint8_t sc, m;
        get_scale_min_k4(j, scales_out, sc, m);
        const float d = stored_fp16(dd) * static_cast<float>(sc);
        if (!d) continue;
        const float dm = stored_fp16(dd + 2) * static_cast<float>(m);
        for (int ii = 0; ii < 32; ++ii) {
            const int l = q::nearest_int((x[32 * j + ii] + dm) / d);
            L[32 * j + ii] = static_cast<std::uint8_t>(std::max(0, std::min(nmax, l)));
        }
    }
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
        std::uint8_t* y_qs = dst + 16;
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
            scales[j] =
                make_qkx2_quants(16, 3, x + 16 * j, weights, L + 16 * j, &mins[j], Laux, -0.5f, 0.1f, 15, true);
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
        for (int j = 0; j < QK_K / 16; ++j) {
            const float d = stored_fp16(y_d) * static_cast<float>(y_scales[j] & 0xF);
            if (!d) continue;
            const float dm = stored_fp16(y_dmin) * static_cast<float>(y_scales[j] >> 4);
            for (int ii = 0; ii < 16; ++ii) {
                const int l = q::nearest_int((x[16 * j + ii] + dm) / d);
                L[16 * j + ii] = static_cast<std::uint8_t>(std::max(0, std::min(3, l)));
            }
        }
        pack_2bit(L, y_qs);
    }
}

// quantize_row_q3_K_ref: block_q3_K { u8 hmask[32]; u8 qs[64]; u8 scales[12]; fp16 d; }.
// 16-sub-blocks searched with make_q3_quants (levels −4..3); signed 6-bit
// scales against −32/max_scale.
void quantize_q3_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 110) {
        const float* x = src;
        std::uint8_t* y_hmask = dst;
        std::uint8_t* y_qs = dst + 32;
        std::uint8_t* y_scales = dst + 96;
        std::uint8_t* y_d = dst + 108;

        std::int8_t L[QK_K];
        float scales[QK_K / 16];
        float max_scale = 0;
        float amax = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            scales[j] = make_q3_quants(16, 4, x + 16 * j, L + 16 * j);
            const float scale = std::fabs(scales[j]);
            if (scale > amax) {
                amax = scale;
                max_scale = scales[j];
            }
        }

        std::memset(y_scales, 0, 12);
        if (max_scale) {
            const float iscale = -32.f / max_scale;
            for (int j = 0; j < QK_K / 16; ++j) {
                // ggml keeps nearest_int's low byte in an int8_t before clamping.
                auto l = static_cast<std::int8_t>(q::nearest_int(iscale * scales[j]));
                l = static_cast<std::int8_t>(std::max<int>(-32, std::min<int>(31, l)) + 32);
                if (j < 8) {
                    y_scales[j] = static_cast<std::uint8_t>(l & 0xF);
                } else {
                    y_scales[j - 8] = static_cast<std::uint8_t>(y_scales[j - 8] | ((l & 0xF) << 4));
                }
                l = static_cast<std::int8_t>(l >> 4);
                y_scales[j % 4 + 8] = static_cast<std::uint8_t>(y_scales[j % 4 + 8] | (l << (2 * (j / 4))));
            }
            store_fp16(y_d, 1 / iscale);
        } else {
            store_fp16(y_d, 0.f);
        }

        for (int j = 0; j < QK_K / 16; ++j) {
            const int low = j < 8 ? (y_scales[j] & 0xF) : (y_scales[j - 8] >> 4);
            const int high = (y_scales[8 + j % 4] >> (2 * (j / 4))) & 3;
            const auto sc = static_cast<std::int8_t>((low | (high << 4)) - 32);
            const float d = stored_fp16(y_d) * static_cast<float>(sc);
            if (!d) continue;
            for (int ii = 0; ii < 16; ++ii) {
                const int l = q::nearest_int(x[16 * j + ii] / d);
                L[16 * j + ii] = static_cast<std::int8_t>(std::max(-4, std::min(3, l)) + 4);
            }
        }

        // The high bit of level j goes to bit j/32 of hmask[j%32].
        std::memset(y_hmask, 0, QK_K / 8);
        std::uint8_t low2[QK_K];
        for (int j = 0; j < QK_K; ++j) {
            int l = L[j];
            if (l > 3) {
                y_hmask[j % 32] = static_cast<std::uint8_t>(y_hmask[j % 32] | (1u << (j / 32)));
                l -= 4;
            }
            low2[j] = static_cast<std::uint8_t>(l);
        }
        pack_2bit(low2, y_qs);
    }
}

// quantize_row_q4_K_ref: block_q4_K { fp16 d; fp16 dmin; u8 scales[12]; u8 qs[128]; }.
// make_qkx2_quants(nmax 15, 21 steps from −1 by 0.1, squared error).
void quantize_q4_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 144) {
        std::uint8_t L[QK_K];
        quantize_k_scale_min(src, 15, -1.f, 0.1f, 20, dst, dst + 4, L);
        std::uint8_t* q = dst + 16;
        for (int j = 0; j < QK_K; j += 64) {
            for (int l = 0; l < 32; ++l) q[l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 4));
            q += 32;
        }
    }
}

// quantize_row_q5_K_ref: block_q5_K { fp16 d; fp16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]; }.
// make_qkx2_quants(nmax 31, 16 steps from −0.5 by 0.1, squared error).
void quantize_q5_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 176) {
        std::uint8_t L[QK_K];
        quantize_k_scale_min(src, 31, -0.5f, 0.1f, 15, dst, dst + 4, L);
        std::uint8_t* qh = dst + 16;
        std::uint8_t* ql = dst + 48;
        std::memset(qh, 0, QK_K / 8);
        // Per 64 elements: low nibbles of l and l+32 in ql, their 5th bits
        // in bits 2k and 2k+1 of qh[l].
        std::uint8_t m1 = 1, m2 = 2;
        for (int n = 0; n < QK_K; n += 64) {
            for (int j = 0; j < 32; ++j) {
                int l1 = L[n + j];
                if (l1 > 15) {
                    l1 -= 16;
                    qh[j] |= m1;
                }
                int l2 = L[n + j + 32];
                if (l2 > 15) {
                    l2 -= 16;
                    qh[j] |= m2;
                }
                ql[j] = static_cast<std::uint8_t>(l1 | (l2 << 4));
            }
            m1 = static_cast<std::uint8_t>(m1 << 2);
            m2 = static_cast<std::uint8_t>(m2 << 2);
            ql += 32;
        }
    }
}

// quantize_row_q6_K_ref: block_q6_K { u8 ql[128]; u8 qh[64]; i8 scales[16]; fp16 d; }.
// 16-sub-blocks searched with make_qx_quants(nmax 32, rmse_type 1); signed
// 8-bit scales against −128/max_scale.
void quantize_q6_K(const float* src, std::uint8_t* dst, std::size_t n_blocks) {
    for (std::size_t i = 0; i < n_blocks; ++i, src += QK_K, dst += 210) {
        const float* x = src;
        std::uint8_t* y_ql = dst;
        std::uint8_t* y_qh = dst + 128;
        std::uint8_t* y_scales = dst + 192;
        std::uint8_t* y_d = dst + 208;

        std::int8_t L[QK_K];
        float scales[QK_K / 16];
        float max_scale = 0;
        float max_abs_scale = 0;
        for (int ib = 0; ib < QK_K / 16; ++ib) {
            const float scale = make_qx_quants_rmse1(16, 32, x + 16 * ib, L + 16 * ib);
            scales[ib] = scale;
            const float abs_scale = std::fabs(scale);
            if (abs_scale > max_abs_scale) {
                max_abs_scale = abs_scale;
                max_scale = scale;
            }
        }

        if (max_abs_scale < kGroupMaxEps) {
            std::memset(dst, 0, 210);
            store_fp16(y_d, 0.f);
            continue;
        }

        const float iscale = -128.f / max_scale;
        store_fp16(y_d, 1 / iscale);
        std::int8_t sc[QK_K / 16];
        for (int ib = 0; ib < QK_K / 16; ++ib) {
            sc[ib] = static_cast<std::int8_t>(std::min(127, q::nearest_int(iscale * scales[ib])));
            y_scales[ib] = static_cast<std::uint8_t>(sc[ib]);
        }

        for (int j = 0; j < QK_K / 16; ++j) {
            const float d = stored_fp16(y_d) * static_cast<float>(sc[j]);
            if (!d) continue;
            for (int ii = 0; ii < 16; ++ii) {
                const int l = q::nearest_int(x[16 * j + ii] / d);
                L[16 * j + ii] = static_cast<std::int8_t>(std::max(-32, std::min(31, l)) + 32);
            }
        }

        // Per 128 elements: low nibbles of l and l+64 in ql[l], of l+32 and
        // l+96 in ql[l+32]; the four top-2-bit pairs in qh[l].
        std::uint8_t* ql = y_ql;
        std::uint8_t* qh = y_qh;
        for (int j = 0; j < QK_K; j += 128) {
            for (int l = 0; l < 32; ++l) {
                const int v1 = L[j + l], v2 = L[j + l + 32], v3 = L[j + l + 64], v4 = L[j + l + 96];
                ql[l] = static_cast<std::uint8_t>((v1 & 0xF) | ((v3 & 0xF) << 4));
                ql[l + 32] = static_cast<std::uint8_t>((v2 & 0xF) | ((v4 & 0xF) << 4));
                qh[l] = static_cast<std::uint8_t>((v1 >> 4) | ((v2 >> 4) << 2) | ((v3 >> 4) << 4) | ((v4 >> 4) << 6));
            }
            ql += 64;
            qh += 32;
        }
    }
}

}  // namespace amn::kernels::gguf::scalar
