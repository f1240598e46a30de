// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: element kernels of the FP4 safetensors schemes (compressed-tensors
// nvfp4-pack-quantized, ModelOpt NVFP4, gpt-oss MXFP4) and the "arithmetic in
// the scale's dtype" rounding of compressed-tensors. Pure functions over
// spans: no I/O, no allocation. Scalar code (core/src/kernels/fp4_kernels.cc);
// lengths are element counts unless a name says bytes.
//
// Arithmetic is f32, one IEEE operation at a time, no FMA contraction.

#include "anamnesis/dtype.hpp"

#include <cstddef>
#include <cstdint>

namespace amn::kernels::fp4 {

/// E2M1 (OCP MX FP4) value of the low 4 bits of `code`: sign bit 3,
/// magnitude index into {0, .5, 1, 1.5, 2, 3, 4, 6}. Code 8 is −0.0 when
/// `negative_zero` (compressed-tensors, gpt-oss), +0.0 otherwise (ModelOpt's
/// value table).
float e2m1_value(std::uint8_t code, bool negative_zero) noexcept;

/// Decode `nbytes` packed bytes, two E2M1 codes each, low nibble first:
/// y[2j] = e2m1(b & 15) × scale, y[2j+1] = e2m1(b >> 4) × scale with
/// b = packed[j] (one f32 multiply per element). Writes 2·nbytes floats.
void e2m1_scale(const std::uint8_t* packed, bool negative_zero, float scale, float* y, std::size_t nbytes) noexcept;

/// 2^(e − 127) for an E8M0 byte, exact: e = 0 is 2^−127 (an f32 subnormal),
/// e = 255 is 2^128 = +inf (not special-cased, as torch.ldexp).
float e8m0_value(std::uint8_t e) noexcept;

/// Round every value of y[0, n) to `dtype` (BF16 or F16: round to nearest
/// even, as PyTorch's cast) and back to f32, in place: the result of an
/// operation a library performs in that dtype. F32 (or any other dtype)
/// leaves y unchanged.
void round_through(DType dtype, float* y, std::size_t n) noexcept;

/// One value of round_through.
float round_to(DType dtype, float x) noexcept;

// ---- SIMD (Highway, dispatched at run time; core/src/kernels/fp4/fp4_simd.cc).
// Bit-identical to the scalar compositions they replace on every target
// (tests/core/test_fp4_kernels.cc).

/// For g < groups, with B = group_bytes (a multiple of 8):
///   e2m1_scale(packed + g·B, negative_zero, scales[g], y + 2·B·g, B);
/// then round_through(round, y, 2·B·groups). Fused in one pass.
void e2m1_groups(const std::uint8_t* packed, const float* scales, std::size_t group_bytes, bool negative_zero, DType round,
                 float* y, std::size_t groups) noexcept;

/// round_through, vectorized.
void round_through_simd(DType dtype, float* y, std::size_t n) noexcept;

/// Name of the Highway target the dispatcher picked (tests).
const char* fp4_target_name() noexcept;

}  // namespace amn::kernels::fp4
