// SPDX-License-Identifier: MIT OR Apache-2.0
#include "convertwizard.hpp"

#include "anamnesis/convert.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/stats.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QCloseEvent>
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

namespace amn::ui {

namespace {

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

QString clockText(double secs) {
    if (!(secs >= 0) || secs > 359999) return QStringLiteral("—");
    const auto t = static_cast<qint64>(secs + 0.5);
    return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

QLabel* wrapLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

}  // namespace

ConvertWizard::ConvertWizard(ModelPtr model, QWidget* parent) : QWizard(parent), model_(std::move(model)) {
    setWindowTitle(tr("Convert %1").arg(QString::fromStdString(model_->catalog.display_name)));
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage, true);
    setOption(QWizard::NoCancelButtonOnLastPage, true);
    setButtonText(QWizard::CommitButton, tr("&Convert"));
    setButtonText(QWizard::BackButton, tr("< &Back"));
    setButtonText(QWizard::NextButton, tr("&Next >"));
    setButtonText(QWizard::CancelButton, tr("Cancel"));
    setButtonText(QWizard::FinishButton, tr("&Finish"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/anamnesis.svg")));
    setMinimumSize(640, 480);
    confirmCancel_ = [this] {
        QMessageBox box(QMessageBox::Question, tr("Conversion running"),
                        tr("A conversion is still running. Cancel it? No partial file is left behind."), QMessageBox::NoButton, this);
        auto* stop = box.addButton(tr("Cancel Conversion"), QMessageBox::DestructiveRole);
        box.setDefaultButton(box.addButton(tr("Keep Running"), QMessageBox::RejectRole));
        box.exec();
        return box.clickedButton() == stop;
    };
    buildPages();
}

ConvertWizard::~ConvertWizard() { cancelAndWait(); }

void ConvertWizard::buildPages() {
    const auto& m = *model_;
    const auto& in = m.inspection;

    // 1. Source
    auto* source = new Page(this);
    source->setTitle(tr("Source"));
    source->setSubTitle(tr("The model to remember (dequantize)."));
    {
        auto* l = new QVBoxLayout(source);
        QStringList schemes;
        for (const auto& s : in.schemes) schemes << QString::fromStdString(s.description);
        l->addWidget(wrapLabel(QStringLiteral("<b>%1</b>").arg(QFileInfo(m.path).absoluteFilePath().toHtmlEscaped()), source));
        l->addWidget(wrapLabel(tr("%1, %n file(s), %2 — %3 output tensors, %4 parameters", nullptr, static_cast<int>(in.shards))
                                   .arg(QString::fromStdString(in.format), humanBytes(in.file_bytes))
                                   .arg(in.logical_tensors)
                                   .arg(humanCount(in.parameters)),
                               source));
        l->addWidget(wrapLabel(schemes.isEmpty() ? tr("Scheme: none (unquantized tensors are cast or copied).")
                                                 : tr("Scheme: %1").arg(schemes.join(QStringLiteral("; "))),
                               source));
        if (!in.errors.empty()) {
            auto* err = wrapLabel(tr("%n tensor(s) cannot be converted, for example:\n%1", nullptr, static_cast<int>(in.errors.size()))
                                      .arg(QString::fromStdString(in.errors.front())),
                                  source);
            err->setStyleSheet(QStringLiteral("color: #d03030"));
            l->addWidget(err);
        }
        l->addStretch(1);
        const bool ok = in.errors.empty();
        source->complete = [ok] { return ok; };
    }
    setPage(SourcePage, source);

    // 2. Target
    auto* target = new Page(this);
    target->setTitle(tr("Target"));
    target->setSubTitle(tr("What to write. The core writes safetensors."));
    {
        auto* l = new QVBoxLayout(target);
        auto* group = new QButtonGroup(target);
        autoTarget_ = new QRadioButton(tr("&Automatic: dequantized tensors as BF16, the others keep their dtype (lossless)"), target);
        bf16_ = new QRadioButton(tr("Every float tensor as &BF16 safetensors"), target);
        f16_ = new QRadioButton(tr("Every float tensor as &F16 safetensors"), target);
        f32_ = new QRadioButton(tr("Every float tensor as F&32 safetensors (exact dequantized values, twice the size)"), target);
        for (auto* b : {autoTarget_, bf16_, f16_, f32_}) {
            group->addButton(b);
            l->addWidget(b);
        }
        autoTarget_->setChecked(true);
        l->addSpacing(8);
        l->addWidget(wrapLabel(tr("Integer and boolean tensors are always copied unchanged. Quantization companions "
                                  "(scales, zero points) are consumed and not written."),
                               target));
        l->addStretch(1);
        connect(group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton*, bool on) {
            if (on && !outputEdited_ && output_) output_->setText(defaultOutput());
        });
    }
    setPage(TargetPage, target);

    // 3. Options
    auto* options = new Page(this);
    options->setTitle(tr("Options"));
    options->setSubTitle(tr("Where to write. Output goes to a temporary file first and is renamed when complete."));
    {
        auto* l = new QVBoxLayout(options);
        l->addWidget(new QLabel(tr("&Output (a .safetensors file, or a folder):"), options));
        auto* row = new QHBoxLayout;
        output_ = new QLineEdit(options);
        output_->setText(defaultOutput());
        qobject_cast<QLabel*>(l->itemAt(0)->widget())->setBuddy(output_);
        auto* browse = new QPushButton(tr("&Browse…"), options);
        row->addWidget(output_, 1);
        row->addWidget(browse);
        l->addLayout(row);
        overwrite_ = new QCheckBox(tr("O&verwrite existing files"), options);
        l->addWidget(overwrite_);
        optionsWarning_ = wrapLabel(QString(), options);
        optionsWarning_->setStyleSheet(QStringLiteral("color: #d03030"));
        l->addWidget(optionsWarning_);
        l->addStretch(1);
        connect(output_, &QLineEdit::textEdited, this, [this] { outputEdited_ = true; });
        connect(output_, &QLineEdit::textChanged, this, [this, options] {
            updateOptionsState();
            options->changed();
        });
        connect(overwrite_, &QCheckBox::toggled, this, [this, options] {
            updateOptionsState();
            options->changed();
        });
        connect(browse, &QPushButton::clicked, this, [this] {
            const QString f = QFileDialog::getSaveFileName(this, tr("Output file"), output_->text(), tr("safetensors (*.safetensors)"),
                                                           nullptr, QFileDialog::DontConfirmOverwrite);
            if (!f.isEmpty()) {
                outputEdited_ = true;
                output_->setText(f);
            }
        });
        options->complete = [this] {
            const QString out = output_->text().trimmed();
            return !out.isEmpty() && (overwrite_->isChecked() || !QFileInfo::exists(out));
        };
        options->enter = [this] { updateOptionsState(); };
    }
    setPage(OptionsPage, options);

    // 4. Summary
    auto* summary = new Page(this);
    summary->setTitle(tr("Summary"));
    summary->setSubTitle(tr("Check, then convert."));
    summary->setCommitPage(true);
    {
        auto* l = new QVBoxLayout(summary);
        summary_ = wrapLabel(QString(), summary);
        summary_->setTextFormat(Qt::RichText);
        l->addWidget(summary_);
        l->addStretch(1);
        summary->enter = [this] { updateSummary(); };
    }
    setPage(SummaryPage, summary);

    // 5. Run
    auto* run = new Page(this);
    run->setTitle(tr("Converting"));
    run->setSubTitle(tr("Runs in the background on all cores. Cancel stops within a second and leaves no partial file."));
    {
        auto* l = new QVBoxLayout(run);
        progress_ = new QProgressBar(run);
        progress_->setRange(0, 1000);
        progress_->setFormat(QStringLiteral("%p%"));
        l->addWidget(progress_);
        progressText_ = wrapLabel(QString(), run);
        l->addWidget(progressText_);
        auto* row = new QHBoxLayout;
        cancelButton_ = new QPushButton(tr("Cancel conversion"), run);
        row->addStretch(1);
        row->addWidget(cancelButton_);
        l->addLayout(row);
        l->addStretch(1);
        connect(cancelButton_, &QPushButton::clicked, this, [this] {
            if (isRunning()) {
                cancelConversion();
            } else if (!finishedOk_) {
                startConversion();  // the button reads "Try again" after a failure
            }
        });
        run->complete = [this] { return finishedOk_; };
        run->enter = [this] { startConversion(); };
    }
    setPage(RunPage, run);

    // 6. Done
    auto* done = new Page(this);
    done->setTitle(tr("Done"));
    done->setSubTitle(tr("The model is remembered."));
    done->setFinalPage(true);
    {
        auto* l = new QVBoxLayout(done);
        doneText_ = wrapLabel(QString(), done);
        l->addWidget(doneText_);
        auto* row = new QHBoxLayout;
        auto* openFolder = new QPushButton(tr("Open output &folder"), done);
        auto* openResult = new QPushButton(tr("&Open the result in anamnesis"), done);
        row->addWidget(openFolder);
        row->addWidget(openResult);
        row->addStretch(1);
        l->addLayout(row);
        l->addStretch(1);
        connect(openFolder, &QPushButton::clicked, this, [this] {
            QFileInfo fi(finalOutput_);
            const QString dir = fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
            QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
        });
        connect(openResult, &QPushButton::clicked, this, [this] { emit openRequested(finalOutput_); });
    }
    setPage(DonePage, done);
    setStartId(SourcePage);
}

QString ConvertWizard::defaultOutput() const {
    try {
        return QString::fromStdString(amn::default_output_path(model_->catalog, target()));
    } catch (const std::exception&) {
        return {};
    }
}

void ConvertWizard::setTarget(std::optional<amn::DType> to) {
    if (!to) autoTarget_->setChecked(true);
    else if (*to == amn::DType::BF16) bf16_->setChecked(true);
    else if (*to == amn::DType::F16) f16_->setChecked(true);
    else if (*to == amn::DType::F32) f32_->setChecked(true);
}

std::optional<amn::DType> ConvertWizard::target() const {
    if (bf16_ && bf16_->isChecked()) return amn::DType::BF16;
    if (f16_ && f16_->isChecked()) return amn::DType::F16;
    if (f32_ && f32_->isChecked()) return amn::DType::F32;
    return std::nullopt;
}

void ConvertWizard::setOutputPath(const QString& path) {
    outputEdited_ = true;
    output_->setText(path);
}
QString ConvertWizard::outputPath() const { return output_->text().trimmed(); }
void ConvertWizard::setOverwrite(bool on) { overwrite_->setChecked(on); }

void ConvertWizard::updateOptionsState() {
    const QString out = outputPath();
    if (out.isEmpty()) optionsWarning_->setText(tr("Choose an output path."));
    else if (QFileInfo::exists(out) && !overwrite_->isChecked())
        optionsWarning_->setText(tr("%1 exists. Tick “Overwrite existing files” or choose another path.").arg(out));
    else optionsWarning_->clear();
}

void ConvertWizard::updateSummary() {
    const auto& m = *model_;
    const auto to = target();
    const quint64 predicted = amn::predicted_output_bytes(m.plan, to);
    // Free space where the output goes: the nearest existing folder.
    QFileInfo fi(outputPath());
    QDir dir = fi.absoluteDir();
    while (!dir.exists() && dir.cdUp()) {
    }
    const QStorageInfo storage(dir.absolutePath());
    const qint64 avail = storage.isValid() ? storage.bytesAvailable() : -1;
    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v);
    };
    QString html = QStringLiteral("<table cellspacing=4>");
    html += row(tr("Source"), QFileInfo(m.path).absoluteFilePath().toHtmlEscaped());
    html += row(tr("Target"), to ? tr("%1 safetensors").arg(QString::fromStdString(amn::dtype_name(*to)))
                                 : tr("safetensors, dequantized tensors as BF16, others unchanged"));
    html += row(tr("Output"), outputPath().toHtmlEscaped() + (overwrite_->isChecked() ? tr(" (overwrite)") : QString()));
    html += row(tr("Tensors"), tr("%1 written, %2 dequantized").arg(m.inspection.logical_tensors).arg(m.inspection.quantized));
    html += row(tr("Predicted size"), tr("%1 of tensor data (input: %2)").arg(humanBytes(predicted), humanBytes(m.inspection.file_bytes)));
    if (avail >= 0) {
        QString free = tr("%1 free on %2").arg(humanBytes(static_cast<quint64>(avail)), storage.rootPath().toHtmlEscaped());
        if (static_cast<quint64>(avail) < predicted)
            free += QStringLiteral(" <span style='color:#d03030'>%1</span>").arg(tr("— not enough space"));
        html += row(tr("Disk space"), free);
    }
    html += QStringLiteral("</table>");
    summary_->setText(html);
}

