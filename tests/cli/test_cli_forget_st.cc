// SPDX-License-Identifier: MIT OR Apache-2.0
// amn forget --to SCHEME (bitsandbytes, FP8, compressed-tensors, DeepSeek
// FP8) as a user runs it: a model folder with config and tokenizer in, a
// loadable folder out (the library's bytes for a reference input from
// shared/fixtures/quantize-ref-st/), --json / --report / --dry-run, the
// output remembered again by `amn remember`, and bad requests refused by
// name (exit 1) with nothing written.
#include "anamnesis/kernels.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

using amn::test::RawTensor;
using amn::test::run_amn;
namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> bf16_bytes(std::size_t n, unsigned seed, float sigma = 0.02f, float poison = 0.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, sigma);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    if (poison != 0.0f || std::isnan(poison)) v[n / 2] = poison;
    std::vector<std::uint8_t> b(n * 2);
    amn::kernels::f32_to_bf16(v.data(), reinterpret_cast<std::uint16_t*>(b.data()), n);
    return b;
}

// A small llama-like folder: block 0 Linears (q_proj 200 columns wide when
// `odd`), embedding, lm_head, norms, config.json, tokenizer.json.
void make_model(const QString& dir, bool odd = false, float poison = 0.0f) {
    QDir().mkpath(dir);
    std::map<std::string, RawTensor> m;
    const std::uint64_t h = 256, cq = odd ? 200 : 256;
    m["model.embed_tokens.weight"] = {"BF16", {64, h}, bf16_bytes(64 * h, 1)};
    m["lm_head.weight"] = {"BF16", {64, h}, bf16_bytes(64 * h, 2)};
    m["model.norm.weight"] = {"BF16", {h}, bf16_bytes(h, 3, 1.0f)};
    m["model.layers.0.input_layernorm.weight"] = {"BF16", {h}, bf16_bytes(h, 4, 1.0f)};
    m["model.layers.0.self_attn.q_proj.weight"] = {"BF16", {h, cq}, bf16_bytes(h * cq, 5, 0.02f, poison)};
    m["model.layers.0.self_attn.o_proj.weight"] = {"BF16", {h, h}, bf16_bytes(h * h, 6)};
    m["model.layers.0.mlp.up_proj.weight"] = {"BF16", {512, h}, bf16_bytes(512 * h, 7)};
    m["model.layers.0.mlp.down_proj.weight"] = {"BF16", {h, 512}, bf16_bytes(h * 512, 8)};
    amn::test::write_safetensors_raw((dir + "/model.safetensors").toStdString(), m);
    const std::string cfg = R"({"model_type": "llama", "hidden_size": 256, "torch_dtype": "bfloat16"})";
    amn::test::write_file((dir + "/config.json").toStdString(), std::vector<std::uint8_t>(cfg.begin(), cfg.end()));
    amn::test::write_file((dir + "/tokenizer.json").toStdString(), {'{', '}'});
}

QStringList files_in(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot); }

QJsonObject json_of(const QString& text) { return QJsonDocument::fromJson(text.toUtf8()).object(); }

}  // namespace

class TestCliForgetSt : public QObject {
    Q_OBJECT
private slots:
    void help();
    void everySchemeWritesAndRemembers_data();
    void everySchemeWritesAndRemembers();
    void referenceBytes();
    void jsonReport();
    void totalsOverFinitePairs();
    void reportAndDryRun();
    void badRequests_data();
    void badRequests();
    void alreadyQuantized();
    void requantizeToMlxCasts_data();
    void requantizeToMlxCasts();
    void ggufInputInHuggingFaceLayout();
};

void TestCliForgetSt::help() {
    const auto r = run_amn({"forget", "--help"});
    QCOMPARE(r.exit_code, 0);
    for (const char* s : {"bnb-nf4", "bnb-fp4", "bnb-int8", "fp8-block-deepseek", "w4a16-asym", "w8a16-asym", "--blocksize",
                          "--double-quant", "--granularity", "--ue8m0", "--group-size", "--keep", "--only", "--requantize",
                          "CPU", "gguf:FTYPE"})
        QVERIFY2(r.out.contains(s), s);
}

