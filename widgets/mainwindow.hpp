// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The main window: tabs of opened models, drag-and-drop (files and folders,
// several at once), File ▸ Open / Open Folder / Open Recent, the conversion
// wizard, keyboard shortcuts. Models open on a worker thread (headers only);
// the window never blocks.

#include "jobtracker.hpp"
#include "loadedmodel.hpp"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <functional>

class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;
class QStackedWidget;
class QTabWidget;

namespace amn::ui {

class ConvertWizard;
class ModelView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Open every path in the background; each becomes a tab.
    void openPaths(const QStringList& paths);
    int modelCount() const;
    ModelView* modelView(int i) const;
    ModelView* currentModelView() const;
    QTabWidget* tabs() const { return tabs_; }
    int pendingLoads() const { return pending_; }
    /// Tab of the model opened from `path` (same file or folder), or -1.
    int tabOf(const QString& path) const;
    /// Wait for every model still loading, and every Hugging Face folder
    /// still being described (closing does this).
    void waitForLoads();
    /// Stop every model still opening (the status bar's Cancel): a remote
    /// model's transfers stop at once, a local parse's result is dropped;
    /// nothing is reported as failed.
    void cancelLoads();

    /// Open the conversion wizard for the current model (nullptr if none).
    ConvertWizard* convertCurrent();
    QList<ConvertWizard*> wizards() const;

    /// Show errors in dialogs (default); tests turn it off and use openFailed.
    void setErrorDialogs(bool on) { errorDialogs_ = on; }
    /// Asked when closing during a conversion; default: QMessageBox question.
    void setConfirmClose(std::function<bool()> f) { confirmClose_ = std::move(f); }

    QStringList recentFiles() const;

    /// The last report of failed opens (one per batch of opens), as plain
    /// text: the summary line, one line per file, then the technical detail.
    QString lastOpenReport() const { return lastReport_; }
    /// The status bar's text (a failed open is forgotten when the tab changes).
    QString statusText() const;
    /// A plain-language sentence for a failed open (first line of a report).
    static QString plainOpenError(const LoadResult& r);

    /// When quitting the application: leave the open models to the operating
    /// system instead of freeing them one allocation at a time (a 100 000-tensor
    /// model takes up to a second), so the process exits promptly. The app sets
    /// it; tests do not (every model is then freed).
    void setLeakModelsOnExit(bool on) { leakOnExit_ = on; }
    /// Models handed to a worker to be freed and not yet freed.
    bool freeingModels() const { return frees_.anyRunning(); }

    /// Remember window geometry, toolbar state and the current model view's
    /// splitter and header (QSettings); done on close.
    void saveSettings();

signals:
    void modelOpened(amn::ui::ModelView* view);
    void openFailed(const QString& path, const QString& message);
    /// Once per batch of opens that had failures: every failed file and the report.
    void openFailuresReported(const QStringList& paths, const QString& report);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dragMoveEvent(QDragMoveEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void buildMenus();
    void addRecent(const QString& path);
    void refreshRecentMenu();
    void onLoaded(const LoadResult& r, quint64 order);
    /// Second half of onLoaded (next event-loop turn): the view into its tab.
    void insertView(ModelView* view, const QString& path);
    void closeTab(int i);
    void updateState();
    void setStatus(const QString& text, bool failure = false);
    void reportFailures();
    void freeOnWorker(ModelPtr model, std::shared_ptr<ModelViewData> data = {});
    /// For a Hugging Face folder: describe_hf_gguf() on a worker (it reads the
    /// tokenizer, a second for a 150 000-token vocabulary), then to the view
    /// and to the wizards converting that model; dropped when the view is gone.
    void describeHfGguf(ModelView* view);

    QStackedWidget* stack_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QToolButton* cancelLoads_ = nullptr;  ///< beside busy_ while models open
    QList<QAction*> modelActions_;
    QList<QPointer<ConvertWizard>> wizards_;
    int pending_ = 0;
    quint64 nextOrder_ = 0;             ///< tabs open in the order asked
    QStringList loading_;               ///< canonical paths being opened
    JobTracker loads_;                  ///< models opening; waited for on close
    JobTracker frees_;                  ///< closed models being freed on a worker
    JobTracker describes_;              ///< Hugging Face folders: what they become in GGUF (tokenizer read); waited for on close
    bool leakOnExit_ = false;
    bool errorDialogs_ = true;
    QList<LoadResult> failures_;        ///< failed opens of the current batch
    QString lastReport_;
    bool statusIsFailure_ = false;     ///< the status bar shows a failed open
    std::function<bool()> confirmClose_;
};

}  // namespace amn::ui

/// Register the widget library's resources (icons, translations); call once
/// before creating windows (the library is static).
void amnInitWidgetResources();
