// SPDX-License-Identifier: MIT OR Apache-2.0
// Python json.dump text (py_json.hpp).
#include "util/py_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

namespace amn::detail {

std::string py_float_repr(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    const std::string_view s(buf, static_cast<std::size_t>(r.ptr - buf));
    // "-d.ddde±XX": sign, digits, decimal exponent.
    const bool neg = s.front() == '-';
    const std::size_t e_at = s.find('e');
    std::string digits;
    for (char c : s.substr(neg ? 1 : 0, e_at - (neg ? 1 : 0)))
        if (c != '.') digits += c;
    int exp = 0;
    std::from_chars(s.data() + e_at + 1 + (s[e_at + 1] == '+' ? 1 : 0), s.data() + s.size(), exp);
    std::string out = neg ? "-" : "";
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            out += "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
        } else {
            const auto int_digits = static_cast<std::size_t>(exp) + 1;
            if (digits.size() <= int_digits) {
                out += digits + std::string(int_digits - digits.size(), '0') + ".0";
            } else {
                out += digits.substr(0, int_digits) + "." + digits.substr(int_digits);
            }
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[32];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + eb;
}

void py_json_string(std::string& out, std::string_view s) {
    auto hex4 = [&](unsigned v) {
        char b[16];
        std::snprintf(b, sizeof b, "\\u%04x", v & 0xFFFFu);
        out += b;
    };
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            switch (c) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                case '\b': out += "\\b"; break;
                case '\f': out += "\\f"; break;
                default:
                    if (c < 0x20 || c == 0x7F) hex4(c);  // ensure_ascii: all but ' ' … '~'

                    else out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        // A UTF-8 sequence (simdjson validated it): its code point.
        const int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        char32_t cp = c & (len == 4 ? 0x07u : len == 3 ? 0x0Fu : 0x1Fu);
        for (int k = 1; k < len && i + static_cast<std::size_t>(k) < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3Fu);
        i += static_cast<std::size_t>(len);
        if (cp >= 0x10000) {
            const char32_t v = cp - 0x10000;
            hex4(0xD800u + static_cast<unsigned>(v >> 10));
            hex4(0xDC00u + static_cast<unsigned>(v & 0x3FFu));
        } else {
            hex4(static_cast<unsigned>(cp));
        }
    }
    out += '"';
}

void py_json_dump(std::string& out, simdjson::dom::element e, int indent, bool sort_keys, int level) {
    auto newline = [&](int lv) {
        out += '\n';
        out.append(static_cast<std::size_t>(indent * lv), ' ');
    };
    switch (e.type()) {
        case simdjson::dom::element_type::OBJECT: {
            // json.load's dict: a repeated key keeps its first place and its last value.
            std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
            std::map<std::string_view, std::size_t> at;
            for (auto [k, v] : simdjson::dom::object(e)) {
                if (auto it = at.find(k); it != at.end()) {
                    members[it->second].second = v;
                } else {
                    at.emplace(k, members.size());
                    members.emplace_back(k, v);
                }
            }
            if (members.empty()) {
                out += "{}";
                return;
            }
            if (sort_keys && level == 0)
                std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            out += '{';
            bool first = true;
            for (const auto& [k, v] : members) {
                if (!first) out += ',';
                first = false;
                newline(level + 1);
                py_json_string(out, k);
                out += ": ";
                py_json_dump(out, v, indent, sort_keys, level + 1);
            }
            newline(level);
            out += '}';
            return;
        }
        case simdjson::dom::element_type::ARRAY: {
            simdjson::dom::array a(e);
            if (a.size() == 0) {
                out += "[]";
                return;
            }
            out += '[';
            bool first = true;
            for (auto v : a) {
                if (!first) out += ',';
                first = false;
                newline(level + 1);
                py_json_dump(out, v, indent, sort_keys, level + 1);
            }
            newline(level);
            out += ']';
            return;
        }
        case simdjson::dom::element_type::STRING: py_json_string(out, std::string_view(e)); return;
        case simdjson::dom::element_type::INT64: out += std::to_string(std::int64_t(e)); return;
        case simdjson::dom::element_type::UINT64: out += std::to_string(std::uint64_t(e)); return;
        case simdjson::dom::element_type::DOUBLE: out += py_float_repr(double(e)); return;
        case simdjson::dom::element_type::BOOL: out += bool(e) ? "true" : "false"; return;
        case simdjson::dom::element_type::NULL_VALUE: out += "null"; return;
    }
}

}  // namespace amn::detail
