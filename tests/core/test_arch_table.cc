// SPDX-License-Identifier: MIT OR Apache-2.0
// The HF ↔ GGUF architecture table (core/src/arch): hparam key/values, tensor
// names / order / types and generated tensors against what llama.cpp's
// convert_hf_to_gguf.py wrote — the shared hf-gguf manifest (llama 3, llama 2,
// qwen3, mixtral) and tests/core/hf_arch_reference.json (qwen2, qwen3moe,
// phi3, gpt2, gemma2, gemma3, granite, olmo2, mistral3, deepseek2, gpt-oss; made by
// tests/core/hf_arch_models.py with the real converter).
#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"
#include "util/json_dom.hpp"
#include "test_support.hpp"

#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <vector>

namespace fs = std::filesystem;
using namespace amn;
using namespace amn::arch;
using simdjson::dom::element;
using test::error_code_of;

namespace {

std::string hex_bytes(const void* p, std::size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
        s += d[b[i] >> 4];
        s += d[b[i] & 15];
    }
    return s;
}

std::string gguf_type_word(GgufType t) {
    switch (t) {
        case GgufType::U32: return "UINT32";
        case GgufType::I32: return "INT32";
        case GgufType::F32: return "FLOAT32";
        case GgufType::Bool: return "BOOL";
        case GgufType::String: return "STRING";
        case GgufType::Array: return "ARRAY";
        default: return "?";
    }
}

/// "key TYPE value" with the value as the manifest holds it: raw LE hex for scalars, the text for strings.
std::string kv_line(const MetaKv& kv) {
    std::string v;
    if (kv.value.is_string()) v = kv.value.str;
    else if (kv.value.is_array() && kv.value.elem_type == GgufType::Bool) {  // as the reference's JSON list
        for (std::size_t i = 0; i < kv.value.size(); ++i) v += std::string(i ? ", " : "[") + (kv.value.bits_at(i) ? "true" : "false");
        v += "]";
    } else if (kv.value.is_array() && kv.value.elem_type == GgufType::String) {  // classifier.output_labels
        for (std::size_t i = 0; i < kv.value.size(); ++i) v += std::string(i ? ", " : "[") + "\"" + std::string(kv.value.string_at(i)) + "\"";
        v += "]";
    } else if (kv.value.is_array() && kv.value.elem_type == GgufType::I32) {  // rope.dimension_sections
        for (std::size_t i = 0; i < kv.value.size(); ++i)
            v += std::string(i ? ", " : "[") + std::to_string(static_cast<std::int32_t>(kv.value.bits_at(i)));
        v += "]";
    } else {
        const std::size_t n = kv.value.type == GgufType::Bool ? 1 : 4;
        v = hex_bytes(&kv.value.bits, n);
    }
    return kv.key + " " + gguf_type_word(kv.value.type) + " " + v;
}

std::string str(simdjson::simdjson_result<element> e) { return std::string(std::string_view(e.value())); }

std::string manifest_kv_line(element kv) {
    const std::string key = str(kv["key"]);
    const std::string type = str(kv["type"]);
    std::string v;
    if (type == "STRING") v = std::string(std::string_view(kv["value"]));
    else if (type == "ARRAY") {  // bool lists (sliding_window_pattern), int lists (rope.dimension_sections), strings (labels)
        std::size_t i = 0;
        for (element e : simdjson::dom::array(kv["value"]))
            v += std::string(i++ ? ", " : "[") +
                 (e.is_bool()     ? (bool(e) ? "true" : "false")
                  : e.is_int64()  ? std::to_string(std::int64_t(e))
                  : e.is_string() ? "\"" + std::string(std::string_view(e)) + "\""
                                  : "?");
        v += "]";
    } else v = std::string(std::string_view(kv["raw"]));
    return key + " " + type + " " + v;
}

/// An HF tensor of a safetensors header.
struct StTensor {
    std::string file, name, dtype;
    std::vector<std::uint64_t> shape;
};

std::vector<StTensor> read_headers(const fs::path& dir) {
    std::vector<std::string> files;
    const fs::path index = dir / "model.safetensors.index.json";
    if (fs::exists(index)) {
        auto doc = amn::detail::JsonDoc::load(index.string());
        std::set<std::string> parts;
        for (auto [k, v] : simdjson::dom::object(doc.root()["weight_map"])) parts.insert(std::string(std::string_view(v)));
        files.assign(parts.begin(), parts.end());
    } else {
        for (auto& e : fs::directory_iterator(dir)) {
            const std::string n = e.path().filename().string();
            if (n.starts_with("model") && n.ends_with(".safetensors")) files.push_back(n);
        }
        std::sort(files.begin(), files.end());
    }
    std::vector<StTensor> out;
    for (auto& f : files) {
        std::ifstream in(dir / f, std::ios::binary);
        std::uint64_t n = 0;
        in.read(reinterpret_cast<char*>(&n), 8);
        std::string h(n, '\0');
        in.read(h.data(), static_cast<std::streamsize>(n));
        amn::detail::JsonDoc doc(h, f);
        for (auto [k, v] : simdjson::dom::object(doc.root())) {
            if (k == "__metadata__") continue;
            StTensor t{f, std::string(k), std::string(std::string_view(v["dtype"])), {}};
            for (element d : simdjson::dom::array(v["shape"])) t.shape.push_back(std::uint64_t(d));
            out.push_back(std::move(t));
        }
    }
    return out;
}

