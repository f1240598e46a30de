// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard errors worded for people: a plain first line from the core's
// error code, the core's own message below it.
//   * plan (summary dry run): an already quantized input without
//     “Re-quantize”; a group size that does not divide a row;
//   * run: an output folder that is a file (the output cannot be written),
//     a NaN in a weight to quantize; the run page, errorReport() and the
//     error dialog carry the same first line and the core's message;
//   * German: the first lines come translated.
// The expected first lines are written out here (not taken from the
// widgets); the detail is the core's message as conversionFinished /
// planFinished deliver it, and must name what the core found.
#include "convertwizard.hpp"
#include "mainwindow.hpp"
#include "modelview.hpp"
#include "schemetext.hpp"
#include "summaryview.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/error.hpp"

#include "test_support.hpp"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest/QtTest>

#include <cstdint>
#include <cstring>

using namespace amn::ui;

namespace {

QString sampleDir() { return QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/tiny-llama-fp8"; }

const char* kWeight = "model.layers.0.mlp.down_proj.weight";

/// A BF16 model of one Linear weight [rows, cols] (values k/1024 for element
/// k mod 256) and a norm; `nanAt` ≥ 0 puts a NaN at that element.
void writeBf16Model(const QString& path, std::uint64_t rows, std::uint64_t cols, long long nanAt = -1) {
    amn::test::RawTensor w{"BF16", {rows, cols}, {}};
    for (std::uint64_t k = 0; k < rows * cols; ++k) {
        float v = static_cast<float>(k % 256) / 1024.0f;
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        std::uint16_t b = static_cast<std::uint16_t>(bits >> 16);  // exact: k/1024 has ≤ 8 significant bits
        if (static_cast<long long>(k) == nanAt) b = 0x7FC0;          // BF16 quiet NaN
        w.bytes.push_back(static_cast<std::uint8_t>(b & 0xff));
        w.bytes.push_back(static_cast<std::uint8_t>(b >> 8));
    }
    amn::test::RawTensor norm{"BF16", {cols}, std::vector<std::uint8_t>(2 * cols, 0)};
    amn::test::write_safetensors_raw(path.toStdString(), {{kWeight, w}, {"model.layers.0.input_layernorm.weight", norm}});
}

/// Walk to the summary and wait for the dry run; returns planFinished's arguments.
QList<QVariant> planTo(ConvertWizard& w) {
    QSignalSpy planned(&w, &ConvertWizard::planFinished);
    w.show();
    w.next();
    w.next();
    w.next();
    if (w.currentId() != int(ConvertWizard::SummaryPage)) return {};
    if (!QTest::qWaitFor([&] { return planned.count() > 0; }, 60000)) return {};
    return planned.last();
}

QString summaryText(ConvertWizard& w) {
    QString s;
    for (auto* l : w.page(ConvertWizard::SummaryPage)->findChildren<QLabel*>()) s += l->text();
    return s;
}

/// Run to a failure; returns the core's message from conversionFinished.
QString runToFailure(ConvertWizard& w) {
    QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
    w.next();  // summary → run
    if (!QTest::qWaitFor([&] { return finished.count() > 0; }, 60000)) return {};
    if (finished.at(0).at(0).toBool() || finished.at(0).at(1).toBool()) return {};  // written, or cancelled
    return finished.at(0).at(2).toString();
}

}  // namespace

class TestWizardErrors : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        amnInitWidgetResources();
    }

    // A tensor that cannot be converted: the core's typed error (Inspection::errors),
    // worded by the app in the Overview and on the wizard's first page.
    void unconvertibleTensorWorded() {
        QTemporaryDir dir;
        const QString path = dir.filePath("m.safetensors");
        amn::test::RawTensor w{"F8_E4M3", {2, 2}, {0x38, 0x38, 0x38, 0x38}};  // FP8 without its scale
        amn::test::write_safetensors_raw(path.toStdString(), {{"layer.weight", w}});
        const auto model = loadModel(path);
        const auto& in = model->inspection;
        QCOMPARE(in.errors.size(), std::size_t(1));
        QCOMPARE(in.errors[0].tensor, std::string("layer.weight"));
        QVERIFY(!in.errors[0].error.empty());
        const QString worded = QStringLiteral("layer.weight: ") + tensorErrorText(in.errors[0].error);
        ModelView view(model);
        view.resize(900, 600);
        view.show();
        QTRY_VERIFY(view.summary());
        QCOMPARE(view.summary()->field("errors"), worded);
        ConvertWizard wiz(model);
        QString source;
        for (auto* l : wiz.page(ConvertWizard::SourcePage)->findChildren<QLabel*>()) source += l->text();
        QVERIFY2(source.contains(worded), qPrintable(source));
    }

    void planErrorAlreadyQuantized() {
        QTemporaryDir out;
        ConvertWizard w(loadModel(sampleDir()));  // FP8: quantized
        w.setErrorDialogs(false);
        w.setStScheme("bnb-nf4");
        w.setOutputPath(out.filePath("nf4"));
        const QList<QVariant> plan = planTo(w);
        QCOMPARE(plan.size(), 2);
        QCOMPARE(plan.at(0).toBool(), false);
        const QString core = plan.at(1).toString();
        QVERIFY2(core.contains("already quantized") && core.contains("--requantize"), qPrintable(core));
        const QStringList report = w.planErrorReport().split('\n');
        QCOMPARE(report.size(), 2);
        QCOMPARE(report[0], QString("The model is already quantized: tick “Re-quantize an already quantized input”, or start "
                                    "from the BF16/F16/F32 model."));
        QCOMPARE(report[1], core);
        const QString summary = summaryText(w);
        QVERIFY2(summary.contains(report[0].toHtmlEscaped()) && summary.contains(core.toHtmlEscaped()), qPrintable(summary));
        QVERIFY(!w.currentPage()->isComplete());
        // Ticking it plans again and succeeds: the report is gone.
        QSignalSpy planned(&w, &ConvertWizard::planFinished);
        w.setRequantize(true);
        w.back();
        w.next();
        QTRY_VERIFY_WITH_TIMEOUT(planned.count() > 0, 60000);
        QVERIFY2(w.planReady(), qPrintable(planned.last().at(1).toString()));
        QCOMPARE(w.planErrorReport(), QString());
    }

    void planErrorGroupSize() {
        QTemporaryDir in, out;
        writeBf16Model(in.filePath("model.safetensors"), 16, 200);  // 200 columns: no 128-wide groups
        ConvertWizard w(loadModel(in.filePath("model.safetensors")));
        w.setErrorDialogs(false);
        w.setStScheme("w4a16");  // group size 128 by default
        w.setOutputPath(out.filePath("w4a16"));
        const QList<QVariant> plan = planTo(w);
        QCOMPARE(plan.size(), 2);
        QCOMPARE(plan.at(0).toBool(), false);
        const QString core = plan.at(1).toString();
        QVERIFY2(core.contains("group size 128 does not divide the row of 200 columns") && core.contains(kWeight), qPrintable(core));
        const QStringList report = w.planErrorReport().split('\n');
        QCOMPARE(report.size(), 2);
        QCOMPARE(report[0], QString("The chosen options do not fit tensor %1.").arg(kWeight));
        QCOMPARE(report[1], core);
        QVERIFY(summaryText(w).contains(report[0].toHtmlEscaped()));
        QVERIFY(!w.currentPage()->isComplete());
    }

    void runErrorOutputNotWritable() {
        QTemporaryDir out;
        // The output folder is a file: the core cannot create the output
        // (permissions would not do: the tests may run as root).
        const QString blocker = out.filePath("not-a-dir");
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        ConvertWizard w(loadModel(sampleDir()));
        w.setOutputPath(blocker + "/out.safetensors");
        w.show();
        for (int i = 0; i < 3; ++i) w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::SummaryPage));
        const QString core = runToFailure(w);
        QVERIFY2(core.contains("not-a-dir"), qPrintable(core));
        const QString first = "The output could not be written (is the folder writable, is the disk full?).";
        QCOMPARE(w.errorReport(), first + '\n' + core);
        QCOMPARE(w.lastError(), core);
        QString runPage;
        for (auto* l : w.page(ConvertWizard::RunPage)->findChildren<QLabel*>()) runPage += l->text() + '\n';
        QVERIFY2(runPage.contains(w.errorReport()), qPrintable(runPage));
        QMessageBox* box = w.findChild<QMessageBox*>();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QCOMPARE(box->text(), first);
        QVERIFY2(box->informativeText().endsWith(core), qPrintable(box->informativeText()));
        box->close();
        QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"not-a-dir"});
    }

    void runErrorNanWeight() {
        QTemporaryDir in, out;
        writeBf16Model(in.filePath("model.safetensors"), 64, 256, 3 * 256 + 5);
        ConvertWizard w(loadModel(in.filePath("model.safetensors")));
        w.setErrorDialogs(false);
        w.setThreads(1);
        w.setStScheme("bnb-nf4");
        w.setOutputPath(out.filePath("nf4"));
        const QList<QVariant> plan = planTo(w);  // the plan reads no values: it succeeds
        QCOMPARE(plan.size(), 2);
        QVERIFY2(plan.at(0).toBool(), qPrintable(plan.at(1).toString()));
        const QString core = runToFailure(w);
        QVERIFY2(core.contains("NaN at [3, 5]") && core.contains(kWeight), qPrintable(core));
        const QStringList report = w.errorReport().split('\n');
        QCOMPARE(report.size(), 2);
        QCOMPARE(report[0], QString("Tensor %1 holds something this conversion cannot take.").arg(kWeight));
        QCOMPARE(report[1], core);
        QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
    }

    void germanFirstLines() {
        QTranslator t;
        QVERIFY(t.load(QLocale(QLocale::German, QLocale::Germany), "anamnesis", "_", ":/i18n"));
        QCoreApplication::installTranslator(&t);
        QCOMPARE(ConvertWizard::plainRunError(int(amn::ErrorCode::Io), {}),
                 QString("Die Ausgabe konnte nicht geschrieben werden (ist der Ordner beschreibbar, ist die Platte voll?)."));
        QCOMPARE(ConvertWizard::plainRunError(int(amn::ErrorCode::Unsupported), kWeight),
                 QString("Tensor %1 enthält etwas, das diese Konvertierung nicht annimmt.").arg(kWeight));
        QTemporaryDir out;
        ConvertWizard w(loadModel(sampleDir()));
        w.setErrorDialogs(false);
        w.setStScheme("w4a16");
        w.setOutputPath(out.filePath("w4a16"));
        const QList<QVariant> plan = planTo(w);
        QCOMPARE(plan.size(), 2);
        const QStringList report = w.planErrorReport().split('\n');
        QCOMPARE(report.size(), 2);
        QCOMPARE(report[0], QString("Das Modell ist bereits quantisiert: Aktivieren Sie „Bereits quantisierte Eingabe neu quantisieren“ "
                                    "oder gehen Sie vom BF16/F16/F32-Modell aus."));
        QCOMPARE(report[1], plan.at(1).toString());  // the core's message stays as the core wrote it
        QCoreApplication::removeTranslator(&t);
    }
};

QTEST_MAIN(TestWizardErrors)
#include "test_wizard_errors.moc"
