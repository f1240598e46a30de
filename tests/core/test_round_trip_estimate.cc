// SPDX-License-Identifier: MIT OR Apache-2.0
// anamnesis/round_trip_estimate.hpp:
//   * fp8_round equals a brute-force nearest search (ties to the even code)
//     over all codes decoded by the FP8 kernel, for E4M3 and E5M2;
//   * values already on the FP8 grid (every block holding ±max) → error 0;
//   * small hand-computed cases for bnb NF4, LLM.int8, GPTQ and AWQ RTN;
//   * GGUF Q8_0 / Q4_0: the error equals the one between ggml's own
//     quantize→dequantize (shared quantize-ref fixture) and its input;
//   * every reference case per family (compressed-tensors integer and
//     ModelOpt FP8 included) yields SQNR > 0 (+inf when RTN is idempotent on
//     the stored data); AWQ is measured with its group size; GGUF Q4_K_M
//     (K-quants through ggml's encoders, test_round_trip_estimate_gguf.cc) too; FP4
//     (NVFP4, MXFP4) reports "not measurable yet"; chunking
//     does not change results; cancel raises Cancelled;
//   * the estimator is chosen from LogicalTensor::params alone (a recipe
//     whose text says nothing about the scheme); every quantized reference
//     tensor carries params whose scheme_id()/describe() are its recipe's,
//     and companions carry their CompanionRole; the ids and words of the
//     parameter structs of every producer.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/round_trip_estimate.hpp"

#include "test_support.hpp"
#include "vec_recipe.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <variant>

using namespace amn;

namespace {

using test::tensor_of;

// Error figures of y against x, straight from the definition.
struct Expect { double rmse = 0, max_abs = 0, sqnr = 0; };
Expect expect_of(const std::vector<float>& x, const std::vector<float>& y) {
    double sig = 0, err = 0, mx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double e = double(y[i]) - double(x[i]);
        sig += double(x[i]) * double(x[i]);
        err += e * e;
        mx = std::max(mx, std::abs(e));
    }
    Expect r;
    r.rmse = std::sqrt(err / double(x.size()));
    r.max_abs = mx;
    r.sqnr = err == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(sig / err);
    return r;
}

// The parameters of an estimator round_trip_scheme_for chose (bad_variant_access: another scheme).
template <class P>
const P& params_of(const std::optional<RoundTripScheme>& s) { return std::get<P>(s.value().params); }

bool close(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)) + 1e-30; }

// Brute force: the FP8 code nearest to x (ties: even code), as its value.
float brute_fp8(DType fmt, float x, float maxf) {
    if (std::abs(x) >= maxf) return std::copysign(maxf, x);
    float best = 0;
    double bd = std::numeric_limits<double>::infinity();
    int bc = -1;
    for (int c = 0; c < 256; ++c) {
        const float v = kernels::scalar::fp8_value(fmt, static_cast<std::uint8_t>(c));
        if (!std::isfinite(v) || std::abs(v) > maxf) continue;
        const double d = std::abs(double(v) - double(x));
        if (d < bd || (d == bd && (c & 1) == 0 && (bc & 1) == 1)) {
            bd = d;
            best = v;
            bc = c;
        }
    }
    return best == 0 ? std::copysign(0.0f, x) : best;
}

}  // namespace

class TestRoundTripEstimate : public QObject {
    Q_OBJECT
private slots:
    void fp8RoundMatchesBruteForce();
    void fp8OnGridIsExact();
    void fp8HandCase();
    void bnbNf4HandCase();
    void bnbInt8HandCase();
    void gptqAndAwqHandCases();
    void ggufMatchesGgmlQuantizer();
    void referenceCasesPerFamily();
    void chunkingAndCancel();
    void typedParamsDriveTheEstimate();
    void typedParamsOfReferenceCases();
};

