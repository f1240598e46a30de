// SPDX-License-Identifier: MIT OR Apache-2.0
// PyTorch checkpoints: every storage dtype, views and shared storages,
// nested checkpoints, both ZIP prefixes, the legacy format, big-endian
// byteorder, BF16 models — compared with torch's own t.contiguous() bytes —
// hostile pickles refused, the scan verdicts, and the pickle machine.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/pth.hpp"
#include "source/formats/pickle.hpp"
#include "npz_pth_fixtures.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace amn;
using amn::test::error_of;
namespace pk = amn::detail::pickle;

namespace {

QString convert_and_compare(const std::string& input, const std::string& expected, std::optional<DType> to = {}) {
    QTemporaryDir out;
    const Catalog cat = open_model(input);
    const Plan plan = make_plan(cat);
    if (plan.error_count() != 0) return "plan has errors";
    RememberOptions opt;
    opt.to = to;
    opt.output = (out.path() + "/out.safetensors").toStdString();
    remember_to_safetensors(cat, plan, opt);
    return QString::fromStdString(amn::test::compare_safetensors(opt.output, expected));
}

std::string meta(const Catalog& c, const std::string& key) {
    const MetaValue* v = c.meta(key);
    return v ? v->as_string() : std::string();
}

const pk::Value* get(const pk::Value* dict, const std::string& key) {
    for (const auto& [k, v] : dict->dict)
        if (k->kind == pk::Value::Kind::Str && k->s == key) return v;
    return nullptr;
}

std::vector<std::uint8_t> bytes_of(std::initializer_list<int> b) {
    std::vector<std::uint8_t> v;
    for (int x : b) v.push_back(std::uint8_t(x));
    return v;
}

}  // namespace

class TestPth : public QObject {
    Q_OBJECT
    amn::test::NpzPthFixtures fx;

private slots:
    void initTestCase() { AMN_GENERATE_NPZ_PTH_FIXTURES(fx); }
    void convert_data();
    void convert();
    void convertViewsToF32();
    void nestedNamesAndNotes();
    void sharedStoragesAndViews();
    void prefixesAndLegacyMetadata();
    void refused_data();
    void refused();
    void scan_data();
    void scan();
    void pickleProtocols_data();
    void pickleProtocols();
    void pickleLimits();
    void pickleScanDoesNotStop();
    void reference_data();
    void reference();
};

void TestPth::convert_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    for (const auto& v : fx.list("convert")) {
        const auto o = v.toObject();
        if (o["format"] == "pth") QTest::newRow(qPrintable(o["input"].toString())) << o["input"].toString() << o["expected"].toString();
    }
}

