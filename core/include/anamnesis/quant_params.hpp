// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file quant_params.hpp
/// Typed scheme parameters. A detector fills one of these for every
/// quantized logical tensor (`LogicalTensor::params`); everything that talks
/// about the scheme is derived from the value, never from text:
/// `Recipe::describe()` / `scheme_id()`, the plan's scheme counts, the GUI's
/// scheme text, the "what Lethe took" estimate (requantize.hpp) and, later,
/// the encoders of *forget*, which must be able to re-create the exact scheme
/// from these fields and the tensor's shape.
///
/// Geometry (rows, in/out features, experts) is the logical tensor's shape,
/// not a parameter. Data-dependent values (scales, zero points, the
/// double-quant offset) live in the companion tensors.

#include "anamnesis/dtype.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace amn {

// ---- FP8 ---------------------------------------------------------------------

/// Which elements share one FP8 scale.
enum class Fp8Granularity : std::uint8_t {
    Tensor,   ///< one scale for the whole tensor (scale numel 1)
    Channel,  ///< one per output row: scale [out, 1], [out] or [E, out, 1]
    Expert,   ///< one per leading batch entry of a 3-D (MoE) weight: scale [E] / [E, 1, 1]
    Block,    ///< one per `block_rows × block_cols` tile of every [rows, cols] matrix
};

/// How the scale companion is named next to the weight `W` (= "X.weight").
enum class Fp8ScaleName : std::uint8_t {
    ScaleInv,     ///< "W_scale_inv" (transformers finegrained_fp8, DeepSeek-V3 / Qwen3 FP8)
    Scale,        ///< "W_scale" (compressed-tensors / llm-compressor)
    ScaleWeight,  ///< "X.scale_weight"
    DotScale,     ///< "W.scale"
};

/// FP8 weights with f32-multiplied scales: y = f32(fp8(w)) × f32(scale), as
/// PyTorch's `w.to(float32) * s` (transformers finegrained_fp8,
/// compressed-tensors `float-quantized`). Every naming multiplies (a
/// `_scale_inv` holds the multiplier, despite its name).
struct Fp8Params {
    /// Element format of the weight: F8_E4M3 (torch.float8_e4m3fn, max 448),
    /// F8_E5M2 (float8_e5m2, max 57344), F8_E4M3FNUZ (max 240) or F8_E5M2FNUZ.
    DType format = DType::F8_E4M3;
    Fp8Granularity granularity = Fp8Granularity::Tensor;
    /// Block granularity only: tile size in elements, rows (output dim) ×
    /// columns (input dim), transformers' `weight_block_size` /
    /// compressed-tensors `block_structure` (e.g. 128 × 128). 0 otherwise.
    std::uint64_t block_rows = 0, block_cols = 0;
    /// Stored dtype of the scale tensor: F32, BF16, F16, F8_E8M0 or F64.
    DType scale_dtype = DType::F32;
    Fp8ScaleName scale_name = Fp8ScaleName::ScaleInv;

    std::string id() const;        ///< "fp8-tensor", "fp8-channel", "fp8-expert", "fp8-block"
    std::string describe() const;  ///< "FP8 (E4M3), 128×128 blocks, BF16 scales"
};

// ---- integer affine (GPTQ, AWQ) ----------------------------------------------

/// How the integer fields are packed into I32 words.
enum class AffinePacking : std::uint8_t {
    /// GPTQ (AutoGPTQ / GPTQModel `pack`): `qweight` [in·bits/32, out], each
    /// column a little-endian bit stream along the input dimension (3-bit
    /// fields straddle words); `qzeros` [groups, out·bits/32] packed along outputs.
    Gptq,
    /// AutoAWQ GEMM (`packing_utils`): `qweight` [in, out/8], eight 4-bit
    /// fields per word along outputs, nibble p holding column
    /// 8j + [0, 2, 4, 6, 1, 3, 5, 7][p]; `qzeros` [groups, out/8] the same way.
    AwqGemm,
    // compressed-tensors `pack-quantized` int (weight_packed, weight_zero_point)
    // would be a third packing of the same parameters.
};

/// How the stored zero points relate to the ones used in dequantization.
enum class ZeroPointForm : std::uint8_t {
    /// GPTQ checkpoint_format "gptq" (v1): stored z − 1 (GPTQModel adds 1 per
    /// field on load; 3-bit fields modulo 8).
    GptqV1,
    /// Used as stored: GPTQ "gptq_v2", AWQ.
    Stored,
};

