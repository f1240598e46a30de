// SPDX-License-Identifier: MIT OR Apache-2.0
// The dispatcher: which `set_vocab` path the converter takes for an
// architecture (LlamaModel, Qwen2Model, TextModel/GPT2Model, Phi3MiniModel),
// and the `tokenizer.*` key/values it writes, in its order.
#include "tokenizer/vocab.hpp"

#include "anamnesis/error.hpp"
#include "tokenizer/bpe_vocab.hpp"
#include "tokenizer/llama_hf_vocab.hpp"
#include "tokenizer/py_compat.hpp"
#include "tokenizer/special_vocab.hpp"
#include "tokenizer/spm_vocab.hpp"

#include <cstring>

namespace amn::tok {
namespace {

using simdjson::dom::element_type;

MetaValue string_array(const std::vector<std::string>& v) {
    MetaValue m = MetaValue::strings({});
    std::size_t bytes = 0;
    for (const auto& s : v) bytes += s.size();
    m.reserve(v.size(), bytes);
    for (const auto& s : v) m.push_string(s);
    return m;
}

template <typename T>
MetaValue packed_array(GgufType type, const std::vector<T>& v) {
    static_assert(sizeof(T) == 4);
    std::string bytes(v.size() * 4, '\0');
    for (std::size_t i = 0; i < v.size(); ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &v[i], 4);
        for (int b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<char>((bits >> (8 * b)) & 0xFF);
    }
    return MetaValue::packed(type, v.size(), std::move(bytes));
}

/// `tokenizer_config.json` of the folder, parsed (nullopt when not a file).
std::optional<detail::JsonDoc> tokenizer_config(const std::string& dir) {
    const std::string path = dir + "/tokenizer_config.json";
    if (!py::is_file(path)) return std::nullopt;
    auto doc = py::load_json(path);
    if (doc.root().type() != element_type::OBJECT)
        throw Error(ErrorCode::BadJson, "tokenizer_config.json: expected an object", path);
    return doc;
}

/// `if "add_prefix_space" in tokenizer_config: add_add_space_prefix(value)` (InternLM3Model, Ernie4_5Model).
/// \throws Error{BadJson} naming `path` when the value is not true/false.
void put_add_space_prefix(GgufVocab& out, const detail::JsonDoc& tc, const std::string& path) {
    if (const auto aps = detail::json_get(tc.root(), "add_prefix_space")) {
        if (!aps->is_bool()) throw Error(ErrorCode::BadJson, "tokenizer_config.json add_prefix_space: expected true/false", path);
        kv_put(out.kvs, "tokenizer.ggml.add_space_prefix", MetaValue::boolean(bool(*aps)));
    }
}

void need_tokenizer(const std::string& dir) {
    if (!py::is_file(dir + "/tokenizer.model") && !py::is_file(dir + "/tokenizer.json"))
        throw Error(ErrorCode::Unsupported, "no tokenizer (tokenizer.model or tokenizer.json) in this folder", dir);
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

/// SpecialVocab(dir, load_merges, n_vocab=n_vocab).add_to_gguf(writer).
void special_vocab(GgufVocab& out, const VocabRequest& req, bool load_merges, std::optional<std::uint64_t> n_vocab) {
    SpecialVocabOptions opt;
    opt.load_merges = load_merges;
    opt.n_vocab = n_vocab;
    if (!req.config_json.empty()) opt.config_json = req.config_json;
    const SpecialVocab sv = load_special_vocab(req.dir, opt);
    add_special_vocab_kvs(sv, out.kvs, req.dir);
    append(out.warnings, sv.warnings);
}

/// `_set_vocab_sentencepiece` / `_set_vocab_llama_hf` / Phi-3's: model
/// "llama", pre "default", tokens, scores, token types, then SpecialVocab
/// with n_vocab = the token count.
void write_llama_tokens(GgufVocab& out, SpmVocab& v) {
    out.model = "llama";
    out.pre = "default";
    out.n_tokens = v.tokens.size();
    kv_put(out.kvs, "tokenizer.ggml.model", MetaValue::string("llama"));
    kv_put(out.kvs, "tokenizer.ggml.pre", MetaValue::string("default"));
    if (!v.tokens.empty()) {  // add_array skips empty arrays
        kv_put(out.kvs, "tokenizer.ggml.tokens", string_array(v.tokens));
        kv_put(out.kvs, "tokenizer.ggml.scores", packed_array(GgufType::F32, v.scores));
        kv_put(out.kvs, "tokenizer.ggml.token_type", packed_array(GgufType::I32, v.types));
    }
    append(out.warnings, v.warnings);
}

void write_llama_vocab(GgufVocab& out, const VocabRequest& req, SpmVocab&& v) {
    write_llama_tokens(out, v);
    special_vocab(out, req, false, v.tokens.size());
}

/// A special token GLM's set_vocab sets by its content:
/// `special_vocab._set_special_token(type, tokenizer.get_added_vocab()[content])`.
struct AddedSpecial {
    std::string_view type, content;
};

/// `_set_vocab_gpt2`: model "gpt2", pre, tokens, token types, then
/// SpecialVocab(load_merges=True) without a vocabulary bound; with `added_specials`
/// (Glm4Model.set_vocab, `_set_vocab_glm`) those are set on it first, each only when
/// its type is still unset. \throws Error{Malformed} naming tokenizer.json when one's
/// content is not an added token (the converter's KeyError).
void write_gpt2_vocab(GgufVocab& out, const VocabRequest& req, std::initializer_list<AddedSpecial> added_specials = {}) {
    need_tokenizer(req.dir);
    Gpt2Vocab v = gpt2_vocab(req.dir, req.vocab_size, req.pre_override);
    out.model = "gpt2";
    out.pre = v.pre;
    out.n_tokens = v.tokens.size();
    kv_put(out.kvs, "tokenizer.ggml.model", MetaValue::string("gpt2"));
    kv_put(out.kvs, "tokenizer.ggml.pre", MetaValue::string(v.pre));
    if (!v.tokens.empty()) {
        kv_put(out.kvs, "tokenizer.ggml.tokens", string_array(v.tokens));
        kv_put(out.kvs, "tokenizer.ggml.token_type", packed_array(GgufType::I32, v.types));
    }
    append(out.warnings, v.warnings);
    if (added_specials.size() == 0) return special_vocab(out, req, true, std::nullopt);
    SpecialVocabOptions opt;
    opt.load_merges = true;
    if (!req.config_json.empty()) opt.config_json = req.config_json;
    SpecialVocab sv = load_special_vocab(req.dir, opt);
    for (const AddedSpecial& a : added_specials) {
        const auto it = v.added_vocab.find(std::string(a.content));
        if (it == v.added_vocab.end())
            throw Error(ErrorCode::Malformed,
                        "no added token \"" + std::string(a.content) + "\" (GLM's " + std::string(a.type) +
                            " token; the converter stops with a KeyError)",
                        req.dir + "/tokenizer.json");
        sv.set_special_token(a.type, static_cast<std::int64_t>(it->second), std::nullopt, req.dir + "/tokenizer.json");
    }
    add_special_vocab_kvs(sv, out.kvs, req.dir);
    append(out.warnings, sv.warnings);
}

/// The converter's find_hparam(["vocab_size_per_layer_input", "vocab_size"]):
/// the first key present in config.json (Gemma-3n's per-layer size first).
std::optional<std::uint64_t> spm_vocab_size(const VocabRequest& req) {
    if (!req.config_json.empty()) {
        auto doc = py::parse_json(req.config_json, req.dir + "/config.json");
        if (const auto v = detail::json_get(doc.root(), "vocab_size_per_layer_input")) {
            const auto n = py::as_int(*v);
            return (n && *n > 0) ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*n)) : std::nullopt;
        }
    }
    return req.vocab_size;
}

/// InternLM3Model.set_vocab (conversion/internlm.py): `_create_vocab_sentencepiece`'s tokens, then
/// add_space_prefix = tokenizer_config's add_prefix_space (when the key exists), then SpecialVocab
/// with eos replaced by the id of a special `<|im_end|>` of added_tokens_decoder (when eos is set).
void internlm3_set_vocab(GgufVocab& out, const VocabRequest& req) {
    auto spm = sentencepiece_vocab(req.dir, spm_vocab_size(req));
    if (!spm) throw Error(ErrorCode::Unsupported, "InternLM3 needs its SentencePiece tokenizer.model (the converter: File not found)",
                          req.dir + "/tokenizer.model");
    write_llama_tokens(out, *spm);
    SpecialVocabOptions opt;
    opt.n_vocab = spm->tokens.size();
    if (!req.config_json.empty()) opt.config_json = req.config_json;
    SpecialVocab sv = load_special_vocab(req.dir, opt);
    if (auto tc = tokenizer_config(req.dir)) {
        const std::string path = req.dir + "/tokenizer_config.json";
        put_add_space_prefix(out, *tc, path);
        if (const auto dec = detail::json_get(tc->root(), "added_tokens_decoder"); dec && dec->is_object())
            for (auto [id_text, data] : simdjson::dom::object(*dec)) {
                if (!data.is_object()) continue;
                const auto special = detail::json_get(data, "special");
                const auto content = detail::json_get(data, "content");
                if (!special || !py::truthy(*special) || !content || !content->is_string()) continue;
                if (std::string_view(*content) != "<|im_end|>") continue;
                std::uint64_t id = 0;
                for (char ch : std::string_view(id_text)) {
                    if (ch < '0' || ch > '9' || id > (1ull << 40))
                        throw Error(ErrorCode::BadJson, "tokenizer_config.json added_tokens_decoder: a key is not a token id", path);
                    id = id * 10 + static_cast<std::uint64_t>(ch - '0');
                }
                for (auto& [typ, tid] : sv.special_token_ids)
                    if (typ == "eos") tid = id;
            }
    }
    add_special_vocab_kvs(sv, out.kvs, req.dir);
    append(out.warnings, sv.warnings);
}

/// InternLM2Model.set_vocab (conversion/internlm.py): internlm2_sentencepiece_vocab(), add_space_prefix from the
/// model's add_dummy_prefix after the types, then SpecialVocab with eos replaced by an added <|im_end|>'s id.
void internlm2_set_vocab(GgufVocab& out, const VocabRequest& req) {
    auto r = internlm2_sentencepiece_vocab(req.dir, req.vocab_size);
    write_llama_tokens(out, r.vocab);
    kv_put(out.kvs, "tokenizer.ggml.add_space_prefix", MetaValue::boolean(r.add_space_prefix));
    SpecialVocabOptions opt;
    opt.n_vocab = r.vocab.tokens.size();
    if (!req.config_json.empty()) opt.config_json = req.config_json;
    SpecialVocab sv = load_special_vocab(req.dir, opt);
    // old_eos = special_token_ids["eos"]: the converter stops without one.
    if (std::none_of(sv.special_token_ids.begin(), sv.special_token_ids.end(), [](const auto& p) { return p.first == "eos"; }))
        throw Error(ErrorCode::Malformed, "InternLM2 without an eos token (the converter's KeyError: 'eos')", req.dir);
    for (auto& [typ, tid] : sv.special_token_ids)
        if (typ == "eos" && r.chat_eos) tid = *r.chat_eos;
    add_special_vocab_kvs(sv, out.kvs, req.dir);
    append(out.warnings, sv.warnings);
}

/// LlamaModel.set_vocab (conversion/llama.py).
void llama_set_vocab(GgufVocab& out, const VocabRequest& req) {
    const std::string& dir = req.dir;
    if (py::is_file(dir + "/tekken.json") && !py::is_file(dir + "/tokenizer.json"))
        throw Error(ErrorCode::Unsupported,
                    "Mistral tekken.json tokenizers (the converter's _set_vocab_mistral, mistral-common) are not supported",
                    dir + "/tekken.json");
    if (auto tc = tokenizer_config(dir)) {
        const std::string path = dir + "/tokenizer_config.json";
        if (const auto aps = detail::json_get(tc->root(), "add_prefix_space"); aps && !aps->is_null())
            kv_put(out.kvs, "tokenizer.ggml.add_space_prefix", MetaValue::boolean(py::truthy(*aps)));
        if (py::str(detail::json_get(tc->root(), "tokenizer_class")) == std::optional<std::string_view>("HybridDNATokenizer"))
            throw Error(ErrorCode::Unsupported, "HybridDNATokenizer vocabularies are not supported", path);
    }
    need_tokenizer(dir);
    if (auto spm = sentencepiece_vocab(dir, spm_vocab_size(req))) write_llama_vocab(out, req, std::move(*spm));
    else if (auto hf = llama_hf_vocab(dir)) write_llama_vocab(out, req, std::move(*hf));
    else write_gpt2_vocab(out, req);  // Llama 3

    const std::uint64_t hp_vocab = req.vocab_size.value_or(32000);
    if (hp_vocab == 32016) {  // CodeLlama: the infill tokens
        SpecialVocabOptions opt;
        opt.special_token_types = {"prefix", "suffix", "middle", "eot"};
        if (!req.config_json.empty()) opt.config_json = req.config_json;
        SpecialVocab sv = load_special_vocab(dir, opt);
        sv.set_special_token("prefix", 32007, std::nullopt, dir);
        sv.set_special_token("suffix", 32008, std::nullopt, dir);
        sv.set_special_token("middle", 32009, std::nullopt, dir);
        sv.set_special_token("eot", 32010, std::nullopt, dir);
        add_special_vocab_kvs(sv, out.kvs, dir);
        append(out.warnings, sv.warnings);
    }
    if (hp_vocab == 49152)  // Granite small models
        kv_put(out.kvs, "tokenizer.ggml.add_bos_token", MetaValue::boolean(false));
}

/// Phi3MiniModel.set_vocab (conversion/phi.py).
void phi3_set_vocab(GgufVocab& out, const VocabRequest& req) {
    if (auto tc = tokenizer_config(req.dir)) {
        const std::string path = req.dir + "/tokenizer_config.json";
        const auto cls = py::at(tc->root(), "tokenizer_class", path, "tokenizer_config.json");
        if (py::equal(cls, "GPT2Tokenizer")) return write_gpt2_vocab(out, req);  // Phi-4
    }
    need_tokenizer(req.dir);
    write_llama_vocab(out, req, phi3_sentencepiece_vocab(req.dir, req.vocab_size));
}

/// Gemma2Model / Gemma3Model.set_vocab (conversion/gemma.py): `_set_vocab_sentencepiece`
/// and add_space_prefix false after it; Gemma 3 takes the gpt2 path without a tokenizer.model.
void gemma_set_vocab(GgufVocab& out, const VocabRequest& req) {
    if (!py::is_file(req.dir + "/tokenizer.model")) {
        if (req.style == VocabStyle::Gemma3) return write_gpt2_vocab(out, req);
        throw Error(ErrorCode::Unsupported, "Gemma needs its SentencePiece tokenizer.model (the converter: File not found)",
                    req.dir + "/tokenizer.model");
    }
    auto spm = sentencepiece_vocab(req.dir, spm_vocab_size(req));
    if (!spm) throw Error(ErrorCode::Malformed, "tokenizer.model could not be read", req.dir + "/tokenizer.model");
    write_llama_vocab(out, req, std::move(*spm));
    // GemmaModel: a second SpecialVocab of prefix/suffix/middle/fsep/eot with CodeGemma's ids 67/69/68/70/107;
    // gguf-py writes only eot of those (no writer for the others), and never over an id already loaded.
    if (req.style == VocabStyle::Gemma) {
        bool has_eot = false;
        for (const auto& kv : out.kvs) has_eot = has_eot || kv.key == "tokenizer.ggml.eot_token_id";
        if (!has_eot) kv_put(out.kvs, "tokenizer.ggml.eot_token_id", MetaValue::u32(107));
    }
    kv_put(out.kvs, "tokenizer.ggml.add_space_prefix", MetaValue::boolean(false));
}

/// `e` as a token id gguf-py's add_*_token_id packs (uint32). \throws Error{BadJson} naming `what` otherwise.
MetaValue token_id(simdjson::dom::element e, const std::string& file, std::string_view what) {
    const auto v = py::as_int(e);
    if (!v || *v < 0 || *v > 0xFFFFFFFFll) throw Error(ErrorCode::BadJson, std::string(what) + ": expected a token id", file);
    return MetaValue::u32(static_cast<std::uint32_t>(*v));
}

/// HunYuanModel.set_vocab (conversion/hunyuan.py) with a tokenizer.json: get_vocab_base and SpecialVocab as
/// `_set_vocab_gpt2`, then _fix_special_tokens: eos := config.json eod_token_id, eot := generation_config.json
/// eos_token_id[0] when that is a list of two or more (each written in place when already there).
void hunyuan_set_vocab(GgufVocab& out, const VocabRequest& req) {
    if (!py::is_file(req.dir + "/tokenizer.json"))
        throw Error(ErrorCode::Unsupported,
                    "HunYuan without tokenizer.json: its tiktoken tokenizer needs the model's remote code (not supported here)",
                    req.dir + "/tokenizer.json");
    const std::string cfg_path = req.dir + "/config.json";
    std::optional<detail::JsonDoc> cfg;
    if (!req.config_json.empty()) cfg = py::parse_json(req.config_json, cfg_path);
    if (cfg)
        if (const auto pad = detail::json_get(cfg->root(), "pad_token_id"); py::truthy(pad) && py::as_int(*pad).value_or(0) < 0)
            throw Error(ErrorCode::Unsupported, "HunYuan with pad_token_id < 0 (HunYuanVL's OCR configs) is not supported here", cfg_path);
    write_gpt2_vocab(out, req);
    if (cfg)
        if (const auto eod = detail::json_get(cfg->root(), "eod_token_id"); eod && !eod->is_null())
            kv_put(out.kvs, "tokenizer.ggml.eos_token_id", token_id(*eod, cfg_path, "eod_token_id"));
    const std::string gen_path = req.dir + "/generation_config.json";
    if (py::is_file(gen_path)) {
        const auto gen = py::load_json(gen_path);
        if (const auto eos = detail::json_get(gen.root(), "eos_token_id"); eos && eos->is_array()) {
            const simdjson::dom::array a = *eos;
            if (a.size() >= 2) kv_put(out.kvs, "tokenizer.ggml.eot_token_id", token_id(a.at(0), gen_path, "eos_token_id[0]"));
        }
    }
}

/// config.json `type_vocab_size` (BertModel's `hparams.get("type_vocab_size", 1)`).
std::uint64_t type_vocab_size(const VocabRequest& req) {
    std::uint64_t type_count = 1;
    if (!req.config_json.empty()) {
        auto doc = py::parse_json(req.config_json, req.dir + "/config.json");
        if (const auto t = detail::json_get(doc.root(), "type_vocab_size")) {
            const auto n = py::as_int(*t);
            if (!n || *n < 0 || *n > std::int64_t(UINT32_MAX))
                throw Error(ErrorCode::BadJson, "config.json key 'type_vocab_size': expected a count", req.dir + "/config.json");
            type_count = static_cast<std::uint64_t>(*n);
        }
    }
    return type_count;
}

/// XLMRobertaModel.set_vocab: `_xlmroberta_set_vocab` (conversion/bert.py), its sentencepiece.bpe.model branch.
void xlmroberta_set_vocab(GgufVocab& out, const VocabRequest& req) {
    XlmRobertaVocab x = xlmroberta_sentencepiece_vocab(req.dir, req.vocab_size);
    SpmVocab& v = x.vocab;
    out.model = "t5";
    out.pre = "default";
    out.n_tokens = v.tokens.size();
    kv_put(out.kvs, "tokenizer.ggml.model", MetaValue::string("t5"));
    kv_put(out.kvs, "tokenizer.ggml.pre", MetaValue::string("default"));
    if (!v.tokens.empty()) {
        kv_put(out.kvs, "tokenizer.ggml.tokens", string_array(v.tokens));
        kv_put(out.kvs, "tokenizer.ggml.scores", packed_array(GgufType::F32, v.scores));
        kv_put(out.kvs, "tokenizer.ggml.token_type", packed_array(GgufType::I32, v.types));
    }
    kv_put(out.kvs, "tokenizer.ggml.add_space_prefix", MetaValue::boolean(x.facts.add_dummy_prefix));
    kv_put(out.kvs, "tokenizer.ggml.token_type_count", MetaValue::u32(static_cast<std::uint32_t>(type_vocab_size(req))));
    kv_put(out.kvs, "tokenizer.ggml.remove_extra_whitespaces", MetaValue::boolean(x.facts.remove_extra_whitespaces));
    if (!x.facts.precompiled_charsmap.empty()) {  // add_array of bytes: UINT8 items
        const std::size_t n = x.facts.precompiled_charsmap.size();
        kv_put(out.kvs, "tokenizer.ggml.precompiled_charsmap",
               MetaValue::packed(GgufType::U8, n, std::move(x.facts.precompiled_charsmap)));
    }
    append(out.warnings, v.warnings);
    special_vocab(out, req, false, v.tokens.size());
}

/// BertModel.set_vocab (conversion/bert.py).
void bert_set_vocab(GgufVocab& out, const VocabRequest& req) {
    const std::string tj = req.dir + "/tokenizer.json";
    if (!py::is_file(tj))
        throw Error(ErrorCode::Unsupported,
                    "no tokenizer.json: BERT vocabularies are read from a WordPiece tokenizer.json (the converter's AutoTokenizer)",
                    tj);
    Gpt2Vocab v = gpt2_vocab(req.dir, req.vocab_size, req.pre_override);
    if (!v.wordpiece)
        throw Error(ErrorCode::Unsupported, "a BERT vocabulary needs a WordPiece tokenizer.json model (this one is BPE)", tj);
    // add_token_type_count(hparams.get("type_vocab_size", 1)) comes before the tokenizer keys.
    const std::uint64_t type_count = type_vocab_size(req);
    kv_put(out.kvs, "tokenizer.ggml.token_type_count", MetaValue::u32(static_cast<std::uint32_t>(type_count)));
    constexpr std::int32_t kControl = 3;
    for (std::size_t i = 0; i < v.tokens.size(); ++i) {  // phantom space: "▁word", "##piece" → "piece", CONTROL kept
        std::string& t = v.tokens[i];
        if (v.types[i] == kControl) continue;
        t = t.starts_with("##") ? t.substr(2) : "\xE2\x96\x81" + t;
    }
    out.model = "bert";
    out.pre = v.pre;
    out.n_tokens = v.tokens.size();
    kv_put(out.kvs, "tokenizer.ggml.model", MetaValue::string("bert"));
    kv_put(out.kvs, "tokenizer.ggml.pre", MetaValue::string(v.pre));
    if (!v.tokens.empty()) {
        kv_put(out.kvs, "tokenizer.ggml.tokens", string_array(v.tokens));
        kv_put(out.kvs, "tokenizer.ggml.token_type", packed_array(GgufType::I32, v.types));
    }
    append(out.warnings, v.warnings);
    special_vocab(out, req, false, v.tokens.size());
}

/// MambaModel.set_vocab (conversion/mamba.py): `req.vocab_size` already rounded up to pad_vocab_size_multiple by
/// the caller (arch::detail::ssm_padded_vocab_size), then tokenizer.json → `_set_vocab_gpt2`, else tokenizer.model
/// → `_set_vocab_sentencepiece`; Mamba2Model's (`mamba2`): tokenizer.model first. The built-in GPT-NeoX vocabulary
/// they take without tokenizer files (gguf-py's ggml-vocab-gpt-neox.gguf) is refused.
void mamba_set_vocab(GgufVocab& out, const VocabRequest& req, bool mamba2) {
    if (!req.vocab_size)
        throw Error(ErrorCode::Malformed, "config.json has no key 'vocab_size' (MambaModel.set_vocab reads it)", req.dir + "/config.json");
    if (!mamba2 && py::is_file(req.dir + "/tokenizer.json")) return write_gpt2_vocab(out, req);
    if (auto spm = sentencepiece_vocab(req.dir, spm_vocab_size(req))) return write_llama_vocab(out, req, std::move(*spm));
    if (py::is_file(req.dir + "/tokenizer.json")) return write_gpt2_vocab(out, req);
    throw Error(ErrorCode::Unsupported,
                "no tokenizer.json or tokenizer.model: the converter then writes its built-in GPT-NeoX vocabulary "
                "(gguf-py's ggml-vocab-gpt-neox.gguf), which is not written here",
                req.dir);
}

}  // namespace

