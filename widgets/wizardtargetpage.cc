// SPDX-License-Identifier: MIT OR Apache-2.0
#include "wizardtargetpage.hpp"

#include "convertwizard_p.hpp"
#include "schemetext.hpp"

#include "anamnesis/forget_st.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/hf_to_gguf.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QRadioButton>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace amn::ui {

using namespace convert_detail;

WizardTargetPage::WizardTargetPage(ConvertWizard* wizard) : QWizardPage(wizard), wiz_(wizard) {
    const auto& m = *wiz_->model();
    setTitle(tr("Target"));
    setSubTitle(wiz_->hfInput()
                    ? tr("Remember (dequantize) to safetensors, convert to GGUF for llama.cpp, or forget (quantize) to a safetensors scheme.")
                    : tr("Remember (dequantize) to safetensors, or forget (quantize) to GGUF or a safetensors scheme."));
    auto* l = new QVBoxLayout(this);
    auto* group = new QButtonGroup(this);
    auto* remember = new QGroupBox(tr("Remember"), this);
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

    const bool isGguf = m.catalog.format == amn::Format::Gguf;
    const bool hfInput = wiz_->hfInput();
    ggufRadio_ = new QRadioButton(hfInput ? tr("&GGUF file type (as llama-quantize, in one pass):") : tr("&GGUF file type (as llama-quantize):"),
                                  this);
    ftype_ = new QComboBox(this);
    for (const auto& ft : amn::llama_file_types()) {
        if (!ft.offered) continue;
        const QString name = QString::fromLatin1(ft.name.data(), static_cast<int>(ft.name.size()));
        ftype_->addItem(ft.needs_imatrix ? tr("%1 (needs an importance matrix)").arg(name) : name, name);
    }
    ftype_->setCurrentIndex(std::max(0, ftype_->findData(QStringLiteral("Q4_K_M"))));
    group->addButton(ggufRadio_);
    if (hfInput) {
        // A Hugging Face folder: GGUF as llama.cpp's converter writes it,
        // or on in one pass to a llama-quantize file type.
        auto* gg = new QGroupBox(tr("GGUF for llama.cpp"), this);
        auto* gl = new QGridLayout(gg);
        convertRadio_ = new QRadioButton(tr("As convert_hf_to_gguf.py &writes it:"), gg);
        convertRadio_->setToolTip(tr("As amn convert --to gguf:TYPE: the bytes llama.cpp's converter writes."));
        outtype_ = new QComboBox(gg);
        QString autoType;
        try {
            autoType = QString::fromStdString(amn::resolve_hf_outtype(m.catalog, "auto"));
        } catch (const std::exception&) {
        }
        outtype_->addItem(autoType.isEmpty() ? tr("auto") : tr("auto (%1 for this model)").arg(autoType), QStringLiteral("auto"));
        for (const auto& o : amn::converter_outtypes()) {
            const QString name = QString::fromLatin1(o.name.data(), static_cast<int>(o.name.size()));
            outtype_->addItem(name, name);
        }
        ggufRadio_->setToolTip(tr("As amn forget --to gguf:FTYPE: the converter's lossless output quantized by "
                                  "llama-quantize's rules, without the intermediate file."));
        group->addButton(convertRadio_);
        gl->addWidget(convertRadio_, 0, 0);
        gl->addWidget(outtype_, 0, 1);
        // A multimodal folder: its vision projector, in place of the text
        // model (as --mmproj); shown once setHfGgufInfo() says there is one.
        mmproj_ = new QCheckBox(tr("&Vision projector (mmproj) instead of the text model, as --mmproj writes it"), gg);
        mmproj_->setToolTip(tr("As amn convert --to gguf:TYPE --mmproj: the vision tower and projector llama-mtmd-cli "
                               "loads beside the text GGUF (--mmproj FILE)."));
        mmproj_->setObjectName(QStringLiteral("mmproj"));
        mmprojNote_ = wrapLabel(QString(), gg);
        mmprojNote_->setStyleSheet(QStringLiteral("color: #d03030"));
        mmproj_->hide();  // until setHfGgufInfo()
        mmproj_->setEnabled(false);
        mmprojNote_->hide();
        // Indented under the converter's row: an option of that row.
        const int indent = style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth) + style()->pixelMetric(QStyle::PM_RadioButtonLabelSpacing);
        for (auto [w, r] : {std::pair<QWidget*, int>{mmproj_, 1}, {mmprojNote_, 2}}) {
            auto* row = new QHBoxLayout;
            row->addSpacing(indent);
            row->addWidget(w, 1);
            gl->addLayout(row, r, 0, 1, 3);
        }
        gl->addWidget(ggufRadio_, 3, 0);
        gl->addWidget(ftype_, 3, 1);
        gl->setColumnStretch(2, 1);
        // The combos as wide as a type name needs (their lists show the
        // long entries), so that the radio labels keep their full width.
        for (auto* c : {outtype_, ftype_}) {
            c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            c->setMinimumContentsLength(22);
        }
        hfInfo_ = wrapLabel(QString(), gg);
        hfInfo_->hide();  // until setHfGgufInfo()
        gl->addWidget(hfInfo_, 4, 0, 1, 3);
        l->addWidget(gg);
    }
    if (wiz_->adapterInput()) {
        // A PEFT adapter folder: the GGUF adapter llama.cpp loads with --lora,
        // or why convert_lora_to_gguf.py refuses it.
        const auto& a = *m.adapter;
        auto* lg = new QGroupBox(tr("GGUF LoRA adapter for llama.cpp"), this);
        auto* ll = new QGridLayout(lg);
        loraRadio_ = new QRadioButton(tr("GGUF &LoRA adapter, as convert_lora_to_gguf.py writes it:"), lg);
        loraRadio_->setToolTip(tr("As amn convert ADAPTER --to gguf:TYPE --base BASE: the adapter llama.cpp loads with --lora. "
                                  "The base model's folder is chosen on the next page."));
        loraRadio_->setObjectName(QStringLiteral("loraRadio"));
        loraOuttype_ = new QComboBox(lg);
        for (const auto& o : amn::converter_outtypes()) {
            const QString name = QString::fromLatin1(o.name.data(), static_cast<int>(o.name.size()));
            loraOuttype_->addItem(name, name);
        }
        loraOuttype_->setCurrentIndex(std::max(0, loraOuttype_->findData(QStringLiteral("F32"))));  // the converter's default
        loraOuttype_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        loraOuttype_->setMinimumContentsLength(12);
        group->addButton(loraRadio_);
        ll->addWidget(loraRadio_, 0, 0);
        ll->addWidget(loraOuttype_, 0, 1);
        ll->setColumnStretch(2, 1);
        QString facts = a.r ? tr("Rank %1").arg(*a.r) : tr("Rank not given");
        if (a.lora_alpha) facts += QStringLiteral(", ") + tr("alpha %1").arg(QLocale().toString(*a.lora_alpha, 'g', 6));
        facts += QStringLiteral(", ") + tr("%Ln adapted module(s)", nullptr, static_cast<int>(a.adapted_modules));
        if (!a.base_model.empty()) facts += QStringLiteral(", ") + tr("trained on %1").arg(QString::fromStdString(a.base_model));
        auto* info = wrapLabel(facts, lg);
        info->setTextFormat(Qt::PlainText);
        ll->addWidget(info, 1, 0, 1, 3);
        if (!a.gguf_refusal.empty()) {
            loraRadio_->setEnabled(false);
            loraOuttype_->setEnabled(false);
            auto* why = wrapLabel(tr("Cannot become a GGUF adapter: %1").arg(QString::fromStdString(a.gguf_refusal)), lg);
            why->setTextFormat(Qt::PlainText);
            why->setStyleSheet(QStringLiteral("color: #d03030"));
            why->setObjectName(QStringLiteral("loraRefusal"));
            ll->addWidget(why, 2, 0, 1, 3);
        }
        l->addWidget(lg);
    }
    auto* forget = new QGroupBox(tr("Forget"), this);
    auto* fl = new QGridLayout(forget);
    stRadio_ = new QRadioButton(tr("&Safetensors scheme (transformers, vLLM):"), forget);
    scheme_ = new QComboBox(forget);
    for (auto n : amn::st_scheme_names()) {
        const QString name = QString::fromLatin1(n.data(), static_cast<int>(n.size()));
        scheme_->addItem(name, name);
    }
    group->addButton(stRadio_);
    int row = 0;
    if (!hfInput) {
        fl->addWidget(ggufRadio_, row, 0);
        fl->addWidget(ftype_, row++, 1);
    }
    fl->addWidget(stRadio_, row, 0);
    fl->addWidget(scheme_, row++, 1);
    fl->setColumnStretch(2, 1);
    if (!isGguf && !hfInput) {
        ggufRadio_->setEnabled(false);
        ftype_->setEnabled(false);
        ggufRadio_->setToolTip(tr("GGUF output needs a GGUF input or a Hugging Face folder (config.json beside the safetensors)."));
    }
    fl->addWidget(wrapLabel(tr("Forgetting measures what is lost: after the run, the error of every tensor (RMSE, SQNR)."), forget),
                  row, 0, 1, 3);
    l->addWidget(forget);
    l->addStretch(1);
    autoTarget_->setChecked(true);
    auto refresh = [this] { wiz_->modeChanged(); };
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
    if (outtype_)
        connect(outtype_, &QComboBox::currentIndexChanged, this, [this, refresh] {
            if (convertRadio_->isEnabled()) convertRadio_->setChecked(true);
            refresh();
        });
    if (mmproj_)
        connect(mmproj_, &QCheckBox::toggled, this, [this, refresh](bool on) {
            if (on && convertRadio_->isEnabled() && !convertRadio_->isChecked()) convertRadio_->setChecked(true);  // refreshes
            else refresh();
        });
    if (loraOuttype_)
        connect(loraOuttype_, &QComboBox::currentIndexChanged, this, [this, refresh] {
            if (loraRadio_->isEnabled()) loraRadio_->setChecked(true);
            refresh();
        });
}

