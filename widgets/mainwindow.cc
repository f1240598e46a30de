// SPDX-License-Identifier: MIT OR Apache-2.0
#include "mainwindow.hpp"

#include "backgroundpool.hpp"
#include "convertwizard.hpp"
#include "modelview.hpp"
#include "settingsstore.hpp"

#include "anamnesis/error.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QLineEdit>
#include <QLabel>
#include <QMenuBar>
#include <QMouseEvent>
#include <QTabBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QPointer>
#include <QSettings>
#include <QTimer>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

void amnInitWidgetResources() { Q_INIT_RESOURCE(anamnesis); }

namespace amn::ui {

namespace {
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
const char* kGeometryKey = "window/geometry";
const char* kStateKey = "window/state";

/// One spelling per file or folder, so the same model opened twice is found.
QString canonicalPath(const QString& path) {
    if (amn::is_remote_model(path.toStdString())) return path;  // a URL or hf:// id names itself
    const QFileInfo fi(path);
    const QString c = fi.canonicalFilePath();
    return c.isEmpty() ? fi.absoluteFilePath() : c;
}
const char* kPathProperty = "amnCanonicalPath";
const char* kOrderProperty = "amnOpenOrder";

QStringList localPaths(const QMimeData* mime) {
    QStringList out;
    if (!mime || !mime->hasUrls()) return out;
    for (const QUrl& u : mime->urls()) {
        if (u.isLocalFile()) out << u.toLocalFile();
        // A link dropped from a browser: the remote model, read over HTTP.
        else if (u.scheme() == QLatin1String("http") || u.scheme() == QLatin1String("https") || u.scheme() == QLatin1String("hf"))
            out << u.toString();
    }
    return out;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<amn::ui::ModelView*>();
    backgroundPool();  // its thread started and lowered now, not at the first close
    setWindowTitle(tr("anamnesis"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/anamnesis.svg")));
    setAcceptDrops(true);
    resize(1200, 760);

    stack_ = new QStackedWidget(this);
    auto* welcome = new QWidget(stack_);
    auto* wl = new QVBoxLayout(welcome);
    auto* icon = new QLabel(welcome);
    icon->setPixmap(QIcon(QStringLiteral(":/icons/anamnesis.svg")).pixmap(96, 96));
    icon->setAlignment(Qt::AlignCenter);
    auto* text = new QLabel(tr("<h2>Drop a model here</h2>"
                               "<p>safetensors (also sharded, or a folder), GGUF, NPY/NPZ, PyTorch .pth, ONNX</p>"
                               "<p>or use <b>File ▸ Open</b> (%1). Opening reads headers only.</p>")
                                .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)),
                            welcome);
    text->setAlignment(Qt::AlignCenter);
    text->setWordWrap(true);
    wl->addStretch(1);
    wl->addWidget(icon);
    wl->addWidget(text);
    wl->addStretch(1);
    stack_->addWidget(welcome);

    tabs_ = new QTabWidget(stack_);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    tabs_->setDocumentMode(true);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updateState);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (statusIsFailure_) setStatus({});  // a failed open is old news once the user moves on
    });
    tabs_->tabBar()->installEventFilter(this);  // middle-click closes a tab
    stack_->addWidget(tabs_);
    setCentralWidget(stack_);

    status_ = new QLabel(this);
    busy_ = new QProgressBar(this);
    busy_->setRange(0, 0);
    busy_->setMaximumWidth(120);
    busy_->setVisible(false);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(busy_);
    cancelLoads_ = new QToolButton(this);
    cancelLoads_->setObjectName(QStringLiteral("cancelLoads"));
    cancelLoads_->setIcon(QIcon::fromTheme(QStringLiteral("process-stop")));
    cancelLoads_->setText(tr("Cancel"));
    cancelLoads_->setToolTip(tr("Stop opening (a remote model's download stops at once)"));
    cancelLoads_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    cancelLoads_->setVisible(false);
    connect(cancelLoads_, &QToolButton::clicked, this, &MainWindow::cancelLoads);
    statusBar()->addPermanentWidget(cancelLoads_);

    confirmClose_ = [this] {
        QMessageBox box(QMessageBox::Question, tr("Conversion running"),
                        tr("A conversion is still running. Cancel it and quit? No partial file is left behind."), QMessageBox::NoButton, this);
        auto* stop = box.addButton(tr("Cancel and Quit"), QMessageBox::DestructiveRole);
        box.setDefaultButton(box.addButton(tr("Keep Running"), QMessageBox::RejectRole));
        box.exec();
        return box.clickedButton() == stop;
    };
    buildMenus();
    updateState();
    QSettings settings;
    if (const QByteArray g = settings.value(QLatin1String(kGeometryKey)).toByteArray(); !g.isEmpty()) restoreGeometry(g);
    if (const QByteArray st = settings.value(QLatin1String(kStateKey)).toByteArray(); !st.isEmpty()) restoreState(st);
}

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    if (auto* v = currentModelView()) v->saveViewState();
    flushSettings();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* e) {
    if (watched == tabs_->tabBar() && e->type() == QEvent::MouseButtonRelease) {
        auto* me = static_cast<QMouseEvent*>(e);
        if (me->button() == Qt::MiddleButton) {
            const int i = tabs_->tabBar()->tabAt(me->position().toPoint());
            if (i >= 0) {
                closeTab(i);
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, e);
}

MainWindow::~MainWindow() {
    flushSettings();
    for (const auto& w : wizards_)
        if (w) w->cancelAndWait();
    waitForLoads();
    if (leakOnExit_) {
        // The process is ending: keep one reference to each open model so that
        // deleting the views below frees nothing big (the OS reclaims it at once).
        for (int i = 0; i < tabs_->count(); ++i)
            if (auto* v = modelView(i)) {
                new ModelPtr(v->model());                             // intentionally never deleted
                new std::shared_ptr<ModelViewData>(v->releaseData());  // likewise
            }
    } else {
        while (tabs_->count()) {  // models freed on workers, in parallel
            QWidget* w = tabs_->widget(0);
            auto* v = qobject_cast<ModelView*>(w);
            ModelPtr model = v ? v->model() : nullptr;
            std::shared_ptr<ModelViewData> data = v ? v->releaseData() : nullptr;
            tabs_->removeTab(0);
            delete w;
            freeOnWorker(std::move(model), std::move(data));
        }
    }
    frees_.cancelAndWait();  // a free cannot be interrupted: wait for those under way
}

void MainWindow::freeOnWorker(ModelPtr model, std::shared_ptr<ModelViewData> data) {
    if (!model && !data) return;
    // Hold the model in a holder that the worker empties: when this is the last
    // reference (no wizard still converting it), its catalog, plan and tree
    // are freed on the worker, not here; so are the view's chart data.
    auto holder = std::make_shared<std::pair<ModelPtr, std::shared_ptr<ModelViewData>>>(std::move(model), std::move(data));
    frees_.startIndependent<int>(this, [holder](const std::atomic<bool>&) {
        holder->second.reset();
        holder->first.reset();
        return 0;
    }, [](int) {}, backgroundPool());  // below the UI thread's priority: waking it must not stall a paint
}

void MainWindow::waitForLoads() {
    loads_.cancelAndWait();  // opening is not interruptible: its results are dropped
    describes_.cancelAndWait();  // nor is reading a tokenizer
    pending_ = 0;
    loading_.clear();
}

int MainWindow::tabOf(const QString& path) const {
    const QString c = canonicalPath(path);
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->widget(i)->property(kPathProperty).toString() == c) return i;
    return -1;
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Open model"), QString(),
            tr("Model files (*.safetensors *.json *.gguf *.npz *.npy *.pth *.pt *.bin *.onnx);;All files (*)"));
        openPaths(files);
    });
    open->setShortcut(QKeySequence::Open);
    auto* openDir = file->addAction(tr("Open &Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open model folder"));
        if (!dir.isEmpty()) openPaths({dir});
    });
    openDir->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    auto* openUrl = file->addAction(tr("Open &URL…"), this, [this] {
        bool ok = false;
        const QString url = QInputDialog::getText(
            this, tr("Open URL"),
            tr("A model file's URL (https://…) or a Hugging Face repository (hf://ORG/REPO[@REVISION][/PATH]).\n"
               "Only its headers are downloaded; it opens read-only."),
            QLineEdit::Normal, QString(), &ok).trimmed();
        if (!ok || url.isEmpty()) return;
        if (!amn::is_remote_model(url.toStdString())) {
            QMessageBox::warning(this, tr("Open URL"), tr("Not a URL: it must start with https://, http:// or hf://."));
            return;
        }
        openPaths({url});
    });
    openUrl->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    refreshRecentMenu();
    file->addSeparator();
    auto* convert = file->addAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("&Convert…"), this, [this] { convertCurrent(); });
    convert->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    convert->setToolTip(tr("Remember (dequantize) or forget (quantize) the current model"));
    modelActions_ << convert;
    auto* toolbar = addToolBar(tr("Main Toolbar"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    toolbar->addAction(open);
    toolbar->addAction(convert);
    file->addSeparator();
    auto* close = file->addAction(tr("&Close Tab"), this, [this] { closeTab(tabs_->currentIndex()); });
    QList<QKeySequence> closeKeys{QKeySequence(Qt::CTRL | Qt::Key_W)};
    for (const auto& k : QKeySequence::keyBindings(QKeySequence::Close))
        if (!closeKeys.contains(k)) closeKeys << k;
    close->setShortcuts(closeKeys);
    modelActions_ << close;
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    auto* find = edit->addAction(tr("&Find Tensor"), this, [this] {
        if (auto* v = currentModelView()) v->focusFilter();
    });
    find->setShortcut(QKeySequence::Find);
    modelActions_ << find;
    auto* copyName = edit->addAction(tr("Copy Tensor &Name"), this, [this] {
        if (auto* v = currentModelView()) {
            const QString n = v->copyCurrentName();
            if (!n.isEmpty()) statusBar()->showMessage(tr("Copied %1").arg(n), 3000);
        }
    });
    copyName->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    modelActions_ << copyName;

    auto* view = menuBar()->addMenu(tr("&View"));
    const QList<QPair<QString, ModelView::Tab>> tabs = {{tr("&Overview"), ModelView::OverviewTab},
                                                        {tr("What &Lethe Took"), ModelView::LetheTab},
                                                        {tr("&Tensor"), ModelView::TensorTab},
                                                        {tr("&Metadata"), ModelView::MetadataTab}};
    int key = Qt::Key_1;
    for (const auto& [label, tab] : tabs) {
        auto* a = view->addAction(label, this, [this, t = tab] {
            if (auto* v = currentModelView()) v->showTab(t);
        });
        a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(key++)));
        modelActions_ << a;
    }
    view->addSeparator();
    auto* nextTab = view->addAction(tr("&Next Model"), this, [this] {
        if (tabs_->count()) tabs_->setCurrentIndex((tabs_->currentIndex() + 1) % tabs_->count());
    });
    nextTab->setShortcut(QKeySequence::NextChild);

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About anamnesis"), this, [this] {
        QMessageBox::about(this, tr("About anamnesis"),
                           tr("<h3>anamnesis %1</h3><p>Parse any tensor format, recover any precision.</p>"
                              "<p>Inspect quantized model files, remember (dequantize) and forget (quantize) them.</p>"
                              "<p>Licence: MIT OR Apache-2.0</p>"
                              "<p>Built with Qt %2 (running on Qt %3).</p>")
                               .arg(QCoreApplication::applicationVersion(), QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion())));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QStringList MainWindow::recentFiles() const { return settingValue(QLatin1String(kRecentKey)).toStringList(); }

