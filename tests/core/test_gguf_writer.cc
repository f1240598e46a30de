// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF writer: re-writing real llama.cpp files (typed key/values read back,
// tensor bytes copied) gives the same file byte for byte; llama-quantize's
// metadata rewrite reproduces every gguf-real file's key/values from the F32
// input; nested arrays, big-endian input, abort, refusal of an existing
// output and every misuse error.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "sink/gguf_writer.hpp"
#include "anamnesis/mapped_file.hpp"
#include "gguf_test_support.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>

using namespace amn;
using test::error_code_of;
namespace fs = std::filesystem;

namespace {

std::string real(const std::string& name) { return test_gguf::gguf_real(name); }

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Copy every tensor of `cat` into `w` (already laid out) in a shuffled order
// of 4 KiB chunks from two threads.
void copy_tensors(const Catalog& cat, GgufWriter& w) {
    struct Chunk { std::size_t t; std::uint64_t off, n; };
    std::vector<Chunk> chunks;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i)
        for (std::uint64_t off = 0; off < cat.tensors[i].nbytes; off += 4096)
            chunks.push_back({i, off, std::min<std::uint64_t>(4096, cat.tensors[i].nbytes - off)});
    std::mt19937 rng(42);
    std::shuffle(chunks.begin(), chunks.end(), rng);
    auto run = [&](std::size_t first) {
        for (std::size_t k = first; k < chunks.size(); k += 2) {
            const auto& c = chunks[k];
            const std::uint8_t* src = cat.data(cat.tensors[c.t]) + c.off;
            w.write(c.t, c.off, {src, static_cast<std::size_t>(c.n)});
        }
    };
    std::thread other(run, 1);
    run(0);
    other.join();
}

// Re-write `in` through GgufWriter into `out`.
void rewrite(const std::string& in, const std::string& out) {
    const Catalog cat = open_gguf(in);
    GgufWriter w(out);
    w.set_kvs(gguf_read_kvs(cat));
    for (const auto& t : cat.tensors) w.add_tensor(t.name, t.dtype, t.shape);
    w.allocate();
    copy_tensors(cat, w);
    w.commit();
}

const GgufValue& kv(const std::vector<GgufKv>& kvs, const char* key) {
    static const GgufValue none;
    const GgufValue* v = gguf_find_kv(kvs, key);
    return v ? *v : none;
}

}  // namespace

class TestGgufWriter : public QObject {
    Q_OBJECT
private slots:
    void rewrite_real_identical_data();
    void rewrite_real_identical();
    void read_kvs_typed();
    void quantize_kvs_data();
    void quantize_kvs();
    void quantize_kvs_imatrix_data();
    void quantize_kvs_imatrix();
    void quantize_kvs_rules();
    void nested_arrays_round_trip();
    void big_endian_kvs();
    void layout_and_n_dims();
    void abort_leaves_nothing();
    void destructor_leaves_nothing();
    void existing_output_refused();
    void overwrite_replaces();
    void incomplete_commit_refused();
    void misuse_errors();
    void value_accessors();
};

void TestGgufWriter::rewrite_real_identical_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"tiny-llama-F32.gguf", "tiny-llama-Q4_K_M.gguf", "tiny-llama-F16.gguf", "tiny-llama-IQ2_XXS.gguf",
                          "tiny-llama-pure-NVFP4.gguf", "tiny-llama-pure-Q1_0.gguf"})
        QTest::newRow(f) << QString(f);
}

void TestGgufWriter::rewrite_real_identical() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, file);
    const std::string in = real(file.toStdString());
    if (!fs::exists(in)) QSKIP("gguf-real fixture missing");
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("out.gguf").toStdString();
    rewrite(in, out);
    const auto a = test::read_file(in), b = test::read_file(out);
    QCOMPARE(b.size(), a.size());
    const auto mm = std::mismatch(a.begin(), a.end(), b.begin());
    if (mm.first != a.end()) QFAIL(("first differing byte at " + std::to_string(mm.first - a.begin())).c_str());
    // Nothing else left in the folder (the temporary file was renamed).
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{"out.gguf"});
    // And the project's parser reads it.
    const Catalog back = open_gguf(out);
    QCOMPARE(back.tensors.size(), open_gguf(in).tensors.size());
}

