// SPDX-License-Identifier: MIT OR Apache-2.0
// Safetensors-family row-chunk kernels (core/src/kernels/st/st_kernels.hpp):
// on every Highway target this CPU runs, the SIMD kernels give the scalar
// reference's bytes (codes, absmax, SCB, dequantized values) on random and
// adversarial data — ties exactly at the bitsandbytes code midpoints, at
// E4M3 and integer rounding midpoints, zeros, all-equal blocks, subnormals,
// the largest finite values of each dtype, F16 overflow/subnormal edges,
// partial last blocks and lengths that are not a multiple of any vector
// width — for F32, BF16 and F16 weights. The loss sums may differ only in
// summation order (relative 1e-12; max |error| and the non-finite count exact).
// The scalar reference itself is judged by test_st_quantize (shared fixtures).
#include "anamnesis/kernels.hpp"
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include "simd_check.hpp"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

using namespace amn;
namespace k = amn::kernels::st;

using amn::test::first_diff;

namespace {

const DType kDtypes[] = {DType::F32, DType::BF16, DType::F16};

float largest(DType t) {
    switch (t) {
    case DType::BF16: return 3.3895313892515355e38f;
    case DType::F16: return 65504.0f;
    default: return 3.4028234663852886e38f;
    }
}

/// Named data sets: every value finite and representable in `t`.
std::vector<std::pair<std::string, std::vector<float>>> datasets(DType t, const k::Codebook4& nf4,
                                                                const k::Codebook4& fp4) {
    std::vector<std::pair<std::string, std::vector<float>>> out;
    std::mt19937 rng(1234 + int(t));
    auto rt = [&](std::vector<float> v) {
        for (auto& x : v) x = std::isfinite(st::detail::round_to(t, x)) ? st::detail::round_to(t, x) : 0.0f;
        return v;
    };
    for (const float sigma : {0.02f, 1.0f, 300.0f}) {
        std::normal_distribution<float> nd(0.0f, sigma);
        std::vector<float> v(1031);  // not a multiple of any width or block
        for (auto& x : v) x = nd(rng);
        out.emplace_back("normal sigma " + std::to_string(sigma), rt(v));
    }
    {   // heavy tails: a few huge outliers between small values
        std::normal_distribution<float> nd(0.0f, 1.0f);
        std::vector<float> v(777);
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = i % 97 == 5 ? nd(rng) * 1e4f : nd(rng) * 1e-3f;
        out.emplace_back("outliers", rt(v));
    }
    // bitsandbytes midpoints: a block of 64 whose absmax is 1, so x·(1/1) lands on each midpoint.
    for (const auto* cb : {&nf4, &fp4}) {
        std::vector<float> v(256, 0.0f);
        v[0] = 1.0f;
        for (int i = 0; i < 15; ++i) v[1 + i] = cb->mid[i], v[20 + i] = -cb->mid[i];
        for (int i = 0; i < 15; ++i) v[64 + i] = std::nextafter(cb->mid[i], 2.0f), v[80 + i] = std::nextafter(cb->mid[i], -2.0f);
        v[64 + 40] = -1.0f;
        // Blocks 2–3 (absmax 1): the cell edges of the SIMD shortcut (Codebook4::cell_k),
        // (v + 1)·16 = c, and their neighbours.
        v[128] = v[192] = 1.0f;  // slots 128 + 4c are free
        for (int c = 1; c < 32; ++c) {
            const float e = float(c) / 16.0f - 1.0f;
            v[128 + 4 * c - 3] = e, v[128 + 4 * c - 2] = std::nextafter(e, 2.0f), v[128 + 4 * c - 1] = std::nextafter(e, -2.0f);
        }
        out.emplace_back(cb == &nf4 ? "nf4 midpoints" : "fp4 midpoints", t == DType::F32 ? v : rt(v));
    }
    out.emplace_back("zeros", std::vector<float>(200, 0.0f));
    {
        std::vector<float> v(256);
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = i < 64 ? 0.75f : i < 128 ? -3.0f : i < 192 ? -0.0f : 1e-30f;
        out.emplace_back("all-equal blocks", rt(v));
    }
    {   // subnormals of the dtype and of F16 / E4M3 after scaling
        std::vector<float> v;
        for (int i = 0; i < 70; ++i) v.push_back(float(i - 35) * (t == DType::F16 ? 5.9604644775390625e-08f : 1e-40f));
        for (int i = 0; i < 70; ++i) v.push_back(float(i - 35) * 2.9802322387695312e-08f);  // F16 subnormal ties
        out.emplace_back("subnormals", rt(v));
    }
    {   // the largest finite values, F16 overflow edge, E4M3 and integer rounding ties at scale 1
        std::vector<float> v = {largest(t), -largest(t), 65504.0f, 65512.0f, 65519.0f, 65520.0f, -65520.0f, 65536.0f,
                                1.0625f, 1.1875f, -1.0625f, 0.5f, 1.5f, 2.5f, -2.5f, 7.5f, -8.5f, 127.5f, -128.5f,
                                448.0f, 456.0f, 464.0f, 465.0f, -464.0f, 0.015625f, 0.0146484375f, 0.0009765625f,
                                0.0029296875f, 6.103515625e-05f, 6.0975551605224609e-05f};
        while (v.size() < 67) v.push_back(float(v.size()) * 0.25f);
        out.emplace_back("edges", rt(v));
    }
    return out;
}

std::string cmp_loss(const k::LossSums& a, const k::LossSums& b) {
    auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y)); };
    if (!close(a.sse, b.sse) || !close(a.sx2, b.sx2) || a.max_abs != b.max_abs || a.nonfinite != b.nonfinite ||
        a.count != b.count)
        return "loss sums differ";
    return {};
}

