// SPDX-License-Identifier: MIT OR Apache-2.0
// issue 25: a config.json that contradicts the tensors of the bundled FP8
// sample. Each finding passed silently (exit 0, no word) or was misreported
// before; now each is a warning naming the conflict and the side believed
// (inspect text and --json, remember's stderr), or an error where the output
// bytes depend on it. Repeated keys are read as Python's json reads them:
// the last one wins, with a warning.
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run_amn;

namespace {

QString fixtures() { return QString::fromStdString(amn::test::source_dir() + "/fixtures"); }
QString sample() { return fixtures() + "/sample/tiny-llama-fp8"; }
QString expected_bf16() { return fixtures() + "/sample/expected/tiny-llama-fp8-bf16.safetensors"; }

// The sample's config.json, as text (duplicate keys cannot be made with QJsonObject).
QString sample_config() {
    QFile f(sample() + "/config.json");
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read the sample's config.json");
    return QString::fromUtf8(f.readAll());
}

// A copy of the sample in `dir` whose config.json has `from` replaced by `to` (once, and it must occur).
QString variant(const QTemporaryDir& dir, const QString& from, const QString& to) {
    const QString d = dir.filePath("model");
    QDir().mkpath(d);
    for (const QString& name : QDir(sample()).entryList(QDir::Files))
        if (name != "config.json" && !QFile::copy(sample() + "/" + name, d + "/" + name)) qFatal("copy failed");
    QString text = sample_config();
    const int at = text.indexOf(from);
    if (at < 0) qFatal("'%s' is not in the sample's config.json", qPrintable(from));
    text.replace(at, from.size(), to);
    QFile f(d + "/config.json");
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write config.json");
    f.write(text.toUtf8());
    return d;
}

QStringList json_strings(const QJsonObject& o, const char* key) {
    QStringList r;
    for (const auto& v : o[key].toArray()) r << v.toString();
    return r;
}

// Every line of `text` that contains all of `parts`.
QStringList lines_with(const QString& text, const QStringList& parts) {
    QStringList r;
    for (const QString& line : text.split('\n')) {
        bool all = true;
        for (const auto& p : parts) all &= line.contains(p);
        if (all) r << line;
    }
    return r;
}

const QString kBlock = R"("weight_block_size": [
      128,
      128
    ])";

}  // namespace

class TestCliConfig : public QObject {
    Q_OBJECT

private slots:
    void quantMethodAgainstTensors();
    void fmtAgainstDtype();
    void blockSizeNotAList();
    void blockSizeNegative();
    void blockSizeZero();
    void repeatedQuantizationConfigLastWins();
    void repeatedKeyInsideQuantizationConfigLastWins();
    void repeatedTopLevelKeyWrittenOnce();

private:
    // A warning is shown by inspect (text: a "warning" line; --json: in
    // "warnings") and by remember on stderr, whose output is then still the
    // reference bytes (the tensors were believed).
    void expect_warning(const QString& model, const QStringList& parts);
    // An error for the block-scaled tensors: inspect lists them under
    // "cannot convert" (exit 0), remember fails with one line and writes nothing.
    void expect_block_error(const QString& model, const QTemporaryDir& tmp, const QStringList& parts);
};

void TestCliConfig::expect_warning(const QString& model, const QStringList& parts) {
    auto r = run_amn({"inspect", model});
    QCOMPARE(r.exit_code, 0);
    const QStringList text = lines_with(r.out, parts);
    QVERIFY2(text.size() == 1 && text[0].startsWith("  warning "), qPrintable(r.out));
    QVERIFY2(!r.out.contains("cannot convert"), qPrintable(r.out));
    r = run_amn({"inspect", "--json", model});
    QCOMPARE(r.exit_code, 0);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(lines_with(json_strings(o, "warnings").join('\n'), parts).size(), 1);
    QVERIFY(json_strings(o, "errors").isEmpty());
    QTemporaryDir out;
    r = run_amn({"remember", model, "-o", out.filePath("bf16")});
    QCOMPARE(r.exit_code, 0);
    const QStringList err = lines_with(r.err, parts);
    QVERIFY2(err.size() == 1 && err[0].startsWith("amn: warning: "), qPrintable(r.err));
    const auto diff = amn::test::compare_safetensors(out.filePath("bf16/model.safetensors").toStdString(), expected_bf16().toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestCliConfig::expect_block_error(const QString& model, const QTemporaryDir& tmp, const QStringList& parts) {
    auto r = run_amn({"inspect", model});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(!r.out.contains("18446744073709551"), qPrintable(r.out));
    // The sample's three weights with 128×128 block grids larger than 1×1.
    QCOMPARE(lines_with(r.out, QStringList{"cannot convert"} + parts + QStringList{"config.json", "refusing to guess"}).size(), 3);
    r = run_amn({"inspect", "--json", model});
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(lines_with(json_strings(QJsonDocument::fromJson(r.out.toUtf8()).object(), "errors").join('\n'), parts).size(), 3);
    r = run_amn({"remember", model, "-o", tmp.filePath("bf16")});
    QCOMPARE(r.exit_code, 1);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(lines_with(r.err, parts).size() == 1, qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(tmp.filePath("bf16")));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"model"});
}

