// SPDX-License-Identifier: MIT OR Apache-2.0
// anamnesis/value_stats.hpp, lethe_layers.hpp, remember_size.hpp:
//   * compute_value_stats matches numpy (min, max, mean, std, zero/NaN/Inf
//     counts, numpy.histogram) on an F32 tensor with special values, in one
//     chunk and in many small chunks; cancel raises Cancelled;
//   * lethe_by_layer matches per-layer sums taken from the sample model's
//     header by the independent test reader;
//   * predicted_output_bytes equals the tensor bytes of the sample's
//     expected BF16 / F16 / F32 outputs (written by the reference script).
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/lethe_layers.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/remember_size.hpp"
#include "anamnesis/value_stats.hpp"

#include "test_support.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

using namespace amn;

namespace {

// A safetensors file with one F32 tensor "t" of shape [rows, cols].
void write_f32_safetensors(const std::string& path, const std::vector<float>& v, std::uint64_t rows,
                           std::uint64_t cols) {
    const std::string header = "{\"t\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(rows) + "," +
                               std::to_string(cols) + "],\"data_offsets\":[0," +
                               std::to_string(v.size() * 4) + "]}}";
    std::vector<std::uint8_t> bytes(8);
    const std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>(n >> (8 * i));
    bytes.insert(bytes.end(), header.begin(), header.end());
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * 4);
    test::write_file(path, bytes);
}

std::vector<float> sample_values() {
    std::vector<float> v(37 * 11);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * 3.0 + 0.25);
    v[0] = 0.0f;
    v[5] = -0.0f;
    v[9] = std::numeric_limits<float>::quiet_NaN();
    v[17] = std::numeric_limits<float>::infinity();
    v[18] = -std::numeric_limits<float>::infinity();
    v[40] = 0.0f;
    return v;
}

}  // namespace

class TestStats : public QObject {
    Q_OBJECT
private slots:
    void statsMatchNumpy_data() {
        QTest::addColumn<qulonglong>("chunk");
        QTest::newRow("one chunk") << qulonglong(1u << 20);
        QTest::newRow("many chunks") << qulonglong(23);  // 2 rows of 11 per chunk
    }
    void statsMatchNumpy() {
        QFETCH(qulonglong, chunk);
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.safetensors").toStdString();
        const auto v = sample_values();
        write_f32_safetensors(path, v, 37, 11);

        const Catalog cat = open_model(path);
        const Plan plan = make_plan(cat);
        QCOMPARE(plan.tensors.size(), std::size_t(1));
        std::uint64_t last_done = 0, last_total = 0;
        const ValueStats s = compute_value_stats(plan.tensors[0], 16,
            [&](const Progress& p) { QVERIFY(p.done >= last_done); last_done = p.done; last_total = p.total; },
            nullptr, chunk);
        QCOMPARE(last_done, last_total);

        // numpy reads the same file independently.
        const QString script = QStringLiteral(
            "import sys,json,struct,numpy as np\n"
            "b=open(sys.argv[1],'rb').read(); n=struct.unpack('<Q',b[:8])[0]\n"
            "a=np.frombuffer(b[8+n:],dtype='<f4').astype(np.float64)\n"
            "f=a[np.isfinite(a)]\n"
            "h,e=np.histogram(f,16)\n"
            "f32=a[np.isfinite(a)].astype(np.float32)\n"
            "u=f32.view(np.uint32).astype(np.uint64)\n"
            "b=(((u+0x7FFF+((u>>16)&1))>>16)<<16).astype(np.uint32).view(np.float32).astype(np.float64)\n"
            "hh=f32.astype(np.float16).astype(np.float64)\n"
            "x=f32.astype(np.float64)\n"
            "def ce(c):\n"
            "  ok=np.isfinite(c); e=c[ok]-x[ok]\n"
            "  return {'rmse':float(np.sqrt((e*e).mean())),'max':float(np.abs(e).max()),"
            "'sqnr':float(10*np.log10((x*x).sum()/(e*e).sum())),'over':int((~ok).sum())}\n"
            "print(json.dumps({'min':f.min(),'max':f.max(),'mean':f.mean(),'std':f.std(),"
            "'zeros':int((a==0).sum()),'nans':int(np.isnan(a).sum()),'infs':int(np.isinf(a).sum()),"
            "'hist':[int(x) for x in h],'lo':e[0],'hi':e[-1],'bf16':ce(b),'f16':ce(hh)}))\n");
        const auto r = test::run(QString::fromStdString(test::python()),
                                 {"-c", script, QString::fromStdString(path)});
        QCOMPARE(r.exit_code, 0);
        const QJsonObject ref = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(s.count, std::uint64_t(v.size()));
        QCOMPARE(s.zeros, std::uint64_t(ref["zeros"].toInt()));
        QCOMPARE(s.nans, std::uint64_t(ref["nans"].toInt()));
        QCOMPARE(s.infs, std::uint64_t(ref["infs"].toInt()));
        QCOMPARE(s.finite, s.count - s.nans - s.infs);
        QCOMPARE(s.min, ref["min"].toDouble());
        QCOMPARE(s.max, ref["max"].toDouble());
        QVERIFY(std::abs(s.mean - ref["mean"].toDouble()) < 1e-12);
        QVERIFY(std::abs(s.std - ref["std"].toDouble()) < 1e-12);
        QCOMPARE(s.hist_lo, ref["lo"].toDouble());
        QCOMPARE(s.hist_hi, ref["hi"].toDouble());
        const QJsonArray h = ref["hist"].toArray();
        QCOMPARE(s.histogram.size(), std::size_t(h.size()));
        for (int i = 0; i < h.size(); ++i) QCOMPARE(s.histogram[std::size_t(i)], std::uint64_t(h[i].toInt()));

        // Cast errors against numpy's BF16 (RNE by bits) and float16 casts.
        QCOMPARE(s.cast_errors.size(), std::size_t(2));
        const char* keys[] = {"bf16", "f16"};
        for (int k = 0; k < 2; ++k) {
            const QJsonObject c = ref[keys[k]].toObject();
            const auto& e = s.cast_errors[std::size_t(k)];
            QCOMPARE(e.to, k == 0 ? DType::BF16 : DType::F16);
            QVERIFY2(std::abs(e.rmse - c["rmse"].toDouble()) <= 1e-12 * c["rmse"].toDouble(), keys[k]);
            QCOMPARE(e.max_abs, c["max"].toDouble());
            QVERIFY2(std::abs(e.sqnr_db - c["sqnr"].toDouble()) < 1e-9, keys[k]);
            QCOMPARE(e.overflows, std::uint64_t(c["over"].toInt()));
        }
        QVERIFY(s.cast_errors[0].sqnr_db < s.cast_errors[1].sqnr_db);  // F16 keeps more mantissa here
    }

