// SPDX-License-Identifier: MIT OR Apache-2.0
// Quantization with an importance matrix against llama-quantize: the 15
// files of the shared fixtures gguf-real/ made with
// aux/tiny-llama.imatrix.gguf. Every tensor of each is re-made from
// tiny-llama-F32.gguf — quantized rows with the file's type and the
// imatrix entry of the tensor (token_embd.weight: none), F32 copied — and
// must equal the file's bytes. Also: the imatrix reader (GGUF and legacy
// .dat formats, errors) and the no-imatrix contract of the encoders.
#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "plan/imatrix.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <random>

using namespace amn;
using test::error_code_of;
namespace g = amn::kernels::gguf;

namespace {

const char* const kFiles[] = {
    "IQ3_XXS", "IQ3_XS", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ1_S", "IQ1_M", "Q2_K_S",
    "pure-IQ1_M", "pure-IQ3_XXS", "pure-IQ2_S", "pure-IQ1_S", "pure-IQ2_XS", "pure-IQ2_XXS",
};

std::string real(const std::string& name) { return test::shared_fixtures_dir() + "/gguf-real/" + name; }

void put_i32(std::string& s, std::int32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }
void put_f32(std::string& s, float v) { s.append(reinterpret_cast<const char*>(&v), 4); }

std::string write_file(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.path().toStdString() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

class TestGgufImatrix : public QObject {
    Q_OBJECT
private slots:
    void read_gguf_imatrix();
    void read_legacy_imatrix();
    void read_errors();
    void requires_imatrix();
    void no_imatrix_equals_block_encoders();
    void imatrix_round_trip();
    void llama_quantize_data();
    void llama_quantize();
};

void TestGgufImatrix::read_gguf_imatrix() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    const Imatrix im = read_imatrix(real("aux/tiny-llama.imatrix.gguf"));
    QCOMPARE(im.weights.size(), std::size_t(15));
    QCOMPARE(im.chunk_count, 232u);
    QCOMPARE(im.chunk_size, 128u);
    QVERIFY(!im.legacy);
    QCOMPARE(im.datasets, std::vector<std::string>{"/usr/share/common-licenses/GPL-3"});
    QVERIFY(im.find("token_embd.weight") == nullptr);
    QVERIFY(im.find("output.weight") != nullptr);
    QCOMPARE(im.find("blk.0.ffn_down.weight")->size(), std::size_t(512));
    QCOMPARE(im.find("blk.1.attn_q.weight")->size(), std::size_t(256));
    for (const auto& [name, w] : im.weights) {
        QCOMPARE(im.matrices.at(name), 1u);
        for (const float v : w) QVERIFY2(std::isfinite(v) && v >= 0, name.c_str());
    }
    // Weight = in_sum2 / counts, recomputed from the raw tensors.
    const Catalog cat = open_gguf(real("aux/tiny-llama.imatrix.gguf"));
    const TensorInfo& sums = cat.tensors[*cat.find("blk.1.attn_v.weight.in_sum2")];
    const TensorInfo& counts = cat.tensors[*cat.find("blk.1.attn_v.weight.counts")];
    float count;
    std::memcpy(&count, cat.data(counts), 4);
    QVERIFY(count > 0);
    const std::vector<float>& w = *im.find("blk.1.attn_v.weight");
    for (std::size_t i = 0; i < w.size(); ++i) {
        float s;
        std::memcpy(&s, cat.data(sums) + 4 * i, 4);
        QCOMPARE(w[i], s / count);
    }
}

void TestGgufImatrix::read_legacy_imatrix() {
    QTemporaryDir dir;
    std::string b;
    put_i32(b, 2);
    put_i32(b, 7);
    b += "a.wght1";
    put_i32(b, 4);  // ncall
    put_i32(b, 3);
    for (float v : {4.f, 2.f, 1.f}) put_f32(b, v);
    put_i32(b, 1);
    b += "b";
    put_i32(b, 0);  // ncall 0: values as they are
    put_i32(b, 2);
    for (float v : {5.f, 6.f}) put_f32(b, v);
    put_i32(b, 17);  // chunk count
    put_i32(b, 4);
    b += "data";
    const Imatrix im = read_imatrix(write_file(dir, "x.dat", b));
    QVERIFY(im.legacy);
    QCOMPARE(im.weights.size(), std::size_t(2));
    QCOMPARE(*im.find("a.wght1"), (std::vector<float>{1.f, 0.5f, 0.25f}));
    QCOMPARE(*im.find("b"), (std::vector<float>{5.f, 6.f}));
    QCOMPARE(im.chunk_count, 17u);
    QCOMPARE(im.datasets, std::vector<std::string>{"data"});

    // Without the optional trailer.
    const Imatrix bare = read_imatrix(write_file(dir, "bare.dat", b.substr(0, b.size() - 12)));
    QCOMPARE(bare.chunk_count, 0u);
    QVERIFY(bare.datasets.empty());
}

void TestGgufImatrix::read_errors() {
    QTemporaryDir dir;
    QCOMPARE(error_code_of([&] { read_imatrix(dir.path().toStdString() + "/missing.dat"); }), ErrorCode::Io);
    std::string zero;
    put_i32(zero, 0);
    QCOMPARE(error_code_of([&] { read_imatrix(write_file(dir, "zero.dat", zero)); }), ErrorCode::Malformed);
    std::string cut;
    put_i32(cut, 1);
    put_i32(cut, 1);
    cut += "a";
    put_i32(cut, 1);
    put_i32(cut, 4);
    put_f32(cut, 1.f);
    QCOMPARE(error_code_of([&] { read_imatrix(write_file(dir, "cut.dat", cut)); }), ErrorCode::Truncated);
    std::string empty_entry;
    put_i32(empty_entry, 1);
    put_i32(empty_entry, 1);
    empty_entry += "a";
    put_i32(empty_entry, 1);
    put_i32(empty_entry, 0);
    QCOMPARE(error_code_of([&] { read_imatrix(write_file(dir, "nval0.dat", empty_entry)); }), ErrorCode::Malformed);
    // A model GGUF is not an importance matrix.
    if (!test::shared_fixtures_dir().empty())
        QCOMPARE(error_code_of([&] { read_imatrix(real("tiny-llama-Q8_0.gguf")); }), ErrorCode::Malformed);
}

void TestGgufImatrix::requires_imatrix() {
    for (int id : {16, 17, 19}) {
        QVERIFY(g::requires_imatrix(id));
        std::vector<float> x(256, 1.f);
        std::vector<std::uint8_t> out(256);
        QCOMPARE(error_code_of([&] { g::imatrix_encoder(id)(x.data(), out.data(), 1, 256, nullptr); }), ErrorCode::Usage);
    }
    for (int id : {2, 8, 10, 12, 14, 18, 20, 21, 22, 23, 29}) QVERIFY(!g::requires_imatrix(id));
    QVERIFY(g::imatrix_encoder(0) == nullptr);
    QVERIFY(g::imatrix_encoder(1) == nullptr);
}

void TestGgufImatrix::no_imatrix_equals_block_encoders() {
    std::mt19937 rng(7);
    std::normal_distribution<float> nd(0.f, 1.f);
    std::vector<float> x(4 * 512);
    for (float& v : x) v = nd(rng);
    for (const int id : {2, 3, 6, 7, 8, 10, 11, 12, 13, 14, 20, 23, 34, 35, 39, 40, 41, 42}) {
        const DTypeInfo* info = dtype_info(dtype_from_ggml_id(static_cast<std::uint32_t>(id)));
        QVERIFY(info);
        const std::size_t nblocks = x.size() / info->block_elems;
        std::vector<std::uint8_t> a(nblocks * info->block_bytes), b(a.size());
        g::scalar_encoder(id)(x.data(), a.data(), nblocks);
        g::imatrix_encoder(id)(x.data(), b.data(), 4, 512, nullptr);
        QVERIFY2(a == b, info->name.data());
    }
}

// The imatrix paths the fixtures do not cover (Q4_0, Q4_1, Q5_0, Q5_1, Q3_K,
// Q4_K, IQ4_NL, IQ4_XS) and the rest: the blocks decode (registry decoder)
// to values as close to the input as the no-imatrix encoding's, and the
// imatrix steers the error toward the heavily weighted columns.
void TestGgufImatrix::imatrix_round_trip() {
    constexpr std::size_t nrows = 8, n = 512;
    std::mt19937 rng(11);
    std::normal_distribution<float> nd(0.f, 0.02f);
    std::vector<float> x(nrows * n), w(n);
    for (float& v : x) v = nd(rng);
    for (std::size_t j = 0; j < n; ++j) w[j] = j % 7 == 0 ? 50.f : 0.5f;
    for (const int id : {2, 3, 6, 7, 8, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 29}) {
        const DTypeInfo* info = dtype_info(dtype_from_ggml_id(static_cast<std::uint32_t>(id)));
        QVERIFY(info && info->to_f32);
        const std::size_t nblocks = x.size() / info->block_elems;
        std::vector<std::uint8_t> q(nblocks * info->block_bytes);
        std::vector<float> back(x.size());
        auto weighted_err = [&](const float* imatrix, bool heavy) {
            g::imatrix_encoder(id)(x.data(), q.data(), nrows, n, imatrix);
            info->to_f32(q.data(), back.data(), nblocks);
            double e = 0, ref = 0;
            for (std::size_t i = 0; i < x.size(); ++i) {
                if ((i % n % 7 == 0) != heavy) continue;
                e += double(back[i] - x[i]) * (back[i] - x[i]);
                ref += double(x[i]) * x[i];
            }
            return e / ref;
        };
        const double with = weighted_err(w.data(), true);
        QVERIFY2(with < 0.5, info->name.data());
        if (!g::requires_imatrix(id)) {
            const double without = weighted_err(nullptr, true);
            QVERIFY2(with <= without * 1.05, qPrintable(QString("%1: heavy columns %2 with vs %3 without")
                                                            .arg(info->name.data()).arg(with).arg(without)));
        }
    }
}

void TestGgufImatrix::llama_quantize_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : kFiles) QTest::newRow(f) << QString(f);
}

