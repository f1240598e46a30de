// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes (forget_st.hpp), part 2 — own cases:
// sharded BF16 model with tied embeddings (+ index.json, tokenizer copied),
// MoE router kept, F16 and F32 inputs, NaN in a weight, bad requests
// (nothing written), already quantized inputs, scheme parsing.
// The sink and the reference bytes: test_forget_st.cc.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_st.hpp"
#include "sink/gguf_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "sink/safetensors_writer.hpp"
#include "exec/tensor_sink.hpp"
#include "jobs/forget_st_rows.hpp"
#include "forget_st_test_support.hpp"
#include "plan/schemes/facts.hpp"
#include "test_support.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

using namespace amn;
using namespace forget_st_test;  // fs, RawTensor and the helpers

class TestForgetStCases : public QObject {
    Q_OBJECT

private slots:
    // ---- own cases ----------------------------------------------------------------
    void shardedTiedEmbeddings();
    void moeRouterAndOnlyKeep();
    void conv1dAndFusedExperts();
    void f16AndF32Inputs();
    void nanInWeight();
    void withoutLoss();
    void badRequests();
    void alreadyQuantized();
    void schemeParsing();
    void schemeRows();
};

// ---- own cases ------------------------------------------------------------------------------

void TestForgetStCases::shardedTiedEmbeddings() {
    QTemporaryDir tmp;
    const std::string model = tmp.path().toStdString() + "/tied";
    fs::create_directories(model);
    // Two shards: embedding + layer 0 / layer 1 + norm; no lm_head (tied).
    std::map<std::string, RawTensor> s1, s2;
    s1["model.embed_tokens.weight"] = raw("BF16", {64, 128}, bf16_bytes(gauss(64 * 128, 1)));
    for (int l = 0; l < 2; ++l) {
        auto& s = l == 0 ? s1 : s2;
        const std::string p = "model.layers." + std::to_string(l) + ".";
        s[p + "self_attn.q_proj.weight"] = raw("BF16", {128, 128}, bf16_bytes(gauss(128 * 128, 10 + l)));
        s[p + "self_attn.o_proj.weight"] = raw("BF16", {128, 128}, bf16_bytes(gauss(128 * 128, 20 + l)));
        s[p + "mlp.down_proj.weight"] = raw("BF16", {128, 256}, bf16_bytes(gauss(128 * 256, 30 + l)));
        s[p + "input_layernorm.weight"] = raw("BF16", {128}, bf16_bytes(gauss(128, 40 + l, 1.0f)));
    }
    s2["model.norm.weight"] = raw("BF16", {128}, bf16_bytes(gauss(128, 50, 1.0f)));
    test::write_safetensors_raw(model + "/model-00001-of-00002.safetensors", s1);
    test::write_safetensors_raw(model + "/model-00002-of-00002.safetensors", s2);
    std::string idx = R"({"metadata": {"total_size": 0}, "weight_map": {)";
    bool first = true;
    for (const auto* s : {&s1, &s2})
        for (const auto& [n, t] : *s) {
            idx += std::string(first ? "" : ", ") + "\"" + n + "\": \"model-0000" + (s == &s1 ? "1" : "2") + "-of-00002.safetensors\"";
            first = false;
        }
    idx += "}}";
    test::write_file(model + "/model.safetensors.index.json", std::vector<std::uint8_t>(idx.begin(), idx.end()));
    const std::string cfg = R"({"model_type": "llama", "tie_word_embeddings": true, "torch_dtype": "bfloat16"})";
    test::write_file(model + "/config.json", std::vector<std::uint8_t>(cfg.begin(), cfg.end()));
    test::write_file(model + "/tokenizer.json", {'{', '}'});
    test::write_file(model + "/generation_config.json", {'{', '}'});

    const Catalog cat = open_model(model);
    QCOMPARE(cat.shards.size(), std::size_t(2));
    const Plan plan = make_plan(cat);
    StForgetOptions opt;
    opt.scheme = parse_st_scheme("bnb-nf4", so([](StSchemeOptions& o) { o.double_quant = true; }));
    opt.output = tmp.path().toStdString() + "/tied-out";
    const auto res = forget_to_safetensors(cat, plan, opt);
    QCOMPARE(files_in(opt.output),
             (std::vector<std::string>{"config.json", "generation_config.json", "model-00001-of-00002.safetensors",
                                       "model-00002-of-00002.safetensors", "model.safetensors.index.json", "tokenizer.json"}));
    // Each output tensor sits in the shard of its input; the index names them all.
    const auto o1 = test::read_safetensors_raw(opt.output + "/model-00001-of-00002.safetensors");
    const auto o2 = test::read_safetensors_raw(opt.output + "/model-00002-of-00002.safetensors");
    QVERIFY(o1 && o2);
    QVERIFY(o1->tensors.count("model.layers.0.self_attn.q_proj.weight.nested_absmax"));
    QVERIFY(o1->tensors.count("model.layers.0.self_attn.q_proj.weight.quant_state.bitsandbytes__nf4"));
    QVERIFY(o2->tensors.count("model.layers.1.mlp.down_proj.weight.absmax"));
    QVERIFY(o1->tensors.at("model.embed_tokens.weight").bytes == s1.at("model.embed_tokens.weight").bytes);
    QCOMPARE(o1->tensors.at("model.layers.0.self_attn.q_proj.weight").dtype, std::string("U8"));
    const auto index = read_json(opt.output + "/model.safetensors.index.json");
    const auto wm = index["weight_map"].toObject();
    QCOMPARE(static_cast<std::size_t>(wm.size()), o1->tensors.size() + o2->tensors.size());
    for (const auto& [n, t] : o2->tensors) QCOMPARE(wm[QString::fromStdString(n)].toString(), QString("model-00002-of-00002.safetensors"));
    std::uint64_t total = 0;
    for (const auto* o : {&*o1, &*o2})
        for (const auto& [n, t] : o->tensors) total += t.bytes.size();
    QCOMPARE(static_cast<std::uint64_t>(index["metadata"].toObject()["total_size"].toDouble()), total);
    const auto c = read_json(opt.output + "/config.json");
    QCOMPARE(c["tie_word_embeddings"].toBool(), true);
    QCOMPARE(c["quantization_config"].toObject()["bnb_4bit_use_double_quant"].toBool(), true);
    QVERIFY(res.kept.empty());  // no lm_head, no router
    // Quant state: the BF16 dtype and the original shape.
    const auto& qs = o1->tensors.at("model.layers.0.mlp.down_proj.weight.quant_state.bitsandbytes__nf4");
    const std::string js(qs.bytes.begin(), qs.bytes.end());
    QVERIFY2(js.find("\"dtype\": \"bfloat16\", \"shape\": [128, 256]") != std::string::npos, js.c_str());
    // Round trip.
    std::string err;
    const auto back = remember(opt.output, tmp.path().toStdString() + "/back", &err);
    QVERIFY2(!back.empty(), err.c_str());
    QCOMPARE(back.at("model.layers.1.mlp.down_proj.weight").shape, (std::vector<std::uint64_t>{128, 256}));
    for (const auto& t : res.tensors)
        if (!t.copied) QVERIFY2(t.sqnr_db > 18 && t.sqnr_db < 23, t.name.c_str());
}