    void constantTensorUsesMiddleBin() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("c.safetensors").toStdString();
        write_f32_safetensors(path, std::vector<float>(12, 2.5f), 3, 4);
        const Catalog cat = open_model(path);
        const Plan plan = make_plan(cat);
        const ValueStats s = compute_value_stats(plan.tensors[0], 5);
        QCOMPARE(s.min, 2.5);
        QCOMPARE(s.std, 0.0);
        QCOMPARE(s.hist_lo, 2.0);  // numpy: range (min - 0.5, max + 0.5)
        QCOMPARE(s.hist_hi, 3.0);
        QCOMPARE(s.histogram, (std::vector<std::uint64_t>{0, 0, 12, 0, 0}));
        QVERIFY(std::isinf(s.cast_errors.at(0).sqnr_db));  // 2.5 is exact in BF16
        QCOMPARE(s.cast_errors.at(0).max_abs, 0.0);
    }

    void cancelThrows() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.safetensors").toStdString();
        write_f32_safetensors(path, sample_values(), 37, 11);
        const Catalog cat = open_model(path);
        const Plan plan = make_plan(cat);
        std::atomic<bool> cancel{false};
        bool thrown = false;
        try {
            compute_value_stats(plan.tensors[0], 8, [&](const Progress&) { cancel = true; }, &cancel, 11);
        } catch (const Error& e) {
            thrown = e.code() == ErrorCode::Cancelled;
        }
        QVERIFY(thrown);
        QVERIFY_THROWS_EXCEPTION(Error, compute_value_stats(plan.tensors[0], 0));
    }

    void layerOf() {
        QCOMPARE(layer_of("model.layers.12.mlp.up_proj.weight"), std::string("model.layers.12"));
        QCOMPARE(layer_of("blk.3.attn_q.weight"), std::string("blk.3"));
        QCOMPARE(layer_of("model.embed_tokens.weight"), std::string());
        QCOMPARE(layer_of("arr.0"), std::string());
        QCOMPARE(layer_of("7"), std::string());
    }

    void letheByLayerMatchesHeader() {
        const std::string model = test::source_dir() + "/fixtures/sample/tiny-llama-fp8";
        const auto raw = test::read_safetensors_raw(model + "/model.safetensors");
        QVERIFY(raw);
        const Catalog cat = open_model(model);
        const Plan plan = make_plan(cat);
        const auto layers = lethe_by_layer(plan);
        QCOMPARE(layers.size(), std::size_t(2));
        QCOMPARE(layers[0].layer, std::string("model.layers.0"));
        QCOMPARE(layers[1].layer, std::string());
        // Expected from the raw header: every stored tensor of a logical tensor
        // counts towards its layer; the k/v activation scales have no logical
        // tensor of their own and are not counted.
        std::map<std::string, std::uint64_t> stored;
        for (const auto& [name, t] : raw->tensors) {
            if (name.ends_with("k_scale") || name.ends_with("v_scale")) continue;
            stored[name.starts_with("model.layers.0.") ? "model.layers.0" : ""] += t.bytes.size();
        }
        QCOMPARE(layers[0].stored_bytes, stored["model.layers.0"]);
        QCOMPARE(layers[1].stored_bytes, stored[""]);
        QCOMPARE(layers[0].quantized_tensors, std::size_t(7));
        QCOMPARE(layers[0].bf16_bytes, 2 * layers[0].parameters);
        QVERIFY(layers[0].bits_per_weight() > 8.0 && layers[0].bits_per_weight() < 8.1);
        QCOMPARE(layers[1].bits_per_weight(), 16.0);
    }

    void predictedOutputBytes_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bf16") << int(DType::BF16) << "tiny-llama-fp8-bf16.safetensors";
        QTest::newRow("f16") << int(DType::F16) << "tiny-llama-fp8-f16.safetensors";
        QTest::newRow("f32") << int(DType::F32) << "tiny-llama-fp8-f32.safetensors";
    }
    void predictedOutputBytes() {
        QFETCH(int, dtype);
        QFETCH(QString, expected);
        const std::string dir = test::source_dir() + "/fixtures/sample/";
        const auto raw = test::read_safetensors_raw(dir + "expected/" + expected.toStdString());
        QVERIFY(raw);
        std::uint64_t bytes = 0;
        for (const auto& [name, t] : raw->tensors) bytes += t.bytes.size();
        const Catalog cat = open_model(dir + "tiny-llama-fp8");
        const Plan plan = make_plan(cat);
        QCOMPARE(predicted_output_bytes(cat, plan, static_cast<DType>(dtype)), bytes);
    }

    // What remember writes, written and summed: the default (dequantized → BF16), and an ONNX DOUBLE
    // initializer that stays F64 under --to bf16.
    void predictedOutputBytesWritten_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("to");  // −1: none
        QTest::newRow("fp8, default") << QString::fromStdString(test::source_dir() + "/fixtures/sample/tiny-llama-fp8") << -1;
        const auto shared = test::shared_fixtures_dir();
        QTest::newRow("ONNX F64 kept, --to bf16")
            << (shared.empty() ? QString() : QString::fromStdString(shared + "/onnx/onnx-f32-storage/model.onnx")) << int(DType::BF16);
    }
    void predictedOutputBytesWritten() {
        QFETCH(QString, model);
        QFETCH(int, to);
        if (model.isEmpty() || !QFileInfo::exists(model)) {
            if (test::reference_required()) QFAIL("fixture missing");
            QSKIP("fixture missing");
        }
        const Catalog cat = open_model(model.toStdString());
        const Plan plan = make_plan(cat);
        QTemporaryDir tmp;
        RememberOptions o;
        if (to >= 0) o.to = static_cast<DType>(to);
        o.output = tmp.filePath("out.safetensors").toStdString();
        remember_to_safetensors(cat, plan, o);
        const auto raw = test::read_safetensors_raw(o.output);
        QVERIFY(raw);
        std::uint64_t bytes = 0;
        for (const auto& [name, t] : raw->tensors) bytes += t.bytes.size();
        QCOMPARE(predicted_output_bytes(cat, plan, o.to), bytes);
    }
};

QTEST_APPLESS_MAIN(TestStats)
#include "test_stats.moc"