void TestRoundTripEstimate::fp8RoundMatchesBruteForce() {
    for (auto [fmt, maxf] : {std::pair{DType::F8_E4M3, 448.0f}, std::pair{DType::F8_E5M2, 57344.0f}}) {
        std::vector<float> xs;
        for (int c = 0; c < 256; ++c) {  // codes, midpoints between neighbours (exact ties)
            const float v = kernels::scalar::fp8_value(fmt, static_cast<std::uint8_t>(c));
            if (std::isfinite(v)) xs.push_back(v);
        }
        std::sort(xs.begin(), xs.end());
        const std::size_t n = xs.size();
        for (std::size_t i = 0; i + 1 < n; ++i) xs.push_back((xs[i] + xs[i + 1]) / 2);
        for (int i = 0; i < 4000; ++i) xs.push_back(float(std::sin(i * 0.731) * std::pow(2.0, (i % 40) - 20)));
        xs.push_back(1e9f);
        xs.push_back(-1e9f);
        for (float x : xs) {
            const float got = fp8_round(fmt, x), want = brute_fp8(fmt, x, maxf);
            if (got != want) QFAIL(qPrintable(QStringLiteral("fp8_round(%1) = %2, nearest %3").arg(x, 0, 'g', 9).arg(got, 0, 'g', 9).arg(want, 0, 'g', 9)));
        }
    }
}

void TestRoundTripEstimate::fp8OnGridIsExact() {
    // 8×8 tensor, 4×4 blocks, each block holding ±448 × s_b plus grid values.
    const std::uint64_t R = 8, C = 8;
    std::vector<float> v(R * C);
    for (std::uint64_t r = 0; r < R; ++r)
        for (std::uint64_t c = 0; c < C; ++c) {
            const float s = 0.01f * float(1 + (r / 4) * 2 + c / 4);
            const float code = kernels::scalar::fp8_value(DType::F8_E4M3, static_cast<std::uint8_t>((r * 29 + c * 7) % 126));
            v[r * C + c] = ((r % 4 == 0 && c % 4 == 0) ? 448.0f : code) * s;
        }
    Fp8Params f;
    f.granularity = Fp8Granularity::Block;
    f.block_rows = f.block_cols = 4;
    const auto e = measure_round_trip(tensor_of(v, R, C), RoundTripScheme{f});
    QVERIFY(e.measured);
    QCOMPARE(e.count, R * C);
    QCOMPARE(e.rmse, 0.0);
    QCOMPARE(e.max_abs, 0.0);
    QVERIFY(std::isinf(e.sqnr_db) && e.sqnr_db > 0);
    QVERIFY(QString::fromStdString(e.estimator).contains(QStringLiteral("FP8 E4M3, 4×4 blocks, scale = absmax/448")));
}

void TestRoundTripEstimate::fp8HandCase() {
    // Per-channel: row scale = absmax/448, nearest code by brute force.
    const std::vector<float> v{1.0f, 0.3f, -0.77f, 0.001f, 5.0f, -2.2f, 0.0f, 3.3f};
    std::vector<float> y(v.size());
    for (int r = 0; r < 2; ++r) {
        float a = 0;
        for (int c = 0; c < 4; ++c) a = std::max(a, std::abs(v[r * 4 + c]));
        const float sc = a / 448.0f;
        for (int c = 0; c < 4; ++c) y[r * 4 + c] = brute_fp8(DType::F8_E4M3, v[r * 4 + c] / sc, 448.0f) * sc;
    }
    Fp8Params f;
    f.granularity = Fp8Granularity::Channel;
    const auto e = measure_round_trip(tensor_of(v, 2, 4), RoundTripScheme{f});
    const auto x = expect_of(v, y);
    QVERIFY(x.rmse > 0);
    QVERIFY(close(e.rmse, x.rmse));
    QCOMPARE(e.max_abs, x.max_abs);
    QVERIFY(close(e.sqnr_db, x.sqnr));
}

void TestRoundTripEstimate::bnbNf4HandCase() {
    // Blocks of 4 over the flattened 2×6 tensor (blocks cross rows).
    const std::vector<float> v{1.0f, -1.0f, 0.5f, 0.0f, 0.2f, -0.1f, 2.0f, 0.3f, 0.0f, 0.0f, 0.0f, 0.0f};
    // NF4 codes by hand: block 0 (absmax 1): 0.5 → 0.44070983; block 1 (absmax 2):
    // 0.1 → 0.07958030, −0.05 → −0.09105004 (|0.041| < |0.05|), 0.15 → 0.16093020;
    // block 2 all zero.
    std::vector<float> y{1.0f, -1.0f, 0.44070982933044434f, 0.0f,
                         0.07958029955625534f * 2.0f, -0.09105003625154495f * 2.0f, 2.0f, 0.16093020141124725f * 2.0f,
                         0.0f, 0.0f, 0.0f, 0.0f};
    Bnb4Params b;
    b.blocksize = 4;
    const auto e = measure_round_trip(tensor_of(v, 2, 6), RoundTripScheme{b});
    const auto x = expect_of(v, y);
    QVERIFY(close(e.rmse, x.rmse, 1e-6));
    QVERIFY(close(e.max_abs, x.max_abs, 1e-6));
}

