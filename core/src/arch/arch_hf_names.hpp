// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// GGUF → HF canonical tensor names of the architecture rows (hf_layout.cc reads them through
// ArchRow::hf_names): data only, included by arch_table.cc alone.
#include "arch/arch_table.hpp"

#include <array>

namespace amn::arch::hf_names {

using K = TensorKind;

// ---- GGUF → HF canonical names (hf_layout.cc) ------------------------------------------

/// The names every row with GGUF → HF names shares, in the order of both lists below.
constexpr HfTensorName kCommonHfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::ATTN_Q_NORM, "model.layers.{bid}.self_attn.q_norm"},
    {K::ATTN_K_NORM, "model.layers.{bid}.self_attn.k_norm"},
    {K::FFN_GATE, "model.layers.{bid}.mlp.gate_proj"},
    {K::FFN_UP, "model.layers.{bid}.mlp.up_proj"},
    {K::FFN_DOWN, "model.layers.{bid}.mlp.down_proj"},
};
/// One norm after attention.
constexpr HfTensorName kPlainNormNames[] = {
    {K::FFN_NORM, "model.layers.{bid}.post_attention_layernorm"},
};
/// Gemma 2/3: four norms per block; `ffn_norm` is the pre-feed-forward one.
constexpr HfTensorName kSandwichNormNames[] = {
    {K::FFN_NORM, "model.layers.{bid}.pre_feedforward_layernorm"},
    {K::ATTN_POST_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_POST_NORM, "model.layers.{bid}.post_feedforward_layernorm"},
};

template <std::size_t N, std::size_t M>
constexpr std::array<HfTensorName, N + M> joined(const HfTensorName (&a)[N], const HfTensorName (&b)[M]) {
    std::array<HfTensorName, N + M> r{};
    for (std::size_t i = 0; i < N; ++i) r[i] = a[i];
    for (std::size_t i = 0; i < M; ++i) r[N + i] = b[i];
    return r;
}

/// Mixtral (the llama row with experts): a router and each expert's w1/w2/w3,
/// `{xid}` the expert (GGUF stacks them into one [E, …] tensor).
constexpr HfTensorName kMixtralNames[] = {
    {K::FFN_GATE_INP, "model.layers.{bid}.block_sparse_moe.gate"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.block_sparse_moe.experts.{xid}.w1"},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.block_sparse_moe.experts.{xid}.w2"},
    {K::FFN_UP_EXP, "model.layers.{bid}.block_sparse_moe.experts.{xid}.w3"},
};
/// Qwen2-MoE, Qwen3-MoE, OLMoE: `mlp.gate`, `mlp.experts.{xid}.*_proj`, Qwen2-MoE's shared expert and its gate.
constexpr HfTensorName kQwenMoeNames[] = {
    {K::FFN_GATE_INP, "model.layers.{bid}.mlp.gate"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.mlp.experts.{xid}.gate_proj"},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.mlp.experts.{xid}.down_proj"},
    {K::FFN_UP_EXP, "model.layers.{bid}.mlp.experts.{xid}.up_proj"},
    {K::FFN_GATE_INP_SHEXP, "model.layers.{bid}.mlp.shared_expert_gate"},
    {K::FFN_GATE_SHEXP, "model.layers.{bid}.mlp.shared_expert.gate_proj"},
    {K::FFN_DOWN_SHEXP, "model.layers.{bid}.mlp.shared_expert.down_proj"},
    {K::FFN_UP_SHEXP, "model.layers.{bid}.mlp.shared_expert.up_proj"},
};
/// Phi-3: Q/K/V and gate/up stay fused, as transformers keeps them.
constexpr HfTensorName kPhi3HfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_QKV, "model.layers.{bid}.self_attn.qkv_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::FFN_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_UP, "model.layers.{bid}.mlp.gate_up_proj"},
    {K::FFN_DOWN, "model.layers.{bid}.mlp.down_proj"},
};
/// GPT-2: `transformer.*`, Conv1D weights (row transpose_conv1d), LayerNorms with biases; StarCoder 1 / SantaCoder
/// (GPTBigCode) has the same names as nn.Linear (no transpose), its multi-query c_attn kept fused.
constexpr HfTensorName kGpt2HfNames[] = {
    {K::TOKEN_EMBD, "transformer.wte"},
    {K::POS_EMBD, "transformer.wpe"},
    {K::OUTPUT_NORM, "transformer.ln_f"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "transformer.h.{bid}.ln_1"},
    {K::ATTN_QKV, "transformer.h.{bid}.attn.c_attn"},
    {K::ATTN_OUT, "transformer.h.{bid}.attn.c_proj"},
    {K::FFN_NORM, "transformer.h.{bid}.ln_2"},
    {K::FFN_UP, "transformer.h.{bid}.mlp.c_fc"},
    {K::FFN_DOWN, "transformer.h.{bid}.mlp.c_proj"},
};
/// StarCoder 2: LayerNorms with biases, a GELU MLP of c_fc/c_proj.
constexpr HfTensorName kStarcoder2HfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::FFN_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_UP, "model.layers.{bid}.mlp.c_fc"},
    {K::FFN_DOWN, "model.layers.{bid}.mlp.c_proj"},
};

