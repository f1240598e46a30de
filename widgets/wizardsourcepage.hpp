// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// ConvertWizard's Source page: the model to convert — path, format, files,
// size, parameters, its schemes — and the tensors that cannot be converted
// (then the page is not complete).
#include "convertwizard.hpp"

#include <QCoreApplication>
#include <QWizardPage>

namespace amn::ui {

class WizardSourcePage : public QWizardPage {
    // The wizard's strings, one translation context (translations/de_strings.py).
    Q_DECLARE_TR_FUNCTIONS(amn::ui::ConvertWizard)
public:
    explicit WizardSourcePage(ConvertWizard* wizard);
    bool isComplete() const override { return convertible_; }

private:
    bool convertible_ = true;  ///< no tensor of the model has an error
};

}  // namespace amn::ui