void WizardTargetPage::setMode(Mode m) {
    switch (m) {
    case Mode::Remember: autoTarget_->setChecked(true); break;
    case Mode::ForgetGguf: ggufRadio_->setChecked(true); break;
    case Mode::ForgetSafetensors: stRadio_->setChecked(true); break;
    case Mode::ConvertGguf:
        if (convertRadio_) convertRadio_->setChecked(true);
        break;
    case Mode::ConvertLora:
        if (loraRadio_ && loraRadio_->isEnabled()) loraRadio_->setChecked(true);
        break;
    }
}

WizardTargetPage::Mode WizardTargetPage::mode() const {
    if (ggufRadio_ && ggufRadio_->isChecked()) return Mode::ForgetGguf;
    if (stRadio_ && stRadio_->isChecked()) return Mode::ForgetSafetensors;
    if (convertRadio_ && convertRadio_->isChecked()) return Mode::ConvertGguf;
    if (loraRadio_ && loraRadio_->isChecked()) return Mode::ConvertLora;
    return Mode::Remember;
}

void WizardTargetPage::setGgufFileType(const QString& name) {
    const int i = ftype_->findData(name.toUpper());
    if (i >= 0) ftype_->setCurrentIndex(i);
    ggufRadio_->setChecked(true);
}

QString WizardTargetPage::ggufFileType() const { return ftype_->currentData().toString(); }

void WizardTargetPage::setHfOutType(const QString& outtype) {
    if (!outtype_) return;
    const int i = outtype_->findData(outtype.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0 ? QStringLiteral("auto") : outtype.toUpper());
    if (i >= 0) outtype_->setCurrentIndex(i);
    convertRadio_->setChecked(true);
}

QString WizardTargetPage::hfOutType() const { return outtype_ ? outtype_->currentData().toString() : QString(); }

void WizardTargetPage::setHfGgufInfo(const amn::HfGgufInfo& info) {
    if (!hfInfo_) return;
    const bool ok = info.error.empty();
    hfInfoText_ = hfGgufInfoText(info);
    hfInfo_->setTextFormat(Qt::PlainText);  // the core's words may hold "<s>"
    hfInfo_->setText(hfInfoText_);
    hfInfo_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d03030"));
    hfInfo_->show();
    for (QWidget* w : std::initializer_list<QWidget*>{convertRadio_, outtype_, ggufRadio_, ftype_}) w->setEnabled(ok);
    // The vision projector: offered for a folder with a vision tower, disabled with the core's reason.
    const bool mmprojOk = ok && info.has_vision && info.mmproj_error.empty();
    mmproj_->setVisible(info.has_vision);
    mmproj_->setEnabled(mmprojOk);
    if (!mmprojOk) mmproj_->setChecked(false);
    mmprojNote_->setTextFormat(Qt::PlainText);
    mmprojNote_->setText(info.has_vision && !info.mmproj_error.empty()
                             ? tr("No vision projector: %1").arg(QString::fromStdString(info.mmproj_error))
                             : QString());
    mmprojNote_->setVisible(!mmprojNote_->text().isEmpty());
    if (!ok && (mode() == Mode::ConvertGguf || mode() == Mode::ForgetGguf)) autoTarget_->setChecked(true);
    wiz_->modeChanged();  // the output name follows what may be written
}