/// All kernels on one data set; "" when SIMD = scalar.
std::string compare(const std::vector<float>& x, DType t, const k::Codebook4& nf4, const k::Codebook4& fp4) {
    const auto& S = k::scalar_kernels();
    const auto& V = k::st_kernels();
    const std::size_t n = x.size();
    for (std::size_t len : {n, n - 1, std::size_t(1), std::size_t(3), std::size_t(17)}) {
        if (len > n || len == 0) continue;
        if (S.first_nonfinite(x.data(), len) != V.first_nonfinite(x.data(), len)) return "first_nonfinite";
        if (st::detail::bits_of(S.absmax(x.data(), len)) != st::detail::bits_of(V.absmax(x.data(), len))) return "absmax";
        for (const std::size_t bs : {std::size_t(64), std::size_t(128), std::size_t(5)}) {
            std::vector<float> m0((len + bs - 1) / bs), m1(m0.size());
            S.absmax_blocks(x.data(), len, bs, m0.data());
            V.absmax_blocks(x.data(), len, bs, m1.data());
            if (first_diff(m0, m1) >= 0) return "absmax_blocks";
        }
        float a0, a1, b0, b1;
        S.minmax(x.data(), len, &a0, &a1);
        V.minmax(x.data(), len, &b0, &b1);
        if (a0 != b0 || a1 != b1) return "minmax";
    }
    // bitsandbytes 4-bit: block sizes 64, 128 and 256 with a partial last block.
    for (const auto* cb : {&nf4, &fp4})
        for (const std::size_t bs : {64u, 128u, 256u})
            for (const bool dq : {false, true}) {
                const std::size_t blocks = (n + bs - 1) / bs;
                std::vector<float> am(blocks);
                for (std::size_t b = 0; b < blocks; ++b) am[b] = 0.001f * float(b + 1);
                std::vector<std::uint8_t> p0((n + 1) / 2), p1((n + 1) / 2);
                std::vector<float> m0(blocks), m1(blocks), y0(n), y1(n);
                k::bnb4_run(S, x.data(), n, bs, *cb, dq ? am.data() : nullptr, t, p0.data(), m0.data(), y0.data());
                k::bnb4_run(V, x.data(), n, bs, *cb, dq ? am.data() : nullptr, t, p1.data(), m1.data(), y1.data());
                const std::string what = " (bnb4 " + std::string(cb == &nf4 ? "nf4" : "fp4") + " block " + std::to_string(bs) + ")";
                if (long d = first_diff(p0, p1); d >= 0) return "packed codes differ at byte " + std::to_string(d) + what;
                if (long d = first_diff(m0, m1); d >= 0) return "absmax differs at " + std::to_string(d) + what;
                if (long d = first_diff(y0, y1); d >= 0) return "dequantized differs at " + std::to_string(d) + what;
            }
    // bitsandbytes 4-bit straight from BF16 bits (the forget path without loss): the bytes of
    // bnb4_run on the decoded values, by the scalar reference and by the SIMD kernels.
    if (t == DType::BF16) {
        std::vector<std::uint16_t> bits(n);
        for (std::size_t i = 0; i < n; ++i) bits[i] = std::uint16_t(st::detail::bits_of(x[i]) >> 16);
        for (const auto* cb : {&nf4, &fp4})
            for (const std::size_t bs : {64u, 128u, 256u, 4096u})
                for (const std::size_t len : {n, n / bs * bs, n - 1}) {
                    const std::size_t blocks = (len + bs - 1) / bs;
                    std::vector<std::uint8_t> p0((len + 1) / 2);
                    std::vector<float> m0(blocks);
                    k::bnb4_run(S, x.data(), len, bs, *cb, nullptr, DType::BF16, p0.data(), m0.data(), nullptr);
                    std::vector<float> a0(blocks);
                    S.absmax_blocks(x.data(), len, bs, a0.data());
                    const std::string what = " (bnb4 from BF16 " + std::string(cb == &nf4 ? "nf4" : "fp4") + " block " +
                                             std::to_string(bs) + ", n " + std::to_string(len) + ")";
                    for (const auto* K : {&S, &V}) {
                        std::vector<std::uint8_t> p1(p0.size());
                        std::vector<float> m1(blocks), a1(blocks);
                        if (!k::bnb4_run_bf16(*K, bits.data(), len, bs, *cb, p1.data(), m1.data()))
                            return std::string(K->target) + ": finite input refused" + what;
                        if (long d = first_diff(p0, p1); d >= 0)
                            return std::string(K->target) + ": packed codes differ at byte " + std::to_string(d) + what;
                        if (long d = first_diff(m0, m1); d >= 0)
                            return std::string(K->target) + ": absmax differs at " + std::to_string(d) + what;
                        if (!K->bf16_absmax_blocks(bits.data(), len, bs, a1.data()) || first_diff(a0, a1) >= 0)
                            return std::string(K->target) + ": bf16_absmax_blocks" + what;
                    }
                }
    }
    // FP8 and LLM.int8 straight from BF16 bits: the codes (and SCB) of the f32 reference.
    if (t == DType::BF16) {
        std::vector<std::uint16_t> bits(n);
        for (std::size_t i = 0; i < n; ++i) bits[i] = std::uint16_t(st::detail::bits_of(x[i]) >> 16);
        const float am = S.absmax(x.data(), n);
        for (const float s : {1.0f, st::detail::fp8_ct_scale(am, t), st::detail::dtype_eps(t), 0.25f})
            for (const bool ds : {false, true})
                for (const std::size_t len : {n, n - 1, std::size_t(128), std::size_t(15)}) {
                    if (len > n) continue;
                    const float sc = ds ? st::detail::deepseek_sf(am, s == 1.0f) : s;
                    std::vector<std::uint8_t> q0(len), q1(len);
                    S.fp8_encode(x.data(), len, sc, ds, t, q0.data(), nullptr);
                    for (const auto* K : {&S, &V}) {
                        std::fill(q1.begin(), q1.end(), 0xAA);
                        K->fp8_encode_bf16(bits.data(), len, &sc, len, ds, q1.data());
                        if (long d = first_diff(q0, q1); d >= 0)
                            return std::string(K->target) + ": fp8 codes from BF16 differ at " + std::to_string(d) +
                                   (ds ? " (deepseek)" : " (compressed-tensors)") + ", n " + std::to_string(len);
                    }
                    // Segments of 128 and of 40 values with their own scales (tiles).
                    for (const std::size_t seg : {std::size_t(128), std::size_t(40)}) {
                        std::vector<float> scales((len + seg - 1) / seg);
                        for (std::size_t g = 0; g < scales.size(); ++g)
                            scales[g] = ds ? st::detail::deepseek_sf(S.absmax(x.data() + g * seg, std::min(seg, len - g * seg)), s == 1.0f)
                                           : sc * float(1 + g % 3);
                        std::vector<std::uint8_t> r0(len);
                        for (std::size_t g = 0; g < scales.size(); ++g)
                            S.fp8_encode(x.data() + g * seg, std::min(seg, len - g * seg), scales[g], ds, t, r0.data() + g * seg, nullptr);
                        for (const auto* K : {&S, &V}) {
                            std::fill(q1.begin(), q1.end(), 0xAA);
                            K->fp8_encode_bf16(bits.data(), len, scales.data(), seg, ds, q1.data());
                            if (long d = first_diff(r0, q1); d >= 0)
                                return std::string(K->target) + ": fp8 codes from BF16 in segments of " + std::to_string(seg) +
                                       " differ at " + std::to_string(d) + ", n " + std::to_string(len);
                        }
                    }
                }
        for (const std::size_t len : {n, std::size_t(5), std::size_t(33), std::size_t(64)}) {
            const std::size_t l = std::min(len, n);
            std::vector<std::int8_t> q0(l), q1(l);
            float s0, s1;
            S.int8_row(x.data(), l, q0.data(), &s0, nullptr);
            for (const auto* K : {&S, &V}) {
                if (!K->int8_row_bf16(bits.data(), l, q1.data(), &s1))
                    return std::string(K->target) + ": int8 from BF16 refused finite input";
                if (st::detail::bits_of(s0) != st::detail::bits_of(s1)) return std::string(K->target) + ": SCB from BF16 differs";
                if (long d = first_diff(q0, q1); d >= 0)
                    return std::string(K->target) + ": int8 codes from BF16 differ at " + std::to_string(d);
            }
        }
    }
    // FP8: scales 1, the data's own, eps; DeepSeek with the DeepGEMM scale.
    const float amax = S.absmax(x.data(), n);
    for (const float s : {1.0f, st::detail::fp8_ct_scale(amax, t), st::detail::dtype_eps(t), 0.25f})
        for (const bool ds : {false, true}) {
            const float sc = ds ? st::detail::deepseek_sf(amax, s == 1.0f) : s;
            std::vector<std::uint8_t> q0(n), q1(n);
            std::vector<float> y0(n), y1(n);
            S.fp8_encode(x.data(), n, sc, ds, t, q0.data(), y0.data());
            V.fp8_encode(x.data(), n, sc, ds, t, q1.data(), y1.data());
            if (long d = first_diff(q0, q1); d >= 0) return "fp8 codes differ at " + std::to_string(d);
            if (long d = first_diff(y0, y1); d >= 0) return "fp8 dequantized differs at " + std::to_string(d);
        }
    // compressed-tensors INT4/INT8, symmetric and asymmetric, plus scale 1 (rounding ties).
    for (const unsigned bits : {4u, 8u})
        for (const bool sym : {true, false})
            for (const bool unit : {false, true}) {
                float mn, mx, s;
                std::int8_t z;
                S.minmax(x.data(), n, &mn, &mx);
                st::detail::ct_int_qparams(mn, mx, bits, sym, t, s, z);
                if (unit) s = 1.0f;
                const float qmin = -float(1u << (bits - 1)), qmax = float((1u << (bits - 1)) - 1);
                std::vector<std::int8_t> q0(n), q1(n);
                std::vector<float> y0(n), y1(n);
                S.int_encode(x.data(), n, s, float(z), qmin, qmax, t, q0.data(), y0.data());
                V.int_encode(x.data(), n, s, float(z), qmin, qmax, t, q1.data(), y1.data());
                if (long d = first_diff(q0, q1); d >= 0) return "int codes differ at " + std::to_string(d);
                if (long d = first_diff(y0, y1); d >= 0) return "int dequantized differs at " + std::to_string(d);
                for (const std::size_t len : {n, n - 1, std::size_t(7), std::size_t(130)}) {
                    if (len > n) continue;
                    std::vector<std::int32_t> w0((len * bits + 31) / 32), w1(w0.size());
                    S.pack_int(q0.data(), len, bits, w0.data());
                    V.pack_int(q0.data(), len, bits, w1.data());
                    if (long d = first_diff(w0, w1); d >= 0) return "packed words differ at " + std::to_string(d);
                }
            }
    // LLM.int8 rows (F16 cast first) of several lengths.
    for (std::size_t len : {n, std::size_t(5), std::size_t(33)}) {
        len = std::min(len, n);
        std::vector<std::int8_t> q0(len), q1(len);
        std::vector<float> y0(len), y1(len);
        float s0, s1;
        S.int8_row(x.data(), len, q0.data(), &s0, y0.data());
        V.int8_row(x.data(), len, q1.data(), &s1, y1.data());
        if (st::detail::bits_of(s0) != st::detail::bits_of(s1)) return "SCB differs";
        if (long d = first_diff(q0, q1); d >= 0) return "int8 codes differ at " + std::to_string(d);
        if (long d = first_diff(y0, y1); d >= 0) return "int8 dequantized differs at " + std::to_string(d);
        k::LossSums l0, l1;  // y may hold inf/NaN here (SCB inf rows)
        S.loss(x.data(), y0.data(), len, l0);
        V.loss(x.data(), y0.data(), len, l1);
        if (auto e = cmp_loss(l0, l1); !e.empty()) return e + " (int8 row)";
    }
    // Loss against a perturbed copy (with a NaN and an inf among the y).
    std::vector<float> y(x);
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i] * 0.99f + 1e-3f;
    if (n > 10) y[3] = NAN, y[7] = INFINITY;
    k::LossSums l0, l1;
    S.loss(x.data(), y.data(), n, l0);
    V.loss(x.data(), y.data(), n, l1);
    return cmp_loss(l0, l1);
}

}  // namespace

