// SPDX-License-Identifier: MIT OR Apache-2.0
// Tensor detail, round 2:
//   * the Values tab: the preview table's first 64 × 16 cells hold the
//     dequantized values of a real Q4_K_M GGUF (gguf-real/) — equal to
//     gguf-py's dequantization (*.expected-f32.safetensors) and to
//     amn::preview_values — and show them with QLocale;
//   * "Export as .npy…" (exportTo, the dialog's action) writes the whole
//     tensor on a worker; numpy.load (tests/core/npy_check.py) reads F32
//     bit for bit and F16 as numpy's astype(float16); a cancelled export of a
//     128 MiB tensor leaves no file;
//   * stored-tensor names are elided in the middle with the full name in the
//     tooltip, and a narrow panel keeps them elided (screenshot written to
//     $AMN_SCREENSHOT_DIR when set);
//   * the breakdown legend never cuts a bits-per-weight figure.
#include "charts.hpp"
#include "charts_p.hpp"
#include "mainwindow.hpp"
#include "modelview.hpp"
#include "tensordetail.hpp"
#include "valuepreview.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/npy_writer.hpp"

#include "test_support.hpp"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include <cstring>

using namespace amn::ui;

namespace {

QString ggufReal() { return QString::fromStdString(amn::test::shared_fixtures_dir()) + "/gguf-real"; }

int planIndexOf(const LoadedModel& m, const std::string& name) {
    for (std::size_t i = 0; i < m.plan.tensors.size(); ++i)
        if (m.plan.tensors[i].name == name) return int(i);
    return -1;
}

void saveShot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("AMN_SCREENSHOT_DIR");
    if (!dir.isEmpty()) w.grab().save(QDir(dir).filePath(name));
}

}  // namespace

