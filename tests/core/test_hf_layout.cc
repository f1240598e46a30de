// SPDX-License-Identifier: MIT OR Apache-2.0
// `--layout hf`: the Q/K un-permutation against llama.cpp's permute as
// written by tests/core/hf_layout_reference.py (numpy), HF names, shapes
// and config.json for the real tiny llama GGUF, values equal to the plain
// conversion once re-permuted (numpy), Gemma's norm offset, tied
// embeddings, Llama 3 RoPE factors (torch reference), unsupported input.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <set>

using namespace amn;

namespace {

std::string reference_script() { return test::source_dir() + "/tests/core/hf_layout_reference.py"; }

std::string gguf_real(const char* name) {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/gguf-real/" + name;
}

std::vector<float> read_f32(const std::string& path) {
    const auto b = test::read_file(path);
    std::vector<float> v(b.size() / 4);
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * 4);
    return v;
}

// A stored row-major F32 matrix as a recipe, rows split like a GGUF
// tensor (one row per outer index) or, with `one_row`, a single row (as a
// 1-D tensor is stored).
class F32Matrix final : public Recipe {
public:
    F32Matrix(std::vector<float> v, std::uint64_t rows, std::uint64_t cols, bool one_row)
        : v_(std::move(v)), rows_(one_row ? 1 : rows), cols_(one_row ? rows * cols : cols) {}
    std::string describe() const override { return "test matrix"; }
    std::string scheme_id() const override { return "test"; }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return cols_; }
    void dequantize_rows(std::uint64_t r0, std::uint64_t n, float* out) const override {
        std::memcpy(out, v_.data() + r0 * cols_, n * cols_ * 4);
    }
    std::optional<DType> lossless_dtype() const override { return DType::F32; }
    void copy_rows(std::uint64_t r0, std::uint64_t n, std::uint8_t* out) const override {
        std::memcpy(out, v_.data() + r0 * cols_, n * cols_ * 4);
    }

private:
    std::vector<float> v_;
    std::uint64_t rows_, cols_;
};

// ---- synthetic GGUF files (a writer independent of the parser) -----------------
struct Gguf {
    std::vector<std::uint8_t> kv;
    std::uint64_t n_kv = 0;
    struct T { std::string name; std::vector<std::uint64_t> ne; std::vector<float> data; };
    std::vector<T> tensors;

    template <class V>
    static void put(std::vector<std::uint8_t>& b, V v) {
        std::uint8_t raw[sizeof(V)];
        std::memcpy(raw, &v, sizeof(V));
        b.insert(b.end(), raw, raw + sizeof(V));
    }
    static void put_str(std::vector<std::uint8_t>& b, std::string_view s) {
        put<std::uint64_t>(b, s.size());
        b.insert(b.end(), s.begin(), s.end());
    }
    Gguf& u32(std::string_view k, std::uint32_t v) { put_str(kv, k); put<std::uint32_t>(kv, 4); put(kv, v); ++n_kv; return *this; }
    Gguf& f32(std::string_view k, float v) { put_str(kv, k); put<std::uint32_t>(kv, 6); put(kv, v); ++n_kv; return *this; }
    Gguf& str(std::string_view k, std::string_view v) { put_str(kv, k); put<std::uint32_t>(kv, 8); put_str(kv, v); ++n_kv; return *this; }
    /// `shape` row-major; data row-major.
    Gguf& tensor(std::string name, std::vector<std::uint64_t> shape, std::vector<float> data) {
        std::reverse(shape.begin(), shape.end());
        tensors.push_back({std::move(name), std::move(shape), std::move(data)});
        return *this;
    }
    std::vector<std::uint8_t> bytes() const {
        std::vector<std::uint8_t> b{'G', 'G', 'U', 'F'};
        put<std::uint32_t>(b, 3);
        put<std::uint64_t>(b, tensors.size());
        put<std::uint64_t>(b, n_kv);
        b.insert(b.end(), kv.begin(), kv.end());
        std::uint64_t off = 0;
        for (const auto& t : tensors) {
            put_str(b, t.name);
            put<std::uint32_t>(b, static_cast<std::uint32_t>(t.ne.size()));
            for (auto d : t.ne) put<std::uint64_t>(b, d);
            put<std::uint32_t>(b, 0);  // F32
            put<std::uint64_t>(b, off);
            off += (t.data.size() * 4 + 31) / 32 * 32;
        }
        while (b.size() % 32) b.push_back(0);
        for (const auto& t : tensors) {
            for (float f : t.data) put(b, f);
            while (b.size() % 32) b.push_back(0);
        }
        return b;
    }
};

