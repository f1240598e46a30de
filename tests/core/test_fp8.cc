// SPDX-License-Identifier: MIT OR Apache-2.0
// FP8 dequantization end to end through the core (open → plan → convert),
// judged by the shared reference data (PyTorch's fp8 cast on real model
// slices) and by the project's fixtures (expected outputs from the
// independent NumPy reference in fixtures/fp8_reference.py).
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/inspect.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>

using namespace amn;
namespace fs = std::filesystem;

namespace {

std::string fixtures() { return amn::test::source_dir() + "/fixtures"; }

// Convert `input` into a fresh folder and return the output folder.
QString convert_into(const QTemporaryDir& tmp, const std::string& input, std::optional<DType> to, const QString& name = "out") {
    const auto cat = open_model(input);
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.to = to;
    o.output = tmp.filePath(name).toStdString();
    remember_to_safetensors(cat, plan, o);
    return tmp.filePath(name);
}

// Merge all output shards into one file so it can be compared with a single
// expected file (names must not repeat across shards).
std::string merged(const QString& dir, const QTemporaryDir& tmp) {
    amn::test::RawSafetensors all;
    for (const auto& f : QDir(dir).entryList({"*.safetensors"}, QDir::Files, QDir::Name)) {
        auto r = amn::test::read_safetensors_raw((dir + "/" + f).toStdString());
        if (!r) return {};
        for (auto& [n, t] : r->tensors) {
            if (all.tensors.count(n)) return {};
            all.tensors[n] = std::move(t);
        }
    }
    const std::string path = tmp.filePath("merged.safetensors").toStdString();
    amn::test::write_safetensors_raw(path, all.tensors);
    return path;
}

}  // namespace

class TestFp8 : public QObject {
    Q_OBJECT
private slots:
    void referenceCases_data();
    void referenceCases();
    void projectFixtures_data();
    void projectFixtures();
    void shardedScaleInOtherShard();
    void schemesAreNamed();
    void orphanWeightIsAnError();
    void badScaleCompanion();
    void scaleNamedTensorIsNotAlwaysACompanion();
};

void TestFp8::referenceCases_data() {
    QTest::addColumn<QString>("dir");
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const auto cases = amn::test::reference_cases("fp8");
    QVERIFY(!cases.isEmpty());
    for (const auto& d : cases) QTest::newRow(qPrintable(QDir(d).dirName())) << d;
}

void TestFp8::referenceCases() {
    QFETCH(QString, dir);
    QTemporaryDir tmp;
    const QString out = convert_into(tmp, (dir + "/input/model.safetensors").toStdString(), std::nullopt);
    const auto diff = amn::test::compare_safetensors((out + "/model.safetensors").toStdString(), (dir + "/expected.safetensors").toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
    // config.json beside the output: quantization_config gone, torch_dtype bfloat16.
    QFile cfg(out + "/config.json");
    QVERIFY(cfg.open(QIODevice::ReadOnly));
    const auto obj = QJsonDocument::fromJson(cfg.readAll()).object();
    QVERIFY(!obj.contains("quantization_config"));
    QCOMPARE(obj["torch_dtype"].toString(), QString("bfloat16"));
    QVERIFY(obj.contains("architectures"));
}

void TestFp8::projectFixtures_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("to");  // -1 = default
    const QString f = QString::fromStdString(fixtures());
    QTest::newRow("sample bf16 (default)") << f + "/sample/tiny-llama-fp8" << f + "/sample/expected/tiny-llama-fp8-bf16.safetensors" << -1;
    QTest::newRow("sample f16") << f + "/sample/tiny-llama-fp8" << f + "/sample/expected/tiny-llama-fp8-f16.safetensors" << int(DType::F16);
    QTest::newRow("sample f32") << f + "/sample/tiny-llama-fp8" << f + "/sample/expected/tiny-llama-fp8-f32.safetensors" << int(DType::F32);
    QTest::newRow("e5m2 channel, specials") << f + "/fp8/e5m2_channel/input/model.safetensors" << f + "/fp8/e5m2_channel/expected-bf16.safetensors" << -1;
    QTest::newRow("e5m2 channel f16") << f + "/fp8/e5m2_channel/input/model.safetensors" << f + "/fp8/e5m2_channel/expected-f16.safetensors" << int(DType::F16);
    QTest::newRow("e5m2 channel f32") << f + "/fp8/e5m2_channel/input/model.safetensors" << f + "/fp8/e5m2_channel/expected-f32.safetensors" << int(DType::F32);
    QTest::newRow("e8m0 32x32 blocks") << f + "/fp8/e8m0_block/input" << f + "/fp8/e8m0_block/expected-bf16.safetensors" << -1;
    QTest::newRow("sharded") << f + "/fp8/sharded/input" << f + "/fp8/sharded/expected-bf16.safetensors" << -1;
}

