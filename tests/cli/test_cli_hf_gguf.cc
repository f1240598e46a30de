// SPDX-License-Identifier: MIT OR Apache-2.0
// amn convert DIR --to gguf[:T] / amn forget DIR --to gguf:FTYPE as a user
// runs them, judged by llama.cpp's own outputs:
// - every output of the shared hf-gguf fixtures (convert_hf_to_gguf.py at
//   34af94c) byte-identical, through every amn command the manifest lists —
//   checked by the fixtures' own checker (../shared/tools/check_hf_gguf.py,
//   which names the first difference);
// - forget in one pass = convert to the lossless type, then forget of that
//   GGUF (which test_cli_forget proves byte-identical to llama-quantize): so
//   the one pass is convert_hf_to_gguf.py + llama-quantize, without the file;
// - the default output lands beside the folder, named as gguf-py names it,
//   and the input folder is untouched;
// - a corrupt folder (truncated or malformed tokenizer files, a config that
//   disagrees with the weights, missing or truncated shards, no tokenizer,
//   an unknown architecture) is exit 1 with one line naming the file and the
//   cause, nothing at the output path, no temporary file, input untouched;
// - kill -9 at random points of a conversion leaves nothing after the next run;
// - every scheme amn forget writes, and AWQ, converts as its dequantized twin
//   folder does (decoded independently by tests/cli/hf_scheme_folders.py).
#include "hf_gguf_support.hpp"
#include "test_support.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <QProcess>
#include <QThread>

#include <functional>
#include <QRandomGenerator>
#include <cstring>

using amn::test::copy_dir;
using amn::test::hf_gguf_dir;
using amn::test::run;
using amn::test::run_amn;
using amn::test::sha256_of;
using amn::test::write_bytes;

namespace {



// The plain folders the schemes are made from (tests/cli/hf_scheme_folders.py base, seeded, the
// Llama-2 tokenizer of the shared fixtures), made once: "wide" BF16 hidden 192 / intermediate 320
// (partial FP8 blocks and double-quant blocks), "narrow" BF16 128 / 256 (rows 128-groups divide),
// "wide16" the F16 form of "wide" (make_awq_folder.py reads F16); empty when the script failed.
QString scheme_bases(const QString& tokenizer) {
    static QTemporaryDir dir;
    static const bool made = [&] {
        const QString script = QString::fromStdString(amn::test::source_dir()) + "/tests/cli/hf_scheme_folders.py";
        for (const QStringList& b : {QStringList{"wide", "bf16", "192", "320"}, QStringList{"narrow", "bf16", "128", "256"},
                                     QStringList{"wide16", "f16", "192", "320"}})
            if (run(QString::fromStdString(amn::test::python()),
                    {script, "base", dir.path() + "/" + b[0] + "/Tiny-Llama", tokenizer, b[1], b[2], b[3]})
                    .exit_code != 0)
                return false;
        return true;
    }();
    return made ? dir.path() : QString();
}


// Every file under `dir` with its sha256, for "the input is untouched".
QMap<QString, QByteArray> tree_hashes(const QString& dir) {
    QMap<QString, QByteArray> m;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        m.insert(QDir(dir).relativeFilePath(p), sha256_of(p));
    }
    return m;
}


using Edit = std::function<void(const QString& dir)>;

QByteArray read_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
void truncate_to(const QString& path, double fraction) {
    const QByteArray b = read_bytes(path);
    write_bytes(path, b.left(static_cast<int>(b.size() * fraction)));
}
void replace_in(const QString& path, const QByteArray& from, const QByteArray& to) {
    QByteArray b = read_bytes(path);
    QVERIFY2(b.contains(from), qPrintable(path + " lacks " + QString::fromUtf8(from)));
    b.replace(from, to);
    write_bytes(path, b);
}

}  // namespace

Q_DECLARE_METATYPE(Edit)

