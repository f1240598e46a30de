// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF block quantizers against ggml's own: every block of every input in
// the shared fixtures quantize-ref/ (ggml_quantize_chunk without an
// importance matrix; 18 types, incl. the `awkward` and `subnormal` rows)
// must come out byte for byte, from the scalar reference and from the
// dispatched encoder on every Highway target.
#include "anamnesis/dtype.hpp"
#include "anamnesis/kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "test_support.hpp"

#include <hwy/targets.h>

#include <QDir>
#include <QtTest/QtTest>

#include <cstring>
#include <functional>
#include <cmath>
#include <limits>
#include <random>

using namespace amn;
namespace g = amn::kernels::gguf;

namespace {

const char* const kTypes[] = {"Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K",
                              "Q6_K", "IQ4_NL", "IQ4_XS", "TQ1_0", "TQ2_0", "MXFP4", "NVFP4", "Q1_0", "Q2_0"};

std::string for_each_target(const std::function<std::string(const std::string&)>& body) {
    std::string failure;
    for (const std::int64_t t : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(t);
        const std::string name = hwy::TargetName(t);
        failure = name != kernels::active_target_name()
                      ? "dispatch did not switch to " + name + " (got " + kernels::active_target_name() + ")"
                      : body(name);
        if (!failure.empty()) break;
    }
    hwy::SetSupportedTargetsForTest(0);
    return failure;
}

// Index of the first differing block, or -1.
long first_block_diff(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, std::size_t block_bytes) {
    if (a.size() != b.size()) return 0;
    for (std::size_t i = 0; i < a.size(); i += block_bytes)
        if (std::memcmp(a.data() + i, b.data() + i, block_bytes) != 0) return long(i / block_bytes);
    return -1;
}

std::string hex(const std::uint8_t* p, std::size_t n) {
    std::string s;
    char buf[4];
    for (std::size_t i = 0; i < n; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", p[i]);
        s += buf;
    }
    return s;
}

}  // namespace

class TestGgufQuantize : public QObject {
    Q_OBJECT
private slots:
    void reference_data();
    void reference();
    void simd_equals_scalar_data();
    void simd_equals_scalar();
};

void TestGgufQuantize::reference_data() {
    QTest::addColumn<QString>("type");
    for (const char* t : kTypes) QTest::newRow(t) << QString(t);
}

void TestGgufQuantize::reference() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, type);
    const std::string file = test::shared_fixtures_dir() + "/quantize-ref/quantize-" + type.toStdString() + ".safetensors";
    const auto st = test::read_safetensors_raw(file);
    QVERIFY2(st.has_value(), file.c_str());
    const int id = std::stoi(st->metadata.at("ggml_type_id"));
    const DTypeInfo* info = dtype_info(dtype_from_ggml_id(std::uint32_t(id)));
    QVERIFY(info);
    QCOMPARE(info->name, std::string_view(type.toStdString()));
    const g::Encoder scalar = g::scalar_encoder(id);
    QVERIFY2(scalar, "no scalar encoder");
    int checked = 0;
    for (const auto& entry : st->tensors) {
        // no structured binding: clang-14 (the sanitizer build) cannot capture one in a lambda
        const std::string& name = entry.first;
        const auto& t = entry.second;
        if (!name.ends_with(".blocks")) continue;
        const std::string base = name.substr(0, name.size() - 7);
        const auto& input = st->tensors.at(base + ".input");
        const std::size_t nb = t.bytes.size() / info->block_bytes;
        QCOMPARE(nb * info->block_bytes, t.bytes.size());
        QCOMPARE(nb * info->block_elems * 4, input.bytes.size());
        std::vector<float> src(nb * info->block_elems);
        std::memcpy(src.data(), input.bytes.data(), input.bytes.size());
        std::vector<std::uint8_t> got(t.bytes.size(), 0xA5);
        scalar(src.data(), got.data(), nb);
        const long d = first_block_diff(got, t.bytes, info->block_bytes);
        if (d >= 0) {
            const std::size_t o = std::size_t(d) * info->block_bytes;
            const std::string msg = "scalar " + base + ": block " + std::to_string(d) + " of " + std::to_string(nb) +
                                    "\n   got " + hex(got.data() + o, info->block_bytes) + "\n  want " +
                                    hex(t.bytes.data() + o, info->block_bytes);
            QFAIL(msg.c_str());
        }
        // The dispatched encoder on every target, to an odd address.
        const std::string failure = for_each_target([&](const std::string& target) -> std::string {
            std::vector<std::uint8_t> out(t.bytes.size() + 1, 0x5A);
            g::best_encoder(id)(src.data(), out.data() + 1, nb);
            const std::vector<std::uint8_t> body(out.begin() + 1, out.end());
            const long e = first_block_diff(body, t.bytes, info->block_bytes);
            return e < 0 ? "" : target + ": " + base + " differs at block " + std::to_string(e);
        });
        QVERIFY2(failure.empty(), failure.c_str());
        ++checked;
    }
    QCOMPARE(checked, 5);
}

