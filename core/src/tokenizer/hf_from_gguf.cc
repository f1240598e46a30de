// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF tokenizer.* / general.sampling.* → tokenizer_config.json,
// special_tokens_map.json, generation_config.json (tokenizer.json itself:
// hf_tokenizer_json.cc).
#include "tokenizer/hf_from_gguf.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/metadata.hpp"
#include "tokenizer/spm_model_writer.hpp"
#include "tokenizer/unicode_text.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

namespace amn::tok {
namespace {

constexpr std::int32_t kUserDefined = 4;

[[noreturn]] void bad(const Catalog& cat, const std::string& key, const std::string& why) {
    throw Error(ErrorCode::Malformed, key + ": " + why, cat.path);
}

std::vector<std::string_view> string_array(const Catalog& cat, const std::string& key, bool utf8) {
    std::vector<std::string_view> out;
    const MetaValue* v = cat.meta(key);
    if (!v) return out;
    if (!v->is_array() || v->elem_type != GgufType::String) bad(cat, key, "expected an array of strings");
    out.reserve(v->size());
    for (std::size_t i = 0; i < v->size(); ++i) {
        out.push_back(v->string_at(i));
        if (utf8 && !valid_utf8(out.back())) bad(cat, key, "element " + std::to_string(i) + " is not UTF-8");
    }
    return out;
}

/// Scalar array elements as `T` (INT32 bits or FLOAT32 bits).
template <typename T>
std::vector<T> scalar_array(const Catalog& cat, const std::string& key, GgufType want, std::size_t n, const char* what) {
    std::vector<T> out;
    const MetaValue* v = cat.meta(key);
    if (!v) return out;
    if (!v->is_array() || v->elem_type != want) bad(cat, key, std::string("expected an array of ") + what);
    if (v->size() != n) bad(cat, key, std::to_string(v->size()) + " elements for " + std::to_string(n) + " tokens");
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto bits = static_cast<std::uint32_t>(v->bits_at(i));
        std::memcpy(&out[i], &bits, sizeof(T));
    }
    return out;
}

std::optional<std::string> string_kv(const Catalog& cat, const std::string& key) {
    const MetaValue* v = cat.meta(key);
    if (!v) return std::nullopt;
    if (!v->is_string()) bad(cat, key, "expected a string");
    if (!valid_utf8(v->str)) bad(cat, key, "not UTF-8");
    return v->str;
}

/// The shortest text that reads back as the same FLOAT32 ("0.9" for 0.9f).
std::string f32_text(float f) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    return std::string(buf, r.ptr);
}

/// A special token as tokenizer_config.json / special_tokens_map.json hold it.
void token_object(JsonWriter& w, std::string_view content) {
    w.begin_object();
    w.key("content").value(content);
    w.key("lstrip").value(false);
    w.key("normalized").value(false);
    w.key("rstrip").value(false);
    w.key("single_word").value(false);
    w.end_object();
}

/// The tokens tokenizer_config.json's `added_tokens_decoder` lists. gpt2:
/// every added token (unknown, control, user-defined). llama: only the
/// control and user-defined ones with score −1000 — the mark of
/// convert_hf_to_gguf's own `added_tokens_decoder` override, which it then
/// repeats (a SentencePiece model's own control pieces keep their score and type).
bool in_added_tokens_decoder(const GgufTokenizerKvs& kv, std::size_t id) {
    const std::int32_t t = kv.types[id];
    if (kv.model == "llama") return (t == 3 || t == kUserDefined) && kv.scores.size() == kv.types.size() && kv.scores[id] == -1000.0f;
    return t == 2 || t == 3 || t == kUserDefined;
}