DType outtype_of(std::string_view t, const std::vector<StTensor>& ordered) {
    if (t == "f32") return DType::F32;
    if (t == "f16") return DType::F16;
    if (t == "bf16") return DType::BF16;
    if (t == "q8_0") return DType::Q8_0;
    // auto: first >= 2-D tensor in iteration order
    for (auto& s : ordered) {
        if (s.shape.size() < 2) continue;
        if (s.dtype == "BF16") return DType::BF16;
        if (s.dtype == "F16") return DType::F16;
    }
    return DType::F16;
}

/// "name TYPE [ne...]" for every tensor the table says the converter writes, in order.
std::vector<std::string> predicted_tensors(const fs::path& dir, const ArchRow& row, const HfConfig& cfg, std::string_view outtype) {
    auto st = read_headers(dir);
    std::vector<HfTensorRef> refs;
    for (auto& t : st) refs.push_back({t.file, t.name});
    std::vector<StTensor> ordered;
    for (auto i : converter_order(refs))
        if (auto n = filter_tensor_name(row, st[i].name, &cfg)) {
            ordered.push_back(st[i]);
            ordered.back().name = *n;
        }
    const DType out = outtype_of(outtype, ordered);
    std::vector<std::string> lines;
    auto line = [&](const std::string& name, const std::vector<std::uint64_t>& shape) {
        std::string s = name + " " + dtype_name(converter_type(row, name, shape, out)) + " [";
        for (std::size_t i = shape.size(); i-- > 0;) s += std::to_string(shape[i]) + (i ? ", " : "");
        return s + "]";
    };
    for (auto& g : generate_extra_tensors(row, cfg).tensors) lines.push_back(line(g.name, g.shape));
    TensorMapper m(row, cfg, dir.string());
    for (auto& t : ordered)
        for (auto& mt : m.add(t.name, t.shape)) lines.push_back(line(mt.name, mt.shape));
    m.finish();
    return lines;
}

std::vector<std::string> manifest_tensors(element gguf) {
    std::vector<std::string> lines;
    for (element t : simdjson::dom::array(gguf["tensors"])) {
        std::string s = std::string(std::string_view(t["name"])) + " " + std::string(std::string_view(t["type"])) + " [";
        simdjson::dom::array ne = t["ne"];
        std::size_t i = 0;
        for (element d : ne) s += (i++ ? ", " : "") + std::to_string(std::uint64_t(d));
        lines.push_back(s + "]");
    }
    return lines;
}

/// The arch KVs the table predicts: generated ones, then before / file_type / after.
std::vector<std::string> predicted_kvs(const ArchRow& row, const HfConfig& cfg, const fs::path& dir, element file_type_kv) {
    std::vector<std::string> lines;
    for (auto& kv : generate_extra_tensors(row, cfg).kvs) lines.push_back(kv_line(kv));
    const ArchKvs kvs = hparam_kvs(row, cfg, dir.string());
    // The reference keeps `<arch>.*` (and general.file_type): Phi2Model's tokenizer.ggml.add_bos_token is the vocabulary's.
    const std::string prefix = std::string(row.gguf) + ".";
    for (auto& kv : kvs.before_file_type)
        if (kv.key.starts_with(prefix)) lines.push_back(kv_line(kv));
    if (kvs.file_type) lines.push_back(manifest_kv_line(file_type_kv));  // GPTNeoXModel writes none
    for (auto& kv : kvs.after_file_type)
        if (kv.key.starts_with(prefix)) lines.push_back(kv_line(kv));
    return lines;
}

/// The manifest's KVs owned by the architecture: `<arch>.*` and general.file_type, in order.
std::vector<std::string> manifest_arch_kvs(element gguf, std::string_view arch, element* file_type) {
    std::vector<std::string> lines;
    const std::string prefix = std::string(arch) + ".";
    for (element kv : simdjson::dom::array(gguf["kv"])) {
        const std::string_view key = kv["key"];
        if (key == "general.file_type") *file_type = kv;
        if (key.starts_with(prefix) || key == "general.file_type") lines.push_back(manifest_kv_line(kv));
    }
    return lines;
}

void compare_lines(const std::vector<std::string>& got, const std::vector<std::string>& want, const std::string& what) {
    for (std::size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
        const std::string g = i < got.size() ? got[i] : "(none)", w = i < want.size() ? want[i] : "(none)";
        if (g != w) QFAIL(qPrintable(QString::fromStdString(what + " #" + std::to_string(i) + ": got '" + g + "', want '" + w + "'")));
    }
}

/// Check one output (manifest "gguf" object) of the folder `dir`.
void check_case(const fs::path& dir, element gguf, std::string_view outtype, const std::string& label) {
    const HfConfig cfg = HfConfig::load((dir / "config.json").string());
    const ArchRow& row = hf_arch_for_config(cfg);
    element ft;
    const auto want_kv = manifest_arch_kvs(gguf, row.gguf, &ft);
    // The arch is general.architecture.
    element first = simdjson::dom::array(gguf["kv"]).at(0);
    QCOMPARE(std::string(std::string_view(first["value"])), std::string(row.gguf));
    compare_lines(predicted_kvs(row, cfg, dir, ft), want_kv, label + " kv");
    compare_lines(predicted_tensors(dir, row, cfg, outtype), manifest_tensors(gguf), label + " tensor");
}

HfConfig cfg_of(std::string_view json) { return HfConfig(json, "config.json"); }

}  // namespace

class TestArchTable : public QObject {
    Q_OBJECT
private slots:
    void shared_manifest();
    void own_reference();
    void detection();
    void errors();
    void names_two_way();
    void permute_rows();
    void types();
    void llama3_rope_freqs();
    void declared_block_count_is_not_allocated();
    void fused_experts();
    void lfm2_short_convolutions();
    void mamba_state_space();
};

