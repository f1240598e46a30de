// SPDX-License-Identifier: MIT OR Apache-2.0
// Highway SIMD bitsandbytes 4-bit straight from the stored BF16 bits
// (st_kernels.hpp `bf16_absmax_blocks`, `bnb4_blocks_bf16`), compiled once per
// target and chosen at run time; the f32 kernels are in st_simd.cc.
//
// The bytes are those of `bnb4_blocks` on the decoded values (wdtype BF16):
// - the absmax of a block is the largest |x| bit pattern (bits & 0x7FFF): for
//   finite BF16 values the order of those patterns is the order of |x|, and
//   a pattern ≥ 0x7F80 (NaN, ±inf) makes the call return false;
// - v = x · f32(1 / max(absmax, 1e-38)), one IEEE multiplication as there;
//   the clamp to [−1, 1] is left out: |v| exceeds 1 only by rounding, where
//   the cell below is the same (trunc((v + 1)·16) is 0 above −1 − 2^-4 and
//   min(…, 31) caps the top) and no midpoint lies outside (−1, 1);
// - the code is k = #{midpoints < v} by the cell table of Codebook4 (NF4) or
//   a 4-step binary search over the midpoints (FP4), then order[k].
// With 16 lanes (AVX-512): the absmax bit patterns of 16 blocks are reduced
// together (MaxOf16) and their 16 reciprocals taken in one division (IEEE,
// lane by lane the same); values are decoded by unpacks with zero, and 64
// codes are packed at a time: unsigned saturating packs and a qword permute
// put the 64 k in element order as bytes, one in-lane byte shuffle maps
// k → order[k] (skipped for NF4, whose order is the identity), one
// multiply-add of byte pairs by (16, 1) makes code(2i) << 4 | code(2i+1),
// and a truncating word → byte move stores 32 bytes. Other targets decode a
// block at a time and run that target's `bnb4_blocks`.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "int/st_simd_bnb4.cc"  // found through the kernels include dir
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

