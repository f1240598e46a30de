// SPDX-License-Identifier: MIT OR Apache-2.0
// amn on NumPy .npy/.npz and PyTorch .pth files, as a user runs it:
// `convert --to safetensors` on the shared reference cases, `parse`/`inspect`
// listing arrays and the non-tensor values they skip, `inspect --scan`
// verdicts and exit codes, hostile pickles refused by `remember` with one
// line naming the global and no output left behind, and `--to f16`.
// Inputs come from fixtures/npz_pth/make_npz_pth_fixtures.py (numpy/torch
// write them and the expected outputs at test time).
#include "../core/npz_pth_fixtures.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run_amn;

class TestCliNpzPth : public QObject {
    Q_OBJECT
    amn::test::NpzPthFixtures fx;

    QString in(const QString& name) const { return QString::fromStdString(fx.path(name)); }
    // Names of the tensors of a safetensors file written by the generator.
    QStringList expected_names(const QString& expected) const {
        QStringList n;
        const auto raw = amn::test::read_safetensors_raw(fx.path(expected));
        if (raw)
            for (const auto& [k, v] : raw->tensors) n << QString::fromStdString(k);
        n.sort();
        return n;
    }
    QJsonObject manifest_case(const char* list, const QString& input) const {
        for (const auto& v : fx.list(list))
            if (v.toObject()["input"].toString() == input) return v.toObject();
        return {};
    }

    QTemporaryDir casts_;
    bool casts_made_ = false;
    QString casts_error_;
    QString cast_reference(const QString& input, const QString& to);

private slots:
    void initTestCase() { AMN_GENERATE_NPZ_PTH_FIXTURES(fx); }
    void convertReferenceCases_data();
    void convertReferenceCases();
    void convertGeneratedCases_data();
    void convertGeneratedCases();
    void parseListsArraysAndSkippedValues_data();
    void parseListsArraysAndSkippedValues();
    void inspectNotesSkippedValues();
    void scanSafeExitsZero_data();
    void scanSafeExitsZero();
    void scanHostileExitsOne_data();
    void scanHostileExitsOne();
    void rememberRefusedInputWritesNothing_data();
    void rememberRefusedInputWritesNothing();
    void toHalfConvertsFloatsKeepsInts_data();
    void toHalfConvertsFloatsKeepsInts();
};

// ../shared/fixtures/reference/{npz,pth}/*/input/*: the Gemma Scope slice and
// the AlgZoo checkpoints (both ZIP prefixes) equal expected.safetensors.
void TestCliNpzPth::convertReferenceCases_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    const std::string ref = amn::test::reference_dir();
    if (ref.empty()) return;  // the test body skips or fails
    for (const char* kind : {"npz", "pth"}) {
        for (const QString& c : amn::test::reference_cases(kind)) {
            const auto inputs = QDir(c + "/input").entryList({"*.npz", "*.npy", "*.pth", "*.pt"}, QDir::Files);
            for (const auto& f : inputs)
                QTest::newRow(qPrintable(QString(kind) + "/" + QDir(c).dirName() + "/" + f)) << c + "/input/" + f << c + "/expected.safetensors";
        }
    }
}

void TestCliNpzPth::convertReferenceCases() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const auto r = run_amn({"convert", "--to", "safetensors", input, "-o", tmp.filePath("out.safetensors")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.startsWith("converted "));
    const auto diff = amn::test::compare_safetensors(tmp.filePath("out.safetensors").toStdString(), expected.toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
}

// Every generated conversion case through the CLI (dtypes, big-endian,
// Fortran order, compressed, views, nested, legacy, BF16, wide rows).
void TestCliNpzPth::convertGeneratedCases_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    for (const auto& v : fx.list("convert"))
        QTest::newRow(qPrintable(v.toObject()["input"].toString())) << v.toObject()["input"].toString() << v.toObject()["expected"].toString();
}

