// SPDX-License-Identifier: MIT OR Apache-2.0
// NPY/NPZ: every dtype, both byte orders, Fortran order, compressed NPZ,
// NPY v1/v2/v3, BF16 ('<V2'), refused inputs, and the shared Gemma Scope
// case — outputs compared byte for byte with what numpy itself produced.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/npy.hpp"
#include "anamnesis/plan.hpp"
#include "npz_pth_fixtures.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>

using namespace amn;
using amn::test::error_of;

namespace {

std::vector<std::uint8_t> npy_v1(const std::string& dict, std::size_t data_bytes) {
    std::string h = dict;
    while ((10 + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string f = std::string("\x93NUMPY\x01\x00", 8) + char(h.size() & 0xFF) + char(h.size() >> 8) + h;
    f.resize(f.size() + data_bytes, '\0');
    return std::vector<std::uint8_t>(f.begin(), f.end());
}

// Convert `input` to safetensors (optionally --to) and compare with `expected`.
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

}  // namespace

class TestNpz : public QObject {
    Q_OBJECT
    amn::test::NpzPthFixtures fx;

private slots:
    void initTestCase() { AMN_GENERATE_NPZ_PTH_FIXTURES(fx); }
    void convert_data();
    void convert();
    void convertToF32_data();
    void convertToF32();
    void refused_data();
    void refused();
    void catalogLayoutFlags();
    void compressedIsOneOwnedShard();
    void headerParser();
    void headerLimits();
    void referenceGemmaScope();
    void wideRowsAreSplit();
    void corruptStoredDataFailsItsCrc_data();
    void corruptStoredDataFailsItsCrc();
};

void TestNpz::convert_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    for (const auto& v : fx.list("convert")) {
        const auto o = v.toObject();
        if (o["format"] == "npz" || o["format"] == "npy")
            QTest::newRow(qPrintable(o["input"].toString())) << o["input"].toString() << o["expected"].toString();
    }
}

// Lossless conversion equals numpy's contiguous little-endian bytes.
void TestNpz::convert() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    const Catalog cat = open_model(fx.path(input));
    QCOMPARE(cat.format, input.endsWith(".npy") ? Format::Npy : Format::Npz);
    const QString diff = convert_and_compare(fx.path(input), fx.path(expected));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestNpz::convertToF32_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    for (const auto& v : fx.list("convert_f32")) {
        const auto o = v.toObject();
        if (o["input"].toString().endsWith(".npz"))
            QTest::newRow(qPrintable(o["input"].toString())) << o["input"].toString() << o["expected"].toString();
    }
}

// --to f32 goes through the strided recipe's dequantize path (swap, gather,
// then the registry decoder): equals numpy's astype(float32).
void TestNpz::convertToF32() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    const QString diff = convert_and_compare(fx.path(input), fx.path(expected), DType::F32);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestNpz::refused_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("contains");
    for (const auto& v : fx.list("refuse")) {
        const auto o = v.toObject();
        const QString in = o["input"].toString();
        if (in.endsWith(".npy") || in.endsWith(".npz"))
            QTest::newRow(qPrintable(in)) << in << o["code"].toString() << o["contains"].toString();
    }
}

// Object arrays, raw void, structured dtypes, short data, bad headers, and
// ZIP-level attacks on an .npz: each a named error carrying the file name.
void TestNpz::refused() {
    QFETCH(QString, input);
    QFETCH(QString, code);
    QFETCH(QString, contains);
    const auto e = error_of([&] { open_model(fx.path(input)); });
    QVERIFY2(e.has_value(), "no error raised");
    QCOMPARE(QString::fromUtf8(error_code_name(e->code()).data()), code);
    QVERIFY2(QString::fromStdString(e->message()).contains(contains), e->what());
    QCOMPARE(QString::fromStdString(e->file()), QString::fromStdString(fx.path(input)));
}

