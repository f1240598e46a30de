// SPDX-License-Identifier: MIT OR Apache-2.0
// GPTQ, AWQ and bitsandbytes (NF4, FP4, double quant, LLM.int8) end to end
// through the core (open → plan → convert), judged by
//   * the shared reference data (real model slices with GPTQModel / AutoAWQ /
//     bitsandbytes output) and the safetensors_header layouts;
//   * the project's fixtures (fixtures/quant/, expected outputs from the
//     independent NumPy implementation in fixtures/make_quant_fixtures.py),
//     converted once per compiled Highway target and with tiny chunks;
//   * bad inputs: a named error and no output file.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/inspect.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <hwy/targets.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <functional>

using namespace amn;
namespace fs = std::filesystem;

namespace {

std::string fixtures() { return amn::test::source_dir() + "/fixtures/quant"; }

struct Converted {
    QString dir;
    RememberResult result;
};

Converted convert_into(const QTemporaryDir& tmp, const std::string& input, const QString& name = "out",
                       std::uint64_t chunk_bytes = 0, unsigned threads = 0) {
    const auto cat = open_model(input);
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath(name).toStdString();
    if (chunk_bytes) o.chunk_bytes = chunk_bytes;
    o.threads = threads;
    Converted c{tmp.filePath(name), remember_to_safetensors(cat, plan, o)};
    return c;
}

// Copy a fixture's input folder into `dir` with its safetensors modified by `edit`.
std::string edited_copy(const QTemporaryDir& tmp, const std::string& input_dir,
                        const std::function<void(std::map<std::string, amn::test::RawTensor>&)>& edit,
                        const std::string& config = {}) {
    const std::string dir = tmp.filePath("in").toStdString();
    fs::create_directories(dir);
    auto raw = amn::test::read_safetensors_raw(input_dir + "/model.safetensors");
    if (!raw) return {};
    edit(raw->tensors);
    amn::test::write_safetensors_raw(dir + "/model.safetensors", raw->tensors);
    if (!config.empty()) {
        amn::test::write_file(dir + "/config.json", std::vector<std::uint8_t>(config.begin(), config.end()));
    } else if (fs::exists(input_dir + "/config.json")) {
        fs::copy_file(input_dir + "/config.json", dir + "/config.json");
    }
    return dir;
}

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

// Every case must convert to exactly `expected` (a file) or `expected/` (one file per output shard).
std::string check_case(const QString& input, const QString& case_dir, std::uint64_t chunk_bytes = 0, unsigned threads = 0) {
    QTemporaryDir tmp;
    Converted c;
    try {
        c = convert_into(tmp, input.toStdString(), "out", chunk_bytes, threads);
    } catch (const std::exception& e) {
        return std::string("convert failed: ") + e.what();
    }
    if (QFile::exists(case_dir + "/expected.safetensors")) {
        const auto files = QDir(c.dir).entryList({"*.safetensors"}, QDir::Files);
        if (files.size() != 1) return "expected one output file, got " + std::to_string(files.size());
        return amn::test::compare_safetensors((c.dir + "/" + files[0]).toStdString(),
                                              (case_dir + "/expected.safetensors").toStdString());
    }
    std::string diff;
    const auto expected = QDir(case_dir + "/expected").entryList({"*.safetensors"}, QDir::Files, QDir::Name);
    if (expected.isEmpty()) return "no expected output in " + case_dir.toStdString();
    for (const auto& f : expected)
        diff += amn::test::compare_safetensors((c.dir + "/" + f).toStdString(), (case_dir + "/expected/" + f).toStdString());
    if (QDir(c.dir).entryList({"*.safetensors"}, QDir::Files).size() != expected.size()) diff += "shard count differs; ";
    return diff;
}

// The plan's single quantized logical tensor error, or "".
std::string plan_error(const std::string& input) {
    const auto cat = open_model(input);
    const auto plan = make_plan(cat);
    for (const auto& t : plan.tensors)
        if (!t.error.empty()) return t.name + ": " + t.error.message();
    return {};
}

}  // namespace

class TestRememberGptqAwqBnb : public QObject {
    Q_OBJECT
private slots:
    void referenceCases_data();
    void referenceCases();
    void headerLayoutsPlanTheirScheme_data();
    void headerLayoutsPlanTheirScheme();
    void projectFixtures_data();
    void projectFixtures();
    void projectFixturesEveryTarget();
    void schemesInWords();
    void configJsonLosesQuantization();
    void eightBitIsNotReadAsFourBit();
    void badInput_data();
    void badInput();
    void badInputIsNamedAndWritesNothing();
};

