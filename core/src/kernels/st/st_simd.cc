// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD row-chunk kernels of the safetensors-family quantizers
// (st_kernels.hpp), compiled once per target and chosen at run time.
//
// Byte-exactness with the scalar reference (st_kernels_scalar.cc):
// - every f32 operation is the scalar one lane by lane (IEEE add, mul, true
//   division; no FMA: -ffp-contract=off and no MulAdd), in the same order;
// - rounding to BF16 is the integer recipe bits + 0x7FFF + lsb (never
//   DemoteTo, which truncates in Highway 1.0.3); rounding to F16 precision
//   is built from the same bit recipe on 13 bits for normal values, an exact
//   ×2^24 / round-half-even / ×2^-24 for F16 subnormals and ±inf from 65520;
// - the E4M3FN cast is the scalar bit recipe (rebias, round the mantissa
//   to 3 bits ties-to-even; ×2^9 and Round below 2^-6), and the dequantized
//   value is that rounding kept as an f32 (the table value of the code);
// - LLM.int8's SCB = max |f16(x)| is taken as f16(max |x|) (RNE is odd and
//   monotone, so the two are equal);
// - bitsandbytes code selection finds k = #{midpoints < v} (a tie takes the
//   lower code): with 16 lanes (AVX-512) by the cell table of Codebook4
//   (NF4: one two-register permute and one compare) or else a 4-step binary
//   search over the midpoint vector (lane permutes, +inf padding), then a
//   permute of order[] / sorted[]; on narrower targets by 15 compares whose
//   monotone masks blend in sorted[t+1] / order[t+1]; code pairs are packed
//   in u64 lanes (no store and reload);
// - max/min reductions do not depend on the order of comparisons;
// - element counts that are not a multiple of the vector width finish with
//   the scalar kernel (the same expressions).
// Only `loss` differs: its f64 sums are kept per lane and added at the end
// (st_simd_loss.cc).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "st/st_simd.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"
#include "kernels/st/st_simd-inl.h"

#include <algorithm>
#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::st {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::size_t FirstNonfinite(const float* x, std::size_t n) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    const VF inf = hn::Set(df, HUGE_VALF);
    std::size_t i = 0;
    // Four vectors per test (one branch per 4·N values); a failing group is
    // searched by the scalar reference from its start.
    for (; i + 4 * N <= n; i += 4 * N) {
        const auto ok01 = hn::And(hn::Lt(hn::Abs(hn::LoadU(df, x + i)), inf),
                                  hn::Lt(hn::Abs(hn::LoadU(df, x + i + N)), inf));
        const auto ok23 = hn::And(hn::Lt(hn::Abs(hn::LoadU(df, x + i + 2 * N)), inf),
                                  hn::Lt(hn::Abs(hn::LoadU(df, x + i + 3 * N)), inf));
        if (!hn::AllTrue(df, hn::And(ok01, ok23))) break;
    }
    for (; i + N <= n; i += N)
        if (!hn::AllTrue(df, hn::Lt(hn::Abs(hn::LoadU(df, x + i)), inf))) break;
    return i + scalar_kernels().first_nonfinite(x + i, n - i);
}

std::size_t Bf16DecodeChecked(const std::uint16_t* in, std::size_t n, float* out) {
#if HWY_TARGET == HWY_SCALAR
    return scalar_kernels().bf16_decode_checked(in, n, out);
#else
    const DU du;
    const hn::Rebind<std::uint16_t, DU> d16;
    const std::size_t N = hn::Lanes(du);
    const VU expo = hn::Set(du, 0x7F800000u);
    std::size_t i = 0;
    auto one = [&](std::size_t at, VU& bad) {
        const VU u = hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, in + at)));
        hn::StoreU(hn::BitCast(DF(), u), DF(), out + at);
        bad = hn::Or(bad, hn::VecFromMask(du, hn::Eq(hn::And(u, expo), expo)));
    };
    // Four vectors per test (one branch per 4·N values); the group holding a
    // non-finite value, and the tail, go to the scalar reference (which rewrites
    // the same values).
    for (; i + 4 * N <= n; i += 4 * N) {
        VU bad = hn::Zero(du);
        one(i, bad), one(i + N, bad), one(i + 2 * N, bad), one(i + 3 * N, bad);
        if (!hn::AllTrue(du, hn::Eq(bad, hn::Zero(du)))) break;
    }
    return i + scalar_kernels().bf16_decode_checked(in + i, n - i, out + i);
