// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/json_writer.hpp"

#include <charconv>
#include <cmath>

namespace amn {

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629: no overlongs,
// no surrogates, nothing above U+10FFFF).
std::size_t utf8_seq(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    const unsigned char c = b(0);
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
        if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;
        if (c == 0xF4 && b(1) >= 0x90) return 0;
        return 4;
    }
    return 0;
}
}  // namespace

void JsonWriter::escape_to(std::string& out, std::string_view s) {
    // Always valid JSON: control characters as \u escapes, every
    // byte that is not part of valid UTF-8 as U+FFFD.
    static const char* hex = "0123456789abcdef";
    out.push_back('"');
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            const std::size_t n = utf8_seq(s, i);
            if (n) out.append(s.substr(i, n));
            else out += "\\ufffd";
            i += n ? n : 1;
            continue;
        }
        ++i;
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out.push_back(hex[c >> 4]);
                    out.push_back(hex[c & 15]);
                } else {
                    out.push_back(static_cast<char>(c));
                }
        }
    }
    out.push_back('"');
}

void JsonWriter::newline() {
    if (indent_ <= 0) return;
    out_.push_back('\n');
    out_.append(first_.size() * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::before_value() {
    if (after_key_) { after_key_ = false; return; }
    if (!first_.empty()) {
        if (!first_.back()) out_.push_back(',');
        first_.back() = false;
        newline();
    }
}

JsonWriter& JsonWriter::begin_object() { before_value(); out_.push_back('{'); first_.push_back(true); return *this; }
JsonWriter& JsonWriter::begin_array() { before_value(); out_.push_back('['); first_.push_back(true); return *this; }
JsonWriter& JsonWriter::end_object() {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_.push_back('}');
    return *this;
}
JsonWriter& JsonWriter::end_array() {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_.push_back(']');
    return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
    before_value();
    escape_to(out_, k);
    out_.push_back(':');
    if (indent_ > 0) out_.push_back(' ');
    after_key_ = true;
    return *this;
}
JsonWriter& JsonWriter::value(std::string_view s) { before_value(); escape_to(out_, s); return *this; }
JsonWriter& JsonWriter::value(bool b) { before_value(); out_ += b ? "true" : "false"; return *this; }
JsonWriter& JsonWriter::value(std::int64_t v) { before_value(); out_ += std::to_string(v); return *this; }
JsonWriter& JsonWriter::value(std::uint64_t v) { before_value(); out_ += std::to_string(v); return *this; }
JsonWriter& JsonWriter::value(double v) {
    before_value();
    if (!std::isfinite(v)) { out_ += "null"; return *this; }
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    return *this;
}
JsonWriter& JsonWriter::null() { before_value(); out_ += "null"; return *this; }
JsonWriter& JsonWriter::raw(std::string_view json) { before_value(); out_ += json; return *this; }

}  // namespace amn
