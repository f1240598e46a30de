// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Private to core/src/arch: the key/value list every converter class's
// set_gguf_parameters writes into (gguf-py GGUFWriter.add_key_value
// semantics), TextModel.set_gguf_parameters itself (conversion/base.py),
// and the small hparam readers the classes share (arch_hparams.cc).
#include "arch/arch_table.hpp"
#include "arch/arch_values.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::arch::detail {

/// gguf-py GGUFWriter.add_key_value: a repeated key overwrites the value in place.
class KvOut {
public:
    KvOut(std::string arch, std::vector<MetaKv>& out) : arch_(std::move(arch)), out_(&out) {}
    void to(std::vector<MetaKv>& out) { out_ = &out; }
    /// `suffix` after "{arch}." ("block_count").
    void put(std::string_view suffix, MetaValue v) { put_key(arch_ + "." + std::string(suffix), std::move(v)); }
    void put_key(std::string key, MetaValue v) {
        for (auto* vec : seen_)
            for (auto& kv : *vec)
                if (kv.key == key) {
                    kv.value = std::move(v);
                    return;
                }
        out_->push_back({std::move(key), std::move(v)});
        if (std::find(seen_.begin(), seen_.end(), out_) == seen_.end()) seen_.push_back(out_);
    }

private:
    std::string arch_;
    std::vector<MetaKv>* out_;
    std::vector<std::vector<MetaKv>*> seen_;
};

/// TextModel.set_gguf_parameters up to (excluding) add_file_type;
/// `use_head_dim` false when the class pops head_dim first (GraniteModel);
/// `mla` for DeepseekV2Model, which sets num_key_value_heads = 1 and a default
/// rms_norm_eps of 1e-6 in hparams first; `ctx_model_max_length_first` for
/// CommandR2Model, which sets max_position_embeddings from model_max_length first;
/// `extra_blocks` the layers a class adds to `self.block_count` (Glm4MoeModel's
/// NextN layers). \throws as hparam_kvs().
void text_model_params(const HfConfig& cfg, KvOut& kv, bool use_head_dim = true, bool mla = false,
                       bool ctx_model_max_length_first = false, std::int64_t extra_blocks = 0);

/// Python `a // b` for the ints of config.json. \throws Error{Malformed} naming `what` when b is 0.
std::int64_t floordiv(std::int64_t a, std::int64_t b, std::string_view what, const std::string& file);

/// Python truthiness of a number-valued hparam (`if x := hparams.get(k)`): present, non-null, non-zero.
std::optional<simdjson::dom::element> truthy_number(const HfConfig& cfg, std::string_view key);

/// `hparams[key]` (present and non-null, else missing()).
simdjson::dom::element exact(const HfConfig& cfg, std::string_view key);

/// int(factor * (hidden_size // num_attention_heads)) of the converter classes with a partial rotary
/// dimension (Python float product truncated toward zero). \throws as exact() / floordiv().
MetaValue partial_rope_dim(const HfConfig& cfg, const PyNum& factor);

/// int(rope_dim * factor) with rope_dim = hparams.get("head_dim"), else hidden_size // num_attention_heads
/// (Glm4Model, Glm4MoeModel), as U32. \throws as exact() / floordiv(); Error{BadJson} for a mistyped head_dim.
MetaValue head_rope_dim(const HfConfig& cfg, const PyNum& factor);

/// GPTNeoXModel.set_gguf_parameters (arch_classic_params.cc): its own list — context, embedding, blocks,
/// feed-forward, int(rotary_pct · head size), heads, use_parallel_residual (true by default), the LayerNorm
/// epsilon — and no general.file_type (res.file_type false). \throws as hparam_kvs() (rotary_pct required).
void gptneox_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res);

/// StarCoderModel.set_gguf_parameters (GPTBigCodeForCausalLM, arch_classic_params.cc): n_positions, n_embd,
/// feed-forward 4 · n_embd, blocks, n_head, one KV head, layer_norm_epsilon. \throws as hparam_kvs();
/// Error{Unsupported} for multi_query false (the converter still writes one KV head).
void starcoder_params(const HfConfig& cfg, KvOut& kv);

/// OlmoModel.set_gguf_parameters (OLMo 1, arch_classic_params.cc): TextModel's, then the LayerNorm epsilon 1e-5
/// (in place when TextModel's list wrote one) and attention.clamp_kqv from clip_qkv when not null.
void olmo_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res);

/// BloomModel.set_gguf_parameters (arch_classic_params.cc): context seq_length (else the width, as the converter
/// does), hidden_size / n_embed, feed-forward 4 × width, blocks, n_head for both head counts, layer_norm_epsilon.
void bloom_params(const HfConfig& cfg, KvOut& kv);

