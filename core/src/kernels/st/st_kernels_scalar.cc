// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference of the row-chunk kernels (st_kernels.hpp): one binary32
// operation at a time, in the order of the canonical libraries (bitsandbytes'
// default torch backend, compressed-tensors 0.18, DeepGEMM, LLM.int8). The
// SIMD kernels (st_simd.cc) must give the same bytes.
#include "kernels/st/st_kernels.hpp"

#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>
#include <numeric>

namespace amn::kernels::st {

using amn::st::detail::round_to;

Codebook4 make_codebook4(const float* quant_map) {
    Codebook4 cb{};
    std::array<std::int32_t, 16> order{};
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int32_t a, std::int32_t b) { return quant_map[a] < quant_map[b]; });
    for (int i = 0; i < 16; ++i) {
        cb.order[i] = order[std::size_t(i)];
        cb.sorted[i] = quant_map[order[std::size_t(i)]];
    }
    for (int i = 0; i < 15; ++i) cb.mid[i] = (cb.sorted[i] + cb.sorted[i + 1]) / 2.0f;
    int k = 0;
    for (const float m : cb.mid) k += m < 0.0f ? 1 : 0;
    cb.zero_code = cb.order[k];
    // Cells of the SIMD shortcut, with the kernel's own f32 expression.
    int per_cell[32] = {};
    int cell_of_mid[15];
    for (int t = 0; t < 15; ++t) {
        const float v = std::clamp(cb.mid[t], -1.0f, 1.0f);
        cell_of_mid[t] = std::min(int((v + 1.0f) * 16.0f), 31);
        ++per_cell[cell_of_mid[t]];
    }
    cb.cells_ok = true;
    for (int c = 0; c < 32; ++c) {
        int below = 0;
        for (int t = 0; t < 15; ++t) below += cell_of_mid[t] < c ? 1 : 0;
        cb.cell_k[c] = below;
        cb.cells_ok = cb.cells_ok && per_cell[c] <= 1;
    }
    return cb;
}

const float* e4m3_values() noexcept {
    static const std::array<float, 256> t = [] {
        std::array<float, 256> v{};
        for (int i = 0; i < 256; ++i) {
            const int e = (i >> 3) & 15, m = i & 7;
            float a;
            if (e == 15 && m == 7) a = NAN;
            else if (e == 0) a = std::ldexp(float(m), -9);
            else a = std::ldexp(float(8 + m), e - 10);
            v[std::size_t(i)] = (i & 0x80) ? -a : a;
        }
        return v;
    }();
    return t.data();
}

namespace {

std::size_t first_nonfinite(const float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!std::isfinite(x[i])) return i;
    return n;
}

std::size_t bf16_decode_checked(const std::uint16_t* in, std::size_t n, float* out) {
    std::size_t first = n;
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = amn::st::detail::float_of(std::uint32_t(in[i]) << 16);
        if (first == n && (in[i] & 0x7F80u) == 0x7F80u) first = i;  // exponent all ones: inf or NaN
    }
    return first;
}

std::uint16_t bf16_absmax_bits(const std::uint16_t* in, std::size_t n) {
    std::uint16_t m = 0;
    for (std::size_t i = 0; i < n; ++i) m = std::max<std::uint16_t>(m, std::uint16_t(in[i] & 0x7FFFu));
    return m;
}

float absmax(const float* x, std::size_t n) {
    float a = 0.0f;
    for (std::size_t i = 0; i < n; ++i) a = std::max(a, std::fabs(x[i]));
    return a;
}

void absmax_blocks(const float* x, std::size_t n, std::size_t bs, float* out) {
    for (std::size_t i = 0, b = 0; i < n; i += bs, ++b) out[b] = absmax(x + i, std::min(bs, n - i));
}

void minmax(const float* x, std::size_t n, float* mn, float* mx) {
    float lo = 0.0f, hi = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
    }
    *mn = lo, *mx = hi;
}

void bnb4_blocks(const float* x, std::size_t nblocks, std::size_t blocksize, const Codebook4& cb, const float* am_deq,
                 DType wdtype, std::uint8_t* packed, float* absmax_out, float* y) {
    for (std::size_t b = 0; b < nblocks; ++b) {
        const float* xb = x + b * blocksize;
        const float a = absmax(xb, blocksize);
        absmax_out[b] = a;
        const float inv = 1.0f / std::max(a, 1e-38f);
        const float am = am_deq ? am_deq[b] : a;
        for (std::size_t i = 0; i < blocksize; i += 2) {
            std::int32_t code[2];
            for (std::size_t h = 0; h < 2; ++h) {
                const float v = std::clamp(xb[i + h] * inv, -1.0f, 1.0f);
                int k = 0;
                for (const float m : cb.mid) k += m < v ? 1 : 0;
                code[h] = cb.order[k];
                if (y) y[b * blocksize + i + h] = round_to(wdtype, cb.sorted[k] * am);
            }
            packed[(b * blocksize + i) / 2] = std::uint8_t((code[0] << 4) | code[1]);
        }
    }
}

