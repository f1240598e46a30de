// SPDX-License-Identifier: MIT OR Apache-2.0
// GUI benchmarks (numbers printed with qInfo, nothing timed is asserted):
//   * open → tree shown for a 100 000-tensor safetensors header;
//   * open → tree shown for a sharded 8 GiB model (sparse shards: only the
//     headers are ever read);
//   * the longest UI-thread stall (gap between event-loop ticks) while a
//     100 000-tensor model opens (worker load, tab and views built, first
//     paint) and while its tab is closed (freed on a worker);
//   * the longest UI-thread stall while the wizard converts a generated
//     128 MiB FP8 model.
#include "convertwizard.hpp"
#include "mainwindow.hpp"
#include "modelview.hpp"
#include "settingsstore.hpp"
#include "tensortreemodel.hpp"
#include "widget_test_util.hpp"

#include "test_support.hpp"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QHeaderView>
#include <QTreeView>
#include <QtTest/QtTest>

#include <algorithm>
#include <functional>
#include <vector>

using namespace amn::ui;

namespace {

/// Open `path` in a MainWindow and return ms until the tree is on screen.
qint64 openToTree(const QString& path, int* tensors) {
    MainWindow w;
    w.setErrorDialogs(false);
    w.show();
    QSignalSpy opened(&w, &MainWindow::modelOpened);
    QSignalSpy failed(&w, &MainWindow::openFailed);
    QElapsedTimer t;
    t.start();
    w.openPaths({path});
    if (!QTest::qWaitFor([&] { return opened.count() > 0 || failed.count() > 0; }, 120000)) return -1;
    if (failed.count()) {
        qWarning("%s", qPrintable(failed.at(0).at(1).toString()));
        return -1;
    }
    QApplication::processEvents();  // first paint of the tree
    w.currentModelView()->treeView()->viewport()->repaint();
    const qint64 ms = t.elapsed();
    *tensors = w.currentModelView()->treeModel()->visibleTensorCount();
    return ms;
}

/// Longest gap between event-loop ticks while `phase` runs and until
/// `done()` holds (then 300 ms more, to catch deferred work). The wait is a
/// plain QEventLoop: QTest::qWaitFor sleeps 10 ms between its polls, which
/// the meter would count as a stall. Gaps include the 1 ms tick interval.
struct StallMeter {
    qint64 worst = 0;
    std::vector<double> gaps;  ///< every gap, ms (for the median)
    QElapsedTimer gap;
    QTimer tick;
    std::function<void()> onTick;
    StallMeter() {
        // A 1 ms precise timer, not 0 ms: a 0 ms timer spins the UI thread at
        // 100 % and takes a core from the loading worker on a busy machine.
        tick.setTimerType(Qt::PreciseTimer);
        tick.setInterval(1);
        QObject::connect(&tick, &QTimer::timeout, [this] {
            const qint64 ns = gap.nsecsElapsed();
            worst = std::max(worst, ns);
            gaps.push_back(ns / 1e6);
            gap.restart();
            if (onTick) onTick();
        });
    }
    template <class Phase, class Done>
    bool measure(Phase phase, Done done) {
        worst = 0;
        gaps.clear();
        QApplication::processEvents();
        QEventLoop loop;
        bool ok = false;
        QTimer timeout;
        timeout.setSingleShot(true);
        QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
        timeout.start(120000);
        onTick = [&] {
            if (ok || !done()) return;
            ok = true;
            timeout.start(300);  // deferred work after done
        };
        gap.start();
        tick.start();
        phase();
        loop.exec();
        tick.stop();
        onTick = nullptr;
        return ok;
    }
    double median() const {
        if (gaps.empty()) return 0;
        std::vector<double> g = gaps;
        std::nth_element(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(g.size() / 2), g.end());
        return g[g.size() / 2];
    }
};

}  // namespace

