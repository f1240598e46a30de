// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD encoders for IQ4_NL and IQ4_XS, compiled once per target and
// chosen at run time; byte-identical to the scalar references in
// quantize_iquants.cc (= ggml's quantize_row_iq4_nl_impl with ntry = 7).
//
// The scale search of each 32-element block (16 candidate scales, each a
// pass of codebook rounding and two f32 sums) runs with one block per lane:
// 32 blocks are transposed (quantize_simd-inl.h) and every lane repeats the
// scalar search of its block, same operations in the same order, the
// comparisons turned into per-lane selects. ggml's best_index_int8 (nearest
// codebook entry, ties to the upper one, distances compared in f32) becomes
// a scan of the 15 sorted thresholds keeping the entries just below and
// above x, then the same f32 distance comparison. The final mapping of the
// values with the chosen (IQ4_XS: quantized) scale is vectorized in natural
// order. Blocks holding inf or NaN go to the scalar reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gguf/quantize_simd_iquants.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "gguf_quantize.hpp"
#include "iq_tables.hpp"
#include "quantize_common.hpp"
#include "gguf/quantize_simd-inl.h"

#include <algorithm>
#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace kq {

using DU8 = hn::Rebind<std::uint8_t, DF>;
using q::kGroupMaxEps;
constexpr int kNtry = 7;

// The entries of the sorted codebook just below and above x: lo = val[c],
// hi = val[c + 1] where c = #{k ≥ 1 : val[k] ≤ x} (best_index_int8's ml and
// mu in the interior); ge15 marks x ≥ val[15].
struct Bracket {
    VF lo, hi;
    hn::Mask<DF> ge15;
};
HWY_INLINE Bracket Bracket16(VF x, VI* count) {
    const DF df;
    const DI di;
    const std::int8_t* val = tables::kvalues_iq4nl;
    VF lo = hn::Set(df, static_cast<float>(val[0]));
    VF hi = hn::Set(df, static_cast<float>(val[1]));
    VI idx = hn::Zero(di);
    auto ge = hn::Le(hn::Set(df, static_cast<float>(val[1])), x);
    for (int k = 1; k < 16; ++k) {
        ge = hn::Le(hn::Set(df, static_cast<float>(val[k])), x);
        lo = hn::IfThenElse(ge, hn::Set(df, static_cast<float>(val[k])), lo);
        if (k < 15) hi = hn::IfThenElse(ge, hn::Set(df, static_cast<float>(val[k + 1])), hi);
        if (count) idx = hn::Sub(idx, hn::VecFromMask(di, hn::RebindMask(di, ge)));
    }
    if (count) *count = idx;
    return {lo, hi, ge};
}

// The codebook value best_index_int8 picks for x (finite): the lower entry
// when x − val[ml] < val[mu] − x in f32, else the upper; val[0] at or below
// val[0], val[15] at or above val[15].
HWY_INLINE VF NearestValue(VF x) {
    const Bracket b = Bracket16(x, nullptr);
    const auto low = hn::Or(hn::Lt(hn::Sub(x, b.lo), hn::Sub(b.hi, x)), b.ge15);
    return hn::IfThenElse(low, b.lo, b.hi);
}

// best_index_int8 itself, as int32 lanes; also for ±inf and NaN (15, as the
// scalar binary search ends there).
HWY_INLINE VI NearestIndex(VF x) {
    const DI di;
    VI idx;
    const Bracket b = Bracket16(x, &idx);
    const auto low = hn::Or(hn::Lt(hn::Sub(x, b.lo), hn::Sub(b.hi, x)), b.ge15);
    idx = hn::Sub(idx, hn::VecFromMask(di, hn::RebindMask(di, hn::Not(low))));
    return hn::IfThenElse(hn::RebindMask(di, hn::IsNaN(x)), hn::Set(di, 15), idx);
}