template <std::size_t N, std::size_t M>
constexpr std::array<HfTensorName, N + M> joined(const std::array<HfTensorName, N>& a, const HfTensorName (&b)[M]) {
    std::array<HfTensorName, N + M> r{};
    for (std::size_t i = 0; i < N; ++i) r[i] = a[i];
    for (std::size_t i = 0; i < M; ++i) r[N + i] = b[i];
    return r;
}

/// EXAONE 3.x: GPT-2-style `transformer.*` names, gate/up as c_fc_0/c_fc_1.
constexpr HfTensorName kExaoneHfNames[] = {
    {K::TOKEN_EMBD, "transformer.wte"},
    {K::OUTPUT_NORM, "transformer.ln_f"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "transformer.h.{bid}.ln_1"},
    {K::ATTN_Q, "transformer.h.{bid}.attn.attention.q_proj"},
    {K::ATTN_K, "transformer.h.{bid}.attn.attention.k_proj"},
    {K::ATTN_V, "transformer.h.{bid}.attn.attention.v_proj"},
    {K::ATTN_OUT, "transformer.h.{bid}.attn.attention.out_proj"},
    {K::FFN_NORM, "transformer.h.{bid}.ln_2"},
    {K::FFN_GATE, "transformer.h.{bid}.mlp.c_fc_0"},
    {K::FFN_UP, "transformer.h.{bid}.mlp.c_fc_1"},
    {K::FFN_DOWN, "transformer.h.{bid}.mlp.c_proj"},
};

/// Phi-2: biases everywhere, `self_attn.dense`, `mlp.fc1/fc2`, `final_layernorm`.
constexpr HfTensorName kPhi2HfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.final_layernorm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.dense"},
    {K::FFN_UP, "model.layers.{bid}.mlp.fc1"},
    {K::FFN_DOWN, "model.layers.{bid}.mlp.fc2"},
};

/// GLM-4: gate and up fused in `mlp.gate_up_proj` (GGUF ffn_up, kept fused as transformers keeps it), four norms.
constexpr HfTensorName kGlm4HfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::ATTN_POST_NORM, "model.layers.{bid}.post_self_attn_layernorm"},
    {K::FFN_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_UP, "model.layers.{bid}.mlp.gate_up_proj"},
    {K::FFN_DOWN, "model.layers.{bid}.mlp.down_proj"},
    {K::FFN_POST_NORM, "model.layers.{bid}.post_mlp_layernorm"},
};

