// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the converter classes: config.json → GGUF key/values
// in call order (llama.py, qwen.py, phi.py, gpt2.py, gemma.py, glm.py, falcon.py, ernie.py, …;
// TextModel's own list is arch_text_params.cc).
#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"
#include "util/json_dom.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace amn::arch {
namespace {

using namespace detail;
using simdjson::dom::element;

/// Qwen3Model._is_qwen3_reranker: refused (it needs the tokenizer's yes/no ids and a cls_out tensor).
void refuse_qwen3_reranker(const HfConfig& cfg, const std::string& dir) {
    auto lower = [](std::string s) {
        for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    std::vector<std::string> hints;
    if (!dir.empty()) hints.push_back(std::filesystem::path(dir).filename().string());
    for (auto k : {"_name_or_path", "model_type"})
        if (auto v = cfg.get(k); v && v->is_string()) hints.push_back(std::string(std::string_view(*v)));
    if (auto a = cfg.top("architectures"); a && a->is_array()) {
        simdjson::dom::array arr = *a;
        if (arr.size() && arr.at(0).is_string()) hints.push_back(std::string(std::string_view(arr.at(0))));
    }
    bool rerank = false;
    for (auto& h : hints) {
        const std::string l = lower(h);
        if (l.find("qwen3-reranker") != std::string::npos || l.find("qwen3-vl-reranker") != std::string::npos) rerank = true;
    }
    if (!hints.empty() && lower(hints.back()).find("sequenceclassification") != std::string::npos) rerank = true;
    if (!dir.empty()) {
        std::ifstream r(std::filesystem::path(dir) / "README.md", std::ios::binary);
        if (r) {
            const std::string t = lower(std::string((std::istreambuf_iterator<char>(r)), std::istreambuf_iterator<char>()));
            if (t.find("# qwen3-reranker") != std::string::npos || t.find("# qwen3-vl-reranker") != std::string::npos)
                rerank = true;
        }
    }
    if (rerank) throw Error(ErrorCode::Unsupported, "Qwen3 reranker models are not supported", cfg.file());
}

/// LlamaModel.set_gguf_parameters (`use_head_dim` false: GraniteModel popped it).
void llama_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, bool use_head_dim) {
    const std::string& f = cfg.file();
    text_model_params(cfg, kv, use_head_dim);
    kv.to(res.after_file_type);
    auto vs = cfg.get("vocab_size");
    if (!vs || vs->is_null()) missing("vocab_size", f);
    kv.put("vocab_size", u32(*vs, "vocab_size", f));
    std::int64_t rope_dim;
    if (auto hd = cfg.get("head_dim"); use_head_dim && hd && !hd->is_null()) rope_dim = integer(*hd, "head_dim", f);
    else {
        auto h = cfg.get("hidden_size"), n = cfg.get("num_attention_heads");
        if (!h || h->is_null()) missing("hidden_size", f);
        if (!n || n->is_null()) missing("num_attention_heads", f);
        rope_dim = floordiv(integer(*h, "hidden_size", f), integer(*n, "num_attention_heads", f),
                            "hidden_size // num_attention_heads", f);
    }
    kv.put("rope.dimension_count", u32(PyNum{true, rope_dim, double(rope_dim)}, "head_dim", f));
}

/// GraniteModel.set_gguf_parameters: LlamaModel's without head_dim, then the multipliers as scales.
void granite_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    llama_params(cfg, kv, res, false);
    if (auto v = truthy_number(cfg, "attention_multiplier")) kv.put("attention.scale", f32(*v, "attention_multiplier", f));
    if (auto v = truthy_number(cfg, "embedding_multiplier")) kv.put("embedding_scale", f32(*v, "embedding_multiplier", f));
    if (auto v = truthy_number(cfg, "residual_multiplier")) kv.put("residual_scale", f32(*v, "residual_multiplier", f));
    if (auto v = truthy_number(cfg, "logits_scaling")) kv.put("logit_scale", f32(*v, "logits_scaling", f));
    if (cfg.get("spatial_target_layers") || cfg.get("deepstack_layer_map"))
        throw Error(ErrorCode::Unsupported, "Granite 4 Vision deepstack layers are not supported here", f);
}

/// Mistral3Model.Ministral3Model.set_gguf_parameters: LlamaModel's, and for model_type
/// "ministral3" the yarn log multiplier and attention temperature scale of rope_parameters.
void mistral3_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    llama_params(cfg, kv, res, true);
    const auto mt = cfg.get("model_type");
    if (!mt || !mt->is_string() || std::string_view(*mt) != "ministral3") return;
    const RopeParams rp(cfg);
    const auto type = rp.outer("rope_type");
    if (!type || !type->is_string() || std::string_view(*type) != "yarn")
        throw Error(ErrorCode::Malformed, "ministral3 needs rope_parameters with rope_type 'yarn' (the converter asserts it)", f);
    const auto log_mul = rp.outer("mscale_all_dim");
    if (!log_mul) missing("rope_parameters.mscale_all_dim", f);
    kv.put("rope.scaling.yarn_log_multiplier", f32(*log_mul, "mscale_all_dim", f));
    const auto beta = rp.outer("llama_4_scaling_beta");
    if (!beta) missing("rope_parameters.llama_4_scaling_beta", f);
    kv.put("attention.temperature_scale", f32(*beta, "llama_4_scaling_beta", f));
}