// ------------------------------------------------------------ reference data

void TestRememberGptqAwqBnb::referenceCases_data() {
    QTest::addColumn<QString>("dir");
    AMN_REQUIRE_REFERENCE_DIR(ref);
    int n = 0;
    for (const char* kind : {"gptq", "awq", "bnb"})
        for (const auto& d : amn::test::reference_cases(kind)) {
            QTest::newRow(qPrintable(QString(kind) + "/" + QDir(d).dirName())) << d;
            ++n;
        }
    QVERIFY(n >= 7);
}

void TestRememberGptqAwqBnb::referenceCases() {
    QFETCH(QString, dir);
    const std::string diff = check_case(dir + "/input", dir);
    QVERIFY2(diff.empty(), diff.c_str());
    // Companions consumed: the only output tensor is the expected one.
    const auto cat = open_model((dir + "/input").toStdString());
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    QCOMPARE(plan.tensors.size(), std::size_t(1));
    QVERIFY(plan.tensors[0].quantized);
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) QVERIFY(plan.roles[i] != Role::Passthrough);
}

void TestRememberGptqAwqBnb::headerLayoutsPlanTheirScheme_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("shape");
    QTest::newRow("gptq") << "gptq" << "gptq-4bit-g32" << "model.layers.0.weight" << "32x64";
    QTest::newRow("awq") << "awq" << "awq-gemm-4bit-g32" << "model.layers.0.weight" << "32x64";
    QTest::newRow("bnb_nf4") << "bnb_nf4" << "bnb-nf4-b64" << "model.layers.0.weight" << "8x8";
}

void TestRememberGptqAwqBnb::headerLayoutsPlanTheirScheme() {
    QFETCH(QString, name);
    QFETCH(QString, scheme);
    QFETCH(QString, output);
    QFETCH(QString, shape);
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string path = ref + "/safetensors_header/" + name.toStdString() + "/input/" + name.toStdString() + ".safetensors";
    const auto cat = open_model(path);
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    QCOMPARE(plan.schemes.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(plan.schemes[0].id), scheme);
    bool found = false;
    for (const auto& t : plan.tensors) {
        if (t.name != output.toStdString()) continue;
        found = true;
        QVERIFY(t.quantized);
        QCOMPARE(QString("%1x%2").arg(t.shape[0]).arg(t.shape[1]), shape);
    }
    QVERIFY(found);
    // model.norm.weight passes through; nothing else is emitted.
    QCOMPARE(plan.tensors.size(), std::size_t(2));
    // Inspection: BF16 size = 2 bytes × real element count.
    const auto ins = inspect(cat, plan);
    std::uint64_t numel = 0;
    for (const auto& t : plan.tensors) numel += t.numel();
    QCOMPARE(ins.bf16_bytes, 2 * numel);
}

// ------------------------------------------------------------ project fixtures

void TestRememberGptqAwqBnb::projectFixtures_data() {
    QTest::addColumn<QString>("dir");
    QTest::addColumn<qulonglong>("chunk");
    QTest::addColumn<uint>("threads");
    const QStringList cases = {"gptq_actorder_asym", "gptq_v2_8bit", "gptq_3bit", "gptq_2bit", "awq_small",
                               "bnb_nf4_partial", "bnb_fp4_negzero", "mixed_sharded"};
    for (const auto& c : cases) {
        const QString d = QString::fromStdString(fixtures()) + "/" + c;
        QTest::newRow(qPrintable(c)) << d << qulonglong(0) << 0u;
        // Chunks of a row or two on three threads: every row range split.
        QTest::newRow(qPrintable(c + " tiny chunks")) << d << qulonglong(64) << 3u;
    }
}

