// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tensortreemodel.hpp"
#include "schemetext.hpp"

#include <QBrush>
#include <QColor>
#include <QHash>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>
#include <utility>

namespace amn::ui {

// ---- model ---------------------------------------------------------------

TensorTreeModel::TensorTreeModel(ModelPtr model, QObject* parent)
    : QAbstractItemModel(parent), model_(std::move(model)), tree_(model_->tree) {
    // File order, nothing filtered: the rows are the tree's own (identity_),
    // so a 100 000-tensor model costs nothing here on the UI thread.
    visibleTensors_ = static_cast<int>(tree_->nodes.empty() ? 0 : tree_->nodes[0].tensors);
}

void TensorTreeModel::rebuildVisible(const std::vector<char>& visible, bool filtered) {
    const auto& nodes = tree_->nodes;
    if (!filtered && sortColumn_ < 0) {
        identity_ = true;
        std::vector<std::vector<int>>().swap(rows_);
        std::vector<int>().swap(rowOf_);
        filtered_.clear();
        visibleTensors_ = static_cast<int>(nodes.empty() ? 0 : nodes[0].tensors);
        return;
    }
    identity_ = false;
    rows_.assign(nodes.size(), {});
    rowOf_.assign(nodes.size(), -1);
    visibleTensors_ = 0;
    for (std::size_t id = 0; id < nodes.size(); ++id) {
        if (!visible[id]) continue;
        if (nodes[id].kind == TreeNode::Logical) ++visibleTensors_;
        for (int c : nodes[id].children)
            if (visible[static_cast<std::size_t>(c)]) rows_[id].push_back(c);
    }
    filtered_.clear();
    if (filtered) {
        // The groups' figures over what is shown, aggregated as TensorTree::build
        // does (logical tensors, plus stored tensors nobody consumes).
        filtered_.assign(nodes.size(), {});
        for (std::size_t id = nodes.size(); id-- > 1;) {
            const TreeNode& n = nodes[id];
            if (n.kind != TreeNode::Group) filtered_[id] = {n.tensors, n.params, n.stored, n.bf16};
            if (!visible[id] || n.kind == TreeNode::Group || (n.kind == TreeNode::Stored && n.consumed)) continue;
            const bool logical = n.kind == TreeNode::Logical;
            for (int p = n.parent; p >= 0; p = nodes[static_cast<std::size_t>(p)].parent) {
                Figures& g = filtered_[static_cast<std::size_t>(p)];
                g.stored += n.stored;
                if (logical) {
                    g.tensors += 1;
                    g.params += n.params;
                    g.bf16 += n.bf16;
                }
            }
        }
    }
    applySort();
}

TensorTreeModel::Figures TensorTreeModel::figures(int node) const {
    if (!filtered_.empty()) return filtered_[static_cast<std::size_t>(node)];
    const TreeNode& n = tree_->nodes[static_cast<std::size_t>(node)];
    return {n.tensors, n.params, n.stored, n.bf16};
}

bool TensorTreeModel::naturalLess(const QString& a, const QString& b) {
    qsizetype i = 0, j = 0;
    const qsizetype na = a.size(), nb = b.size();
    while (i < na && j < nb) {
        const QChar ca = a[i], cb = b[j];
        if (ca.isDigit() && cb.isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < na && a[ei].isDigit()) ++ei;
            while (ej < nb && b[ej].isDigit()) ++ej;
            // Compare magnitudes without overflow: strip leading zeros, then length, then digits.
            qsizetype si = i, sj = j;
            while (si + 1 < ei && a[si] == QLatin1Char('0')) ++si;
            while (sj + 1 < ej && b[sj] == QLatin1Char('0')) ++sj;
            if (ei - si != ej - sj) return ei - si < ej - sj;
            for (qsizetype k = 0; k < ei - si; ++k)
                if (a[si + k] != b[sj + k]) return a[si + k] < b[sj + k];
            if (ei - i != ej - j) return ei - i < ej - j;
            i = ei;
            j = ej;
            continue;
        }
        const QChar la = ca.toLower(), lb = cb.toLower();
        if (la != lb) return la < lb;
        ++i;
        ++j;
    }
    return na - i < nb - j;
}