void TestForgetStCases::moeRouterAndOnlyKeep() {
    QTemporaryDir tmp;
    const std::string model = tmp.path().toStdString() + "/moe.safetensors";
    std::map<std::string, RawTensor> m;
    m["model.layers.0.mlp.gate.weight"] = raw("BF16", {4, 128}, bf16_bytes(gauss(4 * 128, 1)));
    for (int e = 0; e < 4; ++e)
        m["model.layers.0.mlp.experts." + std::to_string(e) + ".up_proj.weight"] = raw("BF16", {64, 128}, bf16_bytes(gauss(64 * 128, 2 + e)));
    m["model.layers.0.self_attn.q_proj.weight"] = raw("BF16", {128, 128}, bf16_bytes(gauss(128 * 128, 9)));
    m["lm_head.weight"] = raw("BF16", {32, 128}, bf16_bytes(gauss(32 * 128, 10)));
    m["model.embed_tokens.weight"] = raw("BF16", {32, 128}, bf16_bytes(gauss(32 * 128, 11)));
    test::write_safetensors_raw(model, m);
    const Catalog cat = open_model(model);
    const Plan plan = make_plan(cat);

    StForgetOptions opt;
    opt.scheme = parse_st_scheme("w4a16", {});
    auto plan_of = [&] {
        std::map<std::string, StRule> r;
        for (const auto& t : plan_st_forget(cat, plan, opt)) r[t.name] = t.st_rule.value();
        return r;
    };
    auto r = plan_of();
    QCOMPARE(r.at("model.layers.0.mlp.gate.weight"), StRule::KeptRouter);
    QCOMPARE(r.at("lm_head.weight"), StRule::KeptLmHead);
    QCOMPARE(r.at("model.embed_tokens.weight"), StRule::KeptEmbedding);
    QCOMPARE(r.at("model.layers.0.mlp.experts.3.up_proj.weight"), StRule::Quantized);
    QCOMPARE(r.at("model.layers.0.self_attn.q_proj.weight"), StRule::Quantized);
    opt.keep = {"experts\\.[0-1]\\."};
    r = plan_of();
    QCOMPARE(r.at("model.layers.0.mlp.experts.1.up_proj.weight"), StRule::KeptByKeep);
    QCOMPARE(r.at("model.layers.0.mlp.experts.2.up_proj.weight"), StRule::Quantized);
    opt.keep.clear();
    opt.only = {"lm_head", "q_proj"};
    r = plan_of();
    QCOMPARE(r.at("lm_head.weight"), StRule::Quantized);
    QCOMPARE(r.at("model.layers.0.mlp.experts.0.up_proj.weight"), StRule::KeptNotMatchedByOnly);
    QCOMPARE(r.at("model.embed_tokens.weight"), StRule::KeptNotMatchedByOnly);
    opt.only.clear();

    // Written: the ignore list names the router and lm_head; default output path.
    const auto res = forget_to_safetensors(cat, plan, opt);
    const std::string out = tmp.path().toStdString() + "/moe-w4a16.safetensors";
    QCOMPARE(res.files.front(), out);
    QVERIFY(fs::exists(tmp.path().toStdString() + "/config.json"));
    const auto qc = QJsonDocument::fromJson(QByteArray::fromStdString(res.quantization_config)).object();
    QCOMPARE(qc["ignore"].toArray(), (QJsonArray{"lm_head", "model.layers.0.mlp.gate"}));
    auto kept = res.kept;
    std::sort(kept.begin(), kept.end());
    QCOMPARE(kept, (std::vector<std::string>{"lm_head.weight", "model.layers.0.mlp.gate.weight"}));
    const auto o = test::read_safetensors_raw(out);
    QVERIFY(o);
    QCOMPARE(o->tensors.at("model.layers.0.mlp.experts.2.up_proj.weight_packed").shape, (std::vector<std::uint64_t>{64, 16}));
    QCOMPARE(o->tensors.at("model.layers.0.mlp.experts.2.up_proj.weight_scale").shape, (std::vector<std::uint64_t>{64, 1}));
    QVERIFY(o->tensors.at("model.layers.0.mlp.gate.weight").bytes == m.at("model.layers.0.mlp.gate.weight").bytes);
}

