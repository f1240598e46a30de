// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file inspect.hpp
/// What `amn inspect` and the GUI summary show, computed from a Plan alone:
/// format, schemes in words, tensor counts by role, size now and as BF16,
/// and "what Lethe took" (bytes quantization saved).

#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace amn {

struct DTypeUse {
    std::string dtype;          ///< stored dtype name
    std::size_t tensors = 0;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;    ///< stored bytes
};

/// A logical tensor that cannot be converted, and why (typed: each front
/// end words it; TensorError::message() is the core's English).
struct UnconvertibleTensor {
    std::string tensor;  ///< the logical tensor's output name
    TensorError error;   ///< never empty
};

struct Inspection {
    std::string format;                 ///< format_name()
    std::size_t shards = 0;
    std::uint64_t file_bytes = 0;       ///< sum of input file sizes
    std::uint64_t tensor_bytes = 0;     ///< stored tensor data bytes
    std::size_t stored_tensors = 0;
    std::size_t quantized = 0, companions = 0, passthrough = 0, unsupported = 0;
    std::size_t logical_tensors = 0;
    std::uint64_t parameters = 0;       ///< elements of all logical tensors
    std::uint64_t quantized_parameters = 0;
    std::uint64_t bf16_bytes = 0;       ///< 2 bytes × parameters (every logical tensor as BF16)
    /// Stored bytes of the quantized tensors with their companions, and the
    /// same tensors as BF16; Lethe took = quantized_bf16_bytes − quantized_stored_bytes.
    std::uint64_t quantized_stored_bytes = 0, quantized_bf16_bytes = 0;
    double bits_per_weight = 0;         ///< quantized_stored_bytes × 8 / quantized_parameters (0 if none)
    std::vector<SchemeUse> schemes;
    std::vector<DTypeUse> dtypes;       ///< by stored dtype, largest first
    std::vector<UnconvertibleTensor> errors;  ///< in plan order
    std::vector<std::string> notes;
    /// Catalog::warnings then Plan::warnings: contradictions between the
    /// model's files, each naming what was believed.
    std::vector<Notice> warnings;

    /// Bytes saved by quantization relative to BF16 (may be 0).
    std::uint64_t lethe_took() const noexcept;
};

/// Summarise. Never throws.
Inspection inspect(const Catalog& catalog, const Plan& plan);

}  // namespace amn
