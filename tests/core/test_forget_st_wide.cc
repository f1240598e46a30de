// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes (forget_st.hpp), part 3 — weights whose rows
// are longer than 1 Mi elements (the passthrough recipe splits such a row
// into pieces that are not the shape's rows): every scheme family, every
// stored tensor byte for byte against an independent NumPy reference
// (tests/core/forget_st_reference.py, run here with /usr/bin/python3; the
// same script reproduces every tensor of shared/fixtures/quantize-ref-st,
// checked first).
#include "anamnesis/catalog.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/plan.hpp"
#include "forget_st_test_support.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using namespace amn;
using namespace forget_st_test;  // fs, RawTensor and the helpers

namespace {

// Fixture ids of the schemes run (forget_st_test_support.hpp scheme_of()).
const std::vector<std::string> kSchemes = {
    "bnb-nf4-b64",   "bnb-nf4-b64-dq", "bnb-fp4-b128",  "bnb-int8",        "ct-fp8-tensor",   "ct-fp8-channel",
    "ct-fp8-block",  "ds-fp8-block",   "ct-w4-sym-g128", "ct-w4-sym-channel", "ct-w8-asym-g128", "ct-w8-asym-channel",
};

QString reference_script() { return QString::fromStdString(test::source_dir() + "/tests/core/forget_st_reference.py"); }

// 0.02·N(0,1) with every 1001st value ×8 and one all-zero run of 512
// elements (a zero group / block: eps scales, the NaN zero point cast to 0).
std::vector<float> weight_values(std::size_t n, unsigned seed) {
    auto v = gauss(n, seed);
    for (std::size_t i = 0; i < n; i += 1001) v[i] *= 8;
    for (std::size_t i = 0; i < 512; ++i) v[3 * 65536 + i] = 0.0f;
    return v;
}

// The first difference between two tensors, or empty.
std::string differs(const RawTensor& got, const RawTensor& want) {
    if (got.dtype != want.dtype) return "dtype " + got.dtype + " vs " + want.dtype;
    if (got.shape != want.shape) return "shape differs";
    if (got.bytes.size() != want.bytes.size()) return "byte count differs";
    std::size_t n = 0, first = 0;
    for (std::size_t i = 0; i < got.bytes.size(); ++i)
        if (got.bytes[i] != want.bytes[i] && n++ == 0) first = i;
    return n ? std::to_string(n) + " of " + std::to_string(got.bytes.size()) + " bytes differ, first at byte " +
                   std::to_string(first)
             : std::string();
}

}  // namespace

class TestForgetStWide : public QObject {
    Q_OBJECT

private slots:
    void referenceMatchesFixtures();
    void rowsOverOneMi_data();
    void rowsOverOneMi();
};

// The reference itself against the library outputs of the shared fixtures.
void TestForgetStWide::referenceMatchesFixtures() {
    REQUIRE_REF_ST(dir);
    QStringList args{reference_script(), "--check", QString::fromStdString(dir)};
    for (const auto& s : kSchemes) args << QString::fromStdString(s);
    const auto r = test::run(QString::fromStdString(test::python()), args, 300000);
    QVERIFY2(r.exit_code == 0, qPrintable(r.out.right(2000) + r.err.right(2000)));
    QVERIFY2(r.out.contains(", 0 difference(s)"), qPrintable(r.out));
}

void TestForgetStWide::rowsOverOneMi_data() {
    QTest::addColumn<QString>("dtype");
    QTest::newRow("BF16") << "BF16";
    QTest::newRow("F32") << "F32";
}

// A [2, 1 Mi + 640] and a [3, 1 200 128] block Linear weight (quantized by
// default) and a norm (kept), to every scheme family, with and without the
// loss pass (two kernels paths for BF16), in chunks of a whole weight and of the least rows.
void TestForgetStWide::rowsOverOneMi() {
    QFETCH(QString, dtype);
    const std::string dt = dtype.toStdString();
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string root = tmp.path().toStdString();
    const std::string model = root + "/wide.safetensors";
    const std::string down = "model.layers.0.mlp.down_proj.weight", up = "model.layers.0.mlp.up_proj.weight";
    // Recipe rows: C1 = 28 pieces of 37 472 (a shape row is whole pieces);
    // 3 · C2 = 64 pieces of 56 256 (a shape row is 21 1/3 pieces: chunks start
    // and end inside a piece).
    const std::uint64_t C1 = (1u << 20) + 640, C2 = 1200128;
    auto bytes = [&](const std::vector<float>& v) { return dt == "BF16" ? bf16_bytes(v) : f32_bytes(v); };
    std::map<std::string, RawTensor> m;
    m[down] = raw(dt, {2, C1}, bytes(weight_values(2 * C1, 1)));
    m[up] = raw(dt, {3, C2}, bytes(weight_values(3 * C2, 2)));
    m["model.norm.weight"] = raw(dt, {16}, bytes(gauss(16, 3, 1.0f)));
    test::write_safetensors_raw(model, m);

    // The reference: one file per scheme.
    QStringList args{reference_script(), QString::fromStdString(model), QString::fromStdString(root)};
    for (const auto& s : kSchemes) args << QString::fromStdString(s);
    const auto r = test::run(QString::fromStdString(test::python()), args, 300000);
    QVERIFY2(r.exit_code == 0, qPrintable("forget_st_reference.py failed: " + r.err.right(2000)));

    const Catalog cat = open_model(model);
    const Plan plan = make_plan(cat);
    // The premise: the recipe's rows are not the shape's rows.
    for (const auto& lt : plan.tensors)
        if (lt.name == down || lt.name == up) QVERIFY2(lt.recipe->rows() > lt.shape[0], lt.name.c_str());
    for (const auto& id : kSchemes) {
        const auto ref = test::read_safetensors_raw(root + "/" + id + ".safetensors");
        QVERIFY2(ref && ref->tensors.size() >= 4, id.c_str());  // two weights, two tensors or more each
        for (const bool measure : {true, false}) {
            for (const std::uint64_t chunk : {std::uint64_t(64) << 20, std::uint64_t(1)}) {
                // Under the sanitizers: two of the four (loss, chunk) pairs, each
                // value of each once; the g++ run takes all four.
                if (test::kSanitized && measure == (chunk == 1)) continue;
                const std::string what = dt + " " + id + (measure ? " (loss)" : "") + " chunk " + std::to_string(chunk);
                StForgetOptions opt;
                opt.scheme = scheme_of(id);
                opt.measure_loss = measure;
                opt.chunk_bytes = chunk;
                opt.threads = 2;
                opt.output = root + "/out-" + id;
                opt.force = true;
                try {
                    forget_to_safetensors(cat, plan, opt);
                } catch (const std::exception& e) {
                    QFAIL(qPrintable(QString::fromStdString(what + ": " + e.what())));
                }
                const auto out = read_output(opt.output);
                // Every output tensor of the two weights is the reference's, and no other.
                std::size_t n = 0;
                for (const auto& [name, t] : out) {
                    if (name.rfind("model.layers.0.mlp.", 0) != 0) continue;
                    ++n;
                    const auto it = ref->tensors.find(name);
                    QVERIFY2(it != ref->tensors.end(), qPrintable(QString::fromStdString(what + ": unexpected " + name)));
                    const std::string d = differs(t, it->second);
                    QVERIFY2(d.empty(), qPrintable(QString::fromStdString(what + ": " + name + ": " + d)));
                }
                QCOMPARE(n, ref->tensors.size());
                QVERIFY(out.at("model.norm.weight").bytes == m.at("model.norm.weight").bytes);
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestForgetStWide)
#include "test_forget_st_wide.moc"
