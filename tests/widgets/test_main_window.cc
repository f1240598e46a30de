// SPDX-License-Identifier: MIT OR Apache-2.0
// MainWindow and views:
//   * a simulated drop (QDragEnterEvent + QDropEvent with file URLs) opens
//     each file in a tab, on a worker thread (the event returns at once);
//   * opening a broken file reports the core's error;
//   * recent files, keyboard shortcuts (find, close tab);
//   * the summary shows the inspection; the tensor detail computes statistics
//     in the background equal to the core's, and drops stale results;
//   * the tabs other than the Overview are built when first shown;
//   * a Hugging Face folder's Overview names its GGUF architecture and
//     tokenizer (describe_hf_gguf, on a worker: "reading the tokenizer…"
//     first), or why it cannot become a GGUF; closing its tab while the
//     tokenizer is read does not wait for it; the wizard opened from that
//     tab gets the same facts.
#include "charts.hpp"
#include "convertwizard.hpp"
#include "mainwindow.hpp"
#include "metadataview.hpp"
#include "singleinstance.hpp"
#include "modelview.hpp"
#include "schemetext.hpp"
#include "summaryview.hpp"
#include "tensordetail.hpp"
#include "tensortreemodel.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/round_trip_estimate.hpp"
#include "anamnesis/pth.hpp"
#include "anamnesis/value_stats.hpp"

#include "test_support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QApplication>
#include <QToolButton>
#include <QDir>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QLabel>
#include <QHelpEvent>
#include <QToolTip>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabBar>
#include <QHeaderView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUrl>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest/QtTest>

using namespace amn::ui;

