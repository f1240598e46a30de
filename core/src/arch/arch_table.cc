// SPDX-License-Identifier: MIT OR Apache-2.0
// The architecture rows (data), gguf-py's tensor-name data, config.json
// access and architecture detection.
#include "arch/arch_table.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

namespace amn::arch {

#include "arch/arch_tensor_names.inc"
#include "arch/arch_kind_lists.inc"

namespace {

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
/// GPT-2: `transformer.*`, Conv1D weights (row transpose_conv1d), LayerNorms with biases.
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

/// BERT (transformers BertModel): `embeddings.*`, `encoder.layer.{bid}.*`, LayerNorms with biases, no output head.
constexpr HfTensorName kBertHfNames[] = {
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

// ---- HF classes (conversion/*.py @ModelBase.register names handled as the row) --------

constexpr std::string_view kLlamaClasses[] = {"LlamaForCausalLM", "MistralForCausalLM", "MixtralForCausalLM",
                                              "LLaMAForCausalLM"};
constexpr std::string_view kQwen2Classes[] = {"Qwen2ForCausalLM"};
constexpr std::string_view kQwen3Classes[] = {"Qwen3ForCausalLM"};
constexpr std::string_view kQwen3MoeClasses[] = {"Qwen3MoeForCausalLM"};
constexpr std::string_view kPhi3Classes[] = {"Phi3ForCausalLM"};
constexpr std::string_view kGpt2Classes[] = {"GPT2LMHeadModel"};
constexpr std::string_view kGemma2Classes[] = {"Gemma2ForCausalLM"};
// Gemma3ForConditionalGeneration (4B/12B/27B) is the same converter class: its text model
// (language_model. stripped, the vision tower and projector dropped; the mmproj file is not written).
constexpr std::string_view kGemma3Classes[] = {"Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"};
constexpr std::string_view kGraniteClasses[] = {"GraniteForCausalLM"};
constexpr std::string_view kOlmo2Classes[] = {"Olmo2ForCausalLM", "Olmo3ForCausalLM"};
constexpr std::string_view kDeepseek2Classes[] = {"DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"};
constexpr std::string_view kGptOssClasses[] = {"GptOssForCausalLM"};
constexpr std::string_view kMistral3Classes[] = {"Mistral3ForConditionalGeneration", "Ministral3ForCausalLM"};
constexpr std::string_view kSmolLM3Classes[] = {"SmolLM3ForCausalLM"};       // llama.py SmolLM3Model(LlamaModel), no body
constexpr std::string_view kArceeClasses[] = {"ArceeForCausalLM"};           // llama.py ArceeModel: LlamaModel + pooling
constexpr std::string_view kSeedOssClasses[] = {"SeedOssForCausalLM"};       // olmo.py SeedOssModel(TextModel), no body
constexpr std::string_view kStarcoder2Classes[] = {"Starcoder2ForCausalLM"}; // starcoder.py StarCoder2Model(TextModel), no body
constexpr std::string_view kQwen2MoeClasses[] = {"Qwen2MoeForCausalLM"};     // qwen.py Qwen2MoeModel
constexpr std::string_view kOlmoeClasses[] = {"OlmoeForCausalLM"};           // olmo.py OlmoeModel
constexpr std::string_view kGemmaClasses[] = {"GemmaForCausalLM"};           // gemma.py GemmaModel
constexpr std::string_view kExaoneClasses[] = {"ExaoneForCausalLM"};         // exaone.py ExaoneModel (EXAONE 3.x)
constexpr std::string_view kExaone4Classes[] = {"Exaone4ForCausalLM"};       // exaone.py Exaone4Model
constexpr std::string_view kCommandRClasses[] = {"CohereForCausalLM"};       // command_r.py CommandR2Model
constexpr std::string_view kCohere2Classes[] = {"Cohere2ForCausalLM"};       // command_r.py Cohere2Model
constexpr std::string_view kPhi2Classes[] = {"PhiForCausalLM"};             // phi.py Phi2Model
// internlm.py InternLM3Model: GGUF `llama`, LlamaModel's keys and Q/K permutation, but no experts, no
// rope_freqs and its own vocabulary (the way back is the llama row's).
constexpr std::string_view kInternLM3Classes[] = {"InternLM3ForCausalLM"};
constexpr std::string_view kMiniMaxM2Classes[] = {"MiniMaxM2ForCausalLM"};   // minimax.py MiniMaxM2Model
constexpr std::string_view kGraniteMoeClasses[] = {"GraniteMoeForCausalLM", "GraniteMoeSharedForCausalLM"};  // granite.py
constexpr std::string_view kErnie4_5Classes[] = {"Ernie4_5ForCausalLM", "Ernie4_5_ForCausalLM"};  // ernie.py Ernie4_5Model
constexpr std::string_view kGlm4Classes[] = {"Glm4ForCausalLM"};         // glm.py Glm4Model (not Glm4v: M-RoPE)
constexpr std::string_view kGlm4MoeClasses[] = {"Glm4MoeForCausalLM"};   // glm.py Glm4MoeModel (not Glm4vMoe)
constexpr std::string_view kFalconClasses[] = {"FalconForCausalLM", "RWForCausalLM"};  // falcon.py FalconModel
constexpr std::string_view kErnie4_5MoeClasses[] = {"Ernie4_5_MoeForCausalLM"};  // ernie.py Ernie4_5MoeModel
constexpr std::string_view kLfm2Classes[] = {"Lfm2ForCausalLM", "LFM2ForCausalLM"};  // lfm2.py LFM2Model
// llama.py Llama4Model: the text model (vision_model / multi_modal_projector dropped; the mmproj is not written).
constexpr std::string_view kLlama4Classes[] = {"Llama4ForConditionalGeneration", "Llama4ForCausalLM"};
// qwenvl.py Qwen2VLModel / qwen3vl.py Qwen3VLTextModel: the text model (vision tower dropped; the mmproj is not written).
constexpr std::string_view kQwen2VlClasses[] = {"Qwen2VLForConditionalGeneration", "Qwen2_5_VLForConditionalGeneration"};
constexpr std::string_view kQwen3VlClasses[] = {"Qwen3VLForConditionalGeneration"};
constexpr std::string_view kQwen3VlMoeClasses[] = {"Qwen3VLMoeForConditionalGeneration"};  // qwen3vl.py Qwen3VLMoeTextModel
constexpr std::string_view kHunYuanDenseClasses[] = {"HunYuanDenseV1ForCausalLM"};  // hunyuan.py HunYuanModel
// bert.py BertModel (not BertForSequenceClassification's classifier head, CamembertModel's Unigram tokenizer).
constexpr std::string_view kBertClasses[] = {"BertModel", "BertForMaskedLM"};
constexpr std::string_view kNomicBertClasses[] = {"NomicBertModel"};  // bert.py NomicBertModel (not its MoE form)
constexpr std::string_view kModernBertClasses[] = {"ModernBertModel"};  // bert.py ModernBertModel (not the MLM/classifier heads)
constexpr std::string_view kStableLmClasses[] = {"StableLmForCausalLM", "StableLMEpochForCausalLM",
                                                 "LlavaStableLMEpochForCausalLM"};  // stablelm.py StableLMModel

using tok::VocabStyle;
using HR = HparamsRule;
using ER = ExpertRule;
using GR = GeneratedRule;

// clang-format off
constexpr ArchRow kRows[] = {
    // hf_classes        gguf        vocab              hparams       kinds            permute transpose experts       generated
    //   GGUF → HF: hf_class, model_type, hidden_act, norm+1, sandwich, names
    {kLlamaClasses,    "llama",    VocabStyle::Llama, HR::Llama,    kKinds_llama,    true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "LlamaForCausalLM", "llama", "silu", false, false, kLlamaHfNames},
    // GGUF → HF only: an older llama.cpp architecture name.
    {{},               "mistral",  VocabStyle::Llama, HR::None,     kKinds_llama,    true,  false, ER::None,     GR::None,
        "MistralForCausalLM", "mistral", "silu", false, false, kLlamaHfNames},
    {kQwen2Classes,    "qwen2",    VocabStyle::Qwen2, HR::Qwen2,    kKinds_qwen2,    false, false, ER::None,     GR::None,
        "Qwen2ForCausalLM", "qwen2", "silu", false, false, kPlainHfNames},
    {kQwen3Classes,    "qwen3",    VocabStyle::Qwen2, HR::Qwen2,    kKinds_qwen3,    false, false, ER::None,     GR::None,
        "Qwen3ForCausalLM", "qwen3", "silu", false, false, kPlainHfNames},
    {kQwen3MoeClasses, "qwen3moe", VocabStyle::Qwen2, HR::Qwen2Moe, kKinds_qwen3moe, false, false, ER::Qwen2Moe, GR::None,
        "Qwen3MoeForCausalLM", "qwen3_moe", "silu", false, false, kQwenMoeHfNames},
    {kPhi3Classes,     "phi3",     VocabStyle::Phi3,  HR::Phi3,     kKinds_phi3,     false, false, ER::None,     GR::Phi3RopeFactors,
        "Phi3ForCausalLM", "phi3", "silu", false, false, kPhi3HfNames},
    {kGpt2Classes,     "gpt2",     VocabStyle::Gpt2,  HR::Gpt2,     kKinds_gpt2,     false, true,  ER::None,     GR::None,
        "GPT2LMHeadModel", "gpt2", "gelu_new", false, false, kGpt2HfNames},
    {kGemmaClasses,    "gemma",    VocabStyle::Gemma, HR::Gemma,    kKinds_gemma,    false, false, ER::None,     GR::None,
        "GemmaForCausalLM", "gemma", "gelu_pytorch_tanh", true, false, kPlainHfNames},
    {kGemma2Classes,   "gemma2",   VocabStyle::Gemma2, HR::Gemma2,  kKinds_gemma2,   false, false, ER::None,     GR::None,
        "Gemma2ForCausalLM", "gemma2", "gelu_pytorch_tanh", true, true, kSandwichHfNames},
    {kGemma3Classes,   "gemma3",   VocabStyle::Gemma3, HR::Gemma3,  kKinds_gemma3,   false, false, ER::None,     GR::None,
        "Gemma3ForCausalLM", "gemma3_text", "gelu_pytorch_tanh", true, true, kSandwichHfNames, true},
    {kGraniteClasses,  "granite",  VocabStyle::Llama, HR::Granite,  kKinds_granite,  true,  false, ER::Mixtral,  GR::None,
        "GraniteForCausalLM", "granite", "silu", false, false, kPlainHfNames},
    {kOlmo2Classes,    "olmo2",    VocabStyle::Gpt2,  HR::Olmo2,    kKinds_olmo2,    false, false, ER::None,     GR::None,
        "Olmo2ForCausalLM", "olmo2", "silu", false, false, kSandwichHfNames},
    {kMistral3Classes, "mistral3", VocabStyle::Llama, HR::Mistral3, kKinds_mistral3, true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "Ministral3ForCausalLM", "ministral3", "silu", false, false, kPlainHfNames},
    {kDeepseek2Classes, "deepseek2", VocabStyle::Gpt2, HR::Deepseek2, kKinds_deepseek2, false, false, ER::Deepseek2, GR::None,
        "DeepseekV3ForCausalLM", "deepseek_v3", "silu", false, false, kDeepseek2HfNames},
    {kGptOssClasses,   "gpt-oss",  VocabStyle::Gpt2,  HR::GptOss,   kKinds_gpt_oss,  false, false, ER::None,     GR::None,
        "GptOssForCausalLM", "gpt_oss", "silu", false, false, kGptOssHfNames},
    {kSmolLM3Classes,  "smollm3",  VocabStyle::Llama, HR::Llama,    kKinds_smollm3,  true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "SmolLM3ForCausalLM", "smollm3", "silu", false, false, kPlainHfNames},
    {kArceeClasses,    "arcee",    VocabStyle::Llama, HR::Arcee,    kKinds_arcee,    true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "ArceeForCausalLM", "arcee", "relu2", false, false, kPlainHfNames},
    {kSeedOssClasses,  "seed_oss", VocabStyle::Gpt2,  HR::Text,     kKinds_seed_oss, false, false, ER::None,     GR::None,
        "SeedOssForCausalLM", "seed_oss", "silu", false, false, kSandwichHfNames},
    {kStarcoder2Classes, "starcoder2", VocabStyle::Gpt2, HR::Text,  kKinds_starcoder2, false, false, ER::None,   GR::None,
        "Starcoder2ForCausalLM", "starcoder2", "gelu_pytorch_tanh", false, false, kStarcoder2HfNames},
    {kQwen2MoeClasses, "qwen2moe", VocabStyle::Gpt2,  HR::Qwen2Moe, kKinds_qwen2moe, false, false, ER::Qwen2Moe, GR::None,
        "Qwen2MoeForCausalLM", "qwen2_moe", "silu", false, false, kQwenMoeHfNames},
    {kOlmoeClasses,    "olmoe",    VocabStyle::Gpt2,  HR::Olmoe,    kKinds_olmoe,    false, false, ER::Qwen2Moe, GR::None,
        "OlmoeForCausalLM", "olmoe", "silu", false, false, kQwenMoeHfNames},
    {kExaoneClasses,   "exaone",   VocabStyle::Gpt2,  HR::Exaone,   kKinds_exaone,   false, false, ER::None,     GR::Llama3RopeFreqs,
        "ExaoneForCausalLM", "exaone", "silu", false, false, kExaoneHfNames},
    {kExaone4Classes,  "exaone4",  VocabStyle::Gpt2,  HR::Exaone4,  kKinds_exaone4,  false, false, ER::None,     GR::Llama3RopeFreqs,
        "Exaone4ForCausalLM", "exaone4", "silu", false, false, kSandwichHfNames},
    {kCommandRClasses, "command-r", VocabStyle::Gpt2, HR::CommandR, kKinds_command_r, false, false, ER::None,    GR::None,
        "CohereForCausalLM", "cohere", "silu", false, false, kPlainHfNames},
    {kCohere2Classes,  "cohere2",  VocabStyle::Gpt2,  HR::Cohere2,  kKinds_cohere2,  false, false, ER::None,     GR::None,
        "Cohere2ForCausalLM", "cohere2", "silu", false, false, kPlainHfNames},
    {kStableLmClasses, "stablelm", VocabStyle::Gpt2,  HR::StableLm, kKinds_stablelm, false, false, ER::None,     GR::None,
        "StableLmForCausalLM", "stablelm", "silu", false, false, kPlainHfNames},
    {kPhi2Classes,     "phi2",     VocabStyle::Gpt2,  HR::Phi2,     kKinds_phi2,     false, false, ER::None,     GR::None,
        "PhiForCausalLM", "phi", "gelu_new", false, false, kPhi2HfNames},
    {kInternLM3Classes, "llama",   VocabStyle::InternLM3, HR::Llama, kKinds_llama,   true,  false, ER::None,     GR::None,
        "LlamaForCausalLM", "llama", "silu", false, false, {}},
    {kMiniMaxM2Classes, "minimax-m2", VocabStyle::Gpt2, HR::MiniMaxM2, kKinds_minimax_m2, false, false, ER::Mixtral, GR::None,
        "MiniMaxM2ForCausalLM", "minimax_m2", "silu", false, false, kMiniMaxM2HfNames},
    {kErnie4_5Classes, "ernie4_5", VocabStyle::Ernie4_5, HR::Ernie4_5, kKinds_ernie4_5, false, false, ER::None, GR::None,
        "Ernie4_5ForCausalLM", "ernie4_5", "silu", false, false, kPlainHfNames},
    {kGlm4Classes,     "glm4",     VocabStyle::Glm4,  HR::Glm4,     kKinds_glm4,     false, false, ER::None,     GR::None,
        "Glm4ForCausalLM", "glm4", "silu", false, false, kGlm4HfNames},
    {kGlm4MoeClasses,  "glm4moe",  VocabStyle::Glm,   HR::Glm4Moe,  kKinds_glm4moe,  false, false, ER::Deepseek2, GR::None,
        "Glm4MoeForCausalLM", "glm4_moe", "silu", false, false, kGlm4MoeHfNames},
    {kFalconClasses,   "falcon",   VocabStyle::Gpt2,  HR::Falcon,   kKinds_falcon,   false, false, ER::None,     GR::None,
        "FalconForCausalLM", "falcon", "gelu", false, false, kFalconHfNames},
    {kErnie4_5MoeClasses, "ernie4_5-moe", VocabStyle::Ernie4_5, HR::Ernie4_5Moe, kKinds_ernie4_5_moe, false, false, ER::Ernie4_5Moe, GR::None,
        "Ernie4_5_MoeForCausalLM", "ernie4_5_moe", "silu", false, false, kErnieMoeHfNames},
    // The way back is the text class, Llama4ForCausalLM (the GGUF holds no vision tower).
    {kLlama4Classes,   "llama4",   VocabStyle::Gpt2,  HR::Llama4,   kKinds_llama4,   false, false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "Llama4ForCausalLM", "llama4_text", "silu", false, false, kLlama4HfNames},
    {kLfm2Classes,     "lfm2",     VocabStyle::Gpt2,  HR::Lfm2,     kKinds_lfm2,     false, false, ER::None,     GR::None,
        "Lfm2ForCausalLM", "lfm2", "silu", false, false, kLfm2HfNames},
    {kGraniteMoeClasses, "granitemoe", VocabStyle::Llama, HR::GraniteMoe, kKinds_granitemoe, true, false, ER::None, GR::None,
        "GraniteMoeSharedForCausalLM", "granitemoeshared", "silu", false, false, kGraniteMoeHfNames},
    // HF → GGUF only: the way back would need the vision tower the GGUF does not hold.
    {kQwen2VlClasses,  "qwen2vl",  VocabStyle::Qwen2, HR::Text,     kKinds_qwen2vl,  false, false, ER::None,     GR::None,
        "Qwen2_5_VLForConditionalGeneration", "qwen2_5_vl", "silu", false, false, {}},
    {kQwen3VlClasses,  "qwen3vl",  VocabStyle::Qwen2, HR::Qwen3VL,  kKinds_qwen3vl,  false, false, ER::None,     GR::None,
        "Qwen3VLForConditionalGeneration", "qwen3_vl", "silu", false, false, {}},
    {kQwen3VlMoeClasses, "qwen3vlmoe", VocabStyle::Gpt2, HR::Qwen3VLMoe, kKinds_qwen3vlmoe, false, false, ER::Qwen2Moe, GR::None,
        "Qwen3VLMoeForConditionalGeneration", "qwen3_vl_moe", "silu", false, false, {}},
    {kHunYuanDenseClasses, "hunyuan-dense", VocabStyle::HunYuan, HR::HunYuanDense, kKinds_hunyuan_dense, false, false, ER::None, GR::None,
        "HunYuanDenseV1ForCausalLM", "hunyuan_v1_dense", "silu", false, false, kHunYuanHfNames},
    {kBertClasses,     "bert",     VocabStyle::Bert,  HR::Bert,     kKinds_bert,     false, false, ER::None,     GR::None,
        "BertModel", "bert", "gelu", false, false, kBertHfNames},
    {kNomicBertClasses, "nomic-bert", VocabStyle::Bert, HR::NomicBert, kKinds_nomic_bert, false, false, ER::None, GR::None,
        "NomicBertModel", "nomic_bert", "swiglu", false, false, kNomicBertHfNames},
    {kModernBertClasses, "modern-bert", VocabStyle::ModernBert, HR::ModernBert, kKinds_modern_bert, false, false, ER::None, GR::None,
        "ModernBertModel", "modernbert", "gelu", false, false, kModernBertHfNames},
};
// Rows with hf_names, in table order, are hf_layout_architectures(): keep that list's order.
// clang-format on

}  // namespace

std::span<const TensorKindInfo> tensor_kind_rows() noexcept { return kKindRows; }

std::string_view tensor_kind_name(TensorKind kind) noexcept {
    for (const auto& r : kKindRows)
        if (r.kind == kind) return r.gguf;
    return {};
}

std::span<const TensorKind> forced_f32_kinds() noexcept { return kForcedF32; }
std::span<const TensorKind> ternary_f16_kinds() noexcept { return kTernaryF16; }

std::span<const ArchRow> arch_rows() noexcept { return kRows; }

const ArchRow* find_hf_arch(std::string_view hf_class) noexcept {
    for (const auto& r : kRows)
        for (auto c : r.hf_classes)
            if (c == hf_class) return &r;
    return nullptr;
}

const ArchRow* find_gguf_arch(std::string_view gguf) noexcept {
    for (const auto& r : kRows)
        if (r.gguf == gguf) return &r;
    return nullptr;
}

std::string supported_hf_architectures() {
    std::string s;
    for (const auto& r : kRows)
        for (auto c : r.hf_classes) s += (s.empty() ? "" : ", ") + std::string(c);
    return s;
}

// ---- config.json ------------------------------------------------------------------------

HfConfig::HfConfig(std::string_view text, std::string file) : doc_(text, std::move(file), "config.json") {
    if (!doc_.root().is_object()) throw Error(ErrorCode::BadJson, "config.json is not a JSON object", doc_.file());
    if (auto t = detail::json_get(doc_.root(), "text_config"); t && t->is_object()) text_ = *t;
}

HfConfig HfConfig::load(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(ErrorCode::Io, "cannot read config.json", path);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return HfConfig(text, path);
}

std::optional<simdjson::dom::element> HfConfig::get(std::string_view key) const noexcept {
    if (text_)
        if (auto v = detail::json_get(*text_, key)) return v;
    return detail::json_get(doc_.root(), key);
}

std::optional<simdjson::dom::element> HfConfig::top(std::string_view key) const noexcept {
    return detail::json_get(doc_.root(), key);
}

std::optional<std::pair<std::string_view, simdjson::dom::element>> HfConfig::find(
    std::span<const std::string_view> keys) const {
    for (auto k : keys)
        if (auto v = get(k)) return std::pair{k, *v};
    return std::nullopt;
}

namespace {

std::optional<std::string> first_architecture(simdjson::dom::element obj, const std::string& file,
                                              std::string_view where) {
    auto a = detail::json_get(obj, "architectures");
    if (!a || a->is_null()) return std::nullopt;
    if (!a->is_array())
        throw Error(ErrorCode::BadJson,
                    std::string(where) + "architectures: expected a list, got " + std::string(detail::json_type_name(*a)),
                    file);
    simdjson::dom::array arr = *a;
    if (arr.size() == 0) return std::nullopt;
    simdjson::dom::element first = arr.at(0);
    if (!first.is_string())
        throw Error(ErrorCode::BadJson,
                    std::string(where) + "architectures[0]: expected a string, got " +
                        std::string(detail::json_type_name(first)),
                    file);
    return std::string(std::string_view(first));
}

}  // namespace

std::string detect_hf_architecture(const HfConfig& cfg) {
    std::optional<std::string> arch = first_architecture(cfg.root(), cfg.file(), "");
    if (auto t = cfg.top("text_config"); t && t->is_object())
        if (auto ta = first_architecture(*t, cfg.file(), "text_config."); ta) arch = ta;
    if (!arch)
        throw Error(ErrorCode::Malformed,
                    "config.json has no 'architectures' entry (the converter fails: \"Failed to detect model architecture\")",
                    cfg.file());
    return *arch;
}

const ArchRow& hf_arch_for_config(const HfConfig& cfg) {
    const std::string a = detect_hf_architecture(cfg);
    if (const ArchRow* r = find_hf_arch(a)) {
        if (r->hparams == HparamsRule::Mistral3)
            if (auto mt = cfg.get("model_type"); mt && mt->is_string() && std::string_view(*mt) == "mistral4")
                throw Error(ErrorCode::Unsupported,
                            "Mistral 4 (" + a + " with model_type mistral4) is not supported (supported: " +
                                supported_hf_architectures() + ")",
                            cfg.file());
        return *r;
    }
    throw Error(ErrorCode::Unsupported, "unknown architecture " + a + " (supported: " + supported_hf_architectures() + ")",
                cfg.file());
}

}  // namespace amn::arch