// GPT-2 Conv1D ([in, out]) layers: refused for bitsandbytes (no reference for
// transformers' transpose), kept for llm-compressor schemes (nn.Linear only),
// quantized as usual in a model whose c_attn is an nn.Linear (Qwen-1); fused
// 3-D expert tensors are kept with the reason.
void TestForgetStCases::conv1dAndFusedExperts() {
    QTemporaryDir tmp;
    auto make = [&](const std::string& name, const std::string& model_type) {
        const std::string dir = tmp.path().toStdString() + "/" + name;
        fs::create_directories(dir);
        std::map<std::string, RawTensor> m;
        m["transformer.wte.weight"] = raw("BF16", {32, 16}, bf16_bytes(gauss(32 * 16, 1)));
        m["transformer.h.0.ln_1.weight"] = raw("BF16", {16}, bf16_bytes(gauss(16, 2, 1.0f)));
        m["transformer.h.0.attn.c_attn.weight"] = raw("BF16", {16, 48}, bf16_bytes(gauss(16 * 48, 3)));
        m["transformer.h.0.mlp.c_fc.weight"] = raw("BF16", {16, 64}, bf16_bytes(gauss(16 * 64, 4)));
        m["transformer.h.0.mlp.extra.weight"] = raw("BF16", {16, 16}, bf16_bytes(gauss(16 * 16, 5)));
        m["transformer.h.0.mlp.experts.gate_up_proj"] = raw("BF16", {4, 16, 32}, bf16_bytes(gauss(4 * 16 * 32, 6)));
        test::write_safetensors_raw(dir + "/model.safetensors", m);
        const std::string cfg = R"({"model_type": ")" + model_type + R"("})";
        test::write_file(dir + "/config.json", std::vector<std::uint8_t>(cfg.begin(), cfg.end()));
        return dir;
    };
    const std::string gpt2 = make("gpt2", "gpt2");
    const Catalog cat = open_model(gpt2);
    const Plan plan = make_plan(cat);
    StForgetOptions opt;
    opt.output = tmp.path().toStdString() + "/out";
    for (const char* scheme : {"bnb-nf4", "bnb-int8"}) {
        opt.scheme = parse_st_scheme(scheme, so([](StSchemeOptions&) {}));
        std::string what;
        QCOMPARE(error_code_of([&] { forget_to_safetensors(cat, plan, opt); }, &what), ErrorCode::Unsupported);
        QVERIFY2(what.find("Conv1D") != std::string::npos && what.find("--keep") != std::string::npos, what.c_str());
        QVERIFY(!fs::exists(opt.output));
    }
    // --keep the Conv1D layers: the rest is quantized.
    opt.keep = {R"(\.(c_attn|c_proj|c_fc|q_attn)\.)"};
    std::map<std::string, StRule> r;
    for (const auto& t : plan_st_forget(cat, plan, opt)) r[t.name] = t.st_rule.value();
    QCOMPARE(r.at("transformer.h.0.attn.c_attn.weight"), StRule::KeptByKeep);
    QCOMPARE(r.at("transformer.h.0.mlp.extra.weight"), StRule::Quantized);
    opt.keep.clear();
    // compressed-tensors: Conv1D is not an nn.Linear, kept (and not in `ignore`).
    opt.scheme = parse_st_scheme("w4a16", so([](StSchemeOptions& o) { o.group_size = 16; }));
    const auto res = forget_to_safetensors(cat, plan, opt);
    r.clear();
    for (const auto& t : res.tensors) r[t.name] = t.st_rule.value();
    QCOMPARE(r.at("transformer.h.0.attn.c_attn.weight"), StRule::KeptConv1D);
    QCOMPARE(r.at("transformer.h.0.mlp.c_fc.weight"), StRule::KeptConv1D);
    QCOMPARE(r.at("transformer.h.0.mlp.experts.gate_up_proj"), StRule::KeptFusedExperts);
    QCOMPARE(r.at("transformer.h.0.mlp.extra.weight"), StRule::Quantized);
    QVERIFY(res.quantization_config.find("c_attn") == std::string::npos);
    const auto out = read_output(opt.output);
    QCOMPARE(out.at("transformer.h.0.attn.c_attn.weight").shape, (std::vector<std::uint64_t>{16, 48}));
    QCOMPARE(out.at("transformer.h.0.mlp.experts.gate_up_proj").shape, (std::vector<std::uint64_t>{4, 16, 32}));
    // The same names in a model whose c_attn is an nn.Linear (Qwen-1): quantized.
    const std::string qwen = make("qwen", "qwen");
    const Catalog qcat = open_model(qwen);
    opt.scheme = parse_st_scheme("bnb-nf4", so([](StSchemeOptions&) {}));
    r.clear();
    for (const auto& t : plan_st_forget(qcat, make_plan(qcat), opt)) r[t.name] = t.st_rule.value();
    QCOMPARE(r.at("transformer.h.0.attn.c_attn.weight"), StRule::Quantized);
}