void MainWindow::addRecent(const QString& path) {
    QStringList list = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent) list.removeLast();
    setSettingAsync(QLatin1String(kRecentKey), list);  // the settings file is written off the UI thread
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    recentMenu_->clear();
    const QStringList list = recentFiles();
    int n = 0;
    for (const QString& p : list) {
        auto* a = recentMenu_->addAction(QStringLiteral("&%1 %2").arg(++n % 10).arg(p), this, [this, p] { openPaths({p}); });
        a->setToolTip(p);
    }
    if (list.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("&Clear List"), this, [this] {
            setSettingAsync(QLatin1String(kRecentKey), QVariant());
            refreshRecentMenu();
        });
    }
}

void MainWindow::openPaths(const QStringList& paths) {
    for (const QString& path : paths) {
        if (path.isEmpty()) continue;
        const QString canonical = canonicalPath(path);
        if (const int i = tabOf(path); i >= 0) {  // already open: show it
            tabs_->setCurrentIndex(i);
            continue;
        }
        if (loading_.contains(canonical)) continue;  // already on its way
        loading_ << canonical;
        ++pending_;
        const quint64 order = nextOrder_++;
        setStatus(tr("Opening %1…").arg(QFileInfo(path).fileName()));
        busy_->setVisible(true);
        cancelLoads_->setVisible(true);
        loads_.startIndependent<LoadResult>(
            this,
            [path](const std::atomic<bool>& cancel) {
                LoadResult r = tryLoadModel(path, &cancel);  // a remote model's transfers stop on cancel
                if (r.model) r.views = prepareModelView(r.model);  // off the UI thread
                return r;
            },
            [this, order, canonical](const LoadResult& r) {
                --pending_;
                if (!r.model) loading_.removeAll(canonical);  // else once its tab is in (insertView)
                onLoaded(r, order);
            });
    }
}

