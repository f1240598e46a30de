// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file quant_params.hpp
/// Typed scheme parameters. A detector fills one of these for every
/// quantized logical tensor (`LogicalTensor::params`); everything that talks
/// about the scheme is derived from the value, never from text:
/// `Recipe::describe()` / `scheme_id()`, the plan's scheme counts, the GUI's
/// scheme text, the "what Lethe took" estimate (round_trip_estimate.hpp) and, later,
/// and the target of *forget* to safetensors (forget_st.hpp: `--to` names
/// parse to these values, and what forget writes is what the detectors read
/// back; test_forget_st_readback `writesWhatTheReadSideDetects`).
///
/// Geometry (rows, in/out features, experts) is the logical tensor's shape,
/// not a parameter. Data-dependent values (scales, zero points, the
/// double-quant offset) live in the companion tensors.

#include "anamnesis/dtype.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace amn {

// ---- FP8 ---------------------------------------------------------------------

/// Which elements share one FP8 scale.
enum class Fp8Granularity : std::uint8_t {
    Tensor,   ///< one scale for the whole tensor (scale numel 1)
    Channel,  ///< one per output row: scale [out, 1], [out] or [E, out, 1]
    Expert,   ///< one per leading batch entry of a 3-D (MoE) weight: scale [E] / [E, 1, 1]
    Block,    ///< one per `block_rows × block_cols` tile of every [rows, cols] matrix
    /// One per `group_size` consecutive inputs of every output row: scale
    /// [out, in / group_size] (compressed-tensors strategy "group").
    Group,
};

/// How the scale companion is named next to the weight `W` (= "X.weight").
enum class Fp8ScaleName : std::uint8_t {
    ScaleInv,     ///< "W_scale_inv" (transformers finegrained_fp8, DeepSeek-V3 / Qwen3 FP8)
    Scale,        ///< "W_scale" (compressed-tensors / llm-compressor)
    ScaleWeight,  ///< "X.scale_weight"
    DotScale,     ///< "W.scale"
};

/// The library whose checkpoint this is: it fixes the arithmetic the
/// recipe repeats and the words of id() / describe().
enum class Fp8Producer : std::uint8_t {
    /// transformers finegrained_fp8 and every layout detect_fp8 reads
    /// (DeepSeek-V3 / Qwen3 FP8, llm-compressor `float-quantized` with BF16
    /// or F32 scales): y = f32(fp8) × f32(scale), rounded once at the end.
    /// Ids "fp8-…".
    Transformers,
    /// compressed-tensors `float-quantized` claimed by its own detector (F16
    /// scales): the product is rounded to the scale's dtype, as the library
    /// computes in it. Ids "ct-fp8-…".
    CompressedTensors,
    /// NVIDIA ModelOpt FP8 (`FP8QTensor.dequantize`): the scale is rounded
    /// to BF16 first and the product to BF16. Ids "modelopt-fp8…".
    ModelOpt,
};

/// FP8 weights with f32-multiplied scales: y = f32(fp8(w)) × f32(scale), as
/// PyTorch's `w.to(float32) * s` (transformers finegrained_fp8,
/// compressed-tensors `float-quantized`, ModelOpt FP8), with the rounding
/// steps of `producer`. Every naming multiplies (a `_scale_inv` holds the
/// multiplier, despite its name).
struct Fp8Params {
    /// Element format of the weight: F8_E4M3 (torch.float8_e4m3fn, max 448),
    /// F8_E5M2 (float8_e5m2, max 57344), F8_E4M3FNUZ (max 240) or F8_E5M2FNUZ.
    DType format = DType::F8_E4M3;
    Fp8Granularity granularity = Fp8Granularity::Tensor;
    /// Block granularity only: tile size in elements, rows (output dim) ×
    /// columns (input dim), transformers' `weight_block_size` /
    /// compressed-tensors `block_structure` (e.g. 128 × 128). 0 otherwise.
    std::uint64_t block_rows = 0, block_cols = 0;
    /// Group granularity only: inputs per scale (compressed-tensors
    /// `group_size`). 0 otherwise.
    std::uint64_t group_size = 0;
    /// Stored dtype of the scale tensor: F32, BF16, F16, F8_E8M0 or F64.
    DType scale_dtype = DType::F32;
    Fp8ScaleName scale_name = Fp8ScaleName::ScaleInv;
    Fp8Producer producer = Fp8Producer::Transformers;
    /// compressed-tensors only: `input_activations.num_bits` of the layer's
    /// config group, the "A" of "W8A8" (16 when activations are not quantized).
    unsigned activation_bits = 16;
    /// Every scale is a power of two, rounded up from absmax / max-finite
    /// (DeepSeek-V3.1, quantization_config `scale_fmt: "ue8m0"`), still stored
    /// in `scale_dtype` (describe() says so unless that is F8_E8M0, powers
    /// of two by nature). Dequantization is the same; forget writes it so.
    bool ue8m0 = false;

