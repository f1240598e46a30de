// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Widget tests: walking the conversion wizard page by page as a user does,
// the fixture folders it converts, screenshots on request.
#include "convertwizard.hpp"

#include "test_support.hpp"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QtTest/QtTest>

namespace {

using amn::ui::ConvertWizard;

inline QString sampleDir() { return QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/tiny-llama-fp8"; }
inline QString ggufReal() { return QString::fromStdString(amn::test::shared_fixtures_dir()) + "/gguf-real"; }
inline QString hfInputs() { return QString::fromStdString(amn::test::shared_fixtures_dir()) + "/hf-gguf/inputs"; }

/// Walk source → target → options → summary → run.
inline void runWizard(ConvertWizard& w) {
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

/// Walk to the summary and wait for its dry run to succeed (callers check
/// QTest::currentTestFailed() after it).
inline void walkToSummary(ConvertWizard& w) {
    QSignalSpy planned(&w, &ConvertWizard::planFinished);
    w.show();
    w.next();
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::OptionsPage));
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::SummaryPage));
    QTRY_VERIFY_WITH_TIMEOUT(planned.count() > 0, 60000);
    QVERIFY2(w.planReady(), qPrintable(planned.last().at(1).toString()));
    QVERIFY(w.currentPage()->isComplete());
}

/// Walk to the summary, wait for the dry run, then run.
inline void runForgetWizard(ConvertWizard& w) {
    walkToSummary(w);
    if (QTest::currentTestFailed()) return;
    w.next();
    QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
}

/// With AMN_SCREENSHOT_DIR set, `w` saved there as `name`.
inline void saveShot(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("AMN_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QApplication::processEvents();
    w->grab().save(QDir(dir).filePath(name));
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace
