// SPDX-License-Identifier: MIT OR Apache-2.0
// Streaming quantization of one Linear weight for forget to a safetensors
// scheme (forget_st_quant.hpp): row chunks through the st_kernels.hpp
// kernels (SIMD, chosen at run time), each chunk writing its slice of the
// payload and of the row-sliced scales, plus its round-trip error sums.
#include "forget_st_quant.hpp"

#include "anamnesis/error.hpp"
#include "forget_st_internal.hpp"
#include "huge_floats.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <variant>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;
namespace kern = st::kern;

template <class T>
std::span<const std::uint8_t> bytes_of(const T* p, std::size_t n) {
    return {reinterpret_cast<const std::uint8_t*>(p), n * sizeof(T)};
}
template <class T>
std::span<const std::uint8_t> bytes_of(const std::vector<T>& v) {
    return bytes_of(v.data(), v.size());
}

// Max |x| of every 128 × 128 tile of `nrows` rows of `C` columns (tiles
// row-major, ceil(C / 128) per tile row; edge tiles partial) into `f`.
void tile_absmax(const kern::StKernels& k, const float* x, u64 nrows, u64 C, std::vector<float>& f) {
    const u64 nbc = (C + 127) / 128;
    f.assign(((nrows + 127) / 128) * nbc, 0.0f);
    for (u64 r = 0; r < nrows; ++r)
        for (u64 c0 = 0, t = (r / 128) * nbc; c0 < C; c0 += 128, ++t)
            f[t] = std::max(f[t], k.absmax(x + r * C + c0, std::min<u64>(128, C - c0)));
}

// E4M3 codes of those rows with each tile's scale `f[t]` (compressed-tensors
// FP8_BLOCK, or DeepSeek's weight_scale_inv when `deepseek`), one row of
// round trip into `y` (nullable: none) at a time, `row_loss(r)` after each row.
template <class RowLoss>
void encode_tiles(const kern::StKernels& k, const float* x, u64 nrows, u64 C, const std::vector<float>& f,
                  bool deepseek, DType wdtype, std::uint8_t* q, float* y, RowLoss&& row_loss) {
    const u64 nbc = (C + 127) / 128;
    for (u64 r = 0; r < nrows; ++r) {
        for (u64 c0 = 0, t = (r / 128) * nbc; c0 < C; c0 += 128, ++t)
            k.fp8_encode(x + r * C + c0, std::min<u64>(128, C - c0), f[t], deepseek, wdtype, q + r * C + c0,
                         y ? y + c0 : nullptr);
        row_loss(r);
    }
}

}  // namespace

struct WeightQuantizer::Impl {
    Impl(const StScheme& s, u64 r, u64 c, DType w, const kern::StKernels& kk, bool ml)
        : scheme(s), R(r), C(c), wdtype(w), k(kk), measure_loss(ml) {}
    StScheme scheme;
    u64 R, C;
    DType wdtype;
    const kern::StKernels& k;
    bool measure_loss;
    // bitsandbytes 4-bit
    kern::Codebook4 cb{};
    st::Bnb4Result bnb;          // absmax of every block (double quant) and its results
    std::vector<float> am_deq;   // double quant: the absmax a loader dequantizes
    // Double quant without the loss: every absmax as the chunks store them (not
    // zeroed first: its pages are faulted in by the workers), moved into bnb by after_pass().
    detail::HugeFloats absmax_raw;
    // FP8 per tensor
    std::vector<float> row_amax;
    float tensor_scale = 0.0f;
    // compressed-tensors INT: zero points of every group (packed down dim 0 at the end)
    std::vector<std::int8_t> zp;

    u64 esize() const { return wdtype == DType::F32 ? 4 : 2; }
};

WeightQuantizer::WeightQuantizer(const StScheme& scheme, u64 R, u64 C, DType wdtype, const kern::StKernels* kernels,
                                 bool measure_loss)
    : impl_(std::make_unique<Impl>(scheme, R, C, wdtype, kernels ? *kernels : kern::st_kernels(), measure_loss)) {
    Impl& m = *impl_;
    if (const auto* b = std::get_if<Bnb4Target>(&scheme)) {
        m.bnb.quant_map = kern::bnb4_quant_map(b->kind);
        m.cb = kern::make_codebook4(m.bnb.quant_map.data());
    }
}

