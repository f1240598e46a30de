// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the encoder paths of the re-quantization estimate, called by
// round_trip_estimate.cc: ggml's (round_trip_estimate_gguf.cc) and amn
// forget's safetensors encoders (round_trip_estimate_st.cc).
#include "anamnesis/round_trip_estimate.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
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

/// The scheme `amn forget --to` is given (its options included) and the
/// weight dtype (BF16, F16 or F32) with which forget writes an R×C weight
/// that the read side detects as `params` (st_weight_params() == params).
struct StWrite {
    QuantParams scheme;
    DType wdtype = DType::BF16;
};

/// The StWrite of `params` for an R×C weight, trying every scheme row that
/// writes its alternative with the option values that could give it, and
/// the weight dtypes in the order BF16 (what forget --requantize encodes a
/// decoded weight from: the only one of parameters that do not record it,
/// e.g. LLM.int8, DeepSeek FP8, MLX mxfp4), F16, F32; nullopt
/// when forget writes no such weight (then the estimate re-quantizes by
/// round-to-nearest).
std::optional<StWrite> st_scheme_writing(const QuantParams& params, std::uint64_t R, std::uint64_t C);

/// The estimator line of a measurement with forget's encoder: "re-quantization
/// with amn forget's encoder (<st_scheme_label>, <wdtype> weight), " and the
/// geometry of `rtn_description` (RoundTripScheme::description()) after its
/// "RTN re-quantization, ", or "decoded again".
std::string st_estimator(const StWrite& w, const std::string& rtn_description);

/// measure_round_trip with forget's encoder of `w` (forget_st_encoder.hpp):
/// the rows of `t` (Recipe::rows() × row_elems(), the weight's R×C) are
/// dequantized in chunks of about `chunk_elems` elements (whole multiples of
/// the encoder's and the recipe's row granularity), rounded to `w.wdtype` as
/// forget rounds a decoded weight, encoded exactly as forget encodes them (a
/// first pass when the scheme needs one: progress total = 2 × rows, else
/// rows) and their round trip compared with the dequantized values.
/// nullopt when a value is not finite (forget refuses such a weight).
/// \throws Error{Cancelled}; recipe errors.
std::optional<RoundTripError> measure_st_encoder(const LogicalTensor& t, const StWrite& w, std::string estimator,
                                                 const ProgressFn& progress, const std::atomic<bool>* cancel,
                                                 std::uint64_t chunk_elems);

}  // namespace amn::detail