// quant_method "gptq" over FP8 tensors: the tensors decide the bytes.
void TestCliConfig::quantMethodAgainstTensors() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, R"("quant_method": "fp8")", R"("quant_method": "gptq")");
    expect_warning(m, {R"(quant_method is "gptq")", "the tensors are fp8", "believed the tensors", "config.json"});
}

// fmt "e5m2" over E4M3 weights: the stored dtype decides the decoding.
void TestCliConfig::fmtAgainstDtype() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, R"("fmt": "e4m3")", R"("fmt": "e5m2")");
    expect_warning(m, {R"(fmt is "e5m2")", "F8_E4M3", "believed the tensors' dtype", "config.json"});
}

// weight_block_size "128" (a string): which block size? The bytes depend on it.
void TestCliConfig::blockSizeNotAList() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, kBlock, R"("weight_block_size": "128")");
    expect_block_error(m, tmp, {R"(weight_block_size is "128", not a list [rows, cols])"});
}

// [-128, 128] was read as 18446744073709551488×128 blocks.
void TestCliConfig::blockSizeNegative() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, kBlock, R"("weight_block_size": [-128, 128])");
    expect_block_error(m, tmp, {"weight_block_size[0] is -128", "must be positive, not negative"});
}

void TestCliConfig::blockSizeZero() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, kBlock, R"("weight_block_size": [128, 0])");
    expect_block_error(m, tmp, {"weight_block_size[1] is 0", "must be positive, not zero"});
}

// Two quantization_config keys: Python's json (and transformers) takes the
// last. anamnesis took the first (64×64 blocks: three tensors refused).
void TestCliConfig::repeatedQuantizationConfigLastWins() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, R"("quantization_config": {)",
                              R"("quantization_config": {"quant_method": "fp8", "weight_block_size": [64, 64]},
  "quantization_config": {)");
    expect_warning(m, {R"(key "quantization_config" occurs 2 times)", "the last one is used", "config.json"});
    const auto o = QJsonDocument::fromJson(run_amn({"inspect", "--json", m}).out.toUtf8()).object();
    QCOMPARE(o["quantization_config"].toObject()["weight_block_size.0"].toString(), QString("128"));
    QCOMPARE(o["quantization_config"].toObject()["fmt"].toString(), QString("e4m3"));
}

// A key repeated inside quantization_config was a BadJson error (exit 1).
void TestCliConfig::repeatedKeyInsideQuantizationConfigLastWins() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, R"("fmt": "e4m3",)", R"("fmt": "e4m3", "weight_block_size": [64, 64],)");
    expect_warning(m, {R"(key "quantization_config.weight_block_size" occurs more than once)", "the last one is used"});
}

// remember copies config.json's other members: a repeated one is written
// once, with its last value (what json.load + json.dump would write).
void TestCliConfig::repeatedTopLevelKeyWrittenOnce() {
    QTemporaryDir tmp;
    const QString m = variant(tmp, R"("vocab_size": 128,)", R"("vocab_size": 7, "vocab_size": 128,)");
    const auto r = run_amn({"remember", m, "-o", tmp.filePath("bf16")});
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(lines_with(r.err, {"amn: warning: ", R"(key "vocab_size" occurs 2 times)", "the last one is used"}).size(), 1);
    QFile f(tmp.filePath("bf16/config.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QCOMPARE(text.count(R"("vocab_size")"), 1);
    QCOMPARE(QJsonDocument::fromJson(text.toUtf8()).object()["vocab_size"].toInt(), 128);
}

QTEST_APPLESS_MAIN(TestCliConfig)
#include "test_cli_config.moc"
