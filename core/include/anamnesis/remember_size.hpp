// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file remember_size.hpp
/// The size of a remember before it runs: the bytes of tensor data
/// `remember_to_safetensors` (remember.hpp) will write — the figure the
/// conversion wizard's summary shows. Read from the plan only.

#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <optional>

namespace amn {

/// Bytes of tensor data `remember_to_safetensors` writes for `plan` with
/// `RememberOptions::to` = `to` (same dtype rule: dequantized tensors become
/// `to` or BF16; passthrough floats become `to` or keep their dtype; integer
/// and bool tensors keep theirs). Headers are not counted. Logical tensors
/// with an error are skipped.
std::uint64_t predicted_output_bytes(const Plan& plan, std::optional<DType> to);

}  // namespace amn
