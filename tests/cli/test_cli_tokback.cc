// SPDX-License-Identifier: MIT OR Apache-2.0
// Issue 24, the way back keeps the tokenizer: `amn remember X.gguf --layout hf`
// writes tokenizer.json, tokenizer_config.json, special_tokens_map.json,
// generation_config.json (and tokenizer.model for SentencePiece, vocab.txt and
// the sentence-transformers pooling files for BERT) from the GGUF's
// tokenizer.* / general.sampling.* key/values. For every tokenizer of
// the shared hf-gguf fixtures (BPE: Llama 3, Qwen3; SentencePiece: Llama 2,
// Mistral v0.1) and BERT's WordPiece (issue 32: bge-small-en-v1.5 of
// tests/core/hf_arch_models.py, bert-base-uncased's vocabulary) and XLM-RoBERTa's Unigram (bge-m3: its
// sentencepiece.bpe.model back as libsentencepiece runs the original, every piece and text, and giving
// llama.cpp's ids of the GGUF (tests/cli/spm_same_model.py); its tokenizer.json giving the original
// tokenizer.json's ids — transformers' XLM-R fast tokenizer is not SentencePiece on whitespace), on the GGUF
// `amn convert` makes of the folder (byte-identical to convert_hf_to_gguf.py's,
// checked by its sha256):
// - the written tokenizer.json, run by @huggingface/tokenizers under node,
//   gives llama.cpp's ids for 67 texts (tests/cli/data/tokback_reference.json,
//   made by tests/cli/tokback_reference.py with llama.cpp's llama_tokenize);
//   the differences llama.cpp itself makes are checked as such (Qwen3: NFC and
//   "</s>"; BERT: its one-code-point NFD table and no 100-character word limit,
//   and the original tokenizer.json gives the written one's ids for every text);
// - GGUF → HF folder → GGUF (`amn convert FOLDER --to gguf`) gives the same
//   tokenizer.* and general.sampling.* key/values (same types and bytes);
// - issue 32: one name of each of the 29 families of llama.cpp's byte-level pre-tokenizers on Llama 3's
//   vocabulary (a vocab-only GGUF, --vocab-pre NAME) gives llama.cpp's ids (tests/cli/data/tokback_pre_reference.json,
//   tests/cli/tokback_pre_reference.py) but where llama.cpp's regex engine parts from the tokenizer.json; a
//   vocab-only GGUF gives the tokenizer files alone; llama.cpp's own models/ggml-vocab-*.gguf (with its source at
//   hand) give the original tokenizer's ids (.inp / .out);
// - a tokenizer model or pre-tokenizer not known here: no tokenizer files and
//   a warning naming it; a SentencePiece vocabulary SentencePiece cannot load:
//   tokenizer.json without tokenizer.model, and a warning; malformed tokenizer
//   key/values: a named error.
// @huggingface/tokenizers is installed by this test (npm ci of
// ../shared/tools/hf_shim's package-lock.json into the build folder).
#include "anamnesis/catalog.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>

using amn::test::run;
using amn::test::run_amn;

namespace {

QString hf_gguf_dir() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/hf-gguf";
}

QByteArray sha256_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

QJsonDocument read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll());
}

/// The tokenizer model a case's GGUF holds: byte-level BPE ("gpt2"), SentencePiece BPE ("llama"),
/// WordPiece ("bert"), XLM-RoBERTa's Unigram ("t5").
enum class Model { Bpe, Spm, Wpm, Ugm };

/// The fixture case, the amn command that makes its GGUF (the output the reference
/// ids were made on), its tokenizer model, and whether its folder is one of
/// tests/core/hf_arch_models.py (else the shared hf-gguf inputs).
struct Case {
    const char* name;
    const char* to;
    Model model;
    bool arch = false;
};
constexpr Case kCases[] = {
    {"Meta-Llama-3-8B-Instruct", "gguf:F16", Model::Bpe},
    {"Qwen3-0.6B", "gguf:BF16", Model::Bpe},
    {"Llama-2-7b-hf", "gguf", Model::Spm},
    {"Mistral-7B-v0.1-FP8", "gguf", Model::Spm},
    {"bge-small-en-v1.5", "gguf:F32", Model::Wpm, true},
    {"bge-m3", "gguf:F32", Model::Ugm, true},
};