// Lossless conversion equals torch's t.contiguous() bytes, names and dtypes.
void TestPth::convert() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(open_model(fx.path(input)).format, Format::Pth);
    const QString diff = convert_and_compare(fx.path(input), fx.path(expected));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestPth::convertViewsToF32() {
    for (const auto& v : fx.list("convert_f32")) {
        const auto o = v.toObject();
        if (!o["input"].toString().endsWith(".pth")) continue;
        const QString diff = convert_and_compare(fx.path(o["input"].toString()), fx.path(o["expected"].toString()), DType::F32);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
}

void TestPth::nestedNamesAndNotes() {
    const Catalog c = open_model(fx.path("nested.pth"));
    QVERIFY(c.find("model.weight").has_value());
    QVERIFY(c.find("optimizer.state.0.exp_avg").has_value());
    QVERIFY(c.find("history.1").has_value());
    QString notes;
    for (const auto& n : c.notes) notes += QString::fromStdString(n) + "\n";
    for (const auto& v : fx.list("convert")) {
        const auto o = v.toObject();
        if (o["input"] != "nested.pth") continue;
        for (const auto& s : o["notes_contain"].toArray()) QVERIFY2(notes.contains(s.toString()), qPrintable(notes));
    }
    QVERIFY2(notes.contains("epoch: 7 (int)"), qPrintable(notes));
    QVERIFY2(notes.contains("name: 'run-1' (str)"), qPrintable(notes));
    // Every note names one skipped value (no "… and N more" under the limit).
    QCOMPARE(c.skipped_values, static_cast<std::uint64_t>(c.notes.size()));
}

void TestPth::sharedStoragesAndViews() {
    const Catalog c = open_model(fx.path("views.pth"));
    const auto& base = c.tensors[*c.find("base")];
    const auto& same = c.tensors[*c.find("same_as_base")];
    const auto& t = c.tensors[*c.find("t")];
    const auto& off = c.tensors[*c.find("offset")];
    const auto& ex = c.tensors[*c.find("expand")];
    QCOMPARE(same.offset, base.offset);          // one storage, zero copy
    QVERIFY(base.strides.empty());               // contiguous
    QCOMPARE(t.strides, (std::vector<std::int64_t>{1, 8}));
    QCOMPARE(t.offset, base.offset);
    QVERIFY(off.strides.empty());                // contiguous sub-range: offset folded in
    QCOMPARE(off.offset, base.offset + 5 * 4);
    QCOMPARE(ex.strides, (std::vector<std::int64_t>{0, 1}));
    QCOMPARE(ex.nbytes, std::uint64_t(16));
    const Plan p = make_plan(c);
    QCOMPARE(p.error_count(), std::size_t(0));
    QCOMPARE(p.tensors.size(), c.tensors.size());
}

void TestPth::prefixesAndLegacyMetadata() {
    QCOMPARE(meta(open_model(fx.path("archive_prefix.pth")), "archive_prefix"), std::string("archive"));
    QCOMPARE(meta(open_model(fx.path("stem_prefix.pth")), "archive_prefix"), std::string("stem_prefix"));
    const Catalog l = open_model(fx.path("legacy.pth"));
    QCOMPARE(meta(l, "container"), std::string("legacy"));
    QCOMPARE(l.shards[0].file->size(), std::uint64_t(QFileInfo(QString::fromStdString(fx.path("legacy.pth"))).size()));
    const Catalog b = open_model(fx.path("bigendian.pth"));
    QCOMPARE(meta(b, "byteorder"), std::string("big"));
    QVERIFY(b.tensors[*b.find("f")].big_endian);
    QVERIFY(!b.tensors[*b.find("u")].big_endian);  // one byte per element: nothing to swap
}

void TestPth::refused_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("contains");
    for (const auto& v : fx.list("refuse")) {
        const auto o = v.toObject();
        const QString in = o["input"].toString();
        if (in.endsWith(".pth")) QTest::newRow(qPrintable(in)) << in << o["code"].toString() << o["contains"].toString();
    }
}

// os.system, builtins.eval/exec (REDUCE on a refused callable, also through
// STACK_GLOBAL), whole nn.Modules, malformed pickles: named errors, nothing built.
void TestPth::refused() {
    QFETCH(QString, input);
    QFETCH(QString, code);
    QFETCH(QString, contains);
    const auto e = error_of([&] { open_model(fx.path(input)); });
    QVERIFY2(e.has_value(), "no error raised");
    QCOMPARE(QString::fromUtf8(error_code_name(e->code()).data()), code);
    QVERIFY2(QString::fromStdString(e->message()).contains(contains), e->what());
    QCOMPARE(QString::fromStdString(e->file()), QString::fromStdString(fx.path(input)));
}

void TestPth::scan_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<bool>("safe");
    QTest::addColumn<QStringList>("refused");
    QTest::addColumn<QStringList>("allowed");
    for (const auto& v : fx.list("scan")) {
        const auto o = v.toObject();
        QStringList r, a;
        for (const auto& x : o["refused"].toArray()) r << x.toString();
        for (const auto& x : o["allowed"].toArray()) a << x.toString();
        QTest::newRow(qPrintable(o["input"].toString())) << o["input"].toString() << o["safe"].toBool() << r << a;
    }
}

// Every global with a verdict; refused ones do not stop the scan.
void TestPth::scan() {
    QFETCH(QString, input);
    QFETCH(bool, safe);
    QFETCH(QStringList, refused);
    QFETCH(QStringList, allowed);
    const PickleScan s = scan_pickles(fx.path(input));
    QCOMPARE(s.safe, safe);
    QStringList got_refused, got_allowed;
    for (const auto& g : s.globals) (g.allowed ? got_allowed : got_refused) << QString::fromStdString(g.module + "." + g.name);
    for (const auto& r : refused) QVERIFY2(got_refused.contains(r), qPrintable(r + " not in " + got_refused.join(",")));
    for (const auto& a : allowed) QVERIFY2(got_allowed.contains(a), qPrintable(a + " not in " + got_allowed.join(",")));
    if (safe) {
        QVERIFY(got_refused.isEmpty());
        QVERIFY2(QString::fromStdString(s.summary).contains("safe") || s.summary == "no pickle in this file", s.summary.c_str());
    } else {
        QVERIFY2(QString::fromStdString(s.summary).startsWith("references " + refused[0]), s.summary.c_str());
        for (const auto& g : s.globals)
            if (g.module == "posix" || (g.module == "builtins" && g.name == "eval"))
                QVERIFY2(g.verdict.find("would execute code") != std::string::npos, g.verdict.c_str());
    }
}

