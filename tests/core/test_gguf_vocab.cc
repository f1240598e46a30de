// SPDX-License-Identifier: MIT OR Apache-2.0
// Tokenizer key/values of a Hugging Face folder (tokenizer/vocab.hpp):
// every `tokenizer.*` KV of every shared hf-gguf case against the manifest
// (what convert_hf_to_gguf.py wrote), in order and type; SpecialVocab parts
// of the BPE cases; variants checked against the converter run here
// (LlamaHfVocab, CodeLlama, added tokens, padding, chat templates,
// post-processors, normalizer); hostile inputs give named errors.
#include "anamnesis/error.hpp"
#include "sink/gguf_writer.hpp"
#include "util/sha256.hpp"
#include "test_support.hpp"
#include "hf_manifest_kvs.hpp"
#include "tokenizer/llama_hf_vocab.hpp"
#include "tokenizer/py_compat.hpp"
#include "tokenizer/special_vocab.hpp"
#include "tokenizer/spm_vocab.hpp"
#include "tokenizer/vocab.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace amn;
using test::error_code_of;
namespace fs = std::filesystem;

// Under AddressSanitizer every tokenizer load is ~20× slower: the two
// hostile-input sweeps take every 8th case there; the fuzz targets
// fuzz_hf_vocab and fuzz_spm_model cover this ground under ASan too.
constexpr std::size_t kSweepStride = test::kSanitized ? 8 : 1;

namespace {

tok::VocabRequest request(const std::string& dir, tok::VocabStyle style = tok::VocabStyle::Llama) {
    tok::VocabRequest r;
    r.dir = dir;
    r.style = style;
    r.config_json = read_file(dir + "/config.json");
    const auto cfg = QJsonDocument::fromJson(QByteArray::fromStdString(r.config_json)).object();
    if (cfg.contains("vocab_size")) r.vocab_size = static_cast<std::uint64_t>(cfg["vocab_size"].toInteger());
    return r;
}

/// Copy the small files of a fixture case (not the weights) into `to`.
void copy_case(const std::string& name, const std::string& to) {
    for (const auto& e : fs::directory_iterator(hf_dir() + "/inputs/" + name)) {
        const auto fn = e.path().filename().string();
        if (fn.ends_with(".safetensors")) continue;
        fs::copy_file(e.path(), to + "/" + fn, fs::copy_options::overwrite_existing);
    }
}


/// Insert `keys` ("\"k\": v, …") before the last '}' of a JSON object's
/// text: repeated keys then take these values (the last occurrence wins).
void append_keys(const std::string& path, const std::string& keys) {
    std::string t = read_file(path);
    const auto end = t.rfind('}');
    t.insert(end, (t.find(':') == std::string::npos ? "" : ", ") + keys);
    write_file(path, t);
}

/// Replace the text from the key `"from":` up to the key `"to":` of a
/// tokenizer.json with `replacement`.
void splice_keys(const std::string& path, const std::string& from, const std::string& to, const std::string& replacement) {
    std::string t = read_file(path);
    const auto a = t.find("\"" + from + "\":");
    const auto b = t.find("\"" + to + "\":");
    QVERIFY(a != std::string::npos && b != std::string::npos && a < b);
    t.replace(a, b - a, replacement);
    write_file(path, t);
}

/// A folder derived from a fixture case, checked against what the converter
/// (run here through ../ref/hf_shim, `--vocab-only`) wrote for the same bytes.
struct Variant {
    const char* name;
    const char* base;  ///< fixture case whose small files are copied
    tok::VocabStyle style;
    std::uint64_t vocab_size;
    void (*build)(const std::string& dir);
};

const char* kTemplateSingleEot =
    R"("normalizer": {"type": "BertNormalizer", "lowercase": true, "strip_accents": null, "clean_text": true}, )"
    R"("pre_tokenizer": null, "post_processor": {"type": "TemplateProcessing", )"
    R"("single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "<unk>", "type_id": 0}}], )"
    R"("pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}}, )"
    R"({"SpecialToken": {"id": "</s>", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "<unk>", "type_id": 1}}], "special_tokens": {}}, )";

const char* kSequenceSepRoberta =
    R"("normalizer": {"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "StripAccents"}]}, )"
    R"("pre_tokenizer": null, "post_processor": {"type": "Sequence", "processors": [{"type": "ByteLevel"}, )"
    R"({"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}], )"
    R"("pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}}, )"
    R"({"SpecialToken": {"id": "</s>", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}], "special_tokens": {}}, )"
    R"({"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 1]}]}, )";

