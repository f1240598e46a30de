// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard's two converter targets beside the text GGUF, driven page by
// page like a user:
//   * a multimodal Hugging Face folder (tests/core/hf_mmproj_models.py's tiny
//     Gemma 3): "Vision projector (mmproj)" writes the file whose sha256
//     llama.cpp's convert_hf_to_gguf.py --mmproj gave
//     (tests/core/hf_mmproj_reference.json), under the converter's name; the
//     option is hidden for a folder without a vision tower and disabled with
//     the reason when the core says --mmproj cannot;
//   * a PEFT LoRA adapter folder (tests/core/hf_lora_models.py's
//     Llama-2-7b-sql-lora): "GGUF LoRA adapter" over the base's folder
//     writes the file whose sha256 convert_lora_to_gguf.py gave
//     (tests/core/hf_lora_reference.json), under its name; a refused adapter
//     (DoRA) says why instead of offering it;
//   * a cancel leaves nothing;
//   * an adapter folder's Overview row (rank, alpha, scale, targets, base, its GGUF form).

#include "convertwizard.hpp"
#include "mainwindow.hpp"
#include "summaryview.hpp"
#include "modelview.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/lora_to_gguf.hpp"

#include "test_support.hpp"
#include "wizard_walk.hpp"

#include <QCheckBox>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QRadioButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest/QtTest>

using namespace amn::ui;

namespace {

QString script(const QString& name) { return QString::fromStdString(amn::test::source_dir()) + "/tests/core/" + name; }

// One generator run per suite (a few MB, two seconds); empty when it failed.
QString mmModels() {
    static QTemporaryDir dir;
    static const bool made = amn::test::run(QString::fromStdString(amn::test::python()),
                                            {script("hf_mmproj_models.py"), dir.path(), "--shared",
                                             QString::fromStdString(amn::test::shared_fixtures_dir()), "--inputs-only"})
                                 .exit_code == 0;
    return made ? dir.path() : QString();
}
QString loraModels() {
    static QTemporaryDir dir;
    static const bool made = amn::test::run(QString::fromStdString(amn::test::python()),
                                            {script("hf_lora_models.py"), dir.path(), "--shared",
                                             QString::fromStdString(amn::test::shared_fixtures_dir()), "--inputs-only", "--cases",
                                             "Llama-2-7b-sql-lora"})
                                 .exit_code == 0;
    return made ? dir.path() : QString();
}

QJsonObject referenceCase(const QString& file, const QString& c) {
    QFile f(script(file));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("cases").toObject().value(c).toObject();
}

QByteArray sha256(const QString& path) { return QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256).toHex(); }

QString pageText(QWidget* page) {
    QString s;
    for (auto* l : page->findChildren<QLabel*>()) s += l->text() + "\n";
    return s;
}

QStringList entries(const QString& dir) { return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden); }

}  // namespace

#define NEED_FIXTURES(path)                                                                             \
    if ((path).isEmpty()) {                                                                             \
        if (amn::test::shared_fixtures_dir().empty() && !amn::test::reference_required())               \
            QSKIP("shared fixtures missing");                                                           \
        QFAIL("the fixture generator failed");                                                          \
    }

