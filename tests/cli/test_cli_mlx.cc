// SPDX-License-Identifier: MIT OR Apache-2.0
// issue 33: MLX (mlx-lm) folders as a user has them.
// - every case of ../shared/fixtures/mlx (validated there against MLX's own
//   mx::dequantize on the CPU) bit-exact through `amn remember … --to f32`,
//   checked by the fixtures' own checker (../shared/tools/check_onnx_mlx.py);
// - folders beyond the fixtures (tests/cli/mlx_folders.py: F32 scales, 5-bit,
//   per-module overrides, MoE SwitchLinear stacks in a sharded folder, the
//   mxfp4 and nvfp4 modes, an mlx-lm config without quantization_config),
//   computed there with numpy from MLX's arithmetic: remember's default
//   output keeps mx.dequantize's result dtype, bit for bit;
// - the output is a plain model: no `quantization` / `quantization_config`
//   in config.json, torch_dtype the output's, no `format: mlx`;
// - MLX → GGUF in one pass: an MLX folder made of the shared Llama-2 folder
//   converts to the bytes llama.cpp's convert_hf_to_gguf.py writes for its
//   dequantized twin (sha256 recorded in tests/cli/data/mlx_gguf_reference.json;
//   an MLX Mixtral with switch_mlp stacks: mlx_moe_gguf_reference.json, its
//   twin's experts split back by tests/cli/mlx_folders.py --unstack;
//   the converter itself refuses MLX folders), and forget to llama-quantize's
//   file types equals forget of that twin;
// - forget to MLX (--to mlx:BITS --group-size G) writes every tensor as MLX's
//   own mx::quantize does (sha256 per tensor recorded from MLX built from
//   source: tests/cli/data/mlx_quantize_reference.json; F16 and BF16 models,
//   2/3/4/5/6/8 bits) and as numpy's formulation (tests/cli/mlx_folders.py --from-hf);
//   model.safetensors, model.safetensors.index.json and config.json byte for
//   byte what the real `mlx_lm.convert -q` writes (sha256 recorded from it:
//   tests/cli/data/mlx_convert_reference.json; Llama 2 F16, Llama 3, Qwen3
//   BF16 tied, 3/4/6/8 bits, groups 32/64);
//   MoE models (qwen3_moe, qwen2_moe with its shared expert, mixtral) with
//   their experts stacked into switch_mlp and qwen3_moe's 8-bit routers, and
//   the cast of every float tensor to torch_dtype or --dtype (F32 and F16
//   tensors under bfloat16): byte for byte the real mlx_lm.convert's files
//   (tests/cli/data/mlx_convert_moe_reference.json, folders of
//   tests/cli/mlx_folders.py --hf and the shared Mixtral);
//   config.json with quantization + quantization_config, sorted keys, what the
//   read side detects again; bad bits / group sizes are usage errors;
// - inspect names the scheme of every module, overrides included;
// - bad input (no MLX config, config bits that disagree with the shapes, a
//   module marked false with scales, an unknown mode, a width MLX has not)
//   is exit 1, one line naming the tensor and the cause, nothing written.
#include "test_support.hpp"

#include <QCryptographicHash>
#include <cstring>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run;
using amn::test::run_amn;

namespace {

QString mlx_fixtures() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/mlx";
}