void TestGgufWriter::read_kvs_typed() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string in = real("tiny-llama-F32.gguf");
    if (!fs::exists(in)) QSKIP("gguf-real fixture missing");
    const auto kvs = gguf_read_kvs(open_gguf(in));
    QCOMPARE(kvs.size(), std::size_t(22));
    QCOMPARE(kvs.front().key, std::string("general.architecture"));
    QCOMPARE(kv(kvs, "general.architecture").as_string(), std::string("llama"));
    QCOMPARE(kv(kvs, "llama.block_count").type, GgufType::U32);
    QCOMPARE(kv(kvs, "llama.block_count").as_uint(), std::uint64_t(2));
    QCOMPARE(kv(kvs, "llama.rope.freq_base").type, GgufType::F32);
    QCOMPARE(kv(kvs, "llama.rope.freq_base").as_double(), 10000.0);
    QCOMPARE(kv(kvs, "tokenizer.ggml.add_bos_token").as_bool(), true);
    const auto& tokens = kv(kvs, "tokenizer.ggml.tokens");
    QVERIFY(tokens.is_array());
    QCOMPARE(tokens.elem_type, GgufType::String);
    QCOMPARE(tokens.size(), std::size_t(512));
    QCOMPARE(tokens.string_at(1), std::string_view("<s>"));
    QCOMPARE(kv(kvs, "tokenizer.ggml.token_type").elem_type, GgufType::I32);
    // Same keys, same order as the display form.
    const auto display = gguf_key_values(open_gguf(in));
    QCOMPARE(display.size(), kvs.size());
    for (std::size_t i = 0; i < kvs.size(); ++i) QCOMPARE(kvs[i].key, display[i].key);
}

// Every gguf-real file llama-quantize made without an imatrix.
static const char* const kNoImatrix[][2] = {
    {"F16", "F16"}, {"BF16", "BF16"}, {"Q8_0", "Q8_0"}, {"Q4_0", "Q4_0"}, {"Q4_1", "Q4_1"}, {"Q5_0", "Q5_0"},
    {"Q5_1", "Q5_1"}, {"Q2_K", "Q2_K"}, {"Q3_K_S", "Q3_K_S"}, {"Q3_K_M", "Q3_K_M"}, {"Q3_K_L", "Q3_K_L"},
    {"Q4_K_S", "Q4_K_S"}, {"Q4_K_M", "Q4_K_M"}, {"Q5_K_S", "Q5_K_S"}, {"Q5_K_M", "Q5_K_M"}, {"Q6_K", "Q6_K"},
    {"IQ4_NL", "IQ4_NL"}, {"IQ4_XS", "IQ4_XS"}, {"IQ3_S", "IQ3_S"}, {"IQ3_M", "IQ3_M"}, {"TQ1_0", "TQ1_0"},
    {"TQ2_0", "TQ2_0"}, {"Q1_0", "Q1_0"}, {"Q2_0", "Q2_0"},
    {"pure-Q4_0", "Q4_0"}, {"pure-Q4_1", "Q4_1"}, {"pure-Q5_0", "Q5_0"}, {"pure-Q5_1", "Q5_1"}, {"pure-Q2_K", "Q2_K"},
    {"pure-IQ4_NL", "IQ4_NL"}, {"pure-IQ4_XS", "IQ4_XS"}, {"pure-IQ3_S", "IQ3_S"}, {"pure-TQ1_0", "TQ1_0"},
    {"pure-TQ2_0", "TQ2_0"}, {"pure-Q1_0", "Q1_0"}, {"pure-Q2_0", "Q2_0"}, {"pure-Q3_K", "Q3_K_M"},
    {"pure-Q4_K", "Q4_K_M"}, {"pure-Q5_K", "Q5_K_M"}, {"pure-MXFP4", "MXFP4_MOE"}, {"pure-NVFP4", "Q8_0"},
};

