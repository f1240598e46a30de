// SPDX-License-Identifier: MIT OR Apache-2.0
// amn convert DIR --to gguf[:T] for every architecture row of the table
// (tests/core/hf_arch_models.py's seeded tiny folders), judged by llama.cpp's
// convert_hf_to_gguf.py (34af94c): the sha256 of the file it wrote for each
// output type (tests/core/hf_arch_reference.json; the four older cases
// below), and the embedding rows' bad input (one named line, nothing
// written). Split from test_cli_hf_gguf (the rest of HF → GGUF) so the two
// run side by side.
#include "anamnesis/gguf.hpp"
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

#include <cmath>

using amn::test::copy_dir;
using amn::test::hf_gguf_dir;
using amn::test::run;
using amn::test::run_amn;
using amn::test::sha256_of;
using amn::test::write_bytes;

namespace {

// The folders of tests/core/hf_arch_models.py --inputs-only (~340 MB, mostly
// tokenizers and vocab-sized embeddings), made once for every test that uses
// them; empty when the script failed.
QString arch_models() {
    static QTemporaryDir dir;
    static const bool made = run(QString::fromStdString(amn::test::python()),
                                 {QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_arch_models.py", dir.path(),
                                  "--shared", QString::fromStdString(amn::test::shared_fixtures_dir()), "--inputs-only"})
                                 .exit_code == 0;
    return made ? dir.path() : QString();
}

}  // namespace

