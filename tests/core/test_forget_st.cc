// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes (forget_st.hpp) and the safetensors sink
// (safetensors_writer.hpp):
//  - SafetensorsWriter: every dtype, 0-d/1-d, metadata, 8-byte aligned data,
//    writes from two threads, tail tensors, abort/incomplete/exists errors;
//    GgufWriter and SafetensorsWriter used through TensorSink;
//  - every scheme of shared/fixtures/quantize-ref-st/ (22): a model built
//    from its inputs as the Linear weights of one transformer block, plus
//    embedding, lm_head and norms; every stored tensor equals the library's
//    bytes, kept tensors are unchanged, config.json's quantization_config is
//    the manifest's, and `remember` reads the output back;
//  - own cases: sharded BF16 model with tied embeddings (+ index.json,
//    tokenizer copied), MoE router kept, F16 and F32 inputs, NaN in a weight,
//    bad requests (nothing written).
#include "anamnesis/catalog.hpp"
#include "anamnesis/convert.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/gguf_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/safetensors_writer.hpp"
#include "anamnesis/sink.hpp"
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
namespace fs = std::filesystem;
using test::RawTensor;

namespace {

template <class F>
std::optional<ErrorCode> error_of(F&& f, std::string* what = nullptr) {
    try {
        f();
    } catch (const Error& e) {
        if (what) *what = e.what();
        return e.code();
    }
    return std::nullopt;
}

std::string ref_dir() {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/quantize-ref-st";
}

#define REQUIRE_REF_ST(var)                                                                  \
    const std::string var = ref_dir();                                                        \
    if (var.empty() || !fs::exists(var + "/manifest.json")) {                                 \
        if (test::reference_required()) QFAIL("quantize-ref-st fixtures missing");            \
        QSKIP("quantize-ref-st fixtures missing");                                            \
    }

QJsonObject read_json(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<std::uint8_t> bf16_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 2);
    kernels::f32_to_bf16(v.data(), reinterpret_cast<std::uint16_t*>(b.data()), v.size());
    return b;
}
std::vector<std::uint8_t> f16_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 2);
    kernels::f32_to_f16(v.data(), reinterpret_cast<std::uint16_t*>(b.data()), v.size());
    return b;
}
std::vector<std::uint8_t> f32_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}
std::vector<float> gauss(std::size_t n, unsigned seed, float sigma = 0.02f) {
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

RawTensor raw(const std::string& dtype, std::vector<std::uint64_t> shape, std::vector<std::uint8_t> bytes) {
    return RawTensor{dtype, std::move(shape), std::move(bytes)};
}

// Which input goes to which Linear of block 0.
const std::vector<std::pair<std::string, std::string>> kPlacement = {
    {"gaussian", "model.layers.0.self_attn.q_proj.weight"},
    {"gaussian_bf16", "model.layers.0.self_attn.k_proj.weight"},
    {"attn_q", "model.layers.0.self_attn.v_proj.weight"},
    {"awkward", "model.layers.0.self_attn.o_proj.weight"},
    {"awkward_bf16", "model.layers.0.mlp.gate_proj.weight"},
    {"subnormal", "model.layers.0.mlp.up_proj.weight"},
    {"tail_bf16", "model.layers.0.mlp.down_proj.weight"},
};

// The kept tensors of the test model.
std::map<std::string, RawTensor> kept_tensors() {
    std::map<std::string, RawTensor> m;
    m["model.embed_tokens.weight"] = raw("BF16", {32, 256}, bf16_bytes(gauss(32 * 256, 11)));
    m["lm_head.weight"] = raw("BF16", {32, 256}, bf16_bytes(gauss(32 * 256, 12)));
    m["model.norm.weight"] = raw("BF16", {256}, bf16_bytes(gauss(256, 13, 1.0f)));
    m["model.layers.0.input_layernorm.weight"] = raw("F32", {256}, f32_bytes(gauss(256, 14, 1.0f)));
    m["model.layers.0.self_attn.q_proj.bias"] = raw("F32", {32}, f32_bytes(gauss(32, 15)));
    return m;
}

const char* kConfig = R"({
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 256,
  "model_type": "llama",
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16"
})";

