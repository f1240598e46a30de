// SPDX-License-Identifier: MIT OR Apache-2.0
// HistogramChart (charts.hpp): the value histogram of a tensor.
#include "charts.hpp"
#include "charts_p.hpp"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace amn::ui {

using namespace chart_util;

// ---- HistogramChart ---------------------------------------------------------

HistogramChart::HistogramChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HistogramChart::setHistogram(std::vector<quint64> bins, double lo, double hi) {
    bins_ = std::move(bins);
    lo_ = lo;
    hi_ = hi;
    message_.clear();
    update();
}

void HistogramChart::setLogScale(bool on) {
    log_ = on;
    update();
}

void HistogramChart::clear(const QString& message) {
    bins_.clear();
    message_ = message;
    update();
}

QRectF HistogramChart::plotRect() const {
    const QFontMetrics fm(font());
    const double left = 8 + fm.height() + 6 + fm.horizontalAdvance(QStringLiteral("000,000")) + 6;
    const double top = fm.height() / 2.0 + 6, right = 16;
    const double bottom = 8 + 2 * fm.height() + 10;
    return QRectF(left, top, std::max(10.0, width() - left - right), std::max(10.0, height() - top - bottom));
}

void HistogramChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QFontMetrics fm(font());
    const QColor text = textColor(this);
    const QRectF pr = plotRect();
    p.fillRect(pr, palette().color(QPalette::Base));
    p.setPen(text);
    if (bins_.empty()) {
        p.drawText(pr, Qt::AlignCenter | Qt::TextWordWrap, message_.isEmpty() ? tr("No statistics yet") : message_);
        return;
    }
    const quint64 maxCount = std::max<quint64>(1, *std::max_element(bins_.begin(), bins_.end()));
    // Count → height fraction. Log axis: 0 at the bottom, then one band per
    // decade from 1 to the next power of ten above the largest count.
    const double decades = std::max(1.0, std::ceil(std::log10(static_cast<double>(maxCount))));
    const double ystep = std::max(1.0, niceStep(static_cast<double>(maxCount), 4));
    const double ymax = std::ceil(static_cast<double>(maxCount) / ystep) * ystep;
    auto frac = [&](double c) {
        if (!log_) return c / ymax;
        return c < 1 ? 0.0 : (1.0 + std::log10(c)) / (1.0 + decades);
    };
    auto tick = [&](double v) { drawYTick(p, this, pr, frac(v), QLocale().toString(static_cast<qulonglong>(v)), 100); };
    if (log_) {
        tick(0);
        for (double d = 0; d <= decades; ++d) tick(std::pow(10.0, d));
    } else {
        for (double v = 0; v <= ymax + 0.5; v += ystep) tick(v);
    }
    const double bw = pr.width() / static_cast<double>(bins_.size());
    for (std::size_t i = 0; i < bins_.size(); ++i) {
        const double h = frac(static_cast<double>(bins_[i])) * pr.height();
        p.fillRect(QRectF(pr.left() + bw * static_cast<double>(i), pr.bottom() - h, std::max(1.0, bw - 1), h), seriesColor(0));
    }
    p.setPen(text);
    p.drawLine(pr.bottomLeft(), pr.bottomRight());
    // Value axis.
    const double range = hi_ - lo_;
    if (range > 0) {
        const double step = niceStep(range, 5);
        double last = -1e300;
        for (double v = std::ceil(lo_ / step) * step; v <= hi_ + step * 1e-9; v += step) {
            const double x = pr.left() + (v - lo_) / range * pr.width();
            const QString lab = QLocale().toString(std::abs(v) < step * 1e-6 ? 0.0 : v, 'g', 4);
            const double w = fm.horizontalAdvance(lab);
            const double lx = std::clamp(x - w / 2, pr.left() - 20, pr.right() + 14 - w);
            if (lx < last + 6) continue;
            p.drawLine(QPointF(x, pr.bottom()), QPointF(x, pr.bottom() + 3));
            p.drawText(QRectF(lx, pr.bottom() + 4, w + 2, fm.height()), Qt::AlignCenter, lab);
            last = lx + w;
        }
    }
    p.drawText(QRectF(pr.left(), pr.bottom() + 4 + fm.height() + 2, pr.width(), fm.height()), Qt::AlignCenter,
               tr("dequantized value"));
    // The long log-axis title only where it fits along the axis (the ticks 1, 10, 100 show the scale).
    const QString logTitle = tr("count (log scale)");
    drawYTitle(p, this, pr, log_ && fm.horizontalAdvance(logTitle) <= pr.height() ? logTitle : tr("count"));
}

bool HistogramChart::event(QEvent* e) {
    if (showTip(this, e, [this](const QPoint& pos) {
            const QRectF pr = plotRect();
            if (bins_.empty() || !pr.contains(pos)) return QString();
            const double bw = pr.width() / static_cast<double>(bins_.size());
            const auto i = static_cast<std::size_t>((pos.x() - pr.left()) / bw);
            if (i >= bins_.size()) return QString();
            const double w = (hi_ - lo_) / static_cast<double>(bins_.size());
            const double a = lo_ + w * static_cast<double>(i);
            return tr("[%1, %2): %3 values")
                .arg(QLocale().toString(a, 'g', 5), QLocale().toString(a + w, 'g', 5), QLocale().toString(bins_[i]));
        }))
        return true;
    return QWidget::event(e);
}

}  // namespace amn::ui