void TestArchTable::shared_manifest() {
    const std::string shared = test::shared_fixtures_dir();
    if (shared.empty()) QSKIP("shared fixtures missing");
    const fs::path root = fs::path(shared) / "hf-gguf";
    auto doc = amn::detail::JsonDoc::load((root / "manifest.json").string());
    int checked = 0;
    for (element c : simdjson::dom::array(doc.root()["cases"])) {
        const std::string name = str(c["name"]);
        if (c["quantization"].error() == simdjson::SUCCESS) continue;  // quantized inputs: the lead's dequant path
        for (element o : simdjson::dom::array(c["outputs"])) {
            const std::string_view outtype = o["outtype"];
            check_case(root / "inputs" / name, o["gguf"], outtype, name + " " + std::string(outtype));
            if (QTest::currentTestFailed()) return;
            ++checked;
        }
    }
    QCOMPARE(checked, 9);
}

void TestArchTable::own_reference() {
    const std::string shared = test::shared_fixtures_dir();
    const fs::path ref = fs::path(test::source_dir()) / "tests/core/hf_arch_reference.json";
    if (!fs::exists(ref)) QSKIP("tests/core/hf_arch_reference.json not generated");
    const fs::path tmp = fs::temp_directory_path() / ("amn_arch_models_" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    // Rebuild the tiny input folders (weights and config only; the converter output is in the JSON).
    const std::string cmd = test::python() + " " + test::source_dir() + "/tests/core/hf_arch_models.py --inputs-only " +
                            tmp.string() + (shared.empty() ? "" : " --shared " + shared) + " > /dev/null";
    QCOMPARE(std::system(cmd.c_str()), 0);
    auto doc = amn::detail::JsonDoc::load(ref.string());
    int checked = 0;
    for (auto [name, c] : simdjson::dom::object(doc.root()["cases"])) {
        // Quantized folders (gpt-oss MXFP4: experts repacked before the rest) are the driver's
        // (hf_to_gguf.cc); test_cli_hf_gguf checks their whole files.
        if (HfConfig::load((tmp / std::string(name) / "config.json").string()).top("quantization_config")) continue;
        check_case(tmp / std::string(name), c, "f32", std::string(name));
        if (QTest::currentTestFailed()) break;
        ++checked;
    }
    fs::remove_all(tmp);
    QVERIFY(checked >= 4);
}

void TestArchTable::detection() {
    QCOMPARE(std::string(hf_arch_for_config(cfg_of(R"({"architectures":["MixtralForCausalLM","X"]})")).gguf), std::string("llama"));
    QCOMPARE(std::string(hf_arch_for_config(cfg_of(R"({"architectures":["Qwen3MoeForCausalLM"]})")).gguf), std::string("qwen3moe"));
    QCOMPARE(std::string(hf_arch_for_config(cfg_of(R"({"architectures":["Foo"],"text_config":{"architectures":["Phi3ForCausalLM"]}})")).gguf),
             std::string("phi3"));
    try {
        hf_arch_for_config(cfg_of(R"({"architectures":["FooForCausalLM"],"model_type":"llama"})"));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Unsupported);
        QVERIFY(e.message().starts_with("unknown architecture FooForCausalLM (supported: LlamaForCausalLM, "));
        QVERIFY(e.message().find("GPT2LMHeadModel") != std::string::npos);
        // The converter's register() names of the rows added in issue 24.
        for (const char* c : {"Gemma2ForCausalLM", "Gemma3ForCausalLM", "GraniteForCausalLM", "Olmo2ForCausalLM",
                              "Olmo3ForCausalLM", "Ministral3ForCausalLM", "Mistral3ForConditionalGeneration",
                              "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "GptOssForCausalLM"})
            QVERIFY2(e.message().find(c) != std::string::npos, c);
    }
    const std::pair<const char*, const char*> added[] = {
        {"Gemma2ForCausalLM", "gemma2"}, {"Gemma3ForCausalLM", "gemma3"}, {"GraniteForCausalLM", "granite"},
        {"Olmo2ForCausalLM", "olmo2"}, {"Olmo3ForCausalLM", "olmo2"}, {"Ministral3ForCausalLM", "mistral3"},
        {"Mistral3ForConditionalGeneration", "mistral3"}, {"DeepseekV2ForCausalLM", "deepseek2"}, {"DeepseekV3ForCausalLM", "deepseek2"},
        {"GptOssForCausalLM", "gpt-oss"}, {"Gemma3ForConditionalGeneration", "gemma3"}, {"SmolLM3ForCausalLM", "smollm3"},
        {"ArceeForCausalLM", "arcee"}, {"SeedOssForCausalLM", "seed_oss"}, {"Starcoder2ForCausalLM", "starcoder2"},
        {"Qwen2MoeForCausalLM", "qwen2moe"}, {"OlmoeForCausalLM", "olmoe"}};
    for (const auto& [cls, gguf] : added)
        QCOMPARE(std::string(hf_arch_for_config(cfg_of(std::string(R"({"architectures":[")") + cls + "\"]}")).gguf), std::string(gguf));
    // Not in the table: Mistral 4 (DeepSeek-V2-style) behind the Mistral 3 class.
    for (const char* json : {R"({"architectures":["Mistral3ForConditionalGeneration"],"text_config":{"model_type":"mistral4"}})"}) {
        try {
            hf_arch_for_config(cfg_of(json));
            QFAIL(json);
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Unsupported);
            QVERIFY(e.message().find("(supported: LlamaForCausalLM, ") != std::string::npos);
        }
    }
    try {
        hf_arch_for_config(cfg_of(R"({"model_type":"llama"})"));  // no model_type fallback in the converter
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
    }
}

void TestArchTable::errors() {
    const ArchRow& llama = *find_gguf_arch("llama");
    try {
        hparam_kvs(llama, cfg_of(R"({"architectures":["LlamaForCausalLM"],"num_hidden_layers":2,"hidden_size":32,"num_attention_heads":4})"));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
        QCOMPARE(e.file(), std::string("config.json"));
        QVERIFY(e.message().find("'vocab_size'") != std::string::npos);
    }
    try {
        hparam_kvs(llama, cfg_of(R"({"num_hidden_layers":2,"hidden_size":32.0,"num_attention_heads":4,"vocab_size":10})"));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::BadJson);
        QVERIFY(e.message().find("'hidden_size'") != std::string::npos);
    }
    try {
        hparam_kvs(llama, cfg_of(R"({"num_hidden_layers":2,"rms_norm_eps":"x","vocab_size":10,"head_dim":8})"));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::BadJson);
        QVERIFY(e.message().find("'rms_norm_eps'") != std::string::npos);
    }
    const HfConfig cfg = cfg_of(R"({"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2})");
    TensorMapper m(llama, cfg);
    try {
        const std::uint64_t shape[] = {4};
        m.add("model.layers.0.foo.weight", shape);
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Unsupported);
        QCOMPARE(e.tensor(), std::string("model.layers.0.foo.weight"));
    }
    try {  // block id beyond num_hidden_layers: TensorNameMap has no such name
        const std::uint64_t shape[] = {4};
        m.add("model.layers.2.input_layernorm.weight", shape);
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Unsupported);
    }
    const std::uint64_t s1[] = {4};
    QVERIFY(m.add("model.layers.0.self_attn.rotary_emb.inv_freq", s1).empty());
    // Where the converter's assertions / lookups stop: named errors naming config.json.
    const std::pair<const char*, const char*> stops[] = {
        // HunYuanModel's dynamic-RoPE assertion: rope_theta 10000 and a context of 32768 or 262144; its head_dim.
        {"hunyuan-dense", R"({"num_hidden_layers":2,"head_dim":16,"max_position_embeddings":65536,
                             "rope_scaling":{"type":"dynamic","alpha":1000.0},"rope_theta":10000.0})"},
        {"hunyuan-dense", R"({"num_hidden_layers":2,"head_dim":16,"max_position_embeddings":32768,
                             "rope_scaling":{"type":"dynamic","alpha":1000.0},"rope_theta":20000.0})"},
        {"hunyuan-dense", R"({"num_hidden_layers":2,"max_position_embeddings":32768,"rope_scaling":{"type":"dynamic"}})"},
        {"gemma3", R"({"num_hidden_layers":2,"attn_logit_softcapping":50.0,"sliding_window":512})"},  // assert ... is None
        {"gemma2", R"({"num_hidden_layers":2,"max_position_embeddings":8,"hidden_size":32,"intermediate_size":64,
                      "num_attention_heads":4,"rms_norm_eps":1e-6,"head_dim":16,"attn_logit_softcapping":50.0,
                      "final_logit_softcapping":30.0})"},                                          // hparams["sliding_window"]
        {"mistral3", R"({"model_type":"ministral3","num_hidden_layers":2,"hidden_size":32,"num_attention_heads":4,
                        "vocab_size":8,"rope_parameters":{"rope_type":"linear","factor":2.0}})"},   // assert rope_type == "yarn"
        {"gemma3", R"({"num_hidden_layers":2})"},                                                   // hparams["sliding_window"]
    };
    {  // DeepseekV2Model's kv_b_proj split asserts num_key_value_heads × (v_head_dim + qk_nope_head_dim) rows
        TensorMapper ds(*find_gguf_arch("deepseek2"),
                        cfg_of(R"({"num_hidden_layers":1,"num_key_value_heads":4,"v_head_dim":8,"qk_nope_head_dim":8})"));
        const std::uint64_t kvb[] = {60, 16};
        try {
            ds.add("model.layers.0.self_attn.kv_b_proj.weight", kvb);
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Malformed);
            QCOMPARE(e.tensor(), std::string("model.layers.0.self_attn.kv_b_proj.weight"));
        }
        const std::uint64_t ok[] = {64, 16};
        const auto parts = ds.add("model.layers.0.self_attn.kv_b_proj.weight", ok);
        QCOMPARE(parts.size(), std::size_t(2));
        QCOMPARE(parts[0].name, std::string("blk.0.attn_k_b.weight"));
        QCOMPARE(parts[0].shape, (std::vector<std::uint64_t>{4, 16, 8}));
        QCOMPARE(parts[1].name, std::string("blk.0.attn_v_b.weight"));
        QCOMPARE(parts[1].shape, (std::vector<std::uint64_t>{4, 8, 16}));
        const std::uint64_t mtp[] = {4};
        QVERIFY(ds.add("model.layers.1.enorm.weight", mtp).empty());  // Multi-Token Prediction layer: skipped
    }
    for (const auto& [arch, json] : stops) {
        try {
            hparam_kvs(*find_gguf_arch(arch), cfg_of(json));
            QFAIL(json);
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Malformed);
            QCOMPARE(e.file(), std::string("config.json"));
        }
    }
}

