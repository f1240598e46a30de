// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file forget_st.hpp
/// Forget (quantize) to the safetensors checkpoints transformers and vLLM
/// load: bitsandbytes NF4/FP4/LLM.int8, compressed-tensors FP8
/// (`float-quantized`) and W4A16/W8A16 (`pack-quantized`), DeepSeek-style
/// 128×128 block FP8. The Linear weights of the transformer blocks are
/// encoded by the quantizers of st_quantize.hpp (byte for byte what the
/// library writes, CPU variant) and written with their companions under the
/// library's names; every other tensor passes through unchanged; config.json
/// gets the library's `quantization_config`. Output goes through the
/// safetensors sink shared with remember (shards, index.json, config.json,
/// tokenizer files as temporaries committed together), sharded like the
/// input, on the one executor. Every tensor streams in row chunks of about
/// `chunk_bytes` (quantized weights in multiples of whole bitsandbytes
/// blocks / 128-row FP8 tiles), so peak memory does not grow with the
/// largest weight; the two tensor-wide values (FP8 per-tensor scale,
/// double-quant mean of absmax) come from a first pass over the chunks. The
/// quantizers run on SIMD kernels (Highway, chosen at run time) that give
/// the scalar reference's bytes. The round trip of every quantized tensor
/// is measured (RMSE, max abs error, SQNR) on the spot, per chunk in f64
/// (chunk sums added in row order).
///
/// Not quantized, by design: fused 3-D MoE expert tensors (not nn.Linear
/// weights; neither transformers' bitsandbytes nor llm-compressor quantizes
/// them) and, for compressed-tensors/FP8, GPT-2 family `Conv1D` layers
/// (llm-compressor targets nn.Linear). For bitsandbytes, a `Conv1D` layer
/// (`c_attn`, `c_proj`, `c_fc`, `q_attn` of model_type gpt2, openai-gpt,
/// imagegpt, decision_transformer; stored [in, out], which transformers
/// transposes before quantizing) is refused with Error{Unsupported} unless
/// `--keep` keeps it: there is no reference for that path yet.

#include "anamnesis/catalog.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/quant_params.hpp"
#include "anamnesis/st_quantize.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace amn {

// ---- schemes: the read side's typed parameters ------------------------------------
//
// A scheme to write is a QuantParams value (quant_params.hpp), the type the
// detectors fill when they read a checkpoint: what forget writes is what
// `amn inspect` then reports. The values forget writes, one per `--to` name
// (parse_st_scheme), and the fields each one fixes:
//
// | `--to`                 | alternative  | fixed fields                                                       |
// |------------------------|--------------|--------------------------------------------------------------------|
// | bnb-nf4, bnb-fp4       | Bnb4Params   | type; blocksize (64 … 4096, power of two); double_quant with nested_blocksize 256 (0 without) |
// | bnb-int8               | Int8Params   | scale_dtype F32 (`SCB`)                                            |
// | fp8                    | Fp8Params    | format F8_E4M3, scale_name Scale, producer CompressedTensors, activation_bits 8; granularity Tensor (preset FP8), Channel (FP8_DYNAMIC) or Block 128 × 128 (FP8_BLOCK) |
// | fp8-block-deepseek     | Fp8Params    | format F8_E4M3, Block 128 × 128, scale_dtype F32, scale_name ScaleInv, producer Transformers; ue8m0 |
// | w4a16(-asym), w8a16(-asym) | AffineParams | packing CtPackQuantized, bits 4 / 8, symmetric (zero_points None) or not (Stored), group_size (a multiple of 8) or channelwise |
//
// The fields a weight decides (the scale dtype of compressed-tensors = the
// weight's dtype, bitsandbytes' compute_dtype, the group count, and the
// producer the read side names by that arithmetic) are ignored in the
// scheme given and filled per weight by st_weight_params().

/// The scheme names `amn forget --to` accepts, in help order: "bnb-nf4",
/// "bnb-fp4", "bnb-int8", "fp8", "fp8-block-deepseek", "w4a16", "w4a16-asym",
/// "w8a16", "w8a16-asym".
const std::vector<std::string_view>& st_scheme_names();

