// SPDX-License-Identifier: MIT OR Apache-2.0
// Charts rendered offscreen and read back pixel by pixel (QWidget::grab):
//   * LetheChart with more layers than pixel columns draws one bar per
//     column, as tall as the tallest layer falling in it and coloured as
//     quantized when any of them is: every column of the plot area carries
//     its bar, the tallest column reaches its height, and a column whose
//     last layer is unquantized still shows the quantized colour (drawing
//     every layer on top of each other would not);
//   * with few layers, one centred bar per layer with gaps between them.
// Expected heights and colours are computed here from the layers and the
// documented mapping (LetheChart::plotRect), not by the chart's code.
#include "charts.hpp"
#include "widget_test_util.hpp"

#include <QApplication>
#include <QImage>
#include <QPixmap>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace amn::ui;

namespace {

/// Bits per weight of layer i: 2…10, with one tallest layer (13 bits).
double bitsOf(int i, int tallest) { return i == tallest ? 13.0 : 2.0 + (i * 37 % 9); }
/// Every third layer quantized: each pixel column (≈ 10 layers) holds both
/// kinds, and most columns end with an unquantized layer.
bool quantizedOf(int i) { return i % 3 == 0; }

std::vector<LetheChart::Layer> makeLayers(int n, int tallest) {
    std::vector<LetheChart::Layer> out;
    for (int i = 0; i < n; ++i) {
        LetheChart::Layer l;
        l.label = QString::number(i);
        l.name = QStringLiteral("model.layers.%1").arg(i);
        l.bits = bitsOf(i, tallest);
        l.quantized = quantizedOf(i) ? 1 : 0;
        l.tensors = 1;
        out.push_back(std::move(l));
    }
    return out;
}

/// Height in pixels of the bar-coloured run going up from just above the
/// bottom edge in pixel column x (0 when that pixel is not bar-coloured).
int barHeight(const QImage& img, int x, int bottom, QRgb colour) {
    int h = 0;
    for (int y = bottom - 1; y >= 0 && img.pixel(x, y) == colour; --y) ++h;
    return h;
}

}  // namespace

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    void letheOneBarPerColumn() {
        const int n = 6000, tallest = 4321;
        LetheChart chart;
        chart.resize(700, 360);
        chart.setLayers(makeLayers(n, tallest), 1, 2);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QImage img = chart.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QRectF pr = chart.plotRect();
        QCOMPARE(pr.left(), std::floor(pr.left()));  // whole pixels: column c is x = left + c
        const int left = int(pr.left()), bottom = int(pr.bottom()), cols = int(pr.width());
        QVERIFY2(cols > 300 && cols < n / 5, qPrintable(QString::number(cols)));  // several layers per column
        QCOMPARE(chart.yMax(), 20.0);  // 16 × 1.1 = 17.6 in steps of 5
        // Expected per column: the tallest layer in it, quantized if any is.
        std::vector<double> top(std::size_t(cols), -1);
        std::vector<bool> quant(std::size_t(cols), false), lastUnquantized(std::size_t(cols), false);
        for (int i = 0; i < n; ++i) {
            const auto c = std::size_t(std::floor(double(i) * double(cols) / double(n)));
            top[c] = std::max(top[c], bitsOf(i, tallest));
            quant[c] = quant[c] || quantizedOf(i);
            lastUnquantized[c] = !quantizedOf(i);
        }
        const QRgb quantized = seriesColor(0).rgb(), full = seriesColor(9).rgb();
        int tallestColumn = -1, tallestHeight = 0, mixed = 0;
        for (int c = 0; c < cols; ++c) {
            QVERIFY2(top[std::size_t(c)] > 0, "a column without a layer");
            const QRgb colour = quant[std::size_t(c)] ? quantized : full;
            const int h = barHeight(img, left + c, bottom, colour);
            const double expected = top[std::size_t(c)] / chart.yMax() * pr.height();
            QVERIFY2(std::abs(h - expected) <= 1.0,
                     qPrintable(QString("column %1: bar %2 px, expected %3 px").arg(c).arg(h).arg(expected)));
            if (h > tallestHeight) tallestHeight = h, tallestColumn = c;
            mixed += quant[std::size_t(c)] && lastUnquantized[std::size_t(c)] ? 1 : 0;
        }
        QVERIFY2(mixed > cols / 2, "the data must end most columns with an unquantized layer");
        // The tallest column is the one holding the 13-bit layer, at 13/20 of the height.
        QCOMPARE(tallestColumn, int(std::floor(double(tallest) * double(cols) / double(n))));
        QVERIFY(std::abs(tallestHeight - 13.0 / 20.0 * pr.height()) <= 1.0);
        // Nothing to the right of the last column.
        QVERIFY(img.pixel(left + cols, bottom - 2) != quantized && img.pixel(left + cols, bottom - 2) != full);
    }

    void letheFewLayersOneBarEach() {
        const int n = 4;
        LetheChart chart;
        chart.resize(700, 360);
        chart.setLayers(makeLayers(n, 2), 1, 2);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QImage img = chart.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QRectF pr = chart.plotRect();
        const int bottom = int(pr.bottom());
        const double band = pr.width() / n;
        const double bw = std::min(band * 0.7, 4.0 * QFontMetrics(chart.font()).height());
        for (int i = 0; i < n; ++i) {
            const QRgb colour = quantizedOf(i) ? seriesColor(0).rgb() : seriesColor(9).rgb();
            const int centre = int(pr.left() + band * (i + 0.5));
            const double expected = bitsOf(i, 2) / chart.yMax() * pr.height();
            const int h = barHeight(img, centre, bottom, colour);
            QVERIFY2(std::abs(h - expected) <= 1.0, qPrintable(QString("layer %1: bar %2 px, expected %3 px").arg(i).arg(h).arg(expected)));
            // The bar is bw wide around the band's centre; the band's edges stay empty.
            QCOMPARE(img.pixel(int(pr.left() + band * (i + 0.5) - bw / 2 + 1), bottom - 2), colour);
            QCOMPARE(img.pixel(int(pr.left() + band * (i + 0.5) + bw / 2 - 2), bottom - 2), colour);
            QVERIFY(img.pixel(int(pr.left() + band * i + 2), bottom - 2) != colour);
            QVERIFY(img.pixel(int(pr.left() + band * (i + 1) - 3), bottom - 2) != colour);
        }
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
