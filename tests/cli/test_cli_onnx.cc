// SPDX-License-Identifier: MIT OR Apache-2.0
// issue 33: ONNX models — parse, inspect, remember.
// - the shared fixtures (../shared/fixtures/onnx, validated with
//   onnxruntime): every expected file bit for bit through
//   ../shared/tools/check_onnx_mlx.py;
// - `amn parse --json` against python3-onnx's onnx.load over Debian's
//   libonnx-testdata corpus and the fixtures (tests/cli/onnx_parse_check.py);
// - inspect names each quantized weight's operator, bits and block;
// - broken models (tests/cli/onnx_bad_models.py): one error line, exit 1,
//   nothing written, the input untouched.
#include "test_support.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run;
using amn::test::run_amn;

namespace {

QString py() { return QString::fromStdString(amn::test::python()); }
QString amn_path() { return QString::fromStdString(amn::test::cli_path()); }
QString script(const char* name) { return QString::fromStdString(amn::test::source_dir()) + "/tests/cli/" + name; }

// ../shared/fixtures/onnx, or empty (then the test skips, or fails with AMN_REQUIRE_REFERENCE=1).
QString onnx_fixtures() {
    const std::string shared = amn::test::shared_fixtures_dir();
    if (shared.empty()) return {};
    const QString d = QString::fromStdString(shared) + "/onnx";
    return QFileInfo(d + "/README.md").isFile() ? d : QString();
}

constexpr const char* kTestdata = "/usr/share/libonnx-testdata/data";

bool have_python_onnx() { return run(py(), {"-c", "import onnx"}).exit_code == 0; }

}  // namespace

#define REQUIRE_ONNX_FIXTURES(var)                                                                   \
    const QString var = onnx_fixtures();                                                             \
    if (var.isEmpty()) {                                                                             \
        if (amn::test::reference_required()) QFAIL("../shared/fixtures/onnx missing and AMN_REQUIRE_REFERENCE=1"); \
        QSKIP("../shared/fixtures/onnx not found");                                                  \
    }

#define REQUIRE_PYTHON_ONNX()                                                                        \
    if (!have_python_onnx()) {                                                                       \
        if (amn::test::reference_required()) QFAIL("python3-onnx missing and AMN_REQUIRE_REFERENCE=1"); \
        QSKIP("python3-onnx not installed (apt-get install python3-onnx)");                          \
    }

