// SPDX-License-Identifier: MIT OR Apache-2.0
// gguf-py Metadata.load / apply_metadata_heuristic / set_gguf_meta_model and
// conversion/base.py ModelBase.prepare_metadata, for a local HF folder.
#include "arch/general_kvs.hpp"

#include "anamnesis/error.hpp"
#include "arch/model_card.hpp"
#include "arch/model_naming.hpp"
#include "util/json_dom.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <iterator>
#include <algorithm>

namespace amn::arch {

namespace {

using Kind = CardValue::Kind;
namespace fs = std::filesystem;

CardValue py_str(std::string s) {
    CardValue v;
    v.kind = Kind::Str;
    v.s = std::move(s);
    return v;
}

// The Metadata fields the heuristics fill (None = Kind::None). Values from
// the model card keep their YAML type, as in Python.
struct Meta {
    CardValue name, author, version, organization, finetune, basename, description, size_label;
    CardValue source_url, source_doi, source_uuid, source_repo_url;
    CardValue license, license_name, license_link;
    std::optional<std::vector<CardValue>> base_models, datasets, tags, languages;
};

bool is_none(const CardValue& v) { return v.kind == Kind::None; }

// use_model_card_metadata(field, key): copy when the key exists and the field is still None.
void use_card(CardValue& field, const CardValue& card, std::string_view key) {
    if (const CardValue* v = card.get(key); v && is_none(field)) field = *v;
}

// use_array_model_card_metadata(field, key): append a string, extend with a list.
void use_card_array(std::optional<std::vector<CardValue>>& field, const CardValue& card, std::string_view key) {
    const CardValue* v = card.get(key);
    if (!v || is_none(*v)) return;
    if (!field) field.emplace();
    if (v->kind == Kind::Str) field->push_back(*v);
    else if (v->kind == Kind::List) field->insert(field->end(), v->items.begin(), v->items.end());
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// re.match(r"https?://huggingface.co/([^/]+/[^/]+)$", url) → the group.
std::optional<std::string> hf_url_id(std::string_view url) {
    std::size_t i;
    if (starts_with(url, "https://huggingface")) i = 19;
    else if (starts_with(url, "http://huggingface")) i = 18;
    else return std::nullopt;
    if (i >= url.size() || url[i] == '\n') return std::nullopt;  // '.' of the pattern
    ++i;
    if (url.substr(i, 3) != "co/") return std::nullopt;
    const std::string_view rest = url.substr(i + 3);
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 >= rest.size()) return std::nullopt;
    if (rest.find('/', slash + 1) != std::string_view::npos) return std::nullopt;
    return std::string(rest);
}

void set_str(CardValue& dict, const std::string& key, std::string value) {
    dict.dict.push_back(CardEntry{key, py_str(std::move(value))});
}

// One base_model / dataset entry of the model card, as apply_metadata_heuristic builds it.
CardValue source_entry(const CardValue& id, std::int64_t total, bool is_dataset, std::vector<std::string>& warnings) {
    CardValue e;
    e.kind = Kind::Dict;
    if (id.kind == Kind::Dict) return id;
    if (id.kind != Kind::Str) {
        warnings.push_back(std::string("README.md: ") + (is_dataset ? "dataset" : "base model") + " entry of type " +
                           id.type_name() + " not in a known format (written as an empty entry)");
        return e;
    }
    const std::string& s = id.s;
    if (starts_with(s, "http://") || starts_with(s, "https://") || starts_with(s, "ssh://")) {
        set_str(e, "repo_url", s);
        if (s.find("huggingface.co") != std::string::npos) {
            if (const auto hf = hf_url_id(s)) {
                const ModelIdParts p = model_id_components(*hf, total);
                if (p.full_name) set_str(e, "name", id_to_title(*p.full_name));
                if (p.organization) set_str(e, "organization", id_to_title(*p.organization));
                if (p.version) set_str(e, "version", *p.version);
            }
        }
        return e;
    }
    const ModelIdParts p = model_id_components(s, total);
    if (p.full_name) set_str(e, "name", id_to_title(*p.full_name));
    if (p.organization) set_str(e, "organization", id_to_title(*p.organization));
    if (p.version) set_str(e, "version", *p.version);
    if (p.organization && p.full_name) set_str(e, "repo_url", "https://huggingface.co/" + *p.organization + "/" + *p.full_name);
    return e;
}

void sources(std::optional<std::vector<CardValue>>& field, const CardValue& card, const char* k1, const char* k2,
             const char* k3, std::int64_t total, bool is_dataset, std::vector<std::string>& warnings) {
    const CardValue* v = card.get(k1);
    if (!v) v = card.get(k2);
    if (!v) v = card.get(k3);
    if (!v) return;
    std::vector<CardValue> ids;
    if (v->kind == Kind::Str) ids.push_back(*v);
    else if (v->kind == Kind::List) ids = v->items;
    if (!field) field.emplace();
    for (const CardValue& id : ids) field->push_back(source_entry(id, total, is_dataset, warnings));
}

void apply_card(Meta& m, const CardValue& card, std::int64_t total, std::vector<std::string>& warnings) {
    // llama.cpp's own keys
    use_card(m.name, card, "name");
    use_card(m.author, card, "author");
    use_card(m.version, card, "version");
    use_card(m.organization, card, "organization");
    use_card(m.description, card, "description");
    use_card(m.finetune, card, "finetune");
    use_card(m.basename, card, "basename");
    use_card(m.size_label, card, "size_label");
    use_card(m.source_url, card, "url");
    use_card(m.source_doi, card, "doi");
    use_card(m.source_uuid, card, "uuid");
    use_card(m.source_repo_url, card, "repo_url");
    // the same with model_
    use_card(m.name, card, "model_name");
    use_card(m.author, card, "model_author");
    use_card(m.version, card, "model_version");
    use_card(m.organization, card, "model_organization");
    use_card(m.description, card, "model_description");
    use_card(m.finetune, card, "model_finetune");
    use_card(m.basename, card, "model_basename");
    use_card(m.size_label, card, "model_size_label");
    use_card(m.source_url, card, "model_url");
    use_card(m.source_doi, card, "model_doi");
    use_card(m.source_uuid, card, "model_uuid");
    use_card(m.source_repo_url, card, "model_repo_url");
    // seen in the wild (TheBloke)
    use_card(m.author, card, "model_creator");
    use_card(m.basename, card, "model_type");

    sources(m.base_models, card, "base_model", "base_models", "base_model_sources", total, false, warnings);
    sources(m.datasets, card, "datasets", "dataset", "dataset_sources", total, true, warnings);

    use_card(m.license, card, "license");
    use_card(m.license_name, card, "license_name");
    use_card(m.license_link, card, "license_link");
    use_card_array(m.tags, card, "tags");
    use_card_array(m.tags, card, "pipeline_tag");
    use_card_array(m.languages, card, "languages");
    use_card_array(m.languages, card, "language");
}

// The _name_or_path and folder-name heuristics: fill what is still None.
void apply_id(Meta& m, std::string_view id, std::int64_t total) {
    const ModelIdParts p = model_id_components(id, total);
    if (is_none(m.name) && p.full_name) m.name = py_str(id_to_title(*p.full_name));
    if (is_none(m.organization) && p.organization) m.organization = py_str(id_to_title(*p.organization));
    if (is_none(m.basename) && p.basename) m.basename = py_str(*p.basename);
    if (is_none(m.finetune) && p.finetune) m.finetune = py_str(*p.finetune);
    if (is_none(m.version) && p.version) m.version = py_str(*p.version);
    if (is_none(m.size_label) && p.size_label) m.size_label = py_str(*p.size_label);
}

// ---- writing (GGUFWriter.add_string / add_array / _pack_val) ----

struct Writer {
    std::vector<MetaKv>& kvs;
    const std::string& readme;  // the file non-string values come from