void MainWindow::cancelLoads() {
    if (pending_ == 0) return;
    loads_.cancel();  // the workers see their flags; their results are dropped
    pending_ = 0;
    loading_.clear();
    busy_->setVisible(false);
    cancelLoads_->setVisible(false);
    setStatus(tr("Opening cancelled"));
    if (!failures_.isEmpty()) reportFailures();  // what failed before the cancel
}

void MainWindow::onLoaded(const LoadResult& r, quint64 order) {
    busy_->setVisible(pending_ > 0);
    cancelLoads_->setVisible(pending_ > 0);
    if (!r.model) {
        setStatus(tr("Could not open %1").arg(QFileInfo(r.path).fileName()), true);
        failures_ << r;
        emit openFailed(r.path, r.error);
        if (pending_ == 0) reportFailures();  // one report per batch (a drop of five bad files)
        return;
    }
    // Two event-loop turns, so that neither stalls the UI for long: build the
    // view here, put it in its tab (and lay it out) in the next turn.
    auto* view = new ModelView(r.model, tabs_, r.views);
    connect(view, &ModelView::convertRequested, this, [this] { convertCurrent(); });
    view->setProperty(kPathProperty, canonicalPath(r.path));
    view->setProperty(kOrderProperty, order);
    QPointer<ModelView> guard(view);
    // 1 ms, not 0: zero timers can run in the same dispatch as this one.
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this, guard, path = r.path] {
        if (guard) insertView(guard, path);
    });
}

