// SPDX-License-Identifier: MIT OR Apache-2.0
// MLX's fp-mode quantizer (mxfp4, nvfp4, mxfp8) as mx.quantize computes it on
// the CPU (mlx_kernels.hpp): the graph of `fp_quantize`, every operation
// rounded to the weight's dtype as MLX's elementwise ops are.
#include "mlx_kernels.hpp"

#include "anamnesis/kernels.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace amn::kernels::mlx {
namespace {

// The E2M1 values in code order (sign bit 3), as MLX's lookup table.
constexpr std::array<float, 16> kE2m1Lut{0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                         -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

float round_to(DType dtype, float x) noexcept {
    switch (dtype) {
        case DType::BF16: return round_bf16(x);
        case DType::F16: return amn::kernels::scalar::f32_from_f16(amn::kernels::scalar::f16_from_f32(x));
        default: return x;
    }
}

// argmin_k d(k) over the 16 codes, the first minimum; a NaN distance never
// wins (all NaN: code 0), as MLX's argmin.
template <class Dist>
std::uint8_t nearest_e2m1(Dist d) noexcept {
    std::uint8_t best = 0;
    float best_d = std::numeric_limits<float>::infinity();
    bool any = false;
    for (std::uint8_t k = 0; k < 16; ++k) {
        const float v = d(kE2m1Lut[k]);
        if (std::isnan(v)) continue;
        if (!any || v < best_d) {
            best = k;
            best_d = v;
            any = true;
        }
    }
    return best;
}

// The E8M0 exponent of a group whose scale is s (already rounded to dtype):
// 0 for s = 0, else rint(log2(s)) with the logarithm rounded to dtype.
std::int32_t e8m0_exponent(float s, DType dtype) noexcept {
    if (s == 0.0f) return 0;
    const float l = std::rint(round_to(dtype, std::log2(s)));
    if (!(std::abs(l) < 1024.0f)) return std::signbit(l) ? std::numeric_limits<std::int32_t>::min() : 1024;
    return static_cast<std::int32_t>(l);
}

}  // namespace

std::uint8_t e4m3_from_float(float f) noexcept {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
    const std::uint32_t sign = bits & 0x80000000u;
    bits ^= sign;
    std::uint8_t r;
    if (bits >= (543u << 21)) {
        r = 0x7E;  // ≥ 464 (and inf, NaN): saturate to 448
    } else if (bits < (121u << 23)) {
        // below 2^-6, E4M3's subnormal range: adding 2^-9 · 2^23 (the float 2^14 · …)
        // leaves the code, rounded to nearest even, in the low bits.
        const float sum = std::bit_cast<float>(bits) + std::bit_cast<float>(141u << 23);
        r = static_cast<std::uint8_t>(std::bit_cast<std::uint32_t>(sum) - (141u << 23));
    } else {
        const std::uint32_t mant_odd = (bits >> 20) & 1u;
        const std::uint32_t high = bits + ((std::uint32_t(7 - 127) << 23) + 0x7FFFFu) + mant_odd;
        r = static_cast<std::uint8_t>(high >> 20);
    }
    return static_cast<std::uint8_t>(r | (sign >> 24));
}

void fp_quantize_group(MlxMode mode, DType dtype, const float* x, std::uint8_t* codes, std::uint8_t* scale, float* y) {
    const std::size_t n = fp_group_size(mode);
    const float maxval = mode == MlxMode::Mxfp8 ? 448.0f : 6.0f;
    float m = 0.0f;
    for (std::size_t i = 0; i < n; ++i) m = std::max(m, std::abs(x[i]));
    const float s = round_to(dtype, m / maxval);
    std::array<float, 32> wq{};
    if (mode == MlxMode::Nvfp4) {
        // E4M3 scale (no global scale: × 1.0f in f32), the codes chosen in f32.
        *scale = e4m3_from_float(s);
        const float sv = round_to(dtype, e4m3_value(*scale));
        for (std::size_t i = 0; i < n; ++i) wq[i] = round_to(dtype, x[i] / sv);
        for (std::size_t i = 0; i < n; i += 2) {
            const auto c0 = nearest_e2m1([&](float l) { return std::abs(wq[i] - l); });
            const auto c1 = nearest_e2m1([&](float l) { return std::abs(wq[i + 1] - l); });
            codes[i / 2] = static_cast<std::uint8_t>(c0 | (c1 << 4));
        }
        if (y) e2m1_group(codes, e4m3_value(*scale), y, n);
        return;
    }
    // E8M0 scale: e = rint(log2 s) (0 for an all-zero group), stored e + 127;
    // the values divided by 2^e, every step rounded to the weight's dtype.
    const std::int32_t e = e8m0_exponent(s, dtype);
    const float p = round_to(dtype, std::ldexp(1.0f, static_cast<int>(std::clamp(e, -1000, 1000))));
    for (std::size_t i = 0; i < n; ++i) wq[i] = round_to(dtype, x[i] / p);
    *scale = static_cast<std::uint8_t>(static_cast<std::uint32_t>(e + 127));
    if (mode == MlxMode::Mxfp8) {
        for (std::size_t i = 0; i < n; ++i) codes[i] = e4m3_from_float(wq[i]);
        if (y) e4m3_group(codes, e8m0_scale(*scale), y, n);
        return;
    }
    for (std::size_t i = 0; i < n; i += 2) {
        auto dist = [&](float v) { return [&, v](float l) { return round_to(dtype, std::abs(round_to(dtype, v - l))); }; };
        const auto c0 = nearest_e2m1(dist(wq[i]));
        const auto c1 = nearest_e2m1(dist(wq[i + 1]));
        codes[i / 2] = static_cast<std::uint8_t>(c0 | (c1 << 4));
    }
    if (y) e2m1_group(codes, e8m0_scale(*scale), y, n);
}

}  // namespace amn::kernels::mlx
