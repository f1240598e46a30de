// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The architecture table for Hugging Face folder ↔ GGUF: one row per
// architecture (data) plus a few named rules, so that
// - HF → GGUF reproduces what llama.cpp's convert_hf_to_gguf.py (commit
//   34af94cd9ab2) writes: hparam key/values in the converter's order and
//   types, tensor names, the per-tensor transform, tensor order, the output
//   type rule, and the generated tensors;
// - GGUF → HF (core/src/plan/hf_layout.cc) reads its tensor names from the same rows.
//
// Upstream sources (read, not copied; tables carried over as data):
// conversion/base.py (ModelBase / TextModel: find_hparam, set_gguf_parameters,
// index_tensors, filter_tensors, prepare_tensors, modify_tensors),
// conversion/llama.py (LlamaModel), qwen.py (Qwen2Model, Qwen3Model,
// Qwen2MoeModel, Qwen3MoeModel, Qwen3NextModel), phi.py (Phi3MiniModel), gpt2.py (GPT2Model),
// gemma.py (Gemma2Model, Gemma3Model), granite.py (GraniteModel), olmo.py
// (Olmo2Model), mistral3.py (Mistral3Model.Ministral3Model), deepseek.py
// (DeepseekV2Model), gpt_oss.py (GptOssModel), glm.py (Glm4Model, Glm4MoeModel),
// falcon.py (FalconModel), ernie.py (Ernie4_5Model, Ernie4_5MoeModel), llama.py (Llama4Model),
// qwen3vl.py (Qwen3VLMoeTextModel), lfm2.py (LFM2Model), hunyuan.py (HunYuanModel, dense),
// bert.py (BertModel, NomicBertModel, ModernBertModel), gptneox.py (GPTNeoXModel), starcoder.py
// (StarCoderModel), bloom.py (BloomModel), olmo.py (OlmoModel), minicpm.py (MiniCPMModel), internlm.py
// (InternLM2Model), mamba.py (MambaModel, Mamba2Model),
// gguf-py constants.py (MODEL_TENSORS, TENSOR_NAMES, Keys) and
// tensor_mapping.py (TensorNameMap) — the last two as generated data in
// arch_tensor_kinds.inc / arch_tensor_names.inc / arch_kind_lists.inc
// (tools/gen_arch_tensor_names.py).
//
// Adding an architecture = one ArchRow in arch_table.cc (+ its kind list from
// the generator, its HF names in arch_hf_names.hpp); a new *kind* of behaviour =
// one enumerator of HparamsRule / ExpertRule / GeneratedRule / TensorTransform::Kind
// and its code, or the class's own filter/modify_tensors as a ClassTensors
// (class_tensors.hpp) the row names.
//
// Typical HF → GGUF use (the plan transform):
//   HfConfig cfg = HfConfig::load(dir + "/config.json");
//   const ArchRow& row = hf_arch_for_config(cfg);            // or Error{Unsupported}
//   GeneratedExtras gen = generate_extra_tensors(row, cfg);    // KVs right after general.architecture, tensors first
//   ArchKvs kvs = hparam_kvs(row, cfg, dir);                   // before / after general.file_type
//   order = converter_order(refs);                             // (file, stored name) of every HF tensor
//   names = filter_tensor_name(row, stored name)                // renamed, or dropped
//   TensorMapper m(row, cfg, dir);
//   for i in order: for (MappedTensor t : m.add(name_i, shape_i)) emit t with
//        converter_type(row, t.name, t.shape, outtype);
//   m.finish();

#include "anamnesis/dtype.hpp"
#include "anamnesis/metadata.hpp"
#include "arch/arch_tensor_kinds.inc"
#include "util/json_dom.hpp"
#include "tokenizer/vocab.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace amn::arch {

// ---- tensor kinds (gguf-py MODEL_TENSOR) -------------------------------------------

/// A GGUF tensor kind, named as gguf-py's `MODEL_TENSOR` member (only the
/// kinds the rows of this table use, plus those the output-type rule names).
enum class TensorKind : std::uint16_t {
#define AMN_ARCH_KIND_ENUM(n) n,
    AMN_ARCH_TENSOR_KINDS(AMN_ARCH_KIND_ENUM)
#undef AMN_ARCH_KIND_ENUM
};

/// One row of gguf-py's TensorNameMap data: a kind, its GGUF name template
/// (TENSOR_NAMES: "token_embd", "blk.{bid}.attn_q", no ".weight" suffix), whether
/// it comes from `block_mappings_cfg` (aliases formatted per block id), and its
/// Hugging Face aliases (templates with "{bid}", no suffix) in gguf-py's order.
struct TensorKindInfo {
    TensorKind kind;
    std::string_view gguf;
    bool block;
    std::span<const std::string_view> hf_aliases;
};

/// Every TensorNameMap row, non-block rows first then block rows, in gguf-py's
/// order (a kind may have one row of each sort, e.g. ROPE_FREQS). When two rows
/// of one architecture claim the same HF name, the later row wins (Python
/// dict overwrite), which map_tensor_name() reproduces.
std::span<const TensorKindInfo> tensor_kind_rows() noexcept;

/// TENSOR_NAMES[kind]: the GGUF name template ("blk.{bid}.attn_q").
std::string_view tensor_kind_name(TensorKind kind) noexcept;

/// base.py prepare_tensors: kinds always written F32 (FFN_GATE_INP, POS_EMBD, …).
std::span<const TensorKind> forced_f32_kinds() noexcept;
/// base.py prepare_tensors: kinds written F16 for the TQ1_0/TQ2_0 file types (TOKEN_EMBD, OUTPUT, …).
std::span<const TensorKind> ternary_f16_kinds() noexcept;