void TestArchTable::names_two_way() {
    const ArchRow& llama = *find_gguf_arch("llama");
    QCOMPARE(*map_tensor_name(llama, 2, "model.layers.1.self_attn.q_proj.bias"), std::string("blk.1.attn_q.bias"));
    QCOMPARE(*map_tensor_name(llama, 2, "lm_head.weight"), std::string("output.weight"));
    QCOMPARE(*map_tensor_name(llama, 2, "token_embd.weight"), std::string("token_embd.weight"));  // GGUF names map to themselves
    QVERIFY(!map_tensor_name(llama, 2, "model.layers.0.self_attn.q_norm.weight"));              // not a llama kind
    QCOMPARE(*map_tensor_name(*find_gguf_arch("qwen3"), 2, "model.layers.0.self_attn.q_norm.weight"), std::string("blk.0.attn_q_norm.weight"));
    QCOMPARE(*map_tensor_name(*find_gguf_arch("gpt2"), 2, "h.1.attn.c_attn.weight"), std::string("blk.1.attn_qkv.weight"));
    QCOMPARE(*map_tensor_name(*find_gguf_arch("phi3"), 2, "model.layers.0.mlp.gate_up_proj.weight"), std::string("blk.0.ffn_up.weight"));
    // filter_tensors
    QVERIFY(!filter_tensor_name(llama, "vision_tower.x.weight"));
    QCOMPARE(*filter_tensor_name(llama, "language_model.model.norm.weight"), std::string("model.norm.weight"));
    // The GGUF → HF rows: every kind's canonical HF name, itself or through the class's filter_tensors
    // (BLOOM's transformer. removed), maps back to that kind (experts: the stacked name).
    // A joined name (HfJoin parts ≥ 2: GraniteMoe's input_linear, DeepSeek's kv_b_proj, fused gate_up_proj) is
    // the converter's input before its split: test_cli_hf_roundtrip converts it back.
    for (const auto& row : arch_rows())
        for (const auto& h : row.hf_names) {
            if (std::find(row.kinds.begin(), row.kinds.end(), h.kind) == row.kinds.end() || h.join.parts >= 2 ||
                (h.kind == TensorKind::CLS_OUT && h.hf == "classifier") || h.hf.ends_with("linear_attn.dt")) continue;  // BERT's, dt_bias: modify_tensors
            std::string hf(h.hf), gg(tensor_kind_name(h.kind));
            if (auto p = hf.find("{bid}"); p != std::string::npos) hf.replace(p, 5, "1");
            if (auto p = gg.find("{bid}"); p != std::string::npos) gg.replace(p, 5, "1");
            // One tensor per expert on the HF side ("experts.{xid}.w1"): gguf-py names the stack "experts.w1".
            if (auto p = hf.find("{xid}."); p != std::string::npos) hf.erase(p, 6);
            auto back = map_tensor_name(row, 2, hf + ".weight");
            if (!back)  // a name only the class's filter_tensors maps
                if (const auto filtered = filter_tensor_name(row, hf + ".weight")) back = map_tensor_name(row, 2, *filtered);
            QVERIFY2(back && *back == gg + ".weight", qPrintable(QString::fromStdString(std::string(row.gguf) + " " + hf)));
        }
    QCOMPARE(supported_hf_architectures().substr(0, 36), std::string("LlamaForCausalLM, MistralForCausalLM"));
}

