// SPDX-License-Identifier: MIT OR Apache-2.0
#include "charts.hpp"
#include "charts_p.hpp"

#include "loadedmodel.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace amn::ui {

QColor seriesColor(int i) {
    static const QRgb colors[] = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0x76b7b2,
                                  0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor(colors[static_cast<unsigned>(i) % (sizeof colors / sizeof colors[0])]);
}

double niceStep(double range, int ticks) {
    if (!(range > 0) || ticks < 1) return 1;
    const double raw = range / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) return m * mag;
    return 10 * mag;
}

namespace chart_util {

QColor textColor(const QWidget* w) { return w->palette().color(QPalette::WindowText); }
QColor gridColor(const QWidget* w) {
    QColor c = textColor(w);
    c.setAlpha(45);
    return c;
}
QString percent(double f) { return QLocale().toString(100.0 * f, 'f', 1) + QStringLiteral(" %"); }

bool showTip(QWidget* w, QEvent* e, const std::function<QString(const QPoint&)>& tipAt) {
    if (e->type() != QEvent::ToolTip) return false;
    auto* he = static_cast<QHelpEvent*>(e);
    const QString tip = tipAt(he->pos());
    if (tip.isEmpty()) {
        QToolTip::hideText();
        e->ignore();
    } else {
        QToolTip::showText(he->globalPos(), tip, w);
    }
    return true;
}

QString elideKeepingBits(const QFontMetrics& fm, const QString& text, int room) {
    if (fm.horizontalAdvance(text) <= room) return text;
    // A bits-per-weight figure ("4.5 bits per weight", "4,50 bpw", "16 bits")
    // stays whole, with what follows it; the text before it is elided in the middle.
    static const QRegularExpression bits(QStringLiteral("\\d+(?:[.,]\\d+)?\\s*(?:bits per weight|bits|bpw)\\b"));
    const auto m = bits.match(text);
    if (!m.hasMatch()) return fm.elidedText(text, Qt::ElideMiddle, room);
    QString kept = text.mid(m.capturedStart());
    const QString before = text.left(m.capturedStart());
    // Too narrow for some of the name as well: the figure in its short form ("4.5 bpw").
    if (room - fm.horizontalAdvance(kept) < fm.horizontalAdvance(before.left(8)) + fm.horizontalAdvance(QChar(0x2026)))
        kept.replace(QStringLiteral("bits per weight"), QStringLiteral("bpw"));
    const int left = room - fm.horizontalAdvance(kept);
    if (left <= fm.horizontalAdvance(QChar(0x2026))) return QString(QChar(0x2026)) + kept;  // never cut the figure
    return fm.elidedText(before, Qt::ElideMiddle, left) + kept;
}

void drawYTick(QPainter& p, const QWidget* w, const QRectF& pr, double frac, const QString& label, double labelWidth) {
    const QFontMetrics fm(w->font());
    const double y = pr.bottom() - frac * pr.height();
    p.setPen(gridColor(w));
    p.drawLine(QPointF(pr.left(), y), QPointF(pr.right(), y));
    p.setPen(textColor(w));
    p.drawText(QRectF(pr.left() - labelWidth - 6, y - fm.height() / 2.0, labelWidth, fm.height()), Qt::AlignRight | Qt::AlignVCenter, label);
}

void drawYGrid(QPainter& p, const QWidget* w, const QRectF& pr, double ymax, double labelWidth) {
    const double step = niceStep(ymax, 5);
    for (double v = 0; v <= ymax + 1e-9; v += step) drawYTick(p, w, pr, v / ymax, QLocale().toString(v, 'g', 3), labelWidth);
}

void drawYTitle(QPainter& p, const QWidget* w, const QRectF& pr, const QString& title) {
    const QFontMetrics fm(w->font());
    p.save();
    p.translate(8 + fm.ascent(), pr.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-pr.height() / 2, -fm.ascent(), pr.height(), fm.height()), Qt::AlignCenter, title);
    p.restore();
}

}  // namespace chart_util

using namespace chart_util;

// ---- BreakdownChart ---------------------------------------------------------

BreakdownChart::BreakdownChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    QSizePolicy sp(QSizePolicy::Expanding, QSizePolicy::Preferred);
    sp.setHeightForWidth(true);
    setSizePolicy(sp);
}

void BreakdownChart::setRows(std::vector<Row> rows) {
    rows_ = std::move(rows);
    updateGeometry();
    update();
}

QSize BreakdownChart::sizeHint() const { return {480, heightForWidth(480)}; }
QSize BreakdownChart::minimumSizeHint() const { return {260, heightForWidth(260)}; }
int BreakdownChart::heightForWidth(int w) const { return layout(w, nullptr, nullptr); }

