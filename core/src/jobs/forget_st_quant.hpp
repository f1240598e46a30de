// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the streaming quantization of one Linear weight for forget to a
// safetensors scheme (forget_st.cc runs it on the executor). A weight is
// quantized in row chunks (each a multiple of row_granularity() rows) that
// run in any order on any worker; each chunk writes its slice of every
// row-sliced output tensor and returns its round-trip error sums. Values
// that need the whole tensor first — the per-tensor FP8 scale and the
// bitsandbytes double-quantization offset (mean of all absmax) — come from
// a first pass (prepass() over every chunk, then finish_prepass()). The
// small whole-tensor outputs (quant_map, nested_*, absmax codes of a double
// quantization, zero points, weight_shape, quant_state JSON) are written by
// finish(). Bytes are those of the st_quantize.hpp whole-tensor quantizers
// (same kernels, same order of operations).

#include "anamnesis/forget_st.hpp"
#include "exec/scheme_encoder.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace amn::forget_st_internal {

/// Write `bytes` at byte `offset` of output tensor j (the order of out_specs).
using PutFn = exec::SlotWriteFn;
/// Give the tail output tensor j (bitsandbytes quant_state) its bytes.
using TailFn = exec::TailSetFn;

/// Per-worker buffers reused across chunks.
struct QuantScratch {
    std::vector<float> y;
    std::vector<std::uint8_t> a, b;
    std::vector<std::int8_t> q;
    std::vector<float> f;
    std::vector<float> mm;       ///< compressed-tensors INT: min, max of each group of a row
    std::vector<std::int8_t> z;  ///< compressed-tensors INT: zero point of each group of a row (of every row: encode_bf16)
};

/// The bytes of `n` values at `p` / of a vector, for PutFn.
template <class T>
std::span<const std::uint8_t> bytes_of(const T* p, std::size_t n) {
    return {reinterpret_cast<const std::uint8_t*>(p), n * sizeof(T)};
}
template <class T>
std::span<const std::uint8_t> bytes_of(const std::vector<T>& v) {
    return bytes_of(v.data(), v.size());
}

/// The weight one quantizer encodes: R×C stored as `wdtype` (F32, BF16,
/// F16), the kernels it runs on and whether the round trip is measured.
struct QuantWeight {
    std::uint64_t R = 0, C = 0;
    DType wdtype = DType::F32;
    const kernels::st::StKernels* k = nullptr;  ///< never null
    bool measure_loss = true;
    /// Bytes of one value in the weight dtype (its scales are stored in it).
    std::uint64_t esize() const noexcept { return wdtype == DType::F32 ? 4 : 2; }
};

/// The steps of one safetensors scheme for one weight (see WeightQuantizer
/// for what each does). One subclass per scheme, made by its scheme row
/// (forget_st_rows.hpp); the defaults are those of a scheme that needs no
/// first pass, no after pass, no whole-tensor outputs and has no BF16 path.
class SchemeQuantizer {
public:
    explicit SchemeQuantizer(const QuantWeight& w) : w_(w) {}
    virtual ~SchemeQuantizer() = default;

    virtual void start() {}
    virtual std::uint64_t row_granularity() const noexcept { return 1; }
    virtual bool needs_prepass() const noexcept { return false; }
    virtual bool loss_flags_nonfinite() const noexcept { return false; }
    virtual void prepass(const float*, std::uint64_t, std::uint64_t) {}
    virtual bool has_bf16_prepass() const noexcept { return false; }
    virtual bool prepass_bf16(const std::uint16_t*, std::uint64_t, std::uint64_t) { return false; }
    virtual bool has_bf16_encode() const noexcept { return false; }
    virtual bool encode_bf16(const std::uint16_t*, std::uint64_t, std::uint64_t, QuantScratch&, const PutFn&,
                             kernels::st::LossSums&) {
        return false;
    }
    virtual void finish_prepass() {}
    virtual void encode(const float* x, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s, const PutFn& put,
                        kernels::st::LossSums& loss) = 0;
    virtual bool needs_after_pass() const noexcept { return false; }
    virtual void after_pass(const PutFn&) {}
    virtual std::uint64_t finish(const PutFn&, const TailFn&) { return 0; }

protected:
    /// encode_bf16() may replace encode(): a BF16 weight without measure_loss.
    bool bf16_direct() const noexcept { return w_.wdtype == DType::BF16 && !w_.measure_loss; }
    QuantWeight w_;
};

/// The round trip of one encode() call: the dequantized values `y()` (null
/// without measure_loss; the buffer of `s` grown only, never shrunk: that
/// would zero-fill it every chunk) and the loss of rows of `x` added to `loss`.
class RoundTrip {
public:
    /// Values summed a row (or a flat piece of kPiece values) at a time, in L1/L2.
    static constexpr std::uint64_t kPiece = 16384;
    RoundTrip(const QuantWeight& w, QuantScratch& s, const float* x, std::uint64_t nrows, kernels::st::LossSums& loss)
        : w_(w), s_(s), x_(x), loss_(loss) {
        need(std::min<std::uint64_t>(nrows * w.C, std::max<std::uint64_t>(w.C, kPiece)));
    }
    bool on() const noexcept { return w_.measure_loss; }
    /// At least `n` values in y (measure_loss only).
    void need(std::uint64_t n) {
        if (on() && s_.y.size() < n) s_.y.resize(n);
    }
    float* y() const noexcept { return on() ? s_.y.data() : nullptr; }
    /// The loss of row r of x (its round trip in y[0, C)).
    void row(std::uint64_t r) const {
        if (on()) w_.k->loss(x_ + r * w_.C, s_.y.data(), w_.C, loss_);
    }
    /// The loss of the `n` values at x + i (their round trip in y[0, n)).
    void flat(std::uint64_t i, std::uint64_t n) const {
        if (on()) w_.k->loss(x_ + i, s_.y.data(), n, loss_);
    }

private:
    const QuantWeight& w_;
    QuantScratch& s_;
    const float* x_;
    kernels::st::LossSums& loss_;
};