#endif
}

// Max and min do not depend on the order of comparisons: four independent
// accumulators (no chain of one Max per vector), merged at the end.
float AbsMax(const float* x, std::size_t n) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    VF m0 = hn::Zero(df), m1 = hn::Zero(df), m2 = hn::Zero(df), m3 = hn::Zero(df);
    std::size_t i = 0;
    for (; i + 4 * N <= n; i += 4 * N) {
        m0 = hn::Max(m0, hn::Abs(hn::LoadU(df, x + i)));
        m1 = hn::Max(m1, hn::Abs(hn::LoadU(df, x + i + N)));
        m2 = hn::Max(m2, hn::Abs(hn::LoadU(df, x + i + 2 * N)));
        m3 = hn::Max(m3, hn::Abs(hn::LoadU(df, x + i + 3 * N)));
    }
    for (; i + N <= n; i += N) m0 = hn::Max(m0, hn::Abs(hn::LoadU(df, x + i)));
    const VF m = hn::Max(hn::Max(m0, m1), hn::Max(m2, m3));
    return std::max(hn::GetLane(hn::MaxOfLanes(df, m)), scalar_kernels().absmax(x + i, n - i));
}

std::uint16_t Bf16AbsMaxBits(const std::uint16_t* in, std::size_t n) {
    const hn::ScalableTag<std::uint16_t> d;
    const std::size_t N = hn::Lanes(d);
    const auto mask = hn::Set(d, std::uint16_t(0x7FFF));
    auto m0 = hn::Zero(d), m1 = hn::Zero(d), m2 = hn::Zero(d), m3 = hn::Zero(d);
    std::size_t i = 0;
    for (; i + 4 * N <= n; i += 4 * N) {
        m0 = hn::Max(m0, hn::And(hn::LoadU(d, in + i), mask));
        m1 = hn::Max(m1, hn::And(hn::LoadU(d, in + i + N), mask));
        m2 = hn::Max(m2, hn::And(hn::LoadU(d, in + i + 2 * N), mask));
        m3 = hn::Max(m3, hn::And(hn::LoadU(d, in + i + 3 * N), mask));
    }
    for (; i + N <= n; i += N) m0 = hn::Max(m0, hn::And(hn::LoadU(d, in + i), mask));
    const auto m = hn::Max(hn::Max(m0, m1), hn::Max(m2, m3));
    return std::max(hn::GetLane(hn::MaxOfLanes(d, m)), scalar_kernels().bf16_absmax_bits(in + i, n - i));
}

void AbsMaxBlocks(const float* x, std::size_t n, std::size_t bs, float* out) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    std::size_t i = 0, b = 0;
    if (bs % N == 0)
        for (; i + bs <= n; i += bs, ++b) {
            VF m = hn::Zero(df);
            for (std::size_t j = 0; j < bs; j += N) m = hn::Max(m, hn::Abs(hn::LoadU(df, x + i + j)));
            out[b] = hn::GetLane(hn::MaxOfLanes(df, m));
        }
    scalar_kernels().absmax_blocks(x + i, n - i, bs, out + b);
}

