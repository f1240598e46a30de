// SPDX-License-Identifier: MIT OR Apache-2.0
// FP4 safetensors kernels (core/src/kernels/fp4/fp4_kernels.hpp): every Highway
// target compiled in (and supported here) gives exactly the bits of the
// scalar composition e2m1_scale + round_through, on random codes and scales
// (incl. −0, ±inf, NaN, subnormal and E4M3/E8M0-decoded scales), both
// zero conventions, group sizes 8 and 16 bytes, odd group counts (scalar
// tail), unaligned pointers and no/BF16/F16 rounding; round_through_simd
// against round_through on random bit patterns.
#include "kernels/fp4/fp4_kernels.hpp"

#include "anamnesis/kernels.hpp"

#include "simd_check.hpp"

#include <QtTest/QtTest>

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace f4 = amn::kernels::fp4;
using amn::DType;
using amn::test::first_diff;

namespace {

float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Scales as the schemes produce them: E4M3 and E8M0 codes (all of them,
// including ±0 and NaN), plus hand-picked specials and random f32 bits.
std::vector<float> random_scales(std::mt19937& rng, std::size_t n) {
    std::vector<float> s(n);
    for (auto& v : s) {
        const std::uint8_t c = static_cast<std::uint8_t>(rng());
        switch (rng() % 6) {
            case 0: amn::kernels::fp8_to_f32(DType::F8_E4M3, &c, &v, 1); break;
            case 1: v = f4::e8m0_value(c); break;
            case 2: {
                const float sp[] = {-0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                                    std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                    from_bits(0x7F800001u), from_bits(0x00000001u), 65504.0f, 65520.0f / 6.0f, 1e-6f, 3e38f};
                v = sp[rng() % std::size(sp)];
                break;
            }
            case 3: v = from_bits(static_cast<std::uint32_t>(rng())); break;
            default: {  // E4M3 / global divisor, a typical compressed-tensors scale
                float s8;
                amn::kernels::fp8_to_f32(DType::F8_E4M3, &c, &s8, 1);
                v = s8 / (448.0f * 6.0f / static_cast<float>(1 + rng() % 1000));
            }
        }
    }
    return s;
}

}  // namespace

class TestFp4Kernels : public QObject {
    Q_OBJECT
private slots:
    void groupsEveryTarget();
    void roundEveryTarget();
};

void TestFp4Kernels::groupsEveryTarget() {
    const std::string failure = amn::test::for_each_target(f4::fp4_target_name, [](const std::string& name) -> std::string {
        std::mt19937 rng(12);
        for (const std::size_t gb : {std::size_t{8}, std::size_t{16}})
            for (const DType round : {DType::F32, DType::BF16, DType::F16})
                for (const bool nz : {true, false})
                    for (std::size_t groups : {0, 1, 2, 3, 5, 7, 8, 33, 257}) {
                        const std::size_t off = rng() % 4;
                        std::vector<std::uint8_t> packed(gb * groups + off);
                        for (auto& b : packed) b = static_cast<std::uint8_t>(rng());
                        const auto sc = random_scales(rng, groups);
                        std::vector<float> ref(2 * gb * groups), got(2 * gb * groups + 1);
                        for (std::size_t g = 0; g < groups; ++g)
                            f4::e2m1_scale(packed.data() + off + g * gb, nz, sc[g], ref.data() + 2 * gb * g, gb);
                        f4::round_through(round, ref.data(), ref.size());
                        f4::e2m1_groups(packed.data() + off, sc.data(), gb, nz, round, got.data() + 1, groups);
                        got.erase(got.begin());
                        const long d = first_diff(ref, got);
                        if (d >= 0)
                            return name + ": e2m1_groups group_bytes " + std::to_string(gb) + " groups " + std::to_string(groups) +
                                   " round " + std::to_string(int(round)) + " nz " + std::to_string(nz) + " differs at " +
                                   std::to_string(d);
                    }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

void TestFp4Kernels::roundEveryTarget() {
    const std::string failure = amn::test::for_each_target(f4::fp4_target_name, [](const std::string& name) -> std::string {
        std::mt19937 rng(7);
        for (const DType dt : {DType::BF16, DType::F16, DType::F32})
            for (const std::size_t n : {0, 1, 5, 16, 17, 31, 100000}) {
                std::vector<float> ref(n + 1);
                for (std::size_t i = 0; i < ref.size(); ++i) {
                    const std::uint32_t u = static_cast<std::uint32_t>(rng());
                    // Mostly bits near the F16 range so subnormal/overflow/tie edges are hit.
                    ref[i] = (i % 3) ? from_bits(u) : from_bits((u & 0x80FFFFFFu) | ((0x60u + (u >> 24) % 0x30u) << 23));
                    if (i % 7 == 0) ref[i] = from_bits((static_cast<std::uint32_t>(rng()) & 0xFFFFE000u) | 0x1000u);  // ties
                }
                std::vector<float> got = ref;
                f4::round_through(dt, ref.data() + 1, n);
                f4::round_through_simd(dt, got.data() + 1, n);
                const long d = first_diff(ref, got);
                if (d >= 0) {
                    std::uint32_t a, b;
                    std::memcpy(&a, &ref[std::size_t(d)], 4);
                    std::memcpy(&b, &got[std::size_t(d)], 4);
                    return name + ": round_through_simd dtype " + std::to_string(int(dt)) + " n " + std::to_string(n) +
                           " differs at " + std::to_string(d) + " scalar " + std::to_string(a) + " simd " + std::to_string(b);
                }
            }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestFp4Kernels)
#include "test_fp4_kernels.moc"