void fp8_encode(const float* x, std::size_t n, float s, bool deepseek, DType wdtype, std::uint8_t* q, float* y) {
    const float* t = e4m3_values();
    if (deepseek) {
        const float inv = 1.0f / s;
        for (std::size_t i = 0; i < n; ++i) {
            q[i] = amn::st::e4m3fn_from_f32(x[i] * inv);
            if (y) y[i] = t[q[i]] * s;
        }
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        float v = round_to(wdtype, x[i] / s);
        v = round_to(wdtype, v + 0.0f);
        v = std::clamp(v, -448.0f, 448.0f);
        q[i] = amn::st::e4m3fn_from_f32(v);
        if (y) y[i] = round_to(wdtype, t[q[i]] * s);
    }
}

void int_encode(const float* x, std::size_t n, float s, float z, float qmin, float qmax, DType wdtype, std::int8_t* q,
                float* y) {
    for (std::size_t i = 0; i < n; ++i) {
        float v = round_to(wdtype, x[i] / s);
        v = round_to(wdtype, v + z);
        v = std::clamp(v, qmin, qmax);
        q[i] = std::int8_t(std::nearbyint(v));  // torch.round: half to even
        if (y) y[i] = round_to(wdtype, round_to(wdtype, float(q[i]) - z) * s);
    }
}

void pack_int(const std::int8_t* q, std::size_t n, unsigned bits, std::int32_t* out) {
    amn::st::detail::pack_int32(q, n, 1, bits, out, 1);
}

void int8_row(const float* x, std::size_t n, std::int8_t* q, float* scb, float* y) {
    float amax = 0.0f;
    for (std::size_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs(round_to(DType::F16, x[i])));
    *scb = amax;
    const float scale = (1.0f / amax) * 127.0f;  // SCB.reciprocal() * 127: two roundings
    for (std::size_t i = 0; i < n; ++i) {
        const float p = round_to(DType::F16, x[i]) * scale;
        q[i] = std::isnan(p) ? std::int8_t(0) : std::int8_t(std::nearbyint(p));
        if (y) y[i] = (float(q[i]) * amax) * 7.874015718698502e-3f;
    }
}

bool bf16_absmax_blocks(const std::uint16_t* in, std::size_t n, std::size_t bs, float* out) {
    for (std::size_t i = 0, b = 0; i < n; i += bs, ++b) {
        const std::uint16_t m = bf16_absmax_bits(in + i, std::min(bs, n - i));
        if (m >= 0x7F80u) return false;
        out[b] = amn::st::detail::float_of(std::uint32_t(m) << 16);
    }
    return true;
}

// The reference: each block decoded (checked), then bnb4_blocks.
bool bnb4_blocks_bf16(const std::uint16_t* in, std::size_t nblocks, std::size_t bs, const Codebook4& cb,
                      std::uint8_t* packed, float* absmax_out) {
    std::vector<float> x(bs);
    for (std::size_t b = 0; b < nblocks; ++b) {
        if (bf16_decode_checked(in + b * bs, bs, x.data()) < bs) return false;
        bnb4_blocks(x.data(), 1, bs, cb, nullptr, DType::BF16, packed + b * bs / 2, absmax_out + b, nullptr);
    }
    return true;
}

// The references: decoded (and for int8 checked), then the f32 reference.
void fp8_encode_bf16(const std::uint16_t* in, std::size_t n, const float* s, std::size_t seg, bool deepseek,
                     std::uint8_t* q) {
    std::vector<float> x(n);
    bf16_decode_checked(in, n, x.data());
    for (std::size_t a = 0, t = 0; a < n; a += seg, ++t)
        fp8_encode(x.data() + a, std::min(seg, n - a), s[t], deepseek, DType::BF16, q + a, nullptr);
}

bool int8_row_bf16(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb) {
    std::vector<float> x(n);
    if (bf16_decode_checked(in, n, x.data()) < n) return false;
    int8_row(x.data(), n, q, scb, nullptr);
    return true;
}