bool WizardTargetPage::hfMmproj() const {
    return mmproj_ && mmproj_->isEnabled() && mmproj_->isChecked() && mode() == Mode::ConvertGguf;
}

void WizardTargetPage::setHfMmproj(bool on) {
    if (!mmproj_ || !mmproj_->isEnabled()) return;
    mmproj_->setChecked(on);
    if (on) convertRadio_->setChecked(true);
}

QString WizardTargetPage::loraOutType() const { return loraOuttype_ ? loraOuttype_->currentData().toString() : QString(); }

void WizardTargetPage::setLoraOutType(const QString& outtype) {
    if (!loraOuttype_) return;
    const int i = loraOuttype_->findData(outtype.toUpper());
    if (i >= 0) loraOuttype_->setCurrentIndex(i);
    if (loraRadio_->isEnabled()) loraRadio_->setChecked(true);
}

void WizardTargetPage::setStScheme(const QString& name) {
    const int i = scheme_->findData(name);
    if (i >= 0) scheme_->setCurrentIndex(i);
    stRadio_->setChecked(true);
}

QString WizardTargetPage::stScheme() const { return scheme_->currentData().toString(); }

void WizardTargetPage::setHfLayout(bool on) {
    if (!hfFolder_) return;
    (on ? hfFolder_ : singleFile_)->setChecked(true);
}

bool WizardTargetPage::hfLayout() const { return hfFolder_ && hfFolder_->isChecked() && mode() == Mode::Remember; }

void WizardTargetPage::setTarget(std::optional<amn::DType> to) {
    if (!to) autoTarget_->setChecked(true);
    else if (*to == amn::DType::BF16) bf16_->setChecked(true);
    else if (*to == amn::DType::F16) f16_->setChecked(true);
    else if (*to == amn::DType::F32) f32_->setChecked(true);
}

std::optional<amn::DType> WizardTargetPage::target() const {
    if (bf16_ && bf16_->isChecked()) return amn::DType::BF16;
    if (f16_ && f16_->isChecked()) return amn::DType::F16;
    if (f32_ && f32_->isChecked()) return amn::DType::F32;
    return std::nullopt;
}

}  // namespace amn::ui
