// SPDX-License-Identifier: MIT OR Apache-2.0
// llama-quantize's per-tensor type choice: for every gguf-real file (41
// without, 15 with an importance matrix) the rules applied to the tensors of
// tiny-llama-F32.gguf give the type of every tensor of that file; and the
// whole file re-assembled (llama_quantize_kvs + llama's tensor order + the
// chosen types + the file's tensor bytes) through GgufWriter is the file,
// byte for byte. Plus synthetic cases for the rules the tiny model does not
// reach (fallbacks, tied embeddings, overrides, MoE, refusals).
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "sink/gguf_writer.hpp"
#include "gguf_test_support.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <filesystem>

using namespace amn;
using test::error_code_of;
namespace fs = std::filesystem;

namespace {

std::string real(const std::string& name) { return test_gguf::gguf_real(name); }

std::vector<TensorDesc> descs_of(const Catalog& cat) {
    std::vector<TensorDesc> out;
    for (const auto& t : cat.tensors) out.push_back({t.name, t.shape, t.dtype});
    return out;
}

DType T(const char* name) {
    const auto t = parse_ggml_type(name);
    if (!t) qFatal("bad type name %s", name);
    return *t;
}

std::uint32_t ftype_id(const char* name) {
    const LlamaFileType* f = parse_llama_file_type(name);
    if (!f) qFatal("bad ftype %s", name);
    return f->id;
}

// One gguf-real file and the llama-quantize command that made it
// (shared/fixtures/README.md).
struct Case {
    std::string file;   // tiny-llama-<file>.gguf
    std::string ftype;  // the ftype argument
    bool pure = false;  // --pure --token-embedding-type T --output-tensor-type T --tensor-type '.*=T'
    std::string type;   // T
    std::string token_embd_type;  // overrides T for --token-embedding-type (pure IQ1_S/IQ2_XS/IQ2_XXS: Q8_0)
    bool imatrix = false;
};

std::vector<Case> cases() {
    std::vector<Case> c;
    auto add = [&](std::string file, std::string ftype, bool pure, std::string type, std::string te, bool imatrix) {
        c.push_back(Case{std::move(file), std::move(ftype), pure, std::move(type), std::move(te), imatrix});
    };
    for (const char* f : {"F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K_S", "Q3_K_M", "Q3_K_L",
                          "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K", "IQ4_NL", "IQ4_XS", "IQ3_S", "IQ3_M", "TQ1_0",
                          "TQ2_0", "Q1_0", "Q2_0"})
        add(f, f, false, "", "", false);
    for (const char* t : {"Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "IQ4_NL", "IQ4_XS", "IQ3_S", "TQ1_0", "TQ2_0", "Q1_0", "Q2_0"})
        add(std::string("pure-") + t, t, true, t, "", false);
    add("pure-Q3_K", "Q3_K_M", true, "Q3_K", "", false);
    add("pure-Q4_K", "Q4_K_M", true, "Q4_K", "", false);
    add("pure-Q5_K", "Q5_K_M", true, "Q5_K", "", false);
    add("pure-MXFP4", "MXFP4_MOE", true, "MXFP4", "", false);
    add("pure-NVFP4", "Q8_0", true, "NVFP4", "", false);
    for (const char* f : {"IQ3_XXS", "IQ3_XS", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ1_S", "IQ1_M", "Q2_K_S"})
        add(f, f, false, "", "", true);
    add("pure-IQ1_M", "IQ1_M", true, "IQ1_M", "", true);
    add("pure-IQ3_XXS", "IQ3_XXS", true, "IQ3_XXS", "", true);
    add("pure-IQ2_S", "IQ2_M", true, "IQ2_S", "", true);
    for (const char* t : {"IQ1_S", "IQ2_XS", "IQ2_XXS"}) add(std::string("pure-") + t, t, true, t, "Q8_0", true);
    return c;
}

QuantizeRequest request_of(const Case& c) {
    QuantizeRequest r;
    r.ftype = ftype_id(c.ftype.c_str());
    r.has_imatrix = c.imatrix;
    if (c.pure) {
        r.pure = true;
        const std::string te = c.token_embd_type.empty() ? c.type : c.token_embd_type;
        r.token_embedding_type = T(te.c_str());
        r.output_tensor_type = T(c.type.c_str());
        r.tensor_types.push_back(parse_tensor_type_override(".*=" + c.type));
    }
    return r;
}

std::vector<TensorDesc> tiny_llama(std::uint64_t n_embd = 256, bool with_output = true) {
    std::vector<TensorDesc> t;
    t.push_back({"token_embd.weight", {512, n_embd}, DType::F32});
    for (int l = 0; l < 2; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        t.push_back({b + "attn_norm.weight", {n_embd}, DType::F32});
        t.push_back({b + "attn_q.weight", {n_embd, n_embd}, DType::F32});
        t.push_back({b + "attn_k.weight", {128, n_embd}, DType::F32});
        t.push_back({b + "attn_v.weight", {128, n_embd}, DType::F32});
        t.push_back({b + "attn_output.weight", {n_embd, n_embd}, DType::F32});
        t.push_back({b + "ffn_gate.weight", {512, n_embd}, DType::F32});
        t.push_back({b + "ffn_down.weight", {n_embd, 512}, DType::F32});
    }
    if (with_output) t.push_back({"output.weight", {512, n_embd}, DType::F32});
    return t;
}

std::vector<GgufKv> llama_kvs(std::uint32_t layers = 2, std::uint32_t heads = 4, std::uint32_t kv_heads = 2,
                              std::uint32_t experts = 0, const char* arch = "llama") {
    const std::string a = arch;
    std::vector<GgufKv> kvs = {{"general.architecture", GgufValue::string(a)},
                               {a + ".block_count", GgufValue::u32(layers)},
                               {a + ".attention.head_count", GgufValue::u32(heads)},
                               {a + ".attention.head_count_kv", GgufValue::u32(kv_heads)}};
    if (experts) kvs.push_back({a + ".expert_count", GgufValue::u32(experts)});
    return kvs;
}

DType type_of(const std::vector<TensorDesc>& t, const std::vector<TensorChoice>& c, const std::string& name) {
    for (std::size_t i = 0; i < t.size(); ++i)
        if (t[i].name == name) return c[i].type;
    return DType::Unknown;
}

}  // namespace

class TestGgufFtype : public QObject {
    Q_OBJECT
private slots:
    void file_type_table();
    void type_names();
    void real_files_data();
    void real_files();
    void tensor_order();
    void fallbacks();
    void tied_embeddings();
    void overrides_order();
    void leave_output_and_f16();
    void moe_rules();
    void layer_rules_many_layers();
    void refusals();
};

void TestGgufFtype::file_type_table() {
    const std::pair<std::uint32_t, const char*> want[] = {
        {0, "F32"}, {1, "F16"}, {2, "Q4_0"}, {3, "Q4_1"}, {7, "Q8_0"}, {8, "Q5_0"}, {9, "Q5_1"}, {10, "Q2_K"},
        {11, "Q3_K_S"}, {12, "Q3_K_M"}, {13, "Q3_K_L"}, {14, "Q4_K_S"}, {15, "Q4_K_M"}, {16, "Q5_K_S"}, {17, "Q5_K_M"},
        {18, "Q6_K"}, {19, "IQ2_XXS"}, {20, "IQ2_XS"}, {21, "Q2_K_S"}, {22, "IQ3_XS"}, {23, "IQ3_XXS"}, {24, "IQ1_S"},
        {25, "IQ4_NL"}, {26, "IQ3_S"}, {27, "IQ3_M"}, {28, "IQ2_S"}, {29, "IQ2_M"}, {30, "IQ4_XS"}, {31, "IQ1_M"},
        {32, "BF16"}, {36, "TQ1_0"}, {37, "TQ2_0"}, {38, "MXFP4_MOE"}, {40, "Q1_0"}, {41, "Q2_0"}};
    for (const auto& [id, name] : want) {
        QCOMPARE(llama_ftype_name(id), std::string_view(name));
        const LlamaFileType* f = parse_llama_file_type(name);
        QVERIFY2(f && f->id == id && f->offered, name);
        QVERIFY(dtype_info(f->default_type));
        QCOMPARE(parse_llama_file_type(std::to_string(id)), f);
    }
    QCOMPARE(parse_llama_file_type("q4_k_m")->id, 15u);
    QCOMPARE(parse_llama_file_type("Q4_K")->id, 15u);
    QCOMPARE(parse_llama_file_type("Q3_K")->id, 12u);
    QCOMPARE(parse_llama_file_type("q5_k")->id, 17u);
    QVERIFY(!parse_llama_file_type("NVFP4"));
    QVERIFY(!parse_llama_file_type("4"));
    QVERIFY(!parse_llama_file_type("COPY"));
    QVERIFY(!parse_llama_file_type("Q4"));
    QCOMPARE(llama_ftype_name(39), std::string_view("NVFP4"));
    QCOMPARE(llama_ftype_name(4), std::string_view("Q4_1_SOME_F16"));
    QVERIFY(llama_ftype_name(5).empty());
    QCOMPARE(llama_file_type(15)->default_type, DType::Q4_K);
    QCOMPARE(llama_file_type(22)->default_type, DType::IQ3_S);  // IQ3_XS
    QCOMPARE(llama_file_type(28)->default_type, DType::IQ2_XS);  // IQ2_S
    QCOMPARE(llama_file_type(29)->default_type, DType::IQ2_S);   // IQ2_M
    std::vector<std::string> needs;
    for (const auto& f : llama_file_types())
        if (f.needs_imatrix) needs.emplace_back(f.name);
    QCOMPARE(needs, (std::vector<std::string>{"IQ2_XXS", "IQ2_XS", "Q2_K_S", "IQ1_S", "IQ2_S", "IQ1_M"}));
}

void TestGgufFtype::type_names() {
    QCOMPARE(ggml_type_name(DType::Q4_K), std::string("q4_K"));
    QCOMPARE(ggml_type_name(DType::IQ2_XXS), std::string("iq2_xxs"));
    QCOMPARE(ggml_type_name(DType::BF16), std::string("bf16"));
    QCOMPARE(ggml_type_name(DType::F32), std::string("f32"));
    QCOMPARE(ggml_type_name(DType::MXFP4), std::string("mxfp4"));
    QVERIFY(ggml_type_name(DType::F8_E4M3).empty());
    QCOMPARE(parse_ggml_type("Q4_K"), std::optional(DType::Q4_K));
    QCOMPARE(parse_ggml_type("q4_k"), std::optional(DType::Q4_K));
    QCOMPARE(parse_ggml_type("f16"), std::optional(DType::F16));
    QCOMPARE(parse_ggml_type("BF16"), std::optional(DType::BF16));
    QCOMPARE(parse_ggml_type("nvfp4"), std::optional(DType::NVFP4));
    QVERIFY(!parse_ggml_type("Q4_K_M"));
    QVERIFY(!parse_ggml_type("F8_E4M3"));
    QVERIFY(!parse_ggml_type(""));
    const auto [p, t] = parse_tensor_type_override("Attn_Q=q8_0");
    QCOMPARE(p, std::string("attn_q"));  // llama-quantize lower-cases the pattern
    QCOMPARE(t, DType::Q8_0);
    for (const char* bad : {"attn_q", "=q8_0", "attn_q=", "attn_q=q9_9", "(=q8_0"})
        QCOMPARE(error_code_of([&] { parse_tensor_type_override(bad); }), std::optional(ErrorCode::Usage));
}

void TestGgufFtype::real_files_data() {
    QTest::addColumn<int>("index");
    const auto c = cases();
    for (std::size_t i = 0; i < c.size(); ++i) QTest::newRow(c[i].file.c_str()) << int(i);
}

void TestGgufFtype::real_files() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(int, index);
    const Case c = cases()[std::size_t(index)];
    const std::string in = real("tiny-llama-F32.gguf"), q = real("tiny-llama-" + c.file + ".gguf");
    if (!fs::exists(in) || !fs::exists(q)) QSKIP("gguf-real fixture missing");
    const Catalog f32 = open_gguf(in), expected = open_gguf(q);
    const auto descs = descs_of(f32);
    const auto in_kvs = gguf_read_kvs(f32);
    const QuantizeRequest req = request_of(c);
    const auto choices = choose_gguf_types(descs, in_kvs, req);

    // 1. The type of every tensor.
    QCOMPARE(expected.tensors.size(), descs.size());
    int wrong = 0;
    for (std::size_t i = 0; i < descs.size(); ++i) {
        const auto k = expected.find(descs[i].name);
        QVERIFY2(k, descs[i].name.c_str());
        const DType want = expected.tensors[*k].dtype;
        if (choices[i].type != want) {
            ++wrong;
            qWarning("%s: chose %s (rule %d, mix rule %d), the file has %s", descs[i].name.c_str(),
                     ggml_type_name(choices[i].type).c_str(), int(choices[i].reason.rule), int(choices[i].reason.mix),
                     ggml_type_name(want).c_str());
        }
    }
    QCOMPARE(wrong, 0);

    // 2. The whole file: metadata from the F32 input, tensors in llama's
    //    order with the chosen types, bytes from the expected file.
    std::vector<GgufKv> kvs;
    if (c.imatrix) {
        const auto ek = gguf_read_kvs(expected);
        LlamaImatrixKvs im;
        im.file = gguf_find_kv(ek, "quantize.imatrix.file")->as_string();
        im.dataset = gguf_find_kv(ek, "quantize.imatrix.dataset")->as_string();
        im.entries_count = std::uint32_t(gguf_find_kv(ek, "quantize.imatrix.entries_count")->as_uint());
        im.chunks_count = std::uint32_t(gguf_find_kv(ek, "quantize.imatrix.chunks_count")->as_uint());
        kvs = llama_quantize_kvs(in_kvs, req.ftype, im);
    } else {
        kvs = llama_quantize_kvs(in_kvs, req.ftype);
    }
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("out.gguf").toStdString();
    GgufWriter w(out);
    w.set_kvs(kvs);
    std::vector<std::string> names;
    for (const auto& d : descs) names.push_back(d.name);
    std::vector<std::size_t> src;
    for (const std::size_t i : llama_quantize_tensor_order(names)) {
        w.add_tensor(descs[i].name, choices[i].type, descs[i].shape);
        src.push_back(*expected.find(descs[i].name));
    }
    w.allocate();
    for (std::size_t k = 0; k < src.size(); ++k) {
        const auto& t = expected.tensors[src[k]];
        QCOMPARE(w.tensor_nbytes(k), t.nbytes);
        w.write(k, 0, {expected.data(t), static_cast<std::size_t>(t.nbytes)});
    }
    w.commit();
    const auto a = test::read_file(q), b = test::read_file(out);
    QCOMPARE(b.size(), a.size());
    QVERIFY2(a == b, "re-assembled file differs");
}

void TestGgufFtype::tensor_order() {
    const std::vector<std::string> names = {"blk.10.a.weight", "token_embd.weight", "blk.2.b.weight", "blk.2.a.weight",
                                            "output.weight", "blk.0.z.weight", "output_norm.weight"};
    const auto o = llama_quantize_tensor_order(names);
    std::vector<std::string> got;
    for (auto i : o) got.push_back(names[i]);
    QCOMPARE(got, (std::vector<std::string>{"output.weight", "output_norm.weight", "token_embd.weight", "blk.0.z.weight",
                                            "blk.2.a.weight", "blk.2.b.weight", "blk.10.a.weight"}));
}

void TestGgufFtype::fallbacks() {
    // n_embd 96: rows of 96 fit no 256-block type.
    const auto t = tiny_llama(96);
    QuantizeRequest r;
    r.ftype = ftype_id("Q4_K_M");
    auto c = choose_gguf_types(t, llama_kvs(), r);
    // blk.0.attn_q: Q4_K → fallback Q5_0 (96 % 32 == 0).
    QCOMPARE(type_of(t, c, "blk.0.attn_q.weight"), DType::Q5_0);
    // The typed reason: a row of 96 is not a multiple of 256 (Q4_K) → Q5_0.
    QVERIFY(c[2].reason.fallback);
    QCOMPARE(c[2].reason.row, std::uint64_t{96});
    QCOMPARE(c[2].reason.block, std::uint64_t{256});
    QCOMPARE(c[2].reason.chosen, DType::Q4_K);
    QCOMPARE(c[2].type, DType::Q5_0);
    QCOMPARE(c[2].reason.rule, TypeRule::FileTypeDefault);  // the rule that chose Q4_K before the fallback
    QCOMPARE(c[2].reason.ftype, ftype_id("Q4_K_M"));
    // blk.1.attn_v: Q6_K (more bits) → Q8_0.
    QCOMPARE(type_of(t, c, "blk.1.attn_v.weight"), DType::Q8_0);
    // ffn_down rows are 512: no fallback.
    QCOMPARE(type_of(t, c, "blk.0.ffn_down.weight"), DType::Q4_K);
    // output: 96 % 256 → Q8_0 in the output rule itself, no fallback.
    QCOMPARE(type_of(t, c, "output.weight"), DType::Q8_0);
    QVERIFY(!c.back().reason.fallback);
    // Q5_K → Q5_1, IQ3_S → IQ4_NL, Q2_K → Q4_0.
    r.ftype = ftype_id("Q5_K_S");
    c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "blk.0.attn_q.weight"), DType::Q5_1);
    r.ftype = ftype_id("IQ3_S");
    c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "blk.0.attn_q.weight"), DType::IQ4_NL);
    r.ftype = ftype_id("Q2_K");
    c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "blk.0.attn_q.weight"), DType::Q4_0);
    // Rows of 48: Q4_K → Q5_0 does not fit either → F16.
    // (The output keeps 256 columns: its Q8_0 has no fallback either.)
    const std::vector<TensorDesc> t48 = {{"blk.0.attn_q.weight", {48, 48}, DType::F32},
                                         {"output.weight", {512, 256}, DType::F32}};
    r.ftype = ftype_id("Q4_K_S");
    c = choose_gguf_types(t48, llama_kvs(), r);
    QCOMPARE(type_of(t48, c, "blk.0.attn_q.weight"), DType::F16);
    // No fallback defined for Q4_0: refused.
    r.ftype = ftype_id("Q4_0");
    std::string what;
    QCOMPARE(error_code_of([&] { choose_gguf_types(t48, llama_kvs(), r); }, &what), std::optional(ErrorCode::Unsupported));
    QVERIFY2(what.find("no tensor type fallback is defined for type q4_0") != std::string::npos, what.c_str());
}