void MinMax(const float* x, std::size_t n, float* mn, float* mx) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    VF lo = hn::Zero(df), hi = hn::Zero(df), lo1 = hn::Zero(df), hi1 = hn::Zero(df);
    std::size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
        const VF v = hn::LoadU(df, x + i), w = hn::LoadU(df, x + i + N);
        lo = hn::Min(lo, v);
        hi = hn::Max(hi, v);
        lo1 = hn::Min(lo1, w);
        hi1 = hn::Max(hi1, w);
    }
    lo = hn::Min(lo, lo1);
    hi = hn::Max(hi, hi1);
    for (; i + N <= n; i += N) {
        const VF v = hn::LoadU(df, x + i);
        lo = hn::Min(lo, v);
        hi = hn::Max(hi, v);
    }
    float tlo, thi;
    scalar_kernels().minmax(x + i, n - i, &tlo, &thi);
    *mn = std::min(hn::GetLane(hn::MinOfLanes(df, lo)), tlo);
    *mx = std::max(hn::GetLane(hn::MaxOfLanes(df, hi)), thi);
}

#if HWY_TARGET != HWY_SCALAR
// bitsandbytes 4-bit codes of full blocks. Blocks go in groups of kGroup:
// first every block's absmax (independent chains the CPU overlaps), then
// their reciprocals, then the codes — no horizontal max → divide →
// broadcast chain in front of each block's codes. Code pairs are packed in
// registers (u64 lane = code 2i | code 2i+1 << 32 → byte), never through memory.
template <int W>
void Bnb4BlocksW(const float* x, std::size_t nblocks, std::size_t bs, const Codebook4& cb, const float* am_deq,
                 std::uint8_t* packed, float* absmax_out, float* y) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const hn::Repartition<std::uint64_t, DF> d64;
    [[maybe_unused]] const hn::Rebind<std::uint8_t, decltype(d64)> d8;
    // With exactly 16 lanes (AVX-512) the 16-entry tables are one vector: a lane permute.
    constexpr bool kLut = HWY_LANES(float) == 16;
    [[maybe_unused]] VF sorted = hn::Zero(df);
    [[maybe_unused]] VI order = hn::Zero(di);
    [[maybe_unused]] VF mids = hn::Zero(df);
    [[maybe_unused]] VI cell_lo = hn::Zero(di), cell_hi = hn::Zero(di);
    if constexpr (kLut) {
        cell_lo = hn::LoadU(di, cb.cell_k);
        cell_hi = hn::LoadU(di, cb.cell_k + 16);
        HWY_ALIGN float m16[16];
        for (int t = 0; t < 15; ++t) m16[t] = cb.mid[t];
        m16[15] = HUGE_VALF;
        mids = hn::Load(df, m16);
        sorted = hn::LoadU(df, cb.sorted);
        order = hn::LoadU(di, cb.order);
    }
    const VF one = hn::Set(df, 1.0f), mone = hn::Set(df, -1.0f);
    constexpr std::size_t kGroup = 16;
    float inv[kGroup];
    for (std::size_t b0 = 0; b0 < nblocks; b0 += kGroup) {
        const std::size_t nb = std::min(kGroup, nblocks - b0);
        for (std::size_t b = 0; b < nb; ++b) {
            const float* xb = x + (b0 + b) * bs;
            VF m = hn::Zero(df);
            for (std::size_t j = 0; j < bs; j += N) m = hn::Max(m, hn::Abs(hn::LoadU(df, xb + j)));
            absmax_out[b0 + b] = hn::GetLane(hn::MaxOfLanes(df, m));
        }
        for (std::size_t b = 0; b < nb; ++b) inv[b] = 1.0f / std::max(absmax_out[b0 + b], 1e-38f);
        for (std::size_t b = 0; b < nb; ++b) {
            const std::size_t blk = b0 + b;
            const float* xb = x + blk * bs;
            const VF vinv = hn::Set(df, inv[b]);
            const VF am = hn::Set(df, am_deq ? am_deq[blk] : absmax_out[blk]);
            std::uint8_t* p = packed + blk * bs / 2;
            for (std::size_t j = 0; j < bs; j += N) {
                const VF xv = hn::LoadU(df, xb + j);
                const VF v = hn::Min(hn::Max(hn::Mul(xv, vinv), mone), one);
                VI code;
                VF val;
                if constexpr (kLut) {
                    VI k;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
                    if (cb.cells_ok) {
                        // k = cell_k[c] + (mid[cell_k[c]] < v), c = min(trunc((v + 1)·16), 31)
                        // (Codebook4): one two-register permute instead of the search.
                        const VI c = hn::Min(hn::ConvertTo(di, hn::Mul(hn::Add(v, one), hn::Set(df, 16.0f))),
                                             hn::Set(di, 31));
                        const VI k0{_mm512_permutex2var_epi32(cell_lo.raw, c.raw, cell_hi.raw)};
                        const VF mk = hn::TableLookupLanes(mids, hn::IndicesFromVec(df, k0));
                        k = hn::IfThenElse(hn::RebindMask(di, hn::Lt(mk, v)), hn::Add(k0, hn::Set(di, 1)), k0);
                    } else
#endif
                    {
                        // k = #{midpoints < v} by a 4-step binary search over the sorted midpoints
                        // (mids[15] = +inf pads the table): the same count as 15 compares.
                        k = hn::Zero(di);
                        for (int step = 8; step >= 1; step /= 2) {
                            const VF mk = hn::TableLookupLanes(mids, hn::IndicesFromVec(df, hn::Add(k, hn::Set(di, step - 1))));
                            k = hn::IfThenElse(hn::RebindMask(di, hn::Lt(mk, v)), hn::Add(k, hn::Set(di, step)), k);
                        }
                    }
                    code = hn::TableLookupLanes(order, hn::IndicesFromVec(di, k));
                    val = hn::TableLookupLanes(sorted, hn::IndicesFromVec(df, k));
                } else {
                    // The masks are monotone in t: the last one set picks sorted[k] / order[k].
                    val = hn::Set(df, cb.sorted[0]);
                    code = hn::Set(di, cb.order[0]);
                    for (int t = 0; t < 15; ++t) {
                        const auto mt = hn::Lt(hn::Set(df, cb.mid[t]), v);
                        val = hn::IfThenElse(mt, hn::Set(df, cb.sorted[t + 1]), val);
                        code = hn::IfThenElse(hn::RebindMask(di, mt), hn::Set(di, cb.order[t + 1]), code);
                    }
                }
                // Element 2i in the high nibble: the low byte of (c << 4 | c >> 32) per u64 lane.
                const auto c64 = hn::BitCast(d64, code);
                const auto pair = hn::Or(hn::ShiftLeft<4>(c64), hn::ShiftRight<32>(c64));
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
                // VPMOVQB: one instruction (Highway 1.0.3's TruncateTo is four shuffles here).
                _mm_storel_epi64(reinterpret_cast<__m128i*>(p + j / 2), _mm512_cvtepi64_epi8(pair.raw));
#else
                hn::StoreU(hn::TruncateTo(d8, pair), d8, p + j / 2);
#endif
                if (y) hn::StoreU(RoundW<W>(hn::Mul(val, am)), df, y + blk * bs + j);
            }
        }
    }
}
#endif  // HWY_TARGET != HWY_SCALAR