void WeightQuantizer::start() {
    Impl& m = *impl_;
    if (const auto* b = std::get_if<Bnb4Target>(&m.scheme)) {
        const u64 blocks = (m.R * m.C + b->blocksize - 1) / b->blocksize;
        if (b->double_quant && m.measure_loss) m.bnb.absmax.resize(blocks);  // filled by the first pass
        else if (b->double_quant) m.absmax_raw = detail::HugeFloats(blocks);  // by the chunks; uninitialized
    } else if (const auto* f = std::get_if<Fp8CtTarget>(&m.scheme); f && f->granularity == st::Fp8Granularity::Tensor) {
        m.row_amax.resize(m.R);
    } else if (const auto* q = std::get_if<PackedIntTarget>(&m.scheme); q && !q->symmetric) {
        m.zp.resize(m.R * (q->group_size ? m.C / q->group_size : 1));
    }
}

WeightQuantizer::~WeightQuantizer() = default;

u64 WeightQuantizer::row_granularity() const noexcept {
    const Impl& m = *impl_;
    if (const auto* b = std::get_if<Bnb4Target>(&m.scheme)) return b->blocksize / std::gcd<u64>(m.C, b->blocksize);
    if (const auto* f = std::get_if<Fp8CtTarget>(&m.scheme); f && f->granularity == st::Fp8Granularity::Block) return 128;
    if (std::holds_alternative<Fp8DeepseekTarget>(m.scheme)) return 128;
    return 1;
}

bool WeightQuantizer::needs_prepass() const noexcept {
    const Impl& m = *impl_;
    // Double quantization needs every absmax first only for the round trip (the absmax a
    // loader dequantizes); without it the codes don't depend on it (after_pass()).
    if (const auto* b = std::get_if<Bnb4Target>(&m.scheme)) return b->double_quant && m.measure_loss;
    if (const auto* f = std::get_if<Fp8CtTarget>(&m.scheme)) return f->granularity == st::Fp8Granularity::Tensor;
    return false;
}

bool WeightQuantizer::loss_flags_nonfinite() const noexcept {
    return impl_->measure_loss && std::holds_alternative<Bnb4Target>(impl_->scheme);
}

void WeightQuantizer::prepass(const float* x, u64 row0, u64 nrows) {
    Impl& m = *impl_;
    if (const auto* b = std::get_if<Bnb4Target>(&m.scheme)) {
        // The absmax the encoder stores: full blocks as they are, the last partial block clamped.
        const u64 n = nrows * m.C, bs = b->blocksize, block0 = row0 * m.C / bs;
        float* am = m.bnb.absmax.data() + block0;
        m.k.absmax_blocks(x, n, bs, am);
        if (n % bs != 0) am[n / bs] = std::max(am[n / bs], 1e-38f);
        return;
    }
    for (u64 r = 0; r < nrows; ++r) m.row_amax[row0 + r] = m.k.absmax(x + r * m.C, m.C);
}

bool WeightQuantizer::has_bf16_prepass() const noexcept {
    const Impl& m = *impl_;
    if (m.wdtype != DType::BF16) return false;
    if (const auto* b = std::get_if<Bnb4Target>(&m.scheme)) return b->double_quant;
    const auto* f = std::get_if<Fp8CtTarget>(&m.scheme);
    return f && f->granularity == st::Fp8Granularity::Tensor;
}

bool WeightQuantizer::prepass_bf16(const std::uint16_t* in, u64 row0, u64 nrows) {
    Impl& m = *impl_;
    if (const auto* b = std::get_if<Bnb4Target>(&m.scheme)) {
        // As prepass(): the absmax the encoder stores, the last partial block clamped.
        const u64 n = nrows * m.C, bs = b->blocksize;
        float* am = m.bnb.absmax.data() + row0 * m.C / bs;
        if (!m.k.bf16_absmax_blocks(in, n, bs, am)) return false;
        if (n % bs != 0) am[n / bs] = std::max(am[n / bs], 1e-38f);
        return true;
    }
    for (u64 r = 0; r < nrows; ++r) {
        const std::uint16_t b = m.k.bf16_absmax_bits(in + r * m.C, m.C);
        if (b >= 0x7F80u) return false;
        m.row_amax[row0 + r] = st::detail::float_of(std::uint32_t(b) << 16);
    }
    return true;
}

