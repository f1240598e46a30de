// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the GGUF-encoder path of the re-quantization estimate
// (round_trip_estimate_gguf.cc), called by round_trip_estimate.cc.
#include "anamnesis/round_trip_estimate.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace amn::detail {

struct LossSums;

/// The RoundTripError of a finished measurement: `measured`, `estimator`
/// (RoundTripScheme::description()) and the figures of `sums` (count, RMSE,
/// max abs, SQNR by the loss_sums.hpp rule).
RoundTripError round_trip_measured(std::string estimator, const LossSums& sums);

/// Empty when ggml type `type` can be re-quantized without an importance
/// matrix (it has a decoder and a no-imatrix encoder); else the reason:
/// "not measurable for gguf-IQ2_XXS: ggml quantizes it only with an
/// importance matrix, which the file does not carry" (IQ2_XXS, IQ2_XS,
/// IQ1_S) or "not measurable yet for gguf-<type>" (no encoder or decoder).
std::string gguf_round_trip_unavailable(DType type);

/// measure_round_trip for a RoundTripScheme of GgmlParams (see
/// round_trip_estimate.hpp): one pass over row chunks of `t` (progress total =
/// rows), encode with ggml's no-imatrix quantizer of ggml block type `type`,
/// decode, compare where both values are finite. `estimator` is the
/// result's `RoundTripError::estimator` (RoundTripScheme::description()).
/// \throws Error{Usage} when the type has no usable encoder or a row is not
///         a whole number of its blocks; Error{Cancelled}; recipe errors.
RoundTripError measure_gguf_encoder(const LogicalTensor& t, DType type, std::string estimator, const ProgressFn& progress,
                                  const std::atomic<bool>* cancel, std::uint64_t chunk_elems);

}  // namespace amn::detail