GgufVocab gguf_vocab(const VocabRequest& req) {
    if (!py::is_dir(req.dir)) throw Error(ErrorCode::Io, "not a folder", req.dir);
    GgufVocab out;
    switch (req.style) {
        case VocabStyle::Llama: llama_set_vocab(out, req); break;
        case VocabStyle::Qwen2:
            need_tokenizer(req.dir);
            if (auto spm = sentencepiece_vocab(req.dir, spm_vocab_size(req))) write_llama_vocab(out, req, std::move(*spm));
            else write_gpt2_vocab(out, req);
            break;
        case VocabStyle::Gpt2: write_gpt2_vocab(out, req); break;
        case VocabStyle::Glm4:  // Glm4Model.set_vocab
            write_gpt2_vocab(out, req, {{"eos", "<|endoftext|>"}, {"eot", "<|user|>"}, {"unk", "<|endoftext|>"}, {"bos", "<|endoftext|>"}});
            break;
        case VocabStyle::Glm:  // `_set_vocab_glm` (Glm4MoeModel)
            write_gpt2_vocab(out, req, {{"bos", "[gMASK]"}, {"eot", "<|user|>"}, {"unk", "<|endoftext|>"}, {"eom", "<|observation|>"}});
            break;
        case VocabStyle::Phi3: phi3_set_vocab(out, req); break;
        case VocabStyle::HunYuan: hunyuan_set_vocab(out, req); break;
        case VocabStyle::Bert: bert_set_vocab(out, req); break;
        case VocabStyle::Mamba: mamba_set_vocab(out, req, false); break;
        case VocabStyle::Mamba2: mamba_set_vocab(out, req, true); break;
        case VocabStyle::XlmRoberta: xlmroberta_set_vocab(out, req); break;
        case VocabStyle::Roberta:  // RobertaModel.set_vocab
            if (!py::is_file(req.dir + "/tokenizer.json"))
                throw Error(ErrorCode::Unsupported,
                            "RoBERTa without tokenizer.json: the converter then reads its BPE vocabulary as BERT's WordPiece "
                            "one (BertModel.set_vocab), a vocabulary llama.cpp cannot tokenize with; save the tokenizer "
                            "with transformers (tokenizer.json) first",
                            req.dir);
            write_gpt2_vocab(out, req);
            kv_put(out.kvs, "tokenizer.ggml.token_type_count", MetaValue::u32(static_cast<std::uint32_t>(type_vocab_size(req))));
            break;
        case VocabStyle::ModernBert:  // ModernBertModel.set_vocab
            for (const char* k : {"tokenizer.ggml.add_bos_token", "tokenizer.ggml.add_eos_token", "tokenizer.ggml.add_sep_token"})
                kv_put(out.kvs, k, MetaValue::boolean(true));
            write_gpt2_vocab(out, req);
            break;
        case VocabStyle::InternLM3: internlm3_set_vocab(out, req); break;
        case VocabStyle::InternLM2: internlm2_set_vocab(out, req); break;
        case VocabStyle::SentencePiece: {  // `_set_vocab_sentencepiece` (MiniCPMModel)
            auto spm = sentencepiece_vocab(req.dir, spm_vocab_size(req));
            if (!spm) throw Error(ErrorCode::Unsupported, "this architecture needs its SentencePiece tokenizer.model (the converter: File not found)",
                                  req.dir + "/tokenizer.model");
            write_llama_vocab(out, req, std::move(*spm));
            break;
        }
        case VocabStyle::Ernie4_5: {  // Ernie4_5Model.set_vocab
            auto spm = sentencepiece_vocab(req.dir, spm_vocab_size(req));
            if (!spm) throw Error(ErrorCode::Unsupported, "ERNIE 4.5 needs its SentencePiece tokenizer.model (the converter: File not found)",
                                  req.dir + "/tokenizer.model");
            write_llama_vocab(out, req, std::move(*spm));
            if (auto tc = tokenizer_config(req.dir)) put_add_space_prefix(out, *tc, req.dir + "/tokenizer_config.json");
            break;
        }
        case VocabStyle::Gemma:
        case VocabStyle::Gemma2:
        case VocabStyle::Gemma3: gemma_set_vocab(out, req); break;
        default: throw Error(ErrorCode::Usage, "unknown vocabulary style", req.dir);
    }
    return out;
}

}  // namespace amn::tok