void TestRememberGptqAwqBnb::projectFixtures() {
    QFETCH(QString, dir);
    QFETCH(qulonglong, chunk);
    QFETCH(uint, threads);
    const std::string diff = check_case(dir + "/input", dir, chunk, threads);
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestRememberGptqAwqBnb::projectFixturesEveryTarget() {
    const QStringList cases = {"gptq_actorder_asym", "gptq_v2_8bit", "gptq_3bit", "gptq_2bit", "awq_small",
                               "bnb_nf4_partial", "bnb_fp4_negzero"};
    std::string failure;
    QStringList seen;
    for (const std::int64_t t : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(t);
        seen << hwy::TargetName(t);
        for (const auto& c : cases) {
            const QString d = QString::fromStdString(fixtures()) + "/" + c;
            const std::string diff = check_case(d + "/input", d, 256, 1);
            if (!diff.empty()) failure += std::string(hwy::TargetName(t)) + " " + c.toStdString() + ": " + diff + "\n";
        }
    }
    hwy::SetSupportedTargetsForTest(0);
    qInfo("targets: %s", qPrintable(seen.join(' ')));
    QVERIFY(seen.size() >= 2);
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestRememberGptqAwqBnb::schemesInWords() {
    struct Case { std::string input, words; };
    const std::vector<Case> cases = {
        {fixtures() + "/gptq_actorder_asym/input", "GPTQ 4-bit, group 32, act-order, asymmetric, F16 scales"},
        {fixtures() + "/gptq_v2_8bit/input", "GPTQ 8-bit, group 64, asymmetric, gptq_v2 zero points, BF16 scales"},
        {fixtures() + "/gptq_3bit/input", "GPTQ 3-bit, group 32, F32 scales"},
        {fixtures() + "/gptq_2bit/input", "GPTQ 2-bit, group 16, act-order, asymmetric, F16 scales"},
        {fixtures() + "/awq_small/input", "AWQ GEMM 4-bit, group 32, zero points, BF16 scales"},
        {fixtures() + "/bnb_nf4_partial/input", "bitsandbytes NF4, blocksize 64, double-quant (nested blocksize 2), compute bfloat16"},
        {fixtures() + "/bnb_fp4_negzero/input", "bitsandbytes FP4, blocksize 32, compute bfloat16"},
    };
    for (const auto& c : cases) {
        const auto cat = open_model(c.input);
        const auto plan = make_plan(cat);
        QCOMPARE(plan.schemes.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(plan.schemes[0].description), QString::fromStdString(c.words));
    }
    // Mixed model: two GPTQ schemes planned per tensor, passthrough for the rest.
    const auto cat = open_model(fixtures() + "/mixed_sharded/input");
    const auto plan = make_plan(cat);
    QCOMPARE(plan.schemes.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(plan.schemes[0].id), QString("gptq-4bit-g32-actorder"));
    QCOMPARE(QString::fromStdString(plan.schemes[1].id), QString("gptq-8bit-g32"));
    const auto ins = inspect(cat, plan);
    QCOMPARE(ins.quantized, std::size_t(2));
    QCOMPARE(ins.passthrough, std::size_t(3));
    QCOMPARE(ins.companions, std::size_t(6));
    QCOMPARE(ins.quantized_parameters, std::uint64_t(128 * 64 + 64 * 32));
}

void TestRememberGptqAwqBnb::configJsonLosesQuantization() {
    // gptq_2bit has a config.json without quantization_config and an
    // AutoGPTQ quantize_config.json: the output has only config.json.
    QTemporaryDir tmp;
    const auto c = convert_into(tmp, fixtures() + "/gptq_2bit/input");
    QVERIFY(!QFile::exists(c.dir + "/quantize_config.json"));
    QFile cfg(c.dir + "/config.json");
    QVERIFY(cfg.open(QIODevice::ReadOnly));
    const auto obj = QJsonDocument::fromJson(cfg.readAll()).object();
    QVERIFY(!obj.contains("quantization_config"));
    QCOMPARE(obj["torch_dtype"].toString(), QString("bfloat16"));
    // And with quantization_config in config.json.
    QTemporaryDir tmp2;
    const auto c2 = convert_into(tmp2, fixtures() + "/gptq_actorder_asym/input");
    QFile cfg2(c2.dir + "/config.json");
    QVERIFY(cfg2.open(QIODevice::ReadOnly));
    QVERIFY(!QJsonDocument::fromJson(cfg2.readAll()).object().contains("quantization_config"));
}

void TestRememberGptqAwqBnb::eightBitIsNotReadAsFourBit() {
    // Without any configuration the width comes from the shapes alone.
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QTemporaryDir tmp;
    const std::string in = edited_copy(tmp, ref + "/gptq/llama_3_2_1b_gptqmodel_int8/input", [](auto&) {}, "{}");
    QVERIFY(!in.empty());
    fs::remove(in + "/config.json");
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    QCOMPARE(QString::fromStdString(plan.schemes.at(0).id), QString("gptq-8bit-g128"));
    RememberOptions o;
    o.output = tmp.filePath("o.safetensors").toStdString();
    remember_to_safetensors(cat, plan, o);
    const auto diff = amn::test::compare_safetensors(o.output, ref + "/gptq/llama_3_2_1b_gptqmodel_int8/expected.safetensors");
    QVERIFY2(diff.empty(), diff.c_str());
}

// ------------------------------------------------------------ bad input

using Edit = std::function<void(std::map<std::string, amn::test::RawTensor>&)>;
Q_DECLARE_METATYPE(Edit)

void TestRememberGptqAwqBnb::badInput_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("config");   // replaces config.json when not empty
    QTest::addColumn<QString>("message");  // part of the plan error
    const QString g = "gptq_actorder_asym", bq = "bnb_nf4_partial";
    const std::string gp = "model.layers.0.mlp.down_proj", bp = "model.layers.0.mlp.down_proj.weight";
    QTest::newRow("gptq qzeros missing") << g << Edit([=](auto& t) { t.erase(gp + ".qzeros"); }) << ""
                                         << "missing companion " + QString::fromStdString(gp) + ".qzeros";
    QTest::newRow("gptq scales missing") << g << Edit([=](auto& t) { t.erase(gp + ".scales"); }) << "" << "missing companion";
    QTest::newRow("gptq scales wrong dtype") << g << Edit([=](auto& t) { t[gp + ".scales"].dtype = "I16"; }) << ""
                                             << "scales must be a 2-D F16/BF16/F32 tensor";
    QTest::newRow("gptq scales wrong groups") << g << Edit([=](auto& t) {
        auto& s = t[gp + ".scales"];
        s.shape[0] -= 1;
        s.bytes.resize(s.bytes.size() - s.shape[1] * 2);
    }) << "" << "disagree on the group count";
    QTest::newRow("gptq qzeros wrong width") << g << Edit([=](auto& t) {
        auto& z = t[gp + ".qzeros"];
        z.shape[1] -= 1;
        z.bytes.resize(z.shape[0] * z.shape[1] * 4);
    }) << "" << "does not pack 96 zero points";
    QTest::newRow("gptq g_idx out of range") << g << Edit([=](auto& t) {
        auto& gi = t[gp + ".g_idx"];
        const std::int32_t v = 8;  // 8 groups: 0..7
        std::memcpy(gi.bytes.data() + 5 * 4, &v, 4);
    }) << "" << "g_idx[5] = 8 is out of range (8 groups)";
    QTest::newRow("gptq g_idx negative") << g << Edit([=](auto& t) {
        const std::int32_t v = -1;
        std::memcpy(t[gp + ".g_idx"].bytes.data(), &v, 4);
    }) << "" << "g_idx[0] = -1 is out of range";
    QTest::newRow("gptq g_idx wrong length") << g << Edit([=](auto& t) {
        auto& gi = t[gp + ".g_idx"];
        gi.shape[0] = 255;
        gi.bytes.resize(255 * 4);
    }) << "" << "g_idx must be an I32 tensor of shape [256]";
    QTest::newRow("gptq config bits disagree") << g << Edit([](auto&) {})
        << R"({"quantization_config": {"quant_method": "gptq", "bits": 8, "group_size": 32}})"
        << "the configuration says 8-bit but the tensor shapes say 4-bit";
    QTest::newRow("gptq unknown checkpoint format") << g << Edit([](auto&) {})
        << R"({"quantization_config": {"quant_method": "gptq", "bits": 4, "checkpoint_format": "marlin"}})"
        << "checkpoint_format \"marlin\" is not supported";
    QTest::newRow("awq gemv") << "awq_small" << Edit([](auto&) {})
        << R"({"quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 32, "version": "gemv"}})"
        << "version \"gemv\" is not supported";
    QTest::newRow("awq qzeros missing") << "awq_small" << Edit([](auto& t) { t.erase("model.layers.0.mlp.gate_proj.qzeros"); })
        << R"({"quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 32, "version": "gemm"}})"
        << "AWQ: missing companion";
    QTest::newRow("bnb absmax missing") << bq << Edit([=](auto& t) { t.erase(bp + ".absmax"); }) << "" << "missing companion";
    QTest::newRow("bnb nested absmax missing") << bq << Edit([=](auto& t) { t.erase(bp + ".nested_absmax"); }) << ""
                                               << "double quant needs";
    QTest::newRow("bnb absmax wrong count") << bq << Edit([=](auto& t) {
        auto& a = t[bp + ".absmax"];
        a.shape[0] = 4;
        a.bytes.resize(4);
    }) << "" << "absmax has 4 values";
    const std::string qs = bp + ".quant_state.bitsandbytes__nf4";
    auto set_blob = [](amn::test::RawTensor& t, std::string_view s) {
        t.bytes = bytes_of(s);
        t.shape = {t.bytes.size()};
    };
    QTest::newRow("bnb quant_state malformed") << bq << Edit([=](auto& t) {
        set_blob(t[qs], R"({"quant_type": "nf4", "blocksize": 64, "shape": [5, 61)");
    }) << "" << "quant_state";
    QTest::newRow("bnb quant_state trailing") << bq << Edit([=](auto& t) {
        set_blob(t[qs], R"({"quant_type": "nf4", "blocksize": 64, "dtype": "bfloat16", "shape": [5, 61], "nested_blocksize": 2, "nested_offset": 0.1} x)");
    }) << "" << "quant_state";
    QTest::newRow("bnb quant_state shape disagrees") << bq << Edit([=](auto& t) {
        set_blob(t[qs], R"({"quant_type": "nf4", "blocksize": 64, "dtype": "bfloat16", "shape": [5, 64], "nested_blocksize": 2, "nested_offset": 0.1})");
    }) << "" << "packed weight holds 153 bytes";
    QTest::newRow("bnb quant_state wrong type") << bq << Edit([=](auto& t) {
        set_blob(t[qs], R"({"quant_type": "fp4", "blocksize": 64, "dtype": "bfloat16", "shape": [5, 61], "nested_blocksize": 2, "nested_offset": 0.1})");
    }) << "" << "quant_type is \"fp4\"";
    QTest::newRow("bnb quant_state no nested settings") << bq << Edit([=](auto& t) {
        set_blob(t[qs], R"({"quant_type": "nf4", "blocksize": 64, "dtype": "bfloat16", "shape": [5, 61]})");
    }) << "" << "no nested_blocksize";
    QTest::newRow("bnb quant_state odd blocksize") << bq << Edit([=](auto& t) {
        set_blob(t[qs], R"({"quant_type": "nf4", "blocksize": 63, "dtype": "bfloat16", "shape": [5, 61], "nested_blocksize": 2, "nested_offset": 0.1})");
    }) << "" << "blocksize \"63\"";
}