Catalog parse(const Gguf& g) { return parse_gguf(MappedFile::from_bytes(g.bytes(), "synthetic.gguf"), "synthetic.gguf"); }

Gguf small_model(std::string_view arch) {
    Gguf g;
    const std::string a(arch);
    g.str("general.architecture", arch)
        .u32(a + ".embedding_length", 8)
        .u32(a + ".block_count", 1)
        .u32(a + ".feed_forward_length", 16)
        .u32(a + ".attention.head_count", 2)
        .u32(a + ".attention.head_count_kv", 1)
        .u32(a + ".context_length", 64)
        .f32(a + ".attention.layer_norm_rms_epsilon", 1e-6f)
        .f32(a + ".rope.freq_base", 10000.0f);
    return g;
}

std::vector<float> ramp(std::size_t n, float start = 0.5f) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = start + 0.125f * static_cast<float>(i);
    return v;
}

std::vector<float> values(const LogicalTensor& lt) {
    std::vector<float> out(lt.numel());
    lt.recipe->dequantize_rows(0, lt.recipe->rows(), out.data());
    return out;
}

const LogicalTensor* find(const Plan& p, std::string_view name) {
    for (const auto& lt : p.tensors)
        if (lt.name == name) return &lt;
    return nullptr;
}

QJsonObject json(const std::string& text) { return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object(); }

}  // namespace

class TestHfLayout : public QObject {
    Q_OBJECT
private slots:
    void permutation_matches_llamacpp_data();
    void permutation_matches_llamacpp();
    void bad_head_split_is_named();
    void tiny_llama_names_shapes_config();
    void values_equal_plain_after_repermute_data();
    void values_equal_plain_after_repermute();
    void gemma_norms_and_tied_embeddings();
    void gemma2_sandwich_norms();
    void qwen3_names_without_permutation();
    void llama3_rope_factors_become_rope_scaling();
    void experts_unstacked();
    void unsupported_inputs_are_named();
};

void TestHfLayout::permutation_matches_llamacpp_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("one_row");
    QTest::newRow("q 4 heads") << 256 << 16 << 4 << false;
    QTest::newRow("k 2 kv heads") << 128 << 16 << 2 << false;
    QTest::newRow("1 head") << 64 << 3 << 1 << false;
    QTest::newRow("head dim 2") << 12 << 5 << 6 << false;
    QTest::newRow("bias (1-D, one stored row)") << 96 << 1 << 3 << true;
    QTest::newRow("stored as one row") << 32 << 4 << 4 << true;
}

void TestHfLayout::permutation_matches_llamacpp() {
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(int, heads);
    QFETCH(bool, one_row);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const auto r = test::run(QString::fromStdString(test::python()),
                             {QString::fromStdString(reference_script()), "permute", tmp.path(), QString::number(rows),
                              QString::number(cols), QString::number(heads)});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto hf = read_f32(tmp.path().toStdString() + "/hf.bin");
    const auto gg = read_f32(tmp.path().toStdString() + "/gguf.bin");
    QCOMPARE(hf.size(), static_cast<std::size_t>(rows * cols));
    QCOMPARE(gg.size(), hf.size());
    QVERIFY(hf != gg || heads * 2 == rows);  // the permutation moved something

    std::vector<std::uint64_t> src(rows);
    for (int i = 0; i < rows; ++i) src[i] = llama_unpermute_source_row(i, rows, heads);
    std::vector<std::uint64_t> shape{static_cast<std::uint64_t>(rows)};
    if (cols > 1) shape.push_back(cols);
    auto inner = std::make_shared<F32Matrix>(gg, rows, cols, one_row);
    auto gather = make_row_gather_recipe(inner, shape, src);
    QCOMPARE(gather->rows(), static_cast<std::uint64_t>(rows));
    QCOMPARE(gather->row_elems(), static_cast<std::uint64_t>(cols));
    // In two uneven chunks, both paths (f32 decode and lossless copy).
    std::vector<float> out(hf.size(), -1.0f), copied(hf.size(), -1.0f);
    const std::uint64_t split = rows / 3;
    gather->dequantize_rows(0, split, out.data());
    gather->dequantize_rows(split, rows - split, out.data() + split * cols);
    QVERIFY(gather->lossless_dtype() == DType::F32);
    gather->copy_rows(0, split, reinterpret_cast<std::uint8_t*>(copied.data()));
    gather->copy_rows(split, rows - split, reinterpret_cast<std::uint8_t*>(copied.data() + split * cols));
    QVERIFY(std::memcmp(out.data(), hf.data(), hf.size() * 4) == 0);
    QVERIFY(std::memcmp(copied.data(), hf.data(), hf.size() * 4) == 0);
}

