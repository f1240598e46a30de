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
    if (first % per == 0) {  // whole bytes from the start (every MatMulNBits block): no division per field
        const std::uint8_t* b = bytes + first / per;
        std::size_t i = 0;
        if (bits == 4) {
            for (; i + 2 <= n; i += 2, ++b) {
                q[i] = static_cast<std::uint8_t>(*b & 15u);
                q[i + 1] = static_cast<std::uint8_t>(*b >> 4);
            }
        } else {
            for (; i + 4 <= n; i += 4, ++b)
                for (unsigned j = 0; j < 4; ++j) q[i + j] = static_cast<std::uint8_t>((*b >> (2 * j)) & 3u);
        }
        for (unsigned j = 0; i < n; ++i, ++j) q[i] = static_cast<std::uint8_t>((*b >> (j * bits)) & mask);  // a last partial byte
        return;
    }
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