void TestRememberGptqAwqBnb::badInput() {
    QFETCH(QString, fixture);
    QFETCH(Edit, edit);
    QFETCH(QString, config);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    const std::string in = edited_copy(tmp, fixtures() + "/" + fixture.toStdString() + "/input", edit, config.toStdString());
    QVERIFY(!in.empty());
    const std::string err = plan_error(in);
    QVERIFY2(err.find(message.toStdString()) != std::string::npos, err.c_str());
    // Conversion refuses with a named error and leaves no output behind.
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out").toStdString();
    bool threw = false;
    try {
        remember_to_safetensors(cat, plan, o);
    } catch (const Error& e) {
        threw = true;
        QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
    }
    QVERIFY(threw);
    QVERIFY(!QDir(tmp.filePath("out")).exists() || QDir(tmp.filePath("out")).isEmpty());
}

void TestRememberGptqAwqBnb::badInputIsNamedAndWritesNothing() {
    // LLM.int8: a tile layout and a short SCB are named; an I8 weight
    // without SCB in an int8 model is not passed through as integers.
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string src = ref + "/bnb/llama_1b_int8/input";
    const std::string p = "model.layers.0.mlp.gate_proj";
    struct Case { Edit edit; std::string message; };
    const std::vector<Case> cases = {
        {[&](auto& t) { t[p + ".weight_format"].bytes = {2}; }, "weight_format 2 (col_turing) is a GPU tile layout"},
        {[&](auto& t) {
             auto& s = t[p + ".SCB"];
             s.shape[0] = 255;
             s.bytes.resize(255 * 4);
         }, "SCB must hold one F32 value per row (256)"},
        {[&](auto& t) {
             t.erase(p + ".SCB");
             t.erase(p + ".weight_format");
         }, "I8 weight without its row scales"},
    };
    for (const auto& c : cases) {
        QTemporaryDir tmp;
        const std::string in = edited_copy(tmp, src, c.edit);
        const std::string err = plan_error(in);
        QVERIFY2(err.find(c.message) != std::string::npos, err.c_str());
        const auto cat = open_model(in);
        const auto plan = make_plan(cat);
        RememberOptions o;
        o.output = tmp.filePath("out.safetensors").toStdString();
        try {
            remember_to_safetensors(cat, plan, o);
            QFAIL("conversion did not fail");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find(c.message) != std::string::npos, e.what());
        }
        QVERIFY(!QFile::exists(tmp.filePath("out.safetensors")));
    }
}

QTEST_APPLESS_MAIN(TestRememberGptqAwqBnb)
#include "test_remember_gptq_awq_bnb.moc"
