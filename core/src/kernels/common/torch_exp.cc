// SPDX-License-Identifier: MIT OR Apache-2.0
// -torch.exp for float32 on torch 1.13's AVX2 capability: SLEEF's FMA expf (torch_exp.hpp).
#include "kernels/common/torch_exp.hpp"

#include "anamnesis/error.hpp"

#include <immintrin.h>

#include <cmath>
#include <cstring>

namespace amn::kernels {

namespace {

void require_avx2() {
    if (!torch_exp_supported())
        throw Error(ErrorCode::Unsupported,
                    "Mamba's A = -exp(A_log) is written as torch computes it with SLEEF's AVX2/FMA kernel, which needs "
                    "a CPU with AVX2 and FMA (torch falls back to glibc's expf there: other bytes)");
}

}  // namespace
}  // namespace amn::kernels

// sleef.h declares its 256-bit kernels only when the whole file is compiled with -mavx; the one used is
// declared here as it does, for the AVX2/FMA target only (called after the CPU check).
extern "C" __attribute__((target("avx2,fma"))) __m256 Sleef_expf8_u10avx2(__m256);

namespace amn::kernels {
namespace {

// Vectorized<float>::exp on AVX2 = Sleef_expf8_u10; vec::map's last partial vector is loaded into zeros.
__attribute__((target("avx2,fma"))) void exp_avx2(float* v, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(v + i, Sleef_expf8_u10avx2(_mm256_loadu_ps(v + i)));
    if (i < n) {
        float buf[8] = {};
        std::memcpy(buf, v + i, (n - i) * sizeof(float));
        _mm256_storeu_ps(buf, Sleef_expf8_u10avx2(_mm256_loadu_ps(buf)));
        std::memcpy(v + i, buf, (n - i) * sizeof(float));
    }
}

float neg_exp1(float x) {
    exp_avx2(&x, 1);
    return -x;
}

bool same_bits(float a, float b) {
    std::uint32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
}

}  // namespace

bool torch_exp_supported() noexcept {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

void torch_neg_exp(float* values, std::size_t n) {
    require_avx2();
    exp_avx2(values, n);
    for (std::size_t i = 0; i < n; ++i) values[i] = -values[i];  // torch's neg: the sign bit flipped
}

std::optional<float> torch_neg_exp_inverse(float a) {
    require_avx2();
    const float x0 = static_cast<float>(std::log(-static_cast<double>(a)));
    if (same_bits(neg_exp1(x0), a)) return x0;
    if (std::isnan(x0)) return std::nullopt;
    float lo = x0, hi = x0;
    for (int step = 0; step < 64; ++step) {
        lo = std::nextafter(lo, -INFINITY);
        hi = std::nextafter(hi, INFINITY);
        if (same_bits(neg_exp1(lo), a)) return lo;
        if (same_bits(neg_exp1(hi), a)) return hi;
    }
    return std::nullopt;
}

}  // namespace amn::kernels
