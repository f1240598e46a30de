// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD encoders for the k-quants (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K), compiled
// once per target and chosen at run time; byte-identical to the scalar
// references in quantize_kquants.cc (= ggml's quantize_row_<type>_ref).
//
// The cost of these types is the per-sub-block scale search
// (make_qkx2_quants, make_q3_quants, make_qx_quants), a chain of f32 sums whose order fixes
// the result. So the vectors run *across* sub-blocks: 32 sub-blocks are
// transposed so that lane k holds sub-block k, and each lane then performs
// exactly the scalar search of its sub-block — the same f32 operations in
// the same order, comparisons and branches turned into per-lane selects.
// Division and sqrt are IEEE-exact in every target, so each lane's bits are
// the scalar code's bits. ggml's nearest_int is the magic-number add read back
// through the mantissa bits (exact for every input), except in Q6_K's search
// where |iscale·x| ≤ 32.9 is guaranteed and (v + 1.5·2^23) − 1.5·2^23 gives the
// same integer as a float, and in make_qkx2_quants' trials whose every lane
// stays within 4e6 (checked per trial), where it is one Round (RNE).
//
// What stays scalar per super-block: quantizing the 8 or 16 sub-block
// scales (as ggml writes it, same helpers), and recomputing a sub-block's
// search levels in the rare case where its stored scale is zero (the lane
// records the inverse scale and min of its winning trial). The final
// re-rounding of the 256 values with the stored scales is element-wise and
// vectorized in natural order. A super-block holding inf or NaN goes to the
// scalar reference as a whole.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/quantize_simd_kquants.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "gguf_kernels.hpp"
#include "gguf_quantize.hpp"
#include "quantize_common.hpp"
#include "gguf/quantize_simd-inl.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace kq {

using DU8 = hn::Rebind<std::uint8_t, DF>;
using q::kGroupMaxEps;
using q::QK_K;

// Per-lane results of a search.
struct Found {
    alignas(64) float scale[kSub];
    alignas(64) float the_min[kSub];   // make_qkx2_quants' *the_min
    alignas(64) float iscale[kSub];    // inverse scale of the winning trial
    alignas(64) float min_used[kSub];  // min subtracted in the winning trial
    alignas(64) float zero[kSub];      // nonzero: the search returned all-zero levels
};

// MAX(0, MIN(nmax, nearest_int(v))) as a float, lane-wise. kRound: the
// caller checked that every |v| is at most kRoundReach, where ggml's
// nearest_int is the IEEE round to nearest even (the magic add rounds
// v + 1.5·2^23 to an integer, ties to even, and 1.5·2^23 is even), so one
// Round and a clamp in float replace the integer path's five operations.
constexpr float kRoundReach = 4.0e6f;  // < 4194303, ggml's asserted range
template <bool kRound>
HWY_INLINE VF Levels(VF v, VF fnmax) {
    const DF df;
    if constexpr (kRound) {
        return hn::Min(fnmax, hn::Max(hn::Round(v), hn::Zero(df)));
    } else {
        const DI di;
        const VI l = GgmlNearestInt(v);
        return hn::ConvertTo(df, hn::Max(hn::Zero(di), hn::Min(hn::ConvertTo(di, fnmax), l)));
    }
}

// Whether every lane of iscale·(x − min) stays within kRoundReach, for the
// lanes' max |x| `amax` (false for a non-finite iscale). Lanes in `flat`
// (max = min) are left out: their search results are never used (the
// sub-block is stored with scale 0 and all-zero levels) and no lane reads
// another's.
HWY_INLINE bool RoundReach(VF iscale, VF amax, VF min, hn::Mask<DF> flat) {
    const DF df;
    const VF reach = hn::Mul(hn::Abs(iscale), hn::Add(amax, hn::Abs(min)));
    return hn::AllTrue(df, hn::Or(flat, hn::Le(reach, hn::Set(df, kRoundReach))));
}

