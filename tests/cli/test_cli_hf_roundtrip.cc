// SPDX-License-Identifier: MIT OR Apache-2.0
// Issue 32, the way back for every row: for each architecture the
// converter's rows know, starting from the GGUF convert_hf_to_gguf.py writes
// (A = `amn convert DIR`, proven to be the converter's file by the sha256
// recorded in tests/core/hf_arch_reference.json or the shared hf-gguf
// manifest), `amn remember A --layout hf` writes a folder that
// - converts back to the same model: `amn convert FOLDER` at A's type gives
//   every `{arch}.*` key/value (type and value, in order) and every tensor
//   (name, shape, type, bytes) of A (tests/cli/gguf_same_model.py; the
//   `tokenizer.*` keys are test_cli_tokback's, `general.*` is the model card);
// - holds the original folder's tensors: same names as transformers writes
//   them (experts unstacked to `experts.N.*`, Phi-3's fused qkv/gate_up kept,
//   GPT-2's Conv1D orientation; joined back where the converter split:
//   GraniteMoe's input_linear, DeepSeek's kv_b_proj, Llama 4's and gpt-oss's
//   fused [E, in, out] experts, InternLM2's wqkv, Qwen3-Next's in_proj_qkvz; regrouped back per head: Falcon's, GPT-NeoX's and
//   BLOOM's query_key_value), same shapes, same values (F32 outputs;
//   tests/cli/hf_folder_values.py, numpy; the converter's arithmetic aside:
//   Gemma's norm + 1, in F16 for an F16 input, Gemma 3's embedding cut
//   to the tokenizer, and Mamba's and Qwen3-Next's A_log, whose A = -torch.exp(A_log) is compared; Qwen3-Next's
//   norms + 1 too, its MTP block back under mtp.*).
// Two ways back give another class than the input's, as transformers has it: Mistral Small 3.1's text model
// is MistralForCausalLM (the converter writes it as `llama`: the same key/values under that prefix), and
// gpt-oss's MXFP4 experts come back dequantized (BF16 in B with A's MXFP4 values).
// XLM-RoBERTa's bert (a t5 tokenizer) comes back as XLMRobertaModel / XLMRobertaForSequenceClassification (its
// encoder under `roberta.`), the position rows the converter cut as zeros.
// Rows refused on purpose (qwen2vl, qwen3vl, qwen3vlmoe: transformers has no text-only class for them): exit 1
// naming the architecture and why, nothing written.
#include "test_support.hpp"

#include <QCryptographicHash>
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

QString shared_dir() { return QString::fromStdString(amn::test::shared_fixtures_dir()); }
QString src(const QString& rel) { return QString::fromStdString(amn::test::source_dir()) + "/" + rel; }

// The folders of tests/core/hf_arch_models.py --inputs-only, made once.
QString arch_models() {
    static QTemporaryDir dir;
    static const bool made = run(QString::fromStdString(amn::test::python()),
                                 {src("tests/core/hf_arch_models.py"), dir.path(), "--shared", shared_dir(), "--inputs-only"})
                                 .exit_code == 0;
    return made ? dir.path() : QString();
}

QByteArray sha256_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

QJsonObject read_json(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

// The GGUF architectures refused on purpose: transformers has only the ForConditionalGeneration class for
// them, which would fill the vision tower a text GGUF lacks with random weights (hf_layout.cc no_text_class).
bool no_way_back(const QString& arch) { return arch == "qwen2vl" || arch == "qwen3vl" || arch == "qwen3vlmoe"; }

}  // namespace

class TestCliHfRoundTrip : public QObject {
    Q_OBJECT
    QString ref_dir_;

private slots:
    void initTestCase() { ref_dir_ = QString::fromStdString(amn::test::reference_dir()); }