void TestForgetStCases::f16AndF32Inputs() {
    QTemporaryDir tmp;
    for (const std::string dt : {"F16", "F32"}) {
        const std::string model = tmp.path().toStdString() + "/m-" + dt + ".safetensors";
        std::map<std::string, RawTensor> m;
        const auto v = gauss(96 * 256, 3);
        m["model.layers.0.mlp.up_proj.weight"] = raw(dt, {96, 256}, dt == "F16" ? f16_bytes(v) : f32_bytes(v));
        m["model.layers.0.post_attention_layernorm.weight"] = raw(dt, {256}, dt == "F16" ? f16_bytes(gauss(256, 4, 1)) : f32_bytes(gauss(256, 4, 1)));
        test::write_safetensors_raw(model, m);
        const Catalog cat = open_model(model);
        const Plan plan = make_plan(cat);
        for (const std::string scheme : {"w8a16", "fp8", "bnb-int8", "bnb-fp4", "fp8-block-deepseek", "w4a16-asym"}) {
            StForgetOptions opt;
            opt.scheme = parse_st_scheme(scheme, {});
            opt.output = tmp.path().toStdString() + "/" + dt + "-" + scheme;
            StForgetResult res;
            try {
                res = forget_to_safetensors(cat, plan, opt);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString::fromStdString(dt + " " + scheme + ": " + e.what())));
            }
            const auto o = read_output(opt.output);
            // Scales of compressed-tensors in the weight dtype.
            if (scheme == "w8a16" || scheme == "fp8" || scheme == "w4a16-asym")
                QCOMPARE(o.at("model.layers.0.mlp.up_proj.weight_scale").dtype, dt);
            const auto& t = res.tensors.front().name == "model.layers.0.mlp.up_proj.weight" ? res.tensors.front() : res.tensors.back();
            QCOMPARE(t.name, std::string("model.layers.0.mlp.up_proj.weight"));
            const double floor = scheme == "w8a16" ? 38 : scheme == "bnb-int8" ? 38 : scheme.rfind("fp8", 0) == 0 ? 28 : 14;
            QVERIFY2(t.sqnr_db > floor, qPrintable(QString::fromStdString(dt + " " + scheme + ": SQNR ") + QString::number(t.sqnr_db)));
            std::string err;
            const auto back = remember(opt.output, opt.output + "-back", &err);
            QVERIFY2(!back.empty(), qPrintable(QString::fromStdString(dt + " " + scheme + ": " + err)));
            // The norm passes through (converted to F32 by remember --to f32).
            QVERIFY(back.count("model.layers.0.post_attention_layernorm.weight"));
        }
    }
}

