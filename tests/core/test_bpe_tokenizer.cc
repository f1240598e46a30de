// SPDX-License-Identifier: MIT OR Apache-2.0
// BPE tokenizer.json → GGUF vocabulary (core/src/tokenizer): tokens,
// token types, merges and pre of the BPE fixture cases against the manifest
// (written by llama.cpp's convert_hf_to_gguf.py), encode/decode against a
// real HF tokenizer (tests/core/data/bpe_encode_reference.json, made by
// tests/core/bpe_encode_reference.py) and llama.cpp's tokenizer test vectors.
#include "anamnesis/error.hpp"
#include "test_bpe_tokenizer_data.hpp"
#include "test_support.hpp"
#include "tokenizer/bpe_vocab.hpp"
#include "tokenizer/hf_tokenizer.hpp"
#include "tokenizer/pre_table.hpp"
#include "tokenizer/unicode_text.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <chrono>
#include <fstream>

using namespace amn;
using namespace amn::tok;

namespace {

// GGUF array value bytes as the manifest hashes them: element type u32, count u64, elements.
void put_u32(QByteArray& b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.append(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_u64(QByteArray& b, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b.append(static_cast<char>((v >> (8 * i)) & 0xFF));
}
QString sha_strings(const std::vector<std::string>& v) {
    QByteArray b;
    put_u32(b, 8);  // GGUF STRING
    put_u64(b, v.size());
    for (const auto& s : v) {
        put_u64(b, s.size());
        b.append(s.data(), static_cast<qsizetype>(s.size()));
    }
    return QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex();
}
QString sha_i32(const std::vector<std::int32_t>& v) {
    QByteArray b;
    put_u32(b, 5);  // GGUF INT32
    put_u64(b, v.size());
    for (auto x : v) put_u32(b, static_cast<std::uint32_t>(x));
    return QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex();
}

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The tokenizer KVs of the first output of `case_name` in the manifest: key → object.
QMap<QString, QJsonObject> manifest_kvs(const QString& fixtures, const QString& case_name) {
    QMap<QString, QJsonObject> out;
    const QJsonObject m = read_json(fixtures + "/hf-gguf/manifest.json");
    for (const auto c : m["cases"].toArray()) {
        if (c.toObject()["name"].toString() != case_name) continue;
        const auto outputs = c.toObject()["outputs"].toArray();
        for (const auto kv : outputs.first().toObject()["gguf"].toObject()["kv"].toArray())
            out[kv.toObject()["key"].toString()] = kv.toObject();
    }
    return out;
}

std::uint64_t config_vocab_size(const QString& dir) {
    return static_cast<std::uint64_t>(read_json(dir + "/config.json")["vocab_size"].toInteger());
}

std::vector<std::uint32_t> ids_of(const QJsonArray& a) {
    std::vector<std::uint32_t> v;
    for (const auto x : a) v.push_back(static_cast<std::uint32_t>(x.toInteger()));
    return v;
}

std::string s(const QString& q) { return q.toStdString(); }

void write_file(const QString& path, const std::string& text) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f << text;
}

// A small byte-level BPE tokenizer.json with the given pre_tokenizer JSON.
std::string tiny_tokenizer(const std::string& pre_tokenizer, const std::string& merges = kJson0) {
    std::string vocab;
    const auto& bl = byte_level_chars();
    for (int b = 0; b < 256; ++b) {
        std::string esc;
        for (char c : bl[static_cast<std::size_t>(b)]) {
            if (c == '"' || c == '\\') esc.push_back('\\');
            esc.push_back(c);
        }
        vocab += "\"" + esc + "\": " + std::to_string(b) + ", ";
    }
    vocab += kJson1;
    return kJson2 +
           pre_tokenizer + kJson3 + vocab + kJson4 + merges + "}}";
}

const char* const kLlama3Pre = kJson5;

}  // namespace

class TestBpeTokenizer : public QObject {
    Q_OBJECT

    QString fixtures_;

