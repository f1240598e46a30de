// SPDX-License-Identifier: MIT OR Apache-2.0
// LetheChart (charts.hpp): "what Lethe took", stored bits per weight per layer.
#include "charts.hpp"
#include "charts_p.hpp"

#include "loadedmodel.hpp"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace amn::ui {

using namespace chart_util;

// ---- LetheChart -------------------------------------------------------------

LetheChart::LetheChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LetheChart::setLayers(std::vector<Layer> layers, quint64 tookBytes, quint64 ofBytes) {
    layers_ = std::move(layers);
    took_ = tookBytes;
    of_ = ofBytes;
    double mx = 16;
    for (const auto& l : layers_) mx = std::max(mx, l.bits);
    const double step = niceStep(mx * 1.1, 5);
    ymax_ = std::ceil(mx * 1.1 / step) * step;
    update();
}

QRectF LetheChart::plotRect() const {
    const QFontMetrics fm(font());
    const double left = 8 + fm.height() + 6 + fm.horizontalAdvance(QStringLiteral("00.0")) + 8;
    const double top = 8 + 2 * (fm.height() + 6) + 6;
    const double bottom = 8 + fm.height() + 4 + fm.height() + 8;
    const double right = 16;
    return QRectF(left, top, std::max(10.0, width() - left - right), std::max(10.0, height() - top - bottom));
}

int LetheChart::layerAt(const QPoint& pos) const {
    const QRectF pr = plotRect();
    if (!pr.adjusted(0, 0, 0, 8).contains(pos)) return -1;
    return bandAt(pr, layers_.size(), pos);
}

void LetheChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QFontMetrics fm(font());
    const QColor text = textColor(this);
    QFont bold = font();
    bold.setBold(true);

    // Title: the headline number.
    p.setPen(text);
    p.setFont(bold);
    const QRect titleRect(8, 8, width() - 16, fm.height() + 2);
    const QString title = of_ > 0 ? tr("Lethe took %1 of %2 (%3): stored bits per weight by layer")
                                          .arg(humanBytes(took_), humanBytes(of_),
                                               percent(static_cast<double>(took_) / static_cast<double>(of_)))
                                    : tr("Nothing is quantized: every tensor keeps its stored precision");
    const QFontMetrics fmb(bold);
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, fmb.elidedText(title, Qt::ElideRight, titleRect.width()));
    if (fmb.horizontalAdvance(title) > titleRect.width()) setToolTip(title);
    p.setFont(font());

    // Legend.
    const int ly = 8 + fm.height() + 8;
    int lx = drawLegendBox(p, this, 8, ly, seriesColor(0), tr("quantized layer"), 18);
    lx = drawLegendBox(p, this, lx, ly, seriesColor(9), tr("full precision"), 18);
    drawLegendLine(p, this, lx, ly, QPen(seriesColor(3), 2, Qt::DashLine), tr("BF16 = 16 bits"));

    const QRectF pr = plotRect();
    p.fillRect(pr, palette().color(QPalette::Base));
    // Y axis: ticks, grid, title.
    drawYGrid(p, this, pr, ymax_);
    drawYTitle(p, this, pr, tr("bits per weight"));

    // Bars. More layers than pixels (10 000 layers): one bar per pixel column,
    // as high as the highest layer in it, so a paint costs the width, not the count.
    const std::size_t n = layers_.size();
    const double band = n ? pr.width() / static_cast<double>(n) : pr.width();
    const bool valuesFit = band > fm.horizontalAdvance(QStringLiteral("00.00")) + 4;
    if (band < 1.0) {
        const int cols = std::max(1, static_cast<int>(pr.width()));
        std::vector<double> top(static_cast<std::size_t>(cols), -1);
        std::vector<char> quant(static_cast<std::size_t>(cols), 0);
        for (std::size_t i = 0; i < n; ++i) {
            const auto c = std::min<std::size_t>(static_cast<std::size_t>(band * static_cast<double>(i)), top.size() - 1);
            top[c] = std::max(top[c], layers_[i].bits);
            quant[c] = static_cast<char>(quant[c] || layers_[i].quantized);
        }
        for (std::size_t c = 0; c < top.size(); ++c) {
            if (top[c] < 0) continue;
            const double h = std::min(top[c], ymax_) / ymax_ * pr.height();
            p.fillRect(QRectF(pr.left() + static_cast<double>(c), pr.bottom() - h, 1.0, h), quant[c] ? seriesColor(0) : seriesColor(9));
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            const auto& l = layers_[i];
            const double h = std::min(l.bits, ymax_) / ymax_ * pr.height();
            const double bw = std::clamp(band * 0.7, 1.0, 4.0 * fm.height());
            const QRectF bar(pr.left() + band * static_cast<double>(i) + (band - bw) / 2, pr.bottom() - h, bw, h);
            p.fillRect(bar, l.quantized ? seriesColor(0) : seriesColor(9));
            if (!valuesFit) continue;
            const QString value = QLocale().toString(l.bits, 'f', l.bits < 10 ? 2 : 1);
            if (fm.horizontalAdvance(value) + 4 < band) {
                p.setPen(text);
                p.drawText(QRectF(bar.center().x() - band / 2, bar.top() - fm.height() - 2, band, fm.height()), Qt::AlignCenter, value);
            }
        }
    }
    // BF16 reference line.
    {
        const double y = pr.bottom() - 16.0 / ymax_ * pr.height();
        p.setPen(QPen(seriesColor(3), 2, Qt::DashLine));
        p.drawLine(QPointF(pr.left(), y), QPointF(pr.right(), y));
    }
    // X axis labels (thinned so they never overlap) and title.
    p.setPen(text);
    p.drawLine(pr.bottomLeft(), pr.bottomRight());
    // Widest label. Layer numbers are measured as that many "0"s (digits
    // share one advance), so 10 000 numeric labels cost one measurement.
    int widest = 1;
    qsizetype digits = 0;
    for (const auto& l : layers_) {
        const bool numeric = !l.label.isEmpty() && std::all_of(l.label.cbegin(), l.label.cend(), [](QChar c) { return c.isDigit(); });
        if (numeric) digits = std::max(digits, l.label.size());
        else widest = std::max(widest, fm.horizontalAdvance(l.label));
    }
    if (digits) widest = std::max(widest, fm.horizontalAdvance(QString(digits, QLatin1Char('0'))));
    const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((widest + 8) / std::max(band, 1.0))));
    for (std::size_t i = 0; i < n; i += every) {
        const double cx = pr.left() + band * (static_cast<double>(i) + 0.5);
        p.drawLine(QPointF(cx, pr.bottom()), QPointF(cx, pr.bottom() + 3));
        p.drawText(QRectF(cx - widest / 2.0 - 4, pr.bottom() + 4, widest + 8, fm.height()), Qt::AlignCenter, layers_[i].label);
    }
    p.drawText(QRectF(pr.left(), pr.bottom() + 4 + fm.height() + 2, pr.width(), fm.height()), Qt::AlignCenter,
               tr("layer (hover a bar for its tensors)"));
    if (n == 0) p.drawText(pr, Qt::AlignCenter, tr("No tensors"));
}