// ggml make_qkx2_quants(n, nmax, x, weights, …, rmin, rdelta, nstep, use_mad)
// for the kSub sub-blocks of xt/wt, one per lane.
template <int n, int nmax, bool use_mad>
void SearchQkx2(const float* HWY_RESTRICT xt, const float* HWY_RESTRICT wt, float rmin, float rdelta, int nstep,
                Found& out) {
    const DF df;
    const VF zero = hn::Zero(df);
    const float fnmax = static_cast<float>(nmax);
    const VF vnmax = hn::Set(df, fnmax);
    for (std::size_t v = 0; v < kNV; ++v) {
        const float* HWY_RESTRICT x = xt + v * kL;
        const float* HWY_RESTRICT w = wt + v * kL;
        VF min = hn::Load(df, x), max = min;
        VF sum_w = hn::Load(df, w);
        VF sum_x = hn::Mul(sum_w, min);
        for (int i = 1; i < n; ++i) {
            const VF xi = hn::Load(df, x + i * kSub), wi = hn::Load(df, w + i * kSub);
            min = hn::IfThenElse(hn::Lt(xi, min), xi, min);
            max = hn::IfThenElse(hn::Gt(xi, max), xi, max);
            sum_w = hn::Add(sum_w, wi);
            sum_x = hn::Add(sum_x, hn::Mul(wi, xi));
        }
        const VF amax = hn::Max(hn::Abs(min), hn::Abs(max));
        min = hn::IfThenElse(hn::Gt(min, zero), zero, min);
        const VF min0 = min;
        const auto flat = hn::Eq(max, min);

        VF iscale = hn::Div(hn::Set(df, fnmax), hn::Sub(max, min));
        VF scale = hn::Div(hn::Set(df, 1.0f), iscale);
        VF best_error = zero;
        const auto first_error = [&](auto round) {
            for (int i = 0; i < n; ++i) {
                const VF xi = hn::Load(df, x + i * kSub), wi = hn::Load(df, w + i * kSub);
                const VF fl = Levels<decltype(round)::value>(hn::Mul(iscale, hn::Sub(xi, min)), vnmax);
                VF diff = hn::Sub(hn::Add(hn::Mul(scale, fl), min), xi);
                diff = use_mad ? hn::Abs(diff) : hn::Mul(diff, diff);
                best_error = hn::Add(best_error, hn::Mul(wi, diff));
            }
        };
        if (RoundReach(iscale, amax, min, flat)) first_error(std::true_type{});
        else first_error(std::false_type{});
        VF best_iscale = iscale, best_min = min;
        VF laux[n];
        for (int is = 0; is <= nstep; ++is) {
            const float c = rmin + rdelta * static_cast<float>(is) + fnmax;
            iscale = hn::Div(hn::Set(df, c), hn::Sub(max, min));
            VF sum_l = zero, sum_l2 = zero, sum_xl = zero;
            const auto sums = [&](auto round) {
                for (int i = 0; i < n; ++i) {
                    const VF xi = hn::Load(df, x + i * kSub), wi = hn::Load(df, w + i * kSub);
                    const VF fl = Levels<decltype(round)::value>(hn::Mul(iscale, hn::Sub(xi, min)), vnmax);
                    laux[i] = fl;
                    const VF wfl = hn::Mul(wi, fl);
                    sum_l = hn::Add(sum_l, wfl);
                    sum_l2 = hn::Add(sum_l2, hn::Mul(wfl, fl));
                    sum_xl = hn::Add(sum_xl, hn::Mul(wfl, xi));
                }
            };
            if (RoundReach(iscale, amax, min, flat)) sums(std::true_type{});
            else sums(std::false_type{});
            const VF D = hn::Sub(hn::Mul(sum_w, sum_l2), hn::Mul(sum_l, sum_l));
            const auto d_pos = hn::Gt(D, zero);
            if (hn::AllFalse(df, d_pos)) continue;
            VF this_scale = hn::Div(hn::Sub(hn::Mul(sum_w, sum_xl), hn::Mul(sum_x, sum_l)), D);
            VF this_min = hn::Div(hn::Sub(hn::Mul(sum_l2, sum_x), hn::Mul(sum_l, sum_xl)), D);
            const auto min_pos = hn::Gt(this_min, zero);
            this_min = hn::IfThenElse(min_pos, zero, this_min);
            this_scale = hn::IfThenElse(min_pos, hn::Div(sum_xl, sum_l2), this_scale);
            VF cur_error = zero;
            for (int i = 0; i < n; ++i) {
                const VF xi = hn::Load(df, x + i * kSub), wi = hn::Load(df, w + i * kSub);
                VF diff = hn::Sub(hn::Add(hn::Mul(this_scale, laux[i]), this_min), xi);
                diff = use_mad ? hn::Abs(diff) : hn::Mul(diff, diff);
                cur_error = hn::Add(cur_error, hn::Mul(wi, diff));
            }
            const auto better = hn::And(d_pos, hn::Lt(cur_error, best_error));
            best_error = hn::IfThenElse(better, cur_error, best_error);
            scale = hn::IfThenElse(better, this_scale, scale);
            best_iscale = hn::IfThenElse(better, iscale, best_iscale);
            best_min = hn::IfThenElse(better, min, best_min);
            min = hn::IfThenElse(better, this_min, min);
        }
        hn::Store(hn::IfThenElse(flat, zero, scale), df, out.scale + v * kL);
        hn::Store(hn::Neg(hn::IfThenElse(flat, min0, min)), df, out.the_min + v * kL);
        hn::Store(best_iscale, df, out.iscale + v * kL);
        hn::Store(best_min, df, out.min_used + v * kL);
        hn::Store(hn::IfThenElseZero(flat, hn::Set(df, 1.0f)), df, out.zero + v * kL);
    }
}