const Variant kVariants[] = {
    // LlamaHfVocab: a byte-fallback BPE tokenizer.json without tokenizer.model.
    {"Mixtral-llamahf", "Mixtral-8x7B-v0.1", tok::VocabStyle::Llama, 32000,
     [](const std::string& d) { fs::remove(d + "/tokenizer.model"); }},
    {"Llama-2-llamahf", "Llama-2-7b-hf", tok::VocabStyle::Llama, 32000,
     [](const std::string& d) { fs::remove(d + "/tokenizer.model"); }},
    // CodeLlama vocab_size: padding, infill ids; added_tokens.json (incl. a
    // replaced piece, an out-of-range and a negative id), added_tokens_decoder
    // overrides (look-special, U+2581, special: 0), add_prefix_space, a
    // repeated key, the list form of chat_template, config.json fallbacks.
    {"Llama-2-codellama", "Llama-2-7b-hf", tok::VocabStyle::Llama, 32016,
     [](const std::string& d) {
         append_keys(d + "/config.json", R"("vocab_size": 32016, "sep_token_id": 2, "mask_token_id": 99999, "pad_token_id": true)");
         write_file(d + "/added_tokens.json",
                    R"({"<|im_start|>": 32000, "\u2581hello": 32001, "<s>": 1, "far": 40000, "last": -1})");
         append_keys(d + "/tokenizer_config.json",
                     R"("add_prefix_space": false, "add_eos_token": true, "added_tokens_decoder": {)"
                     R"("32002": {"content": "<|eot_id|>", "special": false}, "32003": {"content": "\u2581user\u2581def", "special": false}, )"
                     R"("32004": {"content": "<unused0>", "special": false}, "5": {"content": "<tok5>", "special": true}, )"
                     R"("99999": {"content": "x", "special": true}, "32001": {"content": "override", "special": 0}}, )"
                     R"("chat_template": [{"name": "default", "template": "D{{ x }}"}, {"name": "tool use", "template": "T"}, )"
                     R"({"name": "", "template": "skip"}, {"name": "nul"}, {"name": "tool use", "template": "T2"}])");
     }},
    // TemplateProcessing with a trailing special token other than EOS (→ eot),
    // BertNormalizer, chat_template.jinja (CRLF, lone CR) + one additional template.
    {"Mixtral-template-eot", "Mixtral-8x7B-v0.1", tok::VocabStyle::Llama, 32000,
     [](const std::string& d) {
         splice_keys(d + "/tokenizer.json", "normalizer", "decoder", kTemplateSingleEot);
         write_file(d + "/chat_template.jinja", "{% for m in messages %}\r\n{{ m }}\r{% endfor %}\n");
         fs::create_directory(d + "/additional_chat_templates");
         write_file(d + "/additional_chat_templates/tool_use.jinja", "T {{ tools }}\r\n");
         write_file(d + "/chat_template.json", R"({"chat_template": "ignored"})");
     }},
    // Sequence post-processor: TemplateProcessing with a separator pair, then
    // RobertaProcessing; Lowercase + StripAccents; chat_template.json.
    {"Mixtral-roberta", "Mixtral-8x7B-v0.1", tok::VocabStyle::Llama, 32000,
     [](const std::string& d) {
         splice_keys(d + "/tokenizer.json", "normalizer", "decoder", kSequenceSepRoberta);
         write_file(d + "/chat_template.json", R"({"chat_template": "J{{ m }}"})");
     }},
    // Qwen2Model.set_vocab with a tokenizer.model.
    {"Qwen2-spm", "Llama-2-7b-hf", tok::VocabStyle::Qwen2, 32000,
     [](const std::string& d) {
         append_keys(d + "/config.json", R"("architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2")");
     }},
    // Phi3MiniModel.set_vocab: padding to 32064, added tokens from three files.
    {"Phi3-spm", "Llama-2-7b-hf", tok::VocabStyle::Phi3, 32064,
     [](const std::string& d) {
         write_file(d + "/config.json",
                    R"({"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": 32, "intermediate_size": 64, )"
                    R"("num_attention_heads": 4, "num_key_value_heads": 4, "num_hidden_layers": 2, "rms_norm_eps": 1e-05, )"
                    R"("max_position_embeddings": 4096, "original_max_position_embeddings": 4096, "rope_scaling": null, )"
                    R"("rope_theta": 10000.0, "sliding_window": 2047, "vocab_size": 32064, "bos_token_id": 1, )"
                    R"("eos_token_id": 32000, "pad_token_id": 32000, "tie_word_embeddings": false, "torch_dtype": "float16"})");
         write_file(d + "/added_tokens.json", R"({"<|endoftext|>": 32000, "<|user|>": 32010, "big": 50000})");
         append_keys(d + "/tokenizer_config.json",
                     R"("added_tokens_decoder": {"32000": {"content": "<|endoftext|>", "special": true}, )"
                     R"("32001": {"content": "<|assistant|>", "special": false}, "32002": {"content": "\u2581sp", "special": 1}})");
     }},
};