class TestCliOnnx : public QObject {
    Q_OBJECT
private slots:
    // Every case of the shared fixtures bit for bit (remember --to f32).
    void fixtures() {
        REQUIRE_ONNX_FIXTURES(dir);
        const QString checker = QFileInfo(dir + "/../../tools/check_onnx_mlx.py").absoluteFilePath();
        QVERIFY2(QFileInfo(checker).isFile(), qPrintable(checker + " missing"));
        const auto r = run(py(), {checker, amn_path(), dir});
        QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QRegularExpression("\\b8 passed, 0 failed")), qPrintable(r.out));
    }

    // parse --json lists exactly onnx.load's initializers: the fixtures and Debian's test models.
    void parse_matches_onnx_load_fixtures() {
        REQUIRE_ONNX_FIXTURES(dir);
        REQUIRE_PYTHON_ONNX();
        const auto r = run(py(), {script("onnx_parse_check.py"), amn_path(), dir});
        QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("8 models ok"), qPrintable(r.out));
    }
    void parse_matches_onnx_load_testdata() {
        if (!QFileInfo(kTestdata).isDir()) {
            if (amn::test::reference_required()) QFAIL("libonnx-testdata missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("libonnx-testdata not installed");
        }
        REQUIRE_PYTHON_ONNX();
        const auto r = run(py(), {script("onnx_parse_check.py"), amn_path(), kTestdata, "--jobs", "2"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.out.right(3000) + r.err));
        // The corpus holds about a thousand models, some fifty with initializers.
        const auto m = QRegularExpression("(\\d+) models ok \\((\\d+) initializers\\), 0 failed").match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out.right(2000)));
        QVERIFY2(m.captured(1).toInt() > 1000 && m.captured(2).toInt() > 50, qPrintable(m.captured(0)));
    }

    // inspect: the quantized weights by operator, bits and block; the container facts.
    void inspect_names_the_scheme() {
        REQUIRE_ONNX_FIXTURES(dir);
        const auto r = run_amn({"inspect", "--json", dir + "/onnx-matmulnbits-q4-b128-zp/model.onnx"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QString text = QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Compact));
        QVERIFY2(text.contains("onnx-matmulnbits-4bit-b128-zp"), qPrintable(text.left(3000)));
        QVERIFY2(text.contains("ONNX MatMulNBits, U8 4-bit, block 128"), qPrintable(text.left(3000)));
        const auto t = run_amn({"inspect", dir + "/onnx-gbq-int4/model.onnx"});
        QVERIFY2(t.exit_code == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains("GatherBlockQuantized"), qPrintable(t.out));
        QVERIFY2(t.out.contains("model.embed_tokens.weight"), qPrintable(t.out));
        const auto p = run_amn({"parse", "--kv", dir + "/onnx-llama-q4/model.onnx"});
        QVERIFY2(p.exit_code == 0, qPrintable(p.err));
        for (const char* key : {"onnx.ir_version", "onnx.opset.ai.onnx", "onnx.opset.com.microsoft", "onnx.producer_name",
                                "onnx.graph.inputs", "onnx.op.com.microsoft.MatMulNBits"})
            QVERIFY2(p.out.contains(key), qPrintable(QString(key) + " missing:\n" + p.out.left(3000)));
    }

    // Random MatMulNBits (2/4/8 bits, packed and float zero points, ragged K, float16; act order
    // with g_idx: packed, float and no zero points, ragged K, float16), MatMulBnb4
    // (NF4, FP4), GatherBlockQuantized (INT4, UINT4, UINT8 4/8-bit), DequantizeLinear (per tensor,
    // per axis, blocked, INT4, behind a Gather) and MatMulInteger weights (the scale by name, and
    // through DynamicQuantizeLinear's Mul): amn's values = onnxruntime's own kernels'
    // (onnxruntime-node, installed once per build folder with npm; skipped when it cannot be).
    void onnxruntime_crosscheck() {
        REQUIRE_PYTHON_ONNX();
        const QString npm = QStandardPaths::findExecutable("npm");
        if (npm.isEmpty() || QStandardPaths::findExecutable("node").isEmpty()) QSKIP("node/npm not installed");
        const QString dir = QString::fromStdString(amn::test::binary_dir()) + "/onnxruntime-node";
        const QString module = dir + "/node_modules/onnxruntime-node";
        if (!QFileInfo::exists(module + "/package.json")) {
            QDir().mkpath(dir);
            // --ignore-scripts: the package carries the native library; its install script downloads (and fails offline).
            const auto r = run(npm, {"install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", dir, "onnxruntime-node@1.30.0"}, 600000);
            if (r.exit_code != 0) QSKIP(qPrintable("npm install onnxruntime-node failed: " + r.err.left(300)));
        }
        QTemporaryDir tmp;
        const auto r = run(py(), {script("onnx_ort_check.py"), amn_path(), module, tmp.path()});
        QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QRegularExpression("\\b26 passed, 0 failed")), qPrintable(r.out));
    }

    // Broken models: one named error line, exit 1, nothing written, the input untouched.
    void bad_inputs() {
        REQUIRE_PYTHON_ONNX();
        QTemporaryDir tmp;
        const auto gen = run(py(), {script("onnx_bad_models.py"), tmp.filePath("models")});
        QVERIFY2(gen.exit_code == 0, qPrintable(gen.err));
        const auto cases = QJsonDocument::fromJson(gen.out.toUtf8()).array();
        QVERIFY(cases.size() >= 21);
        for (const auto& v : cases) {
            const auto c = v.toObject();
            const QString name = c["case"].toString(), model = c["model"].toString(), expect = c["expect"].toString();
            const QStringList before = amn::test::list_files(QFileInfo(model).absolutePath());
            const QString out = tmp.filePath("out-" + name);
            QDir().mkpath(out);
            const auto r = run_amn({"remember", model, "-o", out + "/out.safetensors", "--to", "f32"});
            QVERIFY2(r.exit_code == 1, qPrintable(name + ": exit " + QString::number(r.exit_code) + "\n" + r.err));
            const QStringList lines = r.err.trimmed().split('\n', Qt::SkipEmptyParts);
            QVERIFY2(lines.size() == 1, qPrintable(name + ": not one error line:\n" + r.err));
            QVERIFY2(lines[0].contains(expect), qPrintable(name + ": expected '" + expect + "' in: " + lines[0]));
            QVERIFY2(QDir(out).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty(),
                     qPrintable(name + ": something was written"));
            QCOMPARE(amn::test::list_files(QFileInfo(model).absolutePath()), before);
        }
    }
};

QTEST_APPLESS_MAIN(TestCliOnnx)
#include "test_cli_onnx.moc"
