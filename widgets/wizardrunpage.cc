// SPDX-License-Identifier: MIT OR Apache-2.0
#include "wizardrunpage.hpp"

#include "wizarddonepage.hpp"

#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/lora_to_gguf.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace amn::ui {

using namespace convert_detail;

namespace {

/// Seconds as "m:ss" or "h:mm:ss"; "—" when unknown (negative, NaN) or ≥ 100 h.
QString clockText(double secs) {
    if (!(secs >= 0) || secs > 359999) return QStringLiteral("—");
    const auto t = static_cast<qint64>(secs + 0.5);
    return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

WizardRunPage::WizardRunPage(ConvertWizard* wizard) : QWizardPage(wizard), wiz_(wizard) {
    setTitle(tr("Converting"));
    setSubTitle(tr("Runs in the background on all cores. Cancel stops within a second and leaves no partial file."));
    auto* l = new QVBoxLayout(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setFormat(QStringLiteral("%p%"));
    l->addWidget(progress_);
    progressText_ = wrapLabel(QString(), this);
    l->addWidget(progressText_);
    // While running, the wizard's own Cancel button cancels the run (one
    // cancel button); this one offers "Try again" after a failure or cancel.
    auto* row = new QHBoxLayout;
    retryButton_ = new QPushButton(tr("&Try again"), this);
    retryButton_->hide();
    row->addStretch(1);
    row->addWidget(retryButton_);
    l->addLayout(row);
    l->addStretch(1);
    connect(retryButton_, &QPushButton::clicked, this, [this] {
        if (!isRunning() && !finishedOk_) start();
    });
}

bool WizardRunPage::isRunning() const { return future_.isValid() && !future_.isFinished(); }

int WizardRunPage::progressPermille() const { return progress_->value(); }

void WizardRunPage::start() {
    if (isRunning()) return;
    finishedOk_ = false;
    files_.clear();
    error_.clear();
    runFailure_ = {};
    const Mode md = wiz_->mode();
    amn::RememberOptions opt;
    amn::GgufForgetOptions gopt;
    amn::StForgetOptions sopt;
    amn::HfGgufOptions hopt;
    amn::LoraGgufOptions lopt;
    const std::string adapterDir = wiz_->model()->adapter ? wiz_->model()->adapter->folder : std::string();
    try {
        if (md == Mode::ConvertGguf) hopt = wiz_->hfGgufOptions();
        else if (md == Mode::ConvertLora) lopt = wiz_->loraOptions();
        else if (md == Mode::ForgetGguf) gopt = wiz_->ggufOptions();
        else if (md == Mode::ForgetSafetensors) sopt = wiz_->stOptions();
    } catch (const std::exception& e) {
        runFailure_ = Failure::of(e);
        error_ = runFailure_.detail;
        progressText_->setText(wiz_->errorReport());
        emit wiz_->conversionFinished(false, false, error_);
        return;
    }
    opt.to = wiz_->target();
    wiz_->setRunOptions(opt);
    finalOutput_ = QFileInfo(wiz_->outputPath()).absoluteFilePath();
    // A proposed folder under Documents may not exist yet: create it, and
    // remove it again when the run leaves nothing in it.
    outputDir_ = QFileInfo(finalOutput_).absolutePath();
    createdOutputDir_ = !QFileInfo::exists(outputDir_) && QDir().mkpath(outputDir_);
    state_ = std::make_shared<JobState>();
    progress_->setValue(0);
    progressText_->setText(tr("Starting…"));
    retryButton_->hide();
    wiz_->summaryCommit(true);
    clock_.start();

    ModelPtr model = wiz_->model();
    auto state = state_;
    const bool hf = wiz_->hfLayout();
    future_ = QtConcurrent::run([model, md, opt, gopt, sopt, hopt, lopt, adapterDir, state, hf](QPromise<RunOutcome>& promise) {
        promise.setProgressRange(0, 1000);
        RunOutcome o;
        const auto progress = [&](const amn::Progress& p) {
            state->done.store(p.done, std::memory_order_relaxed);
            state->total.store(p.total, std::memory_order_relaxed);
            if (p.total) promise.setProgressValue(static_cast<int>(p.done * 1000 / p.total));
        };
        try {
            if (md == Mode::Remember) {
                amn::RememberOptions o2 = opt;
                std::optional<amn::HfLayout> layout;
                if (hf) {  // as amn remember --layout hf: HF names, config.json, tokenizer and generation files
                    layout = amn::to_hf_layout(model->catalog, model->plan, opt.to);
                    amn::apply_hf_layout(*layout, o2);
                    o.warnings = layout->warnings;
                }
                const auto res = amn::remember_to_safetensors(model->catalog, layout ? layout->plan : model->plan, o2, progress, &state->cancel);
                for (const auto& f : res.files) o.files << QString::fromStdString(f);
                o.bytes = res.tensor_bytes;
                o.tensors = static_cast<int>(res.tensors);
            } else if (md == Mode::ConvertGguf) {
                auto res = amn::convert_hf_to_gguf(model->catalog, hopt, progress, &state->cancel);
                o.files << QString::fromStdString(res.file);
                o.bytes = res.file_bytes;
                o.lossMeasured = res.loss_measured;
                o.loss = std::move(res.tensors);
                o.warnings = std::move(res.warnings);
            } else if (md == Mode::ConvertLora) {
                auto res = amn::convert_lora_to_gguf(adapterDir, lopt, progress, &state->cancel);
                o.files << QString::fromStdString(res.file);
                o.bytes = res.file_bytes;
                o.lossMeasured = false;  // the converter measures nothing
                o.loss = std::move(res.tensors);
                o.warnings = std::move(res.warnings);
            } else if (md == Mode::ForgetGguf) {
                auto res = amn::forget_to_gguf(model->catalog, model->plan, gopt, progress, &state->cancel);
                o.files << QString::fromStdString(res.file);
                o.bytes = res.file_bytes;
                o.loss = std::move(res.tensors);
                o.warnings = std::move(res.warnings);
            } else {
                auto res = amn::forget_to_safetensors(model->catalog, model->plan, sopt, progress, &state->cancel);
                for (const auto& f : res.files) o.files << QString::fromStdString(f);
                o.bytes = res.file_bytes;
                o.loss = std::move(res.tensors);
                o.warnings = std::move(res.warnings);
            }
            if (md == Mode::ConvertGguf || md == Mode::ConvertLora) o.tensors = static_cast<int>(o.loss.size());
            else
                for (const auto& t : o.loss) o.tensors += t.copied ? 0 : 1;
            o.ok = true;
        } catch (const std::exception& e) {
            o.failure = Failure::of(e);
            o.cancelled = o.failure.code == static_cast<int>(amn::ErrorCode::Cancelled);
            o.error = o.failure.detail;
        }
        promise.addResult(std::move(o));
    });
    auto* watcher = new QFutureWatcher<RunOutcome>(this);
    connect(watcher, &QFutureWatcher<RunOutcome>::progressValueChanged, this, &WizardRunPage::onProgress);
    connect(watcher, &QFutureWatcher<RunOutcome>::finished, this, [this, watcher] {
        watcher->deleteLater();
        onFinished();
    });
    watcher->setFuture(future_);
    emit wiz_->conversionStarted();
}

void WizardRunPage::onProgress(int permille) {
    if (!state_) return;
    progress_->setValue(permille);
    if (state_->cancel.load()) return;
    const double secs = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
    const quint64 done = state_->done.load(), total = state_->total.load();
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    const double left = rate > 0 ? static_cast<double>(total - std::min(done, total)) / rate : -1;
    progressText_->setText(tr("%1 of %2 written — %3/s — %4 left")
                               .arg(humanBytes(done), humanBytes(total), humanBytes(static_cast<quint64>(rate)), clockText(left)));
}

void WizardRunPage::onFinished() {
    const RunOutcome o = future_.resultCount() ? future_.result() : RunOutcome{};
    const double secs = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
    const QString secsText = QLocale().toString(secs, 'f', 2);
    if (o.ok) {
        finishedOk_ = true;
        for (const auto& f : o.files) files_ << QFileInfo(f).absoluteFilePath();
        progress_->setValue(1000);
        progressText_->setText(tr("Wrote %1 in %2 s.").arg(humanBytes(o.bytes), secsText));
        wiz_->done_->showResult(o, files_, secsText, finalOutput_);
        emit completeChanged();
        emit wiz_->conversionFinished(true, false, {});
        if (wiz_->currentId() == ConvertWizard::RunPage) wiz_->next();
        return;
    }
    error_ = o.error;
    if (createdOutputDir_) QDir().rmdir(outputDir_);  // only when empty
    createdOutputDir_ = false;
    retryButton_->show();
    wiz_->summaryCommit(false);
    if (o.cancelled) {
        progressText_->setText(tr("Cancelled. No output file was written."));
    } else {
        // A plain first line from the error's code, the core's message below it.
        runFailure_ = o.failure;
        progressText_->setText(wiz_->errorReport());
        if (wiz_->errorDialogs_) {
            auto* box = new QMessageBox(QMessageBox::Critical, tr("Conversion failed"), ConvertWizard::plainRunError(o.failure.code, o.failure.tensor),
                                        QMessageBox::NoButton, wiz_);
            box->addButton(tr("Close"), QMessageBox::AcceptRole);
            box->setInformativeText(tr("No output file was written.") + QStringLiteral("\n\n") + o.error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    }
    emit wiz_->conversionFinished(false, o.cancelled, o.error);
}

void WizardRunPage::cancel() {
    if (!isRunning() || !state_) return;
    state_->cancel.store(true);
    progressText_->setText(tr("Cancelling…"));
}

void WizardRunPage::cancelAndWait() {
    if (!future_.isValid()) return;
    if (state_) state_->cancel.store(true);
    future_.waitForFinished();
}

}  // namespace amn::ui
