// SPDX-License-Identifier: MIT OR Apache-2.0
// amn convert DIR --to gguf[:T] --mmproj: the vision projector GGUF of a
// multimodal Hugging Face folder (Gemma 3's SigLIP, Qwen2-VL, Qwen2.5-VL),
// judged by llama.cpp's convert_hf_to_gguf.py --mmproj (34af94c): the sha256
// of the file it wrote per --outtype and its default file name
// (tests/core/hf_mmproj_reference.json, made by tests/core/hf_mmproj_models.py
// with the shared hf_shim), the text GGUF of the same folder unchanged,
// `amn inspect` naming both files, and the bad input (one named line, exit 1,
// nothing written).
#include "hf_gguf_support.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::copy_dir;
using amn::test::run;
using amn::test::run_amn;
using amn::test::sha256_of;

namespace {

// The folders of tests/core/hf_mmproj_models.py --inputs-only (one python run
// for every test), each in a folder of its own so that a default output
// (written beside the model folder) cannot meet another's; empty when the script failed.
QString mm_models() {
    static QTemporaryDir dir;
    static const bool made = run(QString::fromStdString(amn::test::python()),
                                 {QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_mmproj_models.py", dir.path(),
                                  "--shared", QString::fromStdString(amn::test::shared_fixtures_dir()), "--inputs-only"})
                                 .exit_code == 0;
    return made ? dir.path() : QString();
}

QJsonObject reference_cases() {
    QFile f(QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_mmproj_reference.json");
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("cases").toObject();
}

// A writable copy of case `c` as `tmp`/c (the default output lands in `tmp`).
QString copy_case(const QTemporaryDir& tmp, const QString& c) {
    const QString to = tmp.path() + "/" + c;
    return copy_dir(mm_models() + "/" + c, to) ? to : QString();
}

}  // namespace

class TestCliHfMmproj : public QObject {
    Q_OBJECT

private slots:
    // Every case × --outtype f32/f16/bf16/q8_0 against the converter's file: Gemma 3 (input
    // projection kept F16, embeddings F32, soft_emb_norm + 1, projector scale factor 2), Qwen2.5-VL
    // (qkv split, Conv3D patch embedding split into two, window attention pattern), Qwen2-VL
    // (LayerNorm biases, fc1/fc2, embed_dim).
    void mmproj_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("outtype");
        QTest::addColumn<QByteArray>("sha");
        const QJsonObject cases = reference_cases();
        for (auto c = cases.begin(); c != cases.end(); ++c) {
            const QJsonObject shas = c.value().toObject().value("mmproj").toObject();
            for (auto t = shas.begin(); t != shas.end(); ++t)
                QTest::newRow(qPrintable(c.key() + " " + t.key())) << c.key() << t.key() << t.value().toString().toLatin1();
        }
        QVERIFY(cases.size() >= 3);
    }
    void mmproj() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QString, outtype);
        QFETCH(QByteArray, sha);
        QVERIFY2(!mm_models().isEmpty(), "tests/core/hf_mmproj_models.py --inputs-only failed");
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/m.gguf";
        const auto r = run_amn({"convert", mm_models() + "/" + input, "--to", "gguf:" + outtype, "--mmproj", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), sha);
    }

    // No -o: the converter's default name (mmproj-…-TYPE.gguf) beside the folder, the same bytes;
    // the text GGUF of the folder is what the converter writes without --mmproj; `amn inspect`
    // (text and --json) names both files.
    void defaultNameTextAndInspect_data() {
        QTest::addColumn<QString>("input");
        const QJsonObject cases = reference_cases();
        for (auto c = cases.begin(); c != cases.end(); ++c) QTest::newRow(qPrintable(c.key())) << c.key();
    }
    void defaultNameTextAndInspect() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QVERIFY2(!mm_models().isEmpty(), "tests/core/hf_mmproj_models.py --inputs-only failed");
        const QJsonObject ref = reference_cases().value(input).toObject();
        QTemporaryDir tmp;
        const QString in = copy_case(tmp, input);
        QVERIFY(!in.isEmpty());
        const auto r = run_amn({"convert", in, "--to", "gguf:f16", "--mmproj", "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QString name = ref.value("mmproj_name").toObject().value("f16").toString();
        QVERIFY(!name.isEmpty());
        QCOMPARE(sha256_of(tmp.path() + "/" + name), ref.value("mmproj").toObject().value("f16").toString().toLatin1());

        const QString text = tmp.path() + "/text.gguf";
        const auto t = run_amn({"convert", in, "--to", "gguf:bf16", "-o", text, "--quiet"});
        QVERIFY2(t.exit_code == 0, qPrintable(t.err));
        QCOMPARE(sha256_of(text), ref.value("text_sha256").toObject().value("bf16").toString().toLatin1());

        // The weights are BF16: auto is BF16.
        const QString bf16_name = ref.value("mmproj_name").toObject().value("bf16").toString();
        const auto i = run_amn({"inspect", in});
        QVERIFY2(i.exit_code == 0, qPrintable(i.err));
        QVERIFY2(i.out.contains("convert --to gguf --mmproj → ") && i.out.contains(bf16_name), qPrintable(i.out));
        QVERIFY2(i.out.contains("convert --to gguf → ") && i.out.contains("-BF16.gguf"), qPrintable(i.out));
        const auto j = run_amn({"inspect", in, "--json"});
        QVERIFY2(j.exit_code == 0, qPrintable(j.err));
        const QJsonObject outs =
            QJsonDocument::fromJson(j.out.toUtf8()).object().value("hf_gguf").toObject().value("outputs").toObject();
        QCOMPARE(QFileInfo(outs.value("mmproj").toString()).fileName(), bf16_name);
        QVERIFY(outs.value("text").toString().endsWith("-BF16.gguf"));
        QCOMPARE(outs.value("mmproj_error").toString(), QString());
    }

    // A real client: llama.cpp's llama-mtmd-cli (AMN_LLAMA_BIN, default /work/llama/build/bin; skipped
    // without it — build its llama-mtmd-cli target) loads amn's text GGUF with amn's mmproj, encodes
    // a 56×56 image and decodes its tokens into the text model (random weights: the words are
    // noise). Gemma 3's projector pools the 4×4 patches by the scale factor 2 written: 4 tokens.
    void mtmdLoads_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("tokens");  // n_tokens_batch of the image, "" = any
        QTest::newRow("gemma3") << "gemma-3-4b-pt" << "4";
        QTest::newRow("qwen2.5-vl") << "Qwen2.5-VL-7B-Instruct" << "";
        QTest::newRow("qwen2-vl") << "Qwen2-VL-2B-Instruct" << "";
    }
    void mtmdLoads() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QString, tokens);
        const QString bin = qEnvironmentVariableIsSet("AMN_LLAMA_BIN") ? qEnvironmentVariable("AMN_LLAMA_BIN")
                                                                        : QStringLiteral("/work/llama/build/bin");
        const QString tool = bin + "/llama-mtmd-cli";
        if (!QFileInfo::exists(tool)) QSKIP("llama-mtmd-cli missing (AMN_LLAMA_BIN: llama.cpp's build/bin)");
        QVERIFY2(!mm_models().isEmpty(), "tests/core/hf_mmproj_models.py --inputs-only failed");
        QTemporaryDir tmp;
        const QString text = tmp.path() + "/t.gguf", mm = tmp.path() + "/mm.gguf";
        auto r = run_amn({"convert", mm_models() + "/" + input, "--to", "gguf:F32", "-o", text, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run_amn({"convert", mm_models() + "/" + input, "--to", "gguf:F16", "--mmproj", "-o", mm, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QStringList args{"-m", text, "--mmproj", mm, "--image", mm_models() + "/image.png", "-p", "Describe", "-n", "2",
                         "--temp", "0", "-t", "2", "-c", "512", "--no-warmup", "-lv", "4"};
        if (input.startsWith("gemma")) args << "--chat-template" << "gemma";  // the borrowed Llama 2 tokenizer has none
        const auto e = run(tool, args);
        const QString log = e.err + e.out;
        QVERIFY2(e.exit_code == 0, qPrintable(log.right(2000)));
        QVERIFY2(log.contains("image decoded"), qPrintable(log.right(2000)));
        if (!tokens.isEmpty()) QVERIFY2(log.contains("n_tokens_batch = " + tokens + "\n"), qPrintable(log.right(2000)));
    }

    // Bad input: --mmproj on a folder without a vision tower (the text-only Qwen3 fixture; the
    // Gemma 3 folder with vision_config removed), a vision config or preprocessor missing a key
    // the converter requires: exit 1, one line naming it, nothing written; the input untouched.
    void badInput_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("drop");  // "vision_config", "vision_config.KEY", "preprocessor_config.json" or "" (a text model)
        QTest::addColumn<QString>("named");
        QTest::newRow("text model") << "" << "" << "Qwen3ForCausalLM has no vision projector";
        QTest::newRow("no vision_config") << "gemma-3-4b-pt" << "vision_config" << "no vision_config";
        QTest::newRow("no patch_size") << "gemma-3-4b-pt" << "vision_config.patch_size" << "vision_config.patch_size";
        QTest::newRow("no fullatt_block_indexes") << "Qwen2.5-VL-7B-Instruct" << "vision_config.fullatt_block_indexes"
                                                  << "vision_config.fullatt_block_indexes";
        QTest::newRow("no num_heads") << "Qwen2-VL-2B-Instruct" << "vision_config.num_heads" << "vision_config.num_heads";
        QTest::newRow("no image_mean") << "Qwen2.5-VL-7B-Instruct" << "preprocessor_config.json" << "image_mean";
    }
    void badInput() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QString, drop);
        QFETCH(QString, named);
        QVERIFY2(!mm_models().isEmpty(), "tests/core/hf_mmproj_models.py --inputs-only failed");
        QTemporaryDir tmp;
        QString in;
        if (input.isEmpty()) {
            in = tmp.path() + "/Qwen3-0.6B";
            QVERIFY(copy_dir(dir + "/inputs/Qwen3-0.6B", in));
        } else {
            in = copy_case(tmp, input);
            QVERIFY(!in.isEmpty());
        }
        if (drop == "preprocessor_config.json") {
            QVERIFY(QFile::remove(in + "/" + drop));
        } else if (!drop.isEmpty()) {
            QFile f(in + "/config.json");
            QVERIFY(f.open(QIODevice::ReadOnly));
            QJsonObject cfg = QJsonDocument::fromJson(f.readAll()).object();
            f.close();
            if (drop == "vision_config") {
                cfg.remove("vision_config");
            } else {
                QJsonObject vc = cfg.value("vision_config").toObject();
                QVERIFY(vc.contains(drop.mid(14)));
                vc.remove(drop.mid(14));
                cfg.insert("vision_config", vc);
            }
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(cfg).toJson());
        }
        const QStringList before = QDir(tmp.path()).entryList(QDir::Files);
        const auto r = run_amn({"convert", in, "--to", "gguf:f16", "--mmproj", "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), before);
        const auto o = run_amn({"convert", in, "--to", "gguf:f16", "--mmproj", "-o", tmp.path() + "/o.gguf", "--quiet"});
        QCOMPARE(o.exit_code, 1);
        QVERIFY(!QFileInfo::exists(tmp.path() + "/o.gguf"));
    }
};

QTEST_GUILESS_MAIN(TestCliHfMmproj)
#include "test_cli_hf_mmproj.moc"
