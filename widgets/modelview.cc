// SPDX-License-Identifier: MIT OR Apache-2.0
#include "modelview.hpp"

#include "charts.hpp"
#include "metadataview.hpp"
#include "settingsstore.hpp"
#include "summaryview.hpp"
#include "tensordetail.hpp"
#include "tensortreemodel.hpp"

#include "anamnesis/lethe_layers.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <map>
#include <utility>

namespace amn::ui {

namespace {

std::vector<LetheChart::Layer> makeLetheLayers(const LoadedModel& m) {
    std::vector<LetheChart::Layer> out;
    std::map<std::string, std::size_t> index;
    for (const auto& l : m.layers) {
        LetheChart::Layer c;
        c.name = l.layer.empty() ? LetheChart::tr("outside the numbered layers") : QString::fromStdString(l.layer);
        if (l.layer.empty()) c.label = LetheChart::tr("other");
        else {
            const auto dot = l.layer.rfind('.');
            c.label = QString::fromStdString(dot == std::string::npos ? l.layer : l.layer.substr(dot + 1));
        }
        c.bits = l.bits_per_weight();
        c.stored = l.stored_bytes;
        c.bf16 = l.bf16_bytes;
        c.params = l.parameters;
        c.quantized = static_cast<int>(l.quantized_tensors);
        c.tensors = static_cast<int>(l.tensors);
        index[l.layer] = out.size();
        out.push_back(std::move(c));
    }
    for (const auto& lt : m.plan.tensors) {
        const std::string key = amn::layer_of(lt.name);
        const auto it = index.find(key);
        if (it == index.end()) continue;
        auto& c = out[it->second];
        LetheChart::TensorBar t;
        t.name = QString::fromStdString(key.empty() ? lt.name : lt.name.substr(std::min(lt.name.size(), key.size() + 1)));
        const std::uint64_t n = lt.numel();
        t.bits = n ? 8.0 * static_cast<double>(lt.stored_bytes) / static_cast<double>(n) : 0;
        t.stored = lt.stored_bytes;
        t.bf16 = 2 * n;
        c.detail.push_back(std::move(t));
    }
    return out;
}

}  // namespace

std::shared_ptr<ModelViewData> prepareModelView(const LoadedModel& m) {
    auto d = std::make_shared<ModelViewData>();
    d->lethe = makeLetheLayers(m);
    d->breakdown = summaryBreakdownRows(m);
    return d;
}

std::shared_ptr<ModelViewData> prepareModelView(const ModelPtr& model) {
    auto d = prepareModelView(*model);
    // A large tree the saved header sorts: sort it here, on the worker.
    const int column = settingValue(QStringLiteral("modelView/sortColumn"), -1).toInt();
    if (column >= 0 && model->plan.tensors.size() > 2000)
        d->sorted = TensorTreeModel::sortedRows(model, column, static_cast<Qt::SortOrder>(settingValue(QStringLiteral("modelView/sortOrder"), 0).toInt()));
    return d;
}

std::shared_ptr<ModelViewData> ModelView::releaseData() {
    auto d = std::make_shared<ModelViewData>();
    d->lethe = lethe_ ? lethe_->takeLayers() : std::exchange(pendingLethe_, {});
    if (TensorTreeModel::SortedRows rows = treeModel_->releaseRows(); !rows.rows.empty()) d->sorted = std::move(rows);
    return d;
}

ModelView::ModelView(ModelPtr model, QWidget* parent, std::shared_ptr<ModelViewData> prepared)
    : QWidget(parent), model_(std::move(model)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = split_ = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(split);

    // Left: filter + tree.
    auto* left = new QWidget(split);
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(6, 6, 0, 6);
    auto* filterRow = new QHBoxLayout;
    filter_ = new QLineEdit(left);
    filter_->setPlaceholderText(tr("Filter tensors (Ctrl+F)"));
    filter_->setClearButtonEnabled(true);
    regex_ = new QCheckBox(tr("Re&gex"), left);
    regex_->setToolTip(tr("Treat the filter as a regular expression"));
    count_ = new QLabel(left);
    filterRow->addWidget(filter_, 1);
    filterRow->addWidget(regex_);
    filterRow->addWidget(count_);
    ll->addLayout(filterRow);

    treeModel_ = new TensorTreeModel(model_, this);
    tree_ = new QTreeView(left);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    int sortColumn = -1;
    Qt::SortOrder sortOrder = Qt::AscendingOrder;
    if (prepared && prepared->sorted) {  // sorted on the worker as the saved header asks
        sortColumn = prepared->sorted->column;
        sortOrder = prepared->sorted->order;
        treeModel_->adoptSorted(std::move(*prepared->sorted));
    }
    tree_->setModel(treeModel_);
    tree_->header()->setSortIndicator(sortColumn, sortOrder);
    tree_->setSortingEnabled(true);
    tree_->header()->setSectionsMovable(true);
    tree_->header()->setStretchLastSection(false);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    ll->addWidget(tree_);

    const bool small = model_->plan.tensors.size() <= 2000;
    if (small) tree_->expandToDepth(model_->plan.tensors.size() <= 64 ? 4 : 1);
    tree_->setColumnWidth(TensorTreeModel::NameColumn, 250);
    for (int c = 1; c < TensorTreeModel::ColumnCount; ++c) {
        if (small) tree_->resizeColumnToContents(c);
        else tree_->setColumnWidth(c, 90);
    }
    if (small) tree_->resizeColumnToContents(TensorTreeModel::NameColumn);

    // Copy name: Ctrl+C in the tree and the context menu.
    auto* copy = new QAction(tr("&Copy Name"), tree_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [this] { copyCurrentName(); });
    tree_->addAction(copy);
    connect(tree_, &QWidget::customContextMenuRequested, this, [this, copy](const QPoint& pos) {
        QMenu menu(this);
        menu.addAction(copy);
        menu.addSeparator();
        menu.addAction(tr("&Expand All"), tree_, &QTreeView::expandAll);
        menu.addAction(tr("C&ollapse All"), tree_, &QTreeView::collapseAll);
        menu.addSeparator();
        menu.addAction(tr("Con&vert…"), this, &ModelView::convertRequested);
        menu.exec(tree_->viewport()->mapToGlobal(pos));
    });

    // Right: tabs.
    tabs_ = new QTabWidget(split);
    tabs_->setDocumentMode(true);
    // Every tab is built when first shown (or asked for): the Overview one
    // event-loop turn after the view is shown (showEvent), the others when
    // chosen. Opening a large model so spreads its UI work over short turns.
    pendingBreakdown_ = prepared ? std::move(prepared->breakdown) : std::nullopt;
    pendingLethe_ = prepared ? std::move(prepared->lethe) : makeLetheLayers(*model_);
    const QString titles[] = {tr("Overview"), tr("What Lethe Took"), tr("Tensor"), tr("Metadata")};
    for (const QString& title : titles) {
        auto* page = new QWidget(tabs_);
        auto* pl = new QVBoxLayout(page);
        pl->setContentsMargins(0, 0, 0, 0);
        tabs_->addTab(page, title);
    }
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) { ensureTab(static_cast<Tab>(i)); });

    split->addWidget(left);
    split->addWidget(tabs_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({720, 520});
    {
        if (const QByteArray st = settingValue(QStringLiteral("modelView/splitter")).toByteArray(); !st.isEmpty()) split->restoreState(st);
        if (const QByteArray h = settingValue(QStringLiteral("modelView/treeHeader")).toByteArray(); !h.isEmpty())
            tree_->header()->restoreState(h);
    }

    filterTimer_ = new QTimer(this);
    filterTimer_->setSingleShot(true);
    filterTimer_->setInterval(150);
    connect(filterTimer_, &QTimer::timeout, this, &ModelView::applyFilter);
    connect(filter_, &QLineEdit::textChanged, filterTimer_, qOverload<>(&QTimer::start));
    connect(regex_, &QCheckBox::toggled, this, &ModelView::applyFilter);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelView::onCurrentChanged);
    connect(tree_, &QTreeView::activated, this, [this] { showTab(TensorTab); });
    count_->setText(tr("%Ln tensor(s)", nullptr, treeModel_->visibleTensorCount()));
}

