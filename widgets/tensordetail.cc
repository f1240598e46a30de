// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tensordetail.hpp"

#include "charts.hpp"
#include "schemetext.hpp"
#include "tensortreemodel.hpp"
#include "valuepreview.hpp"

#include "anamnesis/error.hpp"

#include <QCheckBox>
#include <QFormLayout>

#include <algorithm>
#include <cmath>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace amn::ui {

TensorDetail::TensorDetail(ModelPtr model, QWidget* parent) : QWidget(parent), model_(std::move(model)) {
    auto* layout = new QVBoxLayout(this);
    title_ = new QLabel(tr("Select a tensor in the tree."), this);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setMinimumWidth(1);  // elided to the width (elideTitle), never widening the panel
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont f = title_->font();
    f.setBold(true);
    title_->setFont(f);
    layout->addWidget(title_);
    info_ = new QLabel(this);
    info_->setWordWrap(true);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setTextFormat(Qt::RichText);
    layout->addWidget(info_);

    sources_ = new QTreeWidget(this);
    sources_->setHeaderLabels({tr("Stored tensor"), tr("Dtype"), tr("Shape"), tr("Size"), tr("Role")});
    sources_->setRootIsDecorated(false);
    // Long stored names keep both ends: model.layers.0…down_proj.weight_scale_inv
    sources_->setTextElideMode(Qt::ElideMiddle);
    sources_->setUniformRowHeights(true);
    sources_->header()->setStretchLastSection(false);
    sources_->header()->setSectionResizeMode(QHeaderView::Interactive);  // widths set by fitSourceColumns()
    sources_->setMaximumHeight(130);
    // Fit the columns when the list's viewport changes size: the detail may be
    // filled while its tab is hidden, before the list has its final width.
    sources_->viewport()->installEventFilter(this);
    layout->addWidget(sources_);

    auto* statsRow = new QHBoxLayout;
    statsButton_ = new QPushButton(tr("Compute statistics"), this);
    statsButton_->setEnabled(false);
    connect(statsButton_, &QPushButton::clicked, this, [this] { computeStats(planIndex_); });
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    progress_->setFormat(tr("statistics %p%"));
    progress_->setVisible(false);
    statsRow->addWidget(statsButton_);
    statsRow->addWidget(progress_, 1);
    statsRow->addStretch(0);
    auto* logScale = new QCheckBox(tr("&Log scale"), this);
    logScale->setToolTip(tr("Logarithmic count axis for the histogram: shows rare values in the tails"));
    statsRow->addWidget(logScale);
    statsButton_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    layout->addLayout(statsRow);

    auto* grid = new QGridLayout;
    const QList<QPair<QString, QString>> keys = {
        {QStringLiteral("min"), tr("min")},        {QStringLiteral("max"), tr("max")},
        {QStringLiteral("mean"), tr("mean")},      {QStringLiteral("std"), tr("std")},
        {QStringLiteral("zeros"), tr("zeros")},    {QStringLiteral("nan"), tr("NaN")},
        {QStringLiteral("inf"), tr("±Inf")},       {QStringLiteral("count"), tr("values")}};
    for (int i = 0; i < keys.size(); ++i) {
        auto* name = new QLabel(keys[i].second + QLatin1Char(':'), this);
        auto* value = new QLabel(QStringLiteral("—"), this);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid->addWidget(name, i / 4, (i % 4) * 2);
        grid->addWidget(value, i / 4, (i % 4) * 2 + 1);
        statLabels_.insert(keys[i].first, value);
    }
    for (int c = 1; c < 8; c += 2) grid->setColumnStretch(c, 1);
    layout->addLayout(grid);
    // Precision the output dtype gives up on top of the quantization.
    auto* lost = new QFormLayout;
    lost->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const auto& [key, label] : {QPair<QString, QString>{QStringLiteral("lost-bf16"), tr("Written as BF16 loses")},
                                     QPair<QString, QString>{QStringLiteral("lost-f16"), tr("Written as F16 loses")}}) {
        auto* value = new QLabel(QStringLiteral("—"), this);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        value->setToolTip(tr("Measured against the exact f32 dequantized values: root-mean-square error, "
                             "largest absolute error and signal-to-quantization-noise ratio."));
        lost->addRow(label, value);
        statLabels_.insert(key, value);
    }
    {   // What quantization took, estimated by re-quantizing (round to nearest).
        auto* value = new QLabel(QStringLiteral("—"), this);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        value->setToolTip(tr("Estimated by re-quantizing the dequantized values with the same scheme "
                             "(round to nearest) and comparing. The original weights are not in the file: "
                             "values already on the scheme's grid come back unchanged."));
        lost->addRow(tr("Lethe took (estimate)"), value);
        statLabels_.insert(QStringLiteral("lethe"), value);
    }
    layout->addLayout(lost);
    auto* tabs = new QTabWidget(this);
    histogram_ = new HistogramChart(tabs);
    tabs->addTab(histogram_, tr("&Histogram"));
    preview_ = new ValuePreviewPanel(model_, tabs);
    tabs->addTab(preview_, tr("&Values"));
    layout->addWidget(tabs, 1);
    connect(logScale, &QCheckBox::toggled, histogram_, &HistogramChart::setLogScale);
}

