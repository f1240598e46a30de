// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the converter's embedding models (conversion/bert.py BertModel, NomicBertModel,
// ModernBertModel, XLMRobertaModel)
// and the sentence-transformers pooling type they write (base.py TextModel._try_set_pooling_type).
#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"
#include "util/json_dom.hpp"

#include <algorithm>
#include <filesystem>

namespace amn::arch::detail {

using simdjson::dom::element;

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

void bert_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir) {
    text_model_params(cfg, kv);
    kv.to(res.after_file_type);
    kv.put("attention.causal", MetaValue::boolean(false));
    pooling(dir, kv);
    const std::vector<std::string> labels = bert_output_labels(cfg);
    if (labels.empty()) return;
    MetaValue out = MetaValue::strings({});
    for (const auto& label : labels) out.push_string(label);
    kv.put("classifier.output_labels", std::move(out));
}

std::vector<std::string> bert_output_labels(const HfConfig& cfg) {
    // BertModel.__init__: id2label, dropped when it is AutoConfig's default pair (LABEL_0, LABEL_1);
    // the labels sorted by their (integer, as AutoConfig makes them) keys.
    const std::string& f = cfg.file();
    auto labels = cfg.get("id2label");
    if (!labels || labels->is_null()) return {};
    simdjson::dom::object obj;
    if (labels->get(obj)) throw Error(ErrorCode::BadJson, "config.json key 'id2label': expected an object", f);
    std::vector<std::pair<std::int64_t, std::string>> sorted;
    for (auto [k, v] : obj) {
        std::int64_t id = 0;
        const std::string_view key(k);
        if (key.empty() || key.size() > 12 || !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }))
            throw Error(ErrorCode::BadJson, "config.json key 'id2label': a key is not a label id", f);
        for (char c : key) id = id * 10 + (c - '0');
        if (!v.is_string()) throw Error(ErrorCode::BadJson, "config.json key 'id2label': a label is not a string", f);
        sorted.emplace_back(id, std::string(std::string_view(v)));
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (sorted.size() == 2 && sorted[0].first == 0 && sorted[0].second == "LABEL_0") return {};
    std::vector<std::string> out;
    for (auto& [id, label] : sorted) out.push_back(std::move(label));
    return out;
}

void nomic_bert_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string& f = cfg.file();
    if (truthy_number(cfg, "moe_every_n_layers"))
        throw Error(ErrorCode::Unsupported,
                    "NomicBertModel with moe_every_n_layers (nomic-embed-text-v2-moe) converts to nomic-bert-moe, which is "
                    "not supported (supported: the dense nomic-bert of nomic-embed-text v1/v1.5)",
                    f);
    // _is_tokenizer_xlmroberta: tokenizer.json's model type, WordPiece (BertModel.set_vocab) or Unigram (XLM-RoBERTa).
    const std::string tj = (fs::path(dir) / "tokenizer.json").string();
    if (!dir.empty() && fs::is_regular_file(tj)) {
        const amn::detail::JsonDoc doc = amn::detail::JsonDoc::load(tj, "tokenizer.json");
        std::string_view type;
        if (auto m = amn::detail::json_get(doc.root(), "model"); m && m->is_object())
            if (auto t = amn::detail::json_get(*m, "type"); t && t->is_string()) type = std::string_view(*t);
        if (type == "Unigram")
            throw Error(ErrorCode::Unsupported,
                        "nomic-bert with an XLM-RoBERTa (Unigram) tokenizer is not supported (supported: WordPiece)", tj);
        if (type != "WordPiece")
            throw Error(ErrorCode::Malformed,
                        "nomic-bert needs a WordPiece tokenizer.json (the converter: \"unknown tokenizer: " + std::string(type) + "\")",
                        tj);
    }
    // n_positions as the model was trained: 8192 (2048 trained) → 2048 for v1/v1.5, 2048 (2048) → 512.
    const PyNum npos = num(exact(cfg, "n_positions"), "n_positions", f);
    PyNum mtp{true, 2048, 2048.0};
    if (auto v = cfg.get("max_trained_positions")) {
        if (v->is_null()) throw Error(ErrorCode::Malformed, "config.json key 'max_trained_positions' is null", f);
        mtp = num(*v, "max_trained_positions", f);
    }
    std::int64_t ctx = 0;
    if (npos.d == 8192 && mtp.d == 2048) ctx = 2048;
    else if (npos.d == 2048 && mtp.d == 2048) ctx = 512;
    else
        throw Error(ErrorCode::Malformed,
                    "nomic-bert: unrecognized n_positions / max_trained_positions (the converter knows 8192 / 2048 and "
                    "2048 / 2048)",
                    f);
    // The converter's asserts: no bias tensors, post-norm, plain RoPE (activation_function is not checked:
    // its assert reads `(… == "gelu") if is_moe else "swiglu"`).
    auto check = [&](std::string_view key, bool ok, std::string_view want) {
        if (!ok)
            throw Error(ErrorCode::Malformed,
                        "nomic-bert needs config.json key '" + std::string(key) + "' " + std::string(want) + " (the converter asserts it)", f);
    };
    auto is_false = [&](std::string_view key) {
        const element v = [&] {
            auto e = cfg.get(key);
            if (!e) missing(key, f);
            return *e;
        }();
        return v.is_bool() && !bool(v);
    };
    auto equals = [&](std::string_view key, double want) {
        auto e = cfg.get(key);
        if (!e) missing(key, f);
        return (e->is_number() || e->is_bool()) && num(*e, key, f).d == want;
    };
    check("causal", is_false("causal"), "false");
    for (std::string_view k : {"qkv_proj_bias", "mlp_fc1_bias", "mlp_fc2_bias"}) check(k, equals(k, 0), "false");
    check("prenorm", is_false("prenorm"), "false");
    check("rotary_emb_fraction", equals("rotary_emb_fraction", 1.0), "1.0");
    check("rotary_emb_interleaved", is_false("rotary_emb_interleaved"), "false");
    {
        auto e = cfg.get("rotary_emb_scale_base");
        if (!e) missing("rotary_emb_scale_base", f);
        check("rotary_emb_scale_base", e->is_null(), "null");
    }
    bert_params(cfg, kv, res, dir);
    // TextModel read the context from the first present key of its list; n_positions was replaced before.
    for (std::string_view k : {"max_position_embeddings", "n_ctx", "n_positions"}) {
        if (!cfg.get(k)) continue;
        if (k == "n_positions") kv.put("context_length", MetaValue::u32(static_cast<std::uint32_t>(ctx)));  // in place
        break;
    }
}

