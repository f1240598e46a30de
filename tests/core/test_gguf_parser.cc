// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF parser on synthetic files: metadata rendering, info and summaries,
// big-endian files, unknown tensor types, layout checks, and every kind of
// bad input (every truncation included) producing its named error.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/plan.hpp"
#include "gguf_test_support.hpp"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include <cstring>

using namespace amn;
using test_gguf::dequantize_all;
using test_gguf::GgufBuilder;

namespace {

Catalog parse_bytes(const std::vector<std::uint8_t>& bytes) {
    return parse_gguf(MappedFile::from_bytes(bytes, "synthetic.gguf"), "synthetic.gguf");
}

std::optional<ErrorCode> parse_error(const std::vector<std::uint8_t>& bytes, std::string* what = nullptr) {
    try {
        parse_bytes(bytes);
    } catch (const Error& e) {
        if (what) *what = e.what();
        return e.code();
    }
    return std::nullopt;
}

// A small valid file: one F32 [2, 4] and one Q8_0 [1, 32] tensor.
std::vector<std::uint8_t> valid_file(bool be = false) {
    GgufBuilder g;
    g.be = be;
    g.header(2, 2);
    g.kv_str("general.architecture", "llama");
    g.kv_u32("general.alignment", 32);
    g.tensor("a", {4, 2}, 0, 0);
    g.tensor("q", {32, 1}, 8, 32);
    g.pad();
    for (int i = 0; i < 8; ++i) g.num<float>(static_cast<float>(i) - 2.5f);
    g.data(32 - 8 * 4 % 32 == 32 ? 0 : 0);
    // Q8_0 block: fp16 d = 0.5 (0x3800, always little-endian inside the block), qs = -16..15.
    g.b.push_back(0x00);
    g.b.push_back(0x38);
    for (int i = 0; i < 32; ++i) g.b.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(i - 16)));
    return g.b;
}

}  // namespace

class TestGgufParser : public QObject {
    Q_OBJECT
private slots:
    void metadata_values();
    void info_and_summaries();
    void packed_arrays();
    // ---- synthetic valid files ----
    void synthetic_valid();
    void big_endian();
    void unknown_type_listed();
    void many_zero_size_tensors();
    // ---- bad input ----
    void every_truncation_is_named();
    void bad_inputs_data();
    void bad_inputs();
};

