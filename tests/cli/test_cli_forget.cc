// SPDX-License-Identifier: MIT OR Apache-2.0
// amn forget as a user runs it: every file llama-quantize made from
// tiny-llama-F32.gguf without an importance matrix (shared fixtures
// gguf-real/, the commands in its README) reproduced byte for byte as a
// whole file; the outputs read back by amn's own parser and by an
// independent numpy reader (tests/cli/gguf_numpy_check.py) within each
// type's error bound; the --json report; bad requests refused by name with
// nothing written.
#include "anamnesis/gguf.hpp"
#include "test_support.hpp"

#include <cstring>
#include <limits>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run_amn;

namespace {

QString gguf_real_dir() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/gguf-real";
}

#define SKIP_WITHOUT_GGUF_REAL(var)                                                     \
    AMN_REQUIRE_REFERENCE_DIR(ref_dir_);                                                \
    const QString var = gguf_real_dir();                                                \
    if (!QDir(var).exists()) {                                                          \
        if (amn::test::reference_required()) QFAIL("gguf-real fixtures missing");       \
        QSKIP("gguf-real fixtures missing");                                            \
    }

// Tensor by tensor: same names in the same order, types and bytes; "" when equal.
QString compare_tensors(const QString& got_path, const QString& want_path) {
    const amn::Catalog got = amn::open_gguf(got_path.toStdString());
    const amn::Catalog want = amn::open_gguf(want_path.toStdString());
    if (got.tensors.size() != want.tensors.size()) return "tensor count differs";
    for (std::size_t i = 0; i < got.tensors.size(); ++i) {
        const auto& a = got.tensors[i];
        const auto& b = want.tensors[i];
        if (a.name != b.name) return QString::fromStdString("tensor " + std::to_string(i) + ": " + a.name + " vs " + b.name);
        if (a.dtype != b.dtype) return QString::fromStdString(a.name + ": type " + a.dtype_name + " vs " + b.dtype_name);
        if (a.nbytes != b.nbytes || std::memcmp(got.data(a), want.data(b), a.nbytes) != 0)
            return QString::fromStdString(a.name + " (" + a.dtype_name + "): bytes differ");
    }
    return {};
}

QStringList files_in(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot); }

}  // namespace

class TestCliForget : public QObject {
    Q_OBJECT
private slots:
    void llamaQuantizeFiles_data();
    void llamaQuantizeFiles();
    void imatrixFiles_data();
    void imatrixFiles();
    void readBackIndependently_data();
    void readBackIndependently();
    void jsonReport();
    void lossOnDemand();
    void dryRun();
    void requantizeWarns();
    void badRequests_data();
    void badRequests();
    void existingOutputAndInput();
};

void TestCliForget::llamaQuantizeFiles_data() {
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QStringList>("args");
    for (const char* ft : {"F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K_S", "Q3_K_M", "Q3_K_L",
                           "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K", "IQ4_NL", "IQ4_XS", "IQ3_S", "IQ3_M", "TQ1_0",
                           "TQ2_0", "Q1_0", "Q2_0"})
        QTest::newRow(ft) << QString("tiny-llama-%1.gguf").arg(ft) << QStringList{"--to", QString("gguf:") + ft};
    // pure-<T>: --pure --token-embedding-type T --output-tensor-type T --tensor-type '.*=T' with ftype T,
    // or the ftype the README names where no file type of that name exists.
    const std::pair<const char*, const char*> pure[] = {
        {"Q4_0", "Q4_0"},     {"Q4_1", "Q4_1"},   {"Q5_0", "Q5_0"},   {"Q5_1", "Q5_1"},     {"Q2_K", "Q2_K"},
        {"IQ4_NL", "IQ4_NL"}, {"IQ4_XS", "IQ4_XS"}, {"IQ3_S", "IQ3_S"}, {"TQ1_0", "TQ1_0"}, {"TQ2_0", "TQ2_0"},
        {"Q1_0", "Q1_0"},     {"Q2_0", "Q2_0"},   {"Q3_K", "Q3_K_M"}, {"Q4_K", "Q4_K_M"},   {"Q5_K", "Q5_K_M"},
        {"MXFP4", "MXFP4_MOE"}, {"NVFP4", "Q8_0"}};
    for (const auto& [t, ft] : pure)
        QTest::newRow(qPrintable(QString("pure-") + t))
            << QString("tiny-llama-pure-%1.gguf").arg(t)
            << QStringList{"--to", QString("gguf:") + ft, "--pure", "--token-embedding-type", t, "--output-tensor-type", t,
                           "--tensor-type", QString(".*=") + t};
}