class TestStKernels : public QObject {
    Q_OBJECT
private slots:
    void simd_equals_scalar();
    void f16_rounding_edges();
    void first_nonfinite_every_position();
    void bf16_decode_checked_every_position();
    void bf16_absmax_bits_is_decoded_absmax();
};

void TestStKernels::simd_equals_scalar() {
    const auto nf4 = k::make_codebook4(k::bnb4_quant_map(Bnb4Type::Nf4).data());
    const auto fp4 = k::make_codebook4(k::bnb4_quant_map(Bnb4Type::Fp4).data());
    QCOMPARE(nf4.zero_code, 7);
    QCOMPARE(fp4.zero_code, 0);
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        for (const DType t : kDtypes)
            for (const auto& [name, x] : datasets(t, nf4, fp4))
                if (auto e = compare(x, t, nf4, fp4); !e.empty())
                    return target + ", " + dtype_name(t) + ", " + name + ": " + e;
        return {};
    }, 2);
    QVERIFY2(failure.empty(), failure.c_str());
}

// LLM.int8's F16 cast in SIMD against the scalar converter, over a sweep of
// f32 bit patterns around every F16 rounding edge (normal, subnormal, overflow).
void TestStKernels::f16_rounding_edges() {
    std::vector<float> x;
    for (const float base : {65504.0f, 65520.0f, 6.103515625e-05f, 5.9604644775390625e-08f, 2.98023223876953125e-08f,
                             1.0f, 0.333333343f})
        for (int d = -40; d <= 40; ++d) {
            std::uint32_t u = st::detail::bits_of(base) + std::uint32_t(d * 997);
            x.push_back(st::detail::float_of(u));
            x.push_back(-st::detail::float_of(u));
        }
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        for (std::size_t i = 0; i < x.size(); ++i) {
            // A row of one huge value and x[i]: the scale is fixed by the huge value (or inf).
            for (const float big : {60000.0f, 70000.0f}) {
                const float row[2] = {big, x[i]};
                std::int8_t q0[2], q1[2];
                float s0, s1, y0[2], y1[2];
                k::scalar_kernels().int8_row(row, 2, q0, &s0, y0);
                k::st_kernels().int8_row(row, 2, q1, &s1, y1);
                if (std::memcmp(q0, q1, 2) || st::detail::bits_of(s0) != st::detail::bits_of(s1))
                    return target + ": int8 of " + std::to_string(x[i]);
            }
            std::vector<float> one(16, x[i]);  // a full vector through the F16-weight int path
            std::vector<std::int8_t> q0(16), q1(16);
            std::vector<float> y0(16), y1(16);
            k::scalar_kernels().int_encode(one.data(), 16, 1.0f, 0.0f, -128.0f, 127.0f, DType::F16, q0.data(), y0.data());
            k::st_kernels().int_encode(one.data(), 16, 1.0f, 0.0f, -128.0f, 127.0f, DType::F16, q1.data(), y1.data());
            if (first_diff(q0, q1) >= 0 || first_diff(y0, y1) >= 0) return target + ": F16 int of " + std::to_string(x[i]);
            std::vector<std::uint8_t> c0(16), c1(16);
            k::scalar_kernels().fp8_encode(one.data(), 16, 1.0f / 1024.0f, false, DType::F16, c0.data(), y0.data());
            k::st_kernels().fp8_encode(one.data(), 16, 1.0f / 1024.0f, false, DType::F16, c1.data(), y1.data());
            if (first_diff(c0, c1) >= 0 || first_diff(y0, y1) >= 0) return target + ": F16 fp8 of " + std::to_string(x[i]);
        }
        return {};
    }, 2);
    QVERIFY2(failure.empty(), failure.c_str());
}

