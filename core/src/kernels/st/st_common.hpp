// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal helpers of the safetensors-family quantizers (st_quantize.hpp):
// argument checks, rounding to the weight dtype, small float utilities.

#include "anamnesis/dtype.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace amn::st::detail {

inline std::uint32_t bits_of(float x) noexcept {
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

inline float float_of(std::uint32_t u) noexcept {
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

/// Round an f32 result to the weight dtype (RNE), as torch stores the result
/// of one BF16/F16 operation; identity for F32.
/// f32 → BF16 (RNE, NaN kept quiet) → f32, inline: the same bits as
/// kernels::scalar::f32_from_bf16(kernels::scalar::bf16_from_f32(x)).
inline float round_bf16(float x) noexcept {
    const std::uint32_t u = bits_of(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return float_of(((u >> 16) | 0x0040u) << 16);
    return float_of(((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16) << 16);
}

inline float round_to(DType t, float x) noexcept {
    switch (t) {
    case DType::BF16: return round_bf16(x);
    case DType::F16: return kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(x));
    default: return x;
    }
}

/// Machine epsilon of a float dtype (torch.finfo(dtype).eps).
inline float dtype_eps(DType t) noexcept {
    switch (t) {
    case DType::BF16: return 0.0078125f;      // 2^-7
    case DType::F16: return 0.0009765625f;    // 2^-10
    default: return 1.1920928955078125e-07f;  // 2^-23
    }
}

/// Validate the common arguments; returns {R, C}.
/// \throws Error(Usage) / Error(Unsupported) as documented in st_quantize.hpp.
inline std::pair<std::size_t, std::size_t> check_weight(const char* what, std::span<const float> w,
                                                        const std::vector<std::uint64_t>& shape, DType wdtype) {
    const std::string who = std::string(what) + ": ";
    if (shape.size() != 2 || shape[0] == 0 || shape[1] == 0)
        throw Error(ErrorCode::Usage, who + "expects a non-empty 2-D weight [R, C]");
    if (shape[0] > (std::uint64_t{1} << 40) / shape[1] || shape[0] * shape[1] != w.size())
        throw Error(ErrorCode::Usage, who + "shape [" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) +
                                          "] does not match " + std::to_string(w.size()) + " values");
    if (wdtype != DType::F32 && wdtype != DType::BF16 && wdtype != DType::F16)
        throw Error(ErrorCode::Usage, who + "weight dtype " + dtype_name(wdtype) + " is not F32, BF16 or F16");
    const bool narrow = wdtype != DType::F32;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (!std::isfinite(w[i]))
            throw Error(ErrorCode::Unsupported, who + "non-finite value (" + std::string(std::isnan(w[i]) ? "NaN" : "inf") +
                                                    ") at flat index " + std::to_string(i));
        if (narrow && bits_of(round_to(wdtype, w[i])) != bits_of(w[i]))
            throw Error(ErrorCode::Usage, who + "value at flat index " + std::to_string(i) + " is not representable in " +
                                              dtype_name(wdtype));
    }
    return {std::size_t(shape[0]), std::size_t(shape[1])};
}

/// compressed-tensors FP8 scale of a tensor/row/tile with max |x| = amax:
/// rt(amax / 448) (a true division, then the weight dtype), 0 → eps.
inline float fp8_ct_scale(float amax, DType wdtype) noexcept {
    const float s = round_to(wdtype, amax / 448.0f);
    return s == 0.0f ? dtype_eps(wdtype) : s;
}

/// DeepGEMM scale factor of a 128×128 tile: max(amax, 1e-4) / 448 (f32),
/// with `ue8m0` rounded up to a power of two (exponent clamped to [1, 254]).
inline float deepseek_sf(float amax, bool ue8m0) noexcept {
    const float a = amax > 1e-4f ? amax : 1e-4f;  // .clamp(1e-4)
    float sf = a / 448.0f;
    if (ue8m0) {
        // ceil_to_ue8m0: exponent + (mantissa ≠ 0), clamped (sf > 0 here).
        const std::uint32_t b = bits_of(sf);
        std::uint32_t e = (b >> 23) & 0xFFu;
        if ((b & 0x7FFFFFu) != 0) ++e;
        e = e < 1u ? 1u : e > 254u ? 254u : e;
        sf = float_of(e << 23);
    }
    return sf;
}

/// compressed-tensors `calculate_qparams` of one group with observed
/// mn = min(min x, 0), mx = max(max x, 0): symmetric scale = rt(amax / 7.5 |
/// 127.5), zp 0; asymmetric scale = rt(rt(mx − mn) / 15 | 255), zp =
/// round_half_even(clamp(rt(qmin − rt(mn / scale)), qmin, qmax)) taken before
/// a zero scale becomes eps (NaN → 0).
inline void ct_int_qparams(float mn, float mx, unsigned bits, bool symmetric, DType wdtype, float& scale,
                           std::int8_t& zp) noexcept {
    const float qmin = -float(1u << (bits - 1));
    const float qmax = float((1u << (bits - 1)) - 1);
    const float range = qmax - qmin;
    zp = 0;
    if (symmetric) {
        const float amax = std::fmax(std::fabs(mn), std::fabs(mx));
        scale = round_to(wdtype, amax / (range / 2.0f));
    } else {
        scale = round_to(wdtype, round_to(wdtype, mx - mn) / range);
        float zf = round_to(wdtype, qmin - round_to(wdtype, mn / scale));
        if (!std::isnan(zf)) {
            zf = zf < qmin ? qmin : zf > qmax ? qmax : zf;
            zp = std::int8_t(std::nearbyint(zf));
        }
    }
    if (scale == 0.0f) scale = dtype_eps(wdtype);
}

/// Pack one sequence of `n` signed values q (|q| < 2^(bits−1)) as
/// compressed-tensors `pack_to_int32`: u = q + 2^(bits−1), field j at bits
/// (j·bits) % 32 of word j·bits/32 (bits ∈ {4, 8} divide 32), padding bits 0.
/// Element j is read at q[j * stride]; words go to out[k * out_stride].
template <unsigned Bits>
inline void pack_int32_bits(const std::int8_t* q, std::size_t n, std::size_t stride, std::int32_t* out,
                            std::size_t out_stride) {
    constexpr std::size_t per_word = 32 / Bits;
    constexpr int offset = 1 << (Bits - 1);
    const std::size_t full = n / per_word, words = (n * Bits + 31) / 32;
    for (std::size_t k = 0; k < full; ++k) {  // whole words: a fixed, branch-free inner loop
        std::uint32_t word = 0;
        for (std::size_t e = 0; e < per_word; ++e)
            word |= std::uint32_t(int(q[(k * per_word + e) * stride]) + offset) << (e * Bits);
        out[k * out_stride] = std::int32_t(word);
    }
    for (std::size_t k = full; k < words; ++k) {  // the last, partial word: padding bits 0
        std::uint32_t word = 0;
        for (std::size_t e = 0; k * per_word + e < n; ++e)
            word |= std::uint32_t(int(q[(k * per_word + e) * stride]) + offset) << (e * Bits);
        out[k * out_stride] = std::int32_t(word);
    }
}

inline void pack_int32(const std::int8_t* q, std::size_t n, std::size_t stride, unsigned bits, std::int32_t* out,
                       std::size_t out_stride) {
    if (bits == 4) pack_int32_bits<4>(q, n, stride, out, out_stride);
    else pack_int32_bits<8>(q, n, stride, out, out_stride);
}

}  // namespace amn::st::detail

namespace amn::st {

/// torch 1.13's CPU float32 `sum()` of a contiguous 1-D tensor (ATen
/// `cascade_sum` as AVX2 runs it: 8-lane vectors, 4 ILP accumulators, a
/// 4-level cascade with level_step 2^max(4, ⌈log2(n/32)⌉/4), then the scalar
/// tail, then the 8 lanes in order). `mean = sum / n` in f32 is
/// `Tensor.mean()`: bitsandbytes' double-quant offset (kernels/int/bnb4.cc).
float torch_cpu_sum_f32(std::span<const float> x) noexcept;

}  // namespace amn::st