/// What the converter wrote for each variant: every tokenizer.* KV in file
/// order, sha256 of the value bytes after the value type (as the manifest).
struct ExpectedKv {
    const char* variant;
    const char* key;
    const char* type;
    const char* sha256;
};
const ExpectedKv kExpected[] = {
#include "test_gguf_vocab_variants.inc"
};

/// Build variant `v` in `dir` from its fixture case's small files.
void build_variant(const Variant& v, const std::string& dir) {
    fs::create_directories(dir);
    copy_case(v.base, dir);
    v.build(dir);
}

#define REQUIRE_HF()                                                                   \
    if (hf_dir().empty() || !fs::exists(hf_dir() + "/manifest.json")) {                \
        if (test::reference_required()) QFAIL("shared hf-gguf fixtures missing");      \
        QSKIP("shared hf-gguf fixtures not found");                                    \
    }

}  // namespace

class TestGgufVocab : public QObject {
    Q_OBJECT
private slots:
    void sentencepiece_cases_match_converter_data();
    void sentencepiece_cases_match_converter();
    void bpe_cases_special_vocab_data();
    void bpe_cases_special_vocab();
    void bpe_cases_take_the_gpt2_path();
    void bpe_cases_match_converter_data();
    void bpe_cases_match_converter();
    void variants_match_converter_data();
    void variants_match_converter();
    void missing_tokenizer_is_named();
    void corrupt_tokenizer_model_is_named();
    void library_exception_is_named();
    void malformed_json_is_named();
    void sizes_are_named();
    void every_field_of_the_wrong_type_is_an_amn_error();
    void fuzzed_tokenizer_model_is_an_amn_error();
    void comparison_sees_one_changed_bit();
    void merges_txt_and_config_ids_as_python();
    void python_semantics();
};

void TestGgufVocab::sentencepiece_cases_match_converter_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"Llama-2-7b-hf", "Mixtral-8x7B-v0.1", "Llama-2-7B-GPTQ", "Mistral-7B-v0.1-quantized.w4a16",
                          "Mistral-7B-v0.1-FP8", "Mistral-7B-v0.1-bnb-4bit"})
        QTest::newRow(n) << QString(n);
}

void TestGgufVocab::sentencepiece_cases_match_converter() {
    REQUIRE_HF();
    QFETCH(QString, name);
    const auto dir = hf_dir() + "/inputs/" + name.toStdString();
    const auto v = tok::gguf_vocab(request(dir));
    QCOMPARE(v.model, std::string("llama"));
    QCOMPARE(v.pre, std::string("default"));
    QCOMPARE(v.n_tokens, std::uint64_t(32000));
    const auto want = expected_tokenizer_kvs(name.toStdString());
    QVERIFY(!want.isEmpty());
    const auto diff = compare_kvs(v.kvs, want);
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestGgufVocab::bpe_cases_special_vocab_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("Meta-Llama-3-8B-Instruct") << QString("Meta-Llama-3-8B-Instruct");
    QTest::newRow("Qwen3-0.6B") << QString("Qwen3-0.6B");
}

