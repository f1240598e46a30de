// SPDX-License-Identifier: MIT OR Apache-2.0
// forget_to_gguf in process (the CLI suite test_cli_forget runs it as a
// subprocess), judged by files llama-quantize wrote (shared fixtures
// gguf-real/, llama.cpp 34af94c, made from tiny-llama-F32.gguf):
// - every file type: the whole file byte for byte, with and without the
//   measured round trip;
// - --pure and --tensor-type/--token-embedding-type/--output-tensor-type:
//   the pure-<T> files byte for byte, and the rule plan_gguf_forget names
//   for every tensor; --pure alone gives the pure-Q4_0 file; a --tensor-type
//   pattern on top of a mix (Q4_K_M, attn_v=Q8_0) gives the attn_v tensors
//   of the Q8_0 file and every other tensor of the Q4_K_M file;
// - an importance matrix (IQ3_XS: the whole file, the imatrix named as
//   llama-quantize was given it);
// - cancel (at the start or mid-run), an existing output without force and
//   the input as output leave nothing new behind and the old file as it was.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/plan.hpp"
#include "gguf_test_support.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <map>

using namespace amn;
using test::error_code_of;
namespace fs = std::filesystem;

namespace {

std::string real(const std::string& name) { return test_gguf::gguf_real(name); }

#define SKIP_WITHOUT_GGUF_REAL()                                                 \
    do {                                                                         \
        if (!fs::exists(real("tiny-llama-F32.gguf"))) QSKIP("gguf-real fixture missing"); \
    } while (0)

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The first byte where two files differ ("" when they are equal).
QString first_difference(const std::string& got, const std::string& want) {
    const auto a = test::read_file(got), b = test::read_file(want);
    if (b.empty()) return QString::fromStdString("cannot read " + want);
    if (a.size() != b.size()) return QString("size %1 vs %2").arg(a.size()).arg(b.size());
    std::size_t i = 0;
    while (i < a.size() && a[i] == b[i]) ++i;
    return i == a.size() ? QString() : QString("first differing byte at %1").arg(i);
}

// Type and stored bytes of every tensor of a GGUF file, by name.
struct StoredTensor {
    DType type;
    std::vector<std::uint8_t> bytes;
};
std::map<std::string, StoredTensor> tensors_of(const std::string& path) {
    const Catalog c = open_gguf(path);
    std::map<std::string, StoredTensor> out;
    for (const auto& t : c.tensors) {
        const std::uint8_t* p = c.data(t);
        out[t.name] = {t.dtype, std::vector<std::uint8_t>(p, p + t.nbytes)};
    }
    return out;
}

struct Input {
    Catalog cat;
    Plan plan;
    explicit Input(const std::string& path) : cat(open_model(path)), plan(make_plan(cat)) {}
};

const Input& f32_input() {
    static const Input in(real("tiny-llama-F32.gguf"));
    return in;
}

}  // namespace

class TestForgetGguf : public QObject {
    Q_OBJECT
private slots:
    void fileTypes_data();
    void fileTypes();
    void pureAndOverrides_data();
    void pureAndOverrides();
    void pureAlone();
    void tensorTypeOverMix();
    void imatrix();
    void cancelLeavesNothing();
    void refusalsLeaveOldFile();
};

void TestForgetGguf::fileTypes_data() {
    QTest::addColumn<QString>("ftype");
    for (const char* ft : {"F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K_S", "Q3_K_M", "Q3_K_L",
                           "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K", "IQ4_NL", "IQ4_XS", "IQ3_S", "IQ3_M", "TQ1_0",
                           "TQ2_0", "Q1_0", "Q2_0"})
        QTest::newRow(ft) << QString(ft);
}

// `llama-quantize tiny-llama-F32.gguf out.gguf FT 2`, byte for byte; the
// measured round trip changes nothing in the file.
void TestForgetGguf::fileTypes() {
    SKIP_WITHOUT_GGUF_REAL();
    QFETCH(QString, ftype);
    QTemporaryDir tmp;
    const Input& in = f32_input();
    GgufForgetOptions opt;
    opt.ftype = ftype.toStdString();
    opt.threads = 2;
    const std::string want = real("tiny-llama-" + opt.ftype + ".gguf");
    for (const bool measure : {true, false}) {
        opt.measure_loss = measure;
        opt.output = tmp.filePath(measure ? "measured.gguf" : "plain.gguf").toStdString();
        const GgufWriteResult res = forget_to_gguf(in.cat, in.plan, opt);
        QCOMPARE(res.file, opt.output);
        QCOMPARE(res.loss_measured, measure);
        QCOMPARE(res.file_bytes, static_cast<std::uint64_t>(fs::file_size(want)));
        const QString diff = first_difference(opt.output, want);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
    QCOMPARE(files_in(tmp.path().toStdString()), (std::vector<std::string>{"measured.gguf", "plain.gguf"}));
}

void TestForgetGguf::pureAndOverrides_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("ftype");
    const std::pair<const char*, const char*> pure[] = {
        {"Q4_0", "Q4_0"},     {"Q4_1", "Q4_1"},     {"Q5_0", "Q5_0"},   {"Q5_1", "Q5_1"},     {"Q2_K", "Q2_K"},
        {"IQ4_NL", "IQ4_NL"}, {"IQ4_XS", "IQ4_XS"}, {"IQ3_S", "IQ3_S"}, {"TQ1_0", "TQ1_0"},   {"TQ2_0", "TQ2_0"},
        {"Q1_0", "Q1_0"},     {"Q2_0", "Q2_0"},     {"Q3_K", "Q3_K_M"}, {"Q4_K", "Q4_K_M"},   {"Q5_K", "Q5_K_M"},
        {"MXFP4", "MXFP4_MOE"}, {"NVFP4", "Q8_0"}};
    for (const auto& [t, ft] : pure) QTest::newRow(t) << QString(t) << QString(ft);
}