void TestArchTable::permute_rows() {
    // LlamaModel.permute with 2 heads of 4 rows: [h, 2, 2] swapped → rows 0,2,1,3 | 4,6,5,7
    const std::uint64_t want[] = {0, 2, 1, 3, 4, 6, 5, 7};
    for (std::uint64_t r = 0; r < 8; ++r) QCOMPARE(llama_permute_source_row(r, 8, 2), want[r]);
    const ArchRow& llama = *find_gguf_arch("llama");
    TensorMapper m(llama, cfg_of(R"({"num_hidden_layers":1,"num_attention_heads":4,"num_key_value_heads":2})"));
    const std::uint64_t q[] = {32, 32}, k[] = {16, 32};
    auto a = m.add("model.layers.0.self_attn.q_proj.weight", q);
    QCOMPARE(a.at(0).transform.kind, TensorTransform::Kind::PermuteQK);
    QCOMPARE(a.at(0).transform.n_head, std::uint64_t(4));
    auto b = m.add("model.layers.0.self_attn.k_proj.bias", std::span<const std::uint64_t>(k, 1));
    QCOMPARE(b.at(0).name, std::string("blk.0.attn_k.bias"));
    QCOMPARE(b.at(0).transform.n_head, std::uint64_t(2));
    // FalconModel's query_key_value, 4 heads in 2 KV groups of one row each: stored [q0 q1 k0 v0 | q2 q3 k1 v1],
    // written q0 q1 q2 q3 k0 k1 v0 v1; one group (Falcon-7B) keeps the order.
    const std::vector<std::uint64_t> regroup{0, 1, 4, 5, 2, 6, 3, 7};
    QCOMPARE(qkv_regroup_source_rows(4, 2, 1), regroup);
    const std::vector<std::uint64_t> mqa{0, 1, 2, 3, 4, 5};
    QCOMPARE(qkv_regroup_source_rows(4, 1, 1), mqa);
    TensorMapper f(*find_gguf_arch("falcon"), cfg_of(R"({"num_hidden_layers":1,"num_attention_heads":4,"num_kv_heads":2,"hidden_size":32})"));
    const std::uint64_t qkv[] = {64, 32}, bad[] = {48, 32};
    auto fq = f.add("transformer.h.0.self_attention.query_key_value.weight", qkv);
    QCOMPARE(fq.at(0).name, std::string("blk.0.attn_qkv.weight"));
    QCOMPARE(fq.at(0).transform.kind, TensorTransform::Kind::RegroupQkv);
    QCOMPARE(fq.at(0).transform.n_kv_head, std::uint64_t(2));
    QCOMPARE(fq.at(0).transform.head_dim, std::uint64_t(8));
    try {  // 7B's multi-query shape under a 2-group config: the converter's view fails
        f.add("transformer.h.0.self_attention.query_key_value.weight", bad);
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
    }
    // GPT-2 Conv1D transposes
    TensorMapper g(*find_gguf_arch("gpt2"), cfg_of(R"({"n_layer":1})"));
    const std::uint64_t c[] = {32, 96};
    auto t = g.add("h.0.attn.c_attn.weight", c);
    QCOMPARE(t.at(0).transform.kind, TensorTransform::Kind::Transpose);
    QCOMPARE(t.at(0).shape, (std::vector<std::uint64_t>{96, 32}));
}

