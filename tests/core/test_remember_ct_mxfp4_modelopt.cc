// SPDX-License-Identifier: MIT OR Apache-2.0
// compressed-tensors, MXFP4 (gpt-oss) and NVIDIA ModelOpt end to end through
// the core (open → plan → convert), judged by
//   * every shared reference case of those kinds (canonical library output),
//     converted whole and in tiny chunks on two threads;
//   * models assembled here from those cases: mixed config groups routed by
//     regex targets (int4 group-wise MLP + int8 channel-wise down_proj in one
//     model), companions in the other shard of a sharded model, ignore lists;
//   * bad inputs: a named error naming the tensor, and nothing written.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "kernels/fp4/fp4_kernels.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>

using namespace amn;
namespace fs = std::filesystem;
using Tensors = std::map<std::string, amn::test::RawTensor>;
using Edit = std::function<void(Tensors&)>;
Q_DECLARE_METATYPE(Edit)

class TestRememberCtMxfp4Modelopt : public QObject {
    Q_OBJECT
private slots:
    void referenceCases_data();
    void referenceCases();
    void schemesInWords();
    void fp4Values();
    void mixedGroupsShardedRegex();
    void ignoredLayerPassesThrough();
    void fp8F16ScaleRoundsThroughF16();
    void badInput_data();
    void badInput();
};

namespace {

// Every tensor of every .safetensors file in `dir` (or the file itself).
Tensors read_all(const std::string& path) {
    Tensors all;
    std::vector<std::string> files;
    if (fs::is_directory(path)) {
        for (const auto& e : fs::directory_iterator(path))
            if (e.path().extension() == ".safetensors") files.push_back(e.path().string());
    } else {
        files.push_back(path);
    }
    for (const auto& f : files)
        if (auto raw = amn::test::read_safetensors_raw(f))
            for (auto& [n, t] : raw->tensors) all.emplace(n, std::move(t));
    return all;
}

// "" when `actual` holds exactly the tensors of `expected`, byte for byte.
std::string compare(const Tensors& actual, const Tensors& expected) {
    std::string diff;
    for (const auto& [n, e] : expected) {
        auto it = actual.find(n);
        if (it == actual.end()) { diff += "missing " + n + "; "; continue; }
        if (it->second.dtype != e.dtype || it->second.shape != e.shape) { diff += n + ": dtype/shape differ; "; continue; }
        if (it->second.bytes != e.bytes) {
            std::size_t nd = 0;
            for (std::size_t i = 0; i + 1 < e.bytes.size(); i += 2)
                if (std::memcmp(&e.bytes[i], &it->second.bytes[i], 2) != 0) ++nd;
            diff += n + ": " + std::to_string(nd) + " BF16 elements differ; ";
        }
    }
    for (const auto& [n, a] : actual)
        if (!expected.count(n)) diff += "unexpected " + n + "; ";
    return diff;
}

// Convert `input` into tmp/out (a folder) and return every output tensor.
Tensors convert(const QTemporaryDir& tmp, const std::string& input, std::uint64_t chunk = 0, unsigned threads = 0,
                const std::string& name = "out") {
    const auto cat = open_model(input);
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath(QString::fromStdString(name)).toStdString();
    if (chunk) o.chunk_bytes = chunk;
    o.threads = threads;
    remember_to_safetensors(cat, plan, o);
    return read_all(o.output);
}

void write_text(const std::string& path, const std::string& s) {
    amn::test::write_file(path, std::vector<std::uint8_t>(s.begin(), s.end()));
}

// A copy of a case's input folder with its tensors edited and (optionally) a new config.json.
std::string edited_copy(const QTemporaryDir& tmp, const std::string& input_dir, const Edit& edit,
                        const std::string& config = {}) {
    const std::string dir = tmp.filePath("in").toStdString();
    fs::create_directories(dir);
    auto raw = amn::test::read_safetensors_raw(input_dir + "/model.safetensors");
    if (!raw) return {};
    edit(raw->tensors);
    amn::test::write_safetensors_raw(dir + "/model.safetensors", raw->tensors);
    if (!config.empty()) write_text(dir + "/config.json", config);
    else fs::copy_file(input_dir + "/config.json", dir + "/config.json");
    if (fs::exists(input_dir + "/hf_quant_config.json"))
        fs::copy_file(input_dir + "/hf_quant_config.json", dir + "/hf_quant_config.json");
    return dir;
}

// Write `tensors` as a sharded model: shard_of(name) ∈ {1, 2}.
void write_sharded(const std::string& dir, const Tensors& tensors, const std::function<int(const std::string&)>& shard_of,
                   const std::string& config) {
    fs::create_directories(dir);
    Tensors s1, s2;
    std::string map;
    for (const auto& [n, t] : tensors) {
        const int s = shard_of(n);
        (s == 1 ? s1 : s2).emplace(n, t);
        map += std::string(map.empty() ? "" : ",") + "\"" + n + "\": \"model-0000" + std::to_string(s) + "-of-00002.safetensors\"";
    }
    amn::test::write_safetensors_raw(dir + "/model-00001-of-00002.safetensors", s1);
    amn::test::write_safetensors_raw(dir + "/model-00002-of-00002.safetensors", s2);
    write_text(dir + "/model.safetensors.index.json", "{\"metadata\": {}, \"weight_map\": {" + map + "}}");
    write_text(dir + "/config.json", config);
}

std::string ct_config(const std::string& groups, const std::string& format, const std::string& extra = {}) {
    return R"({"quantization_config": {"quant_method": "compressed-tensors", "format": ")" + format +
           R"(", "ignore": ["lm_head"], "config_groups": {)" + groups + "}" + extra + "}}";
}

