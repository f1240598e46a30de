// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/pre_tokenizer.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/json_fields.hpp"
#include "tokenizer/unicode_text.hpp"

namespace amn::tok {

const char* const kGpt2Pattern = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

namespace {

// The character-predicate patterns of the built-in pre-tokenizers as one-character
// regexes (a per-character Pattern splits exactly like a one-character regex).
constexpr const char* kWhitespaceWords = "\\w+|[^\\w\\s]+";  // Whitespace (kept, the rest removed)
constexpr const char* kWhitespaceChar = "\\s";                // char::is_whitespace
constexpr const char* kNumericChar = "\\p{N}";                // char::is_numeric
// tokenizers' is_punc: ASCII punctuation or General_Category P*.
constexpr const char* kPunctuationChar = "[\\p{P}!-/:-@\\[-`{-~]";

SplitBehavior parse_behavior(simdjson::dom::element e, const std::string& file, SplitBehavior dflt) {
    auto b = detail::json_string(e, "behavior", file);
    if (!b) return dflt;
    if (*b == "Removed") return SplitBehavior::Removed;
    if (*b == "Isolated") return SplitBehavior::Isolated;
    if (*b == "MergedWithPrevious") return SplitBehavior::MergedWithPrevious;
    if (*b == "MergedWithNext") return SplitBehavior::MergedWithNext;
    if (*b == "Contiguous") return SplitBehavior::Contiguous;
    throw Error(ErrorCode::BadJson, "pre_tokenizer behavior \"" + *b + "\" is not a SplitDelimiterBehavior", file);
}

std::shared_ptr<const Regex> builtin(const char* pattern, const std::string& file) {
    return std::make_shared<const Regex>(pattern, file);
}

}  // namespace

PreTokenizer parse_pre_tokenizer(simdjson::dom::element e, const std::string& file) {
    PreTokenizer p;
    p.type = required_type(e, "pre_tokenizer", file);
    const std::string& t = p.type;
    using K = PreTokenizer::Kind;
    if (t == "Sequence") {
        p.kind = K::Sequence;
        for (auto child : required_array(e, "pretokenizers", "pre_tokenizer Sequence", file))
            p.children.push_back(parse_pre_tokenizer(child, file));
    } else if (t == "Split") {
        p.kind = K::Split;
        p.pattern = parse_pattern(e, "pre_tokenizer Split", file);
        auto pat = detail::json_get(e, "pattern");
        p.pattern_is_regex = detail::json_string(*pat, "Regex", file).has_value();
        p.pattern_text = p.pattern->pattern();
        p.behavior = parse_behavior(e, file, SplitBehavior::Isolated);
        if (!detail::json_get(e, "behavior")) throw Error(ErrorCode::BadJson, "pre_tokenizer Split: no \"behavior\"", file);
        p.invert = detail::json_bool(e, "invert", file).value_or(false);
    } else if (t == "ByteLevel") {
        p.kind = K::ByteLevel;
        p.add_prefix_space = detail::json_bool(e, "add_prefix_space", file).value_or(true);
        p.use_regex = detail::json_bool(e, "use_regex", file).value_or(true);
        p.pattern = builtin(kGpt2Pattern, file);
    } else if (t == "Digits") {
        p.kind = K::Digits;
        p.individual_digits = detail::json_bool(e, "individual_digits", file).value_or(false);
        p.pattern = builtin(kNumericChar, file);
        p.behavior = p.individual_digits ? SplitBehavior::Isolated : SplitBehavior::Contiguous;
    } else if (t == "Metaspace") {
        p.kind = K::Metaspace;
        if (auto r = detail::json_string(e, "replacement", file)) {
            if (utf8_to_u32(*r).size() != 1)
                throw Error(ErrorCode::BadJson, "pre_tokenizer Metaspace: \"replacement\" must be one character", file);
            p.replacement = *r;
        }
        if (auto s = detail::json_string(e, "prepend_scheme", file)) {
            if (*s == "always") p.prepend_scheme = PreTokenizer::Prepend::Always;
            else if (*s == "first") p.prepend_scheme = PreTokenizer::Prepend::First;
            else if (*s == "never") p.prepend_scheme = PreTokenizer::Prepend::Never;
            else throw Error(ErrorCode::BadJson, "pre_tokenizer Metaspace: prepend_scheme \"" + *s + "\"", file);
        } else {
            // Legacy form: add_prefix_space true → always, false → never.
            p.prepend_scheme = detail::json_bool(e, "add_prefix_space", file).value_or(true) ? PreTokenizer::Prepend::Always
                                                                                              : PreTokenizer::Prepend::Never;
        }
        p.split = detail::json_bool(e, "split", file).value_or(true);
        p.pattern = std::make_shared<const Regex>(Regex::literal(p.replacement, file));
        p.behavior = SplitBehavior::MergedWithNext;
    } else if (t == "Whitespace") {
        p.kind = K::Whitespace;
        p.pattern = builtin(kWhitespaceWords, file);
        p.behavior = SplitBehavior::Removed;
        p.invert = true;
    } else if (t == "WhitespaceSplit") {
        p.kind = K::WhitespaceSplit;
        p.pattern = builtin(kWhitespaceChar, file);
        p.behavior = SplitBehavior::Removed;
    } else if (t == "Punctuation") {
        p.kind = K::Punctuation;
        p.pattern = builtin(kPunctuationChar, file);
        p.behavior = parse_behavior(e, file, SplitBehavior::Isolated);
    } else if (t == "BertPreTokenizer") {
        // pre_tokenizers/bert.rs: split on char::is_whitespace (removed), then on is_bert_punc (isolated).
        p.kind = K::Sequence;
        PreTokenizer ws, punct;
        ws.kind = K::WhitespaceSplit;
        ws.type = "WhitespaceSplit";
        ws.pattern = builtin(kWhitespaceChar, file);
        ws.behavior = SplitBehavior::Removed;
        punct.kind = K::Punctuation;
        punct.type = "Punctuation";
        punct.pattern = builtin(kPunctuationChar, file);
        punct.behavior = SplitBehavior::Isolated;
        p.children = {std::move(ws), std::move(punct)};
    } else if (t == "CharDelimiterSplit") {
        p.kind = K::CharDelimiterSplit;
        const std::string d = required_string(e, "delimiter", "pre_tokenizer CharDelimiterSplit", file);
        p.pattern = std::make_shared<const Regex>(Regex::literal(d, file));
        p.behavior = SplitBehavior::Removed;
    } else {
        throw Error(ErrorCode::Unsupported, "pre_tokenizer type \"" + t + "\" is not supported", file);
    }
    return p;
}

std::vector<Piece> split_piece(const Piece& piece, const Regex& re, SplitBehavior behavior, bool invert) {
    const std::string& s = piece.text;
    struct Span {
        std::size_t b, e;
        bool flag;  // before the fold: is a match; after: to be removed
    };
    std::vector<Span> m;
    if (s.empty()) {
        m.push_back({0, 0, false});
    } else {
        std::size_t prev = 0;
        for (auto [b, e] : re.find_all(s)) {
            if (prev != b) m.push_back({prev, b, false});
            m.push_back({b, e, true});
            prev = e;
        }
        if (prev != s.size()) m.push_back({prev, s.size(), false});
    }
    if (invert)
        for (Span& x : m) x.flag = !x.flag;

    std::vector<Span> splits;
    switch (behavior) {
        case SplitBehavior::Isolated:
            for (const Span& x : m) splits.push_back({x.b, x.e, false});
            break;
        case SplitBehavior::Removed:
            splits = m;
            break;
        case SplitBehavior::Contiguous: {
            bool prev_match = false;
            for (const Span& x : m) {
                if (x.flag == prev_match && !splits.empty()) splits.back().e = x.e;
                else splits.push_back({x.b, x.e, false});
                prev_match = x.flag;
            }
            break;
        }
        case SplitBehavior::MergedWithPrevious: {
            bool prev_match = false;
            for (const Span& x : m) {
                if (x.flag && !prev_match && !splits.empty()) splits.back().e = x.e;
                else splits.push_back({x.b, x.e, false});
                prev_match = x.flag;
            }
            break;
        }
        case SplitBehavior::MergedWithNext: {
            bool prev_match = false;
            for (auto it = m.rbegin(); it != m.rend(); ++it) {
                if (it->flag && !prev_match && !splits.empty()) splits.back().b = it->b;
                else splits.push_back({it->b, it->e, false});
                prev_match = it->flag;
            }
            std::reverse(splits.begin(), splits.end());
            break;
        }
    }
    std::vector<Piece> out;
    for (const Span& x : splits) {
        if (x.flag || x.e == x.b) continue;
        out.push_back({s.substr(x.b, x.e - x.b), piece.at_origin && x.b == 0});
    }
    return out;
}

namespace {

void split_all(std::vector<Piece>& pieces, const Regex& re, SplitBehavior behavior, bool invert) {
    std::vector<Piece> out;
    out.reserve(pieces.size());
    for (const Piece& p : pieces) {
        auto sub = split_piece(p, re, behavior, invert);
        for (Piece& q : sub) out.push_back(std::move(q));
    }
    pieces = std::move(out);
}

std::string to_byte_level(const std::string& s) {
    const auto& map = byte_level_chars();
    std::string out;
    out.reserve(s.size() * 2);
    for (unsigned char b : s) out += map[b];
    return out;
}

std::string replace_spaces(const std::string& s, const std::string& with) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c == ' ') out += with;
        else out.push_back(c);
    }
    return out;
}

}  // namespace