// llama_ftype ids (llama.h) of the names above, independent of gguf_ftype.
static std::uint32_t ftype_id_of(const std::string& n) {
    static const std::pair<const char*, std::uint32_t> ids[] = {
        {"F32", 0}, {"F16", 1}, {"Q4_0", 2}, {"Q4_1", 3}, {"Q8_0", 7}, {"Q5_0", 8}, {"Q5_1", 9}, {"Q2_K", 10},
        {"Q3_K_S", 11}, {"Q3_K_M", 12}, {"Q3_K_L", 13}, {"Q4_K_S", 14}, {"Q4_K_M", 15}, {"Q5_K_S", 16},
        {"Q5_K_M", 17}, {"Q6_K", 18}, {"IQ2_XXS", 19}, {"IQ2_XS", 20}, {"Q2_K_S", 21}, {"IQ3_XS", 22},
        {"IQ3_XXS", 23}, {"IQ1_S", 24}, {"IQ4_NL", 25}, {"IQ3_S", 26}, {"IQ3_M", 27}, {"IQ2_S", 28}, {"IQ2_M", 29},
        {"IQ4_XS", 30}, {"IQ1_M", 31}, {"BF16", 32}, {"TQ1_0", 36}, {"TQ2_0", 37}, {"MXFP4_MOE", 38},
        {"Q1_0", 40}, {"Q2_0", 41}};
    for (const auto& [k, v] : ids)
        if (n == k) return v;
    return 9999;
}

void TestGgufWriter::quantize_kvs_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("ftype");
    for (const auto& row : kNoImatrix) QTest::newRow(row[0]) << QString(row[0]) << QString(row[1]);
}

void TestGgufWriter::quantize_kvs() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, file);
    QFETCH(QString, ftype);
    const std::string in = real("tiny-llama-F32.gguf");
    const std::string q = real("tiny-llama-" + file.toStdString() + ".gguf");
    if (!fs::exists(in) || !fs::exists(q)) QSKIP("gguf-real fixture missing");
    const auto expected = gguf_read_kvs(open_gguf(q));
    const auto got = llama_quantize_kvs(gguf_read_kvs(open_gguf(in)), ftype_id_of(ftype.toStdString()));
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].key, expected[i].key);
        QVERIFY2(got[i].value == expected[i].value, got[i].key.c_str());
    }
}

void TestGgufWriter::quantize_kvs_imatrix_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("ftype");
    for (const char* f : {"IQ3_XXS", "IQ3_XS", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ1_S", "IQ1_M", "Q2_K_S"})
        QTest::newRow(f) << QString(f) << QString(f);
    QTest::newRow("pure-IQ1_M") << QString("pure-IQ1_M") << QString("IQ1_M");
    QTest::newRow("pure-IQ3_XXS") << QString("pure-IQ3_XXS") << QString("IQ3_XXS");
    QTest::newRow("pure-IQ2_S") << QString("pure-IQ2_S") << QString("IQ2_M");
    QTest::newRow("pure-IQ1_S") << QString("pure-IQ1_S") << QString("IQ1_S");
    QTest::newRow("pure-IQ2_XS") << QString("pure-IQ2_XS") << QString("IQ2_XS");
    QTest::newRow("pure-IQ2_XXS") << QString("pure-IQ2_XXS") << QString("IQ2_XXS");
}

void TestGgufWriter::quantize_kvs_imatrix() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, file);
    QFETCH(QString, ftype);
    const std::string in = real("tiny-llama-F32.gguf");
    const std::string q = real("tiny-llama-" + file.toStdString() + ".gguf");
    if (!fs::exists(in) || !fs::exists(q)) QSKIP("gguf-real fixture missing");
    const auto expected = gguf_read_kvs(open_gguf(q));
    LlamaImatrixKvs im;
    im.file = kv(expected, "quantize.imatrix.file").as_string();  // the path given on their command line
    im.dataset = "/usr/share/common-licenses/GPL-3";
    im.entries_count = 15;
    im.chunks_count = 232;
    const auto got = llama_quantize_kvs(gguf_read_kvs(open_gguf(in)), ftype_id_of(ftype.toStdString()), im);
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].key, expected[i].key);
        QVERIFY2(got[i].value == expected[i].value, got[i].key.c_str());
    }
}

