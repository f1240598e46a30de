// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file hf_layout.hpp
/// `amn remember model.gguf --layout hf`: turn the plan of a GGUF catalog
/// into a Hugging Face `transformers` checkpoint — HF tensor names, llama.cpp's
/// Q/K row permutation undone, Gemma's RMSNorm `+1` removed, stacked experts
/// split into one tensor per expert, GPT-2's Conv1D orientation restored —
/// and derive the matching `config.json` from the GGUF key/values
/// (core/src/plan/hf_config.hpp: each key where the converter reads it back).
///
/// References (read, not copied): llama.cpp `convert_hf_to_gguf.py`
/// (`LlamaModel.permute`, `GemmaModel.modify_tensors`: `norm.weight + 1`) and
/// gguf-py `tensor_mapping.py` (GGUF ↔ HF tensor names); transformers'
/// `LlamaConfig`, `MixtralConfig`, `Qwen2Config`, `Qwen3Config`,
/// `Qwen2MoeConfig`, `Qwen3MoeConfig`, `OlmoeConfig`, `Phi3Config`,
/// `GPT2Config`, `GemmaConfig`, `Gemma2Config`, `Gemma3TextConfig`,
/// `GraniteConfig`, `Olmo2Config`/`Olmo3Config`, `SmolLM3Config`,
/// `ArceeConfig`, `SeedOssConfig`, `Starcoder2Config` for the config.json keys.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn {

/// GGUF `general.architecture` values `to_hf_layout` converts: the rows of
/// the architecture table with Hugging Face names, in table order ("llama",
/// "mistral", "qwen2", "qwen3", "qwen3moe", "phi3", "gpt2", "gemma", …;
/// not "mistral3", "deepseek2", "gpt-oss").
const std::vector<std::string_view>& hf_layout_architectures() noexcept;
/// True when `gguf_architecture` is one of hf_layout_architectures().
bool hf_layout_supported(std::string_view gguf_architecture) noexcept;

/// Hugging Face name of the GGUF tensor `gguf_name` for architecture `arch`
/// ("blk.3.attn_q.weight" → "model.layers.3.self_attn.q_proj.weight",
/// "token_embd.weight" → "model.embed_tokens.weight", "output.weight" →
/// "lm_head.weight"; gemma2/gemma3: "blk.N.post_attention_norm.weight" →
/// "…post_attention_layernorm.weight", "blk.N.ffn_norm.weight" →
/// "…pre_feedforward_layernorm.weight"; ".bias" kept). A stacked expert
/// tensor gives its per-expert template with `{xid}` for the expert
/// ("blk.0.ffn_gate_exps.weight" → "model.layers.0.block_sparse_moe.experts.{xid}.w1.weight"
/// for llama, "…mlp.experts.{xid}.gate_proj.weight" for qwen2moe/qwen3moe/olmoe).
/// nullopt when the tensor has no HF counterpart (or `arch` is not supported).
std::optional<std::string> hf_tensor_name(std::string_view arch, std::string_view gguf_name);

/// The GGUF row that becomes row `hf_row` of a Hugging Face Q or K
/// projection (weight rows or bias elements) with `rows` rows split into
/// `n_head` heads (Q: attention.head_count, K: attention.head_count_kv).
/// llama.cpp's `LlamaModel.permute` views the HF rows as
/// [n_head, 2, head_dim/2] and swaps the last two axes, so GGUF row
/// h·D + 2j + s holds HF row h·D + s·D/2 + j (D = rows / n_head); this
/// returns the former for the latter.
/// \throws Error{Malformed} when rows is not n_head × an even head size.
std::uint64_t llama_unpermute_source_row(std::uint64_t hf_row, std::uint64_t rows, std::uint64_t n_head);

/// A Recipe whose output row r is row `source_row[r]` of `inner` (same row
/// length): used for the un-permuted Q/K projections. Rows of `inner` must
/// be either the output rows, or, when `inner` splits rows differently
/// (a 1-D bias is one stored row), the whole tensor is decoded once per
/// call (only for tensors up to 64 Mi elements; larger → Error{Unsupported}).
std::shared_ptr<const Recipe> make_row_gather_recipe(std::shared_ptr<const Recipe> inner,
                                                     std::vector<std::uint64_t> shape,
                                                     std::vector<std::uint64_t> source_row);

/// What `to_hf_layout` produces.
struct HfLayout {
    Plan plan;                 ///< the input plan with HF names and row-gathering / norm-shift recipes
    std::string config_json;   ///< config.json text (pretty-printed, no trailing newline)
    std::string architecture;  ///< GGUF architecture ("llama")
    std::string hf_class;      ///< transformers class ("LlamaForCausalLM")
    /// The tokenizer and generation files beside config.json, (file name,
    /// text) in writing order: tokenizer.json, tokenizer_config.json,
    /// special_tokens_map.json for a `tokenizer.ggml.model` "gpt2" (BPE with
    /// a `tokenizer.ggml.pre` of llama-bpe, qwen2 or gpt-2) or "llama"
    /// (SentencePiece: tokenizer.json as transformers' LlamaConverter builds
    /// it, plus the SentencePiece tokenizer.model itself), and
    /// generation_config.json (bos/eos/pad ids, `general.sampling.*`)
    /// whenever the GGUF has any of those. Pass to RememberOptions::side_files.
    std::vector<std::pair<std::string, std::string>> side_files;
    /// Why no tokenizer was written (another tokenizer model or pre-tokenizer:
    /// never a guess; NoticeKind::NoTokenizer, NoTokenizerModel), and the
    /// metadata keys config.json cannot carry (NoticeKind::KeysNotCarried).
    std::vector<Notice> warnings;
    /// What the folder is when it is not the converter's input class: the
    /// text class of a multimodal model (the GGUF holds no vision tower),
    /// experts written dequantized. One sentence each, for the user.
    std::vector<std::string> notes;
    /// A vocab-only GGUF (no tensors, a `tokenizer.ggml.model`; what
    /// convert_hf_to_gguf.py --vocab-only writes), whatever its architecture:
    /// `side_files` are its tokenizer and generation files, `config_json` is
    /// empty and `plan` has no tensors — write it with
    /// RememberOptions::side_files_only.
    bool vocab_only = false;
};