void ModelView::saveViewState() const {
    // Written off the UI thread (settingsstore.hpp): closing a tab must not wait for the disk.
    setSettingAsync(QStringLiteral("modelView/splitter"), split_->saveState());
    setSettingAsync(QStringLiteral("modelView/treeHeader"), tree_->header()->saveState());
    // The sort also on its own, for the loading worker (prepareModelView) to sort ahead.
    const int sortColumn = tree_->header()->isSortIndicatorShown() ? tree_->header()->sortIndicatorSection() : -1;
    setSettingAsync(QStringLiteral("modelView/sortColumn"), sortColumn < TensorTreeModel::ColumnCount ? sortColumn : -1);
    setSettingAsync(QStringLiteral("modelView/sortOrder"), static_cast<int>(tree_->header()->sortIndicatorOrder()));
}

ModelView::~ModelView() = default;

void ModelView::showTab(Tab t) { tabs_->setCurrentIndex(int(t)); }

void ModelView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    // The shown tab's widgets in the next turn: the tree is on screen first.
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this] { ensureTab(static_cast<Tab>(tabs_->currentIndex())); });
}

void ModelView::setHfGgufInfo(std::shared_ptr<const amn::HfGgufInfo> info) {
    hfInfo_ = std::move(info);
    if (summary_ && hfInfo_) summary_->setHfGgufInfo(*hfInfo_);
    emit hfGgufInfoChanged();
}

