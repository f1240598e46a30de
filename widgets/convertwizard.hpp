// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The conversion wizard: source → target → options → summary → run → done.
// Three directions: remember (dequantize to safetensors; a GGUF also to a
// Hugging Face folder, amn::to_hf_layout), forget to GGUF
// (llama-quantize's file types, amn::forget_to_gguf; the input a GGUF or a
// Hugging Face folder) and forget to a safetensors scheme (bitsandbytes,
// compressed-tensors, DeepSeek FP8; amn::forget_to_safetensors); and for a
// Hugging Face folder, GGUF as llama.cpp's convert_hf_to_gguf.py writes it
// (F32, F16, BF16, Q8_0, auto; amn::convert_hf_to_gguf). For forget and the
// GGUF conversion, the summary page runs the core's dry run
// (plan_gguf_forget / plan_st_forget / plan_hf_gguf) on a worker and lists
// every tensor's target (GGUF names for a GGUF output); after a forget the
// done page shows the measured loss per tensor as a sortable table and a
// chart.
// The run executes the core call on a worker thread
// (QtConcurrent::run with a QPromise; progress in per-mille through a
// QFutureWatcher, bytes for throughput and time left through atomics).
// Cancel sets the core's cancel flag: the executor stops within a chunk and
// removes its temporary files, so no partial output remains. Closing the
// wizard (or the main window) during a run asks, then cancels and waits.

#include "loadedmodel.hpp"

#include "anamnesis/dtype.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "jobtracker.hpp"

#include <QElapsedTimer>
#include <QFuture>
#include <QStringList>
#include <QWizard>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QStackedWidget;
class QStandardItemModel;
class QTableView;
class QLabel;
class QWizardPage;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace amn::ui {

class LossChart;

class ConvertWizard : public QWizard {
    Q_OBJECT
public:
    enum PageId { SourcePage, TargetPage, OptionsPage, SummaryPage, RunPage, DonePage };
    /// What the wizard writes. ConvertGguf: a Hugging Face folder as
    /// convert_hf_to_gguf.py writes it (offered for such a folder only).
    enum class Mode { Remember, ForgetGguf, ForgetSafetensors, ConvertGguf };

    explicit ConvertWizard(ModelPtr model, QWidget* parent = nullptr);
    ~ConvertWizard() override;

    const ModelPtr& model() const { return model_; }

    /// nullopt = automatic (dequantized → BF16, others keep their dtype).
    void setTarget(std::optional<amn::DType> to);
    std::optional<amn::DType> target() const;
    void setMode(Mode m);
    Mode mode() const;
    /// Remember a GGUF as a Hugging Face folder (`amn remember --layout hf`:
    /// config.json + safetensors with transformers names, Q/K permutation
    /// undone) instead of one safetensors file; selects remember. Only
    /// offered for GGUF input (false otherwise).
    void setHfLayout(bool on);
    bool hfLayout() const;
    /// llama-quantize file type for ForgetGguf ("Q4_K_M"); selects the mode.
    void setGgufFileType(const QString& name);
    QString ggufFileType() const;
    /// The input is a Hugging Face folder (amn::is_hf_gguf_input): GGUF
    /// output as convert_hf_to_gguf.py writes it (ConvertGguf), and the
    /// llama-quantize file types in one pass (ForgetGguf), are offered.
    bool hfInput() const { return hfInput_; }
    /// convert_hf_to_gguf's --outtype for ConvertGguf ("auto", "F32", "F16",
    /// "BF16", "Q8_0"); selects the mode. Only for a Hugging Face folder.
    void setHfOutType(const QString& outtype);
    QString hfOutType() const;
    /// What the folder maps to in GGUF (describe_hf_gguf, computed on a worker
    /// by the main window): shown on the Target page; when it says the folder
    /// cannot become a GGUF, the GGUF targets are disabled with the reason.
    void setHfGgufInfo(const amn::HfGgufInfo& info);
    void setImatrixPath(const QString& path);
    void setGgufPure(bool on);
    /// Safetensors scheme for ForgetSafetensors ("bnb-nf4", "w4a16" …); selects the mode.
    void setStScheme(const QString& name);
    QString stScheme() const;
    /// --requantize for a safetensors scheme over an already quantized input.
    void setRequantize(bool on);
    /// The forget options as the pages say (\throws amn::Error for a bad option).
    amn::GgufForgetOptions ggufOptions() const;
    amn::StForgetOptions stOptions() const;
    amn::HfGgufOptions hfGgufOptions() const;