// StScheme of a reference scheme id.
StScheme scheme_of(const std::string& id) {
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
        o.granularity = id.substr(7);
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

QJsonObject without_annotations(QJsonObject o) {
    for (const auto& k : o.keys())
        if (k.startsWith('_')) o.remove(k);
    return o;
}

// All tensors of a (possibly sharded) output folder, by name.
std::map<std::string, RawTensor> read_output(const std::string& dir) {
    std::map<std::string, RawTensor> all;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() != ".safetensors") continue;
        auto r = test::read_safetensors_raw(e.path().string());
        if (!r) return {};
        for (auto& [k, v] : r->tensors) all[k] = std::move(v);
    }
    return all;
}

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    if (!fs::exists(dir)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

// Remember the output (open_model → make_plan → convert_to_safetensors, F32)
// and return its tensors.
std::map<std::string, RawTensor> remember(const std::string& in, const std::string& out, std::string* err) {
    try {
        const Catalog cat = open_model(in);
        const Plan plan = make_plan(cat);
        for (const auto& lt : plan.tensors)
            if (!lt.error.empty()) {
                *err = lt.name + ": " + lt.error;
                return {};
            }
        ConvertOptions co;
        co.to = DType::F32;
        co.output = out;
        convert_to_safetensors(cat, plan, co);
        return read_output(out);
    } catch (const std::exception& e) {
        *err = e.what();
        return {};
    }
}

float f32_at(const RawTensor& t, std::size_t i) {
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

}  // namespace

class TestForgetSt : public QObject {
    Q_OBJECT

private slots:
    // ---- the sink -----------------------------------------------------------------
    void writerEveryDtype();
    void writerTailTensor();
    void writerErrors();
    void sinksThroughInterface();
    // ---- the reference ------------------------------------------------------------
    void referenceSchemes_data();
    void referenceSchemes();
    // ---- own cases ----------------------------------------------------------------
    void shardedTiedEmbeddings();
    void moeRouterAndOnlyKeep();
    void f16AndF32Inputs();
    void nanInWeight();
    void badRequests();
    void alreadyQuantized();
    void schemeParsing();
};

void TestForgetSt::writerEveryDtype() {
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + "/w.safetensors";
    struct T { std::string name, dtype; DType type; std::vector<std::uint64_t> shape; };
    const std::vector<T> ts = {
        {"a.u8", "U8", DType::U8, {7}},         {"b.i8", "I8", DType::I8, {3, 5}},
        {"c.i32", "I32", DType::I32, {4, 3}},   {"d.i64", "I64", DType::I64, {2}},
        {"e.f32", "F32", DType::F32, {9, 1}},   {"f.bf16", "BF16", DType::BF16, {33}},
        {"g.f16", "F16", DType::F16, {2, 3, 5}}, {"h.fp8", "F8_E4M3", DType::F8_E4M3, {300, 17}},
        {"i.scalar", "U8", DType::U8, {}},      {"j.empty", "F32", DType::F32, {0, 4}},
    };
    std::mt19937 rng(7);
    std::map<std::string, std::vector<std::uint8_t>> data;
    {
        SafetensorsWriter w(path);
        w.set_metadata({{"format", "pt"}, {"k", "v \"quoted\""}});
        for (const auto& t : ts) {
            const auto i = w.add_tensor(t.name, t.type, t.shape);
            std::vector<std::uint8_t> b(static_cast<std::size_t>(w.tensor_nbytes(i)));
            for (auto& x : b) x = static_cast<std::uint8_t>(rng());
            data[t.name] = b;
        }
        w.layout();
        QCOMPARE((8 + w.header_bytes()) % 8, std::uint64_t(0));
        // Shuffled 5-byte chunks from two threads.
        struct C { std::size_t t; std::uint64_t off, n; };
        std::vector<C> chunks;
        for (std::size_t i = 0; i < ts.size(); ++i)
            for (std::uint64_t off = 0; off < w.tensor_nbytes(i); off += 5)
                chunks.push_back({i, off, std::min<std::uint64_t>(5, w.tensor_nbytes(i) - off)});
        std::shuffle(chunks.begin(), chunks.end(), rng);
        auto run = [&](std::size_t from) {
            for (std::size_t k = from; k < chunks.size(); k += 2) {
                const auto& c = chunks[k];
                w.write(c.t, c.off, {data[ts[c.t].name].data() + c.off, static_cast<std::size_t>(c.n)});
            }
        };
        std::thread th(run, 1);
        run(0);
        th.join();
        // Natural alignment: larger elements first.
        QVERIFY(w.tensor_offset(3) < w.tensor_offset(4));  // I64 before F32
        QVERIFY(w.tensor_offset(4) < w.tensor_offset(5));  // F32 before BF16
        QVERIFY(w.tensor_offset(5) < w.tensor_offset(7));  // BF16 before F8
        w.commit();
        QCOMPARE(fs::file_size(path), w.file_size());
    }
    const auto r = test::read_safetensors_raw(path);
    QVERIFY(r);
    QCOMPARE(r->metadata.at("format"), std::string("pt"));
    QCOMPARE(r->metadata.at("k"), std::string("v \"quoted\""));
    for (const auto& t : ts) {
        const auto& got = r->tensors.at(t.name);
        QCOMPARE(got.dtype, t.dtype);
        QCOMPARE(got.shape, t.shape);
        QVERIFY(got.bytes == data[t.name]);
    }
    // The core parser agrees, and every offset is naturally aligned.
    const Catalog cat = open_model(path);
    QCOMPARE(cat.tensors.size(), ts.size());
    for (const auto& ti : cat.tensors) {
        const auto* info = dtype_info(ti.dtype);
        QVERIFY(info);
        QCOMPARE(ti.offset % std::max<std::uint32_t>(1, info->block_bytes), std::uint64_t(0));
    }
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{"w.safetensors"});
}