TensorDetail::~TensorDetail() { jobs_.cancelAndWait(); }

void TensorDetail::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    elideTitle();
    fitSourceColumns();
}

bool TensorDetail::eventFilter(QObject* watched, QEvent* e) {
    if (watched == sources_->viewport() && e->type() == QEvent::Resize) fitSourceColumns();
    return QWidget::eventFilter(watched, e);
}

void TensorDetail::fitSourceColumns() {
    // The other columns get their content width (short: a dtype, a shape, a
    // size, a role) while the name column keeps at least 40 % of the width;
    // narrower, they shrink in proportion. The name is elided in the middle.
    const int avail = sources_->viewport()->width();
    if (avail <= 0) return;
    int others = 0;
    int want[5] = {};
    const QFontMetrics fm = sources_->fontMetrics();
    for (int c = 1; c < 5; ++c) {
        int w = sources_->header()->sectionSizeHint(c);
        for (int i = 0; i < sources_->topLevelItemCount(); ++i) w = std::max(w, fm.horizontalAdvance(sources_->topLevelItem(i)->text(c)) + 14);
        others += want[c] = w;
    }
    const int room = std::max(avail - avail * 40 / 100, 0);
    const double k = others > room && others > 0 ? static_cast<double>(room) / others : 1.0;
    int used = 0;
    for (int c = 1; c < 5; ++c) {
        const int w = static_cast<int>(want[c] * k);
        sources_->setColumnWidth(c, w);
        used += w;
    }
    sources_->setColumnWidth(0, std::max(avail - used, 40));
}

void TensorDetail::elideTitle() {
    if (fullTitle_.isEmpty()) return;
    const int room = std::max(40, width() - 2 * layout()->contentsMargins().left());
    const QString shown = title_->fontMetrics().elidedText(fullTitle_, Qt::ElideMiddle, room);
    title_->setText(shown);
    title_->setToolTip(shown == fullTitle_ ? QString() : fullTitle_);
}

bool TensorDetail::isComputing() const { return jobs_.anyRunning(); }

QString TensorDetail::statText(const QString& key) const {
    const auto* l = statLabels_.value(key);
    return l ? l->text() : QString();
}

void TensorDetail::clearStats(const QString& message) {
    for (auto* l : std::as_const(statLabels_)) l->setText(QStringLiteral("—"));
    histogram_->clear(message);
    progress_->setVisible(false);
}

