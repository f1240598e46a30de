// SPDX-License-Identifier: MIT OR Apache-2.0
// The metadata browser (widgets/metadataview.cc): arrays shown as element
// type and length, long values in full in the read-only viewer, Copy on any
// row. A real llama.cpp GGUF (shared fixtures gguf-real/) and a GGUF written
// here byte by byte (tests/core/gguf_test_support.hpp, independent of the
// parser) carrying a real multi-line chat template.
#include "../core/gguf_test_support.hpp"
#include "mainwindow.hpp"
#include "translations.hpp"
#include "metadataview.hpp"
#include "widget_test_util.hpp"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMenu>
#include <QTimer>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest/QtTest>

using namespace amn::ui;

namespace {

// Llama 3's chat template (as shipped in its tokenizer_config.json), with a
// non-ASCII character added: multi-line, longer than a row shows.
const std::string kChatTemplate =
    "{% set loop_messages = messages %}{% for message in loop_messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}\n"
    "{# Grüße: the template ends here #}";

QString ggufReal() {
    const std::string shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + QStringLiteral("/gguf-real");
}

}  // namespace

class TestMetadataView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QLocale en(QLocale::English, QLocale::UnitedStates);
        QLocale::setDefault(en);
        QVERIFY(installTranslations(en));  // English plural forms ("1 string", "2 strings")
    }

    void realGgufArrays() {
        const QString dir = ggufReal();
        const QString file = dir + QStringLiteral("/tiny-llama-Q4_K_M.gguf");
        if (dir.isEmpty() || !QFileInfo::exists(file)) {
            if (amn::test::reference_required()) QFAIL("gguf-real fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("gguf-real fixtures missing");
        }
        ModelPtr model = loadModel(file);
        MetadataView view(model);
        // The vocabulary size, from its own key: the length the array rows must show.
        const QTreeWidgetItem* vocab = view.findRow(QStringLiteral("llama.vocab_size"));
        QVERIFY(vocab);
        const int n = vocab->text(1).toInt();
        QVERIFY(n > 100);
        const QTreeWidgetItem* tokens = view.findRow(QStringLiteral("tokenizer.ggml.tokens"));
        QVERIFY(tokens);
        QCOMPARE(tokens->text(1), QStringLiteral("array of %1 strings").arg(n));
        QCOMPARE(view.findRow(QStringLiteral("tokenizer.ggml.scores"))->text(1), QStringLiteral("array of %1 f32 values").arg(n));
        QCOMPARE(view.findRow(QStringLiteral("tokenizer.ggml.token_type"))->text(1), QStringLiteral("array of %1 i32 values").arg(n));
        // Scalars as they are.
        QCOMPARE(view.findRow(QStringLiteral("general.architecture"))->text(1), QStringLiteral("llama"));
        // The whole array in the viewer: valid JSON, every element.
        auto* dialog = view.showValue(view.findRow(QStringLiteral("tokenizer.ggml.tokens")));
        QVERIFY(dialog);
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(dialog->text().toUtf8(), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(doc.array().size(), n);
        QCOMPARE(doc.array().at(0).toString(), QStringLiteral("<unk>"));
        QCOMPARE(dialog->text().count(QLatin1Char('\n')), n + 1);  // one element per line
        dialog->close();
    }

    void longValueViewerAndCopy() {
        amn::test_gguf::GgufBuilder g;
        g.header(0, 3);
        g.kv_str("general.architecture", "llama");
        g.kv_str("tokenizer.chat_template", kChatTemplate);
        g.str("tokenizer.ggml.merges");
        g.num<std::uint32_t>(9);  // array
        g.num<std::uint32_t>(8);  // of strings
        g.num<std::uint64_t>(2);
        g.str("a b");
        g.str("c d");
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("chat.gguf"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(g.b.data()), static_cast<qint64>(g.b.size()));
        f.close();

        ModelPtr model = loadModel(path);
        MetadataView view(model);
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString full = QString::fromStdString(kChatTemplate);
        QTreeWidgetItem* row = view.findRow(QStringLiteral("tokenizer.chat_template"));
        QVERIFY(row);
        // The row shows a cut, one-line form …
        QVERIFY(row->text(1).size() < full.size());
        QVERIFY(!row->text(1).contains(QLatin1Char('\n')));
        QVERIFY(row->text(1).endsWith(QStringLiteral(" …")));
        QCOMPARE(view.findRow(QStringLiteral("tokenizer.ggml.merges"))->text(1), QStringLiteral("array of 2 strings"));
        // … Enter opens the whole value, read-only, monospace.
        view.tree()->setFocus();
        view.tree()->setCurrentItem(row);
        QTest::keyClick(view.tree(), Qt::Key_Return);
        MetadataValueDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = view.findChild<MetadataValueDialog*>()) != nullptr);
        auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("metadataValueText"));
        QVERIFY(text);
        QVERIFY(text->isReadOnly());
        QVERIFY(text->font().fixedPitch() || QFontInfo(text->font()).fixedPitch());
        QCOMPARE(dialog->text(), full);
        // The viewer's Copy button puts the whole value on the clipboard.
        QApplication::clipboard()->clear();
        auto* copy = dialog->findChild<QPushButton*>(QStringLiteral("metadataValueCopy"));
        QVERIFY(copy);
        copy->click();
        QCOMPARE(QApplication::clipboard()->text(), full);
        dialog->close();
        QTRY_VERIFY(!view.findChild<MetadataValueDialog*>());  // deleted on close

        // Ctrl+C on a row copies its value; "Copy name" its key.
        QApplication::clipboard()->clear();
        view.tree()->setFocus();
        view.tree()->setCurrentItem(row);
        QTest::keyClick(view.tree(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), full);
        // The context menu: "Copy name" copies the key, "Show full value…" opens the viewer.
        auto contextAction = [&](QTreeWidgetItem* it, const QString& text) {
            bool found = false;
            QTimer::singleShot(50, this, [&] {
                auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
                if (!menu) return;
                for (QAction* a : menu->actions())
                    if (a->text() == text) {
                        found = true;
                        a->trigger();
                    }
                menu->close();
            });
            emit view.tree()->customContextMenuRequested(view.tree()->visualItemRect(it).center());
            return found;
        };
        QVERIFY(contextAction(row, QStringLiteral("Copy name")));
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("tokenizer.chat_template"));
        QApplication::clipboard()->clear();
        QVERIFY(contextAction(row, QStringLiteral("Copy value")));
        QCOMPARE(QApplication::clipboard()->text(), full);
        QVERIFY(contextAction(row, QStringLiteral("Show full value…")));
        QTRY_VERIFY((dialog = view.findChild<MetadataValueDialog*>()) != nullptr);
        QCOMPARE(dialog->text(), full);
        dialog->close();
        view.copyName(row);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("tokenizer.chat_template"));
        view.copyValue(view.findRow(QStringLiteral("general.architecture")));
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("llama"));
        view.copyValue(view.findRow(QStringLiteral("tokenizer.ggml.merges")));
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("[\n  \"a b\",\n  \"c d\"\n]"));
    }
};

QTEST_MAIN(TestMetadataView)
#include "test_metadata_view.moc"
