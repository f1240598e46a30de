// SPDX-License-Identifier: MIT OR Apache-2.0
// LossChart (charts.hpp): measured loss per tensor after forget.
#include "charts.hpp"
#include "charts_p.hpp"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

// ---- LossChart ------------------------------------------------------------------

namespace amn::ui {

using namespace chart_util;

LossChart::LossChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LossChart::setBars(std::vector<Bar> bars) {
    bars_ = std::move(bars);
    types_.clear();
    double mx = 0, sum = 0;
    int finite = 0;
    for (const auto& b : bars_) {
        if (!types_.contains(b.type)) types_ << b.type;
        if (std::isfinite(b.sqnr_db)) {
            mx = std::max(mx, b.sqnr_db);
            sum += b.sqnr_db;
            ++finite;
        }
    }
    mean_ = finite ? sum / finite : 0;
    if (!(mx > 0)) mx = 10;
    const double step = niceStep(mx * 1.1, 5);
    ymax_ = std::ceil(mx * 1.1 / step) * step;
    update();
}

QRectF LossChart::plotRect() const {
    const QFontMetrics fm(font());
    const double left = 8 + fm.height() + 6 + fm.horizontalAdvance(QStringLiteral("000")) + 8;
    const double top = 8 + 2 * (fm.height() + 6) + 4;
    const double bottom = 8 + fm.height() + 8;
    return QRectF(left, top, std::max(10.0, width() - left - 16), std::max(10.0, height() - top - bottom));
}

int LossChart::barAt(const QPoint& pos) const {
    const QRectF pr = plotRect();
    if (!pr.contains(pos)) return -1;
    return bandAt(pr, bars_.size(), pos);
}

void LossChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QFontMetrics fm(font());
    const QColor text = textColor(this);
    QFont bold = font();
    bold.setBold(true);
    p.setPen(text);
    p.setFont(bold);
    const QRect titleRect(8, 8, width() - 16, fm.height() + 2);
    const QString title = tr("Measured loss per tensor: SQNR (higher is better), mean %1 dB")
                              .arg(QLocale().toString(mean_, 'f', 1));
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, QFontMetrics(bold).elidedText(title, Qt::ElideRight, titleRect.width()));
    p.setFont(font());

    // Legend: one box per type written, then the mean line.
    const int ly = 8 + fm.height() + 8;
    int lx = 8;
    for (int t = 0; t < types_.size(); ++t) lx = drawLegendBox(p, this, lx, ly, seriesColor(t), types_[t], 14);
    drawLegendLine(p, this, lx, ly, QPen(text, 1, Qt::DashLine), tr("mean"));

    const QRectF pr = plotRect();
    p.fillRect(pr, palette().color(QPalette::Base));
    drawYGrid(p, this, pr, ymax_);
    drawYTitle(p, this, pr, tr("SQNR (dB)"));

    const std::size_t n = bars_.size();
    const double band = n ? pr.width() / static_cast<double>(n) : pr.width();
    const double bw = std::clamp(band * 0.8, 1.0, 3.0 * fm.height());
    for (std::size_t i = 0; i < n; ++i) {
        const auto& b = bars_[i];
        const double v = std::isfinite(b.sqnr_db) ? std::clamp(b.sqnr_db, 0.0, ymax_) : ymax_;
        const double h = v / ymax_ * pr.height();
        p.fillRect(QRectF(pr.left() + band * static_cast<double>(i) + (band - bw) / 2, pr.bottom() - h, bw, h),
                   seriesColor(static_cast<int>(types_.indexOf(b.type))));
    }
    if (mean_ > 0) {
        const double y = pr.bottom() - std::min(mean_, ymax_) / ymax_ * pr.height();
        p.setPen(QPen(text, 1, Qt::DashLine));
        p.drawLine(QPointF(pr.left(), y), QPointF(pr.right(), y));
    }
    p.setPen(text);
    p.drawLine(pr.bottomLeft(), pr.bottomRight());
    p.drawText(QRectF(pr.left(), pr.bottom() + 4, pr.width(), fm.height()), Qt::AlignCenter,
               n ? tr("%Ln tensor(s) in file order (hover a bar for its name)", nullptr, static_cast<int>(n)) : tr("No tensor was quantized"));
}

bool LossChart::event(QEvent* e) {
    if (showTip(this, e, [this](const QPoint& pos) {
            const int i = barAt(pos);
            if (i < 0) return QString();
            const auto& b = bars_[static_cast<std::size_t>(i)];
            const QString sqnr = std::isfinite(b.sqnr_db) ? tr("%1 dB").arg(QLocale().toString(b.sqnr_db, 'f', 2)) : tr("exact");
            return tr("<b>%1</b><br>%2, %3 bits per weight<br>RMSE %4, SQNR %5")
                .arg(b.name.toHtmlEscaped(), b.type, QLocale().toString(b.bits, 'f', 2), QLocale().toString(b.rmse, 'g', 4), sqnr);
        }))
        return true;
    return QWidget::event(e);
}

}  // namespace amn::ui