void TestCliForgetSt::everySchemeWritesAndRemembers_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("payload");  // name and dtype of q_proj's payload
    QTest::newRow("bnb-nf4") << QStringList{"--to", "bnb-nf4"} << "weight:U8";
    QTest::newRow("bnb-fp4-128-dq") << QStringList{"--to", "bnb-fp4", "--blocksize", "128", "--double-quant"} << "weight:U8";
    QTest::newRow("bnb-int8") << QStringList{"--to", "bnb-int8"} << "weight:I8";
    QTest::newRow("fp8") << QStringList{"--to", "fp8"} << "weight:F8_E4M3";
    QTest::newRow("fp8-tensor") << QStringList{"--to", "fp8", "--granularity", "tensor"} << "weight:F8_E4M3";
    QTest::newRow("fp8-block") << QStringList{"--to", "fp8", "--granularity=block"} << "weight:F8_E4M3";
    QTest::newRow("fp8-block-deepseek") << QStringList{"--to", "fp8-block-deepseek", "--ue8m0"} << "weight:F8_E4M3";
    QTest::newRow("w4a16") << QStringList{"--to", "w4a16"} << "weight_packed:I32";
    QTest::newRow("w4a16-asym-channel") << QStringList{"--to", "w4a16-asym", "--group-size", "channel"} << "weight_packed:I32";
    QTest::newRow("w8a16") << QStringList{"--to", "w8a16"} << "weight_packed:I32";
    QTest::newRow("w8a16-asym") << QStringList{"--to", "w8a16-asym"} << "weight_packed:I32";
}

