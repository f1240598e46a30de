// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file kernels.hpp
/// Element kernels shared by every scheme: FP8/FP4/FP6/E8M0 decoding and the
/// f32 ↔ BF16/F16 conversions. Pure functions over spans: no I/O, no
/// allocation. The top-level functions use the best Highway target for this
/// CPU (HWY_DYNAMIC_DISPATCH); `amn::kernels::scalar` holds the readable
/// reference implementation every SIMD target is tested against bit for bit.
///
/// Arithmetic: f32, no FMA contraction, IEEE signed zeros and NaNs kept.
/// Lengths are counts of elements, never bytes.

#include "anamnesis/dtype.hpp"

#include <cstddef>
#include <cstdint>

namespace amn::kernels {

/// Decode `n` FP8 values (`fmt` ∈ F8_E4M3, F8_E5M2, F8_E4M3FNUZ, F8_E5M2FNUZ,
/// F8_E8M0) to f32. Exact (every FP8 value is representable in f32).
/// Matches PyTorch's `tensor.to(torch.float32)` for the float8 dtypes.
/// \pre fmt is one of the five; otherwise the call aborts in debug and
///      writes NaN in release.
void fp8_to_f32(DType fmt, const std::uint8_t* src, float* dst, std::size_t n);

/// dst[i] = f32(fp8(src[i])) × scale, one f32 multiply, no FMA. The FP8
/// dequantization step of per-tensor, per-channel and block scaling (a block
/// row segment shares one scale). Matches PyTorch `w.to(float32) * s`.
void fp8_scale_to_f32(DType fmt, const std::uint8_t* src, float scale, float* dst, std::size_t n);

/// f32 → BF16 with one round-to-nearest-even; NaN stays a (quiet) NaN with
/// its sign; ±inf and ±0 kept. Matches PyTorch `.to(torch.bfloat16)`.
void f32_to_bf16(const float* src, std::uint16_t* dst, std::size_t n);

/// f32 → IEEE binary16 with round-to-nearest-even, overflow to ±inf,
/// subnormals rounded correctly, NaN kept. Matches PyTorch `.to(torch.float16)`.
void f32_to_f16(const float* src, std::uint16_t* dst, std::size_t n);

/// BF16 → f32 (exact: a 16-bit shift).
void bf16_to_f32(const std::uint16_t* src, float* dst, std::size_t n);

/// IEEE binary16 → f32 (exact, subnormals included).
void f16_to_f32(const std::uint16_t* src, float* dst, std::size_t n);

/// Scalar reference implementations of everything above; same contracts.
namespace scalar {
void fp8_to_f32(DType fmt, const std::uint8_t* src, float* dst, std::size_t n);
void fp8_scale_to_f32(DType fmt, const std::uint8_t* src, float scale, float* dst, std::size_t n);
void f32_to_bf16(const float* src, std::uint16_t* dst, std::size_t n);
void f32_to_f16(const float* src, std::uint16_t* dst, std::size_t n);
void bf16_to_f32(const std::uint16_t* src, float* dst, std::size_t n);
void f16_to_f32(const std::uint16_t* src, float* dst, std::size_t n);

/// One value, for tables and tests.
float fp8_value(DType fmt, std::uint8_t bits) noexcept;
std::uint16_t bf16_from_f32(float x) noexcept;
std::uint16_t f16_from_f32(float x) noexcept;
float f32_from_bf16(std::uint16_t h) noexcept;
float f32_from_f16(std::uint16_t h) noexcept;
/// E2M1 nibble → f32 (values 0, .5, 1, 1.5, 2, 3, 4, 6 with sign).
float fp4_e2m1_value(std::uint8_t nibble) noexcept;
/// FP6 (6 low bits) → f32; `fmt` is F6_E2M3 or F6_E3M2.
float fp6_value(DType fmt, std::uint8_t bits) noexcept;
}  // namespace scalar

/// The name of the Highway target the dispatched kernels use on this CPU
/// ("AVX3", "AVX2", "SSE4", …), for `amn --version` and benchmarks.
const char* active_target_name() noexcept;

}  // namespace amn::kernels