void TestGgufFtype::tied_embeddings() {
    const auto t = tiny_llama(256, /*with_output=*/false);
    QuantizeRequest r;
    r.ftype = ftype_id("Q4_K_M");
    auto c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "token_embd.weight"), DType::Q6_K);  // output rules
    r.ftype = ftype_id("Q8_0");
    c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "token_embd.weight"), DType::Q8_0);
    r.ftype = ftype_id("Q4_0");
    r.output_tensor_type = DType::Q5_0;  // reaches the tied token_embd through the output rule
    c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "token_embd.weight"), DType::Q5_0);
    r.token_embedding_type = DType::Q8_0;  // but --token-embedding-type comes first
    c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "token_embd.weight"), DType::Q8_0);
    // Untied: token_embd keeps the default (Q4_0), output Q6_K.
    const auto u = tiny_llama();
    QuantizeRequest r2;
    r2.ftype = ftype_id("Q4_0");
    c = choose_gguf_types(u, llama_kvs(), r2);
    QCOMPARE(type_of(u, c, "token_embd.weight"), DType::Q4_0);
    QCOMPARE(type_of(u, c, "output.weight"), DType::Q6_K);
}

void TestGgufFtype::overrides_order() {
    const auto t = tiny_llama();
    QuantizeRequest r;
    r.ftype = ftype_id("Q4_K_M");
    r.tensor_types = {parse_tensor_type_override("attn_v=q8_0"), parse_tensor_type_override("attn=q5_0"),
                      parse_tensor_type_override("OUTPUT=F16")};
    const auto c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "blk.0.attn_v.weight"), DType::Q8_0);  // first match wins
    QCOMPARE(type_of(t, c, "blk.1.attn_v.weight"), DType::Q8_0);
    QCOMPARE(type_of(t, c, "blk.0.attn_q.weight"), DType::Q5_0);
    QCOMPARE(type_of(t, c, "blk.0.attn_norm.weight"), DType::F32);   // 1-D: never
    QCOMPARE(type_of(t, c, "output.weight"), DType::F16);            // pattern lower-cased, searched
    QCOMPARE(type_of(t, c, "blk.1.ffn_down.weight"), DType::Q6_K);   // untouched: mix rule
    // The pattern that matched ("attn", not "attn=q5_0") and its type, typed for the front ends to word.
    QCOMPARE(c[2].reason.pattern, std::string("attn"));
    QCOMPARE(c[2].reason.chosen, DType::Q5_0);
    QCOMPARE(c[2].reason.rule, TypeRule::TensorType);
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i].name == "blk.0.attn_norm.weight") {
            QCOMPARE(c[i].reason.rule, TypeRule::Kept);
            QCOMPARE(c[i].reason.kept, KeptReason::OneD);
        }
        if (t[i].name == "blk.1.ffn_down.weight") {
            QCOMPARE(c[i].reason.rule, TypeRule::FileTypeMix);
            QCOMPARE(c[i].reason.mix, MixRule::FfnDownLayer);
            QCOMPARE(c[i].reason.layer, 1);
        }
    }
    // The override does not apply to F16 file types (no quantized default).
    QuantizeRequest f;
    f.ftype = ftype_id("F16");
    f.tensor_types = {parse_tensor_type_override(".*=q8_0")};
    const auto cf = choose_gguf_types(t, {}, f);  // no metadata needed for F16
    QCOMPARE(type_of(t, cf, "blk.0.attn_q.weight"), DType::F16);
    QCOMPARE(type_of(t, cf, "blk.0.attn_norm.weight"), DType::F32);
}

