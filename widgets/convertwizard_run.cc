// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard (convertwizard.hpp): the run — the core call on a worker
// with progress and cancel — and the done page's report.
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"
#include "schemetext.hpp"

#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/hf_layout.hpp"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace amn::ui {

using namespace convert_detail;

bool ConvertWizard::isRunning() const { return future_.isValid() && !future_.isFinished(); }

int ConvertWizard::progressPermille() const { return progress_->value(); }

void ConvertWizard::startConversion() {
    if (isRunning()) return;
    finishedOk_ = false;
    files_.clear();
    error_.clear();
    runFailure_ = {};
    const Mode md = mode();
    amn::RememberOptions opt;
    amn::GgufForgetOptions gopt;
    amn::StForgetOptions sopt;
    amn::HfGgufOptions hopt;
    try {
        if (md == Mode::ConvertGguf) hopt = hfGgufOptions();
        else if (md == Mode::ForgetGguf) gopt = ggufOptions();
        else if (md == Mode::ForgetSafetensors) sopt = stOptions();
    } catch (const std::exception& e) {
        runFailure_ = Failure::of(e);
        error_ = runFailure_.detail;
        progressText_->setText(errorReport());
        emit conversionFinished(false, false, error_);
        return;
    }
    opt.to = target();
    opt.output = outputPath().toStdString();
    opt.force = overwrite_->isChecked();
    opt.threads = threads_;
    if (chunkBytes_) opt.chunk_bytes = chunkBytes_;
    finalOutput_ = QFileInfo(outputPath()).absoluteFilePath();
    // A proposed folder under Documents may not exist yet: create it, and
    // remove it again when the run leaves nothing in it.
    outputDir_ = QFileInfo(finalOutput_).absolutePath();
    createdOutputDir_ = !QFileInfo::exists(outputDir_) && QDir().mkpath(outputDir_);
    state_ = std::make_shared<JobState>();
    progress_->setValue(0);
    progressText_->setText(tr("Starting…"));
    cancelButton_->hide();
    summaryCommit(true);
    clock_.start();

    ModelPtr model = model_;
    auto state = state_;
    const bool hf = hfLayout();
    future_ = QtConcurrent::run([model, md, opt, gopt, sopt, hopt, state, hf](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 1000);
        Outcome o;
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
                    o2.config_json = layout->config_json;
                    o2.side_files = layout->side_files;
                    for (const auto& w : layout->warnings) o.warnings << QString::fromStdString(w);
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
                o.ggufWarnings = std::move(res.warnings);
            } else if (md == Mode::ForgetGguf) {
                auto res = amn::forget_to_gguf(model->catalog, model->plan, gopt, progress, &state->cancel);
                o.files << QString::fromStdString(res.file);
                o.bytes = res.file_bytes;
                o.loss = std::move(res.tensors);
                o.ggufWarnings = std::move(res.warnings);
            } else {
                auto res = amn::forget_to_safetensors(model->catalog, model->plan, sopt, progress, &state->cancel);
                for (const auto& f : res.files) o.files << QString::fromStdString(f);
                o.bytes = res.file_bytes;
                o.loss = std::move(res.tensors);
                for (const auto& w : res.warnings) o.warnings << QString::fromStdString(w);
            }
            if (md == Mode::ConvertGguf) o.tensors = static_cast<int>(o.loss.size());
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
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::progressValueChanged, this, &ConvertWizard::onProgress);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher] {
        watcher->deleteLater();
        onFinished();
    });
    watcher->setFuture(future_);
    emit conversionStarted();
}

void ConvertWizard::summaryCommit(bool on) {
    // The summary is a commit page while a run is possible or running (no
    // Back into a running job); after a failure or cancel Back is offered.
    if (auto* s = page(SummaryPage)) s->setCommitPage(on);
    if (auto* r = static_cast<Page*>(page(RunPage))) r->changed();
}

