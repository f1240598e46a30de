// SPDX-License-Identifier: MIT OR Apache-2.0
// compressed-tensors INT straight from BF16 bits (st_kernels.hpp
// `ct_int_rows_bf16`, the `amn forget --to w4a16|w8a16[-asym]` path without a
// loss report): on every Highway target this CPU runs, the SIMD kernel and the
// scalar reference give the bytes of the whole-tensor quantizer
// st::quantize_ct_int (judged against the shared fixtures by test_st_quantize)
// on the decoded values — packed words, scales, zero points — for 4 and 8
// bits, symmetric and asymmetric, groups of 128 and 32, channel, and group
// sizes that are not a multiple of 32, over rows of several lengths (16-group
// batches full and partial, a last 32 values after the 64-value steps). Data:
// random normal weights, heavy outliers, every BF16 value up to a group's
// maximum (all the ties of the BF16 rounding after the division and of the
// round half to even), zeros, equal groups, −0, subnormals and the largest
// finite values (an asymmetric range that overflows to inf). A NaN or ±inf at
// any position is refused.
#include "anamnesis/kernels.hpp"
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include "simd_check.hpp"
#include "test_support.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <random>
#include <string>

using namespace amn;
namespace k = amn::kernels::st;

using amn::test::first_diff;

namespace {

std::uint16_t bf16_bits(float x) { return std::uint16_t(st::detail::bits_of(x) >> 16); }
float bf16_value(std::uint16_t b) { return st::detail::float_of(std::uint32_t(b) << 16); }

struct Dataset {
    std::string name;
    std::vector<float> x;  ///< kLen BF16 values (the first ⌊kLen / C⌋ rows of C are used)
};

constexpr std::size_t kC[] = {4096, 2176, 1024, 160, 96, 240};
constexpr std::size_t kLen = 4096 * 3;

// The BF16 values of magnitude ≤ a (both signs, by pattern from a down: the top 48
// binades, every value whose x / s is not far below 1/2), with ±a at the start of every
// 32 values: each group of 32, 128 or a row has the maximum a, so x / s meets every
// BF16 x of the group's range.
std::vector<float> every_bf16_up_to(float a) {
    a = st::detail::round_bf16(a);
    std::vector<float> all;
    for (std::uint32_t b = bf16_bits(a) + 1u; b-- > 0;) {
        const float v = bf16_value(std::uint16_t(b));
        all.push_back(v);
        all.push_back(-v);
    }
    std::vector<float> x(kLen);
    for (std::size_t i = 0, j = 0; i < kLen; ++i)
        x[i] = i % 32 == 0 ? (i % 64 ? -a : a) : all[j++ % all.size()];
    return x;
}

std::vector<Dataset> datasets() {
    std::vector<Dataset> out;
    std::mt19937 rng(2024);
    auto rt = [](std::vector<float> v) {
        for (auto& x : v) x = st::detail::round_bf16(x);
        return v;
    };
    for (const float sigma : {0.02f, 1.0f, 300.0f}) {
        std::normal_distribution<float> nd(0.0f, sigma);
        std::vector<float> v(kLen);
        for (auto& x : v) x = nd(rng);
        out.push_back({"normal sigma " + std::to_string(sigma), rt(v)});
    }
    {   // outliers between small values; a positive-only and a negative-only stretch (asymmetric ranges)
        std::normal_distribution<float> nd(0.0f, 1.0f);
        std::vector<float> v(kLen);
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = i % 97 == 5 ? nd(rng) * 1e4f : nd(rng) * 1e-3f;
        for (std::size_t i = 1024; i < 2048; ++i) v[i] = std::fabs(v[i]) + 0.5f;
        for (std::size_t i = 2048; i < 3072; ++i) v[i] = -std::fabs(v[i]) - 2.0f;
        out.push_back({"outliers", rt(v)});
    }
    // Group maxima giving scales 1 (7.5: every half-integer a tie), 3, 1/7.5, and others.
    for (const float a : {7.5f, 22.5f, 1.0f, 0.0234375f, 127.5f, 382.5f, 1e-3f})
        out.push_back({"every BF16 up to " + std::to_string(a), every_bf16_up_to(a)});
    {
        std::vector<float> v(kLen);
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::size_t g = (i / 32) % 8;
            v[i] = g == 0 ? 0.0f : g == 1 ? 0.75f : g == 2 ? -3.0f : g == 3 ? -0.0f : g == 4 ? 1e-30f
                 : g == 5 ? (i % 2 ? -0.0f : 0.0f) : g == 6 ? -1e-38f : 5.0f;
        }
        out.push_back({"zeros, equal groups, -0", rt(v)});
    }
    {   // subnormals (BF16 subnormals: multiples of 2^-133) and the largest finite values
        std::vector<float> v(kLen);
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::size_t g = (i / 32) % 4;
            const float sub = float(int(i % 71) - 35) * 9.183549615799121e-41f;
            v[i] = g == 0 ? sub : g == 1 ? (i % 2 ? 3.3895313892515355e38f : -3.3895313892515355e38f)
                 : g == 2 ? (i % 3 ? sub : 3.3895313892515355e38f) : float(int(i % 7) - 3) * 1e37f;
        }
        out.push_back({"subnormals and largest", rt(v)});
    }
    return out;
}