/// Falcon: `transformer.*`, the fused query_key_value (regrouped back per KV group by hf_layout.cc), one
/// input_layernorm (7B) or, where the GGUF has attn_norm_2, ln_attn and ln_mlp (40B: hf_layout.cc renames).
constexpr HfTensorName kFalconHfNames[] = {
    {K::TOKEN_EMBD, "transformer.word_embeddings"},
    {K::OUTPUT_NORM, "transformer.ln_f"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "transformer.h.{bid}.input_layernorm"},
    {K::ATTN_NORM_2, "transformer.h.{bid}.ln_attn"},
    {K::ATTN_QKV, "transformer.h.{bid}.self_attention.query_key_value"},
    {K::ATTN_OUT, "transformer.h.{bid}.self_attention.dense"},
    {K::FFN_UP, "transformer.h.{bid}.mlp.dense_h_to_4h"},
    {K::FFN_DOWN, "transformer.h.{bid}.mlp.dense_4h_to_h"},
};

/// GPT-NeoX (Pythia, Dolly v2): `gpt_neox.*`, the fused query_key_value (regrouped back per head by hf_layout.cc),
/// biases everywhere, an untied `embed_out`.
constexpr HfTensorName kGptNeoXHfNames[] = {
    {K::TOKEN_EMBD, "gpt_neox.embed_in"},
    {K::OUTPUT_NORM, "gpt_neox.final_layer_norm"},
    {K::OUTPUT, "embed_out"},
    {K::ATTN_NORM, "gpt_neox.layers.{bid}.input_layernorm"},
    {K::ATTN_QKV, "gpt_neox.layers.{bid}.attention.query_key_value"},
    {K::ATTN_OUT, "gpt_neox.layers.{bid}.attention.dense"},
    {K::FFN_NORM, "gpt_neox.layers.{bid}.post_attention_layernorm"},
    {K::FFN_UP, "gpt_neox.layers.{bid}.mlp.dense_h_to_4h"},
    {K::FFN_DOWN, "gpt_neox.layers.{bid}.mlp.dense_4h_to_h"},
};

/// BLOOM: `transformer.*` (the converter removes the prefix), the embedding LayerNorm, the fused
/// query_key_value (regrouped back per head by hf_layout.cc), biases everywhere, tied embeddings.
constexpr HfTensorName kBloomHfNames[] = {
    {K::TOKEN_EMBD, "transformer.word_embeddings"},
    {K::TOKEN_EMBD_NORM, "transformer.word_embeddings_layernorm"},
    {K::OUTPUT_NORM, "transformer.ln_f"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "transformer.h.{bid}.input_layernorm"},
    {K::ATTN_QKV, "transformer.h.{bid}.self_attention.query_key_value"},
    {K::ATTN_OUT, "transformer.h.{bid}.self_attention.dense"},
    {K::FFN_NORM, "transformer.h.{bid}.post_attention_layernorm"},
    {K::FFN_UP, "transformer.h.{bid}.mlp.dense_h_to_4h"},
    {K::FFN_DOWN, "transformer.h.{bid}.mlp.dense_4h_to_h"},
};

/// InternLM2 (remote code): `model.tok_embeddings`, `output`, the fused `attention.wqkv` joined back from q, k, v
/// (and regrouped per KV group by hf_layout.cc), `feed_forward.w1/w2/w3`.
constexpr HfTensorName kInternLM2HfNames[] = {
    {K::TOKEN_EMBD, "model.tok_embeddings"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "output"},
    {K::ATTN_NORM, "model.layers.{bid}.attention_norm"},
    {K::ATTN_Q, "model.layers.{bid}.attention.wqkv", {.part = 0, .parts = 3}},
    {K::ATTN_K, "model.layers.{bid}.attention.wqkv", {.part = 1, .parts = 3}},
    {K::ATTN_V, "model.layers.{bid}.attention.wqkv", {.part = 2, .parts = 3}},
    {K::ATTN_OUT, "model.layers.{bid}.attention.wo"},
    {K::FFN_NORM, "model.layers.{bid}.ffn_norm"},
    {K::FFN_GATE, "model.layers.{bid}.feed_forward.w1"},
    {K::FFN_UP, "model.layers.{bid}.feed_forward.w3"},
    {K::FFN_DOWN, "model.layers.{bid}.feed_forward.w2"},
};