// The levels make_qkx2_quants left for sub-block k (used where the stored scale is zero).
HWY_INLINE void QkxLevels(const Found& f, std::size_t k, const float* HWY_RESTRICT x, int n, int nmax,
                          std::uint8_t* HWY_RESTRICT L) {
    for (int i = 0; i < n; ++i) {
        L[i] = f.zero[k] != 0.0f ? 0
                                 : static_cast<std::uint8_t>(std::max(
                                       0, std::min(nmax, q::nearest_int(f.iscale[k] * (x[i] - f.min_used[k])))));
    }
}

// L[i] = clamp(nearest_int((x[i] + dm) / d), 0, nmax) for i < n (n a multiple of kL).
HWY_INLINE void RoundAsym(const float* HWY_RESTRICT x, std::size_t n, float d, float dm, int nmax,
                          std::uint8_t* HWY_RESTRICT L) {
    const DF df;
    const DI di;
    const DU8 du8;
    const VF vd = hn::Set(df, d), vdm = hn::Set(df, dm);
    for (std::size_t i = 0; i < n; i += kL) {
        const VI l = GgmlNearestInt(hn::Div(hn::Add(hn::LoadU(df, x + i), vdm), vd));
        const VI c = hn::Max(hn::Zero(di), hn::Min(hn::Set(di, nmax), l));
        hn::StoreU(hn::DemoteTo(du8, c), du8, L + i);
    }
}