HWY_BEFORE_NAMESPACE();
namespace amn::kernels::st {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<std::uint16_t>;

// max(in[i] & 0x7FFF) over one block of bs values (bs a multiple of Lanes(D16)).
HWY_INLINE std::uint32_t BlockMaxBits(const std::uint16_t* in, std::size_t bs) {
#if HWY_TARGET == HWY_SCALAR
    return scalar_kernels().bf16_absmax_bits(in, bs);  // one lane: no pairs of u16 lanes
#else
    const D16 d;
    const hn::Repartition<std::uint32_t, D16> d32;
    const std::size_t N = hn::Lanes(d);
    const auto mask = hn::Set(d, std::uint16_t(0x7FFF));
    auto m0 = hn::Zero(d), m1 = hn::Zero(d);
    std::size_t j = 0;
    for (; j + 2 * N <= bs; j += 2 * N) {
        m0 = hn::Max(m0, hn::And(hn::LoadU(d, in + j), mask));
        m1 = hn::Max(m1, hn::And(hn::LoadU(d, in + j + N), mask));
    }
    for (; j < bs; j += N) m0 = hn::Max(m0, hn::And(hn::LoadU(d, in + j), mask));
    // Pairs of u16 lanes as one u32: the larger half, then the largest lane.
    const auto w = hn::BitCast(d32, hn::Max(m0, m1));
    const auto m = hn::Max(hn::And(w, hn::Set(d32, 0xFFFFu)), hn::ShiftRight<16>(w));
    return hn::GetLane(hn::MaxOfLanes(d32, m));
#endif
}

bool Bf16AbsMaxBlocks(const std::uint16_t* in, std::size_t n, std::size_t bs, float* out) {
    std::size_t i = 0, b = 0;
    if (bs % hn::Lanes(D16()) == 0)
        for (; i + bs <= n; i += bs, ++b) {
            const std::uint32_t m = BlockMaxBits(in + i, bs);
            if (m >= 0x7F80u) return false;
            out[b] = amn::st::detail::float_of(m << 16);
        }
    return scalar_kernels().bf16_absmax_blocks(in + i, n - i, bs, out + b);
}

// A block at a time: decoded (and checked) into `buf`, then this target's f32 kernel.
bool Bnb4Bf16Decoded(const std::uint16_t* in, std::size_t nblocks, std::size_t bs, const Codebook4& cb,
                     std::uint8_t* packed, float* absmax_out) {
    const StKernels& k = st_kernels();
    float buf[4096];
    for (std::size_t b = 0; b < nblocks; ++b) {
        if (bs > 4096) return scalar_kernels().bnb4_blocks_bf16(in + b * bs, nblocks - b, bs, cb, packed + b * bs / 2, absmax_out + b);
        if (k.bf16_decode_checked(in + b * bs, bs, buf) < bs) return false;
        k.bnb4_blocks(buf, 1, bs, cb, nullptr, DType::BF16, packed + b * bs / 2, absmax_out + b, nullptr);
    }
    return true;
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// Max of each of 16 vectors of 16 u32 lanes, in lane b of the result: pairs of
// vectors merged by unpacks (within 128-bit lanes), then 128-bit lanes by
// shuffles — 45 operations for 16 reductions.
HWY_INLINE __m512i MaxOf16(const __m512i (&v)[16]) {
    __m512i w[8], x[4];
    for (int i = 0; i < 8; ++i)  // lane L: v2i[0,2], v2i+1[0,2], v2i[1,3], v2i+1[1,3] (maxed)
        w[i] = _mm512_max_epu32(_mm512_unpacklo_epi32(v[2 * i], v[2 * i + 1]), _mm512_unpackhi_epi32(v[2 * i], v[2 * i + 1]));
    for (int i = 0; i < 4; ++i)  // lane L: partial max of v4i … v4i+3 over lane L
        x[i] = _mm512_max_epu32(_mm512_unpacklo_epi64(w[2 * i], w[2 * i + 1]), _mm512_unpackhi_epi64(w[2 * i], w[2 * i + 1]));
    __m512i y[2];
    for (int i = 0; i < 2; ++i)  // lanes: v8i.. over L0∪L2, over L1∪L3, v8i+4.. over L0∪L2, over L1∪L3
        y[i] = _mm512_max_epu32(_mm512_shuffle_i32x4(x[2 * i], x[2 * i + 1], 0x44),
                                _mm512_shuffle_i32x4(x[2 * i], x[2 * i + 1], 0xEE));
    return _mm512_max_epu32(_mm512_shuffle_i32x4(y[0], y[1], 0x88), _mm512_shuffle_i32x4(y[0], y[1], 0xDD));
}

bool Bnb4Bf16Avx3(const std::uint16_t* in, std::size_t nblocks, std::size_t bs, const Codebook4& cb,
                  std::uint8_t* packed, float* absmax_out) {
    // NF4 (cells_ok): cell c = min(trunc((v + 1)·16), 31); k0 = cell_k[c] and its
    // midpoint mid[k0] (+inf past the last) looked up from c, independently.
    HWY_ALIGN float midc[32];
    HWY_ALIGN float mids[16];
    for (int c = 0; c < 32; ++c) midc[c] = cb.cell_k[c] < 15 ? cb.mid[cb.cell_k[c]] : HUGE_VALF;
    for (int t = 0; t < 15; ++t) mids[t] = cb.mid[t];
    mids[15] = HUGE_VALF;
    alignas(16) std::uint8_t order8[16];
    bool identity = true;  // NF4: quant_map is sorted, code = k
    for (int t = 0; t < 16; ++t) order8[t] = std::uint8_t(cb.order[t]), identity = identity && cb.order[t] == t;
    const __m512i cell_lo = _mm512_loadu_si512(cb.cell_k), cell_hi = _mm512_loadu_si512(cb.cell_k + 16);
    const __m512 midc_lo = _mm512_load_ps(midc), midc_hi = _mm512_load_ps(midc + 16), vmids = _mm512_load_ps(mids);
    const __m512i order = _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(order8)));
    // Loads: 32 values; the unpacks with zero give elements 8L … 8L+3 (lo) and 8L+4 … 8L+7
    // (hi) of 128-bit lane L as f32. The unsigned packs give lane L the bytes of elements
    // 8L … 8L+7 of the first 32 and then of the second 32: qword t ← 2t (t < 4), 2(t − 4) + 1.
    const __m512i perm = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    const __m512i pair = _mm512_set1_epi16(0x0110);  // bytes (16, 1): code(2i)·16 + code(2i+1)
    const __m512 one = _mm512_set1_ps(1.0f), sixteen = _mm512_set1_ps(16.0f), tiny = _mm512_set1_ps(1e-38f);
    const __m512i k31 = _mm512_set1_epi32(31), ione = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
    const __m512i mag = _mm512_set1_epi16(0x7FFF), low16 = _mm512_set1_epi32(0xFFFF);
    const bool cells = cb.cells_ok;
    // k = #{midpoints < v} of 16 values.
    auto code_index = [&](__m512 v) {
        if (cells) {
            const __m512i c = _mm512_min_epi32(_mm512_cvttps_epi32(_mm512_mul_ps(_mm512_add_ps(v, one), sixteen)), k31);
            const __m512i k0 = _mm512_permutex2var_epi32(cell_lo, c, cell_hi);
            const __m512 mk = _mm512_permutex2var_ps(midc_lo, c, midc_hi);
            return _mm512_mask_add_epi32(k0, _mm512_cmp_ps_mask(mk, v, _CMP_LT_OQ), k0, ione);
        }
        // 4-step binary search (mids[15] = +inf pads the table).
        __m512i kk = zero;
        for (int step = 8; step >= 1; step /= 2) {
            const __m512 mk = _mm512_permutexvar_ps(_mm512_add_epi32(kk, _mm512_set1_epi32(step - 1)), vmids);
            kk = _mm512_mask_add_epi32(kk, _mm512_cmp_ps_mask(mk, v, _CMP_LT_OQ), kk, _mm512_set1_epi32(step));
        }
        return kk;
    };
    constexpr std::size_t kGroup = 16;
    HWY_ALIGN float inv[kGroup];
    for (std::size_t b0 = 0; b0 < nblocks; b0 += kGroup) {
        const std::size_t nb = std::min(kGroup, nblocks - b0);
        // Every absmax of the group (as bits), reduced together; then 16 reciprocals at once.
        __m512i mx[kGroup];
        for (std::size_t b = 0; b < kGroup; ++b) {
            __m512i m = zero;
            if (b < nb) {
                const std::uint16_t* xb = in + (b0 + b) * bs;
                for (std::size_t j = 0; j < bs; j += 32)
                    m = _mm512_max_epu16(m, _mm512_and_si512(_mm512_loadu_si512(xb + j), mag));
            }
            mx[b] = _mm512_max_epu32(_mm512_and_si512(m, low16), _mm512_srli_epi32(m, 16));
        }
        const __m512i bits = MaxOf16(mx);
        if (_mm512_cmpge_epu32_mask(bits, _mm512_set1_epi32(0x7F80)) != 0) return false;
        const __m512 am = _mm512_castsi512_ps(_mm512_slli_epi32(bits, 16));
        _mm512_mask_storeu_ps(absmax_out + b0, __mmask16((1u << nb) - 1u), am);
        _mm512_store_ps(inv, _mm512_div_ps(one, _mm512_max_ps(am, tiny)));
        for (std::size_t b = 0; b < nb; ++b) {
            const std::uint16_t* xb = in + (b0 + b) * bs;
            std::uint8_t* p = packed + (b0 + b) * bs / 2;
            const __m512 vinv = _mm512_set1_ps(inv[b]);
            for (std::size_t j = 0; j < bs; j += 64) {
                const __m512i r0 = _mm512_loadu_si512(xb + j), r1 = _mm512_loadu_si512(xb + j + 32);
                auto k_of = [&](__m512i half) { return code_index(_mm512_mul_ps(_mm512_castsi512_ps(half), vinv)); };
                const __m512i w0 = _mm512_packus_epi32(k_of(_mm512_unpacklo_epi16(zero, r0)), k_of(_mm512_unpackhi_epi16(zero, r0)));
                const __m512i w1 = _mm512_packus_epi32(k_of(_mm512_unpacklo_epi16(zero, r1)), k_of(_mm512_unpackhi_epi16(zero, r1)));
                __m512i codes = _mm512_permutexvar_epi64(perm, _mm512_packus_epi16(w0, w1));
                if (!identity) codes = _mm512_shuffle_epi8(order, codes);
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + j / 2),
                                    _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(codes, pair)));
            }
        }
    }
    return true;
}
#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// The cell table of a 256-entry code (bitsandbytes' dynamic map): a value v in
// [−1, 1] falls in the cell of its sign, exponent and top 6 mantissa bits
// (|v| < 2^-26 all in the first cell of its sign). Per cell, an interval [a, b]
// of values: k0 = #{midpoints < a} and the one midpoint m with a ≤ m < b (none:
// +inf), so #{midpoints < v} = k0 + [m < v] for every v of the cell. Valid (ok)
// only when no cell holds two midpoints — true of the dynamic map, whose
// midpoints are ≥ 1.8 % apart where the cells are 1.6 % wide; else the binary search.
// `codes`: order[k0] (low byte), order[k0 + 1] (second byte). `packed`, when the
// order is the identity (a sorted table, as the dynamic map is): k0 (bits 0–7), a
// midpoint present (bit 8) and its low 17 bits (9–25) — the bits below the cell's,
// so m < v is a comparison of those bits (reversed for a negative cell).
struct Code8Cells {
    static constexpr std::uint32_t kMinExp = 127 - 26, kBase = kMinExp << 6, kTop = 0x3F800000u >> 17;
    static constexpr std::uint32_t kCells = kTop - kBase + 1;  // per sign
    float mid[256];
    std::uint8_t order[256];
    bool ok = false, identity = false;
    HWY_ALIGN float m[2 * kCells];
    HWY_ALIGN std::int32_t codes[2 * kCells];
    HWY_ALIGN std::int32_t packed[2 * kCells];