    // input: a folder of hf_arch_models.py ("arch:NAME") or of the shared fixtures ("shared:NAME");
    // outtype as `--to gguf:…` takes it ("" = auto); sha: the converter's file.
    void wayBack_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("outtype");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QByteArray>("sha");
        // Under ASan/UBSan (~5× slower) a sample at F32 that still crosses every kind of way back: experts
        // (Mixtral, Qwen2-MoE with its shared expert), fused kept (Phi-3), transposed (GPT-2), norm - 1 in F16
        // (Gemma 2), fused split (ERNIE 4.5), partial rotary (StableLM), a refusal (DeepSeek-V3).
        static const QStringList kSanitizedSample{"Qwen1.5-MoE-A2.7B", "Phi-3-mini-128k-instruct", "gpt2",
                                                  "gemma-2-2b-it-f16", "ERNIE-4.5-0.3B", "stablelm-2-1_6b", "DeepSeek-V3"};
        // Every row at F32; at BF16 (two-byte elements through the same transforms) the rows whose way
        // back does arithmetic or byte surgery on them: the sample above, joins per expert or head
        // (DeepSeek-V2's kv_b, Granite-MoE's input_linear, gpt-oss's interleaved gate_up, Llama 4's
        // transposed experts), a row regroup (Falcon 40B), a squeeze (LFM2), an embedding row (BERT),
        // the NTK-alpha RoPE (HunYuan), a per-head regroup of weight and bias (GPT-NeoX), three parts joined and
        // regrouped per KV group (InternLM2's wqkv), zero rows joined before (XLM-RoBERTa's position
        // rows), Mamba's A_log kept F32, Qwen3-Next's in_proj_qkvz regrouped per key head and MTP block renamed —
        // the rest repeat what F32 proves, each ~2 s of CI.
        static const QStringList kBf16Sample = kSanitizedSample + QStringList{
            "DeepSeek-V2-Lite", "granite-3.1-3b-a800m-instruct", "gpt-oss-20b-BF16", "Llama-4-Maverick-17B-128E-Instruct",
            "falcon-40b", "LFM2-350M", "bge-small-en-v1.5", "nomic-embed-text-v1.5", "Hunyuan-7B-Instruct", "pythia-70m",
            "internlm2-chat-1_8b", "bge-m3", "mamba-130m-hf", "falcon-mamba-7b", "mamba2-130m", "Qwen3-Next-80B-A3B-Instruct",
            "all-distilroberta-v1"};
        const QJsonObject cases = read_json(src("tests/core/hf_arch_reference.json")).value("cases").toObject();
        for (auto c = cases.begin(); c != cases.end(); ++c) {
            if (amn::test::kSanitized && !kSanitizedSample.contains(c.key())) continue;
            const QJsonObject o = c.value().toObject();
            const QString arch = o.value("kv").toArray().at(0).toObject().value("value").toString();
            const QJsonObject shas = o.value("sha256").toObject();
            for (const char* t : {"f32", "bf16"})
                if (shas.contains(t) && (QByteArray(t) == "f32" || (!amn::test::kSanitized && kBf16Sample.contains(c.key()))))
                    QTest::newRow(qPrintable(c.key() + " " + t)) << "arch:" + c.key() << QString(t).toUpper() << arch
                                                                  << shas.value(t).toString().toLatin1();
        }
        const QJsonArray shared = read_json(shared_dir() + "/hf-gguf/manifest.json").value("cases").toArray();
        for (const auto& cv : shared) {
            const QJsonObject c = cv.toObject();
            if (c.contains("quantization")) continue;  // the plain folders: their tensors are the originals
            if (amn::test::kSanitized && c.value("name").toString() != "Mixtral-8x7B-v0.1") continue;
            for (const auto& ov : c.value("outputs").toArray()) {
                const QJsonObject o = ov.toObject();
                const QString t = o.value("outtype").toString();
                const QString sha = o.value("gguf").toObject().value("sha256").toString();
                if (sha.isEmpty() || !(t == "f32" || t == "f16" || t == "bf16" || t == "auto")) continue;
                QTest::newRow(qPrintable(c.value("name").toString() + " " + t))
                    << "shared:" + c.value("name").toString() << (t == "auto" ? QString() : t.toUpper())
                    << c.value("arch").toString() << sha.toLatin1();
            }
        }
    }
    void wayBack() {
        AMN_REQUIRE_REFERENCE_DIR(ref_dir_);
        QFETCH(QString, input);
        QFETCH(QString, outtype);
        QFETCH(QString, arch);
        QFETCH(QByteArray, sha);
        if (!QFileInfo::exists(shared_dir() + "/hf-gguf/manifest.json")) {
            if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing");
            QSKIP("hf-gguf fixtures missing");
        }
        QString in;
        if (input.startsWith("arch:")) {
            const QString models = arch_models();
            QVERIFY2(!models.isEmpty(), "tests/core/hf_arch_models.py --inputs-only failed");
            in = models + "/" + input.mid(5);
        } else {
            in = shared_dir() + "/hf-gguf/inputs/" + input.mid(7);
        }
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString to = outtype.isEmpty() ? QString("gguf") : "gguf:" + outtype;
        const QString a = tmp.path() + "/a.gguf", b = tmp.path() + "/b.gguf";
        // The name of the folder is the model's: general.name comes from it on the way back in.
        const QString folder = tmp.path() + "/" + QFileInfo(in).fileName();
        auto r = run_amn({"convert", in, "--to", to, "-o", a, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(sha256_of(a), sha);  // A is the converter's file

        QStringList back{"remember", a, "--layout", "hf", "-o", folder, "--quiet"};
        if (outtype == "F32") back << "--to" << "f32";
        r = run_amn(back);
        if (no_way_back(arch)) {
            QCOMPARE(r.exit_code, 1);
            QVERIFY2(r.err.contains("does not support the GGUF architecture '" + arch + "': transformers has no text-only class"),
                     qPrintable(r.err));
            QVERIFY(!QFileInfo::exists(folder));
            return;
        }
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("not carried"), qPrintable(r.err));
        const bool xlmr = input == "arch:bge-m3" || input == "arch:bge-reranker-v2-m3" ||
                          input == "arch:all-distilroberta-v1" || input == "arch:stsb-roberta-base";
        r = run_amn({"convert", folder, "--to", to, "-o", b, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QString py = QString::fromStdString(amn::test::python());
        QStringList same{src("tests/cli/gguf_same_model.py"), a, b};
        if (arch == "ernie4_5") same << "--any-order";  // its fused qkv_proj/up_gate_proj come back unfused, read in another order
        const bool mistral_small = input.endsWith("Mistral-Small-3.1-24B-Instruct-2503");
        const bool mxfp4 = input.endsWith("gpt-oss-20b");  // dequantized experts: read in the BF16 form's order
        if (mistral_small) same << "--rename-arch";
        if (mxfp4) same << "--any-order" << "--mxfp4-values";
        r = run(py, same);
        QVERIFY2(r.exit_code == 0 && r.out.startsWith("ok "), qPrintable(r.out + r.err));

        // The original tensors: exact from an F32 file (the input's BF16/F16 values held exactly).
        // (ERNIE 4.5's original is fused: its q/k/v and gate/up come back as transformers' separate tensors.)
        if ((outtype == "F32" || (outtype.isEmpty() && input.startsWith("shared:"))) && arch != "ernie4_5" && !mxfp4) {
            QStringList args{src("tests/cli/hf_folder_values.py"), folder, in};
            if (arch.startsWith("gemma") || arch == "qwen3next") args << "--norm-plus-one";
            if (arch == "gemma3") args << "--embedding-cut";
            // (XLM-)RoBERTa: the position rows before pad_token_id + 1 (1) were cut by the converter, back as zeros.
            if (xlmr) args << "--position-offset" << "2";
            if (arch.startsWith("mamba") || arch == "qwen3next") args << "--a-log-by-exp";  // a float giving the same A
            r = run(py, args);
            QVERIFY2(r.exit_code == 0 && r.out.startsWith("ok "), qPrintable(r.out + r.err));
        }
        // WordPiece (bert, nomic-bert): vocab.txt back byte for byte, without the converter's [PAD<id>] rows
        // (nomic-embed-text's vocab_size is 30528 over 30522 tokens).
        if (QFileInfo::exists(in + "/vocab.txt")) {
            QFile x(folder + "/vocab.txt"), y(in + "/vocab.txt");
            QVERIFY(x.open(QIODevice::ReadOnly) && y.open(QIODevice::ReadOnly));
            QVERIFY(x.readAll() == y.readAll());
        }
        // Experts come back one tensor per expert, under the class transformers loads.
        const QJsonObject cfg = read_json(folder + "/config.json");
        if (arch == "mixtral") {
            QCOMPARE(cfg.value("architectures").toArray().at(0).toString(), QString("MixtralForCausalLM"));
            QVERIFY(cfg.value("num_local_experts").toInt() > 1);
        }
        // Multimodal inputs come back as their text class (the GGUF holds no vision tower), named on stderr.
        static const QMap<QString, QString> kTextClass{{"Mistral-Small-3.1-24B-Instruct-2503", "MistralForCausalLM"},
                                                       {"Ministral-3-3B-Instruct-2512", "Ministral3ForCausalLM"},
                                                       {"Llama-4-Maverick-17B-128E-Instruct", "Llama4ForCausalLM"},
                                                       {"DeepSeek-V2-Lite", "DeepseekV2ForCausalLM"},
                                                       {"DeepSeek-V3", "DeepseekV3ForCausalLM"},
                                                       {"bge-m3", "XLMRobertaModel"},
                                                       {"bge-reranker-v2-m3", "XLMRobertaForSequenceClassification"},
                                                       {"ms-marco-MiniLM-L-6-v2", "BertForSequenceClassification"},
                                                       {"all-distilroberta-v1", "RobertaModel"},
                                                       {"stsb-roberta-base", "RobertaForSequenceClassification"}};
        if (const QString name = QFileInfo(in).fileName(); kTextClass.contains(name))
            QCOMPARE(cfg.value("architectures").toArray().at(0).toString(), kTextClass.value(name));
    }
};

QTEST_GUILESS_MAIN(TestCliHfRoundTrip)
#include "test_cli_hf_roundtrip.moc"