    bool operator==(const Fp8Params&) const = default;
    /// "fp8-tensor", "fp8-channel", "fp8-expert", "fp8-block";
    /// "ct-fp8-tensor", "ct-fp8-channel", "ct-fp8-g128", "ct-fp8-block128x128";
    /// "modelopt-fp8" (per tensor), "modelopt-fp8-channel"
    std::string id() const;
    /// "FP8 (E4M3), 128×128 blocks, BF16 scales",
    /// "compressed-tensors W8A16 (float-quantized), FP8 E4M3, per-channel, F16 scales",
    /// "ModelOpt FP8 (E4M3), per-tensor F32 scale applied in BF16"
    std::string describe() const;
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
    /// compressed-tensors `pack-quantized`: `weight_packed` I32 [out,
    /// ceil(in·bits/32)], each row a little-endian bit stream of unsigned
    /// fields q + 2^(bits−1), `weight_shape` [out, in]; a packed
    /// `weight_zero_point` I32 [ceil(out·bits/32), groups] is the same kind
    /// of bit stream down each column.
    CtPackQuantized,
    /// compressed-tensors `int-quantized`: `weight` I8 [out, in], signed
    /// fields, no packing (any `bits` ≤ 8 is stored one per byte).
    CtIntQuantized,
    /// compressed-tensors `naive-quantized`: the same storage as
    /// CtIntQuantized under the older compressor name.
    CtNaiveQuantized,
};

/// True for the three compressed-tensors packings.
constexpr bool is_compressed_tensors(AffinePacking p) noexcept {
    return p == AffinePacking::CtPackQuantized || p == AffinePacking::CtIntQuantized ||
           p == AffinePacking::CtNaiveQuantized;
}

/// How the stored zero points relate to the ones used in dequantization.
enum class ZeroPointForm : std::uint8_t {
    /// GPTQ checkpoint_format "gptq" (v1): stored z − 1 (GPTQModel adds 1 per
    /// field on load; 3-bit fields modulo 8).
    GptqV1,
    /// Used as stored: GPTQ "gptq_v2", AWQ; compressed-tensors packed zero
    /// points (the field is already z + 2^(bits−1), the unsigned-domain zero).
    Stored,
    /// compressed-tensors zero points stored as plain (unpacked) numbers of
    /// the scales' shape: the signed z; the unsigned-domain zero is z plus
    /// the storage offset (2^(bits−1) for packed fields, 128 for I8 weights).
    Signed,
    /// No zero-point tensor (compressed-tensors symmetric): the zero is
    /// 2^(bits−1) in the unsigned domain, 0 in the signed one.
    None,
};