void TestRoundTripEstimate::bnbInt8HandCase() {
    // Row absmax 127 → scale 1: 63.5 → 64, 0.5 → 1 (half away from zero), −2.5 → −3.
    // Second row already on its grid (absmax 127): exact.
    const std::vector<float> v{127.0f, 63.5f, 0.5f, -2.5f, -127.0f, 2.0f, 1.0f, 0.0f};
    std::vector<float> y{127.0f, 64.0f, 1.0f, -3.0f, -127.0f, 2.0f, 1.0f, 0.0f};
    const auto e = measure_round_trip(tensor_of(v, 2, 4), RoundTripScheme{Int8Params{}});
    const auto x = expect_of(v, y);
    QVERIFY(close(e.rmse, x.rmse, 1e-5));
    QVERIFY(close(e.max_abs, x.max_abs, 1e-5));
    QVERIFY(e.sqnr_db > 0 && std::isfinite(e.sqnr_db));
}

void TestRoundTripEstimate::gptqAndAwqHandCases() {
    const std::vector<float> v{0.2f, 0.5f, 0.8f, 1.1f};
    AffineParams a;
    a.bits = 2;
    a.group_size = 4;
    // GPTQ: range [0, 1.1], scale 1.1/3, zero 0 → q = 1, 1, 2, 3.
    a.packing = AffinePacking::Gptq;
    QVERIFY(round_trip_includes_zero(a));
    {
        const float sc = 1.1f / 3.0f;
        const auto e = measure_round_trip(tensor_of(v, 1, 4), RoundTripScheme{a});
        const auto x = expect_of(v, {sc, sc, 2 * sc, 3 * sc});
        QVERIFY(close(e.rmse, x.rmse, 1e-5));
        QVERIFY(close(e.max_abs, x.max_abs, 1e-5));
    }
    // AWQ: range [0.2, 1.1], scale 0.3, zero = clamp(−round(0.667), 0, 3) = 0 → q = 1, 2, 3, 3.
    a.packing = AffinePacking::AwqGemm;
    QVERIFY(!round_trip_includes_zero(a));
    {
        const auto e = measure_round_trip(tensor_of(v, 1, 4), RoundTripScheme{a});
        const auto x = expect_of(v, {0.3f, 0.6f, 0.9f, 0.9f});
        QVERIFY(close(e.rmse, x.rmse, 1e-5));
        QVERIFY(close(e.max_abs, x.max_abs, 1e-5));
    }
    // Two groups along the row: each group's own range (second group exact on its grid).
    a.packing = AffinePacking::Gptq;
    {
        const std::vector<float> w{0.2f, 0.5f, 0.8f, 1.1f, 0.0f, 1.0f, 2.0f, 3.0f};
        const float sc = 1.1f / 3.0f;
        const auto e = measure_round_trip(tensor_of(w, 1, 8), RoundTripScheme{a});
        const auto x = expect_of(w, {sc, sc, 2 * sc, 3 * sc, 0.0f, 1.0f, 2.0f, 3.0f});
        QVERIFY(close(e.rmse, x.rmse, 1e-5));
    }
}

