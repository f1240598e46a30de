// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the older converter classes with their own key lists:
// GPTNeoXModel (gptneox.py), StarCoderModel (starcoder.py), BloomModel (bloom.py),
// OlmoModel (olmo.py), MiniCPMModel (minicpm.py) — config.json → GGUF key/values in call order.
#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"

#include <cmath>

namespace amn::arch::detail {

using simdjson::dom::element;

namespace {

element block_count(const HfConfig& cfg) { return required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}); }

}  // namespace

void gptneox_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    kv.put("context_length", u32(exact(cfg, "max_position_embeddings"), "max_position_embeddings", f));
    kv.put("embedding_length", u32(exact(cfg, "hidden_size"), "hidden_size", f));
    kv.put("block_count", u32(block_count(cfg), "num_hidden_layers", f));
    kv.put("feed_forward_length", u32(exact(cfg, "intermediate_size"), "intermediate_size", f));
    kv.put("rope.dimension_count", partial_rope_dim(cfg, num(exact(cfg, "rotary_pct"), "rotary_pct", f)));
    kv.put("attention.head_count", u32(exact(cfg, "num_attention_heads"), "num_attention_heads", f));
    bool parallel = true;  // hparams.get("use_parallel_residual", True)
    if (auto p = cfg.get("use_parallel_residual")) {
        if (!p->is_bool()) throw Error(ErrorCode::BadJson, "config.json key 'use_parallel_residual': expected true/false", f);
        parallel = bool(*p);
    }
    kv.put("use_parallel_residual", MetaValue::boolean(parallel));
    kv.put("attention.layer_norm_epsilon", f32(exact(cfg, "layer_norm_eps"), "layer_norm_eps", f));
    res.file_type = false;  // GPTNeoXModel.set_gguf_parameters never calls add_file_type
}

void starcoder_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    if (auto mq = cfg.get("multi_query"); mq && mq->is_bool() && !bool(*mq))
        throw Error(ErrorCode::Unsupported,
                    "GPTBigCode with multi_query false: the converter writes one KV head whatever the config says "
                    "(a file llama.cpp cannot load), so anamnesis refuses it",
                    f);
    const element n_embd = exact(cfg, "n_embd");
    const std::int64_t e = integer(n_embd, "n_embd", f);
    kv.put("context_length", u32(exact(cfg, "n_positions"), "n_positions", f));
    kv.put("embedding_length", u32(n_embd, "n_embd", f));
    kv.put("feed_forward_length", u32(PyNum{true, 4 * e, double(4 * e)}, "4 * n_embd", f));
    kv.put("block_count", u32(block_count(cfg), "n_layer", f));
    kv.put("attention.head_count", u32(exact(cfg, "n_head"), "n_head", f));
    kv.put("attention.head_count_kv", MetaValue::u32(1));
    kv.put("attention.layer_norm_epsilon", f32(exact(cfg, "layer_norm_epsilon"), "layer_norm_epsilon", f));
}

void olmo_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    text_model_params(cfg, kv);
    kv.to(res.after_file_type);
    kv.put("attention.layer_norm_epsilon", f32(1e-5, "layer_norm_eps", f));  // OLMo's LayerNorm has no weights, eps 1e-5
    if (auto c = cfg.get("clip_qkv"); c && !c->is_null()) kv.put("attention.clamp_kqv", f32(*c, "clip_qkv", f));
}

void bloom_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    // hparams.get(a, hparams.get(b)), asserted not None
    auto get_or = [&](std::string_view a, std::string_view b) -> std::pair<element, std::string_view> {
        const auto v = cfg.get(a) ? cfg.get(a) : cfg.get(b);
        if (!v || v->is_null()) missing(std::string(a) + " / " + std::string(b), f);
        return {*v, cfg.get(a) ? a : b};
    };
    const auto [n_embed, embed_key] = get_or("hidden_size", "n_embed");
    const auto [n_head, head_key] = get_or("n_head", "num_attention_heads");
    const std::int64_t e = integer(n_embed, embed_key, f);
    const auto seq = cfg.get("seq_length");  // hparams.get("seq_length", n_embed): the width when absent
    kv.put("context_length", seq ? u32(*seq, "seq_length", f) : u32(n_embed, embed_key, f));
    kv.put("embedding_length", u32(n_embed, embed_key, f));
    kv.put("feed_forward_length", u32(PyNum{true, 4 * e, double(4 * e)}, "4 * n_embed", f));
    kv.put("block_count", u32(block_count(cfg), "n_layer", f));
    kv.put("attention.head_count", u32(n_head, head_key, f));
    kv.put("attention.head_count_kv", u32(n_head, head_key, f));
    kv.put("attention.layer_norm_epsilon", f32(exact(cfg, "layer_norm_epsilon"), "layer_norm_epsilon", f));
}

void minicpm_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    const RopeParams rp(cfg);
    if (rp.get("long_factor") || rp.get("short_factor"))
        throw Error(ErrorCode::Unsupported, "MiniCPM with LongRoPE factors (rope_scaling long_factor / short_factor) is not supported here", f);
    text_model_params(cfg, kv);
    kv.to(res.after_file_type);
    kv.put("embedding_scale", f32(num(exact(cfg, "scale_emb"), "scale_emb", f).d, "scale_emb", f));
    // scale_depth / num_hidden_layers ** 0.5 and hidden_size / dim_model_base, in Python floats
    const double layers = num(exact(cfg, "num_hidden_layers"), "num_hidden_layers", f).d;
    kv.put("residual_scale", f32(num(exact(cfg, "scale_depth"), "scale_depth", f).d / std::pow(layers, 0.5), "scale_depth", f));
    const double base = num(exact(cfg, "dim_model_base"), "dim_model_base", f).d;
    if (base == 0) throw Error(ErrorCode::Malformed, "config.json key 'dim_model_base' is 0 (the converter divides by it)", f);
    kv.put("logit_scale", f32(num(exact(cfg, "hidden_size"), "hidden_size", f).d / base, "dim_model_base", f));
}

}  // namespace amn::arch::detail
