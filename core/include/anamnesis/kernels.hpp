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
#include <string>
#include <string_view>
#include <vector>

namespace amn::kernels {

/// Decode `n` FP8 values (`fmt` ∈ F8_E4M3, F8_E5M2, F8_E4M3FNUZ, F8_E5M2FNUZ,
/// F8_E8M0) to f32. Exact (every FP8 value is representable in f32; E8M0's
/// code 0 is 2^−127, an f32 subnormal). `src` has `n` bytes, `dst` `n` floats;
/// no alignment needed. Matches PyTorch's `tensor.to(torch.float32)` for the
/// float8 dtypes on every non-NaN code; NaN codes decode to a quiet NaN:
/// F8_E4M3 S.1111.111 → sign | 0x7FF00000, F8_E5M2 → sign | 0x7F800000 |
/// 0x00400000 | m << 21 (both as PyTorch), the FNUZ NaN 0x80 and E8M0 0xFF →
/// 0x7FC00000. −0 is kept (0x80 of E4M3/E5M2 decodes to −0.0f).
/// \pre fmt is one of the five; otherwise the call aborts in debug and
///      writes NaN in release.
void fp8_to_f32(DType fmt, const std::uint8_t* src, float* dst, std::size_t n);

/// dst[i] = f32(fp8(src[i])) × scale, one f32 multiply, no FMA. The FP8
/// dequantization step of per-tensor, per-channel and block scaling (a block
/// row segment shares one scale). Matches PyTorch `w.to(float32) * s`.
/// A NaN `scale` makes every output that NaN, made quiet (IEEE leaves the
/// result of NaN × NaN open; this pins it).
void fp8_scale_to_f32(DType fmt, const std::uint8_t* src, float scale, float* dst, std::size_t n);

/// f32 → BF16 with one round-to-nearest-even
/// (`(bits + 0x7FFF + ((bits >> 16) & 1)) >> 16`; overflow rounds to ±inf);
/// ±inf and ±0 kept. A NaN becomes `(bits >> 16) | 0x0040`: quiet, sign and
/// top payload kept (as AVX512-BF16's vcvtneps2bf16). Matches PyTorch
/// `.to(torch.bfloat16)` bit for bit on every non-NaN input (PyTorch 1.13
/// writes 0xFFFF or 0x7FC0 for any NaN).
void f32_to_bf16(const float* src, std::uint16_t* dst, std::size_t n);

/// f32 → IEEE binary16 with round-to-nearest-even, overflow to ±inf
/// (|x| ≥ 65520), subnormals rounded correctly (no flush to zero). A NaN
/// becomes sign | 0x7E00 | top 9 payload bits (quiet; as F16C's vcvtps2ph).
/// Matches PyTorch `.to(torch.float16)` bit for bit on every non-NaN input
/// (PyTorch writes sign | 0x7E00 for any NaN).
void f32_to_f16(const float* src, std::uint16_t* dst, std::size_t n);

/// BF16 → f32 (exact: a 16-bit shift; NaN bits pass through unchanged).
void bf16_to_f32(const std::uint16_t* src, float* dst, std::size_t n);

/// IEEE binary16 → f32 (exact, subnormals included). A NaN is made quiet
/// with its sign and payload kept (sign | 0x7FC00000 | m << 13), as F16C's
/// vcvtph2ps and PyTorch `.to(torch.float32)` do.
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
/// E2M1 nibble → f32 (values 0, .5, 1, 1.5, 2, 3, 4, 6 with sign; OCP MX
/// FP4, bias 1, no inf/NaN). Only the low 4 bits of `nibble` are read.
float fp4_e2m1_value(std::uint8_t nibble) noexcept;
/// FP6 (6 low bits) → f32; `fmt` is F6_E2M3 (bias 1, max 7.5) or F6_E3M2
/// (bias 3, max 28), OCP MX FP6, no inf/NaN. Other `fmt`: aborts in debug,
/// NaN in release.
float fp6_value(DType fmt, std::uint8_t bits) noexcept;
}  // namespace scalar

/// The name of the Highway target the dispatched kernels use on this CPU
/// ("AVX3", "AVX2", "SSE4", "SSSE3", "SCALAR"), for `amn --version` and
/// benchmarks. Follows `hwy::SetSupportedTargetsForTest` (tests, benchmarks).
const char* active_target_name() noexcept;

/// The Highway targets this build dispatches to and this CPU runs, best
/// first, by the names active_target_name() returns.
std::vector<std::string> available_target_names();

/// Restrict runtime dispatch to the one target named `name` (as
/// available_target_names() lists it, ASCII case ignored), for every kernel
/// of the process from the next call on; the bytes written do not depend on
/// it (every kernel is byte-identical across targets), only the speed.
/// Meant for start-up (`AMN_SIMD_TARGET`, benchmarks on another machine's
/// instruction set), before any worker thread runs.
/// \returns false, and nothing changed, when `name` is not available here.
bool pin_target(std::string_view name);

}  // namespace amn::kernels
