// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/py_compat.hpp"

#include "anamnesis/error.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <unordered_map>

namespace amn::tok::py {
namespace {

using simdjson::dom::element_type;

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::Io, "cannot read file", path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(ErrorCode::Io, "cannot read file", path);
    return text;
}

bool fits_64(std::string_view digits, bool negative) {
    // digits: no sign, no leading zeros issue (JSON forbids them except "0").
    constexpr std::string_view kMaxU = "18446744073709551615";  // UINT64_MAX
    constexpr std::string_view kMaxNeg = "9223372036854775808"; // -INT64_MIN
    const std::string_view lim = negative ? kMaxNeg : kMaxU;
    if (digits.size() != lim.size()) return digits.size() < lim.size();
    return digits <= lim;
}

// Rewrite integer literals (outside strings) that do not fit 64 bits as
// double literals, so that simdjson 3.0's DOM reads them (as Python reads
// them: a number). Everything else is copied byte for byte.
std::string widen_big_integers(std::string text) {
    std::string out;
    bool changed = false;
    std::size_t copied = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') { in_string = true; continue; }
        if (c != '-' && (c < '0' || c > '9')) continue;
        std::size_t j = i + (c == '-' ? 1 : 0);
        const std::size_t d0 = j;
        while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
        const bool has_frac_or_exp = j < text.size() && (text[j] == '.' || text[j] == 'e' || text[j] == 'E');
        std::size_t end = j;
        if (has_frac_or_exp) {  // skip the rest of the literal
            while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
                                         text[end] == 'e' || text[end] == 'E' || text[end] == '+' || text[end] == '-'))
                ++end;
        } else if (j > d0 && !fits_64(std::string_view(text).substr(d0, j - d0), c == '-')) {
            if (!changed) out.reserve(text.size() + 16);
            changed = true;
            out.append(text, copied, i - copied);
            if (j - d0 > 300) out += (c == '-') ? "-1e300" : "1e300";
            else { out.append(text, i, j - i); out += ".0"; }
            copied = j;
        }
        i = end - 1;
    }
    if (!changed) return text;
    out.append(text, copied, std::string::npos);
    return out;
}

[[noreturn]] void not_object(Elem e, const std::string& file, std::string_view what) {
    throw Error(ErrorCode::BadJson,
                std::string(what) + ": expected an object, got " + std::string(detail::json_type_name(e)), file);
}

long double number_value(Elem e) {
    switch (e.type()) {
        case element_type::INT64: return static_cast<long double>(std::int64_t(e));
        case element_type::UINT64: return static_cast<long double>(std::uint64_t(e));
        case element_type::DOUBLE: return static_cast<long double>(double(e));
        case element_type::BOOL: return bool(e) ? 1.0L : 0.0L;
        default: return 0;
    }
}

bool is_number_like(Elem e) {
    const auto t = e.type();
    return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE || t == element_type::BOOL;
}

}  // namespace

bool is_file(const std::string& path) noexcept {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_dir(const std::string& path) noexcept {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

detail::JsonDoc load_json(const std::string& path) {
    return detail::JsonDoc(widen_big_integers(read_bytes(path)), path, "file");
}

detail::JsonDoc parse_json(std::string text, const std::string& file) {
    return detail::JsonDoc(widen_big_integers(std::move(text)), file, "file");
}

std::string read_text(const std::string& path) {
    std::string raw = read_bytes(path);
    if (!valid_utf8(raw)) throw Error(ErrorCode::BadText, "file is not valid UTF-8", path);
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\r') {
            out += '\n';
            if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
        } else {
            out += raw[i];
        }
    }
    return out;
}

bool truthy(Elem e) noexcept {
    switch (e.type()) {
        case element_type::NULL_VALUE: return false;
        case element_type::BOOL: return bool(e);
        case element_type::INT64: return std::int64_t(e) != 0;
        case element_type::UINT64: return std::uint64_t(e) != 0;
        case element_type::DOUBLE: return double(e) != 0.0;
        case element_type::STRING: return !std::string_view(e).empty();
        case element_type::ARRAY: return simdjson::dom::array(e).size() != 0;
        case element_type::OBJECT: {
            for ([[maybe_unused]] auto f : simdjson::dom::object(e)) return true;
            return false;
        }
    }
    return false;
}

bool equal(Elem a, Elem b) noexcept {
    if (is_number_like(a) || is_number_like(b)) {
        if (!is_number_like(a) || !is_number_like(b)) return false;
        const auto ta = a.type(), tb = b.type();
        const bool ia = ta != element_type::DOUBLE, ib = tb != element_type::DOUBLE;
        if (ia && ib) {  // exact integer comparison: (negative?, magnitude)
            auto split = [](Elem e) -> std::pair<bool, std::uint64_t> {
                switch (e.type()) {
                    case element_type::INT64: {
                        const std::int64_t v = e;
                        return v < 0 ? std::pair{true, 0 - static_cast<std::uint64_t>(v)} : std::pair{false, static_cast<std::uint64_t>(v)};
                    }
                    case element_type::UINT64: return {false, std::uint64_t(e)};
                    default: return {false, bool(e) ? 1u : 0u};
                }
            };
            const auto x = split(a), y = split(b);
            return x == y || (x.second == 0 && y.second == 0);
        }
        return number_value(a) == number_value(b);
    }
    if (a.type() != b.type()) return false;
    switch (a.type()) {
        case element_type::NULL_VALUE: return true;
        case element_type::STRING: return std::string_view(a) == std::string_view(b);
        case element_type::ARRAY: {
            simdjson::dom::array x(a), y(b);
            if (x.size() != y.size()) return false;
            auto it = y.begin();
            for (Elem v : x) {
                if (!equal(v, *it)) return false;
                ++it;
            }
            return true;
        }
        case element_type::OBJECT: {
            const auto x = items(a), y = items(b);
            if (x.size() != y.size()) return false;
            for (const auto& [k, v] : x) {
                const auto w = detail::json_get(b, k);
                if (!w || !equal(v, *w)) return false;
            }
            return true;
        }
        default: return false;
    }
}

