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
        case DType::F16: return scalar::f32_from_f16(scalar::f16_from_f32(x));
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
    return static_cast<std::uint8_t>(q);
}

}  // namespace amn::kernels::mlx