void TestGgufWriter::quantize_kvs_rules() {
    std::vector<GgufKv> in = {
        {"general.architecture", GgufValue::string("llama")},
        {"general.file_type", GgufValue::u32(0)},
        {"split.no", GgufValue::u16(0)},
        {"general.quantization_version", GgufValue::u32(1)},
        {"split.count", GgufValue::u16(3)},
        {"general.name", GgufValue::string(std::string("ab\0cd", 5))},
        {"split.tensors.count", GgufValue::i32(100)},
        {"tokenizer.ggml.tokens", GgufValue::strings({std::string("x\0y", 3), "z"})},
    };
    const auto out = llama_quantize_kvs(in, 15);
    QCOMPARE(out.size(), std::size_t(5));
    QCOMPARE(out[0].key, std::string("general.architecture"));
    QCOMPARE(out[1].key, std::string("general.name"));
    QCOMPARE(out[1].value.as_string(), std::string("ab"));  // ggml copies strings as const char*
    QCOMPARE(out[2].value.at(0).as_string(), std::string("x"));
    QCOMPARE(out[3].key, std::string("general.quantization_version"));
    QCOMPARE(out[3].value, GgufValue::u32(2));
    QCOMPARE(out[4].key, std::string("general.file_type"));
    QCOMPARE(out[4].value, GgufValue::u32(15));

    LlamaImatrixKvs im;
    im.file = std::string(200, 'a');
    im.entries_count = 7;
    const auto o2 = llama_quantize_kvs(in, 15, im);
    QCOMPARE(o2.size(), std::size_t(7));  // no dataset, no chunks
    QCOMPARE(o2[5].key, std::string("quantize.imatrix.file"));
    QCOMPARE(o2[5].value.as_string().size(), std::size_t(127));
    QCOMPARE(o2[6].key, std::string("quantize.imatrix.entries_count"));
    QCOMPARE(o2[6].value, GgufValue::u32(7));
}