void TestFp8::projectFixtures() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QFETCH(int, to);
    QTemporaryDir tmp;
    const QString out = convert_into(tmp, input.toStdString(), to < 0 ? std::nullopt : std::optional<DType>(DType(to)));
    const std::string m = merged(out, tmp);
    QVERIFY(!m.empty());
    const auto diff = amn::test::compare_safetensors(m, expected.toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestFp8::shardedScaleInOtherShard() {
    const auto cat = open_model(fixtures() + "/fp8/sharded/input");
    QCOMPARE(cat.shards.size(), std::size_t(2));
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    const auto q = cat.find("model.layers.0.self_attn.q_proj.weight");
    const auto s = cat.find("model.layers.0.self_attn.q_proj.weight_scale_inv");
    QVERIFY(q && s);
    QVERIFY(cat.tensors[*q].shard != cat.tensors[*s].shard);
    QCOMPARE(plan.roles[*q], Role::Quantized);
    QCOMPARE(plan.roles[*s], Role::Companion);
    QTemporaryDir tmp;
    const QString out = convert_into(tmp, fixtures() + "/fp8/sharded/input", std::nullopt);
    QCOMPARE(amn::test::list_files(out), QStringList({"config.json", "model-00001-of-00002.safetensors",
                                                      "model-00002-of-00002.safetensors", "model.safetensors.index.json"}));
    QFile idx(out + "/model.safetensors.index.json");
    QVERIFY(idx.open(QIODevice::ReadOnly));
    const auto wm = QJsonDocument::fromJson(idx.readAll()).object()["weight_map"].toObject();
    QCOMPARE(wm.size(), 4);
    QCOMPARE(wm["model.layers.0.self_attn.q_proj.weight"].toString(), QString("model-00001-of-00002.safetensors"));
    QCOMPARE(wm["model.layers.0.mlp.down_proj.weight"].toString(), QString("model-00002-of-00002.safetensors"));
}

void TestFp8::schemesAreNamed() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    struct Case { const char* dir; const char* id; const char* words; };
    for (const auto& c : {Case{"exaone_fine_grained", "fp8-block", "FP8 (E4M3), 128\u00d7128 blocks, BF16 scales"},
                          Case{"llama_dynamic_per_channel", "fp8-channel", "FP8 (E4M3), per-channel scales, BF16 scales"},
                          Case{"ministral_per_tensor", "fp8-tensor", "FP8 (E4M3), per-tensor scale, BF16 scales"}}) {
        const auto cat = open_model(ref + "/fp8/" + c.dir + "/input/model.safetensors");
        const auto plan = make_plan(cat);
        QCOMPARE(plan.schemes.size(), std::size_t(1));
        QCOMPARE(plan.schemes[0].id, std::string(c.id));
        QCOMPARE(plan.schemes[0].description, std::string(c.words));
        const auto r = inspect(cat, plan);
        QCOMPARE(r.quantized, std::size_t(1));
        QCOMPARE(r.quantized_parameters, std::uint64_t(256 * 256));
        QCOMPARE(r.bf16_bytes, std::uint64_t(2 * 256 * 256));
        QCOMPARE(r.quantized_bf16_bytes - r.lethe_took(), r.quantized_stored_bytes);
        QVERIFY(r.bits_per_weight > 8.0 && r.bits_per_weight < 8.1);
    }
    const auto cat = open_model(fixtures() + "/fp8/e5m2_channel/input/model.safetensors");
    const auto plan = make_plan(cat);
    QCOMPARE(plan.schemes.at(0).description, std::string("FP8 (E5M2), per-channel scales, F32 scales"));
    QCOMPARE(plan.roles[*cat.find("layer.input_scale")], Role::Companion);
}

