// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/decoder.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/json_fields.hpp"
#include "tokenizer/unicode_text.hpp"

namespace amn::tok {

std::string utf8_lossy(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = p[i];
        if (b < 0x80) {
            out.push_back(static_cast<char>(b));
            ++i;
            continue;
        }
        // Valid ranges of the second byte (Unicode Table 3-7); a maximal
        // ill-formed prefix becomes one U+FFFD.
        std::size_t len = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) len = 2;
        else if (b >= 0xE0 && b <= 0xEF) len = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
        else if (b >= 0xF0 && b <= 0xF4) len = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
        if (len == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        std::size_t k = 1;
        for (; k < len && i + k < n; ++k) {
            const unsigned char c = p[i + k];
            const unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
            if (c < l || c > h) break;
        }
        if (k == len) out.append(s.substr(i, len));
        else out += "\xEF\xBF\xBD";
        i += k;
    }
    return out;
}

Decoder parse_decoder(simdjson::dom::element e, const std::string& file) {
    Decoder d;
    d.type = required_type(e, "decoder", file);
    const std::string& t = d.type;
    using K = Decoder::Kind;
    if (t == "Sequence") {
        d.kind = K::Sequence;
        for (auto c : required_array(e, "decoders", "decoder Sequence", file)) d.children.push_back(parse_decoder(c, file));
    } else if (t == "ByteLevel") {
        d.kind = K::ByteLevel;
    } else if (t == "Metaspace") {
        d.kind = K::Metaspace;
        d.text = detail::json_string(e, "replacement", file).value_or("\xE2\x96\x81");
        if (auto s = detail::json_string(e, "prepend_scheme", file)) d.prepend = *s != "never";
        else d.prepend = detail::json_bool(e, "add_prefix_space", file).value_or(true);
    } else if (t == "ByteFallback") {
        d.kind = K::ByteFallback;
    } else if (t == "Fuse") {
        d.kind = K::Fuse;
    } else if (t == "Strip") {
        d.kind = K::Strip;
        d.text = required_string(e, "content", "decoder Strip", file);
        d.start = static_cast<std::size_t>(std::max<std::int64_t>(0, detail::json_int(e, "start", file).value_or(0)));
        d.stop = static_cast<std::size_t>(std::max<std::int64_t>(0, detail::json_int(e, "stop", file).value_or(0)));
    } else if (t == "Replace") {
        d.kind = K::Replace;
        d.pattern = parse_pattern(e, "decoder Replace", file);
        d.text = required_string(e, "content", "decoder Replace", file);
    } else if (t == "BPEDecoder") {
        d.kind = K::BPEDecoder;
        d.text = detail::json_string(e, "suffix", file).value_or("</w>");
    } else if (t == "WordPiece") {
        d.kind = K::WordPiece;
        d.text = detail::json_string(e, "prefix", file).value_or("##");
        d.cleanup = detail::json_bool(e, "cleanup", file).value_or(true);
    } else {
        throw Error(ErrorCode::Unsupported, "decoder type \"" + t + "\" is not supported", file);
    }
    return d;
}

namespace {


std::string wordpiece_cleanup(std::string s) {
    static const std::pair<const char*, const char*> kRules[] = {
        {" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"},
        {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
    for (auto [a, b] : kRules) s = replace_all(s, a, b);
    return s;
}

}  // namespace

std::vector<std::string> Decoder::decode_chain(std::vector<std::string> tokens) const {
    using K = Kind;
    switch (kind) {
        case K::Sequence:
            for (const Decoder& c : children) tokens = c.decode_chain(std::move(tokens));
            return tokens;
        case K::ByteLevel: {
            std::string bytes;
            for (const std::string& t : tokens) {
                std::string mine;
                bool all = true;
                for (char32_t c : utf8_to_u32(t)) {
                    const int b = byte_level_byte(c);
                    if (b < 0) {
                        all = false;
                        break;
                    }
                    mine.push_back(static_cast<char>(b));
                }
                bytes += all ? mine : t;
            }
            return {utf8_lossy(bytes)};
        }
        case K::Metaspace: {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < tokens.size(); ++i)
                out.push_back(replace_all(tokens[i], text, i == 0 && prepend ? "" : " "));
            return out;
        }
        case K::ByteFallback: {
            std::vector<std::string> out;
            std::string pending;
            auto flush = [&] {
                if (pending.empty()) return;
                if (valid_utf8(pending)) out.push_back(pending);
                else
                    for (std::size_t k = 0; k < pending.size(); ++k) out.emplace_back("\xEF\xBF\xBD");
                pending.clear();
            };
            for (std::string& t : tokens) {
                int byte = -1;
                if (t.size() == 6 && t.compare(0, 3, "<0x") == 0 && t[5] == '>') {
                    auto hex = [](char c) {
                        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
                    };
                    const int h = hex(t[3]), l = hex(t[4]);
                    if (h >= 0 && l >= 0) byte = h * 16 + l;
                }
                if (byte >= 0) {
                    pending.push_back(static_cast<char>(byte));
                } else {
                    flush();
                    out.push_back(std::move(t));
                }
            }
            flush();
            return out;
        }
        case K::Fuse: {
            std::string all;
            for (const std::string& t : tokens) all += t;
            return {all};
        }
        case K::Strip: {
            const std::u32string content = utf8_to_u32(text);
            std::vector<std::string> out;
            for (const std::string& t : tokens) {
                const std::u32string u = utf8_to_u32(t);
                std::size_t b = 0, e = u.size();
                for (std::size_t i = 0; i < start && i < u.size() && content.size() == 1 && u[i] == content[0]; ++i) b = i + 1;
                for (std::size_t i = 0; i < stop && i < u.size() && content.size() == 1 && u[u.size() - 1 - i] == content[0]; ++i)
                    e = u.size() - 1 - i;
                out.push_back(b < e ? u32_to_utf8(std::u32string_view(u).substr(b, e - b)) : std::string());
            }
            return out;
        }
        case K::Replace: {
            std::vector<std::string> out;
            for (const std::string& t : tokens) {
                std::string r;
                std::size_t prev = 0;
                for (auto [b, e] : pattern->find_all(t)) {
                    r.append(t, prev, b - prev);
                    r += text;
                    prev = e;
                }
                r.append(t, prev, std::string::npos);
                out.push_back(std::move(r));
            }
            return out;
        }
        case K::BPEDecoder: {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < tokens.size(); ++i)
                out.push_back(replace_all(tokens[i], text, i + 1 == tokens.size() ? "" : " "));
            return out;
        }
        case K::WordPiece: {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                std::string t = tokens[i];
                if (i != 0) {
                    if (!text.empty() && t.compare(0, text.size(), text) == 0) t.erase(0, text.size());
                    else t = " " + t;
                }
                if (cleanup) t = wordpiece_cleanup(std::move(t));
                out.push_back(std::move(t));
            }
            return out;
        }
    }
    return tokens;
}

}  // namespace amn::tok