void TestGgufWriter::nested_arrays_round_trip() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("nested.gguf").toStdString();
    std::vector<GgufKv> kvs = {
        {"general.architecture", GgufValue::string("test")},
        {"t.nested", GgufValue::array(GgufType::Array,
                                      {GgufValue::array(GgufType::I32, {GgufValue::i32(-1), GgufValue::i32(2)}),
                                       GgufValue::array(GgufType::I32, {}),
                                       GgufValue::array(GgufType::I32, {GgufValue::i32(7)})})},
        {"t.deep", GgufValue::array(GgufType::Array,
                                    {GgufValue::array(GgufType::Array,
                                                      {GgufValue::strings({"a", "", "c"}),
                                                       GgufValue::array(GgufType::Bool, {GgufValue::boolean(true)})})})},
        {"t.empty", GgufValue::array(GgufType::String, {})},
        {"t.u8", GgufValue::u8(255)}, {"t.i8", GgufValue::i8(-128)}, {"t.u16", GgufValue::u16(65535)},
        {"t.i16", GgufValue::i16(-32768)}, {"t.i32", GgufValue::i32(-5)}, {"t.u64", GgufValue::u64(~0ull)},
        {"t.i64", GgufValue::i64(std::numeric_limits<std::int64_t>::min())},
        {"t.f32", GgufValue::f32(-0.0f)}, {"t.f64", GgufValue::f64(1.0 / 3)},
        {"t.nan", GgufValue::from_bits(GgufType::F32, 0x7FC01234u)},  // NaN payload kept
        {"t.bool2", GgufValue::from_bits(GgufType::Bool, 2)},         // odd bool byte kept
        {"t.f64s", GgufValue::array(GgufType::F64, {GgufValue::f64(1.5), GgufValue::f64(-2)})},
    };
    {
        GgufWriter w(out);
        w.set_kvs(kvs);
        const std::size_t t = w.add_tensor("x", DType::F32, {2, 3});
        w.allocate();
        std::vector<float> data = {1, 2, 3, 4, 5, 6};
        w.write(t, 0, {reinterpret_cast<const std::uint8_t*>(data.data()), 24});
        w.commit();
    }
    const Catalog cat = open_gguf(out);  // the project's parser reads nested arrays
    const auto back = gguf_read_kvs(cat);
    QCOMPARE(back.size(), kvs.size());
    for (std::size_t i = 0; i < kvs.size(); ++i) {
        QCOMPARE(back[i].key, kvs[i].key);
        QVERIFY2(back[i].value == kvs[i].value, kvs[i].key.c_str());
    }
    QCOMPARE(cat.tensors.size(), std::size_t(1));
    QCOMPARE(cat.tensors[0].shape, (std::vector<std::uint64_t>{2, 3}));
    float f[6];
    std::memcpy(f, cat.data(cat.tensors[0]), 24);
    QCOMPARE(f[5], 6.0f);
    const auto display = gguf_key_values(cat);
    QCOMPARE(display[1].json, std::string("[[-1,2],[],[7]]"));
    QCOMPARE(display[1].type, std::string("array[array[i32]]"));
    // Encoding of a nested array: type 9, elem type 9, count 3, then (type, count, items) per element.
    const auto enc = gguf_encode_kv(kvs[1]);
    std::vector<std::uint8_t> expect;
    auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) expect.push_back(std::uint8_t(v >> (8 * i))); };
    auto u64 = [&](std::uint64_t v) { for (int i = 0; i < 8; ++i) expect.push_back(std::uint8_t(v >> (8 * i))); };
    u64(8); for (char c : std::string("t.nested")) expect.push_back(std::uint8_t(c));
    u32(9); u32(9); u64(3);
    u32(5); u64(2); u32(0xFFFFFFFFu); u32(2);
    u32(5); u64(0);
    u32(5); u64(1); u32(7);
    QCOMPARE(enc, expect);
}

void TestGgufWriter::big_endian_kvs() {
    // A big-endian GGUF (gguf-py --bigendian): numbers big-endian throughout.
    std::vector<std::uint8_t> b = {'G', 'G', 'U', 'F'};
    auto be = [&](std::uint64_t v, int n) { for (int i = n - 1; i >= 0; --i) b.push_back(std::uint8_t(v >> (8 * i))); };
    auto str = [&](const std::string& s) { be(s.size(), 8); b.insert(b.end(), s.begin(), s.end()); };
    be(3, 4); be(0, 8); be(4, 8);
    str("a.u32"); be(4, 4); be(0x01020304u, 4);
    str("a.f32"); be(6, 4); be(0x3FC00000u, 4);
    str("a.arr"); be(9, 4); be(3, 4); be(2, 8); be(0xFFFE, 2); be(5, 2);
    str("a.str"); be(8, 4); str("hé");
    const Catalog cat = parse_gguf(MappedFile::from_bytes(b, "be.gguf"), "be.gguf");
    const auto kvs = gguf_read_kvs(cat);
    QCOMPARE(kvs.size(), std::size_t(4));
    QCOMPARE(kvs[0].value, GgufValue::u32(0x01020304u));
    QCOMPARE(kvs[1].value.as_double(), 1.5);
    QCOMPARE(kvs[2].value.size(), std::size_t(2));
    QCOMPARE(kvs[2].value.at(0).as_int(), std::int64_t(-2));
    QCOMPARE(kvs[2].value.at(1).as_int(), std::int64_t(5));
    QCOMPARE(kvs[3].value.as_string(), std::string("hé"));
    QCOMPARE(error_code_of([&] { gguf_read_kvs(Catalog{}); }), std::optional(ErrorCode::Usage));
}