// Writes a one-layer model with `tensors` (name, dtype, shape, bytes).
static std::string write_model(const QTemporaryDir& tmp, const std::vector<std::tuple<std::string, std::string, std::vector<int>, int>>& ts) {
    std::string header = "{";
    std::uint64_t off = 0;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const auto& [n, d, s, b] = ts[i];
        header += (i ? "," : "") + std::string("\"") + n + "\":{\"dtype\":\"" + d + "\",\"shape\":[";
        for (std::size_t k = 0; k < s.size(); ++k) header += (k ? "," : "") + std::to_string(s[k]);
        header += "],\"data_offsets\":[" + std::to_string(off) + "," + std::to_string(off + std::uint64_t(b)) + "]}";
        off += std::uint64_t(b);
    }
    header += "}";
    std::vector<std::uint8_t> f(8);
    for (int i = 0; i < 8; ++i) f[i] = std::uint8_t(std::uint64_t(header.size()) >> (8 * i));
    f.insert(f.end(), header.begin(), header.end());
    f.resize(f.size() + off, 0x38);  // 0x38 = 1.0 in E4M3
    const std::string path = tmp.filePath("m.safetensors").toStdString();
    amn::test::write_file(path, f);
    return path;
}

void TestFp8::orphanWeightIsAnError() {
    QTemporaryDir tmp;
    const auto path = write_model(tmp, {{"l.weight", "F8_E4M3", {4, 4}, 16}, {"l.bias", "BF16", {4}, 8}});
    const auto cat = open_model(path);
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(1));
    QVERIFY(plan.tensors[0].error.message().find("without a scale") != std::string::npos);
    RememberOptions o;
    o.output = tmp.filePath("out.safetensors").toStdString();
    try {
        remember_to_safetensors(cat, plan, o);
        QFAIL("converted an FP8 weight without its scale");
    } catch (const Error& e) {
        QCOMPARE(e.tensor(), std::string("l.weight"));
        QCOMPARE(e.code(), ErrorCode::Unsupported);
    }
    QVERIFY(!fs::exists(o.output));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // only the input
}

void TestFp8::badScaleCompanion() {
    QTemporaryDir tmp;
    {   // wrong dtype
        const auto path = write_model(tmp, {{"l.weight", "F8_E4M3", {4, 4}, 16}, {"l.weight_scale", "I32", {1}, 4}});
        const auto plan = make_plan(open_model(path));
        QCOMPARE(plan.error_count(), std::size_t(1));
        QVERIFY(plan.tensors[0].error.message().find("I32") != std::string::npos);
    }
    {   // shape that fits nothing
        const auto path = write_model(tmp, {{"l.weight", "F8_E4M3", {4, 4}, 16}, {"l.weight_scale", "F32", {3}, 12}});
        const auto plan = make_plan(open_model(path));
        QCOMPARE(plan.error_count(), std::size_t(1));
        QVERIFY2(plan.tensors[0].error.message().find("does not fit") != std::string::npos, plan.tensors[0].error.message().c_str());
    }
}

void TestFp8::scaleNamedTensorIsNotAlwaysACompanion() {
    // A non-FP8 model with tensors that merely end in "scale": all passthrough.
    QTemporaryDir tmp;
    const auto path = write_model(tmp, {{"norm.scale", "F32", {4}, 16}, {"attn.k_scale", "F32", {1}, 4}, {"w.weight", "BF16", {2, 2}, 8}});
    const auto plan = make_plan(open_model(path));
    QCOMPARE(plan.tensors.size(), std::size_t(3));
    for (auto r : plan.roles) QCOMPARE(r, Role::Passthrough);
    QVERIFY(plan.schemes.empty());
}

QTEST_APPLESS_MAIN(TestFp8)
#include "test_fp8.moc"