/// One configuration: "" when the scalar reference and the SIMD kernel both give quantize_ct_int's bytes.
std::string compare(const std::vector<float>& all, std::size_t C, std::size_t gs, unsigned bits, bool sym) {
    const std::size_t R = all.size() / C, G = C / gs, words = (C * bits + 31) / 32;
    const std::vector<float> x(all.begin(), all.begin() + std::ptrdiff_t(R * C));
    const auto want = st::quantize_ct_int(x, {R, C}, DType::BF16, bits, sym, gs == C ? 0 : unsigned(gs));
    std::vector<std::uint16_t> in(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) in[i] = bf16_bits(x[i]);
    const std::string what = " (C " + std::to_string(C) + ", group " + (gs == C ? "channel" : std::to_string(gs)) +
                             ", " + std::to_string(bits) + " bits, " + (sym ? "sym" : "asym") + ")";
    for (const auto* K : {&k::scalar_kernels(), &k::st_kernels()}) {
        std::vector<std::int32_t> packed(R * words, 0x5A5A5A5A);
        std::vector<float> scale(R * G, -1.0f);
        std::vector<std::int8_t> zp(R * G, 99);
        if (!K->ct_int_rows_bf16(in.data(), R, C, gs, bits, sym, scale.data(), zp.data(), packed.data()))
            return std::string(K->target) + ": finite input refused" + what;
        if (long d = first_diff(want.packed, packed); d >= 0)
            return std::string(K->target) + ": packed word " + std::to_string(d) + " differs" + what;
        if (long d = first_diff(want.scale, scale); d >= 0)
            return std::string(K->target) + ": scale " + std::to_string(d) + " differs" + what;
        const std::vector<std::int8_t> zwant = sym ? std::vector<std::int8_t>(R * G, 0) : want.zero_point;
        if (long d = first_diff(zwant, zp); d >= 0)
            return std::string(K->target) + ": zero point " + std::to_string(d) + " differs" + what;
        // zp nullable: the same words and scales without it.
        std::vector<std::int32_t> p2(R * words);
        std::vector<float> s2(R * G);
        if (!K->ct_int_rows_bf16(in.data(), R, C, gs, bits, sym, s2.data(), nullptr, p2.data()) ||
            first_diff(packed, p2) >= 0 || first_diff(scale, s2) >= 0)
            return std::string(K->target) + ": without zero points" + what;
    }
    return {};
}

}  // namespace

class TestStKernelsCtInt : public QObject {
    Q_OBJECT
private slots:
    void simd_and_scalar_equal_whole_tensor_quantizer();
    void refuses_nonfinite_at_every_position();
};

void TestStKernelsCtInt::simd_and_scalar_equal_whole_tensor_quantizer() {
    const auto sets = datasets();
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        for (const auto& [name, x] : sets)
            for (const std::size_t C : kC)
                for (const std::size_t gs : {std::size_t(128), std::size_t(32), C, std::size_t(48), std::size_t(80)}) {
                    if (C % gs != 0) continue;
                    for (const unsigned bits : {4u, 8u})
                        for (const bool sym : {true, false})
                            if (auto e = compare(x, C, gs, bits, sym); !e.empty()) return target + ", " + name + ": " + e;
                }
        return {};
    }, 2);
    QVERIFY2(failure.empty(), failure.c_str());
}

// A NaN (quiet, signalling, negative) or ±inf at any position of 2 rows of 640: refused
// by the scalar reference and the SIMD kernel (groups of 32: 20 per row, a full and a
// partial batch of 16; channel: 64-value steps and a last 32; groups of 40, not a
// multiple of 32), while the largest finite patterns ±0x7F7F there are not.
void TestStKernelsCtInt::refuses_nonfinite_at_every_position() {
    // Under the sanitizers every third position (3 is prime to every group,
    // batch and row length here, so every offset within them is still hit);
    // the g++ run takes all.
    constexpr std::size_t kPositionStride = amn::test::kSanitized ? 3 : 1;
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        std::mt19937 rng(5);
        std::normal_distribution<float> nd(0.0f, 0.5f);
        constexpr std::size_t R = 2, C = 640;
        std::vector<std::uint16_t> in(R * C);
        for (auto& b : in) b = bf16_bits(st::detail::round_bf16(nd(rng)));
        std::vector<std::int32_t> packed(R * C);
        std::vector<float> scale(R * C);
        std::vector<std::int8_t> zp(R * C);
        for (const auto* K : {&k::scalar_kernels(), &k::st_kernels()})
            for (const std::size_t gs : {std::size_t(32), C, std::size_t(40)})
                for (const unsigned bits : {4u, 8u})
                    for (const bool sym : {true, false})
                        for (std::size_t p = 0; p < R * C; p += kPositionStride) {
                            const std::uint16_t keep = in[p];
                            for (const std::uint16_t big : {std::uint16_t(0x7F7F), std::uint16_t(0xFF7F)}) {
                                in[p] = big;
                                if (!K->ct_int_rows_bf16(in.data(), R, C, gs, bits, sym, scale.data(), zp.data(), packed.data()))
                                    return target + " " + K->target + ": largest finite at " + std::to_string(p) + " refused";
                            }
                            for (const std::uint16_t bad : {std::uint16_t(0x7FC0), std::uint16_t(0xFFC0), std::uint16_t(0x7F81),
                                                            std::uint16_t(0x7F80), std::uint16_t(0xFF80)}) {
                                in[p] = bad;
                                if (K->ct_int_rows_bf16(in.data(), R, C, gs, bits, sym, scale.data(), zp.data(), packed.data()))
                                    return target + " " + K->target + ": non-finite " + std::to_string(bad) + " at " +
                                           std::to_string(p) + " not refused (group " + std::to_string(gs) + ")";
                            }
                            in[p] = keep;
                        }
        return {};
    }, 2);
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestStKernelsCtInt)
#include "test_st_kernels_ctint.moc"