void ModelView::ensureTab(Tab t) {
    QWidget* page = tabs_->widget(int(t));
    if (!page || !page->layout()) return;
    const auto put = [page](QWidget* w) {
        page->layout()->addWidget(w);
        w->show();  // now: a layout shows a late child only in a later turn
    };
    if (t == OverviewTab && !summary_) {
        summary_ = new SummaryView(model_, nullptr, std::exchange(pendingBreakdown_, std::nullopt));
        connect(summary_, &SummaryView::convertRequested, this, &ModelView::convertRequested);
        if (hfInfo_) summary_->setHfGgufInfo(*hfInfo_);
        auto* scroll = new QScrollArea(page);
        scroll->setWidget(summary_);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        put(scroll);
    } else if (t == LetheTab && !lethe_) {
        lethe_ = new LetheChart(page);
        lethe_->setLayers(std::exchange(pendingLethe_, {}), model_->inspection.lethe_took(), model_->inspection.quantized_bf16_bytes);
        put(lethe_);
    } else if (t == TensorTab && !detail_) {
        detail_ = new TensorDetail(model_, page);
        put(detail_);
        if (const QModelIndex i = tree_->currentIndex(); i.isValid()) detail_->showNode(treeModel_->nodeOf(i));
    } else if (t == MetadataTab && !metadata_) {
        metadata_ = new MetadataView(model_, page);
        put(metadata_);
    }
}

SummaryView* ModelView::summary() {
    ensureTab(OverviewTab);
    return summary_;
}

LetheChart* ModelView::letheChart() {
    ensureTab(LetheTab);
    return lethe_;
}

TensorDetail* ModelView::detail() {
    ensureTab(TensorTab);
    return detail_;
}

MetadataView* ModelView::metadata() {
    ensureTab(MetadataTab);
    return metadata_;
}

void ModelView::focusFilter() {
    filter_->setFocus(Qt::ShortcutFocusReason);
    filter_->selectAll();
}

void ModelView::applyFilter() {
    filterTimer_->stop();
    const bool ok = treeModel_->setFilter(filter_->text(), regex_->isChecked());
    if (!ok) {
        filter_->setStyleSheet(QStringLiteral("color: #d03030"));
        filter_->setToolTip(tr("Invalid regular expression"));
        return;
    }
    filter_->setStyleSheet({});
    filter_->setToolTip({});
    const int n = treeModel_->visibleTensorCount();
    count_->setText(tr("%Ln tensor(s)", nullptr, n));
    if (!filter_->text().isEmpty() && n <= 500) tree_->expandAll();
    else if (model_->plan.tensors.size() <= 2000) tree_->expandToDepth(model_->plan.tensors.size() <= 64 ? 4 : 1);
}

QString ModelView::copyCurrentName() {
    const QModelIndex i = tree_->currentIndex();
    if (!i.isValid()) return {};
    const QString name = treeModel_->data(i, TensorTreeModel::FullNameRole).toString();
    QApplication::clipboard()->setText(name);
    return name;
}

bool ModelView::selectTensor(const QString& name) {
    for (std::size_t li = 0; li < model_->plan.tensors.size(); ++li) {
        if (model_->plan.tensors[li].name != name.toStdString()) continue;
        const QModelIndex i = treeModel_->indexForLogical(static_cast<int>(li));
        if (!i.isValid()) return false;
        tree_->scrollTo(i);
        tree_->setCurrentIndex(i);
        return true;
    }
    return false;
}

void ModelView::onCurrentChanged() {
    const QModelIndex i = tree_->currentIndex();
    if (!i.isValid()) return;
    if (detail_) detail_->showNode(treeModel_->nodeOf(i));  // else when the Tensor tab is built
}

}  // namespace amn::ui