/// BERT's encoder (transformers BertModel): `embeddings.*`, `encoder.layer.{bid}.*`, LayerNorms with biases.
constexpr HfTensorName kBertEncoderHfNames[] = {
    {K::TOKEN_EMBD, "embeddings.word_embeddings"},
    {K::POS_EMBD, "embeddings.position_embeddings"},
    {K::TOKEN_TYPES, "embeddings.token_type_embeddings"},
    {K::TOKEN_EMBD_NORM, "embeddings.LayerNorm"},
    {K::ATTN_Q, "encoder.layer.{bid}.attention.self.query"},
    {K::ATTN_K, "encoder.layer.{bid}.attention.self.key"},
    {K::ATTN_V, "encoder.layer.{bid}.attention.self.value"},
    {K::ATTN_OUT, "encoder.layer.{bid}.attention.output.dense"},
    {K::ATTN_OUT_NORM, "encoder.layer.{bid}.attention.output.LayerNorm"},
    {K::FFN_UP, "encoder.layer.{bid}.intermediate.dense"},
    {K::FFN_DOWN, "encoder.layer.{bid}.output.dense"},
    {K::LAYER_OUT_NORM, "encoder.layer.{bid}.output.LayerNorm"},
};
/// BertForSequenceClassification's projection (its encoder under `bert.`: hf_layout.cc adds it, the converter cuts it).
constexpr HfTensorName kBertHeadNames[] = {{K::CLS_OUT, "classifier"}};
/// XLM-RoBERTa's reranker head (XLMRobertaForSequenceClassification; conversion/bert.py maps classifier.dense /
/// classifier.out_proj to cls / cls.output), its encoder under `roberta.`.
constexpr HfTensorName kXlmRobertaHeadNames[] = {{K::CLS, "classifier.dense"}, {K::CLS_OUT, "classifier.out_proj"}};

/// nomic-embed-text (remote code NomicBertModel): fused Wqkv, rotary (no position table), SwiGLU fc11 (up) / fc12 (gate).
constexpr HfTensorName kNomicBertHfNames[] = {
    {K::TOKEN_EMBD, "embeddings.word_embeddings"},
    {K::TOKEN_TYPES, "embeddings.token_type_embeddings"},
    {K::TOKEN_EMBD_NORM, "emb_ln"},
    {K::ATTN_QKV, "encoder.layers.{bid}.attn.Wqkv"},
    {K::ATTN_OUT, "encoder.layers.{bid}.attn.out_proj"},
    {K::FFN_UP, "encoder.layers.{bid}.mlp.fc11"},
    {K::FFN_GATE, "encoder.layers.{bid}.mlp.fc12"},
    {K::FFN_DOWN, "encoder.layers.{bid}.mlp.fc2"},
    {K::ATTN_OUT_NORM, "encoder.layers.{bid}.norm1"},
    {K::LAYER_OUT_NORM, "encoder.layers.{bid}.norm2"},
};

/// ModernBERT (transformers ModernBertModel): fused Wqkv, GLU Wi (up and gate in one), no biases, layer 0 without attn_norm.
constexpr HfTensorName kModernBertHfNames[] = {
    {K::TOKEN_EMBD, "embeddings.tok_embeddings"},
    {K::TOKEN_EMBD_NORM, "embeddings.norm"},
    {K::OUTPUT_NORM, "final_norm"},
    {K::ATTN_NORM, "layers.{bid}.attn_norm"},
    {K::ATTN_QKV, "layers.{bid}.attn.Wqkv"},
    {K::ATTN_OUT, "layers.{bid}.attn.Wo"},
    {K::FFN_NORM, "layers.{bid}.mlp_norm"},
    {K::FFN_UP, "layers.{bid}.mlp.Wi"},
    {K::FFN_DOWN, "layers.{bid}.mlp.Wo"},
};

constexpr auto kPlainHfNames = joined(kCommonHfNames, kPlainNormNames);
constexpr auto kBertHfNames = joined(kBertEncoderHfNames, kBertHeadNames);
constexpr auto kXlmRobertaHfNames = joined(kBertEncoderHfNames, kXlmRobertaHeadNames);
constexpr auto kSandwichHfNames = joined(kCommonHfNames, kSandwichNormNames);
constexpr auto kLlamaHfNames = joined(kPlainHfNames, kMixtralNames);
constexpr auto kQwenMoeHfNames = joined(kPlainHfNames, kQwenMoeNames);
/// MiniMax-M2: Mixtral's expert names plus the router's correction bias (HF `e_score_correction_bias`).
constexpr HfTensorName kMiniMaxM2Names[] = {
    {K::FFN_EXP_PROBS_B, "model.layers.{bid}.block_sparse_moe.e_score_correction"},
};
constexpr auto kMiniMaxM2HfNames = joined(kLlamaHfNames, kMiniMaxM2Names);
/// ERNIE 4.5 MoE: `mlp.gate`, `mlp.experts.{xid}.*_proj`, the shared experts, the router's correction bias
/// (HF `mlp.moe_statics.e_score_correction_bias`, [1, E]).
constexpr HfTensorName kErnieMoeNames[] = {
    {K::FFN_GATE_INP, "model.layers.{bid}.mlp.gate"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.mlp.experts.{xid}.gate_proj"},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.mlp.experts.{xid}.down_proj"},
    {K::FFN_UP_EXP, "model.layers.{bid}.mlp.experts.{xid}.up_proj"},
    {K::FFN_GATE_SHEXP, "model.layers.{bid}.mlp.shared_experts.gate_proj"},
    {K::FFN_DOWN_SHEXP, "model.layers.{bid}.mlp.shared_experts.down_proj"},
    {K::FFN_UP_SHEXP, "model.layers.{bid}.mlp.shared_experts.up_proj"},
    {K::FFN_EXP_PROBS_B, "model.layers.{bid}.mlp.moe_statics.e_score_correction"},
};
constexpr auto kErnieMoeHfNames = joined(kPlainHfNames, kErnieMoeNames);
/// GLM-4.5: DeepSeek-style experts (`mlp.experts.{xid}`, `mlp.shared_experts`), one norm after attention, and
/// the NextN (MTP) layer's own tensors, which the checkpoints keep as a last `model.layers.{bid}` block.
constexpr HfTensorName kGlm4MoeNames[] = {
    {K::ATTN_POST_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_GATE_INP, "model.layers.{bid}.mlp.gate"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.mlp.experts.{xid}.gate_proj"},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.mlp.experts.{xid}.down_proj"},
    {K::FFN_UP_EXP, "model.layers.{bid}.mlp.experts.{xid}.up_proj"},
    {K::FFN_GATE_SHEXP, "model.layers.{bid}.mlp.shared_experts.gate_proj"},
    {K::FFN_DOWN_SHEXP, "model.layers.{bid}.mlp.shared_experts.down_proj"},
    {K::FFN_UP_SHEXP, "model.layers.{bid}.mlp.shared_experts.up_proj"},
    {K::FFN_EXP_PROBS_B, "model.layers.{bid}.mlp.gate.e_score_correction"},
    {K::NEXTN_EH_PROJ, "model.layers.{bid}.eh_proj"},
    {K::NEXTN_EMBED_TOKENS, "model.layers.{bid}.embed_tokens"},
    {K::NEXTN_ENORM, "model.layers.{bid}.enorm"},
    {K::NEXTN_HNORM, "model.layers.{bid}.hnorm"},
    {K::NEXTN_SHARED_HEAD_HEAD, "model.layers.{bid}.shared_head.head"},
    {K::NEXTN_SHARED_HEAD_NORM, "model.layers.{bid}.shared_head.norm"},
};
constexpr auto kGlm4MoeHfNames = joined(kCommonHfNames, kGlm4MoeNames);