void TestGgufVocab::bpe_cases_special_vocab() {
    // The BPE tokens/merges come from hf/tok-bpe; SpecialVocab's part after
    // the merges (special ids in their order, add_* flags, chat_template) is ours.
    REQUIRE_HF();
    QFETCH(QString, name);
    const auto dir = hf_dir() + "/inputs/" + name.toStdString();
    tok::SpecialVocabOptions opt;
    opt.config_json = read_file(dir + "/config.json");
    const auto sv = tok::load_special_vocab(dir, opt);
    std::vector<MetaKv> got;
    tok::add_special_vocab_kvs(sv, got, dir);
    QJsonArray want;
    bool after_merges = false;
    for (const auto kv : expected_tokenizer_kvs(name.toStdString())) {
        if (after_merges) want.append(kv);
        if (kv.toObject()["key"].toString() == "tokenizer.ggml.merges") after_merges = true;
    }
    QVERIFY(!want.isEmpty());
    const auto diff = compare_kvs(got, want);
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestGgufVocab::bpe_cases_take_the_gpt2_path() {
    REQUIRE_HF();
    // Llama 3 (ignore_merges, no byte fallback) and Qwen3 are not LlamaHfVocab material.
    QVERIFY(!tok::llama_hf_vocab(hf_dir() + "/inputs/Meta-Llama-3-8B-Instruct"));
    QVERIFY(!tok::llama_hf_vocab(hf_dir() + "/inputs/Qwen3-0.6B"));
    QVERIFY(!tok::sentencepiece_vocab(hf_dir() + "/inputs/Qwen3-0.6B", 151936));
}

void TestGgufVocab::variants_match_converter_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kVariants)); ++i) QTest::newRow(kVariants[i].name) << i;
}

void TestGgufVocab::variants_match_converter() {
    REQUIRE_HF();
    QFETCH(int, index);
    const Variant& v = kVariants[index];
    if (const char* out = std::getenv("AMN_DUMP_VOCAB_VARIANTS")) {
        // Reference runs: the folder with the base case's weights linked in.
        const std::string d = std::string(out) + "/" + v.name;
        fs::remove_all(d);
        build_variant(v, d);
        for (const auto& e : fs::directory_iterator(hf_dir() + "/inputs/" + v.base))
            if (e.path().filename().string().ends_with(".safetensors"))
                fs::create_symlink(e.path(), d + "/" + e.path().filename().string());
        QSKIP("dumped");
    }
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString() + "/" + v.name;
    build_variant(v, d);
    auto r = request(d, v.style);
    r.vocab_size = v.vocab_size;
    const auto got = tok::gguf_vocab(r);
    QJsonArray want;
    for (const auto& e : kExpected)
        if (std::string_view(e.variant) == v.name)
            want.append(QJsonObject{{"key", e.key}, {"type", e.type}, {"sha256", e.sha256}});
    QVERIFY2(!want.isEmpty(), "no reference recorded for this variant");
    const auto diff = compare_kvs(got.kvs, want);
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestGgufVocab::bpe_cases_match_converter_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("style");
    QTest::newRow("Meta-Llama-3-8B-Instruct") << QString("Meta-Llama-3-8B-Instruct") << int(tok::VocabStyle::Llama);
    QTest::newRow("Qwen3-0.6B") << QString("Qwen3-0.6B") << int(tok::VocabStyle::Qwen2);
}

void TestGgufVocab::bpe_cases_match_converter() {
    // The whole path through the dispatcher; needs hf/tok-bpe's gpt2_vocab()/bpe_merges().
    REQUIRE_HF();
    QFETCH(QString, name);
    QFETCH(int, style);
    const auto dir = hf_dir() + "/inputs/" + name.toStdString();
    tok::GgufVocab v;
    try {
        v = tok::gguf_vocab(request(dir, static_cast<tok::VocabStyle>(style)));
    } catch (const Error& e) {
        if (std::string(e.what()).find("stub (hf/tok-bpe not merged)") != std::string::npos)
            QSKIP("BPE side not merged yet (bpe_vocab_stub.cc)");
        throw;
    }
    QCOMPARE(v.model, std::string("gpt2"));
    const auto diff = compare_kvs(v.kvs, expected_tokenizer_kvs(name.toStdString()));
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestGgufVocab::missing_tokenizer_is_named() {
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    write_file(d + "/config.json", "{\"vocab_size\": 32000}");
    for (auto style : {tok::VocabStyle::Llama, tok::VocabStyle::Qwen2, tok::VocabStyle::Gpt2, tok::VocabStyle::Phi3}) {
        std::string what;
        QCOMPARE(error_code_of([&] { tok::gguf_vocab(request(d, style)); }, &what), std::optional(ErrorCode::Unsupported));
        QVERIFY2(what.find(d + ": no tokenizer (tokenizer.model or tokenizer.json) in this folder") != std::string::npos, what.c_str());
    }
    std::string what;
    QCOMPARE(error_code_of([&] { tok::gguf_vocab(request(d + "/nope")); }, &what), std::optional(ErrorCode::Io));
}

void TestGgufVocab::corrupt_tokenizer_model_is_named() {
    REQUIRE_HF();
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    copy_case("Llama-2-7b-hf", d);
    const std::string good = read_file(d + "/tokenizer.model");
    std::vector<std::string> bad = {"", "not a model", good.substr(0, good.size() / 2), good.substr(0, 17)};
    std::string flipped = good;
    for (std::size_t i = 100; i < flipped.size(); i += 997) flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
    bad.push_back(flipped);
    std::string garbage(4096, '\0');
    for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 2654435761u) >> 13);
    bad.push_back(garbage);
    for (const auto& b : bad) {
        write_file(d + "/tokenizer.model", b);
        std::string what;
        const auto code = error_code_of([&] { tok::gguf_vocab(request(d)); }, &what);
        if (!code) continue;  // a flipped byte inside a piece or score can still be a valid model
        QCOMPARE(*code, ErrorCode::Malformed);
        QVERIFY2(what.find(d + "/tokenizer.model") != std::string::npos, what.c_str());
    }
    write_file(d + "/tokenizer.model", "");
    QCOMPARE(error_code_of([&] { tok::gguf_vocab(request(d)); }), std::optional(ErrorCode::Malformed));
}