bool TensorTreeModel::nodeLess(int a, int b) const {
    const auto& nodes = tree_->nodes;
    if (sortColumn_ == NameColumn) return naturalLess(nodes[static_cast<std::size_t>(a)].label, nodes[static_cast<std::size_t>(b)].label);
    const Figures A = figures(a), B = figures(b);
    switch (sortColumn_) {
        case ShapeColumn:
        case ParamsColumn: return A.params < B.params;
        case StoredColumn: return A.stored < B.stored;
        case Bf16Column: return A.bf16 < B.bf16;
        default: return a < b;
    }
}

void TensorTreeModel::applySort() {
    if (identity_) {
        if (sortColumn_ < 0) return;
        // Leave the tree's own rows: materialise them to reorder.
        identity_ = false;
        const auto& nodes = tree_->nodes;
        rows_.resize(nodes.size());
        for (std::size_t id = 0; id < nodes.size(); ++id) rows_[id] = nodes[id].children;
        rowOf_ = tree_->fileRow;
    }
    for (auto& r : rows_) {
        if (r.size() < 2) continue;
        if (sortColumn_ < 0) {
            std::sort(r.begin(), r.end());
        } else if (sortColumn_ == TypeColumn) {
            // Type text is computed; precompute keys once per list.
            std::vector<std::pair<QString, int>> keys;
            keys.reserve(r.size());
            for (int n : r) keys.emplace_back(data(createIndex(0, TypeColumn, quintptr(n)), Qt::DisplayRole).toString(), n);
            std::stable_sort(keys.begin(), keys.end(), [&](const auto& x, const auto& y) {
                return sortOrder_ == Qt::AscendingOrder ? x.first < y.first : y.first < x.first;
            });
            for (std::size_t k = 0; k < r.size(); ++k) r[k] = keys[k].second;
        } else {
            std::sort(r.begin(), r.end());
            std::stable_sort(r.begin(), r.end(), [&](int a, int b) {
                return sortOrder_ == Qt::AscendingOrder ? nodeLess(a, b) : nodeLess(b, a);
            });
        }
    }
    for (auto& r : rows_)
        for (std::size_t k = 0; k < r.size(); ++k) rowOf_[static_cast<std::size_t>(r[k])] = static_cast<int>(k);
}

TensorTreeModel::SortedRows TensorTreeModel::sortedRows(const ModelPtr& model, int column, Qt::SortOrder order) {
    TensorTreeModel m(model);  // lives on the calling thread; nothing is connected to it
    m.sortColumn_ = column;
    m.sortOrder_ = order;
    SortedRows out;
    out.column = column;
    out.order = order;
    if (column < 0 || column >= ColumnCount) return out;
    m.applySort();
    out.rows = std::move(m.rows_);
    out.rowOf = std::move(m.rowOf_);
    return out;
}

void TensorTreeModel::adoptSorted(SortedRows sorted) {
    if (sorted.column < 0 || sorted.rows.size() != tree_->nodes.size() || !filtered_.empty()) return;
    beginResetModel();
    identity_ = false;
    sortColumn_ = sorted.column;
    sortOrder_ = sorted.order;
    rows_ = std::move(sorted.rows);
    rowOf_ = std::move(sorted.rowOf);
    endResetModel();
}

TensorTreeModel::SortedRows TensorTreeModel::releaseRows() {
    SortedRows out;
    if (identity_) return out;
    beginResetModel();
    out.column = sortColumn_;
    out.order = sortOrder_;
    out.rows = std::exchange(rows_, {});
    out.rowOf = std::exchange(rowOf_, {});
    identity_ = true;
    sortColumn_ = -1;
    filter_.clear();
    filtered_ = {};
    visibleTensors_ = static_cast<int>(tree_->nodes.empty() ? 0 : tree_->nodes[0].tensors);
    endResetModel();
    return out;
}