// Q4_K / Q5_K (8 sub-blocks of 32 per super-block, 4 super-blocks per batch).
template <int nmax>
void ProcessQ45(const Batch& b, float rmin, float rdelta, int nstep) {
    const DF df;
    alignas(64) float xt[32 * kSub];
    alignas(64) float wt[32 * kSub];
    Transpose(b, 8, 32, xt);
    for (std::size_t v = 0; v < kNV; ++v) {  // weights av_x + |x|, av_x = sqrt(Σx² / 32)
        VF sum_x2 = hn::Zero(df);
        for (int i = 0; i < 32; ++i) {
            const VF xi = hn::Load(df, xt + i * kSub + v * kL);
            sum_x2 = hn::Add(sum_x2, hn::Mul(xi, xi));
        }
        const VF av_x = hn::Sqrt(hn::Div(sum_x2, hn::Set(df, 32.0f)));
        for (int i = 0; i < 32; ++i)
            hn::Store(hn::Add(av_x, hn::Abs(hn::Load(df, xt + i * kSub + v * kL))), df, wt + i * kSub + v * kL);
    }
    Found f;
    SearchQkx2<32, nmax, false>(xt, wt, rmin, rdelta, nstep, f);

    for (std::size_t s = 0; s < b.count; ++s) {
        const float* HWY_RESTRICT x = b.src[s];
        std::uint8_t* HWY_RESTRICT dst = b.dst[s];
        const float* scales = f.scale + 8 * s;
        const float* mins = f.the_min + 8 * s;
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < 8; ++j) {
            if (scales[j] > max_scale) max_scale = scales[j];
            if (mins[j] > max_min) max_min = mins[j];
        }
        std::uint8_t* sc_out = dst + 4;
        const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
        const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
        std::uint8_t Ls[8], Lm[8];
        for (int j = 0; j < 8; ++j) {
            Ls[j] = static_cast<std::uint8_t>(q::nearest_int(inv_scale * scales[j]));
            Lm[j] = static_cast<std::uint8_t>(q::nearest_int(inv_min * mins[j]));
        }
        q::pack_scale_min_k4(Ls, Lm, sc_out);
        StoreFp16(dst, max_scale / 63.f);
        StoreFp16(dst + 2, max_min / 63.f);
        const float d_all = load_fp16(dst), dmin_all = load_fp16(dst + 2);
        alignas(64) std::uint8_t L[QK_K];
        for (int j = 0; j < 8; ++j) {
            std::uint8_t sc, m;
            q::get_scale_min_k4(j, sc_out, sc, m);
            const float d = d_all * static_cast<float>(sc);
            if (!d) {
                QkxLevels(f, 8 * s + j, x + 32 * j, 32, nmax, L + 32 * j);
                continue;
            }
            RoundAsym(x + 32 * j, 32, d, dmin_all * static_cast<float>(m), nmax, L + 32 * j);
        }
        if (nmax == 15) {
            q::pack_q4_K_levels(L, dst + 16);
        } else {
            std::uint8_t* HWY_RESTRICT qh = dst + 16;
            std::uint8_t* HWY_RESTRICT ql = dst + 48;
            std::memset(qh, 0, QK_K / 8);
            for (int k = 0, n0 = 0; n0 < QK_K; n0 += 64, ++k, ql += 32) {
                for (int j = 0; j < 32; ++j) {
                    const int l1 = L[n0 + j], l2 = L[n0 + j + 32];
                    qh[j] = static_cast<std::uint8_t>(qh[j] | ((l1 >> 4) << (2 * k)) | ((l2 >> 4) << (2 * k + 1)));
                    ql[j] = static_cast<std::uint8_t>((l1 & 0xF) | ((l2 & 0xF) << 4));
                }
            }
        }
    }
}

// Q2_K (16 sub-blocks of 16 per super-block, 2 super-blocks per batch).
void ProcessQ2(const Batch& b) {
    const DF df;
    alignas(64) float xt[16 * kSub];
    alignas(64) float wt[16 * kSub];
    Transpose(b, 16, 16, xt);
    for (std::size_t i = 0; i < 16 * kSub; i += kL) hn::Store(hn::Abs(hn::Load(df, xt + i)), df, wt + i);
    Found f;
    SearchQkx2<16, 3, true>(xt, wt, -0.5f, 0.1f, 15, f);

    constexpr float q4scale = 15.f;
    for (std::size_t s = 0; s < b.count; ++s) {
        const float* HWY_RESTRICT x = b.src[s];
        std::uint8_t* HWY_RESTRICT dst = b.dst[s];
        std::uint8_t* y_scales = dst;
        const float* scales = f.scale + 16 * s;
        const float* mins = f.the_min + 16 * s;
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < 16; ++j) {
            if (scales[j] > max_scale) max_scale = scales[j];
            if (mins[j] > max_min) max_min = mins[j];
        }
        if (max_scale > 0) {
            const float iscale = q4scale / max_scale;
            for (int j = 0; j < 16; ++j) y_scales[j] = static_cast<std::uint8_t>(q::nearest_int(iscale * scales[j]));
            StoreFp16(dst + 80, max_scale / q4scale);
        } else {
            std::memset(y_scales, 0, 16);
            StoreFp16(dst + 80, 0.f);
        }
        if (max_min > 0) {
            const float iscale = q4scale / max_min;
            for (int j = 0; j < 16; ++j) {
                const auto l = static_cast<std::uint32_t>(q::nearest_int(iscale * mins[j]));
                y_scales[j] = static_cast<std::uint8_t>(y_scales[j] | (l << 4));
            }
            StoreFp16(dst + 82, max_min / q4scale);
        } else {
            StoreFp16(dst + 82, 0.f);
        }
        const float d_all = load_fp16(dst + 80), dmin_all = load_fp16(dst + 82);
        alignas(64) std::uint8_t L[QK_K];
        for (int j = 0; j < 16; ++j) {
            const float d = d_all * static_cast<float>(y_scales[j] & 0xF);
            if (!d) {
                QkxLevels(f, 16 * s + j, x + 16 * j, 16, 3, L + 16 * j);
                continue;
            }
            RoundAsym(x + 16 * j, 16, d, dmin_all * static_cast<float>(y_scales[j] >> 4), 3, L + 16 * j);
        }
        q::pack_2bit(L, dst + 16);
    }
}

