// SPDX-License-Identifier: MIT OR Apache-2.0
// Safetensors-family kernels straight from BF16 bits and bitsandbytes'
// blockwise 8-bit codes (core/src/kernels/st/st_kernels.hpp), part 2 of
// test_st_kernels (whose data sets also compare the *_bf16 kernels with the
// f32 reference): non-finite input refused at every position, the vector
// paths' fallbacks with one odd lane at every position, and code8_blocks —
// on every Highway target this CPU runs, SIMD = scalar reference.
#include "anamnesis/kernels.hpp"
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include "simd_check.hpp"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

using namespace amn;
namespace k = amn::kernels::st;

using amn::test::first_diff;

class TestStKernelsBf16 : public QObject {
    Q_OBJECT
private slots:
    void bnb4_from_bf16_refuses_nonfinite();
    void from_bf16_one_odd_lane();
    void code8_blocks_simd_equals_scalar();
    void code8_blocks_dynamic_map();
};

// From BF16 bits: a NaN or ±inf at any position (full blocks, the partial
// last block) makes bnb4_run_bf16, bf16_absmax_blocks and int8_row_bf16
// return false, on every target, for NF4 (cell table) and FP4 (search).
void TestStKernelsBf16::bnb4_from_bf16_refuses_nonfinite() {
    const auto nf4 = k::make_codebook4(k::bnb4_quant_map(Bnb4Type::Nf4).data());
    const auto fp4 = k::make_codebook4(k::bnb4_quant_map(Bnb4Type::Fp4).data());
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        std::mt19937 rng(91);
        std::normal_distribution<float> nd(0.0f, 0.02f);
        const std::size_t n = 64 * 20 + 17;
        std::vector<std::uint16_t> in(n);
        for (auto& b : in) b = std::uint16_t(st::detail::bits_of(st::detail::round_bf16(nd(rng))) >> 16);
        std::vector<std::uint8_t> packed((n + 1) / 2);
        std::vector<float> am(n / 64 + 1);
        for (const auto* K : {&k::scalar_kernels(), &k::st_kernels()})
            for (const auto* cb : {&nf4, &fp4}) {
                if (!k::bnb4_run_bf16(*K, in.data(), n, 64, *cb, packed.data(), am.data()))
                    return target + " " + K->target + ": finite input refused";
                for (std::size_t p = 0; p < n; ++p)
                    for (const std::uint16_t bad : {std::uint16_t(0x7FC0), std::uint16_t(0xFF80), std::uint16_t(0x7F80)}) {
                        const std::uint16_t keep = in[p];
                        in[p] = bad;
                        const bool a = k::bnb4_run_bf16(*K, in.data(), n, 64, *cb, packed.data(), am.data());
                        const bool b = K->bf16_absmax_blocks(in.data(), n, 64, am.data());
                        std::vector<std::int8_t> q8(n);
                        float scb;
                        const bool c = K->int8_row_bf16(in.data(), n, q8.data(), &scb);
                        in[p] = keep;
                        if (a || b || c)
                            return target + " " + K->target + ": non-finite at " + std::to_string(p) + " not refused";
                    }
            }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

// From BF16 bits, the vector paths that leave a whole vector to the general
// steps when one lane needs them (an E4M3 subnormal, a zero, −0, an F16
// subnormal for LLM.int8): one such value at each position of 96 ordinary
// ones, for FP8 compressed-tensors and DeepGEMM and LLM.int8, on every target.
void TestStKernelsBf16::from_bf16_one_odd_lane() {
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        const auto& S = k::scalar_kernels();
        const auto& V = k::st_kernels();
        std::mt19937 rng(5);
        std::normal_distribution<float> nd(0.0f, 0.02f);
        const std::size_t n = 96;
        std::vector<float> base(n);
        for (auto& v : base) v = st::detail::round_bf16(nd(rng));
        for (const float odd : {1e-9f, -3e-10f, 0.0f, -0.0f, 5e-6f, -2.5e-7f})
            for (std::size_t p = 0; p < n; ++p) {
                std::vector<float> x(base);
                x[p] = st::detail::round_bf16(odd);
                std::vector<std::uint16_t> bits(n);
                for (std::size_t i = 0; i < n; ++i) bits[i] = std::uint16_t(st::detail::bits_of(x[i]) >> 16);
                const float am = S.absmax(x.data(), n);
                const std::string at = target + ": value " + std::to_string(odd) + " at " + std::to_string(p);
                for (const bool ds : {false, true}) {
                    const float sc = ds ? st::detail::deepseek_sf(am, false) : st::detail::fp8_ct_scale(am, DType::BF16);
                    std::vector<std::uint8_t> q0(n), q1(n);
                    S.fp8_encode(x.data(), n, sc, ds, DType::BF16, q0.data(), nullptr);
                    V.fp8_encode_bf16(bits.data(), n, &sc, n, ds, q1.data());
                    if (long d = first_diff(q0, q1); d >= 0)
                        return at + (ds ? ": deepseek" : ": compressed-tensors") + " code differs at " + std::to_string(d);
                }
                std::vector<std::int8_t> i0(n), i1(n);
                float s0, s1;
                S.int8_row(x.data(), n, i0.data(), &s0, nullptr);
                if (!V.int8_row_bf16(bits.data(), n, i1.data(), &s1) || first_diff(i0, i1) >= 0 || s0 != s1)
                    return at + ": int8 codes differ";
            }
        // LLM.int8 of a row of F16 subnormals (max ≈ 2e-6: the F16 rounding moves codes) with one
        // ordinary value at each position.
        std::normal_distribution<float> tiny(0.0f, 5e-7f);
        std::uniform_real_distribution<float> band(1.5e-6f, 7e-6f);  // F16 subnormals that BF16 holds finer
        std::vector<float> row(n), row2(n);
        for (auto& v : row) v = st::detail::round_bf16(tiny(rng));
        for (auto& v : row2) v = st::detail::round_bf16(rng() % 2 ? band(rng) : -band(rng));
        {
            std::vector<std::uint16_t> bits(n);
            for (std::size_t i = 0; i < n; ++i) bits[i] = std::uint16_t(st::detail::bits_of(row2[i]) >> 16);
            std::vector<std::int8_t> i0(n), i1(n);
            float s0, s1;
            S.int8_row(row2.data(), n, i0.data(), &s0, nullptr);
            if (!V.int8_row_bf16(bits.data(), n, i1.data(), &s1) || first_diff(i0, i1) >= 0 || s0 != s1)
                return target + ": int8 of F16 subnormals in [1.5e-6, 7e-6] differs";
        }
        for (std::size_t p = 0; p < n; ++p) {
            std::vector<float> x(row);
            x[p] = st::detail::round_bf16(1.5e-6f);
            std::vector<std::uint16_t> bits(n);
            for (std::size_t i = 0; i < n; ++i) bits[i] = std::uint16_t(st::detail::bits_of(x[i]) >> 16);
            std::vector<std::int8_t> i0(n), i1(n);
            float s0, s1;
            S.int8_row(x.data(), n, i0.data(), &s0, nullptr);
            if (!V.int8_row_bf16(bits.data(), n, i1.data(), &s1) || first_diff(i0, i1) >= 0 || s0 != s1)
                return target + ": int8 of F16 subnormals differs (ordinary value at " + std::to_string(p) + ")";
        }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

namespace {
// code8_blocks of x in blocks of 256 and 64: SIMD = scalar on every target (codes
// and absmax), or what differs.
std::string code8_failure(const std::vector<float>& x, const std::vector<float>& mid, const std::vector<std::uint8_t>& order) {
    return amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        for (const std::size_t bs : {std::size_t(256), std::size_t(64)}) {
            const std::size_t nb = x.size() / bs;
            std::vector<std::uint8_t> q0(nb * bs), q1(nb * bs);
            std::vector<float> a0(nb), a1(nb);
            k::scalar_kernels().code8_blocks(x.data(), nb, bs, mid.data(), order.data(), q0.data(), a0.data());
            k::st_kernels().code8_blocks(x.data(), nb, bs, mid.data(), order.data(), q1.data(), a1.data());
            if (long d = first_diff(q0, q1); d >= 0)
                return target + ": codes differ at " + std::to_string(d) + " (x = " + std::to_string(x[std::size_t(d)]) +
                       "), block " + std::to_string(bs);
            if (long d = first_diff(a0, a1); d >= 0) return target + ": absmax differs at " + std::to_string(d);
        }
        return {};
    });
}
}  // namespace

