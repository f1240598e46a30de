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
    }
    return s;
}

}  // namespace amn::tok
