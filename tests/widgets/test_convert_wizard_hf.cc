// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard on Hugging Face folders, driven page by page like a user
// (the other sources: test_convert_wizard.cc):
//   * a Hugging Face folder → GGUF (convert and forget in one pass) through
//     the wizard equals `amn convert` / `amn forget` byte for byte;
//   * the bitsandbytes folder forgotten to Q4_K_M warns, in German, that its
//     tensors are already quantized, and words the mix rules in German;
//   * the default output name, cancel leaving nothing, and an output
//     proposed inside a Hugging Face cache snapshot moving to Documents.

#include "charts.hpp"
#include "convertwizard.hpp"
#include "mainwindow.hpp"
#include "modelview.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/hf_to_gguf.hpp"

#include "test_support.hpp"
#include "wizard_walk.hpp"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QSet>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QStandardPaths>
#include <QRadioButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest/QtTest>


using namespace amn::ui;


class TestConvertWizardHf : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        amnInitWidgetResources();
    }

    void hfFolderToGgufMatchesCli_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("convert");  // convert_hf_to_gguf's type, else a llama-quantize file type
        QTest::addColumn<QString>("type");
        QTest::newRow("llama3-BF16") << "Meta-Llama-3-8B-Instruct" << true << "BF16";
        QTest::newRow("qwen3-auto") << "Qwen3-0.6B" << true << "auto";
        QTest::newRow("llama3-Q4_K_M") << "Meta-Llama-3-8B-Instruct" << false << "Q4_K_M";
        QTest::newRow("bnb-Q4_K_M") << "Mistral-7B-v0.1-bnb-4bit" << false << "Q4_K_M";
    }
    void hfFolderToGgufMatchesCli() {
        QFETCH(QString, folder);
        QFETCH(bool, convert);
        QFETCH(QString, type);
        const QString in = hfInputs() + "/" + folder;
        if (!QFileInfo::exists(in + "/config.json")) {
            if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("hf-gguf fixtures missing");
        }
        QTemporaryDir out;
        const QString cliPath = out.filePath("cli.gguf"), guiPath = out.filePath("gui.gguf");
        const auto cli = convert ? amn::test::run_amn({"convert", in, "--to", type == "auto" ? QString("gguf") : "gguf:" + type, "-o", cliPath, "--quiet"})
                                 : amn::test::run_amn({"forget", in, "--to", "gguf:" + type, "-o", cliPath, "--quiet"});
        QVERIFY2(cli.exit_code == 0, qPrintable(cli.err));

        const ModelPtr model = loadModel(in);
        ConvertWizard w(model);
        QAbstractItemModelTester planTester(w.planTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester lossTester(w.lossTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.setErrorDialogs(false);
        QVERIFY(w.hfInput());
        if (convert) {
            w.setHfOutType(type);
            QCOMPARE(w.mode(), ConvertWizard::Mode::ConvertGguf);
        } else {
            w.setGgufFileType(type);
            QCOMPARE(w.mode(), ConvertWizard::Mode::ForgetGguf);
        }
        // The output the core proposes (beside the folder, named as llama.cpp names it).
        const QString proposed = QString::fromStdString(amn::default_hf_gguf_output_path(model->catalog, type.toStdString()));
        QCOMPARE(w.outputPath(), QFileInfo(proposed).absoluteFilePath());
        QVERIFY2(!w.outputPath().endsWith("-auto.gguf"), qPrintable(w.outputPath()));
        w.setOutputPath(guiPath);
        if (folder.contains("bnb")) {
            w.setHfGgufInfo(amn::describe_hf_gguf(model->catalog));  // as the main window hands it over
            w.show();
            w.next();
            saveShot(&w, "hf-wizard-target.png");
            w.back();
        }
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        walkToSummary(w);
        if (QTest::currentTestFailed()) return;
        if (folder.contains("bnb")) saveShot(&w, "hf-wizard-dryrun.png");

        // The dry run: every tensor of the GGUF, in file order, with the core's type.
        std::vector<amn::ForgetTensor> core;
        if (convert) {
            amn::HfGgufOptions o;
            o.outtype = type.toStdString();
            core = amn::plan_hf_gguf(model->catalog, o);
        } else {
            amn::GgufForgetOptions o;
            o.ftype = type.toStdString();
            core = amn::plan_gguf_forget(model->catalog, model->plan, o);
        }
        auto* plan = w.planTable()->model();
        QCOMPARE(plan->rowCount(), int(core.size()));
        bool sawGgufName = false;
        for (int r = 0; r < plan->rowCount(); ++r) {
            QCOMPARE(plan->index(r, 0).data().toString(), QString::fromStdString(core[r].name));
            QCOMPARE(plan->index(r, 3).data().toString(), QString::fromStdString(amn::dtype_name(core[r].target)));
            QVERIFY(!plan->index(r, 6).data().toString().isEmpty());  // why
            sawGgufName |= plan->index(r, 0).data().toString().startsWith("blk.0.");
        }
        QVERIFY(sawGgufName);
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));

        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QCOMPARE(w.writtenFiles(), QStringList{guiPath});
        const QByteArray got = readAll(guiPath), want = readAll(cliPath);
        QCOMPARE(got.size(), want.size());
        QVERIFY2(got == want, "wizard output differs from amn's");
        // A file type measured its loss; the converter's types measure none.
        QCOMPARE(w.lossTable()->isVisibleTo(&w), !convert);
        if (!convert) {
            QVERIFY(w.lossTable()->model()->rowCount() > 0);
            QCOMPARE(int(w.lossChart()->bars().size()), w.lossTable()->model()->rowCount());
        }
        QString done;
        for (auto* l : w.currentPage()->findChildren<QLabel*>()) done += l->text();
        QVERIFY2(done.contains(guiPath), qPrintable(done));
        if (folder.contains("bnb")) saveShot(&w, "hf-wizard-done-loss.png");
    }

    // issue 22: a bitsandbytes folder forgotten to GGUF Q4_K_M re-quantizes
    // its 4-bit weights; the core says so as a typed warning (a count), and
    // the done page words it in the UI's language — German here, not the
    // core's English. The summary's tooltips word the typed rule (the mix
    // rule's details) in German too.
    void hfForgetWarningInGerman() {
        const QString in = hfInputs() + "/Mistral-7B-v0.1-bnb-4bit";
        if (!QFileInfo::exists(in + "/config.json")) {
            if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("hf-gguf fixtures missing");
        }
        QTranslator t;
        QVERIFY(t.load("anamnesis_de", ":/i18n"));
        QCoreApplication::installTranslator(&t);
        struct Remove { QTranslator* t; ~Remove() { QCoreApplication::removeTranslator(t); } } remove{&t};
        QTemporaryDir out;
        const ModelPtr model = loadModel(in);
        ConvertWizard w(model);
        w.setErrorDialogs(false);
        w.setThreads(2);
        w.setGgufFileType("Q4_K_M");
        w.setOutputPath(out.filePath("de.gguf"));
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        walkToSummary(w);
        if (QTest::currentTestFailed()) return;
        auto* plan = w.planTable()->model();
        bool sawMix = false;
        for (int r = 0; r < plan->rowCount(); ++r) {
            const QString tip = plan->index(r, 6).data(Qt::ToolTipRole).toString();
            QVERIFY2(!tip.isEmpty(), qPrintable(plan->index(r, 0).data().toString()));
            QVERIFY2(!tip.contains(" mix: ") && !tip.contains(" default q"), qPrintable(tip));  // not the CLI's English
            sawMix |= tip.startsWith("Mischregel von Q4_K_M");
        }
        QVERIFY(sawMix);
        w.next();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QString done;
        for (auto* l : w.currentPage()->findChildren<QLabel*>()) done += l->text();
        QVERIFY2(done.contains(QRegularExpression("Warnung: \\d+ Tensoren sind in der Eingabe bereits quantisiert")), qPrintable(done));
        QVERIFY2(!done.contains("already quantized"), qPrintable(done));
        const QString dir = qEnvironmentVariable("AMN_SCREENSHOT_DIR");
        if (!dir.isEmpty()) w.grab().save(QDir(dir).filePath("hf-wizard-done-de.png"));
    }

    // The output the wizard proposes is the file amn writes without -o (the
    // converter's name, "auto" resolved to the type it writes).
    void hfDefaultOutputIsAmns_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("convert");
        QTest::addColumn<QString>("type");
        QTest::newRow("qwen3-auto") << "Qwen3-0.6B" << true << "auto";
        QTest::newRow("llama2-auto") << "Llama-2-7b-hf" << true << "auto";  // F16 weights: auto → F16
        QTest::newRow("bnb-Q4_K_M") << "Mistral-7B-v0.1-bnb-4bit" << false << "Q4_K_M";
    }
    void hfDefaultOutputIsAmns() {
        QFETCH(QString, folder);
        QFETCH(bool, convert);
        QFETCH(QString, type);
        const QString src = hfInputs() + "/" + folder;
        if (!QFileInfo::exists(src + "/config.json")) QSKIP("hf-gguf fixtures missing");
        QTemporaryDir tmp;
        const QString in = tmp.filePath(folder);
        QVERIFY(QDir().mkpath(in));
        for (const QString& f : QDir(src).entryList(QDir::Files)) QVERIFY(QFile::copy(src + "/" + f, in + "/" + f));
        const auto cli = convert ? amn::test::run_amn({"convert", in, "--to", type == "auto" ? QString("gguf") : "gguf:" + type, "--quiet"})
                                 : amn::test::run_amn({"forget", in, "--to", "gguf:" + type, "--quiet"});
        QVERIFY2(cli.exit_code == 0, qPrintable(cli.err));
        const QStringList written = QDir(tmp.path()).entryList({"*.gguf"}, QDir::Files);
        QCOMPARE(written.size(), 1);
        ConvertWizard w(loadModel(in));
        if (convert) w.setHfOutType(type);
        else w.setGgufFileType(type);
        QCOMPARE(w.outputPath(), QFileInfo(tmp.filePath(written.front())).absoluteFilePath());
    }

    void hfFolderCancelLeavesNothing() {
        const QString in = hfInputs() + "/Meta-Llama-3-8B-Instruct";
        if (!QFileInfo::exists(in + "/config.json")) QSKIP("hf-gguf fixtures missing");
        QTemporaryDir out;
        for (const bool convert : {false, true}) {
            ConvertWizard w(loadModel(in));
            w.setErrorDialogs(false);
            w.setThreads(1);
            w.setChunkBytes(64 << 10);
            if (convert) w.setHfOutType("F32");
            else w.setGgufFileType("Q4_K_M");
            w.setOutputPath(out.filePath(convert ? "x-F32.gguf" : "x-Q4_K_M.gguf"));
            QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
            runForgetWizard(w);
            // At once: the run reads the tokenizer (a second) before any tensor.
            w.setConfirmCancel([] { return true; });
            w.reject();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
            if (finished.at(0).at(0).toBool()) QSKIP("finished before the cancel arrived");
            QCOMPARE(finished.at(0).at(1).toBool(), true);  // cancelled, not failed
            QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
            QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        }
    }

    void outputNeverInHfCacheSnapshot() {
        QTemporaryDir cache;
        const QString snap = cache.filePath("hub/models--acme--tiny-llama/snapshots/0123abcd");
        QVERIFY(QDir().mkpath(snap));
        QVERIFY(QFile::copy(sampleDir() + "/model.safetensors", snap + "/model.safetensors"));
        QVERIFY(QFile::copy(sampleDir() + "/config.json", snap + "/config.json"));
        const ModelPtr m = loadModel(snap);
        QCOMPARE(hfCacheModelId(snap), QString("acme/tiny-llama"));
        QCOMPARE(modelDisplayName(*m), QString("acme/tiny-llama"));
        ConvertWizard w(m);
        const QString out = w.outputPath();
        QVERIFY2(!out.contains("/snapshots/"), qPrintable(out));
        const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QVERIFY2(out.startsWith(docs + "/tiny-llama/"), qPrintable(out));
        w.setStScheme("fp8");
        QVERIFY2(w.outputPath().startsWith(docs + "/tiny-llama/tiny-llama"), qPrintable(w.outputPath()));
    }

};

QTEST_MAIN(TestConvertWizardHf)
#include "test_convert_wizard_hf.moc"