void TestCliNpzPth::convertGeneratedCases() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const auto r = run_amn({"convert", "--to", "safetensors", "--quiet", in(input), "-o", tmp.filePath("o.safetensors")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    const auto diff = amn::test::compare_safetensors(tmp.filePath("o.safetensors").toStdString(), fx.path(expected));
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestCliNpzPth::parseListsArraysAndSkippedValues_data() {
    QTest::addColumn<QString>("input");
    for (const char* f : {"dtypes.npz", "fortran.npz", "compressed.npz", "v2.npy", "bf16.npy", "dtypes.pth", "views.pth", "nested.pth",
                          "legacy.pth", "stem_prefix.pth"})
        QTest::newRow(f) << QString(f);
}

// parse lists exactly the arrays numpy/torch wrote (names, dtypes, shapes
// from the expected file), in the table and in --json; nested.pth lists the
// non-tensor values it skips as notes.
void TestCliNpzPth::parseListsArraysAndSkippedValues() {
    QFETCH(QString, input);
    const QJsonObject c = manifest_case("convert", input);
    QVERIFY(!c.isEmpty());
    const auto raw = amn::test::read_safetensors_raw(fx.path(c["expected"].toString()));
    QVERIFY(raw.has_value());

    auto r = run_amn({"parse", "--json", in(input)});
    QCOMPARE(r.exit_code, 0);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o["format"].toString(), input.endsWith(".pth") ? QString("pth") : input.section('.', -1));
    const auto ts = o["tensors"].toArray();
    QCOMPARE(std::size_t(ts.size()), raw->tensors.size());
    for (const auto& tv : ts) {
        const auto t = tv.toObject();
        const std::string name = t["name"].toString().toStdString();
        QVERIFY2(raw->tensors.count(name), name.c_str());
        const auto& want = raw->tensors.at(name);
        QCOMPARE(t["dtype"].toString().toStdString(), want.dtype);
        std::vector<std::uint64_t> shape;
        for (const auto& d : t["shape"].toArray()) shape.push_back(std::uint64_t(d.toInteger()));
        QCOMPARE(shape, want.shape);
        QCOMPARE(t["role"].toString(), QString("passthrough"));
    }
    QStringList notes;
    for (const auto& n : o["notes"].toArray()) notes << n.toString();
    for (const auto& want : c["notes_contain"].toArray()) {
        bool found = false;
        for (const auto& n : notes) found |= n.startsWith(want.toString() + ":") && n.contains("not a tensor, skipped");
        QVERIFY2(found, qPrintable(want.toString() + " not in notes: " + notes.join(" | ")));
    }

    r = run_amn({"parse", in(input)});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.err.isEmpty());
    QVERIFY(r.out.contains(QString(", %1 tensor(s) in 1 file(s)").arg(raw->tensors.size())));
    const auto lines = r.out.split('\n');
    for (const auto& [name, t] : raw->tensors) {
        bool row = false;
        for (const auto& l : lines) row |= l.startsWith(QString::fromStdString(name) + " ") && l.contains(QString::fromStdString(t.dtype));
        QVERIFY2(row, name.c_str());
    }
    for (const auto& want : c["notes_contain"].toArray())
        QVERIFY2(r.out.contains("note: " + want.toString() + ": "), qPrintable(want.toString()));
}