/// GemmaModel.set_gguf_parameters.
void gemma_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    kv.put("context_length", u32(exact(cfg, "max_position_embeddings"), "max_position_embeddings", f));
    kv.put("embedding_length", u32(exact(cfg, "hidden_size"), "hidden_size", f));
    kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", f));
    kv.put("feed_forward_length", u32(exact(cfg, "intermediate_size"), "intermediate_size", f));
    kv.put("attention.head_count", u32(exact(cfg, "num_attention_heads"), "num_attention_heads", f));
    const bool has_kv = cfg.get("num_key_value_heads").has_value();
    kv.put("attention.head_count_kv", u32(exact(cfg, has_kv ? "num_key_value_heads" : "num_attention_heads"),
                                          has_kv ? "num_key_value_heads" : "num_attention_heads", f));
    kv.put("attention.layer_norm_rms_epsilon", f32(exact(cfg, "rms_norm_eps"), "rms_norm_eps", f));
    kv.put("attention.key_length", u32(exact(cfg, "head_dim"), "head_dim", f));
    kv.put("attention.value_length", u32(exact(cfg, "head_dim"), "head_dim", f));
}

/// Gemma2Model.set_gguf_parameters: GemmaModel's list, then the softcappings and sliding window.
void gemma2_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    gemma_params(cfg, kv);
    kv.to(res.after_file_type);
    kv.put("attn_logit_softcapping", f32(exact(cfg, "attn_logit_softcapping"), "attn_logit_softcapping", f));
    kv.put("final_logit_softcapping", f32(exact(cfg, "final_logit_softcapping"), "final_logit_softcapping", f));
    kv.put("attention.sliding_window", u32(exact(cfg, "sliding_window"), "sliding_window", f));
}

/// Gemma3Model.set_gguf_parameters: TextModel's, then `hparams.get(key, default)` values
/// (a repeated key keeps its first position, as gguf-py's writer does).
void gemma3_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    text_model_params(cfg, kv);
    kv.to(res.after_file_type);
    auto u32_or = [&](std::string_view key, std::uint32_t dflt) {
        const auto v = cfg.get(key);
        return v ? u32(*v, key, f) : MetaValue::u32(dflt);
    };
    kv.put("context_length", u32_or("max_position_embeddings", 131072));
    kv.put("attention.head_count", u32_or("num_attention_heads", 8));
    {
        const auto v = cfg.get("rms_norm_eps");
        kv.put("attention.layer_norm_rms_epsilon", v ? f32(*v, "rms_norm_eps", f) : f32(1e-6, "rms_norm_eps", f));
    }
    kv.put("attention.key_length", u32_or("head_dim", 256));
    kv.put("attention.value_length", u32_or("head_dim", 256));
    const RopeParams rp(cfg);
    if (const auto theta = rp.get("rope_theta")) kv.put("rope.freq_base", f32(*theta, "rope_theta", f));
    else if (rp.has("rope_theta")) missing("rope_theta", f);
    else kv.put("rope.freq_base", f32(1000000.0, "rope_theta", f));
    if (auto v = cfg.get("attn_logit_softcapping"); v && !v->is_null())
        throw Error(ErrorCode::Malformed, "Gemma 3 has no attn_logit_softcapping (the converter asserts it is null)", f);
    if (auto v = truthy_number(cfg, "final_logit_softcapping"))
        kv.put("final_logit_softcapping", f32(*v, "final_logit_softcapping", f));
    bool pattern_is_one = false;
    if (auto p = cfg.get("sliding_window_pattern"); p && p->is_number()) pattern_is_one = double(*p) == 1.0;
    else if (p && p->is_bool()) pattern_is_one = bool(*p);
    if (!pattern_is_one) kv.put("attention.sliding_window", u32(exact(cfg, "sliding_window"), "sliding_window", f));
    kv.put("attention.head_count_kv", u32_or("num_key_value_heads", 4));
}