bool WeightQuantizer::has_bf16_encode() const noexcept {
    const Impl& m = *impl_;
    return m.wdtype == DType::BF16 && !m.measure_loss &&
           (std::holds_alternative<Bnb4Target>(m.scheme) || std::holds_alternative<BnbInt8Target>(m.scheme) ||
            std::holds_alternative<Fp8CtTarget>(m.scheme) || std::holds_alternative<Fp8DeepseekTarget>(m.scheme) ||
            std::holds_alternative<PackedIntTarget>(m.scheme));
}

bool WeightQuantizer::encode_bf16(const std::uint16_t* in, u64 row0, u64 nrows, QuantScratch& s, const PutFn& put,
                                  kern::LossSums& loss) {
    Impl& m = *impl_;
    const u64 C = m.C, n = nrows * C;
    // Max |x| of every 128 × 128 tile of these rows from the bits into s.f (false: a NaN/±inf).
    auto tile_absmax_bf16 = [&]() {
        const u64 nbc = (C + 127) / 128;
        s.f.assign(((nrows + 127) / 128) * nbc, 0.0f);
        s.y.resize(nbc);  // one row's 128-column maxima
        for (u64 r = 0; r < nrows; ++r) {
            if (!m.k.bf16_absmax_blocks(in + r * C, C, 128, s.y.data())) return false;
            float* f = s.f.data() + (r / 128) * nbc;
            for (u64 t = 0; t < nbc; ++t) f[t] = std::max(f[t], s.y[t]);
        }
        return true;
    };
    // The codes of those rows, each 128-column piece with its tile's scale.
    auto encode_tiles_bf16 = [&](bool deepseek) {
        const u64 nbc = (C + 127) / 128;
        for (u64 r = 0; r < nrows; ++r)
            m.k.fp8_encode_bf16(in + r * C, C, s.f.data() + (r / 128) * nbc, 128, deepseek, s.a.data() + r * C);
    };
    // Everything is computed before the first put(): false leaves nothing written.
    return std::visit(
        overloaded{
            [&](const Bnb4Target& b) {
                const u64 bs = b.blocksize, e0 = row0 * C, block0 = e0 / bs;
                s.a.resize((n + 1) / 2);
                s.f.resize((n + bs - 1) / bs);
                // Double quant: the absmax straight into what after_pass() takes.
                float* am = b.double_quant ? m.absmax_raw.get() + block0 : s.f.data();
                if (!kern::bnb4_run_bf16(m.k, in, n, bs, m.cb, s.a.data(), am)) return false;
                put(0, e0 / 2, s.a);
                if (!b.double_quant) put(1, block0 * 4, bytes_of(s.f));
                return true;
            },
            [&](const BnbInt8Target&) {
                s.q.resize(n);
                s.f.resize(nrows);
                for (u64 r = 0; r < nrows; ++r)
                    if (!m.k.int8_row_bf16(in + r * C, C, s.q.data() + r * C, &s.f[r])) return false;
                // A row whose F16 cast overflows (SCB = inf) dequantizes to NaN throughout.
                for (u64 r = 0; r < nrows; ++r)
                    if (std::isinf(s.f[r])) loss.nonfinite += C;
                put(0, row0 * C, bytes_of(s.q));
                put(1, row0 * 4, bytes_of(s.f));
                return true;
            },
            [&](const Fp8CtTarget& f) {
                s.a.resize(n);
                if (f.granularity == st::Fp8Granularity::Tensor) {
                    // The first pass (prepass_bf16) found every row finite.
                    m.k.fp8_encode_bf16(in, n, &m.tensor_scale, n, false, s.a.data());
                } else if (f.granularity == st::Fp8Granularity::Channel) {
                    s.f.resize(nrows);
                    for (u64 r = 0; r < nrows; ++r) {
                        const std::uint32_t bits = m.k.bf16_absmax_bits(in + r * C, C);
                        if (bits >= 0x7F80u) return false;
                        s.f[r] = st::detail::fp8_ct_scale(st::detail::float_of(bits << 16), m.wdtype);
                        m.k.fp8_encode_bf16(in + r * C, C, &s.f[r], C, false, s.a.data() + r * C);
                    }
                    put(1, row0 * m.esize(), st::encode_floats(s.f, m.wdtype));
                } else {
                    if (!tile_absmax_bf16()) return false;
                    for (float& v : s.f) v = st::detail::fp8_ct_scale(v, m.wdtype);
                    encode_tiles_bf16(false);
                    put(1, (row0 / 128) * ((C + 127) / 128) * m.esize(), st::encode_floats(s.f, m.wdtype));
                }
                put(0, row0 * C, s.a);
                return true;
            },
            [&](const Fp8DeepseekTarget& d) {
                s.a.resize(n);
                if (!tile_absmax_bf16()) return false;
                for (float& v : s.f) v = st::detail::deepseek_sf(v, d.ue8m0);
                encode_tiles_bf16(true);
                put(0, row0 * C, s.a);
                put(1, (row0 / 128) * ((C + 127) / 128) * 4, bytes_of(s.f));
                return true;
            },
            [&](const PackedIntTarget& p) {
                // As encode(): the packed rows, the scales, the zero points kept for finish().
                const u64 gs = p.group_size ? p.group_size : C, G = C / gs;
                const u64 words = (C * p.bits + 31) / 32;
                s.f.resize(nrows * G);
                s.z.resize(nrows * G);
                s.b.resize(nrows * words * 4);
                if (!m.k.ct_int_rows_bf16(in, nrows, C, gs, p.bits, p.symmetric, s.f.data(), s.z.data(),
                                          reinterpret_cast<std::int32_t*>(s.b.data())))
                    return false;
                if (!p.symmetric) std::copy(s.z.begin(), s.z.end(), m.zp.begin() + std::ptrdiff_t(row0 * G));
                put(0, row0 * words * 4, s.b);
                put(1, row0 * G * m.esize(), st::encode_floats(s.f, m.wdtype));
                return true;
            },
        },
        m.scheme);
}

