// SPDX-License-Identifier: MIT OR Apache-2.0
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include "charts.hpp"
#include "schemetext.hpp"

#include "anamnesis/convert.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/stats.hpp"

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

QString clockText(double secs) {
    if (!(secs >= 0) || secs > 359999) return QStringLiteral("—");
    const auto t = static_cast<qint64>(secs + 0.5);
    return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

/// ggml type names offered for the per-tensor overrides (as llama-quantize spells them).
const char* const kOverrideTypes[] = {"F32", "F16", "BF16", "Q8_0", "Q6_K", "Q5_K", "Q5_0", "Q5_1", "Q4_K", "Q4_0",
                                      "Q4_1", "Q3_K", "Q2_K", "IQ4_XS", "IQ4_NL", "IQ3_S", "IQ3_XXS", "IQ2_S",
                                      "IQ2_XS", "IQ2_XXS", "IQ1_M", "IQ1_S", "TQ2_0", "TQ1_0", "MXFP4"};

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

QLabel* wrapLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
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
    const auto& m = *model_;
    const auto& in = m.inspection;

    // 1. Source
    auto* source = new Page(this);
    source->setTitle(tr("Source"));
    source->setSubTitle(tr("The model to convert."));
    {
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
    }
    setPage(SourcePage, source);

    // 2. Target
    auto* target = new Page(this);
    target->setTitle(tr("Target"));
    target->setSubTitle(tr("Remember (dequantize) to safetensors, or forget (quantize) to GGUF or a safetensors scheme."));
    {
        auto* l = new QVBoxLayout(target);
        auto* group = new QButtonGroup(target);
        auto* remember = new QGroupBox(tr("Remember"), target);
        auto* rl = new QVBoxLayout(remember);
        autoTarget_ = new QRadioButton(tr("&Automatic: dequantized tensors as BF16, the others keep their dtype (lossless)"), remember);
        bf16_ = new QRadioButton(tr("Every float tensor as &BF16 safetensors"), remember);
        f16_ = new QRadioButton(tr("Every float tensor as &F16 safetensors"), remember);
        f32_ = new QRadioButton(tr("Every float tensor as F&32 safetensors (exact dequantized values, twice the size)"), remember);
        for (auto* b : {autoTarget_, bf16_, f16_, f32_}) {
            group->addButton(b);
            rl->addWidget(b);
        }
        rl->addWidget(wrapLabel(tr("Integer and boolean tensors are always copied unchanged. Quantization companions "
                                   "(scales, zero points) are consumed and not written."),
                                remember));
        l->addWidget(remember);

        auto* forget = new QGroupBox(tr("Forget"), target);
        auto* fl = new QGridLayout(forget);
        ggufRadio_ = new QRadioButton(tr("&GGUF file type (as llama-quantize):"), forget);
        ftype_ = new QComboBox(forget);
        for (const auto& ft : amn::llama_file_types()) {
            if (!ft.offered) continue;
            const QString name = QString::fromLatin1(ft.name.data(), static_cast<int>(ft.name.size()));
            ftype_->addItem(ft.needs_imatrix ? tr("%1 (needs an importance matrix)").arg(name) : name, name);
        }
        ftype_->setCurrentIndex(std::max(0, ftype_->findData(QStringLiteral("Q4_K_M"))));
        stRadio_ = new QRadioButton(tr("&Safetensors scheme (transformers, vLLM):"), forget);
        scheme_ = new QComboBox(forget);
        for (auto n : amn::st_scheme_names()) {
            const QString name = QString::fromLatin1(n.data(), static_cast<int>(n.size()));
            scheme_->addItem(name, name);
        }
        group->addButton(ggufRadio_);
        group->addButton(stRadio_);
        fl->addWidget(ggufRadio_, 0, 0);
        fl->addWidget(ftype_, 0, 1);
        fl->addWidget(stRadio_, 1, 0);
        fl->addWidget(scheme_, 1, 1);
        fl->setColumnStretch(2, 1);
        const bool isGguf = m.catalog.format == amn::Format::Gguf;
        if (!isGguf) {
            ggufRadio_->setEnabled(false);
            ftype_->setEnabled(false);
            ggufRadio_->setToolTip(tr("GGUF output needs a GGUF input (the Hugging Face → GGUF name mapping is not done yet)."));
        }
        fl->addWidget(wrapLabel(tr("Forgetting measures what is lost: after the run, the error of every tensor (RMSE, SQNR)."), forget),
                      2, 0, 1, 3);
        l->addWidget(forget);
        l->addStretch(1);
        autoTarget_->setChecked(true);
        auto refresh = [this] {
            updateModeWidgets();
            if (!outputEdited_ && output_) output_->setText(defaultOutput());
        };
        connect(group, &QButtonGroup::buttonToggled, this, [refresh](QAbstractButton*, bool on) {
            if (on) refresh();
        });
        connect(ftype_, &QComboBox::currentIndexChanged, this, [this, refresh] {
            if (ggufRadio_->isEnabled()) ggufRadio_->setChecked(true);
            refresh();
        });
        connect(scheme_, &QComboBox::currentIndexChanged, this, [this, refresh] {
            stRadio_->setChecked(true);
            refresh();
        });
    }
    setPage(TargetPage, target);

    // 3. Options
    auto* options = new Page(this);
    options->setTitle(tr("Options"));
    options->setSubTitle(tr("Where to write. Output goes to a temporary file first and is renamed when complete."));
    {
        auto* l = new QVBoxLayout(options);
        auto* outLabel = new QLabel(tr("&Output (a file, or a folder):"), options);
        l->addWidget(outLabel);
        auto* row = new QHBoxLayout;
        output_ = new QLineEdit(options);
        output_->setText(defaultOutput());
        outLabel->setBuddy(output_);
        auto* browse = new QPushButton(tr("&Browse…"), options);
        row->addWidget(output_, 1);
        row->addWidget(browse);
        l->addLayout(row);
        overwrite_ = new QCheckBox(tr("O&verwrite existing files"), options);
        l->addWidget(overwrite_);

        // Mode-specific options: nothing for remember, llama-quantize's for
        // GGUF, the scheme's for safetensors (the names of `amn forget`).
        modeOptions_ = new QStackedWidget(options);
        modeOptions_->addWidget(new QWidget(modeOptions_));
        {
            auto* g = new QGroupBox(tr("GGUF options"), modeOptions_);
            auto* f = new QFormLayout(g);
            pure_ = new QCheckBox(tr("&Pure: the file type's type for every quantized tensor (--pure)"), g);
            f->addRow(pure_);
            outputType_ = new QComboBox(g);
            embeddingType_ = new QComboBox(g);
            for (auto* c : {outputType_, embeddingType_}) {
                c->addItem(tr("by the file type's rules"), QString());
                for (const char* t : kOverrideTypes)
                    if (amn::parse_ggml_type(t)) c->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
            }
            f->addRow(tr("Output tensor type:"), outputType_);
            f->addRow(tr("Token embedding type:"), embeddingType_);
            tensorTypes_ = new QLineEdit(g);
            tensorTypes_->setPlaceholderText(tr("REGEX=TYPE; … e.g. attn_v=Q8_0"));
            tensorTypes_->setToolTip(tr("--tensor-type: the first pattern found in a tensor's name gives its type. Separate several with “;”."));
            f->addRow(tr("&Tensor types:"), tensorTypes_);
            auto* im = new QHBoxLayout;
            imatrix_ = new QLineEdit(g);
            imatrix_->setPlaceholderText(tr("none"));
            auto* imBrowse = new QPushButton(tr("Choose…"), g);
            im->addWidget(imatrix_, 1);
            im->addWidget(imBrowse);
            f->addRow(tr("&Importance matrix:"), im);
            connect(imBrowse, &QPushButton::clicked, this, [this] {
                const QString f = QFileDialog::getOpenFileName(this, tr("Importance matrix"), imatrix_->text(),
                                                               tr("Importance matrix (*.gguf *.dat);;All files (*)"));
                if (!f.isEmpty()) imatrix_->setText(f);
            });
            modeOptions_->addWidget(g);
        }
        {
            auto* g = new QGroupBox(tr("Scheme options"), modeOptions_);
            auto* f = new QFormLayout(g);
            blocksize_ = new QComboBox(g);
            for (int b : {64, 128, 256, 512, 1024, 2048, 4096}) blocksize_->addItem(QString::number(b), b);
            f->addRow(tr("Block size (bnb-nf4, bnb-fp4):"), blocksize_);
            doubleQuant_ = new QCheckBox(tr("&Double quant: absmax quantized to 8 bits"), g);
            f->addRow(doubleQuant_);
            granularity_ = new QComboBox(g);
            granularity_->addItem(tr("channel (FP8_DYNAMIC)"), QStringLiteral("channel"));
            granularity_->addItem(tr("tensor (FP8)"), QStringLiteral("tensor"));
            granularity_->addItem(tr("block 128×128 (FP8_BLOCK)"), QStringLiteral("block"));
            f->addRow(tr("Granularity (fp8):"), granularity_);
            ue8m0_ = new QCheckBox(tr("Power-of-two scales (ue8m0)"), g);
            f->addRow(ue8m0_);
            groupSize_ = new QComboBox(g);
            for (int gs : {128, 64, 32}) groupSize_->addItem(QString::number(gs), gs);
            groupSize_->addItem(tr("channel"), 0);
            f->addRow(tr("Group size (w4a16, w8a16):"), groupSize_);
            keep_ = new QLineEdit(g);
            keep_->setPlaceholderText(tr("REGEX; … tensors never quantized"));
            f->addRow(tr("&Keep:"), keep_);
            only_ = new QLineEdit(g);
            only_->setPlaceholderText(tr("REGEX; … quantize exactly the 2-D weights matching"));
            f->addRow(tr("O&nly:"), only_);
            requantize_ = new QCheckBox(tr("&Re-quantize an already quantized input (the errors compound)"), g);
            f->addRow(requantize_);
            modeOptions_->addWidget(g);
        }
        l->addWidget(modeOptions_);
        optionsWarning_ = wrapLabel(QString(), options);
        optionsWarning_->setStyleSheet(QStringLiteral("color: #d03030"));
        l->addWidget(optionsWarning_);
        l->addStretch(1);
        auto changed = [this, options] {
            updateOptionsState();
            options->changed();
        };
        connect(output_, &QLineEdit::textEdited, this, [this] { outputEdited_ = true; });
        connect(output_, &QLineEdit::textChanged, this, changed);
        connect(overwrite_, &QCheckBox::toggled, this, changed);
        connect(tensorTypes_, &QLineEdit::textChanged, this, changed);
        connect(imatrix_, &QLineEdit::textChanged, this, changed);
        connect(keep_, &QLineEdit::textChanged, this, changed);
        connect(only_, &QLineEdit::textChanged, this, changed);
        for (auto* c : {blocksize_, granularity_, groupSize_})
            connect(c, &QComboBox::currentIndexChanged, this, [this, changed] {
                if (!outputEdited_) output_->setText(defaultOutput());
                changed();
            });
        for (auto* c : {doubleQuant_, ue8m0_})
            connect(c, &QCheckBox::toggled, this, [this, changed] {
                if (!outputEdited_) output_->setText(defaultOutput());
                changed();
            });
        connect(browse, &QPushButton::clicked, this, [this] {
            const bool gguf = mode() == Mode::ForgetGguf;
            const QString f = QFileDialog::getSaveFileName(
                this, tr("Output file"), output_->text(), gguf ? tr("GGUF (*.gguf)") : tr("safetensors (*.safetensors);;All files (*)"),
                nullptr, QFileDialog::DontConfirmOverwrite);
            if (!f.isEmpty()) {
                outputEdited_ = true;
                output_->setText(f);
            }
        });
        options->complete = [this] {
            const QString out = output_->text().trimmed();
            return !out.isEmpty() && (overwrite_->isChecked() || !QFileInfo::exists(out)) && optionsWarning_->text().isEmpty();
        };
        options->enter = [this] {
            updateModeWidgets();
            updateOptionsState();
        };
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
        planModel_ = new QStandardItemModel(0, 6, summary);
        planModel_->setSortRole(Qt::UserRole);
        planModel_->setHorizontalHeaderLabels(
            {tr("Tensor"), tr("Shape"), tr("Stored"), tr("Written as"), tr("Bits/weight"), tr("Size"), tr("Why")});
        planTable_ = makeTable(planModel_, summary);
        l->addWidget(planTable_, 1);
        summary->complete = [this] { return mode() == Mode::Remember || planOk_; };
        summary->enter = [this] {
            updateSummary();
            if (mode() != Mode::Remember) startPlan();
        };
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
    }
    setPage(RunPage, run);

    // 6. Done
    auto* done = new Page(this);
    done->setTitle(tr("Done"));
    done->setFinalPage(true);
    {
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
    }
    setPage(DonePage, done);
    setStartId(SourcePage);
}