/// DeepseekV2Model.set_gguf_parameters (not the OCR variant).
void deepseek2_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    text_model_params(cfg, kv, true, true);
    kv.to(res.after_file_type);
    auto present = [&](std::string_view k) -> std::optional<element> {  // hparams.get(k) is not None
        auto v = cfg.get(k);
        return v && !v->is_null() ? v : std::nullopt;
    };
    const bool has_moe = present("n_routed_experts").has_value();
    if (auto fk = present("first_k_dense_replace")) kv.put("leading_dense_block_count", u32(*fk, "first_k_dense_replace", f));
    else if (!has_moe) kv.put("leading_dense_block_count", u32(exact(cfg, "num_hidden_layers"), "num_hidden_layers", f));
    else kv.put("leading_dense_block_count", MetaValue::u32(0));
    const auto kv_lora = cfg.get("kv_lora_rank");
    const PyNum kv_rank = kv_lora ? num(*kv_lora, "kv_lora_rank", f) : PyNum{true, 512, 512.0};
    if (!kv_rank.is_int) throw Error(ErrorCode::BadJson, "config.json key 'kv_lora_rank': expected an integer", f);
    kv.put("vocab_size", u32(exact(cfg, "vocab_size"), "vocab_size", f));
    if (auto q = present("q_lora_rank")) kv.put("attention.q_lora_rank", u32(*q, "q_lora_rank", f));
    const std::int64_t rope = integer(exact(cfg, "qk_rope_head_dim"), "qk_rope_head_dim", f);
    const std::int64_t nope = integer(exact(cfg, "qk_nope_head_dim"), "qk_nope_head_dim", f);
    auto sum = [&](std::int64_t v, std::string_view what) { return u32(PyNum{true, v, double(v)}, what, f); };
    kv.put("attention.kv_lora_rank", sum(kv_rank.i, "kv_lora_rank"));
    kv.put("attention.key_length", sum(kv_rank.i + rope, "kv_lora_rank + qk_rope_head_dim"));
    kv.put("attention.value_length", sum(kv_rank.i, "kv_lora_rank"));
    kv.put("attention.key_length_mla", sum(nope + rope, "qk_nope_head_dim + qk_rope_head_dim"));
    kv.put("attention.value_length_mla", u32(exact(cfg, "v_head_dim"), "v_head_dim", f));
    kv.put("expert_feed_forward_length",
           u32(required(cfg, {"moe_intermediate_size", "intermediate_size"}), "moe_intermediate_size", f));
    if (auto e = present("n_routed_experts")) kv.put("expert_count", u32(*e, "n_routed_experts", f));
    if (auto sh = cfg.get("n_shared_experts")) kv.put("expert_shared_count", u32(*sh, "n_shared_experts", f));
    else kv.put("expert_shared_count", MetaValue::u32(0));
    if (auto r = present("routed_scaling_factor")) kv.put("expert_weights_scale", f32(*r, "routed_scaling_factor", f));
    if (auto n = present("norm_topk_prob")) {
        const bool t = n->is_bool() ? bool(*n) : n->is_number() ? double(*n) != 0 : true;
        if (t) {
            if (!n->is_bool()) throw Error(ErrorCode::Unsupported, "config.json key 'norm_topk_prob': expected true/false", f);
            kv.put("expert_weights_norm", MetaValue::boolean(true));
        }
    }
    kv.put("rope.dimension_count", sum(rope, "qk_rope_head_dim"));
    const RopeParams rp(cfg);
    if (auto m = rp.outer("mscale_all_dim")) kv.put("rope.scaling.yarn_log_multiplier", f32(0.1 * num(*m, "mscale_all_dim", f).d, "mscale_all_dim", f));
}

/// Olmo2Model.set_gguf_parameters' part after TextModel's: with `sliding_window`, that and the
/// per-layer pattern (layer_types == "sliding_attention", else every layer but each 4th).
void olmo2_sliding_window(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    const auto sw = cfg.get("sliding_window");
    if (!sw) return;
    if (sw->is_null()) missing("sliding_window", f);
    kv.put("attention.sliding_window", u32(*sw, "sliding_window", f));
    std::string bytes;
    if (auto lt = cfg.get("layer_types")) {
        if (!lt->is_array()) throw Error(ErrorCode::BadJson, "config.json key 'layer_types': expected a list", f);
        for (element t : simdjson::dom::array(*lt))
            bytes.push_back(t.is_string() && std::string_view(t) == "sliding_attention" ? 1 : 0);
    } else {
        const std::int64_t n = integer(exact(cfg, "num_hidden_layers"), "num_hidden_layers", f);
        if (n < 0 || n > (1 << 20)) throw Error(ErrorCode::BadJson, "config.json key 'num_hidden_layers': out of range", f);
        for (std::int64_t i = 0; i < n; ++i) bytes.push_back((i + 1) % 4 != 0 ? 1 : 0);
    }
    const std::uint64_t count = bytes.size();
    kv.put("attention.sliding_window_pattern", MetaValue::packed(GgufType::Bool, count, std::move(bytes)));
}

/// StableLMModel.set_gguf_parameters.
void stablelm_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    if (auto q = cfg.get("qk_layernorm"); q && q->is_bool() && bool(*q))
        throw Error(ErrorCode::Unsupported,
                    "StableLM with per-head q/k layernorms (qk_layernorm, StableLM 2 12B): convert_hf_to_gguf.py at "
                    "34af94c writes no file for it (\"Unprocessed norms\"), so neither does anamnesis",
                    f);
    kv.put("context_length", u32(exact(cfg, "max_position_embeddings"), "max_position_embeddings", f));
    kv.put("embedding_length", u32(exact(cfg, "hidden_size"), "hidden_size", f));
    kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", f));
    kv.put("feed_forward_length", u32(exact(cfg, "intermediate_size"), "intermediate_size", f));
    const RopeParams rp(cfg);
    const auto prf = rp.get("partial_rotary_factor");
    if (!prf) missing("partial_rotary_factor / rope_pct", f);
    kv.put("rope.dimension_count", partial_rope_dim(cfg, num(*prf, "partial_rotary_factor", f)));
    kv.put("attention.head_count", u32(exact(cfg, "num_attention_heads"), "num_attention_heads", f));
    kv.put("attention.head_count_kv", u32(exact(cfg, "num_key_value_heads"), "num_key_value_heads", f));
    bool parallel = true;
    if (auto p = cfg.get("use_parallel_residual")) {
        if (!p->is_bool()) throw Error(ErrorCode::BadJson, "config.json key 'use_parallel_residual': expected true/false", f);
        parallel = bool(*p);
    }
    kv.put("use_parallel_residual", MetaValue::boolean(parallel));
    kv.put("attention.layer_norm_epsilon", f32(required(cfg, {"layer_norm_eps", "norm_eps"}), "layer_norm_eps", f));
}