void MainWindow::insertView(ModelView* view, const QString& path) {
    const ModelPtr& model = view->model();
    const quint64 order = view->property(kOrderProperty).toULongLong();
    loading_.removeAll(view->property(kPathProperty).toString());
    // Tabs in the order asked: before the first tab that was asked for later.
    int at = tabs_->count();
    for (int k = 0; k < tabs_->count(); ++k)
        if (tabs_->widget(k)->property(kOrderProperty).toULongLong() > order) {
            at = k;
            break;
        }
    const QString name = modelDisplayName(*model);
    const int i = tabs_->insertTab(at, view, name);
    tabs_->setTabToolTip(i, model->isRemote() ? path : QFileInfo(path).absoluteFilePath());
    tabs_->setCurrentIndex(i);
    addRecent(path);
    setStatus(tr("Opened %1: %Ln tensor(s) in %2 ms", nullptr, static_cast<int>(model->plan.tensors.size()))
                  .arg(name)
                  .arg(QLocale().toString(model->load_seconds * 1000, 'f', 1)));
    updateState();
    describeHfGguf(view);
    emit modelOpened(view);
    if (pending_ == 0) reportFailures();
}

void MainWindow::describeHfGguf(ModelView* view) {
    ModelPtr model = view->model();
    if (!amn::is_hf_gguf_input(model->catalog)) return;
    using Info = std::shared_ptr<const amn::HfGgufInfo>;
    QPointer<ModelView> guard(view);
    describes_.startIndependent<Info>(
        this,
        [model](const std::atomic<bool>&) -> Info {
            try {
                return std::make_shared<const amn::HfGgufInfo>(amn::describe_hf_gguf(model->catalog));
            } catch (const std::exception& e) {  // describe_hf_gguf names the model's problems itself; this is the rest
                auto info = std::make_shared<amn::HfGgufInfo>();
                info->is_hf_folder = true;
                info->error = e.what();
                return info;
            }
        },
        [this, guard](const Info& info) {
            if (!guard) return;  // the tab was closed meanwhile
            guard->setHfGgufInfo(info);
            for (auto* w : wizards())
                if (w->model() == guard->model()) w->setHfGgufInfo(*info);
        });
}

