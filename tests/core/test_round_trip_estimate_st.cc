// SPDX-License-Identifier: MIT OR Apache-2.0
// "What Lethe took" for the schemes `amn forget` writes to safetensors: the
// estimate encodes with forget's own encoder. Forget writes a model (BF16
// and F16 weights) and reports the loss of each weight; the read side opens
// its output. The estimate of a tensor holding the input values with the
// parameters read back must be forget's loss (to the last bit of
// max |y − x|; where the parameters name the weight dtype) and within 10 %
// of the error of the output decoded by the read side in f32 (forget's
// round trip is the loader's, in the weight dtype).
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/round_trip_estimate.hpp"

#include "forget_st_test_support.hpp"
#include "test_support.hpp"
#include "vec_recipe.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

using namespace forget_st_test;

namespace {

constexpr std::uint64_t kR = 256, kC = 256;
const char* const kWeight = "model.layers.0.self_attn.q_proj.weight";

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)) + 1e-30; }

// The weight's values as stored in `dtype` (BF16 or F16), and their bytes.
std::vector<float> stored_values(const std::string& dtype) {
    std::vector<float> v = gauss(kR * kC, 7);
    std::vector<std::uint16_t> h(v.size());
    if (dtype == "F16") {
        kernels::f32_to_f16(v.data(), h.data(), v.size());
        kernels::f16_to_f32(h.data(), v.data(), v.size());
    } else {
        kernels::f32_to_bf16(v.data(), h.data(), v.size());
        kernels::bf16_to_f32(h.data(), v.data(), v.size());
    }
    return v;
}

}  // namespace

class TestRoundTripEstimateSt : public QObject {
    Q_OBJECT
private slots:
    void estimateIsForgetsRoundTrip_data();
    void estimateIsForgetsRoundTrip();
    void nonFiniteFallsBackAndCancelStops();
};

void TestRoundTripEstimateSt::estimateIsForgetsRoundTrip_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("option");  // 0 none, 1 double quant + blocksize 128, 2 tensor, 3 block, 4 ue8m0, 5 channel, 6 group 32
    QTest::addColumn<QString>("dtype");
    const std::vector<std::pair<const char*, int>> schemes = {
        {"bnb-nf4", 0}, {"bnb-fp4", 1}, {"bnb-int8", 0}, {"fp8", 0}, {"fp8", 2}, {"fp8", 3},
        {"fp8-block-deepseek", 0}, {"fp8-block-deepseek", 4}, {"w4a16", 0}, {"w8a16-asym", 5}, {"w4a16-asym", 6},
        {"mlx", 0}, {"mlx:8", 0}, {"mlx:mxfp4", 0}, {"mlx:nvfp4", 0}, {"mlx:mxfp8", 0}};
    for (const char* dtype : {"BF16", "F16"})
        for (const auto& [name, option] : schemes)
            QTest::addRow("%s/%d/%s", name, option, dtype) << QString(name) << option << QString(dtype);
}

