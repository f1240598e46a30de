// SPDX-License-Identifier: MIT OR Apache-2.0
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include "wizarddonepage.hpp"
#include "wizardoptionspage.hpp"
#include "wizardrunpage.hpp"
#include "wizardsourcepage.hpp"
#include "wizardsummarypage.hpp"
#include "wizardtargetpage.hpp"

#include "anamnesis/hf_layout.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/remember.hpp"

#include <QCloseEvent>
#include <QHeaderView>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>

#include <algorithm>

namespace amn::ui {

namespace convert_detail {

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

void showRowsInFileOrder(QTableView* view) {
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    view->setSortingEnabled(true);
    view->resizeColumnsToContents();
    view->setColumnWidth(0, std::min(view->columnWidth(0), 320));
}

}  // namespace convert_detail

ConvertWizard::ConvertWizard(ModelPtr model, QWidget* parent)
    : QWizard(parent), model_(std::move(model)), hfInput_(amn::is_hf_gguf_input(model_->catalog)) {
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
    // One page per step, in the order the user meets them; Options after
    // Target: its output name follows the mode.
    setPage(SourcePage, new WizardSourcePage(this));
    setPage(TargetPage, target_ = new WizardTargetPage(this));
    setPage(OptionsPage, options_ = new WizardOptionsPage(this));
    setPage(SummaryPage, summary_ = new WizardSummaryPage(this));
    setPage(RunPage, run_ = new WizardRunPage(this));
    setPage(DonePage, done_ = new WizardDonePage(this));
    setStartId(SourcePage);
    updateModeWidgets();
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == SummaryPage) summaryCommit(true);
    });
}

ConvertWizard::~ConvertWizard() { cancelAndWait(); }

// ---- the pages' state, read and set ----------------------------------------

void ConvertWizard::setTarget(std::optional<amn::DType> to) { target_->setTarget(to); }
std::optional<amn::DType> ConvertWizard::target() const { return target_->target(); }
void ConvertWizard::setMode(Mode m) { target_->setMode(m); }
ConvertWizard::Mode ConvertWizard::mode() const { return target_->mode(); }
void ConvertWizard::setHfLayout(bool on) { target_->setHfLayout(on); }
bool ConvertWizard::hfLayout() const { return target_->hfLayout(); }
void ConvertWizard::setGgufFileType(const QString& name) { target_->setGgufFileType(name); }
QString ConvertWizard::ggufFileType() const { return target_->ggufFileType(); }
void ConvertWizard::setHfOutType(const QString& outtype) { target_->setHfOutType(outtype); }
QString ConvertWizard::hfOutType() const { return target_->hfOutType(); }
void ConvertWizard::setHfGgufInfo(const amn::HfGgufInfo& info) { target_->setHfGgufInfo(info); }
void ConvertWizard::setHfMmproj(bool on) { target_->setHfMmproj(on); }
bool ConvertWizard::hfMmproj() const { return target_->hfMmproj(); }
void ConvertWizard::setLoraOutType(const QString& outtype) { target_->setLoraOutType(outtype); }
QString ConvertWizard::loraOutType() const { return target_->loraOutType(); }
void ConvertWizard::setLoraBase(const QString& dir) { options_->setLoraBase(dir); }
QString ConvertWizard::loraBase() const { return options_ ? options_->loraBase() : QString(); }
void ConvertWizard::setStScheme(const QString& name) { target_->setStScheme(name); }
QString ConvertWizard::stScheme() const { return target_->stScheme(); }
void ConvertWizard::setImatrixPath(const QString& path) { options_->setImatrixPath(path); }
void ConvertWizard::setGgufPure(bool on) { options_->setPure(on); }
void ConvertWizard::setRequantize(bool on) { options_->setRequantize(on); }
void ConvertWizard::setOutputPath(const QString& path) { options_->setOutputPath(path); }
QString ConvertWizard::outputPath() const { return options_->outputPath(); }
void ConvertWizard::setOverwrite(bool on) { options_->setOverwrite(on); }
bool ConvertWizard::overwrite() const { return options_->overwrite(); }

bool ConvertWizard::isPlanning() const { return summary_->isPlanning(); }
bool ConvertWizard::planReady() const { return summary_->planReady(); }
QTableView* ConvertWizard::planTable() const { return summary_->planTable(); }
QTableView* ConvertWizard::lossTable() const { return done_->lossTable(); }
LossChart* ConvertWizard::lossChart() const { return done_->lossChart(); }

