// SPDX-License-Identifier: MIT OR Apache-2.0
// An MLX deepseek_v3 folder to GGUF in one pass. tests/cli/mlx_folders.py
// --mla-gguf's DeepSeek-V3-tiny (deepseek_v3 with Qwen3's vocabulary and
// tokenizer) forgets to MLX as the real mlx_lm.convert -q writes it (its
// model.safetensors sha256 recorded), and `amn convert` of that folder
// (kv_b_proj rejoined from MLA's embed_q / unembed_out, switch_mlp cut per
// expert, dequantized) writes the GGUF llama.cpp's convert_hf_to_gguf.py
// writes from the folder's Hugging Face twin as MLX itself makes it
// (mx.dequantize): tests/cli/data/mlx_mla_gguf_reference.json, recorded by
// tests/cli/mlx_mla_gguf_record.py. The same for the unquantized folder
// (mlx_lm.convert --dtype float32, rebuilt by mlx_folders.py --stack).
#include "test_support.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run;
using amn::test::run_amn;

namespace {

QString sha256_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
}

}  // namespace

class TestCliMlxMla : public QObject {
    Q_OBJECT
private slots:
    void deepseekV3ToGguf() {
        const auto shared = amn::test::shared_fixtures_dir();
        if (shared.empty() || !QFileInfo::exists(QString::fromStdString(shared) + "/hf-gguf/inputs/Qwen3-0.6B/tokenizer.json")) {
            if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing");
            QSKIP("hf-gguf fixtures missing");
        }
        const QString src = QString::fromStdString(amn::test::source_dir());
        QFile rf(src + "/tests/cli/data/mlx_mla_gguf_reference.json");
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QJsonObject ref = QJsonDocument::fromJson(rf.readAll()).object();
        QTemporaryDir tmp;
        const auto made = run(QString::fromStdString(amn::test::python()),
                              {src + "/tests/cli/mlx_folders.py", "--mla-gguf", tmp.filePath("hf"), QString::fromStdString(shared)});
        QVERIFY2(made.exit_code == 0, qPrintable(made.err));
        QVERIFY(QDir().mkpath(tmp.filePath("a")));
        const QString mlx = tmp.filePath("a/" + ref["folder"].toString());
        const auto f = run_amn({"forget", tmp.filePath("hf/DeepSeek-V3-tiny"), "--to", "mlx", "-o", mlx, "-q"});
        QVERIFY2(f.exit_code == 0, qPrintable(f.err));
        QCOMPARE(sha256_of(mlx + "/model.safetensors"), ref["model_sha256"].toString());
        const QJsonObject outtypes = ref["outtypes"].toObject();
        QCOMPARE(outtypes.size(), 2);
        for (auto it = outtypes.begin(); it != outtypes.end(); ++it) {
            const QString out = tmp.filePath(it.key() + ".gguf");
            const auto r = run_amn({"convert", mlx, "--to", "gguf:" + it.key(), "-o", out, "-q"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QVERIFY2(sha256_of(out) == it.value().toString(), qPrintable(it.key() + " differs from convert_hf_to_gguf's"));
        }
        // Unquantized: the folder mlx_lm.convert --dtype float32 writes (rebuilt by mlx_folders.py --stack, its
        // tensors checked against mlx_lm's), with the tokenizer files, to GGUF BF16.
        const QJsonObject u = ref["unquantized"].toObject();
        const QString plain = tmp.filePath("u/" + ref["folder"].toString());
        const auto st = run(QString::fromStdString(amn::test::python()),
                            {src + "/tests/cli/mlx_folders.py", "--stack", tmp.filePath("hf/DeepSeek-V3-tiny"), plain});
        QVERIFY2(st.exit_code == 0, qPrintable(st.err));
        const auto dg = run(QString::fromStdString(amn::test::python()), {src + "/tests/cli/mlx_folders.py", "--digest", plain});
        QVERIFY2(dg.exit_code == 0, qPrintable(dg.err));
        QVERIFY2(QJsonDocument::fromJson(dg.out.toUtf8()).object() == u["mlx_tensors"].toObject(),
                 "the stacked folder is not mlx_lm.convert's");
        for (const char* f : {"tokenizer.json", "tokenizer_config.json"})
            QVERIFY(QFile::copy(tmp.filePath("hf/DeepSeek-V3-tiny/") + f, plain + "/" + f));
        QCOMPARE(u["outtypes"].toObject().size(), 1);
        const QString out = tmp.filePath("u.gguf");
        const auto r = run_amn({"convert", plain, "--to", "gguf:bf16", "-o", out, "-q"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(sha256_of(out) == u["outtypes"].toObject()["bf16"].toString(), "unquantized bf16 differs from convert_hf_to_gguf's");
    }
};

QTEST_GUILESS_MAIN(TestCliMlxMla)
#include "test_cli_mlx_mla.moc"
