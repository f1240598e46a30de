// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The conversion wizard: source → target → options → summary → run → done.
// Three directions: remember (dequantize to safetensors; a GGUF also to a
// Hugging Face folder, amn::to_hf_layout), forget to GGUF
// (llama-quantize's file types, amn::forget_to_gguf; the input a GGUF or a
// Hugging Face folder) and forget to a safetensors scheme (bitsandbytes,
// compressed-tensors, DeepSeek FP8; amn::forget_to_safetensors); and for a
// Hugging Face folder, GGUF as llama.cpp's convert_hf_to_gguf.py writes it
// (F32, F16, BF16, Q8_0, auto; amn::convert_hf_to_gguf), for a multimodal
// folder its vision projector instead (--mmproj, HfGgufOptions::mmproj); for a
// PEFT LoRA adapter folder, the GGUF adapter convert_lora_to_gguf.py writes
// over a base model's config.json (amn::convert_lora_to_gguf). For forget and
// the GGUF conversions, the summary page runs the core's dry run
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
//
// One QWizardPage subclass per page, each owning its widgets
// (wizardsourcepage, wizardtargetpage, wizardoptionspage,
// wizardsummarypage, wizardrunpage, wizarddonepage); the wizard holds what
// they share (the model, threads, chunk size, how to ask and report) and
// its public API reads and sets the pages.

#include "loadedmodel.hpp"

#include "anamnesis/dtype.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/lora_to_gguf.hpp"

#include <QStringList>
#include <QWizard>

#include <functional>
#include <optional>

class QTableView;

namespace amn::ui {

class LossChart;
class WizardTargetPage;
class WizardOptionsPage;
class WizardSummaryPage;
class WizardRunPage;
class WizardDonePage;

class ConvertWizard : public QWizard {
    Q_OBJECT
public:
    enum PageId { SourcePage, TargetPage, OptionsPage, SummaryPage, RunPage, DonePage };
    /// What the wizard writes. ConvertGguf: a Hugging Face folder as
    /// convert_hf_to_gguf.py writes it (offered for such a folder only).
    /// ConvertLora: a PEFT LoRA adapter folder as convert_lora_to_gguf.py
    /// writes it (offered for an adapter folder only, LoadedModel::adapter).
    enum class Mode { Remember, ForgetGguf, ForgetSafetensors, ConvertGguf, ConvertLora };

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
    /// ConvertGguf writes the folder's vision projector (`amn convert
    /// --mmproj`) instead of the text model; selects ConvertGguf. Offered
    /// once setHfGgufInfo() says the folder has a vision tower
    /// (HfGgufInfo::has_vision), disabled with the reason when
    /// HfGgufInfo::mmproj_error is set; false (and ignored) otherwise.
    void setHfMmproj(bool on);
    bool hfMmproj() const;
    /// The input is a PEFT LoRA adapter folder (LoadedModel::adapter): the
    /// GGUF adapter (ConvertLora) is offered, or, when the adapter's
    /// gguf_refusal is set, the reason is shown instead.
    bool adapterInput() const { return model_->adapter.has_value(); }
    /// convert_lora_to_gguf's --outtype ("F32", "F16", "BF16", "Q8_0");
    /// selects ConvertLora. Only for an adapter folder.
    void setLoraOutType(const QString& outtype);
    QString loraOutType() const;
    /// convert_lora_to_gguf's --base: the base model's folder (only its
    /// config.json is read). The default output follows it.
    void setLoraBase(const QString& dir);
    QString loraBase() const;
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
    amn::LoraGgufOptions loraOptions() const;

    /// Summary dry run (forget): running, and whether it succeeded.
    bool isPlanning() const;
    bool planReady() const;
    /// Per-tensor plan on the summary page; measured loss on the done page.
    QTableView* planTable() const;
    QTableView* lossTable() const;
    LossChart* lossChart() const;

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

    QStringList writtenFiles() const;
    /// The core's message of the last failed run (technical detail), else empty.
    QString lastError() const;
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
    /// `notice`: the refusal as the core types it (amn::Error::notice(): an
    /// already quantized input is told by NoticeKind::AlreadyQuantized, not
    /// guessed from the wizard's state).
    QString plainPlanError(int code, const QString& tensor, const std::optional<amn::Notice>& notice = std::nullopt) const;
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
    // Each page is handed the wizard when it is made and reaches what the
    // pages share here.
    friend class WizardTargetPage;
    friend class WizardOptionsPage;
    friend class WizardSummaryPage;
    friend class WizardRunPage;
    friend class WizardDonePage;
    /// The mode or its type changed: the options the mode takes, the done
    /// page's subtitle, and the output name unless the user typed one.
    void modeChanged();
    /// The options page's stack and the done page's subtitle for mode().
    void updateModeWidgets();
    /// The summary is a commit page while a run is possible or running (no
    /// Back into a running job); after a failure or cancel Back is offered.
    void summaryCommit(bool on);
    QString defaultOutput() const;
    /// What every run's options take from the wizard: the output path,
    /// overwrite, threads and chunk size (RememberOptions, GgufForgetOptions, …).
    template <class Options>
    void setRunOptions(Options& o) const {
        o.output = outputPath().toStdString();
        o.force = overwrite();
        o.threads = threads_;
        if (chunkBytes_) o.chunk_bytes = chunkBytes_;
    }
    bool overwrite() const;
    /// The type the converter writes: hfOutType() ("auto" resolved: "BF16"),
    /// loraOutType() for ConvertLora.
    QString resolvedOutType() const;

    ModelPtr model_;
    bool hfInput_ = false;  ///< a Hugging Face folder (GGUF conversion offered)
    unsigned threads_ = 0;
    quint64 chunkBytes_ = 0;
    bool errorDialogs_ = true;
    std::function<bool()> confirmCancel_;
    WizardTargetPage* target_ = nullptr;
    WizardOptionsPage* options_ = nullptr;
    WizardSummaryPage* summary_ = nullptr;
    WizardRunPage* run_ = nullptr;
    WizardDonePage* done_ = nullptr;
};

}  // namespace amn::ui
