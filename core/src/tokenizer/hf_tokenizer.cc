// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/hf_tokenizer.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/unicode_text.hpp"

namespace amn::tok {

HfTokenizer HfTokenizer::load(const std::string& path) {
    const detail::JsonDoc doc = detail::JsonDoc::load(path, "tokenizer.json");
    return from_root(doc.root(), path);
}

HfTokenizer HfTokenizer::parse(std::string_view json, const std::string& file) {
    const detail::JsonDoc doc(json, file, "tokenizer.json");
    return from_root(doc.root(), file);
}

HfTokenizer HfTokenizer::from_root(simdjson::dom::element root, const std::string& path) {
    HfTokenizer t;
    t.file_ = path;
    if (!root.is_object()) throw Error(ErrorCode::BadJson, "tokenizer.json: expected an object", path);
    auto model = detail::json_get(root, "model");
    if (!model || !model->is_object()) throw Error(ErrorCode::BadJson, "tokenizer.json has no \"model\" object", path);
    t.model_ = BpeModel::parse(*model, path);

    auto opt = [&](std::string_view key) -> std::optional<simdjson::dom::element> {
        auto e = detail::json_get(root, key);
        if (!e || e->is_null()) return std::nullopt;
        return e;
    };
    if (auto e = opt("normalizer")) t.normalizer_ = parse_normalizer(*e, path);
    if (auto e = opt("pre_tokenizer")) t.pre_tokenizer_ = parse_pre_tokenizer(*e, path);
    if (auto e = opt("post_processor")) t.post_processor_ = parse_post_processor(*e, path);
    if (auto e = opt("decoder")) t.decoder_ = parse_decoder(*e, path);

    if (auto added = opt("added_tokens")) {
        simdjson::dom::array arr;
        if (added->get(arr)) throw Error(ErrorCode::BadJson, "added_tokens must be an array", path);
        std::size_t i = 0;
        for (auto a : arr) {
            const std::string where = "added_tokens[" + std::to_string(i++) + "]";
            AddedToken tok;
            auto id = detail::json_int(a, "id", path);
            auto content = detail::json_string(a, "content", path);
            if (!id || *id < 0 || *id > INT32_MAX || !content)
                throw Error(ErrorCode::BadJson, where + ": needs an \"id\" and a \"content\"", path);
            if (!valid_utf8(*content)) throw Error(ErrorCode::BadText, where + ": content is not valid UTF-8", path);
            tok.id = static_cast<std::uint32_t>(*id);
            tok.content = *content;
            tok.special = detail::json_bool(a, "special", path).value_or(false);
            tok.normalized = detail::json_bool(a, "normalized", path).value_or(!tok.special);
            tok.lstrip = detail::json_bool(a, "lstrip", path).value_or(false);
            tok.rstrip = detail::json_bool(a, "rstrip", path).value_or(false);
            tok.single_word = detail::json_bool(a, "single_word", path).value_or(false);
            t.added_by_id_[tok.id] = t.added_.size();
            t.added_by_content_[tok.content] = t.added_.size();
            t.added_.push_back(std::move(tok));
        }
    }
    for (std::size_t k = 0; k < t.added_.size(); ++k) {
        const AddedToken& a = t.added_[k];
        if (a.content.empty()) continue;
        if (a.normalized) {
            const std::string n = t.normalizer_ ? t.normalizer_->apply(a.content) : a.content;
            if (!n.empty()) t.normalized_trie_.insert(n, static_cast<std::int32_t>(k));
        } else {
            t.raw_trie_.insert(a.content, static_cast<std::int32_t>(k));
        }
    }
    return t;
}

void HfTokenizer::Trie::insert(std::string_view s, std::int32_t token) {
    std::uint32_t n = 0;
    for (unsigned char c : s) {
        auto it = nodes[n].next.find(c);
        if (it == nodes[n].next.end()) {
            nodes.emplace_back();
            const auto fresh = static_cast<std::uint32_t>(nodes.size() - 1);
            nodes[n].next.emplace(c, fresh);
            n = fresh;
        } else {
            n = it->second;
        }
    }
    if (nodes[n].token < 0) nodes[n].token = token;  // the first of equal patterns wins (aho-corasick)
}

std::pair<std::int32_t, std::size_t> HfTokenizer::Trie::longest(std::string_view s, std::size_t pos) const {
    std::pair<std::int32_t, std::size_t> best{-1, 0};
    std::uint32_t n = 0;
    for (std::size_t i = pos; i < s.size(); ++i) {
        auto it = nodes[n].next.find(static_cast<unsigned char>(s[i]));
        if (it == nodes[n].next.end()) break;
        n = it->second;
        if (nodes[n].token >= 0) best = {nodes[n].token, i + 1 - pos};
    }
    return best;
}

namespace {

char32_t last_char(std::string_view s) {
    if (s.empty()) return 0;
    std::size_t i = s.size() - 1;
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return utf8_to_u32(s.substr(i)).front();
}
char32_t first_char(std::string_view s) {
    if (s.empty()) return 0;
    return utf8_to_u32(s.substr(0, std::min(s.size(), utf8_len(static_cast<unsigned char>(s[0]))))).front();
}
// Byte offset after the last non-whitespace character of `s` (0 if none).
std::size_t space_leftmost_at_end(std::string_view s) {
    std::size_t end = s.size();
    while (end > 0) {
        std::size_t i = end - 1;
        while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
        if (!is_unicode_whitespace(first_char(s.substr(i)))) return end;
        end = i;
    }
    return 0;
}
// Byte length of the whitespace prefix of `s`.
std::size_t space_rightmost_at_start(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t n = utf8_len(static_cast<unsigned char>(s[i]));
        if (!is_unicode_whitespace(first_char(s.substr(i, n)))) return i;
        i += n;
    }
    return s.size();
}

}  // namespace

