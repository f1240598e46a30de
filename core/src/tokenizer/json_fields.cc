// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/json_fields.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"

namespace amn::tok {

std::string required_type(simdjson::dom::element e, std::string_view what, const std::string& file) {
    if (!e.is_object()) throw Error(ErrorCode::BadJson, std::string(what) + ": expected an object", file);
    auto t = detail::json_string(e, "type", file);
    if (!t) throw Error(ErrorCode::BadJson, std::string(what) + ": no \"type\"", file);
    return *t;
}

simdjson::dom::array required_array(simdjson::dom::element e, std::string_view key, std::string_view what,
                                    const std::string& file) {
    auto m = detail::json_get(e, key);
    simdjson::dom::array a;
    if (!m || m->get(a))
        throw Error(ErrorCode::BadJson, std::string(what) + ": \"" + std::string(key) + "\" must be an array", file);
    return a;
}

std::string required_string(simdjson::dom::element e, std::string_view key, std::string_view what,
                            const std::string& file) {
    auto s = detail::json_string(e, key, file);
    if (!s) throw Error(ErrorCode::BadJson, std::string(what) + ": \"" + std::string(key) + "\" missing", file);
    return *s;
}

std::shared_ptr<const Regex> parse_pattern(simdjson::dom::element e, std::string_view what, const std::string& file) {
    auto p = detail::json_get(e, "pattern");
    if (!p || !p->is_object())
        throw Error(ErrorCode::BadJson, std::string(what) + ": \"pattern\" must be {\"Regex\": …} or {\"String\": …}", file);
    if (auto r = detail::json_string(*p, "Regex", file)) return std::make_shared<const Regex>(*r, file);
    if (auto s = detail::json_string(*p, "String", file))
        return std::make_shared<const Regex>(Regex::literal(*s, file));
    throw Error(ErrorCode::BadJson, std::string(what) + ": \"pattern\" must be {\"Regex\": …} or {\"String\": …}", file);
}

}  // namespace amn::tok
