// SPDX-License-Identifier: MIT OR Apache-2.0
#include "wizardoptionspage.hpp"

#include "convertwizard_p.hpp"

#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/lora_to_gguf.hpp"
#include "anamnesis/quant_params.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
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

WizardOptionsPage::WizardOptionsPage(ConvertWizard* wizard) : QWizardPage(wizard), wiz_(wizard) {
    setTitle(tr("Options"));
    setSubTitle(tr("Where to write. Output goes to a temporary file first and is renamed when complete."));
    auto* l = new QVBoxLayout(this);
    auto* outLabel = new QLabel(tr("&Output (a file, or a folder):"), this);
    l->addWidget(outLabel);
    auto* row = new QHBoxLayout;
    output_ = new QLineEdit(this);
    output_->setText(wiz_->defaultOutput());
    outLabel->setBuddy(output_);
    auto* browse = new QPushButton(tr("&Browse…"), this);
    row->addWidget(output_, 1);
    row->addWidget(browse);
    l->addLayout(row);
    overwrite_ = new QCheckBox(tr("O&verwrite existing files"), this);
    l->addWidget(overwrite_);

    // Mode-specific options: nothing for remember, llama-quantize's for
    // GGUF, the scheme's for safetensors (the names of `amn forget`).
    modeOptions_ = new QStackedWidget(this);
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
            const QString f = QFileDialog::getOpenFileName(wiz_, tr("Importance matrix"), imatrix_->text(),
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
    {
        // A LoRA adapter: the base model's folder (convert_lora_to_gguf's --base).
        auto* g = new QGroupBox(tr("LoRA adapter options"), modeOptions_);
        auto* f = new QFormLayout(g);
        auto* baseRow = new QHBoxLayout;
        loraBase_ = new QLineEdit(g);
        loraBase_->setPlaceholderText(tr("the base model's folder"));
        auto* baseBrowse = new QPushButton(tr("Choose…"), g);
        baseRow->addWidget(loraBase_, 1);
        baseRow->addWidget(baseBrowse);
        auto* baseLabel = new QLabel(tr("&Base model:"), g);
        baseLabel->setBuddy(loraBase_);
        f->addRow(baseLabel, baseRow);
        f->addRow(wrapLabel(tr("Only the base model's config.json is read: its architecture names the adapter's tensors in GGUF "
                               "(as convert_lora_to_gguf.py --base). The base's weights are not needed."),
                            g));
        connect(baseBrowse, &QPushButton::clicked, this, [this] {
            const QString d = QFileDialog::getExistingDirectory(wiz_, tr("Base model folder"), loraBase_->text());
            if (!d.isEmpty()) loraBase_->setText(d);
        });
        modeOptions_->addWidget(g);
    }
    l->addWidget(modeOptions_);
    optionsWarning_ = wrapLabel(QString(), this);
    optionsWarning_->setStyleSheet(QStringLiteral("color: #d03030"));
    l->addWidget(optionsWarning_);
    l->addStretch(1);
    auto changed = [this] {
        updateState();
        emit completeChanged();
    };
    connect(output_, &QLineEdit::textEdited, this, [this] { outputEdited_ = true; });
    connect(output_, &QLineEdit::textChanged, this, changed);
    connect(overwrite_, &QCheckBox::toggled, this, changed);
    connect(tensorTypes_, &QLineEdit::textChanged, this, changed);
    connect(imatrix_, &QLineEdit::textChanged, this, changed);
    connect(keep_, &QLineEdit::textChanged, this, changed);
    connect(only_, &QLineEdit::textChanged, this, changed);
    connect(loraBase_, &QLineEdit::textChanged, this, [this, changed] {
        followDefaultOutput();  // named after the base's architecture
        changed();
    });
    for (auto* c : {blocksize_, granularity_, groupSize_})
        connect(c, &QComboBox::currentIndexChanged, this, [this, changed] {
            followDefaultOutput();
            changed();
        });
    for (auto* c : {doubleQuant_, ue8m0_})
        connect(c, &QCheckBox::toggled, this, [this, changed] {
            followDefaultOutput();
            changed();
        });
    connect(browse, &QPushButton::clicked, this, [this] {
        const bool gguf = wiz_->mode() != Mode::Remember && wiz_->mode() != Mode::ForgetSafetensors;
        const QString f = QFileDialog::getSaveFileName(
            wiz_, tr("Output file"), output_->text(), gguf ? tr("GGUF (*.gguf)") : tr("safetensors (*.safetensors);;All files (*)"),
            nullptr, QFileDialog::DontConfirmOverwrite);
        if (!f.isEmpty()) {
            outputEdited_ = true;
            output_->setText(f);
        }
    });
}

void WizardOptionsPage::initializePage() {
    wiz_->updateModeWidgets();
    updateState();
}

bool WizardOptionsPage::isComplete() const {
    const QString out = output_->text().trimmed();
    return !out.isEmpty() && (overwrite_->isChecked() || !QFileInfo::exists(out)) && optionsWarning_->text().isEmpty();
}

QString WizardOptionsPage::outputPath() const { return output_->text().trimmed(); }

void WizardOptionsPage::setOutputPath(const QString& path) {
    outputEdited_ = true;
    output_->setText(path);
}

bool WizardOptionsPage::overwrite() const { return overwrite_->isChecked(); }
void WizardOptionsPage::setOverwrite(bool on) { overwrite_->setChecked(on); }
void WizardOptionsPage::setImatrixPath(const QString& path) { imatrix_->setText(path); }
void WizardOptionsPage::setPure(bool on) { pure_->setChecked(on); }
void WizardOptionsPage::setRequantize(bool on) { requantize_->setChecked(on); }
bool WizardOptionsPage::requantize() const { return requantize_->isChecked(); }
QString WizardOptionsPage::loraBase() const { return loraBase_ ? loraBase_->text().trimmed() : QString(); }
void WizardOptionsPage::setLoraBase(const QString& dir) { loraBase_->setText(dir); }

void WizardOptionsPage::followDefaultOutput() {
    if (!outputEdited_) output_->setText(wiz_->defaultOutput());
}

void WizardOptionsPage::showMode(Mode md, const amn::StSchemeInfo& info) {
    // The stack: nothing (remember, the GGUF conversion), GGUF options, scheme options, the LoRA base.
    modeOptions_->setCurrentIndex(md == Mode::ConvertGguf ? 0 : md == Mode::ConvertLora ? 3 : static_cast<int>(md));
    blocksize_->setEnabled(info.takes_blocksize);
    doubleQuant_->setEnabled(info.takes_double_quant);
    granularity_->setEnabled(info.takes_granularity);
    ue8m0_->setEnabled(info.takes_ue8m0);
    groupSize_->setEnabled(info.takes_group_size);
}

void WizardOptionsPage::applyGguf(amn::GgufForgetOptions& o) const {
    o.pure = pure_->isChecked();
    if (const QString t = outputType_->currentData().toString(); !t.isEmpty()) o.output_tensor_type = amn::parse_ggml_type(t.toStdString());
    if (const QString t = embeddingType_->currentData().toString(); !t.isEmpty())
        o.token_embedding_type = amn::parse_ggml_type(t.toStdString());
    for (const QString& part : tensorTypes_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString x = part.trimmed(); !x.isEmpty()) o.tensor_types.push_back(amn::parse_tensor_type_override(x.toStdString()));
    o.imatrix = imatrix_->text().trimmed().toStdString();
}

amn::StSchemeOptions WizardOptionsPage::schemeOptions(const amn::StSchemeInfo& info) const {
    amn::StSchemeOptions so;
    if (info.takes_blocksize) so.blocksize = blocksize_->currentData().toUInt();
    if (info.takes_double_quant) so.double_quant = doubleQuant_->isChecked();
    if (info.takes_granularity) so.granularity = static_cast<amn::Fp8Granularity>(granularity_->currentData().toInt());
    if (info.takes_ue8m0) so.ue8m0 = ue8m0_->isChecked();
    if (info.takes_group_size) so.group_size = groupSize_->currentData().toUInt();
    return so;
}

void WizardOptionsPage::applySt(amn::StForgetOptions& o) const {
    for (const QString& part : keep_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString x = part.trimmed(); !x.isEmpty()) o.keep.push_back(x.toStdString());
    for (const QString& part : only_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString x = part.trimmed(); !x.isEmpty()) o.only.push_back(x.toStdString());
    o.requantize = requantize_->isChecked();
}

void WizardOptionsPage::updateState() {
    const QString out = outputPath();
    QString warning;
    const bool lora = wiz_->mode() == Mode::ConvertLora;
    const bool baseOk = !loraBase().isEmpty() && QFileInfo::exists(QDir(loraBase()).filePath(QStringLiteral("config.json")));
    if (lora && loraBase().isEmpty()) warning = tr("Choose the base model's folder (the one holding its config.json).");
    else if (lora && !baseOk)
        warning = tr("%1 holds no config.json: choose the base model's folder.").arg(loraBase());
    else if (out.isEmpty()) warning = tr("Choose an output path.");
    else if (QFileInfo::exists(out) && !overwrite_->isChecked())
        warning = tr("%1 exists. Tick “Overwrite existing files” or choose another path.").arg(out);
    try {
        if (wiz_->mode() == Mode::ForgetGguf) {
            const auto o = wiz_->ggufOptions();
            const auto* ft = amn::parse_llama_file_type(o.ftype);
            if (ft && ft->needs_imatrix && o.imatrix.empty())
                warning = tr("%1 needs an importance matrix: choose one (llama-imatrix output).").arg(wiz_->ggufFileType());
            else if (!o.imatrix.empty() && !QFileInfo::exists(QString::fromStdString(o.imatrix)))
                warning = tr("The importance matrix %1 does not exist.").arg(QString::fromStdString(o.imatrix));
        } else if (wiz_->mode() == Mode::ForgetSafetensors) {
            (void)wiz_->stOptions();
        } else if (lora && baseOk && out.isEmpty() && wiz_->model()->adapter) {
            // No default name: the core's reason (the base's architecture, the adapter's tensors).
            (void)amn::default_lora_gguf_output_path(wiz_->model()->adapter->folder, wiz_->loraOptions());
        }
    } catch (const std::exception& e) {
        warning = QString::fromStdString(e.what());
    }
    optionsWarning_->setText(warning);
}

}  // namespace amn::ui