std::string int_group(const std::string& name, const std::string& target, const std::string& format, int bits,
                      const std::string& group_size, bool symmetric = true) {
    return "\"" + name + R"(": {"format": ")" + format + R"(", "targets": [")" + target +
           R"("], "input_activations": null, "weights": {"num_bits": )" + std::to_string(bits) +
           R"(, "type": "int", "symmetric": )" + (symmetric ? "true" : "false") + R"(, "group_size": )" + group_size +
           R"(, "strategy": ")" + (group_size == "null" ? "channel" : "group") + R"(", "actorder": null}})";
}

std::vector<std::uint8_t> i64s(std::initializer_list<std::int64_t> v) {
    std::vector<std::uint8_t> b(v.size() * 8);
    std::size_t i = 0;
    for (auto x : v) std::memcpy(b.data() + 8 * i++, &x, 8);
    return b;
}

}  // namespace


// ------------------------------------------------------------ reference data

void TestRememberCtMxfp4Modelopt::referenceCases_data() {
    QTest::addColumn<QString>("dir");
    AMN_REQUIRE_REFERENCE_DIR(ref);
    int n = 0;
    for (const char* kind : {"compressed_tensors", "mxfp4", "nvfp4_modelopt"})
        for (const auto& d : amn::test::reference_cases(kind)) {
            QTest::newRow(qPrintable(QString(kind) + "/" + QDir(d).dirName())) << d;
            ++n;
        }
    QVERIFY(n >= 11);
}

void TestRememberCtMxfp4Modelopt::referenceCases() {
    QFETCH(QString, dir);
    const std::string in = (dir + "/input").toStdString();
    const auto expected = read_all((dir + "/expected.safetensors").toStdString());
    QVERIFY(!expected.empty());
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    QCOMPARE(plan.tensors.size(), expected.size());
    QCOMPARE(plan.schemes.size(), std::size_t(1));
    // Packed data and companions never pass through.
    for (std::size_t i = 0; i < cat.tensors.size(); ++i)
        if (!expected.count(cat.tensors[i].name)) QVERIFY2(plan.roles[i] != Role::Passthrough, cat.tensors[i].name.c_str());
    {
        QTemporaryDir tmp;
        const std::string diff = compare(convert(tmp, in), expected);
        QVERIFY2(diff.empty(), diff.c_str());
    }
    {   // Tiny chunks on two threads: every row split (MXFP4's transposed rows included).
        QTemporaryDir tmp;
        const std::string diff = compare(convert(tmp, in, 1000, 2), expected);
        QVERIFY2(diff.empty(), diff.c_str());
    }
}