void TestGgufParser::metadata_values() {
    // Every value type, nested arrays, escaping; expected JSON written by hand.
    GgufBuilder g;
    g.header(0, 16);
    auto key = [&](std::string_view k, std::uint32_t t) { g.str(k); g.num<std::uint32_t>(t); };
    key("u8", 0); g.num<std::uint8_t>(250);
    key("i8", 1); g.num<std::int8_t>(-7);
    key("u16", 2); g.num<std::uint16_t>(65535);
    key("i16", 3); g.num<std::int16_t>(-300);
    key("u32", 4); g.num<std::uint32_t>(4000000000u);
    key("i32", 5); g.num<std::int32_t>(-2000000000);
    key("f32", 6); g.num<float>(1e-5f);
    key("bool", 7); g.num<std::uint8_t>(1);
    key("str", 8); g.str("a\"b\\c\n\xC3\xA9");
    key("u64", 10); g.num<std::uint64_t>(18446744073709551615ull);
    key("i64", 11); g.num<std::int64_t>(-9223372036854775807ll - 1);
    key("f64", 12); g.num<double>(0.1);
    key("arr", 9); g.num<std::uint32_t>(5); g.num<std::uint64_t>(3); g.num<std::int32_t>(1); g.num<std::int32_t>(-2); g.num<std::int32_t>(3);
    key("nested", 9); g.num<std::uint32_t>(9); g.num<std::uint64_t>(2);
    g.num<std::uint32_t>(8); g.num<std::uint64_t>(1); g.str("x");
    g.num<std::uint32_t>(8); g.num<std::uint64_t>(0);
    key("nan", 6); g.num<float>(std::numeric_limits<float>::quiet_NaN());
    key("bad_utf8", 8); g.str("a\xFF" "b");
    const Catalog cat = parse_bytes(g.b);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"u8", "250"}, {"i8", "-7"}, {"u16", "65535"}, {"i16", "-300"}, {"u32", "4000000000"},
        {"i32", "-2000000000"}, {"f32", "1e-05"}, {"bool", "true"}, {"str", "\"a\\\"b\\\\c\\n\xC3\xA9\""},
        {"u64", "18446744073709551615"}, {"i64", "-9223372036854775808"}, {"f64", "0.1"}, {"arr", "[1,-2,3]"},
        {"nested", "[[\"x\"],[]]"}, {"nan", "\"NaN\""}, {"bad_utf8", "\"a\xEF\xBF\xBD" "b\""}};
    QCOMPARE(cat.metadata.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(cat.metadata[i].key, expected[i].first);
        QCOMPARE(meta_json(cat.metadata[i].value), expected[i].second);
    }
    // Held typed, exactly as stored.
    QCOMPARE(cat.metadata[0].value, MetaValue::u8(250));
    QCOMPARE(cat.metadata[1].value.as_int(), std::int64_t(-7));
    QCOMPARE(cat.metadata[6].value, MetaValue::f32(1e-5f));
    QCOMPARE(cat.metadata[8].value.as_string(), std::string("a\"b\\c\n\xC3\xA9"));
    QCOMPARE(cat.metadata[12].value.elem_type, GgufType::I32);
    QCOMPARE(cat.metadata[12].value.size(), std::size_t(3));
    QCOMPARE(cat.metadata[15].value.as_string(), std::string("a\xFF" "b"));  // raw bytes kept; JSON shows U+FFFD
    // Numbers as a JSON reader of the text sees them (f32 through its shortest form).
    QCOMPARE(meta_number(cat.metadata[6].value).value(), 1e-05);
    QCOMPARE(meta_number(cat.metadata[12].value, 1).value(), -2.0);
    QVERIFY(!meta_number(cat.metadata[12].value, 3));
    QVERIFY(!meta_number(cat.metadata[14].value));  // NaN
    QVERIFY(!meta_number(cat.metadata[8].value));   // string
    QCOMPARE(meta_text(cat.metadata[8].value), cat.metadata[8].value.str);
    QCOMPARE(meta_text(cat.metadata[0].value), std::string("250"));
    const auto kvs = gguf_key_values(cat);
    QCOMPARE(kvs[12].type, std::string("array[i32]"));
    QCOMPARE(kvs[12].count, std::uint64_t(3));
    QCOMPARE(kvs[13].type, std::string("array[array[string]]"));
    QCOMPARE(kvs[0].type, std::string("u8"));
    // The whole object is valid JSON with the keys in file order.
    const std::string all = gguf_kv_json(cat);
    QJsonParseError err;
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(all), &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    QCOMPARE(doc.object().size(), 16);
    QCOMPARE(doc.object()["arr"].toArray().size(), 3);
    QVERIFY(all.rfind("{\"u8\":250,\"i8\":-7,", 0) == 0);
}

void TestGgufParser::info_and_summaries() {
    GgufBuilder g;
    g.header(0, 4);
    g.kv_str("general.architecture", "qwen2");
    g.kv_str("general.name", "Tiny");
    g.str("tokenizer.ggml.tokens");
    g.num<std::uint32_t>(9);
    g.num<std::uint32_t>(8);
    g.num<std::uint64_t>(20);
    for (int i = 0; i < 20; ++i) g.str("t" + std::to_string(i));
    g.kv_str("tokenizer.chat_template", std::string(1000, 'x'));
    const Catalog cat = parse_bytes(g.b);
    const GgufInfo info = gguf_info(cat);
    QCOMPARE(info.version, 3u);
    QCOMPARE(info.architecture, std::string("qwen2"));
    QCOMPARE(info.name, std::string("Tiny"));
    QCOMPARE(info.alignment, std::uint64_t(32));
    QCOMPARE(info.kv_count, std::uint64_t(4));
    QVERIFY(!info.file_type);
    const auto kvs = gguf_key_values(cat, 3);
    QCOMPARE(kvs[2].count, std::uint64_t(20));
    QCOMPARE(kvs[2].summary, std::string("[\"t0\",\"t1\",\"t2\",\"… 17 more\"]"));
    QVERIFY(kvs[2].json.size() > kvs[2].summary.size());
    QCOMPARE(kvs[0].summary, kvs[0].json);
    QVERIFY(kvs[3].summary.size() < 300);
    QVERIFY(kvs[3].summary.find("(1000 bytes)") != std::string::npos);
    QCOMPARE(llama_ftype_name(15), std::string_view("Q4_K_M"));
    QCOMPARE(llama_ftype_name(999), std::string_view());
}

