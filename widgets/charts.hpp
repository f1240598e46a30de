// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Charts painted with QPainter (Qt Charts is GPL-3 and not in our stack).
// All colours come from the widget palette or from a qualitative series
// palette readable on light and dark backgrounds; every chart has axes or a
// scale, units, labels, a legend and hover tooltips.

#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

namespace amn::ui {

/// Qualitative series colour `i` (Tableau-10-like, fine on light and dark).
QColor seriesColor(int i);
/// "Nice" tick step (1, 2, 2.5 or 5 × 10^k) for `range` with about `ticks` ticks.
double niceStep(double range, int ticks);

/// 100 %-stacked horizontal bars, one per row ("By stored dtype", "By scheme"),
/// each with a percentage scale and a legend of its segments.
class BreakdownChart : public QWidget {
    Q_OBJECT
public:
    struct Segment {
        QString label;
        quint64 bytes = 0;
        quint64 tensors = 0;
        /// A figure the legend never cuts, shown after the label ("4.50 bits
        /// per weight": the stored bits per weight of the segment), and its
        /// short form for narrow legends ("4.50 bpw"); empty: none. Carried
        /// as data: the legend does not look for figures in the label.
        QString figure{}, figureShort{};
    };
    struct Row {
        QString title;
        std::vector<Segment> segments;  ///< largest first is easiest to read
    };
    explicit BreakdownChart(QWidget* parent = nullptr);
    void setRows(std::vector<Row> rows);
    const std::vector<Row>& rows() const { return rows_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

private:
    struct Hit { QRect rect; QString tip; };
    int layout(int width, std::vector<Hit>* hits, class QPainter* p) const;
    std::vector<Row> rows_;
    std::vector<Hit> hits_;
};

/// "What Lethe took": stored bits per weight per layer against the 16 bits
/// of BF16, with bytes saved in the title and per-tensor detail on hover.
class LetheChart : public QWidget {
    Q_OBJECT
public:
    struct TensorBar {
        QString name;
        double bits = 0;
        quint64 stored = 0, bf16 = 0;
    };
    struct Layer {
        QString label;      ///< short axis label ("0", "12", "other")
        QString name;       ///< full layer key
        double bits = 0;    ///< stored bits per weight
        quint64 stored = 0, bf16 = 0, params = 0;
        int quantized = 0, tensors = 0;
        std::vector<TensorBar> detail;
    };
    explicit LetheChart(QWidget* parent = nullptr);
    void setLayers(std::vector<Layer> layers, quint64 tookBytes, quint64 ofBytes);
    const std::vector<Layer>& layers() const { return layers_; }
    /// Give the layers up (the chart becomes empty), e.g. to free them on a worker.
    std::vector<Layer> takeLayers() {
        update();
        return std::exchange(layers_, {});
    }
    QSize sizeHint() const override { return {520, 300}; }
    QSize minimumSizeHint() const override { return {320, 220}; }
    /// The plot area in widget pixels (whole numbers): bars stand on its
    /// bottom edge, a bar of `bits` is bits / yMax() of its height tall. With
    /// more layers than the area is wide, each pixel column c is one bar as
    /// tall as the tallest layer i with ⌊i · width / layers⌋ = c, coloured as
    /// quantized when any of them is.
    QRectF plotRect() const;
    /// The top of the y axis (bits per weight): a nice step above 1.1 × the largest bits, at least 16 × 1.1.
    double yMax() const { return ymax_; }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

private:
    int layerAt(const QPoint& pos) const;
    std::vector<Layer> layers_;
    quint64 took_ = 0, of_ = 0;
    double ymax_ = 16;
};

/// Histogram of tensor values: bars over [lo, hi], value axis and count axis.
class HistogramChart : public QWidget {
    Q_OBJECT
public:
    explicit HistogramChart(QWidget* parent = nullptr);
    void setHistogram(std::vector<quint64> bins, double lo, double hi);
    void clear(const QString& message = {});
    /// Logarithmic count axis (log10(1 + count)): shows the tails.
    void setLogScale(bool on);
    bool logScale() const { return log_; }
    QSize sizeHint() const override { return {420, 220}; }
    QSize minimumSizeHint() const override { return {260, 160}; }
    bool isEmpty() const { return bins_.empty(); }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

private:
    QRectF plotRect() const;
    std::vector<quint64> bins_;
    double lo_ = 0, hi_ = 0;
    bool log_ = false;
    QString message_;
};

/// Measured loss of a forget run: SQNR (dB) of every quantized tensor in
/// file order, coloured by the type written (legend), with the mean as a
/// dashed line; hover a bar for the tensor, its type, RMSE and SQNR.
/// Higher is better; exact tensors (infinite SQNR) are drawn to the top.
class LossChart : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString name;
        QString type;       ///< the type or scheme written ("Q4_K", "U8")
        double sqnr_db = 0; ///< +inf when exact
        double rmse = 0;
        double bits = 0;    ///< bits per weight
    };
    explicit LossChart(QWidget* parent = nullptr);
    void setBars(std::vector<Bar> bars);
    const std::vector<Bar>& bars() const { return bars_; }
    QSize sizeHint() const override { return {560, 220}; }
    QSize minimumSizeHint() const override { return {300, 160}; }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

private:
    QRectF plotRect() const;
    int barAt(const QPoint& pos) const;
    std::vector<Bar> bars_;
    QStringList types_;
    double ymax_ = 10, mean_ = 0;
};

}  // namespace amn::ui
