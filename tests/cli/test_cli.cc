// SPDX-License-Identifier: MIT OR Apache-2.0
// amn as a user runs it: verbs, aliases, exit codes, one-line errors,
// --json, --help, and that a failed run leaves no output behind.
#include "test_support.hpp"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <csignal>
#include <QElapsedTimer>
#include <QProcess>
#include <filesystem>

namespace fs = std::filesystem;
using amn::test::run_amn;

namespace {
QString sample() { return QString::fromStdString(amn::test::source_dir() + "/fixtures/sample/tiny-llama-fp8"); }
QString fixtures() { return QString::fromStdString(amn::test::source_dir() + "/fixtures"); }
}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void versionAndHelp();
    void usageErrorsExitTwo_data();
    void usageErrorsExitTwo();
    void inspectSample();
    void inspectJson();
    void parseTableAndJson();
    void rememberSampleIsBitExact();
    void rememberAliasAndTo();
    void rememberReferenceCases();
    void brokenInputsExitOne_data();
    void brokenInputsExitOne();
    void orphanWeightNamesTensorAndWritesNothing();
    void forceIsNeededToOverwrite();
    void interruptCancelsAndCleansUp();
    void simdTargetPinKeepsBytes();
};

void TestCli::versionAndHelp() {
    auto r = run_amn({"--version"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.startsWith("amn (anamnesis) "));
    QVERIFY(r.out.contains("SIMD target: "));
    r = run_amn({"--help"});
    QCOMPARE(r.exit_code, 0);
    for (const char* verb : {"parse", "inspect", "remember", "dequantize", "info"}) QVERIFY2(r.out.contains(verb), verb);
    for (const char* verb : {"parse", "inspect", "info", "remember", "dequantize"}) {
        r = run_amn({verb, "--help"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.startsWith("usage: amn "), verb);
    }
    r = run_amn({});
    QCOMPARE(r.exit_code, 2);
}

void TestCli::usageErrorsExitTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("unknown verb") << QStringList{"frobnicate", "x"};
    QTest::newRow("no model") << QStringList{"inspect"};
    QTest::newRow("two models") << QStringList{"parse", "a", "b"};
    QTest::newRow("unknown flag") << QStringList{"inspect", "--bogus", sample()};
    QTest::newRow("bad --to") << QStringList{"remember", "--to", "int3", sample()};
    QTest::newRow("-o without value") << QStringList{"remember", sample(), "-o"};
    QTest::newRow("bad --threads") << QStringList{"remember", "--threads", "zero", sample()};
}

void TestCli::usageErrorsExitTwo() {
    QFETCH(QStringList, args);
    const auto r = run_amn(args);
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.count('\n'), 1);
}

void TestCli::inspectSample() {
    for (const char* verb : {"inspect", "info"}) {
        const auto r = run_amn({verb, sample()});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.contains("FP8 (E4M3), 128\u00d7128 blocks, BF16 scales \u2014 7 tensor(s)"), qPrintable(r.out));
        QVERIFY(r.out.contains("7 quantized, 9 companion(s), 3 passthrough"));
        QVERIFY(r.out.contains("Lethe took"));
        QVERIFY(r.err.isEmpty());
    }
}

void TestCli::inspectJson() {
    const auto r = run_amn({"inspect", "--json", sample()});
    QCOMPARE(r.exit_code, 0);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o["format"].toString(), QString("safetensors"));
    QCOMPARE(o["tensors"].toObject()["quantized"].toInt(), 7);
    QCOMPARE(o["tensors"].toObject()["companions"].toInt(), 9);
    QCOMPARE(o["schemes"].toArray().size(), 1);
    QCOMPARE(o["schemes"].toArray()[0].toObject()["id"].toString(), QString("fp8-block"));
    QCOMPARE(o["quantization_config"].toObject()["quant_method"].toString(), QString("fp8"));
    const qint64 qbf16 = o["quantized_bf16_bytes"].toInteger(), qst = o["quantized_stored_bytes"].toInteger();
    QCOMPARE(o["lethe_took_bytes"].toInteger(), qbf16 - qst);
    QCOMPARE(o["bf16_bytes"].toInteger(), 2 * o["parameters"].toInteger());
}

