// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file gguf_ftype.hpp
/// llama.cpp's file types (`enum llama_ftype`, llama.h), llama-quantize's
/// choice of a ggml type for every tensor of a model, rule for rule, and the
/// key/values it writes.
///
/// Matches llama.cpp `src/llama-quant.cpp` (`tensor_allows_quantization`,
/// `llama_tensor_get_type`, `llama_tensor_get_type_impl`,
/// `tensor_type_fallback`, `tensor_requires_imatrix`,
/// `llama_ftype_get_default_type`, `init_quantize_state_counters`) and
/// `tools/quantize/quantize.cpp` (QUANT_OPTIONS names and aliases,
/// `parse_ggml_type`, `parse_tensor_type`), as of the commit that made the
/// shared gguf-real fixtures (34af94c); the fixtures are the judge.

#include "anamnesis/dtype.hpp"
#include "anamnesis/catalog.hpp"
#include "anamnesis/metadata.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn {

/// llama.cpp's file type ids (llama.h `enum llama_ftype`, written as
/// `general.file_type`): the values of LlamaFileType::id. Q4_1_SOME_F16 (4)
/// is retired; 5, 6 and 33–35 are gone from llama.h.
namespace ftype {
enum Id : std::uint32_t {
    ALL_F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q4_1_SOME_F16 = 4, Q8_0 = 7, Q5_0 = 8, Q5_1 = 9, Q2_K = 10,
    Q3_K_S = 11, Q3_K_M = 12, Q3_K_L = 13, Q4_K_S = 14, Q4_K_M = 15, Q5_K_S = 16, Q5_K_M = 17, Q6_K = 18,
    IQ2_XXS = 19, IQ2_XS = 20, Q2_K_S = 21, IQ3_XS = 22, IQ3_XXS = 23, IQ1_S = 24, IQ4_NL = 25, IQ3_S = 26,
    IQ3_M = 27, IQ2_S = 28, IQ2_M = 29, IQ4_XS = 30, IQ1_M = 31, BF16 = 32, TQ1_0 = 36, TQ2_0 = 37,
    MXFP4_MOE = 38, NVFP4 = 39, Q1_0 = 40, Q2_0 = 41,
};
}  // namespace ftype

/// One llama.cpp file type.
struct LlamaFileType {
    std::uint32_t id;          ///< llama_ftype value, stored in `general.file_type`
    std::string_view name;     ///< as llama-quantize names it ("Q4_K_M"); the llama.h name without LLAMA_FTYPE_MOSTLY_
    /// `llama_ftype_get_default_type`: the type of every quantizable tensor
    /// before the mix rules; DType::Unknown for retired ids (4 = Q4_1_SOME_F16).
    DType default_type;
    /// Offered by llama-quantize's command line (QUANT_OPTIONS). NVFP4 (39)
    /// exists in llama.h but llama-quantize 34af94c does not offer it.
    bool offered;
    /// llama-quantize refuses this file type without --imatrix
    /// (IQ2_XXS, IQ2_XS, IQ2_S, Q2_K_S, IQ1_S, IQ1_M) with kLlamaImatrixRefusal.
    bool needs_imatrix;
};

/// llama-quantize's refusal of a file type with needs_imatrix when no
/// importance matrix is given (tools/quantize/quantize.cpp).
inline constexpr std::string_view kLlamaImatrixRefusal =
    "Please do not use IQ1_S, IQ1_M, IQ2_S, IQ2_XXS, IQ2_XS or Q2_K_S quantization without an importance matrix";

/// Every llama_ftype, by id: F32 F16 Q4_0 Q4_1 Q4_1_SOME_F16 Q8_0 Q5_0 Q5_1
/// Q2_K Q3_K_S Q3_K_M Q3_K_L Q4_K_S Q4_K_M Q5_K_S Q5_K_M Q6_K IQ2_XXS IQ2_XS
/// Q2_K_S IQ3_XS IQ3_XXS IQ1_S IQ4_NL IQ3_S IQ3_M IQ2_S IQ2_M IQ4_XS IQ1_M
/// BF16 TQ1_0 TQ2_0 MXFP4_MOE NVFP4 Q1_0 Q2_0 (ids 0–41 with gaps).
/// This is the one table: llama_ftype_name() in gguf.hpp reads it.
std::span<const LlamaFileType> llama_file_types() noexcept;