void TestForgetSt::writerTailTensor() {
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + "/t.safetensors";
    const std::string js = R"({"quant_type": "nf4", "blocksize": 64})";
    {
        SafetensorsWriter w(path);
        const auto a = w.add_tensor("x.weight", DType::U8, {4, 1});
        const auto s = w.add_tail_tensor("x.weight.quant_state.bitsandbytes__nf4", DType::U8, 1);
        const auto b = w.add_tensor("x.weight.absmax", DType::F32, {2});
        w.layout();
        QCOMPARE(error_of([&] { w.write(s, 0, {}); }), ErrorCode::Usage);
        QCOMPARE(error_of([&] { w.set_tail_tensor(a, {1}, {}); }), ErrorCode::Usage);
        const std::uint8_t four[4] = {1, 2, 3, 4};
        const float f[2] = {1.5f, -2.0f};
        w.write(a, 0, four);
        w.write(b, 0, {reinterpret_cast<const std::uint8_t*>(f), 8});
        QCOMPARE(error_of([&] { w.commit(); }), ErrorCode::Usage);  // tail not set
        QCOMPARE(error_of([&] { w.set_tail_tensor(s, {js.size() + 1}, {reinterpret_cast<const std::uint8_t*>(js.data()), js.size()}); }),
                 ErrorCode::SizeMismatch);
        w.set_tail_tensor(s, {js.size()}, {reinterpret_cast<const std::uint8_t*>(js.data()), js.size()});
        w.commit();
    }
    const auto r = test::read_safetensors_raw(path);
    QVERIFY(r);
    const auto& q = r->tensors.at("x.weight.quant_state.bitsandbytes__nf4");
    QCOMPARE(std::string(q.bytes.begin(), q.bytes.end()), js);
    QCOMPARE(q.shape, std::vector<std::uint64_t>{js.size()});
    QCOMPARE(r->tensors.at("x.weight").bytes, (std::vector<std::uint8_t>{1, 2, 3, 4}));
    const Catalog cat = open_model(path);
    QCOMPARE(cat.tensors.size(), std::size_t(3));
}

