// SPDX-License-Identifier: MIT OR Apache-2.0
#include "wizardsourcepage.hpp"

#include "convertwizard_p.hpp"
#include "schemetext.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>


namespace amn::ui {

using namespace convert_detail;

WizardSourcePage::WizardSourcePage(ConvertWizard* wizard) : QWizardPage(wizard) {
    const auto& m = *wizard->model();
    const auto& in = m.inspection;
    setTitle(tr("Source"));
    setSubTitle(tr("The model to convert."));
    auto* l = new QVBoxLayout(this);
    QStringList schemes;
    for (const auto& s : in.schemes) schemes << schemeUseText(m.plan, s);
    l->addWidget(wrapLabel(QStringLiteral("<b>%1</b>").arg(QFileInfo(m.path).absoluteFilePath().toHtmlEscaped()), this));
    l->addWidget(wrapLabel(tr("%1, %Ln file(s), %2 — %3, %4 parameters", nullptr, static_cast<int>(in.shards))
                               .arg(QString::fromStdString(in.format), humanBytes(in.file_bytes),
                                    tr("%Ln output tensor(s)", nullptr, static_cast<int>(in.logical_tensors)),
                                    humanCount(in.parameters)),
                           this));
    l->addWidget(wrapLabel(schemes.isEmpty() ? tr("Scheme: none (unquantized tensors are cast or copied).")
                                             : tr("Scheme: %1").arg(schemes.join(QStringLiteral("; "))),
                           this));
    if (!in.errors.empty()) {
        const auto& first = in.errors.front();
        const QString example = QString::fromStdString(first.tensor) + QStringLiteral(": ") + tensorErrorText(first.error);
        auto* err = wrapLabel(tr("%Ln tensor(s) cannot be converted, for example:\n%1", nullptr, static_cast<int>(in.errors.size()))
                                  .arg(example),
                              this);
        err->setStyleSheet(QStringLiteral("color: #d03030"));
        l->addWidget(err);
    }
    l->addStretch(1);
    convertible_ = in.errors.empty();
}

}  // namespace amn::ui