/// The row of `id`, or nullptr.
const LlamaFileType* llama_file_type(std::uint32_t id) noexcept;

/// Parse a file type as llama-quantize does (`try_parse_ftype`): a name,
/// case-insensitive ("q4_k_m"), the aliases Q3_K → Q3_K_M, Q4_K → Q4_K_M,
/// Q5_K → Q5_K_M, or a decimal id ("15"). Only types llama-quantize offers
/// are accepted (not Q4_1_SOME_F16, not NVFP4); nullptr otherwise.
/// ("COPY", llama-quantize's copy-only mode, is not a file type and is not accepted.)
const LlamaFileType* parse_llama_file_type(std::string_view text) noexcept;

/// One `--outtype` of convert_hf_to_gguf.py that anamnesis writes (its
/// `ftype_map`, less tq1_0/tq2_0 and the resolved-later "auto").
struct ConverterOuttype {
    std::string_view name;  ///< upper case as amn spells it: "F32", "F16", "BF16", "Q8_0"
    DType type;             ///< the type of the tensors it converts (the converter's rules keep some F32)
    std::uint32_t ftype;    ///< general.file_type written (ftype::ALL_F32, F16, BF16, Q8_0)
};
/// The converter's outtypes, in the order its help lists them: F32, F16,
/// BF16, Q8_0. The one list: `amn convert --to gguf:TYPE`, forget's
/// converter path, the help text and the desktop wizard read it.
std::span<const ConverterOuttype> converter_outtypes() noexcept;
/// The outtype writing `type` (F32, F16, BF16, Q8_0), or nullptr.
const ConverterOuttype* converter_outtype_of(DType type) noexcept;
/// The outtype whose general.file_type is `ftype_id`, or nullptr.
const ConverterOuttype* converter_outtype_of_ftype(std::uint32_t ftype_id) noexcept;

/// Every type forget can write into a GGUF: F32, F16, BF16, then every ggml
/// block type of AMN_GGML_TYPES with an encoder (with or without an
/// importance matrix; those that need one, IQ1_S, IQ2_XXS, IQ2_XS, refuse
/// without it), in ggml id order. What --tensor-type, --output-tensor-type,
/// --token-embedding-type and the wizard's overrides offer.
std::vector<DType> encodable_ggml_types();

/// ggml's name of a type (`ggml_type_name`): "f32", "bf16", "q4_0", "q4_K",
/// "iq2_xxs", "mxfp4" … (lower case except the "K" of k-quants); "" for a
/// type without a ggml id.
std::string ggml_type_name(DType t);

/// Parse a ggml type name as llama-quantize does for --output-tensor-type,
/// --token-embedding-type and --tensor-type (`parse_ggml_type`): any ggml
/// type name, case-insensitive ("Q4_K", "q4_k", "F16", "bf16", "IQ2_XXS").
/// nullopt when unknown.
std::optional<DType> parse_ggml_type(std::string_view name) noexcept;

/// Parse one `--tensor-type PATTERN=TYPE` argument (`parse_tensor_type`):
/// the pattern (an ECMAScript regular expression, searched anywhere in the
/// tensor name) is lower-cased as llama-quantize does; TYPE as parse_ggml_type().
/// \throws Error{Usage}: no '=', empty pattern ("missing tensor name"), empty
///         type ("missing quantization type"), unknown type, or a pattern
///         that is not a valid regular expression.
std::pair<std::string, DType> parse_tensor_type_override(std::string_view arg);

/// One input tensor.
struct TensorDesc {
    std::string name;                   ///< GGUF tensor name ("blk.0.attn_v.weight")
    std::vector<std::uint64_t> shape;   ///< row-major (PyTorch order); the row is shape.back()
    DType dtype = DType::F32;           ///< stored type (kept for tensors that are not quantized)
};