void TestForgetSt::writerErrors() {
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    const std::string path = dir + "/e.safetensors";
    {
        SafetensorsWriter w(path);
        QCOMPARE(error_of([&] { w.add_tensor("", DType::U8, {1}); }), ErrorCode::Usage);
        QCOMPARE(error_of([&] { w.add_tensor("__metadata__", DType::U8, {1}); }), ErrorCode::Usage);
        QCOMPARE(error_of([&] { w.add_tensor("q", DType::Q4_K, {256}); }), ErrorCode::Unsupported);
        QCOMPARE(error_of([&] { w.add_tensor("u", DType::Unknown, {1}); }), ErrorCode::UnknownDtype);
        QCOMPARE(error_of([&] { w.add_tensor("f4", DType::F4, {3}); }), ErrorCode::SizeMismatch);
        QCOMPARE(error_of([&] { w.set_metadata({{"a", "1"}, {"a", "2"}}); }), ErrorCode::Usage);
        w.add_tensor("a", DType::F32, {4});
        QCOMPARE(error_of([&] { w.add_tensor("a", DType::F32, {4}); }), ErrorCode::Usage);
        QCOMPARE(error_of([&] { w.write(0, 0, {}); }), ErrorCode::Usage);  // before layout
        w.layout();
        QCOMPARE(error_of([&] { w.layout(); }), ErrorCode::Usage);
        QCOMPARE(error_of([&] { w.add_tensor("b", DType::F32, {4}); }), ErrorCode::Usage);
        const std::uint8_t b[20] = {};
        QCOMPARE(error_of([&] { w.write(0, 0, b); }), ErrorCode::OutOfRange);
        QCOMPARE(error_of([&] { w.write(1, 0, {b, 4}); }), ErrorCode::OutOfRange);
        w.write(0, 0, {b, 8});
        QCOMPARE(error_of([&] { w.commit(); }), ErrorCode::Usage);  // 8 of 16 bytes
        QVERIFY(!fs::exists(path));
        w.abort();  // (the temporary file may be unnamed: O_TMPFILE)
        QCOMPARE(files_in(dir).size(), std::size_t(0));
        w.abort();
    }
    {
        SafetensorsWriter w(path);
        w.add_tensor("a", DType::F32, {1});
        w.layout();
        // destroyed without commit
    }
    QCOMPARE(files_in(dir).size(), std::size_t(0));
    test::write_file(path, {1, 2, 3});
    {
        SafetensorsWriter w(path);
        w.add_tensor("a", DType::F32, {1});
        QCOMPARE(error_of([&] { w.layout(); }), ErrorCode::OutputExists);
    }
    {
        SafetensorsWriter w(dir + "/missing/x.safetensors");
        w.add_tensor("a", DType::F32, {1});
        QCOMPARE(error_of([&] { w.layout(); }), ErrorCode::Io);
    }
    QCOMPARE(files_in(dir), std::vector<std::string>{"e.safetensors"});
}

void TestForgetSt::sinksThroughInterface() {
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    std::vector<std::unique_ptr<TensorSink>> sinks;
    sinks.push_back(std::make_unique<SafetensorsWriter>(dir + "/s.safetensors"));
    sinks.push_back(std::make_unique<GgufWriter>(dir + "/g.gguf"));
    const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8};
    for (auto& s : sinks) {
        const auto i = s->add_tensor("t.weight", DType::F32, {2, 4});
        QCOMPARE(s->tensor_count(), std::size_t(1));
        QCOMPARE(s->tensor_nbytes(i), std::uint64_t(32));
        s->layout();
        s->write(i, 16, {reinterpret_cast<const std::uint8_t*>(v.data()) + 16, 16});
        s->write(i, 0, {reinterpret_cast<const std::uint8_t*>(v.data()), 16});
        s->commit();
    }
    for (const auto* p : {"/s.safetensors", "/g.gguf"}) {
        const Catalog cat = open_model(dir + p);
        QCOMPARE(cat.tensors.size(), std::size_t(1));
        QVERIFY(std::memcmp(cat.data(cat.tensors[0]), v.data(), 32) == 0);
    }
}

// ---- the reference ----------------------------------------------------------------------

void TestForgetSt::referenceSchemes_data() {
    QTest::addColumn<QString>("id");
    const std::string dir = ref_dir();
    if (dir.empty() || !fs::exists(dir + "/manifest.json")) {
        QTest::newRow("missing") << QString();
        return;
    }
    const auto m = read_json(dir + "/manifest.json");
    for (const auto& k : m["schemes"].toObject().keys()) QTest::newRow(k.toUtf8().constData()) << k;
}

