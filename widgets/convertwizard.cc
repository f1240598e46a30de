// SPDX-License-Identifier: MIT OR Apache-2.0
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include "charts.hpp"
#include "schemetext.hpp"

#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/remember_size.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QRadioButton>
#include <QStorageInfo>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace amn::ui {

using namespace convert_detail;

namespace {

QTableView* makeTable(QStandardItemModel* model, QWidget* parent) {
    auto* v = new QTableView(parent);
    v->setModel(model);
    v->setSortingEnabled(true);
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setAlternatingRowColors(true);
    v->verticalHeader()->hide();
    v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
    v->horizontalHeader()->setStretchLastSection(true);
    v->setWordWrap(false);
    return v;
}

}  // namespace

ConvertWizard::ConvertWizard(ModelPtr model, QWidget* parent) : QWizard(parent), model_(std::move(model)) {
    setWindowTitle(tr("Convert %1").arg(modelDisplayName(*model_)));
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage, true);
    setOption(QWizard::NoCancelButtonOnLastPage, true);
    setButtonText(QWizard::CommitButton, tr("&Convert"));
    setButtonText(QWizard::BackButton, tr("< &Back"));
    setButtonText(QWizard::NextButton, tr("&Next >"));
    setButtonText(QWizard::CancelButton, tr("Cancel"));
    setButtonText(QWizard::FinishButton, tr("&Finish"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/anamnesis.svg")));
    setMinimumSize(720, 540);
    confirmCancel_ = [this] {
        QMessageBox box(QMessageBox::Question, tr("Conversion running"),
                        tr("A conversion is still running. Cancel it? No partial file is left behind."), QMessageBox::NoButton, this);
        auto* stop = box.addButton(tr("Cancel Conversion"), QMessageBox::DestructiveRole);
        box.setDefaultButton(box.addButton(tr("Keep Running"), QMessageBox::RejectRole));
        box.exec();
        return box.clickedButton() == stop;
    };
    buildPages();
    updateModeWidgets();
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == SummaryPage) summaryCommit(true);
    });
}

ConvertWizard::~ConvertWizard() { cancelAndWait(); }

void ConvertWizard::buildPages() {
    // One function per page, in the order the user meets them.
    setPage(SourcePage, buildSourcePage());
    setPage(TargetPage, buildTargetPage());   // convertwizard_target.cc
    setPage(OptionsPage, buildOptionsPage()); // convertwizard_options.cc (after Target: its output name follows the mode)
    setPage(SummaryPage, buildSummaryPage());
    setPage(RunPage, buildRunPage());
    setPage(DonePage, buildDonePage());
    setStartId(SourcePage);
}

QWizardPage* ConvertWizard::buildSourcePage() {
    const auto& m = *model_;
    const auto& in = m.inspection;
    auto* source = new Page(this);
    source->setTitle(tr("Source"));
    source->setSubTitle(tr("The model to convert."));
    auto* l = new QVBoxLayout(source);
    QStringList schemes;
    for (const auto& s : in.schemes) schemes << schemeUseText(model_->plan, s);
    l->addWidget(wrapLabel(QStringLiteral("<b>%1</b>").arg(QFileInfo(m.path).absoluteFilePath().toHtmlEscaped()), source));
    l->addWidget(wrapLabel(tr("%1, %Ln file(s), %2 — %3, %4 parameters", nullptr, static_cast<int>(in.shards))
                               .arg(QString::fromStdString(in.format), humanBytes(in.file_bytes),
                                    tr("%Ln output tensor(s)", nullptr, static_cast<int>(in.logical_tensors)),
                                    humanCount(in.parameters)),
                           source));
    l->addWidget(wrapLabel(schemes.isEmpty() ? tr("Scheme: none (unquantized tensors are cast or copied).")
                                             : tr("Scheme: %1").arg(schemes.join(QStringLiteral("; "))),
                           source));
    if (!in.errors.empty()) {
        auto* err = wrapLabel(tr("%Ln tensor(s) cannot be converted, for example:\n%1", nullptr, static_cast<int>(in.errors.size()))
                                  .arg(QString::fromStdString(in.errors.front())),
                              source);
        err->setStyleSheet(QStringLiteral("color: #d03030"));
        l->addWidget(err);
    }
    l->addStretch(1);
    const bool ok = in.errors.empty();
    source->complete = [ok] { return ok; };
    return source;
}