QString MainWindow::plainOpenError(const LoadResult& r) {
    using amn::ErrorCode;
    if (r.code < 0) return tr("The file could not be read as a model.");
    switch (static_cast<ErrorCode>(r.code)) {
        case ErrorCode::Io: return tr("The file could not be read (missing, or no permission?).");
        case ErrorCode::Truncated:
            return r.tensor.isEmpty() ? tr("The file is incomplete — it ends too early (a partial download?).")
                                      : tr("The file is incomplete — it ends before tensor %1's data (a partial download?).").arg(r.tensor);
        case ErrorCode::OutOfRange:
            // A tensor's data past the end of the file: what a partial download looks like.
            if (!r.tensor.isEmpty()) return tr("The file is incomplete — it ends before tensor %1's data (a partial download?).").arg(r.tensor);
            [[fallthrough]];
        case ErrorCode::Malformed:
        case ErrorCode::BadJson:
        case ErrorCode::Overlap:
        case ErrorCode::Gap:
        case ErrorCode::SizeMismatch:
        case ErrorCode::BadText: return tr("The file is damaged, or not a model file of the kind its name says.");
        case ErrorCode::LimitExceeded: return tr("The file declares more than anamnesis accepts (a safety limit).");
        case ErrorCode::UnknownDtype:
        case ErrorCode::Unsupported: return tr("The file uses something anamnesis does not support yet.");
        case ErrorCode::MissingCompanion:
        case ErrorCode::BadCompanion: return tr("A quantized tensor lacks the scales it needs, or they do not fit.");
        case ErrorCode::UnsafePickle: return tr("The file contains Python code that is not safe to load; it was not run.");
        case ErrorCode::NotRegularFile: return tr("This is not a regular file or model folder.");
        case ErrorCode::OutOfMemory: return tr("There is not enough memory to open the file.");
        case ErrorCode::Network:
            return tr("The server did not give the model (a gated or private repository, a missing token, a wrong address, "
                      "or no connection: the details say which).");
        default: return tr("The file could not be opened.");
    }
}

void MainWindow::reportFailures() {
    if (failures_.isEmpty()) return;
    const QList<LoadResult> failed = std::exchange(failures_, {});
    QStringList paths, lines, detail;
    for (const auto& r : failed) {
        paths << r.path;
        lines << tr("%1: %2").arg(QFileInfo(r.path).fileName(), plainOpenError(r));
        detail << QFileInfo(r.path).absoluteFilePath() + QLatin1Char('\n') + QStringLiteral("  ") + r.error;
    }
    const QString summary = failed.size() == 1 ? tr("%1 could not be opened.").arg(QFileInfo(failed.front().path).fileName())
                                               : tr("%Ln model(s) could not be opened.", nullptr, static_cast<int>(failed.size()));
    const QString informative = failed.size() == 1 ? plainOpenError(failed.front()) : lines.join(QLatin1Char('\n'));
    lastReport_ = summary + QLatin1Char('\n') + informative + QStringLiteral("\n\n") + detail.join(QLatin1Char('\n'));
    setStatus(summary, true);
    if (errorDialogs_) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open model"), summary, QMessageBox::NoButton, this);
        box->addButton(tr("Close"), QMessageBox::AcceptRole);
        box->setInformativeText(informative);
        box->setDetailedText(detail.join(QLatin1Char('\n')));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit openFailuresReported(paths, lastReport_);
}