void TestRoundTripEstimate::ggufMatchesGgmlQuantizer() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string dir = test::shared_fixtures_dir() + "/quantize-ref";
    for (auto [type, dt] : {std::pair{"Q8_0", DType::Q8_0}, std::pair{"Q4_0", DType::Q4_0}}) {
        const auto f = test::read_safetensors_raw(dir + "/quantize-" + type + ".safetensors");
        QVERIFY(f);
        int cases = 0;
        for (const std::string name : {"gaussian", "blk.1.attn_q.weight", "blk.1.attn_k.weight", "awkward"}) {
            const auto& in = f->tensors.at(name + ".input");
            const auto& dq = f->tensors.at(name + ".dequant");
            const std::uint64_t R = in.shape[0], C = in.shape[1];
            std::vector<float> x, y;
            std::uint64_t rows = 0;
            for (std::uint64_t r = 0; r < R; ++r) {  // keep rows where ggml's output is finite
                std::vector<float> xr(C), yr(C);
                std::memcpy(xr.data(), in.bytes.data() + r * C * 4, C * 4);
                std::memcpy(yr.data(), dq.bytes.data() + r * C * 4, C * 4);
                bool ok = true;
                for (std::uint64_t c = 0; c < C; ++c) ok = ok && std::isfinite(xr[c]) && std::isfinite(yr[c]);
                if (!ok) continue;
                x.insert(x.end(), xr.begin(), xr.end());
                y.insert(y.end(), yr.begin(), yr.end());
                ++rows;
            }
            QVERIFY(rows > 0);
            const auto e = measure_round_trip(tensor_of(x, rows, C), RoundTripScheme{GgmlParams{dt}});
            const auto want = expect_of(x, y);
            QVERIFY2(close(e.rmse, want.rmse, 1e-12), qPrintable(QStringLiteral("%1 %2: rmse %3 vs ggml %4").arg(type, QString::fromStdString(name)).arg(e.rmse).arg(want.rmse)));
            QCOMPARE(e.max_abs, want.max_abs);
            ++cases;
        }
        QCOMPARE(cases, 4);
    }
}

void TestRoundTripEstimate::referenceCasesPerFamily() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::vector<std::pair<std::string, std::string>> cases{
        {"fp8/ministral_per_tensor", "fp8-tensor"}, {"fp8/llama_dynamic_per_channel", "fp8-channel"},
        {"fp8/exaone_fine_grained", "fp8-block"},  {"bnb/llama_1b_nf4", "bnb-nf4"},
        {"bnb/llama_1b_fp4", "bnb-fp4"},           {"bnb/llama_1b_nf4_double_quant", "bnb-nf4"},
        {"bnb/llama_1b_int8", "bnb-int8"},         {"gptq/falcon3_1b_int4", "gptq-"},
        {"gptq/llama_3_2_1b_gptqmodel_int8", "gptq-"}, {"awq/llama_3_2_1b_awq", "awq-"},
        {"gguf/smollm2_q8_0", "gguf-Q8_0"},        {"gguf/smollm2_q4_0", "gguf-Q4_0"},
        {"gguf/smollm2_q4_k", "gguf-Q"},
        {"compressed_tensors/w4a16_group128", "ct-pack-int4-g128"}, {"compressed_tensors/w4a16_asym_group32", "ct-pack-"},
        {"compressed_tensors/w8a8_int_quantized", "ct-int-"}, {"nvfp4_modelopt/fp8_down_proj", "modelopt-fp8"}};
    for (const auto& [c, prefix] : cases) {
        const std::string in = ref + "/" + c + "/input";
        const bool gguf = c.rfind("gguf/", 0) == 0;
        const auto cat = open_model(gguf ? in + "/model.gguf" : in);
        const auto plan = make_plan(cat);
        int measured = 0;
        for (const auto& t : plan.tensors) {
            if (!t.quantized || !t.recipe) continue;
            QVERIFY2(t.recipe->scheme_id().rfind(prefix, 0) == 0, qPrintable(QString::fromStdString(c + ": " + t.recipe->scheme_id())));
            const auto e = measure_round_trip(t);
            QVERIFY2(e.measured, qPrintable(QString::fromStdString(c + ": " + e.unavailable)));
            QVERIFY(e.count > 0);
            // RTN with absmax scales is idempotent on data that an RTN absmax
            // quantizer wrote (FP8, NF4 …): +inf (exact) is then the right answer.
            QVERIFY2(e.sqnr_db > 0, qPrintable(QString::fromStdString(c)));
            if (std::isfinite(e.sqnr_db)) QVERIFY(e.rmse > 0 && e.max_abs >= e.rmse);
            QVERIFY(!e.estimator.empty());
            if (prefix == "fp8-block") QVERIFY(QString::fromStdString(e.estimator).contains(QStringLiteral("128×128 blocks, scale = absmax/448")));
            // AWQ is measured with its own groups (group_size 128), not one group per row.
            if (prefix == "awq-") QVERIFY2(QString::fromStdString(e.estimator).contains(QStringLiteral("4-bit, group 128 along the input dimension, asymmetric min/max (AWQ)")), e.estimator.c_str());
            if (prefix == "ct-pack-int4-g128") QVERIFY2(QString::fromStdString(e.estimator).contains(QStringLiteral("group 128")), e.estimator.c_str());
            ++measured;
        }
        QVERIFY2(measured > 0, c.c_str());
    }
    // FP4 (NVFP4, MXFP4): not measurable yet, no guess.
    for (const std::string c : {"compressed_tensors/nvfp4_w4a4/input",
                                "mxfp4/gpt_oss_2experts/input", "nvfp4_modelopt/nvfp4_o_proj/input"}) {
        const auto cat = open_model(ref + "/" + c);
        const auto plan = make_plan(cat);
        bool seen = false;
        for (const auto& t : plan.tensors) {
            if (!t.quantized || !t.recipe) continue;
            const auto e = measure_round_trip(t);
            QVERIFY(!e.measured);
            QVERIFY2(QString::fromStdString(e.unavailable).contains(QStringLiteral("not measurable yet")), e.unavailable.c_str());
            seen = true;
        }
        QVERIFY2(seen, c.c_str());
    }
}