class TestCliHfGguf : public QObject {
    Q_OBJECT

private slots:
    // The whole manifest, every amn command it lists: byte-identical.
    void fixturesByteIdentical() {
        SKIP_WITHOUT_HF_GGUF(dir);
        const QString checker = QString::fromStdString(amn::test::shared_fixtures_dir()) + "/../tools/check_hf_gguf.py";
        if (!QFileInfo::exists(checker)) QFAIL("shared/tools/check_hf_gguf.py missing");
        const auto r = run(QString::fromStdString(amn::test::python()),
                           {checker, QString::fromStdString(amn::test::cli_path()), dir}, 900000);
        qInfo().noquote() << r.out.trimmed();
        if (r.exit_code != 0) qInfo().noquote() << r.err.trimmed();
        QCOMPARE(r.exit_code, 0);
        QVERIFY(r.out.contains("cases byte-identical"));
    }

    // forget DIR --to gguf:FTYPE in one pass = convert to the lossless type + forget of that file.
    void forgetOnePass_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("lossless");
        QTest::addColumn<QString>("ftype");
        QTest::newRow("llama3 bf16 Q4_K_M") << "Meta-Llama-3-8B-Instruct" << "BF16" << "Q4_K_M";
        QTest::newRow("llama2 f16 Q5_K_S") << "Llama-2-7b-hf" << "F16" << "Q5_K_S";
        QTest::newRow("qwen3 tied Q6_K") << "Qwen3-0.6B" << "BF16" << "Q6_K";
        QTest::newRow("mixtral moe Q3_K_M") << "Mixtral-8x7B-v0.1" << "BF16" << "Q3_K_M";
        QTest::newRow("gptq → f16 Q4_0") << "Llama-2-7B-GPTQ" << "F16" << "Q4_0";
        QTest::newRow("modelopt fp8 IQ4_NL") << "Mistral-7B-v0.1-FP8" << "BF16" << "IQ4_NL";
        QTest::newRow("bnb nf4 (quantized twice) Q4_K_S") << "Mistral-7B-v0.1-bnb-4bit" << "BF16" << "Q4_K_S";
        QTest::newRow("w4a16 Q2_K") << "Mistral-7B-v0.1-quantized.w4a16" << "BF16" << "Q2_K";
    }
    void forgetOnePass() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QString, lossless);
        QFETCH(QString, ftype);
        const QString in = dir + "/inputs/" + input;
        if (!QFileInfo::exists(in)) QSKIP("case not in the fixtures");
        QTemporaryDir tmp;
        const QString one = tmp.path() + "/one.gguf", mid = tmp.path() + "/mid.gguf", two = tmp.path() + "/two.gguf";
        auto r = run_amn({"forget", in, "--to", "gguf:" + ftype, "-o", one, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run_amn({"convert", in, "--to", "gguf:" + lossless, "-o", mid, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run_amn({"forget", mid, "--to", "gguf:" + ftype, "-o", two, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(one), sha256_of(two));
    }

    // ModelOpt NVFP4 repacked into GGUF NVFP4 (no rounding), against the real converter's files:
    // a tiny llama folder made by tests/cli/hf_nvfp4_model.py (seeded), converted by
    // convert_hf_to_gguf.py (34af94c, the shared hf_shim) with --outtype f16 / bf16 / q8_0;
    // their sha256 recorded here. Then the one-pass forget = convert + forget of that file.
    void nvfp4Repacked() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QTemporaryDir tmp;
        const QString in = tmp.path() + "/Llama-NVFP4-tiny";
        const auto g = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/hf_nvfp4_model.py", in,
                            dir + "/inputs/Llama-2-7b-hf"});
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        const QList<QPair<QString, QByteArray>> want{
            {"F16", "dc981c6f1e20f43fff1552b5363a55be2693e4966ede83b19d9c9ae932f91344"},
            {"BF16", "05b3b3448b390e97de2a08928215b3c374a2e8a9df8bc7db2ff9ad7666c14d8d"},
            {"Q8_0", "ca3c4c1ae7c9c2b827c13b42c028b6c4375da289f02e73abfb4de4a89162fd5c"}};
        for (const auto& [type, sha] : want) {
            const QString out = tmp.path() + "/" + type + ".gguf";
            const auto r = run_amn({"convert", in, "--to", "gguf:" + type, "-o", out, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QCOMPARE(sha256_of(out), sha);
        }
        const QString one = tmp.path() + "/one.gguf", two = tmp.path() + "/two.gguf";
        auto r = run_amn({"forget", in, "--to", "gguf:Q4_K_M", "-o", one, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run_amn({"forget", tmp.path() + "/BF16.gguf", "--to", "gguf:Q4_K_M", "-o", two, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(one), sha256_of(two));
    }

    // Issue #24, the dequantized-folder route for every scheme amn forget writes (and AWQ GEMM):
    // Q = a tiny plain Llama quantized by `amn forget --to SCHEME` (bytes proven equal to the
    // libraries by test_cli_forget_st) or fixtures/make_awq_folder.py; D = Q's dequantized twin
    // of the same folder name, decoded by tests/cli/hf_scheme_folders.py (numpy, the libraries'
    // formulas, never amn; D within a quarter of the largest |weight| of the plain folder, a guard
    // against a decoder and amn agreeing on a wrong reading). For the schemes the converter refuses
    // (bitsandbytes, AWQ) D is the oracle of ../shared/fixtures/hf-gguf/README.md; for those it
    // dequantizes itself (compressed-tensors, DeepSeek fp8) D holds its arithmetic (f32 products)
    // and its tensor order (pack-quantized weights appended: a second shard). amn's conversion of
    // plain folders is the converter's (fixturesByteIdentical), so convert Q = convert D proves
    // convert Q = the converter's file for D; forget Q = forget D likewise for convert +
    // llama-quantize.
    void schemesDequantizedRoute_data() {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QStringList>("scheme");  // amn forget --to …, or {"awq"}
        QTest::newRow("bnb-nf4") << "wide" << QStringList{"bnb-nf4"};
        QTest::newRow("bnb-nf4 double quant") << "wide" << QStringList{"bnb-nf4", "--double-quant"};
        QTest::newRow("bnb-fp4") << "wide" << QStringList{"bnb-fp4"};
        QTest::newRow("bnb-fp4 double quant blocksize 128") << "wide" << QStringList{"bnb-fp4", "--double-quant", "--blocksize", "128"};
        QTest::newRow("bnb-int8") << "wide" << QStringList{"bnb-int8"};
        QTest::newRow("fp8 tensor") << "wide" << QStringList{"fp8", "--granularity", "tensor"};
        QTest::newRow("fp8 channel") << "wide" << QStringList{"fp8", "--granularity", "channel"};
        QTest::newRow("fp8 block") << "wide" << QStringList{"fp8", "--granularity", "block"};
        QTest::newRow("fp8-block-deepseek") << "wide" << QStringList{"fp8-block-deepseek"};
        QTest::newRow("fp8-block-deepseek ue8m0") << "wide" << QStringList{"fp8-block-deepseek", "--ue8m0"};
        QTest::newRow("w4a16") << "narrow" << QStringList{"w4a16"};
        QTest::newRow("w4a16-asym") << "narrow" << QStringList{"w4a16-asym"};
        QTest::newRow("w8a16") << "narrow" << QStringList{"w8a16"};
        QTest::newRow("w8a16-asym") << "narrow" << QStringList{"w8a16-asym"};
        QTest::newRow("awq gemm") << "wide16" << QStringList{"awq"};
    }
    void schemesDequantizedRoute() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, base);
        QFETCH(QStringList, scheme);
        const QString bases = scheme_bases(dir + "/inputs/Llama-2-7b-hf");
        QVERIFY2(!bases.isEmpty(), "tests/cli/hf_scheme_folders.py base failed");
        const QString src = QString::fromStdString(amn::test::source_dir()), py = QString::fromStdString(amn::test::python());
        const QString from = bases + "/" + base + "/Tiny-Llama";
        QTemporaryDir tmp;
        const QString q = tmp.path() + "/q/Tiny-Llama", d = tmp.path() + "/d/Tiny-Llama";
        const auto made = scheme == QStringList{"awq"} ? run(py, {src + "/fixtures/make_awq_folder.py", from, q})
                                                       : run_amn(QStringList{"forget", from, "--to"} + scheme + QStringList{"-o", q, "--quiet"});
        QVERIFY2(made.exit_code == 0, qPrintable(made.err));
        const auto dq = run(py, {src + "/tests/cli/hf_scheme_folders.py", "dequantize", q, d, "--near", from});
        QVERIFY2(dq.exit_code == 0, qPrintable(dq.err));
        // Under ASan the F32 conversion only (the same decode; the encoders have their own suites).
        const QStringList hows = amn::test::kSanitized ? QStringList{"convert F32"}
                                                       : QStringList{"convert F32", "convert Q8_0", "forget Q4_K_M"};
        for (const QString& how : hows) {
            const QStringList w = how.split(' ');
            const QString a = tmp.path() + "/q-" + w[1] + ".gguf", b = tmp.path() + "/d-" + w[1] + ".gguf";
            auto r = run_amn({w[0], q, "--to", "gguf:" + w[1], "-o", a, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            r = run_amn({w[0], d, "--to", "gguf:" + w[1], "-o", b, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            if (sha256_of(a) != sha256_of(b)) {
                const auto diff = run(py, {src + "/tests/cli/hf_scheme_folders.py", "diff", a, b});
                QFAIL(qPrintable(how + " Q vs D: " + diff.out.trimmed() + diff.err.trimmed()));
            }
        }
    }

    // pytorch_model-*.bin shards + index (tests/cli/hf_pytorch_bin_model.py, torch.save of the
    // Llama-2 fixture's tensors), read without running pickle code. The converter (34af94c, its
    // torch.load called without mmap= on torch 1.13) wrote: in name order the very bytes of the
    // safetensors folder's F16 output (the manifest's), in reverse order (it follows the
    // pickled dict order of a .bin shard) 42cae5de….
    void pytorchBinShards_data() {
        QTest::addColumn<bool>("reverse");
        QTest::addColumn<QByteArray>("sha");
        QTest::newRow("name order") << false << QByteArray("24742334ad77cd56f975c7a95282cd545231034ee21873502a9cd483433916b6");
        QTest::newRow("reverse order") << true << QByteArray("42cae5de37c5f9278232a15581b932ec92033936352a71163cab15e11e850d7f");
    }
    void pytorchBinShards() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(bool, reverse);
        QFETCH(QByteArray, sha);
        QTemporaryDir tmp;
        const QString in = tmp.path() + "/Llama-2-7b-hf", out = tmp.path() + "/out.gguf";
        QStringList args{QString::fromStdString(amn::test::source_dir()) + "/tests/cli/hf_pytorch_bin_model.py",
                         dir + "/inputs/Llama-2-7b-hf", in};
        if (reverse) args << "--reverse";
        const auto g = run(QString::fromStdString(amn::test::python()), args);
        if (g.exit_code != 0 && g.err.contains("No module named 'torch'")) QSKIP("python3-torch missing");
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        QVERIFY(QFileInfo::exists(in + "/pytorch_model.bin.index.json"));
        const auto r = run_amn({"convert", in, "--to", "gguf:F16", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), sha);
    }

    // --vocab-only: key/values and tokenizer, no tensors, no padding (gguf-py). References:
    // `convert_hf_to_gguf.py CASE --vocab-only --outfile X` at 34af94c.
    void vocabOnly_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QByteArray>("sha");
        QTest::newRow("sentencepiece") << "Llama-2-7b-hf" << QByteArray("c2e78cb7eeb4f50f0b9ea3606ab9b4bbb1481879c2ea24d9ba566784481ec56a");
        QTest::newRow("bpe") << "Qwen3-0.6B" << QByteArray("eb234ae2f72092aa7f01e8cb61c561bbdd247ff781f224211254c6c2fe665ab3");
    }
    void vocabOnly() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QByteArray, sha);
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/v.gguf";
        const auto r = run_amn({"convert", dir + "/inputs/" + input, "--to", "gguf", "--vocab-only", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), sha);
    }

    // No -o: beside the folder, named by gguf-py's naming_convention; the folder untouched.
    void defaultOutputBesideFolder() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QTemporaryDir tmp;
        const QString in = tmp.path() + "/Meta-Llama-3-8B-Instruct";
        QVERIFY(copy_dir(dir + "/inputs/Meta-Llama-3-8B-Instruct", in));
        const auto before = tree_hashes(in);
        const auto r = run_amn({"convert", in, "--to", "gguf", "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(tree_hashes(in), before);
        const QStringList made = QDir(tmp.path()).entryList({"*.gguf"}, QDir::Files);
        QCOMPARE(made.size(), 1);
        // The name convert_hf_to_gguf.py (34af94c) gives the same folder without --outfile
        // (`convert_hf_to_gguf.py Meta-Llama-3-8B-Instruct --outtype auto` → into the folder, log:
        // "Model successfully exported to Meta-Llama-3-8B-Instruct/Meta-Llama-3-8.2M-8b-Instruct-BF16.gguf").
        QCOMPARE(made[0], QString("Meta-Llama-3-8.2M-8b-Instruct-BF16.gguf"));
    }


    void corruptFolder_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<QString>("names");   // the file (or tensor) the error line must name
        QTest::addColumn<QString>("cause");   // a word of the cause
        const QString l3 = "Meta-Llama-3-8B-Instruct", l2 = "Llama-2-7b-hf";
        QTest::newRow("tokenizer.json truncated") << l3 << Edit([](const QString& d) { truncate_to(d + "/tokenizer.json", 0.5); })
                                                  << "tokenizer.json" << "JSON";
        QTest::newRow("tokenizer.json not JSON") << l3 << Edit([](const QString& d) { write_bytes(d + "/tokenizer.json", "{\"model\": [}"); })
                                                 << "tokenizer.json" << "JSON";
        QTest::newRow("tokenizer.json not BPE") << l3
                                                << Edit([](const QString& d) { replace_in(d + "/tokenizer.json", "\"type\": \"BPE\"", "\"type\": \"Quux\""); })
                                                << "tokenizer.json" << "Quux";
        QTest::newRow("tokenizer_config.json malformed") << l3 << Edit([](const QString& d) { truncate_to(d + "/tokenizer_config.json", 0.3); })
                                                         << "tokenizer_config.json" << "JSON";
        QTest::newRow("tokenizer.model truncated") << l2 << Edit([](const QString& d) { truncate_to(d + "/tokenizer.model", 0.4); })
                                                   << "tokenizer.model" << "";
        QTest::newRow("no tokenizer at all") << l2 << Edit([](const QString& d) {
            for (const char* f : {"tokenizer.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"}) QFile::remove(d + "/" + f);
        }) << "tokenizer" << "no tokenizer";
        QTest::newRow("hidden_size disagrees") << l3 << Edit([](const QString& d) { replace_in(d + "/config.json", "\"hidden_size\": 32", "\"hidden_size\": 64"); })
                                               << "config.json" << "hidden_size";
        QTest::newRow("more layers than tensors") << l3
                                                  << Edit([](const QString& d) { replace_in(d + "/config.json", "\"num_hidden_layers\": 2", "\"num_hidden_layers\": 3"); })
                                                  << "config.json" << "layer";
        QTest::newRow("vocab_size below the tokenizer's") << l2
                                                          << Edit([](const QString& d) { replace_in(d + "/config.json", "\"vocab_size\": 32000", "\"vocab_size\": 31000"); })
                                                          << "" << "vocab";
        QTest::newRow("unknown architecture") << l3 << Edit([](const QString& d) { replace_in(d + "/config.json", "LlamaForCausalLM", "QuuxForCausalLM"); })
                                              << "config.json" << "QuuxForCausalLM";
        QTest::newRow("missing shard") << l2 << Edit([](const QString& d) { QFile::remove(d + "/model-00002-of-00002.safetensors"); })
                                       << "model-00002-of-00002.safetensors" << "";
        QTest::newRow("truncated shard") << l2 << Edit([](const QString& d) { truncate_to(d + "/model-00002-of-00002.safetensors", 0.7); })
                                         << "model-00002-of-00002.safetensors" << "";
        QTest::newRow("config.json not JSON") << l2 << Edit([](const QString& d) { write_bytes(d + "/config.json", "{\"architectures\": "); })
                                              << "config.json" << "JSON";
    }
    void corruptFolder() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(Edit, edit);
        QFETCH(QString, names);
        QFETCH(QString, cause);
        QTemporaryDir tmp;
        const QString in = tmp.path() + "/" + input, outdir = tmp.path() + "/out";
        QVERIFY(copy_dir(dir + "/inputs/" + input, in));
        QVERIFY(QDir().mkpath(outdir));
        edit(in);
        const auto before = tree_hashes(in);
        for (const QString& verb : {QString("convert"), QString("forget")}) {
            const QString out = outdir + "/out.gguf";
            const auto r = run_amn({verb, in, "--to", verb == "convert" ? "gguf:F16" : "gguf:Q4_K_M", "-o", out});
            QCOMPARE(r.exit_code, 1);
            const QStringList lines = r.err.trimmed().split('\n');
            QVERIFY2(lines.size() == 1, qPrintable(r.err));
            QVERIFY2(lines[0].startsWith("amn: error: "), qPrintable(r.err));
            QVERIFY2(names.isEmpty() || lines[0].contains(names), qPrintable(r.err));
            QVERIFY2(cause.isEmpty() || lines[0].contains(cause, Qt::CaseInsensitive), qPrintable(r.err));
            QVERIFY2(QDir(outdir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty(),
                     qPrintable(QDir(outdir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).join(" ")));
        }
        QCOMPARE(tree_hashes(in), before);
    }

    // kill -9 at random points, then the same command again: a complete file, no temporary left.
    void killNine() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QTemporaryDir tmp;
        const QString in = dir + "/inputs/Mixtral-8x7B-v0.1", out = tmp.path() + "/m.gguf";
        const QStringList args{"forget", in, "--to", "gguf:Q4_K_M", "-o", out, "--force", "--quiet"};
        const auto ref = run_amn(args);
        QVERIFY2(ref.exit_code == 0, qPrintable(ref.err));
        const QByteArray want = sha256_of(out);
        QFile::remove(out);
        auto* rng = QRandomGenerator::global();
        for (int i = 0; i < 8; ++i) {
            QProcess p;
            p.start(QString::fromStdString(amn::test::cli_path()), args);
            QVERIFY(p.waitForStarted());
            QThread::msleep(rng->bounded(1, 400));
            p.kill();  // SIGKILL
            p.waitForFinished();
        }
        const auto r = run_amn(args);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), want);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"m.gguf"});
    }

    // BF16 → BF16 is not a bit copy: gguf-py's BF16 writer sets the quiet bit of a
    // signaling NaN (convert_hf_to_gguf.py at 34af94c writes 0x7FC1 for a stored
    // 0x7F81; a quiet NaN 0xFFC1 stays). The Qwen3 folder with those two values
    // put at the start of one BF16 weight: the output differs from the plain
    // folder's in exactly those 4 bytes, holding C1 7F C1 FF — through convert
    // and through forget --to gguf:BF16.
    void bf16SignalingNanQuieted() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QTemporaryDir tmp;
        const QString in = tmp.path() + "/Qwen3-0.6B";
        QVERIFY(copy_dir(dir + "/inputs/Qwen3-0.6B", in));
        const QString plain = tmp.path() + "/plain.gguf";
        auto r = run_amn({"convert", in, "--to", "gguf:BF16", "-o", plain, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        {
            QFile f(in + "/model.safetensors");
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray bytes = f.readAll();
            quint64 n = 0;
            std::memcpy(&n, bytes.constData(), 8);
            const auto h = QJsonDocument::fromJson(bytes.mid(8, static_cast<qsizetype>(n))).object();
            const auto t = h.value("model.layers.0.mlp.down_proj.weight").toObject();
            QCOMPARE(t.value("dtype").toString(), QString("BF16"));
            const qint64 at = 8 + static_cast<qint64>(n) + t.value("data_offsets").toArray().at(0).toInteger();
            QVERIFY(f.seek(at));
            QCOMPARE(f.write(QByteArray("\x81\x7F\xC1\xFF", 4)), qint64(4));
        }
        for (const QString cmd : {"convert", "forget"}) {
            const QString out = tmp.path() + "/" + cmd + ".gguf";
            r = run_amn({cmd, in, "--to", "gguf:BF16", "-o", out, "--quiet"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QFile a(plain), b(out);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            const QByteArray x = a.readAll(), y = b.readAll();
            QCOMPARE(y.size(), x.size());
            qsizetype first = -1, last = -1;
            for (qsizetype i = 0; i < x.size(); ++i)
                if (x[i] != y[i]) {
                    if (first < 0) first = i;
                    last = i;
                }
            QVERIFY2(first >= 0 && last - first < 4, qPrintable(cmd));
            const qsizetype at = first - first % 2;  // the values are 2-byte aligned
            QCOMPARE(y.mid(at, 4), QByteArray("\xC1\x7F\xC1\xFF", 4));
        }
    }

};

QTEST_GUILESS_MAIN(TestCliHfGguf)
#include "test_cli_hf_gguf.moc"
