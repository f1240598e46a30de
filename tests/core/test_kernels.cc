// SPDX-License-Identifier: MIT OR Apache-2.0
// Element kernels (anamnesis/kernels.hpp):
//   * every Highway target compiled in gives the scalar path's exact bits;
//   * the scalar path matches an independent reference: PyTorch 1.13's
//     BF16/F16 conversions and spec-formula FP8/FP6/FP4 decoders in numpy
//     (tests/core/kernel_reference.py, run here with /usr/bin/python3);
//   * decoding real FP8 checkpoints (the shared fp8 fixtures) reproduces the
//     reference BF16 output byte for byte.
#include "anamnesis/kernels.hpp"

#include "test_support.hpp"

#include "simd_check.hpp"

#include <hwy/targets.h>

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using amn::DType;
namespace k = amn::kernels;
namespace ks = amn::kernels::scalar;

namespace {

constexpr std::array<DType, 5> kFp8Formats = {DType::F8_E4M3, DType::F8_E5M2, DType::F8_E4M3FNUZ,
                                              DType::F8_E5M2FNUZ, DType::F8_E8M0};

std::uint32_t bits(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}
float from_bits(std::uint32_t u) {
    float x;
    std::memcpy(&x, &u, 4);
    return x;
}
std::string hex(std::uint32_t v, int width = 8) {
    return QString::number(v, 16).rightJustified(width, '0').toStdString();
}

/// f32 bit patterns that stress the BF16/F16 conversions.
std::vector<float> conversion_inputs() {
    std::vector<std::uint32_t> u = {
        0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
        0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF,
        0xFFFFFFFF, 0x7FA00000, 0x7F801000, 0x7FBFFFFF, 0x3F808000, 0x3F818000, 0x3F807FFF,
        0x7F7F8000, 0x7F7F7FFF, 0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001, 0x47800000,
        0x38800000, 0x387FFFFF, 0x387FF000, 0x33800000, 0x33000000, 0x33000001, 0x33C00000,
        0x3C001000, 0x3C003000, 0x3C002FFF, 0xB3000001, 0xC77FF000,
    };
    std::mt19937 rng(12345);
    for (int i = 0; i < 400000; ++i) u.push_back(static_cast<std::uint32_t>(rng()));
    for (std::uint32_t e = 0; e < 256; ++e) {
        for (std::uint32_t low : {0x0u, 0x1u, 0xFFFu, 0x1000u, 0x1001u, 0x3000u, 0x7FFFu, 0x8000u,
                                  0x8001u, 0x18000u, 0x7FFFFFu, 0x400000u, 0x3FF000u, 0x7FF000u}) {
            u.push_back((e << 23) | low);
            u.push_back(0x80000000u | (e << 23) | low);
        }
        for (int i = 0; i < 200; ++i) u.push_back((e << 23) | (rng() & 0x7FFFFFu));
    }
    std::vector<float> f(u.size());
    std::memcpy(f.data(), u.data(), u.size() * 4);
    return f;
}

const std::vector<float> kScales = {
    1.0f, 0.5f, -2.75f, 0.00135803222f, 3.0e-39f /* subnormal */, 1.0e-45f /* min subnormal */,
    1.0e38f /* overflows */, std::numeric_limits<float>::max(), -0.0f, 0.0f,
    std::numeric_limits<float>::quiet_NaN(), from_bits(0xFFA00001u) /* signalling */,
    -std::numeric_limits<float>::infinity(),
    std::numeric_limits<float>::infinity(), 0x1.0p-140f, 0x1.8p-126f,
};

std::string compare_f32(const float* got, const float* want, std::size_t n, const std::string& what) {
    for (std::size_t i = 0; i < n; ++i)
        if (bits(got[i]) != bits(want[i]))
            return what + ": element " + std::to_string(i) + " is 0x" + hex(bits(got[i])) + ", expected 0x" +
                   hex(bits(want[i]));
    return {};
}

std::string compare_u16(const std::uint16_t* got, const std::uint16_t* want, std::size_t n,
                        const std::string& what, const float* inputs = nullptr) {
    for (std::size_t i = 0; i < n; ++i)
        if (got[i] != want[i])
            return what + ": element " + std::to_string(i) +
                   (inputs ? " (input 0x" + hex(bits(inputs[i])) + ")" : std::string{}) + " is 0x" +
                   hex(got[i], 4) + ", expected 0x" + hex(want[i], 4);
    return {};
}

template <typename T>
std::vector<T> load_table(const QString& dir, const char* name, std::size_t expected_count) {
    const auto bytes = amn::test::read_file((dir + "/" + name).toStdString());
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    if (expected_count != 0 && out.size() != expected_count) out.clear();
    return out;
}

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT

private slots:
    void targetsAreDispatched();
    void fp8SimdMatchesScalar();
    void f32ToHalfSimdMatchesScalar();
    void halfToF32SimdMatchesScalar();
    void tailsAndUnalignedPointers();
    void nanConventions();
    void scalarMatchesIndependentReference();
    void realFp8CheckpointsDecodeToReference();
};