void TensorDetail::showNode(int node) {
    const auto& m = *model_;
    const auto& nodes = m.tree->nodes;
    if (node <= 0 || node >= static_cast<int>(nodes.size())) return;
    const TreeNode& n = nodes[static_cast<std::size_t>(node)];
    // Leaving the previous tensor: its job is now stale.
    jobs_.cancel();
    planIndex_ = -1;
    sources_->clear();
    fullTitle_ = m.tree->fullName(m, node);
    elideTitle();

    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td>%1&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v.toHtmlEscaped());
    };
    auto addSource = [&](std::size_t ci) {
        const auto& st = m.catalog.tensors[ci];
        auto* item = new QTreeWidgetItem(sources_, {QString::fromStdString(st.name), QString::fromStdString(st.dtype_name), shapeText(st.shape),
                                                    humanBytes(st.nbytes), roleText(m.plan.roles[ci])});
        for (int c = 0; c < 5; ++c) item->setToolTip(c, item->text(c));  // in full; a narrow column elides it in the middle
    };
    QString html = QStringLiteral("<table>");
    int li = -1;
    if (n.kind == TreeNode::Group) {
        html += row(tr("Group"), tr("%Ln tensor(s)", nullptr, static_cast<int>(n.tensors)));
        html += row(tr("Parameters"), QLocale().toString(n.params));
        html += row(tr("Stored"), humanBytes(n.stored));
        html += row(tr("As BF16"), humanBytes(n.bf16));
        sources_->setVisible(false);
    } else if (n.kind == TreeNode::Logical) {
        li = n.ref;
        const auto& lt = m.plan.tensors[static_cast<std::size_t>(li)];
        html += row(tr("Shape"), shapeText(lt.shape));
        html += row(tr("Parameters"), QLocale().toString(static_cast<qulonglong>(lt.numel())));
        if (lt.recipe)
            html += row(tr("Scheme"), schemeText(lt));
        html += row(tr("Stored"), humanBytes(lt.stored_bytes));
        html += row(tr("As BF16"), humanBytes(2 * lt.numel()));
        if (lt.numel())
            html += row(tr("Bits per weight"), tr("%1 stored, 16 as BF16")
                                                   .arg(QLocale().toString(8.0 * static_cast<double>(lt.stored_bytes) / static_cast<double>(lt.numel()), 'f', 2)));
        if (!lt.error.empty()) html += row(tr("Error"), tensorErrorText(lt.error));
        for (auto s : lt.sources) addSource(s);
        sources_->setVisible(true);
    } else {
        const auto& st = m.catalog.tensors[static_cast<std::size_t>(n.ref)];
        html += row(tr("Dtype"), QString::fromStdString(st.dtype_name));
        html += row(tr("Shape"), shapeText(st.shape));
        html += row(tr("Stored"), humanBytes(st.nbytes));
        html += row(tr("Role"), roleText(m.plan.roles[static_cast<std::size_t>(n.ref)]));
        const int owner = m.owner[static_cast<std::size_t>(n.ref)];
        html += row(tr("Used by"), owner >= 0 ? QString::fromStdString(m.plan.tensors[static_cast<std::size_t>(owner)].name)
                                              : tr("no output tensor (not written)"));
        addSource(static_cast<std::size_t>(n.ref));
        sources_->setVisible(true);
        li = owner >= 0 && static_cast<std::size_t>(n.ref) == m.plan.tensors[static_cast<std::size_t>(owner)].sources[0] ? owner : -1;
    }
    html += QStringLiteral("</table>");
    info_->setText(html);
    fitSourceColumns();

    planIndex_ = li;
    const bool has = li >= 0 && m.plan.tensors[static_cast<std::size_t>(li)].recipe;
    const bool can = has && !m.isRemote();  // statistics read every value: not for a remote model
    statsButton_->setEnabled(can);
    preview_->setTensor(has ? li : -1);     // the preview downloads the rows it shows
    clearStats(m.isRemote() ? tr("A remote model: only its headers were downloaded, so there are no values to measure.")
               : can      ? QString()
                          : tr("Statistics are available for output tensors."));
    if (can && autoStats_) computeStats(li);
}

void TensorDetail::computeStats(int planIndex) {
    const auto& m = *model_;
    if (planIndex < 0 || planIndex >= static_cast<int>(m.plan.tensors.size())) return;
    planIndex_ = planIndex;
    clearStats(tr("Computing…"));
    progress_->setValue(0);
    progress_->setVisible(true);

    ModelPtr model = model_;
    jobs_.startWithProgress<Outcome>(
        this,
        [model, planIndex](const std::atomic<bool>& cancel, const std::function<void(int)>& report) {
            Outcome o;
            o.planIndex = planIndex;
            try {
                const auto& lt = model->plan.tensors[static_cast<std::size_t>(planIndex)];
                // Progress: statistics fill the first half, the re-quantization estimate the second.
                o.stats = amn::compute_value_stats(
                    lt, 64,
                    [&](const amn::Progress& p) {
                        if (p.total) report(static_cast<int>(p.done * 500 / p.total));
                    },
                    &cancel);
                if (lt.quantized)
                    o.round_trip = amn::measure_round_trip(
                        lt,
                        [&](const amn::Progress& p) {
                            if (p.total) report(500 + static_cast<int>(p.done * 500 / p.total));
                        },
                        &cancel);
                o.ok = true;
            } catch (const amn::Error& e) {
                o.cancelled = e.code() == amn::ErrorCode::Cancelled;
                o.error = QString::fromStdString(e.what());
            } catch (const std::exception& e) {
                o.error = QString::fromStdString(e.what());
            }
            return o;
        },
        [this](Outcome o) {
            o.job = jobs_.current();
            onFinished(o);
        },
        [this](int v) { progress_->setValue(v); });
}