    void build(const float* mids, const std::uint8_t* ord) {
        std::memcpy(mid, mids, sizeof mid);
        std::memcpy(order, ord, sizeof order);
        ok = true;
        identity = true;
        for (int t = 0; t < 256; ++t) identity = identity && ord[t] == t;
        for (std::uint32_t sign = 0; sign < 2 && ok; ++sign) {
            for (std::uint32_t c = 0; c < kCells && ok; ++c) {
                const float lo = c == 0 ? 0.0f : amn::st::detail::float_of((c + kBase) << 17);
                const float hi = amn::st::detail::float_of(((c + kBase + 1) << 17) - 1);
                const float a = sign ? -hi : lo, b = sign ? -lo : hi;
                // The midpoints ascend: k0 and the ones in [a, b) by two binary searches.
                const std::uint32_t k0 = std::uint32_t(std::lower_bound(mids, mids + 255, a) - mids);
                const std::uint32_t k1 = std::uint32_t(std::lower_bound(mids, mids + 255, b) - mids);
                ok = k1 - k0 <= 1;
                const bool has = k1 > k0;
                const float mm = has ? mids[k0] : HUGE_VALF;
                const std::size_t i = sign * kCells + c;
                m[i] = mm;
                codes[i] = std::int32_t(ord[k0] | (k0 < 255 ? std::uint32_t(ord[k0 + 1]) << 8 : 0u));
                packed[i] = std::int32_t(k0 | (has ? 1u << 8 | (amn::st::detail::bits_of(mm) & 0x1FFFFu) << 9 : 0u));
            }
        }
        for (int t = 0; t + 1 < 255 && ok; ++t) ok = mids[t] <= mids[t + 1];  // the searches need ascending midpoints
    }
    // The table for (mids, ord), built once per table and shared by the threads.
    static std::shared_ptr<const Code8Cells> of(const float* mids, const std::uint8_t* ord) {
        static std::mutex mu;
        static std::shared_ptr<const Code8Cells> last;
        std::lock_guard lock(mu);
        if (!last || std::memcmp(last->mid, mids, sizeof last->mid) != 0 ||
            std::memcmp(last->order, ord, sizeof last->order) != 0) {
            auto t = std::make_shared<Code8Cells>();
            t->build(mids, ord);
            last = std::move(t);
        }
        return last;
    }
};
#endif