void TestForgetSt::referenceSchemes() {
    QFETCH(QString, id);
    REQUIRE_REF_ST(dir);
    const std::string sid = id.toStdString();
    const auto manifest = read_json(dir + "/manifest.json");
    const auto entry = manifest["schemes"].toObject()[id].toObject();
    QVERIFY(!entry.isEmpty());
    const auto inputs = test::read_safetensors_raw(dir + "/inputs.safetensors");
    const auto ref = test::read_safetensors_raw(dir + "/" + sid + ".safetensors");
    QVERIFY(inputs && ref);
    const auto skipped = entry["skipped"].toObject();

    // The model: block 0's Linear weights from the inputs (those the library
    // refuses for this scheme are kept with --keep), plus kept tensors.
    QTemporaryDir tmp;
    const std::string model = tmp.path().toStdString() + "/model";
    fs::create_directories(model);
    auto tensors = kept_tensors();
    StForgetOptions opt;
    opt.scheme = scheme_of(sid);
    std::vector<std::pair<std::string, std::string>> placed;
    for (const auto& [name, linear] : kPlacement) {
        tensors[linear] = inputs->tensors.at(name + ".input");
        if (skipped.contains(QString::fromStdString(name))) {
            opt.keep.push_back(linear);
        } else {
            placed.emplace_back(name, linear);
        }
    }
    test::write_safetensors_raw(model + "/model.safetensors", tensors);
    test::write_file(model + "/config.json", std::vector<std::uint8_t>(kConfig, kConfig + std::strlen(kConfig)));
    test::write_file(model + "/tokenizer.json", {'{', '}'});

    const std::string out = tmp.path().toStdString() + "/out";
    opt.output = out;
    opt.threads = 2;
    const Catalog cat = open_model(model);
    const Plan plan = make_plan(cat);
    StForgetResult res;
    try {
        res = forget_to_safetensors(cat, plan, opt);
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
    QCOMPARE(files_in(out), (std::vector<std::string>{"config.json", "model.safetensors", "tokenizer.json"}));
    const auto got = read_output(out);
    QVERIFY(!got.empty());

    // Every stored tensor of every placed input: the library's bytes, and nothing more.
    std::set<std::string> expected_names;
    for (const auto& [name, linear] : placed) {
        const std::string prefix = linear.substr(0, linear.size() - 6);  // "...q_proj."
        std::size_t n = 0;
        for (const auto& [rn, rt] : ref->tensors) {
            if (rn.rfind(name + ".", 0) != 0 || rn == name + ".dequant") continue;
            // "gaussian_bf16.x" must not match "gaussian."
            const std::string suffix = rn.substr(name.size() + 1);
            const std::string on = prefix + suffix;
            expected_names.insert(on);
            ++n;
            const auto it = got.find(on);
            if (it == got.end()) QFAIL(qPrintable(QString::fromStdString(on + " missing")));
            QCOMPARE(it->second.dtype, rt.dtype);
            QCOMPARE(it->second.shape, rt.shape);
            if (it->second.bytes != rt.bytes) {
                std::size_t diff = 0, first = SIZE_MAX;
                for (std::size_t i = 0; i < rt.bytes.size(); ++i)
                    if (it->second.bytes[i] != rt.bytes[i]) ++diff, first = std::min(first, i);
                QFAIL(qPrintable(QString::fromStdString(on + ": " + std::to_string(diff) + " bytes differ, first at " +
                                                        std::to_string(first))));
            }
        }
        QVERIFY2(n >= 2, name.c_str());
    }
    // Kept tensors unchanged; nothing else written.
    for (const auto& [n, t] : tensors) {
        const bool quantized = std::any_of(placed.begin(), placed.end(), [&](const auto& p) { return p.second == n; });
        if (quantized) continue;
        expected_names.insert(n);
        const auto it = got.find(n);
        QVERIFY2(it != got.end(), n.c_str());
        QCOMPARE(it->second.dtype, t.dtype);
        QCOMPARE(it->second.shape, t.shape);
        QVERIFY2(it->second.bytes == t.bytes, n.c_str());
    }
    std::set<std::string> got_names;
    for (const auto& [n, t] : got) got_names.insert(n);
    QCOMPARE(got_names, expected_names);

    // config.json: the input's keys + the library's quantization_config.
    const auto cfg = read_json(out + "/config.json");
    QCOMPARE(cfg["model_type"].toString(), QString("llama"));
    QCOMPARE(cfg["torch_dtype"].toString(), QString("bfloat16"));
    auto qc = cfg["quantization_config"].toObject();
    const auto want = without_annotations(entry["quantization_config"].toObject());
    if (want["quant_method"].toString() == "compressed-tensors") {
        const auto ignore = qc["ignore"].toArray();
        QVERIFY(ignore.contains(QString("lm_head")));
        QVERIFY(!ignore.contains(QString("model.embed_tokens")));
        QCOMPARE(ignore.size(), 1 + static_cast<int>(opt.keep.size()));
        qc.remove("ignore");
    }
    QCOMPARE(qc, want);
    QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(res.quantization_config)).object(),
             cfg["quantization_config"].toObject());

    // The report: one entry per logical tensor; quantized ones measured,
    // close to the reference's SQNR.
    QCOMPARE(res.tensors.size(), tensors.size());
    for (const auto& t : res.tensors) {
        const auto p = std::find_if(placed.begin(), placed.end(), [&](const auto& x) { return x.second == t.name; });
        if (p == placed.end()) {
            QVERIFY2(t.copied, t.name.c_str());
            continue;
        }
        QVERIFY2(!t.copied && t.reason.rfind("quantized", 0) == 0, t.name.c_str());
        const auto q = entry["tensors"].toObject()[QString::fromStdString(p->first)].toObject()["quality"].toObject();
        if (!q.isEmpty() && q["sqnr_db"].isDouble() && std::isfinite(t.sqnr_db))
            QVERIFY2(std::fabs(t.sqnr_db - q["sqnr_db"].toDouble()) < 0.05,
                     qPrintable(QString::fromStdString(t.name) + QString(": SQNR %1 vs %2").arg(t.sqnr_db).arg(q["sqnr_db"].toDouble())));
        QVERIFY(t.bits_per_weight() > 3.9 && t.bits_per_weight() < 16.5);
    }

    // Round trip: remember reads the output back.
    std::string err;
    const auto back = remember(out, tmp.path().toStdString() + "/back", &err);
    if (back.empty()) QFAIL(qPrintable(QString::fromStdString("remember failed: " + err)));
    for (const auto& [name, linear] : placed) {
        const auto it = back.find(linear);
        QVERIFY2(it != back.end(), linear.c_str());
        const auto& dq = ref->tensors.at(name + ".dequant");
        QCOMPARE(it->second.shape, dq.shape);
        // Within the reference dequant's own rounding: |Δ| ≤ 2^-7 |ref| (BF16
        // outputs) over finite values.
        std::size_t bad = 0;
        const std::size_t n = dq.bytes.size() / (dq.dtype == "F32" ? 4 : 2);
        for (std::size_t i = 0; i < n; ++i) {
            const float a = f32_at(it->second, i), b = f32_at(dq, i);
            if (!std::isfinite(b)) continue;
            if (!(std::fabs(a - b) <= std::fabs(b) * 0.0079f + 1e-30f)) ++bad;
        }
        QVERIFY2(bad == 0, qPrintable(QString::fromStdString(linear + ": " + std::to_string(bad) +
                                                             " values differ from the library's dequantization")));
    }
}