void TestGgufWriter::layout_and_n_dims() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("l.gguf").toStdString();
    GgufWriter w(out);
    w.set("general.alignment", GgufValue::u32(64));
    const auto a = w.add_tensor("a", DType::F32, {1, 3});       // ggml_n_dims: stored as 1-D [3]
    const auto b = w.add_tensor("b", DType::Q4_0, {2, 1, 32});  // [32, 1, 2]: the inner 1 stays
    const auto c = w.add_tensor("c", DType::F16, {});           // scalar: [1]
    const auto e = w.add_tensor("e", DType::F32, {0, 4});       // empty
    QCOMPARE(w.tensor_nbytes(a), std::uint64_t(12));
    QCOMPARE(w.tensor_nbytes(b), std::uint64_t(2 * 18));
    QCOMPARE(w.tensor_nbytes(c), std::uint64_t(2));
    QCOMPARE(w.tensor_nbytes(e), std::uint64_t(0));
    w.allocate();
    QCOMPARE(w.alignment(), std::uint64_t(64));
    QCOMPARE(w.data_offset() % 64, std::uint64_t(0));
    QCOMPARE(w.tensor_offset(a), w.data_offset());
    QCOMPARE(w.tensor_offset(b), w.data_offset() + 64);
    QCOMPARE(w.tensor_offset(c), w.data_offset() + 128);
    QCOMPARE(w.tensor_offset(e), w.data_offset() + 192);
    QCOMPARE(w.file_size(), w.data_offset() + 192);
    std::vector<std::uint8_t> z(36, 0x11);
    w.write(a, 0, {z.data(), 12});
    w.write(b, 20, {z.data(), 16});  // out of order, in pieces, overlapping
    w.write(b, 0, {z.data(), 24});
    w.write(c, 0, {z.data(), 2});
    w.commit();
    const Catalog cat = open_gguf(out);
    QCOMPARE(cat.tensors[0].shape, (std::vector<std::uint64_t>{3}));
    QCOMPARE(cat.tensors[1].shape, (std::vector<std::uint64_t>{2, 1, 32}));
    QCOMPARE(cat.tensors[2].shape, (std::vector<std::uint64_t>{1}));
    QCOMPARE(fs::file_size(out), w.file_size());
    // Padding is zeros.
    const auto bytes = test::read_file(out);
    for (std::uint64_t i = w.tensor_offset(a) + 12; i < w.tensor_offset(b); ++i) QCOMPARE(int(bytes[i]), 0);
}

void TestGgufWriter::abort_leaves_nothing() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("a.gguf").toStdString();
    GgufWriter w(out);
    w.add_tensor("x", DType::F32, {4});
    w.allocate();
    // The temporary file is unnamed (O_TMPFILE) where the filesystem allows,
    // else one hidden named file; never more.
    QVERIFY(files_in(tmp.path().toStdString()).size() <= std::size_t(1));
    std::vector<std::uint8_t> z(16, 1);
    w.write(0, 0, z);
    w.abort();
    QVERIFY(files_in(tmp.path().toStdString()).empty());
    w.abort();  // twice is fine
    QCOMPARE(error_code_of([&] { w.write(0, 0, z); }), std::optional(ErrorCode::Usage));
    QCOMPARE(error_code_of([&] { w.commit(); }), std::optional(ErrorCode::Usage));
    QVERIFY(files_in(tmp.path().toStdString()).empty());
}