    void check_case(const QString& name, const QString& expected_pre) {
        const QString dir = fixtures_ + "/hf-gguf/inputs/" + name;
        const auto kvs = manifest_kvs(fixtures_, name);
        QVERIFY2(kvs.contains("tokenizer.ggml.tokens"), "manifest has no tokenizer KVs for the case");
        const Gpt2Vocab v = gpt2_vocab(s(dir), config_vocab_size(dir), std::nullopt);
        QCOMPARE(QString::fromStdString(v.pre), expected_pre);
        QCOMPARE(QString::fromStdString(v.pre), kvs["tokenizer.ggml.pre"]["value"].toString());
        QVERIFY(v.warnings.empty());
        QCOMPARE(static_cast<qint64>(v.tokens.size()), kvs["tokenizer.ggml.tokens"]["count"].toInteger());
        QCOMPARE(sha_strings(v.tokens), kvs["tokenizer.ggml.tokens"]["sha256"].toString());
        QCOMPARE(static_cast<qint64>(v.types.size()), kvs["tokenizer.ggml.token_type"]["count"].toInteger());
        QCOMPARE(sha_i32(v.types), kvs["tokenizer.ggml.token_type"]["sha256"].toString());
        const auto merges = bpe_merges(s(dir + "/tokenizer.json"));
        QCOMPARE(static_cast<qint64>(merges.size()), kvs["tokenizer.ggml.merges"]["count"].toInteger());
        QCOMPARE(sha_strings(merges), kvs["tokenizer.ggml.merges"]["sha256"].toString());
    }

private slots:
    void initTestCase() {
        fixtures_ = QString::fromStdString(test::shared_fixtures_dir());
        if (fixtures_.isEmpty() || !QDir(fixtures_ + "/hf-gguf/inputs").exists()) {
            if (test::reference_required()) QFAIL("shared fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("shared fixtures (hf-gguf) not found");
        }
    }

    // Whole vocabularies against what convert_hf_to_gguf.py wrote.
    void llama3_vocab_matches_converter() { check_case("Meta-Llama-3-8B-Instruct", "llama-bpe"); }
    void qwen3_vocab_matches_converter() { check_case("Qwen3-0.6B", "qwen2"); }

    void check_hashes_are_the_converters() {
        // The hashes the converter computed for the fixtures (hf-gguf README, "Validation").
        const auto llama = HfTokenizer::load(s(fixtures_ + "/hf-gguf/inputs/Meta-Llama-3-8B-Instruct/tokenizer.json"));
        QVERIFY(QString::fromStdString(pre_check_hash(llama)).startsWith("0ef9807a"));
        const auto qwen = HfTokenizer::load(s(fixtures_ + "/hf-gguf/inputs/Qwen3-0.6B/tokenizer.json"));
        QVERIFY(QString::fromStdString(pre_check_hash(qwen)).startsWith("e636dc30"));
        QCOMPARE(python_list_str({}), std::string("[]"));
        QCOMPARE(python_list_str({1, 22, 333}), std::string("[1, 22, 333]"));
        // A hash listed twice: the later entry wins, as the converter's chain of ifs.
        QCOMPARE(*pre_name_for_hash("b6dc8df998e1cfbdc4eac8243701a65afe638679230920b50d6f17d81c098166"), std::string("olmo"));
        QVERIFY(!pre_name_for_hash("00"));
    }

    // issue 24: the table read backwards (GGUF → tokenizer.json) names what the forward direction reads:
    // each definition parses to a pre-tokenizer pre_name_for_definition() gives the same name, and for the
    // fixtures' models it is their tokenizer.json's normalizer, pre_tokenizer, decoder and ByteLevel post-processor.
    // Issue 32: every family of llama.cpp's byte-level pre-tokenizers (pre_definitions.cc) — a name
    // recognises its own definition; a name whose definition an earlier family also has (pre_definitions.cc order)
    // gives that family's first name (dbrx → llama-bpe, stablelm2 → qwen2).
    void pre_table_is_two_way() {
        const std::pair<const char*, const char*> names[] = {
            {"llama-bpe", "llama-bpe"}, {"qwen2", "qwen2"}, {"gpt-2", "gpt-2"}, {"jais-2", "jais-2"}, {"deepseek-llm", "deepseek-llm"},
            {"deepseek-v3", "deepseek-v3"}, {"youtu", "youtu"}, {"deepseek-coder", "deepseek-coder"}, {"falcon", "falcon"},
            {"starcoder", "starcoder"}, {"stablelm2", "qwen2"}, {"qwen35", "qwen35"}, {"poro-chat", "poro-chat"},
            {"viking", "viking"}, {"tekken", "tekken"}, {"chameleon", "chameleon"}, {"gpt-4o", "gpt-4o"},
            {"granite-embed-multi-97m", "granite-embed-multi-97m"}, {"tiny_aya", "tiny_aya"}, {"bailingmoe", "bailingmoe"},
            {"seed-coder", "seed-coder"}, {"laguna", "laguna"}, {"exaone-moe", "exaone-moe"}, {"minicpm5", "minicpm5"},
            {"default", "default"}, {"kimi-k2", "kimi-k2"}, {"afmoe", "afmoe"}, {"superbpe", "superbpe"}, {"llama3", "llama-bpe"}, {"dbrx", "llama-bpe"}, {"glm4", "llama-bpe"}, {"refact", "starcoder"},
            {"command-r", "starcoder"}, {"smollm", "starcoder"}, {"mpt", "gpt-2"}, {"roberta-bpe", "gpt-2"}, {"olmo", "gpt-2"},
            {"grok-2", "qwen2"}, {"hunyuan", "qwen2"}, {"hunyuan-dense", "deepseek-v3"}, {"llama4", "gpt-4o"},
            {"bloom", "poro-chat"}, {"bailingmoe2", "bailingmoe"}};
        for (const auto& [name, recognised] : names) {
            const auto def = pre_definition(name);
            QVERIFY(def);
            // (a minimal tokenizer.json around it: this file does not include simdjson itself)
            const auto tok = HfTokenizer::parse(R"({"version":"1.0","added_tokens":[],"normalizer":)" + def->normalizer +
                                                    R"(,"pre_tokenizer":)" + def->pre_tokenizer + R"(,"post_processor":)" +
                                                    def->post_processor + R"(,"decoder":)" + def->decoder +
                                                    R"(,"model":{"type":"BPE","vocab":{"a":0},"merges":[]}})",
                                                "def");
            QVERIFY(tok.pre_tokenizer());
            QVERIFY2(pre_name_for_definition(*tok.pre_tokenizer()) == std::optional<std::string>(recognised), name);
        }
        // llama.cpp's ignore_merges: on for the Llama 3 family, not for dbrx (same regex).
        QVERIFY(pre_definition("llama3")->ignore_merges && !pre_definition("dbrx")->ignore_merges);
        for (const char* none : {"", "gemma4", "granite-embed-multi-311m", "sarvam-moe", "whitespace", "no-such-pre"}) QVERIFY2(!pre_definition(none), none);
        QVERIFY(pre_without_definition("gemma4") && !pre_without_definition("falcon") && !pre_without_definition("kimi-k2"));
        auto json = [](const std::string& t) { return QJsonDocument::fromJson(QByteArray::fromStdString("[" + t + "]")).array().at(0); };
        for (const auto& [c, name] : {std::pair{"Meta-Llama-3-8B-Instruct", "llama-bpe"}, std::pair{"Qwen3-0.6B", "qwen2"}}) {
            QFile f(fixtures_ + "/hf-gguf/inputs/" + c + "/tokenizer.json");
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject tj = QJsonDocument::fromJson(f.readAll()).object();
            const auto def = pre_definition(name);
            QCOMPARE(json(def->normalizer), tj["normalizer"]);
            QCOMPARE(json(def->pre_tokenizer), tj["pre_tokenizer"]);
            QCOMPARE(json(def->decoder), tj["decoder"]);
            const QJsonValue post = tj["post_processor"].toObject()["type"] == "Sequence"
                                        ? tj["post_processor"].toObject()["processors"].toArray().at(0)
                                        : tj["post_processor"];
            QCOMPARE(json(def->post_processor), post);
            QCOMPARE(def->ignore_merges, tj["model"].toObject()["ignore_merges"].toBool());
        }
    }

    // encode / decode against the HF tokenizer and llama.cpp's test vectors.
    void encode_matches_hf_tokenizer_data() {
        QTest::addColumn<QString>("case_name");
        QTest::newRow("llama3") << "Meta-Llama-3-8B-Instruct";
        QTest::newRow("qwen3") << "Qwen3-0.6B";
    }
    void encode_matches_hf_tokenizer() {
        QFETCH(QString, case_name);
        const QJsonObject ref = read_json(QString::fromStdString(test::source_dir()) + "/tests/core/data/bpe_encode_reference.json");
        const auto tok = HfTokenizer::load(s(fixtures_ + "/hf-gguf/inputs/" + case_name + "/tokenizer.json"));
        int n = 0, vectors = 0;
        for (const auto c : ref["cases"].toArray()) {
            const QJsonObject co = c.toObject();
            if (co["case"].toString() != case_name) continue;
            for (const auto e : co["encode"].toArray()) {
                const QJsonObject eo = e.toObject();
                const std::string text = s(eo["text"].toString());
                const auto got = tok.encode(text, eo["add_special_tokens"].toBool());
                const auto want = ids_of(eo["ids"].toArray());
                if (got != want)
                    QFAIL(qPrintable(QString("encode(%1, %2): got %3, want %4")
                                         .arg(eo["text"].toString().left(60))
                                         .arg(eo["add_special_tokens"].toBool())
                                         .arg(QString::fromStdString(python_list_str(got)))
                                         .arg(QString::fromStdString(python_list_str(want)))));
                if (eo.contains("decoded")) QCOMPARE(QString::fromStdString(tok.decode(want)), eo["decoded"].toString());
                ++n;
            }
            for (const auto e : co["llama_cpp_vectors"].toArray()) {
                const QJsonObject eo = e.toObject();
                const auto got = tok.encode(s(eo["text"].toString()), false);
                if (got != ids_of(eo["ids"].toArray()))
                    QFAIL(qPrintable("llama.cpp vector " + eo["text"].toString().left(60) + ": got " +
                                     QString::fromStdString(python_list_str(got))));
                ++vectors;
            }
        }
        QVERIFY(n > 30);
        QVERIFY(vectors > 40);
    }

    // Definition fallback, override and refusal when the hash is unknown.
    void pre_fallback_override_and_refusal() {
        QTemporaryDir tmp;
        write_file(tmp.path() + "/tokenizer.json", tiny_tokenizer(kLlama3Pre));
        const Gpt2Vocab v = gpt2_vocab(s(tmp.path()), std::nullopt, std::nullopt);
        QCOMPARE(v.pre, std::string("llama-bpe"));
        QCOMPARE(v.warnings.size(), std::size_t(1));
        QVERIFY(v.warnings[0].find(v.chkhsh) != std::string::npos);
        QCOMPARE(v.tokens.size(), std::size_t(260));
        QCOMPARE(v.tokens[259], std::string("<|end|>"));
        QCOMPARE(v.types[259], 3);
        QCOMPARE(v.types[258], 1);
        // vocab_size above the tokenizer's: [PAD<id>] entries of type 5 (unused).
        const Gpt2Vocab padded = gpt2_vocab(s(tmp.path()), 262, std::string("custom"));
        QCOMPARE(padded.pre, std::string("custom"));
        QCOMPARE(padded.tokens[261], std::string("[PAD261]"));
        QCOMPARE(padded.types[260], 5);
        try {
            gpt2_vocab(s(tmp.path()), 100, std::nullopt);
            QFAIL("a vocabulary larger than vocab_size was accepted");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::SizeMismatch);
        }
        write_file(tmp.path() + "/tokenizer.json", tiny_tokenizer(kJson6));
        try {
            gpt2_vocab(s(tmp.path()), std::nullopt, std::nullopt);
            QFAIL("an unknown pre-tokenizer was accepted");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Unsupported);
            QVERIFY(e.file().find("tokenizer.json") != std::string::npos);
            QVERIFY(std::string(e.what()).find("hash") != std::string::npos);
        }
        QCOMPARE(gpt2_vocab(s(tmp.path()), std::nullopt, std::string("gpt-2")).pre, std::string("gpt-2"));
    }