// ---- own cases ------------------------------------------------------------------------------

void TestForgetSt::shardedTiedEmbeddings() {
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

void TestForgetSt::moeRouterAndOnlyKeep() {
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
        std::map<std::string, std::string> r;
        for (const auto& t : plan_st_forget(cat, plan, opt)) r[t.name] = t.reason;
        return r;
    };
    auto r = plan_of();
    QCOMPARE(r["model.layers.0.mlp.gate.weight"], std::string("kept: router"));
    QCOMPARE(r["lm_head.weight"], std::string("kept: lm_head"));
    QCOMPARE(r["model.embed_tokens.weight"], std::string("kept: embedding"));
    QVERIFY(r["model.layers.0.mlp.experts.3.up_proj.weight"].rfind("quantized", 0) == 0);
    QVERIFY(r["model.layers.0.self_attn.q_proj.weight"].rfind("quantized", 0) == 0);
    opt.keep = {"experts\\.[0-1]\\."};
    r = plan_of();
    QCOMPARE(r["model.layers.0.mlp.experts.1.up_proj.weight"], std::string("kept: --keep"));
    QVERIFY(r["model.layers.0.mlp.experts.2.up_proj.weight"].rfind("quantized", 0) == 0);
    opt.keep.clear();
    opt.only = {"lm_head", "q_proj"};
    r = plan_of();
    QVERIFY(r["lm_head.weight"].rfind("quantized", 0) == 0);
    QCOMPARE(r["model.layers.0.mlp.experts.0.up_proj.weight"], std::string("kept: not matched by --only"));
    QCOMPARE(r["model.embed_tokens.weight"], std::string("kept: not matched by --only"));
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

void TestForgetSt::f16AndF32Inputs() {
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

void TestForgetSt::nanInWeight() {
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
            QCOMPARE(error_of([&] { forget_to_safetensors(cat, plan, opt); }, &what), ErrorCode::Unsupported);
            QVERIFY2(what.find("model.layers.3.self_attn.k_proj.weight") != std::string::npos, what.c_str());
            QVERIFY2(what.find("[3, 7]") != std::string::npos, what.c_str());
            QVERIFY(!fs::exists(tmp.path().toStdString() + "/out"));
        }
        fs::remove(model);
    }
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{});
}

