// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/normalizer.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/json_fields.hpp"

namespace amn::tok {

Normalizer parse_normalizer(simdjson::dom::element e, const std::string& file) {
    Normalizer n;
    n.type = required_type(e, "normalizer", file);
    const std::string& t = n.type;
    if (t == "Sequence") {
        n.kind = Normalizer::Kind::Sequence;
        for (auto child : required_array(e, "normalizers", "normalizer Sequence", file))
            n.children.push_back(parse_normalizer(child, file));
    } else if (t == "NFC" || t == "NFD" || t == "NFKC" || t == "NFKD") {
        n.kind = Normalizer::Kind::Unicode;
        n.form = t == "NFC" ? NormForm::NFC : t == "NFD" ? NormForm::NFD : t == "NFKC" ? NormForm::NFKC : NormForm::NFKD;
    } else if (t == "Lowercase") {
        n.kind = Normalizer::Kind::Lowercase;
    } else if (t == "Strip") {
        n.kind = Normalizer::Kind::Strip;
        n.strip_left = detail::json_bool(e, "strip_left", file).value_or(false);
        n.strip_right = detail::json_bool(e, "strip_right", file).value_or(false);
    } else if (t == "StripAccents") {
        n.kind = Normalizer::Kind::StripAccents;
    } else if (t == "Prepend") {
        n.kind = Normalizer::Kind::Prepend;
        n.text = required_string(e, "prepend", "normalizer Prepend", file);
    } else if (t == "Replace") {
        n.kind = Normalizer::Kind::Replace;
        n.pattern = parse_pattern(e, "normalizer Replace", file);
        n.text = required_string(e, "content", "normalizer Replace", file);
    } else if (t == "BertNormalizer") {
        n.kind = Normalizer::Kind::Bert;
        n.clean_text = detail::json_bool(e, "clean_text", file).value_or(true);
        n.handle_chinese_chars = detail::json_bool(e, "handle_chinese_chars", file).value_or(true);
        n.strip_accents = detail::json_bool(e, "strip_accents", file);  // null or absent: follows lowercase
        n.lowercase = detail::json_bool(e, "lowercase", file).value_or(true);
    } else {
        throw Error(ErrorCode::Unsupported, "normalizer type \"" + t + "\" is not supported", file);
    }
    return n;
}

namespace {
std::string strip_whitespace(const std::string& s, bool left, bool right) {
    const std::u32string u = utf8_to_u32(s);
    std::size_t b = 0, e = u.size();
    if (left)
        while (b < e && is_unicode_whitespace(u[b])) ++b;
    if (right)
        while (e > b && is_unicode_whitespace(u[e - 1])) --e;
    return u32_to_utf8(std::u32string_view(u).substr(b, e - b));
}

std::string replace_all(const std::string& s, const Regex& re, const std::string& content) {
    const auto matches = re.find_all(s);
    if (matches.empty()) return s;
    std::string out;
    std::size_t prev = 0;
    for (auto [b, e] : matches) {
        out.append(s, prev, b - prev);
        out.append(content);
        prev = e;
    }
    out.append(s, prev, std::string::npos);
    return out;
}
// BERT's `_is_chinese_char` blocks (CJK Unified Ideographs and their extensions, compatibility ideographs).
bool is_chinese_char(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::string bert_normalize(const Normalizer& n, std::string s) {
    if (n.clean_text) {
        static const Regex other("\\p{C}", "");  // Cc, Cf, Cn, Co, Cs: Rust's char::is_other
        std::u32string u = utf8_to_u32(s), kept;
        kept.reserve(u.size());
        for (char32_t c : u) {
            if (c == U'\t' || c == U'\n' || c == U'\r') {
                kept.push_back(U' ');
                continue;
            }
            if (c == 0 || c == 0xFFFD) continue;
            std::string one;
            append_utf8(one, c);
            if (!other.find_all(one).empty()) continue;
            kept.push_back(is_unicode_whitespace(c) ? U' ' : c);
        }
        s = u32_to_utf8(kept);
    }
    if (n.handle_chinese_chars) {
        std::u32string out;
        for (char32_t c : utf8_to_u32(s)) {
            if (is_chinese_char(c)) {
                out.push_back(U' ');
                out.push_back(c);
                out.push_back(U' ');
            } else {
                out.push_back(c);
            }
        }
        s = u32_to_utf8(out);
    }
    if (n.strip_accents.value_or(n.lowercase)) {
        static const Regex nonspacing("\\p{Mn}", "");
        s = replace_all(unicode_normalize(s, NormForm::NFD), nonspacing, "");
    }
    if (n.lowercase) s = unicode_lowercase(s);
    return s;
}
}  // namespace

std::string Normalizer::apply(std::string s) const {
    switch (kind) {
        case Kind::Sequence:
            for (const Normalizer& c : children) s = c.apply(std::move(s));
            return s;
        case Kind::Unicode: return unicode_normalize(s, form);
        case Kind::Lowercase: return unicode_lowercase(s);
        case Kind::Strip: return strip_whitespace(s, strip_left, strip_right);
        case Kind::StripAccents: {
            // Drops combining marks (General_Category M), as the tokenizers StripAccents does.
            static const Regex marks("\\p{M}", "");
            return replace_all(s, marks, "");
        }
        case Kind::Prepend: return s.empty() ? s : text + s;
        case Kind::Replace: return replace_all(s, *pattern, text);
        case Kind::Bert: return bert_normalize(*this, std::move(s));
    }
    return s;
}

}  // namespace amn::tok