void TestRoundTripEstimateSt::estimateIsForgetsRoundTrip() {
    QFETCH(QString, name);
    QFETCH(int, option);
    QFETCH(QString, dtype);
    StSchemeOptions o;
    if (option == 1) o.blocksize = 128u, o.double_quant = true;
    if (option == 2) o.granularity = Fp8Granularity::Tensor;
    if (option == 3) o.granularity = Fp8Granularity::Block;
    if (option == 4) o.ue8m0 = true;
    if (option == 5) o.group_size = 0u;
    if (option == 6) o.group_size = 32u;
    const std::string dt = dtype.toStdString();

    QTemporaryDir tmp;
    const std::string model = tmp.path().toStdString() + "/model";
    fs::create_directories(model);
    auto tensors = kept_tensors();
    const std::vector<float> x = stored_values(dt);
    tensors[kWeight] = raw(dt, {kR, kC}, dt == "F16" ? f16_bytes(x) : bf16_bytes(x));
    test::write_safetensors_raw(model + "/model.safetensors", tensors);
    test::write_file(model + "/config.json", std::vector<std::uint8_t>(kConfig, kConfig + std::strlen(kConfig)));
    StForgetOptions opt;
    opt.scheme = parse_st_scheme(name.toStdString(), o);
    opt.output = tmp.path().toStdString() + "/out";
    opt.threads = 1;
    const Catalog in = open_model(model);
    const StForgetResult res = forget_to_safetensors(in, make_plan(in), opt);
    const ForgetTensor* f = nullptr;
    for (const auto& t : res.tensors)
        if (t.name == kWeight) f = &t;
    QVERIFY(f && !f->copied);

    // The weight read back: its parameters and forget's round trip y.
    const Catalog cat = open_model(opt.output);
    const Plan plan = make_plan(cat);
    const LogicalTensor* w = nullptr;
    for (const auto& t : plan.tensors)
        if (t.name == kWeight) w = &t;
    QVERIFY(w && w->params && w->recipe);
    std::vector<float> y(kR * kC);
    w->recipe->dequantize_rows(0, kR, y.data());
    double err = 0;  // Σ (y − x)² of the output as decoded
    for (std::size_t i = 0; i < x.size(); ++i) err += (double(y[i]) - double(x[i])) * (double(y[i]) - double(x[i]));

    // The estimate of the input values re-quantized to the scheme read back.
    LogicalTensor t = test::tensor_of(x, kR, kC);
    t.params = w->params;
    std::string why;
    QVERIFY2(round_trip_scheme_for(t, &why), why.c_str());
    std::uint64_t last = 0, total = 0;
    const auto e = measure_round_trip(t, [&](const Progress& p) { last = p.done, total = p.total; }, nullptr, 100 * kC);
    QVERIFY2(e.measured, e.unavailable.c_str());
    QVERIFY2(e.estimator.find("re-quantization with amn forget's encoder") == 0, e.estimator.c_str());
    QCOMPARE(e.count, kR * kC);
    // Parameters that do not record the weight dtype (LLM.int8, DeepSeek FP8,
    // MLX mxfp4/nvfp4/mxfp8) are estimated as forget --requantize writes them:
    // from BF16 values.
    const bool same_dtype = e.estimator.find(", " + dt + " weight") != std::string::npos;
    QVERIFY2(same_dtype || e.estimator.find(", BF16 weight") != std::string::npos, e.estimator.c_str());
    if (same_dtype) {
        QVERIFY2(close(e.rmse, f->rmse, 1e-9), qPrintable(QStringLiteral("rmse %1 vs forget's %2").arg(e.rmse).arg(f->rmse)));
        QCOMPARE(e.max_abs, f->max_abs);
        QVERIFY(close(e.sqnr_db, f->sqnr_db, 1e-9));
    }
    const double decoded = std::sqrt(err / double(x.size()));
    QVERIFY2(close(e.rmse, decoded, 0.1), qPrintable(QStringLiteral("rmse %1 vs decoded %2").arg(e.rmse).arg(decoded)));
    QVERIFY(err > 0);
    QVERIFY(total == kR || total == 2 * kR);
    QCOMPARE(last, total);
}

void TestRoundTripEstimateSt::nonFiniteFallsBackAndCancelStops() {
    // A NaN (forget refuses the weight): the RTN re-quantizer, over the finite values.
    std::vector<float> v = stored_values("BF16");
    v[5] = std::numeric_limits<float>::quiet_NaN();
    LogicalTensor t = test::tensor_of(v, kR, kC);
    t.params = st_weight_params(parse_st_scheme("bnb-int8", {}), kR, kC, DType::BF16);
    const auto e = measure_round_trip(t);
    QVERIFY2(e.measured, e.unavailable.c_str());
    QVERIFY2(e.estimator.find("RTN re-quantization, bitsandbytes LLM.int8") == 0, e.estimator.c_str());
    QCOMPARE(e.count, kR * kC - 1);
    // Forget's encoder stops at the first chunk when cancelled.
    v[5] = 0.0f;
    t = test::tensor_of(v, kR, kC);
    t.params = st_weight_params(parse_st_scheme("w4a16", {}), kR, kC, DType::BF16);
    std::atomic<bool> cancel{true};
    try {
        measure_round_trip(t, {}, &cancel);
        QFAIL("no Cancelled");
    } catch (const Error& x) {
        QCOMPARE(x.code(), ErrorCode::Cancelled);
    }
}

QTEST_GUILESS_MAIN(TestRoundTripEstimateSt)
#include "test_round_trip_estimate_st.moc"