void TestForgetSt::badRequests() {
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
        const auto got = error_of([&] { forget_to_safetensors(cat, plan, opt); }, &what);
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
        QCOMPARE(error_of([&] { forget_to_safetensors(cat, plan, o); }, &what), ErrorCode::OutputExists);
        QCOMPARE(test::read_file(dir + "/exists.safetensors"), std::vector<std::uint8_t>{1});
    }
    fs::remove(dir + "/exists.safetensors");
    // Channel works where the group does not.
    o.scheme = parse_st_scheme("w4a16", so([](StSchemeOptions& o) { o.group_size = 0u; }));
    o.keep.clear();
    o.output = dir + "/ok";
    QVERIFY(!error_of([&] { forget_to_safetensors(cat, plan, o); }));
    QVERIFY(fs::exists(dir + "/ok/config.json"));
}

void TestForgetSt::alreadyQuantized() {
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
    QCOMPARE(error_of([&] { forget_to_safetensors(q, qp, o); }, &what), ErrorCode::Unsupported);
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

void TestForgetSt::schemeParsing() {
    for (auto n : st_scheme_names()) QVERIFY(!error_of([&] { parse_st_scheme(n, {}); }));
    std::string what;
    QCOMPARE(error_of([&] { parse_st_scheme("nf5", {}); }, &what), ErrorCode::Usage);
    QVERIFY(what.find("bnb-nf4") != std::string::npos);
    QCOMPARE(error_of([] { parse_st_scheme("bnb-nf4", so([](StSchemeOptions& o) { o.blocksize = 100u; })); }), ErrorCode::Usage);
    QCOMPARE(error_of([] { parse_st_scheme("bnb-int8", so([](StSchemeOptions& o) { o.blocksize = 64u; })); }), ErrorCode::Usage);
    QCOMPARE(error_of([] { parse_st_scheme("fp8", so([](StSchemeOptions& o) { o.granularity = std::string("row"); })); }), ErrorCode::Usage);
    QCOMPARE(error_of([] { parse_st_scheme("w4a16", so([](StSchemeOptions& o) { o.ue8m0 = true; })); }), ErrorCode::Usage);
    QCOMPARE(error_of([] { parse_st_scheme("bnb-fp4", so([](StSchemeOptions& o) { o.group_size = 64u; })); }), ErrorCode::Usage);
    QCOMPARE(error_of([] { parse_st_scheme("w8a16", so([](StSchemeOptions& o) { o.group_size = 100u; })); }), ErrorCode::Usage);
    QCOMPARE(st_scheme_label(parse_st_scheme("fp8", {})), std::string("fp8 (FP8_DYNAMIC, channel)"));
    QCOMPARE(st_scheme_label(parse_st_scheme("bnb-nf4", so([](StSchemeOptions& o) { o.blocksize = 128u; o.double_quant = true; }))),
             std::string("bnb-nf4 (blocksize 128, double quant)"));
    const auto b = std::get<PackedIntTarget>(parse_st_scheme("w8a16-asym", so([](StSchemeOptions& o) { o.group_size = 0u; })));
    QCOMPARE(b.bits, 8u);
    QVERIFY(!b.symmetric);
    QCOMPARE(b.group_size, 0u);
}

QTEST_APPLESS_MAIN(TestForgetSt)
#include "test_forget_st.moc"
