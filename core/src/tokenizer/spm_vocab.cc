// SPDX-License-Identifier: MIT OR Apache-2.0
// SentencePiece vocabularies: conversion/base.py `_create_vocab_sentencepiece`
// and conversion/phi.py Phi3MiniModel.set_vocab, read with Debian's
// libsentencepiece (the library python3-sentencepiece wraps).
#include "tokenizer/spm_vocab.hpp"

#include "anamnesis/error.hpp"
#include "tokenizer/py_compat.hpp"

#include <algorithm>
#include <functional>
#include <sentencepiece_processor.h>

#include <exception>
#include <new>
#include <string>

namespace amn::tok {
namespace {

constexpr std::string_view kLowerOneEighthBlock = "\xe2\x96\x81";  // U+2581, SentencePiece's space

std::int32_t t(SpmTokenType v) { return static_cast<std::int32_t>(v); }

/// A Python list index: `id` in [0, n) as is, [-n, 0) counted from the end,
/// nullopt when Python raises IndexError.
std::optional<std::size_t> py_index(std::int64_t id, std::size_t n) {
    const auto sn = static_cast<std::int64_t>(n);
    if (id >= 0 && id < sn) return static_cast<std::size_t>(id);
    if (id < 0 && id >= -sn) return static_cast<std::size_t>(id + sn);
    return std::nullopt;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
    std::size_t pos = 0;
    while ((pos = s.find(from, pos)) != std::string::npos) {
        s.replace(pos, from.size(), to);
        pos += to.size();
    }
    return s;
}

/// The vocabulary of `n` entries before the model is read: "[PAD<i>]", −10000, unused.
SpmVocab padded(std::uint64_t n, const std::string& where) {
    if (n > kMaxVocabTokens)
        throw Error(ErrorCode::LimitExceeded,
                    "vocab_size " + std::to_string(n) + " is over the limit of " + std::to_string(kMaxVocabTokens) +
                        " tokens",
                    where);
    SpmVocab v;
    v.tokens.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) v.tokens.push_back("[PAD" + std::to_string(i) + "]");
    v.scores.assign(n, -10000.0f);
    v.types.assign(n, t(SpmTokenType::Unused));
    return v;
}

/// A loaded tokenizer.model.
struct Model {
    sentencepiece::SentencePieceProcessor sp;
    std::string path;
    std::size_t size() const { return static_cast<std::size_t>(sp.GetPieceSize()); }
};

void check_status(const sentencepiece::util::Status& status, const std::string& path) {
    if (!status.ok())
        throw Error(ErrorCode::Malformed, "not a SentencePiece model that libsentencepiece can load (" +
                                              status.ToString() + ")",
                    path);
}

/// Runs a libsentencepiece load. The library reports most problems in its
/// Status, but some models that parse as protobuf make it *throw* instead:
/// Darts::Details::Exception (a std::exception) "failed to insert key:
/// zero-length key" from the piece trie of a unigram model with an empty
/// piece (found by fuzz_spm_model). Such an exception is turned into the same
/// named error; std::bad_alloc passes through as it is.
template <class Load>
void guarded_load(Model& m, const std::string& path, Load&& load) {
    m.path = path;
    sentencepiece::util::Status status;
    try {
        status = load();
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(ErrorCode::Malformed,
                    std::string("not a SentencePiece model that libsentencepiece can load (") + e.what() + ")", path);
    }
    check_status(status, path);
}

void load_model(Model& m, const std::string& path) {
    guarded_load(m, path, [&] { return m.sp.Load(path); });
}

void load_model_bytes(Model& m, std::string_view bytes, const std::string& path) {
    guarded_load(m, path, [&] { return m.sp.LoadFromSerializedProto(bytes); });
}

/// Piece `id`: text, score, type (the converter's if/elif order).
void read_piece(const Model& m, int id, std::string& text, float& score, std::int32_t& type) {
    text = m.sp.IdToPiece(id);
    if (!py::valid_utf8(text))
        throw Error(ErrorCode::Malformed, "piece " + std::to_string(id) + " is not valid UTF-8", m.path);
    score = m.sp.GetScore(id);
    type = t(SpmTokenType::Normal);
    if (m.sp.IsUnknown(id)) type = t(SpmTokenType::Unknown);
    else if (m.sp.IsControl(id)) type = t(SpmTokenType::Control);
    else if (m.sp.IsUnused(id)) type = t(SpmTokenType::Unused);
    else if (m.sp.IsByte(id)) type = t(SpmTokenType::Byte);
}

/// added_tokens.json `{text: id}` entries in file order (dict semantics).
/// \throws Error{BadJson} when it is not an object of integers.
std::vector<std::pair<std::string, std::int64_t>> added_tokens_json(const std::string& file) {
    auto doc = py::load_json(file);
    if (doc.root().type() != simdjson::dom::element_type::OBJECT)
        throw Error(ErrorCode::BadJson, "added_tokens.json: expected an object of token ids", file);
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (const auto& [key, value] : py::items(doc.root())) {
        // `token_id >= vocab_size` / `tokens[token_id]` need an int (bool is one).
        const auto id = py::as_int(value);
        if (!id)
            throw Error(ErrorCode::BadJson, "added_tokens.json: the id of \"" + std::string(key) + "\" is a " +
                                                std::string(detail::json_type_name(value)) + ", not an integer",
                        file);
        out.emplace_back(std::string(key), *id);
    }
    return out;
}

/// One `added_tokens_decoder` entry.
struct DecoderEntry {
    std::int64_t id;
    std::string content;
    bool special;
};

/// tokenizer_config.json `added_tokens_decoder` (absent: none).
std::vector<DecoderEntry> added_tokens_decoder(const std::string& file) {
    auto doc = py::load_json(file);
    const auto dec = py::get(doc.root(), "added_tokens_decoder", file, "tokenizer_config.json");
    std::vector<DecoderEntry> out;
    if (!dec) return out;
    if (dec->type() != simdjson::dom::element_type::OBJECT)
        throw Error(ErrorCode::BadJson, "added_tokens_decoder: expected an object, got " +
                                            std::string(detail::json_type_name(*dec)),
                    file);
    for (const auto& [key, data] : py::items(*dec)) {
        const auto id = py::parse_int(key);
        if (!id) throw Error(ErrorCode::BadJson, "added_tokens_decoder: key \"" + std::string(key) + "\" is not an integer", file);
        const std::string what = "added_tokens_decoder[" + std::string(key) + "]";
        const auto content = py::str(py::at(data, "content", file, what));
        if (!content) throw Error(ErrorCode::BadJson, what + ".content: expected a string", file);
        out.push_back({*id, std::string(*content), py::truthy(py::get(data, "special", file, what))});
    }
    return out;
}

/// The first part of `_create_vocab_sentencepiece`: `vocab_size` entries
/// (nullopt or 0: the model's piece count), the model's pieces in place.
SpmVocab model_pieces(const Model& m, std::optional<std::uint64_t> vocab_size_hp, const std::string& config_path,
                      const std::string& model_file) {
    const std::size_t n_pieces = m.size();
    const std::uint64_t vocab_size = (vocab_size_hp && *vocab_size_hp) ? *vocab_size_hp : n_pieces;
    SpmVocab v = padded(vocab_size, config_path);
    // The converter drops the pieces past vocab_size with a warning; the
    // model's embedding rows (vocab_size) then disagree with its tokenizer,
    // and the tokens the dropped pieces stood for cannot be written: refused.
    if (n_pieces > vocab_size)
        throw Error(ErrorCode::SizeMismatch,
                    "the tokenizer has " + std::to_string(n_pieces) + " pieces, more than config.json's vocab_size " +
                        std::to_string(vocab_size),
                    model_file);
    for (std::size_t id = 0; id < n_pieces; ++id) read_piece(m, static_cast<int>(id), v.tokens[id], v.scores[id], v.types[id]);
    return v;
}

}  // namespace