// ---- rows ---------------------------------------------------------------------------

/// Which `set_gguf_parameters` the converter class runs (hparam_kvs()).
enum class HparamsRule : std::uint8_t {
    None,      ///< GGUF → HF only: no HF → GGUF conversion
    Llama,     ///< LlamaModel: TextModel's + vocab_size, rope.dimension_count after general.file_type
    Qwen2,     ///< Qwen2Model / Qwen3Model: TextModel's + pooling_type (sentence-transformers modules.json)
    Qwen2Moe,  ///< Qwen2MoeModel / Qwen3MoeModel: TextModel's + expert(_shared)_feed_forward_length
    Phi3,      ///< Phi3MiniModel: its own list, sliding_window after general.file_type
    Gpt2,      ///< GPT2Model: its own short list
    Gemma2,    ///< Gemma2Model: its own list, softcappings and sliding_window after general.file_type
    Gemma3,    ///< Gemma3Model: TextModel's, then defaults / overrides (rope.freq_base of full attention, sliding_window, head_count_kv)
    Granite,   ///< GraniteModel: LlamaModel's with head_dim ignored, then attention/embedding/residual/logit scales
    Olmo2,     ///< Olmo2Model (Olmo 2 and 3): TextModel's + sliding_window and its per-layer pattern when configured
    Mistral3,  ///< Mistral3Model's Ministral3Model: LlamaModel's + yarn_log_multiplier / temperature_scale (model_type ministral3)
    Deepseek2, ///< DeepseekV2Model: TextModel's with head_count_kv 1 (MLA as MQA), then MLA ranks/lengths, expert and rope keys
    GptOss,    ///< GptOssModel: TextModel's + sliding_window, expert_feed_forward_length (intermediate_size)
    Text,      ///< TextModel.set_gguf_parameters alone (SeedOssModel, StarCoder2Model)
    Arcee,     ///< ArceeModel: LlamaModel's + pooling_type (sentence-transformers modules.json)
    Olmoe,     ///< OlmoeModel: TextModel's, then layer_norm_rms_epsilon = 1e-5 (in place, or after general.file_type)
    Gemma,     ///< GemmaModel: its own list (Gemma2Model's without softcappings and sliding window)
    Exaone,    ///< ExaoneModel (EXAONE 3.x): TextModel's, then rope.dimension_count (activation_function must be silu)
    Exaone4,   ///< Exaone4Model: TextModel's, then vocab_size, sliding_window and its per-layer pattern
    CommandR,  ///< CommandR2Model: TextModel's (context from model_max_length first), then logit_scale, rope.scaling.type none
    Cohere2,   ///< Cohere2Model: TextModel's, then logit_scale, sliding_window, vocab_size, rope.dimension_count, rope.scaling.type none
    StableLm,  ///< StableLMModel: its own list (partial rotary, use_parallel_residual)
    Qwen3VL,   ///< Qwen3VLTextModel: Qwen2's, then n_deepstack_layers (the vision config's deepstack layer count)
    Phi2,      ///< Phi2Model: its own list (feed_forward_length 4 · n_embd, partial rotary), then tokenizer.ggml.add_bos_token false
    MiniMaxM2, ///< MiniMaxM2Model: TextModel's, then expert_feed_forward_length (intermediate_size), rope.dimension_count (rotary_dim)
    Ernie4_5,  ///< Ernie4_5Model: TextModel's (fused qkv_proj / up_gate_proj split; `ernie.` → `model.`)
    GraniteMoe, ///< GraniteMoeModel: GraniteModel's, then expert_shared_feed_forward_length (fused input_linear split)
    Glm4,      ///< Glm4Model: TextModel's, then rope.dimension_count (head_dim × partial_rotary_factor, 0.5 by default)
    Glm4Moe,   ///< Glm4MoeModel: TextModel's with the NextN layers in block_count, then partial rotary, MoE keys, sigmoid gating
    Falcon,    ///< FalconModel: its own list (context 2048, tensor_data_layout "jploski"; fused query_key_value regrouped)
    Ernie4_5Moe, ///< Ernie4_5MoeModel: TextModel's, then the moe_* keys and the shared experts' length (intermediate_size // num_key_value_heads)
    /// Llama4Model: LlamaModel's with feed_forward_length from intermediate_size_mlp, then
    /// interleave_moe_layer_step, the experts' length (intermediate_size) and sliding_window 0 when every
    /// layer_types entry is "full_attention"; fused 3-D experts transposed (TensorTransform::ExpertTransposeRows), no Q/K permutation.
    Llama4,
    /// Qwen3VLMoeTextModel: Qwen2MoeModel's, then n_deepstack_layers; fused 3-D experts stored [E, in, out]
    /// transposed (TensorTransform::ExpertTransposeRows).
    Qwen3VLMoe,
    /// LFM2Model: TextModel's with a per-layer head_count_kv array, then vocab_size, shortconv.l_cache, norm_eps,
    /// the adjusted feed-forward length; short-convolution weights [C, 1, K] squeezed to [C, K].
    Lfm2,
    /// HunYuanModel (dense): TextModel's without num_experts, then for "dynamic" / "xdrope" rope the NTK-alpha
    /// base (rope_theta · alpha^(head_dim / (head_dim − 2)), in place), rope.scaling.type none and factor 1, and for
    /// "dynamic" a context of 262144 (in place; the converter's asserts as named errors); a tied lm_head dropped.
    HunYuanDense,
    /// BertModel: TextModel's, then attention.causal false, the sentence-transformers pooling type and
    /// classifier.output_labels (config.json id2label); `bert.` prefixes, `.gamma`/`.beta` renamed,
    /// position_ids, pooler and the `cls.*` heads dropped (filter_tensor_name).
    Bert,
    /// NomicBertModel (nomic-embed-text v1/v1.5): BertModel's with context_length 2048 for n_positions 8192 trained
    /// on 2048 (in place); the converter's asserts (causal, biases, post-norm, plain RoPE) as named errors, the
    /// MoE form (moe_every_n_layers: nomic-bert-moe) and an XLM-RoBERTa (Unigram) tokenizer refused by name.
    NomicBert,
    /// ModernBertModel: BertModel's, then attention.sliding_window (local_attention), its pattern
    /// (global_attn_every_n_layers), rope.scaling.type none, vocab_size, hidden_activation; `model.` prefixes removed.
    ModernBert,
    /// XLMRobertaModel: BertModel's with context_length max_position_embeddings − (pad_token_id + 1) (in place); the
    /// position embedding's first pad_token_id + 1 rows dropped, `roberta.` prefixes removed (class_tensors.cc);
    /// jina-embeddings-v3 (lora_adaptations) refused by name.
    XlmRoberta,
    /// RobertaModel: XlmRoberta's (the same context cut and position rows; no LoRA form).
    Roberta,
    /// GPTNeoXModel (Pythia, Dolly v2): its own list (partial rotary from rotary_pct, use_parallel_residual), no
    /// general.file_type; the fused query_key_value regrouped from per-head [q, k, v] (TensorTransform::RegroupQkv).
    GptNeoX,
    /// StarCoderModel (GPTBigCode: StarCoder 1, SantaCoder): its own list (feed-forward 4 · n_embd, one KV head).
    StarCoder,
    /// OlmoModel (OLMo 1, the transformers form): TextModel's, then the LayerNorm epsilon 1e-5 and clamp_kqv
    /// (clip_qkv); no norm weights; q_proj/k_proj weights permuted as LlamaModel's (not biases).
    Olmo,
    /// BloomModel: its own list (context from seq_length, else the width); `transformer.` removed and the fused
    /// query_key_value regrouped from per-head [q, k, v] (TensorTransform::RegroupQkv), weight and bias.
    Bloom,
    /// MiniCPMModel (MiniCPM 1 / 2): TextModel's, then the embedding, residual and logit scales (scale_emb,
    /// scale_depth, dim_model_base); q_proj/k_proj weights permuted as LlamaModel's; SentencePiece vocabulary.
    MiniCPM,
    /// MambaModel (mamba.py: MambaForCausalLM, MambaLMHeadModel, FalconMambaForCausalLM): its own list — context
    /// 2^20, width, feed-forward and head counts 0, blocks, ssm.conv_kernel / inner_size / state_size /
    /// time_step_rank (defaults 4, 2·width, 16, ⌈width/16⌉ for absent or falsy values), the rms eps (1e-5),
    /// ssm.dt_b_c_rms (model_type falcon_mamba); A = -exp(A_log) (TensorTransform::NegExp), conv1d squeezed.
    Mamba,
    /// Mamba2Model (mamba.py: Mamba2ForCausalLM): MambaModel's list with the inner size expand · width (unless
    /// given), state 128 and time_step_rank inner / head_dim by default, ssm.group_count (n_groups) and no
    /// dt_b_c_rms; A and D [H] → [H, 1], the norm [inner] → [groups, inner / groups], A = -exp(A_log).
    Mamba2,
    /// Qwen3NextModel (qwen.py, with _QwenMtpMixin): Qwen2MoeModel's, then nextn_predict_layers (the MTP layers,
    /// also in block_count: mtp_num_hidden_layers, else counted from the folder's `mtp.layers.N` tensors), the
    /// delta-net's ssm.* keys, full_attention_interval (4 by default) and the partial rotary dimension (0.25);
    /// in_proj_qkvz regrouped into attn_qkv / attn_gate (TensorTransform::QkvzPart), A = -exp(A_log), conv1d
    /// squeezed, norms + 1 but the delta-net's gated norm.
    Qwen3Next,
};

