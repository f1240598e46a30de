// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes (forget_st.hpp) and the safetensors sink
// (safetensors_writer.hpp), part 1 — the sink and the reference bytes:
//  - SafetensorsWriter: every dtype, 0-d/1-d, metadata, 8-byte aligned data,
//    writes from two threads, tail tensors, abort/incomplete/exists errors;
//    GgufWriter and SafetensorsWriter used through TensorSink;
//  - every scheme of shared/fixtures/quantize-ref-st/ (22): a model built
//    from its inputs as the Linear weights of one transformer block, plus
//    embedding, lm_head and norms; every stored tensor equals the library's
//    bytes, kept tensors are unchanged, config.json's quantization_config is
//    the manifest's, and `remember` reads the output back.
// Own cases and bad requests: test_forget_st_cases.cc.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_st.hpp"
#include "sink/gguf_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "sink/safetensors_writer.hpp"
#include "exec/tensor_sink.hpp"
#include "forget_st_test_support.hpp"
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
        w.allocate();
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
        w.allocate();
        QCOMPARE(error_code_of([&] { w.write(s, 0, {}); }), ErrorCode::Usage);
        QCOMPARE(error_code_of([&] { w.set_tail_tensor(a, {1}, {}); }), ErrorCode::Usage);
        const std::uint8_t four[4] = {1, 2, 3, 4};
        const float f[2] = {1.5f, -2.0f};
        w.write(a, 0, four);
        w.write(b, 0, {reinterpret_cast<const std::uint8_t*>(f), 8});
        QCOMPARE(error_code_of([&] { w.commit(); }), ErrorCode::Usage);  // tail not set
        QCOMPARE(error_code_of([&] { w.set_tail_tensor(s, {js.size() + 1}, {reinterpret_cast<const std::uint8_t*>(js.data()), js.size()}); }),
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
        QCOMPARE(error_code_of([&] { w.add_tensor("", DType::U8, {1}); }), ErrorCode::Usage);
        QCOMPARE(error_code_of([&] { w.add_tensor("__metadata__", DType::U8, {1}); }), ErrorCode::Usage);
        QCOMPARE(error_code_of([&] { w.add_tensor("q", DType::Q4_K, {256}); }), ErrorCode::Unsupported);
        QCOMPARE(error_code_of([&] { w.add_tensor("u", DType::Unknown, {1}); }), ErrorCode::UnknownDtype);
        QCOMPARE(error_code_of([&] { w.add_tensor("f4", DType::F4, {3}); }), ErrorCode::SizeMismatch);
        QCOMPARE(error_code_of([&] { w.set_metadata({{"a", "1"}, {"a", "2"}}); }), ErrorCode::Usage);
        w.add_tensor("a", DType::F32, {4});
        QCOMPARE(error_code_of([&] { w.add_tensor("a", DType::F32, {4}); }), ErrorCode::Usage);
        QCOMPARE(error_code_of([&] { w.write(0, 0, {}); }), ErrorCode::Usage);  // before layout
        w.allocate();
        QCOMPARE(error_code_of([&] { w.allocate(); }), ErrorCode::Usage);
        QCOMPARE(error_code_of([&] { w.add_tensor("b", DType::F32, {4}); }), ErrorCode::Usage);
        const std::uint8_t b[20] = {};
        QCOMPARE(error_code_of([&] { w.write(0, 0, b); }), ErrorCode::OutOfRange);
        QCOMPARE(error_code_of([&] { w.write(1, 0, {b, 4}); }), ErrorCode::OutOfRange);
        w.write(0, 0, {b, 8});
        QCOMPARE(error_code_of([&] { w.commit(); }), ErrorCode::Usage);  // 8 of 16 bytes
        QVERIFY(!fs::exists(path));
        w.abort();  // (the temporary file may be unnamed: O_TMPFILE)
        QCOMPARE(files_in(dir).size(), std::size_t(0));
        w.abort();
    }
    {
        SafetensorsWriter w(path);
        w.add_tensor("a", DType::F32, {1});
        w.allocate();
        // destroyed without commit
    }
    QCOMPARE(files_in(dir).size(), std::size_t(0));
    test::write_file(path, {1, 2, 3});
    {
        SafetensorsWriter w(path);
        w.add_tensor("a", DType::F32, {1});
        QCOMPARE(error_code_of([&] { w.allocate(); }), ErrorCode::OutputExists);
    }
    {
        SafetensorsWriter w(dir + "/missing/x.safetensors");
        w.add_tensor("a", DType::F32, {1});
        QCOMPARE(error_code_of([&] { w.allocate(); }), ErrorCode::Io);
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
        s->allocate();
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
    QTest::addColumn<qulonglong>("chunk");  // StForgetOptions::chunk_bytes (0 = default)
    const std::string dir = ref_dir();
    if (dir.empty() || !fs::exists(dir + "/manifest.json")) {
        QTest::newRow("missing") << QString() << qulonglong(0);
        return;
    }
    const auto m = read_json(dir + "/manifest.json");
    // Each scheme with the default chunks, and streamed in the smallest row
    // chunks its quantizer allows (many chunks per weight on two threads).
    for (const auto& k : m["schemes"].toObject().keys()) {
        QTest::newRow(k.toUtf8().constData()) << k << qulonglong(0);
        QTest::newRow((k + " streamed").toUtf8().constData()) << k << qulonglong(1);
    }
}

void TestForgetSt::referenceSchemes() {
    QFETCH(QString, id);
    QFETCH(qulonglong, chunk);
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
    if (chunk) opt.chunk_bytes = chunk;
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
    for (const auto& entry : tensors) {
        // no structured binding: clang-14 (the sanitizer build) cannot capture one in a lambda
        const auto& n = entry.first;
        const auto& t = entry.second;
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
        QVERIFY2(!t.copied && t.st_rule == StRule::Quantized, t.name.c_str());
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

QTEST_APPLESS_MAIN(TestForgetSt)
#include "test_forget_st.moc"