void TestGgufImatrix::llama_quantize() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, file);
    static const Imatrix im = read_imatrix(real("aux/tiny-llama.imatrix.gguf"));
    static const Catalog f32 = open_gguf(real("tiny-llama-F32.gguf"));
    const Catalog cat = open_gguf(real("tiny-llama-" + file.toStdString() + ".gguf"));
    QVERIFY(!cat.tensors.empty());

    std::map<std::string, std::pair<int, int>> per_type;  // type → (tensors, matching)
    QStringList failures;
    for (const TensorInfo& t : cat.tensors) {
        const auto si = f32.find(t.name);
        QVERIFY2(si, t.name.c_str());
        const TensorInfo& s = f32.tensors[*si];
        QCOMPARE(s.dtype, DType::F32);
        QCOMPARE(s.shape, t.shape);
        std::vector<std::uint8_t> out;
        if (t.dtype == DType::F32) {
            out.assign(f32.data(s), f32.data(s) + s.nbytes);
        } else {
            const DTypeInfo* info = dtype_info(t.dtype);
            QVERIFY2(info && info->is_quantized_block, t.name.c_str());
            const g::ImatrixEncoder enc = g::imatrix_encoder(info->ggml_id);
            QVERIFY2(enc, t.dtype_name.c_str());
            const std::size_t n_per_row = t.shape.back();
            const std::size_t nrows = t.numel() / n_per_row;
            const std::vector<float>* w = t.name == "token_embd.weight" ? nullptr : im.find(t.name);
            if (w) QCOMPARE(w->size(), n_per_row);
            std::vector<float> src(nrows * n_per_row);
            std::memcpy(src.data(), f32.data(s), src.size() * 4);
            out.resize(t.nbytes);
            enc(src.data(), out.data(), nrows, n_per_row, w ? w->data() : nullptr);
        }
        auto& [count, same] = per_type[t.dtype_name];
        ++count;
        if (out.size() == t.nbytes && std::memcmp(out.data(), cat.data(t), t.nbytes) == 0) {
            ++same;
        } else {
            const DTypeInfo* info = dtype_info(t.dtype);
            const std::size_t bb = info ? info->block_bytes : 4;
            std::size_t bad = 0, first = SIZE_MAX;
            for (std::size_t o = 0; o + bb <= t.nbytes; o += bb)
                if (std::memcmp(out.data() + o, cat.data(t) + o, bb) != 0) {
                    ++bad;
                    if (first == SIZE_MAX) first = o / bb;
                }
            failures << QString("%1 (%2): %3 of %4 blocks differ, first %5")
                            .arg(QString::fromStdString(t.name), QString::fromStdString(t.dtype_name))
                            .arg(bad)
                            .arg(t.nbytes / bb)
                            .arg(first);
        }
    }
    QString summary;
    for (const auto& [type, cs] : per_type)
        summary += QString(" %1 %2/%3").arg(QString::fromStdString(type)).arg(cs.second).arg(cs.first);
    qInfo("%s:%s", qPrintable(file), qPrintable(summary));
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join("; ")));
}

QTEST_GUILESS_MAIN(TestGgufImatrix)
#include "test_gguf_imatrix.moc"