void TestGgufFtype::leave_output_and_f16() {
    const auto t = tiny_llama();
    QuantizeRequest r;
    r.ftype = ftype_id("Q4_0");
    r.leave_output_tensor = true;
    const auto c = choose_gguf_types(t, llama_kvs(), r);
    QCOMPARE(type_of(t, c, "output.weight"), DType::F32);
    QVERIFY(!c.back().quantizable);
    QCOMPARE(c.back().reason.rule, TypeRule::Kept);
    QCOMPARE(c.back().reason.kept, KeptReason::LeaveOutputTensor);
    // Non-weights and norms keep their type, whatever it is.
    std::vector<TensorDesc> odd = {{"blk.0.ffn_norm.weight", {4, 256}, DType::BF16},
                                   {"rope_freqs", {2, 32}, DType::F32},
                                   {"blk.0.ffn_gate_inp.weight", {8, 256}, DType::F16},
                                   {"position_embd.weight", {64, 256}, DType::F32},
                                   {"blk.0.x.weight", {1, 256}, DType::F32}};
    const auto co = choose_gguf_types(odd, llama_kvs(), r);
    for (std::size_t i = 0; i < odd.size(); ++i) {
        QCOMPARE(co[i].type, odd[i].dtype);
        QVERIFY(!co[i].quantizable);
    }
}

