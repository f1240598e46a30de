// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard, driven page by page like a user:
//   * converts every FP8 reference fixture end to end, and every other
//     reference case the core converts (GGUF, GPTQ, … as they land; the rest
//     skip); the output equals the reference library's expected.safetensors
//     byte for byte; the sample to F32 equals its reference F32 output;
//   * cancel during a run of a generated 64 MiB FP8 model stops it and leaves
//     no file at all in the output folder;
//   * an existing output blocks the options page unless overwrite is ticked;
//   * a failing run shows the core's message in an error dialog;
//   * closing the main window during a run asks, cancels and waits.
#include "convertwizard.hpp"
#include "mainwindow.hpp"
#include "modelview.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/error.hpp"

#include "test_support.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QSet>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace amn::ui;

namespace {

QString sampleDir() { return QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/tiny-llama-fp8"; }

/// Walk source → target → options → summary → run.
void runWizard(ConvertWizard& w) {
    w.show();
    QCOMPARE(w.currentId(), int(ConvertWizard::SourcePage));
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::TargetPage));
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::OptionsPage));
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::SummaryPage));
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
}

}  // namespace

class TestConvertWizard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        amnInitWidgetResources();
    }

    void convertsReferenceFixtures_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("target");  // -1 = automatic
        const QString sample = QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/";
        QTest::newRow("sample-f32") << sampleDir() << sample + "expected/tiny-llama-fp8-f32.safetensors" << int(amn::DType::F32);
        QTest::newRow("sample-bf16") << sampleDir() << sample + "expected/tiny-llama-fp8-bf16.safetensors" << int(amn::DType::BF16);
        if (amn::test::reference_dir().empty()) {
            if (amn::test::reference_required()) QFAIL("reference fixtures missing and AMN_REQUIRE_REFERENCE=1");
            return;
        }
        for (const QString& c : amn::test::reference_cases("fp8"))
            QTest::newRow(qPrintable(QDir(c).dirName())) << c + "/input/model.safetensors" << c + "/expected.safetensors" << -1;
    }
    void convertsReferenceFixtures() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QFETCH(int, target);
        QTemporaryDir out;
        ConvertWizard w(loadModel(input));
        w.setErrorDialogs(false);
        if (target >= 0) w.setTarget(static_cast<amn::DType>(target));
        const QString path = out.filePath("result.safetensors");
        w.setOutputPath(path);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runWizard(w);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QVERIFY(w.writtenFiles().contains(path));
        const std::string diff = amn::test::compare_safetensors(path.toStdString(), expected.toStdString());
        QVERIFY2(diff.empty(), diff.c_str());
        QCOMPARE(w.progressPermille(), 1000);
    }

    void doneOffersOpeningTheResult() {
        QTemporaryDir out;
        ConvertWizard w(loadModel(sampleDir()));
        w.setErrorDialogs(false);
        const QString path = out.filePath("o.safetensors");
        w.setOutputPath(path);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        QSignalSpy open(&w, &ConvertWizard::openRequested);
        runWizard(w);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QPushButton* button = nullptr;
        for (auto* b : w.currentPage()->findChildren<QPushButton*>())
            if (b->text() == ConvertWizard::tr("&Open the result in anamnesis")) button = b;
        QVERIFY(button);
        button->click();
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), path);
    }

    // Every reference case of every kind the core converts (others skip):
    // the wizard's output equals expected.safetensors. The target is the
    // expected file's dtype when it has one dtype, else automatic.
    void everyReferenceCase_data() {
        AMN_REFERENCE_CASE_ROWS();
    }
    void everyReferenceCase() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        ModelPtr model;
        AMN_LOAD_REFERENCE_CASE(model, input);
        const auto raw = amn::test::read_safetensors_raw(expected.toStdString());
        QVERIFY(raw);
        QSet<QString> dtypes;
        for (const auto& [n, t] : raw->tensors) dtypes.insert(QString::fromStdString(t.dtype));
        QTemporaryDir out;
        ConvertWizard w(model);
        w.setErrorDialogs(false);
        if (dtypes.size() == 1) {
            const QString d = *dtypes.begin();
            if (d == "BF16") w.setTarget(amn::DType::BF16);
            else if (d == "F16") w.setTarget(amn::DType::F16);
            else if (d == "F32") w.setTarget(amn::DType::F32);
        }
        const QString path = out.filePath("result.safetensors");
        w.setOutputPath(path);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runWizard(w);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        const std::string diff = amn::test::compare_safetensors(path.toStdString(), expected.toStdString());
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void cancelLeavesNoFile() {
        QTemporaryDir in, out;
        QVERIFY(amn::test::write_big_fp8_model(in.path(), 8, 2048, 4096));  // 64 MiB FP8 → 128 MiB BF16
        ConvertWizard w(loadModel(in.path()));
        w.setErrorDialogs(false);
        w.setThreads(1);
        w.setChunkBytes(1 << 20);
        const QString path = out.filePath("big-bf16.safetensors");
        w.setOutputPath(path);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runWizard(w);
        QVERIFY(w.isRunning());
        // Cancel as soon as the first progress arrives, i.e. mid-run.
        QTRY_VERIFY_WITH_TIMEOUT(w.progressPermille() > 0 || finished.count() > 0, 60000);
        QVERIFY2(finished.count() == 0, "conversion finished before it could be cancelled");
        QElapsedTimer t;
        t.start();
        w.cancelConversion();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        qInfo("cancelled at %d ‰, stopped after %lld ms", w.progressPermille(), t.elapsed());
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(finished.at(0).at(1).toBool(), true);  // cancelled
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
    }

    void existingOutputNeedsOverwrite() {
        QTemporaryDir out;
        const QString path = out.filePath("exists.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("old");
        f.close();
        ConvertWizard w(loadModel(sampleDir()));
        w.setOutputPath(path);
        w.show();
        w.next();
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::OptionsPage));
        QVERIFY(!w.currentPage()->isComplete());
        w.setOverwrite(true);
        QVERIFY(w.currentPage()->isComplete());
    }

    void errorShowsDialog() {
        QTemporaryDir out;
        // The output folder is a file: the core cannot create the output.
        const QString blocker = out.filePath("not-a-dir");
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        ConvertWizard w(loadModel(sampleDir()));
        w.setOutputPath(blocker + "/out.safetensors");
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runWizard(w);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(finished.at(0).at(1).toBool(), false);
        const QString msg = finished.at(0).at(2).toString();
        QVERIFY(!msg.isEmpty());
        QMessageBox* box = w.findChild<QMessageBox*>();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QCOMPARE(box->informativeText(), msg);
        box->close();
    }

    void closingMainWindowCancelsAndWaits() {
        QTemporaryDir in, out;
        QVERIFY(amn::test::write_big_fp8_model(in.path(), 8, 2048, 4096));
        auto* mw = new MainWindow;
        mw->setErrorDialogs(false);
        QSignalSpy opened(mw, &MainWindow::modelOpened);
        mw->openPaths({in.path()});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        ConvertWizard* w = mw->convertCurrent();
        QVERIFY(w);
        w->setErrorDialogs(false);
        w->setThreads(1);
        w->setChunkBytes(1 << 20);
        const QString path = out.filePath("big-bf16.safetensors");
        w->setOutputPath(path);
        QPointer<ConvertWizard> guard(w);
        runWizard(*w);
        QTRY_VERIFY_WITH_TIMEOUT(w->progressPermille() > 0, 60000);
        int asked = 0;
        mw->setConfirmClose([&] { ++asked; return false; });  // "No": keep running
        QVERIFY(!mw->close());
        QCOMPARE(asked, 1);
        QVERIFY(w->isRunning() || w->progressPermille() == 1000);
        if (!w->isRunning()) QSKIP("conversion finished before the close could be tested");
        mw->setConfirmClose([&] { ++asked; return true; });  // "Yes": cancel and quit
        QVERIFY(mw->close());
        QCOMPARE(asked, 2);
        QVERIFY(guard.isNull() || !guard->isRunning());  // waited: the worker is done
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        delete mw;
    }
};

QTEST_MAIN(TestConvertWizard)
#include "test_convert_wizard.moc"