// ggml make_qx_quants(16, 32, x, L, rmse_type 1, no weights) for the kSub
// sub-blocks of xt: scale, winning inverse scale, and the zero flag (amax < eps).
void SearchQx(const float* HWY_RESTRICT xt, Found& out) {
    const DF df;
    const VF zero = hn::Zero(df);
    const VF magic = hn::Set(df, 12582912.0f);
    const VF lo = hn::Set(df, -32.0f), hi = hn::Set(df, 31.0f);
    alignas(64) float wbuf[16 * kL], wxbuf[16 * kL];
    for (std::size_t v = 0; v < kNV; ++v) {
        const float* HWY_RESTRICT x = xt + v * kL;
        VF amax = zero, max = zero;
        for (int i = 0; i < 16; ++i) {
            const VF xi = hn::Load(df, x + i * kSub);
            const VF ax = hn::Abs(xi);
            const auto gt = hn::Gt(ax, amax);
            amax = hn::IfThenElse(gt, ax, amax);
            max = hn::IfThenElse(gt, xi, max);
            const VF w = hn::Mul(xi, xi);
            hn::Store(w, df, wbuf + i * kL);
            hn::Store(hn::Mul(w, xi), df, wxbuf + i * kL);
        }
        const auto tiny = hn::Lt(amax, hn::Set(df, kGroupMaxEps));
        max = hn::IfThenElse(tiny, hn::Set(df, 1.0f), max);
        // |iscale·x| ≤ 32.9·|x|/amax: the float round trip through 1.5·2^23 is nearest_int.
        VF iscale = hn::Div(hn::Set(df, -32.0f), max);
        VF sumlx = zero, suml2 = zero;
        for (int i = 0; i < 16; ++i) {
            const VF xi = hn::Load(df, x + i * kSub);
            const VF fl = hn::Min(hi, hn::Max(lo, hn::Sub(hn::Add(hn::Mul(iscale, xi), magic), magic)));
            sumlx = hn::Add(sumlx, hn::Mul(hn::Load(df, wxbuf + i * kL), fl));
            suml2 = hn::Add(suml2, hn::Mul(hn::Mul(hn::Load(df, wbuf + i * kL), fl), fl));
        }
        VF scale = hn::IfThenElseZero(hn::Ne(suml2, zero), hn::Div(sumlx, suml2));
        VF best = hn::Mul(scale, sumlx);
        VF best_iscale = iscale;
        for (int is = -9; is <= 9; ++is) {
            if (is == 0) continue;
            iscale = hn::Div(hn::Set(df, -(32.0f + 0.1f * static_cast<float>(is))), max);
            sumlx = suml2 = zero;
            for (int i = 0; i < 16; ++i) {
                const VF xi = hn::Load(df, x + i * kSub);
                const VF fl = hn::Min(hi, hn::Max(lo, hn::Sub(hn::Add(hn::Mul(iscale, xi), magic), magic)));
                sumlx = hn::Add(sumlx, hn::Mul(hn::Load(df, wxbuf + i * kL), fl));
                suml2 = hn::Add(suml2, hn::Mul(hn::Mul(hn::Load(df, wbuf + i * kL), fl), fl));
            }
            const auto better = hn::And(hn::Gt(suml2, zero), hn::Gt(hn::Mul(sumlx, sumlx), hn::Mul(best, suml2)));
            const VF s = hn::Div(sumlx, suml2);
            scale = hn::IfThenElse(better, s, scale);
            best = hn::IfThenElse(better, hn::Mul(s, sumlx), best);
            best_iscale = hn::IfThenElse(better, iscale, best_iscale);
        }
        hn::Store(hn::IfThenElse(tiny, zero, scale), df, out.scale + v * kL);
        hn::Store(best_iscale, df, out.iscale + v * kL);
        hn::Store(hn::IfThenElseZero(tiny, hn::Set(df, 1.0f)), df, out.zero + v * kL);
    }
}

