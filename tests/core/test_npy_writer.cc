// SPDX-License-Identifier: MIT OR Apache-2.0
// anamnesis/npy_writer.hpp:
//   * write_npy of real fixture tensors (GGUF Q4_K/Q6_K from gguf-real and
//     the reference GGUF case against gguf-py's F32 dequantization; FP8
//     128×128 blocks against the reference BF16) read back with
//     numpy.load by tests/core/npy_check.py (/usr/bin/python3): F32 bit for
//     bit, F16 equal to numpy's astype(float16);
//   * the header is numpy's (byte-equal to what numpy.save writes for the
//     same shape and dtype), data 64-byte aligned, 1-D and 3-D shapes;
//   * bad requests: BF16 (not an npy dtype) → Usage, an existing file
//     without force → OutputExists and untouched, the input as output →
//     Usage, cancel → Cancelled with no file left behind;
//   * preview_values: the first rows × columns equal the reference values.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/npy_writer.hpp"
#include "anamnesis/plan.hpp"

#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <optional>

using namespace amn;

namespace {

const LogicalTensor* find(const Plan& plan, const std::string& name) {
    for (const auto& t : plan.tensors)
        if (t.name == name) return &t;
    return nullptr;
}

QString check(const std::string& npy, const std::string& ref, const std::string& name, const char* mode) {
    const auto r = test::run(QString::fromStdString(test::python()),
                             {QString::fromStdString(test::source_dir() + "/tests/core/npy_check.py"), QString::fromStdString(npy),
                              QString::fromStdString(ref), QString::fromStdString(name), QString::fromLatin1(mode)});
    return r.exit_code == 0 && r.out.startsWith(QStringLiteral("OK")) ? QString() : r.out + r.err;
}

}  // namespace

class TestNpyWriter : public QObject {
    Q_OBJECT
private slots:
    void realTensorsReadBackByNumpy();
    void headerIsNumpys();
    void badRequests();
    void previewMatchesReference();
};

void TestNpyWriter::realTensorsReadBackByNumpy() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string out = tmp.path().toStdString();
    const std::string gr = test::shared_fixtures_dir() + "/gguf-real";
    struct Case { std::string model, expected, tensor; const char* mode; };
    const std::vector<Case> cases{
        {gr + "/tiny-llama-Q4_K_M.gguf", gr + "/tiny-llama-Q4_K_M.expected-f32.safetensors", "blk.0.ffn_down.weight", "f32"},
        {gr + "/tiny-llama-Q4_K_M.gguf", gr + "/tiny-llama-Q4_K_M.expected-f32.safetensors", "blk.1.ffn_down.weight", "f32"},  // Q6_K
        {gr + "/tiny-llama-Q4_K_M.gguf", gr + "/tiny-llama-Q4_K_M.expected-f32.safetensors", "output_norm.weight", "f32"},   // 1-D F32
        {gr + "/tiny-llama-Q4_K_M.gguf", gr + "/tiny-llama-Q4_K_M.expected-f32.safetensors", "output.weight", "f16"},
        {ref + "/gguf/smollm2_q4_k/input/model.gguf", ref + "/gguf/smollm2_q4_k/expected_f32.safetensors", "blk.0.ffn_down.weight", "f32"},
        {ref + "/gguf/smollm2_q4_k/input/model.gguf", ref + "/gguf/smollm2_q4_k/expected_f32.safetensors", "blk.0.ffn_down.weight", "f16"},
        {ref + "/fp8/exaone_fine_grained/input", ref + "/fp8/exaone_fine_grained/expected.safetensors",
         "model.layers.0.mlp.down_proj.weight", "bf16"},
    };
    int n = 0;
    for (const auto& c : cases) {
        const auto cat = open_model(c.model);
        const auto plan = make_plan(cat);
        const auto* t = find(plan, c.tensor);
        QVERIFY2(t, c.tensor.c_str());
        const std::string path = out + "/t" + std::to_string(n++) + ".npy";
        const DType dt = std::strcmp(c.mode, "f16") == 0 ? DType::F16 : DType::F32;
        std::uint64_t last = 0, total = 0;
        const auto r = write_npy(cat, *t, path, dt, false, [&](const Progress& p) { last = p.done; total = p.total; },
                                 nullptr, 1000);  // small chunks: many writes
        QCOMPARE(r.bytes, std::uint64_t(std::filesystem::file_size(path)));
        QCOMPARE(r.bytes, npy_header(t->shape, dt).size() + t->numel() * (dt == DType::F16 ? 2 : 4));
        QCOMPARE(last, total);
        const QString diff = check(path, c.expected, c.tensor, c.mode);
        QVERIFY2(diff.isEmpty(), qPrintable(QString::fromStdString(c.tensor + " " + c.mode + ": ") + diff));
    }
}