void TestForgetStCases::nanInWeight() {
    QTemporaryDir tmp;
    const std::string model = tmp.path().toStdString() + "/nan.safetensors";
    for (const float bad : {std::nanf(""), std::numeric_limits<float>::infinity()}) {
        auto v = gauss(64 * 128, 5);
        v[3 * 128 + 7] = bad;
        std::map<std::string, RawTensor> m;
        m["model.layers.0.self_attn.q_proj.weight"] = raw("F32", {64, 128}, f32_bytes(gauss(64 * 128, 6)));
        m["model.layers.3.self_attn.k_proj.weight"] = raw("F32", {64, 128}, f32_bytes(v));
        test::write_safetensors_raw(model, m);
        const Catalog cat = open_model(model);
        const Plan plan = make_plan(cat);
        for (const std::string scheme : {"bnb-nf4", "fp8", "w4a16"}) {
            StForgetOptions opt;
            opt.scheme = parse_st_scheme(scheme, {});
            opt.output = tmp.path().toStdString() + "/out/deeper";
            std::string what;
            QCOMPARE(error_code_of([&] { forget_to_safetensors(cat, plan, opt); }, &what), ErrorCode::Unsupported);
            QVERIFY2(what.find("model.layers.3.self_attn.k_proj.weight") != std::string::npos, what.c_str());
            QVERIFY2(what.find("[3, 7]") != std::string::npos, what.c_str());
            QVERIFY(!fs::exists(tmp.path().toStdString() + "/out"));
        }
        // BF16 weight with the bad value, every other weight kept: the BF16 path names it too.
        const std::string model16 = tmp.path().toStdString() + "/nan16.safetensors";
        std::map<std::string, RawTensor> m16;
        m16["model.layers.0.self_attn.q_proj.weight"] = raw("BF16", {64, 128}, bf16_bytes(gauss(64 * 128, 6)));
        m16["model.layers.3.self_attn.k_proj.weight"] = raw("BF16", {64, 128}, bf16_bytes(v));
        test::write_safetensors_raw(model16, m16);
        const Catalog cat16 = open_model(model16);
        const Plan plan16 = make_plan(cat16);
        for (const std::string scheme : {"bnb-nf4", "bnb-nf4-dq", "fp8", "fp8-tensor", "bnb-int8", "w4a16", "w8a16-asym",
                                         "fp8-block-deepseek"}) {
            StSchemeOptions so;
            so.double_quant = scheme == "bnb-nf4-dq";
            if (scheme == "fp8-tensor") so.granularity = Fp8Granularity::Tensor;
            StForgetOptions opt;
            opt.scheme = parse_st_scheme(scheme == "bnb-nf4-dq" ? "bnb-nf4" : scheme == "fp8-tensor" ? "fp8" : scheme, so);
            opt.output = tmp.path().toStdString() + "/out/deeper";
            // Found with and without the loss pass (bitsandbytes 4-bit finds it from the loss when measured).
            for (const bool measure : {true, false}) {
                opt.measure_loss = measure;
                std::string what;
                QCOMPARE(error_code_of([&] { forget_to_safetensors(cat16, plan16, opt); }, &what), ErrorCode::Unsupported);
                QVERIFY2(what.find("model.layers.3.self_attn.k_proj.weight") != std::string::npos, what.c_str());
                QVERIFY2(what.find("[3, 7]") != std::string::npos, what.c_str());
                QVERIFY2(what.find(std::isnan(bad) ? "NaN" : "infinity") != std::string::npos, what.c_str());
                QVERIFY(!fs::exists(tmp.path().toStdString() + "/out"));
            }
        }
        fs::remove(model);
        fs::remove(model16);
    }
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{});
}

