// SPDX-License-Identifier: MIT OR Apache-2.0
// amn convert ADAPTER_DIR --to gguf[:T] --base BASE_DIR (issue 32's LoRA
// adapters): seeded PEFT adapters of tests/core/hf_lora_models.py over llama
// (Llama 2: Q and K permuted; Llama 3: GQA), qwen2 (one as adapter_model.bin),
// qwen3 and qwen3moe (experts stacked) bases, mergekit's layout, and every
// linear of gpt2 / ERNIE 4.5 / falcon-40b / internlm2 (transposed, cut,
// regrouped tensors), judged by
// llama.cpp's convert_lora_to_gguf.py (34af94c): the sha256 of the file it
// wrote per output type and the name of its default output
// (tests/core/hf_lora_reference.json); llama-export-lora merging the result
// into the base's GGUF; and the bad input (one named line, nothing written).
#include "hf_gguf_support.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::hf_gguf_dir;
using amn::test::run;
using amn::test::run_amn;
using amn::test::sha256_of;

namespace {

// tests/core/hf_lora_models.py --inputs-only --bad (a few hundred KB), made once.
QString adapters() {
    static QTemporaryDir dir;
    static const bool made = run(QString::fromStdString(amn::test::python()),
                                 {QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_lora_models.py", dir.path(),
                                  "--shared", QString::fromStdString(amn::test::shared_fixtures_dir()), "--inputs-only", "--bad"})
                                 .exit_code == 0;
    return made ? dir.path() : QString();
}

QJsonObject reference_cases() {
    QFile f(QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_lora_reference.json");
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("cases").toObject();
}

// The files of `dir` (names), for "nothing written".
QStringList files_in(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::NoDotAndDotDot); }

// The tensors (name → shape) of an adapter folder: the safetensors header
// read here, or (adapter_model.bin) the names `amn parse --json` lists.
QMap<QString, QList<qint64>> adapter_tensors(const QString& dir) {
    QMap<QString, QList<qint64>> out;
    QJsonArray list;
    QFile st(dir + "/adapter_model.safetensors");
    if (st.open(QIODevice::ReadOnly)) {
        const QByteArray len = st.read(8);
        quint64 n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(len[i]);
        const QJsonObject h = QJsonDocument::fromJson(st.read(static_cast<qint64>(n))).object();
        for (auto it = h.begin(); it != h.end(); ++it)
            if (it.key() != "__metadata__") list.append(QJsonObject{{"name", it.key()}, {"shape", it.value().toObject().value("shape")}});
    } else {
        list = QJsonDocument::fromJson(run_amn({"parse", "--json", dir}).out.toUtf8()).object().value("tensors").toArray();
    }
    for (const auto& v : list) {
        QList<qint64> shape;
        for (const auto& d : v.toObject().value("shape").toArray()) shape << d.toInteger();
        out.insert(v.toObject().value("name").toString(), shape);
    }
    return out;
}

}  // namespace