/// How per-expert HF tensors are merged into 3-D `*_exps` tensors.
enum class ExpertRule : std::uint8_t {
    None,
    /// LlamaModel (Mixtral): `model.layers.{bid}.block_sparse_moe.experts.{x}.{w1,w2,w3}.weight`,
    /// expert count `num_local_experts`; emitted w1, w2, w3 → ffn_gate_exps, ffn_down_exps, ffn_up_exps.
    Mixtral,
    /// Qwen2MoeModel: any name containing "experts": `model.layers.{bid}.mlp.experts.{x}.{down,gate,up}_proj.weight`,
    /// count find_hparam(num_local_experts, num_experts); emitted down, gate, up. Also the fused 3-D
    /// `mlp.experts.gate_up_proj` (split in halves) and `mlp.experts.down_proj` forms.
    Qwen2Moe,
    /// DeepseekV2Model: names containing "mlp.experts": `model.layers.{bid}.mlp.experts.{x}.{down,gate,up}_proj.weight`,
    /// count `n_routed_experts`; emitted down, gate, up (shared experts are plain tensors).
    Deepseek2,
    /// Ernie4_5MoeModel: names containing "mlp.experts": `model.layers.{bid}.mlp.experts.{x}.{gate,up,down}_proj.weight`,
    /// count `moe_num_experts`; emitted gate, up, down.
    Ernie4_5Moe,
};