// `llama-quantize --pure --token-embedding-type T --output-tensor-type T
// --tensor-type '.*=T' … FT`: the file byte for byte, and each tensor's
// rule: token_embd by --token-embedding-type, output by
// --output-tensor-type, every other 2-D weight by the pattern, the rest
// kept as stored (their type in llama-quantize's file).
void TestForgetGguf::pureAndOverrides() {
    SKIP_WITHOUT_GGUF_REAL();
    QFETCH(QString, type);
    QFETCH(QString, ftype);
    const std::string want = real("tiny-llama-pure-" + type.toStdString() + ".gguf");
    const DType t = parse_ggml_type(type.toStdString()).value();
    QTemporaryDir tmp;
    const Input& in = f32_input();
    GgufForgetOptions opt;
    opt.ftype = ftype.toStdString();
    opt.pure = true;
    opt.token_embedding_type = t;
    opt.output_tensor_type = t;
    opt.tensor_types = {parse_tensor_type_override(".*=" + type.toStdString())};
    opt.output = tmp.filePath("out.gguf").toStdString();
    opt.threads = 2;

    const auto ref = tensors_of(want);
    const auto planned = plan_gguf_forget(in.cat, in.plan, opt);
    QCOMPARE(planned.size(), ref.size());
    for (const auto& p : planned) {
        QVERIFY2(ref.count(p.name), p.name.c_str());
        QVERIFY2(p.target == ref.at(p.name).type, p.name.c_str());
        QVERIFY(p.gguf_reason.has_value());
        TypeRule rule = TypeRule::TensorType;
        if (p.shape.size() < 2) rule = TypeRule::Kept;
        else if (p.name == "token_embd.weight") rule = TypeRule::TokenEmbeddingType;
        else if (p.name == "output.weight") rule = TypeRule::OutputTensorType;
        QVERIFY2(p.gguf_reason->rule == rule, p.name.c_str());
        QVERIFY2(!p.st_rule, p.name.c_str());
    }

    const GgufWriteResult res = forget_to_gguf(in.cat, in.plan, opt);
    const QString diff = first_difference(opt.output, want);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QCOMPARE(res.tensors.size(), planned.size());
    for (std::size_t i = 0; i < planned.size(); ++i) {
        QCOMPARE(res.tensors[i].name, planned[i].name);
        QCOMPARE(res.tensors[i].target, planned[i].target);
        QCOMPARE(res.tensors[i].bytes, planned[i].bytes);
    }
}