void TestNpz::catalogLayoutFlags() {
    const Catalog f = open_model(fx.path("fortran.npz"));
    const auto& t = f.tensors[*f.find("f3d")];
    QCOMPARE(t.shape, (std::vector<std::uint64_t>{3, 4, 5}));
    QCOMPARE(t.strides, (std::vector<std::int64_t>{1, 3, 12}));  // column-major element strides
    QVERIFY(!t.big_endian);
    QVERIFY(f.tensors[*f.find("f3d_be")].big_endian);
    QVERIFY(f.tensors[*f.find("f_bool")].strides.size() == 2);

    const Catalog d = open_model(fx.path("dtypes.npz"));
    QCOMPARE(d.tensors[*d.find("scalar0d")].shape, std::vector<std::uint64_t>{});
    QCOMPARE(d.tensors[*d.find("empty")].nbytes, std::uint64_t(0));
    QVERIFY(d.find("nested/name").has_value());  // member "nested/name.npy"
    QCOMPARE(d.tensors[*d.find("a_complex128")].dtype, DType::C128);
    QCOMPARE(d.tensors[*d.find("a_bool")].dtype_name, std::string("BOOL"));
    const Catalog b = open_model(fx.path("bf16.npz"));
    QCOMPARE(b.tensors[*b.find("le")].dtype, DType::BF16);
    QVERIFY(b.tensors[*b.find("be")].big_endian);

    // Stored members are mapped in place: zero copy into the file mapping.
    const auto& w = d.tensors[*d.find("a_float32")];
    QCOMPARE(d.shards.size(), std::size_t(1));
    QCOMPARE(d.shards[0].file->size(), std::uint64_t(QFileInfo(QString::fromStdString(fx.path("dtypes.npz"))).size()));
    QVERIFY(w.offset + w.nbytes <= d.shards[0].file->size());
}

void TestNpz::compressedIsOneOwnedShard() {
    const Catalog c = open_model(fx.path("compressed.npz"));
    QCOMPARE(c.shards.size(), std::size_t(1));
    // Inflated: bigger than the file (the zeros member compresses ~1000×).
    QVERIFY(c.shards[0].file->size() > std::uint64_t(QFileInfo(QString::fromStdString(fx.path("compressed.npz"))).size()));
    bool compressed = false;
    for (const auto& [k, v] : c.metadata) compressed |= k == "compressed" && v == MetaValue::string("true");
    QVERIFY(compressed);
}

void TestNpz::headerParser() {
    // Python 2 headers write longs with an L suffix.
    auto h = parse_npy_header(npy_v1("{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 3L), }", 12));
    QCOMPARE(h.shape, (std::vector<std::uint64_t>{2, 3}));
    QCOMPARE(h.dtype, DType::I16);
    // Keys in any order, double quotes, no trailing comma.
    h = parse_npy_header(npy_v1("{\"shape\": (4,), \"fortran_order\": True, \"descr\": \">f8\"}", 32));
    QVERIFY(h.big_endian && h.fortran_order);
    QCOMPARE(h.shape, std::vector<std::uint64_t>{4});
    // "(4)" is not a tuple.
    auto e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (4), }", 16)); });
    QVERIFY(e && e->code() == ErrorCode::Malformed);
    // 0-d array.
    h = parse_npy_header(npy_v1("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 1));
    QVERIFY(h.shape.empty());
    QCOMPARE(h.data_bytes, std::uint64_t(1));
    // Extra key, missing key, unknown descr, '=' byte order, version 4, bad magic.
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4)); });
    QVERIFY(e && e->code() == ErrorCode::Malformed && e->message().find("'x'") != std::string::npos);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f4', 'shape': (1,)}", 4)); });
    QVERIFY(e && e->code() == ErrorCode::Malformed);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<q9', 'fortran_order': False, 'shape': (1,)}", 4)); });
    QVERIFY(e && e->code() == ErrorCode::UnknownDtype);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,)}", 8)); });
    QVERIFY(e && e->code() == ErrorCode::Unsupported);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '=f4', 'fortran_order': False, 'shape': (1,)}", 4)); });
    QVERIFY(e && e->code() == ErrorCode::Malformed);
    auto v4 = npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4);
    v4[6] = 4;
    e = error_of([&] { parse_npy_header(v4); });
    QVERIFY(e && e->code() == ErrorCode::Unsupported);
    v4[6] = 1;
    v4[1] = 'X';
    e = error_of([&] { parse_npy_header(v4); });
    QVERIFY(e && e->code() == ErrorCode::Malformed);
    // Trailing bytes after the data.
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 8)); });
    QVERIFY(e && e->code() == ErrorCode::SizeMismatch);
    QCOMPARE(fortran_strides({2, 3, 4}), (std::vector<std::int64_t>{1, 2, 6}));
    QVERIFY(fortran_strides({5}).empty());
}