void TestRoundTripEstimate::chunkingAndCancel() {
    std::vector<float> v(64 * 96);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(std::sin(0.37 * double(i)) * 3.0);
    v[5] = std::numeric_limits<float>::quiet_NaN();
    const auto t = tensor_of(v, 64, 96);
    Fp8Params f;
    f.granularity = Fp8Granularity::Block;
    f.block_rows = 16;
    f.block_cols = 32;
    const RoundTripScheme s{f};
    std::uint64_t last = 0, total = 0;
    const auto a = measure_round_trip(t, s, {}, nullptr, 1u << 20);
    const auto b = measure_round_trip(t, s, [&](const Progress& p) { last = p.done; total = p.total; }, nullptr, 100);
    QCOMPARE(a.count, std::uint64_t(v.size() - 1));
    QCOMPARE(a.rmse, b.rmse);
    QCOMPARE(a.max_abs, b.max_abs);
    QCOMPARE(total, std::uint64_t(128));
    QCOMPARE(last, total);
    std::atomic<bool> cancel{true};
    try {
        measure_round_trip(t, s, {}, &cancel);
        QFAIL("no Cancelled");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Cancelled);
    }
}

void TestRoundTripEstimate::typedParamsDriveTheEstimate() {
    std::vector<float> v(32 * 64);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(std::cos(0.11 * double(i)));
    auto t = tensor_of(v, 32, 64);
    std::string why;
    QVERIFY(!round_trip_scheme_for(t, &why));
    QCOMPARE(QString::fromStdString(why), QStringLiteral("not measurable yet for test"));

    Fp8Params f;
    f.format = DType::F8_E5M2;
    f.granularity = Fp8Granularity::Block;
    f.block_rows = 16;
    f.block_cols = 32;
    t.params = f;
    auto s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QVERIFY(std::holds_alternative<Fp8Params>(s->params));
    QCOMPARE(params_of<Fp8Params>(s).format, DType::F8_E5M2);
    QCOMPARE(params_of<Fp8Params>(s).granularity, Fp8Granularity::Block);
    QCOMPARE(params_of<Fp8Params>(s).block_rows, std::uint64_t(16));
    QCOMPARE(params_of<Fp8Params>(s).block_cols, std::uint64_t(32));
    QCOMPARE(scheme_id(*t.params), std::string("fp8-block"));
    QCOMPARE(describe(*t.params), std::string("FP8 (E5M2), 16\u00d732 blocks, F32 scales"));

    AffineParams a;
    a.bits = 3;
    a.group_size = 0;  // act-order over 4 groups
    a.groups = 4;
    a.symmetric = true;
    a.act_order = true;
    t.params = a;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QVERIFY(std::holds_alternative<AffineParams>(s->params));
    QCOMPARE(params_of<AffineParams>(s).bits, 3u);
    QCOMPARE(params_of<AffineParams>(s).group_size, std::uint64_t(16));
    QVERIFY(round_trip_symmetric(params_of<AffineParams>(s)) && round_trip_includes_zero(params_of<AffineParams>(s)));
    QCOMPARE(scheme_id(*t.params), std::string("gptq-3bit-gx-actorder"));

    Bnb4Params b;
    b.type = Bnb4Type::Fp4;
    b.blocksize = 128;
    t.params = b;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QCOMPARE(params_of<Bnb4Params>(s).type, Bnb4Type::Fp4);
    QCOMPARE(params_of<Bnb4Params>(s).blocksize, std::uint64_t(128));

    // AWQ: its group size (it was once measured with one group per row, the
    // scheme text's "-gemm" having been read as "-g"), range [min, max].
    AffineParams w;
    w.packing = AffinePacking::AwqGemm;
    w.bits = 4;
    w.group_size = 16;
    w.groups = 4;
    w.zero_points = ZeroPointForm::Stored;
    t.params = w;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QCOMPARE(params_of<AffineParams>(s).group_size, std::uint64_t(16));
    QVERIFY(!round_trip_includes_zero(params_of<AffineParams>(s)) && !round_trip_symmetric(params_of<AffineParams>(s)));
    QCOMPARE(scheme_id(*t.params), std::string("awq-gemm-4bit-g16"));
    w.group_size = 128;  // wider than the 64-element rows: one group per row
    w.groups = 1;
    w.channelwise = true;
    t.params = w;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QCOMPARE(params_of<AffineParams>(s).group_size, std::uint64_t(64));

    // compressed-tensors integer: GPTQ-like ranges; per-tensor scales are not measured.
    AffineParams c;
    c.packing = AffinePacking::CtPackQuantized;
    c.bits = 4;
    c.group_size = 32;
    c.groups = 2;
    c.symmetric = true;
    c.zero_points = ZeroPointForm::None;
    c.scale_dtype = DType::BF16;
    t.params = c;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QCOMPARE(params_of<AffineParams>(s).group_size, std::uint64_t(32));
    QVERIFY(round_trip_symmetric(params_of<AffineParams>(s)) && round_trip_includes_zero(params_of<AffineParams>(s)));
    QCOMPARE(scheme_id(*t.params), std::string("ct-pack-int4-g32"));
    QCOMPARE(describe(*t.params), std::string("compressed-tensors W4A16 (pack-quantized), int4 symmetric, group 32, BF16 scales"));
    c.packing = AffinePacking::CtNaiveQuantized;
    c.bits = 8;
    c.per_tensor = true;
    c.group_size = 64;
    c.groups = 1;
    c.symmetric = false;
    c.zero_points = ZeroPointForm::Signed;
    c.activation_bits = 8;
    t.params = c;
    QVERIFY(!round_trip_scheme_for(t, &why));
    QVERIFY2(why.find("not measurable yet for ct-naive-int8-tensor-asym") == 0, why.c_str());
    QCOMPARE(describe(*t.params), std::string("compressed-tensors W8A8 (naive-quantized), int8 asymmetric, per-tensor, BF16 scales"));

    // FP8 of the other producers: compressed-tensors groups are 1 × group blocks.
    Fp8Params g;
    g.producer = Fp8Producer::CompressedTensors;
    g.granularity = Fp8Granularity::Group;
    g.group_size = 32;
    g.scale_dtype = DType::F16;
    t.params = g;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    // The 1 × 32 block is resolved where the estimate lays out its groups.
    QCOMPARE(params_of<Fp8Params>(s).granularity, Fp8Granularity::Group);
    QCOMPARE(params_of<Fp8Params>(s).group_size, std::uint64_t(32));
    QVERIFY2(QString::fromStdString(s->description()).contains(QStringLiteral("1×32 blocks")), s->description().c_str());
    QCOMPARE(scheme_id(*t.params), std::string("ct-fp8-g32"));
    QCOMPARE(describe(*t.params), std::string("compressed-tensors W8A16 (float-quantized), FP8 E4M3, group 32, F16 scales"));
    Fp8Params m;
    m.producer = Fp8Producer::ModelOpt;
    m.granularity = Fp8Granularity::Channel;
    m.scale_name = Fp8ScaleName::Scale;
    t.params = m;
    s = round_trip_scheme_for(t, &why);
    QVERIFY2(s, why.c_str());
    QCOMPARE(params_of<Fp8Params>(s).granularity, Fp8Granularity::Channel);
    QCOMPARE(scheme_id(*t.params), std::string("modelopt-fp8-channel"));
    QCOMPARE(describe(*t.params), std::string("ModelOpt FP8 (E4M3), per-channel F32 scale applied in BF16"));

    // FP4: named, not measured.
    Fp4Params f4;
    f4.activation_bits = 4;
    t.params = f4;
    QVERIFY(!round_trip_scheme_for(t, &why));
    QCOMPARE(QString::fromStdString(why), QStringLiteral("not measurable yet for ct-nvfp4"));
    QCOMPARE(describe(*t.params),
             std::string("compressed-tensors NVFP4 W4A4 (nvfp4-pack-quantized), E2M1 with an E4M3 scale per 16, F32 global scale"));
    Fp4Params mx;
    mx.format = Fp4Format::Mxfp4;
    mx.producer = Fp4Producer::GptOss;
    mx.block_size = 32;
    mx.scale_dtype = DType::F8_E8M0;
    mx.global_scale = Fp4GlobalScale::None;
    mx.layout = Fp4Layout::BlocksExperts;
    t.params = mx;
    QVERIFY(!round_trip_scheme_for(t, &why));
    QCOMPARE(QString::fromStdString(why), QStringLiteral("not measurable yet for mxfp4-experts"));

    t.params = GgmlParams{DType::Q6_K};
    QVERIFY(!round_trip_scheme_for(t, &why));
    // 64-element rows are not whole Q6_K blocks (256): no estimate (test_round_trip_estimate_gguf.cc measures whole ones).
    QCOMPARE(QString::fromStdString(why), QStringLiteral("not measurable for gguf-Q6_K: a row is not a whole number of blocks"));
}