void ConvertWizard::onProgress(int permille) {
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

void ConvertWizard::onFinished() {
    const Outcome o = future_.resultCount() ? future_.result() : Outcome{};
    const double secs = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
    const QString secsText = QLocale().toString(secs, 'f', 2);
    if (o.ok) {
        finishedOk_ = true;
        for (const auto& f : o.files) files_ << QFileInfo(f).absoluteFilePath();
        progress_->setValue(1000);
        progressText_->setText(tr("Wrote %1 in %2 s.").arg(humanBytes(o.bytes), secsText));
        const QString written = tr("Written:\n%1").arg(files_.join(QLatin1Char('\n')));
        QStringList warnings = o.warnings;
        for (const auto& w : o.ggufWarnings) warnings << ggufWarningText(w);
        const Mode md = mode();
        if (md == Mode::Remember) {
            QString text = tr("Remembered %Ln tensor(s), %1 of tensor data, in %2 s.", nullptr, o.tensors).arg(humanBytes(o.bytes), secsText);
            if (hfLayout())
                text += QStringLiteral("\n") + tr("Hugging Face folder: %1").arg(QDir::toNativeSeparators(finalOutput_));
            doneText_->setText(text + QStringLiteral("\n\n") + written);
        } else if (md == Mode::ConvertGguf) {
            QString text = tr("Converted %Ln tensor(s) to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s.", nullptr, o.tensors)
                               .arg(resolvedOutType(), humanBytes(o.bytes), secsText);
            for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
            doneText_->setText(text + QStringLiteral("\n\n") + written);
        } else {
            quint64 qbytes = 0, qnumel = 0;
            for (const auto& t : o.loss)
                if (!t.copied) qbytes += t.bytes, qnumel += t.numel;
            const QString to = md == Mode::ForgetGguf ? ggufFileType() : stScheme();
            QString text = tr("Forgot %Ln tensor(s) to %1: %2 bits per weight, %3 written in %4 s.", nullptr, o.tensors)
                               .arg(to, QLocale().toString(qnumel ? static_cast<double>(qbytes) * 8.0 / static_cast<double>(qnumel) : 0.0, 'f', 2),
                                    humanBytes(o.bytes), secsText);
            for (const auto& w : warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
            doneText_->setText(text + QStringLiteral("\n\n") + written);
            showLoss(o.loss);
        }
        const bool loss = (md == Mode::ForgetGguf || md == Mode::ForgetSafetensors) && o.lossMeasured;
        lossBox_->setVisible(loss);
        if (loss) resize(std::max(width(), 900), std::max(height(), 680));
        static_cast<Page*>(page(RunPage))->changed();
        emit conversionFinished(true, false, {});
        if (currentId() == RunPage) next();
        return;
    }
    error_ = o.error;
    if (createdOutputDir_) QDir().rmdir(outputDir_);  // only when empty
    createdOutputDir_ = false;
    cancelButton_->show();
    summaryCommit(false);
    if (o.cancelled) {
        progressText_->setText(tr("Cancelled. No output file was written."));
    } else {
        // A plain first line from the error's code, the core's message below it.
        runFailure_ = o.failure;
        progressText_->setText(errorReport());
        if (errorDialogs_) {
            auto* box = new QMessageBox(QMessageBox::Critical, tr("Conversion failed"), plainRunError(o.failure.code, o.failure.tensor),
                                        QMessageBox::NoButton, this);
            box->addButton(tr("Close"), QMessageBox::AcceptRole);
            box->setInformativeText(tr("No output file was written.") + QStringLiteral("\n\n") + o.error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    }
    emit conversionFinished(false, o.cancelled, o.error);
}

void ConvertWizard::cancelConversion() {
    if (!isRunning() || !state_) return;
    state_->cancel.store(true);
    progressText_->setText(tr("Cancelling…"));
}

void ConvertWizard::cancelAndWait() {
    if (!future_.isValid()) return;
    if (state_) state_->cancel.store(true);
    future_.waitForFinished();
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