// fuzz_spm_model: a unigram model whose piece starts with a NUL byte makes
// libsentencepiece's trie builder throw Darts::Details::Exception ("failed to
// insert key: zero-length key") out of SentencePieceProcessor::Load — an
// exception that is no amn::Error and ended the process (std::terminate).
void TestGgufVocab::library_exception_is_named() {
    // ModelProto { pieces: {piece "<unk>", score 0, type UNKNOWN}, {piece "\0a", score 0} }
    const std::string model("\x0a\x0e\x0a\x05<unk>\x15\0\0\0\0\x18\x02"
                            "\x0a\x09\x0a\x02\0a\x15\0\0\0\0",
                            27);
    std::string what;
    QCOMPARE(error_code_of([&] { tok::sentencepiece_model_vocab(model, std::nullopt, "tokenizer.model"); }, &what),
             std::optional(ErrorCode::Malformed));
    QVERIFY2(what.find("zero-length key") != std::string::npos, what.c_str());
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    write_file(d + "/tokenizer.model", model);
    QCOMPARE(error_code_of([&] { tok::gguf_vocab(request(d)); }, &what), std::optional(ErrorCode::Malformed));
    QVERIFY2(what.find(d + "/tokenizer.model") != std::string::npos, what.c_str());
}

void TestGgufVocab::malformed_json_is_named() {
    REQUIRE_HF();
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    copy_case("Mixtral-8x7B-v0.1", d);
    for (const char* f : {"tokenizer_config.json", "tokenizer.json", "added_tokens.json"}) {
        const std::string path = d + "/" + f;
        const std::string keep = fs::exists(path) ? read_file(path) : std::string();
        write_file(path, "{\"bos_token\": \"<s>\", ");
        std::string what;
        QCOMPARE(error_code_of([&] { tok::gguf_vocab(request(d)); }, &what), std::optional(ErrorCode::BadJson));
        QVERIFY2(what.find(path) != std::string::npos, what.c_str());
        if (keep.empty()) fs::remove(path);
        else write_file(path, keep);
    }
}

