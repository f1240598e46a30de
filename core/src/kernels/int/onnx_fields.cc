// SPDX-License-Identifier: MIT OR Apache-2.0
// ONNX quantized-weight kernels (onnx_fields.hpp). Compiled with
// -ffp-contract=off like every kernel: the float zero point's sum is not fused.
#include "kernels/int/onnx_fields.hpp"

namespace amn::kernels::onnx {

void unpack_fields(const std::uint8_t* bytes, std::uint64_t first, unsigned bits, std::uint8_t* q, std::size_t n) noexcept {
    if (bits == 8) {
        for (std::size_t i = 0; i < n; ++i) q[i] = bytes[first + i];
        return;
    }
    const unsigned per = 8 / bits;
    const unsigned mask = (1u << bits) - 1u;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t f = first + i;
        q[i] = static_cast<std::uint8_t>((bytes[f / per] >> ((f % per) * bits)) & mask);
    }
}

void affine_float_zero(const std::uint8_t* q, float scale, float zero, float* y, std::size_t n) noexcept {
    const float adjust = -scale * zero;
    for (std::size_t i = 0; i < n; ++i) {
        const float p = static_cast<float>(q[i]) * scale;
        y[i] = p + adjust;
    }
}

void scale_diffs(const std::int64_t* d, float scale, float* y, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(d[i]) * scale;
}

}  // namespace amn::kernels::onnx