void TestGgufWriter::destructor_leaves_nothing() {
    QTemporaryDir tmp;
    {
        GgufWriter w(tmp.filePath("d.gguf").toStdString());
        w.add_tensor("x", DType::F32, {4});
        w.allocate();
        std::vector<std::uint8_t> z(16, 1);
        w.write(0, 0, z);
    }
    QVERIFY(files_in(tmp.path().toStdString()).empty());
    {
        GgufWriter w(tmp.filePath("d.gguf").toStdString());
        GgufWriter moved(std::move(w));
        moved.allocate();
    }
    QVERIFY(files_in(tmp.path().toStdString()).empty());
}

void TestGgufWriter::existing_output_refused() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("e.gguf").toStdString();
    test::write_file(out, {1, 2, 3});
    GgufWriter w(out);
    std::string what;
    QCOMPARE(error_code_of([&] { w.allocate(); }, &what), std::optional(ErrorCode::OutputExists));
    QVERIFY(what.find(out) != std::string::npos);
    QCOMPARE(test::read_file(out), (std::vector<std::uint8_t>{1, 2, 3}));
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{"e.gguf"});
    // Missing folder.
    GgufWriter m(tmp.filePath("no/such/dir/x.gguf").toStdString());
    QCOMPARE(error_code_of([&] { m.allocate(); }), std::optional(ErrorCode::Io));
    // Output created between layout and commit.
    const std::string late = tmp.filePath("late.gguf").toStdString();
    GgufWriter l(late);
    l.allocate();
    test::write_file(late, {9});
    QCOMPARE(error_code_of([&] { l.commit(); }), std::optional(ErrorCode::OutputExists));
    l.abort();
    QCOMPARE(test::read_file(late), std::vector<std::uint8_t>{9});
}

void TestGgufWriter::overwrite_replaces() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("o.gguf").toStdString();
    test::write_file(out, {1, 2, 3});
    GgufWriter w(out, /*overwrite=*/true);
    w.set("general.name", GgufValue::string("x"));
    w.allocate();
    w.commit();
    const Catalog cat = open_gguf(out);
    QCOMPARE(gguf_read_kvs(cat).at(0).value.as_string(), std::string("x"));
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{"o.gguf"});
}

void TestGgufWriter::incomplete_commit_refused() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("i.gguf").toStdString();
    GgufWriter w(out);
    w.add_tensor("full", DType::F32, {4});
    w.add_tensor("holey", DType::F32, {8});
    w.allocate();
    std::vector<std::uint8_t> z(32, 1);
    w.write(0, 0, {z.data(), 16});
    w.write(1, 0, {z.data(), 8});
    w.write(1, 16, {z.data(), 16});
    std::string what;
    QCOMPARE(error_code_of([&] { w.commit(); }, &what), std::optional(ErrorCode::Usage));
    QVERIFY2(what.find("holey") != std::string::npos && what.find("first at byte 8") != std::string::npos, what.c_str());
    QVERIFY(!fs::exists(out));
    w.write(1, 8, {z.data(), 8});  // fill the hole: now it commits
    w.commit();
    QVERIFY(fs::exists(out));
}

