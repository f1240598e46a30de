// SPDX-License-Identifier: MIT OR Apache-2.0
// TextModel.set_gguf_parameters (conversion/base.py) and the hparam readers
// the converter classes share (arch_text_params.hpp).
#include "arch/arch_text_params.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"

#include <cmath>
#include <cstdint>

namespace amn::arch::detail {

using simdjson::dom::element;

void text_model_params(const HfConfig& cfg, KvOut& kv, bool use_head_dim, bool mla,
                       bool ctx_model_max_length_first, std::int64_t extra_blocks) {
    const std::string& f = cfg.file();
    auto opt = [&](std::initializer_list<std::string_view> keys) {
        for (auto k : keys)
            if (auto v = cfg.get(k)) return v->is_null() ? std::nullopt : std::optional<std::pair<std::string_view, element>>{{k, *v}};
        return std::optional<std::pair<std::string_view, element>>{};
    };
    {
        const element b = required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
        if (extra_blocks == 0) kv.put("block_count", u32(b, "num_hidden_layers", f));
        else {
            const std::int64_t n = integer(b, "num_hidden_layers", f) + extra_blocks;
            kv.put("block_count", u32(PyNum{true, n, double(n)}, "num_hidden_layers + num_nextn_predict_layers", f));
        }
    }
    if (ctx_model_max_length_first) {  // CommandR2Model overwrote hparams["max_position_embeddings"] first
        if (auto v = opt({"model_max_length", "max_position_embeddings"})) kv.put("context_length", u32(v->second, v->first, f));
    } else if (auto v = opt({"max_position_embeddings", "n_ctx", "n_positions", "max_length", "max_sequence_length", "model_max_length"}))
        kv.put("context_length", u32(v->second, v->first, f));
    if (auto v = opt({"hidden_size", "n_embd", "dim"})) kv.put("embedding_length", u32(v->second, v->first, f));
    if (auto v = opt({"prefix_dense_intermediate_size", "dense_intermediate_size", "intermediate_size", "n_inner", "hidden_dim"}))
        kv.put("feed_forward_length", u32(v->second, v->first, f));
    if (auto v = opt({"num_attention_heads", "n_head", "n_heads"})) kv.put("attention.head_count", u32(v->second, v->first, f));
    if (mla) kv.put("attention.head_count_kv", MetaValue::u32(1));
    else if (auto v = opt({"num_key_value_heads", "n_kv_heads"})) kv.put("attention.head_count_kv", u32(v->second, v->first, f));
    if (auto c = cfg.get("is_causal"); c && c->is_bool() && !bool(*c)) kv.put("attention.causal", MetaValue::boolean(false));

    const RopeParams rp(cfg);
    if (const std::string type = rp.rope_type(); !type.empty()) {
        const auto factor = rp.get("factor");
        if (type == "linear" && factor) {
            kv.put("rope.scaling.type", MetaValue::string("linear"));
            kv.put("rope.scaling.factor", f32(*factor, "rope_scaling.factor", f));
        } else if (type == "yarn" && factor) {
            kv.put("rope.scaling.type", MetaValue::string("yarn"));
            kv.put("rope.scaling.factor", f32(*factor, "rope_scaling.factor", f));
            const auto orig = rp.get("original_max_position_embeddings");
            if (!orig) missing("rope_scaling.original_max_position_embeddings", f);
            kv.put("rope.scaling.original_context_length", u32(*orig, "rope_scaling.original_max_position_embeddings", f));
            if (auto v = rp.get("extrapolation_factor")) kv.put("rope.scaling.yarn_ext_factor", f32(*v, "extrapolation_factor", f));
            // rope_params.get("attention_factor", rope_params.get("attn_factor"))
            std::optional<element> af = rp.has("attention_factor") ? rp.get("attention_factor") : rp.get("attn_factor");
            if (af) kv.put("rope.scaling.yarn_attn_factor", f32(*af, "attention_factor", f));
            if (auto v = rp.get("beta_fast")) kv.put("rope.scaling.yarn_beta_fast", f32(*v, "beta_fast", f));
            if (auto v = rp.get("beta_slow")) kv.put("rope.scaling.yarn_beta_slow", f32(*v, "beta_slow", f));
        } else if (type == "su" || type == "longrope") {
            kv.put("rope.scaling.type", MetaValue::string("longrope"));
        }
        // "dynamic" (model classes), "llama3" (generate_extra_tensors), others: the converter only logs.
    }
    if (const auto ms = rp.outer("mrope_section")) {
        // M-RoPE (Qwen2-VL, Qwen3-VL): the sections padded with 0 to 4, first 4, an INT32 array (gguf-py: a list of ints).
        if (!ms->is_array())
            throw Error(ErrorCode::BadJson, "config.json rope 'mrope_section': expected a list of integers", f);
        std::vector<std::int32_t> v;
        for (element e : simdjson::dom::array(*ms)) {
            if (!(e.is_int64() || e.is_uint64()))
                throw Error(ErrorCode::Unsupported, "config.json rope 'mrope_section': only integer sections are supported", f);
            const std::int64_t x = integer(e, "mrope_section", f);
            if (x < INT32_MIN || x > INT32_MAX) throw Error(ErrorCode::BadJson, "config.json rope 'mrope_section': out of range", f);
            v.push_back(static_cast<std::int32_t>(x));
        }
        while (v.size() < 4) v.push_back(0);
        v.resize(4);
        std::string bytes(16, '\0');
        for (std::size_t i = 0; i < 4; ++i)
            for (int b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<char>((static_cast<std::uint32_t>(v[i]) >> (8 * b)) & 0xff);
        kv.put("rope.dimension_sections", MetaValue::packed(GgufType::I32, 4, std::move(bytes)));
    }
    if (auto t = rp.get("rope_theta")) kv.put("rope.freq_base", f32(*t, "rope_theta", f));
    if (auto t = rp.swa_theta()) kv.put("rope.freq_base_swa", f32(*t, "rope_local_theta", f));
    if (mla && !cfg.get("rms_norm_eps")) kv.put("attention.layer_norm_rms_epsilon", f32(1e-6, "rms_norm_eps", f));
    else if (auto v = opt({"rms_norm_eps", "norm_eps"})) kv.put("attention.layer_norm_rms_epsilon", f32(v->second, v->first, f));
    if (auto v = opt({"layer_norm_eps", "layer_norm_epsilon", "norm_epsilon"}))
        kv.put("attention.layer_norm_epsilon", f32(v->second, v->first, f));
    if (auto v = opt({"num_local_experts", "num_experts", "n_routed_experts"})) kv.put("expert_count", u32(v->second, v->first, f));
    if (auto v = opt({"num_experts_per_tok", "num_experts_per_token", "top_k_experts"}))
        kv.put("expert_used_count", u32(v->second, v->first, f));
    if (auto v = opt({"n_group"})) kv.put("expert_group_count", u32(v->second, v->first, f));
    if (auto v = opt({"topk_group"})) kv.put("expert_group_used_count", u32(v->second, v->first, f));
    if (auto v = opt({"score_function", "scoring_func", "score_func", "moe_router_activation", "moe_router_activation_func",
                      "expert_selection_fn"})) {
        const std::string_view s = v->second.is_string() ? std::string_view(v->second) : std::string_view();
        const std::uint32_t id = s == "sigmoid" ? 2 : s == "softmax" ? 1 : s == "sqrtsoftplus" ? 4 : 0;
        if (!id)
            throw Error(ErrorCode::Unsupported,
                        "config.json key '" + std::string(v->first) + "': unsupported expert score gating function", f);
        kv.put("expert_gating_func", MetaValue::u32(id));
    }
    if (auto v = opt({"head_dim"}); v && use_head_dim) {
        kv.put("attention.key_length", u32(v->second, "head_dim", f));
        kv.put("attention.value_length", u32(v->second, "head_dim", f));
    }
}

std::int64_t floordiv(std::int64_t a, std::int64_t b, std::string_view what, const std::string& file) {
    if (b == 0) throw Error(ErrorCode::Malformed, "config.json: " + std::string(what) + " divides by zero", file);
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

std::optional<element> truthy_number(const HfConfig& cfg, std::string_view key) {
    auto v = cfg.get(key);
    if (!v || v->is_null()) return std::nullopt;
    if (v->is_bool()) return bool(*v) ? v : std::nullopt;
    if (v->is_number() && double(*v) == 0.0) return std::nullopt;
    return v;
}

element exact(const HfConfig& cfg, std::string_view key) {
    auto v = cfg.get(key);
    if (!v || v->is_null()) missing(key, cfg.file());
    return *v;
}

MetaValue partial_rope_dim(const HfConfig& cfg, const PyNum& factor) {
    const std::string& f = cfg.file();
    const std::int64_t per_head = floordiv(integer(exact(cfg, "hidden_size"), "hidden_size", f),
                                           integer(exact(cfg, "num_attention_heads"), "num_attention_heads", f),
                                           "hidden_size // num_attention_heads", f);
    const std::int64_t d = factor.is_int ? factor.i * per_head : static_cast<std::int64_t>(std::trunc(factor.d * double(per_head)));
    return u32(PyNum{true, d, double(d)}, "rope dimensions", f);
}

MetaValue head_rope_dim(const HfConfig& cfg, const PyNum& factor) {
    const std::string& f = cfg.file();
    std::int64_t rope_dim;
    if (auto hd = cfg.get("head_dim"); hd && !hd->is_null()) rope_dim = integer(*hd, "head_dim", f);
    else
        rope_dim = floordiv(integer(exact(cfg, "hidden_size"), "hidden_size", f),
                            integer(exact(cfg, "num_attention_heads"), "num_attention_heads", f),
                            "hidden_size // num_attention_heads", f);
    const std::int64_t d = factor.is_int ? factor.i * rope_dim : static_cast<std::int64_t>(std::trunc(factor.d * double(rope_dim)));
    return u32(PyNum{true, d, double(d)}, "rope dimensions", f);
}

}  // namespace amn::arch::detail