// --pure alone: the file type's default type for every quantizable tensor
// (no mix rule: output and token_embd too), so Q4_0 gives the file made with
// the explicit overrides to Q4_0.
void TestForgetGguf::pureAlone() {
    SKIP_WITHOUT_GGUF_REAL();
    QTemporaryDir tmp;
    const Input& in = f32_input();
    GgufForgetOptions opt;
    opt.ftype = "Q4_0";
    opt.pure = true;
    opt.output = tmp.filePath("out.gguf").toStdString();
    for (const auto& p : plan_gguf_forget(in.cat, in.plan, opt))
        QVERIFY2(p.gguf_reason->rule == (p.shape.size() < 2 ? TypeRule::Kept : TypeRule::Pure), p.name.c_str());
    forget_to_gguf(in.cat, in.plan, opt);
    const QString diff = first_difference(opt.output, real("tiny-llama-pure-Q4_0.gguf"));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// Q4_K_M with --tensor-type attn_v=Q8_0: the attn_v tensors are what
// llama-quantize's Q8_0 file holds, every other tensor what its Q4_K_M
// file holds (the pattern wins before the mix rules; the mix rules of the
// other tensors do not count attn_v).
void TestForgetGguf::tensorTypeOverMix() {
    SKIP_WITHOUT_GGUF_REAL();
    QTemporaryDir tmp;
    const Input& in = f32_input();
    GgufForgetOptions opt;
    opt.ftype = "Q4_K_M";
    opt.tensor_types = {parse_tensor_type_override("attn_v=Q8_0")};
    opt.output = tmp.filePath("out.gguf").toStdString();
    opt.threads = 2;
    const GgufWriteResult res = forget_to_gguf(in.cat, in.plan, opt);
    const auto got = tensors_of(opt.output);
    const auto mix = tensors_of(real("tiny-llama-Q4_K_M.gguf"));
    const auto q8 = tensors_of(real("tiny-llama-Q8_0.gguf"));
    QCOMPARE(got.size(), mix.size());
    int attn_v = 0;
    for (const auto& [name, t] : got) {
        const bool v = name.find("attn_v") != std::string::npos;
        attn_v += v;
        const StoredTensor& want = v ? q8.at(name) : mix.at(name);
        QVERIFY2(t.type == want.type, name.c_str());
        QVERIFY2(t.bytes == want.bytes, name.c_str());
    }
    QVERIFY(attn_v >= 2);
    for (const auto& t : res.tensors) {
        if (t.name.find("attn_v") == std::string::npos) continue;
        QCOMPARE(t.gguf_reason->rule, TypeRule::TensorType);
        QCOMPARE(t.gguf_reason->pattern, std::string("attn_v"));  // --tensor-type 'attn_v'=q8_0
        QCOMPARE(t.gguf_reason->chosen, DType::Q8_0);
    }
}

// `llama-quantize --imatrix tiny.imatrix.gguf … IQ3_XS`, run where the
// imatrix is, so that quantize.imatrix.file records the same relative name.
void TestForgetGguf::imatrix() {
    SKIP_WITHOUT_GGUF_REAL();
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    fs::copy_file(real("aux/tiny-llama.imatrix.gguf"), dir + "/tiny.imatrix.gguf");
    const fs::path before = fs::current_path();
    fs::current_path(dir);
    const Input& in = f32_input();
    GgufForgetOptions opt;
    opt.ftype = "IQ3_XS";
    opt.imatrix = "tiny.imatrix.gguf";
    opt.output = "out.gguf";
    std::optional<ErrorCode> failed;
    std::string what;
    failed = error_code_of([&] { forget_to_gguf(in.cat, in.plan, opt); }, &what);
    fs::current_path(before);
    QVERIFY2(!failed, what.c_str());
    const QString diff = first_difference(dir + "/out.gguf", real("tiny-llama-IQ3_XS.gguf"));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// Cancelled before the first unit and after the first progress report:
// Error{Cancelled}, no output and no temporary file.
void TestForgetGguf::cancelLeavesNothing() {
    SKIP_WITHOUT_GGUF_REAL();
    const Input& in = f32_input();
    for (const bool at_start : {true, false}) {
        QTemporaryDir tmp;
        GgufForgetOptions opt;
        opt.ftype = "Q4_K_M";
        opt.output = tmp.filePath("out.gguf").toStdString();
        opt.threads = 2;
        opt.chunk_bytes = 16 << 10;  // many units, so that a cancel mid-run has work left to drop
        std::atomic<bool> cancel{at_start};
        int reports = 0;
        const ProgressFn progress = [&](const Progress& p) {
            ++reports;
            if (p.done > 0) cancel = true;
        };
        QCOMPARE(error_code_of([&] { forget_to_gguf(in.cat, in.plan, opt, progress, &cancel); }),
                 std::optional(ErrorCode::Cancelled));
        QVERIFY(at_start || reports > 0);
        QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{});
    }
}

// An existing output without force, and the input as the output: refused,
// the existing file unchanged, no temporary left.
void TestForgetGguf::refusalsLeaveOldFile() {
    SKIP_WITHOUT_GGUF_REAL();
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("out.gguf").toStdString();
    {
        QFile f(QString::fromStdString(out));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("old");
    }
    const Input& in = f32_input();
    GgufForgetOptions opt;
    opt.ftype = "Q8_0";
    opt.output = out;
    QCOMPARE(error_code_of([&] { forget_to_gguf(in.cat, in.plan, opt); }), std::optional(ErrorCode::OutputExists));
    QCOMPARE(test::read_file(out), (std::vector<std::uint8_t>{'o', 'l', 'd'}));
    QCOMPARE(files_in(tmp.path().toStdString()), std::vector<std::string>{"out.gguf"});
    // The input itself, even with force.
    const std::string copy = tmp.filePath("in.gguf").toStdString();
    fs::copy_file(real("tiny-llama-F32.gguf"), copy);
    const Input in2(copy);
    opt.output = copy;
    opt.force = true;
    QCOMPARE(error_code_of([&] { forget_to_gguf(in2.cat, in2.plan, opt); }), std::optional(ErrorCode::Usage));
    QVERIFY(test::read_file(copy) == test::read_file(real("tiny-llama-F32.gguf")));
    QCOMPARE(files_in(tmp.path().toStdString()), (std::vector<std::string>{"in.gguf", "out.gguf"}));
}

QTEST_APPLESS_MAIN(TestForgetGguf)
#include "test_forget_gguf.moc"