void TestGgufVocab::sizes_are_named() {
    REQUIRE_HF();
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    copy_case("Llama-2-7b-hf", d);
    // Phi-3: more pieces than vocab_size (the converter's IndexError).
    auto r = request(d, tok::VocabStyle::Phi3);
    r.vocab_size = 31999;
    std::string what;
    QCOMPARE(error_code_of([&] { tok::gguf_vocab(r); }, &what), std::optional(ErrorCode::SizeMismatch));
    QVERIFY2(what.find("32000") != std::string::npos && what.find("31999") != std::string::npos, what.c_str());
    // SentencePiece path: the converter drops the pieces past vocab_size with a warning; a
    // tokenizer larger than the model's vocabulary is refused here, naming both sizes (#25).
    r.style = tok::VocabStyle::Llama;
    QCOMPARE(error_code_of([&] { tok::gguf_vocab(r); }, &what), std::optional(ErrorCode::SizeMismatch));
    QVERIFY2(what.find("32000") != std::string::npos && what.find("31999") != std::string::npos &&
                 what.find("tokenizer.model") != std::string::npos,
             what.c_str());
    // A vocab_size no real vocabulary has is refused before allocating.
    r.vocab_size = std::uint64_t{1} << 40;
    QCOMPARE(error_code_of([&] { tok::gguf_vocab(r); }, &what), std::optional(ErrorCode::LimitExceeded));
    // Special ids that do not fit UINT32 (gpt2 path has no bound: test SpecialVocab directly).
    tok::SpecialVocabOptions opt;
    opt.config_json = R"({"mask_token_id": 4294967296})";
    const auto sv = tok::load_special_vocab(d, opt);
    std::vector<MetaKv> kvs;
    QCOMPARE(error_code_of([&] { tok::add_special_vocab_kvs(sv, kvs, d); }), std::optional(ErrorCode::OutOfRange));
    opt.config_json = R"({"bos_token_id": -3})";
    QCOMPARE(error_code_of([&] { tok::load_special_vocab(d, opt); }), std::optional(ErrorCode::BadJson));
}

void TestGgufVocab::every_field_of_the_wrong_type_is_an_amn_error() {
    // Every field the tokenizer code reads, set to every JSON type (the last
    // repeated key wins): a result or an amn::Error, never anything else.
    REQUIRE_HF();
    const char* values[] = {"null", "true", "0", "-1", "1.5", "123456789012345678901234567890",
                            "\"\"", "\"<s>\"", "[]", "[\"<s>\", 1]", "[{}]", "[null]",
                            "{}", "{\"a\": 1}", "{\"content\": 5}", "{\"type\": \"Sequence\"}",
                            "{\"type\": \"TemplateProcessing\", \"single\": [1, 2], \"pair\": \"ab\"}",
                            "{\"type\": \"RobertaProcessing\", \"cls\": []}",
                            "{\"type\": \"Sequence\", \"processors\": [{\"type\": \"TemplateProcessing\", "
                            "\"single\": [{\"SpecialToken\": null}, {}]}]}",
                            "{\"type\": \"BertNormalizer\", \"lowercase\": null}",
                            "{\"0\": {\"content\": []}}", "{\"x\": {\"content\": \"a\"}}", "{\"-99999\": {\"content\": \"a\"}}",
                            "[{\"name\": 5}]", "[{\"name\": \"n\", \"template\": 5}]", "[{\"content\": \"<s>\", \"id\": -1}]"};
    // Paths: S = SentencePiece (Llama), H = no tokenizer.model (LlamaHfVocab,
    // then the gpt2 fallback), P = Phi-3; each field runs where it is read specially.
    struct Field {
        const char* file;
        const char* key;
        const char* paths;
    };
    const Field fields[] = {
        {"tokenizer_config.json", "bos_token", "SH"}, {"tokenizer_config.json", "eos_token", "S"},
        {"tokenizer_config.json", "cls_token", "S"}, {"tokenizer_config.json", "sep_token", "S"},
        {"tokenizer_config.json", "add_bos_token", "S"}, {"tokenizer_config.json", "add_prefix_space", "S"},
        {"tokenizer_config.json", "tokenizer_class", "SP"}, {"tokenizer_config.json", "added_tokens_decoder", "SP"},
        {"tokenizer_config.json", "chat_template", "S"}, {"tokenizer_config.json", "additional_special_tokens", "H"},
        {"tokenizer.json", "added_tokens", "SHP"}, {"tokenizer.json", "post_processor", "S"},
        {"tokenizer.json", "normalizer", "S"}, {"tokenizer.json", "model", "H"}, {"tokenizer.json", "decoder", "H"},
        {"config.json", "bos_token_id", "S"}, {"config.json", "text_config", "S"}, {"added_tokens.json", "<x>", "SP"},
        {"chat_template.json", "chat_template", "S"},
    };
    QTemporaryDir tmp;
    const std::string base = tmp.path().toStdString() + "/base";
    fs::create_directories(base);
    copy_case("Mixtral-8x7B-v0.1", base);
    write_file(base + "/added_tokens.json", "{}");
    write_file(base + "/chat_template.json", "{}");
    std::size_t runs = 0, errors = 0, seen = 0;
    struct Path {
        char name;
        tok::VocabStyle style;
        bool with_model;
    };
    for (const Path p : {Path{'S', tok::VocabStyle::Llama, true}, Path{'H', tok::VocabStyle::Llama, false},
                         Path{'P', tok::VocabStyle::Phi3, true}}) {
        for (const auto& f : fields) {
            if (!std::strchr(f.paths, p.name)) continue;
            for (const char* v : values) {
                if (seen++ % kSweepStride) continue;
                // Unchanged files linked, the edited one written.
                const std::string d = tmp.path().toStdString() + "/run";
                fs::remove_all(d);
                fs::create_directories(d);
                for (const auto& e : fs::directory_iterator(base)) {
                    const auto fn = e.path().filename().string();
                    if (fn == "tokenizer.model" && !p.with_model) continue;
                    if (fn == f.file) fs::copy_file(e.path(), d + "/" + fn);
                    else fs::create_symlink(e.path(), d + "/" + fn);
                }
                append_keys(d + "/" + f.file, "\"" + std::string(f.key) + "\": " + v);
                auto r = request(d, p.style);
                r.vocab_size = 32000;
                ++runs;
                try {
                    tok::gguf_vocab(r);
                } catch (const Error& e) {
                    ++errors;
                    QVERIFY2(!e.file().empty(), e.what());
                } catch (const std::exception& e) {
                    QFAIL((std::string("not an amn::Error: ") + e.what() + " for " + f.file + " " + f.key + " = " + v).c_str());
                }
            }
        }
    }
    qInfo("%zu runs, %zu named errors", runs, errors);
}