SpmVocab sentencepiece_model_vocab(std::string_view model, std::optional<std::uint64_t> vocab_size,
                                   const std::string& file) {
    Model m;
    load_model_bytes(m, model, file);
    return model_pieces(m, vocab_size, file, file);
}

bool does_token_look_special(std::string_view tok) noexcept {
    if (tok == "<pad>" || tok == "<mask>" || tok == "<2mass>" || tok == "[@BOS@]") return true;
    if (tok.starts_with("<|") && tok.ends_with("|>")) return true;
    if (tok.starts_with("<\xef\xbd\x9c") && tok.ends_with("\xef\xbd\x9c>")) return true;  // <｜ … ｜>
    return tok.starts_with("<unused") && tok.ends_with(">");
}

std::optional<SpmVocab> sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size_hp) {
    const std::string model_path = dir + "/tokenizer.model";
    if (!py::is_file(model_path)) return std::nullopt;
    Model m;
    load_model(m, model_path);
    SpmVocab v = model_pieces(m, vocab_size_hp, dir + "/config.json", model_path);
    const std::uint64_t vocab_size = v.tokens.size();

    const auto n = static_cast<std::int64_t>(vocab_size);
    const std::string added_path = dir + "/added_tokens.json";
    if (py::is_file(added_path)) {
        for (auto& [text, id] : added_tokens_json(added_path)) {
            if (id >= n) {
                v.warnings.push_back("ignore token " + std::to_string(id) + ": id is out of range, max=" +
                                     std::to_string(n - 1));
                continue;
            }
            const auto i = py_index(id, v.tokens.size());
            if (!i)
                throw Error(ErrorCode::SizeMismatch, "added token id " + std::to_string(id) + " of \"" + text +
                                                         "\" is outside the vocabulary of " + std::to_string(n),
                            added_path);
            v.tokens[*i] = text;
            v.scores[*i] = -1000.0f;
            v.types[*i] = t(SpmTokenType::UserDefined);
        }
    }

    const std::string config_path = dir + "/tokenizer_config.json";
    if (py::is_file(config_path)) {
        for (auto& e : added_tokens_decoder(config_path)) {
            if (e.id >= n) {
                v.warnings.push_back("ignore token " + std::to_string(e.id) + ": id is out of range, max=" +
                                     std::to_string(n - 1));
                continue;
            }
            const auto i = py_index(e.id, v.tokens.size());
            if (!i)
                throw Error(ErrorCode::SizeMismatch, "added_tokens_decoder id " + std::to_string(e.id) +
                                                         " is outside the vocabulary of " + std::to_string(n),
                            config_path);
            if (v.types[*i] != t(SpmTokenType::Unused) && v.tokens[*i] != e.content)
                v.warnings.push_back("replacing token " + std::to_string(e.id) + ": '" + v.tokens[*i] + "' -> '" +
                                     e.content + "'");
            std::string token = e.content;
            if (e.special || does_token_look_special(token)) {
                v.types[*i] = t(SpmTokenType::Control);
            } else {
                token = replace_all(std::move(token), kLowerOneEighthBlock, " ");
                v.types[*i] = t(SpmTokenType::UserDefined);
            }
            v.scores[*i] = -1000.0f;
            v.tokens[*i] = std::move(token);
        }
    }
    // The converter's final "[PAD<i>]" padding (vocab_size > len(tokens)) cannot
    // trigger: the lists are vocab_size long from the start.
    return v;
}