void TestArchTable::types() {
    const ArchRow& llama = *find_gguf_arch("llama");
    const std::uint64_t w[] = {64, 32}, odd[] = {64, 48}, one[] = {32}, inp[] = {4, 32};
    QCOMPARE(converter_type(llama, "blk.0.ffn_up.weight", w, DType::Q8_0), DType::Q8_0);
    QCOMPARE(converter_type(llama, "blk.0.ffn_up.weight", odd, DType::Q8_0), DType::F16);
    QCOMPARE(converter_type(llama, "blk.0.attn_norm.weight", one, DType::BF16), DType::F32);
    QCOMPARE(converter_type(llama, "blk.0.ffn_gate_inp.weight", inp, DType::BF16), DType::F32);
    QCOMPARE(converter_type(*find_gguf_arch("gpt2"), "position_embd.weight", w, DType::F16), DType::F32);
    QCOMPARE(converter_type(llama, "token_embd.weight", w, DType::TQ1_0), DType::F16);
}

// Llama4Model / Qwen3VLMoeTextModel: fused experts stored [E, in, out], transposed (gate_up_proj halved by
// rows after the transpose).
void TestArchTable::fused_experts() {
    TensorMapper l4(*find_gguf_arch("llama4"), cfg_of(R"({"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2})"));
    const std::uint64_t gate_up[] = {4, 32, 32}, down[] = {4, 16, 32}, odd[] = {4, 32, 31};
    auto gu = l4.add("model.layers.1.feed_forward.experts.gate_up_proj", gate_up);
    QCOMPARE(gu.size(), std::size_t(2));
    QCOMPARE(gu[0].name, std::string("blk.1.ffn_gate_exps.weight"));
    QCOMPARE(gu[1].name, std::string("blk.1.ffn_up_exps.weight"));
    QCOMPARE(gu[0].shape, (std::vector<std::uint64_t>{4, 16, 32}));
    QCOMPARE(gu[0].transform.kind, TensorTransform::Kind::ExpertTransposeRows);
    QCOMPARE(gu[0].transform.row_end, std::uint64_t(16));
    QCOMPARE(gu[1].transform.row_begin, std::uint64_t(16));
    QCOMPARE(gu[1].transform.row_end, std::uint64_t(32));
    auto dn = l4.add("model.layers.1.feed_forward.experts.down_proj", down);
    QCOMPARE(dn.at(0).name, std::string("blk.1.ffn_down_exps.weight"));
    QCOMPARE(dn.at(0).shape, (std::vector<std::uint64_t>{4, 32, 16}));
    const std::uint64_t q[] = {32, 32};
    QCOMPARE(l4.add("model.layers.0.self_attn.q_proj.weight", q).at(0).transform.kind, TensorTransform::Kind::None);  // no permute
    try {
        l4.add("model.layers.1.feed_forward.experts.gate_up_proj", odd);
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
    }
    TensorMapper qv(*find_gguf_arch("qwen3vlmoe"), cfg_of(R"({"num_hidden_layers":1,"num_experts":4})"));
    auto qgu = qv.add("model.layers.0.mlp.experts.gate_up_proj", gate_up);
    QCOMPARE(qgu.at(1).name, std::string("blk.0.ffn_up_exps.weight"));
    QCOMPARE(qgu.at(1).transform.kind, TensorTransform::Kind::ExpertTransposeRows);
    QCOMPARE(filter_tensor_name(*find_gguf_arch("qwen3vlmoe"), "model.visual.blocks.0.norm1.weight"), std::nullopt);
    QCOMPARE(filter_tensor_name(*find_gguf_arch("llama4"), "multi_modal_projector.linear_1.weight"), std::nullopt);
    try {  // Llama4Model.__init__ reads intermediate_size_mlp
        hparam_kvs(*find_gguf_arch("llama4"), cfg_of(R"({"num_hidden_layers":2,"hidden_size":32,"num_attention_heads":4,
            "vocab_size":10,"intermediate_size":16,"interleave_moe_layer_step":1})"));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
        QVERIFY(e.message().find("'intermediate_size_mlp'") != std::string::npos);
    }
}