bool is_tokenizer_key(const std::string& k) { return k.starts_with("tokenizer.") || k.starts_with("general.sampling."); }

}  // namespace

class TestCliTokback : public QObject {
    Q_OBJECT

    QString shim_;     // folder with node_modules/@huggingface/tokenizers and hf_tokenize.mjs
    QString reason_;   // why there is none
    QJsonObject ref_;  // tests/cli/data/tokback_reference.json
    QJsonObject pre_;  // tests/cli/data/tokback_pre_reference.json

    /// Skip (or fail under AMN_REQUIRE_REFERENCE=1) without the fixtures or node.
    bool ready() {
        if (hf_gguf_dir().isEmpty() || !QFileInfo::exists(hf_gguf_dir() + "/manifest.json")) {
            reason_ = "hf-gguf fixtures missing";
            return false;
        }
        return !shim_.isEmpty();
    }

private slots:
    void initTestCase() {
        ref_ = read_json(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/tokback_reference.json").object();
        QVERIFY(!ref_.isEmpty());
        pre_ = read_json(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/tokback_pre_reference.json").object();
        QVERIFY(!pre_.isEmpty());
        const auto shared = amn::test::shared_fixtures_dir();
        const QString lock_dir = QString::fromStdString(shared) + "/../tools/hf_shim";
        if (shared.empty() || !QFileInfo::exists(lock_dir + "/package-lock.json")) {
            reason_ = "../shared/tools/hf_shim missing";
            return;
        }
        const QString node = QStandardPaths::findExecutable("node"), npm = QStandardPaths::findExecutable("npm");
        if (node.isEmpty() || npm.isEmpty()) {
            reason_ = "node/npm not installed (Debian: nodejs npm)";
            return;
        }
        // The reference implementation, installed once per build folder from the pinned lock file.
        const QString dir = QString::fromStdString(amn::test::binary_dir()) + "/hf_shim";
        QDir().mkpath(dir);
        if (!QFileInfo::exists(dir + "/node_modules/@huggingface/tokenizers/package.json")) {
            for (const char* f : {"package.json", "package-lock.json"}) {
                QFile::remove(dir + "/" + f);
                QVERIFY(QFile::copy(lock_dir + "/" + f, dir + "/" + f));
            }
            const auto r = run(npm, {"ci", "--no-audit", "--no-fund", "--prefix", dir}, 600000);
            if (r.exit_code != 0) {
                reason_ = "npm ci failed: " + r.err.left(400);
                return;
            }
        }
        QFile::remove(dir + "/hf_tokenize.mjs");
        QVERIFY(QFile::copy(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/hf_tokenize.mjs", dir + "/hf_tokenize.mjs"));
        shim_ = dir;
    }

    void roundTrip_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kCases)); ++i) QTest::newRow(kCases[i].name) << i;
    }

