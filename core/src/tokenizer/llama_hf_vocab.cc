// SPDX-License-Identifier: MIT OR Apache-2.0
// gguf-py vocab.py LlamaHfVocab over tokenizer.json (+ tokenizer_config.json,
// special_tokens_map.json for the special tokens transformers would list).
#include "tokenizer/llama_hf_vocab.hpp"

#include "anamnesis/error.hpp"
#include "tokenizer/py_compat.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace amn::tok {
namespace {

using simdjson::dom::element_type;

std::int32_t t(SpmTokenType v) { return static_cast<std::int32_t>(v); }

bool is_byte_token(std::string_view s) {  // re.fullmatch(br"<0x[0-9A-Fa-f]{2}>", s)
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    return s.size() == 6 && s.starts_with("<0x") && hex(s[3]) && hex(s[4]) && s[5] == '>';
}

/// The content of a special-token entry (a string or an AddedToken object), if any.
std::optional<std::string> special_content(const std::optional<py::Elem>& e) {
    if (!e) return std::nullopt;
    if (auto s = py::str(e)) return std::string(*s);
    if (e->type() == element_type::OBJECT)
        if (auto s = py::str(detail::json_get(*e, "content"))) return std::string(*s);
    return std::nullopt;
}

/// transformers' `all_special_tokens`: the bos/eos/unk/sep/pad/cls/mask
/// tokens, then `additional_special_tokens`, each once, from
/// tokenizer_config.json with special_tokens_map.json's entries winning.
std::vector<std::string> all_special_tokens(const std::string& dir) {
    std::map<std::string, std::optional<py::Elem>> attrs;
    std::vector<detail::JsonDoc> docs;  // keep the elements alive
    for (const char* name : {"tokenizer_config.json", "special_tokens_map.json"}) {
        const std::string path = dir + "/" + name;
        if (!py::is_file(path)) continue;
        docs.push_back(py::load_json(path));
        if (docs.back().root().type() != element_type::OBJECT)
            throw Error(ErrorCode::BadJson, std::string(name) + ": expected an object", path);
        for (const auto& [k, v] : py::items(docs.back().root())) attrs[std::string(k)] = v;
    }
    std::vector<std::string> out;
    auto add = [&](const std::optional<py::Elem>& e) {
        auto s = special_content(e);
        if (s && std::find(out.begin(), out.end(), *s) == out.end()) out.push_back(*s);
    };
    for (const char* a : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"})
        if (auto it = attrs.find(a); it != attrs.end()) add(it->second);
    if (auto it = attrs.find("additional_special_tokens"); it != attrs.end() && it->second &&
                                                            it->second->type() == element_type::ARRAY)
        for (py::Elem e : simdjson::dom::array(*it->second)) add(e);
    return out;
}

}  // namespace

std::optional<SpmVocab> llama_hf_vocab(const std::string& dir) {
    const std::string path = dir + "/tokenizer.json";
    if (!py::is_file(path)) return std::nullopt;
    auto doc = py::load_json(path);
    const py::Elem root = doc.root();
    const py::Elem model = py::at(root, "model", path, "tokenizer.json");
    if (model.type() != element_type::OBJECT) return std::nullopt;  // model['type'] on a non-dict: TypeError
    const py::Elem type = py::at(model, "type", path, "model");
    const bool is_bpe = py::equal(type, "BPE");
    const bool is_llama3 = is_bpe && py::truthy(detail::json_get(model, "ignore_merges")) &&
                           !(detail::json_get(model, "byte_fallback") ? py::truthy(*detail::json_get(model, "byte_fallback"))
                                                                       : true);
    if (is_llama3) return std::nullopt;
    if (!is_bpe || !py::truthy(detail::json_get(model, "byte_fallback"))) return std::nullopt;
    const py::Elem decoder = py::at(root, "decoder", path, "tokenizer.json");
    if (decoder.type() != element_type::OBJECT) return std::nullopt;  // decoder['type'] on a non-dict: TypeError
    if (!py::equal(py::at(decoder, "type", path, "decoder"), "Sequence")) return std::nullopt;

    // The tokenizer's vocabulary: model.vocab, then the added tokens (added win).
    const py::Elem vocab_el = py::at(model, "vocab", path, "model");
    if (vocab_el.type() != element_type::OBJECT)
        throw Error(ErrorCode::BadJson, "model.vocab: expected an object, got " +
                                            std::string(detail::json_type_name(vocab_el)),
                    path);
    std::vector<std::pair<std::string, std::int64_t>> vocab;  // get_vocab() in dict order
    std::unordered_map<std::string, std::size_t> pos;
    for (const auto& [tok, id_el] : py::items(vocab_el)) {
        const auto id = py::as_int(id_el);
        if (!id) throw Error(ErrorCode::BadJson, "model.vocab: the id of \"" + std::string(tok) + "\" is not an integer", path);
        pos.emplace(std::string(tok), vocab.size());
        vocab.emplace_back(std::string(tok), *id);
    }
    const std::int64_t base = static_cast<std::int64_t>(vocab.size());  // tokenizer.vocab_size

    std::vector<std::pair<std::string, std::int64_t>> added;  // tokenizer.json added_tokens
    if (auto a = py::get(root, "added_tokens", path, "tokenizer.json"); a && !a->is_null()) {
        if (a->type() != element_type::ARRAY) throw Error(ErrorCode::BadJson, "added_tokens: expected an array", path);
        std::size_t k = 0;
        for (py::Elem e : simdjson::dom::array(*a)) {
            const std::string what = "added_tokens[" + std::to_string(k++) + "]";
            const auto content = py::str(py::at(e, "content", path, what));
            const auto id = py::as_int(py::at(e, "id", path, what));
            if (!content || !id || *id < 0) throw Error(ErrorCode::BadJson, what + ": expected a string content and an id", path);
            added.emplace_back(std::string(*content), *id);
            if (auto it = pos.find(added.back().first); it != pos.end()) vocab[it->second].second = *id;
            else {
                pos.emplace(added.back().first, vocab.size());
                vocab.push_back(added.back());
            }
        }
    }
    if (base > static_cast<std::int64_t>(kMaxVocabTokens) || added.size() > kMaxVocabTokens)
        throw Error(ErrorCode::LimitExceeded, "more than " + std::to_string(kMaxVocabTokens) + " tokens", path);

    // get_added_vocab(): {content: id} over the added tokens in id order.
    std::stable_sort(added.begin(), added.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::vector<std::pair<std::string, std::int64_t>> added_vocab;
    {
        std::unordered_map<std::string, std::size_t> seen;
        for (const auto& [content, id] : added) {
            if (auto it = seen.find(content); it != seen.end()) added_vocab[it->second].second = id;
            else {
                seen.emplace(content, added_vocab.size());
                added_vocab.emplace_back(content, id);
            }
        }
    }
    std::stable_sort(added_vocab.begin(), added_vocab.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::vector<std::string> added_list;
    std::set<std::int64_t> added_ids;
    for (const auto& [tok, id] : added_vocab)
        if (id >= base) {
            added_list.push_back(tok);
            added_ids.insert(id);
        }

    std::unordered_map<std::string, std::int64_t> specials;
    std::set<std::int64_t> special_ids;
    for (const auto& s : all_special_tokens(dir))
        if (auto it = pos.find(s); it != pos.end()) {
            specials.emplace(s, vocab[it->second].second);
            special_ids.insert(vocab[it->second].second);
        }

    std::unordered_map<std::int64_t, std::string> reverse;
    for (const auto& [tok, id] : vocab) reverse[id] = tok;

    SpmVocab v;
    v.tokens.reserve(static_cast<std::size_t>(base) + added_list.size());
    for (std::int64_t id = 0; id < base; ++id) {
        if (added_ids.count(id)) continue;
        auto it = reverse.find(id);
        if (it == reverse.end())
            throw Error(ErrorCode::Malformed, "no token has id " + std::to_string(id) + " (model.vocab has " +
                                                  std::to_string(base) + " entries)",
                        path);
        const std::int32_t type = is_byte_token(it->second)       ? t(SpmTokenType::Byte)
                                  : special_ids.count(id) ? t(SpmTokenType::Control)
                                                          : t(SpmTokenType::Normal);
        v.tokens.push_back(it->second);
        v.scores.push_back(-1000.0f);
        v.types.push_back(type);
    }
    for (const auto& text : added_list) {
        std::int32_t type = t(SpmTokenType::UserDefined);
        if (auto it = specials.find(text); it != specials.end())
            type = special_ids.count(it->second) ? t(SpmTokenType::Control) : t(SpmTokenType::Normal);
        v.tokens.push_back(text);
        v.scores.push_back(-1000.0f);
        v.types.push_back(type);
    }
    return v;
}

}  // namespace amn::tok
