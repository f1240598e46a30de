// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// tokenizer.json `pre_tokenizer`: how the `tokenizers` library cuts the
// normalized text into words before the model sees them
// (pre_tokenizers/*.rs and NormalizedString::split). Only the pieces'
// text is kept (no offsets), plus whether a piece starts the input, which
// Metaspace's `prepend_scheme: "first"` needs.
#include "tokenizer/regex.hpp"

#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

namespace amn::tok {

/// A piece of text between pre-tokenization steps.
struct Piece {
    std::string text;        ///< UTF-8
    bool at_origin = false;  ///< starts at offset 0 of the original input
};

/// `SplitDelimiterBehavior` of a split.
enum class SplitBehavior : std::uint8_t { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

/// One pre-tokenizer (a Sequence holds others).
struct PreTokenizer {
    enum class Kind : std::uint8_t {
        Sequence, Split, ByteLevel, Digits, Metaspace, Whitespace, WhitespaceSplit, Punctuation, CharDelimiterSplit
    };
    /// Metaspace `prepend_scheme`.
    enum class Prepend : std::uint8_t { Always, First, Never };

    Kind kind = Kind::Sequence;
    std::string type;                    ///< the JSON `type` as written
    std::vector<PreTokenizer> children;  ///< Sequence: `pretokenizers`
    // Split (also the internal pattern of Digits, Whitespace, Punctuation, CharDelimiterSplit)
    std::shared_ptr<const Regex> pattern;
    std::string pattern_text;            ///< Split: the `Regex` / `String` as written
    bool pattern_is_regex = false;       ///< Split: `{"Regex": …}` rather than `{"String": …}`
    SplitBehavior behavior = SplitBehavior::Isolated;
    bool invert = false;
    // ByteLevel
    bool add_prefix_space = true;
    bool use_regex = true;
    // Digits
    bool individual_digits = false;
    // Metaspace
    std::string replacement = "\xE2\x96\x81";  ///< "▁"
    Prepend prepend_scheme = Prepend::Always;
    bool split = true;

    /// Apply to every piece of `pieces` in place (`PreTokenizer::pre_tokenize`).
    /// Pieces that become empty are dropped. \throws Error{LimitExceeded} from a regex.
    void apply(std::vector<Piece>& pieces) const;
};

/// Parse a tokenizer.json pre_tokenizer object (BertPreTokenizer: a Sequence
/// of WhitespaceSplit and Punctuation, `type` kept). \throws Error{Unsupported}
/// for types not implemented here (UnicodeScripts, …),
/// Error{BadJson} for malformed ones.
PreTokenizer parse_pre_tokenizer(simdjson::dom::element e, const std::string& file);

/// Split `piece` by the matches of `re` with `behavior` (NormalizedString::split
/// with a Pattern, `invert` = the Invert pattern). Empty results are dropped.
std::vector<Piece> split_piece(const Piece& piece, const Regex& re, SplitBehavior behavior, bool invert);

/// GPT-2's pre-tokenization regex (ByteLevel `use_regex`).
extern const char* const kGpt2Pattern;

}  // namespace amn::tok