class TestCliHfArch : public QObject {
    Q_OBJECT

private slots:
    // The architectures the shared fixtures lack — qwen2 (q/k/v biases), qwen3moe (experts
    // stacked), phi3 (longrope: rope_factors_long/short, attn_factor), gpt2 (Conv1D transposed,
    // position_embd) — as whole files: folders made by tests/core/hf_arch_models.py --inputs-only
    // (seeded; tokenizers copied from the shared fixtures), converted by convert_hf_to_gguf.py
    // (34af94c, the shared hf_shim) with --outtype f32; the sha256 of its files recorded here.
    void ownArchitectures_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QByteArray>("sha");
        QTest::newRow("qwen2") << "Qwen2.5-0.5B" << QByteArray("057e321bacd34f053ab8884d4e9e3ffc5786d36e0cd3290685afa0bee2f4b5df");
        QTest::newRow("qwen3moe") << "Qwen3-30B-A3B" << QByteArray("05691a772ff5fb9e7355c07f3985c603c2aa44714510729f319ebf60490aff88");
        QTest::newRow("phi3") << "Phi-3-mini-128k-instruct" << QByteArray("e0236cc96e34c7bba0a88a5d92572e1801decf4f3732da54d4f30f928456dd1e");
        QTest::newRow("gpt2") << "gpt2" << QByteArray("08bb2192e1e0b6898f7f9f857206c44fca1d980475a5e79c2f912ab274d2b499");
    }
    void ownArchitectures() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QByteArray, sha);
        const QString models = arch_models();
        QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/o.gguf";
        const auto r = run_amn({"convert", models + "/" + input, "--to", "gguf:F32", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), sha);
    }

    // The architectures added in issue 24 (gemma2, gemma3 with SentencePiece and with BPE —
    // embedding trimmed to the tokenizer —, granite, olmo2 (OLMo 2 and OLMo 3 with its sliding
    // window pattern), mistral3 (Ministral3ForCausalLM and Mistral-Small-3.1's
    // Mistral3ForConditionalGeneration, vision tensors dropped), deepseek2 (V3 with q_lora_rank,
    // shared expert, MTP layer skipped; V2-Lite), gpt-oss (MXFP4 experts repacked, and the BF16
    // form)): folders from
    // tests/core/hf_arch_models.py --inputs-only (BF16, seeded), each output type against the
    // sha256 of the file convert_hf_to_gguf.py (34af94c) wrote, as recorded in
    // tests/core/hf_arch_reference.json ("sha256" per --outtype); `amn inspect` names the
    // architecture the converter wrote.
    void moreArchitectures_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("outtype");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QByteArray>("sha");
        QFile f(QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_arch_reference.json");
        if (!f.open(QIODevice::ReadOnly)) return;
        const QJsonObject cases = QJsonDocument::fromJson(f.readAll()).object().value("cases").toObject();
        for (auto c = cases.begin(); c != cases.end(); ++c) {
            const QJsonObject o = c.value().toObject();
            const QJsonObject shas = o.value("sha256").toObject();
            const QString arch = o.value("kv").toArray().at(0).toObject().value("value").toString();
            for (auto t = shas.begin(); t != shas.end(); ++t)
                // Under ASan (~5 min for all rows) the F32 outputs only: they carry every
                // layout transform; the BF16/Q8_0 encoders have their own suites there.
                if (!amn::test::kSanitized || t.key() == "f32")
                    QTest::newRow(qPrintable(c.key() + " " + t.key()))
                        << c.key() << t.key() << arch << t.value().toString().toLatin1();
        }
    }
    void moreArchitectures() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QFETCH(QString, input);
        QFETCH(QString, outtype);
        QFETCH(QString, arch);
        QFETCH(QByteArray, sha);
        const QString models = arch_models();
        QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        const QString in = models + "/" + input;
        if (outtype == "f32") {
            const auto i = run_amn({"inspect", in, "--json"});
            QVERIFY2(i.exit_code == 0, qPrintable(i.err));
            const QJsonObject hf = QJsonDocument::fromJson(i.out.toUtf8()).object().value("hf_gguf").toObject();
            QCOMPARE(hf.value("gguf_architecture").toString(), arch);
        }
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/o.gguf";
        // "f32 --no-mtp": the outtype, then more converter options (amn's have the same names).
        QStringList words = outtype.split(' ');
        QStringList args{"convert", in, "--to", "gguf:" + words.takeFirst().toUpper(), "-o", out, "--quiet"};
        const auto r = run_amn(args + words);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(out), sha);
    }

    // Issue 32, BERT's bad input: no tokenizer.json (the vocabulary is the WordPiece tokenizer.json's),
    // a WordPiece tokenizer whose check-text hash llama.cpp does not know (uncased vocabulary, no
    // lowercasing): one named error each, no file written.
    void bertRefusals() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const auto g = run(QString::fromStdString(amn::test::python()),
                           {QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_arch_models.py", tmp.path(),
                            "--inputs-only", "--cases", "bge-small-en-v1.5"});
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        const QString in = tmp.path() + "/bge-small-en-v1.5", out = tmp.path() + "/o.gguf";
        QVERIFY(QFile::rename(in + "/tokenizer.json", tmp.path() + "/tokenizer.json"));
        auto r = run_amn({"convert", in, "--to", "gguf:F32", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("tokenizer.json: no tokenizer.json: BERT vocabularies are read from a WordPiece tokenizer.json"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));

        QFile src(tmp.path() + "/tokenizer.json");
        QVERIFY(src.open(QIODevice::ReadOnly));
        QByteArray text = src.readAll();
        QVERIFY(text.contains("\"lowercase\": true"));
        text.replace("\"lowercase\": true", "\"lowercase\": false");
        QFile dst(in + "/tokenizer.json");
        QVERIFY(dst.open(QIODevice::WriteOnly) && dst.write(text) == text.size());
        dst.close();
        r = run_amn({"convert", in, "--to", "gguf:F32", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("WordPiece pre-tokenizer not recognized") && r.err.contains("--vocab-pre"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    // A class the converter registers and amn refuses on purpose says why (HunYuan MoE's tokenizer exists only as
    // remote code), not "unknown architecture"; nothing written.
    void refusedClass_data() {
        QTest::addColumn<QString>("cls");
        QTest::addColumn<QString>("model_type");
        QTest::addColumn<QString>("why");
        QTest::newRow("hunyuan-moe") << "HunYuanMoEV1ForCausalLM" << "hunyuan_v1_moe"
                                     << "its tokenizer exists only as the model's remote code";
        QTest::newRow("camembert") << "CamembertModel" << "camembert" << "BPE pre-tokenizer was not recognized";
    }
    void refusedClass() {
        QFETCH(QString, cls);
        QFETCH(QString, model_type);
        QFETCH(QString, why);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString in = tmp.path() + "/model", out = tmp.path() + "/o.gguf";
        QVERIFY(QDir().mkpath(in));
        write_bytes(in + "/config.json", QString(R"({"architectures": ["%1"], "model_type": "%2"})").arg(cls, model_type).toUtf8());
        write_bytes(in + "/model.safetensors", QByteArray("\x02\0\0\0\0\0\0\0{}", 10));
        const auto r = run_amn({"convert", in, "--to", "gguf", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains(cls + " is not supported: ") && r.err.contains(why), qPrintable(r.err));
        QVERIFY(!r.err.contains("unknown architecture"));
        QVERIFY(!QFileInfo::exists(out));
    }

    // Mamba (issue 32): an F16 A_log is refused by name (torch 1.13's CPU exp has no Half kernel: the converter
    // stops with "exp_vml_cpu not implemented for 'Half'"), and so is a folder without tokenizer files (the converter's
    // built-in GPT-NeoX vocabulary); nothing written. llama.cpp's llama-simple loads amn's F32 file of each case (Mamba-2's too; the
    // sha256 above proves it is the converter's) and generates 8 tokens (AMN_LLAMA_BIN: llama.cpp's build/bin).
    void mamba() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString py = QString::fromStdString(amn::test::python()), core = QString::fromStdString(amn::test::source_dir()) + "/tests/core";
        const auto g = run(py, {"-c", "import sys; sys.path.insert(0, sys.argv[1]); import hf_arch_models as m, hf_arch_ssm as s; "
                                      "cfg, t, tok = s.mamba('mamba-f16'); m.make_inputs_for(sys.argv[2], sys.argv[3], 'mamba-f16', cfg, t, tok, 'F16'); "
                                      "m.make_inputs_for(sys.argv[2], sys.argv[3], 'mamba-notok', cfg, t, tok, 'F32')",
                                core, tmp.path(), QFileInfo(dir).path()});  // the shared fixtures above hf-gguf/
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        const QString in = tmp.path() + "/mamba-f16", out = tmp.path() + "/o.gguf";
        auto r = run_amn({"convert", in, "--to", "gguf:F32", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("backbone.layers.0.mixer.A_log: an F16 A_log: torch 1.13") && r.err.contains("no CPU exp for Half"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(QFile::remove(tmp.path() + "/mamba-notok/tokenizer.json"));
        r = run_amn({"convert", tmp.path() + "/mamba-notok", "--to", "gguf:F32", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("no tokenizer.json or tokenizer.model") && r.err.contains("GPT-NeoX"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));

        // An lm_head equal to the embedding is not written (MambaModel's torch.equal): the case's folder with one
        // added gives the converter's file of the folder without it (its recorded sha256; the converter drops it too).
        QVERIFY(QDir().mkpath(tmp.path() + "/tied"));
        const auto tied = run(py, {"-c", "import sys; sys.path.insert(0, sys.argv[1]); import hf_arch_models as m, hf_arch_ssm as s; "
                                         "c = 'mamba-130m-hf'; cfg, t, tok = s.mamba(c); m.make_inputs_for(sys.argv[2], sys.argv[3], c, cfg, t, tok); "
                                         "a = {n: m.a_log(c, n, v) if n.endswith('.A_log') else m.rand(c, n, v, norm='norm' in n) for n, v in t.items()}; "
                                         "a['lm_head.weight'] = a['backbone.embeddings.weight']; m.write_safetensors(sys.argv[2] + '/' + c + '/model.safetensors', a)",
                                   core, tmp.path() + "/tied", QFileInfo(dir).path()});
        QVERIFY2(tied.exit_code == 0, qPrintable(tied.err));
        r = run_amn({"convert", tmp.path() + "/tied/mamba-130m-hf", "--to", "gguf:F32", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QFile ref(QString::fromStdString(amn::test::source_dir()) + "/tests/core/hf_arch_reference.json");
        QVERIFY(ref.open(QIODevice::ReadOnly));
        const QJsonObject cs = QJsonDocument::fromJson(ref.readAll()).object().value("cases").toObject();
        QCOMPARE(sha256_of(out), cs.value("mamba-130m-hf").toObject().value("sha256").toObject().value("f32").toString().toLatin1());
        QVERIFY(QFile::remove(out));

        const QString bin = qEnvironmentVariableIsSet("AMN_LLAMA_BIN") ? qEnvironmentVariable("AMN_LLAMA_BIN")
                                                                        : QStringLiteral("/work/llama/build/bin");
        if (!QFileInfo::exists(bin + "/llama-simple")) QSKIP("llama-simple missing (AMN_LLAMA_BIN: llama.cpp's build/bin)");
        const QString models = arch_models();
        QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        for (const char* c : {"mamba-130m-hf", "falcon-mamba-7b", "mamba2-130m"}) {
            r = run_amn({"convert", models + "/" + c, "--to", "gguf:F32", "-o", out, "--quiet", "--force"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            r = run(bin + "/llama-simple", {"-m", out, "-n", "8", "hello"});
            QVERIFY2(r.exit_code == 0 && r.out.startsWith("hello") && r.err.contains("general.architecture str              = mamba"),  // mamba, mamba2
                     qPrintable(r.out + r.err.right(2000)));
            QVERIFY2(r.err.contains("decoded 8 tokens"), qPrintable(r.err.right(2000)));
        }
    }

    // Qwen3-Next: a folder without the MTP block (no mtp.* tensors and, as the real config, no mtp_num_hidden_layers)
    // is refused by name, nothing written (the converter stops at _QwenMtpMixin's assert opt_num_mtp_layers != 0;
    // checked with the shim); llama.cpp's llama-simple loads amn's F32 file of the case (the sha256 above proves it
    // is the converter's: delta-net, gated attention, MoE and the MTP layer's tensors) and generates 8 tokens, and
    // llama-quantize makes of it what amn forget makes of the folder in one pass.
    void qwen3Next() {
        SKIP_WITHOUT_HF_GGUF(dir);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString py = QString::fromStdString(amn::test::python()), core = QString::fromStdString(amn::test::source_dir()) + "/tests/core";
        const auto g = run(py, {"-c", "import sys; sys.path.insert(0, sys.argv[1]); import hf_arch_models as m, hf_arch_ssm as s; "
                                      "cfg, t, tok = s.qwen3_next('nomtp'); t = {n: v for n, v in t.items() if not n.startswith('mtp.')}; "
                                      "m.make_inputs_for(sys.argv[2], sys.argv[3], 'nomtp', cfg, t, tok)",
                                core, tmp.path(), QFileInfo(dir).path()});
        QVERIFY2(g.exit_code == 0, qPrintable(g.err));
        const QString out = tmp.path() + "/o.gguf";
        auto r = run_amn({"convert", tmp.path() + "/nomtp", "--to", "gguf:F32", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("no mtp_num_hidden_layers and no mtp.layers.N tensors"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        // With --no-mtp (as the converter's) it converts: no nextn key, the main layers only (the bytes of
        // --no-mtp on the whole folder are recorded above; here the converter's checked by hand, see the note).
        r = run_amn({"convert", tmp.path() + "/nomtp", "--to", "gguf:F32", "--no-mtp", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        {
            const amn::Catalog c = amn::open_gguf(out.toStdString());
            QVERIFY(!c.meta("qwen3next.nextn_predict_layers"));
            for (const auto& t : c.tensors) QVERIFY2(!t.name.starts_with("blk.4."), t.name.c_str());  // 4 main layers: blk.0-3
        }
        // A class without an MTP block: refused, as the converter refuses it.
        r = run_amn({"convert", dir + "/inputs/Meta-Llama-3-8B-Instruct", "--to", "gguf:F32", "--no-mtp", "-o", out, "--force", "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("--no-mtp / --no-nextn are not supported for LlamaForCausalLM"), qPrintable(r.err));

        const QString bin = qEnvironmentVariableIsSet("AMN_LLAMA_BIN") ? qEnvironmentVariable("AMN_LLAMA_BIN")
                                                                        : QStringLiteral("/work/llama/build/bin");
        if (!QFileInfo::exists(bin + "/llama-simple")) QSKIP("llama-simple missing (AMN_LLAMA_BIN: llama.cpp's build/bin)");
        const QString models = arch_models();
        QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        r = run_amn({"convert", models + "/Qwen3-Next-80B-A3B-Instruct", "--to", "gguf:F32", "-o", out, "--force", "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run(bin + "/llama-simple", {"-m", out, "-n", "8", "hello"});
        QVERIFY2(r.exit_code == 0 && r.out.startsWith("hello") && r.err.contains("general.architecture str              = qwen3next"),
                 qPrintable(r.out + r.err.right(2000)));
        QVERIFY2(r.err.contains("decoded 8 tokens"), qPrintable(r.err.right(2000)));
        // forget in one pass = llama-quantize of the converter's F32 file (its per-kind rules for the delta-net's and
        // the experts' tensors included).
        if (!QFileInfo::exists(bin + "/llama-quantize")) QSKIP("llama-quantize missing");
        for (const char* t : {"Q4_K_M", "IQ4_XS", "Q2_K"}) {
            const QString want = tmp.path() + "/lq.gguf", got = tmp.path() + "/amn.gguf";
            r = run(bin + "/llama-quantize", {out, want, t});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err.right(2000)));
            r = run_amn({"forget", models + "/Qwen3-Next-80B-A3B-Instruct", "--to", QString("gguf:") + t, "-o", got, "--quiet", "--force"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QVERIFY2(sha256_of(got) == sha256_of(want), t);
        }
    }

    // XLM-RoBERTa (bge-m3, its real tiny Unigram model): llama.cpp reads amn's GGUF (the sha256 above proves it is
    // the converter's) as its t5 / UGM tokenizer and embeds with it. llama-tokenize's ids of a text that needs the
    // model's precompiled_charsmap (U+FB01, U+3000) and remove_extra_whitespaces are libsentencepiece's own ids of
    // the same text shifted by fairseq's one, between <s> and </s> (python3-sentencepiece; skipped without it);
    // llama-embedding gives one CLS-pooled embedding of embedding_length values. AMN_LLAMA_BIN: llama.cpp's build/bin.
    void xlmrLlamaCpp() {
        SKIP_WITHOUT_HF_GGUF(dir);
        const QString bin = qEnvironmentVariableIsSet("AMN_LLAMA_BIN") ? qEnvironmentVariable("AMN_LLAMA_BIN")
                                                                        : QStringLiteral("/work/llama/build/bin");
        if (!QFileInfo::exists(bin + "/llama-tokenize") || !QFileInfo::exists(bin + "/llama-embedding"))
            QSKIP("llama-tokenize / llama-embedding missing (AMN_LLAMA_BIN: llama.cpp's build/bin)");
        const QString models = arch_models();
        QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        const QString in = models + "/bge-m3";
        const QString text = QString::fromUtf8("\xef\xac\x81 hello\xe3\x80\x80world  Fuchs");
        const auto sp = run(QString::fromStdString(amn::test::python()),
                            {"-c", "import sys, sentencepiece as s; p = s.SentencePieceProcessor(model_file=sys.argv[1]); "
                                   "print([0] + [i + 1 for i in p.encode(sys.argv[2])] + [2])",
                             in + "/sentencepiece.bpe.model", text});
        if (sp.exit_code != 0) QSKIP("python3-sentencepiece missing");
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/o.gguf";
        auto r = run_amn({"convert", in, "--to", "gguf:F32", "-o", out, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        r = run(bin + "/llama-tokenize", {"-m", out, "-p", text, "--ids", "--log-disable"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.last().trimmed(), sp.out.trimmed());
        // llama-embedding prints through llama.cpp's asynchronous log, whose leaked worker can lose the
        // last lines when the program exits first (common/log.cpp, llama.cpp issue 22142): seen here under
        // load as exit 0 with nothing on stdout. Up to three runs; then the embedding is reported unchecked.
        qsizetype at = -1;
        for (int attempt = 0; attempt < 3 && at < 0; ++attempt) {
            r = run(bin + "/llama-embedding", {"-m", out, "-p", "hello", "-t", "1"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            at = r.out.indexOf("embedding 0:");
        }
        if (at < 0)
            QSKIP("the tokenizer matched; llama-embedding's output was lost three times (llama.cpp issue 22142)");
        QVERIFY2(at >= 0, qPrintable(r.out));
        const QStringList values = r.out.mid(at + 12).section('\n', 0, 0).split(' ', Qt::SkipEmptyParts);
        QCOMPARE(values.size(), 32);  // hidden_size of the case
        for (const QString& v : values) {
            bool ok = false;
            QVERIFY(std::isfinite(v.toDouble(&ok)) && ok);
        }
    }

    // Issue 32, nomic-bert's and modern-bert's bad input: what the converter refuses or asserts against, and the
    // forms not built here (nomic-embed-text-v2-moe's nomic-bert-moe, an XLM-RoBERTa Unigram tokenizer, ModernBERT's
    // masked-LM head): exit 1, one line naming the cause, no file written.
    void embeddingRefusals_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("key");    // config.json key set to `value` ("-" removes it; "tokenizer" edits tokenizer.json's model type)
        QTest::addColumn<QString>("value");  // JSON text
        QTest::addColumn<QString>("error");
        const QString nomic = "nomic-embed-text-v1.5", modern = "modernbert-embed-base";
        QTest::newRow("nomic moe") << nomic << "moe_every_n_layers" << "2"
                                   << "converts to nomic-bert-moe, which is not supported";
        QTest::newRow("nomic unigram") << nomic << "tokenizer" << "\"Unigram\""
                                       << "nomic-bert with an XLM-RoBERTa (Unigram) tokenizer is not supported";
        QTest::newRow("nomic positions") << nomic << "n_positions" << "4096"
                                         << "nomic-bert: unrecognized n_positions / max_trained_positions";
        QTest::newRow("nomic prenorm") << nomic << "prenorm" << "true"
                                       << "nomic-bert needs config.json key 'prenorm' false (the converter asserts it)";
        QTest::newRow("nomic qkv bias") << nomic << "qkv_proj_bias" << "true"
                                        << "nomic-bert needs config.json key 'qkv_proj_bias' false";
        QTest::newRow("nomic scale base") << nomic << "rotary_emb_scale_base" << "512"
                                          << "nomic-bert needs config.json key 'rotary_emb_scale_base' null";
        QTest::newRow("nomic causal missing") << nomic << "causal" << "-" << "config.json has no key 'causal'";
        QTest::newRow("modern window missing") << modern << "local_attention" << "-" << "config.json has no key 'local_attention'";
        QTest::newRow("modern masked lm") << modern << "architectures" << "[\"ModernBertForMaskedLM\"]"
                                          << "unknown architecture ModernBertForMaskedLM";
        const QString xlmr = "bge-m3";
        QTest::newRow("xlmr jina lora") << xlmr << "lora_adaptations" << "[\"retrieval.query\"]"
                                        << "with lora_adaptations (jina-embeddings-v3) converts to jina-bert-v3";
        QTest::newRow("xlmr no spm") << xlmr << "spm" << "-" << "XLM-RoBERTa without sentencepiece.bpe.model is not supported";
        QTest::newRow("xlmr bpe spm") << xlmr << "spm" << "llama2"
                                      << "not a Unigram SentencePiece model (trainer_spec.model_type 2";
        QTest::newRow("xlmr pad past positions") << xlmr << "pad_token_id" << "600"
                                                 << "the position embedding must be 2-D with more rows than pad_token_id + 1 (601";
    }
    void embeddingRefusals() {
        QFETCH(QString, model);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, error);
        SKIP_WITHOUT_HF_GGUF(dir);
        const QString models = arch_models();
        QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString in = tmp.path() + "/" + model, out = tmp.path() + "/o.gguf";
        QVERIFY(copy_dir(models + "/" + model, in) && copy_dir(models + "/" + model + "/1_Pooling", in + "/1_Pooling"));
        if (key == "spm") {  // sentencepiece.bpe.model removed, or replaced by Llama 2's BPE tokenizer.model
            QVERIFY(QFile::remove(in + "/sentencepiece.bpe.model"));
            if (value != "-")
                QVERIFY(QFile::copy(QString::fromStdString(amn::test::shared_fixtures_dir()) + "/hf-gguf/inputs/Llama-2-7b-hf/tokenizer.model",
                                    in + "/sentencepiece.bpe.model"));
        }
        const QString file = in + (key == "tokenizer" ? "/tokenizer.json" : "/config.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        const QJsonValue v = QJsonDocument::fromJson("[" + value.toUtf8() + "]").array().at(0);
        if (key == "spm") {
        } else if (key == "tokenizer") {
            QJsonObject m = o.value("model").toObject();
            m["type"] = v;
            o["model"] = m;
        } else if (value == "-") {
            o.remove(key);
        } else {
            o[key] = v;
        }
        if (key != "spm") write_bytes(file, QJsonDocument(o).toJson());
        const auto r = run_amn({"convert", in, "--to", "gguf:F32", "-o", out, "--quiet"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains(error), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(!QFileInfo::exists(out));
    }};

QTEST_GUILESS_MAIN(TestCliHfArch)
#include "test_cli_hf_arch.moc"