void Bnb4Blocks(const float* x, std::size_t nblocks, std::size_t bs, const Codebook4& cb, const float* am_deq,
                DType wdtype, std::uint8_t* packed, float* absmax_out, float* y) {
    // One lane (HWY_SCALAR) has no code pairs to pack in registers: the scalar reference.
    if (HWY_TARGET == HWY_SCALAR || bs % hn::Lanes(DF()) != 0) {
        scalar_kernels().bnb4_blocks(x, nblocks, bs, cb, am_deq, wdtype, packed, absmax_out, y);
        return;
    }
#if HWY_TARGET != HWY_SCALAR
    switch (wdtype) {
    case DType::BF16: return Bnb4BlocksW<1>(x, nblocks, bs, cb, am_deq, packed, absmax_out, y);
    case DType::F16: return Bnb4BlocksW<2>(x, nblocks, bs, cb, am_deq, packed, absmax_out, y);
    default: return Bnb4BlocksW<0>(x, nblocks, bs, cb, am_deq, packed, absmax_out, y);
    }
#endif
}

template <int W>
std::size_t Fp8CtW(const float* x, std::size_t n, float s, std::uint8_t* q, float* y) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    const VF vs = hn::Set(df, s), lim = hn::Set(df, 448.0f), nlim = hn::Set(df, -448.0f);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        VF v = RoundW<W>(hn::Div(hn::LoadU(df, x + i), vs));
        v = hn::Add(v, hn::Zero(df));  // + zero point 0 (−0 → +0): exact, so its rounding is the identity
        v = hn::Min(hn::Max(v, nlim), lim);
        VF rounded;
        const VI code = E4M3Rounded<false>(v, rounded);
        StoreBytes(code, q + i);
        if (y) hn::StoreU(RoundW<W>(hn::Mul(rounded, vs)), df, y + i);
    }
    return i;
}