class TestTensorDetail : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        amnInitWidgetResources();
    }

    void previewTableShowsDequantizedValues() {
        AMN_REQUIRE_REFERENCE_DIR(ref);
        ModelPtr model = loadModel(ggufReal() + "/tiny-llama-Q4_K_M.gguf");
        const auto f32 = amn::test::read_safetensors_raw((ggufReal() + "/tiny-llama-Q4_K_M.expected-f32.safetensors").toStdString());
        QVERIFY(f32);
        ValuePreviewPanel panel(model);
        QSignalSpy ready(&panel, &ValuePreviewPanel::previewReady);
        for (const char* name : {"blk.0.attn_q.weight", "blk.1.ffn_down.weight"}) {  // Q4_K, Q6_K
            const int li = planIndexOf(*model, name);
            QVERIFY(li >= 0);
            ready.clear();
            panel.setTensor(li);
            QTRY_COMPARE(ready.count(), 1);
            QCOMPARE(ready.at(0).at(0).toInt(), li);
            auto* t = panel.table();
            QCOMPARE(t->rowCount(), 64);
            QCOMPARE(t->columnCount(), 16);
            const auto& want = f32->tensors.at(name);
            const std::uint64_t C = want.shape.back();
            const auto core = amn::preview_values(model->plan.tensors[std::size_t(li)], 64, 16);
            for (int r = 0; r < 64; ++r)
                for (int c = 0; c < 16; ++c) {
                    float w;
                    std::memcpy(&w, want.bytes.data() + (std::uint64_t(r) * C + std::uint64_t(c)) * 4, 4);
                    const auto* item = t->item(r, c);
                    QVERIFY(item);
                    QCOMPARE(item->data(Qt::UserRole).toDouble(), double(w));
                    QCOMPARE(core.values[std::size_t(r * 16 + c)], w);
                    QCOMPARE(item->text(), QLocale().toString(double(w), 'g', 6));
                }
        }
        panel.setTensor(-1);
        QCOMPARE(panel.table()->rowCount(), 0);
    }

    void exportNpyReadBackByNumpy() {
        AMN_REQUIRE_REFERENCE_DIR(ref);
        ModelPtr model = loadModel(ggufReal() + "/tiny-llama-Q4_K_M.gguf");
        const std::string expected = (ggufReal() + "/tiny-llama-Q4_K_M.expected-f32.safetensors").toStdString();
        QTemporaryDir tmp;
        ValuePreviewPanel panel(model);
        QSignalSpy done(&panel, &ValuePreviewPanel::exportFinished);
        for (auto [name, dtype, mode] : {std::tuple{"output.weight", amn::DType::F32, "f32"}, std::tuple{"blk.1.ffn_down.weight", amn::DType::F16, "f16"}}) {
            panel.setTensor(planIndexOf(*model, name));
            panel.setExportDtype(dtype);
            QCOMPARE(panel.exportDtype(), dtype);
            const QString path = tmp.filePath(QString::fromLatin1(name) + ".npy");
            done.clear();
            panel.exportTo(path);
            QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
            QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(2).toString()));
            const auto r = amn::test::run(QString::fromStdString(amn::test::python()),
                                          {QString::fromStdString(amn::test::source_dir() + "/tests/core/npy_check.py"), path,
                                           QString::fromStdString(expected), QString::fromLatin1(name), QString::fromLatin1(mode)});
            QVERIFY2(r.exit_code == 0 && r.out.startsWith("OK"), qPrintable(r.out + r.err));
        }
        // BF16 is not offered: NumPy has no such dtype.
        panel.setExportDtype(amn::DType::BF16);
        QVERIFY(panel.exportDtype() != amn::DType::BF16);
    }

    void exportCancelLeavesNoFile() {
        QTemporaryDir in, out;
        QVERIFY(amn::test::write_big_fp8_model(in.path(), 1, 8192, 4096));  // 32 Mi values → a 128 MiB .npy
        ModelPtr model = loadModel(in.path());
        const QString path = out.filePath("big.npy");
        {
            ValuePreviewPanel panel(model);
            QSignalSpy done(&panel, &ValuePreviewPanel::exportFinished);
            panel.setTensor(planIndexOf(*model, "model.layers.0.mlp.down_proj.weight"));
            panel.exportTo(path);
            QVERIFY(panel.isExporting());
            panel.cancelExport();
            QCOMPARE(done.count(), 1);
            QVERIFY(!done.at(0).at(0).toBool());
            QVERIFY(!panel.isExporting());
        }  // the destructor waits for the worker
        QCOMPARE(amn::test::list_files(out.path()), QStringList());  // nothing, not even a temporary file
    }

    void storedNamesElidedInTheMiddle() {
        AMN_REQUIRE_REFERENCE_DIR(ref);
        ModelPtr model = loadModel(QString::fromStdString(ref) + "/fp8/exaone_fine_grained/input");
        ModelView view(model);
        view.resize(420, 720);  // a narrow window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.detail()->setAutoStats(false);
        view.showTab(ModelView::TensorTab);
        QSignalSpy ready(view.detail()->preview(), &ValuePreviewPanel::previewReady);
        QVERIFY(view.selectTensor("model.layers.0.mlp.down_proj.weight"));
        QTRY_COMPARE(ready.count(), 1);
        if (auto* tabs = view.detail()->findChild<QTabWidget*>()) tabs->setCurrentWidget(view.detail()->preview());
        auto* list = view.detail()->sources();
        QCOMPARE(list->textElideMode(), Qt::ElideMiddle);
        QCOMPARE(list->topLevelItemCount(), 2);
        const QString full = QStringLiteral("model.layers.0.mlp.down_proj.weight_scale_inv");
        QTreeWidgetItem* scale = nullptr;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            if (list->topLevelItem(i)->text(0) == full) scale = list->topLevelItem(i);
        QVERIFY(scale);
        QCOMPARE(scale->toolTip(0), full);
        QApplication::processEvents();
        QVERIFY(list->isVisible());
        // At this width the column is narrower than the name: the view elides it.
        QVERIFY2(list->columnWidth(0) < list->fontMetrics().horizontalAdvance(full),
                 qPrintable(QString::number(list->columnWidth(0))));
        // The panel itself never grows past the window because of a long name.
        QVERIFY(view.detail()->width() <= view.width());
        saveShot(view, QStringLiteral("detail-narrow.png"));
    }

    void legendKeepsBitsPerWeight() {
        const QFont f;
        const QFontMetrics fm(f);
        const QString text = QStringLiteral("GGUF Q4_K (256-element blocks of 144 bytes, 4.5 bits per weight) — 1,2 MiB (45,0 %)");
        for (int room : {60, 160, 260, 400}) {
            const QString shown = chart_util::elideKeepingBits(fm, text, room);
            QVERIFY2(shown.contains(QStringLiteral("4.5 bits per weight) — 1,2 MiB (45,0 %)")) ||
                         shown.contains(QStringLiteral("4.5 bpw) — 1,2 MiB (45,0 %)")),
                     qPrintable(shown));
            if (fm.horizontalAdvance(text) > room) QVERIFY(shown.contains(QChar(0x2026)));
        }
        QCOMPARE(chart_util::elideKeepingBits(fm, QStringLiteral("BF16 — 2 MiB"), 1000), QStringLiteral("BF16 — 2 MiB"));
        QCOMPARE(chart_util::elideKeepingBits(fm, text, 10000), text);
        // Wide enough for the figure in full and part of the name: both shown.
        const QString mid = chart_util::elideKeepingBits(fm, text, fm.horizontalAdvance(text) - 20);
        QVERIFY2(mid.startsWith(QStringLiteral("GGUF")) && mid.contains(QStringLiteral("4.5 bits per weight")), qPrintable(mid));
        BreakdownChart chart;
        chart.setRows({{QStringLiteral("Stored bytes by scheme"), {{text.section(QStringLiteral(" — "), 0, 0), 1258291, 12}}}});
        chart.resize(300, chart.heightForWidth(300));
        saveShot(chart, QStringLiteral("legend-narrow.png"));
    }
};

QTEST_MAIN(TestTensorDetail)
#include "test_tensor_detail.moc"