/// What the user asked llama-quantize for.
struct QuantizeRequest {
    std::uint32_t ftype = 15;                     ///< llama_ftype id (e.g. 15 = Q4_K_M)
    bool pure = false;                            ///< --pure: no mix rules, the default type everywhere
    std::optional<DType> output_tensor_type;      ///< --output-tensor-type
    std::optional<DType> token_embedding_type;    ///< --token-embedding-type
    /// --tensor-type PATTERN=TYPE, in command-line order; the first pattern
    /// found in a name wins (see parse_tensor_type_override for the lower-casing).
    std::vector<std::pair<std::string, DType>> tensor_types;
    bool has_imatrix = false;                     ///< --imatrix given
    bool leave_output_tensor = false;             ///< --leave-output-tensor: output.weight keeps its type
    /// --keep-split: the tensors are visited in the order given (llama-quantize
    /// sorts them by input part, then offset, and its layer counters follow
    /// that order) instead of llama_quantize_tensor_order().
    bool visit_in_given_order = false;
};

/// Which rule chose a tensor's type (GgufTypeReason::rule). Front ends word
/// it (the CLI as llama-quantize's report, the GUI translated).
enum class TypeRule : std::uint8_t {
    Kept,                ///< not quantized (tensor_allows_quantization refused): the stored type is kept
    TokenEmbeddingType,  ///< --token-embedding-type
    OutputTensorType,    ///< --output-tensor-type
    TensorType,          ///< a --tensor-type pattern matched the name
    FileTypeDefault,     ///< the file type's default type (no mix rule applies)
    FileTypeMix,         ///< a mix rule of the file type (llama_tensor_get_type) chose the type
    Pure,                ///< --pure: the file type's default type for every quantized tensor
    FileType,            ///< a float file type (F32, F16, BF16): that type
    // Hugging Face folder → GGUF, convert_hf_to_gguf.py's per-tensor types (hf_to_gguf.hpp):
    ConverterOuttype,    ///< the --outtype asked for
    ConverterKept,       ///< the converter's rules keep another type (1-D tensors, norms, the MoE router …)
    ConverterRepacked,   ///< NVFP4 / MXFP4 weights repacked into GGUF's own type as they are stored
};

/// Why llama-quantize does not quantize a tensor (GgufTypeReason::kept,
/// tensor_allows_quantization).
enum class KeptReason : std::uint8_t {
    None,               ///< quantized
    OneD,               ///< a 1-D tensor
    NotWeight,          ///< the name does not end in "weight"
    Norm,               ///< "_norm.weight"
    LeaveOutputTensor,  ///< --leave-output-tensor and output.weight
    NeverQuantized,     ///< a name part llama-quantize never quantizes (GgufTypeReason::name_part)
    PositionEmbeddings, ///< position_embd.weight
    TokenTypes,         ///< token_types.weight
};

/// The mix rule of llama_tensor_get_type_impl that set a tensor's type
/// (GgufTypeReason::mix, with TypeRule::FileTypeMix).
enum class MixRule : std::uint8_t {
    None,
    OutputTensorType,              ///< output.weight: --output-tensor-type
    TiedEmbeddingsOutputTensorType,  ///< token embeddings tied to the output: --output-tensor-type
    OutputMoreBits,                ///< output.weight gets more bits (Q6_K, Q5_K or Q8_0)
    TiedEmbeddingsMoreBits,        ///< token embeddings tied to the output get more bits
    ExpertTensor,                  ///< MXFP4_MOE: an expert tensor (MXFP4)
    NotExpertTensor,               ///< MXFP4_MOE: not an expert tensor (Q8_0)
    TokenEmbeddingType,            ///< token embeddings: --token-embedding-type
    TokenEmbeddings,               ///< the file type's token-embedding type
    AttnVMoreBits,                 ///< attn_v (attn_qkv, attn_kv_b) gets more bits
    AttnV70B,                      ///< attn_v of a 70B model
    AttnV8Experts,                 ///< attn_v of an 8-expert model
    AttnK8Experts,                 ///< attn_k of an 8-expert model
    AttnK,                         ///< attn_k
    AttnQ,                         ///< attn_q
    AttnQkv,                       ///< attn_qkv
    AttnOutput8Experts,            ///< attn_output of an 8-expert model
    AttnOutput,                    ///< attn_output
    FfnDownFirstLayers,            ///< ffn_down of the first eighth of the layers
    FfnDownLayer,                  ///< ffn_down of layer GgufTypeReason::layer of ::n_layers
    FfnGateMiddle,                 ///< ffn_gate of a middle layer
    FfnUpMiddle,                   ///< ffn_up of a middle layer
};

