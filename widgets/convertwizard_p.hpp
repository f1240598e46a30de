// SPDX-License-Identifier: MIT OR Apache-2.0
// Private helpers shared by the ConvertWizard's files (convertwizard*.cc and
// its pages, wizard*page.cc): what a failure and a finished run carry, and
// the widgets several pages build alike.
#pragma once

#include "anamnesis/dtype.hpp"
#include "anamnesis/forget_gguf.hpp"

#include <QLabel>
#include <QStandardItem>
#include <QString>
#include <QStringList>

#include <exception>
#include <optional>
#include <vector>

class QStandardItemModel;
class QTableView;

namespace amn::ui::convert_detail {

/// A failure as the widgets word it: the amn::ErrorCode (−1 when not an
/// amn::Error), the tensor it names and the core's full message, and the
/// refusal typed where the core types it (amn::Error::notice()).
struct Failure {
    int code = -1;
    QString tensor;
    QString detail;
    std::optional<amn::Notice> notice;
    static Failure of(const std::exception& e);  ///< convertwizard_errors.cc
};

/// What a conversion run hands from the worker to the run and done pages.
struct RunOutcome {
    bool ok = false, cancelled = false;
    QString error;
    Failure failure;
    QStringList files;
    quint64 bytes = 0;
    int tensors = 0;
    std::vector<amn::ForgetTensor> loss;  ///< forget: per tensor, measured
    bool lossMeasured = true;             ///< false for ConvertGguf (the converter measures nothing)
    std::vector<amn::Notice> warnings;    ///< the core's, typed (every mode), worded by noticeText()
};

/// A label that wraps and whose text can be selected (pages' prose).
inline QLabel* wrapLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

/// A sortable per-tensor table over `model` (the summary's plan, the done
/// page's loss): whole rows selected, no row numbers, the last column stretched.
QTableView* makeTable(QStandardItemModel* model, QWidget* parent);  ///< convertwizard.cc

/// After filling `view`'s model: file order first — enabling sorting sorts by
/// the header's indicator, which starts at column 0 (descending in Qt 6), not
/// what was planned — then columns fit to their text, the tensor names capped.
void showRowsInFileOrder(QTableView* view);  ///< convertwizard.cc

/// A table item that sorts by a number (Qt::UserRole) and shows `text`.
inline QStandardItem* numberItem(const QString& text, double sortKey) {
    auto* it = new QStandardItem(text);
    it->setData(sortKey, Qt::UserRole);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    it->setEditable(false);
    return it;
}
inline QStandardItem* textItem(const QString& text) {
    auto* it = new QStandardItem(text);
    it->setData(text, Qt::UserRole);
    it->setEditable(false);
    return it;
}

/// What a tensor was written as, spelled as llama.cpp and `amn forget` do
/// ("Q4_K", "IQ4_XS", "F16"; never ggml's lowercase "q4_K").
inline QString targetName(const amn::ForgetTensor& t) { return QString::fromStdString(amn::dtype_name(t.target)); }

}  // namespace amn::ui::convert_detail
