// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file encode_type.hpp
/// Internal: f32 values to one type of the registry (F32, F16, BF16 or a
/// ggml type with an encoder), the kernels the runner calls for EncodeType.

#include "anamnesis/dtype.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace amn::exec {

/// Encode `n` f32 values (whole rows of `n_per_row`) to `type` at `dst`,
/// with the importance weights `imatrix` (n_per_row per matrix of
/// `rows_per_matrix` rows, or nullptr); `row0` is the first row's index in
/// the tensor, so that each row takes its own matrix's weights.
void encode_to_type(DType type, const float* src, std::uint8_t* dst, std::size_t n, std::uint64_t n_per_row,
                    std::uint64_t row0, std::uint64_t rows_per_matrix, const std::vector<float>* imatrix);

}  // namespace amn::exec