void TensorDetail::onFinished(const Outcome& o) {
    // Stale results (the user moved on) never arrive here: the tracker drops them.
    progress_->setVisible(false);
    if (!o.ok) {
        if (o.cancelled) return;
        clearStats(tr("Statistics failed: %1").arg(o.error));
        emit statsFailed(o.job, o.error);
        return;
    }
    stats_ = o.stats;
    const auto& s = stats_;
    const QLocale loc;
    auto num = [&](double v) { return loc.toString(v, 'g', 6); };
    auto share = [&](quint64 k) {
        return s.count ? tr("%1 (%2 %)").arg(loc.toString(k)).arg(loc.toString(100.0 * static_cast<double>(k) / static_cast<double>(s.count), 'f', 2))
                       : loc.toString(k);
    };
    statLabels_[QStringLiteral("min")]->setText(num(s.min));
    statLabels_[QStringLiteral("max")]->setText(num(s.max));
    statLabels_[QStringLiteral("mean")]->setText(num(s.mean));
    statLabels_[QStringLiteral("std")]->setText(num(s.std));
    statLabels_[QStringLiteral("zeros")]->setText(share(s.zeros));
    statLabels_[QStringLiteral("nan")]->setText(share(s.nans));
    statLabels_[QStringLiteral("inf")]->setText(share(s.infs));
    statLabels_[QStringLiteral("count")]->setText(loc.toString(static_cast<qulonglong>(s.count)));
    for (const auto& c : s.cast_errors) {
        const QString key = c.to == amn::DType::BF16 ? QStringLiteral("lost-bf16") : QStringLiteral("lost-f16");
        QString text;
        if (std::isinf(c.sqnr_db) && c.sqnr_db > 0) text = tr("nothing: every value is exact");
        else
            text = tr("RMSE %1, max abs error %2, SQNR %3 dB")
                       .arg(loc.toString(c.rmse, 'g', 3), loc.toString(c.max_abs, 'g', 3), loc.toString(c.sqnr_db, 'f', 1));
        if (c.overflows) text += QLatin1String("; ") + tr("%Ln value(s) overflow to ±Inf", nullptr, static_cast<int>(c.overflows));
        statLabels_[key]->setText(text);
    }
    {
        const auto& r = o.round_trip;
        QString text;
        // Worded from the core's reason code and the tensor's typed state; the core's English reason is the tooltip.
        if (!r.measured) text = unmeasurableText(r, model_->plan.tensors[static_cast<std::size_t>(o.planIndex)]);
        else if (std::isinf(r.sqnr_db) && r.sqnr_db > 0) text = tr("no further loss: the values are already on the scheme's grid");
        else
            text = tr("RMSE %1, max abs error %2, SQNR %3 dB")
                       .arg(loc.toString(r.rmse, 'g', 3), loc.toString(r.max_abs, 'g', 3), loc.toString(r.sqnr_db, 'f', 1));
        statLabels_[QStringLiteral("lethe")]->setText(text);
        statLabels_[QStringLiteral("lethe")]->setToolTip(QString::fromStdString(r.measured ? r.estimator : r.unavailable));
    }
    std::vector<quint64> bins(s.histogram.begin(), s.histogram.end());
    if (s.finite) histogram_->setHistogram(std::move(bins), s.hist_lo, s.hist_hi);
    else histogram_->clear(tr("No finite values."));
    emit statsReady(o.job, o.planIndex);
}

}  // namespace amn::ui
