// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// One opened model: the tensor tree with its filter on the left; overview
// (summary + breakdown chart), "What Lethe took", tensor detail and metadata
// on the right.

#include "charts.hpp"
#include "tensortreemodel.hpp"
#include "loadedmodel.hpp"

#include "anamnesis/hf_to_gguf.hpp"

#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTimer;
class QTreeView;

class QSplitter;

namespace amn::ui {

class LetheChart;
class MetadataView;
class SummaryView;
class TensorDetail;
class TensorTreeModel;

/// What a ModelView shows that takes long to compute, and to free, for a
/// large model (100 000 tensors): built on the loading thread by
/// prepareModelView() and handed to the view, so the UI thread only moves it.
struct ModelViewData {
    std::vector<LetheChart::Layer> lethe;  ///< per-layer bars of "What Lethe took", with per-tensor detail
    /// The Overview's breakdown rows (summaryBreakdownRows), taken over by the view.
    std::optional<std::vector<BreakdownChart::Row>> breakdown;
    /// The tree sorted as the saved tree header will ask (empty: file order);
    /// from releaseData(), the tree's sort or filter rows, to be freed.
    std::optional<TensorTreeModel::SortedRows> sorted;
};
/// Compute a view's data for `m`. Thread-safe (call from the loading worker).
std::shared_ptr<ModelViewData> prepareModelView(const LoadedModel& m);
/// prepareModelView(*model), and for a large tree the sort the saved tree
/// header (QSettings modelView/sortColumn, sortOrder) will ask for, so that
/// opening does not sort 100 000 rows on the UI thread. Thread-safe.
std::shared_ptr<ModelViewData> prepareModelView(const ModelPtr& model);

class ModelView : public QWidget {
    Q_OBJECT
public:
    enum Tab { OverviewTab, LetheTab, TensorTab, MetadataTab };

    /// `prepared`: prepareModelView(*model) from a worker, taken over; without
    /// it the view computes its data here.
    explicit ModelView(ModelPtr model, QWidget* parent = nullptr, std::shared_ptr<ModelViewData> prepared = {});
    ~ModelView() override;
    /// Give up the large data the view holds (the Lethe chart's layers, the
    /// tree's sorted or filtered rows; the view then shows an empty chart and
    /// the tree in file order), so that the caller can free it on a worker
    /// before deleting the view.
    std::shared_ptr<ModelViewData> releaseData();
    /// Remember the splitter and the tree header (QSettings); the next view restores them.
    void saveViewState() const;
    QSplitter* splitter() const { return split_; }

    const ModelPtr& model() const { return model_; }
    TensorTreeModel* treeModel() const { return treeModel_; }
    QTreeView* treeView() const { return tree_; }
    /// The tabs' widgets are built when first shown (the Overview one
    /// event-loop turn after the view is shown); these build theirs when
    /// asked before that.
    SummaryView* summary();
    LetheChart* letheChart();
    TensorDetail* detail();
    MetadataView* metadata();
    QLineEdit* filterEdit() const { return filter_; }
    void showTab(Tab t);

    /// What the model folder becomes in GGUF (amn::describe_hf_gguf; the main
    /// window computes it on a worker for a Hugging Face folder): shown on the
    /// Overview. Null until set.
    void setHfGgufInfo(std::shared_ptr<const amn::HfGgufInfo> info);
    const std::shared_ptr<const amn::HfGgufInfo>& hfGgufInfo() const { return hfInfo_; }

    /// Put the keyboard focus in the filter box (Edit ▸ Find).
    void focusFilter();
    /// Apply the filter now (the box applies it after a short pause).
    void applyFilter();
    /// Copy the current tensor's full name to the clipboard; returns it.
    QString copyCurrentName();
    /// Select the logical tensor called `name` (and show its detail).
    bool selectTensor(const QString& name);

signals:
    void convertRequested();
    /// setHfGgufInfo() was called.
    void hfGgufInfoChanged();

protected:
    void showEvent(QShowEvent* e) override;

private:
    QSplitter* split_ = nullptr;
    void onCurrentChanged();
    ModelPtr model_;
    TensorTreeModel* treeModel_ = nullptr;
    QTreeView* tree_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QCheckBox* regex_ = nullptr;
    QLabel* count_ = nullptr;
    QTimer* filterTimer_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    /// Build tab `t`'s widget if it is not built yet.
    void ensureTab(Tab t);
    // Built on first show (ensureTab).
    SummaryView* summary_ = nullptr;
    LetheChart* lethe_ = nullptr;
    TensorDetail* detail_ = nullptr;
    MetadataView* metadata_ = nullptr;
    std::vector<LetheChart::Layer> pendingLethe_;  ///< the Lethe chart's layers until it is built
    std::optional<std::vector<BreakdownChart::Row>> pendingBreakdown_;  ///< the Overview's breakdown until it is built
    std::shared_ptr<const amn::HfGgufInfo> hfInfo_;
};


}  // namespace amn::ui