/// LFM2: operator_norm / ffn_norm, feed_forward.w1/w2/w3, self_attn.out_proj and q/k_layernorm, the short
/// convolution's conv / in_proj / out_proj, the embedding norm (no final norm); tied embeddings have no lm_head.
constexpr HfTensorName kLfm2HfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::TOKEN_EMBD_NORM, "model.embedding_norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.operator_norm"},
    {K::FFN_NORM, "model.layers.{bid}.ffn_norm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.out_proj"},
    {K::ATTN_Q_NORM, "model.layers.{bid}.self_attn.q_layernorm"},
    {K::ATTN_K_NORM, "model.layers.{bid}.self_attn.k_layernorm"},
    {K::FFN_GATE, "model.layers.{bid}.feed_forward.w1"},
    {K::FFN_DOWN, "model.layers.{bid}.feed_forward.w2"},
    {K::FFN_UP, "model.layers.{bid}.feed_forward.w3"},
    {K::SHORTCONV_CONV, "model.layers.{bid}.conv.conv"},
    {K::SHORTCONV_INPROJ, "model.layers.{bid}.conv.in_proj"},
    {K::SHORTCONV_OUTPROJ, "model.layers.{bid}.conv.out_proj"},
};

/// The state-space models' shared names (transformers' Mamba / Mamba-2): backbone.embeddings / norm_f, each
/// layer's norm and mixer (in_proj, conv1d [C, 1, K] from [C, K], A_log from A, D, out_proj); tied embeddings
/// have no lm_head.
constexpr HfTensorName kSsmHfNames[] = {
    {K::TOKEN_EMBD, "backbone.embeddings"},
    {K::OUTPUT_NORM, "backbone.norm_f"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "backbone.layers.{bid}.norm"},
    {K::SSM_IN, "backbone.layers.{bid}.mixer.in_proj"},
    {K::SSM_CONV1D, "backbone.layers.{bid}.mixer.conv1d"},
    {K::SSM_A, "backbone.layers.{bid}.mixer.A_log"},
    {K::SSM_D, "backbone.layers.{bid}.mixer.D"},
    {K::SSM_OUT, "backbone.layers.{bid}.mixer.out_proj"},
};
/// Mamba (MambaForCausalLM): the shared names and the mixer's x_proj, dt_proj.
constexpr HfTensorName kMambaNames[] = {
    {K::SSM_X, "backbone.layers.{bid}.mixer.x_proj"},
    {K::SSM_DT, "backbone.layers.{bid}.mixer.dt_proj"},
};
/// Mamba-2 (Mamba2ForCausalLM): the shared names, the per-head dt_bias (GGUF ssm_dt.bias, a `bare` name: "_bias"
/// appended), and the gated norm from [groups, inner / groups] (A_log and D come back from [H, 1]).
constexpr HfTensorName kMamba2Names[] = {
    {K::SSM_DT, "backbone.layers.{bid}.mixer.dt", {.bare = true}},
    {K::SSM_NORM, "backbone.layers.{bid}.mixer.norm"},
};
/// Qwen3-Next: Qwen-MoE's experts and shared expert, post_attention_layernorm as ATTN_POST_NORM, the gated
/// delta-net's `linear_attn.*` (in_proj_qkvz joined back from attn_qkv and attn_gate, then regrouped per key
/// head in hf_layout.cc; A_log from A; dt_bias as a `bare` name), and the MTP block's fc / norms, which
/// hf_layout.cc renames from the last blocks to `mtp.*`.
constexpr HfTensorName kQwen3NextNames[] = {
    {K::ATTN_POST_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::SSM_A, "model.layers.{bid}.linear_attn.A_log"},
    {K::SSM_CONV1D, "model.layers.{bid}.linear_attn.conv1d"},
    {K::SSM_DT, "model.layers.{bid}.linear_attn.dt", {.bare = true}},
    {K::SSM_BETA_ALPHA, "model.layers.{bid}.linear_attn.in_proj_ba"},
    {K::SSM_NORM, "model.layers.{bid}.linear_attn.norm"},
    {K::SSM_OUT, "model.layers.{bid}.linear_attn.out_proj"},
    {K::ATTN_QKV, "model.layers.{bid}.linear_attn.in_proj_qkvz", {.part = 0, .parts = 2}},
    {K::ATTN_GATE, "model.layers.{bid}.linear_attn.in_proj_qkvz", {.part = 1, .parts = 2}},
    {K::NEXTN_EH_PROJ, "model.layers.{bid}.eh_proj"},
    {K::NEXTN_ENORM, "model.layers.{bid}.enorm"},
    {K::NEXTN_HNORM, "model.layers.{bid}.hnorm"},
    {K::NEXTN_SHARED_HEAD_NORM, "model.layers.{bid}.shared_head.norm"},
};
constexpr auto kQwen3NextHfNames = joined(joined(kCommonHfNames, kQwenMoeNames), kQwen3NextNames);
constexpr auto kMambaHfNames = joined(kSsmHfNames, kMambaNames);
constexpr auto kMamba2HfNames = joined(kSsmHfNames, kMamba2Names);

