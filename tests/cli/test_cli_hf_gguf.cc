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
//   and the input folder is untouched.
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

#include <cstring>

using amn::test::run;
using amn::test::run_amn;

namespace {

QString hf_gguf_dir() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/hf-gguf";
}

#define SKIP_WITHOUT_HF_GGUF(var)                                                  \
    AMN_REQUIRE_REFERENCE_DIR(ref_dir_);                                           \
    const QString var = hf_gguf_dir();                                             \
    if (!QFileInfo::exists(var + "/manifest.json")) {                              \
        if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing");    \
        QSKIP("hf-gguf fixtures missing");                                         \
    }

QByteArray sha256_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
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

bool copy_dir(const QString& from, const QString& to) {
    QDir().mkpath(to);
    for (const auto& e : QDir(from).entryInfoList(QDir::Files | QDir::NoDotAndDotDot))
        if (!QFile::copy(e.filePath(), to + "/" + e.fileName())) return false;
    return true;
}

}  // namespace

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
