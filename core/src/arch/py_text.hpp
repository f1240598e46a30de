// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The few Python `str` operations gguf-py's naming heuristics use
// (metadata.py, utility.py), on UTF-8 text:
// `isspace`/`split()`/`strip()`, `isalpha`, `isdecimal`, `islower`,
// `title`, `upper`, `lower`, `replace`.
//
// ASCII behaves exactly as CPython. Beyond ASCII the character classes and
// case mappings come from the C library's "C.UTF-8" locale (glibc: Unicode
// simple case mappings and its alpha/upper/lower classes) when it exists,
// else non-ASCII characters are treated as uncased non-letters. Known
// differences from CPython there: full case mappings ("ß".upper() is "SS" in
// Python), titlecase digraphs (ǅ), non-ASCII decimal digits (Arabic-Indic
// etc. are `isdecimal()` in Python, not here). Model names are ASCII in
// practice; the fixtures and the gguf-py comparison cover ASCII.
//
// All functions take valid UTF-8 (callers validate input text first).
#include <string>
#include <string_view>
#include <vector>

namespace amn::arch::py {

/// Code points of valid UTF-8 `s`.
std::u32string decode(std::string_view s);
/// UTF-8 of `s`.
std::string encode(std::u32string_view s);

/// Python's whitespace (`str.isspace`, what `split()`/`strip()` remove):
/// tok::py::is_space, the one definition (\t \n \v \f \r \x1c–\x1f space
/// \x85 \xa0 \u1680 \u2000–\u200a \u2028 \u2029 \u202f \u205f \u3000).
bool is_space(char32_t c) noexcept;
bool is_alpha(char32_t c) noexcept;    ///< `str.isalpha` of one character
bool is_decimal(char32_t c) noexcept;  ///< `str.isdecimal` of one character (ASCII digits only, see above)
bool is_upper(char32_t c) noexcept;    ///< an uppercase (cased) letter
bool is_lower(char32_t c) noexcept;    ///< a lowercase (cased) letter
char32_t to_upper(char32_t c) noexcept;
char32_t to_lower(char32_t c) noexcept;

/// `s.strip()` (tok::py::strip).
std::string strip(std::string_view s);
/// `s.split()` (runs of whitespace, no empty parts; tok::py::split).
std::vector<std::string> split_ws(std::string_view s);
/// `s.islower()`: at least one cased character and none uppercase.
bool islower(std::string_view s);
/// `s.title()`: a cased character following a cased character is lowered,
/// any other is uppercased.
std::string title(std::string_view s);
/// `s.upper()`, `s.lower()` (simple mappings).
std::string upper(std::string_view s);
std::string lower(std::string_view s);
/// `s.replace(from, to)` (all occurrences; `from` non-empty).
std::string replace(std::string_view s, std::string_view from, std::string_view to);
/// True when every character of non-empty `s` satisfies `pred` (Python's
/// `all(pred(c) for c in s)` is also true for an empty string: so is this).
template <class Pred>
bool all_of(std::string_view s, Pred pred) {
    for (char32_t c : decode(s))
        if (!pred(c)) return false;
    return true;
}
/// True when some character of `s` satisfies `pred`.
template <class Pred>
bool any_of(std::string_view s, Pred pred) {
    for (char32_t c : decode(s))
        if (pred(c)) return true;
    return false;
}

}  // namespace amn::arch::py