/// GraniteMoe(Shared): JetMoE's fused experts — gate and up joined back into `input_linear` [E, 2F, H] (the
/// converter halves it), `output_linear` kept stacked —, the router, the shared expert's fused input_linear.
constexpr HfTensorName kGraniteMoeNames[] = {
    {K::FFN_GATE_INP, "model.layers.{bid}.block_sparse_moe.router.layer"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.block_sparse_moe.input_linear", {.part = 0, .parts = 2}},
    {K::FFN_UP_EXP, "model.layers.{bid}.block_sparse_moe.input_linear", {.part = 1, .parts = 2}},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.block_sparse_moe.output_linear"},
    {K::FFN_GATE_SHEXP, "model.layers.{bid}.shared_mlp.input_linear", {.part = 0, .parts = 2}},
    {K::FFN_UP_SHEXP, "model.layers.{bid}.shared_mlp.input_linear", {.part = 1, .parts = 2}},
    {K::FFN_DOWN_SHEXP, "model.layers.{bid}.shared_mlp.output_linear"},
};
constexpr auto kGraniteMoeHfNames = joined(kPlainHfNames, kGraniteMoeNames);

/// Llama 4 (Llama4ForCausalLM, the text model): `feed_forward.*`, fused experts stored [E, in, out] with no
/// ".weight" — gate_up_proj = (gate ‖ up)ᵀ per expert, down_proj = downᵀ —, the router, the shared expert.
constexpr HfTensorName kLlama4HfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::FFN_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_GATE, "model.layers.{bid}.feed_forward.gate_proj"},
    {K::FFN_UP, "model.layers.{bid}.feed_forward.up_proj"},
    {K::FFN_DOWN, "model.layers.{bid}.feed_forward.down_proj"},
    {K::FFN_GATE_INP, "model.layers.{bid}.feed_forward.router"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.feed_forward.experts.gate_up_proj", {.part = 0, .parts = 2, .transpose_out = true, .bare = true}},
    {K::FFN_UP_EXP, "model.layers.{bid}.feed_forward.experts.gate_up_proj", {.part = 1, .parts = 2, .transpose_out = true, .bare = true}},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.feed_forward.experts.down_proj", {.part = 0, .parts = 1, .transpose_out = true, .bare = true}},
    {K::FFN_GATE_SHEXP, "model.layers.{bid}.feed_forward.shared_expert.gate_proj"},
    {K::FFN_UP_SHEXP, "model.layers.{bid}.feed_forward.shared_expert.up_proj"},
    {K::FFN_DOWN_SHEXP, "model.layers.{bid}.feed_forward.shared_expert.down_proj"},
};

/// gpt-oss: the attention sinks, the router (weight and bias), experts as transformers' GptOssExperts holds them
/// dequantized: gate_up_proj [E, H, 2F] with gate and up in alternate columns, down_proj [E, F, H], their biases
/// `gate_up_proj_bias` [E, 2F] (alternating too) and `down_proj_bias`.
constexpr HfTensorName kGptOssHfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_POST_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::ATTN_SINKS, "model.layers.{bid}.self_attn.sinks", {.bare = true}},
    {K::FFN_GATE_INP, "model.layers.{bid}.mlp.router"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.mlp.experts.gate_up_proj",
     {.part = 0, .parts = 2, .interleave = true, .transpose_out = true, .bare = true}},
    {K::FFN_UP_EXP, "model.layers.{bid}.mlp.experts.gate_up_proj",
     {.part = 1, .parts = 2, .interleave = true, .transpose_out = true, .bare = true}},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.mlp.experts.down_proj", {.part = 0, .parts = 1, .transpose_out = true, .bare = true}},
};