std::optional<std::int64_t> xlmroberta_position_offset(const HfConfig& cfg) {
    const std::string& f = cfg.file();
    const auto pad = cfg.get("pad_token_id");
    if (!pad || pad->is_null()) return std::nullopt;
    const std::int64_t offset = 1 + integer(*pad, "pad_token_id", f);
    if (offset < 0) throw Error(ErrorCode::Malformed, "config.json key 'pad_token_id' is negative", f);
    return offset;
}

void xlmroberta_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir) {
    const std::string& f = cfg.file();
    auto truthy = [](element e) {  // Python's truth value of a JSON value
        if (e.is_null()) return false;
        if (e.is_bool()) return bool(e);
        if (e.is_number()) return double(e) != 0;
        if (e.is_string()) return !std::string_view(e).empty();
        if (e.is_array()) return simdjson::dom::array(e).size() != 0;
        return simdjson::dom::object(e).size() != 0;
    };
    if (auto l = cfg.get("lora_adaptations"); l && truthy(*l))
        throw Error(ErrorCode::Unsupported,
                    "XLMRobertaModel with lora_adaptations (jina-embeddings-v3) converts to jina-bert-v3 with one LoRA GGUF "
                    "per task, which is not supported (supported: XLM-RoBERTa as bert)",
                    f);
    roberta_params(cfg, kv, res, dir);
}

void roberta_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir) {
    const std::string& f = cfg.file();
    bert_params(cfg, kv, res, dir);
    // _xlmroberta_tokenizer_init / RobertaModel.__init__: hparams["max_position_embeddings"] -= 1 + pad_token_id
    // (TextModel read it first when present: context_length in place).
    const auto offset = xlmroberta_position_offset(cfg);
    const auto mpe = cfg.get("max_position_embeddings");
    if (!offset || !mpe) return;
    if (mpe->is_null()) throw Error(ErrorCode::Malformed, "config.json key 'max_position_embeddings' is null", f);
    const std::int64_t ctx = integer(*mpe, "max_position_embeddings", f) - *offset;
    kv.put("context_length", u32(PyNum{true, ctx, double(ctx)}, "max_position_embeddings - (pad_token_id + 1)", f));
}

void modern_bert_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& dir) {
    const std::string& f = cfg.file();
    bert_params(cfg, kv, res, dir);
    kv.put("attention.sliding_window", u32(exact(cfg, "local_attention"), "local_attention", f));
    if (auto p = cfg.get("global_attn_every_n_layers"); p && !p->is_null())
        kv.put("attention.sliding_window_pattern", u32(*p, "global_attn_every_n_layers", f));
    kv.put("rope.scaling.type", MetaValue::string("none"));
    kv.put("vocab_size", u32(exact(cfg, "vocab_size"), "vocab_size", f));
    // `if hidden_act := hparams.get("hidden_activation")`: written when truthy (add_string).
    if (auto h = cfg.get("hidden_activation"); h && !h->is_null()) {
        if (!h->is_string()) {
            if ((h->is_bool() && !bool(*h)) || (h->is_number() && double(*h) == 0)) return;
            throw Error(ErrorCode::BadJson, "config.json key 'hidden_activation': expected a string", f);
        }
        if (const std::string_view s(*h); !s.empty()) kv.put("hidden_activation", MetaValue::string(std::string(s)));
    }
}

}  // namespace amn::arch::detail
