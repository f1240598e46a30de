// SPDX-License-Identifier: MIT OR Apache-2.0
// FP8 E4M3FN quantizers of st_quantize.hpp: compressed-tensors
// `float-quantized` (per tensor, per channel, 128×128 blocks) and
// DeepSeek/DeepGEMM 128×128 block FP8 with an F32 `weight_scale_inv`.
// On the row-chunk kernels (st_kernels.hpp); the order of operations is the libraries' (see the
// pitfalls in shared/fixtures/quantize-ref-st/README.md).
#include "anamnesis/st_quantize.hpp"

#include "anamnesis/error.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace amn::st {

using detail::bits_of;
using detail::float_of;
using detail::round_to;

std::uint8_t e4m3fn_from_f32(float x) noexcept {
    const std::uint32_t u = bits_of(x);
    const std::uint8_t sign = std::uint8_t((u >> 24) & 0x80u);
    const std::uint32_t a = u & 0x7FFFFFFFu;  // |x| bits
    // |x| > 464 (the midpoint between 448 and the NaN pattern's 480), inf, NaN.
    if (a > 0x43E80000u) return std::uint8_t(sign | 0x7Fu);
    if (a < 0x3C800000u) {
        // Below 2^-6, the smallest normal: multiples of 2^-9, rounded to
        // nearest even. |x|·2^9 is exact; nearbyint rounds ties to even in
        // the default rounding mode. 8 (= 2^-6) is code 0x08, the first normal.
        const float m = std::nearbyint(float_of(a) * 512.0f);
        return std::uint8_t(sign | std::uint8_t(m));
    }
    // Normal: rebias the exponent 127 → 7 and round the 23-bit mantissa to 3
    // bits, ties to even; a carry moves into the exponent as it should.
    const std::uint32_t lsb = (a >> 20) & 1u;
    const std::uint32_t r = (a - (120u << 23) + 0x7FFFFu + lsb) >> 20;
    return std::uint8_t(sign | std::uint8_t(r));  // r ≤ 0x7E since |x| ≤ 464
}

std::vector<std::uint8_t> encode_floats(std::span<const float> v, DType dtype) {
    std::vector<std::uint8_t> out;
    if (dtype == DType::F32) {
        out.resize(v.size() * 4);
        if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
        return out;
    }
    if (dtype != DType::BF16 && dtype != DType::F16)
        throw Error(ErrorCode::Usage, "encode_floats: dtype " + dtype_name(dtype) + " is not F32, BF16 or F16");
    out.resize(v.size() * 2);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::uint16_t h = dtype == DType::BF16 ? kernels::scalar::bf16_from_f32(v[i])
                                                     : kernels::scalar::f16_from_f32(v[i]);
        out[2 * i] = std::uint8_t(h & 0xFF);
        out[2 * i + 1] = std::uint8_t(h >> 8);
    }
    return out;
}

namespace {

struct Tiling {
    std::size_t br, bc;    // tile height, width
    std::size_t nbr, nbc;  // tiles down, across
    std::size_t index(std::size_t r, std::size_t c) const noexcept { return (r / br) * nbc + c / bc; }
};

Tiling tiling_for(Fp8Granularity g, std::size_t R, std::size_t C) {
    Tiling t{};
    switch (g) {
    case Fp8Granularity::Tensor: t.br = R, t.bc = C; break;
    case Fp8Granularity::Channel: t.br = 1, t.bc = C; break;
    case Fp8Granularity::Block: t.br = 128, t.bc = 128; break;
    default: throw Error(ErrorCode::Usage, "compressed-tensors FP8 quantization is per tensor, channel or 128x128 block");
    }
    t.nbr = (R + t.br - 1) / t.br;
    t.nbc = (C + t.bc - 1) / t.bc;
    return t;
}

}  // namespace

namespace {

/// max |x| per tile of the tiling (a zero-padded tile's padding changes nothing).
std::vector<float> tile_absmax(const kernels::st::StKernels& k, std::span<const float> w, std::size_t R, std::size_t C,
                               const Tiling& t) {
    std::vector<float> amax(t.nbr * t.nbc, 0.0f);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const std::size_t i = t.index(r, c0), c1 = std::min(C, c0 + t.bc);
            amax[i] = std::max(amax[i], k.absmax(w.data() + r * C + c0, c1 - c0));
        }
    return amax;
}

}  // namespace

Fp8Result quantize_fp8_ct(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                          Fp8Granularity granularity) {
    const auto [R, C] = detail::check_weight("compressed-tensors FP8", w, shape, wdtype);
    const Tiling t = tiling_for(granularity, R, C);
    const auto& k = kernels::st::st_kernels();

    // memoryless_minmax in the weight dtype (exact), then calculate_qparams'
    // min(min, 0) / max(max, 0): amax = max(|min|, |max|) = max |x|.
    Fp8Result res;
    res.scale_dtype = wdtype;
    res.scale = tile_absmax(k, w, R, C, t);
    switch (granularity) {
    case Fp8Granularity::Tensor: res.scale_shape = {1}; break;
    case Fp8Granularity::Channel: res.scale_shape = {R, 1}; break;
    default: res.scale_shape = {t.nbr, t.nbc}; break;  // Block (tiling_for refused the others)
    }
    for (float& s : res.scale) s = detail::fp8_ct_scale(s, wdtype);

    // _quantize: x / scale, + zero point (0, passed even when symmetric:
    // −0.0 becomes +0.0), clamp to ±448, then the E4M3FN cast. Each step is
    // rounded to the weight dtype.
    res.q.resize(R * C);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const std::size_t c1 = std::min(C, c0 + t.bc);
            k.fp8_encode(w.data() + r * C + c0, c1 - c0, res.scale[t.index(r, c0)], false, wdtype,
                         res.q.data() + r * C + c0, nullptr);
        }
    return res;
}

Fp8Result quantize_fp8_deepseek(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                                bool ue8m0) {
    const auto [R, C] = detail::check_weight("DeepSeek block FP8", w, shape, wdtype);
    const Tiling t = tiling_for(Fp8Granularity::Block, R, C);
    const auto& k = kernels::st::st_kernels();

    // amax per zero-padded 128×128 tile, as f32 (a BF16/F16 weight widens exactly).
    Fp8Result res;
    res.scale_dtype = DType::F32;
    res.scale_shape = {t.nbr, t.nbc};
    res.scale = tile_absmax(k, w, R, C, t);
    for (float& s : res.scale) s = detail::deepseek_sf(s, ue8m0);

    // x · (1/sf) in f32 (no clamp; |result| < 464, never NaN), then E4M3FN.
    res.q.resize(R * C);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const std::size_t c1 = std::min(C, c0 + t.bc);
            k.fp8_encode(w.data() + r * C + c0, c1 - c0, res.scale[t.index(r, c0)], true, wdtype,
                         res.q.data() + r * C + c0, nullptr);
        }
    return res;
}

}  // namespace amn::st