void TestHfLayout::bad_head_split_is_named() {
    for (auto [rows, heads] : {std::pair<int, int>{10, 4}, {12, 4}, {8, 0}}) {
        try {
            llama_unpermute_source_row(0, rows, heads);
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Malformed);
            QVERIFY(std::string(e.what()).find("heads") != std::string::npos);
        }
    }
}

void TestHfLayout::tiny_llama_names_shapes_config() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const auto path = gguf_real("tiny-llama-F32.gguf");
    const Catalog cat = open_model(path);
    const Plan plan = make_plan(cat);
    const HfLayout hf = to_hf_layout(cat, plan);
    QCOMPARE(hf.architecture, std::string("llama"));
    QCOMPARE(hf.hf_class, std::string("LlamaForCausalLM"));

    // Every HF tensor of a 2-layer LlamaForCausalLM, with the GGUF tensor it comes from.
    std::vector<std::pair<std::string, std::string>> want = {
        {"model.embed_tokens.weight", "token_embd.weight"},
        {"model.norm.weight", "output_norm.weight"},
        {"lm_head.weight", "output.weight"},
    };
    const std::pair<const char*, const char*> per_layer[] = {
        {"input_layernorm.weight", "attn_norm.weight"},   {"self_attn.q_proj.weight", "attn_q.weight"},
        {"self_attn.k_proj.weight", "attn_k.weight"},     {"self_attn.v_proj.weight", "attn_v.weight"},
        {"self_attn.o_proj.weight", "attn_output.weight"}, {"post_attention_layernorm.weight", "ffn_norm.weight"},
        {"mlp.gate_proj.weight", "ffn_gate.weight"},       {"mlp.up_proj.weight", "ffn_up.weight"},
        {"mlp.down_proj.weight", "ffn_down.weight"},
    };
    for (int l = 0; l < 2; ++l)
        for (auto [h, g] : per_layer)
            want.emplace_back("model.layers." + std::to_string(l) + "." + h, "blk." + std::to_string(l) + "." + g);
    QCOMPARE(hf.plan.tensors.size(), want.size());
    for (const auto& [h, g] : want) {
        const auto* lt = find(hf.plan, h);
        QVERIFY2(lt, h.c_str());
        const auto src = cat.find(g);
        QVERIFY2(src, g.c_str());
        QCOMPARE(lt->shape, cat.tensors[*src].shape);
        QCOMPARE(hf_tensor_name("llama", g).value_or(""), h);
    }
    // Shapes as a Llama with hidden 256, 4 heads, 2 KV heads, FFN 512, vocab 512 has them.
    QCOMPARE(find(hf.plan, "model.layers.0.self_attn.q_proj.weight")->shape, (std::vector<std::uint64_t>{256, 256}));
    QCOMPARE(find(hf.plan, "model.layers.0.self_attn.k_proj.weight")->shape, (std::vector<std::uint64_t>{128, 256}));
    QCOMPARE(find(hf.plan, "model.layers.1.mlp.down_proj.weight")->shape, (std::vector<std::uint64_t>{256, 512}));
    QCOMPARE(find(hf.plan, "lm_head.weight")->shape, (std::vector<std::uint64_t>{512, 256}));

    const QJsonObject c = json(hf.config_json);
    QCOMPARE(c["architectures"].toArray(), QJsonArray{"LlamaForCausalLM"});
    QCOMPARE(c["model_type"].toString(), QString("llama"));
    QCOMPARE(c["hidden_size"].toInt(), 256);
    QCOMPARE(c["intermediate_size"].toInt(), 512);
    QCOMPARE(c["num_hidden_layers"].toInt(), 2);
    QCOMPARE(c["num_attention_heads"].toInt(), 4);
    QCOMPARE(c["num_key_value_heads"].toInt(), 2);
    // No attention.key_length: the converter writes it only from a config head_dim, and
    // transformers derives hidden / heads without one.
    QVERIFY(!c.contains("head_dim"));
    QCOMPARE(c["hidden_act"].toString(), QString("silu"));
    QCOMPARE(c["rms_norm_eps"].toDouble(), 1e-5);
    QCOMPARE(c["rope_theta"].toDouble(), 10000.0);
    QCOMPARE(c["max_position_embeddings"].toInt(), 256);
    QCOMPARE(c["vocab_size"].toInt(), 512);
    QCOMPARE(c["tie_word_embeddings"].toBool(true), false);
    QCOMPARE(c["bos_token_id"].toInt(), 1);
    QCOMPARE(c["eos_token_id"].toInt(), 2);
    QCOMPARE(c["torch_dtype"].toString(), QString("bfloat16"));
    QVERIFY(!c.contains("rope_scaling"));
    QCOMPARE(json(to_hf_layout(cat, plan, DType::F32).config_json)["torch_dtype"].toString(), QString("float32"));
}