/// Phi3MiniModel / InternLM2Model.set_vocab: tokenizer_config.json `added_tokens_decoder`, then tokenizer.json
/// `added_tokens`, each token placed at its id (`place`) as user-defined (control when `special`), score −1000;
/// `seen(content, index)` for each (InternLM2 looks for <|im_end|>).
template <class Place>
void override_added_tokens(SpmVocab& v, const std::string& dir, Place&& place,
                           const std::function<void(std::string_view, std::size_t)>& seen) {
    auto set_added = [&](std::size_t i, std::int64_t id, const std::string& content, bool special) {
        if (seen) seen(content, i);
        if (v.types[i] != t(SpmTokenType::Unused) && v.tokens[i] != content)
            v.warnings.push_back("replacing token " + std::to_string(id) + ": '" + v.tokens[i] + "' -> '" + content + "'");
        v.tokens[i] = content;
        v.scores[i] = -1000.0f;
        v.types[i] = t(special ? SpmTokenType::Control : SpmTokenType::UserDefined);
    };

    const std::string config_path = dir + "/tokenizer_config.json";
    if (py::is_file(config_path))
        for (auto& e : added_tokens_decoder(config_path)) set_added(place(e.id, config_path), e.id, e.content, e.special);

    const std::string tj_path = dir + "/tokenizer.json";
    if (py::is_file(tj_path)) {
        auto doc = py::load_json(tj_path);
        const auto added = py::get(doc.root(), "added_tokens", tj_path, "tokenizer.json");
        if (added) {
            if (added->type() != simdjson::dom::element_type::ARRAY)
                throw Error(ErrorCode::BadJson, "added_tokens: expected an array, got " +
                                                    std::string(detail::json_type_name(*added)),
                            tj_path);
            std::size_t k = 0;
            for (py::Elem a : simdjson::dom::array(*added)) {
                const std::string what = "added_tokens[" + std::to_string(k++) + "]";
                const std::int64_t id = py::to_int(py::at(a, "id", tj_path, what), tj_path, what + ".id");
                const auto content = py::str(py::at(a, "content", tj_path, what));
                if (!content) throw Error(ErrorCode::BadJson, what + ".content: expected a string", tj_path);
                set_added(place(id, tj_path), id, std::string(*content), py::truthy(py::get(a, "special", tj_path, what)));
            }
        }
    }
}

