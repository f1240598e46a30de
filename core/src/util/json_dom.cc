// SPDX-License-Identifier: MIT OR Apache-2.0
#include "util/json_dom.hpp"

#include <fstream>
#include <iterator>
#include <set>

namespace amn::detail {

namespace {
// Python's json reads integers of any size; simdjson refuses those beyond 64
// bits (NUMBER_ERROR; e.g. tokenizer_config.json "model_max_length":
// 1000000000000000019884624838656). Such literals are read as doubles instead
// (an integer literal outside strings that does not fit gets ".0"): their
// value is then approximate, which no caller of these side files relies on.
std::string widen_big_integers(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    bool in_string = false;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (in_string) {
            out.push_back(c);
            if (c == '\\' && i + 1 < text.size()) out.push_back(text[++i]);
            else if (c == '"') in_string = false;
            ++i;
            continue;
        }
        if (c == '"') {
            in_string = true;
            out.push_back(c);
            ++i;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            std::size_t j = i + (c == '-' ? 1 : 0);
            while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
            const bool integer = j == text.size() || (text[j] != '.' && text[j] != 'e' && text[j] != 'E');
            out.append(text.substr(i, j - i));
            if (integer && j - i > 18) out.append(".0");
            i = j;
            continue;
        }
        out.push_back(c);
        ++i;
    }
    return out;
}
}  // namespace

JsonDoc::JsonDoc(std::string_view text, std::string file, std::string_view what)
    : parser_(std::make_unique<simdjson::dom::parser>()), file_(std::move(file)) {
    simdjson::padded_string padded(text);
    auto r = parser_->parse(padded);
    if (r.error() == simdjson::NUMBER_ERROR) {
        std::string widened = widen_big_integers(text);
        if (widened != text) {
            padded = simdjson::padded_string(widened);
            r = parser_->parse(padded);
        }
    }
    if (r.error())
        throw Error(ErrorCode::BadJson, std::string(what) + " is not valid JSON (" + simdjson::error_message(r.error()) + ")",
                    file_);
    root_ = r.value_unsafe();
}

JsonDoc JsonDoc::load(const std::string& path, std::string_view what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::Io, "cannot read " + std::string(what), path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(ErrorCode::Io, "cannot read " + std::string(what), path);
    return JsonDoc(text, path, what);
}

std::optional<simdjson::dom::element> json_get(simdjson::dom::element obj, std::string_view key) noexcept {
    simdjson::dom::object o;
    if (obj.get(o)) return std::nullopt;
    std::optional<simdjson::dom::element> found;
    for (auto field : o)
        if (field.key == key) found = field.value;
    return found;
}

std::vector<std::string> json_dup_keys(simdjson::dom::element obj) {
    std::vector<std::string> dups;
    simdjson::dom::object o;
    if (obj.get(o)) return dups;
    std::set<std::string_view> seen, reported;
    for (auto field : o)
        if (!seen.insert(field.key).second && reported.insert(field.key).second) dups.emplace_back(field.key);
    return dups;
}

std::string_view json_type_name(simdjson::dom::element e) noexcept {
    switch (e.type()) {
        case simdjson::dom::element_type::ARRAY: return "array";
        case simdjson::dom::element_type::OBJECT: return "object";
        case simdjson::dom::element_type::INT64:
        case simdjson::dom::element_type::UINT64: return "integer";
        case simdjson::dom::element_type::DOUBLE: return "number";
        case simdjson::dom::element_type::STRING: return "string";
        case simdjson::dom::element_type::BOOL: return "boolean";
        case simdjson::dom::element_type::NULL_VALUE: return "null";
    }
    return "?";
}

namespace {
[[noreturn]] void wrong(std::string_view key, std::string_view want, simdjson::dom::element e, const std::string& file) {
    throw Error(ErrorCode::BadJson,
                std::string(key) + ": expected " + std::string(want) + ", got " + std::string(json_type_name(e)), file);
}
std::optional<simdjson::dom::element> member(simdjson::dom::element obj, std::string_view key) {
    auto e = json_get(obj, key);
    if (!e || e->is_null()) return std::nullopt;
    return e;
}
}  // namespace

std::optional<std::int64_t> json_int(simdjson::dom::element obj, std::string_view key, const std::string& file) {
    auto e = member(obj, key);
    if (!e) return std::nullopt;
    if (e->type() == simdjson::dom::element_type::INT64) return std::int64_t(*e);
    if (e->type() == simdjson::dom::element_type::UINT64) {
        const std::uint64_t u = *e;
        if (u > static_cast<std::uint64_t>(INT64_MAX)) wrong(key, "an integer below 2^63", *e, file);
        return static_cast<std::int64_t>(u);
    }
    wrong(key, "an integer", *e, file);
}

std::optional<double> json_number(simdjson::dom::element obj, std::string_view key, const std::string& file) {
    auto e = member(obj, key);
    if (!e) return std::nullopt;
    switch (e->type()) {
        case simdjson::dom::element_type::INT64: return static_cast<double>(std::int64_t(*e));
        case simdjson::dom::element_type::UINT64: return static_cast<double>(std::uint64_t(*e));
        case simdjson::dom::element_type::DOUBLE: return double(*e);
        default: wrong(key, "a number", *e, file);
    }
}

std::optional<bool> json_bool(simdjson::dom::element obj, std::string_view key, const std::string& file) {
    auto e = member(obj, key);
    if (!e) return std::nullopt;
    if (e->type() != simdjson::dom::element_type::BOOL) wrong(key, "true or false", *e, file);
    return bool(*e);
}

std::optional<std::string> json_string(simdjson::dom::element obj, std::string_view key, const std::string& file) {
    auto e = member(obj, key);
    if (!e) return std::nullopt;
    if (e->type() != simdjson::dom::element_type::STRING) wrong(key, "a string", *e, file);
    return std::string(std::string_view(*e));
}

}  // namespace amn::detail