void TestGgufParser::packed_arrays() {
    // The same arrays in a little- and a big-endian file read to the same
    // packed value: scalars as little-endian bytes (written out by hand
    // below), strings as one buffer; each element reads back as written.
    for (const bool be : {false, true}) {
        GgufBuilder g;
        g.be = be;
        g.header(0, 4);
        auto arr = [&](std::string_view k, std::uint32_t et, std::uint64_t n) {
            g.str(k); g.num<std::uint32_t>(9); g.num<std::uint32_t>(et); g.num<std::uint64_t>(n);
        };
        arr("u16", 2, 3); g.num<std::uint16_t>(1); g.num<std::uint16_t>(0x1234); g.num<std::uint16_t>(65535);
        arr("f64", 12, 2); g.num<double>(-0.0); g.num<double>(1.5);
        arr("tokens", 8, 3); g.str("<s>"); g.str(""); g.str(std::string_view("a\0b", 3));
        arr("bool", 7, 2); g.num<std::uint8_t>(0); g.num<std::uint8_t>(2);
        const Catalog cat = parse_bytes(g.b);
        const MetaValue& u16 = cat.metadata[0].value;
        QCOMPARE(u16.size(), std::size_t(3));
        QCOMPARE(u16.packed_bytes(), std::string_view("\x01\x00\x34\x12\xFF\xFF", 6));
        QCOMPARE(u16.bits_at(1), std::uint64_t(0x1234));
        QCOMPARE(u16.at(2), MetaValue::u16(65535));
        QCOMPARE(u16, MetaValue::array(GgufType::U16, {MetaValue::u16(1), MetaValue::u16(0x1234), MetaValue::u16(65535)}));
        const MetaValue& f64 = cat.metadata[1].value;
        QCOMPARE(f64.bits_at(0), std::uint64_t(0x8000000000000000ull));
        QCOMPARE(f64.packed_bytes().substr(8), std::string_view("\0\0\0\0\0\0\xF8\x3F", 8));
        QCOMPARE(meta_json(f64), std::string("[-0,1.5]"));
        const MetaValue& tokens = cat.metadata[2].value;
        QCOMPARE(tokens.size(), std::size_t(3));
        QCOMPARE(tokens.string_at(0), std::string_view("<s>"));
        QVERIFY(tokens.string_at(1).empty());
        QCOMPARE(tokens.string_at(2), std::string_view("a\0b", 3));
        QCOMPARE(tokens.packed_bytes(), std::string_view("<s>a\0b", 6));
        QCOMPARE(tokens, MetaValue::strings({"<s>", "", std::string("a\0b", 3)}));
        QCOMPARE(tokens.at(0), MetaValue::string("<s>"));
        const MetaValue& flags = cat.metadata[3].value;
        QCOMPARE(meta_json(flags), std::string("[false,true]"));
        QCOMPARE(flags.at(1).bits, std::uint64_t(2));  // the stored byte, not 1
        // Misuse: named Usage errors, never a read past the buffer.
        auto code = [](auto f) -> std::optional<ErrorCode> {
            try { f(); } catch (const Error& e) { return e.code(); }
            return std::nullopt;
        };
        QCOMPARE(code([&] { (void)u16.bits_at(3); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { (void)u16.string_at(0); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { (void)u16.array_at(0); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { (void)tokens.bits_at(0); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { (void)tokens.string_at(3); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { (void)MetaValue::u8(1).at(0); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { MetaValue::packed(GgufType::U16, 2, "abc"); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { MetaValue::packed(GgufType::String, 1, "a"); }), std::optional(ErrorCode::Usage));
        QCOMPARE(code([&] { MetaValue::strings({}).push_back(MetaValue::u8(1)); }), std::optional(ErrorCode::Usage));
    }
}

void TestGgufParser::synthetic_valid() {
    const Catalog cat = parse_bytes(valid_file());
    QCOMPARE(cat.tensors.size(), std::size_t(2));
    QCOMPARE(cat.tensors[0].shape, (std::vector<std::uint64_t>{2, 4}));
    QCOMPARE(cat.tensors[1].dtype, DType::Q8_0);
    QCOMPARE(cat.tensors[1].nbytes, std::uint64_t(34));
    const Plan plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    const auto a = dequantize_all(plan.tensors[0]);
    QCOMPARE(a[0], -2.5f);
    QCOMPARE(a[7], 4.5f);
    const auto q = dequantize_all(plan.tensors[1]);
    QCOMPARE(q[0], -8.0f);
    QCOMPARE(q[31], 7.5f);
    QVERIFY(is_gguf(valid_file()));
    const std::uint8_t ggjt[] = {'t', 'j', 'g', 'g'};
    QVERIFY(is_gguf(ggjt));
    const std::uint8_t st[] = {8, 0, 0, 0};
    QVERIFY(!is_gguf(st));
}

void TestGgufParser::big_endian() {
    const Catalog cat = parse_bytes(valid_file(true));
    QVERIFY(gguf_info(cat).big_endian);
    QCOMPARE(cat.tensors[0].shape, (std::vector<std::uint64_t>{2, 4}));
    QVERIFY(cat.tensors[0].big_endian);
    QCOMPARE(cat.metadata[0].value.as_string(), std::string("llama"));
    const Plan plan = make_plan(cat);
    const auto a = dequantize_all(plan.tensors[0]);
    QCOMPARE(a[0], -2.5f);
    QCOMPARE(a[7], 4.5f);
    std::vector<std::uint8_t> le(32);
    plan.tensors[0].recipe->copy_rows(0, 2, le.data());
    float first;
    std::memcpy(&first, le.data(), 4);
    QCOMPARE(first, -2.5f);
    // Block types with big-endian scales: a named per-tensor error.
    QVERIFY(plan.tensors[1].error.message().find("big-endian") != std::string::npos);
    QCOMPARE(plan.error_count(), std::size_t(1));
}

void TestGgufParser::unknown_type_listed() {
    GgufBuilder g;
    g.header(2, 0);
    g.tensor("future", {64}, 99, 0);
    g.tensor("ok", {8}, 0, 64);
    g.pad();
    g.data(64, 1);
    for (int i = 0; i < 8; ++i) g.num<float>(1.0f);
    const Catalog cat = parse_bytes(g.b);
    QCOMPARE(cat.tensors[0].dtype_name, std::string("ggml type 99"));
    QVERIFY(!dtype_info(cat.tensors[0].dtype));
    QCOMPARE(cat.tensors[0].nbytes, std::uint64_t(64));
    QVERIFY(!cat.notes.empty());
    const Plan plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(1));
    QVERIFY(plan.tensors[0].error.message().find("ggml type 99") != std::string::npos);
    QVERIFY(plan.tensors[1].error.empty());
    QCOMPARE(dequantize_all(plan.tensors[1])[7], 1.0f);
}

// issue 14: zero-size tensors all at one offset are valid for ggml (padded
// size 0); the layout check is one linear pass (tests/bench/robustness.sh
// times 160 000 of them).
void TestGgufParser::many_zero_size_tensors() {
    GgufBuilder g;
    const int n = 20000;
    g.header(n + 1, 0);
    for (int i = 0; i < n; ++i) g.tensor("e" + std::to_string(i), {0}, 0, 0);
    g.tensor("w", {8}, 0, 0);
    g.pad();
    for (int i = 0; i < 8; ++i) g.num<float>(2.0f);
    QElapsedTimer t;
    t.start();
    const Catalog cat = parse_bytes(g.b);
    QCOMPARE(cat.tensors.size(), std::size_t(n + 1));
    QCOMPARE(cat.tensors.back().nbytes, std::uint64_t(32));
    QVERIFY2(t.elapsed() < 5000, "layout check is not linear");
}

void TestGgufParser::every_truncation_is_named() {
    const auto full = valid_file();
    // Every strict prefix either fails with Truncated/OutOfRange or (once the
    // header is complete) with a data-section error — never a crash or success.
    for (std::size_t n = 0; n < full.size(); ++n) {
        std::vector<std::uint8_t> part(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
        const auto code = parse_error(part);
        QVERIFY2(code.has_value(), ("prefix " + std::to_string(n) + " parsed").c_str());
        QVERIFY2(*code == ErrorCode::Truncated || *code == ErrorCode::OutOfRange,
                 ("prefix " + std::to_string(n) + ": " + std::string(error_code_name(*code))).c_str());
    }
    QVERIFY(!parse_error(full));
}

void TestGgufParser::bad_inputs_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("code");
    auto row = [](const char* name, const GgufBuilder& g, ErrorCode c) {
        QTest::newRow(name) << QByteArray(reinterpret_cast<const char*>(g.b.data()), qsizetype(g.b.size())) << int(c);
    };
    {
        GgufBuilder g;
        g.b = {'G', 'G', 'U', 'X', 3, 0, 0, 0};
        row("bad magic", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.b = {'t', 'j', 'g', 'g', 3, 0, 0, 0};
        row("ggjt", g, ErrorCode::Unsupported);
    }
    {
        GgufBuilder g;
        g.b = {'l', 'm', 'g', 'g', 1, 0, 0, 0};
        row("ggml", g, ErrorCode::Unsupported);
    }
    {
        GgufBuilder g;
        g.header(0, 0, 1);
        row("v1", g, ErrorCode::Unsupported);
    }
    {
        GgufBuilder g;
        g.header(0, 0, 4);
        row("v4", g, ErrorCode::Unsupported);
    }
    {
        GgufBuilder g;
        g.header(1ull << 40, 0);
        row("absurd tensor count", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(0, 1ull << 40);
        row("absurd kv count", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.num<std::uint64_t>(1000);
        g.b.insert(g.b.end(), {'a', 'b'});
        row("key length past EOF", g, ErrorCode::Truncated);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.num<std::uint64_t>(1ull << 62);
        row("absurd key length", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.str("k");
        g.num<std::uint32_t>(8);
        g.num<std::uint64_t>(100);
        g.b.insert(g.b.end(), {'x'});
        row("string value past EOF", g, ErrorCode::Truncated);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.str("k");
        g.num<std::uint32_t>(9);
        g.num<std::uint32_t>(4);
        g.num<std::uint64_t>(1000000);
        g.num<std::uint32_t>(1);
        row("array length past EOF", g, ErrorCode::Truncated);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.str("k");
        g.num<std::uint32_t>(9);
        g.num<std::uint32_t>(0);
        g.num<std::uint64_t>(1ull << 60);
        row("absurd array length", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.str("k");
        for (int i = 0; i < 12; ++i) {
            g.num<std::uint32_t>(9);
            if (i) g.num<std::uint64_t>(1);
        }
        g.num<std::uint32_t>(9);
        g.num<std::uint64_t>(1);
        row("arrays nested too deep", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.str("k");
        g.num<std::uint32_t>(13);
        g.num<std::uint32_t>(0);
        row("unknown value type", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.header(0, 2);
        g.kv_u32("k", 1);
        g.kv_u32("k", 2);
        row("duplicate key", g, ErrorCode::Malformed);
    }
    {
        const GgufBuilder g = test_gguf::one_u32_key("general.alignment", 48);
        row("alignment not a power of two", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.header(0, 1);
        g.kv_str("general.alignment", "32");
        row("alignment not u32", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 0);
        g.pad();
        g.data(32);
        row("nine dims", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {8}, 0, 64);
        g.pad();
        g.data(32);
        row("offset outside data", g, ErrorCode::OutOfRange);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {16}, 0, 0);
        g.pad();
        g.data(32);
        row("data past end", g, ErrorCode::OutOfRange);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {4}, 0, 8);
        g.pad();
        g.data(64);
        row("misaligned offset", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.header(2, 0);
        g.tensor("a", {16}, 0, 0);
        g.tensor("b", {8}, 0, 32);
        g.pad();
        g.data(96);
        row("overlap", g, ErrorCode::Overlap);
    }
    {
        GgufBuilder g;
        g.header(2, 0);
        g.tensor("a", {8}, 0, 0);
        g.tensor("a", {8}, 0, 32);
        g.pad();
        g.data(64);
        row("duplicate names", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("q", {48}, 8, 0);
        g.pad();
        g.data(64);
        row("row not whole blocks", g, ErrorCode::SizeMismatch);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {1ull << 40, 1ull << 40}, 0, 0);
        g.pad();
        row("element count overflow", g, ErrorCode::SizeMismatch);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {1ull << 63}, 0, 0);
        g.pad();
        row("negative dim", g, ErrorCode::Malformed);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {8}, 0, 0);
        row("no data section", g, ErrorCode::Truncated);
    }
    // issue 14: ggml's layout rule and limits.
    {
        GgufBuilder g;  // offsets must be the running padded size: 32 bytes of "a", then "b" at 32, not 64
        g.header(2, 0);
        g.tensor("a", {8}, 0, 0);
        g.tensor("b", {8}, 0, 64);
        g.pad();
        g.data(96);
        row("gap between tensors", g, ErrorCode::Gap);
    }
    {
        GgufBuilder g;  // a type lie: the next offset no longer matches
        g.header(2, 0);
        g.tensor("a", {64}, 8, 0);  // Q8_0: 2 blocks of 34 bytes = 68, padded 96
        g.tensor("b", {8}, 0, 128);  // written as if "a" were of a type with 128 padded bytes
        g.pad();
        g.data(160);
        row("type lie shifts the next offset", g, ErrorCode::Gap);
    }
    {
        GgufBuilder g;
        g.header(2, 0);
        g.tensor("b", {8}, 0, 32);  // declared out of order: ggml requires declaration order
        g.tensor("a", {8}, 0, 0);
        g.pad();
        g.data(64);
        row("offsets out of declaration order", g, ErrorCode::Gap);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor(std::string(64, 'n'), {8}, 0, 0);
        g.pad();
        g.data(32);
        row("name of 64 bytes", g, ErrorCode::LimitExceeded);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("t", {1, 1, 1, 1, 8}, 0, 0);
        g.pad();
        g.data(32);
        row("five dims", g, ErrorCode::LimitExceeded);
    }
    {
        const GgufBuilder g = test_gguf::one_u32_key("", 1);
        row("empty key", g, ErrorCode::Malformed);
    }
    {
        const GgufBuilder g = test_gguf::one_u32_key("bad\xff key", 1);
        row("key not UTF-8", g, ErrorCode::BadText);
    }
    {
        GgufBuilder g;
        g.header(1, 0);
        g.tensor("w\xc3\x28", {8}, 0, 0);
        g.pad();
        g.data(32);
        row("tensor name not UTF-8", g, ErrorCode::BadText);
    }
}

void TestGgufParser::bad_inputs() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, code);
    std::string what;
    const auto got = parse_error(std::vector<std::uint8_t>(bytes.begin(), bytes.end()), &what);
    QVERIFY2(got.has_value(), "parsed without error");
    if (int(*got) != code) QFAIL(("wrong error: " + what).c_str());
    QVERIFY(what.find("synthetic.gguf") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestGgufParser)
#include "test_gguf_parser.moc"