void TestPth::pickleProtocols_data() {
    QTest::addColumn<QString>("input");
    for (const auto& v : fx.list("pickles")) QTest::newRow(qPrintable(v.toObject()["input"].toString())) << v.toObject()["input"].toString();
}

// Python's own pickle.dumps of PICKLE_VALUE (see the generator) in protocols 0–5.
void TestPth::pickleProtocols() {
    QFETCH(QString, input);
    using K = pk::Value::Kind;
    const auto bytes = amn::test::read_file(fx.path(input));
    pk::Machine m;
    std::size_t pos = 0;
    const pk::Value* v = m.run(bytes, pos);
    QCOMPARE(pos, bytes.size());
    QCOMPARE(v->kind, K::Dict);
    const auto* ints = get(v, "ints");
    QVERIFY(ints && ints->kind == K::List);
    const std::vector<std::int64_t> want = {0, 1, -1, 255, 256, 65535, 65536, -2147483648LL, 2147483648LL,
                                            9223372036854775807LL, (-9223372036854775807LL - 1)};
    QCOMPARE(ints->items.size(), want.size() + 1);
    for (std::size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(ints->items[i]->kind, K::Int);
        QCOMPARE(ints->items[i]->i, want[i]);
    }
    QCOMPARE(ints->items.back()->kind, K::BigInt);  // 2**70
    const auto* floats = get(v, "floats");
    QCOMPARE(floats->items[0]->f, 0.5);
    QCOMPARE(floats->items[1]->f, -1e300);
    QCOMPARE(get(v, "text")->s, std::string("h\xc3\xa9llo \xe2\x98\x83"));
    QCOMPARE(get(v, "bytes")->kind, K::Bytes);
    QCOMPARE(get(v, "bytes")->s, std::string("\x00\xff" "ab", 4));
    const auto* tup = get(v, "tuple");
    QCOMPARE(tup->kind, K::Tuple);
    QCOMPARE(tup->items.size(), std::size_t(3));
    QCOMPARE(tup->items[1]->items[1]->i, std::int64_t(3));
    QCOMPARE(get(v, "none")->kind, K::None);
    QCOMPARE(get(v, "flags")->items[0]->kind, K::Bool);
    QVERIFY(get(v, "flags")->items[0]->b && !get(v, "flags")->items[1]->b);
    QCOMPARE(get(v, "set")->kind, K::Set);
    QCOMPARE(get(v, "set")->items[0]->i, std::int64_t(7));
    const auto* shared = get(v, "shared");
    QCOMPARE(shared->items[0], shared->items[1]);  // memo: one object referenced twice
    QCOMPARE(get(v, "nested")->kind, K::Dict);
}