// bitsandbytes blockwise 8-bit (the double quantization of the 4-bit absmax):
// a 256-entry table in shuffled order, its midpoints, blocks of 256 and 64
// holding random values, values exactly at and next to every midpoint, ±1,
// zeros; codes and absmax of the SIMD kernel = the scalar reference, every target.
void TestStKernelsBf16::code8_blocks_simd_equals_scalar() {
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> table(256);
    for (auto& v : table) v = u(rng);
    table[0] = -1.0f, table[1] = 1.0f, table[2] = 0.0f, table[3] = table[4];  // ends, zero, a duplicate
    std::vector<std::uint8_t> sorted_idx(256);
    std::iota(sorted_idx.begin(), sorted_idx.end(), std::uint8_t{0});
    std::stable_sort(sorted_idx.begin(), sorted_idx.end(), [&](std::uint8_t a, std::uint8_t b) { return table[a] < table[b]; });
    std::vector<float> mid(256, HUGE_VALF);
    for (int i = 0; i < 255; ++i) mid[i] = (table[sorted_idx[i]] + table[sorted_idx[i + 1]]) / 2.0f;
    std::vector<float> x;
    for (int i = 0; i < 255; ++i) x.push_back(mid[i]), x.push_back(std::nextafter(mid[i], 2.0f)), x.push_back(std::nextafter(mid[i], -2.0f));
    x.push_back(1.0f), x.push_back(-1.0f), x.push_back(0.0f), x.push_back(-0.0f);
    while (x.size() % 256) x.push_back(u(rng) * 0.5f);
    for (int i = 0; i < 1024; ++i) x.push_back(u(rng) * 3.0f);
    QVERIFY2(code8_failure(x, mid, sorted_idx).empty(), code8_failure(x, mid, sorted_idx).c_str());
}

