// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: config.json of the GGUF → Hugging Face layout, from the GGUF's
// `{arch}.*` key/values (the inverse of core/src/arch/arch_hparams.cc, which
// reads config.json as convert_hf_to_gguf.py's set_gguf_parameters does).
// The rule for every key: the config.json key transformers reads for that
// model type, with the value the converter turns back into the same GGUF
// key/value (so GGUF → HF → GGUF gives the same `{arch}.*` key/values).
#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "arch/arch_table.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// The GGUF key/values of `cat`, remembering every key asked for, so that
/// the keys config.json does not carry can be named (unread_arch_keys()).
class GgufKeys {
public:
    explicit GgufKeys(const Catalog& cat) : cat_(cat) {}

    /// A string value; nullopt when absent or not a string.
    std::optional<std::string> str(std::string_view key) const;
    /// A scalar number (or element `index` of an array); bools as 1/0;
    /// nullopt when absent, a string, NaN or ±inf.
    std::optional<double> num(std::string_view key, std::size_t index = 0) const;
    /// The JSON text of a scalar number, shortest round-trip form ("1e-05").
    std::optional<std::string> number_text(std::string_view key) const;
    /// A positive integer value.
    /// \throws Error{Malformed} naming the key when it is absent, not an
    ///         integer or not positive.
    std::uint64_t required_u64(std::string_view key) const;
    /// Marks `key` as carried (e.g. a value derived from tensors).
    void mark(std::string_view key) const { read_.insert(std::string(key)); }
    /// Marks `key` as not carried (a value read but with no equivalent), so unread() names it.
    void unmark(std::string_view key) const { read_.erase(std::string(key)); }
    /// Every `prefix`* key of the file not asked for, in file order.
    std::vector<std::string> unread(std::string_view prefix) const;
    const Catalog& catalog() const noexcept { return cat_; }

private:
    const Catalog& cat_;
    mutable std::set<std::string, std::less<>> read_;
};

/// What the tensors tell config.json.
struct HfConfigFacts {
    bool tied = true;                          ///< no `output.weight`
    bool attention_bias = false;               ///< `attn_q/k/v.bias` present
    bool experts = false;                      ///< stacked `ffn_*_exps` present
    bool qk_norm = false;                      ///< `attn_q_norm` present
    bool two_norms = false;                    ///< Falcon: `attn_norm_2` present (the 40B "new decoder architecture")
    std::optional<double> llama3_factor;       ///< from `rope_freqs.weight` (the Llama 3 rule)
    double llama3_high = 4.0;                  ///< its high_freq_factor (Llama 4: 1, equal to the low one)
    std::vector<float> long_factor, short_factor;  ///< Phi-3 `rope_factors_long/short.weight`
    std::optional<DType> out_dtype;            ///< torch_dtype (default bfloat16)
    std::uint64_t position_offset = 0;         ///< XLM-RoBERTa: pad_token_id + 1, the position rows the converter cut
};

/// The HF class the GGUF becomes: the row's, or MixtralForCausalLM for a
/// llama/mistral GGUF with experts, Olmo3ForCausalLM for an olmo2 GGUF with
/// a sliding window, XLMRobertaForSequenceClassification for XLM-RoBERTa's
/// row with a classifier (`cls.output.weight`), and the other cases below.
std::string_view hf_class_for(const arch::ArchRow& row, const GgufKeys& kv, bool experts);