void TestPth::pickleLimits() {
    // Memo limit.
    {
        pk::Limits lim;
        lim.max_memo = 4;
        pk::Machine m(lim);
        std::vector<std::uint8_t> p = {0x80, 2};
        for (int i = 0; i < 6; ++i) { p.push_back('N'); p.push_back('q'); p.push_back(std::uint8_t(i)); p.push_back('0'); }
        p.push_back('N');
        p.push_back('.');
        std::size_t pos = 0;
        const auto e = error_of([&] { m.run(p, pos); });
        QVERIFY(e && e->code() == ErrorCode::LimitExceeded && e->message().find("memo") != std::string::npos);
    }
    // Stack limit.
    {
        pk::Limits lim;
        lim.max_stack = 100;
        pk::Machine m(lim);
        std::vector<std::uint8_t> p(1000, 'N');
        p.push_back('.');
        std::size_t pos = 0;
        const auto e = error_of([&] { m.run(p, pos); });
        QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
    }
    // Working set: a string bigger than the limit.
    {
        pk::Limits lim;
        lim.max_working_set = 1 << 16;
        pk::Machine m(lim);
        std::vector<std::uint8_t> p = {0x80, 4, 0x8e};
        const std::uint64_t n = 1 << 20;
        for (int i = 0; i < 8; ++i) p.push_back(std::uint8_t(n >> (8 * i)));
        p.resize(p.size() + n, 'a');
        p.push_back('.');
        std::size_t pos = 0;
        const auto e = error_of([&] { m.run(p, pos); });
        QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
    }
    // Deeply nested lists do not overflow anything (arena, iterative machine).
    {
        pk::Machine m;
        std::vector<std::uint8_t> p = {0x80, 2};
        for (int i = 0; i < 200000; ++i) p.push_back(']');
        for (int i = 0; i < 199999; ++i) p.push_back('a');
        p.push_back('.');
        std::size_t pos = 0;
        QCOMPARE(m.run(p, pos)->kind, pk::Value::Kind::List);
    }
    // Malformed: truncated argument, unknown opcode, protocol 6, out-of-band buffer.
    // no structured binding: clang-14 (the sanitizer build) cannot capture one in a lambda
    for (const auto& pc : std::vector<std::pair<std::vector<std::uint8_t>, ErrorCode>>{
             {bytes_of({0x80, 2, 'X', 10, 0, 0, 0, 'a'}), ErrorCode::Truncated},
             {bytes_of({0x80, 2, 0xfe, '.'}), ErrorCode::Malformed},
             {bytes_of({0x80, 6, 'N', '.'}), ErrorCode::Unsupported},
             {bytes_of({0x80, 5, 0x97, '.'}), ErrorCode::Unsupported},
             {bytes_of({0x80, 2, 'N', 'N', 's', '.'}), ErrorCode::Malformed},
             {bytes_of({0x80, 2, 0x82, 1, '.'}), ErrorCode::UnsafePickle}}) {
        const auto& p = pc.first;
        const ErrorCode code = pc.second;
        pk::Machine m;
        std::size_t pos = 0;
        const auto e = error_of([&] { m.run(p, pos); });
        QVERIFY(e.has_value());
        QCOMPARE(int(e->code()), int(code));
    }
}

void TestPth::pickleScanDoesNotStop() {
    // GLOBAL posix.system, REDUCE; then GLOBAL builtins.getattr: both reported.
    static const char kP[] = "\x80\x02" "cposix\nsystem\n" "X\x04\x00\x00\x00true" "\x85R0"
                             "cbuiltins\ngetattr\n" "0" "ccollections\nOrderedDict\n" ")R.";
    std::vector<std::uint8_t> p(kP, kP + sizeof kP - 1);
    {
        pk::Machine strict;
        std::size_t pos = 0;
        const auto e = error_of([&] { strict.run(p, pos); });
        QVERIFY(e && e->code() == ErrorCode::UnsafePickle && e->message().find("posix.system") != std::string::npos);
    }
    pk::Machine m({}, /*scan=*/true);
    std::size_t pos = 0;
    QCOMPARE(m.run(p, pos)->kind, pk::Value::Kind::Dict);
    QCOMPARE(m.globals().size(), std::size_t(3));
    QVERIFY(!m.globals()[0].allowed && !m.globals()[1].allowed && m.globals()[2].allowed);
    QCOMPARE(m.globals()[1].name, std::string("getattr"));
}

void TestPth::reference_data() {
    QTest::addColumn<QString>("dir");
    AMN_REQUIRE_REFERENCE_DIR(ref);
    for (const auto& d : amn::test::reference_cases("pth")) QTest::newRow(qPrintable(QDir(d).dirName())) << d;
}

// AlgZoo checkpoints (both ZIP prefixes, shared storage): exactly expected.safetensors.
void TestPth::reference() {
    QFETCH(QString, dir);
    const auto inputs = QDir(dir + "/input").entryList({"*.pth", "*.pt"});
    QCOMPARE(inputs.size(), 1);
    const std::string in = (dir + "/input/" + inputs[0]).toStdString();
    const QString diff = convert_and_compare(in, (dir + "/expected.safetensors").toStdString());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    const PickleScan s = scan_pickles(in);
    QVERIFY2(s.safe, s.summary.c_str());
    QCOMPARE(s.summary, std::string("only tensor-rebuild globals: safe"));
}

QTEST_APPLESS_MAIN(TestPth)
#include "test_pth.moc"
