// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard, driven page by page like a user:
//   * converts every FP8 reference fixture end to end, and every other
//     reference case the core converts (GGUF, GPTQ, … as they land; the rest
//     skip); the output equals the reference library's expected.safetensors
//     byte for byte; the sample to F32 equals its reference F32 output;
//   * cancel during a run of a generated 64 MiB FP8 model stops it and leaves
//     no file at all in the output folder;
//   * an existing output blocks the options page unless overwrite is ticked;
//   * (a failing run's dialog and wording: test_wizard_errors.cc; Hugging
//     Face folders: test_convert_wizard_hf.cc)
//   * closing the main window during a run asks, cancels and waits;
//   * forget to GGUF: tiny-llama-F32.gguf → Q4_K_M through the wizard equals
//     llama-quantize's tiny-llama-Q4_K_M.gguf byte for byte, the summary
//     lists every tensor's type first, the done page the measured loss;
//   * forget to a safetensors scheme runs and reports loss; cancelling a
//     forget run leaves nothing;
//   * GGUF → Hugging Face folder: tiny-llama-Q4_K_M.gguf through the wizard
//     equals `amn remember --layout hf` byte for byte (every file), the
//     summary shows the target names, Done the folder;
//   * the Target page of a GGUF (the longest: layout choices) lays out at
//     the wizard's default size without clipping a label, in English and
//     German (AMN_SCREENSHOT_DIR=dir saves both pages).
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

    // The summary names the remember target chosen, not the forget scheme
    // the (unselected) safetensors-scheme box holds.
    void rememberSummaryNamesItsTarget() {
        ConvertWizard w(loadModel(sampleDir()));
        w.setErrorDialogs(false);
        QTemporaryDir out;
        w.setOutputPath(out.filePath("o.safetensors"));
        w.show();
        auto summaryText = [&] {
            QString text;
            for (auto* l : w.currentPage()->findChildren<QLabel*>()) text += l->text();
            return text;
        };
        w.next();
        w.next();
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::SummaryPage));
        QVERIFY2(summaryText().contains(ConvertWizard::tr("safetensors, dequantized tensors as BF16, others unchanged")), qPrintable(summaryText()));
        w.back();
        w.back();
        w.setTarget(amn::DType::F16);
        w.next();
        w.next();
        const QString f16 = summaryText();
        QVERIFY2(f16.contains(ConvertWizard::tr("%1 safetensors").arg("F16")), qPrintable(f16));
        QVERIFY2(!f16.contains(QStringLiteral("safetensors, bnb")) && !f16.contains(QStringLiteral("blocksize")), qPrintable(f16));
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
        // Cancel while running. (Waiting for the first progress report first
        // raced on a quiet machine: the 128 MiB run ends within ~60 ms of it.)
        QTest::qWait(5);
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

    void forgetToGgufMatchesLlamaQuantize() {
        const QString in = ggufReal() + "/tiny-llama-F32.gguf";
        const QString expected = ggufReal() + "/tiny-llama-Q4_K_M.gguf";
        if (!QFileInfo::exists(in) || !QFileInfo::exists(expected)) {
            if (amn::test::reference_required()) QFAIL("gguf-real fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("gguf-real fixtures missing");
        }
        QTemporaryDir out;
        ConvertWizard w(loadModel(in));
        w.setErrorDialogs(false);
        w.setGgufFileType("Q4_K_M");
        QCOMPARE(w.mode(), ConvertWizard::Mode::ForgetGguf);
        const QString path = out.filePath("tiny-llama-Q4_K_M.gguf");
        w.setOutputPath(path);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runForgetWizard(w);
        // The summary listed every tensor with its target type before the run.
        const int planned = w.planTable()->model()->rowCount();
        QVERIFY(planned > 0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QCOMPARE(w.writtenFiles(), QStringList{path});
        const QByteArray got = readAll(path), want = readAll(expected);
        QCOMPARE(got.size(), want.size());
        QVERIFY2(got == want, "wizard output differs from llama-quantize's file");
        // The measured loss: one row per re-encoded tensor, sortable, charted.
        auto* loss = w.lossTable()->model();
        QVERIFY(loss->rowCount() > 0);
        QCOMPARE(int(w.lossChart()->bars().size()), loss->rowCount());
        w.lossTable()->sortByColumn(5, Qt::AscendingOrder);  // SQNR, worst first
        const double first = loss->index(0, 5).data(Qt::UserRole).toDouble();
        const double last = loss->index(loss->rowCount() - 1, 5).data(Qt::UserRole).toDouble();
        QVERIFY(first <= last);
    }

    void forgetNeedsImatrixForIq2() {
        const QString in = ggufReal() + "/tiny-llama-F32.gguf";
        if (!QFileInfo::exists(in)) QSKIP("gguf-real fixtures missing");
        QTemporaryDir out;
        ConvertWizard w(loadModel(in));
        w.setGgufFileType("IQ2_XXS");
        w.setOutputPath(out.filePath("x.gguf"));
        w.show();
        w.next();
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::OptionsPage));
        QVERIFY(!w.currentPage()->isComplete());  // no importance matrix chosen
    }

    void forgetToSafetensorsScheme() {
        QTemporaryDir in, out;
        QVERIFY(amn::test::write_safetensors(in.filePath("model.safetensors"),
                                             {{"model.layers.0.mlp.down_proj.weight", "BF16", {64, 256}, 64 * 256 * 2},
                                              {"model.layers.0.input_layernorm.weight", "BF16", {256}, 256 * 2}}));
        ConvertWizard w(loadModel(in.filePath("model.safetensors")));
        w.setErrorDialogs(false);
        w.setStScheme("w4a16");
        QCOMPARE(w.mode(), ConvertWizard::Mode::ForgetSafetensors);
        w.setOutputPath(out.filePath("w4a16"));
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runForgetWizard(w);
        QCOMPARE(w.planTable()->model()->rowCount(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.lossTable()->model()->rowCount(), 1);  // the norm is kept
        for (const QString& f : w.writtenFiles()) {
            QVERIFY(QFileInfo(f).isAbsolute());
            QVERIFY(QFileInfo::exists(f));
        }
    }

    void cancelForgetLeavesNothing() {
        QTemporaryDir in, out;
        QVERIFY(amn::test::write_safetensors(in.filePath("model.safetensors"),
                                             {{"model.layers.0.mlp.down_proj.weight", "F32", {4096, 4096}, 4096ull * 4096 * 4},
                                              {"model.layers.1.mlp.down_proj.weight", "F32", {4096, 4096}, 4096ull * 4096 * 4}}));
        ConvertWizard w(loadModel(in.filePath("model.safetensors")));
        w.setErrorDialogs(false);
        w.setThreads(1);
        w.setStScheme("bnb-nf4");
        const QString path = out.filePath("nf4");
        w.setOutputPath(path);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        runForgetWizard(w);
        QVERIFY(w.isRunning() || finished.count() == 1);
        int asked = 0;
        w.setConfirmCancel([&] { return ++asked > 1; });  // first "Keep running", then "Cancel"
        w.reject();  // the wizard's one Cancel button: asks; "Keep running"
        w.reject();  // asks again; "Cancel": stops the run, stays open
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        if (finished.at(0).at(0).toBool()) QSKIP("finished before the cancel arrived");
        QCOMPARE(asked, 2);
        QCOMPARE(finished.at(0).at(1).toBool(), true);
        QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
        QVERIFY(w.isVisible());
        QVERIFY(w.button(QWizard::BackButton)->isEnabled());  // Back after a cancel
        QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
    }

    void ggufToHuggingFaceFolderMatchesCli() {
        const QString in = ggufReal() + "/tiny-llama-Q4_K_M.gguf";
        if (!QFileInfo::exists(in)) {
            if (amn::test::reference_required()) QFAIL("gguf-real fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("gguf-real fixtures not found");
        }
        QTemporaryDir out;
        const QString cliDir = out.filePath("cli"), guiDir = out.filePath("gui");
        const auto cli = amn::test::run_amn({"remember", in, "--layout", "hf", "-o", cliDir, "--quiet"});
        QVERIFY2(cli.exit_code == 0, qPrintable(cli.err));
        ConvertWizard w(loadModel(in));
        w.setErrorDialogs(false);
        w.setTarget(amn::DType::BF16);  // a remember target, then the layout
        w.setMode(ConvertWizard::Mode::Remember);
        w.setTarget(std::nullopt);
        w.setHfLayout(true);
        QVERIFY(w.hfLayout());
        QVERIFY2(!w.outputPath().endsWith(".safetensors"), qPrintable(w.outputPath()));  // a folder is proposed
        w.setOutputPath(guiDir);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        w.show();
        w.next();
        w.next();
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::SummaryPage));
        QString summary;
        for (auto* l : w.currentPage()->findChildren<QLabel*>()) summary += l->text();
        QVERIFY2(summary.contains("model.layers.0.self_attn.q_proj.weight") && summary.contains("lm_head.weight"), qPrintable(summary));
        QVERIFY(w.currentPage()->isComplete());
        w.next();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QString done;
        for (auto* l : w.currentPage()->findChildren<QLabel*>()) done += l->text();
        QVERIFY2(done.contains(QDir::toNativeSeparators(QFileInfo(guiDir).absoluteFilePath())), qPrintable(done));
        const QStringList files = amn::test::list_files(cliDir);
        QVERIFY(files.contains("config.json"));
        // issue 24: the tokenizer comes along (test_cli_tokback checks what is in it)
        for (const char* f : {"tokenizer.json", "tokenizer.model", "tokenizer_config.json", "special_tokens_map.json",
                              "generation_config.json"})
            QVERIFY2(files.contains(f), f);
        QCOMPARE(amn::test::list_files(guiDir), files);
        for (const QString& f : files)
            QVERIFY2(readAll(cliDir + "/" + f) == readAll(guiDir + "/" + f), qPrintable(f));
    }

    void targetPageDoesNotClip_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<bool>("hf");  // a Hugging Face folder (the GGUF group), else a GGUF
        QTest::newRow("en") << QStringLiteral("en") << false;
        QTest::newRow("de") << QStringLiteral("de") << false;
        QTest::newRow("en-hf") << QStringLiteral("en") << true;
        QTest::newRow("de-hf") << QStringLiteral("de") << true;
    }

    // issue 25: at its default size the Target page cut "Hugging Face folder
    // (config.json + safetensors, transformers names)" at the right edge.
    // Every label and button of the page must fit its page: a text that
    // cannot wrap (buttons, unwrapped labels) at its full width, a wrapped
    // label at the height its width needs.
    void targetPageDoesNotClip() {
        QFETCH(QString, language);
        QFETCH(bool, hf);
        // Llama 2: its GGUF facts carry a note line too (the longest).
        const QString in = hf ? hfInputs() + "/Llama-2-7b-hf" : ggufReal() + "/tiny-llama-F32.gguf";
        if (!QFileInfo::exists(in)) {
            if (amn::test::reference_required()) QFAIL("fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("fixtures not found");
        }
        QTranslator t;
        QVERIFY(t.load("anamnesis_" + language, ":/i18n"));
        QCoreApplication::installTranslator(&t);
        struct Remove { QTranslator* t; ~Remove() { QCoreApplication::removeTranslator(t); } } remove{&t};
        const ModelPtr model = loadModel(in);
        ConvertWizard w(model);
        QCOMPARE(w.hfInput(), hf);
        if (hf) w.setHfGgufInfo(amn::describe_hf_gguf(model->catalog));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::TargetPage));
        QApplication::processEvents();
        QWidget* page = w.currentPage();
        const QString dir = qEnvironmentVariable("AMN_SCREENSHOT_DIR");
        if (!dir.isEmpty()) w.grab().save(QDir(dir).filePath("wizard-target-" + language + (hf ? "-hf" : "") + ".png"));
        const QRect inWizard(page->mapTo(&w, QPoint(0, 0)), page->size());
        QVERIFY2(inWizard.right() < w.width(), "the page is wider than the wizard");
        int checked = 0;
        for (QWidget* c : page->findChildren<QWidget*>()) {
            auto* label = qobject_cast<QLabel*>(c);
            auto* button = qobject_cast<QAbstractButton*>(c);
            if ((!label && !button) || !c->isVisibleTo(page)) continue;
            const QString text = label ? label->text() : button->text();
            if (text.isEmpty()) continue;
            ++checked;
            const QRect r(c->mapTo(page, QPoint(0, 0)), c->size());
            QVERIFY2(r.left() >= 0 && r.right() < page->width(),
                     qPrintable(QStringLiteral("'%1' spans x %2..%3, the page is %4 wide").arg(text).arg(r.left()).arg(r.right()).arg(page->width())));
            if (label && label->wordWrap()) {
                QVERIFY2(c->height() >= label->heightForWidth(c->width()),
                         qPrintable(QStringLiteral("'%1' is %2 px high, needs %3").arg(text).arg(c->height()).arg(label->heightForWidth(c->width()))));
            } else {
                QVERIFY2(c->width() >= c->sizeHint().width(),
                         qPrintable(QStringLiteral("'%1' is %2 px wide, its text needs %3").arg(text).arg(c->width()).arg(c->sizeHint().width())));
            }
        }
        QVERIFY(checked >= 8);  // 4 targets, 2 layouts or 2 GGUF choices, 2 forget choices, the notes
        QVERIFY(w.findChild<QRadioButton*>() != nullptr);
    }

    void doneAcceleratorsUnique() {
        ConvertWizard w(loadModel(sampleDir()));
        QSet<QChar> keys;
        QStringList texts;
        for (auto* b : w.page(ConvertWizard::DonePage)->findChildren<QPushButton*>()) texts << b->text();
        texts << w.buttonText(QWizard::FinishButton);
        for (const QString& t : texts) {
            const int i = t.indexOf('&');
            if (i < 0 || i + 1 >= t.size()) continue;
            const QChar k = t.at(i + 1).toLower();
            QVERIFY2(!keys.contains(k), qPrintable(texts.join(" | ")));
            keys.insert(k);
        }
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
        // Close at once: waiting for the first progress report (~40 ms) left
        // too little of a fast run, and the cancel sometimes came after the
        // output was already committed.
        QVERIFY(w->isRunning());
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