void TestRememberCtMxfp4Modelopt::schemesInWords() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    struct Case { const char* path; const char* id; std::vector<const char*> words; };
    const std::vector<Case> cases = {
        {"compressed_tensors/w4a16_group128", "ct-pack-int4-g128", {"compressed-tensors W4A16", "int4 symmetric", "group 128"}},
        {"compressed_tensors/w4a16_asym_group32", "ct-pack-int4-g32-asym", {"int4 asymmetric", "group 32"}},
        {"compressed_tensors/w8a16_channel", "ct-pack-int8-channel", {"W8A16", "per-channel"}},
        {"compressed_tensors/w8a8_int_quantized", "ct-int-int8-channel", {"W8A8", "int-quantized"}},
        {"compressed_tensors/fp8_block128", "fp8-block", {"FP8 (E4M3)", "128\u00d7128 blocks"}},  // detect_fp8's
        {"compressed_tensors/nvfp4_w4a4", "ct-nvfp4", {"NVFP4 W4A4"}},
        {"mxfp4/gpt_oss_2experts", "mxfp4-experts", {"MXFP4", "E8M0"}},
        {"nvfp4_modelopt/nvfp4_o_proj", "modelopt-nvfp4", {"ModelOpt NVFP4"}},
        {"nvfp4_modelopt/fp8_down_proj", "modelopt-fp8", {"ModelOpt FP8", "BF16"}},
    };
    for (const auto& c : cases) {
        const auto cat = open_model(ref + "/" + c.path + "/input");
        const auto plan = make_plan(cat);
        QCOMPARE(plan.schemes.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(plan.schemes[0].id), QString(c.id));
        for (const char* w : c.words)
            QVERIFY2(plan.schemes[0].description.find(w) != std::string::npos, plan.schemes[0].description.c_str());
    }
    // hf_quant_config.json alone (older ModelOpt exports) is enough.
    QTemporaryDir tmp;
    const std::string in = edited_copy(tmp, ref + "/nvfp4_modelopt/fp8_down_proj/input", [](Tensors&) {}, "{}");
    const auto cat = open_model(in);
    QCOMPARE(cat.qconfig("quant_method").value_or(""), std::string("modelopt"));
    QCOMPARE(cat.qconfig("quant_algo").value_or(""), std::string("FP8"));
    const auto diff = compare(convert(tmp, in), read_all(ref + "/nvfp4_modelopt/fp8_down_proj/expected.safetensors"));
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestRememberCtMxfp4Modelopt::fp4Values() {
    namespace f4 = amn::kernels::fp4;
    QCOMPARE(std::bit_cast<std::uint32_t>(f4::e8m0_value(0)), 0x00400000u);  // 2^-127, subnormal
    QCOMPARE(f4::e8m0_value(127), 1.0f);
    QVERIFY(std::isinf(f4::e8m0_value(255)));
    QCOMPARE(std::bit_cast<std::uint32_t>(f4::e2m1_value(8, true)), 0x80000000u);
    QCOMPARE(std::bit_cast<std::uint32_t>(f4::e2m1_value(8, false)), 0x00000000u);
    QCOMPARE(f4::e2m1_value(7, true), 6.0f);
    QCOMPARE(f4::e2m1_value(0xF, false), -6.0f);
    const std::uint8_t packed[2] = {0x71, 0x9A};
    float y[4];
    f4::e2m1_scale(packed, true, 2.0f, y, 2);
    QCOMPARE(y[0], 1.0f);   // low nibble first
    QCOMPARE(y[1], 12.0f);
    QCOMPARE(y[2], -2.0f);
    QCOMPARE(y[3], -1.0f);
    QCOMPARE(f4::round_to(DType::BF16, 1.00390625f), 1.0f);  // tie → even
    QCOMPARE(f4::round_to(DType::F32, 1.00390625f), 1.00390625f);
}