namespace {
QString sampleFile() {
    return QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/tiny-llama-fp8/model.safetensors";
}

QString hfInputs() { return QString::fromStdString(amn::test::shared_fixtures_dir()) + "/hf-gguf/inputs"; }

void drop(QWidget* target, const QStringList& files) {
    QMimeData mime;
    QList<QUrl> urls;
    for (const auto& f : files) urls << (f.startsWith("http") ? QUrl(f) : QUrl::fromLocalFile(f));  // a link, as from a browser
    mime.setUrls(urls);
    const QPoint pos = target->rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEv(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropEv);
    QVERIFY(dropEv.isAccepted());
}
}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("anamnesis-test");
        QCoreApplication::setApplicationName("test_main_window");
        amnInitWidgetResources();
    }

    void dropOpensFiles() {
        MainWindow w;
        w.setErrorDialogs(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        drop(&w, {sampleFile()});
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(w.modelCount(), 1);
        auto* v = w.modelView(0);
        QCOMPARE(v->model()->plan.tensors.size(), std::size_t(10));
        QCOMPARE(w.tabs()->tabText(0), QString("tiny-llama-fp8"));  // named by its folder, not "model.safetensors"
        QVERIFY(w.recentFiles().contains(QFileInfo(sampleFile()).absoluteFilePath()));

        // Several files (and a folder) at once: one tab each.
        const std::string ref = amn::test::reference_dir();
        QStringList more = {QFileInfo(sampleFile()).absolutePath()};
        if (!ref.empty()) more << QString::fromStdString(ref) + "/fp8/exaone_fine_grained/input/model.safetensors";
        drop(&w, more);
        QTRY_COMPARE(opened.count(), 1 + more.size());
        QCOMPARE(w.modelCount(), 1 + more.size());
    }

    // A link dropped from a browser opens as a remote model on a worker; the
    // status bar's Cancel stops it at any time: here a server that accepts
    // the connection and never answers (its timeout set to 10 minutes, so
    // only the cancel can end the transfer); nothing is reported as failed.
    void cancelStopsARemoteOpen() {
        const int s = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(s >= 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        QVERIFY(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(s, 4) == 0 &&
                ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0);
        qputenv("HF_HUB_DOWNLOAD_TIMEOUT", "600");
        {
            MainWindow w;
            w.setErrorDialogs(false);
            w.show();
            QSignalSpy failed(&w, &MainWindow::openFailed);
            QSignalSpy opened(&w, &MainWindow::modelOpened);
            drop(&w, {QString("http://127.0.0.1:%1/model.gguf").arg(ntohs(a.sin_port))});
            QCOMPARE(w.pendingLoads(), 1);
            auto* cancel = w.findChild<QToolButton*>("cancelLoads");
            QVERIFY(cancel && cancel->isVisible());
            QTest::qWait(300);  // the request is out, its answer pending
            cancel->click();
            QCOMPARE(w.pendingLoads(), 0);
            QVERIFY(!cancel->isVisible());
            w.waitForLoads();  // returns: the transfer saw the flag (else: 10 minutes per try)
            QTest::qWait(50);
            QCOMPARE(failed.count(), 0);
            QCOMPARE(opened.count(), 0);
        }
        qunsetenv("HF_HUB_DOWNLOAD_TIMEOUT");
        ::close(s);
    }

    // Tabs name the model: GGUF general.name, HF org/name from a cache path,
    // config.json's _name_or_path, else the folder; the title follows.
    void tabsNameModels() {
        QTemporaryDir tmp;
        const QString sample = QFileInfo(sampleFile()).absolutePath();
        const QString snap = tmp.filePath("hub/models--acme--tiny-llama/snapshots/0123abcd");
        QVERIFY(QDir().mkpath(snap));
        QVERIFY(QFile::copy(sampleFile(), snap + "/model.safetensors"));
        QVERIFY(QFile::copy(sample + "/config.json", snap + "/config.json"));
        const QString named = tmp.filePath("checkpoint-500");
        QVERIFY(QDir().mkpath(named));
        QVERIFY(QFile::copy(sampleFile(), named + "/model.safetensors"));
        {
            QFile in(sample + "/config.json");
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray cfg = in.readAll();
            cfg.replace(cfg.indexOf('{'), 1, "{\"_name_or_path\": \"org-x/model-y\",");
            QFile out(named + "/config.json");
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(cfg);
        }
        const QString gguf = QString::fromStdString(amn::test::shared_fixtures_dir()) + "/gguf-real/tiny-llama-F32.gguf";
        QStringList paths{snap, named, sample};
        QStringList want{"acme/tiny-llama", "org-x/model-y", "tiny-llama-fp8"};
        if (QFileInfo::exists(gguf)) {
            paths.prepend(gguf);
            want.prepend("tiny-random-llama");
        }
        MainWindow w;
        w.setErrorDialogs(false);
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        w.openPaths(paths);
        QTRY_COMPARE(opened.count(), paths.size());
        QStringList got;
        for (int i = 0; i < w.tabs()->count(); ++i) got << w.tabs()->tabText(i);
        QCOMPARE(got, want);  // named, and in the order asked
        w.tabs()->setCurrentIndex(0);
        QVERIFY(w.windowTitle().startsWith(want.front()));
        if (QFileInfo::exists(gguf)) {
            auto* s = w.modelView(0)->summary();
            QCOMPARE(s->field("architecture"), QString("llama"));
            QCOMPARE(s->field("name"), QString("tiny-random-llama"));
            QCOMPARE(s->field("file_type"), QString("F32 (0)"));
            QVERIFY(!s->field("context").isEmpty());
        }
    }

    void openingAgainSwitchesToTab() {
        MainWindow w;
        w.setErrorDialogs(false);
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        const QString dir = QFileInfo(sampleFile()).absolutePath();
        w.openPaths({sampleFile(), dir});
        QTRY_COMPARE(opened.count(), 2);
        QCOMPARE(w.modelCount(), 2);
        w.tabs()->setCurrentIndex(1);
        w.openPaths({sampleFile()});       // already open: switch, no new load
        QCOMPARE(w.pendingLoads(), 0);
        QCOMPARE(w.modelCount(), 2);
        QCOMPARE(w.tabs()->currentIndex(), 0);
        w.openPaths({dir + "/../tiny-llama-fp8"});  // another spelling of the folder
        QCOMPARE(w.pendingLoads(), 0);
        QCOMPARE(w.tabs()->currentIndex(), 1);
        // Twice in one request: opened once.
        QTemporaryDir tmp;
        QVERIFY(QFile::copy(sampleFile(), tmp.filePath("m.safetensors")));
        w.openPaths({tmp.filePath("m.safetensors"), tmp.filePath("m.safetensors")});
        QCOMPARE(w.pendingLoads(), 1);
        QTRY_COMPARE(opened.count(), 3);
        QCOMPARE(w.modelCount(), 3);
    }

    void overviewHasConvertButton() {
        MainWindow w;
        w.setErrorDialogs(false);
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        w.openPaths({sampleFile()});
        QTRY_COMPARE(opened.count(), 1);
        auto* button = w.modelView(0)->summary()->findChild<QPushButton*>("convertButton");
        QVERIFY(button);
        button->click();
        QTRY_COMPARE(w.wizards().size(), 1);
        w.wizards().front()->close();
    }

    void hfFolderOverviewShowsGguf_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("expected");
        QTest::newRow("llama3-bpe") << "Meta-Llama-3-8B-Instruct" << "llama (LlamaForCausalLM), tokenizer gpt2 / llama-bpe, auto → BF16";
        QTest::newRow("llama2-spm") << "Llama-2-7b-hf" << "llama (LlamaForCausalLM), tokenizer llama / default, auto → F16";
        QTest::newRow("qwen3") << "Qwen3-0.6B" << "qwen3 (Qwen3ForCausalLM), tokenizer gpt2 / qwen2, auto → BF16";
        QTest::newRow("bnb-nf4") << "Mistral-7B-v0.1-bnb-4bit" << "llama (MistralForCausalLM), tokenizer llama / default, auto → BF16";
    }
    void hfFolderOverviewShowsGguf() {
        QFETCH(QString, folder);
        QFETCH(QString, expected);
        const QString in = hfInputs() + "/" + folder;
        if (!QFileInfo::exists(in + "/config.json")) {
            if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("hf-gguf fixtures missing");
        }
        MainWindow w;
        w.setErrorDialogs(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        drop(&w, {in});
        QTRY_COMPARE(opened.count(), 1);
        auto* v = w.modelView(0);
        SummaryView* s = v->summary();
        QTRY_VERIFY_WITH_TIMEOUT(v->hfGgufInfo() != nullptr, 60000);
        QVERIFY2(s->field("gguf").startsWith(expected), qPrintable(s->field("gguf")));
        if (const QString dir = qEnvironmentVariable("AMN_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QApplication::processEvents();
            w.grab().save(QDir(dir).filePath("hf-overview-" + QString(QTest::currentDataTag()) + ".png"));
        }
        // The same facts as the core's, worded once.
        const amn::HfGgufInfo core = amn::describe_hf_gguf(v->model()->catalog);
        QCOMPARE(s->field("gguf"), hfGgufInfoText(core));
        // The wizard opened now has them on its Target page.
        ConvertWizard* wiz = w.convertCurrent();
        QVERIFY(wiz);
        QVERIFY(wiz->hfInput());
        wiz->next();
        QString target;
        for (auto* l : wiz->currentPage()->findChildren<QLabel*>())
            if (l->isVisibleTo(wiz->currentPage())) target += l->text();
        QVERIFY2(target.contains(expected), qPrintable(target));
        wiz->close();
    }

    void hfFolderThatCannotBecomeGgufSaysWhy() {
        QTemporaryDir dir;
        QVERIFY(amn::test::write_safetensors(dir.filePath("model.safetensors"),
                                             {{"model.layers.0.mlp.down_proj.weight", "BF16", {64, 64}, 64 * 64 * 2}}));
        QFile cfg(dir.filePath("config.json"));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(R"({"architectures": ["NoSuchModelForCausalLM"], "model_type": "nosuch"})");
        cfg.close();
        MainWindow w;
        w.setErrorDialogs(false);
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        w.openPaths({dir.path()});
        QTRY_COMPARE(opened.count(), 1);
        auto* v = w.modelView(0);
        QTRY_VERIFY_WITH_TIMEOUT(v->hfGgufInfo() != nullptr, 30000);
        QVERIFY(!v->hfGgufInfo()->error.empty());
        const QString text = v->summary()->field("gguf");
        QVERIFY2(text.startsWith(SchemeText::tr("Cannot become a GGUF: %1").arg(QString())), qPrintable(text));
        QVERIFY2(text.contains("NoSuchModelForCausalLM"), qPrintable(text));
        // The wizard does not offer what cannot be done.
        ConvertWizard* wiz = w.convertCurrent();
        QVERIFY(wiz->hfInput());
        wiz->setGgufFileType("Q4_K_M");
        QCOMPARE(wiz->mode(), ConvertWizard::Mode::ForgetGguf);  // set before the facts: offered,
        wiz->setHfGgufInfo(*v->hfGgufInfo());
        QCOMPARE(wiz->mode(), ConvertWizard::Mode::Remember);  // then withdrawn with the reason
        wiz->close();
    }

    void hfFolderTabClosesWithoutWaitingForTokenizer() {
        const QString in = hfInputs() + "/Meta-Llama-3-8B-Instruct";
        if (!QFileInfo::exists(in + "/config.json")) QSKIP("hf-gguf fixtures missing");
        QElapsedTimer timer;
        {
            MainWindow w;
            w.setErrorDialogs(false);
            QSignalSpy opened(&w, &MainWindow::modelOpened);
            w.openPaths({in});
            QTRY_COMPARE(opened.count(), 1);
            const bool stillReading = w.modelView(0)->hfGgufInfo() == nullptr;
            timer.start();
            w.tabs()->tabCloseRequested(0);
            const qint64 closeMs = timer.elapsed();
            QCOMPARE(w.modelCount(), 0);
            if (stillReading) QVERIFY2(closeMs < 1000, qPrintable(QString::number(closeMs)));  // not waiting for the tokenizer
            w.openPaths({in});  // a second describe, then the window goes while it runs
            QTRY_COMPARE(opened.count(), 2);
        }  // the destructor waits for the describe workers: none outlives the window
    }

    void brokenFileReportsCoreError() {
        QTemporaryDir dir;
        QFile f(dir.filePath("broken.safetensors"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\xff\xff\xff\xff\xff\xff\xff\x7f{not a header");
        f.close();
        MainWindow w;
        w.setErrorDialogs(false);
        QSignalSpy failed(&w, &MainWindow::openFailed);
        w.openPaths({f.fileName()});
        QTRY_COMPARE(failed.count(), 1);
        const QString msg = failed.at(0).at(1).toString();
        QVERIFY2(msg.contains("broken.safetensors"), qPrintable(msg));
        QCOMPARE(w.modelCount(), 0);
    }

    void failedOpensMergeIntoOneReport() {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::WriteOnly)) return QString();
            f.write(bytes);
            return f.fileName();
        };
        // A header declaring 16 bytes of data for tensor "w" with none present: truncated.
        const QByteArray hdr = R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})";
        QByteArray trunc(8, '\0');
        for (int i = 0; i < 8; ++i) trunc[i] = char((hdr.size() >> (8 * i)) & 0xff);
        trunc += hdr;
        const QStringList bad = {write("garbage.safetensors", "\xff\xff\xff\xff\xff\xff\xff\x7f{not a header"),
                                 write("partial.safetensors", trunc), write("empty.gguf", ""),
                                 write("noise.npy", "not numpy at all"), dir.filePath("missing.safetensors")};
        MainWindow w;
        w.setErrorDialogs(false);
        w.show();
        QSignalSpy failed(&w, &MainWindow::openFailed);
        QSignalSpy reports(&w, &MainWindow::openFailuresReported);
        drop(&w, bad);
        QTRY_COMPARE(failed.count(), 5);
        QTRY_COMPARE(reports.count(), 1);
        QTest::qWait(50);
        QCOMPARE(reports.count(), 1);  // one report, not five
        QCOMPARE(reports.at(0).at(0).toStringList().size(), 5);
        const QString report = reports.at(0).at(1).toString();
        QCOMPARE(report, w.lastOpenReport());
        const QStringList lines = report.split('\n');
        QVERIFY2(lines.at(0).startsWith("5 model"), qPrintable(report));
        for (const auto& p : bad) QVERIFY2(report.contains(QFileInfo(p).fileName() + ": "), qPrintable(report));
        // Plain language first, the core's technical message below.
        QVERIFY2(report.contains("partial.safetensors: The file is incomplete"), qPrintable(report));
        const int blank = lines.indexOf(QString());
        QVERIFY(blank > 5);
        for (int i = 1; i < blank; ++i) QVERIFY2(!lines.at(i).contains(dir.path()), qPrintable(lines.at(i)));
        QVERIFY(report.mid(report.indexOf("\n\n")).contains(QFileInfo(bad.at(0)).absoluteFilePath()));
        QCOMPARE(w.modelCount(), 0);
    }

    // The status bar forgets a failed open when the tab changes.
    void statusForgetsFailureOnTabChange() {
        QTemporaryDir dir;
        QFile f(dir.filePath("broken.safetensors"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\xff\xff\xff\xff\xff\xff\xff\x7f{not a header");
        f.close();
        MainWindow w;
        w.setErrorDialogs(false);
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        QSignalSpy reports(&w, &MainWindow::openFailuresReported);
        w.openPaths({sampleFile(), QFileInfo(sampleFile()).absolutePath()});
        QTRY_COMPARE(opened.count(), 2);
        w.openPaths({f.fileName()});
        QTRY_COMPARE(reports.count(), 1);
        QVERIFY2(w.statusText().contains("broken.safetensors"), qPrintable(w.statusText()));
        w.tabs()->setCurrentIndex(w.tabs()->currentIndex() == 0 ? 1 : 0);
        QVERIFY2(!w.statusText().contains("broken.safetensors"), qPrintable(w.statusText()));
    }

    void geometryAndViewStateRemembered() {
        QSettings().clear();
        QSize size(917, 611);
        QList<int> sizes;
        int nameWidth = 0;
        {
            MainWindow w;
            w.setErrorDialogs(false);
            w.show();
            QSignalSpy opened(&w, &MainWindow::modelOpened);
            w.openPaths({sampleFile()});
            QTRY_COMPARE(opened.count(), 1);
            w.resize(size);
            auto* v = w.modelView(0);
            v->splitter()->setSizes({300, 600});
            sizes = v->splitter()->sizes();
            auto* tree = v->treeView();
            tree->header()->resizeSection(0, 321);
            nameWidth = tree->header()->sectionSize(0);
            QVERIFY(w.close());
        }
        MainWindow w2;
        w2.setErrorDialogs(false);
        QCOMPARE(w2.size(), size);
        w2.show();
        QSignalSpy opened(&w2, &MainWindow::modelOpened);
        w2.openPaths({sampleFile()});
        QTRY_COMPARE(opened.count(), 1);
        auto* v = w2.modelView(0);
        auto ratio = [](const QList<int>& l) { return double(l.at(0)) / double(l.at(0) + l.at(1)); };
        QTRY_VERIFY2(std::abs(ratio(v->splitter()->sizes()) - ratio(sizes)) < 0.02,
                     qPrintable(QString("%1 vs %2").arg(ratio(v->splitter()->sizes())).arg(ratio(sizes))));
        QCOMPARE(v->treeView()->header()->sectionSize(0), nameWidth);
        QSettings().clear();
    }

    void middleClickClosesTab() {
        MainWindow w;
        w.setErrorDialogs(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        w.openPaths({sampleFile()});
        QTRY_COMPARE(opened.count(), 1);
        QTabBar* bar = w.tabs()->tabBar();
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(0).center());
        QCOMPARE(w.modelCount(), 1);  // a left click only selects
        QTest::mouseClick(bar, Qt::MiddleButton, {}, bar->tabRect(0).center());
        QCOMPARE(w.modelCount(), 0);
    }

    // Closing a 100 000-tensor tab frees the model on a worker: the UI thread
    // only deletes the widgets (the free took 0.24–0.97 s on it before).
    void closingBigTabFreesOnWorker() {
        QTemporaryDir dir;
        std::vector<amn::test::GenTensor> ts;
        const int n = 100000;
        ts.reserve(n);
        for (int i = 0; i < n; ++i)
            ts.push_back({"model.layers." + std::to_string(i / 10) + ".t" + std::to_string(i % 10) + ".weight", "F32", {1}, 4});
        QVERIFY(amn::test::write_safetensors(dir.filePath("big.safetensors"), ts));
        MainWindow w;
        w.setErrorDialogs(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        w.openPaths({dir.filePath("big.safetensors")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
        QApplication::processEvents();
        std::weak_ptr<const LoadedModel> weak = w.modelView(0)->model();
        // How long the UI thread stalls is measured by test_gui_bench
        // (hundredThousandTensorOpenCloseStall), not asserted here.
        emit w.tabs()->tabCloseRequested(0);
        QCOMPARE(w.modelCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(weak.expired(), 10000);  // freed, on the worker
        QTRY_VERIFY(!w.freeingModels());
    }

    // Single instance: a second start hands its files to the running window.
    void singleInstanceHandsFilesOver() {
        QVERIFY(!SingleInstance::enabled());  // never under offscreen: tests do not reach a real window
        QVERIFY(SingleInstance::defaultServerName().startsWith("anamnesis-"));
        QVERIFY(SingleInstance::defaultServerName().size() > QString("anamnesis-").size());  // includes the user
        const QString name = "anamnesis-test-" + QUuid::createUuid().toString(QUuid::Id128).left(12);
        SingleInstance client(name);
        QVERIFY(!client.sendToRunning({sampleFile()}, 200));  // nobody running yet
        SingleInstance server(name);
        QVERIFY(server.listen());
        MainWindow w;
        w.setErrorDialogs(false);
        QObject::connect(&server, &SingleInstance::pathsReceived, &w, [&w](const QStringList& p) { w.openPaths(p); });
        QSignalSpy received(&server, &SingleInstance::pathsReceived);
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        // The client blocks on its socket, as a second process would: run it on a worker.
        QFuture<bool> sent = QtConcurrent::run([&] { return SingleInstance(name).sendToRunning({sampleFile()}); });
        QTRY_VERIFY(sent.isFinished());
        QVERIFY(sent.result());
        QCOMPARE(received.count(), 1);
        QCOMPARE(received.at(0).at(0).toStringList(), QStringList{QFileInfo(sampleFile()).absoluteFilePath()});
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(w.modelCount(), 1);
    }

    void shortcuts() {
        MainWindow w;
        w.setErrorDialogs(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        w.openPaths({sampleFile()});
        QTRY_COMPARE(opened.count(), 1);
        auto* v = w.currentModelView();
        v->treeView()->setFocus();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(v->filterEdit()->hasFocus());
        QTest::keyClicks(v->filterEdit(), "down_proj");
        v->applyFilter();
        QCOMPARE(v->treeModel()->visibleTensorCount(), 1);
        QTest::keyClick(&w, Qt::Key_W, Qt::ControlModifier);
        QTRY_COMPARE(w.modelCount(), 0);
    }

    void summaryShowsInspection() {
        ModelPtr model = loadModel(sampleFile());
        SummaryView s(model);
        QVERIFY(s.field("format").contains("safetensors"));
        QVERIFY(s.field("schemes").contains(QString::fromStdString(model->inspection.schemes.at(0).description)));
        QVERIFY(s.field("tensors").startsWith("19 stored: 7 quantized, 9 companion"));
        QVERIFY(s.field("size").contains(humanBytes(model->inspection.bf16_bytes)));
        QCOMPARE(s.breakdown()->rows().size(), std::size_t(2));
        quint64 dtypeBytes = 0;
        for (const auto& seg : s.breakdown()->rows()[0].segments) dtypeBytes += seg.bytes;
        quint64 schemeBytes = 0;
        for (const auto& seg : s.breakdown()->rows()[1].segments) schemeBytes += seg.bytes;
        const auto raw = amn::test::read_safetensors_raw(sampleFile().toStdString());
        quint64 fileBytes = 0;
        for (const auto& [n, t] : raw->tensors) fileBytes += t.bytes.size();
        QCOMPARE(dtypeBytes, fileBytes);
        QCOMPARE(schemeBytes, fileBytes);
    }

    void pickleVerdictShown() {
        AMN_REQUIRE_REFERENCE_DIR(ref);
        const QStringList cases = amn::test::reference_cases("pth");
        QVERIFY(!cases.isEmpty());
        QDir in(cases.first() + "/input");
        const QString file = in.filePath(in.entryList({"*.pth"}, QDir::Files).value(0));
        ModelPtr model = loadModel(file);
        QVERIFY(model->pickle);
        const auto scan = amn::scan_pickles(file.toStdString());
        QVERIFY(scan.safe);
        SummaryView s(model);
        QVERIFY2(s.field("pickle").startsWith(QString::fromStdString(scan.summary)), qPrintable(s.field("pickle")));
        MetadataView meta(model);
        QVERIFY(meta.entryCount() >= int(scan.globals.size()));
        // Other formats carry no pickle verdict.
        QVERIFY(!loadModel(sampleFile())->pickle);
    }

    void detailStatsInBackground() {
        ModelPtr model = loadModel(sampleFile());
        ModelView view(model);
        view.resize(1000, 700);
        view.show();
        QSignalSpy ready(view.detail(), &TensorDetail::statsReady);
        // Click one tensor, then another before the first finishes: only the
        // second job's result may be shown.
        QVERIFY(view.selectTensor("model.layers.0.self_attn.q_proj.weight"));
        const quint64 first = view.detail()->currentJob();
        QVERIFY(view.selectTensor("model.layers.0.mlp.down_proj.weight"));
        const quint64 second = view.detail()->currentJob();
        QVERIFY(second != first);
        QTRY_VERIFY(ready.count() >= 1);
        QTest::qWait(100);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready.at(0).at(0).toULongLong(), second);

        int li = -1;
        for (std::size_t i = 0; i < model->plan.tensors.size(); ++i)
            if (model->plan.tensors[i].name == "model.layers.0.mlp.down_proj.weight") li = int(i);
        QCOMPARE(ready.at(0).at(1).toInt(), li);
        const auto expect = amn::compute_value_stats(model->plan.tensors[std::size_t(li)], 64);
        const auto& got = view.detail()->stats();
        QCOMPARE(got.count, expect.count);
        QCOMPARE(got.min, expect.min);
        QCOMPARE(got.max, expect.max);
        QCOMPARE(got.histogram, expect.histogram);
        QCOMPARE(view.detail()->statText("count"), QLocale().toString(qulonglong(96 * 200)));
        QVERIFY(!view.detail()->histogram()->isEmpty());
        // What Lethe took, by re-quantization: the core's figure, shown in the same job.
        const auto r = amn::measure_round_trip(model->plan.tensors[std::size_t(li)]);
        QVERIFY(r.measured);
        QCOMPARE(r.count, std::uint64_t(96 * 200));
        const QString lethe = view.detail()->statText("lethe");
        if (std::isinf(r.sqnr_db)) QVERIFY2(lethe.contains("grid"), qPrintable(lethe));
        else QVERIFY2(lethe.contains(QLocale().toString(r.sqnr_db, 'f', 1) + " dB"), qPrintable(lethe));
    }

    // The Overview is built just after the view is shown; the other tabs
    // when first shown (or asked for), the Tensor tab then showing the
    // current tensor.
    void hiddenTabsBuiltOnFirstShow() {
        ModelPtr model = loadModel(sampleFile());
        ModelView view(model);
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY(view.findChild<SummaryView*>());  // the shown tab: built in the turn after showing
        QCOMPARE(view.summary(), view.findChild<SummaryView*>());
        QVERIFY(view.summary()->isVisible());
        QVERIFY(!view.findChild<TensorDetail*>());
        QVERIFY(!view.findChild<LetheChart*>());
        QVERIFY(!view.findChild<MetadataView*>());
        QVERIFY(view.selectTensor("model.layers.0.mlp.down_proj.weight"));
        QVERIFY(!view.findChild<TensorDetail*>());  // selecting does not build it
        view.showTab(ModelView::TensorTab);
        auto* detail = view.findChild<TensorDetail*>();
        QVERIFY(detail);
        QCOMPARE(view.detail(), detail);
        QVERIFY(detail->isVisible());
        QSignalSpy ready(detail, &TensorDetail::statsReady);
        QTRY_COMPARE(ready.count(), 1);
        int li = -1;
        for (std::size_t i = 0; i < model->plan.tensors.size(); ++i)
            if (model->plan.tensors[i].name == "model.layers.0.mlp.down_proj.weight") li = int(i);
        QCOMPARE(ready.at(0).at(1).toInt(), li);  // the tensor selected before the tab existed
        QCOMPARE(detail->stats().count, amn::compute_value_stats(model->plan.tensors[std::size_t(li)], 64).count);
        view.showTab(ModelView::MetadataTab);
        QVERIFY(view.findChild<MetadataView*>() && view.findChild<MetadataView*>()->isVisible());
        QVERIFY(!view.findChild<LetheChart*>());
        // The Lethe chart's layers, never shown, are still given up for freeing.
        const auto data = view.releaseData();
        QCOMPARE(data->lethe.size(), std::size_t(2));
        QCOMPARE(data->lethe[0].name, QString("model.layers.0"));
        QVERIFY(view.letheChart()->layers().empty());
    }

    void letheChartLayers() {
        ModelPtr model = loadModel(sampleFile());
        ModelView view(model);
        const auto& layers = view.letheChart()->layers();
        QCOMPARE(layers.size(), std::size_t(2));
        QCOMPARE(layers[0].name, QString("model.layers.0"));
        QCOMPARE(layers[0].tensors, 8);
        QCOMPARE(layers[0].quantized, 7);
        QCOMPARE(layers[0].detail.size(), std::size_t(8));
        QCOMPARE(layers[1].bits, 16.0);  // embeddings and norm: BF16

        // Hovering the first bar lists that layer's tensors.
        view.resize(1200, 700);
        view.show();
        view.showTab(ModelView::LetheTab);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* chart = view.letheChart();
        const QPoint pos(chart->width() / 3, chart->height() - 60);  // left half: layer 0's band
        QHelpEvent help(QEvent::ToolTip, pos, chart->mapToGlobal(pos));
        QApplication::sendEvent(chart, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains("model.layers.0") && QToolTip::text().contains("mlp.down_proj.weight"),
                 qPrintable(QToolTip::text()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