std::size_t Fp8DeepseekBody(const float* x, std::size_t n, float s, std::uint8_t* q, float* y) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    const VF inv = hn::Set(df, 1.0f / s), vs = hn::Set(df, s);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        VF rounded;
        const VI code = E4M3Rounded<true>(hn::Mul(hn::LoadU(df, x + i), inv), rounded);
        StoreBytes(code, q + i);
        if (y) hn::StoreU(hn::Mul(rounded, vs), df, y + i);
    }
    return i;
}

void Fp8Encode(const float* x, std::size_t n, float s, bool deepseek, DType wdtype, std::uint8_t* q, float* y) {
    std::size_t i;
    if (deepseek) i = Fp8DeepseekBody(x, n, s, q, y);
    else if (wdtype == DType::BF16) i = Fp8CtW<1>(x, n, s, q, y);
    else if (wdtype == DType::F16) i = Fp8CtW<2>(x, n, s, q, y);
    else i = Fp8CtW<0>(x, n, s, q, y);
    scalar_kernels().fp8_encode(x + i, n - i, s, deepseek, wdtype, q + i, y ? y + i : nullptr);
}

// kZero (z = 0, the symmetric schemes): rt(v + 0) and rt(q − 0) are skipped —
// v is already rounded to the weight dtype, + 0 only turns −0 into +0 (which
// rounds to the same code), and an integer |q| ≤ 128 is exact in every dtype.
template <int W, bool kZero>
std::size_t IntW(const float* x, std::size_t n, float s, float z, float qmin, float qmax, std::int8_t* q, float* y) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const VF vs = hn::Set(df, s), vz = hn::Set(df, z), lo = hn::Set(df, qmin), hi = hn::Set(df, qmax);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        VF v = RoundW<W>(hn::Div(hn::LoadU(df, x + i), vs));
        if constexpr (!kZero) v = RoundW<W>(hn::Add(v, vz));
        v = hn::Min(hn::Max(v, lo), hi);
        const VI qi = hn::ConvertTo(di, hn::Round(v));
        StoreBytes(qi, q + i);
        if (y) {
            const VF qz = kZero ? hn::ConvertTo(df, qi) : RoundW<W>(hn::Sub(hn::ConvertTo(df, qi), vz));
            hn::StoreU(RoundW<W>(hn::Mul(qz, vs)), df, y + i);
        }
    }
    return i;
}

