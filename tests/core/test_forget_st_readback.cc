// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors names its schemes with the read side's type
// (QuantParams): what forget writes is what the detectors read back.
//   * every `--to` name and option, from BF16, F16 and F32 weights: the
//     output, opened again with open_model + make_plan, has every quantized
//     weight's LogicalTensor::params equal to st_weight_params() of the
//     scheme (every field: format, granularity, block, scale dtype and
//     naming, producer, bits, groups, zero points, compute dtype, UE8M0);
//   * a scheme no row writes (GPTQ, AWQ, a GGUF type, NVFP4, FP8 E5M2) is
//     refused with Error{Unsupported}, a value a row refuses with
//     Error{Usage}, before anything is written.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/plan.hpp"
#include "forget_st_test_support.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace amn;
using namespace forget_st_test;

class TestForgetStReadback : public QObject {
    Q_OBJECT

private slots:
    void writesWhatTheReadSideDetects();
    void refusesWhatNoRowWrites();
};

namespace {

// A one-layer llama folder whose Linear weights are stored as `dt`: two
// shapes (a row of 256 columns, one of 384) so groups and blocks differ.
std::string write_model(const std::string& dir, const std::string& dt) {
    fs::create_directories(dir);
    auto bytes = [&](const std::vector<float>& v) {
        return dt == "F16" ? f16_bytes(v) : dt == "F32" ? f32_bytes(v) : bf16_bytes(v);
    };
    std::map<std::string, RawTensor> m;
    m["model.layers.0.self_attn.q_proj.weight"] = raw(dt, {128, 256}, bytes(gauss(128 * 256, 1)));
    m["model.layers.0.mlp.down_proj.weight"] = raw(dt, {256, 384}, bytes(gauss(256 * 384, 2)));
    m["model.layers.0.input_layernorm.weight"] = raw(dt, {256}, bytes(gauss(256, 3, 1.0f)));
    m["lm_head.weight"] = raw(dt, {32, 256}, bytes(gauss(32 * 256, 4)));
    test::write_safetensors_raw(dir + "/model.safetensors", m);
    const std::string torch = dt == "F16" ? "float16" : dt == "F32" ? "float32" : "bfloat16";
    const std::string cfg = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 256,
 "tie_word_embeddings": false, "torch_dtype": ")" + torch + "\"}";
    test::write_file(dir + "/config.json", std::vector<std::uint8_t>(cfg.begin(), cfg.end()));
    return dir;
}

std::string text(const QuantParams& p) { return scheme_id(p) + " / " + describe(p); }

}  // namespace

void TestForgetStReadback::writesWhatTheReadSideDetects() {
    QTemporaryDir tmp;
    const std::vector<std::pair<std::string, StSchemeOptions>> schemes = {
        {"bnb-nf4", {}},
        {"bnb-fp4", so([](StSchemeOptions& o) { o.blocksize = 128u; o.double_quant = true; })},
        {"bnb-int8", {}},
        {"fp8", so([](StSchemeOptions& o) { o.granularity = Fp8Granularity::Tensor; })},
        {"fp8", {}},
        {"fp8", so([](StSchemeOptions& o) { o.granularity = Fp8Granularity::Block; })},
        {"fp8-block-deepseek", {}},
        {"fp8-block-deepseek", so([](StSchemeOptions& o) { o.ue8m0 = true; })},
        {"w4a16", {}},
        {"w4a16-asym", so([](StSchemeOptions& o) { o.group_size = 64u; })},
        {"w8a16", so([](StSchemeOptions& o) { o.group_size = 0u; })},
        {"w8a16-asym", {}},
    };
    std::size_t compared = 0;
    for (const std::string dt : {"BF16", "F16", "F32"}) {
        const std::string model = write_model(tmp.path().toStdString() + "/in-" + dt, dt);
        const Catalog cat = open_model(model);
        const Plan plan = make_plan(cat);
        const DType wdtype = *dtype_from_safetensors_name(dt);
        for (std::size_t k = 0; k < schemes.size(); ++k) {
            StForgetOptions opt;
            opt.scheme = parse_st_scheme(schemes[k].first, schemes[k].second);
            opt.output = tmp.path().toStdString() + "/out-" + dt + "-" + std::to_string(k);
            const StForgetResult res = forget_to_safetensors(cat, plan, opt);
            const Catalog back = open_model(opt.output);
            const Plan back_plan = make_plan(back);
            std::size_t quantized = 0;
            for (const auto& t : res.tensors) {
                if (t.copied || t.target == DType::BF16 || t.target == wdtype) continue;
                ++quantized;
                const auto it = std::find_if(back_plan.tensors.begin(), back_plan.tensors.end(),
                                             [&](const LogicalTensor& l) { return l.name == t.name; });
                const LogicalTensor* lt = it == back_plan.tensors.end() ? nullptr : &*it;
                const std::string what = schemes[k].first + " " + dt + " " + t.name;
                QVERIFY2(lt && lt->params, what.c_str());
                const QuantParams want = st_weight_params(opt.scheme, t.shape.at(0), t.shape.at(1), wdtype);
                const std::string diff = what + ": read back " + text(*lt->params) + ", forget says " + text(want);
                QVERIFY2(*lt->params == want, diff.c_str());
                ++compared;
            }
            QCOMPARE(quantized, std::size_t(2));  // q_proj and down_proj; lm_head is kept
        }
    }
    QCOMPARE(compared, std::size_t(3 * 12 * 2));
}