/// Integer weights with per-group scales and zero points along the input
/// dimension: W[n, k] = (f32(q[k, n]) − f32(z[g(k), n])) × f32(s[g(k), n]),
/// as GPTQModel `dequantize_weight` / AutoAWQ `dequantize_gemm` in f32.
struct AffineParams {
    AffinePacking packing = AffinePacking::Gptq;
    unsigned bits = 4;  ///< field width: 2, 3, 4 or 8 (GPTQ); 4 (AWQ GEMM)
    /// Input elements per group (config `group_size`; −1 = the whole input
    /// dimension, stored here as in_features). 0 = no uniform size: an
    /// act-order `g_idx` over a group count that does not divide the inputs.
    std::uint64_t group_size = 0;
    std::uint64_t groups = 0;  ///< groups per output column (rows of `scales`)
    /// One group spans the whole input dimension (`groups == 1` and
    /// `group_size ≥ in_features`): per-channel quantization.
    bool channelwise = false;
    /// GPTQ `sym` from the configuration (symmetric: zero = 2^(bits−1));
    /// nullopt when the configuration does not say. AWQ: nullopt (asymmetric by construction).
    std::optional<bool> symmetric;
    ZeroPointForm zero_points = ZeroPointForm::GptqV1;
    /// GPTQ `desc_act` as the data shows it: `g_idx` is not k / group_size
    /// (groups follow the activation order, not the storage order).
    bool act_order = false;
    DType scale_dtype = DType::F16;  ///< stored dtype of `scales`: F16, BF16 or F32

    /// "gptq-4bit-g128", "gptq-3bit-gx-actorder-v2", "awq-gemm-4bit-g128"
    std::string id() const;
    /// "GPTQ 4-bit, group 128, symmetric, F16 scales", "AWQ GEMM 4-bit, group 128, zero points, F16 scales"
    std::string describe() const;
};

// ---- bitsandbytes ------------------------------------------------------------

enum class Bnb4Type : std::uint8_t {
    Nf4,  ///< NormalFloat4 codebook (bitsandbytes functional.py, `dDequantizeNF4`)
    Fp4,  ///< FP4 codebook (`dDequantizeFP4Tree`)
};

/// bitsandbytes 4-bit (`Params4bit`, transformers' serialization): two
/// codes per byte (the first element in the high nibble) of the flattened
/// tensor; y[i] = code[nibble(i)] × absmax[i / blocksize].
struct Bnb4Params {
    Bnb4Type type = Bnb4Type::Nf4;
    std::uint64_t blocksize = 64;  ///< elements per absmax block of the flattened tensor (quant_state `blocksize`)
    /// Double quantization (`bnb_4bit_use_double_quant`): absmax stored as U8
    /// codes of an 8-bit dynamic codebook with f32 `nested_absmax` per
    /// `nested_blocksize` absmax values, plus a scalar offset (the mean, kept
    /// in the quant_state blob as data, not as a parameter).
    bool double_quant = false;
    std::uint64_t nested_blocksize = 0;  ///< absmax values per nested block (256 by default); 0 without double quant
    /// quant_state `dtype`: the torch compute dtype the weight had
    /// ("bfloat16", "float16", "float32"); empty when the blob omits it.
    std::string compute_dtype;

    std::string id() const;        ///< "bnb-nf4-b64", "bnb-fp4-b64-dq"
    std::string describe() const;  ///< "bitsandbytes NF4, blocksize 64, double-quant (nested blocksize 256), compute bfloat16"
};

/// bitsandbytes LLM.int8 (`Int8Params`): I8 weight [out, in], row layout
/// (`weight_format` 0), row absmax `SCB` [out]:
/// W[r, c] = (f32(q[r, c]) × SCB[r]) × f32(1/127) (`int8_vectorwise_dequant`).
/// The outlier threshold (`llm_int8_threshold`) acts on activations only.
struct Int8Params {
    DType scale_dtype = DType::F32;  ///< stored dtype of `SCB`

    std::string id() const;        ///< "bnb-int8"
    std::string describe() const;  ///< "bitsandbytes LLM.int8, row-wise F32 absmax (SCB)"
};

// ---- ggml --------------------------------------------------------------------

/// A ggml block type of a GGUF file (ggml-common.h block layouts,
/// `dequantize_row_*`); rows are the innermost GGUF dimension.
struct GgmlParams {
    DType type = DType::Q8_0;  ///< a ggml block type (`dtype_info(type)->is_quantized_block`)

    std::string id() const;        ///< "gguf-Q4_K"
    std::string describe() const;  ///< "GGUF Q4_K (256-element blocks of 144 bytes, 4.5 bits per weight)"
};

/// The parameters of any quantization scheme the core dequantizes.
using QuantParams = std::variant<Fp8Params, AffineParams, Bnb4Params, Int8Params, GgmlParams>;

/// Stable short scheme id for JSON and grouping (`Recipe::scheme_id()`).
std::string scheme_id(const QuantParams& p);
/// The scheme in words for the user (`Recipe::describe()`).
std::string describe(const QuantParams& p);

}  // namespace amn