// gate_proj int4 group 128 (group_0, by regex) and down_proj int8 per
// channel (group_1, by regex) in one two-shard model, the down_proj scale in
// the other shard than its weight_packed.
void TestRememberCtMxfp4Modelopt::mixedGroupsShardedRegex() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string a = ref + "/compressed_tensors/w4a16_group128", c = ref + "/compressed_tensors/w8a16_channel";
    auto ta = amn::test::read_safetensors_raw(a + "/input/model.safetensors");
    auto tc = amn::test::read_safetensors_raw(c + "/input/model.safetensors");
    QVERIFY(ta && tc);
    Tensors all = ta->tensors;
    for (auto& [n, t] : tc->tensors)
        if (n.find("down_proj") != std::string::npos) all.emplace(n, t);
    const std::string groups = int_group("group_0", "re:.*mlp\\\\.gate_proj$", "pack-quantized", 4, "128") + ", " +
                               int_group("group_1", "re:.*down_proj", "pack-quantized", 8, "null");
    QTemporaryDir tmp;
    const std::string dir = tmp.filePath("sharded").toStdString();
    write_sharded(dir, all, [](const std::string& n) {
        return n.find("gate_proj") != std::string::npos || n.find("down_proj.weight_packed") != std::string::npos ? 1 : 2;
    }, ct_config(groups, "pack-quantized"));
    Tensors expected;
    for (const auto& p : {a, c})
        for (auto& [n, t] : read_all(p + "/expected.safetensors")) expected.emplace(n, t);
    const auto cat = open_model(dir + "/model.safetensors.index.json");
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    QCOMPARE(plan.schemes.size(), std::size_t(2));
    const std::string diff = compare(convert(tmp, dir + "/model.safetensors.index.json", 4096, 2), expected);
    QVERIFY2(diff.empty(), diff.c_str());

    // The same model whose regex sends down_proj to a 4-bit group: the
    // shapes say 8-bit, so the layer is refused by name.
    const std::string wrong = int_group("group_0", "re:.*_proj", "pack-quantized", 4, "128");
    write_text(dir + "/config.json", ct_config(wrong, "pack-quantized"));
    const auto cat2 = open_model(dir + "/model.safetensors.index.json");
    const auto plan2 = make_plan(cat2);
    QCOMPARE(plan2.error_count(), std::size_t(1));
    for (const auto& t : plan2.tensors)
        if (!t.error.empty()) {
            QCOMPARE(t.name, std::string("model.layers.0.mlp.down_proj.weight"));
            QVERIFY2(t.error.message().find("packed length does not match") != std::string::npos, t.error.message().c_str());
        }
}

// A plain BF16 layer listed in `ignore` (lm_head) passes through next to a
// quantized one; the note names the ignore list.
void TestRememberCtMxfp4Modelopt::ignoredLayerPassesThrough() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string a = ref + "/compressed_tensors/w4a16_group128";
    QTemporaryDir tmp;
    amn::test::RawTensor head{"BF16", {4, 256}, std::vector<std::uint8_t>(4 * 256 * 2, 0x3f)};
    const std::string in = edited_copy(tmp, a + "/input", [&](Tensors& t) { t["lm_head.weight"] = head; },
                                       ct_config(int_group("group_0", "Linear", "pack-quantized", 4, "128"),
                                                 "pack-quantized"));
    auto expected = read_all(a + "/expected.safetensors");
    expected["lm_head.weight"] = head;
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    bool noted = false;
    for (const auto& n : plan.notes) noted = noted || n.find("lm_head") != std::string::npos;
    QVERIFY(noted);
    const std::string diff = compare(convert(tmp, in), expected);
    QVERIFY2(diff.empty(), diff.c_str());
}