void PreTokenizer::apply(std::vector<Piece>& pieces) const {
    switch (kind) {
        case Kind::Sequence:
            for (const PreTokenizer& c : children) c.apply(pieces);
            return;
        case Kind::ByteLevel: {
            std::vector<Piece> out;
            for (Piece& p : pieces) {
                if (add_prefix_space && (p.text.empty() || p.text[0] != ' ')) p.text.insert(0, " ");
                if (use_regex) {
                    for (Piece& q : split_piece(p, *pattern, SplitBehavior::Isolated, false)) out.push_back(std::move(q));
                } else if (!p.text.empty()) {
                    out.push_back(std::move(p));
                }
            }
            for (Piece& p : out) p.text = to_byte_level(p.text);
            pieces = std::move(out);
            return;
        }
        case Kind::Metaspace: {
            std::vector<Piece> out;
            for (Piece& p : pieces) {
                p.text = replace_spaces(p.text, replacement);
                const bool starts = p.text.compare(0, replacement.size(), replacement) == 0;
                if (!starts && (prepend_scheme == Prepend::Always || (prepend_scheme == Prepend::First && p.at_origin)))
                    p.text.insert(0, replacement);
                if (split) {
                    for (Piece& q : split_piece(p, *pattern, SplitBehavior::MergedWithNext, false)) out.push_back(std::move(q));
                } else if (!p.text.empty()) {
                    out.push_back(std::move(p));
                }
            }
            pieces = std::move(out);
            return;
        }
        case Kind::Split:
        case Kind::Digits:
        case Kind::Whitespace:
        case Kind::WhitespaceSplit:
        case Kind::Punctuation:
        case Kind::CharDelimiterSplit:
            split_all(pieces, *pattern, behavior, invert);
            return;
    }
}

}  // namespace amn::tok