/// Transform the plan of a GGUF catalog into the Hugging Face layout:
/// - every logical tensor renamed by hf_tensor_name();
/// - llama/mistral: `attn_q` / `attn_k` weights and biases wrapped in a
///   row-gathering recipe that undoes llama.cpp's permutation
///   (llama_unpermute_source_row with head_count / head_count_kv);
/// - gemma/gemma2/gemma3: every `…norm.weight` gets 1 subtracted (f32),
///   undoing convert_hf_to_gguf's `+ 1`; stored F32/F16/BF16 stay in that dtype;
/// - `output.weight` absent → `tie_word_embeddings: true` (no lm_head tensor);
/// - llama `rope_freqs.weight` (Llama 3 RoPE factors) is not a HF tensor: it
///   is consumed, and the `rope_scaling` it encodes is written to config.json
///   when it matches transformers' "llama3" rule (low_freq_factor 1,
///   high_freq_factor 4, original_max_position_embeddings 8192), else
///   Error{Unsupported};
/// - stacked experts `blk.N.ffn_{gate,up,down}_exps` [E, R, C]: E tensors
///   [R, C] (rows e·R … (e+1)·R − 1 of the stored tensor), named by the
///   `{xid}` template of hf_tensor_name() — a llama GGUF with experts is
///   MixtralForCausalLM;
/// - phi3 `rope_factors_long/short.weight` are consumed into config.json
///   `rope_scaling` {type longrope, long_factor, short_factor};
/// - gpt2 `attn_qkv`, `attn_output`, `ffn_up`, `ffn_down` weights transposed
///   back to Conv1D's [in, out] (a stored plain dtype stays as stored);
/// - tensors the converter split, joined back (arch::HfJoin, one expert or
///   head per work unit): GraniteMoe's `input_linear` (gate ‖ up, experts
///   and shared expert), DeepSeek's `kv_b_proj` (k_bᵀ ‖ v_b per head),
///   Llama 4's fused experts ([E, H, 2F] = (gate ‖ up)ᵀ, down [E, F, H]) and
///   gpt-oss's (gate and up in alternate columns, biases too); MXFP4 experts
///   come back dequantized;
/// - multimodal rows come back as the text class transformers has
///   (Llama4ForCausalLM, Ministral3ForCausalLM or, for Mistral Small 3.x,
///   MistralForCausalLM), said in `notes`; qwen2vl / qwen3vl / qwen3vlmoe,
///   for which it has none, are refused with Error{Unsupported} saying so.
/// config.json (core/src/plan/hf_config.hpp): architectures, model_type and
/// each `{arch}.*` key under the config.json key transformers reads and the
/// converter turns back into the same key/value — dimensions, norm epsilons,
/// rope_theta and rope_scaling (linear, yarn with its factors, llama3,
/// longrope), expert counts and sizes, sliding windows and per-layer
/// patterns, Granite's multipliers, Gemma's softcappings — plus vocab_size,
/// tie_word_embeddings, attention_bias, bos/eos/pad ids and torch_dtype
/// (`out_dtype`, default bfloat16). Keys the GGUF lacks are left out, except
/// what llama.cpp itself assumes: num_key_value_heads = head_count when
/// absent, Gemma 2/3 `query_pre_attn_scalar` (hidden/heads for the 27B
/// models — 46 / 62 layers — else head_dim, as llama.cpp's
/// f_attention_scale), Gemma 3 `sliding_window_pattern` 6 and
/// `rope_local_base_freq` 10000 when there is no rope.freq_base_swa.
/// An `{arch}.*` key config.json cannot carry is named in `warnings`
/// ("not carried into config.json …"), never dropped silently.
/// Side files: see HfLayout::side_files (core/src/tokenizer/hf_from_gguf.hpp
/// says how each is built from the `tokenizer.*` key/values).
/// A vocab-only GGUF (no tensors, a `tokenizer.ggml.model`): HfLayout::vocab_only,
/// the side files alone, whatever the architecture (no config.json).
/// \throws Error{Usage} when `cat` is not GGUF; Error{Unsupported} naming the
///         architecture when it is not supported, naming why for a vocab-only
///         GGUF whose tokenizer cannot be written, or naming a tensor that has
///         no HF name; Error{Malformed} when a required key
///         ({arch}.embedding_length, .block_count, .attention.head_count …)
///         is missing or a Q/K tensor does not split into its heads, or a
///         `tokenizer.*` key is malformed (tokens not strings / not UTF-8,
///         token_type or scores of another length, flags not booleans).
HfLayout to_hf_layout(const Catalog& cat, const Plan& plan, std::optional<DType> out_dtype = std::nullopt);



}  // namespace amn
