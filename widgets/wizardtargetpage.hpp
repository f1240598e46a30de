// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// ConvertWizard's Target page: what the wizard writes — remember (a dtype;
// for a GGUF, one file or a Hugging Face folder), GGUF for llama.cpp (a
// Hugging Face folder: as convert_hf_to_gguf.py writes it, or its vision
// projector; a PEFT adapter folder: the GGUF LoRA adapter), forget to a
// llama-quantize file type or to a safetensors scheme. Its radio buttons
// are the wizard's mode; ConvertWizard's setters and getters land here.
#include "convertwizard.hpp"

#include <QCoreApplication>
#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;
class QRadioButton;

namespace amn::ui {

class WizardTargetPage : public QWizardPage {
    // The wizard's strings, one translation context (translations/de_strings.py).
    Q_DECLARE_TR_FUNCTIONS(amn::ui::ConvertWizard)
public:
    using Mode = ConvertWizard::Mode;
    explicit WizardTargetPage(ConvertWizard* wizard);

    Mode mode() const;
    void setMode(Mode m);
    std::optional<amn::DType> target() const;
    void setTarget(std::optional<amn::DType> to);
    bool hfLayout() const;
    void setHfLayout(bool on);
    QString ggufFileType() const;
    void setGgufFileType(const QString& name);
    QString hfOutType() const;
    void setHfOutType(const QString& outtype);
    QString stScheme() const;
    void setStScheme(const QString& name);
    void setHfGgufInfo(const amn::HfGgufInfo& info);
    bool hfMmproj() const;
    void setHfMmproj(bool on);
    QString loraOutType() const;
    void setLoraOutType(const QString& outtype);
    /// setHfGgufInfo's text (empty before), also on the summary.
    const QString& hfInfoText() const { return hfInfoText_; }

private:
    ConvertWizard* wiz_;
    QRadioButton* autoTarget_ = nullptr;
    QRadioButton* bf16_ = nullptr;
    QRadioButton* f16_ = nullptr;
    QRadioButton* f32_ = nullptr;
    QRadioButton* singleFile_ = nullptr;  ///< GGUF input: one safetensors file (GGUF names)
    QRadioButton* hfFolder_ = nullptr;    ///< GGUF input: Hugging Face folder (--layout hf)
    QRadioButton* convertRadio_ = nullptr;  ///< Hugging Face folder: GGUF as convert_hf_to_gguf.py
    QComboBox* outtype_ = nullptr;          ///< its --outtype
    QLabel* hfInfo_ = nullptr;              ///< what the folder maps to in GGUF (setHfGgufInfo)
    QString hfInfoText_;
    QCheckBox* mmproj_ = nullptr;           ///< the vision projector instead (--mmproj), shown when the folder has one
    QLabel* mmprojNote_ = nullptr;          ///< why --mmproj cannot (HfGgufInfo::mmproj_error)
    QRadioButton* loraRadio_ = nullptr;     ///< adapter folder: GGUF LoRA adapter (convert_lora_to_gguf.py)
    QComboBox* loraOuttype_ = nullptr;      ///< its --outtype
    QRadioButton* ggufRadio_ = nullptr;
    QRadioButton* stRadio_ = nullptr;
    QComboBox* ftype_ = nullptr;
    QComboBox* scheme_ = nullptr;
};

}  // namespace amn::ui