// Q6_K (16 sub-blocks of 16 per super-block, 2 super-blocks per batch).
void ProcessQ6(const Batch& b) {
    const DF df;
    const DI di;
    const DU8 du8;
    alignas(64) float xt[16 * kSub];
    Transpose(b, 16, 16, xt);
    Found f;
    SearchQx(xt, f);

    for (std::size_t s = 0; s < b.count; ++s) {
        const float* HWY_RESTRICT x = b.src[s];
        std::uint8_t* HWY_RESTRICT dst = b.dst[s];
        std::int8_t sc[16];
        if (!q::q6_K_scales(f.scale + 16 * s, dst, sc)) continue;
        const float d_all = load_fp16(dst + 208);
        alignas(64) std::uint8_t L[QK_K];
        for (int j = 0; j < 16; ++j) {
            const float d = d_all * static_cast<float>(sc[j]);
            const float* HWY_RESTRICT xj = x + 16 * j;
            if (!d) {
                const std::size_t k = 16 * s + j;
                for (int i = 0; i < 16; ++i)
                    L[16 * j + i] = f.zero[k] != 0.0f
                                        ? 0
                                        : static_cast<std::uint8_t>(
                                              std::max(-32, std::min(31, q::nearest_int(f.iscale[k] * xj[i]))) + 32);
                continue;
            }
            const VF vd = hn::Set(df, d);
            for (std::size_t i = 0; i < 16; i += kL) {
                const VI l = GgmlNearestInt(hn::Div(hn::LoadU(df, xj + i), vd));
                const VI c = hn::Add(hn::Max(hn::Set(di, -32), hn::Min(hn::Set(di, 31), l)), hn::Set(di, 32));
                hn::StoreU(hn::DemoteTo(du8, c), du8, L + 16 * j + i);
            }
        }
        q::pack_q6_K_levels(L, dst, dst + 128);
    }
}