/// Which `generate_extra_tensors` the class has (generate_extra_tensors()).
enum class GeneratedRule : std::uint8_t {
    None,
    Llama3RopeFreqs,  ///< LlamaModel: `rope_freqs.weight` when rope type is "llama3"
    Phi3RopeFactors,  ///< Phi3MiniModel: `rope_factors_long/short.weight` + rope.scaling.attn_factor
};

/// GGUF → HF: how a GGUF tensor goes back when it is not one HF tensor of its
/// own shape (hf_layout.cc; the recipe is layout_recipes.hpp make_group_join_recipe).
/// The default (parts 0) is a plain rename.
struct HfJoin {
    std::uint8_t part = 0;       ///< this tensor's place among the joined parts (concatenated in this order)
    std::uint8_t parts = 0;      ///< 0: renamed alone; 1: alone but transposed; ≥ 2: joined along rows per group
    bool interleave = false;     ///< parts alternate row by row (gpt-oss's gate/up = [..., ::2] / [..., 1::2])
    bool transpose = false;      ///< this part transposed per group first (DeepSeek's k_b = kv_b's nope rows, transposed)
    bool transpose_out = false;  ///< the joined tensor transposed per group (Llama 4, gpt-oss: experts stored [E, in, out])
    bool flatten = false;        ///< 3-D parts joined into a 2-D [groups · rows, cols] (DeepSeek's kv_b_proj)
    bool bare = false;           ///< no ".weight" suffix, and a bias is "<name>_bias" (gpt-oss, Llama 4's fused experts)
};

/// The canonical HF tensor name (template, no suffix) of a GGUF kind, for GGUF → HF.
struct HfTensorName {
    TensorKind kind;
    std::string_view hf;  ///< "model.layers.{bid}.self_attn.q_proj"
    HfJoin join{};
};

struct ClassTensors;

/// One architecture.
struct ArchRow {
    /// HF → GGUF: config.json `architectures[0]` values converted with this row
    /// (the converter's `@ModelBase.register` names that behave as this row).
    /// Empty for GGUF → HF only rows.
    std::span<const std::string_view> hf_classes;
    std::string_view gguf;              ///< `general.architecture` (gguf-py MODEL_ARCH_NAMES)
    tok::VocabStyle vocab;              ///< which `set_vocab` the class uses
    HparamsRule hparams;
    std::span<const TensorKind> kinds;  ///< gguf-py MODEL_TENSORS[arch]: the kinds the name map knows
    bool permute_qk;                    ///< LlamaModel.undo_permute: q_proj/k_proj rows permuted (TensorTransform::PermuteQK)
    bool transpose_conv1d;              ///< GPT2Model: `.c_attn/.c_proj/.c_fc.weight` transposed (Conv1D is [in, out])
    ExpertRule experts;
    GeneratedRule generated;
    /// GGUF → HF (hf_layout.cc): config.json `architectures` / `model_type` /
    /// `hidden_act`, Gemma's norm `+1` undone, Gemma 2/3 four-norm blocks.
    std::string_view hf_class;
    std::string_view model_type;
    std::string_view hidden_act;
    bool norm_plus_one;
    bool sandwich_norms;
    /// GGUF → HF tensor names: the canonical HF template for each GGUF kind
    /// this row converts back (suffix ".weight"/".bias" carried over).
    std::span<const HfTensorName> hf_names;
    /// HF → GGUF: the class's own filter_tensors / modify_tensors (class_tensors.hpp), or none.
    const ClassTensors* tensors = nullptr;
    /// HF → GGUF, Gemma3Model.modify_tensors: `embed_tokens` keeps only the
    /// first n_vocab rows (the tokenizer's size, hf_to_gguf.cc); with
    /// `norm_plus_one`, tensors named "…norm.weight" get + 1 (TensorTransform::AddOne).
    bool trim_embd_to_vocab = false;
};

/// All rows (HF → GGUF rows first, in the order of supported_hf_architectures()).
std::span<const ArchRow> arch_rows() noexcept;
/// The row converting HF class `hf_class` ("LlamaForCausalLM"), or nullptr.
const ArchRow* find_hf_arch(std::string_view hf_class) noexcept;
/// The row of GGUF architecture `gguf` ("llama"; also "mistral", an older
/// llama.cpp name read by GGUF → HF), or nullptr. For "llama" the first row.
const ArchRow* find_gguf_arch(std::string_view gguf) noexcept;
/// "LlamaForCausalLM, MistralForCausalLM, …": every HF class converted, for
/// "unknown architecture X (supported: …)".
std::string supported_hf_architectures();

// ---- config.json ------------------------------------------------------------------

/// config.json as the converter's `self.hparams` sees it (read with
/// Python-json semantics, `text_config` members overriding top-level ones as
/// `{**hparams, **hparams["text_config"]}` does).
class HfConfig {
public:
    /// Parse `text`; errors name `file` and call it by its file name
    /// (config.json, adapter_config.json, …). \throws Error{BadJson}
    /// when not valid JSON or not an object.
    HfConfig(std::string_view text, std::string file);
    /// Read and parse `path`. \throws Error{Io} / Error{BadJson}.
    static HfConfig load(const std::string& path);

    /// The member `key` (text_config's first, then the top level); present
    /// even when JSON null (as `key in hparams` is true for None).
    std::optional<simdjson::dom::element> get(std::string_view key) const noexcept;
    /// The top-level member only (before the text_config merge).
    std::optional<simdjson::dom::element> top(std::string_view key) const noexcept;
    /// ModelBase.find_hparam: the value of the first of `keys` present (null
    /// included), with the key found; nullopt when none is present.
    std::optional<std::pair<std::string_view, simdjson::dom::element>> find(std::span<const std::string_view> keys) const;
    const std::string& file() const noexcept { return doc_.file(); }
    simdjson::dom::element root() const noexcept { return doc_.root(); }

