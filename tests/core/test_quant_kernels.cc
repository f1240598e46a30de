// SPDX-License-Identifier: MIT OR Apache-2.0
// GPTQ / AWQ / bitsandbytes element kernels (core/src/kernels/int/quant_kernels.hpp):
//   * every Highway target compiled in (and supported here) gives exactly the
//     scalar reference's bits, on random data, every length 0..130 and a long
//     run, unaligned pointers, NaN/inf/−0 scales;
//   * the scalar reference agrees with the formulas written out here
//     independently (bit-stream positions, nibble order, LLM.int8 constant);
//   * ONNX's field unpacking and float zero point (kernels/int/onnx_fields.hpp)
//     against the packing and arithmetic written out here.
#include "kernels/int/onnx_fields.hpp"
#include "kernels/int/quant_kernels.hpp"

#include "test_support.hpp"

#include "simd_check.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace qk = amn::kernels::quant;
namespace qs = amn::kernels::quant::scalar;

namespace {

std::uint32_t bits_of(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}

std::string first_diff(const std::vector<float>& a, const std::vector<float>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (bits_of(a[i]) != bits_of(b[i]))
            return "element " + std::to_string(i) + ": " + std::to_string(bits_of(a[i])) + " vs " + std::to_string(bits_of(b[i]));
    return {};
}
std::string first_diff(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return "element " + std::to_string(i) + ": " + std::to_string(a[i]) + " vs " + std::to_string(b[i]);
    return {};
}

std::vector<std::size_t> lengths() {
    std::vector<std::size_t> n;
    for (std::size_t i = 0; i <= 130; ++i) n.push_back(i);
    n.push_back(4099);
    return n;
}

float special_scale(std::mt19937& rng, int i) {
    switch (i % 7) {
        case 0: return std::numeric_limits<float>::quiet_NaN();
        case 1: return -std::numeric_limits<float>::infinity();
        case 2: return -0.0f;
        case 3: return 1e-40f;  // subnormal
        default: return std::uniform_real_distribution<float>(-0.05f, 0.05f)(rng);
    }
}

}  // namespace

class TestQuantKernels : public QObject {
    Q_OBJECT
private slots:
    void scalarMatchesFormulas();
    void unpackBitsEveryTarget();
    void extractFieldEveryTarget();
    void affineEveryTarget();
    void lut4EveryTarget();
    void int8EveryTarget();
    void onnxFields();
};

// ONNX's packing (onnx.proto: 4-bit two per byte, the first element in the low
// nibble; 2-bit four per byte from bit 0 up), written out here: every start
// field (byte-aligned or not, the fast path and the general one), every
// length, the float zero point's three roundings and the integer difference.
void TestQuantKernels::onnxFields() {
    std::mt19937 rng(33);
    std::vector<std::uint8_t> bytes(64);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    for (unsigned bits : {2u, 4u, 8u})
        for (std::uint64_t first = 0; first < 9; ++first)
            for (std::size_t n = 0; n <= 40; ++n) {
                std::vector<std::uint8_t> q(n + 1, 0xEE);
                amn::kernels::onnx::unpack_fields(bytes.data(), first, bits, q.data(), n);
                for (std::size_t i = 0; i < n; ++i) {
                    const std::uint64_t bit = (first + i) * bits;  // position in the little-endian bit stream
                    const unsigned want = (bytes[bit / 8] >> (bit % 8)) & ((1u << bits) - 1u);
                    QVERIFY2(q[i] == want, qPrintable(QString("bits %1 first %2 n %3 field %4").arg(bits).arg(first).arg(n).arg(i)));
                }
                QCOMPARE(int(q[n]), 0xEE);  // nothing written past n
            }
    // q·s + (−s·zp), each product and the sum rounded to f32 (not (q − zp)·s, not fused).
    const std::uint8_t q[3] = {0, 7, 15};
    const float s = 0.0123456f, zp = 7.25f;
    float y[3];
    amn::kernels::onnx::affine_float_zero(q, s, zp, y, 3);
    for (int i = 0; i < 3; ++i) {
        volatile float p = static_cast<float>(q[i]) * s;
        volatile float a = -s * zp;
        QCOMPARE(bits_of(y[i]), bits_of(p + a));
    }
    const std::int64_t d[3] = {-255, 0, 16777217};  // 2^24 + 1 rounds once, to 2^24
    float z[3];
    amn::kernels::onnx::scale_diffs(d, 1.0f, z, 3);
    QCOMPARE(z[0], -255.0f);
    QCOMPARE(z[2], 16777216.0f);
}