void TensorTreeModel::sort(int column, Qt::SortOrder order) {
    if (column >= ColumnCount) return;
    if (column >= 0 && column == sortColumn_ && order == sortOrder_ && !identity_) return;  // already so (adoptSorted)
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> nodesBefore;
    nodesBefore.reserve(static_cast<std::size_t>(before.size()));
    for (const auto& i : before) nodesBefore.push_back(nodeOf(i));
    sortColumn_ = column;
    sortOrder_ = order;
    if (column < 0 && filtered_.empty()) rebuildVisible({}, false);  // back to file order: the tree's own rows
    else applySort();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype k = 0; k < before.size(); ++k)
        after.push_back(indexForNode(nodesBefore[static_cast<std::size_t>(k)], before[k].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

bool TensorTreeModel::setFilter(const QString& text, bool regex) {
    QRegularExpression re;
    if (regex && !text.isEmpty()) {
        re = QRegularExpression(text, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) return false;
    }
    const auto& nodes = tree_->nodes;
    std::vector<char> visible(nodes.size(), 1);
    if (!text.isEmpty()) {
        std::vector<char> match(nodes.size(), 0);
        for (std::size_t id = 1; id < nodes.size(); ++id) {
            if (nodes[id].kind == TreeNode::Group) continue;
            const QString name = tree_->fullName(*model_, static_cast<int>(id));
            match[id] = regex ? re.match(name).hasMatch() : name.contains(text, Qt::CaseInsensitive);
        }
        std::fill(visible.begin(), visible.end(), 0);
        visible[0] = 1;
        // Children have larger ids than parents: propagate matches upwards…
        for (std::size_t id = nodes.size(); id-- > 1;) {
            if (match[id] || visible[id]) {
                visible[id] = 1;
                visible[static_cast<std::size_t>(nodes[id].parent)] = 1;
            }
        }
        // …and show every source of a matching logical tensor.
        for (std::size_t id = 1; id < nodes.size(); ++id)
            if (nodes[id].kind == TreeNode::Logical && match[id])
                for (int c : nodes[id].children) visible[static_cast<std::size_t>(c)] = 1;
    }
    beginResetModel();
    filter_ = text;
    rebuildVisible(visible, !text.isEmpty());
    endResetModel();
    return true;
}

int TensorTreeModel::nodeOf(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) return 0;
    return static_cast<int>(index.internalId());
}

QModelIndex TensorTreeModel::indexForNode(int node, int column) const {
    if (node <= 0 || node >= static_cast<int>(tree_->nodes.size())) return {};
    const int row = rowOfNode(node);
    if (row < 0) return {};
    // A row is only meaningful when every ancestor is visible too.
    for (int p = tree_->nodes[static_cast<std::size_t>(node)].parent; p > 0; p = tree_->nodes[static_cast<std::size_t>(p)].parent)
        if (rowOfNode(p) < 0) return {};
    return createIndex(row, column, quintptr(node));
}

QModelIndex TensorTreeModel::indexForLogical(int planIndex) const {
    if (planIndex < 0 || planIndex >= static_cast<int>(tree_->logicalNode.size())) return {};
    return indexForNode(tree_->logicalNode[static_cast<std::size_t>(planIndex)]);
}

QModelIndex TensorTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const auto& r = rowsOf(nodeOf(parent));
    if (row >= static_cast<int>(r.size())) return {};
    return createIndex(row, column, quintptr(r[static_cast<std::size_t>(row)]));
}

QModelIndex TensorTreeModel::parent(const QModelIndex& child) const {
    const int n = nodeOf(child);
    if (n <= 0) return {};
    const int p = tree_->nodes[static_cast<std::size_t>(n)].parent;
    if (p <= 0) return {};
    return createIndex(rowOfNode(p), 0, quintptr(p));
}

int TensorTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return static_cast<int>(rowsOf(nodeOf(parent)).size());
}

int TensorTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

