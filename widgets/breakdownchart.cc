// SPDX-License-Identifier: MIT OR Apache-2.0
// BreakdownChart (charts.hpp): 100 %-stacked bars by dtype and by scheme.
#include "charts.hpp"
#include "charts_p.hpp"

#include "loadedmodel.hpp"

#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace amn::ui {

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
            const int room = x1 - x0 - swatch - 6 - 16;
            QString text;
            if (s.figure.isEmpty()) {
                text = fm.elidedText(tr("%1 — %2 (%3)").arg(s.label, humanBytes(s.bytes), percent(f)), Qt::ElideMiddle, room);
            } else {  // the segment's figure (data, never cut) after the label: "LABEL — 4.50 bits per weight, 2 MiB (40 %)"
                const QString tail = tr(" — %1, %2 (%3)").arg(s.figure, humanBytes(s.bytes), percent(f));
                const QString tailShort = tr(" — %1, %2 (%3)").arg(s.figureShort, humanBytes(s.bytes), percent(f));
                text = elideKeepingTail(fm, s.label, tail, tailShort, room);
            }
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

}  // namespace amn::ui