// ggml make_q3_quants(16, 4, x, L, do_rmse = true) for the kSub sub-blocks
// of xt, one per lane: the start levels of −4/max, then up to 5 passes
// that move one value at a time while the fit improves. A pass that changes
// nothing in a lane leaves it unchanged, so running it again there (while
// other lanes still change) is the scalar loop's `break`. Levels −4..3 are
// left in Lt (transposed, as floats; all 0 for an all-zero sub-block).
void SearchQ3(const float* HWY_RESTRICT xt, float* HWY_RESTRICT Lt, Found& out) {
    const DF df;
    const DI di;
    const VF zero = hn::Zero(df);
    const VI lo = hn::Set(di, -4), hi = hn::Set(di, 3);
    alignas(64) float wt[16 * kSub], wxt[16 * kSub];
    VF sumlx[kNV], suml2[kNV];
    hn::Mask<DF> tiny[kNV];
    for (std::size_t v = 0; v < kNV; ++v) {
        const float* HWY_RESTRICT x = xt + v * kL;
        VF amax = zero, max = zero;
        for (int i = 0; i < 16; ++i) {
            const VF xi = hn::Load(df, x + i * kSub);
            const VF ax = hn::Abs(xi);
            const auto gt = hn::Gt(ax, amax);
            amax = hn::IfThenElse(gt, ax, amax);
            max = hn::IfThenElse(gt, xi, max);
            const VF w = hn::Mul(xi, xi);
            hn::Store(w, df, wt + i * kSub + v * kL);
            hn::Store(hn::Mul(w, xi), df, wxt + i * kSub + v * kL);
        }
        tiny[v] = hn::Lt(amax, hn::Set(df, kGroupMaxEps));
        max = hn::IfThenElse(tiny[v], hn::Set(df, 1.0f), max);
        const VF iscale = hn::Div(hn::Set(df, -4.0f), max);
        VF slx = zero, sl2 = zero;
        for (int i = 0; i < 16; ++i) {
            const std::size_t o = i * kSub + v * kL;
            const VF fl = hn::ConvertTo(df, hn::Max(lo, hn::Min(hi, GgmlNearestInt(hn::Mul(iscale, hn::Load(df, x + i * kSub))))));
            hn::Store(fl, df, Lt + o);
            slx = hn::Add(slx, hn::Mul(hn::Load(df, wxt + o), fl));
            sl2 = hn::Add(sl2, hn::Mul(hn::Mul(hn::Load(df, wt + o), fl), fl));
        }
        sumlx[v] = slx;
        suml2[v] = sl2;
    }
    // The refinement passes are a chain per lane (each move depends on the
    // sums so far): the kNV vectors run side by side to overlap the chains.
    for (int itry = 0; itry < 5; ++itry) {
        auto changed = hn::Lt(zero, zero);  // all false
        for (int i = 0; i < 16; ++i) {
            for (std::size_t v = 0; v < kNV; ++v) {
                const std::size_t o = i * kSub + v * kL;
                const VF xi = hn::Load(df, xt + o);
                const VF w = hn::Load(df, wt + o), wx = hn::Load(df, wxt + o);
                const VF li = hn::Load(df, Lt + o);
                VF slx = hn::Sub(sumlx[v], hn::Mul(wx, li));
                const auto slx_pos = hn::Gt(slx, zero);
                VF sl2 = hn::Sub(suml2[v], hn::Mul(hn::Mul(w, li), li));
                const VF fl =
                    hn::ConvertTo(df, hn::Max(lo, hn::Min(hi, GgmlNearestInt(hn::Div(hn::Mul(xi, sl2), slx)))));
                const auto moved = hn::And(slx_pos, hn::Ne(fl, li));
                slx = hn::Add(slx, hn::Mul(wx, fl));
                sl2 = hn::Add(sl2, hn::Mul(hn::Mul(w, fl), fl));
                const auto take = hn::And(
                    hn::And(moved, hn::Gt(sl2, zero)),
                    hn::Gt(hn::Mul(hn::Mul(slx, slx), suml2[v]), hn::Mul(hn::Mul(sumlx[v], sumlx[v]), sl2)));
                hn::Store(hn::IfThenElse(take, fl, li), df, Lt + o);
                sumlx[v] = hn::IfThenElse(take, slx, sumlx[v]);
                suml2[v] = hn::IfThenElse(take, sl2, suml2[v]);
                changed = hn::Or(changed, take);
            }
        }
        if (hn::AllFalse(df, changed)) break;
    }
    for (std::size_t v = 0; v < kNV; ++v) {
        const VF scale = hn::IfThenElseZero(hn::Gt(suml2[v], zero), hn::Div(sumlx[v], suml2[v]));
        hn::Store(hn::IfThenElse(tiny[v], zero, scale), df, out.scale + v * kL);
        hn::Store(hn::IfThenElseZero(tiny[v], hn::Set(df, 1.0f)), df, out.zero + v * kL);
    }
}