namespace {

std::uint64_t proto_varint(std::string_view b, std::size_t& at) {
    std::uint64_t v = 0;
    for (int shift = 0; at < b.size() && shift < 64; shift += 7) {
        const auto c = static_cast<unsigned char>(b[at++]);
        v |= std::uint64_t(c & 0x7f) << shift;
        if (!(c & 0x80)) return v;
    }
    return v;
}

/// Calls `f(field, wire, varint value, length-delimited bytes)` for each field of one message.
template <class F>
void proto_fields(std::string_view b, F&& f) {
    for (std::size_t i = 0; i < b.size();) {
        const std::uint64_t key = proto_varint(b, i);
        const auto field = key >> 3, wire = key & 7;
        if (wire == 0) f(field, wire, proto_varint(b, i), std::string_view());
        else if (wire == 1) i += 8;
        else if (wire == 5) i += 4;
        else if (wire == 2) {
            const std::uint64_t len = proto_varint(b, i);
            if (i > b.size() || len > b.size() - i) return;
            f(field, wire, 0, b.substr(i, len));
            i += len;
        } else return;
    }
}

}  // namespace

SpmProtoFacts spm_proto_facts(std::string_view proto) {
    SpmProtoFacts r;
    proto_fields(proto, [&](std::uint64_t field, std::uint64_t wire, std::uint64_t, std::string_view bytes) {
        if (wire != 2) return;
        if (field == 2)  // TrainerSpec
            proto_fields(bytes, [&](std::uint64_t f, std::uint64_t w, std::uint64_t v, std::string_view) {
                if (f == 3 && w == 0) r.model_type = v;
            });
        else if (field == 3)  // NormalizerSpec
            proto_fields(bytes, [&](std::uint64_t f, std::uint64_t w, std::uint64_t v, std::string_view b) {
                if (f == 2 && w == 2) r.precompiled_charsmap = std::string(b);
                else if (f == 3 && w == 0) r.add_dummy_prefix = v != 0;
                else if (f == 4 && w == 0) r.remove_extra_whitespaces = v != 0;
            });
    });
    return r;
}

/// normalizer_spec.add_dummy_prefix of serialized ModelProto bytes (true when absent).
bool add_dummy_prefix(std::string_view proto) { return spm_proto_facts(proto).add_dummy_prefix; }

XlmRobertaVocab xlmroberta_sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size_hp) {
    const std::string model_path = dir + "/sentencepiece.bpe.model";
    if (!py::is_file(model_path))
        throw Error(ErrorCode::Unsupported,
                    "XLM-RoBERTa without sentencepiece.bpe.model is not supported (the converter's tokenizer.json path "
                    "needs transformers' AutoTokenizer)",
                    dir);
    Model m;
    load_model(m, model_path);
    XlmRobertaVocab r;
    r.facts = spm_proto_facts(m.sp.serialized_model_proto());
    if (r.facts.model_type != 1)
        throw Error(ErrorCode::Unsupported,
                    "not a Unigram SentencePiece model (trainer_spec.model_type " + std::to_string(r.facts.model_type) +
                        "; the converter asserts UNIGRAM for XLM-RoBERTa)",
                    model_path);
    // vocab_size = max(hparams.get("vocab_size", 0), tokenizer.vocab_size())
    const std::uint64_t n = std::max<std::uint64_t>(vocab_size_hp.value_or(0), m.size());
    SpmVocab v = model_pieces(m, n, dir + "/config.json", model_path);
    // fairseq's ids: [<s>, <pad>, </s>, <unk>] + entries[3:-1]
    SpmVocab& o = r.vocab;
    o.tokens = {"<s>", "<pad>", "</s>", "<unk>"};
    o.scores.assign(4, 0.0f);
    o.types = {t(SpmTokenType::Control), t(SpmTokenType::Control), t(SpmTokenType::Control), t(SpmTokenType::Unknown)};
    for (std::size_t i = 3; i + 1 < v.tokens.size(); ++i) {
        o.tokens.push_back(std::move(v.tokens[i]));
        o.scores.push_back(v.scores[i]);
        o.types.push_back(v.types[i]);
    }
    o.warnings = std::move(v.warnings);
    return r;
}