void TestQuantKernels::scalarMatchesFormulas() {
    // 3-bit stream: field 10 = bits 30..32 (two low bits of word 0, bit 0 of word 1).
    const std::uint32_t w3[3] = {0x80000000u | 0x40000000u, 0x00000001u, 0};
    std::uint8_t q[32];
    qs::unpack_bits(3, w3, q, 32);
    QCOMPARE(int(q[10]), 7);
    QCOMPARE(int(q[9]), 0);
    QCOMPARE(int(q[11]), 0);
    // 4-bit: field i in bits 4i..4i+3 of word i/8.
    const std::uint32_t w4[2] = {0x76543210u, 0xFEDCBA98u};
    std::uint8_t q4[16];
    qs::unpack_bits(4, w4, q4, 16);
    for (int i = 0; i < 16; ++i) QCOMPARE(int(q4[i]), i);
    // 2-bit and 8-bit.
    const std::uint32_t w2 = 0b11100100u;  // fields 0,1,2,3
    std::uint8_t q2[4];
    qs::unpack_bits(2, &w2, q2, 4);
    for (int i = 0; i < 4; ++i) QCOMPARE(int(q2[i]), i);
    const std::uint32_t w8 = 0x04030201u;
    std::uint8_t q8[4];
    qs::unpack_bits(8, &w8, q8, 4);
    for (int i = 0; i < 4; ++i) QCOMPARE(int(q8[i]), i + 1);
    // 4-bit codebook: high nibble first.
    float code[16];
    for (int i = 0; i < 16; ++i) code[i] = float(i);
    std::uint64_t pairs[256];
    qk::make_pairs(code, pairs);
    const std::uint8_t packed[2] = {0x3A, 0xF0};
    float y[4];
    qs::lut4_scale(packed, pairs, 2.0f, y, 2);
    QCOMPARE(y[0], 6.0f);
    QCOMPARE(y[1], 20.0f);
    QCOMPARE(y[2], 30.0f);
    QCOMPARE(y[3], 0.0f);
    // −0.0 entries survive × a positive absmax.
    code[8] = -0.0f;
    qk::make_pairs(code, pairs);
    const std::uint8_t neg = 0x80;
    qs::lut4_scale(&neg, pairs, 0.5f, y, 1);
    QVERIFY(std::signbit(y[0]) && y[0] == 0.0f);
    // LLM.int8: (q × SCB) × f32(1/127 literal), left to right.
    const std::int8_t i8[3] = {-127, 1, 100};
    float z[3];
    qs::int8_row_scale(i8, 3.0f, z, 3);
    const float k = static_cast<float>(7.874015718698502e-3);
    volatile float a0 = -127.0f * 3.0f, a2 = 100.0f * 3.0f;
    QCOMPARE(bits_of(z[0]), bits_of(a0 * k));
    QCOMPARE(bits_of(z[2]), bits_of(a2 * k));
    // Affine: (q − z) × s.
    const std::uint8_t qa[2] = {0, 15};
    float ya[2];
    qs::affine_const(qa, 8.0f, 0.25f, ya, 2);
    QCOMPARE(ya[0], -2.0f);
    QCOMPARE(ya[1], 1.75f);
}

