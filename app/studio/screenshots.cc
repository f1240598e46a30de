// SPDX-License-Identifier: MIT OR Apache-2.0
#include "screenshots.hpp"

#include "convertwizard.hpp"
#include "loadedmodel.hpp"
#include "mainwindow.hpp"
#include "modelview.hpp"
#include "charts.hpp"
#include "tensordetail.hpp"
#include "valuepreview.hpp"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QTabWidget>
#include <QTableWidget>
#include <QFileInfo>
#include <QPalette>
#include <QHash>
#include <QImage>

#include <algorithm>
#include <QPixmap>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>

#include <cstdio>

namespace amn::ui {

namespace {

bool save(QWidget* w, const QString& dir, const QString& name) {
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(name);
    // The 256 most frequent colours as palette keep UI screenshots small and
    // true to colour (other pixels map to the nearest palette entry).
    const QImage rgb = w->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, qint64> counts;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) ++counts[line[x]];
    }
    QList<QPair<qint64, QRgb>> byCount;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) byCount.append({it.value(), it.key()});
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QList<QRgb> table;
    for (qsizetype i = 0; i < std::min<qsizetype>(256, byCount.size()); ++i) table << byCount[i].second;
    const QImage img = rgb.convertToFormat(QImage::Format_Indexed8, table, Qt::ThresholdDither | Qt::AvoidDither);
    const bool ok = img.save(path, "PNG", 0);
    std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2e));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x20));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x29));
    p.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x38));
    p.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Highlight, QColor(0x4e, 0x79, 0xa7));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x38));
    p.setColor(QPalette::ToolTipText, QColor(0xe8, 0xe8, 0xe8));
    return p;
}

// The tensor detail's Values tab shown, once its worker has filled the
// table (20 s at most); false when it stays empty.
bool showValues(ModelView* view) {
    ValuePreviewPanel* preview = view->detail()->preview();
    if (auto* inner = view->detail()->findChild<QTabWidget*>()) inner->setCurrentWidget(preview);
    if (preview->table()->rowCount() == 0) {
        QEventLoop wait;
        QObject::connect(preview, &ValuePreviewPanel::previewReady, &wait, &QEventLoop::quit);
        QTimer::singleShot(20000, &wait, &QEventLoop::quit);
        wait.exec();
    }
    return preview->table()->rowCount() > 0;
}

}  // namespace

