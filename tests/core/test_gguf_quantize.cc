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

#include "simd_check.hpp"

#include <QDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <limits>
#include <random>

using namespace amn;
namespace g = amn::kernels::gguf;

namespace {

const char* const kTypes[] = {"Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K",
                              "Q6_K", "IQ4_NL", "IQ4_XS", "TQ1_0", "TQ2_0", "MXFP4", "NVFP4", "Q1_0", "Q2_0"};

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

// 18 kinds × 16 groups of 32 elements that stress the legacy encoders'
// special cases (lanes = blocks: every kind lands in every lane of a batch),
// appended to src: signed zeros, equal magnitudes of both signs (first one
// positive, negative, in the other half), exact .5 ties after scaling, NaN,
// ±inf, subnormals, a subnormal min, lone values, near-FLT_MAX, constants.
void append_adversarial(std::vector<float>& src, std::mt19937& rng) {
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::uniform_int_distribution<int> ex(-20, 20);
    constexpr std::size_t kKinds = 18;
    const float inf = std::numeric_limits<float>::infinity();
    for (std::size_t g = 0; g < kKinds * 16; ++g) {
        const std::size_t kind = (g * 7) % kKinds;  // neighbours in a batch differ
        const float e = std::ldexp(1.0f, ex(rng));
        const std::size_t at = g % 32;
        float x[32];
        for (std::size_t j = 0; j < 32; ++j) x[j] = 0.1f * nd(rng) * e;
        switch (kind) {
            case 0: std::fill(x, x + 32, 0.0f); break;
            case 1: std::fill(x, x + 32, -0.0f); break;
            case 2: for (std::size_t j = 0; j < 32; ++j) x[j] = (j + g) % 2 ? -0.0f : 0.0f; break;
            case 3: x[at / 2] = 8.0f * e; x[16 + at / 2] = -8.0f * e; break;  // tie, + first
            case 4: x[at / 2] = -8.0f * e; x[16 + at / 2] = 8.0f * e; break;  // tie, − first
            case 5: x[at % 16] = 3.0f * e; x[at % 16 + 1] = -3.0f * e; break;   // tie, adjacent
            case 6: for (std::size_t j = 0; j < 32; ++j) x[j] = float(int((j + g) % 17) - 8) * 0.5f * e; break;
            case 7: for (std::size_t j = 0; j < 32; ++j) x[j] = float(int((j * 5 + g) % 33) - 16) * 0.5f * e; break;
            case 8: x[at] = std::numeric_limits<float>::quiet_NaN(); break;
            case 9: x[at] = -inf; break;
            case 10: x[at] = inf; x[31 - at] = -inf; break;
            case 11: for (float& v : x) v = nd(rng) * 1e-40f; break;
            case 12: for (float& v : x) v = std::fabs(v) + e; x[at] = 1e-41f; break;  // subnormal min
            case 13: std::fill(x, x + 32, 0.0f); x[at] = (g & 1) ? -e : e; break;
            case 14: for (float& v : x) v = nd(rng) * 1e38f; x[at] = (g & 1) ? -3.4e38f : 3.4e38f; break;
            case 15: std::fill(x, x + 32, (g & 1) ? -e : e); break;
            case 16: for (float& v : x) v = -std::fabs(v); break;
            default: for (float& v : x) v *= 1e6f; break;  // beyond f16
        }
        src.insert(src.end(), x, x + 32);
    }
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
        const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
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
    append_adversarial(src, rng);
    // Blocks with max 127 (Q8_0: d = 1, id = 1) whose other values lie just
    // below and at k + 0.5 and their negatives: roundf's ties and near-ties,
    // where adding 0.5 before truncating would round up.
    for (std::size_t b = 0; b < 16; ++b)
        for (std::size_t j = 0; j < info->block_elems; ++j) {
            const float k = float((j * 7 + b * 13) % 127) + 0.5f;
            const float v = j % 32 == 0 ? 127.0f : (j % 3 == 0 ? k : std::nextafter(k, 0.0f));
            src.push_back((j + b) % 2 ? -v : v);
        }
    // Blocks of the smallest subnormals: max − min so small that a search's
    // inverse scale overflows to inf in lanes that are not constant.
    for (std::size_t b = 0; b < 8; ++b)
        for (std::size_t j = 0; j < info->block_elems; ++j) {
            const float tiny = std::numeric_limits<float>::denorm_min() * float((j * 5 + b) % 11);
            src.push_back((b & 1) && j % 4 == 0 ? -tiny : tiny);
        }
    const std::size_t nb_all = src.size() / info->block_elems;
    std::vector<std::uint8_t> want(nb_all * info->block_bytes);
    g::scalar_encoder(id)(src.data(), want.data(), nb_all);
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        std::vector<std::uint8_t> out(want.size(), 0x5A);
        g::best_encoder(id)(src.data(), out.data(), nb_all);
        const long e = first_block_diff(out, want, info->block_bytes);
        if (e >= 0) return target + " differs from scalar at block " + std::to_string(e);
        // Short runs (batches cut anywhere), from an offset that is not a
        // batch boundary: the same bytes, and none written past the end.
        for (const std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{15}, std::size_t{17}, std::size_t{33}}) {
            const std::size_t first = nb_all - n - 1;
            std::vector<std::uint8_t> part((n + 1) * info->block_bytes, 0x5A);
            g::best_encoder(id)(src.data() + first * info->block_elems, part.data(), n);
            const std::vector<std::uint8_t> tail(part.begin() + std::ptrdiff_t(n * info->block_bytes), part.end());
            if (tail != std::vector<std::uint8_t>(info->block_bytes, 0x5A))
                return target + ": wrote past " + std::to_string(n) + " blocks";
            part.resize(n * info->block_bytes);
            const std::vector<std::uint8_t> ref(want.begin() + std::ptrdiff_t(first * info->block_bytes),
                                                want.begin() + std::ptrdiff_t((first + n) * info->block_bytes));
            const long f = first_block_diff(part, ref, info->block_bytes);
            if (f >= 0) return target + ": run of " + std::to_string(n) + " differs at block " + std::to_string(f);
        }
        return "";
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestGgufQuantize)
#include "test_gguf_quantize.moc"