void TestCli::parseTableAndJson() {
    auto r = run_amn({"parse", sample()});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains("model.layers.0.mlp.down_proj.weight_scale_inv"));
    QVERIFY(r.out.contains("NAME"));
    r = run_amn({"parse", "--json", sample()});
    QCOMPARE(r.exit_code, 0);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const auto ts = o["tensors"].toArray();
    QCOMPARE(ts.size(), 19);
    int quantized = 0, scales = 0, pass = 0;
    for (const auto& t : ts) {
        const auto role = t.toObject()["role"].toString();
        quantized += role == "quantized";
        scales += role == "scale";
        pass += role == "passthrough";
    }
    QCOMPARE(quantized, 7);
    QCOMPARE(scales, 9);
    QCOMPARE(pass, 3);
    QCOMPARE(o["metadata"].toObject()["format"].toString(), QString("pt"));
}

void TestCli::rememberSampleIsBitExact() {
    QTemporaryDir tmp;
    const auto r = run_amn({"remember", sample(), "-o", tmp.filePath("out")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.err.isEmpty());  // no progress bar when stderr is not a terminal
    const auto diff = amn::test::compare_safetensors(tmp.filePath("out/model.safetensors").toStdString(),
                                                     (fixtures() + "/sample/expected/tiny-llama-fp8-bf16.safetensors").toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestCli::rememberAliasAndTo() {
    QTemporaryDir tmp;
    const auto r = run_amn({"dequantize", "--to", "f16", "--quiet", "--threads", "1", sample(), "-o", tmp.filePath("x.safetensors")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.isEmpty());
    const auto diff = amn::test::compare_safetensors(tmp.filePath("x.safetensors").toStdString(),
                                                     (fixtures() + "/sample/expected/tiny-llama-fp8-f16.safetensors").toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
    QVERIFY(QFile::exists(tmp.filePath("config.json")));
}

void TestCli::rememberReferenceCases() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    for (const auto& dir : amn::test::reference_cases("fp8")) {
        QTemporaryDir tmp;
        const auto r = run_amn({"remember", dir + "/input/model.safetensors", "-o", tmp.filePath("o.safetensors")});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto diff = amn::test::compare_safetensors(tmp.filePath("o.safetensors").toStdString(), (dir + "/expected.safetensors").toStdString());
        QVERIFY2(diff.empty(), diff.c_str());
    }
}

void TestCli::brokenInputsExitOne_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("cause");
    QTest::newRow("empty") << QByteArray() << "shorter than the 8-byte header length";
    QTest::newRow("header past EOF") << QByteArray("\xff\x00\x00\x00\x00\x00\x00\x00{}", 10) << "runs past the end of the file";
    QTest::newRow("malformed JSON") << QByteArray("\x05\x00\x00\x00\x00\x00\x00\x00{\"a\":", 13) << "not a valid JSON object";
}

void TestCli::brokenInputsExitOne() {
    QFETCH(QByteArray, content);
    QFETCH(QString, cause);
    QTemporaryDir tmp;
    QFile f(tmp.filePath("broken.safetensors"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    for (const char* verb : {"parse", "inspect", "remember"}) {
        const auto r = run_amn({verb, f.fileName()});
        QCOMPARE(r.exit_code, 1);
        QCOMPARE(r.err.count('\n'), 1);  // one line
        QVERIFY2(r.err.contains(f.fileName()) && r.err.contains(cause), qPrintable(r.err));
    }
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden | QDir::Dirs | QDir::NoDotAndDotDot), QStringList({"broken.safetensors"}));
    const auto r = run_amn({"inspect", tmp.filePath("missing.safetensors")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.err.contains("no such file"));
}

void TestCli::orphanWeightNamesTensorAndWritesNothing() {
    QTemporaryDir tmp;
    const std::string header = R"({"layer.weight":{"dtype":"F8_E4M3","shape":[2,2],"data_offsets":[0,4]}})";
    std::vector<std::uint8_t> f(8 + header.size() + 4, 0x38);  // 0x38 = 1.0 in E4M3
    for (int i = 0; i < 8; ++i) f[std::size_t(i)] = std::uint8_t(std::uint64_t(header.size()) >> (8 * i));
    std::memcpy(f.data() + 8, header.data(), header.size());
    amn::test::write_file(tmp.filePath("m.safetensors").toStdString(), f);
    auto r = run_amn({"inspect", tmp.filePath("m.safetensors")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains("cannot convert"));
    r = run_amn({"remember", tmp.filePath("m.safetensors")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("layer.weight: FP8 weight without a scale"), qPrintable(r.err));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden), QStringList({"m.safetensors"}));
}

void TestCli::forceIsNeededToOverwrite() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("o.safetensors");
    QCOMPARE(run_amn({"remember", fixtures() + "/fp8/e5m2_channel/input/model.safetensors", "-o", out}).exit_code, 0);
    const auto r = run_amn({"remember", fixtures() + "/fp8/e5m2_channel/input/model.safetensors", "-o", out});
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.err.contains("--force"));
    QCOMPARE(run_amn({"remember", "--force", fixtures() + "/fp8/e5m2_channel/input/model.safetensors", "-o", out}).exit_code, 0);
}

void TestCli::interruptCancelsAndCleansUp() {
    // 256 MiB of FP8 (per-tensor scale): long enough to interrupt mid-run.
    QTemporaryDir tmp;
    const int rows = 16384, cols = 16384;
    const std::string header = "{\"w.weight\":{\"dtype\":\"F8_E4M3\",\"shape\":[" + std::to_string(rows) + "," + std::to_string(cols) +
                               "],\"data_offsets\":[0," + std::to_string(std::int64_t(rows) * cols) +
                               "]},\"w.weight_scale\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[" +
                               std::to_string(std::int64_t(rows) * cols) + "," + std::to_string(std::int64_t(rows) * cols + 4) + "]}}";
    {
        QFile f(tmp.filePath("big.safetensors"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        char len[8];
        for (int i = 0; i < 8; ++i) len[i] = char(std::uint64_t(header.size()) >> (8 * i));
        f.write(len, 8);
        f.write(header.data(), qint64(header.size()));
        QByteArray row(cols, '\x38');
        for (int r = 0; r < rows; ++r) f.write(row);
        const float one = 1.0f;
        f.write(reinterpret_cast<const char*>(&one), 4);
    }
    QDir().mkdir(tmp.filePath("out"));
    QProcess p;
    // Named temporaries (the fallback of O_TMPFILE), so the test can see when
    // the output is under way; test_cli_mutations kills O_TMPFILE runs.
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("AMN_NO_O_TMPFILE", "1");
    p.setProcessEnvironment(env);
    p.start(QString::fromStdString(amn::test::cli_path()),
            {"remember", "--threads", "1", tmp.filePath("big.safetensors"), "-o", tmp.filePath("out/big.safetensors")});
    QVERIFY(p.waitForStarted());
    // Interrupt once the temporary output exists (the run is under way).
    QElapsedTimer t;
    t.start();
    while (QDir(tmp.filePath("out")).entryList(QDir::Files | QDir::Hidden).isEmpty() && t.elapsed() < 20000 &&
           p.state() == QProcess::Running)
        QTest::qWait(2);
    QVERIFY2(p.state() == QProcess::Running, "finished before it could be interrupted");
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("cancelled"), qPrintable(err));
    QCOMPARE(QDir(tmp.filePath("out")).entryList(QDir::Files | QDir::Hidden), QStringList());
}


// AMN_SIMD_TARGET pins every kernel to one Highway target: --version names
// it, remember writes the reference bytes on each, a bogus name is a usage
// error that lists what this build and CPU offer.
void TestCli::simdTargetPinKeepsBytes() {
    const QString amn = QString::fromStdString(amn::test::cli_path());
    auto r = amn::test::run(amn, {"--version"}, 60000, {"AMN_SIMD_TARGET=bogus"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.startsWith("amn: AMN_SIMD_TARGET=bogus: not a SIMD target"), qPrintable(r.err));
    const int open = r.err.indexOf("(available: "), close = r.err.lastIndexOf(')');
    QVERIFY(open > 0 && close > open);
    const QStringList targets = r.err.mid(open + 12, close - open - 12).split(", ");
    QVERIFY2(!targets.isEmpty() && !targets.front().isEmpty(), qPrintable(r.err));
    const auto expected = (fixtures() + "/sample/expected/tiny-llama-fp8-bf16.safetensors").toStdString();
    for (const QString& t : targets) {
        r = amn::test::run(amn, {"--version"}, 60000, {"AMN_SIMD_TARGET=" + t.toLower()});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.contains("SIMD target: " + t + "\n"), qPrintable(r.out));
        QTemporaryDir tmp;
        r = amn::test::run(amn, {"remember", sample(), "-o", tmp.filePath("out")}, 300000, {"AMN_SIMD_TARGET=" + t});
        QCOMPARE(r.exit_code, 0);
        const auto diff = amn::test::compare_safetensors(tmp.filePath("out/model.safetensors").toStdString(), expected);
        QVERIFY2(diff.empty(), qPrintable(t + ": " + QString::fromStdString(diff)));
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