bool LetheChart::event(QEvent* e) {
    if (showTip(this, e, [this](const QPoint& pos) {
            const int i = layerAt(pos);
            if (i < 0) return QString();
            const auto& l = layers_[static_cast<std::size_t>(i)];
            QString tip = tr("<b>%1</b> — %Ln tensor(s)", nullptr, l.tensors).arg(l.name.toHtmlEscaped());
            tip += QStringLiteral("<br>") + tr("%1 bits per weight (BF16: 16)").arg(QLocale().toString(l.bits, 'f', 2));
            tip += QStringLiteral("<br>") + tr("stored %1, as BF16 %2, saved %3")
                                                 .arg(humanBytes(l.stored), humanBytes(l.bf16),
                                                      humanBytes(l.bf16 > l.stored ? l.bf16 - l.stored : 0));
            tip += QStringLiteral("<table>");
            const std::size_t shown = std::min<std::size_t>(l.detail.size(), 16);
            for (std::size_t k = 0; k < shown; ++k) {
                const auto& t = l.detail[k];
                tip += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td><td align=right>&nbsp;%3</td></tr>")
                           .arg(t.name.toHtmlEscaped(), tr("%1 bits").arg(QLocale().toString(t.bits, 'f', 2)),
                                tr("saved %1").arg(humanBytes(t.bf16 > t.stored ? t.bf16 - t.stored : 0)));
            }
            tip += QStringLiteral("</table>");
            if (l.detail.size() > shown) tip += tr("… and %Ln more", nullptr, static_cast<int>(l.detail.size() - shown));
            return tip;
        }))
        return true;
    return QWidget::event(e);
}

}  // namespace amn::ui