    /// convert_hf_to_gguf.py's `--no-mtp` / `--no-nextn` (the model class's `no_mtp`): the rows with an MTP
    /// block (supports_mtp_export()) leave it out — no `mtp.*` tensors, block_count without it, no
    /// `nextn_predict_layers`. Set by the conversion job; false for a config read on its own.
    bool no_mtp() const noexcept { return no_mtp_; }
    void set_no_mtp(bool on) noexcept { no_mtp_ = on; }

private:
    detail::JsonDoc doc_;
    std::optional<simdjson::dom::element> text_;
    bool no_mtp_ = false;
};

/// get_model_architecture(): `architectures[0]` (further entries are ignored),
/// replaced by `text_config.architectures[0]` when that exists; without architectures, a config with
/// `ssm_cfg` (state-spaces' own Mamba / Mamba-2 checkpoints) is `ssm_cfg.layer` (else "Mamba") + "ForCausalLM".
/// The converter has no `model_type` fallback.
/// \throws Error{Malformed} "config.json: no architectures (Failed to detect model
///         architecture)" when missing/empty (and no ssm_cfg); Error{BadJson} when not a list of strings, or
///         ssm_cfg not an object / its layer not a string.
std::string detect_hf_architecture(const HfConfig& cfg);
/// The row for detect_hf_architecture(cfg).
/// \throws Error{Unsupported} "unknown architecture X (supported: …)" naming config.json;
///         Error{Unsupported} for Mistral3ForConditionalGeneration with model_type
///         "mistral4" (the converter's DeepSeek-V2-style Mistral4Model, not in this table);
///         Error{Unsupported} "X is not supported: <why> (supported: …)" for a class the converter
///         registers that is refused on purpose (HunYuanMoEV1ForCausalLM: its tokenizer is remote code).
const ArchRow& hf_arch_for_config(const HfConfig& cfg);

// ---- hparams → key/values -----------------------------------------------------------

/// The architecture key/values of `set_gguf_parameters`, split around
/// `general.file_type` (which the caller writes between them, as u32 ftype).
/// Types as gguf-py's writer: counts/lengths U32, eps/theta/factors F32
/// (the double rounded to nearest f32), rope.scaling.type String.
struct ArchKvs {
    std::vector<MetaKv> before_file_type;
    std::vector<MetaKv> after_file_type;
    bool file_type = true;  ///< false: the class writes no general.file_type (GPTNeoXModel)
};

/// set_gguf_parameters() of the row's class (`HparamsRule`). `model_dir` (may
/// be empty) is read for Qwen2/Qwen3's sentence-transformers pooling
/// (modules.json + the pooling module's config.json).
/// \throws Error{Malformed} naming config.json and the key when a key the
///         class requires is missing (or null); Error{BadJson} naming the key
///         when a value has the wrong JSON type (an integer field given
///         4096.0, a string eps…) or is out of the u32/f32 range;
///         Error{Unsupported} for rope features the class cannot write here
///         (mrope_section), Qwen3 rerankers, an unknown expert gating function;
///         Error{Malformed} where the converter's assertions stop (Gemma 3 with
///         attn_logit_softcapping, ministral3 without yarn rope_parameters,
///         HunYuan's dynamic rope with a rope_theta other than 10000 or a
///         max_position_embeddings other than 32768 / 262144).
ArchKvs hparam_kvs(const ArchRow& row, const HfConfig& cfg, const std::string& model_dir = {});

// ---- generated tensors ----------------------------------------------------------------

/// A tensor the converter generates (always F32, 1-D here).
struct GeneratedTensor {
    std::string name;                  ///< GGUF name ("rope_freqs.weight")
    std::vector<std::uint64_t> shape;  ///< PyTorch order (GGUF ne reversed)
    std::vector<float> data;
};
/// generate_extra_tensors(): key/values the class adds while generating
/// (they land right after `general.architecture`, before `general.type`), and
/// the tensors, which come first in the file.
struct GeneratedExtras {
    std::vector<MetaKv> kvs;
    std::vector<GeneratedTensor> tensors;
};

/// - Llama3RopeFreqs (LlamaModel.generate_extra_tensors): when
///   `rope_scaling.rope_type` (or `.type`) lowercased is "llama3": one
///   `rope_freqs.weight` of head_dim/2 (head_dim, else hidden_size /
///   num_attention_heads) factors, computed with PyTorch's f32 arithmetic as
///   the converter (inv-freq pow then f32 reciprocal/products; factor 8,
///   low 1, high 4, original context 8192 by default). The pow is
///   std::pow in double rounded to f32, which matched torch 1.13's AVX2 powf on
///   every Llama 3.x configuration tried (see the test); it may differ by one
///   ulp from torch for other bases.
/// - Phi3RopeFactors (Phi3MiniModel.generate_extra_tensors): when
///   `long_factor` is a non-empty list: `{arch}.rope.scaling.attn_factor` F32
///   (sqrt(1 + ln(s)/ln(orig)) for su/longrope, 0.1·ln(s) + 1 for yarn, 1 when
///   s = max_position_embeddings / original_max_position_embeddings ≤ 1), then
///   `rope_factors_long.weight`, `rope_factors_short.weight` (the lists as f32,
///   each rope_dims/2 long).
/// \throws Error{Malformed} / Error{BadJson} naming config.json and the key as
///         hparam_kvs(); Error{Malformed} when factor lists have the wrong length;
///         Error{Unsupported} for a Phi-3 rope type other than su/longrope/yarn.
GeneratedExtras generate_extra_tensors(const ArchRow& row, const HfConfig& cfg);