// measure_loss = false (amn forget without --report/--json): the same files,
// byte for byte, no loss figures, the same LLM.int8 overflow count.
void TestForgetStCases::withoutLoss() {
    QTemporaryDir tmp;
    for (const std::string dt : {"BF16", "F32"}) {
        const std::string model = tmp.path().toStdString() + "/m-" + dt + ".safetensors";
        auto v = gauss(256 * 384, 11);
        v[5 * 384 + 9] = 70000.0f;  // row 5 overflows LLM.int8's F16 cast
        std::map<std::string, RawTensor> m;
        m["model.layers.0.mlp.up_proj.weight"] = raw(dt, {256, 384}, dt == "BF16" ? bf16_bytes(v) : f32_bytes(v));
        m["model.layers.1.mlp.down_proj.weight"] = raw(dt, {384, 256}, dt == "BF16" ? bf16_bytes(gauss(384 * 256, 12)) : f32_bytes(gauss(384 * 256, 12)));
        test::write_safetensors_raw(model, m);
        const Catalog cat = open_model(model);
        const Plan plan = make_plan(cat);
        const std::vector<std::pair<std::string, StSchemeOptions>> schemes = {
            {"bnb-nf4", {}}, {"bnb-nf4", so([](auto& o) { o.double_quant = true; })},
            {"bnb-fp4", so([](auto& o) { o.blocksize = 128; })}, {"bnb-int8", {}}, {"fp8", {}},
            {"fp8", so([](auto& o) { o.granularity = Fp8Granularity::Tensor; })}, {"fp8", so([](auto& o) { o.granularity = Fp8Granularity::Block; })},
            {"fp8-block-deepseek", {}}, {"w4a16-asym", {}}, {"w8a16", so([](auto& o) { o.group_size = 0; })},
            {"w4a16", {}}, {"w4a16", so([](auto& o) { o.group_size = 0; })},
            {"w8a16-asym", so([](auto& o) { o.group_size = 32; })}};
        for (std::size_t i = 0; i < schemes.size(); ++i) {
            StForgetResult res[2];
            std::string out[2];
            for (const int measure : {1, 0}) {
                StForgetOptions opt;
                opt.scheme = parse_st_scheme(schemes[i].first, schemes[i].second);
                opt.measure_loss = measure;
                opt.chunk_bytes = 64 << 10;  // several chunks per weight
                out[measure] = tmp.path().toStdString() + "/" + dt + "-" + std::to_string(i) + (measure ? "-loss" : "-plain");
                opt.output = out[measure];
                res[measure] = forget_to_safetensors(cat, plan, opt);
                QCOMPARE(res[measure].loss_measured, bool(measure));
            }
            const std::string what = dt + " " + schemes[i].first + " #" + std::to_string(i);
            const auto a = read_output(out[1]), b = read_output(out[0]);
            QCOMPARE(a.size(), b.size());
            for (const auto& [name, t] : a) {
                QVERIFY2(b.count(name), qPrintable(QString::fromStdString(what + ": " + name)));
                QVERIFY2(t.dtype == b.at(name).dtype && t.shape == b.at(name).shape && t.bytes == b.at(name).bytes,
                         qPrintable(QString::fromStdString(what + ": " + name + " differs")));
            }
            QCOMPARE(read_json(out[1] + "/config.json"), read_json(out[0] + "/config.json"));
            QCOMPARE(res[0].nonfinite, res[1].nonfinite);
            QCOMPARE(res[0].warnings, res[1].warnings);
            const bool int8 = schemes[i].first == "bnb-int8";
            QCOMPARE(res[0].nonfinite, int8 ? std::uint64_t(384) : std::uint64_t(0));
            for (std::size_t k = 0; k < res[1].tensors.size(); ++k) {
                const auto& with = res[1].tensors[k];
                const auto& without = res[0].tensors[k];
                QCOMPARE(without.name, with.name);
                QCOMPARE(without.bytes, with.bytes);
                if (with.copied) continue;
                QVERIFY2(with.sum_sq_error > 0 && with.rmse > 0 && with.max_abs > 0 && with.sum_sq_signal > 0,
                         qPrintable(QString::fromStdString(what + ": " + with.name)));
                QCOMPARE(without.rmse, 0.0);
                QCOMPARE(without.max_abs, 0.0);
                QCOMPARE(without.sqnr_db, 0.0);
                QCOMPARE(without.sum_sq_error, 0.0);
                QCOMPARE(without.sum_sq_signal, 0.0);
            }
        }
    }
}