void TestGgufFtype::moe_rules() {
    // 8 experts: attn_v Q8_0, attn_k Q8_0, attn_output Q5_K for Q4_K_M; ffn_down layers parsed from names.
    std::vector<TensorDesc> t = {{"token_embd.weight", {512, 256}, DType::F32}, {"output.weight", {512, 256}, DType::F32}};
    for (int l = 0; l < 8; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        t.push_back({b + "attn_v.weight", {128, 256}, DType::F32});
        t.push_back({b + "attn_k.weight", {128, 256}, DType::F32});
        t.push_back({b + "attn_output.weight", {256, 256}, DType::F32});
        t.push_back({b + "ffn_down_exps.weight", {8, 256, 512}, DType::F32});
        t.push_back({b + "ffn_gate_inp.weight", {8, 256}, DType::F32});
    }
    QuantizeRequest r;
    r.ftype = ftype_id("Q4_K_M");
    auto c = choose_gguf_types(t, llama_kvs(8, 32, 8, 8), r);
    QCOMPARE(type_of(t, c, "blk.3.attn_v.weight"), DType::Q8_0);
    QCOMPARE(type_of(t, c, "blk.3.attn_k.weight"), DType::Q8_0);
    QCOMPARE(type_of(t, c, "blk.3.attn_output.weight"), DType::Q5_K);
    QCOMPARE(type_of(t, c, "blk.0.ffn_down_exps.weight"), DType::Q6_K);  // layer 0 < 8/8
    QCOMPARE(type_of(t, c, "blk.1.ffn_down_exps.weight"), DType::Q4_K);
    QCOMPARE(type_of(t, c, "blk.3.ffn_down_exps.weight"), DType::Q6_K);  // (3-1)%3 == 2
    QCOMPARE(type_of(t, c, "blk.7.ffn_down_exps.weight"), DType::Q6_K);  // >= 7*8/8
    QCOMPARE(type_of(t, c, "blk.0.ffn_gate_inp.weight"), DType::F32);
    // MXFP4_MOE: 3-D experts MXFP4, the rest Q8_0, output Q8_0.
    r.ftype = ftype_id("MXFP4_MOE");
    c = choose_gguf_types(t, llama_kvs(8, 32, 8, 8), r);
    QCOMPARE(type_of(t, c, "blk.2.ffn_down_exps.weight"), DType::MXFP4);
    QCOMPARE(type_of(t, c, "blk.2.attn_v.weight"), DType::Q8_0);
    QCOMPARE(type_of(t, c, "output.weight"), DType::Q8_0);
    QCOMPARE(type_of(t, c, "token_embd.weight"), DType::Q8_0);
    // A MoE ffn tensor without a layer in its name is refused by name.
    t.push_back({"ffn_down_shared.weight", {256, 512}, DType::F32});
    r.ftype = ftype_id("Q4_K_M");
    std::string what;
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, llama_kvs(8, 32, 8, 8), r); }, &what), std::optional(ErrorCode::Malformed));
    QVERIFY2(what.find("ffn_down_shared.weight") != std::string::npos, what.c_str());
}