/// DeepSeek V2/V3 (MLA): q (V2-Lite) or q_a/q_b (LoRA), kv_a with its norm, kv_b_proj joined back from the
/// converter's k_b (its nope rows per head, transposed) and v_b, DeepSeek's experts and shared experts.
constexpr HfTensorName kDeepseek2Names[] = {
    {K::ATTN_Q_A, "model.layers.{bid}.self_attn.q_a_proj"},
    {K::ATTN_Q_A_NORM, "model.layers.{bid}.self_attn.q_a_layernorm"},
    {K::ATTN_Q_B, "model.layers.{bid}.self_attn.q_b_proj"},
    {K::ATTN_KV_A_MQA, "model.layers.{bid}.self_attn.kv_a_proj_with_mqa"},
    {K::ATTN_KV_A_NORM, "model.layers.{bid}.self_attn.kv_a_layernorm"},
    {K::ATTN_K_B, "model.layers.{bid}.self_attn.kv_b_proj", {.part = 0, .parts = 2, .transpose = true, .flatten = true}},
    {K::ATTN_V_B, "model.layers.{bid}.self_attn.kv_b_proj", {.part = 1, .parts = 2, .flatten = true}},
    {K::FFN_GATE_INP, "model.layers.{bid}.mlp.gate"},
    {K::FFN_GATE_EXP, "model.layers.{bid}.mlp.experts.{xid}.gate_proj"},
    {K::FFN_DOWN_EXP, "model.layers.{bid}.mlp.experts.{xid}.down_proj"},
    {K::FFN_UP_EXP, "model.layers.{bid}.mlp.experts.{xid}.up_proj"},
    {K::FFN_GATE_SHEXP, "model.layers.{bid}.mlp.shared_experts.gate_proj"},
    {K::FFN_DOWN_SHEXP, "model.layers.{bid}.mlp.shared_experts.down_proj"},
    {K::FFN_UP_SHEXP, "model.layers.{bid}.mlp.shared_experts.up_proj"},
    {K::FFN_EXP_PROBS_B, "model.layers.{bid}.mlp.gate.e_score_correction"},
};
constexpr auto kDeepseek2HfNames = joined(kPlainHfNames, kDeepseek2Names);

/// HunYuan dense: Llama's names with per-head query/key layernorms.
constexpr HfTensorName kHunYuanHfNames[] = {
    {K::TOKEN_EMBD, "model.embed_tokens"},
    {K::OUTPUT_NORM, "model.norm"},
    {K::OUTPUT, "lm_head"},
    {K::ATTN_NORM, "model.layers.{bid}.input_layernorm"},
    {K::ATTN_Q, "model.layers.{bid}.self_attn.q_proj"},
    {K::ATTN_K, "model.layers.{bid}.self_attn.k_proj"},
    {K::ATTN_V, "model.layers.{bid}.self_attn.v_proj"},
    {K::ATTN_OUT, "model.layers.{bid}.self_attn.o_proj"},
    {K::ATTN_Q_NORM, "model.layers.{bid}.self_attn.query_layernorm"},
    {K::ATTN_K_NORM, "model.layers.{bid}.self_attn.key_layernorm"},
    {K::FFN_NORM, "model.layers.{bid}.post_attention_layernorm"},
    {K::FFN_GATE, "model.layers.{bid}.mlp.gate_proj"},
    {K::FFN_UP, "model.layers.{bid}.mlp.up_proj"},
    {K::FFN_DOWN, "model.layers.{bid}.mlp.down_proj"},
};

}  // namespace amn::arch::hf_names