/// config.json text (pretty-printed, no trailing newline) for `row`.
/// \throws Error{Malformed} when a required key (embedding_length,
///         block_count, attention.head_count, feed_forward_length) is missing
///         or not a positive integer, or there is neither token_embd.weight
///         nor {arch}.vocab_size; Error{Unsupported} for a RoPE scaling type
///         config.json cannot express.
std::string hf_config_json(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `bert` GGUF (hf_config_bert.cc; hf_config_json() calls it): BertConfig's names
/// (hidden_size, intermediate_size, num_hidden_layers, num_attention_heads, layer_norm_eps,
/// max_position_embeddings from context_length, type_vocab_size from token_types.weight's rows,
/// vocab_size from token_embd.weight's, pad_token_id) and id2label / label2id from
/// classifier.output_labels. attention.causal true stays unread (BERT attends both ways).
/// \throws as hf_config_json(); Error{Malformed} without token_embd.weight or for labels that are not strings.
std::string bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `nomic-bert` GGUF (hf_config_bert.cc): nomic-embed-text-v1.5's (NomicBertConfig's GPT-2 names
/// n_embd / n_head / n_inner / n_layer, layer_norm_epsilon, rotary_emb_base from rope.freq_base, n_positions 8192 for
/// the context 2048 and 2048 for 512 with max_trained_positions 2048, type_vocab_size, vocab_size from
/// token_embd.weight's rows, the auto_map of its remote code, the flags NomicBertModel's converter asserts).
/// \throws Error{Unsupported} for another context_length; Error{Malformed} without token_embd.weight or
///         rope.freq_base, as hf_config_json().
std::string nomic_bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `modern-bert` GGUF (hf_config_bert.cc): ModernBertConfig's names (hidden_size, intermediate_size,
/// num_hidden_layers, num_attention_heads, hidden_activation, max_position_embeddings, norm_eps and layer_norm_eps,
/// global_rope_theta / local_rope_theta, local_attention / global_attn_every_n_layers from the sliding window and its
/// pattern, no biases, the special ids of the tokenizer keys, vocab_size from token_embd.weight's rows).
/// \throws as hf_config_json(); Error{Malformed} without token_embd.weight or attention.sliding_window, or when
///         {arch}.vocab_size differs from token_embd.weight's rows.
std::string modern_bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `gptneox` GGUF (hf_config_classic.cc): GPTNeoXConfig's names (hidden_size, intermediate_size,
/// num_hidden_layers, num_attention_heads, max_position_embeddings, rotary_pct = rope.dimension_count / head size,
/// use_parallel_residual, layer_norm_eps, attention_bias from attn_qkv.bias) with the base 10000 llama.cpp assumes.
/// \throws as hf_config_json(); Error{Malformed} when the rotary count exceeds the head size.
std::string gptneox_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `starcoder` GGUF (hf_config_classic.cc): GPTBigCodeConfig's names (n_embd, n_inner, n_layer, n_head,
/// n_positions, layer_norm_epsilon, multi_query). \throws as hf_config_json(); Error{Unsupported} for more than one
/// KV head or a feed-forward length other than 4 × n_embd (the converter's).
std::string starcoder_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `bloom` GGUF (hf_config_classic.cc): BloomConfig's names (hidden_size, n_layer, n_head,
/// layer_norm_epsilon) and seq_length for the context the converter wrote. \throws as hf_config_json();
/// Error{Unsupported} for a feed-forward length other than 4 × hidden or fewer KV heads than heads.
std::string bloom_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);

/// config.json of a `mamba` GGUF (hf_config_classic.cc): MambaConfig's names (hidden_size, intermediate_size, expand 2,
/// num_hidden_layers, state_size, conv_kernel, time_step_rank, layer_norm_epsilon, use_bias / use_conv_bias from the
/// tensors), FalconMambaForCausalLM (model_type falcon_mamba) when ssm.dt_b_c_rms is true; of a `mamba2` GGUF,
/// Mamba2Config's (expand = inner / width, num_heads = time_step_rank, head_dim = inner / heads, n_groups); vocab_size from
/// token_embd.weight's rows with pad_vocab_size_multiple 1 (the converter padded them already). The context 2^20 and
/// the zero feed-forward length and head count are the converter's constants.
/// \throws as hf_config_json(); Error{Unsupported} when ssm.inner_size is not 2 × embedding_length (mamba), not a
///         multiple of it or of the head count (mamba2).
std::string mamba_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& facts);
/// The sentence-transformers files that carry `{arch}.pooling_type` back (hf_config_bert.cc):
/// modules.json (Transformer, then Pooling at "1_Pooling") and 1_Pooling/config.json with the one
/// pooling_mode_* flag of the type (1 mean_tokens, 2 cls_token, 3 lasttoken), as _try_set_pooling_type
/// reads them. None without the key; none for another type (the key then stays unread).
/// \throws Error{Malformed} when embedding_length is missing.
std::vector<std::pair<std::string, std::string>> embedding_side_files(const arch::ArchRow& row, const GgufKeys& kv);

}  // namespace amn::detail