/// MiniCPMModel.set_gguf_parameters (arch_classic_params.cc): TextModel's, then embedding_scale (scale_emb),
/// residual_scale (scale_depth / √num_hidden_layers), logit_scale (hidden_size / dim_model_base). \throws as
/// hparam_kvs(); Error{Unsupported} for LongRoPE factors (its generated rope_factors tensors are not written here).
void minicpm_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res);

/// LFM2Model.set_gguf_parameters (arch_hybrid_params.cc): TextModel's list with attention.head_count_kv an
/// INT32 array (num_key_value_heads per layer_types entry, 0 for "conv" layers), then vocab_size,
/// shortconv.l_cache, the rms eps from norm_eps and feed_forward_length as _add_feed_forward_length computes
/// it (both in place when TextModel's list wrote them). \throws as hparam_kvs() (layer_types, conv_L_cache,
/// norm_eps and the block_* keys required).
void lfm2_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res);

/// MambaModel.set_gguf_parameters (arch_hybrid_params.cc; mamba.py): context_length 2^20, embedding_length
/// (hidden_size / d_model), feed_forward_length 0, attention.head_count 0, block_count, ssm.conv_kernel
/// (conv_kernel / d_conv, else 4), ssm.inner_size (intermediate_size / d_inner, else 2 · width), ssm.state_size
/// (state_size / d_state, else 16), ssm.time_step_rank (time_step_rank / dt_rank, else ⌈width / 16⌉),
/// attention.layer_norm_rms_epsilon (layer_norm_epsilon / rms_norm_eps, else 1e-5), ssm.dt_b_c_rms (model_type
/// "falcon_mamba"); the defaults replace absent, null and zero values (Python's `or`). Nothing after file_type.
/// \throws as hparam_kvs(); Error{Malformed} when the inner size is not 2 × the width (the converter's assert).
void mamba_params(const HfConfig& cfg, KvOut& kv);

/// Mamba2Model.__init__'s dimensions: the width (hidden_size / d_model / dim), expand (mamba_expand / expand, else
/// 2), the inner size (mamba_d_ssm / intermediate_size / d_inner, else expand · width), n_groups (else 1); absent,
/// null and zero values take the defaults. \throws as hparam_kvs() (the width required); Error{BadJson} when a
/// value is negative or past 2^40.
struct Mamba2Dims {
    std::int64_t model = 0, expand = 2, inner = 0, groups = 1;
};
Mamba2Dims mamba2_dims(const HfConfig& cfg);
/// MambaModel / Mamba2Model.set_vocab's vocab_size: config.json's, rounded up to pad_vocab_size_multiple (8 for
/// Mamba, 16 for Mamba-2 when absent) — the rows of the embedding the converter writes. nullopt without vocab_size.
/// \throws Error{BadJson} naming config.json when either is not an integer, vocab_size is negative or the
///         multiple is not in 1 … 2^20.
std::optional<std::uint64_t> ssm_padded_vocab_size(const HfConfig& cfg, bool mamba2);

/// Mamba2Model.set_gguf_parameters (arch_hybrid_params.cc): context_length 2^20, embedding_length, feed_forward_length
/// 0, attention.head_count 0, block_count, ssm.conv_kernel (else 4), ssm.inner_size, ssm.state_size (else 128),
/// ssm.time_step_rank = inner // head_dim (mamba_d_head / head_dim, else 64), ssm.group_count, the rms eps (else
/// 1e-5). \throws as hparam_kvs(); Error{Malformed} where the converter asserts (inner ≠ expand · width, inner
/// not a multiple of head_dim).
void mamba2_params(const HfConfig& cfg, KvOut& kv);

/// _QwenMtpMixin.__init__'s MTP layer count (class_tensors_qwen3next.cc): mtp_num_hidden_layers, else (absent
/// or 0) the largest `mtp.layers.N` index + 1 among `model_dir`'s tensors (0 when model_dir is empty).
/// \throws as hparam_kvs(); Error{Malformed} when neither gives a layer (the converter's assert), as open_model().
std::uint64_t qwen_mtp_layers(const HfConfig& cfg, const std::string& model_dir);

/// Qwen3NextModel.set_gguf_parameters (arch_hybrid_params.cc): TextModel's list with the MTP layers in block_count,
/// Qwen2MoeModel's expert lengths, nextn_predict_layers, ssm.conv_kernel (linear_conv_kernel_dim), state_size
/// (linear_key_head_dim), group_count (linear_num_key_heads), time_step_rank (linear_num_value_heads), inner_size
/// (linear_value_head_dim · linear_num_value_heads), full_attention_interval (else 4), rope.dimension_count
/// (head_dim, else hidden_size // num_attention_heads, times partial_rotary_factor, else 0.25).
/// \throws as hparam_kvs() and qwen_mtp_layers().
void qwen3next_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& model_dir);