// ---- tensors --------------------------------------------------------------------------

/// What to do to an HF tensor's values before it is written (applied to each
/// part of a stacked tensor before stacking).
struct TensorTransform {
    enum class Kind : std::uint8_t {
        None,
        /// LlamaModel.permute: rows viewed as [n_head, 2, D/2] (D = rows / n_head),
        /// the last two axes swapped: GGUF row h·D + 2j + s = HF row h·D + s·D/2 + j
        /// (llama_permute_source_row). Weights and biases of q_proj (n_head =
        /// num_attention_heads) and k_proj (num_key_value_heads when it differs).
        PermuteQK,
        /// GPT2Model: 2-D transpose (HF Conv1D [in, out] → [out, in]).
        Transpose,
        /// Qwen2Moe fused `gate_up_proj` [E, 2F, H]: keep rows [row_begin, row_end) of dim 1.
        SliceDim1,
        /// GemmaModel / Gemma2Model / Gemma3Model: `data_torch + 1` for names ending
        /// "norm.weight" (rows with norm_plus_one), in the input's dtype when F16, else f32.
        AddOne,
        /// Gemma3Model: `embed_tokens[:n_vocab]`, the first row_end rows of dim 0.
        LeadingRows,
        /// DeepseekV2Model's kv_b_proj split: rows viewed as [n_head, G, in] (G = rows / n_head);
        /// keep rows [row_begin, row_end) of every head (v_b_proj: the last v_head_dim rows).
        HeadRows,
        /// As HeadRows, then each head's block transposed (k_b_proj: the first
        /// qk_nope_head_dim rows, [n_head, in, nope]).
        HeadRowsTransposed,
        /// GptOssModel, dequantized experts: [E, A, B] → transpose(-1, -2) → keep rows
        /// parity, parity + stride, … : output [E, B / stride, A] (n_head = stride, row_begin = parity).
        ExpertTransposeStrided,
        /// GptOssModel, gate_up_proj_bias [E, 2F]: `[..., parity::stride]` (n_head = stride, row_begin = parity).
        StridedCols,
        /// FalconModel (GPTNeoXModel, BloomModel: one group per head, weight and bias): the fused query_key_value
        /// rows, stored per KV group as [q × n_head/n_kv, k, v] heads,
        /// written as every q head, then every k head, then every v head (the "jploski" layout; rows
        /// qkv_regroup_source_rows(n_head, n_kv_head, head_dim)). Falcon-7B's one group is the identity.
        RegroupQkv,
        /// Llama4Model fused experts [E, A, B]: transpose(-1, -2) → [E, B, A], then keep rows [row_begin, row_end)
        /// of dim 1 (gate_up_proj: the first or second half; down_proj: all rows).
        ExpertTransposeRows,
        /// InternLM2Model's wqkv, stored per KV group as [q × n_head/n_kv, k, v] heads: every q head (permuted as
        /// LlamaModel's with n_head), every k head (with n_kv_head), every v head (internlm2_qkv_source_rows),
        /// then rows [row_begin, row_end) of those: the part written (q, k or v).
        GroupedQkvPart,
        /// MambaModel: A = -torch.exp(A_log) in f32, as torch 1.13's AVX2 kernel computes it
        /// (kernels/common/torch_exp.hpp: SLEEF's FMA expf per element).
        NegExp,
        /// Qwen3NextModel's in_proj_qkvz, stored per key head as [q (head_dim rows), k (head_dim), v (n_kv_head
        /// rows), z (n_kv_head)] for n_head key heads: every q, then every k, every v, every z
        /// (qwen3next_qkvz_source_rows), then rows [row_begin, row_end) of those (attn_qkv: q, k, v; attn_gate: z).
        QkvzPart,
    };
    Kind kind = Kind::None;
    std::uint64_t n_head = 0;                   ///< PermuteQK, RegroupQkv
    std::uint64_t row_begin = 0, row_end = 0;   ///< SliceDim1, ExpertTransposeRows
    std::uint64_t n_kv_head = 0, head_dim = 0;  ///< RegroupQkv
};

/// One tensor the converter emits.
struct MappedTensor {
    std::string name;                  ///< GGUF name ("blk.0.attn_q.weight")
    std::vector<std::uint64_t> shape;  ///< PyTorch order after transform/stacking (GGUF ne = reversed)
    /// HF tensors it is made of: one, or the experts in stack order (expert
    /// index = position) for a merged `*_exps` tensor (torch.stack dim 0).
    std::vector<std::string> sources;
    TensorTransform transform;         ///< applied to each source
    bool stacked = false;              ///< sources stacked along a new dim 0
};

/// TextModel/LlamaModel.filter_tensors: the HF name as the converter indexes
/// it ("language_model." and, for llama/granite/mistral3, "text_model." removed;
/// Gemma2Model drops "lm_head.weight", BertModel "embeddings.position_ids", "pooler.dense.*"
/// and "cls.predictions*" / "cls.seq_relationship*" (after removing "bert." and renaming
/// ".gamma"/".beta" to ".weight"/".bias"), GraniteModel "encoder.*", "image_" and projector tensors,
/// GptOssModel appends ".weight" to names containing "sinks";
/// "e_score_correction_bias" → "e_score_correction.bias"), or nullopt when
/// the converter drops it (multimodal prefixes: "mlp…", "vision…", "visual.",
/// "audio…", "patch_embed…", …).
/// `cfg`: config.json, for the classes whose filter reads it (ClassTensors::filter_cfg: Qwen3-Next's MTP
/// tensors renamed past num_hidden_layers). \throws Error{Usage} when such a name comes without it.
std::optional<std::string> filter_tensor_name(const ArchRow& row, std::string_view hf_name, const HfConfig* cfg = nullptr);

