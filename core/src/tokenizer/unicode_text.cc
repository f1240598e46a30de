// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/unicode_text.hpp"

#include "anamnesis/error.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>

namespace amn::tok {

std::u32string utf8_to_u32(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const std::size_t len = utf8_len(p[i]);
        if (len == 1) {
            out.push_back(p[i] < 0x80 ? p[i] : 0xFFFD);
            ++i;
            continue;
        }
        if (i + len > n) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        char32_t c = p[i] & (0xFF >> (len + 1));
        for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (p[i + k] & 0x3F);
        out.push_back(c);
        i += len;
    }
    return out;
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
    if (from.empty()) return std::string(s);
    std::string out;
    std::size_t prev = 0, pos;
    while ((pos = s.find(from, prev)) != std::string_view::npos) {
        out.append(s, prev, pos - prev);
        out.append(to);
        prev = pos + from.size();
    }
    out.append(s, prev, std::string_view::npos);
    return out;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

std::string u32_to_utf8(std::u32string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char32_t c : s) append_utf8(out, c);
    return out;
}

std::uint8_t combining_class(char32_t c) noexcept {
    if (!utf8proc_codepoint_valid(static_cast<utf8proc_int32_t>(c))) return 0;
    return static_cast<std::uint8_t>(utf8proc_get_property(static_cast<utf8proc_int32_t>(c))->combining_class);
}

std::string unicode_normalize(std::string_view s, NormForm form) {
    // Fast path: ASCII is invariant under every form.
    if (std::all_of(s.begin(), s.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; }))
        return std::string(s);
    // UTF8PROC_STABLE: the normalization forms of UAX #15 (no unassigned code
    // points composed); no UTF8PROC_NULLTERM, so U+0000 is an ordinary character.
    int options = UTF8PROC_STABLE;
    switch (form) {
        case NormForm::NFC: options |= UTF8PROC_COMPOSE; break;
        case NormForm::NFD: options |= UTF8PROC_DECOMPOSE; break;
        case NormForm::NFKC: options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT; break;
        case NormForm::NFKD: options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT; break;
    }
    if (s.size() > static_cast<std::size_t>(std::numeric_limits<utf8proc_ssize_t>::max() / 4))
        throw Error(ErrorCode::LimitExceeded, "text of " + std::to_string(s.size()) + " bytes is too long to normalize");
    utf8proc_uint8_t* out = nullptr;
    const utf8proc_ssize_t n =
        utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()), &out,
                     static_cast<utf8proc_option_t>(options));
    const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(out, &std::free);
    if (n < 0) {
        if (n == UTF8PROC_ERROR_NOMEM) throw std::bad_alloc();
        throw Error(n == UTF8PROC_ERROR_INVALIDUTF8 ? ErrorCode::BadText : ErrorCode::LimitExceeded,
                    std::string("Unicode normalization failed: ") + utf8proc_errmsg(n));
    }
    return std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n));
}

namespace {
utf8proc_category_t category(char32_t c) {
    return utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

// Unicode's Cased (Lowercase, Uppercase or Lt): the letter categories plus
// whatever has a case mapping (covers most of Other_Lowercase/Other_Uppercase).
bool is_cased(char32_t c) {
    const auto cp = static_cast<utf8proc_int32_t>(c);
    const utf8proc_category_t k = category(c);
    return k == UTF8PROC_CATEGORY_LU || k == UTF8PROC_CATEGORY_LL || k == UTF8PROC_CATEGORY_LT ||
           utf8proc_tolower(cp) != cp || utf8proc_toupper(cp) != cp;
}

// Unicode's Case_Ignorable: Mn, Me, Cf, Lm, Sk, and Word_Break MidLetter,
// MidNumLet and Single_Quote.
bool is_case_ignorable(char32_t c) {
    switch (category(c)) {
        case UTF8PROC_CATEGORY_MN:
        case UTF8PROC_CATEGORY_ME:
        case UTF8PROC_CATEGORY_CF:
        case UTF8PROC_CATEGORY_LM:
        case UTF8PROC_CATEGORY_SK: return true;
        default: break;
    }
    switch (c) {
        case U'\'': case U'.': case U':': case 0x00B7: case 0x0387: case 0x055F: case 0x05F4: case 0x2018:
        case 0x2019: case 0x2024: case 0x2027: case 0xFE13: case 0xFE52: case 0xFE55: case 0xFF07: case 0xFF0E:
        case 0xFF1A: return true;
        default: return false;
    }
}
}  // namespace

std::string unicode_lowercase(std::string_view s) {
    if (std::all_of(s.begin(), s.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; })) {
        std::string out(s);
        for (char& ch : out)
            if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        return out;
    }
    const std::u32string u = utf8_to_u32(s);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        const char32_t c = u[i];
        if (c == 0x03A3) {  // Σ: final sigma (Unicode SpecialCasing Final_Sigma)
            bool before = false, after = false;
            for (std::size_t j = i; j-- > 0;) {
                if (is_case_ignorable(u[j])) continue;
                before = is_cased(u[j]);
                break;
            }
            for (std::size_t j = i + 1; j < u.size(); ++j) {
                if (is_case_ignorable(u[j])) continue;
                after = is_cased(u[j]);
                break;
            }
            append_utf8(out, before && !after ? 0x03C2 : 0x03C3);
            continue;
        }
        if (c == 0x0130) {  // İ: SpecialCasing's only unconditional multi-character lower case
            out.append("i\xCC\x87");
            continue;
        }
        // utf8proc_tolower: UnicodeData's simple mapping (identity for an invalid code point).
        append_utf8(out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
    return out;
}

const std::array<std::string, 256>& byte_level_chars() noexcept {
    static const std::array<std::string, 256> table = [] {
        std::array<std::string, 256> t;
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            append_utf8(t[static_cast<std::size_t>(b)], printable ? static_cast<char32_t>(b) : next++);
        }
        return t;
    }();
    return table;
}

int byte_level_byte(char32_t c) noexcept {
    if ((c >= 33 && c <= 126) || (c >= 161 && c <= 172) || (c >= 174 && c <= 255)) return static_cast<int>(c);
    if (c < 256 || c >= 256 + 68) return -1;
    // The n-th non-printable byte (in byte order) maps to U+0100 + n.
    int n = static_cast<int>(c - 256);
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
        if (!printable && n-- == 0) return b;
    }
    return -1;
}

}  // namespace amn::tok
