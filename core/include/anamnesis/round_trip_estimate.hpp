// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file round_trip_estimate.hpp
/// "What Lethe took", measured where it can be: the precision a quantized
/// tensor's scheme loses, estimated by re-quantizing its dequantized values
/// with the same scheme family and parameters — with `amn forget`'s own
/// encoder where forget writes the scheme (the bytes forget writes), for
/// GGUF types with ggml's own no-imatrix quantizer of the type (its scale
/// search included), else by round-to-nearest (RTN) — dequantizing again
/// and comparing. The original full-precision weights are
/// gone, so this is an estimate of the scheme's error on values of this
/// distribution, not the error the original quantizer made (GPTQ/AWQ's
/// error-compensating search, importance matrices … are not repeated).

#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/quant_params.hpp"
#include "anamnesis/executor.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace amn {

/// The RTN re-quantizer for one tensor: the scheme and parameters it
/// re-quantizes to, named as the read side names them (`QuantParams`,
/// quant_params.hpp), plus the estimator geometry the parameters do not
/// carry. Groups (the elements that share a scale) are laid over the output
/// tensor viewed as `Recipe::rows() × Recipe::row_elems()` (row-major, i.e.
/// [out_features, in_features] for linear weights).
///
/// A 2-D weight whose parameters are those `amn forget --to` writes for some
/// scheme, options and weight dtype (BF16, F16, F32: st_weight_params() ==
/// `params`) is re-quantized with forget's encoder of that scheme, exactly
/// as `amn forget --requantize` does: values rounded to the weight dtype,
/// scales in it, every field of `params` honoured (bitsandbytes 4-bit of
/// blocksize 64 … 4096 with or without double quant, LLM.int8,
/// compressed-tensors / transformers FP8 per tensor, channel or 128×128
/// block, DeepSeek block FP8, compressed-tensors pack-quantized 4/8-bit, MLX
/// affine, mxfp4, nvfp4 and mxfp8); the error is that of the round trip
/// against the dequantized values. A tensor with a NaN/±inf value (which
/// forget refuses) falls back to the RTN re-quantizer below.
///
/// What each alternative of `params` re-quantizes with otherwise, by RTN
/// (the fields not named here — scale dtypes, producer, packing layout,
/// double quant — do not change the estimate):
/// - `Fp8Params`: FP8 values × f32 scale, scale = absmax / max-finite of
///   `format` (F8_E4M3, F8_E5M2, F8_E4M3FNUZ or F8_E5M2FNUZ) per group of
///   `granularity`: Tensor; Channel (one per row); Expert (one per leading
///   batch entry, `experts`); Block (`block_rows × block_cols` tiles of
///   every expert's [rows / experts, row_elems] matrix); Group (`group_size`
///   consecutive inputs of a row: a 1 × group_size block).
/// - `Bnb4Params`: bitsandbytes NF4 / FP4 (`type`): absmax per `blocksize`
///   elements of the flattened tensor, nearest codebook entry.
/// - `Int8Params`: bitsandbytes LLM.int8: per-row absmax / 127, round half
///   away from zero.
/// - `AffineParams`: GPTQ / AWQ / compressed-tensors int: per-group min/max,
///   `bits`-bit integers (2..8), groups of `group_size` (≥ 1) contiguous
///   elements along each row (the input dimension). The range rule follows
///   `packing` (`round_trip_includes_zero`) and `symmetric`
///   (`round_trip_symmetric`).
/// - `GgmlParams`: a GGUF type with an encoder (`type`): each row is
///   quantized with ggml's no-imatrix quantizer for that type
///   (`ggml_quantize_chunk(type, …, imatrix = NULL)`, byte-exact,
///   core/src/kernels/gguf/gguf_quantize.hpp) and decoded again with the
///   type's dequantizer (`dequantize_row_<type>`). K-quants, IQ4_NL/XS,
///   IQ3_XXS/S, IQ2_S, IQ1_M, Q8_0, Q4_0, Q4_1, Q5_0/1, Q1_0, Q2_0,
///   TQ1_0/2_0, MXFP4, NVFP4.
/// - `Fp4Params`: no re-quantizer yet (not measurable).
struct RoundTripScheme {
    /// The scheme and parameters re-quantized to. `round_trip_scheme_for`
    /// copies `LogicalTensor::params` and resolves AffineParams::group_size
    /// to the contiguous group size measured with (see there).
    QuantParams params = Fp8Params{};
    /// Fp8Params only: the leading batch of a 3-D weight (number of experts;
    /// rows() = experts × rows per expert); 1 for a 2-D weight. Ignored by
    /// the other schemes.
    std::uint64_t experts = 1;

