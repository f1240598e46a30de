// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF against real files: every real llama.cpp file of the shared fixtures
// (each tensor's F32 dequantization against the manifest's sha256 and the
// expected safetensors), the gguf/ and ollama/ reference cases, and ollama
// store resolution. Synthetic files, metadata rendering and bad inputs:
// test_gguf_parser.cc.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/plan.hpp"
#include "gguf_test_support.hpp"
#include "util/sha256.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>

using namespace amn;
using test_gguf::dequantize_all;

namespace {

std::string sha_of(const std::vector<float>& v) { return detail::Sha256::of(v.data(), v.size() * 4); }

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::string gguf_real_dir() {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/gguf-real";
}

std::vector<std::uint16_t> to_bf16(const std::vector<float>& f) {
    std::vector<std::uint16_t> h(f.size());
    kernels::f32_to_bf16(f.data(), h.data(), f.size());
    return h;
}

}  // namespace

class TestGguf : public QObject {
    Q_OBJECT
private slots:
    // ---- real llama.cpp files ----
    void real_files_data();
    void real_files();
    void real_expected_safetensors_data();
    void real_expected_safetensors();
    // ---- reference cases ----
    void reference_cases_data();
    void reference_cases();
    void ollama_store();
};

void TestGguf::real_files_data() {
    QTest::addColumn<int>("index");
    const auto dir = gguf_real_dir();
    if (dir.empty()) return;
    const auto m = read_json(QString::fromStdString(dir + "/manifest.json"));
    const auto files = m["files"].toArray();
    for (int i = 0; i < files.size(); ++i) QTest::newRow(files[i].toObject()["file"].toString().toUtf8()) << i;
}

void TestGguf::real_files() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const auto dir = gguf_real_dir();
    QFETCH(int, index);
    const auto m = read_json(QString::fromStdString(dir + "/manifest.json"));
    const auto f = m["files"].toArray()[index].toObject();
    const std::string path = dir + "/" + f["file"].toString().toStdString();
    const Catalog cat = open_gguf(path);
    QCOMPARE(cat.format, Format::Gguf);
    const auto tensors = f["tensors"].toArray();
    QCOMPARE(cat.tensors.size(), std::size_t(tensors.size()));
    QCOMPARE(qint64(cat.tensors.size()), qint64(f["tensor_count"].toInt()));
    const GgufInfo info = gguf_info(cat);
    QCOMPARE(qint64(info.alignment), qint64(f["alignment"].toInt()));
    QCOMPARE(info.architecture, std::string("llama"));
    QVERIFY(info.file_type.has_value());
    QCOMPARE(qint64(*info.file_type), qint64(f["general.file_type"].toInt()));

    const Plan plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    int checked = 0;
    for (const auto& tv : tensors) {
        const auto t = tv.toObject();
        const std::string name = t["name"].toString().toStdString();
        const auto idx = cat.find(name);
        QVERIFY2(idx.has_value(), name.c_str());
        const TensorInfo& ti = cat.tensors[*idx];
        QCOMPARE(QString::fromStdString(ti.dtype_name), t["ggml_type"].toString());
        std::vector<std::uint64_t> shape;
        for (const auto& d : t["shape_numpy_order"].toArray()) shape.push_back(std::uint64_t(d.toInteger()));
        QCOMPARE(ti.shape, shape);
        QCOMPARE(qint64(ti.nbytes), t["n_bytes"].toInteger());
        QCOMPARE(qint64(ti.offset), t["data_offset"].toInteger());  // absolute in the manifest
        const auto lt = std::find_if(plan.tensors.begin(), plan.tensors.end(),
                                     [&](const LogicalTensor& l) { return l.name == name; });
        QVERIFY(lt != plan.tensors.end());
        QCOMPARE(lt->shape, shape);
        QVERIFY(lt->recipe);
        const bool block_type = dtype_info(ti.dtype)->is_quantized_block;
        QCOMPARE(lt->quantized, block_type);
        const std::string got = sha_of(dequantize_all(*lt));
        if (got != t["expected_f32_sha256"].toString().toStdString())
            QFAIL(("tensor " + name + " (" + ti.dtype_name + "): F32 sha256 differs from the manifest").c_str());
        ++checked;
    }
    QVERIFY(checked > 0);
}