void TestCliForget::llamaQuantizeFiles() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QFETCH(QString, expected);
    QFETCH(QStringList, args);
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out.gguf");
    const auto r = run_amn(QStringList{"forget", dir + "/tiny-llama-F32.gguf", "-o", out, "--quiet"} + args);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto got = amn::test::read_file(out.toStdString());
    const auto want = amn::test::read_file((dir + "/" + expected).toStdString());
    QVERIFY(!want.empty());
    QCOMPARE(got.size(), want.size());
    std::size_t first = 0;
    while (first < got.size() && got[first] == want[first]) ++first;
    QVERIFY2(first == got.size(), qPrintable(QString("first differing byte at %1").arg(first)));
    QCOMPARE(files_in(tmp.path()), QStringList{"out.gguf"});  // no temporary left
}

void TestCliForget::imatrixFiles_data() {
    // The 15 files llama-quantize made with --imatrix (gguf-real README). All
    // tensors must match; the key/values differ only in quantize.imatrix.file,
    // the path given, so the four made with the relative name
    // "tiny.imatrix.gguf" must match as whole files too.
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("whole_file");
    for (const char* ft : {"IQ3_XXS", "IQ3_XS", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ1_S", "IQ1_M", "Q2_K_S"})
        QTest::newRow(ft) << QString("tiny-llama-%1.gguf").arg(ft) << QStringList{"--to", QString("gguf:") + ft}
                          << (QString(ft) == "IQ3_XS");
    const struct { const char* t; const char* ft; const char* embd; } pure[] = {
        {"IQ1_M", "IQ1_M", "IQ1_M"}, {"IQ3_XXS", "IQ3_XXS", "IQ3_XXS"}, {"IQ2_S", "IQ2_M", "IQ2_S"},
        {"IQ1_S", "IQ1_S", "Q8_0"},  {"IQ2_XS", "IQ2_XS", "Q8_0"},     {"IQ2_XXS", "IQ2_XXS", "Q8_0"}};
    for (const auto& p : pure)
        QTest::newRow(qPrintable(QString("pure-") + p.t))
            << QString("tiny-llama-pure-%1.gguf").arg(p.t)
            << QStringList{"--to", QString("gguf:") + p.ft, "--pure", "--token-embedding-type", p.embd, "--output-tensor-type",
                           p.t, "--tensor-type", QString(".*=") + p.t}
            << (QString(p.embd) == "Q8_0");
}

void TestCliForget::imatrixFiles() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QFETCH(QString, expected);
    QFETCH(QStringList, args);
    QFETCH(bool, whole_file);
    QTemporaryDir tmp;
    QVERIFY(QFile::copy(dir + "/aux/tiny-llama.imatrix.gguf", tmp.filePath("tiny.imatrix.gguf")));
    // Run in the temporary folder so the imatrix is named as llama-quantize was given it.
    QStringList cmd{QString::fromStdString(amn::test::cli_path()), "forget", dir + "/tiny-llama-F32.gguf", "-o", "out.gguf",
                    "--quiet", "--imatrix", "tiny.imatrix.gguf"};
    cmd += args;
    QString line = "cd '" + tmp.path() + "' && exec";
    for (const auto& c : cmd) line += " '" + c + "'";
    const auto r = amn::test::run("/bin/sh", {"-c", line});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString diff = compare_tensors(tmp.filePath("out.gguf"), dir + "/" + expected);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    if (whole_file)
        QVERIFY(amn::test::read_file(tmp.filePath("out.gguf").toStdString()) ==
                amn::test::read_file((dir + "/" + expected).toStdString()));
}

void TestCliForget::readBackIndependently_data() {
    QTest::addColumn<QString>("ftype");
    for (const char* ft : {"Q8_0", "Q4_0", "F16", "BF16", "Q4_K_M"}) QTest::newRow(ft) << QString(ft);
}

void TestCliForget::readBackIndependently() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QFETCH(QString, ftype);
    QTemporaryDir tmp;
    const QString out = tmp.filePath("x.gguf");
    const QString in = dir + "/tiny-llama-F32.gguf";
    auto r = run_amn({"forget", in, "--to", "gguf:" + ftype, "-o", out, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    // amn's own parser.
    r = run_amn({"parse", out, "--json"});
    QCOMPARE(r.exit_code, 0);
    const auto doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(doc["format"].toString(), QString("gguf"));
    QCOMPARE(doc["tensors"].toArray().size(), 21);
    // The independent numpy reader: layout, and values within each type's bound.
    const QString script = QString::fromStdString(amn::test::source_dir()) + "/tests/cli/gguf_numpy_check.py";
    r = amn::test::run(QString::fromStdString(amn::test::python()), {script, out, in});
    QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
    const auto res = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(res["tensors"].toInt(), 21);
    QVERIFY(res["checked"].toInt() >= 5);
    QCOMPARE(res["quantization_version"].toInt(), 2);
}

void TestCliForget::jsonReport() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    const auto r = run_amn({"forget", dir + "/tiny-llama-F32.gguf", "--to", "gguf:Q4_K_M", "-o", tmp.filePath("q.gguf"), "--json"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o["ftype"].toString(), QString("Q4_K_M"));
    const auto tensors = o["tensors"].toArray();
    QCOMPARE(tensors.size(), 21);
    int q4 = 0, q6 = 0, copied = 0;
    for (const auto& v : tensors) {
        const auto t = v.toObject();
        const QString type = t["type"].toString();
        if (t["copied"].toBool()) {
            ++copied;
            QCOMPARE(type, QString("F32"));  // norms stay F32
            continue;
        }
        q4 += type == "Q4_K";
        q6 += type == "Q6_K";
        // Measured loss: a 4–6.6 bit quantizer of N(0, 0.02²) weights.
        const double sqnr = t["sqnr_db"].toDouble();
        QVERIFY2(sqnr > 15 && sqnr < 45, qPrintable(t["name"].toString() + QString(" %1").arg(sqnr)));
        QVERIFY(t["rmse"].toDouble() > 0);
        QVERIFY(t["max_abs"].toDouble() >= t["rmse"].toDouble());
        QVERIFY(std::abs(t["bits_per_weight"].toDouble() - (type == "Q6_K" ? 6.5625 : 4.5)) < 1e-9 || type == "Q5_0" ||
                type == "Q8_0");
    }
    QCOMPARE(copied, 5);
    QVERIFY(q4 > 0 && q6 > 0);
    QVERIFY(o["sqnr_db"].toDouble() > 15);
    QCOMPARE(static_cast<qint64>(o["file_bytes"].toDouble()), QFileInfo(tmp.filePath("q.gguf")).size());
}

// The round trip is measured only for --report/--json; the file is the same
// either way. A NaN planted in a weight is named in the warnings both ways
// (counted from the input when the loss is not measured).
void TestCliForget::lossOnDemand() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    const QString in = tmp.filePath("nan-F32.gguf");
    QVERIFY(QFile::copy(dir + "/tiny-llama-F32.gguf", in));
    std::string poisoned;
    {
        const amn::Catalog cat = amn::open_gguf(in.toStdString());
        for (const auto& t : cat.tensors)
            if (t.name == "blk.1.ffn_down.weight" && t.dtype_name == "F32") {
                poisoned = t.name;
                auto bytes = amn::test::read_file(in.toStdString());
                const float nan = std::numeric_limits<float>::quiet_NaN();
                for (std::uint64_t k : {std::uint64_t(3), std::uint64_t(100)})
                    std::memcpy(bytes.data() + t.offset + k * 4, &nan, 4);
                amn::test::write_file(in.toStdString(), bytes);
            }
    }
    QVERIFY(!poisoned.empty());
    for (const QString ft : {"Q8_0", "Q4_K_M"}) {
        const auto a = run_amn({"forget", in, "--to", "gguf:" + ft, "-o", tmp.filePath("a.gguf"), "--force"});
        QVERIFY2(a.exit_code == 0, qPrintable(a.err));
        QVERIFY2(a.err.contains(QString::fromStdString(poisoned) + ": 2 value(s) are not finite"), qPrintable(a.err));
        const auto b = run_amn({"forget", in, "--to", "gguf:" + ft, "-o", tmp.filePath("b.gguf"), "--force", "--report"});
        QVERIFY2(b.exit_code == 0, qPrintable(b.err));
        QVERIFY2(b.err.contains(QString::fromStdString(poisoned) + ": ") && b.err.contains("left out of the loss"), qPrintable(b.err));
        QVERIFY(b.out.contains("blk.0.attn_q.weight"));  // the per-tensor table
        QVERIFY(!a.out.contains("blk.0.attn_q.weight"));
        QCOMPARE(amn::test::read_file(tmp.filePath("a.gguf").toStdString()),
                 amn::test::read_file(tmp.filePath("b.gguf").toStdString()));
    }
}

void TestCliForget::dryRun() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    QDir().mkpath(tmp.filePath("in"));
    QFile::copy(dir + "/tiny-llama-F32.gguf", tmp.filePath("in/m-F32.gguf"));
    const auto r = run_amn({"forget", tmp.filePath("in/m-F32.gguf"), "--to", "gguf:Q4_K_M", "--dry-run"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("blk.0.attn_v.weight"));
    QVERIFY(r.out.contains("Q6_K"));
    QVERIFY(r.out.contains("nothing written"));
    QCOMPARE(files_in(tmp.filePath("in")), QStringList{"m-F32.gguf"});
    // Without -o the output goes beside the input, the F32 suffix replaced.
    const auto w = run_amn({"forget", tmp.filePath("in/m-F32.gguf"), "--to", "gguf:Q8_0", "--quiet"});
    QVERIFY2(w.exit_code == 0, qPrintable(w.err));
    QCOMPARE(files_in(tmp.filePath("in")), (QStringList{"m-F32.gguf", "m-Q8_0.gguf"}));
}

void TestCliForget::requantizeWarns() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    const auto r = run_amn({"forget", dir + "/tiny-llama-Q8_0.gguf", "--to", "gguf:Q4_0", "-o", tmp.filePath("r.gguf"), "--json"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("warning") && r.err.contains("already quantized"), qPrintable(r.err));
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(!o["warnings"].toArray().isEmpty());
    int q4 = 0;
    for (const auto& v : o["tensors"].toArray()) q4 += v.toObject()["type"].toString() == "Q4_0";
    QVERIFY(q4 > 10);
}

void TestCliForget::badRequests_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown ftype") << QStringList{"--to", "gguf:Q4_K_X"} << "Q4_K_X";
    QTest::newRow("not gguf") << QStringList{"--to", "bnb-nf4"} << "gguf:";
    QTest::newRow("needs imatrix") << QStringList{"--to", "gguf:IQ2_XXS"} << "importance matrix";
    QTest::newRow("needs imatrix Q2_K_S") << QStringList{"--to", "gguf:Q2_K_S"} << "importance matrix";
    QTest::newRow("unknown override type") << QStringList{"--to", "gguf:Q4_0", "--output-tensor-type", "Q9_K"} << "Q9_K";
    QTest::newRow("bad regex") << QStringList{"--to", "gguf:Q4_0", "--tensor-type", "([=Q4_0"} << "--tensor-type";
    QTest::newRow("imatrix missing") << QStringList{"--to", "gguf:IQ2_XS", "--imatrix", "/nonexistent/im.gguf"} << "im.gguf";
    QTest::newRow("no type") << QStringList{"--to", "gguf:Q4_0", "--tensor-type", "attn_v="} << "--tensor-type";
}