    /// One line naming the estimator ("RTN re-quantization, FP8 E4M3, 128×128
    /// blocks, scale = absmax/448"; an FP8 group of 32 is "1×32 blocks";
    /// "re-quantization with ggml's Q4_K quantizer (no importance matrix),
    /// row by row, decoded again"). measure_round_trip's result names
    /// forget's encoder instead where it used it ("re-quantization with amn
    /// forget's encoder (fp8-block-deepseek, BF16 weight), FP8 E4M3, 128×128
    /// blocks, scale = absmax/448").
    /// \throws Error{Usage} for an Fp8Params `format` that is not FP8 and for
    ///         Fp4Params ("not measurable yet for ct-nvfp4").
    std::string description() const;
};

/// Whether the RTN re-quantizer of `p` widens each group range to include 0
/// (GPTQ's `Quantizer.find_params`, also compressed-tensors'
/// `calculate_qparams`: a constant-zero group gets [−1, 1], zero =
/// round(−min/scale)): true for every packing but AffinePacking::AwqGemm,
/// which is re-quantized as AutoAWQ's `pseudo_quantize_tensor` (range =
/// [min, max], scale = max(max − min, 1e−5) / (2^bits − 1), zero =
/// clamp(−round(min/scale), 0, 2^bits − 1)).
bool round_trip_includes_zero(const AffineParams& p) noexcept;

/// Whether the RTN re-quantizer of `p` is symmetric (GPTQ sym=True,
/// compressed-tensors symmetric: range ±max|x|, zero = 2^(bits−1)):
/// `p.symmetric` when known (false when nullopt), never for AWQ GEMM.
bool round_trip_symmetric(const AffineParams& p) noexcept;

/// The re-quantizer matching a logical tensor's scheme, from its typed
/// `LogicalTensor::params` (quant_params.hpp) and its shape: FP8 tensor /
/// channel / expert / block / group (a 1 × group_size block; every FP8
/// producer: transformers, compressed-tensors, ModelOpt), bnb NF4 / FP4
/// (nested absmax is treated as f32), bnb LLM.int8, GPTQ and
/// compressed-tensors integer (contiguous groups of group_size along the
/// input dimension; an act-order permutation is not repeated: without a
/// uniform group size, `groups` groups of ceil(in / groups); a group wider
/// than the row is the row — the result's AffineParams::group_size holds
/// the size used), AWQ GEMM
/// (its group size, range [min, max]) and every GGUF type that ggml can
/// quantize without an importance matrix (GgmlParams: K-quants,
/// IQ4_NL/XS, IQ3_XXS/S, IQ2_S, IQ1_M, Q8_0, Q4_0, Q4_1, Q5_0/1, Q1_0, Q2_0, TQ1_0/2_0, MXFP4,
/// NVFP4); and every 2-D weight whose parameters forget writes (see
/// RoundTripScheme: its `params` as they are, MLX mxfp4/nvfp4/mxfp8
/// included). nullopt (with the reason in `why`) for passthrough tensors,
/// tensors without a recipe or parameters and every other scheme ("not
/// measurable yet" rather than a guess): FP4 safetensors (NVFP4, MXFP4),
/// per-tensor integer scales, GGUF types without an encoder; and IQ2_XXS,
/// IQ2_XS, IQ1_S, which ggml quantizes only with an importance matrix
/// (`ggml_quantize_requires_imatrix`) that the file does not carry ("not
/// measurable for gguf-IQ2_XXS: ggml quantizes it only with an importance
/// matrix, which the file does not carry"). FP8: `experts` is the product
/// of the shape's leading dimensions of a weight of 3 or more dimensions.
std::optional<RoundTripScheme> round_trip_scheme_for(const LogicalTensor& tensor, std::string* why = nullptr);

