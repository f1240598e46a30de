// SPDX-License-Identifier: MIT OR Apache-2.0
// safetensors header parsing: the shared header oracles, and every kind of
// bad input producing its named error.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/safetensors.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>

using namespace amn;

namespace {

std::vector<std::uint8_t> make_file(const std::string& header, std::size_t data_bytes, std::int64_t len_override = -1) {
    std::vector<std::uint8_t> f(8);
    const std::uint64_t n = len_override >= 0 ? std::uint64_t(len_override) : header.size();
    for (int i = 0; i < 8; ++i) f[i] = std::uint8_t(n >> (8 * i));
    f.insert(f.end(), header.begin(), header.end());
    f.resize(f.size() + data_bytes, 0);
    return f;
}

// Parse `bytes` and return the error code it raises (or nullopt if it parses).
std::optional<ErrorCode> parse_error(const std::vector<std::uint8_t>& bytes, std::string* what = nullptr) {
    try {
        parse_safetensors_header(bytes, "bad.safetensors");
    } catch (const Error& e) {
        if (what) *what = e.what();
        return e.code();
    }
    return std::nullopt;
}

}  // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
private slots:
    void headerOracles_data();
    void headerOracles();
    void badInput_data();
    void badInput();
    void truncatedFileThroughOpenModel();
    void unknownDtypeIsListedButNotConvertible();
    void emptyTensorsAndScalars();
    void metadataKeptInOrder();
};

void TestSafetensors::headerOracles_data() {
    QTest::addColumn<QString>("dir");
    AMN_REQUIRE_REFERENCE_DIR(ref);
    for (const auto& d : amn::test::reference_cases("safetensors_header")) QTest::newRow(qPrintable(QDir(d).dirName())) << d;
}

// The header parser reports exactly what expected_header.json (written from
// the upstream safetensors writer's own view) says.
void TestSafetensors::headerOracles() {
    QFETCH(QString, dir);
    QFile ef(dir + "/expected_header.json");
    QVERIFY(ef.open(QIODevice::ReadOnly));
    const auto exp = QJsonDocument::fromJson(ef.readAll()).object();
    const auto inputs = QDir(dir + "/input").entryList({"*.safetensors"});
    QCOMPARE(inputs.size(), 1);
    const auto bytes = amn::test::read_file((dir + "/input/" + inputs[0]).toStdString());
    const auto h = parse_safetensors_header(bytes, inputs[0].toStdString());
    QCOMPARE(h.header_size, std::uint64_t(exp["header_size"].toInteger()));
    const auto em = exp["metadata"].toObject();
    QCOMPARE(h.metadata.size(), std::size_t(em.size()));
    for (const auto& [k, v] : h.metadata) QCOMPARE(QString::fromStdString(v), em[QString::fromStdString(k)].toString());
    const auto et = exp["tensors"].toArray();
    QCOMPARE(h.tensors.size(), std::size_t(et.size()));
    for (const auto& tv : et) {
        const auto t = tv.toObject();
        auto it = std::find_if(h.tensors.begin(), h.tensors.end(), [&](const SafetensorsEntry& e) { return e.name == t["name"].toString().toStdString(); });
        QVERIFY2(it != h.tensors.end(), qPrintable(t["name"].toString()));
        QCOMPARE(QString::fromStdString(it->dtype_name), t["dtype"].toString());
        QVERIFY(it->dtype != DType::Unknown);
        std::vector<std::uint64_t> shape;
        for (const auto& d : t["shape"].toArray()) shape.push_back(std::uint64_t(d.toInteger()));
        QCOMPARE(it->shape, shape);
        QCOMPARE(it->begin, std::uint64_t(t["data_offsets"].toArray()[0].toInteger()));
        QCOMPARE(it->end, std::uint64_t(t["data_offsets"].toArray()[1].toInteger()));
    }
    // The whole model opens and plans (FP8/GPTQ/AWQ/NF4 layouts) without throwing.
    const auto cat = open_model((dir + "/input/" + inputs[0]).toStdString());
    const auto plan = make_plan(cat);
    QCOMPARE(plan.roles.size(), cat.tensors.size());
}