std::string tokenizer_config(const GgufTokenizerKvs& kv) {
    // transformers writes this file with sorted keys; so do we.
    JsonWriter w(2);
    w.begin_object();
    for (const char* typ : {"bos", "eos"})
        if (auto a = kv.add(typ)) w.key(std::string("add_") + typ + "_token").value(*a);
    if (kv.add_space_prefix) w.key("add_prefix_space").value(*kv.add_space_prefix);
    if (auto a = kv.add("sep")) w.key("add_sep_token").value(*a);
    w.key("added_tokens_decoder").begin_object();
    for (std::size_t i = 0; i < kv.tokens.size(); ++i) {
        if (!in_added_tokens_decoder(kv, i)) continue;
        w.key(std::to_string(i)).begin_object();
        w.key("content").value(kv.tokens[i]);
        w.key("lstrip").value(false);
        w.key("normalized").value(false);
        w.key("rstrip").value(false);
        w.key("single_word").value(false);
        w.key("special").value(kv.types[i] != kUserDefined);
        w.end_object();
    }
    w.end_object();
    auto token = [&](const char* typ) {
        w.key(std::string(typ) + "_token");
        if (auto id = kv.special(typ)) w.value(kv.tokens[*id]);
        else w.null();
    };
    token("bos");
    if (!kv.named_chat_templates.empty()) {
        w.key("chat_template").begin_array();
        if (kv.chat_template)
            w.begin_object().key("name").value("default").key("template").value(*kv.chat_template).end_object();
        for (const auto& [name, text] : kv.named_chat_templates)
            w.begin_object().key("name").value(name).key("template").value(text).end_object();
        w.end_array();
    } else if (kv.chat_template) {
        w.key("chat_template").value(*kv.chat_template);
    }
    w.key("clean_up_tokenization_spaces").value(false);
    token("eos");
    if (kv.special("mask")) token("mask");
    if (kv.context_length) w.key("model_max_length").value(*kv.context_length);
    token("pad");
    if (kv.special("sep")) token("sep");
    // XLM-R: its own class, which also loads the sentencepiece.bpe.model written beside tokenizer.json.
    w.key("tokenizer_class").value(kv.model == "t5" ? "XLMRobertaTokenizer" : "PreTrainedTokenizerFast");
    token("unk");
    w.end_object();
    return w.take() + "\n";
}

std::string special_tokens_map(const GgufTokenizerKvs& kv) {
    JsonWriter w(2);
    w.begin_object();
    for (const char* typ : {"bos", "eos", "mask", "pad", "sep", "unk"})
        if (auto id = kv.special(typ)) {
            w.key(std::string(typ) + "_token");
            token_object(w, kv.tokens[*id]);
        }
    w.end_object();
    return w.take() + "\n";
}

/// generation_config.json, or nullopt when the GGUF has nothing for it.
std::optional<std::string> generation_config(const Catalog& cat) {
    // general.sampling.* → the generation_config.json names convert_hf_to_gguf reads them from (general_kvs.cc).
    struct Key {
        const char* gguf;
        const char* json;
    };
    static constexpr Key kKeys[] = {
        {"general.sampling.sequence", "sequence"},
        {"general.sampling.top_k", "top_k"},
        {"general.sampling.top_p", "top_p"},
        {"general.sampling.min_p", "min_p"},
        {"general.sampling.xtc_probability", "xtc_probability"},
        {"general.sampling.xtc_threshold", "xtc_threshold"},
        {"general.sampling.temp", "temperature"},
        {"general.sampling.penalty_last_n", "penalty_last_n"},
        {"general.sampling.penalty_repeat", "penalty_repeat"},
        {"general.sampling.mirostat", "mirostat"},
        {"general.sampling.mirostat_tau", "mirostat_tau"},
        {"general.sampling.mirostat_eta", "mirostat_eta"},
    };
    JsonWriter w(2);
    w.begin_object();
    bool any = false, sampling = false;
    for (const auto& [key, name] : {std::pair{"tokenizer.ggml.bos_token_id", "bos_token_id"},
                                    std::pair{"tokenizer.ggml.eos_token_id", "eos_token_id"},
                                    std::pair{"tokenizer.ggml.padding_token_id", "pad_token_id"}}) {
        const MetaValue* v = cat.meta(key);
        if (!v || !v->is_integer()) continue;
        // HunYuan (hunyuan.py _get_eot_token_id): the eot id is the first of a list of eos ids.
        const MetaValue* arch = cat.meta("general.architecture");
        const MetaValue* eot = cat.meta("tokenizer.ggml.eot_token_id");
        if (std::string_view(name) == "eos_token_id" && arch && arch->is_string() && arch->str == "hunyuan-dense" && eot &&
            eot->is_integer()) {
            w.key(name).begin_array().value(eot->as_int()).value(v->as_int()).end_array();
            any = true;
            continue;
        }
        w.key(name).value(v->as_int());
        any = true;
    }
    std::vector<std::pair<const char*, std::string>> values;
    for (const Key& k : kKeys) {
        const MetaValue* v = cat.meta(k.gguf);
        if (!v) continue;
        std::string text;
        if (v->is_string()) {
            if (!valid_utf8(v->str)) bad(cat, k.gguf, "not UTF-8");
            JsonWriter::escape_to(text, v->str);
        } else if (v->type == GgufType::F32) {
            const float f = static_cast<float>(v->as_double());
            if (!std::isfinite(f)) bad(cat, k.gguf, "not a finite number");
            text = f32_text(f);
        } else if (v->is_integer() || v->is_float()) {
            text = meta_json(*v);
        } else {
            bad(cat, k.gguf, "expected a number or a string");
        }
        values.emplace_back(k.json, std::move(text));
    }
    if (!values.empty()) {
        w.key("do_sample").value(true);
        sampling = true;
    }
    for (const auto& [name, text] : values) w.key(name).raw(text);
    w.end_object();
    if (!any && !sampling) return std::nullopt;
    return w.take() + "\n";
}

}  // namespace