void TestGgufFtype::layer_rules_many_layers() {
    // 32 layers, GQA 8: the classic Q4_K_M / Q3_K_M / Q2_K / IQ2 layouts.
    std::vector<TensorDesc> t = {{"token_embd.weight", {4096, 512}, DType::F32}, {"output.weight", {4096, 512}, DType::F32}};
    for (int l = 0; l < 32; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        t.push_back({b + "attn_v.weight", {64, 512}, DType::F32});
        t.push_back({b + "ffn_down.weight", {512, 1024}, DType::F32});
    }
    const auto kvs = llama_kvs(32, 32, 4);
    QuantizeRequest r;
    r.ftype = ftype_id("Q4_K_M");
    auto c = choose_gguf_types(t, kvs, r);
    std::string v, d;
    for (int l = 0; l < 32; ++l) {
        v += type_of(t, c, "blk." + std::to_string(l) + ".attn_v.weight") == DType::Q6_K ? '6' : '4';
        d += type_of(t, c, "blk." + std::to_string(l) + ".ffn_down.weight") == DType::Q6_K ? '6' : '4';
    }
    // use_more_bits: first 4, last 4, every third from layer 6.
    QCOMPARE(v, std::string("66664464464464464464464464466666"));
    QCOMPARE(d, v);
    r.ftype = ftype_id("Q3_K_M");
    c = choose_gguf_types(t, kvs, r);
    QCOMPARE(type_of(t, c, "blk.0.attn_v.weight"), DType::Q5_K);
    QCOMPARE(type_of(t, c, "blk.1.attn_v.weight"), DType::Q5_K);
    QCOMPARE(type_of(t, c, "blk.2.attn_v.weight"), DType::Q4_K);
    QCOMPARE(type_of(t, c, "blk.1.ffn_down.weight"), DType::Q5_K);  // < 32/16
    QCOMPARE(type_of(t, c, "blk.2.ffn_down.weight"), DType::Q4_K);
    r.ftype = ftype_id("Q2_K");
    c = choose_gguf_types(t, kvs, r);
    QCOMPARE(type_of(t, c, "blk.5.attn_v.weight"), DType::Q4_K);  // n_gqa 8 >= 4
    QCOMPARE(type_of(t, c, "blk.5.ffn_down.weight"), DType::Q3_K);
    r.ftype = ftype_id("IQ2_XXS");
    r.has_imatrix = true;
    c = choose_gguf_types(t, kvs, r);
    QCOMPARE(type_of(t, c, "token_embd.weight"), DType::Q2_K);
    QCOMPARE(type_of(t, c, "output.weight"), DType::Q5_K);
    QCOMPARE(type_of(t, c, "blk.0.attn_v.weight"), DType::Q4_K);
    QCOMPARE(type_of(t, c, "blk.3.ffn_down.weight"), DType::Q2_K);  // i_ffn_down < 32/8
    QCOMPARE(type_of(t, c, "blk.4.ffn_down.weight"), DType::IQ2_XXS);
    // 70B (llama, 80 layers, GQA): attn_v Q4_K → Q5_K.
    std::vector<TensorDesc> big = {{"blk.1.attn_v.weight", {1024, 8192}, DType::F32}};
    QuantizeRequest q;
    q.ftype = ftype_id("Q4_K_S");
    q.tensor_types = {};
    auto cb = choose_gguf_types(big, llama_kvs(80, 64, 8), q);
    QCOMPARE(cb[0].type, DType::Q5_K);
    QCOMPARE(choose_gguf_types(big, llama_kvs(79, 64, 8), q)[0].type, DType::Q5_K);  // i_attention_wv 0 < 4
    q.ftype = ftype_id("Q3_K_S");
    QCOMPARE(choose_gguf_types(big, llama_kvs(80, 64, 8), q)[0].type, DType::Q5_K);
    QCOMPARE(choose_gguf_types(big, llama_kvs(80, 64, 64), q)[0].type, DType::Q3_K);
}