void TestForgetStCases::badRequests() {
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    const std::string model = dir + "/m.safetensors";
    std::map<std::string, RawTensor> m;
    m["model.layers.0.mlp.down_proj.weight"] = raw("BF16", {32, 200}, bf16_bytes(gauss(32 * 200, 1)));
    m["model.layers.0.mlp.up_proj.weight"] = raw("BF16", {200, 128}, bf16_bytes(gauss(200 * 128, 2)));
    m["model.embed_tokens.weight"] = raw("BF16", {8, 128}, bf16_bytes(gauss(8 * 128, 3)));
    test::write_safetensors_raw(model, m);
    const Catalog cat = open_model(model);
    const Plan plan = make_plan(cat);
    const auto before = files_in(dir);
    auto fails = [&](StForgetOptions opt, ErrorCode code, const std::string& says) {
        if (opt.output.empty()) opt.output = dir + "/out";
        std::string what;
        const auto got = error_code_of([&] { forget_to_safetensors(cat, plan, opt); }, &what);
        QVERIFY2(got == code, what.c_str());
        QVERIFY2(what.find(says) != std::string::npos, what.c_str());
        QCOMPARE(files_in(dir), before);
    };
    StForgetOptions o;
    o.scheme = parse_st_scheme("w4a16", {});
    fails(o, ErrorCode::Usage, "model.layers.0.mlp.down_proj.weight: group size 128 does not divide the row of 200");
    o.keep = {"down_proj"};
    o.only = {"("};
    fails(o, ErrorCode::Usage, "--only '(' is not a valid regular expression");
    o.only = {"nothing-matches"};
    fails(o, ErrorCode::Usage, "no tensor to quantize");
    o.only.clear();
    o.output = model;  // the input itself
    fails(o, ErrorCode::Usage, "overwrite the input");
    // An existing output without force.
    test::write_file(dir + "/exists.safetensors", {1});
    o.output = dir + "/exists.safetensors";
    {
        std::string what;
        QCOMPARE(error_code_of([&] { forget_to_safetensors(cat, plan, o); }, &what), ErrorCode::OutputExists);
        QCOMPARE(test::read_file(dir + "/exists.safetensors"), std::vector<std::uint8_t>{1});
    }
    fs::remove(dir + "/exists.safetensors");
    // Channel works where the group does not.
    o.scheme = parse_st_scheme("w4a16", so([](StSchemeOptions& o) { o.group_size = 0u; }));
    o.keep.clear();
    o.output = dir + "/ok";
    QVERIFY(!error_code_of([&] { forget_to_safetensors(cat, plan, o); }));
    QVERIFY(fs::exists(dir + "/ok/config.json"));
}

void TestForgetStCases::alreadyQuantized() {
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    std::map<std::string, RawTensor> m;
    m["model.layers.0.mlp.up_proj.weight"] = raw("BF16", {128, 256}, bf16_bytes(gauss(128 * 256, 1)));
    m["lm_head.weight"] = raw("BF16", {16, 256}, bf16_bytes(gauss(16 * 256, 2)));
    test::write_safetensors_raw(dir + "/m.safetensors", m);
    StForgetOptions o;
    o.scheme = parse_st_scheme("fp8-block-deepseek", {});
    o.output = dir + "/fp8";
    {
        const Catalog cat = open_model(dir + "/m.safetensors");
        forget_to_safetensors(cat, make_plan(cat), o);
    }
    const Catalog q = open_model(dir + "/fp8");
    const Plan qp = make_plan(q);
    o.scheme = parse_st_scheme("w8a16", {});
    o.output = dir + "/w8";
    std::string what;
    QCOMPARE(error_code_of([&] { forget_to_safetensors(q, qp, o); }, &what), ErrorCode::Unsupported);
    QVERIFY2(what.find("already quantized") != std::string::npos && what.find("--requantize") != std::string::npos, what.c_str());
    QVERIFY(!fs::exists(o.output));
    o.requantize = true;
    const auto res = forget_to_safetensors(q, qp, o);
    QVERIFY(!res.warnings.empty());
    const auto out = read_output(o.output);
    QCOMPARE(out.at("model.layers.0.mlp.up_proj.weight_packed").dtype, std::string("I32"));
    QCOMPARE(out.at("model.layers.0.mlp.up_proj.weight_scale").dtype, std::string("BF16"));
    QCOMPARE(out.at("lm_head.weight").dtype, std::string("BF16"));
    QVERIFY(!out.count("model.layers.0.mlp.up_proj.weight_scale_inv"));
}