std::optional<std::uint32_t> GgufTokenizerKvs::special(std::string_view typ) const {
    for (const auto& [t, id] : special_ids)
        if (t == typ) return id;
    return std::nullopt;
}

std::optional<bool> GgufTokenizerKvs::add(std::string_view typ) const {
    for (const auto& [t, v] : add_flags)
        if (t == typ) return v;
    return std::nullopt;
}

std::optional<GgufTokenizerKvs> read_gguf_tokenizer(const Catalog& cat) {
    const auto model = string_kv(cat, "tokenizer.ggml.model");
    if (!model) return std::nullopt;
    GgufTokenizerKvs kv;
    kv.model = *model;
    kv.pre = string_kv(cat, "tokenizer.ggml.pre").value_or("");
    if (!cat.meta("tokenizer.ggml.tokens")) bad(cat, "tokenizer.ggml.tokens", "missing (tokenizer.ggml.model is set)");
    kv.tokens = string_array(cat, "tokenizer.ggml.tokens", true);
    const std::size_t n = kv.tokens.size();
    kv.types = scalar_array<std::int32_t>(cat, "tokenizer.ggml.token_type", GgufType::I32, n, "INT32");
    if (kv.types.empty()) kv.types.assign(n, 1);
    kv.scores = scalar_array<float>(cat, "tokenizer.ggml.scores", GgufType::F32, n, "FLOAT32");
    kv.merges = string_array(cat, "tokenizer.ggml.merges", true);
    // gguf-py SpecialVocab's GGUF keys (seperator: its spelling).
    for (const auto& [typ, key] : {std::pair{"bos", "bos_token_id"}, std::pair{"eos", "eos_token_id"},
                                   std::pair{"unk", "unknown_token_id"}, std::pair{"sep", "seperator_token_id"},
                                   std::pair{"pad", "padding_token_id"}, std::pair{"mask", "mask_token_id"}}) {
        const std::string k = std::string("tokenizer.ggml.") + key;
        const MetaValue* v = cat.meta(k);
        if (!v) continue;
        if (!v->is_integer()) bad(cat, k, "expected an integer");
        const std::int64_t id = v->as_int();
        if (id < 0 || static_cast<std::uint64_t>(id) >= n) continue;  // llama.cpp ignores such ids too
        kv.special_ids.emplace_back(typ, static_cast<std::uint32_t>(id));
    }
    for (const char* typ : {"bos", "eos", "sep"}) {
        const std::string k = std::string("tokenizer.ggml.add_") + typ + "_token";
        const MetaValue* v = cat.meta(k);
        if (!v) continue;
        if (v->type != GgufType::Bool) bad(cat, k, "expected a boolean");
        kv.add_flags.emplace_back(typ, v->as_bool());
    }
    if (const MetaValue* v = cat.meta("tokenizer.ggml.add_space_prefix")) {
        if (v->type != GgufType::Bool) bad(cat, "tokenizer.ggml.add_space_prefix", "expected a boolean");
        kv.add_space_prefix = v->as_bool();
    }
    for (auto [key, field] : {std::pair{"tokenizer.ggml.normalizer.lowercase", &kv.lowercase},
                              std::pair{"tokenizer.ggml.normalizer.strip_accents", &kv.strip_accents}})
        if (const MetaValue* v = cat.meta(key)) {
            if (v->type != GgufType::Bool) bad(cat, key, "expected a boolean");
            *field = v->as_bool();
        }
    if (const MetaValue* v = cat.meta("tokenizer.ggml.remove_extra_whitespaces")) {
        if (v->type != GgufType::Bool) bad(cat, "tokenizer.ggml.remove_extra_whitespaces", "expected a boolean");
        kv.remove_extra_whitespaces = v->as_bool();
    }
    if (const MetaValue* v = cat.meta("tokenizer.ggml.precompiled_charsmap")) {
        if (!v->is_array() || (v->elem_type != GgufType::U8 && v->elem_type != GgufType::I8))
            bad(cat, "tokenizer.ggml.precompiled_charsmap", "expected an array of bytes");
        kv.precompiled_charsmap = v->packed_bytes();
    }
    kv.chat_template = string_kv(cat, "tokenizer.chat_template");
    for (std::string_view name : string_array(cat, "tokenizer.chat_templates", true)) {
        if (name == "default") continue;
        const std::string k = "tokenizer.chat_template." + std::string(name);
        if (auto t = string_kv(cat, k)) kv.named_chat_templates.emplace_back(std::string(name), *t);
    }
    if (const MetaValue* a = cat.meta("general.architecture"); a && a->is_string())
        if (const MetaValue* c = cat.meta(a->str + ".context_length"); c && c->is_integer() && c->as_int() > 0)
            kv.context_length = static_cast<std::uint64_t>(c->as_int());
    return kv;
}