// inspect on a nested checkpoint: counts, and every skipped value noted.
void TestCliNpzPth::inspectNotesSkippedValues() {
    const QJsonObject c = manifest_case("convert", "nested.pth");
    const QStringList names = expected_names(c["expected"].toString());
    auto r = run_amn({"inspect", in("nested.pth")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains(QString("%1 stored: 0 quantized, 0 companion(s), %1 passthrough").arg(names.size())), qPrintable(r.out));
    for (const auto& want : c["notes_contain"].toArray())
        QVERIFY2(r.out.contains(QRegularExpression("note +" + QRegularExpression::escape(want.toString()) + ": .*not a tensor, skipped")),
                 qPrintable(want.toString()));
    r = run_amn({"inspect", "--json", in("nested.pth")});
    QCOMPARE(r.exit_code, 0);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o["format"].toString(), QString("pth"));
    QCOMPARE(o["tensors"].toObject()["passthrough"].toInt(), int(names.size()));
    QVERIFY(o["notes"].toArray().size() >= c["notes_contain"].toArray().size());
    // convert says how many values it left out.
    QTemporaryDir tmp;
    r = run_amn({"convert", "--to", "safetensors", in("nested.pth"), "-o", tmp.filePath("o.safetensors")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains(QRegularExpression("note: \\d+ non-tensor value\\(s\\) not converted")), qPrintable(r.out));
}

void TestCliNpzPth::scanSafeExitsZero_data() {
    QTest::addColumn<QString>("input");
    for (const auto& v : fx.list("scan"))
        if (v.toObject()["safe"].toBool()) QTest::newRow(qPrintable(v.toObject()["input"].toString())) << v.toObject()["input"].toString();
    for (const char* f : {"archive_prefix.pth", "stem_prefix.pth", "bf16_model.pth", "legacy_dtypes.pth"}) QTest::newRow(f) << QString(f);
}

void TestCliNpzPth::scanSafeExitsZero() {
    QFETCH(QString, input);
    auto r = run_amn({"inspect", "--scan", in(input)});
    QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
    QVERIFY(!r.out.contains("REFUSED"));
    QVERIFY2(r.out.contains(QRegularExpression("verdict +(only tensor-rebuild globals: safe|only allowlisted globals: safe|no pickle in this file)")),
             qPrintable(r.out));
    if (input.endsWith(".pth")) QVERIFY(r.out.contains("allowed       torch._utils._rebuild_tensor_v2"));
    r = run_amn({"inspect", "--scan", "--json", in(input)});
    QCOMPARE(r.exit_code, 0);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(o["safe"].toBool());
    for (const auto& g : o["globals"].toArray()) QVERIFY(g.toObject()["allowed"].toBool());
}

void TestCliNpzPth::scanHostileExitsOne_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QStringList>("refused");
    for (const auto& v : fx.list("scan")) {
        const auto o = v.toObject();
        if (o["safe"].toBool()) continue;
        QStringList r;
        for (const auto& x : o["refused"].toArray()) r << x.toString();
        QTest::newRow(qPrintable(o["input"].toString())) << o["input"].toString() << r;
    }
    QTest::newRow("evil_stack_global.pth") << QString("evil_stack_global.pth") << QStringList{"builtins.exec"};
}

// Every refused global is named (the scan does not stop at the first one),
// the verdict line names the first, and the exit code is 1.
void TestCliNpzPth::scanHostileExitsOne() {
    QFETCH(QString, input);
    QFETCH(QStringList, refused);
    auto r = run_amn({"inspect", "--scan", in(input)});
    QCOMPARE(r.exit_code, 1);
    for (const auto& g : refused) QVERIFY2(r.out.contains(QRegularExpression("REFUSED +" + QRegularExpression::escape(g) + " ")), qPrintable(g + "\n" + r.out));
    QVERIFY2(r.out.contains("verdict       references " + refused[0] + ": "), qPrintable(r.out));
    r = run_amn({"inspect", "--scan", "--json", in(input)});
    QCOMPARE(r.exit_code, 1);
    const auto o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(!o["safe"].toBool());
    QStringList got;
    for (const auto& g : o["globals"].toArray())
        if (!g.toObject()["allowed"].toBool()) got << g.toObject()["global"].toString();
    for (const auto& g : refused) QVERIFY2(got.contains(g), qPrintable(g));
}

void TestCliNpzPth::rememberRefusedInputWritesNothing_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("global");
    for (const auto& v : fx.list("refuse")) {
        const auto o = v.toObject();
        QTest::newRow(qPrintable(o["code"].toString() + ": " + o["input"].toString())) << o["input"].toString() << o["contains"].toString();
    }
}

// remember/convert/parse on a hostile pickle: exit 1, one stderr line naming
// module.name, nothing written (not even a temporary or an output folder).
// The same for every other refused input (zip bomb, overlapping entries,
// CRC mismatch, truncated archive, malformed pickle, unknown opcode, object
// arrays, views past their storage …), whose line names the cause.
void TestCliNpzPth::rememberRefusedInputWritesNothing() {
    QFETCH(QString, input);
    QFETCH(QString, global);
    if (QString(QTest::currentDataTag()).startsWith("unsafe-pickle")) QVERIFY(global.contains('.'));
    QTemporaryDir tmp;
    const QList<QStringList> runs = {
        {"remember", in(input), "-o", tmp.filePath("out.safetensors")},
        {"remember", in(input), "-o", tmp.filePath("outdir")},
        {"convert", "--to", "safetensors", in(input), "-o", tmp.filePath("c.safetensors")},
        {"parse", in(input)},
        {"inspect", in(input)},
    };
    for (const auto& args : runs) {
        const auto r = run_amn(args);
        QCOMPARE(r.exit_code, 1);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("amn: error: " + in(input) + ": "), qPrintable(r.err));
        QVERIFY2(r.err.contains(global), qPrintable(r.err));
    }
    QCOMPARE(amn::test::list_files(tmp.path()), QStringList());
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
}

