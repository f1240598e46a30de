// SPDX-License-Identifier: MIT OR Apache-2.0
// "What Lethe took" for every GGUF type with an encoder
// (a RoundTripScheme of GgmlParams, core/src/jobs/round_trip_estimate_gguf.cc):
//   * on ggml's own quantizer inputs (shared fixtures quantize-ref/, 18
//     types), the estimate equals the error between ggml's
//     quantize→dequantize output and its input (RMSE to 1e-12, max abs
//     exactly);
//   * on real llama.cpp files (shared fixtures gguf-real/: Q4_K_M, IQ3_M,
//     pure-MXFP4), every quantized tensor is measured and its figures equal
//     a re-derivation in this test: gguf-py's dequantization of the file
//     (the *.expected-f32.safetensors beside it) re-encoded block by block
//     with the scalar reference encoder (or, for the IQ3/IQ2_S/IQ1_M types
//     without one, the row encoder with no importance matrix) and decoded;
//   * IQ2_XXS / IQ2_XS / IQ1_S (ggml requires an importance matrix) and
//     rows that are not whole blocks stay "not measurable" with the reason.
#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/round_trip_estimate.hpp"
#include "kernels/gguf/gguf_quantize.hpp"

#include "test_support.hpp"
#include "vec_recipe.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <variant>

using namespace amn;

namespace {

using test::tensor_of;

struct Expect { double rmse = 0, max_abs = 0, sqnr = 0; std::uint64_t count = 0; };
Expect expect_of(const std::vector<float>& x, const std::vector<float>& y) {
    double sig = 0, err = 0, mx = 0;
    Expect r;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
        const double e = double(y[i]) - double(x[i]);
        sig += double(x[i]) * double(x[i]);
        err += e * e;
        mx = std::max(mx, std::abs(e));
        ++r.count;
    }
    r.rmse = std::sqrt(err / double(r.count));
    r.max_abs = mx;
    r.sqnr = err == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(sig / err);
    return r;
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)) + 1e-30; }

std::vector<float> floats_of(const test::RawTensor& t) {
    std::vector<float> v(t.bytes.size() / 4);
    std::memcpy(v.data(), t.bytes.data(), v.size() * 4);
    return v;
}

}  // namespace

class TestRoundTripEstimateGguf : public QObject {
    Q_OBJECT
private slots:
    void everyEncoderTypeMatchesGgml();
    void realFilesMatchRederivation();
    void imatrixOnlyTypesAreNotMeasurable();
    void rowsNotWholeBlocks();
};

void TestRoundTripEstimateGguf::everyEncoderTypeMatchesGgml() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string dir = test::shared_fixtures_dir() + "/quantize-ref";
    int types = 0;
    for (const char* type : {"Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q1_0", "Q2_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K",
                             "IQ4_NL", "IQ4_XS", "TQ1_0", "TQ2_0", "MXFP4", "NVFP4"}) {
        const auto f = test::read_safetensors_raw(dir + "/quantize-" + type + ".safetensors");
        QVERIFY2(f, type);
        DType dt = DType::Unknown;
        for (const auto& row : dtype_table())
            if (row.name == type) dt = row.dtype;
        QVERIFY2(dt != DType::Unknown, type);
        int cases = 0;
        for (const auto& [key, in] : f->tensors) {
            if (key.size() < 6 || key.compare(key.size() - 6, 6, ".input") != 0) continue;
            const std::string name = key.substr(0, key.size() - 6);
            const auto& dq = f->tensors.at(name + ".dequant");
            const std::uint64_t R = in.shape[0], C = in.shape[1];
            std::vector<float> x, y;
            std::uint64_t rows = 0;
            const auto xa = floats_of(in), ya = floats_of(dq);
            for (std::uint64_t r = 0; r < R; ++r) {  // rows where ggml's output is finite
                bool ok = true;
                for (std::uint64_t c = 0; c < C; ++c) ok = ok && std::isfinite(xa[r * C + c]) && std::isfinite(ya[r * C + c]);
                if (!ok) continue;
                x.insert(x.end(), xa.begin() + long(r * C), xa.begin() + long((r + 1) * C));
                y.insert(y.end(), ya.begin() + long(r * C), ya.begin() + long((r + 1) * C));
                ++rows;
            }
            if (rows == 0) continue;
            const RoundTripScheme s{GgmlParams{dt}};
            // Small chunks: several chunks per tensor must give the same figures.
            const auto e = measure_round_trip(tensor_of(x, rows, C), s, {}, nullptr, 3 * C);
            const auto want = expect_of(x, y);
            QVERIFY2(e.measured, type);
            QCOMPARE(e.count, want.count);
            QVERIFY2(close(e.rmse, want.rmse, 1e-12),
                     qPrintable(QStringLiteral("%1 %2: rmse %3 vs ggml %4").arg(type, QString::fromStdString(name)).arg(e.rmse).arg(want.rmse)));
            QCOMPARE(e.max_abs, want.max_abs);
            QVERIFY(QString::fromStdString(e.estimator).contains(QString::fromLatin1(type)));
            ++cases;
        }
        QVERIFY2(cases >= 2, type);
        ++types;
    }
    QCOMPARE(types, 18);
}