void TestGgufFtype::refusals() {
    const auto t = tiny_llama();
    QuantizeRequest r;
    std::string what;
    r.ftype = ftype_id("IQ2_XXS");
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, llama_kvs(), r); }, &what), std::optional(ErrorCode::Usage));
    QVERIFY2(what.find(std::string(kLlamaImatrixRefusal)) != std::string::npos, what.c_str());
    // IQ3_XXS is not refused as a file type, but its tensors need an imatrix.
    r.ftype = ftype_id("IQ3_XXS");
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, llama_kvs(), r); }, &what), std::optional(ErrorCode::Usage));
    QVERIFY2(what.find("requires an importance matrix") != std::string::npos && what.find("blk.0.") != std::string::npos,
             what.c_str());
    // With an imatrix, IQ1_S token embeddings cannot be made (no imatrix entry).
    r.ftype = ftype_id("IQ1_S");
    r.has_imatrix = true;
    r.pure = true;
    r.token_embedding_type = DType::IQ1_S;
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, llama_kvs(), r); }, &what), std::optional(ErrorCode::Unsupported));
    QVERIFY2(what.find("token_embd.weight") != std::string::npos, what.c_str());
    // Unknown / retired file types; missing metadata.
    QuantizeRequest bad;
    bad.ftype = 4;
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, llama_kvs(), bad); }), std::optional(ErrorCode::Usage));
    bad.ftype = 99;
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, llama_kvs(), bad); }), std::optional(ErrorCode::Usage));
    bad.ftype = ftype_id("Q4_K_M");
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, {}, bad); }), std::optional(ErrorCode::Usage));
    QCOMPARE(error_code_of([&] { choose_gguf_types(t, {{"general.architecture", GgufValue::string("llama")}}, bad); }),
             std::optional(ErrorCode::Usage));
}

QTEST_APPLESS_MAIN(TestGgufFtype)
#include "test_gguf_ftype.moc"