void TestQuantKernels::unpackBitsEveryTarget() {
    std::mt19937 rng(1);
    const auto failure = amn::test::for_each_target(qk::quant_target_name, [&](const std::string& target) -> std::string {
        for (unsigned bits : {2u, 3u, 4u, 8u}) {
            for (std::size_t n : lengths()) {
                std::vector<std::uint32_t> words((n * bits + 31) / 32 + 2);
                for (auto& w : words) w = rng();
                std::vector<std::uint8_t> a(n), b(n);
                qk::unpack_bits(bits, words.data() + 1, a.data(), n);  // +1: not 64-byte aligned
                qs::unpack_bits(bits, words.data() + 1, b.data(), n);
                if (auto d = first_diff(a, b); !d.empty())
                    return target + " unpack_bits " + std::to_string(bits) + "-bit n=" + std::to_string(n) + " " + d;
            }
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestQuantKernels::extractFieldEveryTarget() {
    std::mt19937 rng(2);
    const auto failure = amn::test::for_each_target(qk::quant_target_name, [&](const std::string& target) -> std::string {
        for (unsigned shift : {0u, 4u, 12u, 28u})
            for (std::size_t n : lengths()) {
                std::vector<std::uint32_t> words(n + 1);
                for (auto& w : words) w = rng();
                std::vector<std::uint8_t> a(n), b(n);
                qk::extract_field(words.data() + 1, shift, 4, a.data(), n);
                qs::extract_field(words.data() + 1, shift, 4, b.data(), n);
                if (auto d = first_diff(a, b); !d.empty()) return target + " extract_field n=" + std::to_string(n) + " " + d;
            }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestQuantKernels::affineEveryTarget() {
    std::mt19937 rng(3);
    const auto failure = amn::test::for_each_target(qk::quant_target_name, [&](const std::string& target) -> std::string {
        int s_i = 0;
        for (std::size_t n : lengths()) {
            std::vector<std::uint8_t> q(n + 1);
            for (auto& v : q) v = std::uint8_t(rng());
            const float z = float(rng() % 256), s = special_scale(rng, s_i++);
            std::vector<float> a(n), b(n);
            qk::affine_const(q.data() + 1, z, s, a.data(), n);
            qs::affine_const(q.data() + 1, z, s, b.data(), n);
            if (auto d = first_diff(a, b); !d.empty()) return target + " affine_const n=" + std::to_string(n) + " " + d;
            // Act-order: random groups, per-group zeros and scales (specials included).
            // Group counts reach every table size of every target (1, 2 and 4
            // vectors of 4, 8 or 16 lanes) and the gather beyond.
            static constexpr int kGroups[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 31, 32, 33, 48, 64, 65, 100};
            const int groups = kGroups[rng() % std::size(kGroups)];
            std::vector<std::int32_t> g(n + 1);
            for (auto& v : g) v = std::int32_t(rng() % groups);
            std::vector<float> zs(groups), ss(groups);
            for (int i = 0; i < groups; ++i) {
                zs[i] = float(rng() % 16);
                ss[i] = special_scale(rng, s_i++);
            }
            qk::affine_gather(q.data() + 1, g.data() + 1, zs.data(), ss.data(), std::size_t(groups), a.data(), n);
            qs::affine_gather(q.data() + 1, g.data() + 1, zs.data(), ss.data(), b.data(), n);
            if (auto d = first_diff(a, b); !d.empty()) return target + " affine_gather n=" + std::to_string(n) + " " + d;
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestQuantKernels::lut4EveryTarget() {
    std::mt19937 rng(4);
    float code[16];
    for (int i = 0; i < 16; ++i) code[i] = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    code[7] = 0.0f;
    code[8] = -0.0f;
    std::uint64_t pairs[256];
    qk::make_pairs(code, pairs);
    const auto failure = amn::test::for_each_target(qk::quant_target_name, [&](const std::string& target) -> std::string {
        int s_i = 0;
        for (std::size_t nbytes : lengths()) {
            std::vector<std::uint8_t> p(nbytes + 1);
            for (auto& v : p) v = std::uint8_t(rng());
            const float am = special_scale(rng, s_i++);
            std::vector<float> a(2 * nbytes), b(2 * nbytes);
            qk::lut4_scale(p.data() + 1, pairs, am, a.data(), nbytes);
            qs::lut4_scale(p.data() + 1, pairs, am, b.data(), nbytes);
            if (auto d = first_diff(a, b); !d.empty()) return target + " lut4_scale n=" + std::to_string(nbytes) + " " + d;
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestQuantKernels::int8EveryTarget() {
    std::mt19937 rng(5);
    const auto failure = amn::test::for_each_target(qk::quant_target_name, [&](const std::string& target) -> std::string {
        int s_i = 0;
        for (std::size_t n : lengths()) {
            std::vector<std::int8_t> q(n + 1);
            for (auto& v : q) v = std::int8_t(rng());
            const float scb = s_i % 2 ? special_scale(rng, s_i) : std::uniform_real_distribution<float>(0.f, 10.f)(rng);
            ++s_i;
            std::vector<float> a(n), b(n);
            qk::int8_row_scale(q.data() + 1, scb, a.data(), n);
            qs::int8_row_scale(q.data() + 1, scb, b.data(), n);
            if (auto d = first_diff(a, b); !d.empty()) return target + " int8_row_scale n=" + std::to_string(n) + " " + d;
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestQuantKernels)
#include "test_quant_kernels.moc"
