// SPDX-License-Identifier: MIT OR Apache-2.0
// issue 33: MLX ↔ GGUF lossless where the arithmetic allows. A GGUF that
// llama-quantize's rules wrote (test_cli_forget proves those bytes) of the
// shared Llama-2 folder, in each type an MLX mode holds exactly —
// Q4_0/Q4_1/Q5_0/Q5_1/Q8_0 (MLX affine 4/5/8-bit, group 32, bias −8d /
// −16d / −128d or m) and MXFP4 (mxfp4: the same E8M0 byte) —
// - forgets to MLX with no --requantize, every quantized tensor said
//   "lossless" by --dry-run --json;
// - the MLX folder's codes and scales, read by numpy as exact numbers
//   (tests/cli/mlx_folders.py --exact-values), are the GGUF's values as ggml
//   dequantizes them (amn remember --layout hf --to f32), every one;
// - forgets back to the same file type: the GGUF's tensors byte for byte, and
//   to MLX again: the MLX folder byte for byte.
// A MoE GGUF (Mixtral Q4_0): its expert stacks to mlx-lm's switch_mlp and
// back, byte for byte.
// A GGUF with other types too (Q8_0 and NVFP4) repacks what fits, names the
// first tensor that does not (exit 1 without --requantize, the options that
// would repack it), and re-quantizes the rest under --requantize, saying why
// per tensor; an MLX folder whose biases are not −8·scale is re-quantized to
// Q4_0 ("bias-not-symmetric"), one of group 64 to Q4_1 ("other-codes"), one
// with a scale not exact in F16 ("scale-not-exact").
#include "test_support.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/kernels.hpp"

#include <QDir>
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

QString llama2() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/hf-gguf/inputs/Llama-2-7b-hf";
}

#define SKIP_WITHOUT_LLAMA2(var)                                                 \
    const QString var = llama2();                                                \
    if (var.isEmpty() || !QFileInfo::exists(var + "/config.json")) {             \
        if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing"); \
        QSKIP("hf-gguf fixtures missing");                                       \
    }

// Tensor by tensor: names in order, types and bytes; "" when equal. `only`: compare the names containing it.
QString compare_gguf_tensors(const QString& got_path, const QString& want_path, const QString& only = {}) {
    const amn::Catalog got = amn::open_gguf(got_path.toStdString());
    const amn::Catalog want = amn::open_gguf(want_path.toStdString());
    if (got.tensors.size() != want.tensors.size()) return "tensor count differs";
    int compared = 0;
    for (std::size_t i = 0; i < got.tensors.size(); ++i) {
        const auto& a = got.tensors[i];
        const auto& b = want.tensors[i];
        if (a.name != b.name) return QString::fromStdString("tensor " + std::to_string(i) + ": " + a.name + " vs " + b.name);
        if (!only.isEmpty() && !QString::fromStdString(a.name).contains(only)) continue;
        ++compared;
        if (a.dtype != b.dtype) return QString::fromStdString(a.name + ": type " + a.dtype_name + " vs " + b.dtype_name);
        if (a.nbytes != b.nbytes || std::memcmp(got.data(a), want.data(b), a.nbytes) != 0)
            return QString::fromStdString(a.name + " (" + a.dtype_name + "): bytes differ");
    }
    return compared ? QString() : "nothing compared";
}


// `amn forget … --dry-run --json`: tensor name → its "repack" word ("" when absent).
QMap<QString, QString> repack_words(const QStringList& args) {
    const auto r = run_amn(QStringList{"forget"} + args + QStringList{"--dry-run", "--json"});
    if (r.exit_code != 0) qWarning().noquote() << r.err;
    QMap<QString, QString> m;
    for (const auto& t : QJsonDocument::fromJson(r.out.toUtf8()).object()["tensors"].toArray())
        m[t.toObject()["name"].toString()] = t.toObject()["repack"].toString();
    return m;
}

}  // namespace