    /// GGUF → `amn remember --layout hf` → ids of the written tokenizer.json
    /// (@huggingface/tokenizers) = llama.cpp's ids of the GGUF; → `amn convert
    /// FOLDER --to gguf` → the same tokenizer key/values.
    void roundTrip() {
        QFETCH(int, index);
        const Case& c = kCases[index];
        if (!ready()) {
            if (amn::test::reference_required()) QFAIL(qPrintable(reason_));
            QSKIP(qPrintable(reason_));
        }
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString gguf = tmp.filePath("in.gguf"), folder = tmp.filePath(c.name), back = tmp.filePath("back.gguf");
        QString input = hf_gguf_dir() + "/inputs/" + c.name;
        if (c.arch) {  // only this case's folder
            input = tmp.filePath("models/") + c.name;
            const auto g = run(QString::fromStdString(amn::test::python()),
                               {QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_arch_models.py",
                                tmp.filePath("models"), "--inputs-only", "--cases", c.name});
            QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        }
        auto r = run_amn({"convert", input, "--to", c.to, "-o", gguf, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QJsonObject refcase;
        for (const auto& v : ref_["cases"].toArray())
            if (v.toObject()["case"].toString() == c.name) refcase = v.toObject();
        QVERIFY(!refcase.isEmpty());
        // The reference ids were made on exactly this file (convert_hf_to_gguf.py's bytes).
        QCOMPARE(sha256_of(gguf), refcase["gguf_sha256"].toString().toLatin1());

        r = run_amn({"remember", gguf, "--layout", "hf", "-o", folder, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("warning"), qPrintable(r.err));
        QStringList want = {"config.json", "generation_config.json", "model.safetensors", "special_tokens_map.json",
                            "tokenizer.json", "tokenizer_config.json"};
        if (c.model == Model::Spm) want << "tokenizer.model";
        if (c.model == Model::Wpm) want << "vocab.txt";
        if (c.model == Model::Ugm) want << "sentencepiece.bpe.model";
        if (c.arch) want << "modules.json" << "1_Pooling/config.json";
        want.sort();
        QCOMPARE(amn::test::list_files(folder), want);
        if (c.model == Model::Wpm) {  // BERT: the phantom-space vocabulary back to the original vocab.txt, byte for byte
            QFile a(folder + "/vocab.txt"), b(input + "/vocab.txt");
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY(a.readAll() == b.readAll());
        }
        if (c.model == Model::Ugm) {  // XLM-R: libsentencepiece runs the written model as the original, on every text
            const auto m = run(QString::fromStdString(amn::test::python()),
                               {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/spm_same_model.py",
                                input + "/sentencepiece.bpe.model", folder + "/sentencepiece.bpe.model",
                                QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/tokback_reference.json",
                                "--llama-ids", c.name});
            QVERIFY2(m.exit_code == 0 && m.out.startsWith("ok "), qPrintable(m.out + m.err));
            qInfo("%s: %s", c.name, qPrintable(m.out.trimmed()));
        }

        // (1) ids: @huggingface/tokenizers on the written tokenizer.json vs llama.cpp on the GGUF.
        r = run(QStandardPaths::findExecutable("node"),
                {shim_ + "/hf_tokenize.mjs", folder + "/tokenizer.json",
                 QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/tokback_reference.json"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QJsonArray hf = QJsonDocument::fromJson(r.out.toUtf8()).array();
        const QJsonArray texts = ref_["texts"].toArray(), cpp = refcase["ids"].toArray(), cpp_nfc = refcase["ids_nfc"].toArray();
        QCOMPARE(hf.size(), texts.size());
        // BERT: the original tokenizer.json (the folder's) gives every text the written one's ids.
        QJsonArray hf_original;
        if (c.arch) {
            const auto o = run(QStandardPaths::findExecutable("node"),
                               {shim_ + "/hf_tokenize.mjs", input + "/tokenizer.json",
                                QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/tokback_reference.json"});
            QVERIFY2(o.exit_code == 0, qPrintable(o.err));
            hf_original = QJsonDocument::fromJson(o.out.toUtf8()).array();
            QVERIFY(hf_original == hf);
        }
        int same = 0, nfc = 0, eog = 0, wpm_nfd = 0, wpm_long = 0;
        // XLM-R: transformers' own fast tokenizer (the original tokenizer.json, equal to the written one above)
        // is not SentencePiece on whitespace (Replace " {2,}" + Metaspace keep what SentencePiece's
        // remove_extra_whitespaces strips, the tiny charsmap's tabs and newlines …); llama.cpp's UGM tokenizer
        // follows SentencePiece, whose ids on the written sentencepiece.bpe.model were compared with llama.cpp's above.
        for (int i = 0; c.model != Model::Ugm && i < texts.size(); ++i) {
            if (hf[i] == cpp[i]) {
                ++same;
                continue;
            }
            const QString text = texts[i].toString();
            // Qwen's tokenizer.json normalizes to NFC (as the original does); llama.cpp skips that normalizer:
            // transformers' ids are llama.cpp's ids of the NFC text.
            if (QByteArray(c.name) == "Qwen3-0.6B" && !cpp_nfc[i].isNull() && hf[i] == cpp_nfc[i]) {
                ++nfc;
                continue;
            }
            // llama.cpp makes "</s>" a control token by its text (llama-vocab.cpp's end-of-generation
            // list, "control-looking token … its type will be overridden"); in Qwen's vocabulary it is an
            // ordinary BPE token (the original tokenizer.json gives the same ids as the written one).
            if (QByteArray(c.name) == "Qwen3-0.6B" && text.contains("</s>")) {
                ++eog;
                continue;
            }
            // llama.cpp's WordPiece tokenizer strips accents with a one-code-point-per-character table
            // (unicode_cpts_normalize_nfd), where BertNormalizer decomposes fully (Hangul syllables into
            // their jamo): the texts whose NFD is longer than themselves differ (the original tokenizer.json
            // gives the written one's ids, checked above).
            if (c.model == Model::Wpm && text.normalized(QString::NormalizationForm_D).toUcs4().size() > text.toUcs4().size()) {
                ++wpm_nfd;
                continue;
            }
            // WordPiece's max_input_chars_per_word (100): a longer word is one [UNK] for tokenizers;
            // llama.cpp's WPM tokenizer has no such limit.
            if (c.model == Model::Wpm) {
                bool long_word = false;
                for (const QString& word : text.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts))
                    long_word = long_word || word.toUcs4().size() > 100;
                if (long_word) {
                    ++wpm_long;
                    continue;
                }
            }
            QFAIL(qPrintable(QString("text %1 %2: HF %3, llama.cpp %4")
                                 .arg(i)
                                 .arg(QString(QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact)))
                                 .arg(QString(QJsonDocument(hf[i].toArray()).toJson(QJsonDocument::Compact)))
                                 .arg(QString(QJsonDocument(cpp[i].toArray()).toJson(QJsonDocument::Compact)))));
        }
        if (c.model != Model::Ugm)
            qInfo("%s: %d/%d texts identical ids, %d identical after NFC, %d with llama.cpp's '</s>' override", c.name, same,
                  int(texts.size()), nfc, eog);
        if (QByteArray(c.name) == "Qwen3-0.6B") {
            QCOMPARE(nfc, 1);
            QCOMPARE(eog, 1);
        } else if (c.model == Model::Wpm) {
            qInfo("%s: %d/%d texts identical ids, %d whose full NFD llama.cpp's one-to-one table cannot give, "
                  "%d with a word over 100 characters",
                  c.name, same, int(texts.size()), wpm_nfd, wpm_long);
            QCOMPARE(same + wpm_nfd + wpm_long, texts.size());
            QVERIFY(same >= texts.size() - 4);
        } else if (c.model != Model::Ugm) {
            QCOMPARE(same, texts.size());
        }

        // (2) HF folder → GGUF: the same tokenizer.* / general.sampling.* key/values.
        r = run_amn({"convert", folder, "--to", "gguf:F16", "-o", back, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const amn::Catalog a = amn::open_gguf(gguf.toStdString()), b = amn::open_gguf(back.toStdString());
        std::vector<const amn::MetaKv*> ka, kb;
        for (const auto& kv : a.metadata)
            if (is_tokenizer_key(kv.key)) ka.push_back(&kv);
        for (const auto& kv : b.metadata)
            if (is_tokenizer_key(kv.key)) kb.push_back(&kv);
        QCOMPARE(kb.size(), ka.size());
        QVERIFY(ka.size() >= 9);
        for (const auto* kv : ka) {
            const amn::MetaValue* v = b.meta(kv->key);
            QVERIFY2(v, kv->key.c_str());
            QVERIFY2(*v == kv->value, kv->key.c_str());
        }
        // Key order: the same, but for Qwen3's special ids. convert_hf_to_gguf takes them from
        // tokenizer_config.json first (eos, pad: its bos_token is null) and bos from config.json; the GGUF
        // does not say which came from where, so the folder names all three in tokenizer_config.json.
        std::vector<std::string> oa, ob;
        for (const auto* kv : ka) oa.push_back(kv->key);
        for (const auto* kv : kb) ob.push_back(kv->key);
        if (QByteArray(c.name) != "Qwen3-0.6B") QVERIFY(oa == ob);
    }

    void preTokenizerFamilies_data() {
        QTest::addColumn<int>("index");
        const QJsonArray cases = pre_["cases"].toArray();
        for (int i = 0; i < cases.size(); ++i) QTest::newRow(qPrintable(cases[i].toObject()["pre"].toString())) << i;
    }
    /// Issue 32: one `tokenizer.ggml.pre` name of each family of llama.cpp's byte-level BPE pre-tokenizers
    /// (pre_definitions.cc) on Llama 3's vocabulary: the vocab-only GGUF `amn convert --vocab-only --vocab-pre NAME`
    /// makes (the file llama.cpp's ids were recorded on: tests/cli/tokback_pre_reference.py) → `amn remember
    /// --layout hf` writes the tokenizer files alone → @huggingface/tokenizers gives llama.cpp's ids for every
    /// text, but where llama.cpp's regex engine is known to part from the tokenizer.json the model ships (below).
    void preTokenizerFamilies() {
        QFETCH(int, index);
        if (!ready()) {
            if (amn::test::reference_required()) QFAIL(qPrintable(reason_));
            QSKIP(qPrintable(reason_));
        }
        const QJsonObject c = pre_["cases"].toArray()[index].toObject();
        const QString pre = c["pre"].toString();
        QTemporaryDir tmp;
        const QString gguf = tmp.filePath("vocab.gguf"), folder = tmp.filePath("tokenizer");
        auto r = run_amn({"convert", hf_gguf_dir() + "/inputs/" + pre_["input"].toString(), "--to", "gguf", "--vocab-only",
                          "--vocab-pre", pre, "-o", gguf, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(gguf), c["gguf_sha256"].toString().toLatin1());
        r = run_amn({"inspect", gguf});  // says what the file is
        QVERIFY2(r.exit_code == 0 && QRegularExpression("tokenizer +gpt2, pre " + QRegularExpression::escape(pre) +
                                                        ", [0-9]+ tokens — vocab-only \\(no tensors\\)")
                                         .match(r.out)
                                         .hasMatch(),
                 qPrintable(r.out + r.err));
        r = run_amn({"remember", gguf, "--layout", "hf", "-o", folder, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("warning"), qPrintable(r.err));
        // A vocab-only GGUF: the tokenizer and generation files alone (no config.json, no tensors).
        QCOMPARE(amn::test::list_files(folder), (QStringList{"generation_config.json", "special_tokens_map.json", "tokenizer.json",
                                                             "tokenizer_config.json"}));
        r = run(QStandardPaths::findExecutable("node"),
                {shim_ + "/hf_tokenize.mjs", folder + "/tokenizer.json",
                 QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/tokback_reference.json"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QJsonArray hf = QJsonDocument::fromJson(r.out.toUtf8()).array(), cpp = c["ids"].toArray(),
                         texts = ref_["texts"].toArray();
        QCOMPARE(hf.size(), texts.size());
        QCOMPARE(cpp.size(), texts.size());
        int same = 0, engine = 0;
        for (int i = 0; i < texts.size(); ++i) {
            if (hf[i] == cpp[i]) {
                ++same;
                continue;
            }
            const QString text = texts[i].toString();
            bool cased = false, digit_letter = false, mark = false;
            for (int k = 0; k < text.size(); ++k) {
                const QChar ch = text[k];
                cased = cased || (ch.unicode() > 127 && (ch.isLower() || ch.isUpper()));
                mark = mark || ch.isMark();
                digit_letter = digit_letter || (k > 0 && ch.unicode() > 127 && ch.isLetter() && text[k - 1].isDigit() &&
                                                text[k - 1].unicode() < 128);
            }
            // GPT-4o's and Tekken's tokenizer.json split on \p{Lu}… / \p{Ll}… classes; llama.cpp runs them emulated
            // with [^a-z] / [^A-Z] lookaheads (llama-vocab.cpp), which count a non-ASCII lower-case letter as upper
            // case too: texts with Greek or Cyrillic letters split otherwise there.
            if ((pre == "gpt-4o" || pre == "tekken") && cased) {
                ++engine;
                continue;
            }
            // Kimi K2's pattern takes combining marks (\p{M}) into a word; llama.cpp's own code for it takes letters
            // only: a Devanagari vowel sign starts a new piece there.
            if (pre == "kimi-k2" && mark) {
                ++engine;
                continue;
            }
            // Tiny Aya's digit groups `\d{1,3}(?=(?:\d{3})*\b)`: llama.cpp cuts every digit run in threes from the right
            // with its own code ("TODO: revisit", unicode.cpp); the regex's \b is no boundary between a digit and a
            // CJK letter (both word characters), so such a run is cut from the left.
            if (pre == "tiny_aya" && digit_letter) {
                ++engine;
                continue;
            }
            QFAIL(qPrintable(QString("%1, text %2 %3: HF %4, llama.cpp %5")
                                 .arg(pre)
                                 .arg(i)
                                 .arg(QString(QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact)))
                                 .arg(QString(QJsonDocument(hf[i].toArray()).toJson(QJsonDocument::Compact)))
                                 .arg(QString(QJsonDocument(cpp[i].toArray()).toJson(QJsonDocument::Compact)))));
        }
        qInfo("%s: %d/%d texts identical ids, %d where llama.cpp's regex engine parts from the tokenizer.json", qPrintable(pre),
              same, int(texts.size()), engine);
        QVERIFY(same >= texts.size() - 2);
    }

    /// llama.cpp's own vocabulary files (models/ggml-vocab-*.gguf of AMN_LLAMA_SRC, default /work/llama/src: vocab-only
    /// GGUFs of real models, not in CI) and the ids transformers gave the original tokenizer for each text
    /// (`.inp` / `.out`, written by convert_hf_to_gguf_update.py): `amn remember --layout hf` writes the tokenizer
    /// files alone, and the written tokenizer.json gives the original's ids for every text. A file without
    /// `tokenizer.ggml.pre` (gpt-neox: llama.cpp falls back to its default regexes) gets a named error, nothing written.
    void llamaCppVocabularies() {
        if (!ready()) {
            if (amn::test::reference_required()) QFAIL(qPrintable(reason_));
            QSKIP(qPrintable(reason_));
        }
        const QString src = qEnvironmentVariableIsSet("AMN_LLAMA_SRC") ? qEnvironmentVariable("AMN_LLAMA_SRC") : "/work/llama/src";
        const QStringList vocabs = QDir(src + "/models").entryList({"ggml-vocab-*.gguf"}, QDir::Files, QDir::Name);
        if (vocabs.isEmpty()) QSKIP("llama.cpp's models/ggml-vocab-*.gguf missing (AMN_LLAMA_SRC: llama.cpp's source)");
        int passed = 0;
        QStringList refused;
        for (const QString& v : vocabs) {
            const QString gguf = src + "/models/" + v;
            QTemporaryDir tmp;
            const QString folder = tmp.filePath("tokenizer");
            const auto r = run_amn({"remember", gguf, "--layout", "hf", "-o", folder, "--quiet"});
            if (r.exit_code != 0) {
                QVERIFY2(r.exit_code == 1 && r.err.contains("tokenizer.ggml.pre"), qPrintable(v + ": " + r.err));
                QVERIFY2(!QFileInfo::exists(folder), qPrintable(v));
                refused << v;
                continue;
            }
            const QStringList files = amn::test::list_files(folder);
            QVERIFY2(!files.contains("config.json") && !files.contains("model.safetensors") && files.contains("tokenizer.json"),
                     qPrintable(v + ": " + files.join(' ')));
            QFile inp(gguf + ".inp"), out(gguf + ".out");
            if (!inp.open(QIODevice::ReadOnly) || !out.open(QIODevice::ReadOnly)) continue;  // no texts for it (baichuan)
            QStringList texts = QString::fromUtf8(inp.readAll()).split("\n__ggml_vocab_test__\n");
            texts.removeLast();
            QJsonArray arr;
            for (const auto& t : texts) arr.append(t);
            QFile tj(tmp.filePath("texts.json"));
            QVERIFY(tj.open(QIODevice::WriteOnly));
            tj.write(QJsonDocument(QJsonObject{{"texts", arr}}).toJson());
            tj.close();
            const auto n = run(QStandardPaths::findExecutable("node"),
                               {shim_ + "/hf_tokenize.mjs", folder + "/tokenizer.json", tj.fileName(), "--no-special"});
            QVERIFY2(n.exit_code == 0, qPrintable(n.err));
            const QJsonArray hf = QJsonDocument::fromJson(n.out.toUtf8()).array();
            const QStringList want = QString::fromUtf8(out.readAll()).split('\n');
            QCOMPARE(hf.size(), texts.size());
            for (int i = 0; i < texts.size(); ++i) {
                QStringList got;
                for (const auto& id : hf[i].toArray()) got << QString::number(id.toInteger());
                QVERIFY2(got.join(' ') == want.value(i).trimmed(),
                         qPrintable(QString("%1 text %2: HF %3, original %4").arg(v).arg(i).arg(got.join(' '), want.value(i))));
            }
            ++passed;
            qInfo("%s: %d/%d texts the original tokenizer's ids", qPrintable(v), int(texts.size()), int(texts.size()));
        }
        qInfo("refused with a named error: %s", qPrintable(refused.join(", ")));
        QVERIFY(passed >= 8);
    }

    /// A tokenizer the way back does not know: the folder without tokenizer files, and a warning that
    /// names what is unknown (no guess). Malformed tokenizer key/values: a named error.
    void unknownAndMalformed() {
        if (!ready()) {
            if (amn::test::reference_required()) QFAIL(qPrintable(reason_));
            QSKIP(qPrintable(reason_));
        }
        QTemporaryDir tmp;
        const QString gguf = tmp.filePath("in.gguf");
        auto r = run_amn({"convert", hf_gguf_dir() + "/inputs/Meta-Llama-3-8B-Instruct", "--to", "gguf:F16", "-o", gguf, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const amn::Catalog orig = amn::open_gguf(gguf.toStdString());
        auto with = [&](const std::string& key, amn::MetaValue v) {
            amn::Catalog c = orig;
            for (auto& kv : c.metadata)
                if (kv.key == key) kv.value = std::move(v);
            return c;
        };
        auto names = [](const amn::HfLayout& h) {
            QStringList n;
            for (const auto& [name, text] : h.side_files) n << QString::fromStdString(name);
            return n;
        };
        {
            // A name llama.cpp runs as raw UTF-8 BPE (not byte-level), and one it does not know.
            for (const char* pre : {"gemma4", "no-such-pre"}) {
                const amn::Catalog c = with("tokenizer.ggml.pre", amn::MetaValue::string(pre));
                const auto h = amn::to_hf_layout(c, amn::make_plan(c));
                QCOMPARE(names(h), QStringList{"generation_config.json"});
                QCOMPARE(h.warnings.size(), std::size_t{1});
                QVERIFY2(h.warnings[0].detail.find("tokenizer.ggml.pre '" + std::string(pre) + "'") != std::string::npos,
                         h.warnings[0].detail.c_str());
                QVERIFY2(h.warnings[0].detail.find("not a byte-level pre-tokenizer") !=
                             std::string::npos,
                         h.warnings[0].detail.c_str());
            }
        }
        {
            // A vocab-only GGUF whose tokenizer cannot be written: a named error, no folder; forget refuses any.
            const QString vocab = tmp.filePath("gemma4.gguf"), folder = tmp.filePath("gemma4");
            r = run_amn({"convert", hf_gguf_dir() + "/inputs/Meta-Llama-3-8B-Instruct", "--to", "gguf", "--vocab-only", "--vocab-pre",
                         "gemma4", "-o", vocab, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            r = run_amn({"remember", vocab, "--layout", "hf", "-o", folder, "--quiet"});
            QCOMPARE(r.exit_code, 1);
            QVERIFY2(r.err.contains("vocab-only GGUF (no tensors) whose tokenizer cannot be written") && r.err.contains("gemma4"),
                     qPrintable(r.err));
            QVERIFY(!QFileInfo::exists(folder));
            r = run_amn({"convert", hf_gguf_dir() + "/inputs/Meta-Llama-3-8B-Instruct", "--to", "gguf", "--vocab-only", "-o", vocab,
                         "--force", "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            r = run_amn({"forget", vocab, "--to", "fp8", "-o", folder, "--quiet"});
            QCOMPARE(r.exit_code, 1);
            QVERIFY2(r.err.contains("nothing to quantize"), qPrintable(r.err));
            QVERIFY(!QFileInfo::exists(folder));
        }
        {
            const amn::Catalog c = with("tokenizer.ggml.model", amn::MetaValue::string("t5"));
            const auto h = amn::to_hf_layout(c, amn::make_plan(c));
            QCOMPARE(names(h), QStringList{"generation_config.json"});
            QVERIFY2(h.warnings.at(0).detail.find("t5 (Unigram) tokenizer without tokenizer.ggml.scores") != std::string::npos,
                     h.warnings[0].detail.c_str());
        }
        {
            // A Unigram vocabulary that is not XLM-RoBERTa's (<s> <pad> </s> <unk> first): not guessed.
            const QString spm = tmp.filePath("t5.gguf");
            r = run_amn({"convert", hf_gguf_dir() + "/inputs/Llama-2-7b-hf", "--to", "gguf", "-o", spm, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            amn::Catalog c = amn::open_gguf(spm.toStdString());
            for (auto& kv : c.metadata)
                if (kv.key == "tokenizer.ggml.model") kv.value = amn::MetaValue::string("t5");
            const auto h = amn::to_hf_layout(c, amn::make_plan(c));
            QCOMPARE(names(h), QStringList{"generation_config.json"});
            QVERIFY2(h.warnings.at(0).detail.find("does not start with XLM-RoBERTa's <s> <pad> </s> <unk> (token 0)") != std::string::npos,
                     h.warnings[0].detail.c_str());
        }
        {
            // SentencePiece: a vocabulary SentencePiece cannot load (an empty piece) keeps tokenizer.json
            // and leaves tokenizer.model out, saying why.
            const QString spm = tmp.filePath("spm.gguf");
            r = run_amn({"convert", hf_gguf_dir() + "/inputs/Llama-2-7b-hf", "--to", "gguf", "-o", spm, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            amn::Catalog c = amn::open_gguf(spm.toStdString());
            for (auto& kv : c.metadata)
                if (kv.key == "tokenizer.ggml.tokens") {
                    std::vector<std::string> t;
                    for (std::size_t i = 0; i < kv.value.size(); ++i) t.emplace_back(i == 500 ? std::string_view() : kv.value.string_at(i));
                    kv.value = amn::MetaValue::strings(t);
                }
            const auto h = amn::to_hf_layout(c, amn::make_plan(c));
            QCOMPARE(names(h), (QStringList{"tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "generation_config.json"}));
            QCOMPARE(h.warnings.size(), std::size_t{1});
            QVERIFY2(h.warnings[0].detail.find("token 500 is empty") != std::string::npos, h.warnings[0].detail.c_str());
        }
        {
            const amn::Catalog c = with("tokenizer.ggml.token_type", amn::MetaValue::array(amn::GgufType::I32, {amn::MetaValue::i32(1)}));
            std::string what;
            QCOMPARE(amn::test::error_code_of([&] { amn::to_hf_layout(c, amn::make_plan(c)); }, &what), amn::ErrorCode::Malformed);
            QVERIFY2(what.find("tokenizer.ggml.token_type") != std::string::npos, what.c_str());
        }
        {
            const amn::Catalog c = with("tokenizer.ggml.tokens", amn::MetaValue::strings({"a", "\xff"}));
            std::string what;
            QCOMPARE(amn::test::error_code_of([&] { amn::to_hf_layout(c, amn::make_plan(c)); }, &what), amn::ErrorCode::Malformed);
            QVERIFY2(what.find("not UTF-8") != std::string::npos, what.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestCliTokback)
#include "test_cli_tokback.moc"