void TestNpz::headerLimits() {
    std::string deep = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': ";
    for (int i = 0; i < 40; ++i) deep += "[";
    auto e = error_of([&] { parse_npy_header(npy_v1(deep, 4)); });
    QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1)}", 4)); });
    QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 0)); });
    QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
    e = error_of([] { parse_npy_header(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 0)); });
    QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
    // v2 header length beyond the limit.
    std::vector<std::uint8_t> v2 = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0, 0, 0x20, 0};
    e = error_of([&] { parse_npy_header(v2); });
    QVERIFY(e && e->code() == ErrorCode::LimitExceeded);
}

void TestNpz::referenceGemmaScope() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const auto cases = amn::test::reference_cases("npz");
    QVERIFY(!cases.isEmpty());
    for (const QString& c : cases) {
        const auto inputs = QDir(c + "/input").entryList({"*.npz", "*.npy"});
        QCOMPARE(inputs.size(), 1);
        const QString diff = convert_and_compare((c + "/input/" + inputs[0]).toStdString(), (c + "/expected.safetensors").toStdString());
        QVERIFY2(diff.isEmpty(), qPrintable(c + ": " + diff));
    }
}

// Tensors whose outermost row exceeds 1 Mi elements ([1, N, D] and friends,
// .npz and .pth): the recipes split them below one row, so a work unit (and
// peak memory) stays bounded, and the output written in 64 KiB chunks is
// still numpy's/torch's bytes — lossless and through --to f32.
void TestNpz::wideRowsAreSplit() {
    const auto wide = fx.list("wide");
    QCOMPARE(wide.size(), 2);
    for (const auto& v : wide) {
        const std::string in = fx.path(v.toString());
        const Catalog cat = open_model(in);
        const Plan plan = make_plan(cat);
        QCOMPARE(plan.error_count(), std::size_t(0));
        QCOMPARE(plan.tensors.size(), std::size_t(4));
        for (const auto& lt : plan.tensors) {
            QVERIFY2(lt.recipe->row_elems() <= (1u << 20), lt.name.c_str());
            QVERIFY2(lt.recipe->rows() > 1, lt.name.c_str());
            QCOMPARE(lt.recipe->rows() * lt.recipe->row_elems(), lt.numel());
        }
        for (const bool f32 : {false, true}) {
            if (f32 && v.toString().endsWith(".pth")) continue;  // expected_f32 exists for the .npz
            QTemporaryDir out;
            RememberOptions opt;
            opt.chunk_bytes = 64 << 10;
            opt.threads = 2;
            if (f32) opt.to = DType::F32;
            opt.output = (out.path() + "/out.safetensors").toStdString();
            remember_to_safetensors(cat, plan, opt);
            const std::string expected = in + (f32 ? ".expected_f32.safetensors" : ".expected.safetensors");
            const QString diff = QString::fromStdString(amn::test::compare_safetensors(opt.output, expected));
            QVERIFY2(diff.isEmpty(), qPrintable(v.toString() + ": " + diff));
        }
    }
}

// Stored ZIP members are mapped in place (opening stays header-only); a
// flipped byte inside tensor data must still stop a conversion by name,
// before any output exists, while parse/inspect keep working.
void TestNpz::corruptStoredDataFailsItsCrc_data() {
    QTest::addColumn<QString>("input");
    QTest::newRow("npz") << "dtypes.npz";
    QTest::newRow("pth") << "dtypes.pth";
}

void TestNpz::corruptStoredDataFailsItsCrc() {
    QFETCH(QString, input);
    QTemporaryDir tmp;
    const std::string path = tmp.filePath(input).toStdString();
    auto bytes = amn::test::read_file(fx.path(input));
    QVERIFY(!bytes.empty());
    const auto cat0 = open_model(fx.path(input));
    // The largest member; its last byte is array data, not NPY header.
    const auto& chk = *std::max_element(cat0.integrity_checks.begin(), cat0.integrity_checks.end(),
                                        [](const IntegrityCheck& a, const IntegrityCheck& b) { return a.len < b.len; });
    QVERIFY(chk.len >= 8);
    bytes[chk.offset + chk.len - 1] ^= 0x40;
    amn::test::write_file(path, bytes);
    const auto cat = open_model(path);  // structure intact: opens
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out.safetensors").toStdString();
    try {
        remember_to_safetensors(cat, plan, o);
        QFAIL("converted corrupt data");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Malformed);
        QVERIFY2(std::string(e.what()).find("CRC-32 mismatch in archive entry " + chk.what) != std::string::npos, e.what());
    }
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden), QStringList({input}));
}

QTEST_APPLESS_MAIN(TestNpz)
#include "test_npz.moc"
