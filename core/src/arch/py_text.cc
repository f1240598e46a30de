// SPDX-License-Identifier: MIT OR Apache-2.0
#include "arch/py_text.hpp"

#include "tokenizer/py_compat.hpp"
#include "tokenizer/unicode_text.hpp"

#include <clocale>
#include <cwctype>
#include <locale.h>

namespace amn::arch::py {

namespace {

// The C.UTF-8 locale for non-ASCII classes and case mappings, or nullptr.
locale_t utf8_locale() noexcept {
    static const locale_t loc = [] {
        locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
        if (!l) l = newlocale(LC_CTYPE_MASK, "C.utf8", static_cast<locale_t>(nullptr));
        return l;
    }();
    return loc;
}

bool ascii(char32_t c) noexcept { return c < 0x80; }

}  // namespace

std::u32string decode(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < n && i + k < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(c);
        i += n;
    }
    return out;
}

std::string encode(std::u32string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char32_t c : s) tok::append_utf8(out, c);
    return out;
}

bool is_space(char32_t c) noexcept { return tok::py::is_space(c); }  // the one Python whitespace

bool is_alpha(char32_t c) noexcept {
    if (ascii(c)) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    const locale_t l = utf8_locale();
    return l && iswalpha_l(static_cast<wint_t>(c), l);
}

bool is_decimal(char32_t c) noexcept { return c >= '0' && c <= '9'; }

bool is_upper(char32_t c) noexcept {
    if (ascii(c)) return c >= 'A' && c <= 'Z';
    const locale_t l = utf8_locale();
    return l && iswupper_l(static_cast<wint_t>(c), l);
}

bool is_lower(char32_t c) noexcept {
    if (ascii(c)) return c >= 'a' && c <= 'z';
    const locale_t l = utf8_locale();
    return l && iswlower_l(static_cast<wint_t>(c), l);
}

char32_t to_upper(char32_t c) noexcept {
    if (ascii(c)) return (c >= 'a' && c <= 'z') ? c - 32 : c;
    const locale_t l = utf8_locale();
    return l ? static_cast<char32_t>(towupper_l(static_cast<wint_t>(c), l)) : c;
}

char32_t to_lower(char32_t c) noexcept {
    if (ascii(c)) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    const locale_t l = utf8_locale();
    return l ? static_cast<char32_t>(towlower_l(static_cast<wint_t>(c), l)) : c;
}

std::string strip(std::string_view s) { return std::string(tok::py::strip(s)); }

std::vector<std::string> split_ws(std::string_view s) {
    std::vector<std::string> out;
    for (const auto w : tok::py::split(s)) out.emplace_back(w);
    return out;
}

bool islower(std::string_view s) {
    bool cased = false;
    for (char32_t c : decode(s)) {
        if (is_upper(c)) return false;
        if (is_lower(c)) cased = true;
    }
    return cased;
}

std::string title(std::string_view s) {
    std::u32string u = decode(s);
    bool prev_cased = false;
    for (char32_t& c : u) {
        const bool cased = is_upper(c) || is_lower(c);
        c = prev_cased ? to_lower(c) : to_upper(c);
        prev_cased = cased;
    }
    return encode(u);
}

std::string upper(std::string_view s) {
    std::u32string u = decode(s);
    for (char32_t& c : u) c = to_upper(c);
    return encode(u);
}

std::string lower(std::string_view s) {
    std::u32string u = decode(s);
    for (char32_t& c : u) c = to_lower(c);
    return encode(u);
}

std::string replace(std::string_view s, std::string_view from, std::string_view to) {
    std::string out;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t hit = s.find(from, pos);
        if (hit == std::string_view::npos) break;
        out.append(s.substr(pos, hit - pos));
        out.append(to);
        pos = hit + from.size();
    }
    out.append(s.substr(pos));
    return out;
}

}  // namespace amn::arch::py