// bitsandbytes blockwise 8-bit codes: the count of midpoints below v by the cell
// table (Code8Cells: one gather per 16 values for a sorted table, two otherwise)
// or, for a code it does not fit, an 8-step binary search, each step a gather of
// the midpoint at k + step − 1 (mid[255] = +inf); absmax and clamp as the scalar
// reference. AVX-512 only (gathers of 16 lanes); other targets run the scalar reference.
void Code8Blocks(const float* x, std::size_t nblocks, std::size_t bs, const float* mid, const std::uint8_t* order,
                 std::uint8_t* q, float* absmax_out) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if (bs % 16 == 0) {
        const std::shared_ptr<const Code8Cells> table = Code8Cells::of(mid, order);
        const Code8Cells& cells = *table;
        HWY_ALIGN std::int32_t order32[256];
        for (int t = 0; t < 256; ++t) order32[t] = order[t];
        const __m512 one = _mm512_set1_ps(1.0f), mone = _mm512_set1_ps(-1.0f);
        const __m512i absmask = _mm512_set1_epi32(0x7FFFFFFF), base = _mm512_set1_epi32(Code8Cells::kBase);
        const __m512i ncells = _mm512_set1_epi32(Code8Cells::kCells), byte = _mm512_set1_epi32(0xFF);
        const __m512i low17 = _mm512_set1_epi32(0x1FFFF), ione = _mm512_set1_epi32(1);
        for (std::size_t b = 0; b < nblocks; ++b) {
            const float* xb = x + b * bs;
            __m512i m = _mm512_setzero_si512();
            for (std::size_t j = 0; j < bs; j += 16)
                m = _mm512_max_epu32(m, _mm512_and_si512(_mm512_castps_si512(_mm512_loadu_ps(xb + j)), absmask));
            const float a = amn::st::detail::float_of(std::uint32_t(_mm512_reduce_max_epu32(m)));
            absmax_out[b] = a;
            const __m512 inv = _mm512_set1_ps(1.0f / std::max(a, 1e-38f));
            for (std::size_t j = 0; j < bs; j += 16) {
                const __m512 v = _mm512_min_ps(_mm512_max_ps(_mm512_mul_ps(_mm512_loadu_ps(xb + j), inv), mone), one);
                __m512i code;
                if (cells.ok) {
                    const __m512i bits = _mm512_castps_si512(v);
                    const __mmask16 neg = _mm512_movepi32_mask(bits);
                    __m512i c = _mm512_sub_epi32(
                        _mm512_max_epu32(_mm512_srli_epi32(_mm512_and_si512(bits, absmask), 17), base), base);
                    c = _mm512_mask_add_epi32(c, neg, c, ncells);
                    if (cells.identity) {
                        // code = k0 + [m < v]: by the bits below the cell's (reversed when negative).
                        const __m512i e = _mm512_i32gather_epi32(c, cells.packed, 4);
                        const __m512i ml = _mm512_srli_epi32(e, 9), vl = _mm512_and_si512(bits, low17);
                        const __mmask16 has = _mm512_test_epi32_mask(e, _mm512_set1_epi32(1 << 8));
                        const __mmask16 lt = has & ((_mm512_cmplt_epu32_mask(ml, vl) & __mmask16(~neg)) |
                                                    (_mm512_cmpgt_epu32_mask(ml, vl) & neg));
                        const __m512i k0 = _mm512_and_si512(e, byte);
                        code = _mm512_mask_add_epi32(k0, lt, k0, ione);
                    } else {
                        const __m512 mc = _mm512_i32gather_ps(c, cells.m, 4);
                        const __m512i cc = _mm512_i32gather_epi32(c, cells.codes, 4);
                        code = _mm512_mask_blend_epi32(_mm512_cmp_ps_mask(mc, v, _CMP_LT_OQ), _mm512_and_si512(cc, byte),
                                                       _mm512_and_si512(_mm512_srli_epi32(cc, 8), byte));
                    }
                } else {
                    __m512i k = _mm512_setzero_si512();
                    for (int step = 128; step >= 1; step /= 2) {
                        const __m512 mk = _mm512_i32gather_ps(_mm512_add_epi32(k, _mm512_set1_epi32(step - 1)), mid, 4);
                        k = _mm512_mask_add_epi32(k, _mm512_cmp_ps_mask(mk, v, _CMP_LT_OQ), k, _mm512_set1_epi32(step));
                    }
                    code = _mm512_i32gather_epi32(k, order32, 4);
                }
                _mm_storeu_si128(reinterpret_cast<__m128i*>(q + b * bs + j), _mm512_cvtepi32_epi8(code));
            }
        }
        return;
    }
