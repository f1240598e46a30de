// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// ConvertWizard's Run page: the core call (remember, forget, the GGUF
// conversion) on a worker thread — QtConcurrent::run with a QPromise;
// progress in per-mille through a QFutureWatcher, bytes for throughput and
// time left through atomics. Cancel sets the core's cancel flag: the
// executor stops within a chunk and removes its temporary files. After a
// failure or cancel the page offers "Try again"; after success the wizard
// moves on to the done page with the result.
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFuture>
#include <QWizardPage>

#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;

namespace amn::ui {

class WizardRunPage : public QWizardPage {
    // The wizard's strings, one translation context (translations/de_strings.py).
    Q_DECLARE_TR_FUNCTIONS(amn::ui::ConvertWizard)
public:
    using Mode = ConvertWizard::Mode;
    explicit WizardRunPage(ConvertWizard* wizard);

    /// Entering the page starts the conversion.
    void initializePage() override { start(); }
    bool isComplete() const override { return finishedOk_; }

    /// Start the conversion with the options the pages say (not when one runs).
    void start();
    bool isRunning() const;
    /// Raise the core's cancel flag (returns at once).
    void cancel();
    /// Cancel and block until the worker has finished and cleaned up.
    void cancelAndWait();
    int progressPermille() const;
    const QStringList& writtenFiles() const { return files_; }
    /// The core's message of the last failed run, else empty.
    const QString& lastError() const { return error_; }
    /// The last failed run (an empty detail when it did not fail).
    const convert_detail::Failure& failure() const { return runFailure_; }

private:
    struct JobState {
        std::atomic<bool> cancel{false};
        std::atomic<quint64> done{0}, total{0};
    };
    void onProgress(int permille);
    void onFinished();

    ConvertWizard* wiz_;
    QProgressBar* progress_ = nullptr;
    QLabel* progressText_ = nullptr;
    QPushButton* retryButton_ = nullptr;  ///< "Try again" after a failure or cancel
    std::shared_ptr<JobState> state_;
    QFuture<convert_detail::RunOutcome> future_;
    QElapsedTimer clock_;
    bool finishedOk_ = false;
    QStringList files_;
    QString error_;
    convert_detail::Failure runFailure_;
    QString finalOutput_;
    bool createdOutputDir_ = false;
    QString outputDir_;
};

}  // namespace amn::ui