    [[noreturn]] void unwritable(const std::string& key, const std::string& why) const {
        throw Error(ErrorCode::Unsupported, "README.md front matter: cannot write " + key + ": " + why, readme);
    }

    // add_string: falsy values are skipped; anything truthy but a str fails in the writer.
    void string(const std::string& key, const CardValue& v) const {
        if (!v.truthy()) return;
        if (v.kind != Kind::Str) unwritable(key, "a " + v.type_name() + " where a string goes");
        kvs.push_back({key, MetaValue::string(v.s)});
    }

    static const char* elem_kind(const CardValue& v) {
        switch (v.kind) {
            case Kind::Str: return "STRING";
            case Kind::List: return "ARRAY";
            case Kind::Float: return "FLOAT32";
            case Kind::Bool: return "BOOL";
            case Kind::Int: return "INT32";
            default: return nullptr;
        }
    }

    MetaValue array_value(const std::string& key, const std::vector<CardValue>& items) const {
        if (items.empty()) unwritable(key, "an empty nested array");
        const char* kind = elem_kind(items[0]);
        for (const CardValue& it : items) {
            const char* k = elem_kind(it);
            if (!k) unwritable(key, "an element of unknown type " + it.type_name());
            if (std::string_view(k) != kind) unwritable(key, "all items in a GGUF array should be of the same type");
        }
        std::vector<MetaValue> out;
        out.reserve(items.size());
        GgufType elem = GgufType::String;
        for (const CardValue& it : items) {
            switch (it.kind) {
                case Kind::Str: out.push_back(MetaValue::string(it.s)); break;
                case Kind::Bool:
                    elem = GgufType::Bool;
                    out.push_back(MetaValue::boolean(it.b));
                    break;
                case Kind::Int:
                    elem = GgufType::I32;
                    if (it.big || it.i < std::numeric_limits<std::int32_t>::min() ||
                        it.i > std::numeric_limits<std::int32_t>::max())
                        unwritable(key, "an integer outside INT32");
                    out.push_back(MetaValue::i32(static_cast<std::int32_t>(it.i)));
                    break;
                case Kind::Float: {
                    elem = GgufType::F32;
                    const auto f = static_cast<float>(it.f);
                    if (std::isinf(f) && !std::isinf(it.f)) unwritable(key, "a float too large for FLOAT32");
                    out.push_back(MetaValue::f32(f));
                    break;
                }
                case Kind::List:
                    elem = GgufType::Array;
                    out.push_back(array_value(key, it.items));
                    break;
                default: break;
            }
        }
        return MetaValue::array(elem, out);
    }