Qt::ItemFlags TensorTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QVariant TensorTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case NameColumn: return tr("Name");
            case TypeColumn: return tr("Dtype / scheme");
            case ShapeColumn: return tr("Shape");
            case ParamsColumn: return tr("Parameters");
            case StoredColumn: return tr("Stored");
            case Bf16Column: return tr("As BF16");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
            case NameColumn: return tr("Dotted tensor name, grouped by component");
            case TypeColumn: return tr("Stored dtype and the quantization scheme that reads it");
            case ShapeColumn: return tr("Output shape (row-major), or the stored shape for companions");
            case ParamsColumn: return tr("Number of elements");
            case StoredColumn: return tr("Bytes in the file, companions included");
            case Bf16Column: return tr("Bytes after dequantizing to BF16");
        }
    } else if (role == Qt::TextAlignmentRole && section >= ParamsColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant TensorTreeModel::data(const QModelIndex& index, int role) const {
    const int id = nodeOf(index);
    if (id <= 0) return {};
    const TreeNode& n = tree_->nodes[static_cast<std::size_t>(id)];
    const auto& m = *model_;
    const amn::LogicalTensor* lt = n.kind == TreeNode::Logical ? &m.plan.tensors[static_cast<std::size_t>(n.ref)] : nullptr;
    const amn::TensorInfo* st = n.kind == TreeNode::Stored ? &m.catalog.tensors[static_cast<std::size_t>(n.ref)] : nullptr;
    const int col = index.column();
    const Figures f = figures(id);  // filtered counts for groups while a filter is active

    switch (role) {
        case Qt::DisplayRole:
            switch (col) {
                case NameColumn: return n.label;
                case TypeColumn:
                    if (lt) {
                        if (!lt->error.empty()) return tr("error");
                        const QString dtype = lt->sources.empty() ? QString()
                            : QString::fromStdString(m.catalog.tensors[lt->sources[0]].dtype_name);
                        if (!lt->quantized || !lt->params) return dtype;
                        return QStringLiteral("%1 · %2").arg(dtype, QString::fromStdString(amn::scheme_id(*lt->params)));
                    }
                    if (st) {
                        const QString role = roleText(m.plan.roles[static_cast<std::size_t>(n.ref)]);
                        return n.consumed ? QStringLiteral("%1 · %2").arg(QString::fromStdString(st->dtype_name), role)
                                          : tr("%1 · %2 (dropped)").arg(QString::fromStdString(st->dtype_name), role);
                    }
                    return tr("%Ln tensor(s)", nullptr, static_cast<int>(f.tensors));
                case ShapeColumn:
                    if (lt) return shapeText(lt->shape);
                    if (st) return shapeText(st->shape);
                    return {};
                case ParamsColumn: return (lt || st || f.params) ? QLocale().toString(f.params) : QString();
                case StoredColumn: return humanBytes(f.stored);
                case Bf16Column: return n.kind == TreeNode::Stored ? QString() : humanBytes(f.bf16);
            }
            return {};
        case Qt::ToolTipRole: {
            QString tip = tree_->fullName(m, id);
            if (lt && lt->recipe)
                tip += QLatin1Char('\n') + schemeText(*lt);
            if (lt && !lt->error.empty()) tip += QLatin1Char('\n') + tensorErrorText(lt->error);
            if (st && !n.consumed) tip += QLatin1Char('\n') + tr("Consumed by no output tensor: conversion drops it.");
            return tip;
        }
        case Qt::TextAlignmentRole:
            if (col >= ParamsColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case Qt::ForegroundRole:
            if (lt && !lt->error.empty()) return QBrush(QColor(0xd0, 0x30, 0x30));
            if (st) return QGuiApplication::palette().brush(QPalette::PlaceholderText);
            return {};
        case FullNameRole: return tree_->fullName(m, id);
        case KindRole: return int(n.kind);
        case LogicalIndexRole: return lt ? n.ref : -1;
        case CatalogIndexRole: return st ? n.ref : -1;
        case NodeIdRole: return id;
        case SortValueRole:
            switch (col) {
                case ParamsColumn:
                case ShapeColumn: return f.params;
                case StoredColumn: return f.stored;
                case Bf16Column: return f.bf16;
                default: return n.label;
            }
    }
    return {};
}

}  // namespace amn::ui
