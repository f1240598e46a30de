// SPDX-License-Identifier: MIT OR Apache-2.0
// FP8 E4M3FN quantizers of st_quantize.hpp: compressed-tensors
// `float-quantized` (per tensor, per channel, 128×128 blocks) and
// DeepSeek/DeepGEMM 128×128 block FP8 with an F32 `weight_scale_inv`.
// Scalar reference; the order of operations is the libraries' (see the
// pitfalls in shared/fixtures/quantize-ref-st/README.md).
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"

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
    }
    t.nbr = (R + t.br - 1) / t.br;
    t.nbc = (C + t.bc - 1) / t.bc;
    return t;
}

}  // namespace

Fp8Result quantize_fp8_ct(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                          Fp8Granularity granularity) {
    const auto [R, C] = detail::check_weight("compressed-tensors FP8", w, shape, wdtype);
    const Tiling t = tiling_for(granularity, R, C);
    const std::size_t ns = t.nbr * t.nbc;

    // memoryless_minmax in the weight dtype (exact), then calculate_qparams'
    // min(min, 0) / max(max, 0): starting from 0 gives the same values (a
    // zero-padded block tile adds only zeros, so it changes nothing either).
    std::vector<float> mn(ns, 0.0f), mx(ns, 0.0f);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const std::size_t i = t.index(r, c0), c1 = std::min(C, c0 + t.bc);
            float lo = mn[i], hi = mx[i];
            for (std::size_t c = c0; c < c1; ++c) {
                const float x = w[r * C + c];
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
            mn[i] = lo, mx[i] = hi;
        }

    Fp8Result res;
    res.scale_dtype = wdtype;
    res.scale.resize(ns);
    switch (granularity) {
    case Fp8Granularity::Tensor: res.scale_shape = {1}; break;
    case Fp8Granularity::Channel: res.scale_shape = {R, 1}; break;
    case Fp8Granularity::Block: res.scale_shape = {t.nbr, t.nbc}; break;
    }
    const float eps = detail::dtype_eps(wdtype);
    for (std::size_t i = 0; i < ns; ++i) {
        // Symmetric: amax / ((448 − (−448)) / 2), a true division in the weight dtype.
        const float amax = std::max(std::fabs(mn[i]), std::fabs(mx[i]));
        float s = round_to(wdtype, amax / 448.0f);
        if (s == 0.0f) s = eps;
        res.scale[i] = s;
    }

    // _quantize: x / scale, + zero point (0, passed even when symmetric:
    // −0.0 becomes +0.0), clamp to ±448, then the E4M3FN cast. Each step is
    // rounded to the weight dtype.
    res.q.resize(R * C);
    for (std::size_t r = 0; r < R; ++r) {
        const float* srow = res.scale.data() + (r / t.br) * t.nbc;
        const float* x = w.data() + r * C;
        std::uint8_t* q = res.q.data() + r * C;
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const float s = srow[c0 / t.bc];
            const std::size_t c1 = std::min(C, c0 + t.bc);
            for (std::size_t c = c0; c < c1; ++c) {
                float v = round_to(wdtype, x[c] / s);
                v = round_to(wdtype, v + 0.0f);
                v = std::clamp(v, -448.0f, 448.0f);
                q[c] = e4m3fn_from_f32(v);
            }
        }
    }
    return res;
}

Fp8Result quantize_fp8_deepseek(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                                bool ue8m0) {
    const auto [R, C] = detail::check_weight("DeepSeek block FP8", w, shape, wdtype);
    const Tiling t = tiling_for(Fp8Granularity::Block, R, C);
    const std::size_t ns = t.nbr * t.nbc;

    // amax per zero-padded 128×128 tile, as f32 (a BF16/F16 weight widens exactly).
    std::vector<float> amax(ns, 0.0f);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const std::size_t i = t.index(r, c0), c1 = std::min(C, c0 + t.bc);
            float a = amax[i];
            for (std::size_t c = c0; c < c1; ++c) a = std::max(a, std::fabs(w[r * C + c]));
            amax[i] = a;
        }

    Fp8Result res;
    res.scale_dtype = DType::F32;
    res.scale_shape = {t.nbr, t.nbc};
    res.scale.resize(ns);
    std::vector<float> inv(ns);
    for (std::size_t i = 0; i < ns; ++i) {
        const float a = std::max(amax[i], 1e-4f);  // .clamp(1e-4)
        float sf = a / 448.0f;
        if (ue8m0) {
            // ceil_to_ue8m0: 2^ceil(log2 sf) from the bits: exponent + (mantissa ≠ 0),
            // clamped to [1, 254] (sf > 0 here).
            const std::uint32_t b = bits_of(sf);
            std::uint32_t e = (b >> 23) & 0xFFu;
            if ((b & 0x7FFFFFu) != 0) ++e;
            e = std::clamp<std::uint32_t>(e, 1u, 254u);
            sf = float_of(e << 23);
        }
        res.scale[i] = sf;
        inv[i] = 1.0f / sf;
    }

    // x · (1/sf) in f32 (no clamp; |result| < 464, never NaN), then E4M3FN.
    res.q.resize(R * C);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c0 = 0; c0 < C; c0 += t.bc) {
            const float s = inv[t.index(r, c0)];
            const std::size_t c1 = std::min(C, c0 + t.bc);
            for (std::size_t c = c0; c < c1; ++c) res.q[r * C + c] = e4m3fn_from_f32(w[r * C + c] * s);
        }
    return res;
}

}  // namespace amn::st