bool ConvertWizard::isRunning() const { return run_->isRunning(); }
int ConvertWizard::progressPermille() const { return run_->progressPermille(); }
void ConvertWizard::startConversion() { run_->start(); }
void ConvertWizard::cancelConversion() { run_->cancel(); }
void ConvertWizard::cancelAndWait() { run_->cancelAndWait(); }
QStringList ConvertWizard::writtenFiles() const { return run_->writtenFiles(); }
QString ConvertWizard::lastError() const { return run_->lastError(); }

// ---- what the pages share --------------------------------------------------

void ConvertWizard::modeChanged() {
    updateModeWidgets();
    if (options_) options_->followDefaultOutput();
}

void ConvertWizard::updateModeWidgets() {
    const Mode md = mode();
    const auto info = amn::st_scheme_info(stScheme().toStdString()).value_or(amn::StSchemeInfo{});
    if (options_) options_->showMode(md, info);
    if (done_) done_->showMode(md);
}

void ConvertWizard::summaryCommit(bool on) {
    summary_->setCommitPage(on);
    emit run_->completeChanged();
}

QString ConvertWizard::defaultOutput() const {
    std::string core;
    try {
        switch (mode()) {
        case Mode::Remember:
            core = hfLayout() ? amn::default_hf_layout_output_path(model_->catalog, target())  // a folder, as amn remember --layout hf
                              : amn::default_output_path(model_->catalog, target());
            break;
        case Mode::ForgetGguf:
            core = hfInput_ ? amn::default_hf_gguf_output_path(model_->catalog, ggufFileType().toStdString())
                            : amn::default_gguf_output_path(model_->catalog, ggufFileType().toStdString());
            break;
        case Mode::ConvertGguf:
            core = hfMmproj() ? amn::default_hf_mmproj_output_path(model_->catalog, hfOutType().toStdString())
                              : amn::default_hf_gguf_output_path(model_->catalog, hfOutType().toStdString());
            break;
        case Mode::ConvertLora:
            // Named after the adapter and the base's architecture: nothing until a base is chosen.
            if (!model_->adapter || loraBase().isEmpty()) return {};
            core = amn::default_lora_gguf_output_path(model_->adapter->folder, loraOptions());
            break;
        case Mode::ForgetSafetensors: core = amn::default_st_output_path(model_->catalog, stOptions().scheme); break;
        }
    } catch (const std::exception&) {
        return {};
    }
    return safeOutputPath(*model_, QString::fromStdString(core));
}

QString ConvertWizard::resolvedOutType() const {
    if (mode() == Mode::ConvertLora) return loraOutType();
    try {
        return QString::fromStdString(amn::resolve_hf_outtype(model_->catalog, hfOutType().toStdString()));
    } catch (const std::exception&) {
        return hfOutType();
    }
}

amn::GgufForgetOptions ConvertWizard::ggufOptions() const {
    amn::GgufForgetOptions o;
    o.ftype = ggufFileType().toStdString();
    options_->applyGguf(o);
    setRunOptions(o);
    return o;
}

amn::HfGgufOptions ConvertWizard::hfGgufOptions() const {
    amn::HfGgufOptions o;
    o.outtype = hfOutType().toStdString();
    o.mmproj = hfMmproj();
    setRunOptions(o);
    return o;
}

amn::LoraGgufOptions ConvertWizard::loraOptions() const {
    amn::LoraGgufOptions o;
    o.base = loraBase().toStdString();
    o.outtype = loraOutType().toStdString();
    setRunOptions(o);
    return o;
}

amn::StForgetOptions ConvertWizard::stOptions() const {
    const QString name = stScheme();
    // The options the scheme's row takes (the core's table, as --help lists them).
    const auto info = amn::st_scheme_info(name.toStdString()).value_or(amn::StSchemeInfo{});
    amn::StForgetOptions o;
    o.scheme = amn::parse_st_scheme(name.toStdString(), options_->schemeOptions(info));
    options_->applySt(o);
    setRunOptions(o);
    return o;
}

bool ConvertWizard::confirmAndStop() {
    if (!isRunning()) return true;
    if (confirmCancel_ && !confirmCancel_()) return false;
    cancelConversion();
    cancelAndWait();
    return true;
}

void ConvertWizard::reject() {
    // Cancel while running asks, then stops the run and stays (Back, Try
    // again); closing the window asks, cancels, waits and closes (closeEvent).
    if (isRunning()) {
        if (confirmCancel_ && !confirmCancel_()) return;  // Esc must not end an hour's run unasked
        cancelConversion();
        return;
    }
    QWizard::reject();
}

void ConvertWizard::closeEvent(QCloseEvent* e) {
    if (!confirmAndStop()) {
        e->ignore();
        return;
    }
    QWizard::closeEvent(e);
}

}  // namespace amn::ui