// The same with bitsandbytes' dynamic map (the table double quantization uses, which
// the AVX-512 kernel looks up by cells of sign, exponent and 6 mantissa bits): values
// at, next to and between every midpoint, every power of two from 2^-40 to 1 and its
// neighbours (the cell edges, the tiny cell), both signs, zeros, random values.
void TestStKernelsBf16::code8_blocks_dynamic_map() {
    amn::st::Bnb4Result res;
    res.absmax.assign(256, 1.0f);
    k::bnb4_double_quant(res);
    const std::vector<float>& table = res.nested_quant_map;
    QCOMPARE(table.size(), std::size_t(256));
    std::vector<std::uint8_t> sorted_idx(256);
    std::iota(sorted_idx.begin(), sorted_idx.end(), std::uint8_t{0});
    std::stable_sort(sorted_idx.begin(), sorted_idx.end(), [&](std::uint8_t a, std::uint8_t b) { return table[a] < table[b]; });
    std::vector<float> mid(256, HUGE_VALF);
    for (int i = 0; i < 255; ++i) mid[i] = (table[sorted_idx[i]] + table[sorted_idx[i + 1]]) / 2.0f;
    std::vector<float> vals;
    for (int i = 0; i < 255; ++i)
        for (const float v : {mid[i], std::nextafter(mid[i], 2.0f), std::nextafter(mid[i], -2.0f), table[sorted_idx[i]]})
            vals.push_back(v);
    for (int e = -40; e <= 0; ++e)
        for (const float sign : {1.0f, -1.0f}) {
            float v = std::ldexp(1.0f, e);
            for (int c = 0; c < 3; ++c, v *= 1.0f + 1.0f / 64.0f)  // the edges of this and the next mantissa cells
                vals.push_back(sign * v), vals.push_back(sign * std::nextafter(v, 0.0f)),
                    vals.push_back(sign * std::nextafter(v, 2.0f));
        }
    vals.push_back(0.0f), vals.push_back(-0.0f), vals.push_back(-1.0f);
    // Every block of 64 starts with 1: absmax 1, so v = x exactly (the values above land on the edges).
    std::vector<float> x;
    for (std::size_t i = 0; i < vals.size(); ++i) {
        if (x.size() % 64 == 0) x.push_back(1.0f);
        x.push_back(vals[i]);
    }
    std::mt19937 rng(81);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    while (x.size() % 256) x.push_back(u(rng) * u(rng) * u(rng));
    // Random values of mixed scales (blocks whose absmax is not 1, tiny values).
    for (int i = 0; i < 4096; ++i) x.push_back(std::ldexp(u(rng), -int(i % 30)));
    QVERIFY2(code8_failure(x, mid, sorted_idx).empty(), code8_failure(x, mid, sorted_idx).c_str());
    // The same values stored in reverse (codes 255 − k: the table is not sorted, the
    // kernel keeps a code per cell instead of k0 + [m < v]).
    std::vector<std::uint8_t> reversed(sorted_idx.rbegin(), sorted_idx.rend());
    for (auto& r : reversed) r = std::uint8_t(255 - r);
    std::reverse(reversed.begin(), reversed.end());
    QVERIFY2(code8_failure(x, mid, reversed).empty(), code8_failure(x, mid, reversed).c_str());
    // A table with two midpoints in one cell (one entry moved next to its neighbour):
    // the kernel must notice and search instead.
    std::vector<float> mid2 = mid;
    mid2[200] = std::nextafter(mid2[201], -2.0f);
    mid2[199] = std::min(mid2[199], std::nextafter(mid2[200], -2.0f));
    for (int i = 199; i <= 201; ++i) x.push_back(mid2[i]), x.push_back(std::nextafter(mid2[i], 2.0f));
    while (x.size() % 256) x.push_back(mid2[200]);
    QVERIFY2(code8_failure(x, mid2, sorted_idx).empty(), code8_failure(x, mid2, sorted_idx).c_str());
}

QTEST_APPLESS_MAIN(TestStKernelsBf16)
#include "test_st_kernels_bf16.moc"