    void merges_pair_form_with_spaces() {
        QTemporaryDir tmp;
        const QString path = tmp.path() + "/tokenizer.json";
        write_file(path, tiny_tokenizer(kLlama3Pre, kJson7));
        QCOMPARE(bpe_merges(s(path)), (std::vector<std::string>{"h e", "l l", "he ll"}));
        const auto tok = HfTokenizer::load(s(path));
        QCOMPARE(tok.encode("hello", false), (std::vector<std::uint32_t>{258, static_cast<std::uint32_t>('o')}));
        // A space inside a part is written as U+0120 (the model itself keeps the space).
        write_file(path, kJson8);
        QCOMPARE(bpe_merges(s(path)), (std::vector<std::string>{"a \xC4\xA0" "b"}));
        write_file(path, kJson9);
        QVERIFY(bpe_merges(s(path)).empty());
        write_file(tmp.path() + "/merges.txt", "#version: 0.2\n a  b \n\nbad line here\nc d\n");
        QCOMPARE(bpe_merges(s(path)), (std::vector<std::string>{"a b", "c d"}));
        write_file(path, kJson10);
        QVERIFY_THROWS_EXCEPTION(Error, bpe_merges(s(path)));
    }

    void split_behaviors() {
        // tokenizers' documented example: "the-final--countdown" split on "-".
        const Regex dash = Regex::literal("-", "");
        const Piece p{"the-final--countdown", true};
        auto texts = [&](SplitBehavior b, bool invert = false) {
            std::vector<std::string> v;
            for (const Piece& q : split_piece(p, dash, b, invert)) v.push_back(q.text);
            return v;
        };
        using V = std::vector<std::string>;
        QCOMPARE(texts(SplitBehavior::Removed), (V{"the", "final", "countdown"}));
        QCOMPARE(texts(SplitBehavior::Isolated), (V{"the", "-", "final", "-", "-", "countdown"}));
        QCOMPARE(texts(SplitBehavior::MergedWithPrevious), (V{"the-", "final-", "-", "countdown"}));
        QCOMPARE(texts(SplitBehavior::MergedWithNext), (V{"the", "-final", "-", "-countdown"}));
        QCOMPARE(texts(SplitBehavior::Contiguous), (V{"the", "-", "final", "--", "countdown"}));
        QCOMPARE(texts(SplitBehavior::Removed, true), (V{"-", "-", "-"}));
    }

