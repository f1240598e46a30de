// SPDX-License-Identifier: MIT OR Apache-2.0
// gpt2_vocab (conversion/base.py get_vocab_base + get_vocab_base_pre) and
// bpe_merges (gguf-py vocab.py SpecialVocab merges) for BPE tokenizer.json.
#include "tokenizer/bpe_vocab.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/hf_tokenizer.hpp"
#include "tokenizer/pre_table.hpp"
#include "tokenizer/regex.hpp"
#include "tokenizer/unicode_text.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <map>

namespace amn::tok {
namespace {

constexpr std::int32_t kTypeNormal = 1, kTypeControl = 3, kTypeUserDefined = 4, kTypeUnused = 5;

// conversion/base.py `does_token_look_special`.
bool looks_special(std::string_view t) {
    auto starts = [&](std::string_view p) { return t.size() >= p.size() && t.substr(0, p.size()) == p; };
    auto ends = [&](std::string_view s) { return t.size() >= s.size() && t.substr(t.size() - s.size()) == s; };
    if (t == "<pad>" || t == "<mask>" || t == "<2mass>" || t == "[@BOS@]") return true;
    if (starts("<|") && ends("|>")) return true;
    if (starts("<\xEF\xBD\x9C") && ends("\xEF\xBD\x9C>")) return true;  // <｜ … ｜> (deepseek-coder)
    if (starts("<unused") && ends(">")) return true;
    return false;
}

// transformers PreTrainedTokenizerBase.clean_up_tokenization.
std::string clean_up_tokenization(std::string s) {
    static const std::pair<std::string_view, std::string_view> kRules[] = {
        {" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"},
        {" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
    for (auto [from, to] : kRules) s = replace_all(s, from, to);
    return s;
}


// tokenizer_config.json `clean_up_tokenization_spaces` (transformers' default: false).
bool clean_up_spaces(const std::string& dir) {
    const std::string path = dir + "/tokenizer_config.json";
    if (!std::filesystem::is_regular_file(path)) return false;
    const detail::JsonDoc doc = detail::JsonDoc::load(path, "tokenizer_config.json");
    auto v = detail::json_get(doc.root(), "clean_up_tokenization_spaces");
    if (!v || v->is_null()) return false;
    if (!v->is_bool()) throw Error(ErrorCode::BadJson, "clean_up_tokenization_spaces: expected true or false", path);
    return bool(*v);
}

}  // namespace

Gpt2Vocab gpt2_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size,
                     const std::optional<std::string>& pre_override) {
    const std::string path = dir + "/tokenizer.json";
    const HfTokenizer tok = HfTokenizer::load(path);
    const bool cleanup = clean_up_spaces(dir);

    // tokenizer.vocab: model vocabulary with the added tokens on top.
    const auto vocab = tok.vocab();
    const std::uint64_t n = vocab_size.value_or(vocab.size());
    // id → token (nullptr: no token has that id); a token whose id an added token took is not there.
    std::vector<std::pair<std::uint32_t, const std::string*>> kept;
    kept.reserve(vocab.size());
    for (const auto& [t, id] : tok.model().vocab())
        if (vocab.at(t) == id) kept.emplace_back(id, &t);
    for (const AddedToken& a : tok.added_tokens())
        if (vocab.at(a.content) == a.id) kept.emplace_back(a.id, &a.content);  // an added token wins an id it shares
    std::uint32_t max_id = 0;
    for (const auto& k : kept) max_id = std::max(max_id, k.first);
    if (!kept.empty() && max_id >= n)
        throw Error(ErrorCode::SizeMismatch, "token id " + std::to_string(max_id) + " is beyond the vocabulary size " + std::to_string(n),
                    path);
    std::vector<const std::string*> reverse(kept.empty() ? 0 : static_cast<std::size_t>(max_id) + 1, nullptr);
    for (const auto& [id, t] : kept) reverse[id] = t;

    Gpt2Vocab out;
    out.wordpiece = tok.model().wordpiece;
    out.chkhsh = pre_check_hash(tok);
    if (pre_override) {
        out.pre = *pre_override;
    } else if (auto name = pre_name_for_hash(out.chkhsh)) {
        out.pre = *name;
    } else if (auto def = tok.pre_tokenizer() ? pre_name_for_definition(*tok.pre_tokenizer()) : std::nullopt) {
        out.pre = *def;
        out.warnings.push_back(path + ": the check-text hash " + out.chkhsh +
                               " is not in llama.cpp's table; pre-tokenizer \"" + *def +
                               "\" chosen because its pre_tokenizer definition equals that one's");
    } else {
        throw Error(ErrorCode::Unsupported,
                    std::string(out.wordpiece ? "WordPiece" : "BPE") + " pre-tokenizer not recognized (check-text hash " + out.chkhsh +
                        " is not in llama.cpp's table and the pre_tokenizer matches no known one); name it with --vocab-pre",
                    path);
    }

    std::map<std::string, std::uint32_t>& added_vocab = out.added_vocab;  // get_added_vocab(): content → id, in id order
    {
        std::vector<const AddedToken*> by_id;
        for (const AddedToken& a : tok.added_tokens()) by_id.push_back(&a);
        std::stable_sort(by_id.begin(), by_id.end(), [](const AddedToken* a, const AddedToken* b) { return a->id < b->id; });
        for (const AddedToken* a : by_id) added_vocab[a->content] = a->id;
    }

    out.tokens.reserve(n);
    out.types.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i >= reverse.size() || !reverse[i]) {
            out.tokens.push_back("[PAD" + std::to_string(i) + "]");
            out.types.push_back(kTypeUnused);
            continue;
        }
        std::string token = *reverse[i];
        if (added_vocab.count(token)) {
            const AddedToken* a = tok.added_token(static_cast<std::uint32_t>(i));
            if (!a) throw Error(ErrorCode::BadJson, "added token \"" + token + "\" has no entry for id " + std::to_string(i), path);
            if (!a->normalized) {
                token = tok.decode(tok.encode(token, false));
                if (cleanup) token = clean_up_tokenization(std::move(token));
            }
            if (a->special || looks_special(token)) {
                out.types.push_back(kTypeControl);
            } else {
                token = replace_all(std::move(token), "\xE2\x96\x81", " ");  // "▁" → " " (user-defined spaces)
                out.types.push_back(kTypeUserDefined);
            }
        } else {
            out.types.push_back(kTypeNormal);
        }
        out.tokens.push_back(std::move(token));
    }
    return out;
}

