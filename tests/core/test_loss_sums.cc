// SPDX-License-Identifier: MIT OR Apache-2.0
// core/src/kernels/common/loss_sums.hpp, the one round-trip error accumulator of forget,
// forget to safetensors, the re-quantization estimates and the statistics:
//   * Σx², Σ(y−x)², max|y−x|, counts, RMSE and SQNR of pairs with NaN/±inf
//     on either side match numpy (math.fsum: the exactly rounded sums) on
//     the same f32 values, element by element and merged from pieces;
//   * the SQNR rule: exact round trip → +inf (also an all-zero tensor and no
//     finite pair at all), an error over an all-zero signal → −inf.
#include "kernels/common/loss_sums.hpp"

#include "test_support.hpp"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <random>
#include <vector>

using amn::detail::LossSums;

namespace {

bool close(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b)); }

}  // namespace

class TestLossSums : public QObject {
    Q_OBJECT
private slots:
    void against_numpy();
    void sqnr_rule();
};

void TestLossSums::against_numpy() {
    // x ~ N(0, 0.02²); y = x rounded to a coarse grid (a quantizer's round trip); a few non-finite values.
    std::mt19937 rng(7);
    std::normal_distribution<float> nd(0.0f, 0.02f);
    const std::size_t n = 10007;
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = nd(rng);
        y[i] = std::nearbyint(x[i] / 0.004f) * 0.004f;
    }
    y[5] = NAN, y[77] = INFINITY, x[300] = -INFINITY, x[301] = NAN, y[301] = NAN;
    QTemporaryDir dir;
    const std::string path = dir.filePath("xy.f32").toStdString();
    {
        std::ofstream f(path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(x.data()), std::streamsize(n * 4));
        f.write(reinterpret_cast<const char*>(y.data()), std::streamsize(n * 4));
    }
    const QString script = QStringLiteral(
        "import sys,json,math,numpy as np\n"
        "a=np.fromfile(sys.argv[1],dtype='<f4'); n=a.size//2\n"
        "x=a[:n].astype(np.float64); y=a[n:].astype(np.float64)\n"
        "ok=np.isfinite(x)&np.isfinite(y); e=y[ok]-x[ok]\n"
        "sse=math.fsum(e*e); sx2=math.fsum(x[ok]*x[ok])\n"
        "print(json.dumps({'sse':sse,'sx2':sx2,'max':float(np.abs(e).max()),'count':int(ok.sum()),"
        "'bad':int((~ok).sum()),'rmse':math.sqrt(sse/ok.sum()),'sqnr':10*math.log10(sx2/sse)}))\n");
    const auto r = amn::test::run(QString::fromStdString(amn::test::python()), {"-c", script, QString::fromStdString(path)});
    QCOMPARE(r.exit_code, 0);
    const QJsonObject ref = QJsonDocument::fromJson(r.out.toUtf8()).object();

    LossSums all;
    for (std::size_t i = 0; i < n; ++i) all.add(x[i], y[i]);
    LossSums merged;  // the same pairs in uneven pieces, merged in order
    for (std::size_t at = 0, len = 1; at < n; at += len, len = len * 3 + 1) {
        LossSums piece;
        for (std::size_t i = at; i < std::min(n, at + len); ++i) piece.add(x[i], y[i]);
        merged.merge(piece);
    }
    for (const LossSums* s : {&all, &merged}) {
        QCOMPARE(s->count, std::uint64_t(ref["count"].toInteger()));
        QCOMPARE(s->nonfinite, std::uint64_t(ref["bad"].toInteger()));
        QCOMPARE(s->count + s->nonfinite, std::uint64_t(n));
        QVERIFY2(close(s->sse, ref["sse"].toDouble()), qPrintable(QString::number(s->sse, 'g', 17)));
        QVERIFY2(close(s->sx2, ref["sx2"].toDouble()), qPrintable(QString::number(s->sx2, 'g', 17)));
        QCOMPARE(s->max_abs, ref["max"].toDouble());  // a max is exact
        QVERIFY(close(s->rmse(), ref["rmse"].toDouble()));
        QVERIFY(std::fabs(s->sqnr_db() - ref["sqnr"].toDouble()) < 1e-9);
    }
}

void TestLossSums::sqnr_rule() {
    LossSums none;  // nothing summed
    QCOMPARE(none.rmse(), 0.0);
    QVERIFY(std::isinf(none.sqnr_db()) && none.sqnr_db() > 0);

    LossSums zeros;  // an all-zero tensor quantized exactly
    for (int i = 0; i < 64; ++i) zeros.add(0.0f, 0.0f);
    QCOMPARE(zeros.count, std::uint64_t(64));
    QCOMPARE(zeros.rmse(), 0.0);
    QVERIFY(std::isinf(zeros.sqnr_db()) && zeros.sqnr_db() > 0);

    LossSums exact;  // values on the grid: nothing lost
    for (int i = 0; i < 64; ++i) exact.add(0.25f * float(i - 32), 0.25f * float(i - 32));
    QVERIFY(std::isinf(exact.sqnr_db()) && exact.sqnr_db() > 0);

    LossSums noise;  // an error over an all-zero signal
    noise.add(0.0f, 0.5f);
    noise.add(0.0f, -0.5f);
    QVERIFY(std::isinf(noise.sqnr_db()) && noise.sqnr_db() < 0);
    QCOMPARE(noise.rmse(), 0.5);
    QCOMPARE(noise.max_abs, 0.5);

    LossSums only_bad;  // no finite pair: left out, counted
    only_bad.add(NAN, 1.0f);
    only_bad.add(1.0f, INFINITY);
    QCOMPARE(only_bad.count, std::uint64_t(0));
    QCOMPARE(only_bad.nonfinite, std::uint64_t(2));
    QCOMPARE(only_bad.sse, 0.0);
    QVERIFY(std::isinf(only_bad.sqnr_db()) && only_bad.sqnr_db() > 0);

    // 10·log10(Σx² / Σe²) on a case worked by hand: x = (3, 4), y = (3, 5): 25 / 1 → 13.979… dB.
    LossSums hand;
    hand.add(3.0f, 3.0f);
    hand.add(4.0f, 5.0f);
    QCOMPARE(hand.sqnr_db(), 10.0 * std::log10(25.0));
    QCOMPARE(hand.rmse(), std::sqrt(0.5));
    QCOMPARE(LossSums::sqnr_db_of(25.0, 1.0), hand.sqnr_db());
}

QTEST_APPLESS_MAIN(TestLossSums)
#include "test_loss_sums.moc"