int BreakdownChart::layout(int width, std::vector<Hit>* hits, QPainter* p) const {
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fmb(bold);
    const int margin = 8, barH = std::max(20, fm.height() + 6), swatch = fm.height() - 4;
    const int x0 = margin, x1 = std::max(x0 + 40, width - margin);
    int y = margin;
    for (const Row& row : rows_) {
        quint64 total = 0;
        for (const auto& s : row.segments) total += s.bytes;
        // title + total
        if (p) {
            p->setPen(textColor(this));
            p->setFont(bold);
            p->drawText(QRect(x0, y, x1 - x0, fmb.height()), Qt::AlignLeft | Qt::AlignVCenter, row.title);
            p->setFont(font());
            p->drawText(QRect(x0, y, x1 - x0, fmb.height()), Qt::AlignRight | Qt::AlignVCenter,
                        tr("%1 in total").arg(humanBytes(total)));
        }
        y += fmb.height() + 4;
        // the stacked bar
        if (p) {
            p->setPen(Qt::NoPen);
            p->setBrush(palette().color(QPalette::Base));
            p->drawRect(x0, y, x1 - x0, barH);
        }
        double acc = 0;
        for (std::size_t i = 0; i < row.segments.size(); ++i) {
            const auto& s = row.segments[i];
            const double f = total ? static_cast<double>(s.bytes) / static_cast<double>(total) : 0;
            const int a = x0 + static_cast<int>(std::lround(acc * (x1 - x0)));
            acc += f;
            const int b = x0 + static_cast<int>(std::lround(acc * (x1 - x0)));
            const QRect r(a, y, std::max(b - a, s.bytes ? 1 : 0), barH);
            if (p) {
                p->setBrush(seriesColor(static_cast<int>(i)));
                p->drawRect(r);
                const QString inside = s.label;
                if (fm.horizontalAdvance(inside) + 8 < r.width()) {
                    p->setPen(Qt::white);
                    p->drawText(r, Qt::AlignCenter, inside);
                    p->setPen(Qt::NoPen);
                }
            }
            if (hits)
                hits->push_back({r, tr("%1\n%2 of %3 (%4), %Ln tensor(s)", nullptr, static_cast<int>(s.tensors))
                                        .arg(s.label, humanBytes(s.bytes), humanBytes(total), percent(f))});
        }
        y += barH;
        // percentage scale
        if (p) {
            p->setPen(gridColor(this));
            p->drawLine(x0, y, x1, y);
            p->setPen(textColor(this));
        }
        for (int t = 0; t <= 4; ++t) {
            const int x = x0 + (x1 - x0) * t / 4;
            if (p) {
                p->drawLine(x, y, x, y + 4);
                const QString lab = QString::number(25 * t) + QStringLiteral(" %");
                const int w = fm.horizontalAdvance(lab);
                const int lx = std::clamp(x - w / 2, x0, x1 - w);
                p->drawText(QRect(lx, y + 5, w, fm.height()), Qt::AlignCenter, lab);
            }
        }
        y += 5 + fm.height() + 6;
        // legend, wrapped
        int lx = x0;
        const int lineH = fm.height() + 4;
        for (std::size_t i = 0; i < row.segments.size(); ++i) {
            const auto& s = row.segments[i];
            const double f = total ? static_cast<double>(s.bytes) / static_cast<double>(total) : 0;
            QString text = tr("%1 — %2 (%3)").arg(s.label, humanBytes(s.bytes), percent(f));
            const int room = x1 - x0 - swatch - 6 - 16;
            text = elideKeepingBits(fm, text, room);  // the bits-per-weight figure is never cut
            const int w = swatch + 6 + fm.horizontalAdvance(text) + 16;
            if (lx > x0 && lx + w > x1) {
                lx = x0;
                y += lineH;
            }
            const QRect entry(lx, y, w - 16, lineH);
            if (p) {
                p->setPen(Qt::NoPen);
                p->setBrush(seriesColor(static_cast<int>(i)));
                p->drawRect(lx, y + (lineH - swatch) / 2, swatch, swatch);
                p->setPen(textColor(this));
                p->drawText(QRect(lx + swatch + 6, y, w, lineH), Qt::AlignLeft | Qt::AlignVCenter, text);
            }
            if (hits)
                hits->push_back({entry, tr("%1\n%2 of %3 (%4), %Ln tensor(s)", nullptr, static_cast<int>(s.tensors))
                                            .arg(s.label, humanBytes(s.bytes), humanBytes(total), percent(f))});
            lx += w;
        }
        y += lineH + 14;
    }
    if (rows_.empty()) y += fm.height();
    return y;
}

void BreakdownChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    hits_.clear();
    layout(width(), &hits_, &p);
}

bool BreakdownChart::event(QEvent* e) {
    if (showTip(this, e, [this](const QPoint& pos) {
            for (const auto& h : hits_)
                if (h.rect.contains(pos)) return h.tip;
            return QString();
        }))
        return true;
    return QWidget::event(e);
}

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

// Index of the equal-width band of `pr` (n bands, left to right) under
// `pos`, or -1: the hover lookup both bar charts use.
int chart_util::bandAt(const QRectF& pr, std::size_t n, const QPoint& pos) {
    if (n == 0) return -1;
    const double band = pr.width() / static_cast<double>(n);
    const int i = static_cast<int>((pos.x() - pr.left()) / band);
    return i >= 0 && i < static_cast<int>(n) ? i : -1;
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
    int lx = 8;
    const int ly = 8 + fm.height() + 8, sw = fm.height() - 4;
    auto legendBox = [&](const QColor& c, const QString& s) {
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRect(lx, ly + 2, sw, sw);
        p.setPen(text);
        p.drawText(QRect(lx + sw + 6, ly, fm.horizontalAdvance(s) + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, s);
        lx += sw + 6 + fm.horizontalAdvance(s) + 18;
    };
    legendBox(seriesColor(0), tr("quantized layer"));
    legendBox(seriesColor(9), tr("full precision"));
    {
        QPen dash(seriesColor(3), 2, Qt::DashLine);
        p.setPen(dash);
        p.drawLine(lx, ly + fm.height() / 2, lx + 22, ly + fm.height() / 2);
        p.setPen(text);
        const QString s = tr("BF16 = 16 bits");
        p.drawText(QRect(lx + 28, ly, fm.horizontalAdvance(s) + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, s);
    }

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
