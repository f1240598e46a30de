// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// tokenizer.json `normalizer`: the text transformations the `tokenizers`
// library applies before pre-tokenization (normalizers/*.rs). Only the
// resulting text matters here (no offset alignment is kept).
#include "tokenizer/regex.hpp"
#include "tokenizer/unicode_text.hpp"

#include <simdjson.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace amn::tok {

/// One normalizer (a Sequence holds others).
struct Normalizer {
    enum class Kind : std::uint8_t { Sequence, Unicode, Lowercase, Strip, StripAccents, Prepend, Replace, Bert };
    Kind kind = Kind::Sequence;
    std::string type;                  ///< the JSON `type` as written ("NFC", "Sequence" …)
    std::vector<Normalizer> children;  ///< Sequence: `normalizers`
    NormForm form = NormForm::NFC;     ///< Unicode: NFC / NFD / NFKC / NFKD
    bool strip_left = false;           ///< Strip: `strip_left`
    bool strip_right = false;          ///< Strip: `strip_right`
    std::string text;                  ///< Prepend: `prepend`; Replace: `content`
    std::shared_ptr<const Regex> pattern;  ///< Replace: `pattern` (Regex or String)
    /// BertNormalizer (normalizers/bert.rs), in this order: `clean_text` drops
    /// U+0000, U+FFFD and General_Category C characters other than tab, LF, CR
    /// and turns White_Space into ' '; `handle_chinese_chars` puts spaces around
    /// CJK ideographs (the blocks of BERT's `_is_chinese_char`); `strip_accents`
    /// (null: as `lowercase`) NFD and Mn marks dropped; `lowercase`.
    bool clean_text = true, handle_chinese_chars = true, lowercase = true;
    std::optional<bool> strip_accents;

    /// `s` (valid UTF-8) normalized, as `Normalizer::normalize` does.
    std::string apply(std::string s) const;
};

/// Parse a tokenizer.json normalizer object (`file` names it in errors).
/// \throws Error{Unsupported} for a type not implemented here (Precompiled,
///         …), Error{BadJson} for a malformed one.
Normalizer parse_normalizer(simdjson::dom::element e, const std::string& file);

}  // namespace amn::tok