/// One Linear weight's quantizer: the steps of its scheme's SchemeQuantizer,
/// made by the scheme's row (no dispatch on the scheme type here).
class WeightQuantizer {
public:
    /// R×C weight stored as `wdtype` (F32, BF16, F16), quantized to `scheme`
    /// with `kernels` (default: kernels::st::st_kernels(), SIMD; the benchmark
    /// passes the scalar reference). `measure_loss` false: encode() makes no
    /// dequantized values and adds no error sums (StForgetOptions::measure_loss),
    /// except the `nonfinite` count of LLM.int8 rows whose F16 cast overflows
    /// (C per such row: every value of it dequantizes to NaN).
    WeightQuantizer(const QuantParams& scheme, std::uint64_t R, std::uint64_t C, DType wdtype,
                    const kernels::st::StKernels* kernels = nullptr, bool measure_loss = true);
    ~WeightQuantizer();

    /// Allocate what the quantizer holds whole (double-quant absmax, row
    /// amax, zero points); call once before the first prepass()/encode().
    void start() { q_->start(); }
    /// Chunks must start at a multiple of this many rows (bitsandbytes:
    /// whole blocks of the flattened tensor; 128×128 tiles: 128 rows).
    std::uint64_t row_granularity() const noexcept { return q_->row_granularity(); }
    /// True when prepass() must see every row before the first encode().
    bool needs_prepass() const noexcept { return q_->needs_prepass(); }
    /// True when encode() is safe on non-finite input (no undefined
    /// behaviour, no crash) and a non-finite x always shows in the loss it
    /// returns (sx2 not finite, or `nonfinite` > 0): the caller may skip the
    /// separate finite check and look at the chunk only when the loss says
    /// so (bitsandbytes 4-bit: every kernel path is compares and lane
    /// permutes, no float → int cast). Always false without measure_loss.
    bool loss_flags_nonfinite() const noexcept { return q_->loss_flags_nonfinite(); }
    /// First pass over rows [row0, row0 + nrows) (x: nrows·C finite values).
    /// Chunks may run concurrently (each writes only its own rows' slots).
    void prepass(const float* x, std::uint64_t row0, std::uint64_t nrows) { q_->prepass(x, row0, nrows); }
    /// True when prepass_bf16() may replace prepass() (a BF16 weight to FP8
    /// per tensor, or to bitsandbytes 4-bit with double quantization: the
    /// pass only needs max |x| per row or per block).
    bool has_bf16_prepass() const noexcept { return q_->has_bf16_prepass(); }
    /// prepass() straight from the stored BF16 bit patterns of rows
    /// [row0, row0 + nrows) (nrows·C values, no decode to f32; the same
    /// values recorded). Returns false when they hold a NaN/±inf (the caller
    /// then decodes the chunk and reports it).
    bool prepass_bf16(const std::uint16_t* in, std::uint64_t row0, std::uint64_t nrows) {
        return q_->prepass_bf16(in, row0, nrows);
    }
    /// True when encode_bf16() may replace encode(): a BF16 weight without
    /// measure_loss, to bitsandbytes 4-bit or LLM.int8, FP8 or DeepSeek FP8, or
    /// compressed-tensors INT (pack-quantized).
    bool has_bf16_encode() const noexcept { return q_->has_bf16_encode(); }
    /// encode() straight from the stored BF16 bit patterns of rows
    /// [row0, row0 + nrows) (the *_bf16 kernels: no decode to f32, the same
    /// bytes and put() calls; `loss` gets only the `nonfinite` count of
    /// LLM.int8 rows whose F16 cast overflows, as encode() without
    /// measure_loss). Returns false, having written nothing, when they hold a
    /// NaN/±inf (the caller then decodes the chunk and reports it).
    bool encode_bf16(const std::uint16_t* in, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s,
                     const PutFn& put, kernels::st::LossSums& loss) {
        return q_->encode_bf16(in, row0, nrows, s, put, loss);
    }
    /// After every prepass(): the tensor-wide values.
    void finish_prepass() { q_->finish_prepass(); }
    /// Quantize rows [row0, row0 + nrows): write their slices through
    /// `put`, add their round-trip error to `loss`. Concurrent chunks are fine.
    void encode(const float* x, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s, const PutFn& put,
                kernels::st::LossSums& loss) {
        q_->encode(x, row0, nrows, s, put, loss);
    }
    /// True when after_pass() must run between the last encode() and
    /// finish(): bitsandbytes double quantization without measure_loss, whose
    /// absmax values are recorded by encode() instead of a first pass.
    bool needs_after_pass() const noexcept { return q_->needs_after_pass(); }
    /// The tensor-wide values of what encode() recorded (the double
    /// quantization of every absmax: nested absmax, offset, absmax codes),
    /// and the absmax codes written through `put` at once (finish() writes
    /// the rest). Quantizers of different weights may run it concurrently.
    void after_pass(const PutFn& put) { q_->after_pass(put); }
    /// After every encode() (and after_pass()): write the whole-tensor outputs. Returns the
    /// bytes of the tail tensor given to `tail` (0 if none).
    std::uint64_t finish(const PutFn& put, const TailFn& tail) { return q_->finish(put, tail); }

private:
    std::unique_ptr<SchemeQuantizer> q_;
};

}  // namespace amn::forget_st_internal