    // add_array: an empty list is skipped.
    void array(const std::string& key, const std::optional<std::vector<CardValue>>& v) const {
        if (!v || v->empty()) return;
        kvs.push_back({key, array_value(key, *v)});
    }

    void sources(const char* what, const std::optional<std::vector<CardValue>>& list) const {
        if (!list) return;
        const std::string base = std::string("general.") + what;
        kvs.push_back({base + ".count", MetaValue::u32(static_cast<std::uint32_t>(list->size()))});
        for (std::size_t i = 0; i < list->size(); ++i) {
            const CardValue& e = (*list)[i];
            for (const char* field : {"name", "author", "version", "organization", "description", "url", "doi", "uuid",
                                      "repo_url"})
                if (const CardValue* v = e.get(field)) string(base + "." + std::to_string(i) + "." + field, *v);
        }
    }
};

// ---- generation_config.json ----

CardValue json_py(simdjson::dom::element e) {
    CardValue v;
    switch (e.type()) {
        case simdjson::dom::element_type::INT64:
            v.kind = Kind::Int;
            v.i = std::int64_t(e);
            break;
        case simdjson::dom::element_type::UINT64:
            v.kind = Kind::Int;
            v.big = true;  // above INT64_MAX
            v.f = static_cast<double>(std::uint64_t(e));
            break;
        case simdjson::dom::element_type::DOUBLE:
            v.kind = Kind::Float;
            v.f = double(e);
            break;
        case simdjson::dom::element_type::BOOL:
            v.kind = Kind::Bool;
            v.b = bool(e);
            break;
        case simdjson::dom::element_type::STRING:
            v.kind = Kind::Str;
            v.s = std::string(std::string_view(e));
            break;
        case simdjson::dom::element_type::ARRAY:
            v.kind = Kind::List;
            for (auto item : simdjson::dom::array(e)) v.items.push_back(json_py(item));
            break;
        case simdjson::dom::element_type::OBJECT:
            v.kind = Kind::Dict;
            for (auto field : simdjson::dom::object(e)) v.dict.push_back(CardEntry{std::string(field.key), CardValue{}});
            break;
        case simdjson::dom::element_type::NULL_VALUE: break;
    }
    return v;
}

void sampling(std::vector<MetaKv>& kvs, const std::string& file, simdjson::dom::element root) {
    enum class T { Str, I32, F32 };
    struct Key {
        const char* json;
        const char* gguf;
        T type;
    };
    static constexpr Key kKeys[] = {
        {"sequence", "general.sampling.sequence", T::Str},
        {"top_k", "general.sampling.top_k", T::I32},
        {"top_p", "general.sampling.top_p", T::F32},
        {"min_p", "general.sampling.min_p", T::F32},
        {"xtc_probability", "general.sampling.xtc_probability", T::F32},
        {"xtc_threshold", "general.sampling.xtc_threshold", T::F32},
        {"temperature", "general.sampling.temp", T::F32},
        {"penalty_last_n", "general.sampling.penalty_last_n", T::I32},
        {"penalty_repeat", "general.sampling.penalty_repeat", T::F32},
        {"mirostat", "general.sampling.mirostat", T::I32},
        {"mirostat_tau", "general.sampling.mirostat_tau", T::F32},
        {"mirostat_eta", "general.sampling.mirostat_eta", T::F32},
    };
    for (const Key& k : kKeys) {
        const auto e = detail::json_get(root, k.json);
        if (!e) continue;
        const CardValue v = json_py(*e);
        if (v.kind == Kind::None) continue;
        auto bad = [&](const std::string& why) {
            throw Error(ErrorCode::BadJson,
                        std::string(k.json) + ": " + why + " (the converter cannot write " + k.gguf + ")", file);
        };
        switch (k.type) {
            case T::Str:
                if (!v.truthy()) break;
                if (v.kind != Kind::Str) bad("expected a string, got " + std::string(detail::json_type_name(*e)));
                kvs.push_back({k.gguf, MetaValue::string(v.s)});
                break;
            case T::I32: {
                std::int64_t i = 0;
                if (v.kind == Kind::Bool) i = v.b ? 1 : 0;
                else if (v.kind == Kind::Int && !v.big) i = v.i;
                else if (v.kind == Kind::Int) bad("integer outside INT32");
                else bad("expected an integer, got " + std::string(detail::json_type_name(*e)));
                if (i < std::numeric_limits<std::int32_t>::min() || i > std::numeric_limits<std::int32_t>::max())
                    bad("integer outside INT32");
                kvs.push_back({k.gguf, MetaValue::i32(static_cast<std::int32_t>(i))});
                break;
            }
            case T::F32: {
                double d = 0;
                if (v.kind == Kind::Bool) d = v.b ? 1.0 : 0.0;
                else if (v.kind == Kind::Int) d = v.big ? v.f : static_cast<double>(v.i);
                else if (v.kind == Kind::Float) d = v.f;
                else bad("expected a number, got " + std::string(detail::json_type_name(*e)));
                const auto f = static_cast<float>(d);
                if (std::isinf(f) && !std::isinf(d)) bad("float too large to pack as FLOAT32");
                kvs.push_back({k.gguf, MetaValue::f32(f)});
                break;
            }
        }
    }
}

std::string in_folder(const std::string& folder, const char* name) { return (fs::path(folder) / name).string(); }

// Python's str() of a falsy value (a size label of 0, False, [] … is formatted into the file name).
std::string py_falsy_text(const CardValue& v) {
    switch (v.kind) {
        case Kind::Bool: return "False";
        case Kind::Int: return "0";
        case Kind::Float: return std::signbit(v.f) ? "-0.0" : "0.0";
        case Kind::List: return "[]";
        case Kind::Dict: return "{}";
        default: return v.s;
    }
}

void naming_field(std::optional<std::string>& out, std::set<std::string>& non_string, const char* field,
                  const CardValue& v) {
    if (v.kind == Kind::None) return;
    if (v.kind == Kind::Str) {
        out = v.s;
    } else if (std::string_view(field) == "size_label") {
        out = py_falsy_text(v);
    } else {
        non_string.insert(field);
    }
}

}  // namespace

GeneralInputs read_general_inputs(const std::string& folder, const ParamCounts& params) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw Error(ErrorCode::NotRegularFile, "not a directory (a Hugging Face model folder is needed)", folder);
    GeneralInputs in;
    in.folder = folder;
    in.params = params;
    auto read = [&](const char* name) -> std::optional<std::string> {
        const std::string path = in_folder(folder, name);
        std::error_code fec;
        if (!fs::is_regular_file(path, fec)) return std::nullopt;
        std::ifstream f(path, std::ios::binary);
        if (!f) throw Error(ErrorCode::Io, "cannot open the file", path);
        std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (f.bad()) throw Error(ErrorCode::Io, "cannot read the file", path);
        return text;
    };
    in.config_json = read("config.json");
    in.readme = read("README.md");
    in.generation_config_json = read("generation_config.json");
    return in;
}

