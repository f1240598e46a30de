// SPDX-License-Identifier: MIT OR Apache-2.0
// amn on GGUF as a user runs it: `remember --to f32` of the real llama.cpp
// files against their expected safetensors and the manifest's per-tensor
// sha256, the reference gguf/ and ollama/ cases (ollama through a store
// built in a temporary OLLAMA_MODELS), `parse --kv` / `--json`, bad files
// (exit 1, one stderr line naming the file, no output), the default output
// name, and `--layout hf`.
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

namespace fs = std::filesystem;
using amn::test::run_amn;

namespace {

QString gguf_real_dir() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/gguf-real";
}

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

#define SKIP_WITHOUT_GGUF_REAL(var)                                          \
    AMN_REQUIRE_REFERENCE_DIR(ref_dir_);                                     \
    const QString var = gguf_real_dir();                                     \
    if (!QDir(var).exists()) {                                               \
        if (amn::test::reference_required()) QFAIL("gguf-real fixtures missing"); \
        QSKIP("gguf-real fixtures missing");                                 \
    }

// Exactly one line on stderr that names `file`; nothing on stdout.
void verify_one_error_line(const amn::test::RunResult& r, const QString& file) {
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains(file), qPrintable(r.err));
}

}  // namespace

class TestCliGguf : public QObject {
    Q_OBJECT
private slots:
    void rememberF32EqualsExpected_data();
    void rememberF32EqualsExpected();
    void rememberMatchesManifestSha256_data();
    void rememberMatchesManifestSha256();
    void referenceCases_data();
    void referenceCases();
    void ollamaStore();
    void parseKvAndJson();
    void badInputsExitOneWithoutOutput_data();
    void badInputsExitOneWithoutOutput();
    void defaultOutputName();
    void layoutHf();
};

void TestCliGguf::rememberF32EqualsExpected_data() {
    QTest::addColumn<QString>("gguf");
    QTest::addColumn<QString>("expected");
    const QString dir = gguf_real_dir();
    if (dir.isEmpty() || !QDir(dir).exists()) {
        QTest::newRow("(fixtures missing)") << QString() << QString();
        return;
    }
    int rows = 0;
    for (const auto& e : QDir(dir).entryList({"*.expected-f32.safetensors"}, QDir::Files, QDir::Name)) {
        const QString stem = e.left(e.size() - int(std::strlen(".expected-f32.safetensors")));
        QTest::newRow(qPrintable(stem)) << QDir(dir).filePath(stem + ".gguf") << QDir(dir).filePath(e);
        ++rows;
    }
    if (rows == 0) QTest::newRow("(no expected files)") << QString() << QString();
}