namespace {

// Python's str.isspace for one code point.
bool python_isspace(char32_t c) { return (c >= 0x1C && c <= 0x1F) || is_unicode_whitespace(c); }

// gguf-py SpecialVocab._try_load_merges_txt.
std::vector<std::string> merges_txt(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::Io, "cannot read merges.txt", path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!valid_utf8(text)) throw Error(ErrorCode::BadText, "merges.txt is not valid UTF-8", path);
    // Text-mode lines: \n, \r\n and \r end a line.
    std::vector<std::u32string> lines;
    std::u32string cur;
    const std::u32string u = utf8_to_u32(text);
    for (std::size_t i = 0; i < u.size(); ++i) {
        if (u[i] == U'\n' || u[i] == U'\r') {
            if (u[i] == U'\r' && i + 1 < u.size() && u[i + 1] == U'\n') ++i;
            lines.push_back(std::move(cur));
            cur.clear();
        } else {
            cur.push_back(u[i]);
        }
    }
    if (!cur.empty()) lines.push_back(std::move(cur));
    auto words = [](const std::u32string& l) {
        std::vector<std::u32string> w;
        std::u32string c;
        for (char32_t ch : l) {
            if (python_isspace(ch)) {
                if (!c.empty()) w.push_back(std::move(c));
                c.clear();
            } else {
                c.push_back(ch);
            }
        }
        if (!c.empty()) w.push_back(std::move(c));
        return w;
    };
    std::vector<std::string> merges;
    std::size_t first = 0;
    if (!lines.empty()) {
        const auto w = words(lines[0]);
        if (!w.empty() && w[0][0] == U'#') first = 1;  // a "#version" header line
    }
    for (std::size_t i = first; i < lines.size(); ++i) {
        const auto w = words(lines[i]);
        if (w.size() != 2) continue;  // empty or malformed: skipped (the converter warns)
        merges.push_back(u32_to_utf8(w[0]) + " " + u32_to_utf8(w[1]));
    }
    return merges;
}

}  // namespace

std::vector<std::string> bpe_merges(const std::string& tokenizer_json_path) {
    const std::filesystem::path p(tokenizer_json_path);
    const std::string txt = (p.parent_path() / "merges.txt").string();
    if (!std::filesystem::is_regular_file(p))
        return std::filesystem::is_regular_file(txt) ? merges_txt(txt) : std::vector<std::string>{};
    const detail::JsonDoc doc = detail::JsonDoc::load(tokenizer_json_path, "tokenizer.json");
    std::vector<std::string> out;
    auto model = detail::json_get(doc.root(), "model");
    auto merges = model ? detail::json_get(*model, "merges") : std::nullopt;
    simdjson::dom::array arr;
    if (merges && !merges->get(arr) && arr.size() > 0) {
        const auto first = arr.at(0);
        if (first.is_string()) {
            out.reserve(arr.size());
            for (auto m : arr) {
                std::string_view s;
                if (m.get(s)) throw Error(ErrorCode::BadJson, "model.merges: a merge that is not a string among strings", tokenizer_json_path);
                out.emplace_back(s);
            }
        } else {
            simdjson::dom::array pair0;
            if (first.get(pair0) || pair0.size() != 2 || !pair0.at(0).is_string())
                throw Error(ErrorCode::BadJson, "model.merges: unknown merges format", tokenizer_json_path);
            out.reserve(arr.size());
            for (auto m : arr) {
                simdjson::dom::array pair;
                if (m.get(pair)) throw Error(ErrorCode::BadJson, "model.merges: a merge that is not a pair", tokenizer_json_path);
                std::string joined;
                bool firstpart = true;
                for (auto part : pair) {
                    std::string_view s;
                    if (part.get(s)) throw Error(ErrorCode::BadJson, "model.merges: a merge part that is not a string", tokenizer_json_path);
                    if (!firstpart) joined.push_back(' ');
                    firstpart = false;
                    joined += replace_all(std::string(s), " ", "\xC4\xA0");  // ' ' → chr(ord(' ') + 256) = "Ġ"
                }
                out.push_back(std::move(joined));
            }
        }
    }
    if (out.empty() && std::filesystem::is_regular_file(txt)) return merges_txt(txt);
    return out;
}

}  // namespace amn::tok