void TestGgufVocab::fuzzed_tokenizer_model_is_an_amn_error() {
    REQUIRE_HF();
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    copy_case("Mixtral-8x7B-v0.1", d);
    const std::string good = read_file(d + "/tokenizer.model");
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    std::size_t loaded = 0;
    for (int round = 0; round < 300; ++round) {
        if (round % static_cast<int>(kSweepStride)) continue;
        std::string m = good;
        switch (round % 3) {
            case 0: m.resize(next() % good.size()); break;                                   // truncated
            case 1: for (int k = 0; k < 8; ++k) m[next() % m.size()] = static_cast<char>(next()); break;  // bytes changed
            case 2: m.insert(next() % m.size(), std::string(1 + next() % 16, static_cast<char>(next()))); break;  // bytes inserted
        }
        write_file(d + "/tokenizer.model", m);
        try {
            tok::gguf_vocab(request(d));
            ++loaded;
        } catch (const Error& e) {
            QVERIFY2(e.code() == ErrorCode::Malformed && e.file() == d + "/tokenizer.model", e.what());
        }
    }
    qInfo("%zu of 300 mutated models still loaded", loaded);
}

void TestGgufVocab::comparison_sees_one_changed_bit() {
    REQUIRE_HF();
    const auto dir = hf_dir() + "/inputs/Mixtral-8x7B-v0.1";
    auto v = tok::gguf_vocab(request(dir));
    const auto want = expected_tokenizer_kvs("Mixtral-8x7B-v0.1");
    QVERIFY(compare_kvs(v.kvs, want).empty());
    for (auto& kv : v.kvs)
        if (kv.key == "tokenizer.ggml.scores") {
            std::string bytes(kv.value.packed_bytes());
            bytes[4 * 31999] ^= 1;
            kv.value = MetaValue::packed(GgufType::F32, kv.value.size(), bytes);
        }
    QCOMPARE(compare_kvs(v.kvs, want), std::string("tokenizer.ggml.scores: sha256 differs (count 32000)"));
}

