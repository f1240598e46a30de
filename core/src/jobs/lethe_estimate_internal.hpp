// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the GGUF-encoder path of the re-quantization estimate
// (lethe_estimate_gguf.cc), called by lethe_estimate.cc.
#include "anamnesis/requantize.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace amn::detail {

struct LossSums;

/// The RequantError of a finished measurement: `measured`, `estimator`
/// (RequantScheme::description()) and the figures of `sums` (count, RMSE,
/// max abs, SQNR by the loss_sums.hpp rule).
RequantError requant_measured(std::string estimator, const LossSums& sums);

/// Empty when ggml type `type` can be re-quantized without an importance
/// matrix (it has a decoder and a no-imatrix encoder); else the reason:
/// "not measurable for gguf-IQ2_XXS: ggml quantizes it only with an
/// importance matrix, which the file does not carry" (IQ2_XXS, IQ2_XS,
/// IQ1_S) or "not measurable yet for gguf-<type>" (no encoder or decoder).
std::string gguf_requant_unavailable(DType type);

/// measure_requantization for a RequantScheme of GgmlParams (see
/// requantize.hpp): one pass over row chunks of `t` (progress total =
/// rows), encode with ggml's no-imatrix quantizer of ggml block type `type`,
/// decode, compare where both values are finite. `estimator` is the
/// result's `RequantError::estimator` (RequantScheme::description()).
/// \throws Error{Usage} when the type has no usable encoder or a row is not
///         a whole number of its blocks; Error{Cancelled}; recipe errors.
RequantError measure_gguf_encoder(const LogicalTensor& t, DType type, std::string estimator, const StatsProgressFn& progress,
                                  const std::atomic<bool>* cancel, std::uint64_t chunk_elems);

}  // namespace amn::detail