class TestCliMlxRepack : public QObject {
    Q_OBJECT

private slots:
    void losslessBothWays_data() {
        QTest::addColumn<QString>("ftype");
        QTest::addColumn<QStringList>("gguf_opts");
        QTest::addColumn<QStringList>("mlx");
        const QStringList g32{"--group-size", "32"};
        QTest::newRow("Q4_0 ↔ mlx:4 g32") << "Q4_0" << QStringList{"--pure"} << (QStringList{"mlx:4"} + g32);
        QTest::newRow("Q4_1 ↔ mlx:4 g32") << "Q4_1" << QStringList{"--pure"} << (QStringList{"mlx:4"} + g32);
        QTest::newRow("Q5_0 ↔ mlx:5 g32") << "Q5_0" << QStringList{"--pure"} << (QStringList{"mlx:5"} + g32);
        QTest::newRow("Q5_1 ↔ mlx:5 g32") << "Q5_1" << QStringList{"--pure"} << (QStringList{"mlx:5"} + g32);
        QTest::newRow("Q8_0 ↔ mlx:8 g32") << "Q8_0" << QStringList{"--pure"} << (QStringList{"mlx:8"} + g32);
        QTest::newRow("MXFP4 ↔ mlx:mxfp4") << "Q8_0" << QStringList{"--tensor-type", "weight=MXFP4"} << QStringList{"mlx:mxfp4"};
    }
    void losslessBothWays() {
        SKIP_WITHOUT_LLAMA2(hf);
        QFETCH(QString, ftype);
        QFETCH(QStringList, gguf_opts);
        QFETCH(QStringList, mlx);
        QTemporaryDir tmp;
        const QString g = tmp.filePath("g.gguf"), m = tmp.filePath("m"), v = tmp.filePath("v"), r = tmp.filePath("r.gguf"),
                      m2 = tmp.filePath("m2");
        auto ok = [](const amn::test::RunResult& x) { return x.exit_code == 0 ? QString() : x.err; };
        QCOMPARE(ok(run_amn(QStringList{"forget", hf, "--to", "gguf:" + ftype, "-o", g, "--quiet"} + gguf_opts)), QString());

        // Every quantized tensor lossless, said before anything is written.
        const auto words = repack_words(QStringList{g, "--to"} + mlx);
        int lossless = 0;
        for (auto it = words.begin(); it != words.end(); ++it)
            if (!it.value().isEmpty()) {
                QVERIFY2(it.value() == "lossless", qPrintable(it.key() + ": " + it.value()));
                ++lossless;
            }
        QCOMPARE(lossless, 16);  // 2 blocks × 7 Linear weights, embeddings, lm_head

        const auto fm = run_amn(QStringList{"forget", g, "--to"} + mlx + QStringList{"-o", m});
        QVERIFY2(fm.exit_code == 0, qPrintable(fm.err));
        QVERIFY2(fm.out.contains("16 repacked losslessly"), qPrintable(fm.out));

        // The MLX numbers are ggml's values.
        QCOMPARE(ok(run_amn({"remember", g, "--layout", "hf", "--to", "f32", "-o", v, "--quiet"})), QString());
        const auto ev = run(QString::fromStdString(amn::test::python()),
                            {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", "--exact-values", m, v});
        QVERIFY2(ev.exit_code == 0, qPrintable(ev.out + ev.err));
        QVERIFY2(ev.out.contains("16 quantized modules checked, 0 differ"), qPrintable(ev.out));

        // Back: the GGUF's tensors; and to MLX again: the MLX folder.
        const auto fr = run_amn(QStringList{"forget", m, "--to", "gguf:" + ftype, "-o", r} + gguf_opts);
        QVERIFY2(fr.exit_code == 0, qPrintable(fr.err));
        QVERIFY2(fr.out.contains("(0 encoded, 16 repacked losslessly)"), qPrintable(fr.out));
        QCOMPARE(compare_gguf_tensors(r, g), QString());
        QCOMPARE(ok(run_amn(QStringList{"forget", r, "--to"} + mlx + QStringList{"-o", m2, "--quiet"})), QString());
        const auto a = amn::test::read_safetensors_dir(m), b = amn::test::read_safetensors_dir(m2);
        QVERIFY(!a.empty());
        QCOMPARE(a.size(), b.size());
        for (const auto& [k, t] : a) {
            const auto it = b.find(k);
            QVERIFY2(it != b.end() && it->second.dtype == t.dtype && it->second.shape == t.shape && it->second.bytes == t.bytes,
                     k.c_str());
        }
    }

    // A MoE GGUF (Mixtral, Q4_0): its ffn_*_exps stacks become mlx-lm's
    // switch_mlp stacks with their codes as they are, and come back byte for
    // byte (the routers are F32 in the GGUF; mlx-lm quantizes them, so they
    // are re-quantized and left out).
    void moeLosslessBothWays() {
        SKIP_WITHOUT_LLAMA2(hf);
        const QString mixtral = hf + "/../Mixtral-8x7B-v0.1";
        QTemporaryDir tmp;
        const QString g = tmp.filePath("g.gguf"), m = tmp.filePath("m"), r = tmp.filePath("r.gguf");
        QCOMPARE(run_amn({"forget", mixtral, "--to", "gguf:Q4_0", "--pure", "-o", g, "--quiet"}).exit_code, 0);
        const auto words = repack_words({g, "--to", "mlx:4", "--group-size", "32"});
        int lossless = 0;
        for (auto it = words.begin(); it != words.end(); ++it) lossless += it.value() == "lossless";
        QCOMPARE(lossless, 16);  // 2 blocks × (4 attention weights + 3 expert stacks), embeddings, lm_head
        for (const char* k : {"model.layers.1.block_sparse_moe.switch_mlp.gate_proj.weight",
                              "model.layers.1.block_sparse_moe.switch_mlp.down_proj.weight"})
            QCOMPARE(words.value(k), QString("lossless"));
        const auto fm = run_amn({"forget", g, "--to", "mlx:4", "--group-size", "32", "-o", m});
        QVERIFY2(fm.exit_code == 0, qPrintable(fm.err));
        const auto st = amn::test::read_safetensors_dir(m);
        const auto sw = st.find("model.layers.0.block_sparse_moe.switch_mlp.up_proj.weight");
        QVERIFY(sw != st.end());
        QVERIFY((sw->second.shape == std::vector<std::uint64_t>{4, 64, 4}));
        const auto fr = run_amn({"forget", m, "--to", "gguf:Q4_0", "--pure", "-o", r});
        QVERIFY2(fr.exit_code == 0, qPrintable(fr.err));
        QCOMPARE(compare_gguf_tensors(r, g, "_exps"), QString());
        QCOMPARE(compare_gguf_tensors(r, g, "attn_"), QString());
    }

    // Q8_0 with the ffn_down weights NVFP4: those repack to mlx:nvfp4, the rest only under --requantize.
    void partlyLossless() {
        SKIP_WITHOUT_LLAMA2(hf);
        QTemporaryDir tmp;
        const QString g = tmp.filePath("g.gguf"), m = tmp.filePath("m"), r = tmp.filePath("r.gguf");
        QCOMPARE(run_amn({"forget", hf, "--to", "gguf:Q8_0", "--tensor-type", "ffn_down=NVFP4", "-o", g, "--quiet"}).exit_code, 0);
        const auto no = run_amn({"forget", g, "--to", "mlx:nvfp4", "-o", m});
        QCOMPARE(no.exit_code, 1);
        QCOMPARE(no.err.trimmed().count('\n'), 0);
        QVERIFY2(no.err.contains("already quantized") && no.err.contains("--to mlx:8 --group-size 32"), qPrintable(no.err));
        QVERIFY(!QFileInfo::exists(m));

        const auto words = repack_words({g, "--to", "mlx:nvfp4", "--requantize"});
        int lossless = 0, other = 0;
        for (auto it = words.begin(); it != words.end(); ++it) {
            if (it.value().isEmpty()) continue;
            const bool down = it.key().contains("down_proj");
            QCOMPARE(it.value(), QString(down ? "lossless" : "other-codes"));
            ++(down ? lossless : other);
        }
        QCOMPARE(lossless, 2);
        QCOMPARE(other, 14);
        QCOMPARE(run_amn({"forget", g, "--to", "mlx:nvfp4", "--requantize", "-o", m, "--quiet"}).exit_code, 0);
        const auto back = run_amn({"forget", m, "--to", "gguf:Q8_0", "--tensor-type", "ffn_down=NVFP4", "-o", r});
        QVERIFY2(back.exit_code == 0 && back.out.contains("2 repacked losslessly"), qPrintable(back.out + back.err));
        QCOMPARE(compare_gguf_tensors(r, g, "ffn_down"), QString());
    }

    // MLX folders whose numbers GGUF's blocks do not hold: re-quantized, each tensor saying why.
    void notLossless() {
        SKIP_WITHOUT_LLAMA2(hf);
        QTemporaryDir tmp;
        const QString m32 = tmp.filePath("m32"), m64 = tmp.filePath("m64"), odd = tmp.filePath("odd");
        QCOMPARE(run_amn({"forget", hf, "--to", "mlx:4", "--group-size", "32", "-o", m32, "--quiet"}).exit_code, 0);
        QCOMPARE(run_amn({"forget", hf, "--to", "mlx:4", "--group-size", "64", "-o", m64, "--quiet"}).exit_code, 0);
        // How many tensors say `word`; −1 when another tensor says something else.
        auto all = [](const QMap<QString, QString>& w, const QString& word) {
            int n = 0;
            for (const auto& v : w) {
                if (!v.isEmpty() && v != word) return -1;
                n += v == word;
            }
            return n;
        };
        // mx.quantize's bias is the group's edge value, not −8·scale.
        QCOMPARE(all(repack_words({m32, "--to", "gguf:Q4_0", "--pure"}), "bias-not-symmetric"), 16);
        // Group 64 quantizes only the rows of 64 (ffn_down; the rest stays F16).
        QCOMPARE(all(repack_words({m64, "--to", "gguf:Q4_1", "--pure"}), "other-codes"), 2);
        QCOMPARE(all(repack_words({m32, "--to", "gguf:Q4_1", "--pure"}), "lossless"), 16);
        // One scale of one module made F32 1/3 (not exact in F16): that module re-quantized, the others not.
        QVERIFY(QDir().mkpath(odd));
        for (const QString& f : QDir(m32).entryList(QDir::Files))
            if (f != "model.safetensors") QVERIFY(QFile::copy(m32 + "/" + f, odd + "/" + f));
        auto st = amn::test::read_safetensors_raw((m32 + "/model.safetensors").toStdString());
        QVERIFY(st);
        for (const char* part : {"scales", "biases"}) {
            auto& t = st->tensors.at(std::string("model.layers.0.mlp.up_proj.") + part);
            QCOMPARE(t.dtype, std::string("F16"));
            std::vector<std::uint8_t> f32(t.bytes.size() * 2);
            for (std::size_t i = 0; i < t.bytes.size() / 2; ++i) {
                std::uint16_t h;
                std::memcpy(&h, t.bytes.data() + 2 * i, 2);
                float x = 0;
                amn::kernels::f16_to_f32(&h, &x, 1);
                if (i == 0 && std::string(part) == "scales") x = 1.0f / 3.0f;
                std::memcpy(f32.data() + 4 * i, &x, 4);
            }
            t.dtype = "F32";
            t.bytes = std::move(f32);
        }
        amn::test::write_safetensors_raw((odd + "/model.safetensors").toStdString(), st->tensors);
        const auto w = repack_words({odd, "--to", "gguf:Q4_1", "--pure"});
        QCOMPARE(w.value("blk.0.ffn_up.weight"), QString("scale-not-exact"));
        QCOMPARE(w.values().count("lossless"), 15);
    }
};

QTEST_GUILESS_MAIN(TestCliMlxRepack)
#include "test_cli_mlx_repack.moc"