// float-quantized with an F16 scale: compressed-tensors multiplies in F16
// (one F16 rounding), then casts to BF16 — two roundings, not one.
void TestRememberCtMxfp4Modelopt::fp8F16ScaleRoundsThroughF16() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    namespace ks = amn::kernels::scalar;
    const std::string c = ref + "/compressed_tensors/fp8_static_tensor_f32";
    const std::string p = "model.layers.0.self_attn.q_proj";
    QTemporaryDir tmp;
    std::uint16_t s16 = 0;
    Tensors inputs;
    const std::string in = edited_copy(tmp, c + "/input", [&](Tensors& t) {
        auto& s = t[p + ".weight_scale"];
        float f;
        std::memcpy(&f, s.bytes.data(), 4);
        s16 = ks::f16_from_f32(f);
        s.dtype = "F16";
        s.bytes.assign(reinterpret_cast<const std::uint8_t*>(&s16), reinterpret_cast<const std::uint8_t*>(&s16) + 2);
        inputs = t;
    });
    const auto& w = inputs.at(p + ".weight");
    const float scale = ks::f32_from_f16(s16);
    amn::test::RawTensor y{"BF16", w.shape, std::vector<std::uint8_t>(w.bytes.size() * 2)};
    std::size_t double_rounded = 0;
    for (std::size_t i = 0; i < w.bytes.size(); ++i) {
        const float prod = ks::fp8_value(DType::F8_E4M3, w.bytes[i]) * scale;
        const std::uint16_t b = ks::bf16_from_f32(ks::f32_from_f16(ks::f16_from_f32(prod)));
        double_rounded += b != ks::bf16_from_f32(prod);
        std::memcpy(y.bytes.data() + 2 * i, &b, 2);
    }
    auto expected = read_all(c + "/expected.safetensors");
    expected[p + ".weight"] = y;
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    QCOMPARE(QString::fromStdString(plan.schemes.at(0).id), QString("ct-fp8-tensor"));
    const std::string diff = compare(convert(tmp, in), expected);
    QVERIFY2(diff.empty(), diff.c_str());
    qInfo("%zu of %zu elements differ from a single rounding", double_rounded, w.bytes.size());
}

// ------------------------------------------------------------ bad input

void TestRememberCtMxfp4Modelopt::badInput_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("tensor");   // the logical tensor the error names
    QTest::addColumn<QString>("message");  // part of the error
    const QString g128 = "compressed_tensors/w4a16_group128", nv = "compressed_tensors/nvfp4_w4a4",
                  mo = "nvfp4_modelopt/nvfp4_o_proj", mx = "mxfp4/gpt_oss_2experts";
    const std::string gp = "model.layers.0.mlp.gate_proj", dp = "model.layers.0.mlp.down_proj",
                      op = "model.layers.0.self_attn.o_proj", ex = "model.layers.0.mlp.experts.down_proj";
    const QString gw = QString::fromStdString(gp + ".weight");
    QTest::newRow("missing weight_shape") << g128 << Edit([=](Tensors& t) { t.erase(gp + ".weight_shape"); }) << "" << gw
                                          << QString::fromStdString("missing " + gp + ".weight_shape");
    QTest::newRow("packed length") << g128 << Edit([=](Tensors& t) { t[gp + ".weight_shape"].bytes = i64s({256, 300}); })
                                   << "" << gw << "packed length does not match";
    QTest::newRow("weight_shape rows") << g128 << Edit([=](Tensors& t) { t[gp + ".weight_shape"].bytes = i64s({255, 256}); })
                                       << "" << gw << "weight_shape says 255";
    QTest::newRow("g_idx out of range") << g128 << Edit([=](Tensors& t) {
        amn::test::RawTensor gi{"I32", {256}, std::vector<std::uint8_t>(256 * 4, 0)};
        const std::int32_t v = 2;
        std::memcpy(gi.bytes.data() + 5 * 4, &v, 4);
        t[gp + ".weight_g_idx"] = gi;
    }) << "" << gw << "weight_g_idx[5] = 2 is out of range (2 groups)";
    QTest::newRow("scale shape") << g128 << Edit([=](Tensors& t) {
        auto& s = t[gp + ".weight_scale"];
        s.shape = {256, 3};
        s.bytes.resize(256 * 3 * 2);
    }) << "" << gw << "weight_scale BF16 [256, 3] does not fit the weight [256, 256]";
    QTest::newRow("unknown format") << g128 << Edit([](Tensors&) {})
        << QString::fromStdString(ct_config(int_group("group_0", "Linear", "marlin-24", 4, "128"), "marlin-24")) << gw
        << "compressed-tensors format \"marlin-24\" is not yet supported";
    QTest::newRow("sparse format") << g128 << Edit([](Tensors&) {})
        << QString::fromStdString(ct_config(int_group("group_0", "Linear", "sparse-24-bitmask", 4, "128"), "sparse-24-bitmask"))
        << gw << "\"sparse-24-bitmask\" is not yet supported";
    QTest::newRow("nvfp4 rows not multiple of 16") << nv << Edit([=](Tensors& t) {
        auto& w = t[dp + ".weight_packed"];
        w.shape = {256, 124};
        w.bytes.resize(256 * 124);
    }) << "" << QString::fromStdString(dp + ".weight") << "rows of 248 values are not a multiple of 16";
    QTest::newRow("nvfp4 scale shape") << nv << Edit([=](Tensors& t) {
        auto& s = t[dp + ".weight_scale"];
        s.shape = {256, 8};
        s.bytes.resize(256 * 8);
    }) << "" << QString::fromStdString(dp + ".weight") << "weight_scale must be F8_E4M3 [256, 16]";
    QTest::newRow("nvfp4 global scale missing") << nv << Edit([=](Tensors& t) { t.erase(dp + ".weight_global_scale"); })
        << "" << QString::fromStdString(dp + ".weight") << "missing " + QString::fromStdString(dp) + ".weight_global_scale";
    QTest::newRow("modelopt rows not multiple of 16") << mo << Edit([=](Tensors& t) {
        auto& w = t[op + ".weight"];
        w.shape = {256, 124};
        w.bytes.resize(256 * 124);
    }) << "" << QString::fromStdString(op + ".weight") << "not a multiple of 16";
    QTest::newRow("modelopt weight_scale_2 missing") << mo << Edit([=](Tensors& t) { t.erase(op + ".weight_scale_2"); })
        << "" << QString::fromStdString(op + ".weight") << "missing " + QString::fromStdString(op) + ".weight_scale_2";
    QTest::newRow("modelopt unknown algo") << mo << Edit([](Tensors&) {})
        << R"({"quantization_config": {"quant_method": "modelopt", "quant_algo": "W4A8_AWQ"}})"
        << QString::fromStdString(op + ".weight") << "quant_algo \"W4A8_AWQ\" is not yet supported";
    QTest::newRow("mxfp4 scales shape") << mx << Edit([=](Tensors& t) {
        auto& s = t[ex + "_scales"];
        s.shape = {2, 256, 3};
        s.bytes.resize(2 * 256 * 3);
    }) << "" << QString::fromStdString(ex) << "do not match blocks";
}