void TestGgufVocab::merges_txt_and_config_ids_as_python() {
    // Expected values printed by gguf-py's own SpecialVocab('.', load_merges=True) on these bytes.
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    write_file(d + "/merges.txt", "#version: 0.2\r\n\xc4\xa0 t\r\n\r\n  a   b  \nx y z\nonly\n"
                                  "\xe3\x80\x80p\xe3\x80\x80q\xe3\x80\x80\n\x1cr s\rlast one");
    write_file(d + "/tokenizer_config.json", R"({"bos_token": "<s>", "chat_template": "C"})");
    write_file(d + "/config.json",
               R"({"bos_token_id": 7, "eos_token_id": true, "pad_token_id": 2.0, "text_config": {"unk_token_id": 3}})");
    tok::SpecialVocabOptions opt;
    opt.load_merges = true;
    const auto sv = tok::load_special_vocab(d, opt);
    QCOMPARE(sv.merges, (std::vector<std::string>{"\xc4\xa0 t", "a b", "p q", "r s", "last one"}));
    QCOMPARE(sv.special_token_ids,
             (std::vector<std::pair<std::string, std::uint64_t>>{{"bos", 7}, {"eos", 1}, {"unk", 3}}));
    QVERIFY(sv.add_special_token.empty());
    QCOMPARE(sv.chat_template, std::optional<std::string>("C"));
    QCOMPARE(sv.warnings, (std::vector<std::string>{"merges.txt: Line 5: Entry malformed, ignoring",
                                                    "merges.txt: Line 6: Entry malformed, ignoring"}));
    std::vector<MetaKv> kvs;
    tok::add_special_vocab_kvs(sv, kvs, d);
    QCOMPARE(kvs.size(), std::size_t(5));  // merges, bos, eos, unk, chat_template
    QCOMPARE(kvs[0].key, std::string("tokenizer.ggml.merges"));
    QCOMPARE(kvs[2].value, MetaValue::u32(1));
}

void TestGgufVocab::python_semantics() {
    using tok::py::parse_int;
    QCOMPARE(parse_int(" +1_0\n"), std::optional<std::int64_t>(10));
    QCOMPARE(parse_int("-007"), std::optional<std::int64_t>(-7));
    QCOMPARE(parse_int("99999999999999999999999"), std::optional<std::int64_t>(INT64_MAX));
    for (const char* bad : {"", "1__0", "_1", "1_", "0x10", "1.0", "- 1"}) QCOMPARE(parse_int(bad), std::nullopt);
    QCOMPARE(tok::py::strip("\xe3\x80\x80 a b\x1c\xc2\x85"), std::string_view("a b"));
    QCOMPARE(tok::py::split("a\xc2\xa0" "b  c"), (std::vector<std::string_view>{"a", "b", "c"}));
    QVERIFY(!tok::py::valid_utf8("\xed\xa0\x80") && !tok::py::valid_utf8("\xc0\x80") && tok::py::valid_utf8("\xf0\x9f\x9a\x80"));
    // (No JsonDoc in this file: core compiles simdjson with SIMDJSON_THREADS_ENABLED,
    // which changes dom::parser's layout; an inline ~JsonDoc instantiated here would not match.)
    // Through files: an integer beyond 64 bits is read; the last repeated key wins;
    // true is the int 1 and 1.0 is not an int; "" / {} are false.
    {
        QTemporaryDir t;
        const std::string d = t.path().toStdString();
        write_file(d + "/tokenizer.json", R"({"added_tokens": [{"id": 0, "content": "<s>"}, {"id": true, "content": "<t>"},)"
                                          R"( {"id": 1.0, "content": "<f>"}], "normalizer": {}})");
        write_file(d + "/tokenizer_config.json",
                   R"({"model_max_length": 1000000000000000019884624838656, "chat_template": "A", "chat_template": "B",)"
                   R"( "bos_token": "<t>", "eos_token": "<f>", "unk_token": "", "pad_token": {"content": "<s>"}})");
        const auto sv = tok::load_special_vocab(d, {});
        QCOMPARE(sv.chat_template, std::optional<std::string>("B"));
        QCOMPARE(sv.special_token_ids, (std::vector<std::pair<std::string, std::uint64_t>>{{"bos", 1}, {"pad", 0}}));
        QVERIFY(!sv.normalizer_lowercase && !sv.normalizer_strip_accents);
    }
    QTemporaryDir tmp;
    const std::string f = tmp.path().toStdString() + "/t.jinja";
    write_file(f, "a\r\nb\rc\n");
    QCOMPARE(tok::py::read_text(f), std::string("a\nb\nc\n"));
    write_file(f, "\xff");
    QCOMPARE(error_code_of([&] { tok::py::read_text(f); }), std::optional(ErrorCode::BadText));
    QVERIFY(tok::does_token_look_special("<|x|>") && tok::does_token_look_special("<|>") &&
            tok::does_token_look_special("<\xef\xbd\x9c" "begin\xef\xbd\x9c>") && tok::does_token_look_special("<unused12>") &&
            tok::does_token_look_special("[@BOS@]") && !tok::does_token_look_special("<s>") && !tok::does_token_look_special("<|"));
}

QTEST_APPLESS_MAIN(TestGgufVocab)
#include "test_gguf_vocab.moc"