bool ConvertWizard::isRunning() const { return future_.isValid() && !future_.isFinished(); }

int ConvertWizard::progressPermille() const { return progress_->value(); }

void ConvertWizard::startConversion() {
    if (isRunning()) return;
    finishedOk_ = false;
    files_.clear();
    error_.clear();
    amn::ConvertOptions opt;
    opt.to = target();
    opt.output = outputPath().toStdString();
    opt.force = overwrite_->isChecked();
    opt.threads = threads_;
    if (chunkBytes_) opt.chunk_bytes = chunkBytes_;
    finalOutput_ = outputPath();
    state_ = std::make_shared<JobState>();
    progress_->setValue(0);
    progressText_->setText(tr("Starting…"));
    cancelButton_->setText(tr("Cancel conversion"));
    cancelButton_->setEnabled(true);
    clock_.start();

    ModelPtr model = model_;
    auto state = state_;
    future_ = QtConcurrent::run([model, opt, state](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 1000);
        Outcome o;
        try {
            const auto res = amn::convert_to_safetensors(
                model->catalog, model->plan, opt,
                [&](const amn::Progress& p) {
                    state->done.store(p.done, std::memory_order_relaxed);
                    state->total.store(p.total, std::memory_order_relaxed);
                    if (p.total) promise.setProgressValue(static_cast<int>(p.done * 1000 / p.total));
                },
                &state->cancel);
            o.ok = true;
            for (const auto& f : res.files) o.files << QString::fromStdString(f);
            o.bytes = res.tensor_bytes;
            o.tensors = static_cast<int>(res.tensors);
        } catch (const amn::Error& e) {
            o.cancelled = e.code() == amn::ErrorCode::Cancelled;
            o.error = QString::fromStdString(e.what());
        } catch (const std::exception& e) {
            o.error = QString::fromStdString(e.what());
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
    if (o.ok) {
        finishedOk_ = true;
        files_ = o.files;
        progress_->setValue(1000);
        progressText_->setText(tr("Wrote %1 in %2 s.").arg(humanBytes(o.bytes), QLocale().toString(secs, 'f', 2)));
        cancelButton_->setEnabled(false);
        doneText_->setText(tr("Remembered %n tensor(s), %1 of tensor data, in %2 s.\n\nWritten:\n%3", nullptr, o.tensors)
                               .arg(humanBytes(o.bytes), QLocale().toString(secs, 'f', 2), files_.join(QLatin1Char('\n'))));
        static_cast<Page*>(page(RunPage))->changed();
        emit conversionFinished(true, false, {});
        if (currentId() == RunPage) next();
        return;
    }
    error_ = o.error;
    cancelButton_->setText(tr("Try again"));
    cancelButton_->setEnabled(true);
    if (o.cancelled) {
        progressText_->setText(tr("Cancelled. No output file was written."));
    } else {
        progressText_->setText(tr("Conversion failed: %1").arg(o.error));
        if (errorDialogs_) {
            auto* box = new QMessageBox(QMessageBox::Critical, tr("Conversion failed"),
                                        tr("The conversion stopped with an error. No output file was written."), QMessageBox::NoButton, this);
            box->addButton(tr("Close"), QMessageBox::AcceptRole);
            box->setInformativeText(o.error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    }
    emit conversionFinished(false, o.cancelled, o.error);
}

void ConvertWizard::cancelConversion() {
    if (!isRunning() || !state_) return;
    state_->cancel.store(true);
    cancelButton_->setEnabled(false);
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
    if (!confirmAndStop()) return;
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