void TestGguf::real_expected_safetensors_data() {
    QTest::addColumn<QString>("gguf");
    QTest::addColumn<QString>("expected");
    const auto dir = gguf_real_dir();
    if (dir.empty()) return;
    const QStringList names = QDir(QString::fromStdString(dir)).entryList({"*.expected-f32.safetensors"}, QDir::Files, QDir::Name);
    for (const auto& n : names) {
        QString g = n;
        g.replace(".expected-f32.safetensors", ".gguf");
        QTest::newRow(n.toUtf8()) << QString::fromStdString(dir) + "/" + g << QString::fromStdString(dir) + "/" + n;
    }
}

void TestGguf::real_expected_safetensors() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, gguf);
    QFETCH(QString, expected);
    const auto exp = test::read_safetensors_raw(expected.toStdString());
    QVERIFY(exp.has_value());
    const Catalog cat = open_gguf(gguf.toStdString());
    const Plan plan = make_plan(cat);
    QCOMPARE(plan.tensors.size(), exp->tensors.size());
    for (const auto& lt : plan.tensors) {
        auto it = exp->tensors.find(lt.name);
        QVERIFY2(it != exp->tensors.end(), lt.name.c_str());
        QCOMPARE(it->second.dtype, std::string("F32"));
        QCOMPARE(lt.shape, it->second.shape);
        const auto got = dequantize_all(lt);
        QCOMPARE(got.size() * 4, it->second.bytes.size());
        QVERIFY2(std::memcmp(got.data(), it->second.bytes.data(), it->second.bytes.size()) == 0, lt.name.c_str());
    }
}

void TestGguf::reference_cases_data() {
    QTest::addColumn<QString>("dir");
    const auto ref = test::reference_dir();
    if (ref.empty()) return;
    for (const QString kind : {"gguf", "ollama"})
        for (const auto& c : test::reference_cases(kind))
            QTest::newRow((kind + "/" + QFileInfo(c).fileName()).toUtf8()) << c;
}

void TestGguf::reference_cases() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, dir);
    const auto exp_f32 = test::read_safetensors_raw((dir + "/expected_f32.safetensors").toStdString());
    const auto exp_bf16 = test::read_safetensors_raw((dir + "/expected.safetensors").toStdString());
    QVERIFY(exp_f32 && exp_bf16);
    const Catalog cat = open_gguf((dir + "/input/model.gguf").toStdString());
    const Plan plan = make_plan(cat);
    QCOMPARE(plan.error_count(), std::size_t(0));
    QCOMPARE(exp_bf16->tensors.size(), exp_f32->tensors.size());
    for (const auto& entry : exp_f32->tensors) {
        // no structured binding: clang-14 (the sanitizer build) cannot capture one in a lambda
        const std::string& name = entry.first;
        const auto& e = entry.second;
        const auto lt = std::find_if(plan.tensors.begin(), plan.tensors.end(),
                                     [&](const LogicalTensor& l) { return l.name == name; });
        QVERIFY2(lt != plan.tensors.end(), name.c_str());
        QCOMPARE(lt->shape, e.shape);
        const auto got = dequantize_all(*lt);
        QCOMPARE(got.size() * 4, e.bytes.size());
        QVERIFY2(std::memcmp(got.data(), e.bytes.data(), e.bytes.size()) == 0, ("f32 " + name).c_str());
        const auto& b = exp_bf16->tensors.at(name);
        QCOMPARE(b.dtype, std::string("BF16"));
        const auto bf = to_bf16(got);
        QCOMPARE(bf.size() * 2, b.bytes.size());
        QVERIFY2(std::memcmp(bf.data(), b.bytes.data(), b.bytes.size()) == 0, ("bf16 " + name).c_str());
    }
}