QWizardPage* ConvertWizard::buildSummaryPage() {
    auto* summary = new Page(this);
    summary->setTitle(tr("Summary"));
    summary->setSubTitle(tr("Check, then convert."));
    summary->setCommitPage(true);
    auto* l = new QVBoxLayout(summary);
    summary_ = wrapLabel(QString(), summary);
    summary_->setTextFormat(Qt::RichText);
    summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // at the top when the plan table is hidden (remember)
    l->addWidget(summary_);
    planModel_ = new QStandardItemModel(0, 6, summary);
    planModel_->setSortRole(Qt::UserRole);
    planModel_->setHorizontalHeaderLabels(
        {tr("Tensor"), tr("Shape"), tr("Stored"), tr("Written as"), tr("Bits/weight"), tr("Size"), tr("Why")});
    planTable_ = makeTable(planModel_, summary);
    l->addWidget(planTable_, 1);
    summary->complete = [this] { return mode() == Mode::Remember ? !hfLayout() || hfError_.isEmpty() : planOk_; };
    summary->enter = [this] {
        // The per-tensor table (forget, GGUF): room for its "Why" column.
        if (mode() != Mode::Remember) resize(std::max(width(), 900), std::max(height(), 600));
        updateSummary();
        if (mode() != Mode::Remember) startPlan();
    };
    return summary;
}

QWizardPage* ConvertWizard::buildRunPage() {
    auto* run = new Page(this);
    run->setTitle(tr("Converting"));
    run->setSubTitle(tr("Runs in the background on all cores. Cancel stops within a second and leaves no partial file."));
    auto* l = new QVBoxLayout(run);
    progress_ = new QProgressBar(run);
    progress_->setRange(0, 1000);
    progress_->setFormat(QStringLiteral("%p%"));
    l->addWidget(progress_);
    progressText_ = wrapLabel(QString(), run);
    l->addWidget(progressText_);
    // While running, the wizard's own Cancel button cancels the run (one
    // cancel button); this one offers "Try again" after a failure or cancel.
    auto* row = new QHBoxLayout;
    cancelButton_ = new QPushButton(tr("&Try again"), run);
    cancelButton_->hide();
    row->addStretch(1);
    row->addWidget(cancelButton_);
    l->addLayout(row);
    l->addStretch(1);
    connect(cancelButton_, &QPushButton::clicked, this, [this] {
        if (!isRunning() && !finishedOk_) startConversion();
    });
    run->complete = [this] { return finishedOk_; };
    run->enter = [this] { startConversion(); };
    return run;
}

QWizardPage* ConvertWizard::buildDonePage() {
    auto* done = new Page(this);
    done->setTitle(tr("Done"));
    done->setFinalPage(true);
    auto* l = new QVBoxLayout(done);
    doneText_ = wrapLabel(QString(), done);
    l->addWidget(doneText_);
    auto* row = new QHBoxLayout;
    auto* openFolder = new QPushButton(tr("Open output fo&lder"), done);
    auto* openResult = new QPushButton(tr("&Open the result in anamnesis"), done);
    row->addWidget(openFolder);
    row->addWidget(openResult);
    row->addStretch(1);
    l->addLayout(row);
    // Forget: what was lost, measured — a chart over a sortable table.
    auto* split = new QSplitter(Qt::Vertical, done);
    lossChart_ = new LossChart(split);
    lossModel_ = new QStandardItemModel(0, 7, done);
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
        QFileInfo fi(finalOutput_);
        const QString dir = fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
        QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
    });
    connect(openResult, &QPushButton::clicked, this, [this] { emit openRequested(finalOutput_); });
    return done;
}

}  // namespace amn::ui