// Q3_K (16 sub-blocks of 16 per super-block, 2 super-blocks per batch).
void ProcessQ3(const Batch& b) {
    const DF df;
    const DI di;
    const DU8 du8;
    alignas(64) float xt[16 * kSub];
    alignas(64) float Lt[16 * kSub];
    Transpose(b, 16, 16, xt);
    Found f;
    SearchQ3(xt, Lt, f);

    for (std::size_t s = 0; s < b.count; ++s) {
        const float* HWY_RESTRICT x = b.src[s];
        std::uint8_t* HWY_RESTRICT dst = b.dst[s];
        std::uint8_t* y_scales = dst + 96;
        const float* scales = f.scale + 16 * s;
        float max_scale = 0, amax = 0;
        for (int j = 0; j < 16; ++j) {
            const float scale = std::fabs(scales[j]);
            if (scale > amax) {
                amax = scale;
                max_scale = scales[j];
            }
        }
        std::memset(y_scales, 0, 12);
        if (max_scale) {
            const float iscale = -32.f / max_scale;
            for (int j = 0; j < 16; ++j) {
                const auto l = static_cast<std::int8_t>(q::nearest_int(iscale * scales[j]));
                q::q3_K_put_scale(j, std::max<int>(-32, std::min<int>(31, l)) + 32, y_scales);
            }
            StoreFp16(dst + 108, 1 / iscale);
        } else {
            StoreFp16(dst + 108, 0.f);
        }
        const float d_all = load_fp16(dst + 108);
        alignas(64) std::uint8_t L[QK_K];
        for (int j = 0; j < 16; ++j) {
            const float d = d_all * static_cast<float>(q::q3_K_get_scale(j, y_scales));
            if (!d) {  // the search levels (+4, or 0 for an all-zero sub-block)
                const std::size_t k = 16 * s + j;
                for (int i = 0; i < 16; ++i)
                    L[16 * j + i] =
                        f.zero[k] != 0.0f ? 0 : static_cast<std::uint8_t>(static_cast<int>(Lt[i * kSub + k]) + 4);
                continue;
            }
            const VF vd = hn::Set(df, d);
            for (std::size_t i = 0; i < 16; i += kL) {
                const VI l = GgmlNearestInt(hn::Div(hn::LoadU(df, x + 16 * j + i), vd));
                const VI c = hn::Add(hn::Max(hn::Set(di, -4), hn::Min(hn::Set(di, 3), l)), hn::Set(di, 4));
                hn::StoreU(hn::DemoteTo(du8, c), du8, L + 16 * j + i);
            }
        }
        // The high bit of level j goes to bit j/32 of hmask[j%32] (branch-free: levels ≤ 7).
        std::uint8_t* HWY_RESTRICT hmask = dst;
        std::memset(hmask, 0, 32);
        for (int m = 0; m < 8; ++m) {
            for (int l = 0; l < 32; ++l) {
                const int j = 32 * m + l;
                hmask[l] = static_cast<std::uint8_t>(hmask[l] | ((L[j] >> 2) << m));
                L[j] = static_cast<std::uint8_t>(L[j] & 3);
            }
        }
        q::pack_2bit(L, dst + 32);
    }
}

void ProcessQ4(const Batch& b) { ProcessQ45<15>(b, -1.f, 0.1f, 20); }
void ProcessQ5(const Batch& b) { ProcessQ45<31>(b, -0.5f, 0.1f, 15); }

}  // namespace kq

void QuantQ2_K(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, kq::QK_K, 84, 16, scalar::quantize_q2_K, kq::ProcessQ2);
}
void QuantQ3_K(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, kq::QK_K, 110, 16, scalar::quantize_q3_K, kq::ProcessQ3);
}
void QuantQ4_K(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, kq::QK_K, 144, 8, scalar::quantize_q4_K, kq::ProcessQ4);
}
void QuantQ5_K(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, kq::QK_K, 176, 8, scalar::quantize_q5_K, kq::ProcessQ5);
}
void QuantQ6_K(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, kq::QK_K, 210, 16, scalar::quantize_q6_K, kq::ProcessQ6);
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::gguf::simd {

#define AMN_EXPORT(lower, upper)                                                       \
    HWY_EXPORT(Quant##upper);                                                          \
    void quantize_##lower(const float* src, std::uint8_t* dst, std::size_t n_blocks) { \
        HWY_DYNAMIC_DISPATCH(Quant##upper)(src, dst, n_blocks);                        \
    }
AMN_EXPORT(q2_K, Q2_K) AMN_EXPORT(q3_K, Q3_K) AMN_EXPORT(q4_K, Q4_K) AMN_EXPORT(q5_K, Q5_K) AMN_EXPORT(q6_K, Q6_K)
#undef AMN_EXPORT

}  // namespace amn::kernels::gguf::simd
#endif  // HWY_ONCE