/// Integer weights with per-group scales and zero points along the input
/// dimension: W[n, k] = (f32(q[k, n]) − f32(z[g(k), n])) × f32(s[g(k), n]),
/// as GPTQModel `dequantize_weight` / AutoAWQ `dequantize_gemm` in f32;
/// compressed-tensors `dequantize` computes in the scales' dtype (each
/// product rounded once to BF16 / F16 / F32).
struct AffineParams {
    AffinePacking packing = AffinePacking::Gptq;
    unsigned bits = 4;  ///< field width: 2, 3, 4 or 8 (GPTQ, compressed-tensors); 4 (AWQ GEMM)
    /// Input elements per group (config `group_size`; −1 = the whole input
    /// dimension, stored here as in_features). 0 = no uniform size: an
    /// act-order `g_idx` over a group count that does not divide the inputs.
    std::uint64_t group_size = 0;
    std::uint64_t groups = 0;  ///< groups per output column (rows of `scales`)
    /// One group spans the whole input dimension (`groups == 1` and
    /// `group_size ≥ in_features`): per-channel quantization.
    bool channelwise = false;
    /// One scale (and zero point) for the whole tensor (compressed-tensors
    /// strategy "tensor"; `groups` 1). Not channelwise.
    bool per_tensor = false;
    /// GPTQ `sym` from the configuration (symmetric: zero = 2^(bits−1));
    /// nullopt when the configuration does not say. AWQ: nullopt (asymmetric
    /// by construction). compressed-tensors: as the data shows it (true
    /// exactly when no zero point is stored).
    std::optional<bool> symmetric;
    ZeroPointForm zero_points = ZeroPointForm::GptqV1;
    /// GPTQ `desc_act` as the data shows it: `g_idx` is not k / group_size
    /// (groups follow the activation order, not the storage order).
    bool act_order = false;
    DType scale_dtype = DType::F16;  ///< stored dtype of `scales`: F16, BF16 or F32
    /// compressed-tensors only: `input_activations.num_bits` of the layer's
    /// config group, the "A" of "W4A16" (16 when activations are not quantized).
    unsigned activation_bits = 16;

    bool operator==(const AffineParams&) const = default;
    /// "gptq-4bit-g128", "gptq-3bit-gx-actorder-v2", "awq-gemm-4bit-g128",
    /// "ct-pack-int4-g128", "ct-int-int8-channel", "ct-naive-int8-tensor-asym-actorder"
    std::string id() const;
    /// "GPTQ 4-bit, group 128, symmetric, F16 scales", "AWQ GEMM 4-bit, group 128, zero points, F16 scales",
    /// "compressed-tensors W4A16 (pack-quantized), int4 symmetric, group 128, BF16 scales"
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

    bool operator==(const Bnb4Params&) const = default;
    std::string id() const;        ///< "bnb-nf4-b64", "bnb-fp4-b64-dq"
    std::string describe() const;  ///< "bitsandbytes NF4, blocksize 64, double-quant (nested blocksize 256), compute bfloat16"
};

/// bitsandbytes LLM.int8 (`Int8Params`): I8 weight [out, in], row layout
/// (`weight_format` 0), row absmax `SCB` [out]:
/// W[r, c] = (f32(q[r, c]) × SCB[r]) × f32(1/127) (`int8_vectorwise_dequant`).
/// The outlier threshold (`llm_int8_threshold`) acts on activations only.
struct Int8Params {
    DType scale_dtype = DType::F32;  ///< stored dtype of `SCB`

    bool operator==(const Int8Params&) const = default;
    std::string id() const;        ///< "bnb-int8"
    std::string describe() const;  ///< "bitsandbytes LLM.int8, row-wise F32 absmax (SCB)"
};

// ---- ggml --------------------------------------------------------------------

/// A ggml block type of a GGUF file (ggml-common.h block layouts,
/// `dequantize_row_*`); rows are the innermost GGUF dimension.
struct GgmlParams {
    DType type = DType::Q8_0;  ///< a ggml block type (`dtype_info(type)->is_quantized_block`)

    bool operator==(const GgmlParams&) const = default;
    std::string id() const;        ///< "gguf-Q4_K"
    std::string describe() const;  ///< "GGUF Q4_K (256-element blocks of 144 bytes, 4.5 bits per weight)"
};

// ---- FP4 (NVFP4, MXFP4) -------------------------------------------------------

/// The FP4 block format: E2M1 elements (sign, 2 exponent bits, 1 mantissa
/// bit: ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}) sharing one scale per block of
/// consecutive elements along a row.
enum class Fp4Format : std::uint8_t {
    Nvfp4,  ///< NVIDIA NVFP4: an F8_E4M3 scale per 16 elements, and a per-tensor global scale
    Mxfp4,  ///< OCP MXFP4: an E8M0 (power of two, 2^(e−127)) scale per 32 elements
};

