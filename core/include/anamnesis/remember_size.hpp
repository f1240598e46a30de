// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file remember_size.hpp
/// The size of a remember before it runs: the bytes of tensor data
/// `remember_to_safetensors` (remember.hpp) will write — the figure the
/// conversion wizard's summary shows. Read from the plan only.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <optional>

namespace amn {

/// The dtype `remember_to_safetensors` writes logical tensor `lt` of `cat`
/// in, with `RememberOptions::to` = `to`: a dequantized tensor `to`, else the
/// dtype its scheme's library returns (`Recipe::result_dtype()`: MLX affine
/// layers their scales' dtype), else BF16; a passthrough float `to` or its
/// stored dtype; integer and bool tensors, and an ONNX DOUBLE initializer (a
/// constant of the graph's arithmetic), their stored dtype. \pre lt.recipe.
DType remember_output_dtype(const Catalog& cat, const LogicalTensor& lt, std::optional<DType> to);

/// Bytes of tensor data `remember_to_safetensors` writes for `plan` of `cat`
/// with `RememberOptions::to` = `to` (each tensor in remember_output_dtype()).
/// Headers are not counted. Logical tensors with an error are skipped.
std::uint64_t predicted_output_bytes(const Catalog& cat, const Plan& plan, std::optional<DType> to);

}  // namespace amn