/// Exaone4Model.set_gguf_parameters' part after TextModel's: vocab_size, then with a sliding
/// window its per-layer pattern (layer_types, or sliding_window_pattern "LLLG" / every p-th layer global).
void exaone4_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    kv.put("vocab_size", u32(exact(cfg, "vocab_size"), "vocab_size", f));
    const auto sw = cfg.get("sliding_window");
    if (!sw || sw->is_null()) return;
    kv.put("attention.sliding_window", u32(*sw, "sliding_window", f));
    const std::int64_t n = integer(exact(cfg, "num_hidden_layers"), "num_hidden_layers", f);
    if (n < 0 || n > (1 << 20)) throw Error(ErrorCode::BadJson, "config.json key 'num_hidden_layers': out of range", f);
    std::string bytes;
    bool have = false;
    if (auto lt = cfg.get("layer_types")) {
        if (!lt->is_array()) throw Error(ErrorCode::BadJson, "config.json key 'layer_types': expected a list", f);
        for (element t : simdjson::dom::array(*lt))
            bytes.push_back(t.is_string() && std::string_view(t) == "sliding_attention" ? 1 : 0);
        have = true;  // written whatever its length
    } else if (auto p = cfg.get("sliding_window_pattern")) {
        if (p->is_string()) {
            const std::string_view pat(*p);
            if (!pat.empty())
                for (std::int64_t i = 0; i < n; ++i) bytes.push_back(pat[static_cast<std::size_t>(i) % pat.size()] == 'L' ? 1 : 0);
        } else if (p->is_int64() || p->is_uint64()) {
            const std::int64_t every = integer(*p, "sliding_window_pattern", f);
            if (every == 0) throw Error(ErrorCode::Malformed, "config.json key 'sliding_window_pattern': 0 (the converter divides by it)", f);
            for (std::int64_t i = 0; i < n; ++i) bytes.push_back((i + 1) % every != 0 ? 1 : 0);
        }
        have = static_cast<std::int64_t>(bytes.size()) == n;
    }
    if (!have) return;
    const std::uint64_t count = bytes.size();
    kv.put("attention.sliding_window_pattern", MetaValue::packed(GgufType::Bool, count, std::move(bytes)));
}

/// `self.rope_parameters.get("partial_rotary_factor", 0.5)` (Glm4Model, Glm4MoeModel).
PyNum glm_partial_rotary_factor(const HfConfig& cfg) {
    const RopeParams rp(cfg);
    const auto prf = rp.outer("partial_rotary_factor");
    return prf ? num(*prf, "partial_rotary_factor", cfg.file()) : PyNum{false, 0, 0.5};
}

/// Glm4MoeModel: `self.block_count = hparams["num_hidden_layers"] + hparams.get("num_nextn_predict_layers", 0)`:
/// the NextN (multi-token prediction) layers past the main ones.
std::int64_t glm_nextn_layers(const HfConfig& cfg) {
    const std::string& f = cfg.file();
    exact(cfg, "num_hidden_layers");
    const auto v = cfg.get("num_nextn_predict_layers");
    if (!v) return 0;
    if (v->is_null()) missing("num_nextn_predict_layers", f);  // None + int: the converter's TypeError
    return integer(*v, "num_nextn_predict_layers", f);
}

/// Glm4MoeModel.set_gguf_parameters: TextModel's (block_count with the NextN layers), then the partial
/// rotary dimension and the MoE keys, each only when its hparam is not None; the gating function is
/// always sigmoid.
void glm4moe_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    text_model_params(cfg, kv, true, false, false, glm_nextn_layers(cfg));
    kv.to(res.after_file_type);
    kv.put("rope.dimension_count", head_rope_dim(cfg, glm_partial_rotary_factor(cfg)));
    auto present = [&](std::string_view k) -> std::optional<element> {  // hparams.get(k) is not None
        auto v = cfg.get(k);
        return v && !v->is_null() ? v : std::nullopt;
    };
    if (auto v = present("n_routed_experts")) kv.put("expert_count", u32(*v, "n_routed_experts", f));
    if (auto v = present("moe_intermediate_size")) kv.put("expert_feed_forward_length", u32(*v, "moe_intermediate_size", f));
    if (auto v = present("n_shared_experts")) kv.put("expert_shared_count", u32(*v, "n_shared_experts", f));
    if (auto v = present("first_k_dense_replace")) kv.put("leading_dense_block_count", u32(*v, "first_k_dense_replace", f));
    kv.put("expert_gating_func", MetaValue::u32(2));  // ExpertGatingFuncType.SIGMOID
    if (auto v = present("routed_scaling_factor")) kv.put("expert_weights_scale", f32(*v, "routed_scaling_factor", f));
    if (auto v = present("norm_topk_prob")) {
        if (!v->is_bool()) throw Error(ErrorCode::BadJson, "config.json key 'norm_topk_prob': expected true/false", f);
        kv.put("expert_weights_norm", MetaValue::boolean(bool(*v)));
    }
    if (auto v = present("num_nextn_predict_layers")) kv.put("nextn_predict_layers", u32(*v, "num_nextn_predict_layers", f));
}