/// Why no estimate was made, as a code a UI words in its own language
/// (with `RoundTripError::scheme`); the English text is `RoundTripError::unavailable`.
enum class RoundTripUnavailable {
    None,          ///< measured, or not asked
    NotQuantized,  ///< passthrough tensor: nothing to measure
    NotYet,        ///< no re-quantizer for this scheme (or these parameters) yet
    NeedsImatrix,  ///< GGUF IQ2_XXS / IQ2_XS / IQ1_S: ggml quantizes them only with an importance matrix
    PartialBlocks, ///< a row is not a whole number of the GGUF type's blocks
};

/// Result of `measure_round_trip`.
struct RoundTripError {
    bool measured = false;   ///< false: `unavailable` says why (no numbers)
    std::string unavailable; ///< e.g. "not measurable yet for gguf-Q4_K"
    RoundTripUnavailable reason = RoundTripUnavailable::None;  ///< set with `unavailable`
    std::string scheme;      ///< scheme id `reason` concerns ("gguf-IQ2_XXS"); empty for NotQuantized
    std::string estimator;   ///< RoundTripScheme::description()
    std::uint64_t count = 0; ///< elements compared: x and its re-quantization y both finite (the others are skipped)
    double rmse = 0;         ///< sqrt(mean((y − x)²)), x dequantized, y its RTN re-quantization
    double max_abs = 0;      ///< max |y − x|
    /// 10·log10(Σx² / Σ(y − x)²) in dB; +inf when y == x everywhere (also
    /// when every x is 0 and stays 0), −inf for an error over an all-zero x.
    double sqnr_db = 0;
};

/// Dequantize `tensor` (`Recipe::dequantize_rows`) in row chunks of about
/// `chunk_elems` elements, re-quantize with `scheme` and compare. Two passes
/// (per-group ranges, then re-quantization and errors; progress total =
/// 2 × rows); memory: one chunk buffer plus one or two floats per group
/// (no more than the stored scales). Group ranges are taken over the finite
/// values. GgmlParams take one pass (progress total = rows):
/// each chunk of whole rows is encoded and decoded as ggml would, and the
/// elements where both the value and its round trip are finite are
/// compared (memory: the chunk, its encoded bytes and its round trip).
/// A scheme forget writes (see RoundTripScheme) runs forget's encoder over
/// chunks of whole multiples of its row granularity: a first pass only when
/// the scheme needs one (FP8 per tensor, bitsandbytes double quant; progress
/// total = 2 × rows, else rows); memory: the chunk twice (dequantized and
/// rounded), the encoder's per-chunk buffers and what it holds whole.
/// Runs on the calling thread.
/// \param cancel checked before every chunk; true → throws Error{Cancelled}.
/// \throws Error{Unsupported} when the tensor has no recipe; Error{Usage}
///         when `scheme` does not fit the tensor's geometry (e.g. block or
///         group size 0, experts not dividing rows, a row that is not a whole
///         number of the GGUF type's blocks, a GGUF type without an encoder
///         or one that needs an importance matrix, bits outside 2..8, an
///         FP8 format that is not FP8, Fp4Params); Error{Cancelled}; any
///         Error the recipe raises.
RoundTripError measure_round_trip(const LogicalTensor& tensor, const RoundTripScheme& scheme,
                                    const ProgressFn& progress = {},
                                    const std::atomic<bool>* cancel = nullptr,
                                    std::uint64_t chunk_elems = 1u << 20);

/// `round_trip_scheme_for` + the above. When no scheme fits, returns
/// `measured == false` with the reason (`unavailable`, `reason`, `scheme`),
/// without reading tensor data.
/// \throws as above (Unsupported for a tensor without recipe).
RoundTripError measure_round_trip(const LogicalTensor& tensor, const ProgressFn& progress = {},
                                    const std::atomic<bool>* cancel = nullptr,
                                    std::uint64_t chunk_elems = 1u << 20);

/// Nearest value of FP8 format `fmt` to `x` (round to nearest, ties to even
/// mantissa), saturating to ±max-finite; NaN stays NaN. As PyTorch's
/// `x.to(float8_e4m3fn)` after a clamp to the finite range.
float fp8_round(DType fmt, float x) noexcept;

}  // namespace amn