class TestCliHfLora : public QObject {
    Q_OBJECT

private slots:
    // Every case × --outtype f32/f16/bf16/q8_0: the whole file as convert_lora_to_gguf.py wrote it.
    void matrix_data() {
        QTest::addColumn<QString>("adapter");
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("outtype");
        QTest::addColumn<QByteArray>("sha");
        const QJsonObject cases = reference_cases();
        for (auto c = cases.begin(); c != cases.end(); ++c) {
            const QJsonObject o = c.value().toObject();
            const QJsonObject shas = o.value("sha256").toObject();
            for (auto t = shas.begin(); t != shas.end(); ++t)
                QTest::newRow(qPrintable(c.key() + " " + t.key()))
                    << c.key() << o.value("base").toString() << t.key() << t.value().toString().toLatin1();
        }
    }
    void matrix() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, adapter);
        QFETCH(QString, base);
        QFETCH(QString, outtype);
        QFETCH(QByteArray, sha);
        const QString m = adapters();
        QVERIFY2(!m.isEmpty(), "tests/core/hf_lora_models.py --inputs-only failed");
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/o.gguf";
        const auto r = run_amn({"convert", m + "/" + adapter, "--to", "gguf:" + outtype.toUpper(), "--base", m + "/bases/" + base,
                                "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), sha);
    }

    // No -o: the converter's default name (it writes into the adapter folder, amn beside it);
    // --to gguf without a type is the converter's default, F32; --dry-run lists and writes nothing.
    void defaultNameAndType() {
        SKIP_WITHOUT_HF_GGUF(dir);
        const QJsonObject cases = reference_cases();
        QVERIFY(!cases.isEmpty());
        const QString m = adapters();
        QVERIFY2(!m.isEmpty(), "tests/core/hf_lora_models.py --inputs-only failed");
        const QString name = cases.begin().key();
        const QJsonObject o = cases.begin().value().toObject();
        QTemporaryDir tmp;
        QVERIFY(amn::test::copy_dir(m + "/" + name, tmp.path() + "/" + name));
        const QString base = m + "/bases/" + o.value("base").toString();

        auto r = run_amn({"convert", tmp.path() + "/" + name, "--to", "gguf:F16", "--base", base, "--dry-run"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(".lora_a") && r.out.contains(".lora_b") && r.out.contains("convert_lora_to_gguf --outtype F16") &&
                     r.out.contains("(nothing written)") && r.out.contains(o.value("default_name_f16").toString()),
                 qPrintable(r.out));
        QCOMPARE(files_in(tmp.path()).size(), 0);

        r = run_amn({"convert", tmp.path() + "/" + name, "--to", "gguf:F16", "--base", base, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QString made = tmp.path() + "/" + o.value("default_name_f16").toString();
        QVERIFY2(QFileInfo::exists(made), qPrintable(files_in(tmp.path()).join(", ")));
        QCOMPARE(sha256_of(made), o.value("sha256").toObject().value("f16").toString().toLatin1());

        const QString out = tmp.path() + "/d.gguf";
        r = run_amn({"convert", tmp.path() + "/" + name, "--to", "gguf", "--base", base, "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), o.value("sha256").toObject().value("f32").toString().toLatin1());

        // The weights file named instead of the folder: the same adapter (named after its folder).
        const QString out2 = tmp.path() + "/e.gguf";
        r = run_amn({"convert", tmp.path() + "/" + name + "/adapter_model.safetensors", "--to", "gguf:BF16", "--base", base, "-o",
                     out2, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out2), o.value("sha256").toObject().value("bf16").toString().toLatin1());
    }

    // A real client: llama.cpp's llama-export-lora (AMN_LLAMA_BIN, default /work/llama/build/bin;
    // skipped without it) merges amn's adapter into amn's F32 GGUF of the base (the shared fixture);
    // tests/cli/lora_merge_check.py (gguf-py of AMN_LLAMA_SRC, default /work/llama/src) checks every
    // merged tensor against PEFT's merge done in HF space (W + alpha/r · B @ A, q/k rows permuted
    // with the head counts given here), the other tensors unchanged.
    void exportLora_data() {
        QTest::addColumn<QString>("adapter");
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("heads");  // n_head n_kv_head
        QTest::newRow("llama 2") << "Llama-2-7b-sql-lora" << "Llama-2-7b-hf" << "4 4";
        QTest::newRow("llama 3 GQA") << "Llama-3-8B-Instruct-chat-LoRA" << "Meta-Llama-3-8B-Instruct" << "4 2";
        QTest::newRow("qwen3") << "Qwen3-0.6B-math-lora" << "Qwen3-0.6B" << "0 0";
    }
    void exportLora() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, adapter);
        QFETCH(QString, base);
        QFETCH(QString, heads);
        const QString bin = qEnvironmentVariableIsSet("AMN_LLAMA_BIN") ? qEnvironmentVariable("AMN_LLAMA_BIN")
                                                                        : QStringLiteral("/work/llama/build/bin");
        const QString src = qEnvironmentVariableIsSet("AMN_LLAMA_SRC") ? qEnvironmentVariable("AMN_LLAMA_SRC")
                                                                        : QStringLiteral("/work/llama/src");
        const QString tool = bin + "/llama-export-lora";
        if (!QFileInfo::exists(tool)) QSKIP("llama-export-lora missing (AMN_LLAMA_BIN: llama.cpp's build/bin)");
        if (!QFileInfo::exists(src + "/gguf-py")) QSKIP("gguf-py missing (AMN_LLAMA_SRC: llama.cpp's source)");
        const QString m = adapters();
        QVERIFY2(!m.isEmpty(), "tests/core/hf_lora_models.py --inputs-only failed");
        QTemporaryDir tmp;
        const QString b = tmp.path() + "/base.gguf", lora = tmp.path() + "/lora.gguf", merged = tmp.path() + "/merged.gguf";
        auto r = run_amn({"convert", dir + "/inputs/" + base, "--to", "gguf:F32", "-o", b, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run_amn({"convert", m + "/" + adapter, "--to", "gguf:F32", "--base", dir + "/inputs/" + base, "-o", lora, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto e = run(tool, {"-m", b, "--lora", lora, "-o", merged});
        QVERIFY2(e.exit_code == 0 && QFileInfo::exists(merged), qPrintable(e.err + e.out));
        QVERIFY2((e.err + e.out).contains("merged ") && (e.err + e.out).contains(" tensors with lora adapters"), qPrintable(e.err + e.out));
        const QStringList hv = heads.split(' ');
        const auto c = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/cli/lora_merge_check.py", src, b, merged,
                            m + "/" + adapter, hv.at(0), hv.at(1)});
        QVERIFY2(c.exit_code == 0 && c.out.contains("ok "), qPrintable(c.out + c.err));
    }

    // amn inspect of an adapter folder: the config's rank, alpha, scale, targets and base, the
    // pairs of the weights, and whether it becomes a GGUF adapter — against adapter_config.json
    // and the tensor names read here.
    void inspectAdapter_data() {
        QTest::addColumn<QString>("adapter");
        QTest::addColumn<QString>("refusal");  // "" = converts
        const QJsonObject cases = reference_cases();
        for (auto c = cases.begin(); c != cases.end(); ++c) QTest::newRow(qPrintable(c.key())) << c.key() << "";
        QTest::newRow("DoRA") << "bad/dora" << "use_dora is true";
        QTest::newRow("prefix tuning") << "bad/prefix-tuning" << "peft_type is \"PREFIX_TUNING\"";
        QTest::newRow("alpha_pattern") << "bad/alpha-pattern" << "alpha_pattern is not empty";
        QTest::newRow("no lora_alpha") << "bad/no-alpha" << "no key 'lora_alpha'";
        QTest::newRow("lora_A alone") << "bad/lonely-lora-a" << "";  // refused by the weights, at convert
    }
    void inspectAdapter() {
        QFETCH(QString, adapter);
        QFETCH(QString, refusal);
        const QString m = adapters();
        QVERIFY2(!m.isEmpty(), "tests/core/hf_lora_models.py --inputs-only failed");
        const QString dir = m + "/" + adapter;
        QFile cf(dir + "/adapter_config.json");
        QVERIFY(cf.open(QIODevice::ReadOnly));
        const QJsonObject cfg = QJsonDocument::fromJson(cf.readAll()).object();
        const auto r = run_amn({"inspect", "--json", dir});
        QCOMPARE(r.exit_code, 0);
        const QJsonObject a = QJsonDocument::fromJson(r.out.toUtf8()).object().value("adapter").toObject();
        QVERIFY2(!a.isEmpty(), qPrintable(r.out));
        QCOMPARE(a.value("peft_type").toString(), cfg.value("peft_type").toString());
        QCOMPARE(a.value("base_model").toString(), cfg.value("base_model_name_or_path").toString());
        QCOMPARE(a.value("r").toInteger(), cfg.value("r").toInteger());
        QCOMPARE(a.value("lora_alpha").isNull(), !cfg.contains("lora_alpha"));
        if (cfg.contains("lora_alpha")) {
            QCOMPARE(a.value("lora_alpha").toDouble(), cfg.value("lora_alpha").toDouble());
            QCOMPARE(a.value("scale").toDouble(), cfg.value("lora_alpha").toDouble() / cfg.value("r").toDouble());
        }
        QCOMPARE(a.value("use_dora").toBool(), cfg.value("use_dora").toBool());
        QCOMPARE(a.value("alpha_pattern").toInteger(), qint64(cfg.value("alpha_pattern").toObject().size()));
        QCOMPARE(a.value("target_modules").toArray(), cfg.value("target_modules").isString()
                                                          ? QJsonArray{cfg.value("target_modules")}
                                                          : cfg.value("target_modules").toArray());
        // The weights: a module is adapted when both its A and its B are there; A's rows are its rank.
        QMap<QString, int> halves;
        QMap<QString, qint64> rank;
        int members = 0;
        const auto tensors = adapter_tensors(dir);
        for (auto t = tensors.begin(); t != tensors.end(); ++t) {
            static const QRegularExpression pair(R"(^(.*)\.lora_(embedding_)?([AB])(\.|$))");
            const auto mt = pair.match(t.key());
            if (!mt.hasMatch()) continue;
            ++members;
            ++halves[mt.captured(1)];
            if (mt.captured(3) == "A") rank[mt.captured(1)] = t.value().value(0);
        }
        qint64 pairs = 0, lo = 0, hi = 0;
        for (auto h = halves.begin(); h != halves.end(); ++h) {
            if (h.value() != 2) continue;
            const qint64 k = rank.value(h.key());
            lo = pairs ? std::min(lo, k) : k;
            hi = std::max(hi, k);
            ++pairs;
        }
        QVERIFY(pairs > 0);
        QCOMPARE(a.value("adapted_modules").toInteger(), pairs);
        QCOMPARE(a.value("whole_tensors").toInteger(), qint64(tensors.size() - members));
        QCOMPARE(a.value("min_rank").toInteger(), lo);
        QCOMPARE(a.value("max_rank").toInteger(), hi);
        if (refusal.isEmpty()) QCOMPARE(a.value("gguf_refusal").toString(), QString());
        else QVERIFY2(a.value("gguf_refusal").toString().contains(refusal), qPrintable(a.value("gguf_refusal").toString()));
        // The human form says the same.
        const auto h = run_amn({"inspect", dir});
        QVERIFY2(h.out.contains(QString("  adapter       PEFT %1, rank %2").arg(cfg.value("peft_type").toString()).arg(cfg.value("r").toInteger())),
                 qPrintable(h.out));
        QVERIFY2(h.out.contains(refusal.isEmpty() ? QString("--to gguf --base BASE_DIR") : "GGUF          not possible: "), qPrintable(h.out));
    }

    // Bad input: exit 1, one line naming the cause, nothing written.
    void refusals_data() {
        QTest::addColumn<QString>("adapter");  // under the generated folder
        QTest::addColumn<QString>("base");     // under bases/; "" = no --base
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("error");
        const QString ok = "Llama-2-7b-sql-lora", llama = "Llama-2-7b-hf";
        QTest::newRow("no --base") << ok << "" << "gguf" << "--base BASE_DIR is needed";
        QTest::newRow("base arch unknown") << ok << "FooBase" << "gguf" << "FooForCausalLM";
        QTest::newRow("outtype auto") << ok << llama << "gguf:auto" << "--outtype auto is not available for adapters";
        QTest::newRow("DoRA") << "bad/dora" << llama << "gguf" << "use_dora is true";
        QTest::newRow("prefix tuning") << "bad/prefix-tuning" << llama << "gguf" << "peft_type is \"PREFIX_TUNING\"";
        QTest::newRow("alpha_pattern") << "bad/alpha-pattern" << llama << "gguf" << "alpha_pattern is not empty";
        QTest::newRow("no lora_alpha") << "bad/no-alpha" << llama << "gguf" << "no key 'lora_alpha'";
        QTest::newRow("lora_A alone") << "bad/lonely-lora-a" << llama << "gguf" << "lora_A without its lora_B";
        QTest::newRow("rank mismatch") << "bad/rank-mismatch" << llama << "gguf" << "rank mismatch";
        QTest::newRow("modules_to_save") << "bad/modules-to-save" << llama << "gguf" << "embeddings saved whole";
        QTest::newRow("no GGUF name") << "bad/unknown-module" << llama << "gguf" << "foo_proj";
        QTest::newRow("--base-model-id") << ok << llama << "gguf --base-model-id meta-llama/Llama-2-7b-hf"
                                         << "--base-model-id reads the base's config from the Hugging Face Hub";
        QTest::newRow("no adapter_config.json") << "bases/" + llama << llama << "gguf" << "--base is for a PEFT adapter folder";
    }
    void refusals() {
        SKIP_WITHOUT_HF_GGUF(dir);  // the adapters' bases are the shared fixtures' config.json
        QFETCH(QString, adapter);
        QFETCH(QString, base);
        QFETCH(QString, to);
        QFETCH(QString, error);
        const QString m = adapters();
        QVERIFY2(!m.isEmpty(), "tests/core/hf_lora_models.py --inputs-only failed");
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/o.gguf";
        QStringList args{"convert", m + "/" + adapter, "--to"};
        args << to.split(' ') << "-o" << out << "--quiet";
        if (!base.isEmpty()) args << "--base" << m + "/bases/" + base;
        const QStringList before = files_in(m + "/" + adapter);
        const auto r = run_amn(args);
        QVERIFY2(r.exit_code != 0, qPrintable(r.out));
        QVERIFY2(r.err.contains(error), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(!QFileInfo::exists(out));
        QCOMPARE(files_in(m + "/" + adapter), before);
    }
};

QTEST_GUILESS_MAIN(TestCliHfLora)
#include "test_cli_hf_lora.moc"
