// SPDX-License-Identifier: MIT OR Apache-2.0
#include "wizarddonepage.hpp"

#include "charts.hpp"
#include "schemetext.hpp"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace amn::ui {

using namespace convert_detail;

WizardDonePage::WizardDonePage(ConvertWizard* wizard) : QWizardPage(wizard), wiz_(wizard) {
    setTitle(tr("Done"));
    setFinalPage(true);
    auto* l = new QVBoxLayout(this);
    doneText_ = wrapLabel(QString(), this);
    l->addWidget(doneText_);
    auto* row = new QHBoxLayout;
    auto* openFolder = new QPushButton(tr("Open output fo&lder"), this);
    auto* openResult = new QPushButton(tr("&Open the result in anamnesis"), this);
    row->addWidget(openFolder);
    row->addWidget(openResult);
    row->addStretch(1);
    l->addLayout(row);
    // Forget: what was lost, measured — a chart over a sortable table.
    auto* split = new QSplitter(Qt::Vertical, this);
    lossChart_ = new LossChart(split);
    lossModel_ = new QStandardItemModel(0, 7, this);
    lossModel_->setSortRole(Qt::UserRole);
    lossModel_->setHorizontalHeaderLabels(
        {tr("Tensor"), tr("Written as"), tr("Bits/weight"), tr("RMSE"), tr("Max abs error"), tr("SQNR (dB)"), tr("Size")});
    lossTable_ = makeTable(lossModel_, split);
    split->addWidget(lossChart_);
    split->addWidget(lossTable_);
    split->setStretchFactor(1, 1);
    lossBox_ = split;
    lossBox_->hide();
    l->addWidget(lossBox_, 1);
    l->addStretch(0);
    connect(openFolder, &QPushButton::clicked, this, [this] {
        QFileInfo fi(output_);
        const QString dir = fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
        QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
    });
    connect(openResult, &QPushButton::clicked, this, [this] { emit wiz_->openRequested(output_); });
}

void WizardDonePage::showMode(Mode md) {
    setSubTitle(md == Mode::Remember                          ? tr("The model is remembered.")
                : md == Mode::ConvertGguf && wiz_->hfMmproj() ? tr("The vision projector is a GGUF for llama.cpp now (mmproj).")
                : md == Mode::ConvertGguf                     ? tr("The model is a GGUF for llama.cpp now.")
                : md == Mode::ConvertLora                     ? tr("The adapter is a GGUF LoRA adapter for llama.cpp now.")
                                                              : tr("The model has forgotten; here is what it lost."));
}

void WizardDonePage::showResult(const RunOutcome& o, const QStringList& files, const QString& secsText, const QString& output) {
    output_ = output;
    const QString written = tr("Written:\n%1").arg(files.join(QLatin1Char('\n')));
    QStringList warnings;
    for (const auto& w : o.warnings) warnings << noticeText(w);
    const Mode md = wiz_->mode();
    if (md == Mode::Remember) {
        QString text = tr("Remembered %Ln tensor(s), %1 of tensor data, in %2 s.", nullptr, o.tensors).arg(humanBytes(o.bytes), secsText);
        if (wiz_->hfLayout())
            text += QStringLiteral("\n") + tr("Hugging Face folder: %1").arg(QDir::toNativeSeparators(output_));
        for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
        doneText_->setText(text + QStringLiteral("\n\n") + written);
    } else if (md == Mode::ConvertGguf && wiz_->hfMmproj()) {
        QString text = tr("Converted %Ln tensor(s) to a GGUF vision projector (mmproj) %1 as convert_hf_to_gguf.py --mmproj writes it: "
                          "%2 written in %3 s.", nullptr, o.tensors)
                           .arg(wiz_->resolvedOutType(), humanBytes(o.bytes), secsText);
        text += QStringLiteral("\n") + tr("llama.cpp loads it beside the text model: llama-mtmd-cli -m MODEL.gguf --mmproj %1")
                                             .arg(QFileInfo(files.value(0)).fileName());
        for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
        doneText_->setText(text + QStringLiteral("\n\n") + written);
    } else if (md == Mode::ConvertLora) {
        QString text = tr("Converted %Ln tensor(s) to a GGUF LoRA adapter %1 as convert_lora_to_gguf.py writes it: %2 written in %3 s.",
                          nullptr, o.tensors)
                           .arg(wiz_->loraOutType(), humanBytes(o.bytes), secsText);
        text += QStringLiteral("\n") + tr("llama.cpp applies it to the base model: llama-cli -m BASE.gguf --lora %1")
                                             .arg(QFileInfo(files.value(0)).fileName());
        for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
        doneText_->setText(text + QStringLiteral("\n\n") + written);
    } else if (md == Mode::ConvertGguf) {
        QString text = tr("Converted %Ln tensor(s) to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s.", nullptr, o.tensors)
                           .arg(wiz_->resolvedOutType(), humanBytes(o.bytes), secsText);
        for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
        doneText_->setText(text + QStringLiteral("\n\n") + written);
    } else {
        quint64 qbytes = 0, qnumel = 0;
        for (const auto& t : o.loss)
            if (!t.copied) qbytes += t.bytes, qnumel += t.numel;
        const QString to = md == Mode::ForgetGguf ? wiz_->ggufFileType() : wiz_->stScheme();
        QString text = tr("Forgot %Ln tensor(s) to %1: %2 bits per weight, %3 written in %4 s.", nullptr, o.tensors)
                           .arg(to, QLocale().toString(qnumel ? static_cast<double>(qbytes) * 8.0 / static_cast<double>(qnumel) : 0.0, 'f', 2),
                                humanBytes(o.bytes), secsText);
        for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
        doneText_->setText(text + QStringLiteral("\n\n") + written);
        showLoss(o.loss);
    }
    const bool loss = (md == Mode::ForgetGguf || md == Mode::ForgetSafetensors) && o.lossMeasured;
    lossBox_->setVisible(loss);
    if (loss) wiz_->resize(std::max(wiz_->width(), 900), std::max(wiz_->height(), 680));
}

void WizardDonePage::showLoss(const std::vector<amn::ForgetTensor>& loss) {
    lossTable_->setSortingEnabled(false);
    lossModel_->removeRows(0, lossModel_->rowCount());
    std::vector<LossChart::Bar> bars;
    for (const auto& t : loss) {
        if (t.copied || t.numel == 0) continue;
        const double bpw = static_cast<double>(t.bytes) * 8.0 / static_cast<double>(t.numel);
        const bool exact = !std::isfinite(t.sqnr_db);
        const QString type = targetName(t);
        lossModel_->appendRow({textItem(QString::fromStdString(t.name)), textItem(type), numberItem(QLocale().toString(bpw, 'f', 2), bpw),
                               numberItem(QLocale().toString(t.rmse, 'g', 4), t.rmse),
                               numberItem(QLocale().toString(t.max_abs, 'g', 4), t.max_abs),
                               numberItem(exact ? tr("exact") : QLocale().toString(t.sqnr_db, 'f', 2), exact ? 1e300 : t.sqnr_db),
                               numberItem(humanBytes(t.bytes), static_cast<double>(t.bytes))});
        bars.push_back({QString::fromStdString(t.name), type, t.sqnr_db, t.rmse, bpw});
    }
    showRowsInFileOrder(lossTable_);
    lossChart_->setBars(std::move(bars));
}

}  // namespace amn::ui