SpmVocab phi3_sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size_hp) {
    const std::string model_path = dir + "/tokenizer.model";
    if (!py::is_file(model_path)) throw Error(ErrorCode::Unsupported, "Missing tokenizer.model", model_path);
    Model m;
    load_model(m, model_path);
    const std::size_t n_pieces = m.size();
    const std::uint64_t vocab_size = vocab_size_hp ? *vocab_size_hp : n_pieces;
    SpmVocab v = padded(vocab_size, dir + "/config.json");
    if (n_pieces > vocab_size)
        throw Error(ErrorCode::SizeMismatch, "tokenizer.model has " + std::to_string(n_pieces) +
                                                 " pieces, more than vocab_size " + std::to_string(vocab_size),
                    model_path);
    for (std::size_t id = 0; id < n_pieces; ++id)
        read_piece(m, static_cast<int>(id), v.tokens[id], v.scores[id], v.types[id]);

    const auto n = static_cast<std::int64_t>(vocab_size);
    auto place = [&](std::int64_t id, const std::string& file) {
        const auto i = py_index(id, v.tokens.size());
        if (!i)
            throw Error(ErrorCode::SizeMismatch, "added token id " + std::to_string(id) +
                                                     " is outside the vocabulary of vocab_size " + std::to_string(n),
                        file);
        return *i;
    };

    const std::string added_path = dir + "/added_tokens.json";
    if (py::is_file(added_path)) {
        for (auto& [text, id] : added_tokens_json(added_path)) {
            if (id >= n) continue;  // logged at debug level only
            const std::size_t i = place(id, added_path);
            v.tokens[i] = text;
            v.scores[i] = -1000.0f;
            v.types[i] = t(SpmTokenType::UserDefined);
        }
    }

    override_added_tokens(v, dir, place, nullptr);
    return v;
}

InternLM2Vocab internlm2_sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size_hp) {
    const std::string model_path = dir + "/tokenizer.model";
    if (!py::is_file(model_path)) throw Error(ErrorCode::Unsupported, "Missing tokenizer.model (InternLM2 needs it)", model_path);
    Model m;
    load_model(m, model_path);
    InternLM2Vocab r;
    r.add_space_prefix = add_dummy_prefix(m.sp.serialized_model_proto());
    const std::size_t n_pieces = m.size();
    const std::uint64_t vocab_size = vocab_size_hp ? *vocab_size_hp : n_pieces;
    if (vocab_size > n_pieces)  // tokenizer.IdToPiece(token_id) past the model's pieces
        throw Error(ErrorCode::SizeMismatch, "vocab_size " + std::to_string(vocab_size) + " is more than the " +
                                                 std::to_string(n_pieces) + " pieces of tokenizer.model",
                    model_path);
    SpmVocab& v = r.vocab;
    v = padded(vocab_size, dir + "/config.json");
    for (std::size_t id = 0; id < vocab_size; ++id) {
        read_piece(m, static_cast<int>(id), v.tokens[id], v.scores[id], v.types[id]);
        if (v.tokens[id] == std::string_view("\0", 1)) {  // the converter's replacement, so C++ does not read it as empty
            v.warnings.push_back("InternLM2 convert token '\\x00' to '\xF0\x9F\x90\x89'!");
            v.tokens[id] = "\xF0\x9F\x90\x89";  // U+1F409 DRAGON
        }
        if (v.tokens[id].starts_with("[UNUSED")) v.types[id] = t(SpmTokenType::Unused);
    }
    const std::string added_path = dir + "/added_tokens.json";
    if (py::is_file(added_path))
        for (auto& [text, id] : added_tokens_json(added_path)) {  // appended whatever their ids
            (void)id;
            v.tokens.push_back(text);
            v.scores.push_back(-1000.0f);
            v.types.push_back(t(SpmTokenType::UserDefined));
        }
    auto place = [&](std::int64_t id, const std::string& file) {
        const auto i = py_index(id, v.tokens.size());
        if (!i)
            throw Error(ErrorCode::SizeMismatch, "added token id " + std::to_string(id) + " is outside the vocabulary of " +
                                                     std::to_string(v.tokens.size()) + " tokens",
                        file);
        return *i;
    };
    override_added_tokens(v, dir, place, [&](std::string_view content, std::size_t i) {
        if (content == "<|im_end|>") r.chat_eos = i;
    });
    return r;
}

}  // namespace amn::tok