void TestCliForget::badRequests() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    const auto r = run_amn(QStringList{"forget", dir + "/tiny-llama-F32.gguf", "-o", tmp.filePath("o.gguf")} + args);
    QVERIFY2(r.exit_code == 1 || r.exit_code == 2, qPrintable(r.err));
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(files_in(tmp.path()).isEmpty());
}

void TestCliForget::existingOutputAndInput() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    const QString in = tmp.filePath("m.gguf");
    QVERIFY(QFile::copy(dir + "/tiny-llama-F32.gguf", in));
    const auto before = amn::test::read_file(in.toStdString());
    // The output may never be the input, even with --force.
    auto r = run_amn({"forget", in, "--to", "gguf:Q8_0", "-o", in, "--force"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("input"), qPrintable(r.err));
    QVERIFY(amn::test::read_file(in.toStdString()) == before);
    // An existing output is replaced only with --force.
    const QString out = tmp.filePath("o.gguf");
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("keep me");
    f.close();
    r = run_amn({"forget", in, "--to", "gguf:Q8_0", "-o", out});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("exists"), qPrintable(r.err));
    QCOMPARE(amn::test::read_file(out.toStdString()).size(), std::size_t(7));
    r = run_amn({"forget", in, "--to", "gguf:Q8_0", "-o", out, "--force", "--quiet"});
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(amn::test::read_file(out.toStdString()), amn::test::read_file((dir + "/tiny-llama-Q8_0.gguf").toStdString()));
    QCOMPARE(files_in(tmp.path()), (QStringList{"m.gguf", "o.gguf"}));
}

QTEST_APPLESS_MAIN(TestCliForget)
#include "test_cli_forget.moc"