// iq4_block_scale for the kSub 32-element blocks of xt, one per lane.
void SearchIq4(const float* HWY_RESTRICT xt, float* HWY_RESTRICT scale_out) {
    const DF df;
    const VF zero = hn::Zero(df);
    const float v0 = static_cast<float>(tables::kvalues_iq4nl[0]);
    alignas(64) float wbuf[32 * kL];
    for (std::size_t v = 0; v < kNV; ++v) {
        const float* HWY_RESTRICT x = xt + v * kL;
        VF amax = zero, max = zero;
        for (int j = 0; j < 32; ++j) {
            const VF xj = hn::Load(df, x + j * kSub);
            hn::Store(hn::Mul(xj, xj), df, wbuf + j * kL);
            const VF ax = hn::Abs(xj);
            const auto gt = hn::Gt(ax, amax);
            amax = hn::IfThenElse(gt, ax, amax);
            max = hn::IfThenElse(gt, xj, max);
        }
        const auto tiny = hn::Lt(amax, hn::Set(df, kGroupMaxEps));
        max = hn::IfThenElse(tiny, hn::Set(df, 1.0f), max);
        VF d = hn::Div(hn::Neg(max), hn::Set(df, v0));
        VF id = hn::Div(hn::Set(df, 1.0f), d);
        VF sumqx = zero, sumq2 = zero;
        for (int j = 0; j < 32; ++j) {
            const VF xj = hn::Load(df, x + j * kSub);
            const VF q = NearestValue(hn::Mul(id, xj));
            const VF wq = hn::Mul(hn::Load(df, wbuf + j * kL), q);
            sumqx = hn::Add(sumqx, hn::Mul(wq, xj));
            sumq2 = hn::Add(sumq2, hn::Mul(wq, q));
        }
        d = hn::Div(sumqx, sumq2);
        VF best = hn::Mul(d, sumqx);
        for (int itry = -kNtry; itry <= kNtry; ++itry) {
            id = hn::Div(hn::Set(df, static_cast<float>(itry + tables::kvalues_iq4nl[0])), max);
            sumqx = sumq2 = zero;
            for (int j = 0; j < 32; ++j) {
                const VF xj = hn::Load(df, x + j * kSub);
                const VF q = NearestValue(hn::Mul(id, xj));
                const VF wq = hn::Mul(hn::Load(df, wbuf + j * kL), q);
                sumqx = hn::Add(sumqx, hn::Mul(wq, xj));
                sumq2 = hn::Add(sumq2, hn::Mul(wq, q));
            }
            const auto better = hn::And(hn::Gt(sumq2, zero), hn::Gt(hn::Mul(sumqx, sumqx), hn::Mul(best, sumq2)));
            const VF nd = hn::Div(sumqx, sumq2);
            d = hn::IfThenElse(better, nd, d);
            best = hn::IfThenElse(better, hn::Mul(nd, sumqx), best);
        }
        hn::Store(hn::IfThenElse(tiny, zero, d), df, scale_out + v * kL);
    }
}

// The 32 values at x mapped with inverse scale id, packed as 16 bytes
// (byte j: element j in the low nibble, j + 16 in the high one).
HWY_INLINE void MapPack32(const float* HWY_RESTRICT x, float id, std::uint8_t* HWY_RESTRICT q4) {
    const DF df;
    const DU8 du8;
    const VF vid = hn::Set(df, id);
    for (std::size_t j = 0; j < 16; j += kL) {
        const VI lo = NearestIndex(hn::Mul(vid, hn::LoadU(df, x + j)));
        const VI hi = NearestIndex(hn::Mul(vid, hn::LoadU(df, x + 16 + j)));
        hn::StoreU(hn::DemoteTo(du8, hn::Or(lo, hn::ShiftLeft<4>(hi))), du8, q4 + j);
    }
}

// IQ4_NL: 32 blocks of 32 per batch.
void ProcessNl(const Batch& b) {
    alignas(64) float xt[32 * kSub];
    alignas(64) float scales[kSub];
    Transpose(b, 1, 32, xt);
    SearchIq4(xt, scales);
    for (std::size_t s = 0; s < b.count; ++s) {
        StoreFp16(b.dst[s], scales[s]);
        const float id = scales[s] ? 1 / scales[s] : 0;
        MapPack32(b.src[s], id, b.dst[s] + 2);
    }
}

// IQ4_XS: 4 super-blocks of 8 × 32 per batch.
void ProcessXs(const Batch& b) {
    alignas(64) float xt[32 * kSub];
    alignas(64) float scales_all[kSub];
    Transpose(b, 8, 32, xt);
    SearchIq4(xt, scales_all);
    for (std::size_t s = 0; s < b.count; ++s) {
        const float* HWY_RESTRICT src = b.src[s];
        std::uint8_t* HWY_RESTRICT dst = b.dst[s];
        const float* scales = scales_all + 8 * s;
        float amax_scale;
        const float max_scale = q::signed_absmax(8, scales, &amax_scale);
        const float d = -max_scale / 32;
        StoreFp16(dst, d);
        const float id = d ? 1 / d : 0.f;
        std::uint16_t scales_h = 0;
        std::uint8_t* scales_l = dst + 4;
        for (int ib = 0; ib < 8; ++ib) {
            int l = std::max(-32, std::min(31, q::nearest_int(id * scales[ib])));
            const float dl = d * static_cast<float>(l);
            const float idl = dl ? 1 / dl : 0.f;
            MapPack32(src + 32 * ib, idl, dst + 8 + 16 * ib);
            l += 32;
            const auto l_l = static_cast<std::uint8_t>(l & 0xF);
            const auto l_h = static_cast<std::uint16_t>(l >> 4);
            if (ib % 2 == 0)
                scales_l[ib / 2] = l_l;
            else
                scales_l[ib / 2] = static_cast<std::uint8_t>(scales_l[ib / 2] | (l_l << 4));
            scales_h = static_cast<std::uint16_t>(scales_h | (l_h << (2 * ib)));
        }
        std::memcpy(dst + 2, &scales_h, 2);
    }
}

}  // namespace kq

void QuantIQ4_NL(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, 32, 18, 1, scalar::quantize_iq4_nl, kq::ProcessNl);
}
void QuantIQ4_XS(const float* src, std::uint8_t* dst, std::size_t nb) {
    kq::Drive(src, dst, nb, 256, 136, 8, scalar::quantize_iq4_xs, kq::ProcessXs);
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
AMN_EXPORT(iq4_nl, IQ4_NL) AMN_EXPORT(iq4_xs, IQ4_XS)
#undef AMN_EXPORT

}  // namespace amn::kernels::gguf::simd
#endif  // HWY_ONCE