#endif
    scalar_kernels().code8_blocks(x, nblocks, bs, mid, order, q, absmax_out);
}

bool Bnb4BlocksBf16(const std::uint16_t* in, std::size_t nblocks, std::size_t bs, const Codebook4& cb,
                    std::uint8_t* packed, float* absmax_out) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if (bs % 64 == 0) return Bnb4Bf16Avx3(in, nblocks, bs, cb, packed, absmax_out);
#endif
    return Bnb4Bf16Decoded(in, nblocks, bs, cb, packed, absmax_out);
}

}  // namespace HWY_NAMESPACE
}  // namespace amn::kernels::st
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace amn::kernels::st {

HWY_EXPORT(Bf16AbsMaxBlocks);
HWY_EXPORT(Bnb4BlocksBf16);
HWY_EXPORT(Code8Blocks);

void simd_code8_blocks(const float* x, std::size_t nblocks, std::size_t bs, const float* mid, const std::uint8_t* order,
                       std::uint8_t* q, float* absmax) {
    HWY_DYNAMIC_DISPATCH(Code8Blocks)(x, nblocks, bs, mid, order, q, absmax);
}

bool simd_bf16_absmax_blocks(const std::uint16_t* in, std::size_t n, std::size_t bs, float* out) {
    return HWY_DYNAMIC_DISPATCH(Bf16AbsMaxBlocks)(in, n, bs, out);
}
bool simd_bnb4_blocks_bf16(const std::uint16_t* in, std::size_t nblocks, std::size_t bs, const Codebook4& cb,
                           std::uint8_t* packed, float* absmax_out) {
    return HWY_DYNAMIC_DISPATCH(Bnb4BlocksBf16)(in, nblocks, bs, cb, packed, absmax_out);
}

}  // namespace amn::kernels::st
#endif  // HWY_ONCE