GeneralKvs general_kvs(const GeneralInputs& in) {
    GeneralKvs out;
    const std::int64_t total = in.params.total;
    const std::string readme_file = in_folder(in.folder, "README.md");
    Meta m;

    // Model card
    if (in.readme) {
        std::string warning;
        const CardValue card = read_model_card(*in.readme, readme_file, &warning);
        if (!warning.empty()) out.warnings.push_back(warning);
        apply_card(m, card, total, out.warnings);
    }
    // config.json _name_or_path (at most one '/': a model id, not a local path)
    if (in.config_json) {
        const std::string file = in_folder(in.folder, "config.json");
        const detail::JsonDoc doc(*in.config_json, file, "config.json");
        if (doc.root().type() != simdjson::dom::element_type::OBJECT)
            throw Error(ErrorCode::BadJson, "config.json is not a JSON object", file);
        if (const auto e = detail::json_get(doc.root(), "_name_or_path"); e && !e->is_null()) {
            if (!e->is_string())
                throw Error(ErrorCode::BadJson,
                            "_name_or_path: expected a string, got " + std::string(detail::json_type_name(*e)), file);
            const std::string_view id = std::string_view(*e);
            if (std::count(id.begin(), id.end(), '/') <= 1) apply_id(m, id, total);
        }
    }
    // The folder's name
    apply_id(m, path_name(in.folder), total);

    // Sampling parameters
    std::vector<MetaKv> sampling_kvs;
    if (in.generation_config_json) {
        const std::string file = in_folder(in.folder, "generation_config.json");
        std::optional<detail::JsonDoc> doc;
        try {
            doc.emplace(*in.generation_config_json, file, "generation_config.json");
        } catch (const Error& e) {
            out.warnings.push_back(std::string(e.what()) + " (ignored, as the converter does)");
        }
        if (doc) {
            const CardValue root = json_py(doc->root());
            if (root.kind == Kind::Dict) sampling(sampling_kvs, file, doc->root());
            else if (root.truthy())
                throw Error(ErrorCode::BadJson, "generation_config.json is not a JSON object", file);
        }
    }

    if (in.model_name) m.name = py_str(*in.model_name);
    if (is_none(m.name)) m.name = py_str(path_name(in.folder));
    if (is_none(m.size_label) && total > 0)
        m.size_label = py_str(size_label(total, in.params.shared, in.params.expert, in.params.expert_count));

    // set_type + set_gguf_meta_model
    out.kvs.push_back({"general.type", MetaValue::string("model")});
    out.kvs.insert(out.kvs.end(), sampling_kvs.begin(), sampling_kvs.end());
    const Writer w{out.kvs, readme_file};
    w.string("general.name", m.name);
    w.string("general.author", m.author);
    w.string("general.version", m.version);
    w.string("general.organization", m.organization);
    w.string("general.finetune", m.finetune);
    w.string("general.basename", m.basename);
    w.string("general.description", m.description);
    w.string("general.size_label", m.size_label);
    if (m.license.kind == Kind::List) {
        std::string joined;
        for (std::size_t i = 0; i < m.license.items.size(); ++i) {
            const CardValue& it = m.license.items[i];
            if (it.kind != Kind::Str) w.unwritable("general.license", "a license list with a " + it.type_name());
            if (i) joined += ',';
            joined += it.s;
        }
        w.string("general.license", py_str(joined));
    } else {
        w.string("general.license", m.license);
    }
    w.string("general.license.name", m.license_name);
    w.string("general.license.link", m.license_link);
    w.string("general.source.url", m.source_url);
    w.string("general.source.doi", m.source_doi);
    w.string("general.source.uuid", m.source_uuid);
    w.string("general.source.repo_url", m.source_repo_url);
    w.sources("base_model", m.base_models);
    w.sources("dataset", m.datasets);
    w.array("general.tags", m.tags);
    w.array("general.languages", m.languages);

    naming_field(out.naming.name, out.naming.non_string, "name", m.name);
    naming_field(out.naming.basename, out.naming.non_string, "basename", m.basename);
    naming_field(out.naming.finetune, out.naming.non_string, "finetune", m.finetune);
    naming_field(out.naming.version, out.naming.non_string, "version", m.version);
    naming_field(out.naming.size_label, out.naming.non_string, "size_label", m.size_label);
    return out;
}

}  // namespace amn::arch
