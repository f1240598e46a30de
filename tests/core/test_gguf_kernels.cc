// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF block dequantizers: ggml's own dequantization of ggml's own blocks
// (shared fixtures quantize-ref/, 18 types incl. all-zero, −0, subnormal and
// outlier blocks), and every Highway target's SIMD decoder equal to the
// scalar reference bit for bit, on real and on random blocks.
#include "anamnesis/dtype.hpp"
#include "anamnesis/kernels.hpp"
#include "kernels/gguf/gguf_kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "test_support.hpp"

#include "simd_check.hpp"

#include <QDir>
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace amn;
namespace g = amn::kernels::gguf;

using amn::test::first_diff;

namespace {

// First differing element between two decoded f32 arrays (bitwise), or -1:
// amn::test::first_diff, except that built with clang (the sanitizer stage of
// CI) NaN against NaN is equal whatever its sign. With clang the scalar
// decoders of Q4_1, Q5_1, IQ2_XXS, IQ2_XS and IQ3_XXS turn a NaN/inf fp16
// scale into a NaN of the other sign than the SIMD ones do. The g++ build, the
// one that ships and that scripts/test.sh runs, is compared bit for bit, NaN
// signs included.
long decoded_diff(const std::vector<float>& a, const std::vector<float>& b) {
#if defined(__clang__)
    if (a.size() != b.size()) return 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(a[i]) && std::isnan(b[i])) continue;
        if (std::memcmp(&a[i], &b[i], 4) != 0) return long(i);
    }
    return -1;
#else
    return first_diff(a, b);
#endif
}

const DTypeInfo* ggml_row(int id) { return dtype_info(dtype_from_ggml_id(std::uint32_t(id))); }

}  // namespace

class TestGgufKernels : public QObject {
    Q_OBJECT
private slots:
    void registry_rows();
    void quantize_reference_data();
    void quantize_reference();
    void simd_equals_scalar_data();
    void simd_equals_scalar();
};

void TestGgufKernels::registry_rows() {
    // Every entry of the one type list (anamnesis/ggml_type_list.hpp; the
    // block sizes are checked against ggml-common.h's structs in blocks.hpp)
    // has its registry row, its enumerator and a decoder.
    struct Row { int id; const char* name; unsigned elems, bytes; DType dtype; bool simd; };
#define AMN_IS_SIMD_SIMD true
#define AMN_IS_SIMD_SCALAR false
#define AMN_ROW(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    {id, #NAME, block_elems, block_bytes, DType::NAME, AMN_IS_SIMD_##decoder},
    const Row rows[] = {AMN_GGML_TYPES(AMN_ROW)};
#undef AMN_ROW
    std::size_t registered = 0;
    for (const auto& info : dtype_table()) registered += info.is_quantized_block ? 1 : 0;
    QCOMPARE(registered, std::size(rows));
    for (const auto& r : rows) {
        const DTypeInfo* info = ggml_row(r.id);
        QVERIFY2(info, r.name);
        QCOMPARE(info->name, std::string_view(r.name));
        QCOMPARE(info->block_elems, r.elems);
        QCOMPARE(info->block_bytes, r.bytes);
        QVERIFY(info->is_quantized_block);
        QCOMPARE(info->ggml_id, r.id);
        QCOMPARE(info->dtype, r.dtype);
        QCOMPARE(static_cast<int>(r.dtype), static_cast<int>(DType::GgmlBase) + r.id);
        QVERIFY(info->to_f32);
        QVERIFY(g::scalar_decoder(r.id));
        QCOMPARE(g::has_simd_decoder(r.id), r.simd);
        QVERIFY(info->to_f32 == g::best_decoder(r.id));
        QVERIFY(info->from_f32 == g::best_encoder(r.id));
    }
    // Plain ggml ids map to the plain dtypes; removed ids stay unknown.
    QCOMPARE(dtype_from_ggml_id(0), DType::F32);
    QCOMPARE(dtype_from_ggml_id(1), DType::F16);
    QCOMPARE(dtype_from_ggml_id(30), DType::BF16);
    QCOMPARE(dtype_from_ggml_id(28), DType::F64);
    QCOMPARE(dtype_from_ggml_id(24), DType::I8);
    for (int removed : {4, 5, 31, 32, 33, 36, 37, 38, 43}) {
        QVERIFY(!ggml_row(removed));
        QCOMPARE(dtype_name(dtype_from_ggml_id(std::uint32_t(removed))), "ggml type " + std::to_string(removed));
    }
}