    /// Summary dry run (forget): running, and whether it succeeded.
    bool isPlanning() const { return planJobs_.busy(); }
    bool planReady() const { return planOk_; }
    /// Per-tensor plan on the summary page; measured loss on the done page.
    QTableView* planTable() const { return planTable_; }
    QTableView* lossTable() const { return lossTable_; }
    LossChart* lossChart() const { return lossChart_; }

    void setOutputPath(const QString& path);
    QString outputPath() const;
    void setOverwrite(bool on);
    /// Worker threads for the conversion (0 = all cores); tests use 1.
    void setThreads(unsigned n) { threads_ = n; }
    /// Output chunk size in bytes (0 = the core's default).
    void setChunkBytes(quint64 n) { chunkBytes_ = n; }

    /// Asked before cancelling a running conversion because the user closes
    /// the window; return true to cancel. Default: a QMessageBox question.
    void setConfirmCancel(std::function<bool()> f) { confirmCancel_ = std::move(f); }
    /// Show the core's error in a dialog (default on; tests turn it off).
    void setErrorDialogs(bool on) { errorDialogs_ = on; }

    bool isRunning() const;
    /// Request cancellation (returns at once).
    void cancelConversion();
    /// Cancel and block until the worker has finished and cleaned up.
    void cancelAndWait();
    /// Ask (when running) and cancel; false when the user wants to continue.
    bool confirmAndStop();

    QStringList writtenFiles() const { return files_; }
    /// The core's message of the last failed run (technical detail), else empty.
    QString lastError() const { return error_; }
    /// The last failed run as shown on the run page: a first line in plain
    /// words from the error's code (plainRunError), the core's message below
    /// it ("\n"-separated). Empty when the last run did not fail.
    QString errorReport() const;
    /// The summary's failed dry run (or Hugging Face layout) as shown there:
    /// a plain first line (plainPlanError), the core's message below. Empty
    /// when the plan succeeded or is still running.
    QString planErrorReport() const;

    /// One plain, translated sentence for an amn::ErrorCode (`code`, −1 when
    /// the failure was not an amn::Error) raised while planning: the options
    /// do not fit the model, the input is already quantized (when the
    /// model is and “Re-quantize” is off), a tensor's size does not fit the
    /// type's blocks, … `tensor`: the tensor the error names, or empty.
    QString plainPlanError(int code, const QString& tensor) const;
    /// The same for an error raised by the run: the output could not be
    /// written, the model's data changed since it was opened, a tensor holds
    /// what the conversion refuses (NaN), … Never the core's text itself.
    static QString plainRunError(int code, const QString& tensor);
    int progressPermille() const;

