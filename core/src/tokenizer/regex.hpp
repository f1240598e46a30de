// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Regular expressions of tokenizer.json (`{"Regex": ...}` patterns of the
// Split pre-tokenizer and Replace normalizer/decoder, the ByteLevel
// pre-tokenizer's GPT-2 pattern) on PCRE2 in UTF + UCP mode.
//
// The `tokenizers` library runs them on Oniguruma; the few class escapes
// whose Unicode meaning differs between the two engines are rewritten to the
// Oniguruma meaning first (`\s` = White_Space incl. U+0085, `\w` = L, M, Nd, Pc).
// Matching is bounded (PCRE2 match, depth and heap limits): a pattern that
// backtracks without end on some input fails with a named error, not a hang.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn::tok {

/// A compiled pattern. Immutable and shareable; `find_all` may be called from
/// several threads at once.
class Regex {
public:
    /// Compile `pattern` (Oniguruma syntax as in tokenizer.json). `file` names the
    /// tokenizer.json in errors. \throws Error{Unsupported} "regex <pattern>: <PCRE2 message> at offset N".
    Regex(std::string_view pattern, std::string file);
    /// A pattern matching `literal` exactly (the `{"String": ...}` form).
    static Regex literal(std::string_view literal, std::string file);

    /// Every non-overlapping match in `text` (valid UTF-8), left to right, as
    /// byte ranges [begin, end). An empty match advances the search by one character.
    /// \throws Error{LimitExceeded} when a match exceeds the backtracking limits.
    std::vector<std::pair<std::size_t, std::size_t>> find_all(std::string_view text) const;

    /// The pattern as given.
    const std::string& pattern() const noexcept { return pattern_; }

    struct Impl;

private:
    Regex(std::shared_ptr<const Impl> impl, std::string pattern);
    std::shared_ptr<const Impl> impl_;
    std::string pattern_;
};

/// Rewrite the class escapes of an Oniguruma pattern to their Oniguruma
/// meaning in PCRE2 syntax (see the file comment). Exposed for tests.
std::string onig_to_pcre2(std::string_view pattern);

/// Unicode character predicates of Rust's `char` (`is_whitespace`: White_Space;
/// `is_alphanumeric`: Alphabetic or N*), evaluated with PCRE2's property tables.
bool is_unicode_whitespace(char32_t c);
bool is_unicode_alphanumeric(char32_t c);

}  // namespace amn::tok
