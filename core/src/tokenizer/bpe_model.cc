// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/bpe_model.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/unicode_text.hpp"

#include <cstdio>
#include <queue>

namespace amn::tok {

BpeModel BpeModel::parse(simdjson::dom::element model, const std::string& file) {
    BpeModel m;
    m.file_ = file;
    auto type = detail::json_string(model, "type", file);
    if (type && *type != "BPE" && *type != "WordPiece")
        throw Error(ErrorCode::Unsupported, "tokenizer model type \"" + *type + "\" is not BPE or WordPiece", file);
    m.wordpiece = type && *type == "WordPiece";
    if (auto d = detail::json_number(model, "dropout", file); d && *d > 0.0)
        throw Error(ErrorCode::Unsupported, "BPE dropout " + std::to_string(*d) + " is random: not supported", file);
    m.ignore_merges = detail::json_bool(model, "ignore_merges", file).value_or(false);
    m.byte_fallback = detail::json_bool(model, "byte_fallback", file).value_or(false);
    m.fuse_unk = detail::json_bool(model, "fuse_unk", file).value_or(false);
    m.unk_token = detail::json_string(model, "unk_token", file);
    m.continuing_subword_prefix = detail::json_string(model, "continuing_subword_prefix", file);
    m.end_of_word_suffix = detail::json_string(model, "end_of_word_suffix", file);
    if (m.wordpiece) {
        if (!m.unk_token) m.unk_token = "[UNK]";
        if (!m.continuing_subword_prefix) m.continuing_subword_prefix = "##";
        if (auto n = detail::json_int(model, "max_input_chars_per_word", file)) {
            if (*n < 0) throw Error(ErrorCode::BadJson, "model.max_input_chars_per_word must not be negative", file);
            m.max_input_chars_per_word = static_cast<std::size_t>(*n);
        }
    }

    auto vocab = detail::json_get(model, "vocab");
    simdjson::dom::object vo;
    if (!vocab || vocab->get(vo)) throw Error(ErrorCode::BadJson, "model.vocab must be an object", file);
    // vocab_ maps a token to its index in vocab_list_ while reading (a repeated
    // key: the last id wins, in the first key's place, as a Python dict), then to its id.
    const std::size_t n = vo.size();
    m.vocab_list_.reserve(n);
    m.vocab_.reserve(n);
    m.vocab_r_.reserve(n);
    for (auto field : vo) {
        std::int64_t id;
        if (field.value.get(id) || id < 0 || id > INT32_MAX)
            throw Error(ErrorCode::BadJson, "model.vocab[\"" + std::string(field.key) + "\"]: expected an id", file);
        auto [it, fresh] = m.vocab_.try_emplace(std::string(field.key), static_cast<std::uint32_t>(m.vocab_list_.size()));
        if (fresh) m.vocab_list_.emplace_back(it->first, std::uint32_t(id));
        else m.vocab_list_[it->second].second = std::uint32_t(id);
    }
    for (const auto& [tok, id] : m.vocab_list_) {
        m.vocab_.find(tok)->second = id;
        m.vocab_r_[id] = tok;
    }

    auto merges = detail::json_get(model, "merges");
    if (!merges || merges->is_null()) return m;
    simdjson::dom::array ma;
    if (merges->get(ma)) throw Error(ErrorCode::BadJson, "model.merges must be an array", file);
    const std::size_t prefix_len = m.continuing_subword_prefix ? m.continuing_subword_prefix->size() : 0;
    std::uint32_t rank = 0;
    m.merges_.reserve(ma.size());
    std::string merged;
    for (auto item : ma) {
        std::string_view a, b;
        std::string_view s;
        simdjson::dom::array pair;
        if (!item.get(s)) {
            const auto sp = s.find(' ');
            if (sp == std::string_view::npos || s.find(' ', sp + 1) != std::string_view::npos)
                throw Error(ErrorCode::BadJson, "model.merges[" + std::to_string(rank) + "] \"" + std::string(s) +
                                                    "\" is not two tokens separated by one space", file);
            a = s.substr(0, sp);
            b = s.substr(sp + 1);
        } else if (!item.get(pair) && pair.size() == 2 && pair.at(0).is_string() && pair.at(1).is_string()) {
            a = std::string_view(pair.at(0));
            b = std::string_view(pair.at(1));
        } else {
            throw Error(ErrorCode::BadJson, "model.merges[" + std::to_string(rank) + "] is neither \"a b\" nor [\"a\", \"b\"]",
                        file);
        }
        auto ia = m.vocab_.find(a), ib = m.vocab_.find(b);
        if (ia == m.vocab_.end() || ib == m.vocab_.end())
            throw Error(ErrorCode::BadJson,
                        "model.merges[" + std::to_string(rank) + "]: \"" + std::string(ia == m.vocab_.end() ? a : b) +
                            "\" is not in the vocabulary",
                        file);
        merged.assign(a);
        merged.append(b.substr(std::min(prefix_len, b.size())));
        auto in = m.vocab_.find(std::string_view(merged));
        if (in == m.vocab_.end())
            throw Error(ErrorCode::BadJson,
                        "model.merges[" + std::to_string(rank) + "]: the merged token \"" + merged + "\" is not in the vocabulary", file);
        m.merges_[key(ia->second, ib->second)] = Merge{rank, in->second};  // a repeated pair: the last rank wins
        ++rank;
    }
    return m;
}

std::optional<std::uint32_t> BpeModel::token_to_id(std::string_view token) const {
    auto it = vocab_.find(token);
    if (it == vocab_.end()) return std::nullopt;
    return it->second;
}

const std::string* BpeModel::id_to_token(std::uint32_t id) const {
    auto it = vocab_r_.find(id);
    return it == vocab_r_.end() ? nullptr : &it->second;
}

void BpeModel::tokenize_wordpiece(std::string_view w, std::vector<std::uint32_t>& out) const {
    auto unk = [&] {
        auto id = token_to_id(*unk_token);
        if (!id) throw Error(ErrorCode::BadJson, "model.unk_token \"" + *unk_token + "\" is not in the vocabulary", file_);
        out.push_back(*id);
    };
    std::size_t chars = 0;
    for (unsigned char c : w) chars += (c & 0xC0) != 0x80;
    if (chars > max_input_chars_per_word) return unk();
    const std::size_t first = out.size();
    std::string probe;
    for (std::size_t start = 0; start < w.size();) {
        std::size_t end = w.size();
        std::optional<std::uint32_t> found;
        while (start < end) {
            probe.assign(start > 0 ? *continuing_subword_prefix : std::string());
            probe.append(w.substr(start, end - start));
            if ((found = token_to_id(probe))) break;
            // Drop the last character of w[start, end).
            do --end;
            while (end > start && (static_cast<unsigned char>(w[end]) & 0xC0) == 0x80);
        }
        if (!found) {
            out.resize(first);
            return unk();
        }
        out.push_back(*found);
        start = end;
    }
}

void BpeModel::tokenize(std::string_view w, std::vector<std::uint32_t>& out) const {
    if (w.empty()) return;
    if (wordpiece) return tokenize_wordpiece(w, out);
    if (ignore_merges)
        if (auto id = token_to_id(w)) {
            out.push_back(*id);
            return;
        }
    // Initial symbols: one per character (with the subword prefix / word suffix).
    std::vector<std::uint32_t> sym;
    std::optional<std::uint32_t> unk_id;  // looked up when first needed, as tokenizers does
    bool pending_unk = false;  // an unk symbol not yet pushed (fuse_unk merges consecutive ones)
    auto flush_unk = [&] {
        if (pending_unk) sym.push_back(*unk_id);
        pending_unk = false;
    };
    for (std::size_t i = 0; i < w.size();) {
        const std::size_t n = std::min(utf8_len(static_cast<unsigned char>(w[i])), w.size() - i);
        std::string s(w.substr(i, n));
        if (i != 0 && continuing_subword_prefix) s = *continuing_subword_prefix + s;
        if (i + n == w.size() && end_of_word_suffix) s += *end_of_word_suffix;
        i += n;
        if (auto id = token_to_id(s)) {
            flush_unk();
            sym.push_back(*id);
            continue;
        }
        if (byte_fallback) {
            std::vector<std::uint32_t> bytes;
            bool all = true;
            for (unsigned char b : s) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "<0x%02X>", b);
                auto id = token_to_id(buf);
                if (!id) {
                    all = false;
                    break;
                }
                bytes.push_back(*id);
            }
            if (all) {
                // A pending unk stays pending (tokenizers adds it after these bytes).
                for (auto id : bytes) sym.push_back(id);
                continue;
            }
        }
        if (!unk_token) continue;
        if (!unk_id) {
            unk_id = token_to_id(*unk_token);
            if (!unk_id)
                throw Error(ErrorCode::BadJson, "model.unk_token \"" + *unk_token + "\" is not in the vocabulary", file_);
        }
        if (pending_unk && fuse_unk) continue;
        flush_unk();
        pending_unk = true;
    }
    flush_unk();

    // merge_all: repeatedly apply the lowest-rank merge, leftmost first.
    const std::size_t n = sym.size();
    std::vector<std::ptrdiff_t> prev(n), next(n);
    std::vector<bool> alive(n, true);
    for (std::size_t i = 0; i < n; ++i) {
        prev[i] = static_cast<std::ptrdiff_t>(i) - 1;
        next[i] = i + 1 < n ? static_cast<std::ptrdiff_t>(i + 1) : -1;
    }
    struct Cand {
        std::uint32_t rank;
        std::size_t pos;
        std::uint32_t left, right;  // the symbols the pair had when queued
        bool operator>(const Cand& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    std::priority_queue<Cand, std::vector<Cand>, std::greater<>> q;
    auto push = [&](std::size_t i) {
        if (next[i] < 0) return;
        auto it = merges_.find(key(sym[i], sym[static_cast<std::size_t>(next[i])]));
        if (it != merges_.end()) q.push({it->second.rank, i, sym[i], sym[static_cast<std::size_t>(next[i])]});
    };
    for (std::size_t i = 0; i + 1 < n; ++i) push(i);
    while (!q.empty()) {
        const Cand c = q.top();
        q.pop();
        const std::size_t i = c.pos;
        if (!alive[i] || next[i] < 0) continue;
        const auto j = static_cast<std::size_t>(next[i]);
        if (sym[i] != c.left || sym[j] != c.right) continue;  // stale
        sym[i] = merges_.at(key(c.left, c.right)).new_id;
        alive[j] = false;
        next[i] = next[j];
        if (next[j] >= 0) prev[static_cast<std::size_t>(next[j])] = static_cast<std::ptrdiff_t>(i);
        if (prev[i] >= 0) push(static_cast<std::size_t>(prev[i]));
        push(i);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (alive[i]) out.push_back(sym[i]);
}

}  // namespace amn::tok