/// The library whose checkpoint this is (arithmetic, tensor names, id words).
enum class Fp4Producer : std::uint8_t {
    CompressedTensors,  ///< llm-compressor `nvfp4-pack-quantized`: weight_packed, weight_scale, weight_global_scale
    ModelOpt,           ///< NVIDIA ModelOpt NVFP4: weight, weight_scale, weight_scale_2
    GptOss,             ///< gpt-oss / transformers `mxfp4`: X_blocks, X_scales
};

/// How the per-tensor global scale combines with the block scales.
enum class Fp4GlobalScale : std::uint8_t {
    None,        ///< no global scale (MXFP4): s = scale
    Divisor,     ///< compressed-tensors `weight_global_scale`: s = e4m3(scale) / global
    Multiplier,  ///< ModelOpt `weight_scale_2`: s = e4m3(scale) × scale_2
};

/// Where the packed codes sit and how the output is laid out.
enum class Fp4Layout : std::uint8_t {
    /// Payload [out, in/2] bytes, two codes per byte, the lower-index element
    /// in the low nibble; scales [out, in/block_size]. Output [out, in].
    RowMajor,
    /// gpt-oss `X_blocks` [rows, in/32, 16] + `X_scales` [rows, in/32]
    /// (low nibble first). Output [rows, in] as stored.
    Blocks,
    /// gpt-oss MoE experts `X_blocks` [E, rows, in/32, 16] + `X_scales`
    /// [E, rows, in/32]; output transposed per expert to transformers'
    /// [E, in, rows] (`gate_up_proj` [E, hidden, 2·I], `down_proj` [E, I, hidden]).
    BlocksExperts,
};

/// FP4 weights with block scales: y = f32(e2m1(code) × s), s the block's
/// scale combined with the global scale as `global_scale` says, in the
/// rounding steps of `producer` (transformers / gpt-oss
/// `convert_moe_packed_tensors`, ModelOpt `NVFP4QTensor.dequantize`,
/// compressed-tensors `dequantize`).
struct Fp4Params {
    Fp4Format format = Fp4Format::Nvfp4;
    Fp4Producer producer = Fp4Producer::CompressedTensors;
    std::uint64_t block_size = 16;  ///< elements per block scale: 16 (NVFP4) or 32 (MXFP4)
    /// Dtype of the block scales: F8_E4M3 (NVFP4) or F8_E8M0 (MXFP4, stored as U8 bytes).
    DType scale_dtype = DType::F8_E4M3;
    Fp4GlobalScale global_scale = Fp4GlobalScale::Divisor;
    /// Stored dtype of the global scale (F32, BF16 or F16); F32 when there is none.
    DType global_dtype = DType::F32;
    /// The dtype compressed-tensors divides and multiplies in, each result
    /// rounded to it: BF16 (the model dtype; a 0-dim global scale) or F32 (a
    /// 1-D F32/F16 global scale promotes). F32 (no intermediate rounding)
    /// for the other producers.
    DType arithmetic = DType::F32;
    /// Code 8 (sign bit only) decodes to −0.0 (compressed-tensors, gpt-oss)
    /// or to +0.0 (ModelOpt's value table).
    bool negative_zero = true;
    Fp4Layout layout = Fp4Layout::RowMajor;
    /// compressed-tensors only: `input_activations.num_bits` of the layer's
    /// config group, the "A" of "W4A4" (16 when activations are not quantized).
    unsigned activation_bits = 16;

    bool operator==(const Fp4Params&) const = default;
    /// "ct-nvfp4", "modelopt-nvfp4", "mxfp4", "mxfp4-experts"
    std::string id() const;
    /// "compressed-tensors NVFP4 W4A4 (nvfp4-pack-quantized), E2M1 with an E4M3 scale per 16, F32 global scale",
    /// "ModelOpt NVFP4, E2M1 with an E4M3 scale per 16 and an F32 second-level scale",
    /// "MXFP4 (gpt-oss experts), E2M1 with an E8M0 scale per 32, transformers' [E, in, out] layout"
    std::string describe() const;
};

// ---- MLX (mlx-lm) ----------------------------------------------------------------