/// Why a tensor of a GGUF output has its type, as typed facts; the front
/// ends word them (the CLI: "Q4_K_M mix: attn_v gets more bits → q6_K",
/// "--tensor-type 'attn'=q5_0", "1-D tensor, kept F32", "…; fallback: 96 not
/// a multiple of 256 (q4_K) → q5_0"). The type written is the tensor's own
/// (TensorChoice::type, ForgetTensor::target).
struct GgufTypeReason {
    TypeRule rule = TypeRule::Kept;   ///< the rule that chose `chosen`
    /// The type the rule chose, before any fallback; the outtype for the
    /// converter's rules; the stored type for Kept.
    DType chosen = DType::Unknown;
    std::uint32_t ftype = 0;          ///< llama_ftype id asked for (FileTypeDefault, FileTypeMix, FileType)
    KeptReason kept = KeptReason::None;  ///< rule Kept: why
    std::string name_part;            ///< KeptReason::NeverQuantized: the name part ("ffn_gate_inp.weight")
    std::string pattern;              ///< rule TensorType: the pattern as matched (lower-cased)
    MixRule mix = MixRule::None;      ///< rule FileTypeMix: which mix rule
    int layer = 0;                    ///< MixRule::FfnDownLayer: the layer (0-based) …
    int n_layers = 0;                 ///< … of this many
    /// The row did not fit `chosen`'s blocks (tensor_type_fallback): the
    /// type written is the fallback type (or F16).
    bool fallback = false;
    std::uint64_t row = 0;            ///< fallback: the row length in elements
    std::uint64_t block = 0;          ///< fallback: `chosen`'s block size in elements
};

/// The choice for one tensor.
struct TensorChoice {
    DType type = DType::Unknown;  ///< the type to write
    bool quantizable = false;     ///< tensor_allows_quantization (else `type` = the stored dtype)
    bool requires_imatrix = false;  ///< tensor_requires_imatrix for the chosen type
    GgufTypeReason reason;        ///< why `type`
};

/// Choose the type of every tensor the way llama-quantize does for a model
/// with key/values `kvs` (general.architecture, `<arch>.block_count`,
/// `<arch>.attention.head_count`, `<arch>.attention.head_count_kv`,
/// `<arch>.expert_count`; head counts may be per-layer arrays: layer 0 counts).
/// The layer counters of the mix rules (attn_v, ffn_down/gate/up) advance
/// in llama-quantize's tensor order (llama_quantize_tensor_order), whatever
/// the order of `tensors` (with `visit_in_given_order`: in the order of
/// `tensors`); results are returned in the order of `tensors`.
/// A model without `output.weight` has tied embeddings: token_embd.weight
/// then gets the output tensor's rules.
///
/// \throws Error{Usage}: unknown or retired `ftype`; no importance matrix
///         for a file type that needs one (kLlamaImatrixRefusal) or for a
///         tensor whose chosen type needs one (llama's "this quantization
///         requires an imatrix!", naming the tensor and type); a quantized
///         file type without `general.architecture` or `<arch>.block_count`.
///         Error{Unsupported}: a row that fits neither the chosen type nor
///         a fallback llama.cpp defines ("no tensor type fallback is defined
///         for type …"); a token-embedding (never in an imatrix) or any
///         tensor without --imatrix chosen as IQ2_XXS, IQ2_XS or IQ1_S,
///         which ggml cannot quantize without importance data
///         (ggml_quantize_requires_imatrix). Error{Malformed}: in a MoE
///         model (expert_count > 1) an ffn tensor whose name gives no layer
///         ("blk.N.") or a layer outside [0, block_count).
std::vector<TensorChoice> choose_gguf_types(const std::vector<TensorDesc>& tensors, const std::vector<GgufKv>& kvs,
                                            const QuantizeRequest& request);