void TestGgufWriter::misuse_errors() {
    QTemporaryDir tmp;
    GgufWriter w(tmp.filePath("m.gguf").toStdString());
    auto code = [&](auto f) { return error_code_of(f); };
    QCOMPARE(code([&] { w.set_kvs({{"a", GgufValue::u8(1)}, {"a", GgufValue::u8(2)}}); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.set("general.alignment", GgufValue::u64(32)); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.set("general.alignment", GgufValue::u32(48)); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { GgufValue::array(GgufType::I32, {GgufValue::u8(1)}); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { GgufValue::array(GgufType::I32, {}).push_back(GgufValue::string("x")); }), std::optional(ErrorCode::Usage));
    GgufValue bad = GgufValue::array(GgufType::I32, {GgufValue::i32(1)});
    bad.elem_type = GgufType::String;  // packed bytes no longer match the element type
    QCOMPARE(code([&] { w.set("b", bad); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.add_tensor("q", DType::Q4_K, {4, 100}); }), std::optional(ErrorCode::SizeMismatch));
    QCOMPARE(code([&] { w.add_tensor("f8", DType::F8_E4M3, {4}); }), std::optional(ErrorCode::Unsupported));
    QCOMPARE(code([&] { w.add_tensor("r5", DType::F32, {2, 2, 2, 2, 2}); }), std::optional(ErrorCode::Unsupported));
    QCOMPARE(code([&] { w.add_tensor(std::string(64, 'n'), DType::F32, {2}); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.add_tensor("", DType::F32, {2}); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.add_tensor("u", DType::Unknown, {2}); }), std::optional(ErrorCode::UnknownDtype));
    w.add_tensor("ok", DType::F32, {2});
    QCOMPARE(code([&] { w.add_tensor("ok", DType::F32, {2}); }), std::optional(ErrorCode::Usage));
    std::vector<std::uint8_t> z(16, 0);
    QCOMPARE(code([&] { w.write(0, 0, {z.data(), 8}); }), std::optional(ErrorCode::Usage));  // before layout
    QCOMPARE(code([&] { w.tensor_offset(0); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.commit(); }), std::optional(ErrorCode::Usage));
    w.allocate();
    QCOMPARE(code([&] { w.allocate(); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.set("c", GgufValue::u8(1)); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.add_tensor("late", DType::F32, {2}); }), std::optional(ErrorCode::Usage));
    QCOMPARE(code([&] { w.write(1, 0, {z.data(), 8}); }), std::optional(ErrorCode::OutOfRange));
    std::string what;
    QCOMPARE(error_code_of([&] { w.write(0, 4, {z.data(), 8}); }, &what), std::optional(ErrorCode::OutOfRange));
    QVERIFY2(what.find("ok") != std::string::npos, what.c_str());
    QCOMPARE(code([&] { w.tensor_offset(5); }), std::optional(ErrorCode::OutOfRange));
}

void TestGgufWriter::value_accessors() {
    QCOMPARE(GgufValue::i8(-3).as_int(), std::int64_t(-3));
    QCOMPARE(GgufValue::u64(5).as_int(), std::int64_t(5));
    QCOMPARE(GgufValue::i32(7).as_uint(), std::uint64_t(7));
    QCOMPARE(error_code_of([] { GgufValue::i32(-7).as_uint(); }), std::optional(ErrorCode::Usage));
    QCOMPARE(error_code_of([] { GgufValue::u64(~0ull).as_int(); }), std::optional(ErrorCode::Usage));
    QCOMPARE(error_code_of([] { GgufValue::string("x").as_int(); }), std::optional(ErrorCode::Usage));
    QCOMPARE(error_code_of([] { GgufValue::u32(1).as_string(); }), std::optional(ErrorCode::Usage));
    QCOMPARE(error_code_of([] { GgufValue::u32(1).as_double(); }), std::optional(ErrorCode::Usage));
    QCOMPARE(GgufValue::f32(0.1f).as_double(), double(0.1f));
    QVERIFY(!(GgufValue::f32(0.0f) == GgufValue::f32(-0.0f)));  // bits, not values
    QVERIFY(!(GgufValue::u32(1) == GgufValue::i32(1)));
    QCOMPARE(gguf_type_name(GgufType::Array), std::string_view("array"));
    QCOMPARE(gguf_type_name(static_cast<GgufType>(99)), std::string_view("?"));
}

QTEST_APPLESS_MAIN(TestGgufWriter)
#include "test_gguf_writer.moc"
