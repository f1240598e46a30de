// SPDX-License-Identifier: MIT OR Apache-2.0
// MLX dequantization kernels (mlx_kernels.hpp).
#include "mlx_kernels.hpp"

#include "anamnesis/kernels.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace amn::kernels::mlx {
namespace {


inline float round_f16(float x) noexcept { return amn::kernels::scalar::f32_from_f16(amn::kernels::scalar::f16_from_f32(x)); }

// E2M1 values of the 16 codes (sign bit 3): ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}.
constexpr std::array<float, 16> kE2m1{0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                      -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

}  // namespace

void unpack_codes(unsigned bits, const std::uint8_t* bytes, std::uint8_t* q, std::size_t n) {
    const std::uint32_t mask = (1u << bits) - 1u;
    switch (bits) {
        case 8: std::memcpy(q, bytes, n); return;
        case 4:
            for (std::size_t i = 0; i + 1 < n; i += 2) {
                q[i] = bytes[i / 2] & 15u;
                q[i + 1] = bytes[i / 2] >> 4;
            }
            if (n & 1) q[n - 1] = bytes[n / 2] & 15u;
            return;
        case 2:
            for (std::size_t i = 0; i < n; ++i) q[i] = (bytes[i / 4] >> (2 * (i % 4))) & 3u;
            return;
        default: break;
    }
    // 3, 5, 6 (and 1, 7) bits: a 16-bit window at the code's first byte; the
    // second byte exists whenever the code crosses into it.
    const std::size_t nbytes = (n * bits + 7) / 8;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t bit = i * bits, b = bit / 8;
        std::uint32_t v = bytes[b];
        if (b + 1 < nbytes) v |= std::uint32_t(bytes[b + 1]) << 8;
        q[i] = static_cast<std::uint8_t>((v >> (bit % 8)) & mask);
    }
}

void scalar::affine_group(DType dtype, const std::uint8_t* q, float scale, float bias, float* y, std::size_t n) {
    switch (dtype) {
        case DType::BF16:
            for (std::size_t i = 0; i < n; ++i) y[i] = round_bf16(round_bf16(static_cast<float>(q[i]) * scale) + bias);
            return;
        case DType::F16:
            for (std::size_t i = 0; i < n; ++i) y[i] = round_f16(round_f16(static_cast<float>(q[i]) * scale) + bias);
            return;
        default:
            for (std::size_t i = 0; i < n; ++i) {
                const float t = static_cast<float>(q[i]) * scale;
                y[i] = t + bias;
            }
            return;
    }
}

float e8m0_scale(std::uint8_t e) noexcept {
    if (e == 255) return std::numeric_limits<float>::infinity();
    return round_bf16(std::ldexp(1.0f, static_cast<int>(e) - 127));
}

float e4m3_value(std::uint8_t x) noexcept {
    const float m = amn::kernels::scalar::f32_from_f16(static_cast<std::uint16_t>((x & 127u) << 7)) * 256.0f;
    return (x & 128u) ? -m : m;
}

void e2m1_group(const std::uint8_t* bytes, float scale, float* y, std::size_t n) {
    for (std::size_t i = 0; i + 1 < n; i += 2) {
        const std::uint8_t b = bytes[i / 2];
        y[i] = round_bf16(kE2m1[b & 15u] * scale);
        y[i + 1] = round_bf16(kE2m1[b >> 4] * scale);
    }
}

void e4m3_group(const std::uint8_t* bytes, float scale, float* y, std::size_t n) {
    static const std::array<float, 256> value = [] {
        std::array<float, 256> t{};
        for (unsigned c = 0; c < 256; ++c) t[c] = e4m3_value(static_cast<std::uint8_t>(c));
        return t;
    }();
    for (std::size_t i = 0; i < n; ++i) y[i] = round_bf16(value[bytes[i]] * scale);
}

}  // namespace amn::kernels::mlx