void TestSafetensors::badInput_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("code");
    auto add = [](const char* name, const std::vector<std::uint8_t>& b, ErrorCode c) {
        QTest::newRow(name) << QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size())) << int(c);
    };
    const std::string ok = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    add("shorter than 8 bytes", {1, 2, 3}, ErrorCode::Truncated);
    add("header length past EOF", make_file(ok, 8, 4096), ErrorCode::Truncated);
    add("header length over 100 MiB", make_file(ok, 8, (100ll << 20) + 1), ErrorCode::LimitExceeded);
    add("malformed JSON", make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})", 8), ErrorCode::BadJson);
    add("not an object", make_file("[1,2,3]", 0), ErrorCode::BadJson);
    add("trailing garbage", make_file(ok + "xx", 8), ErrorCode::BadJson);
    add("duplicate tensor", make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8), ErrorCode::BadJson);
    add("duplicate field", make_file(R"({"a":{"dtype":"F32","dtype":"F16","shape":[2],"data_offsets":[0,8]}})", 8), ErrorCode::BadJson);
    add("missing dtype", make_file(R"({"a":{"shape":[2],"data_offsets":[0,8]}})", 8), ErrorCode::BadJson);
    add("shape not integers", make_file(R"({"a":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}})", 8), ErrorCode::BadJson);
    add("negative dim", make_file(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8), ErrorCode::BadJson);
    add("three offsets", make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8,9]}})", 8), ErrorCode::BadJson);
    add("metadata not strings", make_file(R"({"__metadata__":{"k":1},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8), ErrorCode::BadJson);
    add("offsets past data", make_file(ok, 4), ErrorCode::OutOfRange);
    add("begin after end", make_file(R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})", 8), ErrorCode::OutOfRange);
    add("overlap", make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12), ErrorCode::Overlap);
    add("size mismatch", make_file(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8), ErrorCode::SizeMismatch);
    add("numel overflow", make_file(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,8]}})", 8), ErrorCode::SizeMismatch);
    add("bytes overflow", make_file(R"({"a":{"dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,8]}})", 8), ErrorCode::SizeMismatch);
    add("rank 9", make_file(R"({"a":{"dtype":"F32","shape":[1,1,1,1,1,1,1,1,2],"data_offsets":[0,8]}})", 8), ErrorCode::LimitExceeded);
    add("F4 odd count", make_file(R"({"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}})", 2), ErrorCode::SizeMismatch);
    // Exact coverage of the data section (issue 14): as the safetensors crate.
    {
        // A header padded with a space, its length one short: the space
        // joins the data section and every tensor would be read a byte early.
        const std::string padded = ok + " ";
        auto f = make_file(padded, 8, static_cast<std::int64_t>(padded.size() - 1));
        add("header length one short (padding swallowed)", f, ErrorCode::Gap);
    }
    add("gap between tensors", make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})", 12), ErrorCode::Gap);
    add("gap before the first tensor", make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8), ErrorCode::Gap);
    add("bytes after the last tensor", make_file(ok, 12), ErrorCode::Gap);
    add("empty tensor off the running offset", make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"e":{"dtype":"F32","shape":[0],"data_offsets":[12,12]}})", 12), ErrorCode::Gap);
    add("header not starting with '{'", make_file(" " + ok, 8), ErrorCode::BadJson);
}

void TestSafetensors::badInput() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, code);
    std::vector<std::uint8_t> b(bytes.begin(), bytes.end());
    std::string what;
    const auto got = parse_error(b, &what);
    QVERIFY2(got.has_value(), "expected an error");
    QVERIFY2(int(*got) == code, qPrintable(QString::fromStdString(what)));
    QVERIFY2(what.rfind("bad.safetensors: ", 0) == 0, qPrintable(QString::fromStdString(what)));  // names the file
}

void TestSafetensors::truncatedFileThroughOpenModel() {
    // A real model cut short: the header promises bytes the file no longer has.
    const std::string src = amn::test::source_dir() + "/fixtures/sample/tiny-llama-fp8/model.safetensors";
    auto bytes = amn::test::read_file(src);
    QVERIFY(bytes.size() > 1000);
    QTemporaryDir tmp;
    for (std::size_t keep : {std::size_t(5), std::size_t(200), bytes.size() - 1}) {
        const std::string path = tmp.filePath("cut.safetensors").toStdString();
        amn::test::write_file(path, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(keep)));
        try {
            open_model(path);
            QFAIL("truncated file accepted");
        } catch (const Error& e) {
            QVERIFY2(e.code() == ErrorCode::Truncated || e.code() == ErrorCode::OutOfRange, e.what());
            QCOMPARE(e.file(), path);
        }
    }
}

void TestSafetensors::unknownDtypeIsListedButNotConvertible() {
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("x.safetensors").toStdString();
    amn::test::write_file(path, make_file(R"({"a":{"dtype":"F3_E1M1","shape":[2],"data_offsets":[0,3]},"b":{"dtype":"F32","shape":[1],"data_offsets":[3,7]}})", 7));
    const auto cat = open_model(path);
    QCOMPARE(cat.tensors.size(), std::size_t(2));
    QCOMPARE(cat.tensors[0].dtype, DType::Unknown);
    QCOMPARE(cat.tensors[0].dtype_name, std::string("F3_E1M1"));
    const auto plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(1));
    QCOMPARE(plan.roles[0], Role::Unsupported);
    QVERIFY(plan.tensors[0].error.message().find("F3_E1M1") != std::string::npos);
}

void TestSafetensors::emptyTensorsAndScalars() {
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("x.safetensors").toStdString();
    amn::test::write_file(path, make_file(R"({"e":{"dtype":"F32","shape":[0,4],"data_offsets":[0,0]},"s":{"dtype":"BF16","shape":[],"data_offsets":[0,2]}})", 2));
    const auto cat = open_model(path);
    QCOMPARE(cat.tensors.size(), std::size_t(2));
    const auto& s = cat.tensors[*cat.find("s")];
    QCOMPARE(s.numel(), std::uint64_t(1));
    QCOMPARE(cat.tensors[*cat.find("e")].numel(), std::uint64_t(0));
}

void TestSafetensors::metadataKeptInOrder() {
    const auto h = parse_safetensors_header(
        make_file(R"({"__metadata__":{"z":"1","a":"two \"quoted\""},"t":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", 1), "m");
    QCOMPARE(h.metadata.size(), std::size_t(2));
    QCOMPARE(h.metadata[0].first, std::string("z"));
    QCOMPARE(h.metadata[1].second, std::string("two \"quoted\""));
}

QTEST_APPLESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