void IntEncode(const float* x, std::size_t n, float s, float z, float qmin, float qmax, DType wdtype, std::int8_t* q,
               float* y) {
    std::size_t i;
    const bool z0 = z == 0.0f;
    if (wdtype == DType::BF16) i = z0 ? IntW<1, true>(x, n, s, z, qmin, qmax, q, y) : IntW<1, false>(x, n, s, z, qmin, qmax, q, y);
    else if (wdtype == DType::F16) i = z0 ? IntW<2, true>(x, n, s, z, qmin, qmax, q, y) : IntW<2, false>(x, n, s, z, qmin, qmax, q, y);
    else i = z0 ? IntW<0, true>(x, n, s, z, qmin, qmax, q, y) : IntW<0, false>(x, n, s, z, qmin, qmax, q, y);
    scalar_kernels().int_encode(x + i, n - i, s, z, qmin, qmax, wdtype, q + i, y ? y + i : nullptr);
}

void PackInt(const std::int8_t* q, std::size_t n, unsigned bits, std::int32_t* out) {
#if HWY_TARGET == HWY_SCALAR
    scalar_kernels().pack_int(q, n, bits, out);  // one lane: nothing to pair
#else
    const hn::ScalableTag<std::uint8_t> d8;
    const hn::RepartitionToWide<decltype(d8)> d16;
    const hn::RebindToSigned<decltype(d16)> di16;
    const hn::Rebind<std::uint8_t, decltype(di16)> d8h;
    const std::size_t N8 = hn::Lanes(d8);
    auto* bytes = reinterpret_cast<std::uint8_t*>(out);
    const auto* in = reinterpret_cast<const std::uint8_t*>(q);
    std::size_t i = 0;
    if (bits == 8) {
        // u = q + 128: the bytes of the words, little-endian.
        for (; i + N8 <= n; i += N8) hn::StoreU(hn::Xor(hn::LoadU(d8, in + i), hn::Set(d8, 0x80)), d8, bytes + i);
        scalar_kernels().pack_int(q + i, n - i, bits, out + i / 4);
        return;
    }
    // 4 bits: byte b of the words = u[2b] | u[2b+1] << 4, one 16-bit lane per pair.
    if (N8 % 8 == 0)
        for (; i + N8 <= n; i += N8) {
            const auto u = hn::BitCast(di16, hn::Add(hn::LoadU(d8, in + i), hn::Set(d8, 8)));
            const auto b = hn::Or(hn::And(u, hn::Set(di16, 0xFF)), hn::ShiftLeft<4>(hn::ShiftRight<8>(u)));
            hn::StoreU(hn::DemoteTo(d8h, b), d8h, bytes + i / 2);
        }
    scalar_kernels().pack_int(q + i, n - i, bits, out + i / 8);
#endif
}

