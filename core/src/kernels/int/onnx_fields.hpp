// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the small scalar kernels of ONNX's quantized weights
// (plan/schemes/onnx.cc). The integer (q − zero) × scale of every other
// case is kernels::quant::affine_const (quant_kernels.hpp).
#include <cstddef>
#include <cstdint>

namespace amn::kernels::onnx {

/// Unpack `n` unsigned `bits`-bit fields (bits ∈ {2, 4, 8}) starting at
/// field `first` of the byte stream `bytes`, each byte's fields from bit 0
/// up: field i is bits [(i mod f)·bits, …) of byte i / f, f = 8 / bits.
/// ONNX's packing of INT4/UINT4 (first element in the low nibble), 2-bit
/// types, MatMulNBits `B` and zero points, GatherBlockQuantized UINT8 data.
/// Reads bytes [first / f, ⌈(first + n) / f⌉).
void unpack_fields(const std::uint8_t* bytes, std::uint64_t first, unsigned bits, std::uint8_t* q, std::size_t n) noexcept;

/// y[i] = f32(q[i]) × scale + (−scale × zero) in f32, each operation
/// rounded (no FMA): onnxruntime's MatMulNBits CPU kernel with a float zero
/// point (matmul_nbits_impl.cc Dequantize4BitsKernelReOrder), which is not
/// (q − zero) × scale.
void affine_float_zero(const std::uint8_t* q, float scale, float zero, float* y, std::size_t n) noexcept;

/// y[i] = f32(d[i]) × scale: DequantizeLinear's x − zero_point, computed
/// exactly as an integer `d[i]`, converted to f32 once and multiplied once.
void scale_diffs(const std::int64_t* d, float scale, float* y, std::size_t n) noexcept;

}  // namespace amn::kernels::onnx