    void unicode_normalization() {
        QCOMPARE(unicode_normalize("e\xCC\x81", NormForm::NFC), std::string("\xC3\xA9"));         // e + U+0301 → é
        QCOMPARE(unicode_normalize("\xC3\xA9", NormForm::NFD), std::string("e\xCC\x81"));
        QCOMPARE(unicode_normalize("\xE2\x84\xAB", NormForm::NFC), std::string("\xC3\x85"));      // Å sign → Å
        QCOMPARE(unicode_normalize("\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8", NormForm::NFC), std::string("\xEA\xB0\x81"));  // 각
        QCOMPARE(unicode_normalize("\xEF\xAC\x81", NormForm::NFKC), std::string("fi"));           // ﬁ
        QCOMPARE(unicode_normalize("\xEF\xAC\x81", NormForm::NFC), std::string("\xEF\xAC\x81"));
        // Canonical reordering: dot below (220) before acute (230).
        QCOMPARE(unicode_normalize("a\xCC\x81\xCC\xA3", NormForm::NFD), std::string("a\xCC\xA3\xCC\x81"));
        QCOMPARE(unicode_lowercase("ΣΊΣΥΦΟΣ"), std::string("σίσυφος"));
        QCOMPARE(unicode_lowercase("\xC4\xB0"), std::string("i\xCC\x87"));                       // İ → i̇
        // Since utf8proc (Unicode 15.0; the generated tables were Python's 14.0):
        // NFKC/NFKD of the Unicode 15 Cyrillic modifier letters U+1E030…U+1E06D
        // (the only difference over all code points, NFC/NFD/lower case identical).
        QCOMPARE(unicode_normalize("\xF0\x9E\x80\xB0", NormForm::NFKC), std::string("\xD0\xB0"));  // U+1E030 → а
        QCOMPARE(unicode_normalize("\xF0\x9E\x80\xB0", NormForm::NFC), std::string("\xF0\x9E\x80\xB0"));
        // Hangul: decomposed algorithmically, Hangul + Latin mixed.
        QCOMPARE(unicode_normalize("\xEA\xB0\x81" "e\xCC\x81", NormForm::NFD),
                 std::string("\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8" "e\xCC\x81"));
        // U+0000 is an ordinary character (no NUL termination).
        QCOMPARE(unicode_normalize(std::string_view("e\0\xCC\x81", 4), NormForm::NFC), std::string("e\0\xCC\x81", 4));
        // Final sigma: a modifier letter (Lm, case-ignorable) between Σ and the letter
        // before it; Σ alone or before a letter stays σ.
        QCOMPARE(unicode_lowercase("Α\xCA\xB9Σ"), std::string("α\xCA\xB9ς"));
        QCOMPARE(unicode_lowercase("Σ"), std::string("σ"));
        QCOMPARE(unicode_lowercase("ΣΑ"), std::string("σα"));
        QCOMPARE(unicode_lowercase("ǅ\xE1\xBA\x9E"), std::string("ǆß"));  // title case Dž, capital sharp s
        // Ill-formed UTF-8 is a named error, not undefined behaviour.
        QVERIFY_THROWS_EXCEPTION(amn::Error, unicode_normalize("\xC3(", NormForm::NFC));
    }