/// TensorNameMap.get_name(name, try_suffixes=(".weight", ".bias")) for the
/// row's kinds and `block_count` blocks: the exact name first, then with the
/// suffix removed and re-appended. Block ids must be < block_count. The GGUF
/// names themselves map to themselves. nullopt when unmapped.
std::optional<std::string> map_tensor_name(const ArchRow& row, std::uint64_t block_count, std::string_view name);

/// GGUF row `gguf_row` of a permuted Q/K tensor with `rows` rows in `n_head`
/// heads takes HF row `h·D + s·D/2 + j` where gguf_row = h·D + 2j + s.
/// \throws Error{Malformed} when rows is not n_head × an even head size.
std::uint64_t llama_permute_source_row(std::uint64_t gguf_row, std::uint64_t rows, std::uint64_t n_head);

/// The regrouping of a fused query_key_value (FalconModel, and with n_kv_head = n_head GPTNeoXModel and
/// BloomModel): the stored row that becomes each written row, for `n_head` query heads in `n_kv_head` groups
/// of head_dim rows each (stored (n_head + 2·n_kv_head)·head_dim rows: per group its n_head/n_kv_head q
/// heads, one k, one v; written every q, then every k, then every v).
/// \throws Error{Malformed} when n_kv_head is 0 or does not divide n_head.
std::vector<std::uint64_t> qkv_regroup_source_rows(std::uint64_t n_head, std::uint64_t n_kv_head, std::uint64_t head_dim);

/// Qwen3NextModel.modify_tensors' in_proj_qkvz regrouping: the stored row of each written row for `n_k_heads`
/// key heads, each stored as [q (`head_k_dim` rows), k (`head_k_dim`), v (`v_rows`), z (`v_rows`)], v_rows =
/// linear_num_value_heads / linear_num_key_heads · linear_value_head_dim; written every q, k, v, then z.
std::vector<std::uint64_t> qwen3next_qkvz_source_rows(std::uint64_t n_k_heads, std::uint64_t head_k_dim, std::uint64_t v_rows);

/// InternLM2Model.modify_tensors' view of wqkv: the stored row of each row of [q; k; v] as it writes them (the q
/// and k heads regrouped from the KV groups and permuted as LlamaModel.permute does, v regrouped).
/// \throws Error{Malformed} when n_kv_head is 0 or does not divide n_head, or a head size is odd.
std::vector<std::uint64_t> internlm2_qkv_source_rows(std::uint64_t n_head, std::uint64_t n_kv_head, std::uint64_t head_dim);

/// The config values a class's modify_tensors reads (TensorMapper's constructor; 0 when unset).
struct ClassHparams {
    std::uint64_t block_count = 0, n_head = 0, n_kv_head = 0, n_experts = 0;
    std::uint64_t head_dim = 0;                 ///< Ernie 4.5's fused qkv split, Falcon's / GPT-NeoX's query_key_value regrouping
    std::uint64_t embd = 0;                     ///< GPT-NeoX, BLOOM: hidden_size (n_embed)
    std::uint64_t moe_ff = 0, shared_ff = 0;    ///< GraniteMoe: intermediate_size, shared_intermediate_size
    bool has_experts = false;                   ///< GraniteMoe: num_local_experts truthy
    bool tied = false;                          ///< DeepSeek, HunYuan: tie_word_embeddings (lm_head skipped)
    std::uint64_t mla_kv_heads = 0, mla_v = 0, mla_nope = 0;  ///< DeepSeek kv_b_proj split (from config.json)
    std::optional<std::uint64_t> position_offset;  ///< XLM-RoBERTa: 1 + pad_token_id, the position rows dropped
    bool cls_out_labels = false;                ///< BERT: id2label kept (bert_output_labels), classifier → cls.output
    std::uint64_t ssm_inner = 0, ssm_groups = 0;   ///< Mamba2Model: d_inner, n_groups (the norm's reshape)
    /// Qwen3NextModel: linear_num_key_heads, linear_key_head_dim, the v rows per key head (in_proj_qkvz's split)
    std::uint64_t lin_k_heads = 0, lin_k_dim = 0, lin_v_rows = 0;
};

/// What a class's modify_tensors sees besides the tensor: the row, config.json's path, its values.
struct ClassTensorCtx {
    const ArchRow& row;
    const std::string& file;
    const ClassHparams& hp;
    /// One tensor under the GGUF name map_tensor_name() gives `name`.
    /// \throws Error{Unsupported} "cannot map tensor" naming `hf_source` when it has none.
    std::vector<MappedTensor> one(std::string name, std::string_view hf_source, std::vector<std::uint64_t> shape,
                                  TensorTransform tr) const;
};