// LFM2Model: conv.conv squeezed, audio tensors dropped, its key list's required block_* keys.
void TestArchTable::lfm2_short_convolutions() {
    const ArchRow& lfm2 = *find_gguf_arch("lfm2");
    TensorMapper lm(lfm2, cfg_of(R"({"num_hidden_layers":1})"));
    const std::uint64_t conv[] = {32, 1, 3};
    auto cv = lm.add("model.layers.0.conv.conv.weight", conv);
    QCOMPARE(cv.at(0).name, std::string("blk.0.shortconv.conv.weight"));
    QCOMPARE(cv.at(0).shape, (std::vector<std::uint64_t>{32, 3}));
    QCOMPARE(filter_tensor_name(lfm2, "lfm.layers.0.ffn_norm.weight"), std::optional<std::string>("model.layers.0.ffn_norm.weight"));
    QCOMPARE(filter_tensor_name(lfm2, "audio_tower.layers.0.weight"), std::nullopt);
    // Without block_auto_adjust_ff_dim the length is block_ff_dim as is; head_count_kv per layer_types.
    const auto kvs = hparam_kvs(lfm2, cfg_of(R"({"num_hidden_layers":3,"hidden_size":32,"num_attention_heads":4,
        "num_key_value_heads":2,"layer_types":["conv","full_attention","conv"],"vocab_size":10,"conv_L_cache":3,
        "norm_eps":1e-5,"block_ff_dim":100,"block_auto_adjust_ff_dim":false,"block_ffn_dim_multiplier":null,"block_multiple_of":16})"));
    bool saw_ff = false, saw_kv = false;
    for (const auto& kv : kvs.after_file_type)
        if (kv.key == "lfm2.feed_forward_length") saw_ff = kv.value.type == GgufType::U32 && kv.value.as_uint() == 100;
    for (const auto& kv : kvs.before_file_type)
        if (kv.key == "lfm2.attention.head_count_kv") saw_kv = kv.value.is_array() && kv.value.elem_type == GgufType::I32 && kv.value.size() == 3;
    QVERIFY(saw_ff);
    QVERIFY(saw_kv);
    try {  // hparams["block_multiple_of"] is read whatever block_auto_adjust_ff_dim says
        hparam_kvs(lfm2, cfg_of(R"({"num_hidden_layers":1,"num_key_value_heads":2,"layer_types":["conv"],"vocab_size":10,
            "conv_L_cache":3,"norm_eps":1e-5,"block_ff_dim":100,"block_auto_adjust_ff_dim":false,"block_ffn_dim_multiplier":null})"));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
    }
}

// MambaModel: its own key list with the converter's `or` defaults, the inner-size assert, FalconMamba's
// dt_b_c_rms; conv1d squeezed, A_log → A by -exp (the values: test_torch_exp, the files: hf_arch_reference.json).
void TestArchTable::mamba_state_space() {
    const HfConfig cfg = cfg_of(R"({"architectures":["MambaLMHeadModel"],"n_layer":2,"d_model":40,"conv_kernel":0,
        "state_size":null,"vocab_size":10})");
    const ArchRow& row = hf_arch_for_config(cfg);
    QCOMPARE(row.gguf, std::string_view("mamba"));
    // state-spaces' own checkpoints: no architectures, ssm_cfg's layer (Mamba by default).
    QCOMPARE(detect_hf_architecture(cfg_of(R"({"d_model":40,"ssm_cfg":{}})")), std::string("MambaForCausalLM"));
    QCOMPARE(detect_hf_architecture(cfg_of(R"({"d_model":40,"ssm_cfg":{"layer":"Mamba2"}})")), std::string("Mamba2ForCausalLM"));
    QCOMPARE(error_code_of([&] { detect_hf_architecture(cfg_of(R"({"ssm_cfg":[]})")); }), std::optional(ErrorCode::BadJson));
    const auto kvs = hparam_kvs(row, cfg);
    QVERIFY(kvs.after_file_type.empty());
    std::map<std::string, std::uint64_t> got;
    for (const auto& kv : kvs.before_file_type) got[kv.key] = kv.value.bits;
    QVERIFY(kvs.before_file_type.front().key == "mamba.context_length" && kvs.before_file_type.back().key == "mamba.ssm.dt_b_c_rms");
    QVERIFY(kvs.before_file_type.back().value.type == GgufType::Bool);
    QCOMPARE(got["mamba.context_length"], std::uint64_t{1} << 20);
    // conv_kernel 0 or 4, inner 2 · 40, state null or 16, time_step_rank -(40 // -16), no dt_b_c_rms
    QVERIFY(got["mamba.ssm.conv_kernel"] == 4 && got["mamba.ssm.inner_size"] == 80 && got["mamba.ssm.state_size"] == 16);
    QVERIFY(got["mamba.ssm.time_step_rank"] == 3 && got["mamba.ssm.dt_b_c_rms"] == 0);
    const auto falcon = hparam_kvs(row, cfg_of(R"({"num_hidden_layers":1,"hidden_size":16,"model_type":"falcon_mamba"})"));
    QCOMPARE(falcon.before_file_type.back().value.bits, std::uint64_t{1});
    QCOMPARE(error_code_of([&] { hparam_kvs(row, cfg_of(R"({"num_hidden_layers":1,"hidden_size":16,"intermediate_size":48})")); }),
             std::optional(ErrorCode::Malformed));  // the converter asserts d_inner == 2 · d_model

    TensorMapper m(row, cfg);
    const std::uint64_t conv[] = {80, 1, 4}, a[] = {80, 16};
    const auto cv = m.add("backbone.layers.1.mixer.conv1d.weight", conv);
    QVERIFY(cv.at(0).name == "blk.1.ssm_conv1d.weight" && cv.at(0).shape == (std::vector<std::uint64_t>{80, 4}));
    const auto al = m.add("backbone.layers.0.mixer.A_log", a);
    QVERIFY(al.at(0).name == "blk.0.ssm_a" && al.at(0).transform.kind == TensorTransform::Kind::NegExp);
    QCOMPARE(m.add("backbone.layers.0.mixer.D", std::span<const std::uint64_t>(a, 1)).at(0).name, std::string("blk.0.ssm_d"));
    QCOMPARE(converter_type(row, "blk.0.ssm_a", a, DType::BF16), DType::F32);  // no ".weight": F32

    // Mamba2Model: time_step_rank = inner // head_dim, group_count; A and D [H] → [H, 1], the norm → [groups, inner /
    // groups], dt_bias → ssm_dt.bias; Mamba-Codestral's model.backbone prefix.
    const HfConfig c2 = cfg_of(R"({"architectures":["Mamba2ForCausalLM"],"num_hidden_layers":1,"hidden_size":64,"head_dim":16,
        "n_groups":4})");
    const ArchRow& m2 = hf_arch_for_config(c2);
    QCOMPARE(m2.gguf, std::string_view("mamba2"));
    std::map<std::string, std::uint64_t> k2;
    for (const auto& kv : hparam_kvs(m2, c2).before_file_type) k2[kv.key] = kv.value.bits;
    QVERIFY(k2["mamba2.ssm.inner_size"] == 128 && k2["mamba2.ssm.state_size"] == 128);
    QVERIFY(k2["mamba2.ssm.time_step_rank"] == 8 && k2["mamba2.ssm.group_count"] == 4);
    QVERIFY(!k2.contains("mamba2.ssm.dt_b_c_rms"));
    QCOMPARE(error_code_of([&] { hparam_kvs(m2, cfg_of(R"({"num_hidden_layers":1,"hidden_size":64,"head_dim":48})")); }),
             std::optional(ErrorCode::Malformed));  // 128 % 48
    TensorMapper m2m(m2, c2);
    const std::uint64_t heads[] = {8}, norm[] = {128};
    QCOMPARE(filter_tensor_name(m2, "model.backbone.layers.0.mixer.dt_bias"), std::optional<std::string>("backbone.layers.0.mixer.dt_proj.bias"));
    const auto a2 = m2m.add("backbone.layers.0.mixer.A_log", heads);
    QCOMPARE(a2.at(0).shape, (std::vector<std::uint64_t>{8, 1}));
    QVERIFY(a2.at(0).transform.kind == TensorTransform::Kind::NegExp);
    QCOMPARE(m2m.add("backbone.layers.0.mixer.D", heads).at(0).shape, (std::vector<std::uint64_t>{8, 1}));
    const auto n2 = m2m.add("backbone.layers.0.mixer.norm.weight", norm);
    QCOMPARE(n2.at(0).name, std::string("blk.0.ssm_norm.weight"));
    QCOMPARE(n2.at(0).shape, (std::vector<std::uint64_t>{4, 32}));
    QCOMPARE(m2m.add("backbone.layers.0.mixer.dt_proj.bias", heads).at(0).name, std::string("blk.0.ssm_dt.bias"));
}