void TestNpyWriter::headerIsNumpys() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string dir = tmp.path().toStdString();
    // numpy.save of zero arrays of these shapes; our header must equal numpy's bytes. numpy.save
    // writes the header in one write() first; the file object keeps that and stops it there (the
    // data of [100000, 4096] would be 800 MB of zeros).
    const std::vector<std::pair<std::vector<std::uint64_t>, DType>> cases{
        {{7}, DType::F32}, {{3, 5}, DType::F16}, {{2, 3, 4}, DType::F32}, {{}, DType::F32}, {{100000, 4096}, DType::F16}};
    int i = 0;
    for (const auto& [shape, dt] : cases) {
        QString tuple;
        for (auto s : shape) tuple += QString::number(s) + QLatin1Char(',');
        const QString file = QString::fromStdString(dir) + QStringLiteral("/h%1.npy").arg(i++);
        const auto r = test::run(QString::fromStdString(test::python()),
                                 {QStringLiteral("-c"),
                                  QStringLiteral("import numpy,sys\n"
                                                 "class Header:\n"
                                                 "    def __init__(self): self.b = None\n"
                                                 "    def write(self, b):\n"
                                                 "        if self.b is not None: raise StopIteration\n"
                                                 "        self.b = bytes(b)\n"
                                                 "h = Header()\n"
                                                 "try: numpy.save(h, numpy.lib.stride_tricks.as_strided(numpy.zeros(1, dtype=sys.argv[2]), shape=(%1), strides=(%2)))\n"
                                                 "except StopIteration: pass\n"
                                                 "open(sys.argv[1], 'wb').write(h.b)")
                                      .arg(tuple, QString(QStringLiteral("0,")).repeated(int(shape.size()))),
                                  file, dt == DType::F16 ? QStringLiteral("<f2") : QStringLiteral("<f4")});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto bytes = test::read_file(file.toStdString());
        const std::string h = npy_header(shape, dt);
        QVERIFY(h.size() % 64 == 0);
        QCOMPARE(bytes.size(), h.size());  // numpy's header write alone
        QCOMPARE(QByteArray(h.data(), qsizetype(h.size())), QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(h.size())));
    }
}

void TestNpyWriter::badRequests() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string dir = tmp.path().toStdString();
    const std::string model = ref + "/gguf/smollm2_q4_k/input/model.gguf";
    const auto cat = open_model(model);
    const auto plan = make_plan(cat);
    const auto* t = find(plan, "blk.0.ffn_down.weight");
    QVERIFY(t);
    auto code_of = [](auto&& f) -> std::optional<ErrorCode> {
        try { f(); } catch (const Error& e) { return e.code(); }
        return std::nullopt;
    };
    QCOMPARE(code_of([&] { write_npy(cat, *t, dir + "/a.npy", DType::BF16); }), std::optional(ErrorCode::Usage));
    QVERIFY(!std::filesystem::exists(dir + "/a.npy"));
    test::write_file(dir + "/b.npy", {1, 2, 3});
    QCOMPARE(code_of([&] { write_npy(cat, *t, dir + "/b.npy", DType::F32); }), std::optional(ErrorCode::OutputExists));
    QCOMPARE(test::read_file(dir + "/b.npy"), (std::vector<std::uint8_t>{1, 2, 3}));
    QCOMPARE(code_of([&] { write_npy(cat, *t, model, DType::F32, true); }), std::optional(ErrorCode::Usage));
    std::atomic<bool> cancel{true};
    QCOMPARE(code_of([&] { write_npy(cat, *t, dir + "/c.npy", DType::F32, false, {}, &cancel); }), std::optional(ErrorCode::Cancelled));
    QCOMPARE(test::list_files(tmp.path()), QStringList{QStringLiteral("b.npy")});  // nothing half-written
    write_npy(cat, *t, dir + "/b.npy", DType::F32, true);  // force replaces
    QVERIFY(std::filesystem::file_size(dir + "/b.npy") > 3);
}

void TestNpyWriter::previewMatchesReference() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const std::string gr = test::shared_fixtures_dir() + "/gguf-real";
    const auto cat = open_model(gr + "/tiny-llama-Q4_K_M.gguf");
    const auto plan = make_plan(cat);
    const auto f32 = test::read_safetensors_raw(gr + "/tiny-llama-Q4_K_M.expected-f32.safetensors");
    QVERIFY(f32);
    for (const char* name : {"blk.0.attn_q.weight", "output_norm.weight"}) {
        const auto* t = find(plan, name);
        QVERIFY(t);
        const auto p = preview_values(*t, 64, 16);
        const auto& want = f32->tensors.at(name);  // viewed as numpy's reshape(-1, shape[-1])
        const std::uint64_t C = want.shape.back();
        const std::uint64_t R = want.bytes.size() / 4 / C;
        QCOMPARE(R, std::string(name) == "output_norm.weight" ? std::uint64_t(1) : std::uint64_t(256));
        QCOMPARE(p.total_cols, C);
        QCOMPARE(p.total_rows, R);
        QCOMPARE(p.rows, std::min<std::uint64_t>(64, R));
        QCOMPARE(p.cols, std::min<std::uint64_t>(16, C));
        for (std::uint64_t r = 0; r < p.rows; ++r)
            for (std::uint64_t c = 0; c < p.cols; ++c) {
                float w;
                std::memcpy(&w, want.bytes.data() + (r * C + c) * 4, 4);
                QCOMPARE(p.values[r * p.cols + c], w);
            }
    }
}

QTEST_APPLESS_MAIN(TestNpyWriter)
#include "test_npy_writer.moc"