std::optional<GgufTokenizerKvs> xlmr_hf_vocab(const GgufTokenizerKvs& kv, std::string& why) {
    constexpr std::string_view kHead[] = {"<s>", "<pad>", "</s>", "<unk>"};
    constexpr std::int32_t kHeadTypes[] = {3, 3, 3, 2}, kUnused = 5;
    const std::size_t n = kv.tokens.size();
    if (kv.model != "t5" || n < 5 || kv.scores.size() != n) {
        why = "a t5 (Unigram) tokenizer without tokenizer.ggml.scores (or with fewer than five tokens)";
        return std::nullopt;
    }
    for (std::size_t i = 0; i < 4; ++i)
        if (kv.tokens[i] != kHead[i] || kv.types[i] != kHeadTypes[i]) {
            why = "a t5 (Unigram) vocabulary that does not start with XLM-RoBERTa's <s> <pad> </s> <unk> (token " +
                  std::to_string(i) + "): only XLM-RoBERTa's is written here";
            return std::nullopt;
        }
    // Token g ≥ 4 is the converter's list entry g − 1; its padding there is "[PAD<g − 1>]", unused.
    std::size_t keep = n;
    while (keep > 4 && kv.types[keep - 1] == kUnused && kv.tokens[keep - 1] == "[PAD" + std::to_string(keep - 2) + "]") --keep;
    for (std::size_t i = 4; i < keep; ++i)
        if (kv.types[i] == 2) {
            why = "token " + std::to_string(i) + " is a second unknown token (SentencePiece has one)";
            return std::nullopt;
        }
    GgufTokenizerKvs hf = kv;
    hf.tokens.resize(keep);
    hf.types.resize(keep);
    hf.scores.resize(keep);
    hf.tokens.push_back("<mask>");
    hf.types.push_back(3);
    hf.scores.push_back(0.0f);
    std::erase_if(hf.special_ids, [&](const auto& s) { return s.first == "mask" ? s.second != keep : s.second >= keep; });
    return hf;
}

HfSideFiles hf_side_files(const Catalog& cat) {
    HfSideFiles out;
    std::optional<GgufTokenizerKvs> kv = read_gguf_tokenizer(cat);
    std::string why;
    if (!kv) out.warnings.push_back(Notice{.kind = NoticeKind::NoTokenizer});  // no tokenizer.ggml.model
    if (kv && kv->model == "t5") {  // XLM-RoBERTa: its Hugging Face ids, and sentencepiece.bpe.model beside tokenizer.json
        kv = xlmr_hf_vocab(*kv, why);
        if (!kv) out.warnings.push_back(Notice{.kind = NoticeKind::NoTokenizer, .detail = why});
        else if (auto model = xlmr_spm_model_proto(*kv, why)) out.files.emplace_back("sentencepiece.bpe.model", std::move(*model));
        else out.warnings.push_back(Notice{.kind = NoticeKind::NoTokenizerModel, .detail = why});
    }
    if (kv) {
        if (auto tj = hf_tokenizer_json(*kv, why)) {
            out.files.emplace_back("tokenizer.json", std::move(*tj));
            if (kv->model == "bert") {
                // The converter's trailing "[PAD<id>]" padding up to config.json's vocab_size is not vocab.txt's
                // (nomic-embed-text: 30528 rows over bert-base-uncased's 30522 tokens).
                std::vector<std::string> texts = bert_vocab_texts(*kv);
                constexpr std::int32_t kUnused = 5;
                while (!texts.empty() && kv->types[texts.size() - 1] == kUnused &&
                       texts.back() == "[PAD" + std::to_string(texts.size() - 1) + "]")
                    texts.pop_back();
                std::string txt;
                for (const auto& t : texts) txt += t + "\n";
                out.files.emplace_back("vocab.txt", std::move(txt));
            }
            if (kv->model == "llama") {
                if (auto model = spm_model_proto(*kv, why)) out.files.emplace_back("tokenizer.model", std::move(*model));
                else out.warnings.push_back(Notice{.kind = NoticeKind::NoTokenizerModel, .detail = why});
            }
            out.files.emplace_back("tokenizer_config.json", tokenizer_config(*kv));
            out.files.emplace_back("special_tokens_map.json", special_tokens_map(*kv));
        } else {
            out.warnings.push_back(Notice{.kind = NoticeKind::NoTokenizer, .detail = why});
        }
    }
    if (auto g = generation_config(cat)) out.files.emplace_back("generation_config.json", std::move(*g));
    return out;
}

}  // namespace amn::tok