    /// Start the conversion now (the run page does this on entry).
    void startConversion();

signals:
    /// The summary's dry run finished (forget modes); message: the core's error.
    void planFinished(bool ok, const QString& message);
    void conversionStarted();
    /// ok: written; cancelled: stopped by the user; message: the core's error.
    void conversionFinished(bool ok, bool cancelled, const QString& message);
    /// "Open the result in the app".
    void openRequested(const QString& path);

public slots:
    /// Cancel: while running, asks (setConfirmCancel), then stops the run and
    /// stays on the run page (Back, Try again); otherwise closes the wizard.
    void reject() override;

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    friend class WizardPages;
    struct JobState {
        std::atomic<bool> cancel{false};
        std::atomic<quint64> done{0}, total{0};
    };
    /// A failure as the widgets word it: the amn::ErrorCode (−1 when not an
    /// amn::Error), the tensor it names and the core's full message.
    struct Failure {
        int code = -1;
        QString tensor;
        QString detail;
        static Failure of(const std::exception& e);
    };
    struct Outcome {
        bool ok = false, cancelled = false;
        QString error;
        Failure failure;
        QStringList files;
        quint64 bytes = 0;
        int tensors = 0;
        std::vector<amn::ForgetTensor> loss;  ///< forget: per tensor, measured
        bool lossMeasured = true;             ///< false for ConvertGguf (the converter measures nothing)
        QStringList warnings;                    ///< the core's English (remember, forget to safetensors)
        std::vector<amn::GgufWarning> ggufWarnings;  ///< GGUF runs: typed, worded by ggufWarningText()
    };
    struct PlanOutcome {
        bool ok = false;
        QString error;
        Failure failure;
        std::vector<amn::ForgetTensor> tensors;
        QString schemeLabel;  ///< forget to safetensors: the scheme's label (amn::st_scheme_label), for the tooltips
    };
    void buildPages();
    // One builder per page; each creates the page and the widgets it owns.
    QWizardPage* buildSourcePage();
    QWizardPage* buildTargetPage();   ///< convertwizard_target.cc
    QWizardPage* buildOptionsPage();  ///< convertwizard_options.cc
    QWizardPage* buildSummaryPage();
    QWizardPage* buildRunPage();
    QWizardPage* buildDonePage();
    void updateOptionsState();
    void updateSummary();
    void startPlan();
    void showPlan(const PlanOutcome& p);
    /// Wider, up to the screen's width, until the plan table's columns fit.
    void widenForPlan();
    void showLoss(const std::vector<amn::ForgetTensor>& loss);
    void updateModeWidgets();
    void summaryCommit(bool on);
    void onProgress(int permille);
    void onFinished();
    QString defaultOutput() const;
    /// hfOutType() as the type it writes ("auto" resolved: "BF16").
    QString resolvedOutType() const;
    /// Summary rows (HTML) for the Hugging Face folder: target names; sets hfError_.
    QString hfSummaryRows();

    ModelPtr model_;
    unsigned threads_ = 0;
    quint64 chunkBytes_ = 0;
    bool errorDialogs_ = true;
    std::function<bool()> confirmCancel_;
    // pages' widgets
    QRadioButton* autoTarget_ = nullptr;
    QRadioButton* bf16_ = nullptr;
    QRadioButton* f16_ = nullptr;
    QRadioButton* f32_ = nullptr;
    QRadioButton* singleFile_ = nullptr;  ///< GGUF input: one safetensors file (GGUF names)
    QRadioButton* hfFolder_ = nullptr;    ///< GGUF input: Hugging Face folder (--layout hf)
    QString hfError_;                     ///< why the Hugging Face layout cannot be made (summary)
    Failure hfFailure_;                   ///< the same, with its code for the plain first line
    bool hfInput_ = false;                ///< a Hugging Face folder (GGUF conversion offered)
    QRadioButton* convertRadio_ = nullptr;  ///< Hugging Face folder: GGUF as convert_hf_to_gguf.py
    QComboBox* outtype_ = nullptr;          ///< its --outtype
    QLabel* hfInfo_ = nullptr;              ///< what the folder maps to in GGUF (setHfGgufInfo)
    QString hfInfoText_;                    ///< its text, also on the summary
    QRadioButton* ggufRadio_ = nullptr;
    QRadioButton* stRadio_ = nullptr;
    QComboBox* ftype_ = nullptr;
    QComboBox* scheme_ = nullptr;
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
    QTableView* planTable_ = nullptr;
    QStandardItemModel* planModel_ = nullptr;
    QTableView* lossTable_ = nullptr;
    QStandardItemModel* lossModel_ = nullptr;
    LossChart* lossChart_ = nullptr;
    QWidget* lossBox_ = nullptr;
    QLineEdit* output_ = nullptr;
    QCheckBox* overwrite_ = nullptr;
    QLabel* optionsWarning_ = nullptr;
    QLabel* summary_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* progressText_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QLabel* doneText_ = nullptr;
    bool outputEdited_ = false;
    // summary dry run
    JobTracker planJobs_;
    bool planOk_ = false;
    QString planError_;
    Failure planFailure_;
    bool createdOutputDir_ = false;
    QString outputDir_;
    std::vector<amn::ForgetTensor> planned_;
    // job
    std::shared_ptr<JobState> state_;
    QFuture<Outcome> future_;
    QElapsedTimer clock_;
    bool finishedOk_ = false;
    QStringList files_;
    QString error_;
    Failure runFailure_;  ///< the last failed run (errorReport)
    QString finalOutput_;
};

}  // namespace amn::ui