/// FalconModel.set_gguf_parameters: its own list (context 2048 — not in config.json —, the "jploski"
/// Q/K/V layout its modify_tensors writes, feed-forward 4 × hidden_size, LayerNorm epsilon).
void falcon_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    auto head_count = cfg.get("num_attention_heads");
    const element n_head = head_count && !head_count->is_null() ? *head_count : exact(cfg, "n_head");  // old name
    std::optional<element> n_head_kv = cfg.get("num_kv_heads");
    if (n_head_kv && n_head_kv->is_null()) n_head_kv.reset();
    if (!n_head_kv) {
        n_head_kv = cfg.get("n_head_kv");  // old name, default 1
        if (n_head_kv && n_head_kv->is_null()) missing("num_kv_heads / n_head_kv", f);
    }
    const element hidden = exact(cfg, "hidden_size");
    const std::int64_t h = integer(hidden, "hidden_size", f);
    kv.put("context_length", MetaValue::u32(2048));
    kv.put("tensor_data_layout", MetaValue::string("jploski"));
    kv.put("embedding_length", u32(hidden, "hidden_size", f));
    kv.put("feed_forward_length", u32(PyNum{true, 4 * h, double(4 * h)}, "4 * hidden_size", f));
    kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", f));
    kv.put("attention.head_count", u32(n_head, "num_attention_heads", f));
    kv.put("attention.head_count_kv", n_head_kv ? u32(*n_head_kv, "num_kv_heads", f) : MetaValue::u32(1));
    kv.put("attention.layer_norm_epsilon", f32(exact(cfg, "layer_norm_epsilon"), "layer_norm_epsilon", f));
}

/// Ernie4_5MoeModel.set_gguf_parameters' part after TextModel's (file_type included): the required
/// moe_num_experts / moe_k / moe_layer_interval / moe_layer_start_index, then the optional expert lengths
/// and shared-expert count; the shared experts' length is intermediate_size // num_key_value_heads, as written.
void ernie4_5_moe_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    auto present = [&](std::string_view k) -> std::optional<element> {  // hparams.get(k) is not None
        auto v = cfg.get(k);
        return v && !v->is_null() ? v : std::nullopt;
    };
    kv.put("expert_count", u32(exact(cfg, "moe_num_experts"), "moe_num_experts", f));
    kv.put("expert_used_count", u32(exact(cfg, "moe_k"), "moe_k", f));
    kv.put("interleave_moe_layer_step", u32(exact(cfg, "moe_layer_interval"), "moe_layer_interval", f));
    kv.put("leading_dense_block_count", u32(exact(cfg, "moe_layer_start_index"), "moe_layer_start_index", f));
    if (auto v = present("moe_intermediate_size")) kv.put("expert_feed_forward_length", u32(*v, "moe_intermediate_size", f));
    if (auto shared = present("moe_num_shared_experts")) {
        kv.put("expert_shared_count", u32(*shared, "moe_num_shared_experts", f));
        const PyNum n = num(*shared, "moe_num_shared_experts", f);
        const auto ff = present("intermediate_size"), kvh = present("num_key_value_heads");
        if ((n.is_int ? n.i > 0 : n.d > 0) && ff && kvh) {
            const std::int64_t len = floordiv(integer(*ff, "intermediate_size", f), integer(*kvh, "num_key_value_heads", f),
                                              "intermediate_size // num_key_value_heads", f);
            kv.put("expert_shared_feed_forward_length", u32(PyNum{true, len, double(len)}, "intermediate_size // num_key_value_heads", f));
        }
    }
}

/// Qwen3VLTextModel / Qwen3VLMoeTextModel: n_deepstack_layers = len(vision_config.deepstack_visual_indexes)
/// (0 without them); `thinker_first`: Qwen3VLTextModel reads thinker_config's vision_config when there is one.
void deepstack_layers(const HfConfig& cfg, KvOut& kv, bool thinker_first) {
    std::uint32_t n = 0;
    std::optional<element> vc;
    if (auto t = cfg.get("thinker_config"); thinker_first && t && t->is_object()) vc = amn::detail::json_get(*t, "vision_config");
    else vc = cfg.get("vision_config");
    if (vc && vc->is_object())
        if (auto ix = amn::detail::json_get(*vc, "deepstack_visual_indexes"); ix && ix->is_array())
            n = static_cast<std::uint32_t>(simdjson::dom::array(*ix).size());
    kv.put("n_deepstack_layers", MetaValue::u32(n));
}