void TestRememberCtMxfp4Modelopt::badInput() {
    QFETCH(QString, fixture);
    QFETCH(Edit, edit);
    QFETCH(QString, config);
    QFETCH(QString, tensor);
    QFETCH(QString, message);
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QTemporaryDir tmp;
    const std::string in = edited_copy(tmp, ref + "/" + fixture.toStdString() + "/input", edit, config.toStdString());
    QVERIFY(!in.empty());
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    std::string err;
    for (const auto& t : plan.tensors)
        if (!t.error.empty()) {
            QCOMPARE(QString::fromStdString(t.name), tensor);
            err = t.error.message();
        }
    QVERIFY2(err.find(message.toStdString()) != std::string::npos, err.c_str());
    // Packed data never passes through as if it were a weight.
    for (std::size_t i = 0; i < cat.tensors.size(); ++i)
        if (cat.tensors[i].dtype == DType::I32 || cat.tensors[i].dtype == DType::U8)
            QVERIFY2(plan.roles[i] != Role::Passthrough, cat.tensors[i].name.c_str());
    RememberOptions o;
    o.output = tmp.filePath("out").toStdString();
    bool threw = false;
    try {
        remember_to_safetensors(cat, plan, o);
    } catch (const Error& e) {
        threw = true;
        QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(tensor.toStdString()) != std::string::npos, e.what());
    }
    QVERIFY(threw);
    QVERIFY(!QDir(tmp.filePath("out")).exists() || QDir(tmp.filePath("out")).isEmpty());
}

QTEST_GUILESS_MAIN(TestRememberCtMxfp4Modelopt)
#include "test_remember_ct_mxfp4_modelopt.moc"