void TestGgufKernels::quantize_reference_data() {
    QTest::addColumn<QString>("file");
    const auto shared = test::shared_fixtures_dir();
    if (shared.empty()) return;
    const QString dir = QString::fromStdString(shared) + "/quantize-ref";
    for (const auto& f : QDir(dir).entryList({"quantize-*.safetensors"}, QDir::Files, QDir::Name))
        QTest::newRow(f.toUtf8()) << dir + "/" + f;
}

void TestGgufKernels::quantize_reference() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, file);
    const auto st = test::read_safetensors_raw(file.toStdString());
    QVERIFY(st.has_value());
    const auto it = st->metadata.find("ggml_type_id");
    QVERIFY(it != st->metadata.end());
    const int id = std::stoi(it->second);
    const DTypeInfo* info = ggml_row(id);
    QVERIFY(info);
    int checked = 0;
    for (const auto& [name, t] : st->tensors) {
        if (name.size() < 7 || name.substr(name.size() - 7) != ".blocks") continue;
        const std::string base = name.substr(0, name.size() - 7);
        const auto& expected = st->tensors.at(base + ".dequant");
        QCOMPARE(t.bytes.size() % info->block_bytes, std::size_t(0));
        const std::size_t nb = t.bytes.size() / info->block_bytes;
        QCOMPARE(nb * info->block_elems * 4, expected.bytes.size());
        std::vector<float> want(nb * info->block_elems);
        std::memcpy(want.data(), expected.bytes.data(), expected.bytes.size());
        std::vector<float> got(want.size());
        g::scalar_decoder(id)(t.bytes.data(), got.data(), nb);
        QVERIFY2(decoded_diff(got, want) < 0, ("scalar " + base).c_str());
        // The registry's (dispatched) decoder on every target, from an odd address too.
        std::vector<std::uint8_t> shifted(t.bytes.size() + 1);
        std::memcpy(shifted.data() + 1, t.bytes.data(), t.bytes.size());
        const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
            std::vector<float> out(want.size());
            info->to_f32(shifted.data() + 1, out.data(), nb);
            const long d = decoded_diff(out, want);
            return d < 0 ? "" : target + ": " + base + " differs at element " + std::to_string(d);
        });
        QVERIFY2(failure.empty(), failure.c_str());
        ++checked;
    }
    QVERIFY(checked >= 5);
}

void TestGgufKernels::simd_equals_scalar_data() {
    QTest::addColumn<int>("id");
    for (int id = 0; id < 64; ++id)
        if (g::has_simd_decoder(id)) QTest::newRow(std::string(ggml_row(id)->name).c_str()) << id;
}

void TestGgufKernels::simd_equals_scalar() {
    QFETCH(int, id);
    const DTypeInfo* info = ggml_row(id);
    QVERIFY(info);
    // Random blocks: any byte pattern, fp16 scales of every class (NaN, inf, subnormal, ±0).
    std::mt19937 rng(1234 + unsigned(id));
    const std::size_t nb = 1024;
    std::vector<std::uint8_t> blocks(nb * info->block_bytes);
    for (auto& b : blocks) b = std::uint8_t(rng());
    const std::uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7E01, 0x3C00, 0x7BFF};
    for (std::size_t i = 0; i < nb && i < 64; ++i) {
        // Overwrite whichever 2-byte fields the layout has at the block's ends with specials.
        std::uint8_t* blk = blocks.data() + i * info->block_bytes;
        const std::uint16_t s = specials[i % std::size(specials)];
        std::memcpy(blk, &s, 2);
        std::memcpy(blk + info->block_bytes - 2, &s, 2);
    }
    std::vector<float> want(nb * info->block_elems);
    g::scalar_decoder(id)(blocks.data(), want.data(), nb);
    const auto simd = g::best_decoder(id);
    QVERIFY(simd != g::scalar_decoder(id));
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        std::vector<float> out(want.size(), -1.0f);
        simd(blocks.data(), out.data(), nb);
        const long d = decoded_diff(out, want);
        if (d >= 0) {
            char buf[128];
            std::snprintf(buf, sizeof buf, " differs at element %ld: %a vs scalar %a", d, double(out[std::size_t(d)]),
                          double(want[std::size_t(d)]));
            return target + buf;
        }
        return "";
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestGgufKernels)
#include "test_gguf_kernels.moc"
