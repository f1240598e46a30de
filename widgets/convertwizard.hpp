// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The conversion wizard: source → target → options → summary → run → done.
// The run executes amn::convert_to_safetensors on a worker thread
// (QtConcurrent::run with a QPromise; progress in per-mille through a
// QFutureWatcher, bytes for throughput and time left through atomics).
// Cancel sets the core's cancel flag: the executor stops within a chunk and
// removes its temporary files, so no partial output remains. Closing the
// wizard (or the main window) during a run asks, then cancels and waits.

#include "loadedmodel.hpp"

#include "anamnesis/dtype.hpp"

#include <QElapsedTimer>
#include <QFuture>
#include <QStringList>
#include <QWizard>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace amn::ui {

class ConvertWizard : public QWizard {
    Q_OBJECT
public:
    enum PageId { SourcePage, TargetPage, OptionsPage, SummaryPage, RunPage, DonePage };

    explicit ConvertWizard(ModelPtr model, QWidget* parent = nullptr);
    ~ConvertWizard() override;

    const ModelPtr& model() const { return model_; }

    /// nullopt = automatic (dequantized → BF16, others keep their dtype).
    void setTarget(std::optional<amn::DType> to);
    std::optional<amn::DType> target() const;
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
    QString lastError() const { return error_; }
    int progressPermille() const;

    /// Start the conversion now (the run page does this on entry).
    void startConversion();

signals:
    void conversionStarted();
    /// ok: written; cancelled: stopped by the user; message: the core's error.
    void conversionFinished(bool ok, bool cancelled, const QString& message);
    /// "Open the result in the app".
    void openRequested(const QString& path);

protected:
    void reject() override;
    void closeEvent(QCloseEvent* e) override;

private:
    friend class WizardPages;
    struct JobState {
        std::atomic<bool> cancel{false};
        std::atomic<quint64> done{0}, total{0};
    };
    struct Outcome {
        bool ok = false, cancelled = false;
        QString error;
        QStringList files;
        quint64 bytes = 0;
        int tensors = 0;
    };
    void buildPages();
    void updateOptionsState();
    void updateSummary();
    void onProgress(int permille);
    void onFinished();
    QString defaultOutput() const;

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
    QLineEdit* output_ = nullptr;
    QCheckBox* overwrite_ = nullptr;
    QLabel* optionsWarning_ = nullptr;
    QLabel* summary_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* progressText_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QLabel* doneText_ = nullptr;
    bool outputEdited_ = false;
    // job
    std::shared_ptr<JobState> state_;
    QFuture<Outcome> future_;
    QElapsedTimer clock_;
    bool finishedOk_ = false;
    QStringList files_;
    QString error_;
    QString finalOutput_;
};

}  // namespace amn::ui