/// Which options a scheme of st_scheme_names() takes (its row's facts), for
/// front ends that offer them (the desktop wizard); the same facts
/// parse_st_scheme() checks the options against.
struct StSchemeInfo {
    bool takes_blocksize = false;     ///< --blocksize
    bool takes_double_quant = false;  ///< --double-quant
    bool takes_granularity = false;   ///< --granularity
    bool takes_ue8m0 = false;         ///< --ue8m0
    bool takes_group_size = false;    ///< --group-size
};
/// The facts of scheme `name`, or nullopt for a name that is not one of st_scheme_names().
std::optional<StSchemeInfo> st_scheme_info(std::string_view name);

/// The options of a scheme as a user gives them; unset = the scheme's default.
struct StSchemeOptions {
    std::optional<unsigned> blocksize;       ///< bnb-nf4/bnb-fp4 only (default 64)
    bool double_quant = false;               ///< bnb-nf4/bnb-fp4 only
    std::optional<Fp8Granularity> granularity;  ///< fp8 only: Tensor, Channel (default) or Block
    bool ue8m0 = false;                      ///< fp8-block-deepseek only
    /// w4a16/w8a16(-asym) only: columns per group (default 128), 0 = channel.
    std::optional<unsigned> group_size;
};

/// The granularity a user names for `fp8` ("tensor", "channel" or "block"),
/// read once by the front ends (`--granularity`, the wizard).
/// \throws Error{Usage} "--granularity must be tensor, channel or block, not '<word>'".
Fp8Granularity parse_fp8_granularity(std::string_view word);

/// The scheme of a name of st_scheme_names() with its options (see the table above).
/// \throws Error{Usage} for an unknown name (the message lists the names), an
///         option the scheme does not take (e.g. --group-size with bnb-nf4),
///         a block size that is not a power of two from 64 to 4096, a
///         granularity other than Tensor/Channel/Block (the message as
///         parse_fp8_granularity's), or a group size that is not a multiple
///         of 8 (0 = channel is fine).
QuantParams parse_st_scheme(std::string_view name, const StSchemeOptions& options);

/// Whether forget to safetensors writes `scheme` (one of the rows of the
/// table above), and with valid values.
/// \throws Error{Unsupported} "forget to safetensors does not write <describe()>"
///         for a scheme no row writes (GPTQ, AWQ, NVFP4, GGUF types, FP8 E5M2,
///         an FP8 block other than 128 × 128, …); Error{Usage} for a value the
///         row refuses, with parse_st_scheme's words (a block size that is
///         not a power of two from 64 to 4096, a group size that is not a
///         multiple of 8, a nested block size other than 256).
void check_st_scheme(const QuantParams& scheme);

/// The parameters of one weight of `rows` × `cols` elements stored as
/// `weight_dtype` (BF16, F16 or F32) after forget writes it with `scheme`:
/// exactly what the read side's detector fills for it in the output
/// (`LogicalTensor::params`). compressed-tensors: scale_dtype =
/// weight_dtype; FP8 with BF16/F32 scales is named producer Transformers
/// (activation_bits 16) since its arithmetic is transformers'; AffineParams
/// groups and group_size (cols when channelwise). bitsandbytes 4-bit:
/// compute_dtype "bfloat16" / "float16" / "float32".
/// \throws as check_st_scheme().
QuantParams st_weight_params(const QuantParams& scheme, std::uint64_t rows, std::uint64_t cols, DType weight_dtype);

/// The scheme's name as the ecosystem says it, with its parameters:
/// "bnb-nf4 (blocksize 64, double quant)", "fp8 (FP8_DYNAMIC, channel)",
/// "w4a16 (group 128)", "fp8-block-deepseek (ue8m0)" …
/// \throws as check_st_scheme().
std::string st_scheme_label(const QuantParams& scheme);

/// The `quantization_config` object the library writes into config.json for
/// `scheme` (compact JSON text). `ignore`: the Linear modules left
/// unquantized, listed for compressed-tensors schemes (`ignore`); the other
/// schemes' configs do not carry it (bitsandbytes skips by its own rule,
/// DeepSeek FP8 by the absent scale). Matches the `quantization_config` of
/// each scheme in `shared/fixtures/quantize-ref-st/manifest.json` (its
/// annotation keys starting with "_" aside).
/// \throws as check_st_scheme().
std::string st_quantization_config(const QuantParams& scheme, const std::vector<std::string>& ignore);

