// SPDX-License-Identifier: MIT OR Apache-2.0
#include "util/json_util.hpp"

#include <set>

namespace amn::detail {

void check_json(simdjson::error_code e, std::string_view what, const std::string& file, const std::string& tensor) {
    if (e != simdjson::SUCCESS)
        throw Error(ErrorCode::BadJson, std::string(what) + ": " + simdjson::error_message(e), file, tensor);
}

OnDemandObject::OnDemandObject(std::string_view text, std::string_view invalid, std::string_view not_object,
                               const std::string& file, const std::string& tensor, simdjson::ondemand::parser* parser)
    : json_(text) {
    if (!parser) {
        own_ = std::make_unique<simdjson::ondemand::parser>();
        parser = own_.get();
    }
    check_json(parser->iterate(json_).get(doc_), invalid, file, tensor);
    check_json(doc_.get_object().get(root_), not_object, file, tensor);
}

static std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string_view raw_text(simdjson::ondemand::value v, const std::string& file) {
    simdjson::ondemand::json_type t{};
    check_json(v.type().get(t), "invalid JSON value", file);
    std::string_view s;
    if (t == simdjson::ondemand::json_type::object) {
        simdjson::ondemand::object o;
        check_json(v.get_object().get(o), "invalid JSON object", file);
        check_json(o.raw_json().get(s), "invalid JSON object", file);
    } else if (t == simdjson::ondemand::json_type::array) {
        simdjson::ondemand::array a;
        check_json(v.get_array().get(a), "invalid JSON array", file);
        check_json(a.raw_json().get(s), "invalid JSON array", file);
    } else {
        s = v.raw_json_token();
    }
    return trim(s);
}

static void flatten_value(simdjson::ondemand::value v, const std::string& key,
                          std::map<std::string, std::string>& out, const std::string& file, int depth,
                          std::vector<std::string>* dups) {
    if (depth > 32) throw Error(ErrorCode::LimitExceeded, "JSON nested deeper than 32 levels", file);
    simdjson::ondemand::json_type t{};
    check_json(v.type().get(t), "invalid JSON value", file);
    switch (t) {
        case simdjson::ondemand::json_type::object: {
            simdjson::ondemand::object o;
            check_json(v.get_object().get(o), "invalid JSON object", file);
            flatten_object(o, key, out, file, depth + 1, dups);
            break;
        }
        case simdjson::ondemand::json_type::array: {
            simdjson::ondemand::array a;
            check_json(v.get_array().get(a), "invalid JSON array", file);
            std::size_t i = 0;
            for (auto el : a) {
                simdjson::ondemand::value ev;
                check_json(el.get(ev), "invalid JSON array element", file);
                flatten_value(ev, key + "." + std::to_string(i++), out, file, depth + 1, dups);
            }
            break;
        }
        case simdjson::ondemand::json_type::string: {
            std::string_view s;
            check_json(v.get_string().get(s), "invalid JSON string", file);
            out[key] = std::string(s);
            break;
        }
        case simdjson::ondemand::json_type::null:
            out[key] = "null";
            break;
        default:
            out[key] = std::string(trim(v.raw_json_token()));
    }
}

void flatten_object(simdjson::ondemand::object obj, const std::string& prefix,
                    std::map<std::string, std::string>& out, const std::string& file, int depth,
                    std::vector<std::string>* dups) {
    std::set<std::string> seen;
    for (auto field : obj) {
        std::string_view k;
        check_json(field.unescaped_key().get(k), "invalid JSON key", file);
        std::string key(k);
        const std::string dotted = prefix.empty() ? key : prefix + "." + key;
        if (!seen.insert(key).second) {
            if (!dups) throw Error(ErrorCode::BadJson, "duplicate key \"" + key + "\"", file);
            // Python's json: the later value replaces the earlier one whole.
            dups->push_back(dotted);
            out.erase(dotted);
            const std::string under = dotted + ".";
            for (auto it = out.lower_bound(under); it != out.end() && it->first.compare(0, under.size(), under) == 0;)
                it = out.erase(it);
        }
        simdjson::ondemand::value v;
        check_json(field.value().get(v), "invalid JSON value", file);
        flatten_value(v, dotted, out, file, depth, dups);
    }
}

void validate_json_document(std::string_view text, const std::string& file) {
    simdjson::dom::parser parser;
    simdjson::padded_string padded(text);
    simdjson::dom::element root;
    const auto err = parser.parse(padded).get(root);
    if (err) throw Error(ErrorCode::BadJson, std::string("not valid JSON: ") + simdjson::error_message(err), file);
}

void write_config_members(std::string_view config_json, JsonWriter& w,
                          const std::function<std::optional<std::string>(const std::string& key)>& replace) {
    namespace od = simdjson::ondemand;
    OnDemandObject json(config_json, "config.json is not valid JSON", "config.json is not a JSON object");
    od::object& root = json.root();
    // A repeated key: one member, at its first place with its last value, as
    // Python's json.load + json.dump would write it.
    // (key, the value's JSON text: a view of config_json or of `replaced`).
    std::vector<std::pair<std::string, std::string_view>> members;
    std::map<std::string, std::size_t> at;
    std::map<std::string, std::string> replaced;  // key → its new value's JSON text
    for (auto field : root) {
        std::string_view key;
        check_json(field.unescaped_key().get(key), "config.json: invalid key");
        std::string k(key);
        od::value v;
        check_json(field.value().get(v), "config.json: invalid value");
        if (k == "quantization_config" || k == "compression_config") continue;
        if (k == "quantization") {  // MLX's (mlx-lm save_config), when it is an object
            simdjson::ondemand::json_type t{};
            if (v.type().get(t) == simdjson::SUCCESS && t == simdjson::ondemand::json_type::object) continue;
        }
        if (replaced.count(k)) continue;
        if (auto v_new = replace ? replace(k) : std::nullopt) {
            // Its first place, the new value (a repeated key is not asked again).
            const auto& text = replaced.emplace(k, std::move(*v_new)).first->second;
            at.emplace(k, members.size());
            members.emplace_back(std::move(k), text);
            continue;
        }
        const std::string_view raw = raw_text(v, "config.json");
        if (auto it = at.find(k); it != at.end()) {
            members[it->second].second = raw;
        } else {
            at.emplace(k, members.size());
            members.emplace_back(std::move(k), raw);
        }
    }
    for (const auto& [k, raw] : members) w.key(k).raw(raw);
}

}  // namespace amn::detail
