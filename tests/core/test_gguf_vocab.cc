// SPDX-License-Identifier: MIT OR Apache-2.0
// Tokenizer key/values of a Hugging Face folder (tokenizer/vocab.hpp):
// every `tokenizer.*` KV of every shared hf-gguf case against the manifest
// (what convert_hf_to_gguf.py wrote), in order and type; SpecialVocab parts
// of the BPE cases; variants checked against the converter run here
// (LlamaHfVocab, CodeLlama, added tokens, padding, chat templates,
// post-processors, normalizer); hostile inputs give named errors.
#include "anamnesis/error.hpp"
#include "anamnesis/gguf_writer.hpp"
#include "sha256.hpp"
#include "test_support.hpp"
#include "tokenizer/llama_hf_vocab.hpp"
#include "tokenizer/special_vocab.hpp"
#include "tokenizer/spm_vocab.hpp"
#include "tokenizer/vocab.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace amn;
using test::error_code_of;
namespace fs = std::filesystem;

namespace {

std::string hf_dir() {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/hf-gguf";
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

QJsonObject manifest_case(const std::string& name) {
    static const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(read_file(hf_dir() + "/manifest.json")));
    for (const auto c : doc.object()["cases"].toArray())
        if (c.toObject()["name"].toString().toStdString() == name) return c.toObject();
    return {};
}

/// The manifest's tokenizer.* KVs of a case (its first output; all outputs agree).
QJsonArray expected_tokenizer_kvs(const std::string& name) {
    QJsonArray out;
    const auto c = manifest_case(name);
    for (const auto kv : c["outputs"].toArray()[0].toObject()["gguf"].toObject()["kv"].toArray())
        if (kv.toObject()["key"].toString().startsWith("tokenizer.")) out.append(kv);
    return out;
}

std::string type_words(const MetaValue& v) {
    auto name = [](GgufType t) -> std::string {
        switch (t) {
            case GgufType::String: return "STRING";
            case GgufType::F32: return "FLOAT32";
            case GgufType::I32: return "INT32";
            case GgufType::U32: return "UINT32";
            case GgufType::Bool: return "BOOL";
            default: return "?" + std::to_string(static_cast<unsigned>(t));
        }
    };
    return v.is_array() ? "ARRAY[" + name(v.elem_type) + "]" : name(v.type);
}

std::string hex(const std::uint8_t* p, std::size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

/// Compare `got` (in order) with the manifest entries `want`; "" when equal,
/// else the first difference.
std::string compare_kvs(const std::vector<MetaKv>& got, const QJsonArray& want) {
    const std::size_t n = std::max<std::size_t>(got.size(), static_cast<std::size_t>(want.size()));
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= got.size()) return "missing KV " + want[int(i)].toObject()["key"].toString().toStdString();
        if (i >= static_cast<std::size_t>(want.size())) return "extra KV " + got[i].key;
        const auto w = want[int(i)].toObject();
        const auto& g = got[i];
        if (g.key != w["key"].toString().toStdString())
            return "KV " + std::to_string(i) + ": key " + g.key + ", expected " + w["key"].toString().toStdString();
        if (type_words(g.value) != w["type"].toString().toStdString())
            return g.key + ": type " + type_words(g.value) + ", expected " + w["type"].toString().toStdString();
        const auto bytes = gguf_encode_kv(g);
        const std::size_t skip = 8 + g.key.size() + 4;  // key length, key, value type
        if (w.contains("sha256")) {
            const auto sha = detail::Sha256::of(bytes.data() + skip, bytes.size() - skip);
            if (sha != w["sha256"].toString().toStdString()) {
                std::string detail;
                if (g.value.is_string()) detail = " (value \"" + g.value.str.substr(0, 80) + "\")";
                if (g.value.is_array()) detail = " (count " + std::to_string(g.value.size()) + ")";
                return g.key + ": sha256 differs" + detail;
            }
        } else if (w.contains("raw")) {
            if (hex(bytes.data() + skip, bytes.size() - skip) != w["raw"].toString().toStdString())
                return g.key + ": value " + hex(bytes.data() + skip, bytes.size() - skip) + ", expected " +
                       w["raw"].toString().toStdString();
        } else {
            return g.key + ": manifest entry has neither sha256 nor raw";
        }
    }
    return {};
}


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
    void missing_tokenizer_is_named();
    void corrupt_tokenizer_model_is_named();
    void library_exception_is_named();
    void malformed_json_is_named();
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

void TestGgufVocab::missing_tokenizer_is_named() {
    QTemporaryDir tmp;
    const std::string d = tmp.path().toStdString();
    write_file(d + "/config.json", "{\"vocab_size\": 32000}");
    for (auto style : {tok::VocabStyle::Llama, tok::VocabStyle::Qwen2, tok::VocabStyle::Gpt2, tok::VocabStyle::Phi3}) {
        std::string what;
        QCOMPARE(error_code_of([&] { tok::gguf_vocab(request(d, style)); }, &what), std::optional(ErrorCode::Unsupported));
        QVERIFY2(what.find("no tokenizer (tokenizer.model or tokenizer.json) in " + d) != std::string::npos, what.c_str());
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

QTEST_APPLESS_MAIN(TestGgufVocab)
#include "test_gguf_vocab.moc"