void TestGguf::ollama_store() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const auto cases = test::reference_cases("ollama");
    QVERIFY(!cases.isEmpty());
    const std::string blob_src = (cases.front() + "/input/model.gguf").toStdString();
    const auto bytes = test::read_file(blob_src);
    QVERIFY(!bytes.empty());
    const std::string hex = detail::Sha256::of(bytes.data(), bytes.size());

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    namespace fs = std::filesystem;
    const fs::path root = tmp.path().toStdString();
    fs::create_directories(root / "manifests/registry.ollama.ai/library/llama3.2");
    fs::create_directories(root / "manifests/registry.ollama.ai/someone/tiny");
    fs::create_directories(root / "blobs");
    fs::create_symlink(blob_src, root / "blobs" / ("sha256-" + hex));
    const std::string manifest =
        R"({"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json",)"
        R"("config":{"mediaType":"application/vnd.docker.container.image.v1+json","digest":"sha256:)" +
        std::string(64, '0') + R"(","size":1},"layers":[{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:)" +
        std::string(64, '1') + R"(","size":2},{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:)" + hex +
        R"(","size":)" + std::to_string(bytes.size()) + "}]}";
    test::write_file((root / "manifests/registry.ollama.ai/library/llama3.2/1b").string(),
                     std::vector<std::uint8_t>(manifest.begin(), manifest.end()));
    test::write_file((root / "manifests/registry.ollama.ai/someone/tiny/latest").string(),
                     std::vector<std::uint8_t>(manifest.begin(), manifest.end()));
    const std::string no_model = R"({"layers":[{"mediaType":"application/vnd.ollama.image.license","digest":"sha256:)" +
                                 std::string(64, '2') + R"("}]})";
    test::write_file((root / "manifests/registry.ollama.ai/library/llama3.2/nomodel").string(),
                     std::vector<std::uint8_t>(no_model.begin(), no_model.end()));
    const std::string missing_blob = R"({"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:)" +
                                     std::string(64, '3') + R"("}]})";
    test::write_file((root / "manifests/registry.ollama.ai/library/llama3.2/noblob").string(),
                     std::vector<std::uint8_t>(missing_blob.begin(), missing_blob.end()));

    const QByteArray old = qgetenv("OLLAMA_MODELS");
    qputenv("OLLAMA_MODELS", QByteArray::fromStdString(root.string()));
    const std::string expected_blob = (root / "blobs" / ("sha256-" + hex)).string();
    QCOMPARE(resolve_ollama("ollama:llama3.2:1b"), expected_blob);
    QCOMPARE(resolve_ollama("ollama:someone/tiny"), expected_blob);
    QCOMPARE(resolve_ollama("ollama:registry.ollama.ai/library/llama3.2:1b"), expected_blob);
    QVERIFY(is_ollama_spec("ollama:x"));
    QVERIFY(!is_ollama_spec("model.gguf"));
    auto code_of = [](const char* spec) -> std::optional<ErrorCode> {
        try {
            resolve_ollama(spec);
        } catch (const Error& e) {
            return e.code();
        }
        return std::nullopt;
    };
    QCOMPARE(code_of("ollama:llama3.2:missing"), std::optional(ErrorCode::Io));
    QCOMPARE(code_of("ollama:llama3.2:noblob"), std::optional(ErrorCode::Io));
    QCOMPARE(code_of("ollama:llama3.2:nomodel"), std::optional(ErrorCode::Malformed));
    QCOMPARE(code_of("ollama:../etc:passwd"), std::optional(ErrorCode::Usage));
    QCOMPARE(code_of("ollama:"), std::optional(ErrorCode::Usage));
    QCOMPARE(code_of("ollama:a/b/c/d"), std::optional(ErrorCode::Usage));

    // The resolved blob converts like the reference case.
    const Catalog cat = open_gguf(resolve_ollama("ollama:llama3.2:1b"));
    QCOMPARE(make_plan(cat).error_count(), std::size_t(0));
    if (old.isNull()) qunsetenv("OLLAMA_MODELS");
    else qputenv("OLLAMA_MODELS", old);
}

QTEST_APPLESS_MAIN(TestGguf)
#include "test_gguf.moc"
