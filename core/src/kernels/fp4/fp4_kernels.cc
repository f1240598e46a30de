// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar FP4 (E2M1 / E8M0) kernels and dtype rounding; see fp4_kernels.hpp.
#include "fp4_kernels.hpp"

#include "anamnesis/kernels.hpp"

#include <cmath>

namespace amn::kernels::fp4 {
namespace {

// The OCP MX E2M1 magnitudes (a value table, not code).
constexpr float kMagnitude[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

struct Tables {
    float neg[16];   // code 8 → −0.0
    float pos[16];   // code 8 → +0.0
    float e8m0[256];
    Tables() {
        for (int c = 0; c < 16; ++c) {
            const float m = kMagnitude[c & 7];
            neg[c] = (c & 8) ? -m : m;
            pos[c] = (c & 8) && m != 0.0f ? -m : m;
        }
        for (int e = 0; e < 256; ++e) e8m0[e] = std::ldexp(1.0f, e - 127);
    }
};
const Tables& tables() {
    static const Tables t;
    return t;
}

}  // namespace

float e2m1_value(std::uint8_t code, bool negative_zero) noexcept {
    const auto& t = tables();
    return negative_zero ? t.neg[code & 15] : t.pos[code & 15];
}

void e2m1_scale(const std::uint8_t* packed, bool negative_zero, float scale, float* y, std::size_t nbytes) noexcept {
    const auto& t = tables();
    const float* lut = negative_zero ? t.neg : t.pos;
    for (std::size_t j = 0; j < nbytes; ++j) {
        const std::uint8_t b = packed[j];
        y[2 * j] = lut[b & 15] * scale;
        y[2 * j + 1] = lut[b >> 4] * scale;
    }
}

float e8m0_value(std::uint8_t e) noexcept { return tables().e8m0[e]; }

float round_to(DType dtype, float x) noexcept {
    if (dtype == DType::BF16) return scalar::f32_from_bf16(scalar::bf16_from_f32(x));
    if (dtype == DType::F16) return scalar::f32_from_f16(scalar::f16_from_f32(x));
    return x;
}

void round_through(DType dtype, float* y, std::size_t n) noexcept {
    if (dtype != DType::BF16 && dtype != DType::F16) return;
    for (std::size_t i = 0; i < n; ++i) y[i] = round_to(dtype, y[i]);
}

}  // namespace amn::kernels::fp4