class TestGuiBench : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        amnInitWidgetResources();
    }

    void hundredThousandTensorHeader() {
        QTemporaryDir dir;
        std::vector<amn::test::GenTensor> ts;
        for (int i = 0; i < 100000; ++i)
            ts.push_back({"model.layers." + std::to_string(i / 10) + ".t" + std::to_string(i % 10) + ".weight", "F32", {1}, 4});
        QVERIFY(amn::test::write_safetensors(dir.filePath("m.safetensors"), ts));
        int n = 0;
        const qint64 ms = openToTree(dir.filePath("m.safetensors"), &n);
        QVERIFY(ms >= 0);
        QCOMPARE(n, 100000);
        qInfo("BENCH open→tree, 100000-tensor header: %lld ms", ms);
        // The part that runs on the UI thread: building the views.
        ModelPtr model = loadModel(dir.filePath("m.safetensors"));
        QElapsedTimer t;
        t.start();
        ModelView view(model);
        view.resize(1200, 700);
        view.show();
        QApplication::processEvents();
        qInfo("BENCH UI-thread part (views built and shown), 100000 tensors: %lld ms", t.elapsed());
    }

    // "saved sort": a tree header remembered sorted by name (descending), so
    // the opened tree is sorted at once.
    void hundredThousandTensorOpenCloseStall_data() {
        QTest::addColumn<bool>("savedSort");
        QTest::newRow("file order") << false;
        QTest::newRow("saved sort") << true;
    }
    void hundredThousandTensorOpenCloseStall() {
        QFETCH(bool, savedSort);
        const auto forgetSort = [] {
            for (const char* key : {"modelView/treeHeader", "modelView/sortColumn", "modelView/sortOrder"})
                QSettings().remove(QLatin1String(key));
        };
        forgetSort();  // "file order" means no sort remembered from an earlier run either
        if (savedSort) {
            ModelView v(loadModel(QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/tiny-llama-fp8"));
            v.treeView()->sortByColumn(TensorTreeModel::NameColumn, Qt::DescendingOrder);
            v.saveViewState();
            flushSettings();
        }
        QTemporaryDir dir;
        std::vector<amn::test::GenTensor> ts;
        for (int i = 0; i < 100000; ++i)
            ts.push_back({"model.layers." + std::to_string(i / 10) + ".t" + std::to_string(i % 10) + ".weight", "F32", {1}, 4});
        QVERIFY(amn::test::write_safetensors(dir.filePath("m.safetensors"), ts));
        MainWindow w;
        w.setErrorDialogs(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(&w, &MainWindow::modelOpened);
        StallMeter meter;
        QElapsedTimer t;
        t.start();
        QVERIFY(meter.measure([&] { w.openPaths({dir.filePath("m.safetensors")}); }, [&] { return opened.count() > 0; }));
        const qint64 openMs = t.elapsed() - 300;
        const double openStall = meter.worst / 1e6, openMedian = meter.median();
        QCOMPARE(w.currentModelView()->treeModel()->visibleTensorCount(), 100000);
        {  // saved sort: the tree shown sorted as saved (layers 9999 first); else in file order
            QTreeView* tree = w.currentModelView()->treeView();
            const QModelIndex layers = tree->model()->index(0, 0, tree->model()->index(0, 0));
            if (savedSort) {
                QCOMPARE(tree->header()->sortIndicatorSection(), int(TensorTreeModel::NameColumn));
                QCOMPARE(tree->header()->sortIndicatorOrder(), Qt::DescendingOrder);
            }
            QCOMPARE(tree->model()->index(0, 0, layers).data().toString(), savedSort ? QStringLiteral("9999") : QStringLiteral("0"));
        }
        t.restart();
        QVERIFY(meter.measure([&] { emit w.tabs()->tabCloseRequested(0); }, [&] { return w.modelCount() == 0 && !w.freeingModels(); }));
        const qint64 closeMs = t.elapsed() - 300;
        flushSettings();  // the close saved the view state: forget it after it is written
        forgetSort();
        qInfo("BENCH 100000-tensor model (%s): open %lld ms, longest UI-thread stall %.1f ms (median gap %.2f ms); "
              "close %lld ms, longest UI-thread stall %.1f ms (median gap %.2f ms)",
              savedSort ? "saved sort" : "file order", openMs, openStall, openMedian, closeMs, meter.worst / 1e6, meter.median());
    }

    void shardedMultiGigabyte() {
        QTemporaryDir dir;
        const int shards = 4;
        const std::uint64_t rows = 8192, cols = 16384;  // 128 Mi elements = 256 MiB BF16 per tensor
        QString index = "{\"metadata\":{\"total_size\":" + QString::number(std::uint64_t(shards) * 8 * rows * cols * 2) + "},\"weight_map\":{";
        for (int s = 0; s < shards; ++s) {
            const QString name = QString("model-%1-of-%2.safetensors").arg(s + 1, 5, 10, QChar('0')).arg(shards, 5, 10, QChar('0'));
            std::string h = "{";
            std::uint64_t off = 0;
            for (int k = 0; k < 8; ++k) {
                const std::string t = "model.layers." + std::to_string(s * 8 + k) + ".mlp.up_proj.weight";
                if (k) h += ",";
                h += "\"" + t + "\":{\"dtype\":\"BF16\",\"shape\":[" + std::to_string(rows) + "," + std::to_string(cols) +
                     "],\"data_offsets\":[" + std::to_string(off) + "," + std::to_string(off + rows * cols * 2) + "]}";
                off += rows * cols * 2;
                index += QString("%1\"%2\":\"%3\"").arg(s || k ? "," : "", QString::fromStdString(t), name);
            }
            h += "}";
            while ((8 + h.size()) % 8) h += ' ';
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            char len[8];
            for (int i = 0; i < 8; ++i) len[i] = char((h.size() >> (8 * i)) & 0xff);
            f.write(len, 8);
            f.write(h.data(), qint64(h.size()));
            QVERIFY(f.resize(qint64(8 + h.size() + off)));  // sparse: 2 GiB of holes
        }
        index += "}}";
        QFile idx(dir.filePath("model.safetensors.index.json"));
        QVERIFY(idx.open(QIODevice::WriteOnly));
        idx.write(index.toUtf8());
        idx.close();
        int n = 0;
        const qint64 ms = openToTree(dir.path(), &n);
        QVERIFY(ms >= 0);
        QCOMPARE(n, shards * 8);
        qInfo("BENCH open→tree, %d shards, 8 GiB: %lld ms", shards, ms);
    }

    void uiStallDuringConversion_data() {
        QTest::addColumn<int>("threads");
        QTest::newRow("all cores") << 0;
        QTest::newRow("one worker") << 1;
    }
    void uiStallDuringConversion() {
        QFETCH(int, threads);
        QTemporaryDir in, out;
        QVERIFY(amn::test::write_big_fp8_model(in.path(), 8, 4096, 4096));  // 128 MiB FP8 → 256 MiB BF16
        ConvertWizard w(loadModel(in.path()));
        w.setErrorDialogs(false);
        w.setThreads(unsigned(threads));
        w.setOutputPath(out.filePath("o.safetensors"));
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        w.show();
        for (int i = 0; i < 4; ++i) w.next();
        qint64 worst = 0, ticks = 0, worstAt = 0, worstRunning = 0;
        QElapsedTimer gap, total;
        gap.start();
        total.start();
        QTimer tick;
        tick.setInterval(0);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            // Gaps that start and end while the worker runs: pure progress handling.
            if (w.isRunning() && w.progressPermille() > 0) worstRunning = std::max(worstRunning, gap.nsecsElapsed());
            if (gap.nsecsElapsed() > worst) {
                worst = gap.nsecsElapsed();
                worstAt = total.elapsed();
            }
            gap.restart();
            ++ticks;
        });
        tick.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        tick.stop();
        QVERIFY(finished.at(0).at(0).toBool());
        qInfo("BENCH conversion 256 MiB, threads=%d: %lld ms, %lld event-loop ticks, longest UI-thread stall %.1f ms (at %lld ms), "
              "longest while running %.1f ms", threads, total.elapsed(), ticks, worst / 1e6, worstAt, worstRunning / 1e6);
    }
};

QTEST_MAIN(TestGuiBench)
#include "test_gui_bench.moc"
