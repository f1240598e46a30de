// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// ConvertWizard's Summary page (the commit page): source, target, output,
// size and free space; for forget and the GGUF conversion the core's dry
// run (plan_gguf_forget / plan_st_forget / plan_hf_gguf) on a worker,
// listed per tensor (GGUF names for a GGUF output) with why each type was
// chosen; for a Hugging Face layout the target names. Complete when the
// plan (or the layout) could be made.
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"
#include "jobtracker.hpp"

#include <QCoreApplication>
#include <QWizardPage>

#include <vector>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace amn::ui {

class WizardSummaryPage : public QWizardPage {
    // The wizard's strings, one translation context (translations/de_strings.py).
    Q_DECLARE_TR_FUNCTIONS(amn::ui::ConvertWizard)
public:
    using Mode = ConvertWizard::Mode;
    explicit WizardSummaryPage(ConvertWizard* wizard);

    /// Room for the per-tensor table, the summary, and the dry run started.
    void initializePage() override;
    bool isComplete() const override;

    bool isPlanning() const { return planJobs_.busy(); }
    bool planReady() const { return planOk_; }
    QTableView* planTable() const { return planTable_; }
    /// What failed, for the report: the Hugging Face layout, else the dry run
    /// (an empty detail when nothing did).
    const convert_detail::Failure& failure() const;

private:
    struct PlanOutcome {
        bool ok = false;
        QString error;
        convert_detail::Failure failure;
        std::vector<amn::ForgetTensor> tensors;
        QString schemeLabel;  ///< forget to safetensors: the scheme's label (amn::st_scheme_label), for the tooltips
    };
    void updateSummary();
    void startPlan();
    void showPlan(const PlanOutcome& p);
    /// Wider, up to the screen's width, until the plan table's columns fit.
    void widenForPlan();
    /// Summary rows (HTML) for the Hugging Face folder: target names; sets hfError_.
    QString hfSummaryRows();

    ConvertWizard* wiz_;
    QLabel* summary_ = nullptr;
    QTableView* planTable_ = nullptr;
    QStandardItemModel* planModel_ = nullptr;
    QString hfError_;                     ///< why the Hugging Face layout cannot be made (summary)
    convert_detail::Failure hfFailure_;   ///< the same, with its code for the plain first line
    // the dry run
    JobTracker planJobs_;
    bool planOk_ = false;
    QString planError_;
    convert_detail::Failure planFailure_;
    std::vector<amn::ForgetTensor> planned_;
};

}  // namespace amn::ui
