// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The tensor tree: logical tensors of the plan grouped by their dotted names
// (model › layers › 0 › mlp › down_proj › weight), with the stored tensors a
// tensor is made of as its children (when there are several: payload + scales …), and stored tensors no logical
// tensor consumes (dropped companions) as leaves of their own.
//
// TensorTree is the immutable index (built once, on the loading thread);
// TensorTreeModel is a lazy QAbstractItemModel over it: rows are computed
// from plain vectors on demand, sorting and filtering reorder index vectors,
// so 100 000 tensors stay instant.

#include "loadedmodel.hpp"

#include <QAbstractItemModel>
#include <QRegularExpression>
#include <QString>

#include <memory>
#include <vector>

namespace amn::ui {

struct TreeNode {
    enum Kind { Group, Logical, Stored };  // (no underlying type: lupdate mis-parses it)
    QString label;             ///< one dotted component (groups) or the name's tail (tensors)
    int parent = -1;           ///< node id; -1 for the root
    Kind kind = Group;
    int ref = -1;              ///< Logical: plan index; Stored: catalog index
    bool consumed = false;     ///< Stored: a source of the parent logical tensor
    std::vector<int> children; ///< node ids in file order
    quint64 tensors = 0;       ///< logical tensors at or below
    quint64 params = 0;        ///< elements (logical tensors; stored tensors: their own)
    quint64 stored = 0;        ///< stored bytes
    quint64 bf16 = 0;          ///< bytes as BF16 (0 for stored-only rows)
};

class TensorTree {
public:
    /// Index `m`'s plan. Node 0 is the invisible root; children always have
    /// larger ids than their parent. Needs m.owner filled.
    static std::shared_ptr<const TensorTree> build(const LoadedModel& m);

    std::vector<TreeNode> nodes;
    /// Per node: its row among its parent's children in file order (the
    /// model's initial state, so a view of 100 000 tensors needs no setup).
    std::vector<int> fileRow;
    /// Per plan index: its node id (-1 for none).
    std::vector<int> logicalNode;
    /// Full dotted name of a node ("model.layers.0" for a group).
    QString fullName(const LoadedModel& m, int node) const;
};

class TensorTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, ShapeColumn, ParamsColumn, StoredColumn, Bf16Column, ColumnCount };
    enum Roles {
        FullNameRole = Qt::UserRole + 1,  ///< QString: full dotted name
        KindRole,                         ///< int: TreeNode::Kind
        LogicalIndexRole,                 ///< int: plan index, -1 if none
        CatalogIndexRole,                 ///< int: catalog index, -1 if none
        NodeIdRole,                       ///< int: tree node id
        SortValueRole,                    ///< QVariant: numeric value of the cell (params, bytes)
    };

    explicit TensorTreeModel(ModelPtr model, QObject* parent = nullptr);

    const ModelPtr& model() const { return model_; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    /// column −1 restores file order. Names sort naturally (layers.2 < layers.10).
    /// Sorting again by the column and order already applied does no work.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// The rows of every node sorted by `column`/`order`, nothing filtered:
    /// computed with a model of its own, so callable on a worker thread (the
    /// loading worker, for a sort the user's saved tree header will ask for).
    struct SortedRows {
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        std::vector<std::vector<int>> rows;  ///< children per node, in display order
        std::vector<int> rowOf;              ///< row of each node inside its parent
    };
    static SortedRows sortedRows(const ModelPtr& model, int column, Qt::SortOrder order);
    /// Take over sortedRows() of this model (before any view shows it): the
    /// model is then sorted by that column and order without sorting here.
    void adoptSorted(SortedRows sorted);

    /// Give up the row vectors of a sort or filter (one small vector per node:
    /// 100 000 tensors take milliseconds to free), so that the caller can free
    /// them on a worker before deleting the model. The model resets to file
    /// order, nothing filtered (what it shows without any vector of its own).
    SortedRows releaseRows();

    /// Show only tensors whose full name contains `text` (case-insensitive),
    /// or matches it as a regular expression when `regex`; their groups stay
    /// visible. Empty text shows everything. Returns false for an invalid regex
    /// (the filter is then left unchanged).
    bool setFilter(const QString& text, bool regex);
    QString filterText() const { return filter_; }
    /// Logical tensors currently visible.
    int visibleTensorCount() const { return visibleTensors_; }
    /// While a filter is active, group rows count only what the filter shows
    /// (tensors, parameters, bytes); without one, everything below them.
    bool filterActive() const { return !filtered_.empty(); }

    /// Index of the node for logical tensor `planIndex` (column 0), or invalid
    /// when filtered out.
    QModelIndex indexForLogical(int planIndex) const;
    QModelIndex indexForNode(int node, int column = 0) const;
    int nodeOf(const QModelIndex& index) const;

    /// Natural "less than": digit runs compare as numbers.
    static bool naturalLess(const QString& a, const QString& b);

private:
    void rebuildVisible(const std::vector<char>& visible, bool filtered);
    /// A node's figures: the tree's, or the visible part of them under a filter.
    struct Figures {
        quint64 tensors = 0, params = 0, stored = 0, bf16 = 0;
    };
    Figures figures(int node) const;
    void applySort();
    bool nodeLess(int a, int b) const;

    /// Visible children of `node` in display order.
    const std::vector<int>& rowsOf(int node) const {
        return identity_ ? tree_->nodes[static_cast<std::size_t>(node)].children : rows_[static_cast<std::size_t>(node)];
    }
    /// Row of `node` inside its parent's rowsOf(), -1 when hidden.
    int rowOfNode(int node) const {
        return identity_ ? tree_->fileRow[static_cast<std::size_t>(node)] : rowOf_[static_cast<std::size_t>(node)];
    }

    ModelPtr model_;
    std::shared_ptr<const TensorTree> tree_;
    /// Everything shown in file order: rows come from the tree itself and
    /// rows_ / rowOf_ are empty (the state after opening, built on no thread).
    bool identity_ = true;
    std::vector<std::vector<int>> rows_;  // visible children per node, in display order (not identity_)
    std::vector<int> rowOf_;              // row of a node inside its parent's rows_, -1 hidden (not identity_)
    int sortColumn_ = -1;
    Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
    QString filter_;
    int visibleTensors_ = 0;
    std::vector<Figures> filtered_;       // per node while a filter is active, else empty
};

}  // namespace amn::ui