void TestHfLayout::values_equal_plain_after_repermute_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("F32") << "tiny-llama-F32.gguf";
    QTest::newRow("Q4_K_M") << "tiny-llama-Q4_K_M.gguf";
    QTest::newRow("pure-IQ2_XXS") << "tiny-llama-pure-IQ2_XXS.gguf";
}

void TestHfLayout::values_equal_plain_after_repermute() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, file);
    const Catalog cat = open_model(gguf_real(file.toUtf8().constData()));
    const Plan plan = make_plan(cat);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string dir = tmp.path().toStdString();
    RememberOptions plain;
    plain.to = DType::F32;
    plain.output = dir + "/plain.safetensors";
    plain.threads = 2;
    plain.chunk_bytes = 4096;  // many chunks: row gathering across chunk borders
    remember_to_safetensors(cat, plan, plain);

    HfLayout hf = to_hf_layout(cat, plan, DType::F32);
    RememberOptions o = plain;
    o.output = dir + "/hf";
    o.config_json = hf.config_json;
    const auto res = remember_to_safetensors(cat, hf.plan, o);
    QVERIFY(std::filesystem::exists(dir + "/hf/model.safetensors"));
    QVERIFY(std::filesystem::exists(dir + "/hf/config.json"));
    QCOMPARE(res.files.size(), std::size_t{2});
    const auto written = test::read_file(dir + "/hf/config.json");
    QCOMPARE(json(std::string(written.begin(), written.end()))["num_key_value_heads"].toInt(), 2);

    const auto r = test::run(QString::fromStdString(test::python()),
                             {QString::fromStdString(reference_script()), "check", QString::fromStdString(dir + "/hf/model.safetensors"),
                              QString::fromStdString(dir + "/plain.safetensors"), "4", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
    QCOMPARE(r.out.trimmed(), QString("ok 21"));
    // The check can fail: with the wrong head count the re-permuted Q differs.
    const auto wrong = test::run(QString::fromStdString(test::python()),
                                 {QString::fromStdString(reference_script()), "check", QString::fromStdString(dir + "/hf/model.safetensors"),
                                  QString::fromStdString(dir + "/plain.safetensors"), "2", "2"});
    QCOMPARE(wrong.exit_code, 1);
}

void TestHfLayout::gemma_norms_and_tied_embeddings() {
    Gguf g = small_model("gemma");
    g.u32("gemma.attention.key_length", 4);
    g.tensor("token_embd.weight", {4, 8}, ramp(32));
    g.tensor("blk.0.attn_norm.weight", {8}, ramp(8, 1.0f));
    g.tensor("blk.0.attn_q.weight", {8, 8}, ramp(64));
    g.tensor("blk.0.ffn_norm.weight", {8}, ramp(8, 0.75f));
    g.tensor("output_norm.weight", {8}, ramp(8, 2.0f));
    const Catalog cat = parse(g);
    const Plan plan = make_plan(cat);
    const HfLayout hf = to_hf_layout(cat, plan);
    QCOMPARE(hf.plan.tensors.size(), std::size_t{5});
    QVERIFY(!find(hf.plan, "lm_head.weight"));
    const QJsonObject c = json(hf.config_json);
    QCOMPARE(c["tie_word_embeddings"].toBool(false), true);
    QCOMPARE(c["architectures"].toArray(), QJsonArray{"GemmaForCausalLM"});
    QCOMPARE(c["model_type"].toString(), QString("gemma"));
    QCOMPARE(c["head_dim"].toInt(), 4);
    QCOMPARE(c["vocab_size"].toInt(), 4);
    QCOMPARE(c["num_key_value_heads"].toInt(), 1);
    QCOMPARE(c["rms_norm_eps"].toDouble(), 1e-6);  // f32 1e-6 written in its shortest form, as HF has it
    // convert_hf_to_gguf stored w + 1 for every norm: HF gets the stored value − 1.
    for (auto [h, start] : {std::pair<const char*, float>{"model.layers.0.input_layernorm.weight", 1.0f},
                            {"model.layers.0.post_attention_layernorm.weight", 0.75f},
                            {"model.norm.weight", 2.0f}}) {
        const auto* lt = find(hf.plan, h);
        QVERIFY2(lt, h);
        const auto v = values(*lt);
        for (std::size_t i = 0; i < v.size(); ++i) QCOMPARE(v[i], (start + 0.125f * static_cast<float>(i)) - 1.0f);
        QVERIFY(lt->recipe->lossless_dtype() == DType::F32);  // F32 norms stay F32
    }
    // No permutation for gemma, embeddings unchanged.
    QCOMPARE(values(*find(hf.plan, "model.layers.0.self_attn.q_proj.weight")), ramp(64));
    QCOMPARE(values(*find(hf.plan, "model.embed_tokens.weight")), ramp(32));
}

void TestHfLayout::gemma2_sandwich_norms() {
    Gguf g;
    g.str("general.architecture", "gemma2")
        .u32("gemma2.embedding_length", 8)
        .u32("gemma2.block_count", 46)  // llama.cpp's "27B": queries scaled by hidden/heads
        .u32("gemma2.feed_forward_length", 16)
        .u32("gemma2.attention.head_count", 2)
        .u32("gemma2.attention.key_length", 2)
        .u32("gemma2.attention.sliding_window", 4096)
        .f32("gemma2.attn_logit_softcapping", 50.0f)
        .f32("gemma2.final_logit_softcapping", 30.0f);
    g.tensor("token_embd.weight", {4, 8}, ramp(32));
    g.tensor("blk.0.attn_norm.weight", {8}, ramp(8, 1.0f));
    g.tensor("blk.0.post_attention_norm.weight", {8}, ramp(8, 2.0f));
    g.tensor("blk.0.ffn_norm.weight", {8}, ramp(8, 3.0f));
    g.tensor("blk.0.post_ffw_norm.weight", {8}, ramp(8, 4.0f));
    const Catalog cat = parse(g);
    const HfLayout hf = to_hf_layout(cat, make_plan(cat));
    // gguf-py tensor_mapping: gemma2 ATTN_POST_NORM = post_attention_layernorm,
    // FFN_NORM = pre_feedforward_layernorm, FFN_POST_NORM = post_feedforward_layernorm.
    for (auto [h, start] : {std::pair<const char*, float>{"model.layers.0.input_layernorm.weight", 1.0f},
                            {"model.layers.0.post_attention_layernorm.weight", 2.0f},
                            {"model.layers.0.pre_feedforward_layernorm.weight", 3.0f},
                            {"model.layers.0.post_feedforward_layernorm.weight", 4.0f}}) {
        const auto* lt = find(hf.plan, h);
        QVERIFY2(lt, h);
        const auto v = values(*lt);
        for (std::size_t i = 0; i < v.size(); ++i) QCOMPARE(v[i], (start + 0.125f * static_cast<float>(i)) - 1.0f);
    }
    const QJsonObject c = json(hf.config_json);
    QCOMPARE(c["architectures"].toArray(), QJsonArray{"Gemma2ForCausalLM"});
    QCOMPARE(c["query_pre_attn_scalar"].toInt(), 4);
    QCOMPARE(c["head_dim"].toInt(), 2);
    QCOMPARE(c["num_key_value_heads"].toInt(), 2);  // absent head_count_kv = head_count
    QCOMPARE(c["sliding_window"].toInt(), 4096);
    QCOMPARE(c["attn_logit_softcapping"].toDouble(), 50.0);
    QCOMPARE(c["final_logit_softcapping"].toDouble(), 30.0);
    QVERIFY(!c.contains("max_position_embeddings"));  // not in this file: not invented
}

void TestHfLayout::qwen3_names_without_permutation() {
    Gguf g = small_model("qwen3");
    g.u32("qwen3.attention.key_length", 8);
    g.u32("tokenizer.ggml.bos_token_id", 3).u32("tokenizer.ggml.eos_token_id", 2);
    g.tensor("token_embd.weight", {4, 8}, ramp(32));
    g.tensor("blk.0.attn_q.weight", {16, 8}, ramp(128));
    g.tensor("blk.0.attn_k.weight", {8, 8}, ramp(64, 3.0f));
    g.tensor("blk.0.attn_q_norm.weight", {8}, ramp(8));
    g.tensor("blk.0.attn_k_norm.weight", {8}, ramp(8, 1.0f));
    g.tensor("output.weight", {4, 8}, ramp(32, -1.0f));
    const Catalog cat = parse(g);
    const HfLayout hf = to_hf_layout(cat, make_plan(cat));
    QCOMPARE(values(*find(hf.plan, "model.layers.0.self_attn.q_proj.weight")), ramp(128));
    QCOMPARE(values(*find(hf.plan, "model.layers.0.self_attn.k_proj.weight")), ramp(64, 3.0f));
    QCOMPARE(values(*find(hf.plan, "model.layers.0.self_attn.q_norm.weight")), ramp(8));
    QCOMPARE(values(*find(hf.plan, "model.layers.0.self_attn.k_norm.weight")), ramp(8, 1.0f));
    QCOMPARE(values(*find(hf.plan, "lm_head.weight")), ramp(32, -1.0f));
    const QJsonObject c = json(hf.config_json);
    QCOMPARE(c["architectures"].toArray(), QJsonArray{"Qwen3ForCausalLM"});
    QCOMPARE(c["head_dim"].toInt(), 8);
    QCOMPARE(c["tie_word_embeddings"].toBool(true), false);
    QCOMPARE(c["bos_token_id"].toInt(), 3);
    QCOMPARE(c["eos_token_id"].toInt(), 2);
}

// A llama GGUF with stacked experts is Mixtral: ffn_{gate,up,down}_exps [E, R, C] become E tensors
// block_sparse_moe.experts.e.w1/w3/w2 of rows e·R … (e+1)·R − 1, the router block_sparse_moe.gate.
void TestHfLayout::experts_unstacked() {
    Gguf g = small_model("llama");
    g.u32("llama.expert_count", 2).u32("llama.expert_used_count", 1);
    g.tensor("token_embd.weight", {4, 8}, ramp(32));  // shapes as PyTorch lists them
    g.tensor("blk.0.ffn_gate_inp.weight", {2, 8}, ramp(16, -2.0f));
    g.tensor("blk.0.ffn_gate_exps.weight", {2, 4, 8}, ramp(64));
    g.tensor("blk.0.ffn_down_exps.weight", {2, 8, 4}, ramp(64, 9.0f));
    const Catalog cat = parse(g);
    const HfLayout hf = to_hf_layout(cat, make_plan(cat));
    const auto all_gate = ramp(64), all_down = ramp(64, 9.0f);
    for (int e = 0; e < 2; ++e) {
        const auto* w1 = find(hf.plan, "model.layers.0.block_sparse_moe.experts." + std::to_string(e) + ".w1.weight");
        const auto* w2 = find(hf.plan, "model.layers.0.block_sparse_moe.experts." + std::to_string(e) + ".w2.weight");
        QVERIFY(w1 && w2);
        QCOMPARE(w1->shape, (std::vector<std::uint64_t>{4, 8}));
        QCOMPARE(w2->shape, (std::vector<std::uint64_t>{8, 4}));
        QCOMPARE(values(*w1), std::vector<float>(all_gate.begin() + 32 * e, all_gate.begin() + 32 * (e + 1)));
        QCOMPARE(values(*w2), std::vector<float>(all_down.begin() + 32 * e, all_down.begin() + 32 * (e + 1)));
    }
    QVERIFY(find(hf.plan, "model.layers.0.block_sparse_moe.gate.weight"));
    QVERIFY(!find(hf.plan, "model.layers.0.block_sparse_moe.experts.2.w1.weight"));
    const QJsonObject c = json(hf.config_json);
    QCOMPARE(c["architectures"].toArray(), QJsonArray{"MixtralForCausalLM"});
    QCOMPARE(c["model_type"].toString(), QString("mixtral"));
    QCOMPARE(c["num_local_experts"].toInt(), 2);
    QCOMPARE(c["num_experts_per_tok"].toInt(), 1);
    QCOMPARE(QString::fromStdString(hf.hf_class), QString("MixtralForCausalLM"));
}

void TestHfLayout::llama3_rope_factors_become_rope_scaling() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.path() + "/rope.bin";
    // Llama 3.2: factor 32, theta 500000, head dim 64.
    const auto r = test::run(QString::fromStdString(test::python()),
                             {QString::fromStdString(reference_script()), "rope", out, "32", "500000", "64"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto factors = read_f32(out.toStdString());
    QCOMPARE(factors.size(), std::size_t{32});

    auto model = [&](std::vector<float> rope) {
        Gguf g;
        g.str("general.architecture", "llama")
            .u32("llama.embedding_length", 128)
            .u32("llama.block_count", 1)
            .u32("llama.feed_forward_length", 16)
            .u32("llama.attention.head_count", 2)
            .u32("llama.rope.dimension_count", 64)
            .f32("llama.rope.freq_base", 500000.0f);
        g.tensor("token_embd.weight", {4, 128}, ramp(512));
        g.tensor("rope_freqs.weight", {32}, std::move(rope));
        return g;
    };
    {
        const Catalog cat = parse(model(factors));
        const HfLayout hf = to_hf_layout(cat, make_plan(cat));
        QCOMPARE(hf.plan.tensors.size(), std::size_t{1});  // rope_freqs consumed
        const QJsonObject rs = json(hf.config_json)["rope_scaling"].toObject();
        QCOMPARE(rs["rope_type"].toString(), QString("llama3"));
        QCOMPARE(rs["factor"].toDouble(), 32.0);
        QCOMPARE(rs["low_freq_factor"].toDouble(), 1.0);
        QCOMPARE(rs["high_freq_factor"].toDouble(), 4.0);
        QCOMPARE(rs["original_max_position_embeddings"].toInt(), 8192);
        QCOMPARE(json(hf.config_json)["tie_word_embeddings"].toBool(false), true);
    }
    {
        auto off = factors;
        off[16] *= 1.5f;  // not the Llama 3 rule
        const Catalog cat = parse(model(off));
        try {
            to_hf_layout(cat, make_plan(cat));
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Unsupported);
            QCOMPARE(e.tensor(), std::string("rope_freqs.weight"));
        }
    }
}

void TestHfLayout::unsupported_inputs_are_named() {
    {
        // Refused on purpose, saying why: transformers has no text-only class for Qwen2.5-VL.
        Gguf g = small_model("qwen2vl");
        g.tensor("token_embd.weight", {4, 8}, ramp(32));
        const Catalog cat = parse(g);
        try {
            to_hf_layout(cat, make_plan(cat));
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Unsupported);
            QVERIFY2(std::string(e.what()).find("'qwen2vl': transformers has no text-only class") != std::string::npos, e.what());
        }
    }
    {
        Gguf g = small_model("llama");
        g.tensor("token_embd.weight", {4, 8}, ramp(32));
        g.tensor("blk.0.ffn_gate_shexp.weight", {4, 8}, ramp(32));  // a shared expert is not Mixtral's
        const Catalog cat = parse(g);
        try {
            to_hf_layout(cat, make_plan(cat));
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Unsupported);
            QCOMPARE(e.tensor(), std::string("blk.0.ffn_gate_shexp.weight"));
        }
    }
    {
        Gguf g = small_model("llama");
        g.tensor("blk.0.attn_q.weight", {6, 8}, ramp(48));  // 6 rows do not split into 2 heads of even size
        const Catalog cat = parse(g);
        try {
            to_hf_layout(cat, make_plan(cat));
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Malformed);
            QCOMPARE(e.tensor(), std::string("blk.0.attn_q.weight"));
        }
    }
    {
        Gguf g;
        g.str("general.architecture", "llama");  // no hyperparameters
        g.tensor("token_embd.weight", {4, 8}, ramp(32));
        const Catalog cat = parse(g);
        try {
            to_hf_layout(cat, make_plan(cat));
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Malformed);
            QVERIFY2(std::string(e.what()).find("needs the GGUF key llama.") != std::string::npos, e.what());
        }
    }
    {
        Catalog cat;  // not GGUF
        cat.format = Format::Safetensors;
        QVERIFY_THROWS_EXCEPTION(Error, to_hf_layout(cat, Plan{}));
    }
}

QTEST_APPLESS_MAIN(TestHfLayout)
#include "test_hf_layout.moc"
