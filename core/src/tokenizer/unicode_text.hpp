// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Unicode text helpers for the Hugging Face tokenizer: UTF-8 code points,
// the normalization forms (NFC/NFD/NFKC/NFKD) and lower-casing the
// `tokenizers` normalizers apply, and GPT-2's byte ↔ unicode map of the
// ByteLevel pre-tokenizer/decoder. The Unicode data (decompositions,
// combining classes, composites, case mappings, categories) is utf8proc's
// (Debian 12: utf8proc 2.8, Unicode 15.0).
// Everything here is pure: no state, safe from any thread.
#include "util/utf8.hpp"
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace amn::tok {

/// Whether `s` is well-formed UTF-8 (no surrogates, no overlongs, ≤ U+10FFFF).
using detail::valid_utf8;  // util/utf8.hpp

/// The code points of `s`, which must be valid UTF-8 (check valid_utf8 first;
/// ill-formed bytes decode to U+FFFD, one per byte).
std::u32string utf8_to_u32(std::string_view s);

/// Append code point `c` to `out` as UTF-8.
void append_utf8(std::string& out, char32_t c);

/// Every occurrence of `from` in `s` replaced by `to`, left to right, not
/// overlapping (Python's str.replace); `s` unchanged when `from` is empty.
std::string replace_all(std::string_view s, std::string_view from, std::string_view to);

/// `s` as UTF-8.
std::string u32_to_utf8(std::u32string_view s);

/// Byte length of the UTF-8 sequence that starts with lead byte `b` (1 for
/// a stray continuation byte).
inline std::size_t utf8_len(unsigned char b) noexcept {
    return b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
}

/// Unicode normalization forms (UAX #15).
enum class NormForm : std::uint8_t { NFC, NFD, NFKC, NFKD };

/// `s` (valid UTF-8) in normalization form `form`, as Rust's
/// unicode-normalization (the `tokenizers` NFC/NFD/NFKC/NFKD normalizers) does,
/// through utf8proc_map. Throws amn::Error (BadText) on ill-formed UTF-8.
std::string unicode_normalize(std::string_view s, NormForm form);

/// Canonical combining class of `c` (0 for starters).
std::uint8_t combining_class(char32_t c) noexcept;

/// `s` (valid UTF-8) lower-cased as Rust's `str::to_lowercase` does: full
/// mappings (U+0130 → "i̇"), final sigma (Σ → ς at the end of a word).
/// Simple mappings are utf8proc_tolower's.
std::string unicode_lowercase(std::string_view s);

/// GPT-2's `bytes_to_unicode`: byte b → the UTF-8 of its printable stand-in
/// (33–126, 161–172, 174–255 map to themselves; the other 68 bytes to U+0100 + n
/// in byte order, so ' ' → "Ġ", '\n' → "Ċ").
const std::array<std::string, 256>& byte_level_chars() noexcept;

/// The inverse map: code point → byte, or −1 when `c` is no byte's stand-in.
int byte_level_byte(char32_t c) noexcept;

}  // namespace amn::tok