namespace {
const char* const kCastTo[] = {"f16", "bf16"};
const char* const kCastInputs[] = {"dtypes.npz", "dtypes.pth", "legacy_dtypes.pth", "bigendian.npz", "fortran.npz", "views.pth", "bf16_model.pth"};
}  // namespace

void TestCliNpzPth::toHalfConvertsFloatsKeepsInts_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("to");
    for (const char* to : kCastTo)
        for (const char* f : kCastInputs) QTest::newRow(qPrintable(QString(to) + " " + f)) << QString(f) << QString(to);
}

// torch's casts of every row's expected tensors, made by one python run (torch imported once) on first use.
QString TestCliNpzPth::cast_reference(const QString& input, const QString& to) {
    auto path = [&](const QString& f, const QString& t) { return casts_.filePath(t + "-" + f + ".safetensors"); };
    if (!casts_made_) {
        casts_made_ = true;
        QStringList args{QString::fromStdString(amn::test::source_dir()) + "/fixtures/npz_pth/cast_safetensors.py"};
        for (const char* t : kCastTo)
            for (const char* f : kCastInputs) {
                const QJsonObject c = manifest_case("convert", f);
                if (c.isEmpty()) continue;
                args << QString::fromStdString(fx.path(c["expected"].toString())) << path(f, t) << t;
            }
        const auto py = amn::test::run(QString::fromStdString(amn::test::python()), args);
        casts_error_ = py.exit_code == 0 ? QString() : py.err;
    }
    return casts_error_.isEmpty() ? path(input, to) : QString();
}

// --to f16 / bf16: F32/F64/F16/BF16 tensors cast by torch's own `.to()`
// (fixtures/npz_pth/cast_safetensors.py, round to nearest even),
// integer/BOOL/complex tensors kept byte for byte with their dtype.
void TestCliNpzPth::toHalfConvertsFloatsKeepsInts() {
    QFETCH(QString, input);
    QFETCH(QString, to);
    const std::string out_dtype = to == "f16" ? "F16" : "BF16";
    const QJsonObject c = manifest_case("convert", input);
    QVERIFY(!c.isEmpty());
    QTemporaryDir tmp;
    const QString want = cast_reference(input, to);
    QVERIFY2(!want.isEmpty(), qPrintable(casts_error_));
    QVERIFY(QFileInfo::exists(want));
    const auto r = run_amn({"convert", "--to", to, "--quiet", in(input), "-o", tmp.filePath("got.safetensors")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto diff = amn::test::compare_safetensors(tmp.filePath("got.safetensors").toStdString(), want.toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
    // The cast really happened (floats are F16/BF16 now) and integers kept their dtype.
    const auto got = amn::test::read_safetensors_raw(tmp.filePath("got.safetensors").toStdString());
    const auto orig = amn::test::read_safetensors_raw(fx.path(c["expected"].toString()));
    QVERIFY(got && orig);
    int floats = 0, ints = 0;
    for (const auto& [name, t] : orig->tensors) {
        const std::string& d = got->tensors.at(name).dtype;
        if (t.dtype == "F32" || t.dtype == "F64" || t.dtype == "BF16" || t.dtype == "F16") {
            QCOMPARE(d, out_dtype);
            ++floats;
        } else {
            QCOMPARE(d, t.dtype);
            QVERIFY(got->tensors.at(name).bytes == t.bytes);
            ints += t.dtype[0] == 'I' || t.dtype[0] == 'U';
        }
    }
    QVERIFY(floats > 0);
    if (input.startsWith("dtypes") || input.startsWith("legacy_dtypes")) QVERIFY(ints >= 4);
}

QTEST_APPLESS_MAIN(TestCliNpzPth)
#include "test_cli_npz_pth.moc"