// ---- forget ---------------------------------------------------------------------

struct StForgetOptions {
    /// The scheme to write (parse_st_scheme(), or any value check_st_scheme() takes).
    QuantParams scheme = Bnb4Params{};
    /// ECMAScript regexes searched in tensor names. `only` (when non-empty)
    /// replaces the default choice: every 2-D float `*.weight` matching one
    /// is quantized. `keep`: matching tensors are never quantized.
    std::vector<std::string> only, keep;
    /// Re-quantize an input that is already quantized (its tensors decoded by
    /// their plan recipes first). Without it such an input is an error.
    bool requantize = false;
    /// Output: a folder (default: a sibling "<model>-<scheme>" of a model
    /// folder) or a `.safetensors` file (sharded input → numbered files +
    /// index.json beside it); see RememberOptions::output.
    std::string output;
    bool force = false;                     ///< replace existing output files
    unsigned threads = 0;                   ///< worker threads, 0 = all cores
    /// f32 bytes of input per work unit (about; every tensor). Tensors also
    /// run in batches of about 64 × this many elements (what a quantizer
    /// holds whole is freed after its batch), 8 × when a weight of the batch
    /// needs a first pass (FP8 per tensor; double quantization with
    /// measure_loss): its input stays mapped between the two passes.
    std::uint64_t chunk_bytes = 8u << 20;
    /// Measure what each quantized weight lost (ForgetTensor's rmse,
    /// max_abs, sqnr_db, sum_sq_error, sum_sq_signal): every value is
    /// dequantized again and compared with its input. False skips that pass
    /// (about a quarter of the CPU time of the 4-bit schemes): the loss
    /// fields stay 0 and StForgetResult::loss_measured is false. The files
    /// written are the same either way, and so are the errors raised (a
    /// NaN/±inf in a weight is found by a separate check then) and the
    /// LLM.int8 warning for rows whose F16 cast overflows.
    bool measure_loss = true;
    /// MLX only (`mlx_lm.convert --dtype`): every float tensor of the input
    /// cast to this dtype (F16, BF16 or F32) before quantizing — the kept
    /// ones written in it, the quantized ones' scales and biases in it.
    /// nullopt: config.json's `torch_dtype` (else `text_config.dtype`) when it
    /// names one of the three, as mlx_lm.convert does (not for a GGUF input,
    /// whose config.json is made here); config.json is not changed either way.
    std::optional<DType> dtype;
    /// MLX only (`mlx_lm.convert --quant-predicate`): "mixed_2_6",
    /// "mixed_3_4", "mixed_3_6" or "mixed_4_6" ("": none). Every module that
    /// is quantized gets its own `quantization` entry, low or high bits by its
    /// path (forget_st_mlx_recipe.hpp: lm_head, and v_proj / down_proj of the
    /// first and last eighth of the layers and every third between, high; 6
    /// bits, 4 for mixed_3_4), the model's own predicate replaced. Affine only.
    std::string quant_predicate;
    /// With quant_predicate: the group size each entry records, which the
    /// scheme's group size must equal (mlx_lm.convert passes --q-group-size
    /// unresolved): nullopt records `"group_size": null` (the layers are still
    /// quantized with the scheme's group size, mlx-lm's default 64).
    std::optional<std::uint64_t> quant_predicate_group_size;
};