void TestRoundTripEstimate::typedParamsOfReferenceCases() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    for (const char* c : {"fp8/exaone_fine_grained", "fp8/llama_dynamic_per_channel", "gptq/falcon3_1b_int4",
                          "awq/llama_3_2_1b_awq", "bnb/llama_1b_nf4_double_quant", "bnb/llama_1b_int8", "gguf/smollm2_q4_k",
                          "compressed_tensors/w4a16_asym_group32", "compressed_tensors/naive_int8_asym_channel",
                          "compressed_tensors/nvfp4_w4a4", "mxfp4/gpt_oss_2experts", "nvfp4_modelopt/nvfp4_o_proj",
                          "nvfp4_modelopt/fp8_down_proj"}) {
        const std::string in = ref + "/" + c + "/input";
        const bool gguf = std::string(c).rfind("gguf/", 0) == 0;
        const auto cat = open_model(gguf ? in + "/model.gguf" : in);
        const auto plan = make_plan(cat);
        QCOMPARE(plan.companion_roles.size(), cat.tensors.size());
        int quantized = 0;
        for (const auto& t : plan.tensors) {
            if (!t.quantized) {
                QVERIFY(!t.params);
                continue;
            }
            QVERIFY2(t.params && t.recipe, c);
            QCOMPARE(scheme_id(*t.params), t.recipe->scheme_id());
            QCOMPARE(describe(*t.params), t.recipe->describe());
            ++quantized;
        }
        QVERIFY2(quantized > 0, c);
        for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
            const auto& n = cat.tensors[i].name;
            const CompanionRole r = plan.companion_roles[i];
            if (plan.roles[i] != Role::Companion) {
                QCOMPARE(r, CompanionRole::None);
                continue;
            }
            auto ends = [&](const char* suf) { return n.size() >= std::strlen(suf) && n.compare(n.size() - std::strlen(suf), std::string::npos, suf) == 0; };
            if (ends("_scale_inv") || ends("_scale") || ends(".scales") || ends("_scales") || ends(".absmax") || ends(".SCB"))
                QVERIFY2(is_scale(r), n.c_str());
            if (ends(".weight_global_scale") || ends(".weight_scale_2")) QCOMPARE(r, CompanionRole::GlobalScale);
            if (ends(".weight_zero_point")) QCOMPARE(r, CompanionRole::ZeroPoint);
            if (ends(".weight_shape")) QCOMPARE(r, CompanionRole::Layout);
            if (ends(".qzeros")) QCOMPARE(r, CompanionRole::ZeroPoint);
            if (ends(".g_idx")) QCOMPARE(r, CompanionRole::GroupIndex);
            if (ends(".nested_absmax")) QCOMPARE(r, CompanionRole::NestedScale);
            if (ends("quant_map")) QCOMPARE(r, CompanionRole::Codebook);
        }
    }
    const auto cat = open_model(ref + "/fp8/exaone_fine_grained/input");
    const auto plan = make_plan(cat);
    const auto& p = std::get<Fp8Params>(*plan.tensors.front().params);
    QCOMPARE(p.granularity, Fp8Granularity::Block);
    QCOMPARE(p.block_rows, std::uint64_t(128));
    QCOMPARE(p.block_cols, std::uint64_t(128));
}

QTEST_APPLESS_MAIN(TestRoundTripEstimate)
#include "test_round_trip_estimate.moc"