/// How an MLX quantized layer stores its values (`mx.quantize` `mode`).
enum class MlxMode : std::uint8_t {
    Affine,  ///< `bits`-bit unsigned codes q with a scale s and a bias b per group: w = s·q + b
    Mxfp4,   ///< E2M1 codes with an E8M0 scale (2^(e−127)) per 32 elements
    Nvfp4,   ///< E2M1 codes with an E4M3 scale per 16 elements (no global scale in MLX layers)
    Mxfp8,   ///< E4M3 codes with an E8M0 scale per 32 elements
};
/// "affine", "mxfp4", "nvfp4", "mxfp8" (config.json `quantization.mode`).
std::string_view mlx_mode_name(MlxMode m) noexcept;

/// An MLX quantized `Linear` / `Embedding` (mlx `nn.QuantizedLinear`,
/// `nn.QuantizedEmbedding`; folders written by `mlx_lm.convert -q`):
/// `P.weight` U32 [..., out, in·bits/32] — each row one LSB-first bit stream
/// of `bits`-bit codes read from the words' little-endian bytes —,
/// `P.scales` [..., out, in/group_size] (the model dtype in affine mode,
/// U8 E8M0/E4M3 bytes in the fp modes) and, in affine mode only, `P.biases`
/// of the scales' shape. Dequantized as `mx.dequantize` computes on the CPU
/// (mlx/ops.cpp `affine_dequantize` / `fp_dequantize`): affine
/// w = rnd(rnd(q·s) + b) rounded to the scales' dtype after each operation;
/// fp modes w = rnd_bf16(value(code) × scale), scale 2^(e−127) computed in
/// BF16 (E8M0) or the E4M3 byte (0x7F/0xFF read as ±480, MLX's FromFP8).
struct MlxParams {
    MlxMode mode = MlxMode::Affine;
    unsigned bits = 4;                ///< code width: affine 2, 3, 4, 5, 6, 8; 4 (mxfp4, nvfp4); 8 (mxfp8)
    std::uint64_t group_size = 64;    ///< elements per scale along the last axis: affine 32, 64, 128; 32 mx*; 16 nvfp4
    DType scale_dtype = DType::BF16;  ///< stored dtype of `scales`: BF16, F16, F32 (affine), U8 (fp modes)

    bool operator==(const MlxParams&) const = default;
    /// The dtype mx.dequantize returns: the scales' dtype in affine mode, BF16 in the fp modes.
    DType result_dtype() const noexcept;
    std::string id() const;        ///< "mlx-affine-4bit-g64", "mlx-mxfp4", "mlx-nvfp4", "mlx-mxfp8"
    std::string describe() const;  ///< "MLX affine 4-bit, group 64, BF16 scales and biases", "MLX MXFP4, E2M1 with an E8M0 scale per 32"
};

// ---- ONNX quantized initializers ----------------------------------------------

/// The ONNX operator whose inputs are a quantized weight and its companions
/// (onnx Operators.md, onnxruntime ContribOperators.md).
enum class OnnxQuantOp : std::uint8_t {
    /// com.microsoft.MatMulNBits: B uint8 [N, k_blocks, block_size·bits/8],
    /// fields from bit 0 up, scales [N·k_blocks], zero points packed uint8
    /// (⌈k_blocks·bits/8⌉ bytes per row) or float [N·k_blocks], default
    /// 2^(bits−1); the output is the float MatMul weight [K, N] it replaced.
    MatMulNBits,
    /// com.microsoft.GatherBlockQuantized: data INT4/UINT4 in its logical
    /// shape, or UINT8 with `bits` 4/8 packed along the last axis; scales per
    /// `block_size` along the last axis; zero point default 0 for INT4/UINT4,
    /// 2^(bits−1) for UINT8; output in the data's logical shape.
    GatherBlockQuantized,
    /// DequantizeLinear: y = (x − zero_point) × scale, per tensor, per axis or
    /// blocked (opset 21 `block_size`); output in x's shape.
    DequantizeLinear,
    /// MatMulInteger's constant B (onnxruntime IntegerOps, `W_quantized`)
    /// with its `W_zero_point` and the `W_scale` the graph multiplies the
    /// product by: (W − zero_point) × scale, [K, N] as stored.
    MatMulInteger,
    /// com.microsoft.MatMulBnb4: B uint8 [⌈N·K/2⌉], the weight transposed to
    /// [N, K] and flattened, first element in the high nibble, absmax per
    /// `block_size` elements; value = code[nibble] × absmax; output [K, N].
    MatMulBnb4,
};

