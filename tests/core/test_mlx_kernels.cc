// SPDX-License-Identifier: MIT OR Apache-2.0
// kernels/mlx: every Highway target's affine_group equals the scalar
// reference bit for bit (BF16 and F32, scales and biases including ±0,
// subnormals, ±inf and NaN); pack_codes and unpack_codes are inverse for
// every width MLX has, and the stream is LSB-first across bytes (checked
// against a bit-by-bit construction); MLX's E4M3 decode equals the format's
// definition except 0x7F/0xFF = ±480; the E8M0 scale is 2^(e−127) with
// e = 255 → inf.
#include "kernels/mlx/mlx_kernels.hpp"
#include "simd_check.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace mk = amn::kernels::mlx;

class TestMlxKernels : public QObject {
    Q_OBJECT

private slots:
    void affineGroupEveryTarget() {
        std::mt19937 rng(7);
        std::vector<float> scales, biases;
        std::normal_distribution<float> nd(0.0f, 0.05f);
        for (int i = 0; i < 200; ++i) scales.push_back(mk::round_bf16(nd(rng))), biases.push_back(mk::round_bf16(nd(rng)));
        const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
        for (float s : {0.0f, -0.0f, 1e-40f, -3e-39f, inf, -inf, nan, 65504.0f, 3.0e38f}) scales.push_back(s), biases.push_back(nd(rng));
        for (float b : {0.0f, -0.0f, 1e-40f, inf, nan, -3.0e38f}) scales.push_back(0.01f), biases.push_back(b);
        std::vector<std::uint8_t> q(77);
        for (auto& v : q) v = static_cast<std::uint8_t>(rng() & 255u);
        for (const auto dt : {amn::DType::BF16, amn::DType::F32}) {
            std::vector<float> want(q.size() * scales.size());
            for (std::size_t g = 0; g < scales.size(); ++g)
                mk::scalar::affine_group(dt, q.data(), scales[g], biases[g], want.data() + g * q.size(), q.size());
            const auto failure = amn::test::for_each_target(mk::mlx_target_name, [&](const std::string& target) -> std::string {
                std::vector<float> got(want.size());
                for (std::size_t g = 0; g < scales.size(); ++g)
                    mk::affine_group(dt, q.data(), scales[g], biases[g], got.data() + g * q.size(), q.size());
                const long at = amn::test::first_diff(got, want);
                return at < 0 ? std::string() : target + ": element " + std::to_string(at) + " differs";
            });
            QVERIFY2(failure.empty(), failure.c_str());
        }
    }

    void packUnpack() {
        std::mt19937 rng(3);
        for (unsigned bits : {2u, 3u, 4u, 5u, 6u, 8u}) {
            const std::size_t n = 32 * 5;
            std::vector<std::uint8_t> q(n), back(n), bytes(n * bits / 8), ref(n * bits / 8, 0);
            for (auto& v : q) v = static_cast<std::uint8_t>(rng() & ((1u << bits) - 1u));
            for (std::size_t i = 0; i < n; ++i)
                for (unsigned k = 0; k < bits; ++k)
                    if ((q[i] >> k) & 1u) ref[(i * bits + k) / 8] |= static_cast<std::uint8_t>(1u << ((i * bits + k) % 8));
            mk::pack_codes(bits, q.data(), bytes.data(), n);
            QVERIFY2(bytes == ref, qPrintable(QString("pack %1-bit").arg(bits)));
            mk::unpack_codes(bits, bytes.data(), back.data(), n);
            QVERIFY2(back == q, qPrintable(QString("unpack %1-bit").arg(bits)));
        }
    }

    void e4m3AndE8m0() {
        for (unsigned c = 0; c < 256; ++c) {
            const unsigned e = (c >> 3) & 15u, m = c & 7u;
            double mag = e == 0 ? m / 8.0 * std::ldexp(1.0, -6) : (1 + m / 8.0) * std::ldexp(1.0, int(e) - 7);
            const float want = static_cast<float>((c & 128u) ? -mag : mag);  // 0x7F/0xFF: 1.875·2^8 = 480
            QCOMPARE(mk::e4m3_value(static_cast<std::uint8_t>(c)), want);
        }
        QCOMPARE(mk::e4m3_value(0x7F), 480.0f);
        QCOMPARE(mk::e8m0_scale(127), 1.0f);
        QCOMPARE(mk::e8m0_scale(0), std::ldexp(1.0f, -127));
        QVERIFY(std::isinf(mk::e8m0_scale(255)));
    }
};

QTEST_GUILESS_MAIN(TestMlxKernels)
#include "test_mlx_kernels.moc"