void WeightQuantizer::finish_prepass() {
    Impl& m = *impl_;
    if (std::holds_alternative<Bnb4Target>(m.scheme)) {
        kern::bnb4_double_quant(m.bnb);
        m.am_deq = kern::bnb4_absmax_dequant(m.bnb);
        std::vector<float>().swap(m.bnb.absmax);  // the codes, nested absmax and offset are what is stored
        return;
    }
    float a = 0.0f;
    for (const float v : m.row_amax) a = std::max(a, v);
    m.tensor_scale = st::detail::fp8_ct_scale(a, m.wdtype);
}

void WeightQuantizer::encode(const float* x, u64 row0, u64 nrows, QuantScratch& s, const PutFn& put,
                             kern::LossSums& loss) {
    Impl& m = *impl_;
    const u64 C = m.C, n = nrows * C;
    // The dequantized values y only feed the loss: except for bitsandbytes
    // 4-bit (faster over the whole chunk, docs/benchmarks.md) they are made and
    // summed a row (or a flat piece of kPiece values) at a time, in L1/L2.
    // Without measure_loss the kernels get no y (null) and nothing is summed.
    constexpr u64 kPiece = 16384;
    const bool ml = m.measure_loss;
    auto row_loss = [&](u64 r) {
        if (ml) m.k.loss(x + r * C, s.y.data(), C, loss);
    };
    // Grow only: shrinking and growing again would zero-fill the buffer every chunk.
    auto need_y = [&](u64 k) {
        if (ml && s.y.size() < k) s.y.resize(k);
    };
    need_y(std::min<u64>(n, std::max<u64>(C, kPiece)));
    float* const y = ml ? s.y.data() : nullptr;
    std::visit(
        overloaded{
            [&](const Bnb4Target& b) {
                const u64 bs = b.blocksize, e0 = row0 * C, block0 = e0 / bs, nb = (n + bs - 1) / bs;
                s.a.resize((n + 1) / 2);
                s.f.resize(nb);
                // One call over the chunk, then the loss: measured faster than pieces of
                // 16–64 Ki values with the loss after each, and than the loss summed inside
                // the kernel (docs/benchmarks.md).
                need_y(n);
                kern::bnb4_run(m.k, x, n, bs, m.cb, b.double_quant && ml ? m.am_deq.data() + block0 : nullptr, m.wdtype,
                               s.a.data(), s.f.data(), ml ? s.y.data() : nullptr);
                if (ml) m.k.loss(x, s.y.data(), n, loss);
                put(0, e0 / 2, s.a);
                if (!b.double_quant) put(1, block0 * 4, bytes_of(s.f));
                else if (!ml) std::copy(s.f.begin(), s.f.end(), m.absmax_raw.get() + block0);  // after_pass()
            },
            [&](const BnbInt8Target&) {
                s.q.resize(n);
                s.f.resize(nrows);
                for (u64 r = 0; r < nrows; ++r) {
                    m.k.int8_row(x + r * C, C, s.q.data() + r * C, &s.f[r], y);
                    row_loss(r);
                    // A row whose F16 cast overflows (SCB = inf) dequantizes to NaN throughout.
                    if (!ml && std::isinf(s.f[r])) loss.nonfinite += C;
                }
                put(0, row0 * C, bytes_of(s.q));
                put(1, row0 * 4, bytes_of(s.f));
            },
            [&](const Fp8CtTarget& f) {
                s.a.resize(n);
                if (f.granularity == st::Fp8Granularity::Tensor) {
                    for (u64 i = 0; i < n; i += kPiece) {
                        const u64 len = std::min(kPiece, n - i);
                        m.k.fp8_encode(x + i, len, m.tensor_scale, false, m.wdtype, s.a.data() + i, y);
                        if (ml) m.k.loss(x + i, y, len, loss);
                    }
                } else if (f.granularity == st::Fp8Granularity::Channel) {
                    s.f.resize(nrows);
                    for (u64 r = 0; r < nrows; ++r) {
                        s.f[r] = st::detail::fp8_ct_scale(m.k.absmax(x + r * C, C), m.wdtype);
                        m.k.fp8_encode(x + r * C, C, s.f[r], false, m.wdtype, s.a.data() + r * C, y);
                        row_loss(r);
                    }
                    const auto enc = st::encode_floats(s.f, m.wdtype);
                    put(1, row0 * m.esize(), enc);
                } else {
                    // 128×128 tiles; chunks start on a tile row.
                    const u64 nbc = (C + 127) / 128;
                    tile_absmax(m.k, x, nrows, C, s.f);
                    for (float& v : s.f) v = st::detail::fp8_ct_scale(v, m.wdtype);
                    encode_tiles(m.k, x, nrows, C, s.f, false, m.wdtype, s.a.data(), y, row_loss);
                    const auto enc = st::encode_floats(s.f, m.wdtype);
                    put(1, (row0 / 128) * nbc * m.esize(), enc);
                }
                put(0, row0 * C, s.a);
            },
            [&](const Fp8DeepseekTarget& d) {
                const u64 nbc = (C + 127) / 128;
                s.a.resize(n);
                tile_absmax(m.k, x, nrows, C, s.f);
                for (float& v : s.f) v = st::detail::deepseek_sf(v, d.ue8m0);
                encode_tiles(m.k, x, nrows, C, s.f, true, m.wdtype, s.a.data(), y, row_loss);
                put(0, row0 * C, s.a);
                put(1, (row0 / 128) * nbc * 4, bytes_of(s.f));
            },
            [&](const PackedIntTarget& p) {
                const u64 gs = p.group_size ? p.group_size : C, G = C / gs;
                const u64 words = (C * p.bits + 31) / 32;
                const float qmin = -float(1u << (p.bits - 1)), qmax = float((1u << (p.bits - 1)) - 1);
                s.q.resize(n);
                s.f.resize(nrows * G);
                // Per row: every group's min/max first, then the scales and zero points, then
                // the codes (no min/max → scale → codes chain in front of each group).
                s.mm.resize(2 * G);
                s.z.resize(G);
                for (u64 r = 0; r < nrows; ++r) {
                    const float* xr = x + r * C;
                    for (u64 g = 0; g < G; ++g) m.k.minmax(xr + g * gs, gs, &s.mm[2 * g], &s.mm[2 * g + 1]);
                    for (u64 g = 0; g < G; ++g) {
                        st::detail::ct_int_qparams(s.mm[2 * g], s.mm[2 * g + 1], p.bits, p.symmetric, m.wdtype,
                                                   s.f[r * G + g], s.z[g]);
                        if (!p.symmetric) m.zp[(row0 + r) * G + g] = s.z[g];
                    }
                    for (u64 g = 0; g < G; ++g)
                        m.k.int_encode(xr + g * gs, gs, s.f[r * G + g], float(s.z[g]), qmin, qmax, m.wdtype,
                                       s.q.data() + r * C + g * gs, y ? y + g * gs : nullptr);
                    row_loss(r);
                }
                s.b.resize(nrows * words * 4);
                auto* packed = reinterpret_cast<std::int32_t*>(s.b.data());
                for (u64 r = 0; r < nrows; ++r) m.k.pack_int(s.q.data() + r * C, C, p.bits, packed + r * words);
                put(0, row0 * words * 4, s.b);
                const auto enc = st::encode_floats(s.f, m.wdtype);
                put(1, row0 * G * m.esize(), enc);
            },
        },
        m.scheme);
}