    // Hostile input: a catastrophic pattern fails with a named error, fast.
    void regex_backtracking_is_bounded() {
        const auto tok = HfTokenizer::parse(
            tiny_tokenizer(kJson11),
            "hostile.json");
        const auto t0 = std::chrono::steady_clock::now();
        try {
            tok.encode(std::string(5000, 'a') + "b", false);
            QFAIL("no limit hit");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::LimitExceeded);
            QCOMPARE(e.file(), std::string("hostile.json"));
        }
        QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
        QVERIFY_THROWS_EXCEPTION(Error, tok.encode("\xFF", false));
        const std::string bad_regex =
            tiny_tokenizer("{\"type\": \"Split\", \"pattern\": {\"Regex\": \"((\"}, \"behavior\": \"Isolated\"}");
        QVERIFY_THROWS_EXCEPTION(Error, HfTokenizer::parse(bad_regex, "bad.json"));
        // A model type neither BPE nor WordPiece (issue 32 added WordPiece) is refused by name.
        const std::string unigram = "{\"model\": {\"type\": \"Unigram\", \"vocab\": []}}";
        QVERIFY_THROWS_EXCEPTION(Error, HfTokenizer::parse(unigram, "unigram.json"));
    }

    // Long runs (one pre-tokenizer piece of 10⁵–10⁶ bytes) encode and decode back.
    void long_inputs_round_trip() {
        const auto tok = HfTokenizer::load(s(fixtures_ + "/hf-gguf/inputs/Meta-Llama-3-8B-Instruct/tokenizer.json"));
        std::string letters;
        for (int i = 0; i < 300000; ++i) letters.push_back(static_cast<char>('a' + (i * 7) % 26));
        const std::string texts[] = {letters, std::string(200000, ' ') + "x", std::string(100000, '7'),
                                     std::string(100000, '!') + "\n\n", "\xC3\xA9" + std::string(50000, '\t')};
        for (const std::string& t : texts) QCOMPARE(tok.decode(tok.encode(t, false)), t);
    }

    void added_token_flags() {
        // lstrip / rstrip absorb whitespace around the token; single_word needs word boundaries.
        const std::string json = kJson12;
        const auto tok = HfTokenizer::parse(json, "t.json");
        using I = std::vector<std::uint32_t>;
        QCOMPARE(tok.encode("a  <m>  b", false), (I{0, 3, 1}));
        QCOMPARE(tok.encode("ab", false), (I{4}));
        QCOMPARE(tok.encode("aab", false), (I{0, 0, 1}));
        QCOMPARE(tok.encode("a ab b", false), (I{0, 2, 4, 2, 1}));
        QCOMPARE(tok.decode({0, 3, 1}), std::string("a <m> b"));
    }
};

QTEST_GUILESS_MAIN(TestBpeTokenizer)
#include "test_bpe_tokenizer.moc"