/// HunYuanModel.set_gguf_parameters (arch_hunyuan_params.cc): TextModel's list without num_experts (an
/// expert_count from it removed), then for rope_scaling type "dynamic" / "xdrope" rope.freq_base = rope_theta ·
/// alpha^(head_dim / (head_dim − 2)) (alpha 50 and rope_theta 10000 by default; computed in double, written F32,
/// in place), rope.scaling.type "none", rope.scaling.factor 1, and for "dynamic" original_context_length and
/// context_length 262144 (the latter in place). \throws as hparam_kvs(); Error{Malformed} where the converter
/// asserts (dynamic with rope_theta ≠ 10000 or max_position_embeddings ∉ {32768, 262144}) or divides by zero
/// (head_dim 2); Error{Malformed} without head_dim.
void hunyuan_dense_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res);
/// TextModel._try_set_pooling_type (arch_embed_params.cc): `{arch}.pooling_type` from the sentence-transformers
/// modules.json of `dir` (its first module whose type ends in "Pooling") and that module's config.json:
/// pooling_mode_mean_tokens → 1 (MEAN), pooling_mode_cls_token → 2 (CLS), pooling_mode_lasttoken → 3 (LAST),
/// else pooling_mode "mean"/"cls"/"lasttoken". Nothing without modules.json or a pooling module.
/// \throws Error{Io}/{BadJson} naming the file when one is unreadable, Error{Unsupported} for another mode.
void pooling(const std::string& dir, KvOut& kv);

/// BertModel.set_gguf_parameters (arch_embed_params.cc): TextModel's list, then attention.causal false,
/// the pooling type and, when config.json has id2label (other than transformers' two default LABEL_0/LABEL_1),
/// classifier.output_labels (the labels in key order). \throws as hparam_kvs().
void bert_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir);
/// BertModel.__init__'s `cls_out_labels`: config.json id2label's labels in key order, empty when absent, null or
/// transformers' default pair (LABEL_0 first of two). \throws Error{BadJson} naming the file when id2label is not
/// an object of label ids to strings.
std::vector<std::string> bert_output_labels(const HfConfig& cfg);

/// NomicBertModel (arch_embed_params.cc): its __init__'s checks, then bert_params() with context_length 2048 for
/// n_positions 8192 (512 for 2048; max_trained_positions 2048, its default) when n_positions is the key TextModel
/// reads it from. \throws Error{Unsupported} for moe_every_n_layers (nomic-bert-moe) and a Unigram (XLM-RoBERTa)
/// tokenizer.json; Error{Malformed} where the converter asserts or raises (other n_positions / max_trained_positions,
/// causal, qkv_proj_bias / mlp_fc1_bias / mlp_fc2_bias, prenorm, rotary_emb_fraction ≠ 1, interleaved or scaled RoPE,
/// a tokenizer.json model other than WordPiece); as hparam_kvs().
void nomic_bert_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir);

/// XLMRobertaModel (arch_embed_params.cc): bert_params(), then context_length = max_position_embeddings −
/// (pad_token_id + 1) in place when both are in config.json (the position rows the converter drops).
/// \throws Error{Unsupported} for lora_adaptations (jina-embeddings-v3: jina-bert-v3 and LoRA GGUFs);
///         Error{Malformed} for a null max_position_embeddings with a pad_token_id, a negative pad_token_id;
///         Error{BadJson} for a context below 0; as hparam_kvs().
void xlmroberta_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir);
/// RobertaModel (arch_embed_params.cc): XLMRobertaModel's without the LoRA check — bert_params(), then the same
/// context_length cut. \throws as xlmroberta_params() but the lora_adaptations refusal.
void roberta_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir);
/// `1 + pad_token_id` (XLMRobertaModel's _position_offset), nullopt when pad_token_id is absent or null.
/// \throws Error{BadJson} when it is not an int, Error{Malformed} when negative.
std::optional<std::int64_t> xlmroberta_position_offset(const HfConfig& cfg);

/// ModernBertModel.set_gguf_parameters (arch_embed_params.cc): bert_params(), then attention.sliding_window
/// (local_attention), attention.sliding_window_pattern (global_attn_every_n_layers, when present and not null),
/// rope.scaling.type "none", vocab_size and, when truthy, hidden_activation (a string).
/// \throws as hparam_kvs() (local_attention and vocab_size required); Error{BadJson} for a hidden_activation
///         that is not a string.
void modern_bert_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir);

}  // namespace amn::arch::detail
