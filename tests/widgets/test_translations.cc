// SPDX-License-Identifier: MIT OR Apache-2.0
// German translation:
//   * translations/anamnesis_de.ts has no unfinished, vanished or obsolete
//     entry and every message (and every plural form) is translated;
//   * it covers every tr() string in the sources: lupdate run now over
//     widgets/ and app/studio/ finds no (context, source) missing from it;
//   * the compiled catalogue is embedded and loads (":/i18n"), and the UI
//     comes up in German (plural forms included);
//   * the English catalogue supplies the English plural forms;
//   * core facts the UI shows are worded here, in German too: scheme
//     descriptions from the typed parameters, "not measurable" reasons;
//   * installTranslations() loads Qt's own German (qtbase_de): a standard
//     Cancel button reads "Abbrechen".
#include "charts_p.hpp"
#include "loadedmodel.hpp"
#include "mainwindow.hpp"
#include "translations.hpp"
#include "schemetext.hpp"
#include "tensordetail.hpp"

#include "test_support.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QLibraryInfo>
#include <QPushButton>
#include <QMenuBar>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest/QtTest>

namespace {

struct TsMessage {
    QString context, source, type;
    QStringList translations;  // one, or the numerus forms
};

QList<TsMessage> readTs(const QString& path, QString* error) {
    QList<TsMessage> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = "cannot open " + path;
        return out;
    }
    QXmlStreamReader x(&f);
    QString context;
    TsMessage cur;
    bool inMessage = false;
    while (!x.atEnd()) {
        x.readNext();
        if (x.isStartElement()) {
            const auto n = x.name();
            if (n == QLatin1String("context")) context.clear();
            else if (n == QLatin1String("name") && !inMessage) context = x.readElementText();
            else if (n == QLatin1String("message")) {
                inMessage = true;
                cur = TsMessage{};
                cur.context = context;
            } else if (n == QLatin1String("source") && inMessage) cur.source = x.readElementText();
            else if (n == QLatin1String("translation") && inMessage) {
                cur.type = x.attributes().value(QLatin1String("type")).toString();
                // Plural forms come as <numerusform> children.
                QString text;
                bool numerus = false;
                while (!(x.isEndElement() && x.name() == QLatin1String("translation")) && !x.atEnd()) {
                    x.readNext();
                    if (x.isStartElement() && x.name() == QLatin1String("numerusform")) {
                        numerus = true;
                        cur.translations << x.readElementText();
                    } else if (x.isCharacters()) {
                        text += x.text();
                    }
                }
                if (!numerus) cur.translations << text;
            }
        } else if (x.isEndElement() && x.name() == QLatin1String("message")) {
            inMessage = false;
            out << cur;
        }
    }
    if (x.hasError()) *error = x.errorString();
    return out;
}

}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { amnInitWidgetResources(); }

    void tsComplete() {
        QString err;
        const auto msgs = readTs(QStringLiteral(AMN_TS_DIR "/anamnesis_de.ts"), &err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QVERIFY(msgs.size() > 100);
        for (const auto& m : msgs) {
            const QString where = m.context + ": " + m.source;
            QVERIFY2(m.type.isEmpty(), qPrintable(m.type + " — " + where));
            QVERIFY2(!m.translations.isEmpty(), qPrintable(where));
            for (const auto& t : m.translations) QVERIFY2(!t.trimmed().isEmpty(), qPrintable("empty translation — " + where));
        }
    }

    void tsCoversSources() {
        QTemporaryDir dir;
        const QString fresh = dir.filePath("fresh_de.ts");
        const QString src = QString::fromStdString(amn::test::source_dir());
        QProcess p;
        p.start(QStringLiteral(AMN_LUPDATE), {"-silent", "-locations", "none", "-extensions", "cc,hpp",
                                              src + "/widgets", src + "/app/studio", "-ts", fresh});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QString err;
        const auto now = readTs(fresh, &err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        const auto committed = readTs(QStringLiteral(AMN_TS_DIR "/anamnesis_de.ts"), &err);
        QSet<QString> have;
        for (const auto& m : committed) have.insert(m.context + QChar(0) + m.source);
        QStringList missing;
        for (const auto& m : now)
            if (!have.contains(m.context + QChar(0) + m.source)) missing << m.context + ": " + m.source;
        QVERIFY2(missing.isEmpty(), qPrintable("not in anamnesis_de.ts:\n" + missing.join('\n')));
        QVERIFY(now.size() > 100);
    }

    void catalogueLoads() {
        QTranslator t;
        QVERIFY(t.load(QLocale(QLocale::German, QLocale::Germany), "anamnesis", "_", ":/i18n"));
        QVERIFY(!t.isEmpty());
        QCoreApplication::installTranslator(&t);
        amn::ui::MainWindow w;
        QStringList menus;
        for (auto* a : w.menuBar()->actions()) menus << a->text();
        QCOMPARE(menus.first(), QString("&Datei"));
        QCOMPARE(QCoreApplication::translate("amn::ui::TensorTreeModel", "Parameters"), QString("Parameter"));
        QCOMPARE(QCoreApplication::translate("amn::ui::ModelView", "%Ln tensor(s)", nullptr, 1), QString("1 Tensor"));
        QCOMPARE(QCoreApplication::translate("amn::ui::ModelView", "%Ln tensor(s)", nullptr, 3), QString("3 Tensoren"));
        QCoreApplication::removeTranslator(&t);
    }

    void germanPluralsAndNumbers() {
        QTranslator t;
        QVERIFY(t.load(QLocale(QLocale::German, QLocale::Germany), "anamnesis", "_", ":/i18n"));
        QCoreApplication::installTranslator(&t);
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(QCoreApplication::translate("amn::ui::SummaryView", "%Ln companion(s)", nullptr, 1), QString("1 Begleittensor"));
        QCOMPARE(QCoreApplication::translate("amn::ui::SummaryView", "%Ln output tensor(s)", nullptr, 1), QString("1 Ausgabetensor"));
        QCOMPARE(QCoreApplication::translate("amn::ui::SummaryView", "%Ln output tensor(s)", nullptr, 7), QString("7 Ausgabetensoren"));
        QCOMPARE(QCoreApplication::translate("amn::ui::MainWindow", "%Ln model(s) could not be opened.", nullptr, 5),
                 QString("5 Modelle konnten nicht geöffnet werden."));
        QCOMPARE(QCoreApplication::translate("amn::ui::ModelView", "%Ln tensor(s)", nullptr, 123456), QString("123.456 Tensoren"));
        // Sizes and counts: decimal comma, digit grouping.
        QCOMPARE(amn::ui::humanBytes(1536ull * 1024 * 1024), QString("1,5 GiB"));
        QVERIFY(amn::ui::humanBytes(512).startsWith("512 "));
        QCOMPARE(amn::ui::humanCount(1500), QString("1,50 K"));
        QCOMPARE(QLocale().toString(qulonglong(1234567)), QString("1.234.567"));
        // No "not measurable: not measurable yet for …": worded once, from the typed state.
        amn::LogicalTensor q4k;
        q4k.quantized = true;
        q4k.params = amn::GgmlParams{amn::DType::Q4_K};
        const QString un = amn::ui::unmeasurableText(q4k);
        QCOMPARE(un, QString("für gguf-Q4_K noch nicht messbar"));
        QCOMPARE(un.count("messbar"), 1);
        // The core's reason codes, worded in German (not the core's English text).
        amn::RoundTripError r;
        r.unavailable = "not measurable for gguf-IQ2_XXS: ggml quantizes it only with an importance matrix, which the file does not carry";
        r.reason = amn::RoundTripUnavailable::NeedsImatrix;
        r.scheme = "gguf-IQ2_XXS";
        QCOMPARE(amn::ui::unmeasurableText(r, q4k),
                 QString("für gguf-IQ2_XXS nicht messbar: ggml quantisiert diesen Typ nur mit einer Importance-Matrix, die die Datei nicht enthält"));
        QCOMPARE(QCoreApplication::translate("amn::ui::ValuePreviewPanel", "Export as .&npy…"), QString("Als .&npy exportieren…"));
        // Scheme descriptions from the typed parameters, in German, numbers in the locale.
        QCOMPARE(amn::ui::schemeText(amn::QuantParams{amn::GgmlParams{amn::DType::Q4_K}}),
                 QString("GGUF Q4_K (Blöcke zu 256 Elementen in 144 Bytes, 4,5 Bit pro Gewicht)"));
        amn::Fp8Params fp8;
        fp8.granularity = amn::Fp8Granularity::Block;
        fp8.block_rows = fp8.block_cols = 128;
        fp8.scale_dtype = amn::DType::BF16;
        QCOMPARE(amn::ui::schemeText(amn::QuantParams{fp8}), QString("FP8 (E4M3), 128×128-Blöcke, BF16-Skalen"));
        amn::AffineParams gptq;
        gptq.group_size = 128;
        gptq.groups = 32;
        gptq.symmetric = true;
        QCOMPARE(amn::ui::schemeText(amn::QuantParams{gptq}), QString("GPTQ 4 Bit, Gruppe 128, symmetrisch, F16-Skalen"));
        // The forget table's "why", from the typed rule; its tooltip with the rule's details.
        amn::ForgetTensor ft;
        ft.source = amn::DType::F32;
        ft.target = amn::DType::Q5_0;
        amn::GgufTypeReason& why = ft.gguf_reason.emplace();
        why.rule = amn::TypeRule::FileTypeDefault;
        why.ftype = 15;  // Q4_K_M
        why.chosen = amn::DType::Q4_K;
        why.fallback = true;
        why.row = 1536;
        why.block = 256;
        QCOMPARE(amn::ui::forgetReasonText(ft, "Q4_K_M"),
                 QString("Standard von Q4_K_M; Ersatztyp: die Zeile passt nicht in die Blöcke des Typs"));
        QCOMPARE(amn::ui::ggufReasonDetail(ft),
                 QString("Standard von Q4_K_M: Q4_K; Ersatztyp: eine Zeile von 1.536 ist kein Vielfaches von 256 (Q4_K) → Q5_0"));
        why.rule = amn::TypeRule::FileTypeMix;
        why.mix = amn::MixRule::FfnDownLayer;
        why.layer = 3;
        why.n_layers = 32;
        why.fallback = false;
        ft.target = amn::DType::Q6_K;
        why.chosen = amn::DType::Q6_K;
        QCOMPARE(amn::ui::ggufReasonDetail(ft), QString("Mischregel von Q4_K_M, ffn_down der Schicht 3 von 32: Q6_K"));
        why.rule = amn::TypeRule::Kept;
        why.kept = amn::KeptReason::OneD;
        ft.target = amn::DType::F32;
        QCOMPARE(amn::ui::forgetReasonText(ft, "Q4_K_M"), QString("nicht quantisiert, bleibt F32"));
        QCOMPARE(amn::ui::forgetReasonDetail(ft, {}), QString("1-D-Tensor, bleibt F32"));
        // A GGUF run's warnings, typed in the core, worded here.
        amn::GgufWarning gw;
        gw.kind = amn::GgufWarningKind::Requantized;
        gw.count = 14;
        QCOMPARE(amn::ui::ggufWarningText(gw),
                 QString("14 Tensoren sind in der Eingabe bereits quantisiert: erneutes Quantisieren häuft ihre Fehler an "
                         "(beginnen Sie nach Möglichkeit mit F32/F16/BF16)"));
        gw.kind = amn::GgufWarningKind::NonFinite;
        gw.count = 1;
        gw.tensor = "blk.0.ffn_up.weight";
        QCOMPARE(amn::ui::ggufWarningText(gw), QString("blk.0.ffn_up.weight: 1 Wert ist nicht endlich (NaN/±inf)"));
        amn::LogicalTensor plain;
        plain.quantized = false;
        QVERIFY(!amn::ui::unmeasurableText(plain).contains("not"));
        QLocale::setDefault(before);
        QCoreApplication::removeTranslator(&t);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCOMPARE(amn::ui::humanBytes(1536ull * 1024 * 1024), QString("1.5 GiB"));
        QCOMPARE(amn::ui::unmeasurableText(q4k), QString("not measurable yet for gguf-Q4_K"));
        // English wording matches the core's describe() for the same parameters.
        for (const amn::QuantParams& p : {amn::QuantParams{amn::GgmlParams{amn::DType::Q4_K}}, amn::QuantParams{fp8},
                                          amn::QuantParams{gptq}, amn::QuantParams{amn::Bnb4Params{}},
                                          amn::QuantParams{amn::Int8Params{}}, amn::QuantParams{amn::Fp4Params{}}})
            QCOMPARE(amn::ui::schemeText(p), QString::fromStdString(amn::describe(p)));
        QLocale::setDefault(before);
    }

    void everyNoticeKindInGerman() {
        // issue 31 item 5: every kind of the core's notices and tensor errors
        // is worded and translated (a new kind without German fails here);
        // only the converter's own log lines stay as it wrote them.
        auto sample = [](int k) {
            amn::Notice n;
            n.kind = static_cast<amn::NoticeKind>(k);
            n.file = "config.json";
            n.tensor = "w";
            n.key = "bits";
            n.count = 2;
            n.detail = "x";
            n.found = "fp8";
            return n;
        };
        QTranslator t;
        QVERIFY(t.load(QLocale(QLocale::German, QLocale::Germany), "anamnesis", "_", ":/i18n"));
        QStringList german, germanKinds;
        QCoreApplication::installTranslator(&t);
        for (int k = 0; k < amn::kNoticeKinds; ++k) german << amn::ui::noticeText(sample(k));
        for (int k = 1; k <= static_cast<int>(amn::TensorErrorKind::UnknownScheme); ++k)
            germanKinds << amn::ui::tensorErrorKindText(static_cast<amn::TensorErrorKind>(k));
        amn::TensorError e{amn::TensorErrorKind::MissingCompanion, "GPTQ", "missing model.layers.0.mlp.up_proj.scales"};
        QCOMPARE(amn::ui::tensorErrorText(e), QString("Nicht konvertierbar: ein Tensor, den es braucht (Skalen, Nullpunkte …), "
                                                      "fehlt — GPTQ: missing model.layers.0.mlp.up_proj.scales"));
        amn::Notice dup = sample(static_cast<int>(amn::NoticeKind::DuplicateKey));
        QCOMPARE(amn::ui::noticeText(dup), QString("config.json: Schlüssel „bits“ kommt 2-mal vor; der letzte gilt, wie Pythons "
                                                   "json (und damit transformers) ihn liest"));
        QCoreApplication::removeTranslator(&t);
        for (int k = 0; k < amn::kNoticeKinds; ++k) {
            const QString english = amn::ui::noticeText(sample(k));
            QVERIFY2(!english.isEmpty(), qPrintable(QString("NoticeKind %1 has no words").arg(k)));
            if (static_cast<amn::NoticeKind>(k) == amn::NoticeKind::ConverterLog) continue;
            QVERIFY2(german[k] != english, qPrintable(QString("NoticeKind %1 has no German: %2").arg(k).arg(english)));
        }
        for (int k = 1; k <= static_cast<int>(amn::TensorErrorKind::UnknownScheme); ++k) {
            const QString english = amn::ui::tensorErrorKindText(static_cast<amn::TensorErrorKind>(k));
            QVERIFY2(!english.isEmpty(), qPrintable(QString("TensorErrorKind %1 has no words").arg(k)));
            QVERIFY2(germanKinds[k - 1] != english, qPrintable(QString("TensorErrorKind %1 has no German").arg(k)));
        }
    }

    void germanLegendKeepsBitsPerWeight() {
        // The legend's elision keeps the bits-per-weight figure whole in the
        // interface's language too ("4,5 Bit pro Gewicht", short "4,5 Bit/Gew.").
        QTranslator t;
        QVERIFY(t.load(QLocale(QLocale::German, QLocale::Germany), "anamnesis", "_", ":/i18n"));
        QCoreApplication::installTranslator(&t);
        const QFontMetrics fm{QFont()};
        const QString text = QStringLiteral("GGUF Q4_K (Blöcke zu 256 Elementen à 144 Byte, 4,5 Bit pro Gewicht) — 1,2 MiB (45,0 %)");
        for (int room : {60, 160, 260, 400}) {
            const QString shown = amn::ui::chart_util::elideKeepingBits(fm, text, room);
            QVERIFY2(shown.contains(QStringLiteral("4,5 Bit pro Gewicht) — 1,2 MiB (45,0 %)")) ||
                         shown.contains(QStringLiteral("4,5 Bit/Gew.) — 1,2 MiB (45,0 %)")),
                     qPrintable(shown));
        }
        const QString scheme = QStringLiteral("AWQ GEMM 4 Bit, Gruppe 128, Nullpunkte, F16-Skalen — 3,0 MiB (12,0 %)");
        const QString shown = amn::ui::chart_util::elideKeepingBits(fm, scheme, fm.horizontalAdvance(scheme) / 2);
        QVERIFY2(shown.contains(QStringLiteral("4 Bit, Gruppe 128")), qPrintable(shown));
        QCoreApplication::removeTranslator(&t);
    }

    void englishPlurals() {
        QTranslator t;
        QVERIFY(t.load("anamnesis_en", ":/i18n"));
        QCoreApplication::installTranslator(&t);
        QCOMPARE(QCoreApplication::translate("amn::ui::ModelView", "%Ln tensor(s)", nullptr, 1), QString("1 tensor"));
        QCOMPARE(QCoreApplication::translate("amn::ui::ModelView", "%Ln tensor(s)", nullptr, 2), QString("2 tensors"));
        QCOMPARE(QCoreApplication::translate("amn::ui::TensorDetail", "%Ln value(s) overflow to ±Inf", nullptr, 1),
                 QString("1 value overflows to ±Inf"));
        QCoreApplication::removeTranslator(&t);
    }

    // Last: installs translators on the application for good.
    void qtOwnGerman() {
        const QString dir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
        QVERIFY2(QFileInfo::exists(dir + "/qtbase_de.qm"),
                 qPrintable("no qtbase_de.qm in " + dir + " (qt6-translations-l10n, packaging/debian-packages.txt)"));
        QVERIFY(amn::ui::installTranslations(QLocale(QLocale::German, QLocale::Germany)));  // what --lang de does
        QDialogButtonBox box(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        QCOMPARE(box.button(QDialogButtonBox::Cancel)->text().remove(QLatin1Char('&')), QString("Abbrechen"));
        QCOMPARE(QCoreApplication::translate("amn::ui::ModelView", "%Ln tensor(s)", nullptr, 3), QString("3 Tensoren"));
        QVERIFY(amn::ui::translationDirs().endsWith(":/i18n"));
    }
};

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
