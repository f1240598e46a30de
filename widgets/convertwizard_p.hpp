// SPDX-License-Identifier: MIT OR Apache-2.0
// Private helpers shared by the ConvertWizard files (convertwizard*.cc).
#pragma once

#include "anamnesis/remember.hpp"
#include "anamnesis/gguf_ftype.hpp"

#include <QLabel>
#include <QStandardItem>
#include <QString>
#include <QWizardPage>

#include <functional>

namespace amn::ui::convert_detail {

/// Seconds as "m:ss" or "h:mm:ss"; "—" when unknown (negative, NaN) or ≥ 100 h.
inline QString clockText(double secs) {
    if (!(secs >= 0) || secs > 359999) return QStringLiteral("—");
    const auto t = static_cast<qint64>(secs + 0.5);
    return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

/// A failure in the summary's table (HTML): the plain first line in red,
/// the core's message (technical detail) below it.
inline QString failureHtml(const QString& plain, const QString& detail) {
    return QStringLiteral("<span style='color:#d03030'>%1</span><br><small>%2</small>").arg(plain.toHtmlEscaped(), detail.toHtmlEscaped());
}

/// A label that wraps and whose text can be selected (pages' prose).
inline QLabel* wrapLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

/// A wizard page whose completeness and entry action are closures.
class Page : public QWizardPage {
public:
    using QWizardPage::QWizardPage;
    std::function<bool()> complete;
    std::function<void()> enter;
    bool isComplete() const override { return complete ? complete() : true; }
    void initializePage() override {
        if (enter) enter();
    }
    void changed() { emit completeChanged(); }
};

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