// fuzz_hf_config: TensorMapper sized its per-block expert buffers by the
// config's num_hidden_layers, so a config.json declaring 10^11 layers made it
// allocate 2.4 TB (std::bad_alloc / ASan allocation-size-too-big) before any
// tensor was seen. The buffers now exist only for blocks that have experts.
void TestArchTable::declared_block_count_is_not_allocated() {
    const HfConfig cfg = cfg_of(R"({"architectures":["MixtralForCausalLM"],"num_hidden_layers":100000000000,
        "num_attention_heads":4,"num_key_value_heads":2,"num_local_experts":1})");
    const ArchRow& row = hf_arch_for_config(cfg);
    TensorMapper m(row, cfg);
    const std::uint64_t shape[] = {32, 16};
    QVERIFY(m.add("model.layers.99999999999.block_sparse_moe.experts.0.w1.weight", shape).empty());
    QVERIFY(m.add("model.layers.99999999999.block_sparse_moe.experts.0.w2.weight", shape).empty());
    QCOMPARE(error_code_of([&] { m.finish(); }), std::optional(ErrorCode::Malformed));  // w3 never came
    const auto out = m.add("model.layers.99999999999.block_sparse_moe.experts.0.w3.weight", shape);
    QCOMPARE(out.size(), std::size_t{3});
    QCOMPARE(out[0].name, std::string("blk.99999999999.ffn_gate_exps.weight"));
    m.finish();
}

void TestArchTable::llama3_rope_freqs() {
    // Llama 3.1 8B: the converter's 64 factors (torch 1.13, AVX2), first/last and a smooth one.
    const ArchRow& llama = *find_gguf_arch("llama");
    auto g = generate_extra_tensors(
        llama, cfg_of(R"({"hidden_size":4096,"num_attention_heads":32,"rope_theta":500000.0,
        "rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"}})"));
    QCOMPARE(g.tensors.size(), std::size_t(1));
    QCOMPARE(g.tensors[0].name, std::string("rope_freqs.weight"));
    QCOMPARE(g.tensors[0].shape, (std::vector<std::uint64_t>{64}));
    // The smooth band, as torch 1.13 (AVX2) computed it in convert_hf_to_gguf.py; the rest is 1 / 8.
    const std::uint32_t smooth[] = {0x3f9a8ed5, 0x3fc6d64a, 0x4001af1d, 0x402c732e, 0x406bcace, 0x40a83c06};
    for (std::size_t i = 0; i < 64; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &g.tensors[0].data[i], 4);
        const std::uint32_t want = i < 29 ? 0x3f800000u : i < 35 ? smooth[i - 29] : 0x41000000u;
        QCOMPARE(bits, want);
    }
    QVERIFY(g.kvs.empty());
    // Llama 3.2 1B (head_dim 64, factor 32).
    auto g2 = generate_extra_tensors(
        llama, cfg_of(R"({"hidden_size":2048,"num_attention_heads":32,"rope_theta":500000.0,
        "rope_scaling":{"factor":32.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"}})"));
    const std::uint32_t smooth2[] = {0x3fd35ec2, 0x4052b46f, 0x411aaaee};
    for (std::size_t i = 0; i < 32; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &g2.tensors.at(0).data.at(i), 4);
        QCOMPARE(bits, i < 15 ? 0x3f800000u : i < 18 ? smooth2[i - 15] : 0x42000000u);
    }
    // No rope_scaling → nothing.
    QVERIFY(generate_extra_tensors(llama, cfg_of(R"({"hidden_size":32,"num_attention_heads":4,"rope_scaling":null})")).tensors.empty());
}

QTEST_GUILESS_MAIN(TestArchTable)
#include "test_arch_table.moc"