// tests/cli/mlx_folders.py's folders, made once; empty when the script failed.
QString own_folders() {
    static QTemporaryDir dir;
    static const bool made =
        run(QString::fromStdString(amn::test::python()),
            {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", dir.path()})
            .exit_code == 0;
    return made ? dir.path() : QString();
}


// tests/cli/mlx_folders.py --hf's Hugging Face folders, made once; empty when the script failed.
QString hf_folders() {
    static QTemporaryDir dir;
    static const bool made =
        run(QString::fromStdString(amn::test::python()),
            {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", "--hf", dir.path()})
            .exit_code == 0;
    return made ? dir.path() : QString();
}

QJsonObject json_file(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A copy of the fixture `name` whose config.json has `from` replaced by `to`.
QString fixture_variant(const QTemporaryDir& dir, const QString& name, const QString& from, const QString& to) {
    const QString src = mlx_fixtures() + "/" + name, d = dir.filePath(name);
    QDir().mkpath(d);
    for (const QString& f : QDir(src).entryList(QDir::Files))
        if (f != "config.json" && !QFile::copy(src + "/" + f, d + "/" + f)) qFatal("copy failed");
    QFile in(src + "/config.json");
    if (!in.open(QIODevice::ReadOnly)) qFatal("cannot read config.json");
    QString text = QString::fromUtf8(in.readAll());
    if (!text.contains(from)) qFatal("'%s' not in %s/config.json", qPrintable(from), qPrintable(name));
    text.replace(from, to);
    QFile out(d + "/config.json");
    if (!out.open(QIODevice::WriteOnly)) qFatal("cannot write config.json");
    out.write(text.toUtf8());
    return d;
}

// The cases of tests/cli/data/`file` as test rows "MODEL B-bit gG" with the case object `c`.
void reference_rows(const char* file, int expected) {
    QTest::addColumn<QJsonObject>("c");
    QFile rf(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/" + file);
    if (!rf.open(QIODevice::ReadOnly)) qFatal("cannot read tests/cli/data/%s", file);
    const QJsonArray cases = QJsonDocument::fromJson(rf.readAll()).object()["cases"].toArray();
    if (cases.size() != expected) qFatal("%s: %d cases, expected %d", file, int(cases.size()), expected);
    for (const auto& cv : cases) {
        const QJsonObject c = cv.toObject();
        const QString row = c["model"].toString() + " " +
                            (c.contains("mode") ? c["mode"].toString()
                                                : QString::number(c["bits"].toInt()) + "-bit g" +
                                                      QString::number(c["group_size"].toInt()));
        QTest::newRow(qPrintable(row)) << c;
    }
}

// amn forget ../shared/fixtures/hf-gguf/inputs/MODEL --to mlx:B --group-size G (a case with a
// "mode": --to mlx:MODE, its default group) into `tmp`; the output folder, or empty (with a
// QTest warning) when amn failed.
QString forget_mlx(const QTemporaryDir& tmp, const QString& mlx_dir, const QJsonObject& c) {
    const QString out = tmp.filePath("out");
    QStringList args{"forget", mlx_dir + "/../hf-gguf/inputs/" + c["model"].toString(), "--to"};
    if (c.contains("mode"))
        args << "mlx:" + c["mode"].toString();
    else
        args << "mlx:" + QString::number(c["bits"].toInt()) << "--group-size" << QString::number(c["group_size"].toInt());
    const auto r = run_amn(args << "-o" << out);
    if (r.exit_code != 0) {
        qWarning().noquote() << r.err;
        return {};
    }
    return out;
}

#define SKIP_WITHOUT_MLX(var)                                                    \
    const QString var = mlx_fixtures();                                          \
    if (var.isEmpty() || !QFileInfo::exists(var + "/README.md")) {               \
        if (amn::test::reference_required()) QFAIL("mlx fixtures missing");     \
        QSKIP("mlx fixtures missing");                                           \
    }

// A recorded case's "input": "fixture:NAME" (a shared hf-gguf input; skipped
// without the shared fixtures) or "hf:NAME" (a folder mlx_folders.py --hf wrote).
#define INPUT_FOLDER(var, input)                                                 \
    QString var;                                                                 \
    if ((input).startsWith("fixture:")) {                                        \
        SKIP_WITHOUT_MLX(fixtures_);                                             \
        var = fixtures_ + "/../hf-gguf/inputs/" + (input).mid(8);                \
    } else {                                                                     \
        const QString root_ = hf_folders();                                      \
        QVERIFY2(!root_.isEmpty(), "tests/cli/mlx_folders.py --hf failed");     \
        var = root_ + "/" + (input).mid(3);                                      \
    }

// Empty when every file of `files` ({name: sha256 hex}) under `out` has the
// recorded sha256 of mlx_lm.convert's output; else which one differs.
QString differs_from_recorded(const QString& out, const QJsonObject& files) {
    for (auto it = files.begin(); it != files.end(); ++it) {
        QFile f(out + "/" + it.key());
        if (!f.open(QIODevice::ReadOnly)) return it.key() + ": not written";
        if (QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex() != it.value().toString().toLatin1())
            return it.key() + " differs from mlx_lm.convert's";
    }
    return {};
}

// tests/cli/mlx_folders.py `args` (a helper mode); its stdout as JSON, or an empty object when it failed.
QJsonObject mlx_folders_json(const QStringList& args) {
    const auto r = run(QString::fromStdString(amn::test::python()),
                       QStringList{QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py"} + args);
    if (r.exit_code != 0) {
        qWarning().noquote() << r.err;
        return {};
    }
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

// Names of `a` and `b` that differ ([dtype, shape, sha256] or present in one only), at most 5.
QString digest_diff(const QJsonObject& a, const QJsonObject& b) {
    QStringList bad;
    QStringList keys = a.keys() + b.keys();
    keys.removeDuplicates();
    for (const auto& k : keys)
        if (a.value(k) != b.value(k)) bad << k;
    return bad.isEmpty() ? QString() : QString::number(bad.size()) + " tensor(s) differ: " + bad.mid(0, 5).join(", ");
}

}  // namespace

class TestCliMlx : public QObject {
    Q_OBJECT

private slots:
    void fixturesBitExact() {
        SKIP_WITHOUT_MLX(dir);
        const QString checker = dir + "/../../tools/check_onnx_mlx.py";
        if (!QFileInfo::exists(checker)) QFAIL("shared/tools/check_onnx_mlx.py missing");
        const auto r = run(QString::fromStdString(amn::test::python()), {checker, QString::fromStdString(amn::test::cli_path()), dir});
        qInfo().noquote() << r.out.trimmed();
        if (r.exit_code != 0) qInfo().noquote() << r.err.trimmed();
        QCOMPARE(r.exit_code, 0);
        QVERIFY(r.out.contains("5 passed, 0 failed"));
    }

    void ownFolders_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("torch_dtype");
        QTest::newRow("affine F32 5-bit, overrides, no quantization_config") << "affine-f32-5bit" << "float32";
        QTest::newRow("affine BF16 MoE SwitchLinear, sharded") << "affine-bf16-moe-switch" << "bfloat16";
        QTest::newRow("affine F16 6-bit group 16") << "affine-f16-6bit-g16" << "float16";
        QTest::newRow("mxfp4") << "mxfp4" << "bfloat16";
        QTest::newRow("nvfp4") << "nvfp4" << "bfloat16";
    }
    void ownFolders() {
        QFETCH(QString, name);
        QFETCH(QString, torch_dtype);
        const QString root = own_folders();
        QVERIFY2(!root.isEmpty(), "tests/cli/mlx_folders.py failed");
        QTemporaryDir out;
        const QString o = out.filePath("out");
        const auto r = run_amn({"remember", root + "/" + name, "-o", o});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto got = amn::test::read_safetensors_dir(o);
        const auto want = amn::test::read_safetensors_raw((root + "/" + name + ".expected.safetensors").toStdString());
        QVERIFY(want);
        QCOMPARE(got.size(), want->tensors.size());
        for (const auto& [k, w] : want->tensors) {
            const auto it = got.find(k);
            QVERIFY2(it != got.end(), k.c_str());
            QCOMPARE(it->second.dtype, w.dtype);
            QVERIFY2(it->second.shape == w.shape, k.c_str());
            QVERIFY2(it->second.bytes == w.bytes, ("values differ: " + k).c_str());
        }
        const QJsonObject cfg = json_file(o + "/config.json");
        QVERIFY(!cfg.isEmpty());
        QVERIFY(!cfg.contains("quantization"));
        QVERIFY(!cfg.contains("quantization_config"));
        QCOMPARE(cfg["torch_dtype"].toString(), torch_dtype);
        // Byte for byte what mlx_lm.convert --dequantize writes for it (convert.py pops both quantization
        // keys; save_config: sorted top level, json.dump indent=4, no newline), torch_dtype the output's.
        const auto py = run(QString::fromStdString(amn::test::python()),
                            {"-c",
                             "import json,sys,os\n"
                             "c=json.load(open(os.path.join(sys.argv[1],'config.json')))\n"
                             "c.pop('quantization',None); c.pop('quantization_config',None)\n"
                             "c['torch_dtype']=sys.argv[2]\n"
                             "sys.stdout.write(json.dumps(dict(sorted(c.items())),indent=4))",
                             root + "/" + name, torch_dtype});
        QVERIFY2(py.exit_code == 0, qPrintable(py.err));
        QFile cf(o + "/config.json");
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(cf.readAll()), py.out);
        for (const QString& f : QDir(o).entryList({"*.safetensors"}, QDir::Files)) {
            auto st = amn::test::read_safetensors_raw((o + "/" + f).toStdString());
            QVERIFY(st);
            QCOMPARE(st->metadata["format"], std::string("pt"));
        }
    }

    void toGgufOnePass() {
        SKIP_WITHOUT_MLX(dir);
        QFile rf(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/mlx_gguf_reference.json");
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QJsonObject ref = QJsonDocument::fromJson(rf.readAll()).object();
        QTemporaryDir tmp;
        const QString mlx = tmp.filePath(ref["folder"].toString());
        const auto g = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", "--from-hf",
                            dir + "/../hf-gguf/inputs/Llama-2-7b-hf", mlx, "--bits", QString::number(ref["bits"].toInt()),
                            "--group-size", QString::number(ref["group_size"].toInt())});
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        const auto outtypes = ref["outtypes"].toObject();
        QCOMPARE(outtypes.size(), 3);
        for (auto it = outtypes.begin(); it != outtypes.end(); ++it) {
            const QString out = tmp.filePath("direct-" + it.key() + ".gguf");
            const auto r = run_amn({"convert", mlx, "--to", "gguf:" + it.key(), "-o", out});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(QString(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex()), it.value().toString());
        }
        // forget in one pass = forget of the dequantized twin (llama-quantize's bytes: test_cli_forget).
        const QString twin = tmp.filePath("twin/" + ref["folder"].toString());
        QVERIFY(QDir().mkpath(tmp.filePath("twin")));
        QCOMPARE(run_amn({"remember", mlx, "-o", twin}).exit_code, 0);
        for (const QString ftype : {"Q4_K_M", "Q5_0"}) {
            const QString a = tmp.filePath("a-" + ftype + ".gguf"), b = tmp.filePath("b-" + ftype + ".gguf");
            QCOMPARE(run_amn({"forget", mlx, "--to", "gguf:" + ftype, "-o", a}).exit_code, 0);
            QCOMPARE(run_amn({"forget", twin, "--to", "gguf:" + ftype, "-o", b}).exit_code, 0);
            QVERIFY2(amn::test::read_file(a.toStdString()) == amn::test::read_file(b.toStdString()), qPrintable(ftype));
        }
    }

    // An MLX MoE folder (experts stacked in switch_mlp) to GGUF: llama.cpp's
    // converter on its Hugging Face twin (tests/cli/data/mlx_moe_gguf_reference.json),
    // and forget to a file type = forget of that twin.
    void toGgufMoe() {
        SKIP_WITHOUT_MLX(dir);
        QFile rf(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/mlx_moe_gguf_reference.json");
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QJsonObject ref = QJsonDocument::fromJson(rf.readAll()).object();
        QTemporaryDir tmp;
        const QString mlx = tmp.filePath("a/" + ref["folder"].toString());
        QVERIFY(QDir().mkpath(tmp.filePath("a")));
        const auto f = run_amn({"forget", dir + "/../hf-gguf/inputs/Mixtral-8x7B-v0.1", "--to", "mlx", "--group-size", "32", "-o", mlx});
        QVERIFY2(f.exit_code == 0, qPrintable(f.err));
        const auto outtypes = ref["outtypes"].toObject();
        QCOMPARE(outtypes.size(), 3);
        for (auto it = outtypes.begin(); it != outtypes.end(); ++it) {
            const QString out = tmp.filePath("direct-" + it.key() + ".gguf");
            const auto r = run_amn({"convert", mlx, "--to", "gguf:" + it.key(), "-o", out});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QFile g(out);
            QVERIFY(g.open(QIODevice::ReadOnly));
            QVERIFY2(QCryptographicHash::hash(g.readAll(), QCryptographicHash::Sha256).toHex() == it.value().toString().toLatin1(),
                     qPrintable(it.key() + " differs from convert_hf_to_gguf's"));
        }
        const QString twin = tmp.filePath("b/" + ref["folder"].toString());
        QCOMPARE(run_amn({"remember", mlx, "-o", tmp.filePath("rem")}).exit_code, 0);
        const auto u = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", "--unstack",
                            tmp.filePath("rem"), twin});
        QVERIFY2(u.exit_code == 0, qPrintable(u.err));
        for (const QString ftype : {"Q4_K_M", "Q8_0"}) {
            const QString a = tmp.filePath("a-" + ftype + ".gguf"), b = tmp.filePath("b-" + ftype + ".gguf");
            QCOMPARE(run_amn({"forget", mlx, "--to", "gguf:" + ftype, "-o", a}).exit_code, 0);
            QCOMPARE(run_amn({"forget", twin, "--to", "gguf:" + ftype, "-o", b}).exit_code, 0);
            QVERIFY2(amn::test::read_file(a.toStdString()) == amn::test::read_file(b.toStdString()), qPrintable(ftype));
        }
    }

    void forgetToMlx_data() {
        QTest::addColumn<int>("bits");
        QTest::addColumn<int>("group");
        QTest::newRow("4-bit g32") << 4 << 32;
        QTest::newRow("3-bit g32") << 3 << 32;
        QTest::newRow("6-bit g32") << 6 << 32;
        QTest::newRow("8-bit g64") << 8 << 64;
    }
    void forgetToMlx() {
        SKIP_WITHOUT_MLX(dir);
        QFETCH(int, bits);
        QFETCH(int, group);
        const QString hf = dir + "/../hf-gguf/inputs/Llama-2-7b-hf";
        QTemporaryDir tmp;
        const QString want = tmp.filePath("numpy"), got = tmp.filePath("amn");
        const auto g = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/mlx_folders.py", "--from-hf", hf, want,
                            "--bits", QString::number(bits), "--group-size", QString::number(group)});
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        const auto r = run_amn({"forget", hf, "--to", "mlx:" + QString::number(bits), "--group-size", QString::number(group), "-o", got});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto a = amn::test::read_safetensors_dir(got), b = amn::test::read_safetensors_dir(want);
        QVERIFY(!b.empty());
        QCOMPARE(a.size(), b.size());
        for (const auto& [k, t] : b) {
            const auto it = a.find(k);
            QVERIFY2(it != a.end(), k.c_str());
            QCOMPARE(it->second.dtype, t.dtype);
            QVERIFY2(it->second.shape == t.shape, k.c_str());
            QVERIFY2(it->second.bytes == t.bytes, ("bytes differ: " + k).c_str());
        }
        for (const QString& f : QDir(got).entryList({"*.safetensors"}, QDir::Files)) {
            auto st = amn::test::read_safetensors_raw((got + "/" + f).toStdString());
            QVERIFY(st);
            QCOMPARE(st->metadata["format"], std::string("mlx"));
        }
        const QJsonObject cfg = json_file(got + "/config.json");
        for (const char* k : {"quantization", "quantization_config"}) {
            const QJsonObject q = cfg[k].toObject();
            QCOMPARE(q["bits"].toInt(), bits);
            QCOMPARE(q["group_size"].toInt(), group);
            QCOMPARE(q["mode"].toString(), QString("affine"));
        }
        // config.json, byte for byte as mlx-lm d78bf58e writes it: load_config (json.load, eos_token_id
        // from generation_config.json when truthy), quantize_model's two keys, save_config (drops
        // _name_or_path and vision_config, sorts the top level, json.dump indent=4, no newline).
        const auto py = run(QString::fromStdString(amn::test::python()),
                            {"-c",
                             "import json,sys,os\n"
                             "d=sys.argv[1]; c=json.load(open(os.path.join(d,'config.json')))\n"
                             "g=os.path.join(d,'generation_config.json')\n"
                             "if os.path.exists(g):\n"
                             "  e=json.load(open(g)).get('eos_token_id')\n"
                             "  if e: c['eos_token_id']=e\n"
                             "q={'group_size':int(sys.argv[3]),'bits':int(sys.argv[2]),'mode':'affine'}\n"
                             "c['quantization']=q; c['quantization_config']=q\n"
                             "c.pop('_name_or_path',None); c.pop('vision_config',None)\n"
                             "sys.stdout.write(json.dumps(dict(sorted(c.items())),indent=4))",
                             hf, QString::number(bits), QString::number(group)});
        QVERIFY2(py.exit_code == 0, qPrintable(py.err));
        QFile cf(got + "/config.json");
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(cf.readAll()), py.out);
        QVERIFY(QFileInfo::exists(got + "/tokenizer.model"));
        // Read back: one MLX scheme, nothing unsupported.
        const auto i = run_amn({"inspect", "--json", got});
        QCOMPARE(i.exit_code, 0);
        const QJsonObject o = QJsonDocument::fromJson(i.out.toUtf8()).object();
        QCOMPARE(o["schemes"].toArray().size(), 1);
        QCOMPARE(o["schemes"].toArray()[0].toObject()["id"].toString(),
                 QString("mlx-affine-%1bit-g%2").arg(bits).arg(group));
        QCOMPARE(o["tensors"].toObject()["unsupported"].toInt(), 0);
    }

    // Every tensor as MLX's own mx::quantize writes it.
    void forgetToMlxAsMlx_data() { reference_rows("mlx_quantize_reference.json", 7); }
    void forgetToMlxAsMlx() {
        SKIP_WITHOUT_MLX(dir);
        QFETCH(QJsonObject, c);
        QTemporaryDir tmp;
        const QString out = forget_mlx(tmp, dir, c);
        QVERIFY(!out.isEmpty());
        const auto got = amn::test::read_safetensors_dir(out);
        const QJsonObject want = c["tensors"].toObject();
        QCOMPARE(got.size(), std::size_t(want.size()));
        for (auto it = want.begin(); it != want.end(); ++it) {
            const auto g = got.find(it.key().toStdString());
            QVERIFY2(g != got.end(), qPrintable(it.key()));
            const QJsonArray w = it.value().toArray();
            QCOMPARE(QString::fromStdString(g->second.dtype), w[0].toString());
            const QByteArray bytes(reinterpret_cast<const char*>(g->second.bytes.data()), qsizetype(g->second.bytes.size()));
            QVERIFY2(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex() == w[2].toString().toLatin1(),
                     qPrintable(it.key()));
        }
    }

    // The files the real mlx_lm.convert -q writes, byte for byte.
    void forgetToMlxAsMlxLmConvert_data() { reference_rows("mlx_convert_reference.json", 10); }
    void forgetToMlxAsMlxLmConvert() {
        SKIP_WITHOUT_MLX(dir);
        QFETCH(QJsonObject, c);
        QTemporaryDir tmp;
        const QString out = forget_mlx(tmp, dir, c);
        QVERIFY(!out.isEmpty());
        const QString diff = differs_from_recorded(out, c["files"].toObject());
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    // MoE experts stacked into switch_mlp, qwen3_moe routers 8-bit g64, the
    // dtype cast to torch_dtype / --dtype, --quant-predicate's mixed recipes
    // (each on a 10-layer llama and qwen3_moe), olmoe's, deepseek_v2's and deepseek_v3's experts
    // stacked too (their MoEGate routers float; deepseek_v3's kv_b_proj split into the MultiLinear
    // embed_q / unembed_out, its e_score_correction_bias never cast; kimi_k2 remapped to it, its
    // layer 61 dropped; its FP8 release under --requantize): the files the real mlx_lm.convert
    // writes (tests/cli/data/mlx_convert_moe_reference.json), byte for byte.
    void forgetToMlxMoeAndCast_data() {
        QTest::addColumn<QJsonObject>("c");
        QFile rf(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/mlx_convert_moe_reference.json");
        if (!rf.open(QIODevice::ReadOnly)) qFatal("cannot read mlx_convert_moe_reference.json");
        const QJsonArray cases = QJsonDocument::fromJson(rf.readAll()).object()["cases"].toArray();
        if (cases.size() != 35) qFatal("mlx_convert_moe_reference.json: %d cases, expected 35", int(cases.size()));
        for (const auto& cv : cases) {
            const QJsonObject c = cv.toObject();
            QStringList amn;
            for (const auto& a : c["amn"].toArray()) amn << a.toString();
            QTest::newRow(qPrintable(c["input"].toString() + " " + amn.join(' '))) << c;
        }
    }
    void forgetToMlxMoeAndCast() {
        QFETCH(QJsonObject, c);
        const QString input = c["input"].toString();
        INPUT_FOLDER(in, input);
        QTemporaryDir tmp;
        const QString out = tmp.filePath("out");
        QStringList args{"forget", in};
        for (const auto& a : c["amn"].toArray()) args << a.toString();
        const auto r = run_amn(args << "-o" << out);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(c["files"].toObject().size(), 3);
        const QString diff = differs_from_recorded(out, c["files"].toObject());
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    // remember MLX_DIR --layout hf: the switch_mlp stacks of a folder the real
    // mlx_lm.convert made from a tiny MoE folder back under the Hugging Face
    // expert names, deepseek_v3's embed_q / unembed_out joined back into kv_b_proj
    // (tests/cli/data/mlx_remember_hf_reference.json). Quantized:
    // the folder amn forget writes (its model.safetensors = mlx_lm's, sha256),
    // every tensor as mx.dequantize gives it, cut per expert. Unquantized: the
    // stacked folder (its tensors = mlx_lm's), back to the original folder's
    // tensors byte for byte.
    void rememberHfLayout_data() {
        QTest::addColumn<QJsonObject>("c");
        QFile rf(QString::fromStdString(amn::test::source_dir()) + "/tests/cli/data/mlx_remember_hf_reference.json");
        if (!rf.open(QIODevice::ReadOnly)) qFatal("cannot read mlx_remember_hf_reference.json");
        const QJsonArray cases = QJsonDocument::fromJson(rf.readAll()).object()["cases"].toArray();
        if (cases.size() != 12) qFatal("mlx_remember_hf_reference.json: %d cases, expected 12", int(cases.size()));
        for (const auto& cv : cases) {
            const QJsonObject c = cv.toObject();
            QStringList conv;
            for (const auto& a : c["mlx_lm_convert"].toArray()) conv << a.toString();
            QTest::newRow(qPrintable(c["input"].toString() + " " + conv.join(' '))) << c;
        }
    }
    void rememberHfLayout() {
        QFETCH(QJsonObject, c);
        const QString input = c["input"].toString();
        INPUT_FOLDER(in, input);
        QTemporaryDir tmp;
        const QString mlx = tmp.filePath("mlx"), hf = tmp.filePath("hf");
        if (c.contains("amn")) {
            QStringList args{"forget", in};
            for (const auto& a : c["amn"].toArray()) args << a.toString();
            const auto r = run_amn(args << "-o" << mlx << "-q");
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            const QString diff = differs_from_recorded(mlx, QJsonObject{{"model.safetensors", c["model_sha256"]}});
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        } else {
            QVERIFY(!mlx_folders_json({"--stack", in, mlx}).isEmpty() || QFileInfo::exists(mlx + "/model.safetensors"));
            const QString diff = digest_diff(mlx_folders_json({"--digest", mlx}), c["mlx_tensors"].toObject());
            QVERIFY2(diff.isEmpty(), qPrintable("the stacked folder is not mlx_lm.convert's: " + diff));
        }
        const auto r = run_amn({"remember", mlx, "--layout", "hf", "-o", hf, "-q"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QJsonObject got = mlx_folders_json({"--digest", hf}), original = mlx_folders_json({"--digest", in});
        QVERIFY(!got.isEmpty() && !original.isEmpty());
        // The Hugging Face names of the original folder, no more, no fewer (gpt-oss's MXFP4
        // X_blocks / X_scales: X, transformers' dequantized name).
        QStringList names;
        for (const auto& k : original.keys())
            if (!k.endsWith("_scales")) names << (k.endsWith("_blocks") ? k.chopped(7) : k);
        names.sort();
        QCOMPARE(got.keys(), names);
        const QString diff = digest_diff(got, c.contains("amn") ? c["hf_tensors"].toObject() : original);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const QJsonObject cfg = json_file(hf + "/config.json");
        QVERIFY(!cfg.contains("quantization") && !cfg.contains("quantization_config"));
    }

    // --quant-predicate on a model with no down_proj module (its MLP named
    // fc1/fc2 here): mlx-lm's recipes place the layer index by one, so a named
    // error, nothing written.
    void quantPredicateNeedsDownProj() {
        const QString root = hf_folders();
        QVERIFY2(!root.isEmpty(), "tests/cli/mlx_folders.py --hf failed");
        QTemporaryDir tmp;
        const QString in = tmp.filePath("in");
        QVERIFY(QDir().mkpath(in));
        QVERIFY(QFile::copy(root + "/llama-f32-f16-as-bf16/config.json", in + "/config.json"));
        QFile src(root + "/llama-f32-f16-as-bf16/model.safetensors");
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray bytes = src.readAll();
        quint64 n = 0;
        std::memcpy(&n, bytes.constData(), 8);
        // The header with mlp.down_proj.weight → mlp.fc2.weight, padded with JSON whitespace after the key (same length).
        QByteArray header = bytes.mid(8, static_cast<qsizetype>(n));
        QVERIFY(header.contains("down_proj"));
        header.replace("mlp.down_proj.weight\"", "mlp.fc2.weight\"      ");
        QVERIFY(!header.contains("down_proj") && header.size() == static_cast<qsizetype>(n));
        QFile dst(in + "/model.safetensors");
        QVERIFY(dst.open(QIODevice::WriteOnly));
        dst.write(bytes.left(8) + header + bytes.mid(8 + static_cast<qsizetype>(n)));
        dst.close();
        const auto r = run_amn({"forget", in, "--to", "mlx", "--quant-predicate", "mixed_3_6", "-o", tmp.filePath("o")});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("no down_proj module"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(tmp.filePath("o")));
        // Without the recipe the same folder converts (the error is the recipe's).
        QCOMPARE(run_amn({"forget", in, "--to", "mlx", "-q", "-o", tmp.filePath("p")}).exit_code, 0);
    }

    // A model mlx-lm has no model file for, or whose experts amn does not
    // know how mlx-lm stacks: a named error, nothing written.
    void forgetToMlxRefusesModel_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("model_type");
        QTest::addColumn<QString>("says");
        QTest::newRow("falcon") << "llama-f32-f16-as-bf16" << "falcon" << "has no model for model_type \"falcon\"";
        QTest::newRow("glm4_moe experts") << "qwen2_moe-f16" << "glm4_moe"
                                          << "stacks them for mixtral, qwen2_moe, qwen3_moe, olmoe, deepseek_v2 and deepseek_v3 only";
        QTest::newRow("gpt_oss experts") << "qwen2_moe-f16" << "gpt_oss" << "stacks them for mixtral";
        QTest::newRow("gpt_oss BF16") << "gpt_oss-bf16" << "gpt_oss" << "mlx-lm cannot convert a BF16 gpt-oss checkpoint";
        // deepseek_v3's sanitize drops model.layers.61…: a 62-layer model would lose a real layer.
        QTest::newRow("deepseek_v3 62 layers") << "deepseek_v3-f32" << "deepseek_v3:62" << "with num_hidden_layers = 62";
        QTest::newRow("deepseek_v3 layer 2 of 2") << "deepseek_v3-f32" << "deepseek_v3:2" << "would not load";
    }
    void forgetToMlxRefusesModel() {
        QFETCH(QString, folder);
        QFETCH(QString, model_type);
        QFETCH(QString, says);
        const QString root = hf_folders();
        QVERIFY2(!root.isEmpty(), "tests/cli/mlx_folders.py --hf failed");
        QTemporaryDir tmp;
        const QString in = tmp.filePath("in");
        QVERIFY(QDir().mkpath(in));
        QVERIFY(QFile::copy(root + "/" + folder + "/model.safetensors", in + "/model.safetensors"));
        QJsonObject cfg = json_file(root + "/" + folder + "/config.json");
        QVERIFY(cfg.contains("model_type"));
        cfg["model_type"] = model_type.section(':', 0, 0);
        if (model_type.contains(':')) cfg["num_hidden_layers"] = model_type.section(':', 1).toInt();
        QFile out(in + "/config.json");
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(cfg).toJson());
        out.close();
        const auto r = run_amn({"forget", in, "--to", "mlx", "-o", tmp.filePath("o")});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains(says), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(tmp.filePath("o")));
    }

    void forgetToMlxRefuses_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("7 bits") << QStringList{"--to", "mlx:7"} << "unknown scheme 'mlx:7'";
        QTest::newRow("group 48") << QStringList{"--to", "mlx:4", "--group-size", "48"} << "32, 64 or 128";
        QTest::newRow("--blocksize") << QStringList{"--to", "mlx", "--blocksize", "64"} << "--blocksize does not apply";
        QTest::newRow("mxfp4 group 64") << QStringList{"--to", "mlx:mxfp4", "--group-size", "64"} << "group size of 32";
        QTest::newRow("nvfp4 group 32") << QStringList{"--to", "mlx:nvfp4", "--group-size", "32"} << "group size of 16";
        QTest::newRow("--dtype int8") << QStringList{"--to", "mlx", "--dtype", "int8"} << "float16, bfloat16 or float32";
        QTest::newRow("--dtype for bnb-nf4") << QStringList{"--to", "bnb-nf4", "--dtype", "float16"} << "--dtype applies to --to mlx only";
        QTest::newRow("recipe unknown") << QStringList{"--to", "mlx", "--quant-predicate", "mixed_2_4"} << "mixed_2_6, mixed_3_4, mixed_3_6 or mixed_4_6";
        QTest::newRow("recipe mxfp4") << QStringList{"--to", "mlx:mxfp4", "--quant-predicate", "mixed_3_6"} << "affine quantization only";
        QTest::newRow("recipe for bnb-nf4") << QStringList{"--to", "bnb-nf4", "--quant-predicate", "mixed_3_6"} << "--quant-predicate applies to --to mlx only";
    }
    void forgetToMlxRefuses() {
        SKIP_WITHOUT_MLX(dir);
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        QTemporaryDir tmp;
        const auto r = run_amn(QStringList{"forget", dir + "/../hf-gguf/inputs/Llama-2-7b-hf"} + args + QStringList{"-o", tmp.filePath("o")});
        QVERIFY(r.exit_code != 0);
        QVERIFY2(r.err.contains(says), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(tmp.filePath("o")));
    }

    void inspectNamesEveryScheme() {
        SKIP_WITHOUT_MLX(dir);
        const auto r = run_amn({"inspect", "--json", dir + "/mlx-mixed-3-6"});
        QCOMPARE(r.exit_code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QMap<QString, int> ids;
        for (const auto& s : o["schemes"].toArray()) ids[s.toObject()["id"].toString()] = s.toObject()["tensors"].toInt();
        // config.json: 3-bit g64 by default; 6-bit for embed_tokens and lm_head, 6-bit g32 for one
        // down_proj, 4-bit g128 for one v_proj, one o_proj false (plain BF16).
        QCOMPARE(ids.value("mlx-affine-6bit-g64"), 2);
        QCOMPARE(ids.value("mlx-affine-6bit-g32"), 1);
        QCOMPARE(ids.value("mlx-affine-4bit-g128"), 1);
        QCOMPARE(ids.value("mlx-affine-3bit-g64"), 11);
        QCOMPARE(o["tensors"].toObject()["unsupported"].toInt(), 0);
    }

    void badInput_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("says");
        QTest::newRow("no quantization in config.json")
            << "mlx-2bit-g128" << "\"quantization" << "\"unrelated_quantization" << "no MLX \"quantization\"";
        QTest::newRow("bits disagree with the shapes") << "mlx-2bit-g128" << "\"bits\": 2" << "\"bits\": 4" << "does not hold";
        QTest::newRow("module marked false but stored quantized")
            << "mlx-mixed-3-6" << "\"model.layers.1.self_attn.v_proj\": {" << "\"model.layers.1.self_attn.v_proj\": false, \"x\": {"
            << "is false (not quantized)";
        QTest::newRow("unknown mode") << "mlx-llama-4bit-g64" << "\"mode\": \"affine\"" << "\"mode\": \"int4\"" << "not affine, mxfp4";
        QTest::newRow("a width MLX has not") << "mlx-2bit-g128" << "\"bits\": 2" << "\"bits\": 7" << "code widths";
    }
    void badInput() {
        SKIP_WITHOUT_MLX(dir);
        QFETCH(QString, fixture);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, says);
        QTemporaryDir tmp;
        const QString in = fixture_variant(tmp, fixture, from, to);
        const QStringList before = amn::test::list_files(in);
        const QString o = tmp.filePath("out");
        const auto r = run_amn({"remember", in, "-o", o});
        QCOMPARE(r.exit_code, 1);
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY2(r.err.contains("MLX") && r.err.contains(says), qPrintable(r.err));
        QVERIFY2(r.err.contains(".weight"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(o));
        QCOMPARE(amn::test::list_files(tmp.path() + "/" + fixture), before);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{fixture});
    }
};

QTEST_GUILESS_MAIN(TestCliMlx)
#include "test_cli_mlx.moc"
