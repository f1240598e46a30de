// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Shared helpers of test_forget_st.cc (the sink + reference bytes) and
// test_forget_st_cases.cc (own cases, bad requests, scheme parsing): the
// quantize-ref-st fixture location, byte builders, the test model's kept
// tensors and config, reading an output back and remembering it.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace forget_st_test {

using namespace amn;
namespace fs = std::filesystem;
using test::error_code_of;
using test::RawTensor;

inline std::string ref_dir() {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/quantize-ref-st";
}

#define REQUIRE_REF_ST(var)                                                                  \
    const std::string var = ref_dir();                                                        \
    if (var.empty() || !fs::exists(var + "/manifest.json")) {                                 \
        if (test::reference_required()) QFAIL("quantize-ref-st fixtures missing");            \
        QSKIP("quantize-ref-st fixtures missing");                                            \
    }

inline QJsonObject read_json(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

inline std::vector<std::uint8_t> bf16_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 2);
    kernels::f32_to_bf16(v.data(), reinterpret_cast<std::uint16_t*>(b.data()), v.size());
    return b;
}
inline std::vector<std::uint8_t> f16_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 2);
    kernels::f32_to_f16(v.data(), reinterpret_cast<std::uint16_t*>(b.data()), v.size());
    return b;
}
inline std::vector<std::uint8_t> f32_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}
inline std::vector<float> gauss(std::size_t n, unsigned seed, float sigma = 0.02f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, sigma);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

// Scheme options set by `f` (no designated initializers: -Wmissing-field-initializers).
template <class F>
StSchemeOptions so(F f) {
    StSchemeOptions o;
    f(o);
    return o;
}

inline RawTensor raw(const std::string& dtype, std::vector<std::uint64_t> shape, std::vector<std::uint8_t> bytes) {
    return RawTensor{dtype, std::move(shape), std::move(bytes)};
}

// Which input goes to which Linear of block 0.
inline const std::vector<std::pair<std::string, std::string>> kPlacement = {
    {"gaussian", "model.layers.0.self_attn.q_proj.weight"},
    {"gaussian_bf16", "model.layers.0.self_attn.k_proj.weight"},
    {"attn_q", "model.layers.0.self_attn.v_proj.weight"},
    {"awkward", "model.layers.0.self_attn.o_proj.weight"},
    {"awkward_bf16", "model.layers.0.mlp.gate_proj.weight"},
    {"subnormal", "model.layers.0.mlp.up_proj.weight"},
    {"tail_bf16", "model.layers.0.mlp.down_proj.weight"},
};

// The kept tensors of the test model.
inline std::map<std::string, RawTensor> kept_tensors() {
    std::map<std::string, RawTensor> m;
    m["model.embed_tokens.weight"] = raw("BF16", {32, 256}, bf16_bytes(gauss(32 * 256, 11)));
    m["lm_head.weight"] = raw("BF16", {32, 256}, bf16_bytes(gauss(32 * 256, 12)));
    m["model.norm.weight"] = raw("BF16", {256}, bf16_bytes(gauss(256, 13, 1.0f)));
    m["model.layers.0.input_layernorm.weight"] = raw("F32", {256}, f32_bytes(gauss(256, 14, 1.0f)));
    m["model.layers.0.self_attn.q_proj.bias"] = raw("F32", {32}, f32_bytes(gauss(32, 15)));
    return m;
}

inline const char* const kConfig = R"({
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 256,
  "model_type": "llama",
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16"
})";

// QuantParams of a reference scheme id.
inline QuantParams scheme_of(const std::string& id) {
    StSchemeOptions o;
    std::string name;
    if (id.rfind("bnb-nf4", 0) == 0 || id.rfind("bnb-fp4", 0) == 0) {
        name = id.substr(0, 7);
        o.blocksize = id.find("b128") != std::string::npos ? 128u : 64u;
        o.double_quant = id.find("-dq") != std::string::npos;
    } else if (id == "bnb-int8") {
        name = id;
    } else if (id.rfind("ct-fp8-", 0) == 0) {
        name = "fp8";
        o.granularity = parse_fp8_granularity(id.substr(7));
    } else if (id.rfind("ds-fp8-block", 0) == 0) {
        name = "fp8-block-deepseek";
        o.ue8m0 = id.find("ue8m0") != std::string::npos;
    } else {  // ct-w4-asym-g128
        const bool w4 = id[4] == '4';
        const bool asym = id.find("asym") != std::string::npos;
        name = std::string(w4 ? "w4a16" : "w8a16") + (asym ? "-asym" : "");
        o.group_size = id.find("g128") != std::string::npos ? 128u : 0u;
    }
    return parse_st_scheme(name, o);
}

inline QJsonObject without_annotations(QJsonObject o) {
    for (const auto& k : o.keys())
        if (k.startsWith('_')) o.remove(k);
    return o;
}

// All tensors of a (possibly sharded) output folder, by name.
inline std::map<std::string, RawTensor> read_output(const std::string& dir) {
    std::map<std::string, RawTensor> all;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() != ".safetensors") continue;
        auto r = test::read_safetensors_raw(e.path().string());
        if (!r) return {};
        for (auto& [k, v] : r->tensors) all[k] = std::move(v);
    }
    return all;
}

inline std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    if (!fs::exists(dir)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

// Remember the output (open_model → make_plan → remember_to_safetensors, F32)
// and return its tensors.
inline std::map<std::string, RawTensor> remember(const std::string& in, const std::string& out, std::string* err) {
    try {
        const Catalog cat = open_model(in);
        const Plan plan = make_plan(cat);
        for (const auto& lt : plan.tensors)
            if (!lt.error.empty()) {
                *err = lt.name + ": " + lt.error.message();
                return {};
            }
        RememberOptions co;
        co.to = DType::F32;
        co.output = out;
        remember_to_safetensors(cat, plan, co);
        return read_output(out);
    } catch (const std::exception& e) {
        *err = e.what();
        return {};
    }
}

inline float f32_at(const RawTensor& t, std::size_t i) {
    if (t.dtype == "F32") {
        float f;
        std::memcpy(&f, t.bytes.data() + 4 * i, 4);
        return f;
    }
    std::uint16_t h;
    std::memcpy(&h, t.bytes.data() + 2 * i, 2);
    if (t.dtype == "BF16") return kernels::scalar::f32_from_bf16(h);
    return kernels::scalar::f32_from_f16(h);
}


}  // namespace forget_st_test
