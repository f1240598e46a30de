// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the converter's embedding models (conversion/bert.py BertModel)
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
    const std::string& f = cfg.file();
    text_model_params(cfg, kv);
    kv.to(res.after_file_type);
    kv.put("attention.causal", MetaValue::boolean(false));
    pooling(dir, kv);
    // BertModel.__init__: id2label, dropped when it is AutoConfig's default pair (LABEL_0, LABEL_1);
    // the labels sorted by their (integer, as AutoConfig makes them) keys.
    auto labels = cfg.get("id2label");
    if (!labels || labels->is_null()) return;
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
    if (sorted.empty()) return;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (sorted.size() == 2 && sorted[0].first == 0 && sorted[0].second == "LABEL_0") return;
    MetaValue out = MetaValue::strings({});
    for (const auto& [id, label] : sorted) out.push_string(label);
    kv.put("classifier.output_labels", std::move(out));
}

}  // namespace amn::arch::detail
