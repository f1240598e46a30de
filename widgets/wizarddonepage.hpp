// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// ConvertWizard's Done page: what was written, the core's warnings, buttons
// to open the output folder or the result in the app; after a forget the
// measured loss per tensor as a chart over a sortable table.
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include <QCoreApplication>
#include <QWizardPage>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace amn::ui {

class LossChart;

class WizardDonePage : public QWizardPage {
    // The wizard's strings, one translation context (translations/de_strings.py).
    Q_DECLARE_TR_FUNCTIONS(amn::ui::ConvertWizard)
public:
    using Mode = ConvertWizard::Mode;
    explicit WizardDonePage(ConvertWizard* wizard);

    /// The subtitle for `mode`.
    void showMode(Mode mode);
    /// A successful run: `files` written (absolute) to `output` in `secsText` seconds.
    void showResult(const convert_detail::RunOutcome& o, const QStringList& files, const QString& secsText, const QString& output);

    QTableView* lossTable() const { return lossTable_; }
    LossChart* lossChart() const { return lossChart_; }

private:
    void showLoss(const std::vector<amn::ForgetTensor>& loss);

    ConvertWizard* wiz_;
    QLabel* doneText_ = nullptr;
    QTableView* lossTable_ = nullptr;
    QStandardItemModel* lossModel_ = nullptr;
    LossChart* lossChart_ = nullptr;
    QWidget* lossBox_ = nullptr;
    QString output_;  ///< the run's output, for the open buttons
};

}  // namespace amn::ui