/// Llama4Model.set_gguf_parameters: its __init__ moves intermediate_size to intermediate_size_moe and
/// intermediate_size_mlp to intermediate_size (both required), so TextModel's feed_forward_length is the dense
/// MLP's; then LlamaModel's keys, interleave_moe_layer_step, the experts' length, and sliding_window 0 when
/// every layer_types entry is "full_attention".
void llama4_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    const element moe_ff = exact(cfg, "intermediate_size");
    const auto mlp_ff = cfg.get("intermediate_size_mlp");
    if (!mlp_ff) missing("intermediate_size_mlp", f);
    llama_params(cfg, kv, res, true);
    // TextModel's find(prefix_dense_intermediate_size, dense_intermediate_size, intermediate_size, …) reaches
    // the renamed intermediate_size unless one of the first two keys is present; a null value writes nothing.
    if (!cfg.get("prefix_dense_intermediate_size") && !cfg.get("dense_intermediate_size")) {
        if (mlp_ff->is_null()) throw Error(ErrorCode::Malformed, "config.json key 'intermediate_size_mlp' is null", f);
        kv.put("feed_forward_length", u32(*mlp_ff, "intermediate_size_mlp", f));
    }
    kv.put("interleave_moe_layer_step", u32(exact(cfg, "interleave_moe_layer_step"), "interleave_moe_layer_step", f));
    kv.put("expert_feed_forward_length", u32(moe_ff, "intermediate_size", f));
    if (auto lt = cfg.get("layer_types")) {
        if (!lt->is_array()) throw Error(ErrorCode::BadJson, "config.json key 'layer_types': expected a list", f);
        bool all_full = true;
        for (element e : simdjson::dom::array(*lt)) all_full &= e.is_string() && std::string_view(e) == "full_attention";
        if (all_full) kv.put("attention.sliding_window", MetaValue::u32(0));
    }
}

}  // namespace