void TestGgufQuantize::simd_equals_scalar_data() {
    QTest::addColumn<int>("id");
    for (int id = 0; id < 64; ++id)
        if (g::has_simd_encoder(id))
            QTest::newRow(std::string(dtype_info(dtype_from_ggml_id(std::uint32_t(id)))->name).c_str()) << id;
}

void TestGgufQuantize::simd_equals_scalar() {
    QFETCH(int, id);
    const DTypeInfo* info = dtype_info(dtype_from_ggml_id(std::uint32_t(id)));
    QVERIFY(info);
    // Random values of many magnitudes, zero blocks, ties and a few huge outliers.
    std::mt19937 rng(777 + unsigned(id));
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::uniform_int_distribution<int> ex(-30, 20);
    const std::size_t nb = 1024;
    std::vector<float> src(nb * info->block_elems);
    for (std::size_t b = 0; b < nb; ++b) {
        const float scale = std::ldexp(1.0f, ex(rng));
        for (std::size_t j = 0; j < info->block_elems; ++j) {
            float& v = src[b * info->block_elems + j];
            switch (b % 12) {
                case 0: v = 0.0f; break;
                case 1: v = float(int(j % 32) - 16) * 0.5f; break;
                case 8: v = (j % 3 == 0) ? ((j & 1) ? -0.0f : 0.0f) : std::fabs(nd(rng)) * scale; break;  // ±0 minimum
                case 9: v = j % 32 == 0 ? 127.0f * scale : float(int(j % 9) - 4) * 0.5f * scale; break;  // Q8_0 ties
                case 10: v = (j % 2 ? -1.0f : 1.0f) * scale * float(1 + j % 4); break;                  // ±equal max
                case 11: v = j == 7 ? std::numeric_limits<float>::infinity() : nd(rng) * scale; break;
                default: v = nd(rng) * scale;
            }
        }
        if (b % 8 == 5) src[b * info->block_elems + b % info->block_elems] *= 1000.0f;
    }
    // Super-blocks whose 16-element groups differ (k-quant and IQ4_XS
    // sub-block searches): zero, constant, tiny, much smaller than the rest
    // (sub-block scales that quantize to 0), one-signed, a lone spike.
    for (std::size_t b = nb / 2; b < nb; ++b) {
        const float scale = std::ldexp(1.0f, ex(rng) / 2);
        for (std::size_t j = 0; j < info->block_elems; ++j) {
            float& v = src[b * info->block_elems + j];
            const float r = nd(rng) * scale;
            switch ((j / 16 + b) % 10) {
                case 0: v = (b & 1) ? -0.0f : 0.0f; break;
                case 1: v = 0.25f * scale; break;
                case 2: v = r * 1e-20f; break;
                case 3: v = r * 1e-3f; break;
                case 4: v = -std::fabs(r); break;
                case 5: v = std::fabs(r) + 0.5f * scale; break;
                case 6: v = j % 16 == 3 ? 40.0f * scale : r * 0.01f; break;
                case 7: v = r * 1e-40f; break;
                default: v = r;
            }
        }
    }
    std::vector<std::uint8_t> want(nb * info->block_bytes);
    g::scalar_encoder(id)(src.data(), want.data(), nb);
    const std::string failure = for_each_target([&](const std::string& target) -> std::string {
        std::vector<std::uint8_t> out(want.size(), 0x5A);
        g::best_encoder(id)(src.data(), out.data(), nb);
        const long e = first_block_diff(out, want, info->block_bytes);
        return e < 0 ? "" : target + " differs from scalar at block " + std::to_string(e);
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestGgufQuantize)
#include "test_gguf_quantize.moc"
