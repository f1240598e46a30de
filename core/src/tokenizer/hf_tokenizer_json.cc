// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF tokenizer.* → tokenizer.json: byte-level BPE ("gpt2", by the
// pre-tokenizer table of pre_table.cc), SentencePiece BPE ("llama", as
// transformers' GGUF loader and LlamaConverter build it), WordPiece ("bert")
// and XLM-RoBERTa's Unigram ("t5", as XLMRobertaConverter builds it).
#include "anamnesis/json_writer.hpp"
#include "tokenizer/hf_from_gguf.hpp"
#include "tokenizer/pre_table.hpp"
#include "tokenizer/unicode_text.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace amn::tok {
namespace {

// gguf-py TokenType: 1 NORMAL (the default, never tested here), 2 UNKNOWN, 3 CONTROL, 4 USER_DEFINED, 5 UNUSED.
constexpr std::int32_t kUnknown = 2, kControl = 3, kUserDefined = 4, kUnused = 5;
constexpr const char* kSpace = "\xE2\x96\x81";  // "▁"

bool is_added(std::int32_t t) { return t == kUnknown || t == kControl || t == kUserDefined; }

/// "[PAD<id>]" with type unused: the converter's padding up to vocab_size.
bool is_padding(const GgufTokenizerKvs& kv, std::size_t id) {
    return kv.types[id] == kUnused && kv.tokens[id] == "[PAD" + std::to_string(id) + "]";
}

void added_tokens(JsonWriter& w, const GgufTokenizerKvs& kv) {
    w.key("added_tokens").begin_array();
    for (std::size_t i = 0; i < kv.tokens.size(); ++i) {
        if (!is_added(kv.types[i])) continue;
        w.begin_object();
        w.key("id").value(static_cast<std::uint64_t>(i));
        w.key("content").value(kv.tokens[i]);
        w.key("single_word").value(false);
        w.key("lstrip").value(kv.model == "t5" && kv.tokens[i] == "<mask>");  // XLMRobertaTokenizer's mask_token
        w.key("rstrip").value(false);
        w.key("normalized").value(false);
        w.key("special").value(kv.types[i] != kUserDefined);
        w.end_object();
    }
    w.end_array();
}

/// tokenizer.json's opening: `{"version": "1.0", "truncation": null, "padding": null, "added_tokens": […]`
/// (the object left open for the normalizer and what follows).
void begin_tokenizer_json(JsonWriter& w, const GgufTokenizerKvs& kv) {
    w.begin_object();
    w.key("version").value("1.0");
    w.key("truncation").null();
    w.key("padding").null();
    added_tokens(w, kv);
}

/// One piece of a TemplateProcessing template: {"SpecialToken"|"Sequence": {"id": id, "type_id": t}}.
void template_piece(JsonWriter& w, const char* kind, std::string_view id, int type_id) {
    w.begin_object().key(kind).begin_object().key("id").value(id).key("type_id").value(type_id);
    w.end_object().end_object();
}

/// TemplateProcessing with BOS / EOS as add_bos_token / add_eos_token say
/// (transformers' `update_post_processor`: single "bos $A eos", pair
/// "bos $A eos bos $B eos" with type id 1 for the second), or nullopt.
std::optional<std::string> template_processing(const GgufTokenizerKvs& kv) {
    const auto bos = kv.add("bos").value_or(false) ? kv.special("bos") : std::nullopt;
    const auto eos = kv.add("eos").value_or(false) ? kv.special("eos") : std::nullopt;
    if (!bos && !eos) return std::nullopt;
    JsonWriter w;
    auto special = [&](std::uint32_t id, int type_id) { template_piece(w, "SpecialToken", kv.tokens[id], type_id); };
    auto seq = [&](const char* id, int type_id) { template_piece(w, "Sequence", id, type_id); };
    w.begin_object();
    w.key("type").value("TemplateProcessing");
    w.key("single").begin_array();
    if (bos) special(*bos, 0);
    seq("A", 0);
    if (eos) special(*eos, 0);
    w.end_array();
    w.key("pair").begin_array();
    if (bos) special(*bos, 0);
    seq("A", 0);
    if (eos) special(*eos, 0);
    if (bos) special(*bos, 1);
    seq("B", 1);
    if (eos) special(*eos, 1);
    w.end_array();
    w.key("special_tokens").begin_object();
    for (auto id : {bos, eos}) {
        if (!id || (id == eos && bos && *bos == *eos)) continue;  // one entry when BOS and EOS are the same token
        w.key(kv.tokens[*id]).begin_object();
        w.key("id").value(kv.tokens[*id]);
        w.key("ids").begin_array().value(static_cast<std::uint64_t>(*id)).end_array();
        w.key("tokens").begin_array().value(kv.tokens[*id]).end_array();
        w.end_object();
    }
    w.end_object();
    w.end_object();
    return w.take();
}

/// `base` followed by the TemplateProcessing, if any.
std::string post_processor(const GgufTokenizerKvs& kv, const std::string& base) {
    const auto tp = template_processing(kv);
    if (!tp) return base.empty() ? "null" : base;
    if (base.empty()) return *tp;
    return R"({"type":"Sequence","processors":[)" + base + "," + *tp + "]}";
}

/// The vocabulary object; false (and `why`) when two entries share a text.
bool vocab(JsonWriter& w, const GgufTokenizerKvs& kv, const std::vector<std::uint32_t>& ids, std::string& why) {
    std::unordered_set<std::string_view> seen;
    seen.reserve(ids.size());
    w.key("vocab").begin_object();
    for (auto id : ids) {
        if (!seen.insert(kv.tokens[id]).second) {
            why = "token " + std::to_string(id) + " has the same text as an earlier token of the vocabulary "
                  "(tokenizer.json cannot hold both)";
            return false;
        }
        w.key(kv.tokens[id]).value(static_cast<std::uint64_t>(id));
    }
    w.end_object();
    return true;
}

std::optional<std::string> gpt2_json(const GgufTokenizerKvs& kv, std::string& why) {
    const auto def = pre_definition(kv.pre);
    if (!def) {
        const auto reason = pre_without_definition(kv.pre);
        if (kv.pre.empty())
            why = "the GGUF has no tokenizer.ggml.pre (llama.cpp falls back to its \"default\" regexes and warns that generation "
                  "quality will be degraded): not guessed";
        else
            why = "tokenizer.ggml.pre '" + kv.pre + "' has no tokenizer.json pre-tokenizer here (" +
                  (reason ? std::string(*reason) : std::string("not a byte-level pre-tokenizer name llama.cpp knows")) + ")";
        return std::nullopt;
    }
    if (kv.merges.empty()) {
        why = "a gpt2 (BPE) tokenizer without tokenizer.ggml.merges";
        return std::nullopt;
    }
    std::vector<std::uint32_t> ids;
    for (std::size_t i = 0; i < kv.tokens.size(); ++i)
        if (!is_added(kv.types[i]) && !is_padding(kv, i)) ids.push_back(static_cast<std::uint32_t>(i));
    JsonWriter w(2);
    begin_tokenizer_json(w, kv);
    w.key("normalizer").raw(def->normalizer);
    w.key("pre_tokenizer").raw(def->pre_tokenizer);
    w.key("post_processor").raw(post_processor(kv, def->post_processor));
    w.key("decoder").raw(def->decoder);
    w.key("model").begin_object();
    w.key("type").value("BPE");
    w.key("dropout").null();
    w.key("unk_token").null();
    w.key("continuing_subword_prefix").null();
    w.key("end_of_word_suffix").null();
    w.key("fuse_unk").value(false);
    w.key("byte_fallback").value(false);
    w.key("ignore_merges").value(def->ignore_merges);
    if (!vocab(w, kv, ids, why)) return std::nullopt;
    w.key("merges").begin_array();
    for (auto m : kv.merges) w.value(m);
    w.end_array();
    w.end_object();
    w.end_object();
    return w.take() + "\n";
}

std::optional<std::string> llama_json(const GgufTokenizerKvs& kv, std::string& why) {
    if (kv.scores.size() != kv.tokens.size()) {
        why = "a llama (SentencePiece) tokenizer without tokenizer.ggml.scores";
        return std::nullopt;
    }
    std::vector<std::uint32_t> ids(kv.tokens.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::uint32_t>(i);
    const auto unk = kv.special("unk");
    JsonWriter w(2);
    begin_tokenizer_json(w, kv);
    // LlamaConverter (legacy): normalizer Prepend("▁") + Replace(" " → "▁"), no pre-tokenizer — llama.cpp's
    // SentencePiece path (a space before the text and after each special token, spaces escaped).
    const bool prepend = kv.add_space_prefix.value_or(true);
    w.key("normalizer").begin_object().key("type").value("Sequence").key("normalizers").begin_array();
    if (prepend) w.begin_object().key("type").value("Prepend").key("prepend").value(kSpace).end_object();
    w.begin_object().key("type").value("Replace");
    w.key("pattern").begin_object().key("String").value(" ").end_object();
    w.key("content").value(kSpace).end_object();
    w.end_array().end_object();
    w.key("pre_tokenizer").null();
    w.key("post_processor").raw(post_processor(kv, ""));
    w.key("decoder").begin_object().key("type").value("Sequence").key("decoders").begin_array();
    w.begin_object().key("type").value("Replace");
    w.key("pattern").begin_object().key("String").value(kSpace).end_object();
    w.key("content").value(" ").end_object();
    w.begin_object().key("type").value("ByteFallback").end_object();
    w.begin_object().key("type").value("Fuse").end_object();
    if (prepend) w.begin_object().key("type").value("Strip").key("content").value(" ").key("start").value(1).key("stop").value(0).end_object();
    w.end_array().end_object();
    w.key("model").begin_object();
    w.key("type").value("BPE");
    w.key("dropout").null();
    if (unk) w.key("unk_token").value(kv.tokens[*unk]);
    else w.key("unk_token").null();
    w.key("continuing_subword_prefix").null();
    w.key("end_of_word_suffix").null();
    w.key("fuse_unk").value(true);
    w.key("byte_fallback").value(true);
    w.key("ignore_merges").value(false);
    if (!vocab(w, kv, ids, why)) return std::nullopt;
    w.key("merges").begin_array();
    for (const auto& [l, r] : spm_merges(kv)) w.begin_array().value(l).value(r).end_array();
    w.end_array();
    w.end_object();
    w.end_object();
    return w.take() + "\n";
}

/// TemplateProcessing's "special_tokens" member: `first` and `second` (once when the same), each by its text.
void template_special_tokens(JsonWriter& w, const GgufTokenizerKvs& kv, std::uint32_t first, std::uint32_t second) {
    w.key("special_tokens").begin_object();
    std::vector<std::uint32_t> specials{first};
    if (second != first) specials.push_back(second);
    for (auto id : specials) {
        w.key(kv.tokens[id]).begin_object().key("id").value(kv.tokens[id]);
        w.key("ids").begin_array().value(static_cast<std::uint64_t>(id)).end_array();
        w.key("tokens").begin_array().value(kv.tokens[id]).end_array().end_object();
    }
    w.end_object();
}

/// BERT's TemplateProcessing (transformers' BertConverter): "[CLS] $A [SEP]", pair "[CLS] $A [SEP] $B:1 [SEP]:1",
/// with CLS = bos and SEP = eos (SpecialVocab's reading of it), or "null" unless both are added.
std::string bert_post_processor(const GgufTokenizerKvs& kv) {
    if (!kv.add("bos").value_or(false) || !kv.add("eos").value_or(false) || !kv.special("bos") || !kv.special("eos"))
        return "null";
    const std::uint32_t cls = kv.special("bos").value_or(0), sep = kv.special("eos").value_or(0);
    JsonWriter w;
    auto special = [&](std::uint32_t id, int type_id) { template_piece(w, "SpecialToken", kv.tokens[id], type_id); };
    auto seq = [&](const char* id, int type_id) { template_piece(w, "Sequence", id, type_id); };
    w.begin_object().key("type").value("TemplateProcessing");
    w.key("single").begin_array();
    special(cls, 0);
    seq("A", 0);
    special(sep, 0);
    w.end_array().key("pair").begin_array();
    special(cls, 0);
    seq("A", 0);
    special(sep, 0);
    seq("B", 1);
    special(sep, 1);
    w.end_array();
    template_special_tokens(w, kv, cls, sep);
    w.end_object();
    return w.take();
}

std::optional<std::string> bert_json(const GgufTokenizerKvs& in, std::string& why) {
    const std::vector<std::string> texts = bert_vocab_texts(in);
    GgufTokenizerKvs kv = in;  // the same, with the WordPiece texts
    for (std::size_t i = 0; i < texts.size(); ++i) kv.tokens[i] = texts[i];
    std::vector<std::uint32_t> ids;
    for (std::size_t i = 0; i < kv.tokens.size(); ++i)
        if (!is_padding(kv, i)) ids.push_back(static_cast<std::uint32_t>(i));
    const auto unk = kv.special("unk");
    if (!unk) {
        why = "a bert (WordPiece) tokenizer without tokenizer.ggml.unknown_token_id";
        return std::nullopt;
    }
    JsonWriter w(2);
    begin_tokenizer_json(w, kv);
    w.key("normalizer").begin_object().key("type").value("BertNormalizer").key("clean_text").value(true);
    w.key("handle_chinese_chars").value(true).key("strip_accents");
    if (kv.strip_accents) w.value(*kv.strip_accents);
    else w.null();
    w.key("lowercase").value(kv.lowercase.value_or(true)).end_object();
    w.key("pre_tokenizer").begin_object().key("type").value("BertPreTokenizer").end_object();
    w.key("post_processor").raw(bert_post_processor(kv));
    w.key("decoder").begin_object().key("type").value("WordPiece").key("prefix").value("##").key("cleanup").value(true).end_object();
    w.key("model").begin_object();
    w.key("type").value("WordPiece");
    w.key("unk_token").value(kv.tokens[*unk]);
    w.key("continuing_subword_prefix").value("##");
    w.key("max_input_chars_per_word").value(std::uint64_t{100});
    if (!vocab(w, kv, ids, why)) return std::nullopt;
    w.end_object();
    w.end_object();
    return w.take() + "\n";
}

/// XLM-RoBERTa's Metaspace pre-tokenizer / decoder ("▁", prepended as add_space_prefix says).
void metaspace(JsonWriter& w, const GgufTokenizerKvs& kv) {
    w.begin_object().key("type").value("Metaspace").key("replacement").value(kSpace);
    w.key("prepend_scheme").value(kv.add_space_prefix.value_or(true) ? "always" : "never").key("split").value(true);
    w.end_object();
}

/// XLM-RoBERTa's TemplateProcessing (transformers' XLMRobertaConverter): "<s> $A </s>", pair
/// "<s> $A </s> </s> $B </s>" (one </s> between when add_sep_token is false), or "null" unless BOS and EOS are added.
std::string xlmr_post_processor(const GgufTokenizerKvs& kv) {
    if (!kv.add("bos").value_or(false) || !kv.add("eos").value_or(false) || !kv.special("bos") || !kv.special("eos"))
        return "null";
    const std::uint32_t bos = *kv.special("bos"), eos = *kv.special("eos");
    JsonWriter w;
    auto special = [&](std::uint32_t id) { template_piece(w, "SpecialToken", kv.tokens[id], 0); };
    auto seq = [&](const char* id) { template_piece(w, "Sequence", id, 0); };
    w.begin_object().key("type").value("TemplateProcessing");
    w.key("single").begin_array();
    special(bos);
    seq("A");
    special(eos);
    w.end_array().key("pair").begin_array();
    special(bos);
    seq("A");
    special(eos);
    if (kv.add("sep").value_or(false)) special(eos);
    seq("B");
    special(eos);
    w.end_array();
    template_special_tokens(w, kv, bos, eos);
    w.end_object();
    return w.take();
}

/// RFC 4648 base64 (tokenizer.json's Precompiled charsmap).
std::string base64(std::string_view bytes) {
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t v = static_cast<std::uint8_t>(bytes[i]) << 16;
        if (i + 1 < bytes.size()) v |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size()) v |= static_cast<std::uint8_t>(bytes[i + 2]);
        for (std::size_t k = 0; k < 4; ++k) out += i + k <= bytes.size() ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

/// XLM-RoBERTa's tokenizer.json over xlmr_hf_vocab()'s ids, as transformers' XLMRobertaConverter builds it.
std::optional<std::string> xlmr_json(const GgufTokenizerKvs& kv, std::string& why) {
    if (kv.scores.size() != kv.tokens.size() || kv.tokens.size() < 5 || kv.tokens[3] != "<unk>") {
        why = "a t5 (Unigram) tokenizer not in XLM-RoBERTa's ids (xlmr_hf_vocab)";
        return std::nullopt;
    }
    std::unordered_set<std::string_view> seen;
    for (std::size_t i = 0; i < kv.tokens.size(); ++i)
        if (!seen.insert(kv.tokens[i]).second) {
            why = "token " + std::to_string(i) + " has the same text as an earlier token of the vocabulary";
            return std::nullopt;
        }
    JsonWriter w(2);
    begin_tokenizer_json(w, kv);
    const bool charsmap = !kv.precompiled_charsmap.empty(), squeeze = kv.remove_extra_whitespaces.value_or(true);
    w.key("normalizer");
    if (!charsmap && !squeeze) {
        w.null();
    } else {
        w.begin_object().key("type").value("Sequence").key("normalizers").begin_array();
        if (charsmap)
            w.begin_object().key("type").value("Precompiled").key("precompiled_charsmap").value(base64(kv.precompiled_charsmap)).end_object();
        if (squeeze) {
            w.begin_object().key("type").value("Replace");
            w.key("pattern").begin_object().key("Regex").value(" {2,}").end_object();
            w.key("content").value(" ").end_object();
        }
        w.end_array().end_object();
    }
    w.key("pre_tokenizer");
    metaspace(w, kv);
    w.key("post_processor").raw(xlmr_post_processor(kv));
    w.key("decoder");
    metaspace(w, kv);
    w.key("model").begin_object();
    w.key("type").value("Unigram");
    w.key("unk_id").value(std::uint64_t{3});
    w.key("vocab").begin_array();
    for (std::size_t i = 0; i < kv.tokens.size(); ++i)
        w.begin_array().value(kv.tokens[i]).value(static_cast<double>(kv.scores[i])).end_array();
    w.end_array();
    w.key("byte_fallback").value(false);
    w.end_object();
    w.end_object();
    return w.take() + "\n";
}

}  // namespace

std::vector<std::string> bert_vocab_texts(const GgufTokenizerKvs& kv) {
    std::vector<std::string> out;
    out.reserve(kv.tokens.size());
    for (std::size_t i = 0; i < kv.tokens.size(); ++i) {
        const std::string_view t = kv.tokens[i];
        if (kv.types[i] == kControl) out.emplace_back(t);
        else if (t.starts_with(kSpace)) out.emplace_back(t.substr(3));
        else out.push_back("##" + std::string(t));
    }
    return out;
}

std::vector<std::pair<std::string_view, std::string_view>> spm_merges(const GgufTokenizerKvs& kv) {
    // transformers integrations/ggml.py GGUFTokenizerSkeleton ("Merges were not in checkpoint, building merges
    // on the fly"): vocab = {token: score}; for each token in id order, every split into two tokens of the
    // vocabulary (split points in code points), those sorted by the parts' scores (descending); then all
    // merges stably sorted by the merged token's score (descending).
    std::unordered_map<std::string_view, float> score;
    score.reserve(kv.tokens.size());
    for (std::size_t i = 0; i < kv.tokens.size(); ++i) score[kv.tokens[i]] = kv.scores[i];  // a repeated text: the last score
    struct Merge {
        std::string_view left, right;
        float score;
    };
    std::vector<Merge> merges;
    std::unordered_set<std::string_view> done;  // dict iteration visits each text once, at its first position
    for (std::size_t i = 0; i < kv.tokens.size(); ++i) {
        const std::string_view t = kv.tokens[i];
        if (t.empty() || !done.insert(t).second) continue;  // (an empty token has no split)
        const float s = score[t];
        std::vector<Merge> local;
        for (std::size_t at = utf8_len(static_cast<unsigned char>(t[0])); at < t.size();
             at += utf8_len(static_cast<unsigned char>(t[at]))) {
            const std::string_view l = t.substr(0, at), r = t.substr(at);
            if (score.count(l) && score.count(r)) local.push_back({l, r, s});
        }
        std::stable_sort(local.begin(), local.end(), [&](const Merge& a, const Merge& b) {
            const float al = score[a.left], bl = score[b.left];
            if (al != bl) return al > bl;
            return score[a.right] > score[b.right];
        });
        merges.insert(merges.end(), local.begin(), local.end());
    }
    std::stable_sort(merges.begin(), merges.end(), [](const Merge& a, const Merge& b) { return a.score > b.score; });
    std::vector<std::pair<std::string_view, std::string_view>> out;
    out.reserve(merges.size());
    for (const auto& m : merges) out.emplace_back(m.left, m.right);
    return out;
}

std::optional<std::string> hf_tokenizer_json(const GgufTokenizerKvs& kv, std::string& why) {
    if (kv.model == "gpt2") return gpt2_json(kv, why);
    if (kv.model == "llama") return llama_json(kv, why);
    if (kv.model == "bert") return bert_json(kv, why);
    if (kv.model == "t5") return xlmr_json(kv, why);
    why = "tokenizer.ggml.model '" + kv.model + "' is not one written here (gpt2, llama, bert, t5)";
    return std::nullopt;
}

}  // namespace amn::tok
