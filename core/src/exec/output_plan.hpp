// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file output_plan.hpp
/// Internal: the output plan every write job executes with
/// run_output_plan(). A policy (remember's dtype rule, llama-quantize's type
/// rules, the safetensors schemes' ignore rules) decides, per output
/// tensor, where its values come from, how they are encoded, which sink
/// tensors receive them and how the runner cuts the work; the runner does
/// the rest.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"
#include "exec/scheme_encoder.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace amn::exec {

/// The stored tensor `OutputTensor::stored` written unchanged, all its bytes
/// in one work unit (little-endian and contiguous; anything else fails
/// naming the tensor).
struct CopyStored {};

/// What the recipe holds losslessly (Recipe::copy_rows), row chunk by row
/// chunk: output bytes per recipe row = OutputTensor::bytes / rows.
struct CopyRows {};

/// What the runner measures of an EncodeType round trip.
enum class LossMode {
    None,            ///< nothing
    CountNonfinite,  ///< only the non-finite input values (LossSums::nonfinite)
    Measure,         ///< decode every encoded block again and sum the error
};

/// The recipe's f32 values encoded to one type of the registry: F32, F16,
/// BF16 or a ggml type of AMN_GGML_TYPES (whole rows of `n_per_row`).
struct EncodeType {
    DType type = DType::F32;
    std::uint64_t n_per_row = 1;        ///< elements of one row of the type's tensor
    std::uint64_t rows_per_matrix = 1;  ///< rows of one matrix (expert) sharing imatrix weights
    /// Importance weights, n_per_row per matrix, or nullptr.
    const std::vector<float>* imatrix = nullptr;
    LossMode loss = LossMode::None;
};

/// How an output tensor gets its bytes.
using Encoding = std::variant<CopyStored, CopyRows, EncodeType, std::unique_ptr<SchemeEncoder>>;

/// One output tensor (a scheme's weight: its payload and companions).
struct OutputTensor {
    std::string name;                       ///< names errors
    std::shared_ptr<const Recipe> recipe;   ///< makes the values (all but CopyStored)
    /// CopyStored: the tensor copied. Scheme encoders: the stored BF16 tensor
    /// holding the values row-major, when they may read it as it is
    /// (ChunkRows::stored_bf16); else nullptr.
    const TensorInfo* stored = nullptr;
    Encoding encoding;
    /// The sink tensors written: one, or a scheme's in its order.
    std::vector<std::size_t> sink_tensors;
    std::uint64_t bytes = 0;  ///< bytes of sink_tensors[0] (CopyStored, CopyRows)
    std::uint64_t numel = 0;  ///< elements (RunOptions batches count them)

    /// The cut: `rows` rows (recipe rows; for scheme encoders rows of `cols`
    /// elements), `row_weight` progress units each, chunks a multiple of
    /// `granularity` rows of about RunOptions::chunk_bytes units. 0 rows:
    /// nothing to run.
    std::uint64_t rows = 0, row_weight = 0, granularity = 1;
    std::uint64_t cols = 0;  ///< scheme encoders: elements per row
    /// Scheme encoders: decoded values are rounded to this dtype first (a
    /// decoded weight quantized as the model `remember` writes).
    std::optional<DType> round_to;
};

/// Every output tensor in the order the work runs (the sink's order).
struct OutputPlan {
    std::vector<OutputTensor> tensors;
};

}  // namespace amn::exec