void code8_blocks(const float* x, std::size_t nblocks, std::size_t bs, const float* mid, const std::uint8_t* order,
                  std::uint8_t* q, float* absmax_out) {
    for (std::size_t b = 0; b < nblocks; ++b) {
        const float* xb = x + b * bs;
        const float a = absmax(xb, bs);
        absmax_out[b] = a;
        const float inv = 1.0f / std::max(a, 1e-38f);
        for (std::size_t i = 0; i < bs; ++i) {
            const float v = std::clamp(xb[i] * inv, -1.0f, 1.0f);
            std::size_t k = 0;
            while (k < 255 && mid[k] < v) ++k;
            q[b * bs + i] = order[k];
        }
    }
}

// The reference: each row decoded (checked), then per group minmax, ct_int_qparams and
// int_encode, and the row packed by pack_int (the f32 path of forget_st_ct_int.cc).
bool ct_int_rows_bf16(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, unsigned bits,
                      bool symmetric, float* scale, std::int8_t* zp, std::int32_t* packed) {
    const std::size_t G = C / gs, words = (C * bits + 31) / 32;
    const float qmin = -float(1u << (bits - 1)), qmax = float((1u << (bits - 1)) - 1);
    std::vector<float> x(C);
    std::vector<std::int8_t> q(C);
    for (std::size_t r = 0; r < nrows; ++r) {
        if (bf16_decode_checked(in + r * C, C, x.data()) < C) return false;
        for (std::size_t g = 0; g < G; ++g) {
            float mn, mx, s;
            std::int8_t z;
            minmax(x.data() + g * gs, gs, &mn, &mx);
            amn::st::detail::ct_int_qparams(mn, mx, bits, symmetric, DType::BF16, s, z);
            scale[r * G + g] = s;
            if (zp) zp[r * G + g] = z;
            int_encode(x.data() + g * gs, gs, s, float(z), qmin, qmax, DType::BF16, q.data() + g * gs, nullptr);
        }
        pack_int(q.data(), C, bits, packed + r * words);
    }
    return true;
}

void loss(const float* x, const float* y, std::size_t n, LossSums& acc) {
    for (std::size_t i = 0; i < n; ++i) acc.add(x[i], y[i]);
}

}  // namespace

void bnb4_run(const StKernels& k, const float* x, std::size_t n, std::size_t blocksize, const Codebook4& cb,
              const float* am_deq, DType wdtype, std::uint8_t* packed, float* absmax_out, float* y) {
    const std::size_t full = n / blocksize, rem = n - full * blocksize;
    k.bnb4_blocks(x, full, blocksize, cb, am_deq, wdtype, packed, absmax_out, y);
    if (rem == 0) return;
    const float* xb = x + full * blocksize;
    const float ac = std::max(absmax(xb, rem), 1e-38f);
    absmax_out[full] = ac;
    const float am = am_deq ? am_deq[full] : ac;
    std::uint8_t* p = packed + full * blocksize / 2;
    for (std::size_t i = 0; i < rem; i += 2) {
        std::int32_t code[2] = {cb.zero_code, cb.zero_code};
        for (std::size_t h = 0; h < 2 && i + h < rem; ++h) {
            const float v = std::clamp(xb[i + h] / ac, -1.0f, 1.0f);
            int kk = 0;
            for (const float m : cb.mid) kk += m < v ? 1 : 0;
            code[h] = cb.order[kk];
            if (y) y[full * blocksize + i + h] = round_to(wdtype, cb.sorted[kk] * am);
        }
        p[i / 2] = std::uint8_t((code[0] << 4) | code[1]);
    }
}

bool bnb4_run_bf16(const StKernels& k, const std::uint16_t* in, std::size_t n, std::size_t blocksize,
                   const Codebook4& cb, std::uint8_t* packed, float* absmax_out) {
    const std::size_t full = n / blocksize, rem = n - full * blocksize;
    if (!k.bnb4_blocks_bf16(in, full, blocksize, cb, packed, absmax_out)) return false;
    if (rem == 0) return true;
    std::vector<float> x(rem);
    if (k.bf16_decode_checked(in + full * blocksize, rem, x.data()) < rem) return false;
    bnb4_run(k, x.data(), rem, blocksize, cb, nullptr, DType::BF16, packed + full * blocksize / 2, absmax_out + full,
             nullptr);
    return true;
}

const StKernels& scalar_kernels() noexcept {
    static const StKernels k{"scalar", first_nonfinite, bf16_decode_checked, absmax, absmax_blocks, minmax, bnb4_blocks, fp8_encode, int_encode, pack_int, int8_row, loss, bf16_absmax_bits,
                             bf16_absmax_blocks, bnb4_blocks_bf16,
                             fp8_encode_bf16, int8_row_bf16, code8_blocks,
                             ct_int_rows_bf16};
    return k;
}

}  // namespace amn::kernels::st