bool ConvertWizard::isRunning() const { return future_.isValid() && !future_.isFinished(); }

int ConvertWizard::progressPermille() const { return progress_->value(); }

void ConvertWizard::startConversion() {
    if (isRunning()) return;
    finishedOk_ = false;
    files_.clear();
    error_.clear();
    const Mode md = mode();
    amn::ConvertOptions opt;
    amn::GgufForgetOptions gopt;
    amn::StForgetOptions sopt;
    try {
        if (md == Mode::ForgetGguf) gopt = ggufOptions();
        else if (md == Mode::ForgetSafetensors) sopt = stOptions();
    } catch (const std::exception& e) {
        error_ = QString::fromStdString(e.what());
        progressText_->setText(tr("Conversion failed: %1").arg(error_));
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
    future_ = QtConcurrent::run([model, md, opt, gopt, sopt, state](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 1000);
        Outcome o;
        const auto progress = [&](const amn::Progress& p) {
            state->done.store(p.done, std::memory_order_relaxed);
            state->total.store(p.total, std::memory_order_relaxed);
            if (p.total) promise.setProgressValue(static_cast<int>(p.done * 1000 / p.total));
        };
        try {
            if (md == Mode::Remember) {
                const auto res = amn::convert_to_safetensors(model->catalog, model->plan, opt, progress, &state->cancel);
                for (const auto& f : res.files) o.files << QString::fromStdString(f);
                o.bytes = res.tensor_bytes;
                o.tensors = static_cast<int>(res.tensors);
            } else if (md == Mode::ForgetGguf) {
                auto res = amn::forget_to_gguf(model->catalog, model->plan, gopt, progress, &state->cancel);
                o.files << QString::fromStdString(res.file);
                o.bytes = res.file_bytes;
                o.loss = std::move(res.tensors);
                for (const auto& w : res.warnings) o.warnings << QString::fromStdString(w);
            } else {
                auto res = amn::forget_to_safetensors(model->catalog, model->plan, sopt, progress, &state->cancel);
                for (const auto& f : res.files) o.files << QString::fromStdString(f);
                o.bytes = res.file_bytes;
                o.loss = std::move(res.tensors);
                for (const auto& w : res.warnings) o.warnings << QString::fromStdString(w);
            }
            for (const auto& t : o.loss) o.tensors += t.copied ? 0 : 1;
            o.ok = true;
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
        const Mode md = mode();
        if (md == Mode::Remember) {
            doneText_->setText(tr("Remembered %Ln tensor(s), %1 of tensor data, in %2 s.", nullptr, o.tensors).arg(humanBytes(o.bytes), secsText) +
                               QStringLiteral("\n\n") + written);
        } else {
            quint64 qbytes = 0, qnumel = 0;
            for (const auto& t : o.loss)
                if (!t.copied) qbytes += t.bytes, qnumel += t.numel;
            const QString to = md == Mode::ForgetGguf ? ggufFileType() : stScheme();
            QString text = tr("Forgot %Ln tensor(s) to %1: %2 bits per weight, %3 written in %4 s.", nullptr, o.tensors)
                               .arg(to, QLocale().toString(qnumel ? static_cast<double>(qbytes) * 8.0 / static_cast<double>(qnumel) : 0.0, 'f', 2),
                                    humanBytes(o.bytes), secsText);
            for (const auto& w : o.warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
            doneText_->setText(text + QStringLiteral("\n\n") + written);
            showLoss(o.loss);
        }
        lossBox_->setVisible(md != Mode::Remember);
        if (md != Mode::Remember) resize(std::max(width(), 900), std::max(height(), 680));
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