void TestCliForgetSt::everySchemeWritesAndRemembers() {
    QFETCH(QStringList, args);
    QFETCH(QString, payload);
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny");
    make_model(model);
    const QString out = tmp.filePath("out");
    const auto r = run_amn(QStringList{"forget", model, "-o", out, "--quiet"} + args);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QCOMPARE(files_in(out), (QStringList{"config.json", "model.safetensors", "tokenizer.json"}));
    const auto st = amn::test::read_safetensors_raw((out + "/model.safetensors").toStdString());
    QVERIFY(st);
    const auto parts = payload.split(':');
    const auto& q = st->tensors.at("model.layers.0.self_attn.q_proj." + parts[0].toStdString());
    QCOMPARE(QString::fromStdString(q.dtype), parts[1]);
    QCOMPARE(st->tensors.at("lm_head.weight").dtype, std::string("BF16"));
    QCOMPARE(st->tensors.at("model.embed_tokens.weight").dtype, std::string("BF16"));
    QFile f(out + "/config.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto cfg = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(cfg.contains("quantization_config"));
    QCOMPARE(cfg["model_type"].toString(), QString("llama"));
    // remember reads it back.
    const QString back = tmp.filePath("back");
    const auto rr = run_amn({"remember", out, "-o", back, "--quiet"});
    QVERIFY2(rr.exit_code == 0, qPrintable(rr.err));
    const auto b = amn::test::read_safetensors_raw((back + "/model.safetensors").toStdString());
    QVERIFY(b);
    QCOMPARE(b->tensors.at("model.layers.0.mlp.down_proj.weight").shape, (std::vector<std::uint64_t>{256, 512}));
    QCOMPARE(b->tensors.at("model.layers.0.mlp.down_proj.weight").dtype, std::string("BF16"));
}

void TestCliForgetSt::referenceBytes() {
    // The reference's `gaussian_bf16` as a q_proj: the CLI writes the
    // library's bytes (bnb-nf4 double quant; W4A16).
    AMN_REQUIRE_REFERENCE_DIR(ref_);
    const std::string dir = amn::test::shared_fixtures_dir() + "/quantize-ref-st";
    if (!fs::exists(dir + "/inputs.safetensors")) {
        if (amn::test::reference_required()) QFAIL("quantize-ref-st fixtures missing");
        QSKIP("quantize-ref-st fixtures missing");
    }
    const auto inputs = amn::test::read_safetensors_raw(dir + "/inputs.safetensors");
    QVERIFY(inputs);
    QTemporaryDir tmp;
    std::map<std::string, RawTensor> m;
    m["model.layers.0.self_attn.q_proj.weight"] = inputs->tensors.at("gaussian_bf16.input");
    const std::string model = tmp.filePath("g.safetensors").toStdString();
    amn::test::write_safetensors_raw(model, m);
    for (const auto& [id, args] : std::vector<std::pair<std::string, QStringList>>{
             {"bnb-nf4-b64-dq", {"--to", "bnb-nf4", "--double-quant"}}, {"ct-w4-sym-g128", {"--to", "w4a16"}}}) {
        QDir().mkpath(tmp.filePath(QString::fromStdString(id)));
        const QString out = tmp.filePath(QString::fromStdString(id + "/" + id + ".safetensors"));
        const auto r = run_amn(QStringList{"forget", QString::fromStdString(model), "-o", out, "--quiet"} + args);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto got = amn::test::read_safetensors_raw(out.toStdString());
        const auto want = amn::test::read_safetensors_raw(dir + "/" + id + ".safetensors");
        QVERIFY(got && want);
        std::size_t n = 0;
        for (const auto& [name, t] : want->tensors) {
            if (name.rfind("gaussian_bf16.", 0) != 0 || name == "gaussian_bf16.dequant") continue;
            const std::string on = "model.layers.0.self_attn.q_proj." + name.substr(14);
            QVERIFY2(got->tensors.count(on), on.c_str());
            QVERIFY2(got->tensors.at(on).bytes == t.bytes, on.c_str());
            QCOMPARE(got->tensors.at(on).shape, t.shape);
            ++n;
        }
        QCOMPARE(got->tensors.size(), n);
        QVERIFY(QFileInfo::exists(tmp.filePath(QString::fromStdString(id + "/config.json"))));
    }
}

void TestCliForgetSt::jsonReport() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny");
    make_model(model);
    const QString out = tmp.filePath("out");
    const auto r = run_amn({"forget", model, "--to", "w4a16-asym", "-o", out, "--json", "--keep", "o_proj"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto j = json_of(r.out);
    QCOMPARE(j["scheme"].toString(), QString("w4a16-asym (group 128)"));
    QVERIFY(j["files"].toArray().contains(out + "/model.safetensors"));
    QVERIFY(j["files"].toArray().contains(out + "/config.json"));
    const auto tensors = j["tensors"].toArray();
    QCOMPARE(tensors.size(), 8);
    int quantized = 0;
    for (const auto& v : tensors) {
        const auto t = v.toObject();
        if (!t["quantized"].toBool()) {
            QVERIFY(t["copied"].toBool());
            QVERIFY(!t.contains("rmse"));
            continue;
        }
        ++quantized;
        QVERIFY(t["rmse"].toDouble() > 0);
        QVERIFY(t["sqnr_db"].toDouble() > 15 && t["sqnr_db"].toDouble() < 25);
        QVERIFY(t["bits_per_weight"].toDouble() > 4.0 && t["bits_per_weight"].toDouble() < 4.5);
        const auto stored = t["stored"].toArray();
        QCOMPARE(stored.size(), 4);
        QVERIFY(stored[0].toString().endsWith(".weight_packed"));
        QVERIFY(stored.contains(t["name"].toString().chopped(6) + "weight_zero_point"));
    }
    QCOMPARE(quantized, 3);
    QCOMPARE(j["kept"].toArray(), (QJsonArray{"lm_head.weight", "model.layers.0.self_attn.o_proj.weight"}));
    const auto qc = j["quantization_config"].toObject();
    QCOMPARE(qc["format"].toString(), QString("pack-quantized"));
    QCOMPARE(qc["ignore"].toArray(), (QJsonArray{"lm_head", "model.layers.0.self_attn.o_proj"}));
    QVERIFY(j["sqnr_db"].toDouble() > 15);
    QVERIFY(j["quantized_bits_per_weight"].toDouble() > 4.0);
}

// LLM.int8 of a weight with a value past the F16 range (70 000): that row's SCB is
// inf, its round trip NaN, its pairs left out of the loss (the JSON's nonfinite).
// The totals' RMSE is over the finite pairs: sqrt(Σ rmse_t² · pairs_t / Σ pairs_t)
// from the per-tensor figures, pairs_t = numel_t less the row left out; not over
// every quantized element.
void TestCliForgetSt::totalsOverFinitePairs() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny");
    make_model(model, false, 70000.0f);
    const auto r = run_amn({"forget", model, "--to", "bnb-int8", "-o", tmp.filePath("out"), "--json"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto j = json_of(r.out);
    QCOMPARE(j["nonfinite"].toDouble(), 256.0);  // one row of q_proj [256, 256]
    double sse = 0, pairs = 0, all = 0;
    for (const auto& v : j["tensors"].toArray()) {
        const auto t = v.toObject();
        if (!t["quantized"].toBool()) continue;
        double n = 1;
        for (const auto& d : t["shape"].toArray()) n *= d.toDouble();
        const double finite = t["name"].toString().contains("q_proj") ? n - 256 : n;
        sse += t["rmse"].toDouble() * t["rmse"].toDouble() * finite;
        pairs += finite;
        all += n;
    }
    QCOMPARE(all, j["quantized_parameters"].toDouble());
    const double want = std::sqrt(sse / pairs), got = j["rmse"].toDouble();
    QVERIFY2(std::fabs(got - want) <= 1e-12 * want, qPrintable(QString("totals RMSE %1, want %2 (over every element: %3)")
                                                                   .arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)
                                                                   .arg(std::sqrt(sse / all), 0, 'g', 17)));
}

void TestCliForgetSt::reportAndDryRun() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny");
    make_model(model);
    const QString out = tmp.filePath("out");
    auto r = run_amn({"forget", model, "--to", "bnb-nf4", "-o", out, "--dry-run"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("kept: lm_head"));
    QVERIFY(r.out.contains("kept: embedding"));
    QVERIFY(r.out.contains("quantized: bnb-nf4 (blocksize 64)"));
    QVERIFY(r.out.contains("nothing written"));
    QVERIFY(!QFileInfo::exists(out));
    r = run_amn({"forget", model, "--to", "bnb-nf4", "-o", out, "--report"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("SQNR"));
    QVERIFY(r.out.contains("copied"));
    QVERIFY(r.out.contains("forgot 4 of 8 tensor(s) to bnb-nf4"));
    QVERIFY(r.out.contains("kept unquantized: lm_head.weight"));
    // Default output: a sibling folder named after the scheme.
    r = run_amn({"forget", model, "--to", "fp8", "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(QFileInfo::exists(tmp.filePath("tiny-fp8-dynamic/model.safetensors")));
    // An existing output is refused without --force, replaced with it.
    r = run_amn({"forget", model, "--to", "fp8", "--quiet"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.err.contains("already exists"));
    r = run_amn({"forget", model, "--to", "fp8", "--quiet", "--force"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
}

void TestCliForgetSt::badRequests_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exit_code");
    QTest::addColumn<QString>("says");
    QTest::addColumn<bool>("odd");
    QTest::addColumn<float>("poison");
    QTest::newRow("unknown scheme") << QStringList{"--to", "nf5"} << 1 << "unknown scheme 'nf5'" << false << 0.0f;
    QTest::newRow("group does not divide") << QStringList{"--to", "w4a16"} << 1
                                           << "q_proj.weight: group size 128 does not divide the row of 200" << true << 0.0f;
    QTest::newRow("option of another scheme") << QStringList{"--to", "bnb-nf4", "--group-size", "64"} << 1
                                              << "--group-size does not apply to bnb-nf4" << false << 0.0f;
    QTest::newRow("bad blocksize") << QStringList{"--to", "bnb-fp4", "--blocksize", "100"} << 1 << "--blocksize" << false
                                   << 0.0f;
    QTest::newRow("blocksize not a number") << QStringList{"--to", "bnb-fp4", "--blocksize", "big"} << 2
                                            << "--blocksize must be a number" << false << 0.0f;
    QTest::newRow("bad granularity") << QStringList{"--to", "fp8", "--granularity", "row"} << 1 << "--granularity" << false
                                     << 0.0f;
    QTest::newRow("bad regex") << QStringList{"--to", "fp8", "--keep", "("} << 1 << "not a valid regular expression" << false
                               << 0.0f;
    QTest::newRow("nan") << QStringList{"--to", "bnb-int8"} << 1 << "NaN at [" << false << std::nanf("");
    QTest::newRow("inf") << QStringList{"--to", "w8a16"} << 1 << "infinity at [" << false
                         << std::numeric_limits<float>::infinity();
    QTest::newRow("unknown flag") << QStringList{"--to", "fp8", "--pure"} << 2 << "--pure" << false << 0.0f;
}

void TestCliForgetSt::badRequests() {
    QFETCH(QStringList, args);
    QFETCH(int, exit_code);
    QFETCH(QString, says);
    QFETCH(bool, odd);
    QFETCH(float, poison);
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny");
    make_model(model, odd, poison);
    const auto before = files_in(tmp.path());
    const auto r = run_amn(QStringList{"forget", model, "-o", tmp.filePath("out")} + args);
    QCOMPARE(r.exit_code, exit_code);
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);  // one line
    QVERIFY(!QFileInfo::exists(tmp.filePath("out")));
    QCOMPARE(files_in(tmp.path()), before);
}

void TestCliForgetSt::alreadyQuantized() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny");
    make_model(model);
    const QString fp8 = tmp.filePath("fp8");
    auto r = run_amn({"forget", model, "--to", "fp8-block-deepseek", "-o", fp8, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    r = run_amn({"forget", fp8, "--to", "bnb-nf4", "-o", tmp.filePath("nf4"), "--quiet"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("already quantized") && r.err.contains("--requantize"), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(tmp.filePath("nf4")));
    r = run_amn({"forget", fp8, "--to", "bnb-nf4", "-o", tmp.filePath("nf4"), "--quiet", "--requantize"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.err.contains("warning"));
    QVERIFY(QFileInfo::exists(tmp.filePath("nf4/model.safetensors")));
}

void TestCliForgetSt::requantizeToMlxCasts_data() {
    QTest::addColumn<QString>("dtype");
    QTest::newRow("float16") << "float16";
    QTest::newRow("float32") << "float32";
    QTest::newRow("torch_dtype") << "";
}

// forget --requantize to MLX: the decoded weights are the BF16 model remember
// writes, then cast as mlx_lm.convert casts any float weight (--dtype, else
// config.json's torch_dtype) — the same bytes as forgetting remember's folder,
// a path test_cli_mlx proves against mlx_lm.convert's own output.
void TestCliForgetSt::requantizeToMlxCasts() {
    QFETCH(QString, dtype);
    QTemporaryDir tmp;
    const QString model = tmp.filePath("tiny"), fp8 = tmp.filePath("fp8"), bf16 = tmp.filePath("bf16");
    make_model(model);
    auto r = run_amn({"forget", model, "--to", "fp8-block-deepseek", "-o", fp8, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    r = run_amn({"remember", fp8, "-o", bf16, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QStringList cast = dtype.isEmpty() ? QStringList{} : QStringList{"--dtype", dtype};
    r = run_amn(QStringList{"forget", bf16, "--to", "mlx:8", "--group-size", "32", "-o", tmp.filePath("a"), "--quiet"} + cast);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    r = run_amn(QStringList{"forget", fp8, "--to", "mlx:8", "--group-size", "32", "--requantize", "-o", tmp.filePath("b"),
                            "--quiet"} + cast);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto a = amn::test::read_safetensors_raw(tmp.filePath("a/model.safetensors").toStdString());
    const auto b = amn::test::read_safetensors_raw(tmp.filePath("b/model.safetensors").toStdString());
    QVERIFY(a && b);
    const std::string want = dtype == "float16" ? "F16" : dtype == "float32" ? "F32" : "BF16";
    QCOMPARE(b->tensors.at("model.layers.0.self_attn.q_proj.scales").dtype, want);
    QCOMPARE(b->tensors.size(), a->tensors.size());
    for (const auto& [k, t] : a->tensors) {
        QVERIFY2(b->tensors.count(k), k.c_str());
        QCOMPARE(b->tensors.at(k).dtype, t.dtype);
        QVERIFY2(b->tensors.at(k).bytes == t.bytes, ("bytes differ: " + k).c_str());
    }
}

void TestCliForgetSt::ggufInputInHuggingFaceLayout() {
    // A GGUF (llama.cpp's own F32 file) is forgotten in its Hugging Face
    // layout: HF names, config.json from the metadata, a folder by default —
    // the same bytes as `remember --layout hf` followed by forget.
    const std::string gguf = amn::test::shared_fixtures_dir() + "/gguf-real/tiny-llama-F32.gguf";
    if (!fs::exists(gguf)) {
        if (amn::test::reference_required()) QFAIL("gguf-real fixtures missing");
        QSKIP("gguf-real fixtures missing");
    }
    QTemporaryDir tmp;
    const QString g = tmp.filePath("tl.gguf");
    QVERIFY(QFile::copy(QString::fromStdString(gguf), g));
    const QString hf = tmp.filePath("hf32");
    auto r = run_amn({"remember", g, "--layout", "hf", "--to", "f32", "-o", hf, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    for (const QString scheme : {"bnb-nf4", "w4a16", "fp8-block-deepseek"}) {
        const QString direct = tmp.filePath("direct-" + scheme), twostep = tmp.filePath("twostep-" + scheme);
        r = run_amn({"forget", g, "--to", scheme, "-o", direct, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(scheme + ": " + r.err));
        r = run_amn({"forget", hf, "--to", scheme, "-o", twostep, "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(scheme + ": " + r.err));
        const auto a = amn::test::read_file((direct + "/model.safetensors").toStdString());
        const auto b = amn::test::read_file((twostep + "/model.safetensors").toStdString());
        QVERIFY2(!a.empty() && a == b, qPrintable(scheme));
        const auto got = amn::test::read_safetensors_raw((direct + "/model.safetensors").toStdString());
        QVERIFY(got);
        for (const auto& [name, t] : got->tensors) QVERIFY2(name.rfind("blk.", 0) != 0, name.c_str());
        QFile cf(direct + "/config.json");
        QVERIFY(cf.open(QIODevice::ReadOnly));
        const QJsonObject config = QJsonDocument::fromJson(cf.readAll()).object();
        QCOMPARE(config.value("architectures").toArray().at(0).toString(), QStringLiteral("LlamaForCausalLM"));
        QCOMPARE(config.value("torch_dtype").toString(), QStringLiteral("float32"));
        QVERIFY(config.value("quantization_config").isObject());
    }
    // Default output: a model folder beside the GGUF, nothing else written there.
    r = run_amn({"forget", g, "--to", "fp8", "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(QFileInfo::exists(tmp.filePath("tl-fp8-dynamic/model.safetensors")));
    QVERIFY(QFileInfo::exists(tmp.filePath("tl-fp8-dynamic/config.json")));
    QVERIFY(!QFileInfo::exists(tmp.filePath("config.json")));
}

QTEST_APPLESS_MAIN(TestCliForgetSt)
#include "test_cli_forget_st.moc"