ArchKvs hparam_kvs(const ArchRow& row, const HfConfig& cfg, const std::string& model_dir) {
    ArchKvs res;
    KvOut kv(std::string(row.gguf), res.before_file_type);
    const std::string& f = cfg.file();
    switch (row.hparams) {
        case HparamsRule::None:
            throw Error(ErrorCode::Unsupported, "no Hugging Face → GGUF conversion for architecture " + std::string(row.gguf), f);
        case HparamsRule::Llama:
            llama_params(cfg, kv, res, true);
            break;
        case HparamsRule::Granite:
            granite_params(cfg, kv, res);
            break;
        case HparamsRule::GraniteMoe:  // GraniteMoeModel: GraniteModel's, then the shared expert's length when truthy
            granite_params(cfg, kv, res);
            if (auto v = truthy_number(cfg, "shared_intermediate_size"))
                kv.put("expert_shared_feed_forward_length", u32(*v, "shared_intermediate_size", f));
            break;
        case HparamsRule::Mistral3:
            mistral3_params(cfg, kv, res);
            break;
        case HparamsRule::Gemma2:
            gemma2_params(cfg, kv, res);
            break;
        case HparamsRule::Gemma3:
            gemma3_params(cfg, kv, res);
            break;
        case HparamsRule::Deepseek2:
            deepseek2_params(cfg, kv, res);
            break;
        case HparamsRule::GptOss:  // GptOssModel.set_gguf_parameters
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            kv.put("attention.sliding_window", u32(exact(cfg, "sliding_window"), "sliding_window", f));
            kv.put("expert_feed_forward_length", u32(exact(cfg, "intermediate_size"), "intermediate_size", f));
            break;
        case HparamsRule::Glm4:  // Glm4Model.set_gguf_parameters: TextModel's, then the partial rotary dimension
            if (RopeParams(cfg).outer("mrope_section"))
                throw Error(ErrorCode::Unsupported,
                            "GLM-4 with M-RoPE (mrope_section: the GLM-4V text model, Q/K rows regrouped) is not supported", f);
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            kv.put("rope.dimension_count", head_rope_dim(cfg, glm_partial_rotary_factor(cfg)));
            break;
        case HparamsRule::Glm4Moe:
            glm4moe_params(cfg, kv, res);
            break;
        case HparamsRule::Ernie4_5Moe:
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            ernie4_5_moe_params(cfg, kv);
            break;
        case HparamsRule::Llama4:
            llama4_params(cfg, kv, res);
            break;
        case HparamsRule::Lfm2:
            lfm2_params(cfg, kv, res);
            break;
        case HparamsRule::Mamba:
            mamba_params(cfg, kv);
            break;
        case HparamsRule::Mamba2:
            mamba2_params(cfg, kv);
            break;
        case HparamsRule::Qwen3Next:
            qwen3next_params(cfg, kv, res, model_dir);
            break;
        case HparamsRule::HunYuanDense:
            hunyuan_dense_params(cfg, kv, res);
            break;
        case HparamsRule::StarCoder:
            starcoder_params(cfg, kv);
            kv.to(res.after_file_type);
            break;
        case HparamsRule::MiniCPM:
            minicpm_params(cfg, kv, res);
            break;
        case HparamsRule::Bloom:
            bloom_params(cfg, kv);
            kv.to(res.after_file_type);
            break;
        case HparamsRule::Olmo:
            olmo_params(cfg, kv, res);
            break;
        case HparamsRule::GptNeoX:
            gptneox_params(cfg, kv, res);
            break;
        case HparamsRule::Falcon:
            falcon_params(cfg, kv);
            kv.to(res.after_file_type);
            break;
        case HparamsRule::Ernie4_5:  // Ernie4_5Model.set_gguf_parameters: super() alone
        case HparamsRule::Text:  // TextModel.set_gguf_parameters (SeedOssModel, StarCoder2Model have no body)
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            break;
        case HparamsRule::Arcee:  // ArceeModel: LlamaModel's, then _try_set_pooling_type
            llama_params(cfg, kv, res, true);
            pooling(model_dir, kv);
            break;
        case HparamsRule::Olmoe:  // OlmoeModel: add_layer_norm_rms_eps(1e-5) after TextModel's (file_type included)
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            kv.put("attention.layer_norm_rms_epsilon", f32(1e-5, "rms_norm_eps", f));
            break;
        case HparamsRule::Gemma:
            gemma_params(cfg, kv);
            kv.to(res.after_file_type);
            break;
        case HparamsRule::StableLm:
            stablelm_params(cfg, kv);
            kv.to(res.after_file_type);
            break;
        case HparamsRule::Exaone: {  // ExaoneModel: assert activation_function == "silu", then the partial rotary dimension
            const element act = exact(cfg, "activation_function");
            if (!act.is_string() || std::string_view(act) != "silu")
                throw Error(ErrorCode::Unsupported, "EXAONE with activation_function other than silu (the converter asserts silu)", f);
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            const RopeParams rp(cfg);
            const auto prf = rp.get("partial_rotary_factor");
            kv.put("rope.dimension_count", partial_rope_dim(cfg, prf ? num(*prf, "partial_rotary_factor", f) : PyNum{false, 0, 1.0}));
            break;
        }
        case HparamsRule::Exaone4:
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            exaone4_params(cfg, kv);
            break;
        case HparamsRule::CommandR:
            // CommandR2Model.__init__: hparams["max_position_embeddings"] = find_hparam([model_max_length, max_position_embeddings])
            if (!cfg.get("model_max_length") && !cfg.get("max_position_embeddings")) missing("model_max_length / max_position_embeddings", f);
            text_model_params(cfg, kv, true, false, true);
            kv.to(res.after_file_type);
            kv.put("logit_scale", f32(exact(cfg, "logit_scale"), "logit_scale", f));
            kv.put("rope.scaling.type", MetaValue::string("none"));
            break;
        case HparamsRule::Cohere2: {
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            kv.put("logit_scale", f32(exact(cfg, "logit_scale"), "logit_scale", f));
            kv.put("attention.sliding_window", u32(exact(cfg, "sliding_window"), "sliding_window", f));
            kv.put("vocab_size", u32(exact(cfg, "vocab_size"), "vocab_size", f));
            kv.put("rope.dimension_count", partial_rope_dim(cfg, num(exact(cfg, "rotary_pct"), "rotary_pct", f)));
            kv.put("rope.scaling.type", MetaValue::string("none"));
            break;
        }
        case HparamsRule::Phi2: {  // Phi2Model.set_gguf_parameters
            const RopeParams rp(cfg);
            const auto prf = rp.get("partial_rotary_factor");
            if (!prf) missing("partial_rotary_factor", f);
            const element n_embd = required(cfg, {"hidden_size", "n_embd"});
            const element n_head = required(cfg, {"num_attention_heads", "n_head"});
            const std::int64_t embd = integer(n_embd, "hidden_size", f), heads = integer(n_head, "num_attention_heads", f);
            kv.put("context_length", u32(required(cfg, {"n_positions", "max_position_embeddings"}), "max_position_embeddings", f));
            kv.put("embedding_length", u32(n_embd, "hidden_size", f));
            kv.put("feed_forward_length", u32(PyNum{true, 4 * embd, double(4 * embd)}, "4 * n_embd", f));
            kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", f));
            kv.put("attention.head_count", u32(n_head, "num_attention_heads", f));
            kv.put("attention.head_count_kv", u32(n_head, "num_attention_heads", f));
            kv.put("attention.layer_norm_epsilon", f32(required(cfg, {"layer_norm_epsilon", "layer_norm_eps"}), "layer_norm_epsilon", f));
            // int(rot_pct * n_embd) // n_head
            const PyNum rot = num(*prf, "partial_rotary_factor", f);
            const std::int64_t prod = rot.is_int ? rot.i * embd : static_cast<std::int64_t>(std::trunc(rot.d * double(embd)));
            const std::int64_t rope_dims = floordiv(prod, heads, "rope dimensions", f);
            kv.put("rope.dimension_count", u32(PyNum{true, rope_dims, double(rope_dims)}, "rope dimensions", f));
            kv.to(res.after_file_type);
            // A tokenizer key among the hparams: a later SpecialVocab value replaces it in place.
            kv.put_key("tokenizer.ggml.add_bos_token", MetaValue::boolean(false));
            break;
        }
        case HparamsRule::MiniMaxM2:  // MiniMaxM2Model.set_gguf_parameters
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            kv.put("expert_feed_forward_length", u32(required(cfg, {"intermediate_size"}), "intermediate_size", f));
            kv.put("rope.dimension_count", u32(required(cfg, {"rotary_dim"}), "rotary_dim", f));
            break;
        case HparamsRule::Olmo2:
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            olmo2_sliding_window(cfg, kv);
            break;
        case HparamsRule::Qwen2:
        case HparamsRule::Qwen3VL:
            if (row.gguf == "qwen3" || row.gguf == "qwen3vl") refuse_qwen3_reranker(cfg, model_dir);
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            pooling(model_dir, kv);
            if (row.hparams == HparamsRule::Qwen3VL) deepstack_layers(cfg, kv, true);
            break;
        case HparamsRule::Qwen2Moe:
        case HparamsRule::Qwen3VLMoe:
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            if (auto v = optional_hp(cfg, {"moe_intermediate_size"}))
                kv.put("expert_feed_forward_length", u32(*v, "moe_intermediate_size", f));
            if (auto v = optional_hp(cfg, {"shared_expert_intermediate_size"}))
                kv.put("expert_shared_feed_forward_length", u32(*v, "shared_expert_intermediate_size", f));
            if (row.hparams == HparamsRule::Qwen3VLMoe) deepstack_layers(cfg, kv, false);
            break;
        case HparamsRule::Phi3: {
            const element n_embd = required(cfg, {"hidden_size", "n_embd"});
            const element n_head = required(cfg, {"num_attention_heads", "n_head"});
            const element n_head_kv = required(cfg, {"num_key_value_heads", "n_head_kv"});
            const element rms_eps = required(cfg, {"rms_norm_eps"});
            const element max_pos = required(cfg, {"n_positions", "max_position_embeddings"});
            const RopeParams rp(cfg);
            const auto orig = rp.get("original_max_position_embeddings");
            if (!orig) missing("original_max_position_embeddings", f);
            const auto prf = rp.get("partial_rotary_factor");
            const PyNum rot = prf ? num(*prf, "partial_rotary_factor", f) : PyNum{false, 0, 1.0};
            const std::int64_t embd = integer(n_embd, "hidden_size", f), heads = integer(n_head, "num_attention_heads", f);
            // int(rot_pct * n_embd) // n_head
            const std::int64_t prod = rot.is_int ? rot.i * embd : static_cast<std::int64_t>(std::trunc(rot.d * double(embd)));
            const std::int64_t rope_dims = floordiv(prod, heads, "rope dimensions", f);
            const auto theta = rp.get("rope_theta");
            const element ff = required(cfg, {"intermediate_size"});
            kv.put("context_length", u32(max_pos, "max_position_embeddings", f));
            kv.put("rope.scaling.original_context_length", u32(*orig, "original_max_position_embeddings", f));
            kv.put("embedding_length", u32(n_embd, "hidden_size", f));
            kv.put("feed_forward_length", u32(ff, "intermediate_size", f));
            kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}),
                                      "num_hidden_layers", f));
            kv.put("attention.head_count", u32(n_head, "num_attention_heads", f));
            kv.put("attention.head_count_kv", u32(n_head_kv, "num_key_value_heads", f));
            kv.put("attention.layer_norm_rms_epsilon", f32(rms_eps, "rms_norm_eps", f));
            kv.put("rope.dimension_count", u32(PyNum{true, rope_dims, double(rope_dims)}, "rope dimensions", f));
            if (!theta) missing("rope_theta", f);
            kv.put("rope.freq_base", f32(*theta, "rope_theta", f));
            kv.to(res.after_file_type);
            const auto sw = cfg.get("sliding_window");
            kv.put("attention.sliding_window",
                   sw && !sw->is_null() ? u32(*sw, "sliding_window", f) : MetaValue::u32(0));
            break;
        }
        case HparamsRule::Bert:
            bert_params(cfg, kv, res, model_dir);
            break;
        case HparamsRule::NomicBert:
            nomic_bert_params(cfg, kv, res, model_dir);
            break;
        case HparamsRule::ModernBert:
            modern_bert_params(cfg, kv, res, model_dir);
            break;
        case HparamsRule::XlmRoberta:
            xlmroberta_params(cfg, kv, res, model_dir);
            break;
        case HparamsRule::Roberta:
            roberta_params(cfg, kv, res, model_dir);
            break;
        case HparamsRule::Gpt2: {
            const element blocks = required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
            auto exact = [&](std::string_view k) {
                auto v = cfg.get(k);
                if (!v || v->is_null()) missing(k, f);
                return *v;
            };
            kv.put("block_count", u32(blocks, "n_layer", f));
            kv.put("context_length", u32(exact("n_ctx"), "n_ctx", f));
            kv.put("embedding_length", u32(exact("n_embd"), "n_embd", f));
            const std::int64_t e = integer(exact("n_embd"), "n_embd", f);
            kv.put("feed_forward_length", u32(PyNum{true, 4 * e, double(4 * e)}, "4 * n_embd", f));
            kv.put("attention.head_count", u32(exact("n_head"), "n_head", f));
            kv.put("attention.layer_norm_epsilon", f32(exact("layer_norm_epsilon"), "layer_norm_epsilon", f));
            kv.to(res.after_file_type);
            break;
        }
    }
    return res;
}

}  // namespace amn::arch
