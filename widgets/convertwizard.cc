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
        QButtonGroup* layoutGroup = nullptr;
        if (m.catalog.format == amn::Format::Gguf) {  // amn remember --layout hf
            layoutGroup = new QButtonGroup(remember);
            singleFile_ = new QRadioButton(tr("One safetensors fi&le (GGUF tensor names)"), remember);
            hfFolder_ = new QRadioButton(tr("&Hugging Face folder (config.json + safetensors, transformers names)"), remember);
            hfFolder_->setToolTip(tr("As amn remember --layout hf: a folder transformers can load, with llama.cpp's "
                                     "Q/K permutation undone."));
            // One below the other: side by side, the second was cut at the
            // right edge at the default size (radio buttons do not wrap).
            for (auto* b : {singleFile_, hfFolder_}) {
                layoutGroup->addButton(b);
                rl->addWidget(b);
            }
            singleFile_->setChecked(true);
        }
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
        if (layoutGroup)
            connect(layoutGroup, &QButtonGroup::buttonToggled, this, [this, refresh](QAbstractButton*, bool on) {
                if (!on) return;
                if (mode() != Mode::Remember) autoTarget_->setChecked(true);  // a layout is a remember choice
                refresh();
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

}  // namespace amn::ui
