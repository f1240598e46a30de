// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the converter classes: config.json → GGUF key/values
// in call order (conversion/base.py TextModel, llama.py, qwen.py, phi.py, gpt2.py).
#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"
#include "arch/arch_values.hpp"
#include "json_dom.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace amn::arch {
namespace {

using namespace detail;
using simdjson::dom::element;

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

/// TextModel.set_gguf_parameters up to (excluding) add_file_type.
void text_model_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    auto opt = [&](std::initializer_list<std::string_view> keys) {
        for (auto k : keys)
            if (auto v = cfg.get(k)) return v->is_null() ? std::nullopt : std::optional<std::pair<std::string_view, element>>{{k, *v}};
        return std::optional<std::pair<std::string_view, element>>{};
    };
    {
        const element b = required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
        kv.put("block_count", u32(b, "num_hidden_layers", f));
    }
    if (auto v = opt({"max_position_embeddings", "n_ctx", "n_positions", "max_length", "max_sequence_length", "model_max_length"}))
        kv.put("context_length", u32(v->second, v->first, f));
    if (auto v = opt({"hidden_size", "n_embd", "dim"})) kv.put("embedding_length", u32(v->second, v->first, f));
    if (auto v = opt({"prefix_dense_intermediate_size", "dense_intermediate_size", "intermediate_size", "n_inner", "hidden_dim"}))
        kv.put("feed_forward_length", u32(v->second, v->first, f));
    if (auto v = opt({"num_attention_heads", "n_head", "n_heads"})) kv.put("attention.head_count", u32(v->second, v->first, f));
    if (auto v = opt({"num_key_value_heads", "n_kv_heads"})) kv.put("attention.head_count_kv", u32(v->second, v->first, f));
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
    if (rp.outer("mrope_section"))
        throw Error(ErrorCode::Unsupported, "config.json rope 'mrope_section' (multi-section RoPE) is not supported here", f);
    if (auto t = rp.get("rope_theta")) kv.put("rope.freq_base", f32(*t, "rope_theta", f));
    if (auto t = rp.swa_theta()) kv.put("rope.freq_base_swa", f32(*t, "rope_local_theta", f));
    if (auto v = opt({"rms_norm_eps", "norm_eps"})) kv.put("attention.layer_norm_rms_epsilon", f32(v->second, v->first, f));
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
    if (auto v = opt({"head_dim"})) {
        kv.put("attention.key_length", u32(v->second, "head_dim", f));
        kv.put("attention.value_length", u32(v->second, "head_dim", f));
    }
}

/// Python `a // b` for the ints of config.json.
std::int64_t floordiv(std::int64_t a, std::int64_t b, std::string_view what, const std::string& file) {
    if (b == 0) throw Error(ErrorCode::Malformed, "config.json: " + std::string(what) + " divides by zero", file);
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

/// Base._try_set_pooling_type (Qwen2Model/Qwen3Model): sentence-transformers pooling.
void pooling(const std::string& dir, KvOut& kv) {
    namespace fs = std::filesystem;
    if (dir.empty()) return;
    const fs::path modules = fs::path(dir) / "modules.json";
    if (!fs::is_regular_file(modules)) return;
    const amn::detail::JsonDoc m = amn::detail::JsonDoc::load(modules.string(), "modules.json");
    std::optional<std::string> path;
    simdjson::dom::array arr;
    if (!m.root().get(arr)) {
        for (element mod : arr) {
            auto t = amn::detail::json_string(mod, "type", m.file());
            if (t && t->ends_with("Pooling")) {
                path = amn::detail::json_string(mod, "path", m.file());
                break;
            }
        }
    }
    if (!path) return;
    const std::string pc = (fs::path(dir) / *path / "config.json").string();
    const amn::detail::JsonDoc p = amn::detail::JsonDoc::load(pc, "pooling config.json");
    auto truthy = [&](std::string_view k) {
        auto v = amn::detail::json_get(p.root(), k);
        if (!v || v->is_null()) return false;
        if (v->is_bool()) return bool(*v);
        if (v->is_number()) return double(*v) != 0;
        if (v->is_string()) return !std::string_view(*v).empty();
        return true;
    };
    std::uint32_t type = 0;
    if (truthy("pooling_mode_mean_tokens")) type = 1;
    else if (truthy("pooling_mode_cls_token")) type = 2;
    else if (truthy("pooling_mode_lasttoken")) type = 3;
    else if (auto mode = amn::detail::json_get(p.root(), "pooling_mode"); mode && mode->is_string()) {
        const std::string_view s(*mode);
        type = s == "mean" ? 1 : s == "cls" ? 2 : s == "lasttoken" ? 3 : 0;
    }
    if (!type) throw Error(ErrorCode::Unsupported, "only MEAN, CLS and LAST pooling types are supported", pc);
    kv.put("pooling_type", MetaValue::u32(type));
}

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

}  // namespace

ArchKvs hparam_kvs(const ArchRow& row, const HfConfig& cfg, const std::string& model_dir) {
    ArchKvs res;
    KvOut kv(std::string(row.gguf), res.before_file_type);
    const std::string& f = cfg.file();
    switch (row.hparams) {
        case HparamsRule::None:
            throw Error(ErrorCode::Unsupported, "no Hugging Face → GGUF conversion for architecture " + std::string(row.gguf), f);
        case HparamsRule::Llama: {
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            auto vs = cfg.get("vocab_size");
            if (!vs || vs->is_null()) missing("vocab_size", f);
            kv.put("vocab_size", u32(*vs, "vocab_size", f));
            std::int64_t rope_dim;
            if (auto hd = cfg.get("head_dim"); hd && !hd->is_null()) rope_dim = integer(*hd, "head_dim", f);
            else {
                auto h = cfg.get("hidden_size"), n = cfg.get("num_attention_heads");
                if (!h || h->is_null()) missing("hidden_size", f);
                if (!n || n->is_null()) missing("num_attention_heads", f);
                rope_dim = floordiv(integer(*h, "hidden_size", f), integer(*n, "num_attention_heads", f),
                                    "hidden_size // num_attention_heads", f);
            }
            kv.put("rope.dimension_count", u32(PyNum{true, rope_dim, double(rope_dim)}, "head_dim", f));
            break;
        }
        case HparamsRule::Qwen2:
            if (row.gguf == "qwen3") refuse_qwen3_reranker(cfg, model_dir);
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            pooling(model_dir, kv);
            break;
        case HparamsRule::Qwen2Moe:
            text_model_params(cfg, kv);
            kv.to(res.after_file_type);
            if (auto v = optional_hp(cfg, {"moe_intermediate_size"}))
                kv.put("expert_feed_forward_length", u32(*v, "moe_intermediate_size", f));
            if (auto v = optional_hp(cfg, {"shared_expert_intermediate_size"}))
                kv.put("expert_shared_feed_forward_length", u32(*v, "shared_expert_intermediate_size", f));
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