void Int8Row(const float* x, std::size_t n, std::int8_t* q, float* scb, float* y) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    // max |f16(x)| = f16(max |x|): F16 rounding (RNE, ≥ 65520 → inf) is odd and monotone.
    const float amax = amn::st::detail::round_to(DType::F16, AbsMax(x, n));
    std::size_t i = 0;
    *scb = amax;
    const float scale = (1.0f / amax) * 127.0f;
    const VF vscale = hn::Set(df, scale), vamax = hn::Set(df, amax), k127 = hn::Set(df, 7.874015718698502e-3f);
    if (amax > 0.0f && amax < HUGE_VALF) {
        // The usual row: every |x| < 65520 (no F16 overflow) and the scale finite, so p is
        // finite and the NaN → 0 step is the identity.
        for (i = 0; i + N <= n; i += N) {
            const VF v = hn::LoadU(df, x + i);
            const VI qi = hn::ConvertTo(di, hn::Round(hn::Mul(RoundF16Finite(v, hn::Abs(v)), vscale)));
            StoreBytes(qi, q + i);
            if (y) hn::StoreU(hn::Mul(hn::Mul(hn::ConvertTo(df, qi), vamax), k127), df, y + i);
        }
    }
    for (; i + N <= n; i += N) {
        VF p = hn::Mul(RoundW<2>(hn::LoadU(df, x + i)), vscale);
        p = hn::IfThenElseZero(hn::Eq(p, p), p);  // NaN → 0
        const VI qi = hn::ConvertTo(di, hn::Round(p));
        StoreBytes(qi, q + i);
        if (y) hn::StoreU(hn::Mul(hn::Mul(hn::ConvertTo(df, qi), vamax), k127), df, y + i);
    }
    for (; i < n; ++i) {
        const float p = amn::st::detail::round_to(DType::F16, x[i]) * scale;
        q[i] = std::isnan(p) ? std::int8_t(0) : std::int8_t(std::nearbyint(p));
        if (y) y[i] = (float(q[i]) * amax) * 7.874015718698502e-3f;
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::st
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::st {

HWY_EXPORT(FirstNonfinite);
HWY_EXPORT(Bf16DecodeChecked);
HWY_EXPORT(AbsMax);
HWY_EXPORT(AbsMaxBlocks);
HWY_EXPORT(MinMax);
HWY_EXPORT(Bnb4Blocks);
HWY_EXPORT(Fp8Encode);
HWY_EXPORT(IntEncode);
HWY_EXPORT(PackInt);
HWY_EXPORT(Int8Row);
HWY_EXPORT(Bf16AbsMaxBits);

namespace {
std::size_t first_nonfinite(const float* x, std::size_t n) { return HWY_DYNAMIC_DISPATCH(FirstNonfinite)(x, n); }
std::size_t bf16_decode_checked(const std::uint16_t* in, std::size_t n, float* out) {
    return HWY_DYNAMIC_DISPATCH(Bf16DecodeChecked)(in, n, out);
}
float absmax(const float* x, std::size_t n) { return HWY_DYNAMIC_DISPATCH(AbsMax)(x, n); }
void absmax_blocks(const float* x, std::size_t n, std::size_t bs, float* out) {
    HWY_DYNAMIC_DISPATCH(AbsMaxBlocks)(x, n, bs, out);
}
void minmax(const float* x, std::size_t n, float* mn, float* mx) { HWY_DYNAMIC_DISPATCH(MinMax)(x, n, mn, mx); }
void bnb4_blocks(const float* x, std::size_t nb, std::size_t bs, const Codebook4& cb, const float* am_deq, DType w,
                 std::uint8_t* packed, float* absmax_out, float* y) {
    HWY_DYNAMIC_DISPATCH(Bnb4Blocks)(x, nb, bs, cb, am_deq, w, packed, absmax_out, y);
}
void fp8_encode(const float* x, std::size_t n, float s, bool ds, DType w, std::uint8_t* q, float* y) {
    HWY_DYNAMIC_DISPATCH(Fp8Encode)(x, n, s, ds, w, q, y);
}
void int_encode(const float* x, std::size_t n, float s, float z, float lo, float hi, DType w, std::int8_t* q, float* y) {
    HWY_DYNAMIC_DISPATCH(IntEncode)(x, n, s, z, lo, hi, w, q, y);
}
void pack_int(const std::int8_t* q, std::size_t n, unsigned bits, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(PackInt)(q, n, bits, out);
}
void int8_row(const float* x, std::size_t n, std::int8_t* q, float* scb, float* y) {
    HWY_DYNAMIC_DISPATCH(Int8Row)(x, n, q, scb, y);
}
std::uint16_t bf16_absmax_bits(const std::uint16_t* in, std::size_t n) {
    return HWY_DYNAMIC_DISPATCH(Bf16AbsMaxBits)(in, n);
}
}  // namespace

const StKernels& st_kernels() noexcept {
    static const StKernels k{"simd", first_nonfinite, bf16_decode_checked, absmax, absmax_blocks, minmax, bnb4_blocks, fp8_encode, int_encode, pack_int, int8_row, simd_loss, bf16_absmax_bits,
                             simd_bf16_absmax_blocks, simd_bnb4_blocks_bf16,
                             simd_fp8_encode_bf16, simd_int8_row_bf16, simd_code8_blocks,
                             simd_ct_int_rows_bf16};
    return k;
}

}  // namespace amn::kernels::st
#endif  // HWY_ONCE