void TestCliGguf::rememberF32EqualsExpected() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QFETCH(QString, gguf);
    QFETCH(QString, expected);
    QVERIFY2(!gguf.isEmpty(), "gguf-real has no *.expected-f32.safetensors");
    QVERIFY(QFile::exists(gguf));
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.filePath("out.safetensors");
    const auto r = run_amn({"remember", gguf, "--to", "f32", "-o", out, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto diff = amn::test::compare_safetensors(out.toStdString(), expected.toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
    // The GGUF key/values travel along in __metadata__.
    const auto raw = amn::test::read_safetensors_raw(out.toStdString());
    QVERIFY(raw);
    QVERIFY(raw->metadata.count("gguf.kv"));
    const auto kv = QJsonDocument::fromJson(QByteArray::fromStdString(raw->metadata.at("gguf.kv"))).object();
    QCOMPARE(kv["general.architecture"].toString(), QString("llama"));
    QCOMPARE(kv["tokenizer.ggml.tokens"].toArray().size(), 512);  // tokenizer arrays complete
}

void TestCliGguf::rememberMatchesManifestSha256_data() {
    QTest::addColumn<QString>("file");
    // A sample across block families: k-quants, i-quants, legacy, ternary,
    // FP4, 1/2-bit and plain types.
    for (const char* f : {"tiny-llama-Q2_K.gguf", "tiny-llama-Q3_K_S.gguf", "tiny-llama-Q5_K_M.gguf", "tiny-llama-Q6_K.gguf",
                          "tiny-llama-IQ1_M.gguf", "tiny-llama-IQ3_XS.gguf", "tiny-llama-IQ4_XS.gguf", "tiny-llama-Q4_1.gguf",
                          "tiny-llama-Q5_0.gguf", "tiny-llama-Q8_0.gguf", "tiny-llama-TQ1_0.gguf", "tiny-llama-pure-TQ2_0.gguf",
                          "tiny-llama-pure-Q2_0.gguf", "tiny-llama-pure-IQ2_S.gguf", "tiny-llama-BF16.gguf", "tiny-llama-F16.gguf"})
        QTest::newRow(f) << QString(f);
}

void TestCliGguf::rememberMatchesManifestSha256() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QFETCH(QString, file);
    const QJsonObject manifest = read_json(dir + "/manifest.json");
    QJsonObject entry;
    for (const auto& f : manifest["files"].toArray())
        if (f.toObject()["file"].toString() == file) entry = f.toObject();
    QVERIFY2(!entry.isEmpty(), "file not in manifest.json");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.filePath("out.safetensors");
    const auto r = run_amn({"remember", dir + "/" + file, "--to", "f32", "-o", out, "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto raw = amn::test::read_safetensors_raw(out.toStdString());
    QVERIFY(raw);
    const auto tensors = entry["tensors"].toArray();
    QCOMPARE(raw->tensors.size(), static_cast<std::size_t>(tensors.size()));
    for (const auto& tv : tensors) {
        const auto t = tv.toObject();
        const std::string name = t["name"].toString().toStdString();
        const auto it = raw->tensors.find(name);
        QVERIFY2(it != raw->tensors.end(), name.c_str());
        QCOMPARE(it->second.dtype, std::string("F32"));
        std::vector<std::uint64_t> shape;
        for (const auto& d : t["shape_numpy_order"].toArray()) shape.push_back(static_cast<std::uint64_t>(d.toInteger()));
        QCOMPARE(it->second.shape, shape);
        const std::string sha = amn::detail::Sha256::of(it->second.bytes.data(), it->second.bytes.size());
        QVERIFY2(sha == t["expected_f32_sha256"].toString().toStdString(), (name + " (" + t["ggml_type"].toString().toStdString() + ")").c_str());
    }
}

void TestCliGguf::referenceCases_data() {
    QTest::addColumn<QString>("dir");
    const auto cases = amn::test::reference_cases("gguf");
    for (const auto& c : cases) QTest::newRow(qPrintable(QFileInfo(c).fileName())) << c;
    if (cases.isEmpty()) QTest::newRow("(fixtures missing)") << QString();
}

void TestCliGguf::referenceCases() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, dir);
    QVERIFY2(!dir.isEmpty(), "no reference/gguf cases");
    const QJsonObject fx = read_json(dir + "/fixture.json");
    QCOMPARE(fx["kind"].toString(), QString("gguf"));
    const QString input = dir + "/input/model.gguf";
    QVERIFY(QFile::exists(input));
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // Default dtype (BF16) against expected.safetensors, --to f32 against expected_f32.
    auto r = run_amn({"remember", input, "-o", tmp.filePath("bf16.safetensors"), "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    auto diff = amn::test::compare_safetensors(tmp.filePath("bf16.safetensors").toStdString(), (dir + "/expected.safetensors").toStdString());
    QVERIFY2(diff.empty(), diff.c_str());
    if (QFile::exists(dir + "/expected_f32.safetensors")) {
        r = run_amn({"remember", input, "--to", "f32", "-o", tmp.filePath("f32.safetensors"), "--quiet"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        diff = amn::test::compare_safetensors(tmp.filePath("f32.safetensors").toStdString(), (dir + "/expected_f32.safetensors").toStdString());
        QVERIFY2(diff.empty(), diff.c_str());
    }
    // The expected tensor is there under the name the fixture names.
    const auto raw = amn::test::read_safetensors_raw(tmp.filePath("bf16.safetensors").toStdString());
    QVERIFY(raw && raw->tensors.count(fx["expected_tensor"].toString().toStdString()));
}

void TestCliGguf::ollamaStore() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const auto cases = amn::test::reference_cases("ollama");
    QVERIFY2(!cases.isEmpty(), "no reference/ollama cases");
    for (const auto& dir : cases) {
        const QJsonObject fx = read_json(dir + "/fixture.json");
        QCOMPARE(fx["kind"].toString(), QString("ollama"));
        // The case ships the blob as input/model.gguf; lay out the store
        // ollama itself would have: manifests/HOST/NAMESPACE/NAME/TAG + blobs/sha256-HEX.
        const auto blob = amn::test::read_file((dir + "/input/model.gguf").toStdString());
        QVERIFY(!blob.empty());
        const std::string hex = amn::detail::Sha256::of(blob.data(), blob.size());
        QTemporaryDir store;
        QVERIFY(store.isValid());
        const std::string root = store.path().toStdString();
        fs::create_directories(root + "/blobs");
        fs::create_directories(root + "/manifests/registry.ollama.ai/library/tinycase");
        amn::test::write_file(root + "/blobs/sha256-" + hex, blob);
        const std::string manifest =
            R"({"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json",)"
            R"("config":{"mediaType":"application/vnd.docker.container.image.v1+json","digest":"sha256:)" + std::string(64, '0') +
            R"(","size":1},"layers":[{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:)" + std::string(64, '1') +
            R"(","size":1},{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:)" + hex + R"(","size":)" +
            std::to_string(blob.size()) + "}]}";
        amn::test::write_file(root + "/manifests/registry.ollama.ai/library/tinycase/q8", {manifest.begin(), manifest.end()});

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QStringList env{"OLLAMA_MODELS=" + store.path()};
        const QString cli = QString::fromStdString(amn::test::cli_path());
        auto r = amn::test::run(cli, {"remember", "ollama:tinycase:q8", "-o", tmp.filePath("out.safetensors"), "--quiet"}, 300000, env);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto diff = amn::test::compare_safetensors(tmp.filePath("out.safetensors").toStdString(), (dir + "/expected.safetensors").toStdString());
        QVERIFY2(diff.empty(), diff.c_str());
        r = amn::test::run(cli, {"parse", "ollama:library/tinycase:q8"}, 300000, env);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(fx["expected_tensor"].toString()));
        // Without OLLAMA_MODELS: ~/.ollama/models.
        QTemporaryDir home;
        QVERIFY(home.isValid());
        fs::create_directories(home.path().toStdString() + "/.ollama");
        fs::create_directory_symlink(root, home.path().toStdString() + "/.ollama/models");
        r = amn::test::run(cli, {"remember", "ollama:tinycase:q8", "-o", tmp.filePath("home.safetensors"), "--quiet"}, 300000,
                           {"OLLAMA_MODELS=", "HOME=" + home.path()});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(amn::test::compare_safetensors(tmp.filePath("home.safetensors").toStdString(), (dir + "/expected.safetensors").toStdString()).empty());
        // A tag that is not in the store: exit 1 naming where it looked.
        r = amn::test::run(cli, {"parse", "ollama:tinycase:missing"}, 300000, env);
        QCOMPARE(r.exit_code, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("tinycase/missing"), qPrintable(r.err));
    }
}

void TestCliGguf::parseKvAndJson() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    const QString f = dir + "/tiny-llama-Q4_K_M.gguf";
    auto r = run_amn({"parse", f, "--kv"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("GGUF v3"));
    QVERIFY(r.out.contains("alignment 32"));
    QVERIFY(r.out.contains("architecture llama"));
    QVERIFY(r.out.contains("Q4_K_M"));
    const auto lines = r.out.split('\n');
    auto line_of = [&](const QString& key) {
        for (const auto& l : lines)
            if (l.trimmed().startsWith(key + " ")) return l.simplified();
        return QString();
    };
    QCOMPARE(line_of("llama.attention.head_count_kv"), QString("llama.attention.head_count_kv u32 2"));
    QCOMPARE(line_of("llama.embedding_length"), QString("llama.embedding_length u32 256"));
    QCOMPARE(line_of("general.architecture"), QString("general.architecture string \"llama\""));
    QVERIFY2(line_of("tokenizer.ggml.tokens").startsWith("tokenizer.ggml.tokens array[string] [\"<unk>\",\"<s>\",\"</s>\""),
             qPrintable(line_of("tokenizer.ggml.tokens")));
    QVERIFY(line_of("tokenizer.ggml.tokens").contains("more"));  // summarised, not 512 entries
    // Without --kv no key/values.
    r = run_amn({"parse", f});
    QVERIFY(!r.out.contains("tokenizer.ggml.tokens"));

    r = run_amn({"parse", f, "--json"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QJsonParseError err{};
    const auto doc = QJsonDocument::fromJson(r.out.toUtf8(), &err);
    QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
    const QJsonObject g = doc.object()["gguf"].toObject();
    QCOMPARE(g["version"].toInt(), 3);
    QCOMPARE(g["alignment"].toInt(), 32);
    QCOMPARE(g["architecture"].toString(), QString("llama"));
    QCOMPARE(g["file_type_name"].toString(), QString("Q4_K_M"));
    const QJsonObject manifest = read_json(dir + "/manifest.json");
    for (const auto& e : manifest["files"].toArray())
        if (e.toObject()["file"].toString() == "tiny-llama-Q4_K_M.gguf") {
            QCOMPARE(g["tensor_count"].toInt(), e.toObject()["tensor_count"].toInt());
            QCOMPARE(g["alignment"].toInt(), e.toObject()["alignment"].toInt());
            QCOMPARE(g["file_type"].toInt(), e.toObject()["general.file_type"].toInt());
        }
    const QJsonObject kv = g["kv"].toObject();
    QCOMPARE(kv["llama.block_count"].toInt(), 2);
    QCOMPARE(kv["tokenizer.ggml.bos_token_id"].toInt(), 1);
    QVERIFY(kv["tokenizer.ggml.tokens"].toArray().size() < 512);  // summarised without --kv
    // --json --kv: complete values.
    r = run_amn({"parse", f, "--json", "--kv"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QJsonObject full = QJsonDocument::fromJson(r.out.toUtf8()).object()["gguf"].toObject()["kv"].toObject();
    QCOMPARE(full["tokenizer.ggml.tokens"].toArray().size(), 512);
    QCOMPARE(full["tokenizer.ggml.tokens"].toArray().at(1).toString(), QString("<s>"));
    // Tensor list: the manifest's types per tensor.
    const auto tensors = doc.object()["tensors"].toArray();
    QCOMPARE(tensors.size(), g["tensor_count"].toInt());
}

void TestCliGguf::badInputsExitOneWithoutOutput_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("cause");  // a word the one-line message must contain
    auto u32 = [](QByteArray& b, quint32 v) { b.append(reinterpret_cast<const char*>(&v), 4); };
    auto u64 = [](QByteArray& b, quint64 v) { b.append(reinterpret_cast<const char*>(&v), 8); };
    auto str = [&](QByteArray& b, const QByteArray& s) { u64(b, quint64(s.size())); b.append(s); };
    auto head = [&](quint32 version, quint64 nt, quint64 nkv) {
        QByteArray b("GGUF");
        u32(b, version);
        u64(b, nt);
        u64(b, nkv);
        return b;
    };
    // One F32 [8] tensor at `offset`, data section of `data` bytes.
    auto one_tensor = [&](quint64 offset, int data, const QByteArray& name = "t") {
        QByteArray b = head(3, 1, 0);
        str(b, name);
        u32(b, 1);
        u64(b, 8);
        u32(b, 0);
        u64(b, offset);
        while (b.size() % 32) b.append('\0');
        b.append(QByteArray(data, '\0'));
        return b;
    };
    QTest::newRow("empty file") << QByteArray() << "";
    QTest::newRow("bad magic") << QByteArray("GGUX\x03\0\0\0", 8) + QByteArray(16, '\0') << "";
    QTest::newRow("truncated header") << QByteArray("GGUF\x03\0\0\0\x01\0", 10) << "";
    QTest::newRow("GGUF v1") << head(1, 0, 0) << "";
    QTest::newRow("GGJT") << QByteArray("tjgg\x01\0\0\0", 8) + QByteArray(64, '\0') << "";
    {
        QByteArray b = head(3, 0, 1);
        str(b, "general.name");
        u32(b, 8);
        u64(b, 1ull << 40);  // string length past EOF
        QTest::newRow("string past EOF") << b << "";
    }
    {
        QByteArray b = head(3, 0, 1);
        str(b, "a");
        u32(b, 9);  // array
        u32(b, 4);
        u64(b, 1ull << 60);
        QTest::newRow("absurd array length") << b << "";
    }
    QTest::newRow("absurd tensor count") << head(3, 1ull << 50, 0) << "";
    QTest::newRow("absurd kv count") << head(3, 0, 1ull << 50) << "";
    {
        QByteArray b = head(3, 1, 0);
        str(b, "t");
        u32(b, 9);  // 9 dims
        for (int i = 0; i < 9; ++i) u64(b, 1);
        u32(b, 0);
        u64(b, 0);
        QTest::newRow("9 dims") << b << "";
    }
    QTest::newRow("offset outside data") << one_tensor(64, 32) << "";
    QTest::newRow("misaligned offset") << one_tensor(4, 64) << "";
    {
        QByteArray b = head(3, 2, 0);
        for (int i = 0; i < 2; ++i) {
            str(b, "same");
            u32(b, 1);
            u64(b, 8);
            u32(b, 0);
            u64(b, quint64(i) * 32);
        }
        while (b.size() % 32) b.append('\0');
        b.append(QByteArray(64, '\0'));
        QTest::newRow("duplicate names") << b << "same";
    }
    // A real llama.cpp file cut short: in the key/values, and in the tensor data.
    QFile real(gguf_real_dir() + "/tiny-llama-Q4_K_M.gguf");
    if (real.open(QIODevice::ReadOnly)) {
        const QByteArray all = real.readAll();
        QTest::newRow("real file cut in the key/values") << all.left(3000) << "";
        QTest::newRow("real file cut in the data") << all.left(all.size() / 2) << "past the end";
    }
}

void TestCliGguf::badInputsExitOneWithoutOutput() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, cause);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString in = tmp.filePath("bad.gguf");
    {
        QFile f(in);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    for (const QStringList& args : {QStringList{"remember", in, "-o", tmp.filePath("out.safetensors")},
                                    QStringList{"remember", in}, QStringList{"parse", in}, QStringList{"inspect", in, "--json"}}) {
        const auto r = run_amn(args);
        if (args.contains("--json")) {
            QCOMPARE(r.exit_code, 1);
            continue;  // --json errors are reported as JSON (test_cli covers the shape)
        }
        verify_one_error_line(r, in);
        if (!cause.isEmpty()) QVERIFY2(r.err.contains(cause), qPrintable(r.err));
        // Nothing written: the folder holds only the input (no temporary files either).
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"bad.gguf"});
    }
}

void TestCliGguf::defaultOutputName() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QFile::copy(dir + "/tiny-llama-Q4_K_M.gguf", tmp.filePath("model-Q4_K_M.gguf")));
    auto r = run_amn({"remember", tmp.filePath("model-Q4_K_M.gguf"), "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(tmp.filePath("model-bf16.safetensors")));
    r = run_amn({"remember", tmp.filePath("model-Q4_K_M.gguf"), "--to", "f16", "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(tmp.filePath("model-f16.safetensors")));
    // Again without --force: refused, the first output untouched.
    const auto before = amn::test::read_file(tmp.filePath("model-bf16.safetensors").toStdString());
    r = run_amn({"remember", tmp.filePath("model-Q4_K_M.gguf"), "--quiet"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.err.contains("--force"));
    QVERIFY(amn::test::read_file(tmp.filePath("model-bf16.safetensors").toStdString()) == before);
    auto files = QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
    files.sort();
    QCOMPARE(files, (QStringList{"model-Q4_K_M.gguf", "model-bf16.safetensors", "model-f16.safetensors"}));
}

void TestCliGguf::layoutHf() {
    SKIP_WITHOUT_GGUF_REAL(dir);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QFile::copy(dir + "/tiny-llama-Q4_K_M.gguf", tmp.filePath("tiny-Q4_K_M.gguf")));
    // Default output: a folder transformers can load.
    auto r = run_amn({"remember", tmp.filePath("tiny-Q4_K_M.gguf"), "--layout", "hf"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString out = tmp.filePath("tiny-bf16");
    QVERIFY2(QFile::exists(out + "/model.safetensors"), qPrintable(r.out));
    const QJsonObject cfg = read_json(out + "/config.json");
    QCOMPARE(cfg["architectures"].toArray(), QJsonArray{"LlamaForCausalLM"});
    QCOMPARE(cfg["num_key_value_heads"].toInt(), 2);
    QCOMPARE(cfg["torch_dtype"].toString(), QString("bfloat16"));
    const auto raw = amn::test::read_safetensors_raw((out + "/model.safetensors").toStdString());
    QVERIFY(raw);
    QCOMPARE(raw->tensors.size(), std::size_t{21});
    QVERIFY(raw->tensors.count("model.layers.1.self_attn.k_proj.weight"));
    QCOMPARE(raw->tensors.at("model.layers.1.self_attn.k_proj.weight").shape, (std::vector<std::uint64_t>{128, 256}));
    QCOMPARE(raw->tensors.at("model.layers.1.self_attn.k_proj.weight").dtype, std::string("BF16"));
    QVERIFY(raw->tensors.count("lm_head.weight"));
    // amn convert --to safetensors --layout hf with -o and --to f32 in config.
    r = run_amn({"convert", tmp.filePath("tiny-Q4_K_M.gguf"), "--to", "f32", "--layout", "hf", "-o", tmp.filePath("hf32"), "--quiet"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QCOMPARE(read_json(tmp.filePath("hf32/config.json"))["torch_dtype"].toString(), QString("float32"));
    // Usage: unknown layout → 2; a non-GGUF input → 1, one line, nothing written.
    r = run_amn({"remember", tmp.filePath("tiny-Q4_K_M.gguf"), "--layout", "onnx"});
    QCOMPARE(r.exit_code, 2);
    const QString st = out + "/model.safetensors";
    r = run_amn({"remember", st, "--layout", "hf", "-o", tmp.filePath("again")});
    verify_one_error_line(r, st);
    QVERIFY(r.err.contains("GGUF"));
    QVERIFY(!QFile::exists(tmp.filePath("again")));
}

QTEST_APPLESS_MAIN(TestCliGguf)
#include "test_cli_gguf.moc"