// Every scheme row: each of its names parses to a scheme that this row and
// no other writes, and every companion it writes has a role in its scheme
// facts row (the detector that reads the output back knows it).
void TestForgetStCases::schemeRows() {
    using namespace forget_st_internal;
    const auto& rows = st_scheme_rows();
    std::size_t names = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& facts = detail::scheme_facts(rows[i]->facts_family);
        for (auto n : rows[i]->names) {
            ++names;
            const QuantParams s = parse_st_scheme(n, {});
            QCOMPARE(std::count_if(rows.begin(), rows.end(), [&](const auto* r) { return r->writes(s); }), 1);
            QCOMPARE(&st_scheme_row(s), rows[i]);
            for (const auto& o : out_specs(s, "model.layers.0.mlp.up_proj.weight", 256, 512, DType::BF16)) {
                if (o.name == "model.layers.0.mlp.up_proj.weight" || o.name.ends_with(".weight_packed")) continue;  // payload
                const bool known = std::any_of(facts.companions.begin(), facts.companions.end(),
                                               [&](const auto& c) { return o.name.ends_with(c.pattern); });
                QVERIFY2(known && detail::companion_role_of(o.name) != CompanionRole::None, o.name.c_str());
            }
        }
    }
    QCOMPARE(names, st_scheme_names().size());
}

void TestForgetStCases::schemeParsing() {
    for (auto n : st_scheme_names()) QVERIFY(!error_code_of([&] { parse_st_scheme(n, {}); }));
    std::string what;
    QCOMPARE(error_code_of([&] { parse_st_scheme("nf5", {}); }, &what), ErrorCode::Usage);
    QVERIFY(what.find("bnb-nf4") != std::string::npos);
    QCOMPARE(error_code_of([] { parse_st_scheme("bnb-nf4", so([](StSchemeOptions& o) { o.blocksize = 100u; })); }), ErrorCode::Usage);
    QCOMPARE(error_code_of([] { parse_st_scheme("bnb-int8", so([](StSchemeOptions& o) { o.blocksize = 64u; })); }), ErrorCode::Usage);
    QCOMPARE(error_code_of([] { parse_fp8_granularity("row"); }), ErrorCode::Usage);
    // A granularity the compressed-tensors FP8 scheme does not write, refused with parse_fp8_granularity's words.
    QCOMPARE(error_code_of([] { parse_st_scheme("fp8", so([](StSchemeOptions& o) { o.granularity = Fp8Granularity::Group; })); }, &what),
             ErrorCode::Usage);
    QVERIFY(what.find("--granularity must be tensor, channel or block, not 'group'") != std::string::npos);
    QCOMPARE(error_code_of([] { parse_st_scheme("w4a16", so([](StSchemeOptions& o) { o.ue8m0 = true; })); }), ErrorCode::Usage);
    QCOMPARE(error_code_of([] { parse_st_scheme("bnb-fp4", so([](StSchemeOptions& o) { o.group_size = 64u; })); }), ErrorCode::Usage);
    QCOMPARE(error_code_of([] { parse_st_scheme("w8a16", so([](StSchemeOptions& o) { o.group_size = 100u; })); }), ErrorCode::Usage);
    QCOMPARE(st_scheme_label(parse_st_scheme("fp8", {})), std::string("fp8 (FP8_DYNAMIC, channel)"));
    QCOMPARE(st_scheme_label(parse_st_scheme("bnb-nf4", so([](StSchemeOptions& o) { o.blocksize = 128u; o.double_quant = true; }))),
             std::string("bnb-nf4 (blocksize 128, double quant)"));
    const auto b = std::get<AffineParams>(parse_st_scheme("w8a16-asym", so([](StSchemeOptions& o) { o.group_size = 0u; })));
    QCOMPARE(b.bits, 8u);
    QCOMPARE(b.symmetric, std::optional<bool>(false));
    QVERIFY(b.channelwise);
    QCOMPARE(b.packing, AffinePacking::CtPackQuantized);
}

QTEST_APPLESS_MAIN(TestForgetStCases)
#include "test_forget_st_cases.moc"