/// How an ONNX quantized weight's scales are laid out.
enum class OnnxScaleGrid : std::uint8_t {
    Tensor,  ///< one scale (DequantizeLinear/MatMulInteger per tensor)
    Axis,    ///< one scale per index of `axis` (per channel)
    Block,   ///< one scale per `block_size` elements along `axis` (or the flattened tensor for MatMulBnb4)
};

/// The zero point of an ONNX quantized weight.
enum class OnnxZeroPoint : std::uint8_t {
    Default,  ///< no zero-point input: the operator's default (MatMulNBits 2^(bits−1), …)
    Integer,  ///< an integer tensor (packed for sub-byte fields): (q − zp) × scale
    /// A float zero point (MatMulNBits float/float16 `zero_points`):
    /// onnxruntime's CPU kernel computes q·scale + (−scale·zp), three f32 roundings.
    Float,
};

/// A weight quantized inside an ONNX graph, recognised from the node that
/// consumes it (plan/schemes/onnx.cc).
struct OnnxQuantParams {
    OnnxQuantOp op = OnnxQuantOp::MatMulNBits;
    /// Stored element type of the quantized weight in amn's names: "U8",
    /// "I8", "U4", "I4", "U16", "I16", "I32", "F8_E4M3", … (MatMulNBits,
    /// MatMulBnb4: "U8" bytes holding `bits`-bit fields).
    std::string element = "U8";
    unsigned bits = 4;               ///< field width in bits (2, 4, 8, 16, 32)
    OnnxScaleGrid grid = OnnxScaleGrid::Block;
    std::uint64_t block_size = 0;    ///< elements per scale for Block; 0 otherwise
    int axis = 0;                    ///< the axis scales run along (Axis, Block), non-negative
    OnnxZeroPoint zero_point = OnnxZeroPoint::Default;
    DType scale_dtype = DType::F32;  ///< stored dtype of the scales (absmax for MatMulBnb4)
    bool nf4 = true;                 ///< MatMulBnb4 only: NF4 (quant_type 1) or FP4 (0) codebook
    /// MatMulNBits only: a g_idx input (act order, 4-bit only) gives each
    /// row k of W its group: W[k, n] = q·s[n, g_idx[k]] + (−s·zp), where zp
    /// is the float zero point of that group, or 8 — also when the model
    /// has packed uint8 zero points: onnxruntime's act-order kernel
    /// (matmul_nbits_impl.cc Dequantize4BitsKernelReOrder, 1.30) reads them
    /// into a value it never uses, and the model runs that way.
    bool act_order = false;

    bool operator==(const OnnxQuantParams&) const = default;
    /// "onnx-matmulnbits-4bit-b32" (+ "-zp"/"-fzp", "-gidx"), "onnx-gbq-i4-b32", "onnx-dq-i8-axis",
    /// "onnx-dq-u8-tensor", "onnx-matmulinteger-u8-tensor", "onnx-bnb4-nf4-b64"
    std::string id() const;
    /// "ONNX MatMulNBits, U8 4-bit, block 32 along axis 0, no zero points (8), F32 scales, dequantized to [K, N]"
    std::string describe() const;
};

/// The parameters of any quantization scheme the core dequantizes (and,
/// for the alternatives forget_st.hpp lists, writes). Two values are equal
/// when every field is.
using QuantParams = std::variant<Fp8Params, AffineParams, Bnb4Params, Int8Params, GgmlParams, Fp4Params, MlxParams,
                                 OnnxQuantParams>;

/// Stable short scheme id for JSON and grouping (`Recipe::scheme_id()`).
std::string scheme_id(const QuantParams& p);
/// The scheme in words for the user (`Recipe::describe()`).
std::string describe(const QuantParams& p);

}  // namespace amn
