// SPDX-License-Identifier: MIT OR Apache-2.0
// MLX MoE folders of the architectures whose experts mlx-lm stacks like
// Qwen's (olmoe, deepseek_v2, qwen2_moe) to GGUF in one pass (issue 33):
// - `amn convert MLX_DIR --to gguf:T` writes what llama.cpp's
//   convert_hf_to_gguf.py (34af94c) writes for the folder's Hugging Face twin
//   (its dequantized values, experts unstacked): sha256 recorded in
//   tests/cli/data/mlx_moe_arch_gguf_reference.json by
//   tests/cli/mlx_moe_gguf_record.py;
// - `amn forget MLX_DIR --to gguf:Q4_K_M` writes what forget of that twin
//   writes (llama-quantize's bytes: test_cli_forget).
// The MLX folders are made by `amn forget --to mlx` of
// tests/core/hf_arch_models.py's seeded folders (the bytes mlx_lm.convert
// writes for these model types: test_cli_mlx's recorded cases).
#include "hf_gguf_support.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run;
using amn::test::run_amn;
using amn::test::sha256_of;

namespace {

QJsonObject reference() {
    QFile f(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/mlx_moe_arch_gguf_reference.json");
    if (!f.open(QIODevice::ReadOnly)) qFatal("mlx_moe_arch_gguf_reference.json missing");
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The recorded cases' folders of hf_arch_models.py --inputs-only, made once;
// empty when the script failed (it needs the shared fixtures' tokenizers).
QString arch_models() {
    static QTemporaryDir dir;
    static const bool made = [] {
        QStringList cases;
        for (const auto& c : reference()["cases"].toArray()) cases << c.toObject()["case"].toString();
        return run(QString::fromStdString(amn::test::python()),
                   {QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_arch_models.py", dir.path(), "--shared",
                    QString::fromStdString(amn::test::shared_fixtures_dir()), "--inputs-only", "--cases", cases.join(',')})
                   .exit_code == 0;
    }();
    return made ? dir.path() : QString();
}

}  // namespace

class TestCliMlxMoeGguf : public QObject {
    Q_OBJECT

private slots:
    void toGguf_data() {
        QTest::addColumn<QJsonObject>("c");
        const auto cases = reference()["cases"].toArray();
        QCOMPARE(cases.size(), 3);
        for (const auto& c : cases) QTest::newRow(qPrintable(c.toObject()["case"].toString())) << c.toObject();
    }

    void toGguf() {
        QFETCH(QJsonObject, c);
        if (amn::test::shared_fixtures_dir().empty()) {
            if (amn::test::reference_required()) QFAIL("shared fixtures missing");
            QSKIP("shared fixtures missing (the folders' tokenizers come from them)");
        }
        const QString root = arch_models();
        QVERIFY2(!root.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        const QString name = c["case"].toString();
        QTemporaryDir tmp;
        QVERIFY(QDir().mkpath(tmp.filePath("a")));
        const QString mlx = tmp.filePath("a/" + name + "-mlx");
        QStringList forget{"forget", root + "/" + name};
        for (const auto& a : c["amn"].toArray()) forget << a.toString();
        auto r = run_amn(forget << "-o" << mlx << "-q");
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        // The experts are stacked (what makes this an MLX MoE folder, not a per-expert one).
        const auto st = amn::test::read_safetensors_raw((mlx + "/model.safetensors").toStdString());
        QVERIFY(st);
        QVERIFY(std::any_of(st->tensors.begin(), st->tensors.end(),
                            [](const auto& kv) { return kv.first.find(".switch_mlp.") != std::string::npos; }));
        const auto outtypes = c["outtypes"].toObject();
        QCOMPARE(outtypes.size(), 3);
        for (auto it = outtypes.begin(); it != outtypes.end(); ++it) {
            const QString out = tmp.filePath(it.key() + ".gguf");
            r = run_amn({"convert", mlx, "--to", "gguf:" + it.key(), "-o", out, "-q"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QVERIFY2(sha256_of(out) == it.value().toString().toLatin1(), qPrintable(it.key() + " differs from convert_hf_to_gguf.py's"));
        }
        // forget in one pass = forget of the dequantized twin.
        const QString twin = tmp.filePath("b/" + name + "-mlx");
        QCOMPARE(run_amn({"remember", mlx, "-o", tmp.filePath("rem"), "-q"}).exit_code, 0);
        const auto u = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", "--unstack",
                            tmp.filePath("rem"), twin});
        QVERIFY2(u.exit_code == 0, qPrintable(u.err));
        const QString x = tmp.filePath("x.gguf"), y = tmp.filePath("y.gguf");
        QCOMPARE(run_amn({"forget", mlx, "--to", "gguf:Q4_K_M", "-o", x, "-q"}).exit_code, 0);
        QCOMPARE(run_amn({"forget", twin, "--to", "gguf:Q4_K_M", "-o", y, "-q"}).exit_code, 0);
        QVERIFY(amn::test::read_file(x.toStdString()) == amn::test::read_file(y.toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestCliMlxMoeGguf)
#include "test_cli_mlx_moe_gguf.moc"