/// The order in which llama-quantize reads and writes tensors
/// (llama_model_loader's weights_map, `weight_name_comparer`): by layer
/// number parsed as "blk.%d." (tensors outside blocks count as layer −1,
/// so they come first), then by name (byte-wise). Returns indices into `names`.
std::vector<std::size_t> llama_quantize_tensor_order(const std::vector<std::string>& names);

// ---- key/values -----------------------------------------------------------------

/// Every key/value of a GGUF catalog (from open_gguf / open_model), typed, in
/// file order: a copy of `cat.metadata`, which the parser filled (no second
/// read of the file). Values of big-endian files are host numbers; writing
/// them gives a little-endian file.
/// \throws Error{Usage} when `cat` is not a GGUF catalog.
std::vector<GgufKv> gguf_read_kvs(const Catalog& cat);

/// The converter's output-type text for a llama.cpp file type id
/// (`LlamaFileType.name.partition("_")[2]`): 0 → "F32", 1 → "F16",
/// 7 → "Q8_0", 32 → "BF16", 38 → "MXFP4_MOE", 39 → "NVFP4" … (what
/// convert_hf_to_gguf.py puts in its default file names).
/// \throws Error{Usage} for an unknown id.
std::string converter_output_type(std::uint32_t ftype);

/// ggml's `gguf_set_kv(ctx, src)` into an empty context: every key/value of
/// `input` set in order as `gguf_set_val_*` sets it (a key already there is
/// removed and appended), strings and string-array elements cut at their
/// first NUL byte (ggml copies them through `const char *`). What
/// llama-quantize and llama-gguf-split do with their input's key/values.
std::vector<GgufKv> ggml_copy_kvs(const std::vector<GgufKv>& input);

/// Whether llama-quantize refuses file type `id` without an importance
/// matrix for a plain llama model: the file type itself
/// (LlamaFileType::needs_imatrix) or a type its rules choose for some weight
/// (choose_gguf_types on an 8-layer llama-shaped model: IQ3_XS's IQ3_XXS
/// tensors, IQ2_M's IQ2_S …). What `amn forget --help` lists under
/// "need --imatrix".
bool llama_ftype_needs_imatrix(std::uint32_t id);

/// The key/values llama-quantize writes for input key/values `input` and
/// file type `ftype_id` (llama_ftype), without an importance matrix.
/// Matches llama.cpp `llama_model_quantize_impl` (src/llama-quant.cpp):
/// `gguf_set_kv` copies every input key in order (a string, or string array
/// element, is cut at its first NUL byte: ggml copies them through
/// `const char *`); then `general.quantization_version` = u32 2
/// (GGML_QNT_VERSION) and `general.file_type` = u32 `ftype_id` are set,
/// which removes them where they were and appends them at the end in that
/// order; then `split.no`, `split.count`, `split.tensors.count` are removed.
/// (With --keep-split, --override-kv or --prune-layers llama-quantize adds or
/// changes more keys; those options are not modelled.)
std::vector<GgufKv> llama_quantize_kvs(const std::vector<GgufKv>& input, std::uint32_t ftype_id);

/// What `llama-quantize --imatrix FILE` records (tools/quantize/quantize.cpp,
/// as --override-kv entries, appended after the keys above in this order).
struct LlamaImatrixKvs {
    std::string file;                 ///< quantize.imatrix.file: the path as given on the command line
    std::string dataset;              ///< quantize.imatrix.dataset: first dataset name ("" = key not written)
    std::uint32_t entries_count = 0;  ///< quantize.imatrix.entries_count (u32)
    std::uint32_t chunks_count = 0;   ///< quantize.imatrix.chunks_count (u32; 0 = key not written)
};

/// llama_quantize_kvs() followed by the imatrix keys: file and dataset cut to
/// 127 bytes (quantize.cpp copies them with strncpy into 128-byte buffers),
/// entries_count, and chunks_count when > 0, each set like gguf_set_val_*.
std::vector<GgufKv> llama_quantize_kvs(const std::vector<GgufKv>& input, std::uint32_t ftype_id,
                                       const LlamaImatrixKvs& imatrix);

}  // namespace amn
