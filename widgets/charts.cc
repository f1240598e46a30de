// SPDX-License-Identifier: MIT OR Apache-2.0
// What the charts share: series colours, nice axis steps, the y axis, tooltips
// (charts_p.hpp). Each chart is in a file of its own.
#include "charts.hpp"
#include "charts_p.hpp"

#include <QCoreApplication>
#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
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
    // A bits-per-weight figure ("4.5 bits per weight", "4,50 bpw", "16 bits";
    // in the interface's language: "4,5 Bit pro Gewicht", "4 Bit") stays
    // whole, with what follows it; the text before it is elided in the middle.
    const QString perWeight = QCoreApplication::translate("amn::ui::BitsFigure", "bits per weight");
    const QString bitsWord = QCoreApplication::translate("amn::ui::BitsFigure", "bits");
    const QString shortForm = QCoreApplication::translate("amn::ui::BitsFigure", "bpw");
    QStringList words{perWeight, QStringLiteral("bits per weight"), bitsWord, QStringLiteral("bits"), shortForm, QStringLiteral("bpw")};
    words.removeDuplicates();
    for (auto& w : words) w = QRegularExpression::escape(w);
    const QRegularExpression bits(QStringLiteral("\\d+(?:[.,]\\d+)?\\s*(?:") + words.join(QChar('|')) + QStringLiteral(")\\b"));
    const auto m = bits.match(text);
    if (!m.hasMatch()) return fm.elidedText(text, Qt::ElideMiddle, room);
    const QString kept = text.mid(m.capturedStart());
    QString keptShort = kept;
    keptShort.replace(perWeight, shortForm);
    keptShort.replace(QStringLiteral("bits per weight"), QStringLiteral("bpw"));
    return elideKeepingTail(fm, text.left(m.capturedStart()), kept, keptShort, room);
}

QString elideKeepingTail(const QFontMetrics& fm, const QString& head, const QString& tail, const QString& tailShort, int room) {
    if (fm.horizontalAdvance(head + tail) <= room) return head + tail;
    QString kept = tail;
    // Too narrow for some of the head as well: the tail in its short form.
    if (!tailShort.isEmpty() &&
        room - fm.horizontalAdvance(kept) < fm.horizontalAdvance(head.left(8)) + fm.horizontalAdvance(QChar(0x2026)))
        kept = tailShort;
    const int left = room - fm.horizontalAdvance(kept);
    if (left <= fm.horizontalAdvance(QChar(0x2026))) return QString(QChar(0x2026)) + kept;  // never cut the tail
    return fm.elidedText(head, Qt::ElideMiddle, left) + kept;
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

int drawLegendBox(QPainter& p, const QWidget* w, int x, int y, const QColor& color, const QString& label, int gap) {
    const QFontMetrics fm(w->font());
    const int sw = fm.height() - 4;
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawRect(x, y + 2, sw, sw);
    p.setPen(textColor(w));
    p.drawText(QRect(x + sw + 6, y, fm.horizontalAdvance(label) + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
    return x + sw + 6 + fm.horizontalAdvance(label) + gap;
}

int drawLegendLine(QPainter& p, const QWidget* w, int x, int y, const QPen& pen, const QString& label) {
    const QFontMetrics fm(w->font());
    p.setPen(pen);
    p.drawLine(x, y + fm.height() / 2, x + 22, y + fm.height() / 2);
    p.setPen(textColor(w));
    p.drawText(QRect(x + 28, y, fm.horizontalAdvance(label) + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
    return x + 28 + fm.horizontalAdvance(label);
}

// Index of the equal-width band of `pr` (n bands, left to right) under
// `pos`, or -1: the hover lookup both bar charts use.
int bandAt(const QRectF& pr, std::size_t n, const QPoint& pos) {
    if (n == 0) return -1;
    const double band = pr.width() / static_cast<double>(n);
    const int i = static_cast<int>((pos.x() - pr.left()) / band);
    return i >= 0 && i < static_cast<int>(n) ? i : -1;
}

}  // namespace chart_util

}  // namespace amn::ui