struct StForgetResult {
    std::vector<std::string> files;     ///< every file written (shards, index.json, config.json, copied tokenizer files)
    /// One per logical tensor, in input order. Quantized: `target` = dtype
    /// of the stored payload (U8, I8, F8_E4M3, I32), `bytes` = payload and
    /// every companion, `numel` = weight elements, loss measured over the
    /// finite dequantized values. Kept: `copied` = true (bytes unchanged) or
    /// target BF16 for an already-quantized tensor decoded with --requantize.
    std::vector<ForgetTensor> tensors;
    /// For tensors[i]: the names of the stored tensors written for it
    /// (payload first, then companions in the library's order).
    std::vector<std::vector<std::string>> stored;
    /// Logical tensor names kept although they are 2-D weights (lm_head,
    /// routers, --keep, outside the blocks): "what was kept".
    std::vector<std::string> kept;
    std::string quantization_config;    ///< JSON text written into config.json
    std::uint64_t file_bytes = 0;       ///< bytes of the safetensors files
    std::uint64_t input_numel = 0;      ///< elements of all logical tensors
    /// Dequantized values that were not finite (LLM.int8 rows whose F16
    /// cast overflows), skipped by the loss sums, summed over tensors.
    std::uint64_t nonfinite = 0;
    bool loss_measured = true;          ///< StForgetOptions::measure_loss of the run
    /// In order: re-quantized tensors (NoticeKind::Requantized, count 0),
    /// a GGUF input's layout warnings (HfLayout::warnings), then values that
    /// dequantize to non-finite numbers per tensor (NonFiniteDequantized).
    std::vector<Notice> warnings;
};

/// Choose every tensor's fate without writing anything (dry run). Fills
/// name, shape, source, target, st_rule (why quantized or kept), bytes and
/// numel.
/// A GGUF input is read in its Hugging Face layout (amn::to_hf_layout: HF
/// tensor names, llama.cpp's Q/K permutation undone, config.json from the
/// metadata), so that the output is the folder transformers/vLLM load —
/// byte for byte what `amn remember --layout hf` followed by forget writes.
/// \throws what check_st_scheme() throws for options.scheme;
///         Error{Unsupported} naming the first tensor whose plan has an
///         error, naming a GGUF architecture or tensor to_hf_layout does
///         not support, or when the input is already quantized and !requantize
///         ("already quantized (<scheme>): pass --requantize …");
///         Error{Usage} for an output named *.gguf, a bad regex, a group size that does not divide a
///         chosen weight's row (naming it), or when no tensor is chosen; MLX: Error{Usage} for
///         options.dtype with another scheme or not F16/BF16/F32, or a model's own group size
///         (qwen3_moe routers: 64) that does not divide the router's rows; Error{Unsupported} for a
///         config.json model_type mlx-lm has no model for, or per-expert tensors of a model type
///         whose expert stacking is not known (mixtral, qwen2_moe, qwen3_moe, olmoe, deepseek_v2 are); Error{Malformed}
///         when a layer's experts are not 0 … E−1 of one shape. quant_predicate: Error{Usage}
///         for another scheme than MLX affine, an unknown recipe, or a
///         quant_predicate_group_size other than the scheme's; Error{Unsupported} when no
///         module path contains down_proj, or a module's layer-index part is not a number.
std::vector<ForgetTensor> plan_st_forget(const Catalog& catalog, const Plan& plan, const StForgetOptions& options);

/// Quantize the model as the scheme's library would and write it.
/// Progress counts input f32 bytes (4 per element of every tensor).
/// \throws everything plan_st_forget() throws; Error{Unsupported} naming the
///         tensor and element for a NaN or ±inf in a weight to quantize;
///         Error{OutputExists} when an output exists and !force; Error{Usage}
///         when an output is an input file; Error{Io} for an unwritable folder
///         or too little space; Error{Cancelled}; any Error a recipe raises.
///         In every case nothing is left at the output paths (temporary
///         files and a new folder's temporary removed, files replaced with
///         `force` restored).
StForgetResult forget_to_safetensors(const Catalog& catalog, const Plan& plan, const StForgetOptions& options,
                                     const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// Default output: a model folder (or a sharded / config-carrying input) →
/// sibling folder "<name>-<tag>" (a quantization suffix of the name
/// replaced); a GGUF file → folder "<stem>-<tag>" beside it (config.json
/// inside); another single file → "<stem>-<tag>.safetensors" beside it. Tags:
/// bnb-nf4, bnb-fp4, bnb-int8, fp8, fp8-dynamic, fp8-block, fp8-block-ds,
/// w4a16, w4a16-asym, w8a16, w8a16-asym (channel: "-ch" appended).
/// \throws as check_st_scheme().
std::string default_st_output_path(const Catalog& catalog, const QuantParams& scheme);

}  // namespace amn
