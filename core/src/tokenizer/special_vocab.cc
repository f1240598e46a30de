// SPDX-License-Identifier: MIT OR Apache-2.0
// gguf-py vocab.py SpecialVocab: `_load`, `_try_load_from_tokenizer_json`,
// `_try_load_from_config_json`, `_try_load_merges_txt`, `add_to_gguf`.
#include "tokenizer/special_vocab.hpp"

#include "anamnesis/error.hpp"
#include "tokenizer/bpe_vocab.hpp"
#include "tokenizer/py_compat.hpp"

#include <dirent.h>

#include <algorithm>
#include <map>

namespace amn::tok {
namespace {

using simdjson::dom::element_type;
using py::Elem;
using PyVal = std::optional<Elem>;  // a Python value taken from JSON; nullopt = None

/// tokenizer_config.json as the dict SpecialVocab reads and assigns to.
class TokenizerConfig {
public:
    TokenizerConfig() = default;
    explicit TokenizerConfig(Elem root) : root_(root) {}
    bool exists() const { return root_.has_value(); }
    /// `bool(tokenizer_config)`: a non-empty dict.
    bool truthy() const { return root_ && (!overrides_.empty() || py::truthy(*root_)); }
    /// `tokenizer_config.get(key)` (None when absent).
    PyVal get(const std::string& key) const {
        if (auto it = overrides_.find(key); it != overrides_.end()) return it->second;
        if (!root_) return std::nullopt;
        auto v = detail::json_get(*root_, key);
        if (v && v->is_null()) return std::nullopt;
        return v;
    }
    /// `tokenizer_config[key] = value`.
    void set(const std::string& key, PyVal value) { overrides_[key] = value; }
    Elem root() const { return *root_; }

private:
    std::optional<Elem> root_;
    std::map<std::string, PyVal> overrides_;
};

/// `a in (b, c)` over Python values.
bool in2(const PyVal& a, const PyVal& b, const PyVal& c) { return py::equal(a, b) || py::equal(a, c); }

/// `elem.get(kind, {}).get('id')` of one template entry.
PyVal entry_id(Elem entry, std::string_view kind, const std::string& file) {
    const auto inner = py::get(entry, kind, file, "post_processor template entry");
    if (!inner) return std::nullopt;
    auto id = py::get(*inner, "id", file, std::string("post_processor template entry ") + std::string(kind));
    if (id && id->is_null()) return std::nullopt;
    return id;
}

/// A template list (`single` / `pair`) as entries; absent = [].
std::vector<Elem> template_list(Elem processor, std::string_view key, const std::string& file) {
    std::vector<Elem> out;
    const auto v = py::get(processor, key, file, "TemplateProcessing");
    if (!v) return out;
    if (v->type() != element_type::ARRAY)
        throw Error(ErrorCode::BadJson, "TemplateProcessing." + std::string(key) + ": expected an array, got " +
                                            std::string(detail::json_type_name(*v)),
                    file);
    for (Elem e : simdjson::dom::array(*v)) out.push_back(e);
    return out;
}

std::string show(const PyVal& v) {
    if (!v) return "None";
    if (auto s = py::str(v)) return "'" + std::string(*s) + "'";
    return std::string(detail::json_type_name(*v));
}

void set_add(SpecialVocab& sv, const std::string& typ, bool value) {
    for (auto& [k, v] : sv.add_special_token)
        if (k == typ) {
            v = value;
            return;
        }
    sv.add_special_token.emplace_back(typ, value);
}

bool has_type(const SpecialVocab& sv, std::string_view typ) {
    return std::find(sv.special_token_types.begin(), sv.special_token_types.end(), typ) != sv.special_token_types.end();
}

/// `_parse_normalizer`.
void parse_normalizer(SpecialVocab& sv, Elem norm, const std::string& file, unsigned depth) {
    if (depth > 64) throw Error(ErrorCode::BadJson, "normalizer: nested too deeply", file);
    const auto type = py::get(norm, "type", file, "normalizer");
    auto flag = [&](const char* key, std::optional<bool>& out) {
        const auto v = detail::json_get(norm, key);
        if (!v) return;
        if (v->is_null()) out.reset();  // `self.x = None`: nothing written
        else out = py::truthy(*v);       // add_bool packs the value's truth
    };
    if (type && py::equal(*type, "Lowercase")) sv.normalizer_lowercase = true;
    else if (type && py::equal(*type, "StripAccents")) sv.normalizer_strip_accents = true;
    else if (type && py::equal(*type, "BertNormalizer")) {
        flag("lowercase", sv.normalizer_lowercase);
        flag("strip_accents", sv.normalizer_strip_accents);
    } else if (type && py::equal(*type, "Sequence")) {
        const auto list = detail::json_get(norm, "normalizers");
        if (!list) return;
        if (list->type() != element_type::ARRAY)
            throw Error(ErrorCode::BadJson, "normalizer.normalizers: expected an array", file);
        for (Elem n : simdjson::dom::array(*list)) parse_normalizer(sv, n, file, depth + 1);
    }
}

/// RobertaProcessing's `processor.get(key, [fallback])[0]`.
PyVal roberta_first(Elem processor, std::string_view key, const PyVal& fallback, const std::string& file) {
    const auto v = py::get(processor, key, file, "RobertaProcessing");
    if (!v) return fallback;
    if (v->type() != element_type::ARRAY || simdjson::dom::array(*v).size() == 0)
        throw Error(ErrorCode::BadJson, "RobertaProcessing." + std::string(key) + ": expected a [token, id] pair", file);
    Elem first = simdjson::dom::array(*v).at(0).value_unsafe();
    if (first.is_null()) return std::nullopt;
    return first;
}

/// The post-processor part of `_try_load_from_tokenizer_json`.
void read_post_processor(SpecialVocab& sv, Elem post, TokenizerConfig& tc, PyVal& bos, PyVal& cls, PyVal& eos,
                         PyVal& sep, const std::string& file) {
    std::vector<Elem> processors;
    if (const auto list = py::get(post, "processors", file, "post_processor")) {
        if (list->type() != element_type::ARRAY)
            throw Error(ErrorCode::BadJson, "post_processor.processors: expected an array", file);
        for (Elem p : simdjson::dom::array(*list)) processors.push_back(p);
    } else {
        processors.push_back(post);
    }
    for (Elem proc : processors) {
        const auto type = py::get(proc, "type", file, "post_processor");
        if (type && py::equal(*type, "RobertaProcessing")) {
            set_add(sv, "bos", true);
            set_add(sv, "eos", true);
            set_add(sv, "sep", true);
            if (!py::truthy(cls) && tc.truthy()) {
                cls = roberta_first(proc, "cls", bos, file);
                tc.set("cls_token", cls);
            }
            if (!py::truthy(sep) && tc.truthy()) {
                sep = roberta_first(proc, "sep", eos, file);
                tc.set("sep_token", sep);
            }
            continue;
        }
        if (!(type && py::equal(*type, "TemplateProcessing"))) continue;
        const auto single = template_list(proc, "single", file);
        auto pair = template_list(proc, "pair", file);
        PyVal first, last;
        if (single.size() > 1) {
            first = entry_id(single.front(), "SpecialToken", file);
            if (py::truthy(first)) {
                if (!tc.truthy()) {
                    bos = first;
                } else if (!in2(first, bos, cls)) {
                    if (!py::truthy(bos)) tc.set("bos_token", bos = first);
                    if (!py::truthy(cls)) tc.set("cls_token", cls = first);
                }
                set_add(sv, "bos", in2(first, bos, cls));
                if (!in2(first, bos, cls))
                    sv.template_notes.push_back("Unknown leading special token " + show(first) + " in TemplateProcessing<single>");
            }
            last = entry_id(single.back(), "SpecialToken", file);
            if (py::truthy(last)) {
                if (!tc.truthy()) {
                    eos = last;
                } else if (!py::equal(last, eos)) {
                    if (!has_type(sv, "eot")) {
                        sv.special_token_types.push_back("eot");
                        tc.set("eot_token", eos);
                    } else if (!has_type(sv, "eom")) {
                        sv.special_token_types.push_back("eom");
                        tc.set("eom_token", eos);
                    } else {
                        sv.warnings.push_back("Overriding EOS token " + show(eos) + " with " + show(last) +
                                              " without EOT/EOM fallback!");
                    }
                    tc.set("eos_token", eos = last);
                }
                set_add(sv, "eos", py::equal(last, eos));
                if (!py::equal(last, eos))
                    sv.template_notes.push_back("Unknown trailing special token " + show(last) + " in TemplateProcessing<single>");
            }
        }
        if (pair.empty()) continue;
        const bool first_t = py::truthy(first), last_t = py::truthy(last);
        const std::size_t seq_start = (first_t && py::equal(entry_id(pair.front(), "SpecialToken", file), first)) ? 1 : 0;
        const bool stop_one = last_t && py::equal(entry_id(pair.back(), "SpecialToken", file), last);
        if ((first_t && seq_start == 0) || (last_t && !stop_one))
            sv.template_notes.push_back("TemplateProcessing<single> leading/trailing special tokens do not match TemplateProcessing<pair>");
        // tmpl_pair[seq_start:seq_stop]
        const std::size_t end = stop_one ? pair.size() - 1 : pair.size();
        std::vector<Elem> mid;
        for (std::size_t i = seq_start; i < end; ++i) mid.push_back(pair[i]);
        if (mid.empty()) continue;
        const PyVal a = entry_id(mid.front(), "Sequence", file);
        const PyVal b = entry_id(mid.back(), "Sequence", file);
        const bool ab = a && py::equal(*a, "A") && b && py::equal(*b, "B");
        if (!ab) sv.template_notes.push_back("Unknown sequence " + show(a) + "..." + show(b) + " in TemplateProcessing<pair>");
        if (!ab || mid.size() <= 2) continue;  // tmpl_pair[1:-1] empty
        std::vector<Elem> inner(mid.begin() + 1, mid.end() - 1);
        bool add_sep = false;
        if (const PyVal e = entry_id(inner[0], "SpecialToken", file); py::truthy(e)) {
            if (in2(e, sep, eos) && !last_t) add_sep = true;
            if (!in2(e, sep, eos))
                sv.template_notes.push_back("Unknown separator token " + show(e) + " in TemplateProcessing<pair>");
        } else {
            sv.template_notes.push_back("Unknown middle sequence in TemplateProcessing<pair>");
        }
        if (inner.size() == 2) {
            if (const PyVal e = entry_id(inner[1], "SpecialToken", file); py::truthy(e)) {
                if (in2(e, sep, eos)) add_sep = true;
                else sv.template_notes.push_back("Unknown second separator token " + show(e) + " in TemplateProcessing<pair>");
            } else {
                sv.template_notes.push_back("Unknown second middle sequence in TemplateProcessing<pair>");
            }
        }
        set_add(sv, "sep", add_sep);
        if (add_sep && !py::truthy(sep) && tc.truthy()) tc.set("sep_token", eos);
    }
}

/// The list form of a chat template, checked as add_chat_template uses it.
std::vector<NamedChatTemplate> template_list_form(Elem list, const std::string& file) {
    std::vector<NamedChatTemplate> out;
    std::size_t k = 0;
    for (Elem choice : simdjson::dom::array(list)) {
        const std::string what = "chat_template[" + std::to_string(k++) + "]";
        NamedChatTemplate t;
        if (const auto name = py::get(choice, "name", file, what)) {
            const auto s = py::str(name);
            if (!s) throw Error(ErrorCode::BadJson, what + ".name: expected a string", file);
            t.name = std::string(*s);
        }
        if (const auto tpl = py::get(choice, "template", file, what); tpl && !tpl->is_null()) {
            const auto s = py::str(tpl);
            if (!s) throw Error(ErrorCode::BadJson, what + ".template: expected a string", file);
            t.template_ = std::string(*s);
        }
        out.push_back(std::move(t));
    }
    return out;
}

/// `*.jinja` files of `dir`, sorted by name (Path.glob order is the
/// directory's, unspecified; name order makes the output reproducible).
std::vector<std::string> jinja_files(const std::string& dir) {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return names;
    while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n.ends_with(".jinja")) names.push_back(n);  // pathlib's glob matches dot files too
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

/// `_try_load_merges_txt`.
bool load_merges_txt(SpecialVocab& sv, const std::string& dir) {
    const std::string path = dir + "/merges.txt";
    if (!py::is_file(path)) return false;
    const std::string text = py::read_text(path);
    std::vector<std::string_view> lines;
    for (std::size_t p = 0; p < text.size();) {
        std::size_t nl = text.find('\n', p);
        if (nl == std::string::npos) nl = text.size() - 1;
        lines.emplace_back(std::string_view(text).substr(p, nl + 1 - p));
        p = nl + 1;
    }
    std::size_t first = 0, line_num = 0;
    if (!lines.empty() && py::strip(lines[0]).starts_with("#")) {
        first = 1;
        line_num = 1;
    }
    std::vector<std::string> merges;
    for (std::size_t i = first; i < lines.size(); ++i) {
        ++line_num;
        const std::string_view line = py::strip(lines[i]);
        if (line.empty()) continue;
        auto parts = py::split(line);
        if (parts.size() > 4) parts.resize(4);  // split(None, 3): more than two parts either way
        if (parts.size() != 2) {
            sv.warnings.push_back("merges.txt: Line " + std::to_string(line_num) + ": Entry malformed, ignoring");
            continue;
        }
        merges.push_back(std::string(parts[0]) + " " + std::string(parts[1]));
    }
    sv.merges = std::move(merges);
    return true;
}

void load_from_tokenizer_json(SpecialVocab& sv, const std::string& dir, const SpecialVocabOptions& opt) {
    const std::string tj_path = dir + "/tokenizer.json";
    const std::string tc_path = dir + "/tokenizer_config.json";
    std::optional<detail::JsonDoc> tj_doc, tc_doc;
    std::vector<Elem> added_tokens;
    if (py::is_file(tj_path)) {
        tj_doc.emplace(py::load_json(tj_path));
        const Elem tj = tj_doc->root();
        if (tj.type() != element_type::OBJECT)
            throw Error(ErrorCode::BadJson, "tokenizer.json: expected an object", tj_path);
        if (opt.load_merges) sv.merges = bpe_merges(tj_path);
        if (const auto norm = detail::json_get(tj, "normalizer"); norm && py::truthy(*norm))
            parse_normalizer(sv, *norm, tj_path, 0);
        if (const auto added = detail::json_get(tj, "added_tokens")) {
            if (added->type() != element_type::ARRAY) {
                if (py::truthy(*added) || added->is_null())
                    throw Error(ErrorCode::BadJson, "added_tokens: expected an array, got " +
                                                        std::string(detail::json_type_name(*added)),
                                tj_path);
            } else {
                for (Elem a : simdjson::dom::array(*added)) added_tokens.push_back(a);
            }
        }
    }
    TokenizerConfig tc;
    if (py::is_file(tc_path)) {
        tc_doc.emplace(py::load_json(tc_path));
        if (tc_doc->root().type() != element_type::OBJECT)
            throw Error(ErrorCode::BadJson, "tokenizer_config.json: expected an object", tc_path);
        tc = TokenizerConfig(tc_doc->root());
    }
    if (tj_doc && py::truthy(tj_doc->root())) {
        PyVal bos = tc.get("bos_token"), cls = tc.get("cls_token"), eos = tc.get("eos_token"), sep = tc.get("sep_token");
        if (!py::truthy(bos) && py::truthy(cls) && tc.truthy()) tc.set("bos_token", bos = cls);
        if (!py::truthy(eos) && py::truthy(sep) && tc.truthy()) tc.set("eos_token", eos = sep);
        if (const auto post = detail::json_get(tj_doc->root(), "post_processor"); post && py::truthy(*post))
            read_post_processor(sv, *post, tc, bos, cls, eos, sep, tj_path);
    }
    if (!tc.truthy()) return;

    // Chat template: tokenizer_config.json's, else chat_template.jinja (+ additional ones), else chat_template.json.
    std::optional<std::string> alt_str;
    std::optional<std::vector<NamedChatTemplate>> alt_list;
    std::optional<detail::JsonDoc> ct_doc;
    PyVal alt_json;  // chat_template.json's value
    const std::string jinja = dir + "/chat_template.jinja";
    const std::string ct_json = dir + "/chat_template.json";
    if (py::is_file(jinja)) {
        alt_str = py::read_text(jinja);
        const std::string extra_dir = dir + "/additional_chat_templates";
        const auto extra = jinja_files(extra_dir);
        if (!extra.empty()) {
            alt_list = std::vector<NamedChatTemplate>{{"default", *alt_str}};
            alt_str.reset();
            for (const auto& name : extra) {
                const std::string p = extra_dir + "/" + name;
                if (!py::is_file(p)) throw Error(ErrorCode::Io, "not a readable file", p);  // open() fails on it
                // Path.stem: the name without its last suffix (".jinja" alone has none).
                const std::size_t dot = name.rfind('.');
                const std::string stem = (dot > 0 && dot + 1 < name.size()) ? name.substr(0, dot) : name;
                alt_list->push_back({stem, py::read_text(p)});
            }
        }
    } else if (py::is_file(ct_json)) {
        ct_doc.emplace(py::load_json(ct_json));
        alt_json = py::get(ct_doc->root(), "chat_template", ct_json, "chat_template.json");
        if (alt_json && alt_json->is_null()) alt_json.reset();
    }
    const auto own = detail::json_get(tc.root(), "chat_template");
    auto take = [&](Elem v, const std::string& file) {
        if (v.is_null()) return;
        if (auto s = py::str(v)) sv.chat_template = std::string(*s);
        else if (v.type() == element_type::ARRAY) sv.chat_template_list = template_list_form(v, file);
        else sv.warnings.push_back("Bad type for chat_template field in " + tc_path + " - ignoring");
    };
    if (own) take(*own, tc_path);
    else if (alt_str) sv.chat_template = *alt_str;
    else if (alt_list) sv.chat_template_list = *alt_list;
    else if (alt_json) take(*alt_json, ct_json);

    for (std::size_t k = 0; k < sv.special_token_types.size(); ++k) {
        const std::string typ = sv.special_token_types[k];
        if (const PyVal add = tc.get("add_" + typ + "_token"); add && add->type() == element_type::BOOL)
            set_add(sv, typ, bool(*add));
        const PyVal entry = tc.get(typ + "_token");
        std::string content;
        if (auto s = py::str(entry)) {
            content = std::string(*s);
        } else if (entry && entry->type() == element_type::OBJECT) {
            auto c = py::str(detail::json_get(*entry, "content"));
            if (!c) continue;
            content = std::string(*c);
        } else {
            continue;
        }
        PyVal id;
        for (std::size_t i = 0; i < added_tokens.size(); ++i) {
            const std::string what = "added_tokens[" + std::to_string(i) + "]";
            const auto c = py::get(added_tokens[i], "content", tj_path, what);
            if (c && py::equal(*c, content)) {
                id = py::get(added_tokens[i], "id", tj_path, what);
                break;
            }
        }
        sv.set_special_token(typ, py::as_int(id), opt.n_vocab, tj_path);
    }
}

void load_from_config_json(SpecialVocab& sv, const std::string& dir, const SpecialVocabOptions& opt) {
    const std::string path = dir + "/config.json";
    std::optional<detail::JsonDoc> doc;
    if (opt.config_json) {
        doc.emplace(py::parse_json(*opt.config_json, path));
    } else {
        if (!py::is_file(path)) return;
        doc.emplace(py::load_json(path));
    }
    const Elem cfg = doc->root();
    if (cfg.type() != element_type::OBJECT) throw Error(ErrorCode::BadJson, "config.json: expected an object", path);
    for (const auto& typ : sv.special_token_types) {
        const std::string key = typ + "_token_id";
        PyVal id = detail::json_get(cfg, key);
        if (py::is_none(id))
            if (const auto text = detail::json_get(cfg, "text_config")) id = py::get(*text, key, path, "text_config");
        sv.set_special_token(typ, py::as_int(id), opt.n_vocab, path);
    }
}

std::string_view id_key(std::string_view typ) {
    if (typ == "bos") return "tokenizer.ggml.bos_token_id";
    if (typ == "eos") return "tokenizer.ggml.eos_token_id";
    if (typ == "unk") return "tokenizer.ggml.unknown_token_id";
    if (typ == "sep") return "tokenizer.ggml.seperator_token_id";
    if (typ == "pad") return "tokenizer.ggml.padding_token_id";
    if (typ == "mask") return "tokenizer.ggml.mask_token_id";
    if (typ == "eot") return "tokenizer.ggml.eot_token_id";
    if (typ == "eom") return "tokenizer.ggml.eom_token_id";
    return {};
}

std::string_view add_key(std::string_view typ) {
    if (typ == "bos") return "tokenizer.ggml.add_bos_token";
    if (typ == "eos") return "tokenizer.ggml.add_eos_token";
    if (typ == "sep") return "tokenizer.ggml.add_sep_token";
    return {};
}

}  // namespace

void SpecialVocab::set_special_token(std::string_view typ, std::optional<std::int64_t> tid,
                                     std::optional<std::uint64_t> n_vocab, const std::string& file) {
    if (!tid) return;
    if (*tid < 0)
        throw Error(ErrorCode::BadJson,
                    "invalid value for special token type " + std::string(typ) + ": " + std::to_string(*tid), file);
    const auto id = static_cast<std::uint64_t>(*tid);
    if (!n_vocab || id < *n_vocab) {
        for (const auto& [k, v] : special_token_ids)
            if (k == typ) return;
        special_token_ids.emplace_back(std::string(typ), id);
        return;
    }
    warnings.push_back("Special token type " + std::string(typ) + ", id " + std::to_string(id) +
                       " out of range, must be under " + std::to_string(*n_vocab) + " - skipping");
}

SpecialVocab load_special_vocab(const std::string& dir, const SpecialVocabOptions& opt) {
    SpecialVocab sv;
    sv.special_token_types = opt.special_token_types;
    load_from_tokenizer_json(sv, dir, opt);
    load_from_config_json(sv, dir, opt);
    if (opt.load_merges && sv.merges.empty()) load_merges_txt(sv, dir);
    return sv;
}

void kv_put(std::vector<MetaKv>& kvs, std::string key, MetaValue value) {
    for (auto& kv : kvs)
        if (kv.key == key) {
            kv.value = std::move(value);
            return;
        }
    kvs.push_back({std::move(key), std::move(value)});
}

void add_special_vocab_kvs(const SpecialVocab& sv, std::vector<MetaKv>& kvs, const std::string& dir) {
    if (!sv.merges.empty()) {
        MetaValue m = MetaValue::strings({});
        std::size_t bytes = 0;
        for (const auto& s : sv.merges) bytes += s.size();
        m.reserve(sv.merges.size(), bytes);
        for (const auto& s : sv.merges) m.push_string(s);
        kv_put(kvs, "tokenizer.ggml.merges", std::move(m));
    }
    for (const auto& [typ, id] : sv.special_token_ids) {
        const auto key = id_key(typ);
        if (key.empty()) continue;  // no GGUF key for this type (cls, prefix …): skipped
        if (id > UINT32_MAX)
            throw Error(ErrorCode::OutOfRange, "special token id " + std::to_string(id) + " of type " + typ +
                                                   " does not fit a UINT32",
                        dir);
        kv_put(kvs, std::string(key), MetaValue::u32(static_cast<std::uint32_t>(id)));
    }
    for (const auto& [typ, value] : sv.add_special_token) {
        const auto key = add_key(typ);
        if (key.empty()) continue;
        kv_put(kvs, std::string(key), MetaValue::boolean(value));
    }
    if (sv.chat_template) {
        kv_put(kvs, "tokenizer.chat_template", MetaValue::string(*sv.chat_template));
    } else if (sv.chat_template_list) {
        std::optional<std::string> def;
        std::vector<std::string> names;  // a Python set: first-seen order here
        for (const auto& c : *sv.chat_template_list) {
            std::string name;
            for (std::size_t i = 0; i < c.name.size();) {
                const char32_t cp = py::next_code_point(c.name, i);
                const bool keep = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
                name += keep ? static_cast<char>(cp) : '_';
            }
            if (name.empty() || !c.template_) continue;
            if (name == "default") {
                def = *c.template_;
            } else {
                if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
                kv_put(kvs, "tokenizer.chat_template." + name, MetaValue::string(*c.template_));
            }
        }
        if (!names.empty()) kv_put(kvs, "tokenizer.chat_templates", MetaValue::strings(names));
        if (def) kv_put(kvs, "tokenizer.chat_template", MetaValue::string(*def));
    }
    if (sv.normalizer_lowercase)
        kv_put(kvs, "tokenizer.ggml.normalizer.lowercase", MetaValue::boolean(*sv.normalizer_lowercase));
    if (sv.normalizer_strip_accents)
        kv_put(kvs, "tokenizer.ggml.normalizer.strip_accents", MetaValue::boolean(*sv.normalizer_strip_accents));
}

}  // namespace amn::tok