bool equal(Elem a, std::string_view b) noexcept {
    return a.type() == element_type::STRING && std::string_view(a) == b;
}

bool equal(const std::optional<Elem>& a, const std::optional<Elem>& b) noexcept {
    if (is_none(a) || is_none(b)) return is_none(a) && is_none(b);
    return equal(*a, *b);
}

std::optional<std::string_view> str(const std::optional<Elem>& e) noexcept {
    if (!e || e->type() != element_type::STRING) return std::nullopt;
    return std::string_view(*e);
}

std::vector<std::pair<std::string_view, Elem>> items(Elem obj) {
    std::vector<std::pair<std::string_view, Elem>> out;
    simdjson::dom::object o;
    if (obj.get(o)) return out;
    std::unordered_map<std::string_view, std::size_t> pos;
    for (auto f : o) {
        auto [it, fresh] = pos.emplace(f.key, out.size());
        if (fresh) out.emplace_back(f.key, f.value);
        else out[it->second].second = f.value;
    }
    return out;
}

std::optional<Elem> get(Elem obj, std::string_view key, const std::string& file, std::string_view what) {
    if (obj.type() != element_type::OBJECT) not_object(obj, file, what);
    return detail::json_get(obj, key);
}

Elem at(Elem obj, std::string_view key, const std::string& file, std::string_view what) {
    auto v = get(obj, key, file, what);
    if (!v) throw Error(ErrorCode::BadJson, std::string(what) + ": no key \"" + std::string(key) + "\"", file);
    return *v;
}

std::optional<std::int64_t> as_int(const std::optional<Elem>& e) noexcept {
    if (!e) return std::nullopt;
    switch (e->type()) {
        case element_type::INT64: return std::int64_t(*e);
        case element_type::UINT64: {
            const std::uint64_t u = *e;
            return u > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(u);
        }
        case element_type::BOOL: return bool(*e) ? 1 : 0;
        default: return std::nullopt;
    }
}

std::optional<std::int64_t> parse_int(std::string_view s) noexcept {
    s = strip(s);
    bool neg = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty()) return std::nullopt;
    std::uint64_t v = 0;
    bool big = false;  // beyond UINT64_MAX
    bool prev_digit = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '_') {
            if (!prev_digit || i + 1 == s.size()) return std::nullopt;
            prev_digit = false;
            continue;
        }
        if (c < '0' || c > '9') return std::nullopt;
        prev_digit = true;
        const auto d = static_cast<std::uint64_t>(c - '0');
        if (v > (UINT64_MAX - d) / 10) big = true;
        else v = v * 10 + d;
    }
    constexpr auto kMax = static_cast<std::uint64_t>(INT64_MAX);
    if (neg) return (big || v > kMax) ? INT64_MIN : -static_cast<std::int64_t>(v);
    return (big || v > kMax) ? INT64_MAX : static_cast<std::int64_t>(v);
}

std::int64_t to_int(Elem e, const std::string& file, std::string_view what) {
    if (auto v = as_int(e)) return *v;
    if (e.type() == element_type::DOUBLE) {
        const double d = std::trunc(double(e));
        if (d >= 9.2e18) return INT64_MAX;
        if (d <= -9.2e18) return INT64_MIN;
        return static_cast<std::int64_t>(d);
    }
    if (e.type() == element_type::STRING)
        if (auto v = parse_int(std::string_view(e))) return *v;
    throw Error(ErrorCode::BadJson,
                std::string(what) + ": " + std::string(detail::json_type_name(e)) + " value is not an integer", file);
}

bool is_space(char32_t c) noexcept {
    if (c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F)) return true;
    if (c < 0x85) return false;
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

char32_t next_code_point(std::string_view s, std::size_t& i) noexcept {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : 4;
    char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i = std::min(s.size(), i + len);
    return cp;
}

std::string_view strip(std::string_view s) noexcept {
    std::size_t begin = 0;
    while (begin < s.size()) {
        std::size_t j = begin;
        if (!is_space(next_code_point(s, j))) break;
        begin = j;
    }
    std::size_t end = begin, i = begin;
    while (i < s.size()) {
        const char32_t c = next_code_point(s, i);
        if (!is_space(c)) end = i;
    }
    return s.substr(begin, end - begin);
}

std::vector<std::string_view> split(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0, start = std::string_view::npos;
    while (i < s.size()) {
        const std::size_t at_ = i;
        const char32_t c = next_code_point(s, i);
        if (is_space(c)) {
            if (start != std::string_view::npos) out.push_back(s.substr(start, at_ - start));
            start = std::string_view::npos;
        } else if (start == std::string_view::npos) {
            start = at_;
        }
    }
    if (start != std::string_view::npos) out.push_back(s.substr(start));
    return out;
}

}  // namespace amn::tok::py