int runScreenshots(const QString& dir, const QString& model) {
    QDir().mkpath(dir);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    auto* w = new MainWindow;
    w->setErrorDialogs(false);
    w->resize(1240, 760);
    w->show();
    int rc = 1;
    QTemporaryDir out;
    QObject::connect(w, &MainWindow::openFailed, [&](const QString&, const QString& msg) {
        std::fprintf(stderr, "open failed: %s\n", qPrintable(msg));
        QApplication::exit(1);
    });
    // The converter targets beside the text GGUF, through Convert… on the
    // open model: a multimodal folder's vision projector (--mmproj) as
    // wizard-mmproj-*.png; a PEFT adapter folder's GGUF LoRA adapter, over
    // the base model folder AMN_SCREENSHOT_LORA_BASE names, as
    // wizard-lora-*.png. Other models: nothing more.
    std::function<void(bool)> converterShots = [&, w](bool okSoFar) {
        ModelView* v = w->currentModelView();
        const auto info = v ? v->hfGgufInfo() : nullptr;
        const bool mm = info && info->has_vision && info->mmproj_error.empty();
        const QString base = qEnvironmentVariable("AMN_SCREENSHOT_LORA_BASE");
        const bool lora = v && v->model()->adapter && v->model()->adapter->gguf_refusal.empty() && !base.isEmpty();
        if (!mm && !lora) {
            rc = okSoFar ? 0 : 1;
            QApplication::exit(rc);
            return;
        }
        ConvertWizard* cw = w->convertCurrent();
        cw->setErrorDialogs(false);
        cw->resize(900, 680);
        const QString name = mm ? QStringLiteral("wizard-mmproj") : QStringLiteral("wizard-lora");
        if (mm) {
            cw->setHfOutType(QStringLiteral("F16"));
            cw->setHfMmproj(true);
        } else {
            cw->setLoraOutType(QStringLiteral("F16"));
            cw->setLoraBase(base);
        }
        cw->setOutputPath(QDir(out.path()).filePath(name + QStringLiteral(".gguf")));
        cw->next();
        bool ok = okSoFar && save(cw, dir, name + QStringLiteral("-target.png"));
        cw->next();
        ok = save(cw, dir, name + QStringLiteral("-options.png")) && ok;
        QObject::connect(cw, &ConvertWizard::planFinished, w, [&, cw, ok, name](bool planned, const QString& msg) {
            if (!planned) std::fprintf(stderr, "%s plan failed: %s\n", qPrintable(name), qPrintable(msg));
            QTimer::singleShot(50, w, [&, cw, ok, planned, name] {
                const bool all = ok && planned && save(cw, dir, name + QStringLiteral("-summary.png"));
                QObject::connect(cw, &ConvertWizard::conversionFinished, w, [&, cw, all, name](bool done, bool, const QString& m2) {
                    if (!done) std::fprintf(stderr, "%s failed: %s\n", qPrintable(name), qPrintable(m2));
                    QTimer::singleShot(50, w, [&, cw, all, done, name] {
                        const bool shot = save(cw, dir, name + QStringLiteral("-done.png"));
                        rc = all && done && shot ? 0 : 1;
                        QApplication::exit(rc);
                    });
                });
                cw->next();  // run
            });
        });
        cw->next();  // summary: the dry run starts
    };
    // The forget wizard: AMN_SCREENSHOT_FORGET names a model to forget
    // (tools/screenshots.sh passes tiny-llama-F32.gguf from the shared
    // fixtures); without it, the open model, through the main window's
    // Convert… as a user does it. A GGUF or a Hugging Face folder (AWQ,
    // bitsandbytes … as dropped on the window) goes to GGUF Q4_K_M; any
    // other model is re-quantized to fp8 (per channel: any row length,
    // unlike w4a16's groups of 128).
    std::function<void(bool)> forgetShots = [&, w](bool okSoFar) {
        const QString other = qEnvironmentVariable("AMN_SCREENSHOT_FORGET");
        ConvertWizard* fw = nullptr;
        if (!other.isEmpty() && QFileInfo::exists(other)) {
            ModelPtr m;
            try {
                m = loadModel(other);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "forget model: %s\n", e.what());
                QApplication::exit(1);
                return;
            }
            fw = new ConvertWizard(m, w);
            fw->setWindowFlag(Qt::Window, true);
        } else {
            fw = w->convertCurrent();
        }
        fw->setErrorDialogs(false);
        fw->resize(900, 680);
        const bool toGguf = fw->model()->catalog.format == amn::Format::Gguf || fw->hfInput();
        if (toGguf) {
            fw->setGgufFileType(QStringLiteral("Q4_K_M"));
        } else {
            fw->setStScheme(QStringLiteral("fp8"));
            fw->setRequantize(true);
        }
        fw->setOutputPath(QDir(out.path()).filePath(toGguf ? QStringLiteral("model-Q4_K_M.gguf") : QStringLiteral("model-fp8")));
        fw->show();
        fw->next();
        bool ok = okSoFar && save(fw, dir, QStringLiteral("wizard-forget-target.png"));
        fw->next();
        QObject::connect(fw, &ConvertWizard::planFinished, w, [&, fw, ok](bool planned, const QString& msg) {
            if (!planned) std::fprintf(stderr, "forget plan failed: %s\n", qPrintable(msg));
            QTimer::singleShot(50, w, [&, fw, ok, planned] {
                const bool all = ok && planned && save(fw, dir, QStringLiteral("wizard-forget-summary.png"));
                QObject::connect(fw, &ConvertWizard::conversionFinished, w, [&, fw, all](bool done, bool, const QString& m2) {
                    if (!done) std::fprintf(stderr, "forget failed: %s\n", qPrintable(m2));
                    QTimer::singleShot(50, w, [&, fw, all, done] {
                        const bool shot = save(fw, dir, QStringLiteral("wizard-forget-loss.png"));
                        converterShots(all && done && shot);
                    });
                });
                fw->next();  // run
            });
        });
        fw->next();  // summary: the dry run starts
    };
    QObject::connect(w, &MainWindow::modelOpened, [&, w](ModelView* view) {
        // Pick the largest quantized tensor for the detail view.
        const auto& plan = view->model()->plan;
        int best = -1;
        auto better = [&](std::size_t i) {
            const auto& t = plan.tensors[i];
            if (!t.recipe) return false;
            if (best < 0) return true;
            const auto& b = plan.tensors[static_cast<std::size_t>(best)];
            if (t.quantized != b.quantized) return t.quantized;
            return t.numel() > b.numel();
        };
        for (std::size_t i = 0; i < plan.tensors.size(); ++i)
            if (better(i)) best = static_cast<int>(i);
        if (view->model()->isRemote()) {  // headers only: the views, no statistics, no conversion
            if (best >= 0) view->selectTensor(QString::fromStdString(plan.tensors[static_cast<std::size_t>(best)].name));
            QTimer::singleShot(300, w, [&, w, view] {
                bool ok = true;
                view->showTab(ModelView::OverviewTab);
                ok &= save(w, dir, QStringLiteral("remote-overview.png"));
                view->showTab(ModelView::LetheTab);
                ok &= save(w, dir, QStringLiteral("remote-lethe.png"));
                view->showTab(ModelView::TensorTab);
                ok &= save(w, dir, QStringLiteral("remote-tensor.png"));
                // The Values tab: its rows downloaded by the preview's worker.
                ok &= showValues(view) && save(w, dir, QStringLiteral("remote-values.png"));
                rc = ok ? 0 : 1;
                QApplication::exit(rc);
            });
            return;
        }
        if (best < 0) {  // no tensors (a vocab-only GGUF): the overview and the wizard's Hugging Face folder, run
            QTimer::singleShot(300, w, [&, w, view] {
                bool ok = true;
                view->showTab(ModelView::OverviewTab);
                ok &= save(w, dir, QStringLiteral("main-overview.png"));
                ConvertWizard* wiz = w->convertCurrent();
                wiz->setErrorDialogs(false);
                wiz->resize(760, 560);
                wiz->setOutputPath(QDir(out.path()).filePath(QStringLiteral("tokenizer")));
                wiz->next();
                wiz->setHfLayout(true);
                ok &= save(wiz, dir, QStringLiteral("wizard-target.png"));
                wiz->next();
                wiz->next();
                ok &= save(wiz, dir, QStringLiteral("wizard-summary.png"));
                QObject::connect(wiz, &ConvertWizard::conversionFinished, w, [&, w, wiz, ok](bool done, bool, const QString& msg) {
                    if (!done) std::fprintf(stderr, "conversion failed: %s\n", qPrintable(msg));
                    QTimer::singleShot(50, w, [&, wiz, ok, done] {
                        const bool shot = save(wiz, dir, QStringLiteral("wizard-done.png"));
                        rc = ok && done && shot ? 0 : 1;
                        QApplication::exit(rc);
                    });
                });
                wiz->next();  // run page: starts the conversion
            });
            return;
        }
        QObject::connect(view->detail(), &TensorDetail::statsReady, w, [&, w, view](quint64, int) {
            bool ok = true;
            view->showTab(ModelView::OverviewTab);
            ok &= save(w, dir, QStringLiteral("main-overview.png"));
            view->showTab(ModelView::LetheTab);
            ok &= save(w, dir, QStringLiteral("main-lethe.png"));
            view->showTab(ModelView::MetadataTab);
            ok &= save(w, dir, QStringLiteral("main-metadata.png"));
            view->showTab(ModelView::TensorTab);
            ok &= save(w, dir, QStringLiteral("main-tensor.png"));
            view->detail()->histogram()->setLogScale(true);
            ok &= save(view->detail()->histogram(), dir, QStringLiteral("histogram-log.png"));
            view->detail()->histogram()->setLogScale(false);
            // the Values tab: the preview table once its worker has filled it
            ok &= showValues(view) && save(w, dir, QStringLiteral("main-values.png"));
            if (auto* inner = view->detail()->findChild<QTabWidget*>()) inner->setCurrentIndex(0);
            const QPalette light = QApplication::palette();
            QApplication::setPalette(darkPalette());
            view->showTab(ModelView::LetheTab);
            ok &= save(w, dir, QStringLiteral("main-lethe-dark.png"));
            QApplication::setPalette(light);
            view->showTab(ModelView::OverviewTab);

            ConvertWizard* wiz = w->convertCurrent();
            wiz->setErrorDialogs(false);
            wiz->resize(760, 560);
            wiz->setOutputPath(QDir(out.path()).filePath(QStringLiteral("model-bf16")));
            wiz->next();
            ok &= save(wiz, dir, QStringLiteral("wizard-target.png"));
            wiz->next();
            ok &= save(wiz, dir, QStringLiteral("wizard-options.png"));
            wiz->next();
            ok &= save(wiz, dir, QStringLiteral("wizard-summary.png"));
            QObject::connect(wiz, &ConvertWizard::conversionFinished, w, [&, wiz, ok](bool done, bool, const QString& msg) {
                bool all = ok && done;
                if (!done) std::fprintf(stderr, "conversion failed: %s\n", qPrintable(msg));
                QTimer::singleShot(50, w, [&, wiz, all] {
                    const bool shot = save(wiz, dir, QStringLiteral("wizard-done.png"));
                    wiz->close();
                    forgetShots(all && shot);
                });
            });
            wiz->next();  // run page: starts the conversion
        });
        if (best >= 0) view->selectTensor(QString::fromStdString(plan.tensors[static_cast<std::size_t>(best)].name));
    });
    w->openPaths({model});
    QTimer::singleShot(60000, [] {
        std::fprintf(stderr, "screenshots timed out\n");
        QApplication::exit(3);
    });
    const int code = QApplication::exec();
    delete w;
    return code == 0 ? rc : code;
}

}  // namespace amn::ui
