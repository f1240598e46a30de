// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal helpers shared by the chart files (charts.cc; one file per chart:
// breakdownchart.cc, lethechart.cc, histogramchart.cc, losschart.cc).
#include <QColor>
#include <QFontMetrics>
#include <QPoint>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <cstddef>
#include <functional>

class QEvent;
class QPainter;

namespace amn::ui::chart_util {

/// The widget's text colour (palette WindowText).
QColor textColor(const QWidget* w);
/// The text colour at low alpha, for grid lines.
QColor gridColor(const QWidget* w);
/// `f` (a fraction) as a locale percentage with one decimal ("12,5 %").
QString percent(double f);
/// Show the tooltip `tipAt(pos)` for a ToolTip event (hide it when empty);
/// true when `e` was a ToolTip event.
bool showTip(QWidget* w, QEvent* e, const std::function<QString(const QPoint&)>& tipAt);
/// `text` fitted into `room` pixels without ever cutting a bits-per-weight
/// figure ("4.5 bits per weight", "4,50 bpw", "16 bits"): the figure and
/// what follows it stay whole (even when wider than `room`), the text before
/// it is elided in the middle; when that leaves no room for the start of the
/// name, "bits per weight" is shortened to "bpw" (the number is kept).
/// Text without such a figure: Qt::ElideMiddle.
QString elideKeepingBits(const QFontMetrics& fm, const QString& text, int room);
/// `head` + `tail` fitted into `room` pixels, `tail` never cut: `head` is
/// elided in the middle; when that leaves no room for the first characters
/// of `head`, `tailShort` replaces `tail` (when given). A `tail` wider than
/// `room` is shown whole after "…". The legend of a segment with a figure
/// (BreakdownChart::Segment::figure) and elideKeepingBits() use it.
QString elideKeepingTail(const QFontMetrics& fm, const QString& head, const QString& tail, const QString& tailShort, int room);

/// One y-axis grid line across `pr` at height fraction `frac` (0: the
/// bottom, 1: the top), in gridColor(), and its `label` right-aligned in
/// the `labelWidth` pixels that end 6 px left of `pr`. Leaves the pen in
/// textColor().
void drawYTick(QPainter& p, const QWidget* w, const QRectF& pr, double frac, const QString& label, double labelWidth);
/// The grid of a linear y axis from 0 to `ymax` (> 0) in niceStep(ymax, 5)
/// steps, each labelled with its value (QLocale, 3 significant digits) in
/// `labelWidth` pixels: the bar charts' axis (LetheChart, LossChart).
void drawYGrid(QPainter& p, const QWidget* w, const QRectF& pr, double ymax, double labelWidth = 60);
/// The y-axis `title`, rotated a quarter turn, centred along `pr`'s height
/// at the widget's left margin (8 px).
void drawYTitle(QPainter& p, const QWidget* w, const QRectF& pr, const QString& title);

/// A legend entry in the row whose top is `y`, starting at `x`: a filled
/// square of `color` (the row's height − 4) and `label` in textColor().
/// Returns the x where the next entry starts (`gap` pixels after the label).
/// Leaves the pen in textColor() and the brush in `color`.
int drawLegendBox(QPainter& p, const QWidget* w, int x, int y, const QColor& color, const QString& label, int gap);
/// A legend entry for a line: 22 px of `pen` across the row's middle, then
/// `label` in textColor(), as drawLegendBox. Returns the x after the label.
int drawLegendLine(QPainter& p, const QWidget* w, int x, int y, const QPen& pen, const QString& label);

/// Index of the band under `pos` when `pr`'s width is split into `n` equal
/// bands (bar charts), or −1 outside.
int bandAt(const QRectF& pr, std::size_t n, const QPoint& pos);

}  // namespace amn::ui::chart_util