void MainWindow::closeTab(int i) {
    if (i < 0 || i >= tabs_->count()) return;
    QWidget* w = tabs_->widget(i);
    ModelPtr model;
    std::shared_ptr<ModelViewData> data;
    if (auto* v = qobject_cast<ModelView*>(w)) {
        v->saveViewState();
        model = v->model();
        data = v->releaseData();
    }
    tabs_->removeTab(i);
    delete w;  // its statistics jobs are cancelled and waited for
    freeOnWorker(std::move(model), std::move(data));  // a 100 000-tensor model takes up to a second to free
    updateState();
}

void MainWindow::updateState() {
    const bool any = tabs_->count() > 0;
    stack_->setCurrentIndex(any ? 1 : 0);
    // A remote model has only its headers here: nothing to convert.
    const bool local = currentModelView() && !currentModelView()->model()->isRemote();
    for (auto* a : std::as_const(modelActions_)) a->setEnabled(any && local);
    if (currentModelView())
        setWindowTitle(tr("%1 — anamnesis").arg(tabs_->tabText(tabs_->currentIndex())));
    else
        setWindowTitle(tr("anamnesis"));
}

void MainWindow::setStatus(const QString& text, bool failure) {
    status_->setText(text);
    statusIsFailure_ = failure;
}

QString MainWindow::statusText() const { return status_->text(); }

int MainWindow::modelCount() const { return tabs_->count(); }
ModelView* MainWindow::modelView(int i) const { return qobject_cast<ModelView*>(tabs_->widget(i)); }
ModelView* MainWindow::currentModelView() const { return qobject_cast<ModelView*>(tabs_->currentWidget()); }

ConvertWizard* MainWindow::convertCurrent() {
    auto* v = currentModelView();
    if (!v) return nullptr;
    if (v->model()->isRemote()) {  // only its headers were fetched: there are no weights to convert
        QMessageBox::information(this, tr("Convert"),
                                 tr("%1 is a remote model: only its headers were downloaded. Download it to convert it.")
                                     .arg(v->model()->path));
        return nullptr;
    }
    auto* w = new ConvertWizard(v->model(), this);
    if (const auto& info = v->hfGgufInfo()) w->setHfGgufInfo(*info);  // else it follows when read (describeHfGguf)
    w->setWindowFlag(Qt::Window, true);
    w->setAttribute(Qt::WA_DeleteOnClose);
    connect(w, &ConvertWizard::openRequested, this, [this](const QString& p) { openPaths({p}); });
    wizards_ << w;
    w->show();
    return w;
}

QList<ConvertWizard*> MainWindow::wizards() const {
    QList<ConvertWizard*> out;
    for (const auto& w : wizards_)
        if (w) out << w.data();
    return out;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!localPaths(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* e) {
    if (!localPaths(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QStringList paths = localPaths(e->mimeData());
    if (paths.isEmpty()) return;
    e->acceptProposedAction();
    openPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QList<ConvertWizard*> running;
    for (auto* w : wizards())
        if (w->isRunning()) running << w;
    if (!running.isEmpty()) {
        if (confirmClose_ && !confirmClose_()) {
            e->ignore();
            return;
        }
        for (auto* w : running) {
            w->cancelConversion();
            w->cancelAndWait();
        }
    }
    for (auto* w : wizards()) w->close();
    waitForLoads();  // no worker outlives the window
    saveSettings();
    e->accept();
}

}  // namespace amn::ui