void TestKernels::targetsAreDispatched() {
    const auto targets = hwy::SupportedAndGeneratedTargets();
    QVERIFY(!targets.empty());
    QStringList names;
    for (auto t : targets) names << hwy::TargetName(t);
    qInfo("targets tested: %s; active: %s", qPrintable(names.join(", ")), k::active_target_name());
    // Without a mock, dispatch picks the best (lowest-bit) target compiled in.
    QCOMPARE(std::string(k::active_target_name()), std::string(hwy::TargetName(targets.front())));
#if HWY_ARCH_X86
    // The 128-bit targets without F16C take our bit-arithmetic paths: make sure
    // they are exercised (every x86-64 CPU supports at least SSSE3... and any
    // CPU of the last decade SSE4).
    QVERIFY2(names.size() >= 2, "expected several x86 targets (SSE4 and a wider one)");
#endif
}

void TestKernels::fp8SimdMatchesScalar() {
    std::vector<std::uint8_t> codes(256 * 3);
    for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<std::uint8_t>(i * 7 + i / 256);
    const std::size_t n = codes.size();
    std::vector<float> got(n), want(n);
    const std::string failure = amn::test::for_each_target(k::active_target_name, [&](const std::string& target) -> std::string {
        for (DType fmt : kFp8Formats) {
            const std::string fname = amn::dtype_name(fmt);
            k::fp8_to_f32(fmt, codes.data(), got.data(), n);
            ks::fp8_to_f32(fmt, codes.data(), want.data(), n);
            if (auto e = compare_f32(got.data(), want.data(), n, target + " fp8_to_f32 " + fname); !e.empty())
                return e;
            for (float s : kScales) {
                k::fp8_scale_to_f32(fmt, codes.data(), s, got.data(), n);
                ks::fp8_scale_to_f32(fmt, codes.data(), s, want.data(), n);
                if (auto e = compare_f32(got.data(), want.data(), n,
                                         target + " fp8_scale_to_f32 " + fname + " scale 0x" + hex(bits(s)));
                    !e.empty())
                    return e;
            }
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestKernels::f32ToHalfSimdMatchesScalar() {
    const std::vector<float> in = conversion_inputs();
    const std::size_t n = in.size();
    std::vector<std::uint16_t> got(n), want(n);
    const std::string failure = amn::test::for_each_target(k::active_target_name, [&](const std::string& target) -> std::string {
        k::f32_to_bf16(in.data(), got.data(), n);
        ks::f32_to_bf16(in.data(), want.data(), n);
        if (auto e = compare_u16(got.data(), want.data(), n, target + " f32_to_bf16", in.data()); !e.empty())
            return e;
        k::f32_to_f16(in.data(), got.data(), n);
        ks::f32_to_f16(in.data(), want.data(), n);
        return compare_u16(got.data(), want.data(), n, target + " f32_to_f16", in.data());
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestKernels::halfToF32SimdMatchesScalar() {
    std::vector<std::uint16_t> in(65536);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint16_t>(i);
    std::vector<float> got(in.size()), want(in.size());
    const std::string failure = amn::test::for_each_target(k::active_target_name, [&](const std::string& target) -> std::string {
        k::bf16_to_f32(in.data(), got.data(), in.size());
        ks::bf16_to_f32(in.data(), want.data(), in.size());
        if (auto e = compare_f32(got.data(), want.data(), in.size(), target + " bf16_to_f32"); !e.empty())
            return e;
        k::f16_to_f32(in.data(), got.data(), in.size());
        ks::f16_to_f32(in.data(), want.data(), in.size());
        return compare_f32(got.data(), want.data(), in.size(), target + " f16_to_f32");
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestKernels::tailsAndUnalignedPointers() {
    // Every length 0..67 at several misalignments: output must equal scalar
    // for the n elements and nothing around them may be written.
    constexpr std::size_t kMaxLen = 67, kPad = 80;
    constexpr std::uint32_t kGuard32 = 0x7FBADBADu;
    constexpr std::uint16_t kGuard16 = 0xDBADu;
    std::mt19937 rng(99);
    std::vector<std::uint8_t> codes(kMaxLen + kPad);
    for (auto& c : codes) c = static_cast<std::uint8_t>(rng());
    std::vector<float> floats(kMaxLen + kPad);
    const std::vector<float> pool = conversion_inputs();
    for (auto& f : floats) f = pool[rng() % pool.size()];
    std::vector<std::uint16_t> halves(kMaxLen + kPad);
    for (auto& h : halves) h = static_cast<std::uint16_t>(rng());

    const std::string failure = amn::test::for_each_target(k::active_target_name, [&](const std::string& target) -> std::string {
        for (std::size_t off = 0; off < 4; ++off) {
            for (std::size_t n = 0; n <= kMaxLen; ++n) {
                const std::string where = target + " n=" + std::to_string(n) + " offset=" + std::to_string(off);
                // Output buffers: guard-filled, output starts at 1 + off
                // elements (never vector-aligned when off + 1 is odd).
                std::vector<float> got32(kMaxLen + kPad), want32(kMaxLen + kPad);
                std::vector<std::uint16_t> got16(kMaxLen + kPad), want16(kMaxLen + kPad);
                auto reset = [&] {
                    std::fill(got32.begin(), got32.end(), from_bits(kGuard32));
                    std::fill(want32.begin(), want32.end(), from_bits(kGuard32));
                    std::fill(got16.begin(), got16.end(), kGuard16);
                    std::fill(want16.begin(), want16.end(), kGuard16);
                };
                const std::size_t o = 1 + off;
                std::string e;
                for (DType fmt : kFp8Formats) {
                    reset();
                    k::fp8_scale_to_f32(fmt, codes.data() + off, -0.75f, got32.data() + o, n);
                    ks::fp8_scale_to_f32(fmt, codes.data() + off, -0.75f, want32.data() + o, n);
                    if (!(e = compare_f32(got32.data(), want32.data(), got32.size(),
                                          where + " fp8_scale_to_f32 " + amn::dtype_name(fmt))).empty())
                        return e;
                    reset();
                    k::fp8_to_f32(fmt, codes.data() + off, got32.data() + o, n);
                    ks::fp8_to_f32(fmt, codes.data() + off, want32.data() + o, n);
                    if (!(e = compare_f32(got32.data(), want32.data(), got32.size(),
                                          where + " fp8_to_f32 " + amn::dtype_name(fmt))).empty())
                        return e;
                }
                reset();
                k::f32_to_bf16(floats.data() + off, got16.data() + o, n);
                ks::f32_to_bf16(floats.data() + off, want16.data() + o, n);
                if (!(e = compare_u16(got16.data(), want16.data(), got16.size(), where + " f32_to_bf16")).empty())
                    return e;
                reset();
                k::f32_to_f16(floats.data() + off, got16.data() + o, n);
                ks::f32_to_f16(floats.data() + off, want16.data() + o, n);
                if (!(e = compare_u16(got16.data(), want16.data(), got16.size(), where + " f32_to_f16")).empty())
                    return e;
                reset();
                k::bf16_to_f32(halves.data() + off, got32.data() + o, n);
                ks::bf16_to_f32(halves.data() + off, want32.data() + o, n);
                if (!(e = compare_f32(got32.data(), want32.data(), got32.size(), where + " bf16_to_f32")).empty())
                    return e;
                reset();
                k::f16_to_f32(halves.data() + off, got32.data() + o, n);
                ks::f16_to_f32(halves.data() + off, want32.data() + o, n);
                if (!(e = compare_f32(got32.data(), want32.data(), got32.size(), where + " f16_to_f32")).empty())
                    return e;
                // And the guards are intact (scalar writes exactly n).
                for (std::size_t i = 0; i < got32.size(); ++i) {
                    if ((i < o || i >= o + n) && bits(got32[i]) != kGuard32)
                        return where + ": wrote outside [0, n) at " + std::to_string(i);
                }
            }
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestKernels::nanConventions() {
    // The NaN bits documented in kernels.hpp (they are conventions, not
    // arithmetic, so the reference only checks NaN-ness).
    QCOMPARE(bits(ks::fp8_value(DType::F8_E4M3, 0x7F)), 0x7FF00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E4M3, 0xFF)), 0xFFF00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E5M2, 0x7D)), 0x7FE00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E5M2, 0xFE)), 0xFFC00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E4M3FNUZ, 0x80)), 0x7FC00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E5M2FNUZ, 0x80)), 0x7FC00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E8M0, 0xFF)), 0x7FC00000u);
    QCOMPARE(bits(ks::fp8_value(DType::F8_E8M0, 0x00)), 0x00400000u);  // 2^-127, subnormal
    QCOMPARE(ks::bf16_from_f32(from_bits(0x7F800001u)), std::uint16_t{0x7FC0});
    QCOMPARE(ks::bf16_from_f32(from_bits(0xFFFFFFFFu)), std::uint16_t{0xFFFF});
    QCOMPARE(ks::f16_from_f32(from_bits(0x7F800001u)), std::uint16_t{0x7E00});
    QCOMPARE(ks::f16_from_f32(from_bits(0xFFA02000u)), std::uint16_t{0xFF01});
    QCOMPARE(bits(ks::f32_from_f16(0x7C01)), 0x7FC02000u);
    QCOMPARE(bits(ks::f32_from_bf16(0x7F81)), 0x7F810000u);  // BF16 → f32 is a pure shift
    // A NaN scale: its quiet NaN everywhere, whatever the codes.
    const std::uint8_t codes[3] = {0x7F, 0x38, 0x00};
    float out[3];
    ks::fp8_scale_to_f32(DType::F8_E4M3, codes, from_bits(0xFFA00001u), out, 3);
    for (float v : out) QCOMPARE(bits(v), 0xFFE00001u);
}

void TestKernels::scalarMatchesIndependentReference() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString script = QString::fromStdString(amn::test::source_dir()) + "/tests/core/kernel_reference.py";
    const auto r = amn::test::run(QString::fromStdString(amn::test::python()), {script, tmp.path()}, 300000);
    QVERIFY2(r.exit_code == 0, qPrintable("kernel_reference.py failed (" + QString::number(r.exit_code) +
                                          "): " + r.err.right(2000)));
    const QString dir = tmp.path();

    // f32 → BF16 / F16 against PyTorch. NaN inputs: PyTorch drops sign and
    // payload (BF16 0xFFFF, F16 0x7E00); we keep them (nanConventions), so
    // there we require a NaN of the same sign.
    const auto inputs_u = load_table<std::uint32_t>(dir, "f32_inputs.u32", 0);
    QVERIFY(inputs_u.size() > 400000);
    std::vector<float> inputs(inputs_u.size());
    std::memcpy(inputs.data(), inputs_u.data(), inputs.size() * 4);
    const auto ref_bf16 = load_table<std::uint16_t>(dir, "f32_to_bf16.u16", inputs.size());
    const auto ref_f16 = load_table<std::uint16_t>(dir, "f32_to_f16.u16", inputs.size());
    QVERIFY(!ref_bf16.empty() && !ref_f16.empty());
    std::size_t nan_inputs = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const float x = inputs[i];
        const std::uint16_t b = ks::bf16_from_f32(x), h = ks::f16_from_f32(x);
        if (std::isnan(x)) {
            ++nan_inputs;
            const std::uint16_t sign = (inputs_u[i] >> 31) << 15;
            QVERIFY2((b & 0x7FC0) == 0x7FC0 && (b & 0x8000) == sign,
                     qPrintable("bf16 of NaN 0x" + QString::number(inputs_u[i], 16)));
            QVERIFY2((h & 0x7E00) == 0x7E00 && (h & 0x8000) == sign,
                     qPrintable("f16 of NaN 0x" + QString::number(inputs_u[i], 16)));
            continue;
        }
        if (b != ref_bf16[i] || h != ref_f16[i])
            QFAIL(qPrintable(QString("f32 0x%1: bf16 0x%2 (torch 0x%3), f16 0x%4 (torch 0x%5)")
                                 .arg(inputs_u[i], 8, 16, QChar('0'))
                                 .arg(b, 4, 16, QChar('0'))
                                 .arg(ref_bf16[i], 4, 16, QChar('0'))
                                 .arg(h, 4, 16, QChar('0'))
                                 .arg(ref_f16[i], 4, 16, QChar('0'))));
    }
    QVERIFY(nan_inputs > 10);  // the edge cases are in there

    // BF16 / F16 → f32: all 65536 patterns, NaNs included, bit for bit.
    const auto ref_bf16_f32 = load_table<std::uint32_t>(dir, "bf16_to_f32.u32", 65536);
    const auto ref_f16_f32 = load_table<std::uint32_t>(dir, "f16_to_f32.u32", 65536);
    QVERIFY(!ref_bf16_f32.empty() && !ref_f16_f32.empty());
    for (std::uint32_t h = 0; h < 65536; ++h) {
        QVERIFY2(bits(ks::f32_from_bf16(static_cast<std::uint16_t>(h))) == ref_bf16_f32[h],
                 qPrintable("bf16 0x" + QString::number(h, 16)));
        QVERIFY2(bits(ks::f32_from_f16(static_cast<std::uint16_t>(h))) == ref_f16_f32[h],
                 qPrintable("f16 0x" + QString::number(h, 16)));
    }

    // FP8 codes and scaled codes against the spec formulas; the dispatched
    // (best SIMD) path too. NaN codes: NaN-ness only.
    auto same = [](float got, float want) {
        return std::isnan(want) ? std::isnan(got) : bits(got) == bits(want);
    };
    const auto scales = load_table<float>(dir, "fp8_scales.f32", 0);
    QVERIFY(scales.size() >= 8);
    std::vector<std::uint8_t> codes(256);
    for (int i = 0; i < 256; ++i) codes[i] = static_cast<std::uint8_t>(i);
    std::vector<float> simd(256);
    for (DType fmt : kFp8Formats) {
        const std::string name = amn::dtype_name(fmt);
        const auto table = load_table<float>(dir, ("fp8_" + name + ".f32").c_str(), 256);
        QVERIFY2(!table.empty(), name.c_str());
        k::fp8_to_f32(fmt, codes.data(), simd.data(), 256);
        for (int c = 0; c < 256; ++c) {
            const float v = ks::fp8_value(fmt, static_cast<std::uint8_t>(c));
            QVERIFY2(same(v, table[c]), qPrintable(QString("%1 code 0x%2: %3, expected %4")
                                                       .arg(name.c_str())
                                                       .arg(c, 2, 16, QChar('0'))
                                                       .arg(double(v))
                                                       .arg(double(table[c]))));
            QVERIFY(same(simd[c], table[c]));
        }
        const auto scaled = load_table<float>(dir, ("fp8_scaled_" + name + ".f32").c_str(), 256 * scales.size());
        QVERIFY2(!scaled.empty(), name.c_str());
        std::vector<float> got(256);
        for (std::size_t s = 0; s < scales.size(); ++s) {
            ks::fp8_scale_to_f32(fmt, codes.data(), scales[s], got.data(), 256);
            k::fp8_scale_to_f32(fmt, codes.data(), scales[s], simd.data(), 256);
            for (int c = 0; c < 256; ++c) {
                QVERIFY2(same(got[c], scaled[s * 256 + c]),
                         qPrintable(QString("%1 code 0x%2 × scale %3").arg(name.c_str()).arg(c, 0, 16).arg(double(scales[s]))));
                QVERIFY(same(simd[c], scaled[s * 256 + c]));
            }
        }
    }

    // FP4 E2M1 and FP6 (no NaN codes).
    const auto fp4 = load_table<float>(dir, "fp4_e2m1.f32", 16);
    QVERIFY(!fp4.empty());
    for (int c = 0; c < 16; ++c)
        QVERIFY2(bits(ks::fp4_e2m1_value(static_cast<std::uint8_t>(c))) == bits(fp4[c]),
                 qPrintable("E2M1 code " + QString::number(c)));
    // Only the low nibble counts.
    QCOMPARE(bits(ks::fp4_e2m1_value(0xF7)), bits(fp4[7]));
    for (DType fmt : {DType::F6_E2M3, DType::F6_E3M2}) {
        const std::string name = amn::dtype_name(fmt);
        const auto table = load_table<float>(dir, ("fp6_" + name + ".f32").c_str(), 64);
        QVERIFY2(!table.empty(), name.c_str());
        for (int c = 0; c < 64; ++c)
            QVERIFY2(bits(ks::fp6_value(fmt, static_cast<std::uint8_t>(c))) == bits(table[c]),
                     qPrintable(QString("%1 code %2").arg(name.c_str()).arg(c)));
    }
}

