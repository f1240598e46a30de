// ConvertWizard: the Options page (output path; llama-quantize's and the
// safetensors scheme's options, as `amn forget` names them).
// SPDX-License-Identifier: MIT OR Apache-2.0
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/quant_params.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace amn::ui {

using namespace convert_detail;

QWizardPage* ConvertWizard::buildOptionsPage() {
    auto* options = new Page(this);
    options->setTitle(tr("Options"));
    options->setSubTitle(tr("Where to write. Output goes to a temporary file first and is renamed when complete."));
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
            // Every type forget can write (the encoder table), as llama-quantize spells them.
            for (const amn::DType t : amn::encodable_ggml_types()) {
                const QString name = QString::fromStdString(amn::dtype_name(t));
                c->addItem(name, name);
            }
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
        using G = amn::Fp8Granularity;  // the item data: the typed value StSchemeOptions takes
        granularity_->addItem(tr("channel (FP8_DYNAMIC)"), static_cast<int>(G::Channel));
        granularity_->addItem(tr("tensor (FP8)"), static_cast<int>(G::Tensor));
        granularity_->addItem(tr("block 128×128 (FP8_BLOCK)"), static_cast<int>(G::Block));
        f->addRow(tr("Granularity (fp8):"), granularity_);
        ue8m0_ = new QCheckBox(tr("Power-of-two scales (ue8m0)"), g);
        f->addRow(ue8m0_);
        groupSize_ = new QComboBox(g);
        for (int gs : {128, 64, 32}) groupSize_->addItem(QString::number(gs), gs);
        groupSize_->addItem(tr("channel"), 0);
        f->addRow(tr("Group size (w4a16, w8a16, mlx):"), groupSize_);
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
        const bool gguf = mode() == Mode::ForgetGguf || mode() == Mode::ConvertGguf;
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
    return options;
}

}  // namespace amn::ui
