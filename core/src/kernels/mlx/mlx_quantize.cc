// SPDX-License-Identifier: MIT OR Apache-2.0
// MLX's affine quantizer, one group at a time (mlx_kernels.hpp).
#include "mlx_kernels.hpp"

#include "anamnesis/kernels.hpp"

#include <algorithm>
#include <cmath>

namespace amn::kernels::mlx {
namespace {

float round_to(DType dtype, float x) noexcept {
    switch (dtype) {
        case DType::BF16: return round_bf16(x);
        case DType::F16: return amn::kernels::scalar::f32_from_f16(amn::kernels::scalar::f16_from_f32(x));
        default: return x;
    }
}

}  // namespace

AffineGroup affine_group_params(float w_min, float w_max, unsigned bits, DType dtype) noexcept {
    const float n_bins = static_cast<float>((1u << bits) - 1u);
    const bool mask = std::abs(w_min) > std::abs(w_max);
    float scale = std::max((w_max - w_min) / n_bins, 1e-7f);
    if (!mask) scale = -scale;
    const float edge = mask ? w_min : w_max;
    const float q0 = std::nearbyint(edge / scale);
    float bias = 0.0f;
    if (q0 != 0.0f) {
        scale = edge / q0;
        bias = edge;
    }
    return {scale, bias, round_to(dtype, scale), round_to(dtype, bias)};
}

std::uint8_t affine_code(float w, const AffineGroup& g, unsigned bits) noexcept {
    const float n_bins = static_cast<float>((1u << bits) - 1u);
    const float q = std::clamp(std::nearbyint((w - g.bias) / g.scale), 0.0f, n_bins);
    // inf/inf (a group spanning more than FLT_MAX): code 0, as x86 converts MLX's NaN.
    return std::isnan(q) ? std::uint8_t{0} : static_cast<std::uint8_t>(q);
}

}  // namespace amn::kernels::mlx

namespace amn::kernels::mlx {

void pack_codes(unsigned bits, const std::uint8_t* q, std::uint8_t* bytes, std::size_t n) {
    const std::size_t nbytes = (n * bits + 7) / 8;
    std::fill(bytes, bytes + nbytes, std::uint8_t{0});
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t bit = i * bits, b = bit / 8;
        const std::uint32_t v = std::uint32_t(q[i]) << (bit % 8);
        bytes[b] = static_cast<std::uint8_t>(bytes[b] | (v & 0xFFu));
        if ((v >> 8) != 0) bytes[b + 1] = static_cast<std::uint8_t>(bytes[b + 1] | (v >> 8));
    }
}

void affine_quantize_row(unsigned bits, std::size_t group, DType dtype, const float* x, std::size_t n, std::uint8_t* q,
                         std::uint8_t* packed, float* scales, float* biases, float* y) {
    for (std::size_t g = 0; g * group < n; ++g) {
        const float* xg = x + g * group;
        float lo = xg[0], hi = xg[0];
        for (std::size_t i = 1; i < group; ++i) {
            lo = std::min(lo, xg[i]);
            hi = std::max(hi, xg[i]);
        }
        const AffineGroup a = affine_group_params(lo, hi, bits, dtype);
        for (std::size_t i = 0; i < group; ++i) q[g * group + i] = affine_code(xg[i], a, bits);
        scales[g] = a.stored_scale;
        biases[g] = a.stored_bias;
        if (y) affine_group(dtype, q + g * group, a.stored_scale, a.stored_bias, y + g * group, group);
    }
    pack_codes(bits, q, packed, n);
}

}  // namespace amn::kernels::mlx