void TestKernels::realFp8CheckpointsDecodeToReference() {
    // Slices of real FP8 checkpoints: weight (F8_E4M3, [out, in]) and its BF16
    // scale, per-tensor ([]), per-channel ([out, 1]) or 128×128 blocks
    // ([ceil(out/128), ceil(in/128)]). Expected = bf16_rne(f32(w) × f32(scale)).
    AMN_REQUIRE_REFERENCE_DIR(ref);
    struct Case {
        const char* dir;
        const char* weight;
        const char* scale;
    };
    const Case cases[] = {
        {"fp8/exaone_fine_grained", "model.layers.0.mlp.down_proj.weight",
         "model.layers.0.mlp.down_proj.weight_scale_inv"},
        {"fp8/llama_dynamic_per_channel", "model.layers.0.mlp.down_proj.weight",
         "model.layers.0.mlp.down_proj.weight_scale"},
        {"fp8/ministral_per_tensor", "language_model.model.layers.0.mlp.down_proj.weight",
         "language_model.model.layers.0.mlp.down_proj.weight_scale_inv"},
    };
    for (const Case& c : cases) {
        const std::string base = ref + "/" + c.dir;
        const auto input = amn::test::read_safetensors_raw(base + "/input/model.safetensors");
        const auto expected = amn::test::read_safetensors_raw(base + "/expected.safetensors");
        QVERIFY2(input && expected, base.c_str());
        const auto wit = input->tensors.find(c.weight);
        const auto sit = input->tensors.find(c.scale);
        const auto eit = expected->tensors.find(c.weight);
        QVERIFY2(wit != input->tensors.end() && sit != input->tensors.end() && eit != expected->tensors.end(),
                 base.c_str());
        const auto& w = wit->second;
        const auto& s = sit->second;
        const auto& e = eit->second;
        QCOMPARE(w.dtype, std::string("F8_E4M3"));
        QCOMPARE(s.dtype, std::string("BF16"));
        QCOMPARE(e.dtype, std::string("BF16"));
        QCOMPARE(w.shape.size(), std::size_t{2});
        const std::size_t rows = w.shape[0], cols = w.shape[1];
        QCOMPARE(w.bytes.size(), rows * cols);
        QCOMPARE(e.bytes.size(), rows * cols * 2);

        std::vector<float> scale(s.bytes.size() / 2);
        for (std::size_t i = 0; i < scale.size(); ++i) {
            std::uint16_t h;
            std::memcpy(&h, s.bytes.data() + 2 * i, 2);
            scale[i] = ks::f32_from_bf16(h);
        }
        // Scale of element (r, col) and the length of the run sharing it.
        std::size_t block_rows = rows, block_cols = cols;  // per-tensor
        if (s.shape.size() == 2 && s.shape[1] == 1 && s.shape[0] == rows) {
            block_rows = 1;  // per-channel
        } else if (s.shape.size() == 2) {
            block_rows = block_cols = 128;
            QCOMPARE(s.shape[0], (rows + 127) / 128);
            QCOMPARE(s.shape[1], (cols + 127) / 128);
        } else {
            QCOMPARE(scale.size(), std::size_t{1});
        }
        const std::size_t scale_cols = (cols + block_cols - 1) / block_cols;

        std::vector<std::uint16_t> want(rows * cols);
        std::memcpy(want.data(), e.bytes.data(), e.bytes.size());
        const std::string failure = amn::test::for_each_target(k::active_target_name, [&](const std::string& target) -> std::string {
            std::vector<float> f32(cols);
            std::vector<std::uint16_t> got(rows * cols);
            for (std::size_t r = 0; r < rows; ++r) {
                for (std::size_t c0 = 0; c0 < cols; c0 += block_cols) {
                    const std::size_t len = std::min(block_cols, cols - c0);
                    const float sc = scale[(r / block_rows) * scale_cols + c0 / block_cols];
                    k::fp8_scale_to_f32(DType::F8_E4M3, w.bytes.data() + r * cols + c0, sc, f32.data() + c0, len);
                }
                k::f32_to_bf16(f32.data(), got.data() + r * cols, cols);
            }
            return compare_u16(got.data(), want.data(), got.size(), target + " " + c.dir);
        });
        QVERIFY2(failure.empty(), failure.c_str());
    }
}

QTEST_APPLESS_MAIN(TestKernels)
#include "test_kernels.moc"