class TestConvertWizardAdapters : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        amnInitWidgetResources();
    }

    // The tiny Gemma 3 folder's vision projector through the wizard: the
    // option appears with the folder's HfGgufInfo, the output is named as the
    // converter names it, the dry run lists the vision tensors, the bytes are
    // the converter's.
    void mmprojMatchesConverter() {
        const QString models = mmModels();
        NEED_FIXTURES(models);
        const QString in = models + "/gemma-3-4b-pt";
        const QJsonObject ref = referenceCase("hf_mmproj_reference.json", "gemma-3-4b-pt");
        QVERIFY(!ref.isEmpty());
        const ModelPtr model = loadModel(in);
        ConvertWizard w(model);
        w.setErrorDialogs(false);
        w.setThreads(2);
        QVERIFY(w.hfInput());
        auto* box = w.findChild<QCheckBox*>("mmproj");
        QVERIFY(box);
        w.setHfMmproj(true);
        QVERIFY(!w.hfMmproj());  // not before the folder is described
        const amn::HfGgufInfo info = amn::describe_hf_gguf(model->catalog);
        QVERIFY(info.has_vision && info.mmproj_error.empty());
        w.setHfGgufInfo(info);  // as the main window hands it over
        w.show();
        w.next();
        QVERIFY(box->isVisible() && box->isEnabled());
        w.setHfOutType("F16");
        QVERIFY(!w.hfMmproj());
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QVERIFY(box->isChecked());
        QVERIFY(w.hfMmproj());
        QCOMPARE(w.mode(), ConvertWizard::Mode::ConvertGguf);
        saveShot(&w, "wizard-mmproj-target.png");
        // The converter's name for the F16 projector, beside the folder.
        QCOMPARE(QFileInfo(w.outputPath()).fileName(), ref.value("mmproj_name").toObject().value("f16").toString());
        QCOMPARE(QFileInfo(w.outputPath()).absolutePath(), QFileInfo(models).absoluteFilePath());
        QTemporaryDir out;
        const QString path = out.filePath("vision.gguf");
        w.setOutputPath(path);
        w.back();
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        walkToSummary(w);
        if (QTest::currentTestFailed()) return;
        saveShot(&w, "wizard-mmproj-summary.png");
        amn::HfGgufOptions o;
        o.outtype = "f16";
        o.mmproj = true;
        const auto core = amn::plan_hf_gguf(model->catalog, o);
        auto* plan = w.planTable()->model();
        QCOMPARE(plan->rowCount(), int(core.size()));
        for (int r = 0; r < plan->rowCount(); ++r) {
            QCOMPARE(plan->index(r, 0).data().toString(), QString::fromStdString(core[r].name));
            QVERIFY2(!plan->index(r, 0).data().toString().startsWith("blk."), "a text tensor in the projector's plan");
        }
        QVERIFY(pageText(w.currentPage()).contains("--mmproj"));
        w.next();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QCOMPARE(w.writtenFiles(), QStringList{path});
        QCOMPARE(sha256(path), ref.value("mmproj").toObject().value("f16").toString().toLatin1());
        QVERIFY2(pageText(w.currentPage()).contains(path), qPrintable(pageText(w.currentPage())));
        saveShot(&w, "wizard-mmproj-done.png");
    }

    // No vision tower: no option; --mmproj impossible: disabled, the reason shown.
    void mmprojOfferedOnlyWhenPossible() {
        ConvertWizard w(loadModel(sampleDir()));
        auto* box = w.findChild<QCheckBox*>("mmproj");
        QVERIFY(box);
        w.setHfGgufInfo(amn::describe_hf_gguf(w.model()->catalog));
        w.show();
        w.next();
        QVERIFY(!box->isVisible());
        w.setHfMmproj(true);
        QVERIFY(!w.hfMmproj());

        amn::HfGgufInfo info = amn::describe_hf_gguf(w.model()->catalog);
        info.has_vision = true;
        info.mmproj_error = "config.json: no vision projector row for XForConditionalGeneration";
        w.setHfGgufInfo(info);
        QVERIFY(box->isVisible());
        QVERIFY(!box->isEnabled());
        QVERIFY(pageText(w.currentPage()).contains(QString::fromStdString(info.mmproj_error)));
        w.setHfMmproj(true);
        QVERIFY(!w.hfMmproj());
    }

    // The adapter to a GGUF LoRA adapter over the base's config.json: the
    // options page waits for the base, names the output as the converter
    // does, the bytes are the converter's.
    void loraMatchesConverter() {
        const QString models = loraModels();
        NEED_FIXTURES(models);
        const QJsonObject ref = referenceCase("hf_lora_reference.json", "Llama-2-7b-sql-lora");
        QVERIFY(!ref.isEmpty());
        const QString in = models + "/Llama-2-7b-sql-lora", base = models + "/bases/" + ref.value("base").toString();
        const ModelPtr model = loadModel(in);
        QVERIFY(model->adapter && model->adapter->gguf_refusal.empty());
        ConvertWizard w(model);
        w.setErrorDialogs(false);
        w.setThreads(2);
        QVERIFY(w.adapterInput());
        w.show();
        w.next();
        auto* radio = w.findChild<QRadioButton*>("loraRadio");
        QVERIFY(radio && radio->isEnabled());
        QTest::mouseClick(radio, Qt::LeftButton, {}, QPoint(8, radio->height() / 2));
        QCOMPARE(w.mode(), ConvertWizard::Mode::ConvertLora);
        QCOMPARE(w.loraOutType(), QString("F32"));  // the converter's default
        w.setLoraOutType("F16");
        QCOMPARE(w.mode(), ConvertWizard::Mode::ConvertLora);
        saveShot(&w, "wizard-lora-target.png");
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::OptionsPage));
        QVERIFY(!w.currentPage()->isComplete());  // no base yet
        w.setLoraBase(in);                         // the adapter holds no config.json
        QVERIFY(!w.currentPage()->isComplete());
        w.setLoraBase(base);
        QVERIFY(w.currentPage()->isComplete());
        saveShot(&w, "wizard-lora-options.png");
        QCOMPARE(QFileInfo(w.outputPath()).fileName(), ref.value("default_name_f16").toString());
        QCOMPARE(QFileInfo(w.outputPath()).absolutePath(), QFileInfo(models).absoluteFilePath());
        QTemporaryDir out;
        const QString path = out.filePath("adapter.gguf");
        w.setOutputPath(path);
        QSignalSpy planned(&w, &ConvertWizard::planFinished);
        QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
        w.next();
        QCOMPARE(w.currentId(), int(ConvertWizard::SummaryPage));
        QTRY_VERIFY_WITH_TIMEOUT(planned.count() > 0, 60000);
        QVERIFY2(w.planReady(), qPrintable(planned.last().at(1).toString()));
        saveShot(&w, "wizard-lora-summary.png");
        amn::LoraGgufOptions o;
        o.base = base.toStdString();
        o.outtype = "f16";
        const auto core = amn::plan_lora_gguf(in.toStdString(), o);
        auto* plan = w.planTable()->model();
        QCOMPARE(plan->rowCount(), int(core.size()));
        for (int r = 0; r < plan->rowCount(); ++r) {
            QCOMPARE(plan->index(r, 0).data().toString(), QString::fromStdString(core[r].name));
            QCOMPARE(plan->index(r, 3).data().toString(), QString::fromStdString(amn::dtype_name(core[r].target)));
        }
        w.next();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
        QCOMPARE(w.currentId(), int(ConvertWizard::DonePage));
        QCOMPARE(w.writtenFiles(), QStringList{path});
        QCOMPARE(sha256(path), ref.value("sha256").toObject().value("f16").toString().toLatin1());
        QVERIFY2(pageText(w.currentPage()).contains(path), qPrintable(pageText(w.currentPage())));
        saveShot(&w, "wizard-lora-done.png");
    }

    // An adapter convert_lora_to_gguf.py refuses (DoRA): the reason instead of the option.
    void loraRefusalShown() {
        const QString models = loraModels();
        NEED_FIXTURES(models);
        QTemporaryDir tmp;
        const QString in = tmp.filePath("dora");
        QVERIFY(QDir().mkpath(in));
        const QString src = models + "/Llama-2-7b-sql-lora";
        QVERIFY(QFile::copy(src + "/adapter_model.safetensors", in + "/adapter_model.safetensors"));
        QFile cf(src + "/adapter_config.json");
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QJsonObject cfg = QJsonDocument::fromJson(cf.readAll()).object();
        cfg["use_dora"] = true;
        QFile of(in + "/adapter_config.json");
        QVERIFY(of.open(QIODevice::WriteOnly));
        of.write(QJsonDocument(cfg).toJson());
        of.close();
        const ModelPtr model = loadModel(in);
        QVERIFY(model->adapter && !model->adapter->gguf_refusal.empty());
        ConvertWizard w(model);
        auto* radio = w.findChild<QRadioButton*>("loraRadio");
        QVERIFY(radio && !radio->isEnabled());
        w.setLoraOutType("F16");
        QCOMPARE(w.mode(), ConvertWizard::Mode::Remember);
        auto* why = w.findChild<QLabel*>("loraRefusal");
        QVERIFY(why);
        QVERIFY2(why->text().contains(QString::fromStdString(model->adapter->gguf_refusal)), qPrintable(why->text()));
    }

    // A cancelled run leaves nothing where the output was to go.
    void cancelLeavesNothing() {
        const QString mm = mmModels(), lora = loraModels();
        NEED_FIXTURES(mm);
        NEED_FIXTURES(lora);
        for (const bool isLora : {false, true}) {
            QTemporaryDir out;
            const QString in = isLora ? lora + "/Llama-2-7b-sql-lora" : mm + "/gemma-3-4b-pt";
            const ModelPtr model = loadModel(in);
            ConvertWizard w(model);
            w.setErrorDialogs(false);
            w.setThreads(1);
            w.setChunkBytes(4 << 10);
            if (isLora) {
                w.setLoraOutType("Q8_0");
                w.setLoraBase(lora + "/bases/Llama-2-7b-hf");
            } else {
                w.setHfGgufInfo(amn::describe_hf_gguf(model->catalog));
                w.setHfOutType("F32");
                w.setHfMmproj(true);
                QVERIFY(w.hfMmproj());
            }
            w.setOutputPath(out.filePath("x.gguf"));
            QSignalSpy finished(&w, &ConvertWizard::conversionFinished);
            walkToSummary(w);
            if (QTest::currentTestFailed()) return;
            // These inputs convert in milliseconds: the run is held in the
            // pool's queue (its one thread busy) until the cancel is in, so
            // the cancel always meets a run that has started nothing.
            QThreadPool* pool = QThreadPool::globalInstance();
            const int threads = pool->maxThreadCount();
            pool->setMaxThreadCount(1);
            QSemaphore gate;
            pool->start([&gate] { gate.acquire(); });
            w.next();
            QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
            QVERIFY(w.isRunning());
            w.setConfirmCancel([] { return true; });
            w.reject();
            gate.release();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
            pool->setMaxThreadCount(threads);
            QCOMPARE(finished.at(0).at(0).toBool(), false);
            QCOMPARE(finished.at(0).at(1).toBool(), true);  // cancelled, not failed
            QCOMPARE(w.currentId(), int(ConvertWizard::RunPage));
            QCOMPARE(entries(out.path()), QStringList());
        }
    }

    // A PEFT adapter folder: the Overview says what it adapts and what it becomes.
    void adapterFolderOverview() {
        QTemporaryDir dir;
        QVERIFY(amn::test::write_safetensors(dir.filePath("adapter_model.safetensors"),
                                             {{"base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight", "F32", {4, 64}, 4 * 64 * 4},
                                              {"base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight", "F32", {64, 4}, 64 * 4 * 4},
                                              {"base_model.model.model.layers.0.input_layernorm.weight", "F32", {64}, 64 * 4}}));
        QFile cfg(dir.filePath("adapter_config.json"));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(R"({"peft_type": "LORA", "r": 4, "lora_alpha": 8, "use_rslora": true, "target_modules": ["q_proj"],
                      "base_model_name_or_path": "some/base"})");
        cfg.close();
        const ModelPtr model = loadModel(dir.path());
        QVERIFY(model->adapter);
        QCOMPARE(model->adapter->adapted_modules, std::size_t(1));
        QCOMPARE(model->adapter->whole_tensors, std::size_t(1));
        QCOMPARE(*model->adapter->scale(), 8.0 / 2.0);  // rsLoRA: alpha/√r
        ModelView view(model);
        view.resize(1000, 700);
        view.show();
        QTRY_VERIFY(view.summary());
        const QString text = view.summary()->field("adapter");
        QVERIFY2(text.startsWith("PEFT LORA, rank 4, alpha 8, scale 4 (alpha/√r: rsLoRA)"), qPrintable(text));
        QVERIFY2(text.contains("q_proj") && text.contains("base model some/base") && text.contains("--base BASE_DIR"), qPrintable(text));
        // Not an adapter: no row.
        QVERIFY(!loadModel(sampleDir())->adapter);
    }
};

QTEST_MAIN(TestConvertWizardAdapters)
#include "test_convert_wizard_adapters.moc"
