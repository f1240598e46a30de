// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// ConvertWizard's Options page: where to write (a file or a folder,
// overwrite) and the mode's options as `amn forget` names them —
// llama-quantize's for GGUF, the scheme's for safetensors (the options the
// scheme's row takes enabled), the base model's folder for a LoRA adapter. A red line says what keeps Next disabled.
#include "convertwizard.hpp"

#include "anamnesis/forget_st.hpp"

#include <QCoreApplication>
#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace amn::ui {

class WizardOptionsPage : public QWizardPage {
    // The wizard's strings, one translation context (translations/de_strings.py).
    Q_DECLARE_TR_FUNCTIONS(amn::ui::ConvertWizard)
public:
    using Mode = ConvertWizard::Mode;
    explicit WizardOptionsPage(ConvertWizard* wizard);

    void initializePage() override;
    bool isComplete() const override;

    QString outputPath() const;
    /// A path the user (or a caller) chose: the mode no longer renames it.
    void setOutputPath(const QString& path);
    bool overwrite() const;
    void setOverwrite(bool on);
    void setImatrixPath(const QString& path);
    void setPure(bool on);
    void setRequantize(bool on);
    bool requantize() const;
    /// A LoRA adapter's base model folder (convert_lora_to_gguf's --base).
    QString loraBase() const;
    void setLoraBase(const QString& dir);
    /// The output follows the mode's default name unless one was typed or set.
    void followDefaultOutput();
    /// The options `mode` takes: the stack (none, GGUF, scheme, LoRA base) and, for
    /// the scheme `info` describes, its options enabled.
    void showMode(Mode mode, const amn::StSchemeInfo& info);

    /// llama-quantize's options on this page into `o` (pure, output and
    /// embedding types, --tensor-type, importance matrix).
    /// \throws amn::Error for a type or pattern the core does not take.
    void applyGguf(amn::GgufForgetOptions& o) const;
    /// The scheme's options the row `info` says it takes.
    amn::StSchemeOptions schemeOptions(const amn::StSchemeInfo& info) const;
    /// --keep, --only and --requantize into `o`.
    void applySt(amn::StForgetOptions& o) const;

private:
    /// The red line under the options (an empty output, an existing file,
    /// a missing importance matrix, an option the core refuses).
    void updateState();

    ConvertWizard* wiz_;
    bool outputEdited_ = false;
    QLineEdit* output_ = nullptr;
    QCheckBox* overwrite_ = nullptr;
    QStackedWidget* modeOptions_ = nullptr;
    QCheckBox* pure_ = nullptr;
    QComboBox* outputType_ = nullptr;
    QComboBox* embeddingType_ = nullptr;
    QLineEdit* tensorTypes_ = nullptr;
    QLineEdit* imatrix_ = nullptr;
    QComboBox* blocksize_ = nullptr;
    QCheckBox* doubleQuant_ = nullptr;
    QComboBox* granularity_ = nullptr;
    QCheckBox* ue8m0_ = nullptr;
    QComboBox* groupSize_ = nullptr;
    QCheckBox* requantize_ = nullptr;
    QLineEdit* keep_ = nullptr;
    QLineEdit* only_ = nullptr;
    QLineEdit* loraBase_ = nullptr;
    QLabel* optionsWarning_ = nullptr;
};

}  // namespace amn::ui