/// A converter class's own filter_tensors / modify_tensors, as one row of the table names them.
struct ClassTensors {
    /// filter_tensors, before TextModel's: renames `name` in place; false drops the tensor.
    bool (*filter)(std::string& name) = nullptr;
    /// The config values its modify_tensors reads (after the row's generic ones).
    void (*read)(ClassHparams& hp, const HfConfig& cfg) = nullptr;
    /// modify_tensors, before the generic part (norm + 1, the embedding cut, Conv1D transposes, experts):
    /// what the converter writes for this tensor, or nullopt to go on with `name`, `shape` and `tr` as changed.
    std::optional<std::vector<MappedTensor>> (*modify)(const ClassTensorCtx& c, std::string& name, std::string_view hf_name,
                                                       std::vector<std::uint64_t>& shape, TensorTransform& tr,
                                                       std::optional<std::uint64_t> bid) = nullptr;
    /// filter_tensors after TextModel's, with config.json (filter_tensor_name's `cfg`, may be null): renames `name`
    /// in place; false drops it. \throws Error naming config.json on a missing / mistyped key it reads,
    /// Error{Usage} when a name needs config.json and `cfg` is null.
    bool (*filter_cfg)(std::string& name, const HfConfig* cfg) = nullptr;
    /// Config values read with the model folder (TensorMapper's `model_dir`, empty for a LoRA adapter's base).
    void (*read_dir)(ClassHparams& hp, const HfConfig& cfg, const std::string& model_dir) = nullptr;
};

/// The converter's modify_tensors for one architecture, fed HF tensors in the
/// converter's order (converter_order(), names as filter_tensor_name() gives).
class TensorMapper {
public:
    /// Reads block_count (n_layers/num_hidden_layers/n_layer/num_layers), and
    /// for permuting rows n_heads/num_attention_heads + n_kv_heads/num_key_value_heads,
    /// for expert rows the expert count; for rows with trim_embd_to_vocab the
    /// tokenizer's size (embedding_rows_kept(), from `model_dir`; no trim when empty); then the class's
    /// read / read_dir (Qwen3-Next: the MTP layers in block_count, counted from `model_dir`'s tensors).
    /// \throws as hparam_kvs() on missing/mistyped keys, as embedding_rows_kept(), as qwen_mtp_layers().
    TensorMapper(const ArchRow& row, const HfConfig& cfg, const std::string& model_dir = {});

    /// One HF tensor (`shape` in PyTorch order). Returns what the converter
    /// writes at this point: nothing for skipped tensors (names ending
    /// ".attention.masked_bias", ".attention.bias", ".rotary_emb.inv_freq")
    /// and for buffered experts; the merged `*_exps` tensors (3 of them) when
    /// the tensor completes a layer's experts; else one tensor.
    /// \throws Error{Unsupported} "cannot map tensor" naming the tensor when
    ///         the name is unknown to the architecture; Error{Malformed} naming
    ///         the tensor when a Q/K/gate_up shape does not split, or an expected
    ///         expert is missing when a layer's count is reached.
    std::vector<MappedTensor> add(std::string_view hf_name, std::span<const std::uint64_t> shape);
    /// \throws Error{Malformed} "unprocessed experts: …" when experts remain buffered.
    void finish() const;

private:
    struct Buffered {
        std::string name;
        std::vector<std::uint64_t> shape;
    };
    std::vector<MappedTensor> one(std::string name, std::string_view hf_source, std::vector<std::uint64_t> shape,
                                  TensorTransform tr) const;
    const ArchRow& row_;
    std::string file_;
    ClassHparams hp_;
    std::optional<std::uint64_t> vocab_rows_;  ///< Gemma 3: embedding rows kept
    /// Buffered experts per block id, only for blocks that have some: never
    /// sized by the config's block count (a config.json may declare 10^11 layers).
    std::map<std::uint64_t, std::vector<Buffered>> experts_;
};

/// Gemma3Model.modify_tensors' n_vocab_real, the embedding rows it keeps: with
/// `model_dir`/tokenizer.model the SentencePiece token list's length
/// (vocab_size_per_layer_input / vocab_size when config.json has one > 0, else
/// the model's piece count), else tokenizer.json's `model.vocab` entries +
/// `added_tokens` entries.
/// \throws Error{Io}/{BadJson} naming tokenizer.json when it is missing or has
///         no such members; Error{Malformed} naming tokenizer.model when it cannot be read.
std::uint64_t embedding_rows_kept(const HfConfig& cfg, const std::string& model_dir);

/// An HF tensor as indexed: its shard file (relative name) and tensor name.
struct HfTensorRef {
    std::string file;
    std::string name;
};
/// The converter's iteration order (index_tensors): files in sorted name order
/// (the sorted set of the index's weight_map values, or the sorted
/// `model*.safetensors` files), within a file sorted by tensor name (byte
/// order = Python's str order for UTF-8). Returns indices into `refs`.
/// `name` is the name stored in the file: filter_tensor_name() comes after
/// (the converter renames while indexing; a renamed duplicate keeps the
/// first one's position and the later one's data, as a Python dict does).
std::vector<std::size_t> converter_order(std::span<const HfTensorRef> refs);

/// prepare_tensors' type rule for one emitted tensor: `shape` in PyTorch order,
/// `outtype` the resolved output type (F32, F16, BF16, Q8_0, TQ1_0, TQ2_0).
/// 1-D tensors and names ending "_norm.weight" → F32; the always-F32 kinds
/// (ffn_gate_inp, ffn_gate_inp_shexp, position_embd, token_types, ssm_conv1d, …
/// as "<name>.weight" in the row's kinds) and names not ending in ".weight" → F32;
/// TQ1_0/TQ2_0: token_embd/output → F16; else `outtype`, falling back to F16
/// when a quantized type's block does not divide the last dimension (Q8_0: 32).
/// None of this table's classes overrides tensor_force_quant.
/// \throws Error{Usage} for any other outtype.
DType converter_type(const ArchRow& row, std::string_view gguf_name, std::span<const std::uint64_t> shape, DType outtype);

}  // namespace amn::arch
