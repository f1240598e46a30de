// SPDX-License-Identifier: MIT OR Apache-2.0
// Per-target helpers shared by the Highway encoders: the block absmax with
// its finiteness (also quantize_simd_fp4.cc, quantize_simd_ternary.cc) and,
// for the encoders that search scales lane-per-sub-block
// (quantize_simd_kquants.cc, quantize_simd_iquants.cc), batching of blocks,
// the transpose to one sub-block per lane, ggml's nearest_int. Included once per target (no include guard of the usual kind).
#if defined(AMN_GGUF_QUANTIZE_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef AMN_GGUF_QUANTIZE_SIMD_INL_H_
#undef AMN_GGUF_QUANTIZE_SIMD_INL_H_
#else
#define AMN_GGUF_QUANTIZE_SIMD_INL_H_
#endif

#include <hwy/highway.h>

#include "gguf_quantize.hpp"
#include "quantize_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::gguf {
namespace HWY_NAMESPACE {
namespace kq {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, 16>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

constexpr std::size_t kL = hn::MaxLanes(DF());
constexpr std::size_t kSub = 32;        // sub-blocks searched together, one per lane
constexpr std::size_t kNV = kSub / kL;  // vectors per element position
static_assert(kSub % kL == 0, "lanes must divide the batch");

HWY_INLINE void StoreFp16(std::uint8_t* p, float f) {
    const std::uint16_t h = q::f32_to_fp16(f);
    std::memcpy(p, &h, 2);
}

// max |x[j]| over n elements (a multiple of the lane count); false when one is inf or NaN.
HWY_INLINE bool AbsMax(const float* HWY_RESTRICT x, std::size_t n, float& amax) {
    const DF df;
    const VF inf = hn::Set(df, HUGE_VALF);
    VF m = hn::Zero(df);
    auto finite = hn::Lt(m, inf);
    for (std::size_t j = 0; j < n; j += hn::Lanes(df)) {
        const VF a = hn::Abs(hn::LoadU(df, x + j));
        finite = hn::And(finite, hn::Lt(a, inf));
        m = hn::Max(m, a);
    }
    amax = hn::GetLane(hn::MaxOfLanes(df, m));
    return hn::AllTrue(df, finite);
}

HWY_INLINE bool AllFinite(const float* HWY_RESTRICT x, std::size_t n) {
    const DF df;
    const VF inf = hn::Set(df, HUGE_VALF);
    auto ok = hn::Lt(hn::Zero(df), inf);
    for (std::size_t j = 0; j < n; j += kL) ok = hn::And(ok, hn::Lt(hn::Abs(hn::LoadU(df, x + j)), inf));
    return hn::AllTrue(df, ok);
}

// ggml nearest_int, lane-wise and exact for every input: the low mantissa
// bits of v + 1.5·2^23.
HWY_INLINE VI GgmlNearestInt(VF v) {
    const DF df;
    const DI di;
    const VI bits = hn::BitCast(di, hn::Add(v, hn::Set(df, 12582912.0f)));
    return hn::Sub(hn::And(bits, hn::Set(di, 0x007FFFFF)), hn::Set(di, 0x00400000));
}

// A batch of up to kSub / spb blocks (spb sub-blocks of n elements each),
// their sources and destinations; Transpose pads by repeating the last one.
struct Batch {
    const float* src[kSub];
    std::uint8_t* dst[kSub];
    std::size_t count = 0;
};

// xt[i·kSub + k] = element i of sub-block k (sub-block k is sub-block k % spb
// of super-block k / spb).
HWY_INLINE void Transpose(const Batch& b, std::size_t spb, std::size_t n, float* HWY_RESTRICT xt) {
    for (std::size_t k = 0; k < kSub; ++k) {
        const std::size_t s = std::min(k / spb, b.count - 1);
        const float* HWY_RESTRICT x = b.src[s] + (k % spb) * n;
        for (std::size_t i = 0; i < n; ++i) xt[i * kSub + k] = x[i];
    }
}

// Batches the finite blocks (spb sub-blocks each) and hands them to
// `process`; blocks holding inf or NaN go to the scalar reference one by one.
HWY_INLINE void Drive(const float* src, std::uint8_t* dst, std::size_t nb, std::size_t block_elems,
                      std::size_t block_bytes, std::size_t spb, Encoder fallback, void (*process)(const Batch&)) {
    Batch b;
    const std::size_t per_batch = kSub / spb;
    for (std::size_t i = 0; i < nb; ++i, src += block_elems, dst += block_bytes) {
        if (!AllFinite(src, block_elems)) {
            fallback(src, dst, 1);
            continue;
        }
        b.src[b.count] = src;
        b.dst[b.count] = dst;
        if (++b.count == per_batch) {
            process(b);
            b.count = 0;
        }
    }
    if (b.count) process(b);
}

}  // namespace kq
}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::gguf
HWY_AFTER_NAMESPACE();

#endif  // AMN_GGUF_QUANTIZE_SIMD_INL_H_