void HfTokenizer::split_added(const Trie& trie, std::vector<Segment>& segs, bool normalize_first) const {
    std::vector<Segment> out;
    out.reserve(segs.size());
    for (Segment& seg : segs) {
        if (seg.added >= 0) {
            out.push_back(std::move(seg));
            continue;
        }
        if (normalize_first && normalizer_) seg.text = normalizer_->apply(std::move(seg.text));
        const std::string& s = seg.text;
        std::size_t start_offset = 0;
        auto emit = [&](std::size_t b, std::size_t e, std::int32_t added) {
            if (e > b) out.push_back({s.substr(b, e - b), added, seg.at_origin && b == 0});
        };
        if (!trie.empty()) {
            for (std::size_t pos = 0; pos < s.size();) {
                auto [k, len] = trie.longest(s, pos);
                if (k < 0) {
                    ++pos;
                    continue;
                }
                std::size_t start = pos, stop = pos + len;
                pos = stop;  // the next search starts after the match as found
                const AddedToken& a = added_[static_cast<std::size_t>(k)];
                if (a.single_word) {
                    const bool start_space = start == 0 || !is_unicode_alphanumeric(last_char(std::string_view(s).substr(0, start)));
                    const bool stop_space =
                        stop == s.size() || !is_unicode_alphanumeric(first_char(std::string_view(s).substr(stop)));
                    if (!start_space || !stop_space) continue;
                }
                if (a.lstrip) start = std::max(space_leftmost_at_end(std::string_view(s).substr(0, start)), start_offset);
                if (a.rstrip) stop += space_rightmost_at_start(std::string_view(s).substr(stop));
                if (start_offset < start) emit(start_offset, start, -1);
                emit(start, stop, k);
                start_offset = stop;
            }
        }
        if (start_offset < s.size()) emit(start_offset, s.size(), -1);
    }
    segs = std::move(out);
}

std::vector<std::uint32_t> HfTokenizer::encode(std::string_view text, bool add_special_tokens) const {
    if (!valid_utf8(text)) throw Error(ErrorCode::BadText, "text to encode is not valid UTF-8", file_);
    std::vector<Segment> segs{{std::string(text), -1, true}};
    split_added(raw_trie_, segs, false);
    split_added(normalized_trie_, segs, true);
    std::vector<std::uint32_t> ids;
    for (const Segment& seg : segs) {
        if (seg.added >= 0) {
            ids.push_back(added_[static_cast<std::size_t>(seg.added)].id);
            continue;
        }
        std::vector<Piece> pieces{{seg.text, seg.at_origin}};
        if (pre_tokenizer_) pre_tokenizer_->apply(pieces);
        for (const Piece& p : pieces) model_.tokenize(p.text, ids);
    }
    if (post_processor_) ids = post_processor_->apply(std::move(ids), add_special_tokens);
    return ids;
}

const AddedToken* HfTokenizer::added_token(std::uint32_t id) const {
    auto it = added_by_id_.find(id);
    return it == added_by_id_.end() ? nullptr : &added_[it->second];
}

std::optional<std::uint32_t> HfTokenizer::token_to_id(std::string_view token) const {
    auto it = added_by_content_.find(std::string(token));
    if (it != added_by_content_.end()) return added_[it->second].id;
    return model_.token_to_id(token);
}

const std::string* HfTokenizer::id_to_token(std::uint32_t id) const {
    if (const AddedToken* a = added_token(id)) return &a->content;
    return model_.id_to_token(id);
}

std::unordered_map<std::string, std::uint32_t> HfTokenizer::vocab() const {
    std::unordered_map<std::string, std::uint32_t> v;
    v.reserve(model_.size() + added_.size());
    for (const auto& [tok, id] : model_.vocab()) v[tok] = id;
    for (const AddedToken& a : added_) v[a.content] = a.id;
    return v;
}

std::string HfTokenizer::decode(const std::vector<std::uint32_t>& ids, bool skip_special_tokens) const {
    std::vector<std::string> tokens;
    tokens.reserve(ids.size());
    for (std::uint32_t id : ids) {
        const std::string* t = id_to_token(id);
        if (!t) continue;
        if (skip_special_tokens) {
            auto it = added_by_content_.find(*t);
            if (it != added_by_content_.end() && added_[it->second].special) continue;
        }
        tokens.push_back(*t);
    }
    std::string out;
    if (!decoder_) {
        for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? " " : "") + tokens[i];
        return out;
    }
    for (const std::string& t : decoder_->decode_chain(std::move(tokens))) out += t;
    return out;
}

}  // namespace amn::tok