bool WeightQuantizer::needs_after_pass() const noexcept {
    const Impl& m = *impl_;
    const auto* b = std::get_if<Bnb4Target>(&m.scheme);
    return b && b->double_quant && !m.measure_loss;
}

void WeightQuantizer::after_pass(const PutFn& put) {
    Impl& m = *impl_;
    const u64 blocks = (m.R * m.C + std::get<Bnb4Target>(m.scheme).blocksize - 1) / std::get<Bnb4Target>(m.scheme).blocksize;
    kern::bnb4_double_quant(m.bnb, {m.absmax_raw.get(), blocks});  // centered in place
    m.absmax_raw.reset();  // the codes, nested absmax and offset are what is stored
    put(1, 0, m.bnb.absmax_q);                // weight (the U8 codes), by this worker
    std::vector<std::uint8_t>().swap(m.bnb.absmax_q);
}

u64 WeightQuantizer::finish(const PutFn& put, const TailFn& tail) {
    Impl& m = *impl_;
    u64 tail_bytes = 0;
    std::visit(overloaded{
                   [&](const Bnb4Target& b) {
                       std::size_t j = 1;
                       if (b.double_quant && !needs_after_pass()) put(j, 0, m.bnb.absmax_q);  // else after_pass() did
                       ++j;
                       put(j++, 0, bytes_of(m.bnb.quant_map));
                       if (b.double_quant) {
                           put(j++, 0, bytes_of(m.bnb.nested_absmax));
                           put(j++, 0, bytes_of(m.bnb.nested_quant_map));
                       }
                       kern::bnb4_quant_state(m.bnb, b.kind, b.blocksize, m.wdtype, m.R, m.C, b.double_quant);
                       std::vector<float>().swap(m.am_deq);
                       const auto& js = m.bnb.quant_state_json;
                       tail(j, bytes_of(js.data(), js.size()));
                       tail_bytes = js.size();
                   },
                   [&](const BnbInt8Target&) {
                       const std::uint8_t zero = 0;  // weight_format: row-major
                       put(2, 0, {&zero, 1});
                   },
                   [&](const Fp8CtTarget& f) {
                       if (f.granularity == st::Fp8Granularity::Tensor) {
                           const float sc[1] = {m.tensor_scale};
                           put(1, 0, st::encode_floats(sc, m.wdtype));
                       }
                   },
                   [&](const Fp8DeepseekTarget&) {},
                   [&](const PackedIntTarget& p) {
                       std::size_t j = 2;
                       if (!p.symmetric) {
                           // weight_zero_point: int8 [R, G] packed down dim 0 → [⌈R·bits/32⌉, G].
                           const u64 G = p.group_size ? m.C / p.group_size : 1;
                           const u64 zrows = (m.R * p.bits + 31) / 32;
                           std::vector<std::int32_t> zpp(zrows * G);
                           for (u64 g = 0; g < G; ++g)
                               st::detail::pack_int32(m.zp.data() + g, m.R, G, p.bits, zpp.data() + g, G);
                           put(j++, 0, bytes_of(zpp));
                       }
                       const std::int64_t shape[2] = {std::int64_t(m.R), std::int64_t(m.C)};
                       put(j, 0, bytes_of(shape, 2));
                   },
               },
               m.scheme);
    return tail_bytes;
}

}  // namespace amn::forget_st_internal