void TestForgetStReadback::refusesWhatNoRowWrites() {
    QTemporaryDir tmp;
    const std::string model = write_model(tmp.path().toStdString() + "/in", "BF16");
    const Catalog cat = open_model(model);
    const Plan plan = make_plan(cat);
    AffineParams gptq;  // packing Gptq
    AffineParams awq;
    awq.packing = AffinePacking::AwqGemm;
    Fp8Params e5m2;
    e5m2.format = DType::F8_E5M2;
    e5m2.scale_name = Fp8ScaleName::Scale;
    Fp8Params modelopt;
    modelopt.scale_name = Fp8ScaleName::Scale;
    modelopt.producer = Fp8Producer::ModelOpt;
    Int8Params int8_bf16;
    int8_bf16.scale_dtype = DType::BF16;
    const std::vector<QuantParams> unsupported = {gptq, awq, GgmlParams{}, Fp4Params{}, e5m2, modelopt, int8_bf16};
    for (const auto& s : unsupported) {
        std::string what;
        QCOMPARE(test::error_code_of([&] { check_st_scheme(s); }, &what), ErrorCode::Unsupported);
        QVERIFY2(what.find("forget to safetensors does not write " + describe(s)) != std::string::npos, what.c_str());
    }

    auto with = [](QuantParams p, auto f) {
        std::visit([&](auto& v) {
            if constexpr (std::is_invocable_v<decltype(f), decltype(v)&>) f(v);
        }, p);
        return p;
    };
    const std::vector<std::pair<QuantParams, std::string>> refused = {
        {with(parse_st_scheme("bnb-nf4", {}), [](Bnb4Params& b) { b.blocksize = 96; }), "--blocksize must be a power of two"},
        {with(parse_st_scheme("bnb-nf4", {}), [](Bnb4Params& b) { b.double_quant = true; }), "nested blocks of 256"},
        {with(parse_st_scheme("w4a16", {}), [](AffineParams& a) { a.bits = 3; }), "4 or 8 bits"},
        {with(parse_st_scheme("w4a16", {}), [](AffineParams& a) { a.group_size = 100; }), "multiple of 8"},
        {with(parse_st_scheme("w4a16", {}), [](AffineParams& a) { a.zero_points = ZeroPointForm::Stored; }), "no zero point"},
        {with(parse_st_scheme("fp8", {}), [](Fp8Params& f) { f.granularity = Fp8Granularity::Expert; }),
         "--granularity must be tensor, channel or block, not 'expert'"},
        {with(parse_st_scheme("fp8", {}), [](Fp8Params& f) { f.granularity = Fp8Granularity::Block; f.block_rows = f.block_cols = 64; }),
         "128 \u00d7 128 blocks"},
        {with(parse_st_scheme("fp8", {}), [](Fp8Params& f) { f.ue8m0 = true; }), "fp8-block-deepseek"},
        {with(parse_st_scheme("fp8-block-deepseek", {}), [](Fp8Params& f) { f.block_rows = 64; }), "128 \u00d7 128 blocks"},
    };
    for (const auto& r : refused) {
        const QuantParams& s = r.first;  // not a structured binding: clang 14 cannot capture one
        const std::string& words = r.second;
        std::string what;
        QCOMPARE(test::error_code_of([&] { check_st_scheme(s); }, &what), ErrorCode::Usage);
        QVERIFY2(what.find(words) != std::string::npos, what.c_str());
        // forget refuses it before writing anything.
        StForgetOptions opt;
        opt.scheme = s;
        opt.output = tmp.path().toStdString() + "/out";
        QCOMPARE(test::error_code_of([&] { forget_to_safetensors(cat, plan, opt); }), ErrorCode::Usage);
        QVERIFY(!fs::exists(opt.output));
    }
    StForgetOptions opt;
    opt.scheme = gptq;
    opt.output = tmp.path().toStdString() + "/out";
    QCOMPARE(test::error_code_of([&] { plan_st_forget(cat, plan, opt); }), ErrorCode::Unsupported);
    QCOMPARE(test::error_code_of([&] { forget_to_safetensors(cat, plan, opt); }), ErrorCode::Unsupported);
    QVERIFY(!fs::exists(opt.output));
}

QTEST_APPLESS_MAIN(TestForgetStReadback)
#include "test_forget_st_readback.moc"