// One NaN, +inf or -inf at every position of a buffer of finite values
// (lengths across the 4-vector groups and the tails of every target): the
// index found is that position, and nothing is found before it.
void TestStKernels::first_nonfinite_every_position() {
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        const auto& V = k::st_kernels();
        for (const std::size_t n : {std::size_t(1), std::size_t(15), std::size_t(64), std::size_t(131), std::size_t(300)}) {
            std::vector<float> x(n);
            for (std::size_t i = 0; i < n; ++i) x[i] = (i % 2 ? -1.0f : 1.0f) * 3.0e38f / float(i + 1);
            if (V.first_nonfinite(x.data(), n) != n) return target + ": a finite buffer of " + std::to_string(n);
            for (std::size_t p = 0; p < n; ++p)
                for (const float bad : {NAN, HUGE_VALF, -HUGE_VALF}) {
                    const float keep = x[p];
                    x[p] = bad;
                    const std::size_t got = V.first_nonfinite(x.data(), n);
                    x[p] = keep;
                    if (got != p)
                        return target + ": n " + std::to_string(n) + ", bad at " + std::to_string(p) + ", found " +
                               std::to_string(got);
                }
        }
        return {};
    }, 2);
    QVERIFY2(failure.empty(), failure.c_str());
}

// BF16 decode with the finite check in the same pass: every value is the
// bits shifted by 16 (the shift written out here, not the kernel's), and one
// NaN (quiet and signalling patterns), +inf or −inf at every position is the
// index returned, with the whole output still written.
void TestStKernels::bf16_decode_checked_every_position() {
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        for (const auto* K : {&k::scalar_kernels(), &k::st_kernels()})
            for (const std::size_t n : {std::size_t(1), std::size_t(15), std::size_t(64), std::size_t(131), std::size_t(300)}) {
                std::vector<std::uint16_t> in(n);
                for (std::size_t i = 0; i < n; ++i) in[i] = std::uint16_t((i * 40503u + 7u) & 0xFFFFu);
                for (auto& b : in)
                    if ((b & 0x7F80u) == 0x7F80u) b = std::uint16_t(b ^ 0x0100u);  // finite: exponent not all ones
                std::vector<float> out(n);
                if (K->bf16_decode_checked(in.data(), n, out.data()) != n)
                    return target + " " + K->target + ": a finite buffer of " + std::to_string(n);
                for (std::size_t i = 0; i < n; ++i)
                    if (st::detail::bits_of(out[i]) != std::uint32_t(in[i]) * 65536u)
                        return target + " " + K->target + ": decoded value " + std::to_string(i);
                for (std::size_t p = 0; p < n; ++p)
                    for (const std::uint16_t bad : {std::uint16_t(0x7FC0), std::uint16_t(0xFF81), std::uint16_t(0x7F80),
                                                    std::uint16_t(0xFF80)}) {
                        const std::uint16_t keep = in[p];
                        in[p] = bad;
                        std::fill(out.begin(), out.end(), 0.0f);
                        const std::size_t got = K->bf16_decode_checked(in.data(), n, out.data());
                        in[p] = keep;
                        if (got != p)
                            return target + " " + K->target + ": n " + std::to_string(n) + ", bad at " +
                                   std::to_string(p) + ", found " + std::to_string(got);
                        if (st::detail::bits_of(out[p]) != std::uint32_t(bad) * 65536u ||
                            st::detail::bits_of(out[n - 1]) != std::uint32_t(p == n - 1 ? bad : in[n - 1]) * 65536u)
                            return target + " " + K->target + ": output not written in full";
                    }
            }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

// max |x| straight from BF16 bit patterns (the FP8-per-tensor prepass):
// equal to the f32 max of std::fabs over the decoded values (decoded here by
// the shift, not by a kernel), for lengths around every vector width and
// patterns from 0 to the largest finite; a NaN or ±inf at any position gives
// a result ≥ 0x7F80.
void TestStKernels::bf16_absmax_bits_is_decoded_absmax() {
    const std::string failure = amn::test::for_each_target(amn::kernels::active_target_name, [&](const std::string& target) -> std::string {
        std::mt19937 rng(77);
        for (const auto* K : {&k::scalar_kernels(), &k::st_kernels()})
            for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(15), std::size_t(64), std::size_t(131),
                                        std::size_t(300), std::size_t(4103)}) {
                std::vector<std::uint16_t> in(n);
                for (auto& b : in) {
                    b = std::uint16_t(rng() & 0xFFFFu);
                    if ((b & 0x7F80u) == 0x7F80u) b = std::uint16_t(b ^ 0x0100u);  // finite
                }
                // The largest magnitude at every position in turn (also at the tails).
                for (std::size_t p = 0; p < n; p += (p < 40 || p + 40 > n) ? 1 : 97) {
                    const std::uint16_t keep = in[p];
                    in[p] = std::uint16_t((p & 1 ? 0x8000u : 0u) | 0x7F7Fu);
                    float want = 0.0f;
                    for (const auto b : in) want = std::max(want, std::fabs(st::detail::float_of(std::uint32_t(b) << 16)));
                    const std::uint16_t got = K->bf16_absmax_bits(in.data(), n);
                    if ((std::uint32_t(got) << 16) != st::detail::bits_of(want))
                        return target + " " + K->target + ": n " + std::to_string(n) + ", largest at " + std::to_string(p);
                    in[p] = keep;
                }
                float want = 0.0f;
                for (const auto b : in) want = std::max(want, std::fabs(st::detail::float_of(std::uint32_t(b) << 16)));
                if ((std::uint32_t(K->bf16_absmax_bits(in.data(), n)) << 16) != st::detail::bits_of(want))
                    return target + " " + K->target + ": n " + std::to_string(n);
                for (std::size_t p = 0; p < n; p += n <= 300 ? 1 : 13)
                    for (const std::uint16_t bad : {std::uint16_t(0x7FC0), std::uint16_t(0xFF81), std::uint16_t(0x7F80),
                                                    std::uint16_t(0xFF80)}) {
                        const std::uint16_t keep = in[p];
                        in[p] = bad;
                        const std::uint16_t got = K->bf16_absmax_bits(in.data(), n);
                        in[p] = keep;
                        if (got < 0x7F80u)
                            return target + " " + K->target + ": n " + std::to_string(n) + ", non-finite at " +
                                   std::to_string(p) + " not flagged";
                    }
            }
        return {};
    });
    QVERIFY2(failure.empty(), failure.c_str());
}

QTEST_APPLESS_MAIN(TestStKernels)
#include "test_st_kernels.moc"