void TestRoundTripEstimateGguf::realFilesMatchRederivation() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string dir = test::shared_fixtures_dir() + "/gguf-real";
    std::set<std::string> seen_types;
    for (const char* stem : {"tiny-llama-Q4_K_M", "tiny-llama-IQ3_M", "tiny-llama-pure-MXFP4"}) {
        const auto cat = open_model(dir + "/" + stem + ".gguf");
        const auto plan = make_plan(cat);
        const auto f32 = test::read_safetensors_raw(dir + "/" + stem + ".expected-f32.safetensors");
        QVERIFY2(f32, stem);
        int measured = 0;
        for (const auto& t : plan.tensors) {
            if (!t.quantized || !t.recipe) continue;
            QVERIFY(t.params && std::holds_alternative<GgmlParams>(*t.params));
            const DType type = std::get<GgmlParams>(*t.params).type;
            const DTypeInfo& info = *dtype_info(type);
            const auto e = measure_round_trip(t);
            QVERIFY2(e.measured, qPrintable(QString::fromStdString(t.name + ": " + e.unavailable)));
            // Re-derive: gguf-py's dequantization, encoded and decoded again.
            const auto x = floats_of(f32->tensors.at(t.name));
            QCOMPARE(std::uint64_t(x.size()), t.numel());
            const std::uint64_t C = t.recipe->row_elems(), R = t.recipe->rows();
            std::vector<std::uint8_t> bytes(x.size() / info.block_elems * info.block_bytes);
            if (auto enc = kernels::gguf::scalar_encoder(info.ggml_id)) enc(x.data(), bytes.data(), x.size() / info.block_elems);
            else kernels::gguf::imatrix_encoder(info.ggml_id)(x.data(), bytes.data(), R, C, nullptr);
            std::vector<float> y(x.size());
            info.to_f32(bytes.data(), y.data(), x.size() / info.block_elems);
            const auto want = expect_of(x, y);
            QCOMPARE(e.count, want.count);
            QVERIFY2(close(e.rmse, want.rmse, 1e-9), qPrintable(QStringLiteral("%1 (%2): rmse %3 vs %4")
                                                                   .arg(QString::fromStdString(t.name), QString::fromStdString(dtype_name(type)))
                                                                   .arg(e.rmse).arg(want.rmse)));
            QCOMPARE(e.max_abs, want.max_abs);
            QVERIFY(e.sqnr_db > 0);
            seen_types.insert(dtype_name(type));
            ++measured;
        }
        QVERIFY2(measured > 0, stem);
    }
    for (const char* ty : {"Q4_K", "Q6_K", "IQ3_S", "MXFP4"}) QVERIFY2(seen_types.count(ty), ty);
}

void TestRoundTripEstimateGguf::imatrixOnlyTypesAreNotMeasurable() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string dir = test::shared_fixtures_dir() + "/gguf-real";
    for (const char* stem : {"tiny-llama-pure-IQ2_XXS", "tiny-llama-pure-IQ2_XS", "tiny-llama-pure-IQ1_S"}) {
        const auto cat = open_model(dir + "/" + stem + ".gguf");  // the plan's recipes read its mapping
        const auto plan = make_plan(cat);
        int unmeasured = 0;
        for (const auto& t : plan.tensors) {
            if (!t.quantized || !t.recipe) continue;
            const DType type = std::get<GgmlParams>(*t.params).type;
            const auto e = measure_round_trip(t);
            if (type != DType::IQ2_XXS && type != DType::IQ2_XS && type != DType::IQ1_S) continue;
            QVERIFY(!e.measured);
            QCOMPARE(e.reason, RoundTripUnavailable::NeedsImatrix);
            QCOMPARE(e.scheme, "gguf-" + dtype_name(type));
            QCOMPARE(QString::fromStdString(e.unavailable),
                     QStringLiteral("not measurable for gguf-%1: ggml quantizes it only with an importance matrix, which the file does not carry")
                         .arg(QString::fromStdString(dtype_name(type))));
            ++unmeasured;
        }
        QVERIFY2(unmeasured > 0, stem);
    }
    // Asked directly, the measurement refuses rather than guess.
    const RoundTripScheme s{GgmlParams{DType::IQ2_XXS}};
    try {
        measure_round_trip(tensor_of(std::vector<float>(256, 1.0f), 1, 256), s);
        QFAIL("no Usage error");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Usage);
    }
}

void TestRoundTripEstimateGguf::rowsNotWholeBlocks() {
    auto t = tensor_of(std::vector<float>(32 * 64, 0.5f), 32, 64);
    t.params = GgmlParams{DType::Q6_K};
    std::string why;
    QVERIFY(!round_trip_scheme_for(t, &why));
    QCOMPARE(QString::fromStdString(why), QStringLiteral("not measurable for gguf-Q6_K: a row is not a whole number of blocks"));
    const auto un = measure_round_trip(t);
    QVERIFY(!un.measured);
    QCOMPARE(un.reason, RoundTripUnavailable::PartialBlocks);
    QCOMPARE(un.scheme, std::string("gguf-Q6_K"));
    std::vector<float> v(4 * 256);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(std::sin(0.05 * double(i)));
    auto big = tensor_of(v, 4, 256);
    big.params = GgmlParams{DType::Q5_K};
    const auto s = round_trip_scheme_for(big, &why);
    QVERIFY2(s, why.c_str());
    QVERIFY(std::holds_alternative<GgmlParams>(s->params));
    QCOMPARE(std::get<GgmlParams>(s->params).type, DType::Q5_K);
    std::uint64_t last = 0, total = 0;
    const auto e = measure_round_trip(big, *s, [&](const Progress& p) { last = p.done; total = p.total; }, nullptr, 256);
    QVERIFY(e.measured && e.rmse > 0);
    QCOMPARE(total, std::uint64_t(4));  // one pass: progress over the rows
    QCOMPARE(last, total);
    std::atomic<bool> cancel{true};
    try {
        measure_round_trip(big, *s, {}, &cancel);
        QFAIL("no Cancelled");
    } catch (const Error& e2) {
        QCOMPARE(e2.code(), ErrorCode::Cancelled);
    }
}

QTEST_APPLESS_MAIN(TestRoundTripEstimateGguf)
#include "test_round_trip_estimate_gguf.moc"
