// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the encoder of one Linear weight for forget to a safetensors
// scheme (forget_st.cc hands it to the runner, exec/scheme_encoder.hpp; the
// re-quantization estimate drives it row chunk by row chunk,
// round_trip_estimate_st.cc). One WeightEncoder subclass per scheme, in its
// file forget_st_<scheme>.cc, made by its scheme row (forget_st_rows.hpp).
//
// A weight is quantized in row chunks (each a multiple of row_granularity()
// rows) that run in any order on any worker; each chunk writes its slice of
// every row-sliced output tensor and returns its round-trip error sums.
// Values that need the whole tensor first — the per-tensor FP8 scale and the
// bitsandbytes double-quantization offset (mean of all absmax) — come from a
// first pass (prepass over every chunk, then finish_prepass()). The small
// whole-tensor outputs (quant_map, nested_*, absmax codes of a double
// quantization, zero points, weight_shape, quant_state JSON) are written by
// finish(). Bytes are those of the st_quantize.hpp whole-tensor quantizers
// (same kernels, same order of operations).

#include "anamnesis/forget_st.hpp"
#include "exec/scheme_encoder.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace amn::forget_st_internal {

/// Per-worker buffers reused across chunks: the runner's EncoderScratch of
/// every WeightEncoder (made by the first encode() of a worker).
struct QuantScratch final : exec::EncoderScratch {
    std::vector<float> y;
    std::vector<std::uint8_t> a, b;
    std::vector<std::int8_t> q;
    std::vector<float> f;
    std::vector<float> mm;       ///< compressed-tensors INT: min, max of each group of a row
    std::vector<std::int8_t> z;  ///< compressed-tensors INT: zero point of each group of a row (of every row: encode_bf16)
    /// The values the round trip of the next encode_f32() is measured
    /// against, laid out as its `x` (nrows · C); null: `x` itself. The
    /// re-quantization estimate sets it to the dequantized values when it
    /// encodes them rounded to the weight dtype, as forget does.
    const float* reference = nullptr;
};

/// The bytes of `n` values at `p` / of a vector, for a SlotWriteFn.
template <class T>
std::span<const std::uint8_t> bytes_of(const T* p, std::size_t n) {
    return {reinterpret_cast<const std::uint8_t*>(p), n * sizeof(T)};
}
template <class T>
std::span<const std::uint8_t> bytes_of(const std::vector<T>& v) {
    return bytes_of(v.data(), v.size());
}

/// The weight one encoder encodes: R×C stored as `wdtype` (F32, BF16,
/// F16), the kernels it runs on and whether the round trip is measured.
struct QuantWeight {
    std::uint64_t R = 0, C = 0;
    DType wdtype = DType::F32;
    const kernels::st::StKernels* k = nullptr;  ///< never null
    bool measure_loss = true;
    /// Bytes of one value in the weight dtype (its scales are stored in it).
    std::uint64_t esize() const noexcept { return wdtype == DType::F32 ? 4 : 2; }
};

/// The encoder of one weight for one safetensors scheme. The runner's steps
/// (exec::SchemeEncoder) read the chunk's rows here, once for every scheme:
/// the stored BF16 bits as they are when the scheme has a BF16 path, else
/// the decoded values, checked finite; the scheme's steps are the *_f32 and
/// *_bf16 functions on values. Their defaults are those of a scheme that
/// needs no first pass, no after pass, no whole-tensor outputs and has no
/// BF16 path.
class WeightEncoder : public exec::SchemeEncoder {
public:
    explicit WeightEncoder(const QuantWeight& w) : w_(w) {}

    /// Chunks must start at a multiple of this many rows (bitsandbytes:
    /// whole blocks of the flattened tensor; 128×128 tiles: 128 rows).
    virtual std::uint64_t row_granularity() const noexcept { return 1; }
    /// True when prepass_f32() must see every row before the first encode_f32().
    bool needs_prepass() const noexcept override { return false; }
    /// True when encode_f32() is safe on non-finite input (no undefined
    /// behaviour, no crash) and a non-finite x always shows in the loss it
    /// returns (sx2 not finite, or `nonfinite` > 0): encode() skips the
    /// separate finite check and looks at the chunk only when the loss says
    /// so (bitsandbytes 4-bit: every kernel path is compares and lane
    /// permutes, no float → int cast). Always false without measure_loss.
    virtual bool loss_flags_nonfinite() const noexcept { return false; }
    /// True when after_pass() must run between the last encode and finish():
    /// bitsandbytes double quantization without measure_loss, whose absmax
    /// values are recorded by the encode steps instead of a first pass.
    bool needs_after_pass() const noexcept override { return false; }
    /// Allocate what the encoder holds whole (double-quant absmax, row
    /// amax, zero points); once, before the first prepass or encode.
    void start() override {}

    /// First pass over rows [row0, row0 + nrows) (x: nrows·C finite values).
    /// Chunks may run concurrently (each writes only its own rows' slots).
    virtual void prepass_f32(const float* x, std::uint64_t row0, std::uint64_t nrows) {
        (void)x, (void)row0, (void)nrows;
    }
    /// True when prepass_bf16() may replace prepass_f32() (a BF16 weight to
    /// FP8 per tensor, or to bitsandbytes 4-bit with double quantization: the
    /// pass only needs max |x| per row or per block).
    virtual bool has_bf16_prepass() const noexcept { return false; }
    /// prepass_f32() straight from the stored BF16 bit patterns of rows
    /// [row0, row0 + nrows) (nrows·C values, no decode to f32; the same
    /// values recorded). Returns false when they hold a NaN/±inf (the caller
    /// then decodes the chunk and reports it).
    virtual bool prepass_bf16(const std::uint16_t* in, std::uint64_t row0, std::uint64_t nrows) {
        (void)in, (void)row0, (void)nrows;
        return false;
    }
    /// After every prepass: the tensor-wide values.
    void finish_prepass() override {}

    /// Quantize rows [row0, row0 + nrows) of finite values `x` (nrows·C):
    /// write their slices through `put`, add their round-trip error to
    /// `loss`. Concurrent chunks are fine.
    virtual void encode_f32(const float* x, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s,
                            const exec::SlotWriteFn& put, kernels::st::LossSums& loss) = 0;
    /// True when encode_bf16() may replace encode_f32(): a BF16 weight without
    /// measure_loss, to bitsandbytes 4-bit or LLM.int8, FP8 or DeepSeek FP8, or
    /// compressed-tensors INT (pack-quantized).
    virtual bool has_bf16_encode() const noexcept { return false; }
    /// encode_f32() straight from the stored BF16 bit patterns of rows
    /// [row0, row0 + nrows) (the *_bf16 kernels: no decode to f32, the same
    /// bytes and put() calls; `loss` gets only the `nonfinite` count of
    /// LLM.int8 rows whose F16 cast overflows, as encode_f32() without
    /// measure_loss). Returns false, having written nothing, when they hold a
    /// NaN/±inf (the caller then decodes the chunk and reports it).
    virtual bool encode_bf16(const std::uint16_t* in, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s,
                             const exec::SlotWriteFn& put, kernels::st::LossSums& loss) {
        (void)in, (void)row0, (void)nrows, (void)s, (void)put, (void)loss;
        return false;
    }

    /// The tensor-wide values of what the encode steps recorded (the double
    /// quantization of every absmax: nested absmax, offset, absmax codes),
    /// and the absmax codes written through `put` at once (finish() writes
    /// the rest). Encoders of different weights may run it concurrently.
    void after_pass(const exec::SlotWriteFn& put) override { (void)put; }
    /// After every encode (and after_pass()): write the whole-tensor outputs.
    /// Returns the bytes of the tail tensor given to `tail` (0 if none).
    std::uint64_t finish(const exec::SlotWriteFn& put, const exec::TailSetFn& tail) override {
        (void)put, (void)tail;
        return 0;
    }

    /// The runner's first pass: max |x| per row or block from the stored BF16
    /// bits when the scheme can (no decode; input pages stay mapped for the
    /// second pass), else from the decoded values, checked finite.
    void prepass(exec::ChunkRows& rows) final;
    /// The runner's encode: from the stored BF16 bits when the scheme can,
    /// else from the decoded values: checked finite before encoding, or after
    /// it when the scheme's loss flags a non-finite input (bitsandbytes
    /// 4-bit). `scratch`: a QuantScratch, made when null.
    void encode(exec::ChunkRows& rows, std::unique_ptr<exec::EncoderScratch>& scratch, const exec::SlotWriteFn& write,
                detail::LossSums& loss) final;

protected:
    /// encode_bf16() may replace encode_f32(): a BF16 weight without measure_loss.
    bool bf16_direct() const noexcept { return w_.wdtype == DType::BF16 && !w_.measure_loss; }
    QuantWeight w_;
};

/// The encoder of an R×C weight stored as `wdtype` (F32, BF16, F16) for
/// `scheme`, made by the scheme's row (no dispatch on the scheme type here),
/// running on `kernels` (default: kernels::st::st_kernels(), SIMD; the
/// benchmark passes the scalar reference). `measure_loss` false: the encode
/// steps make no dequantized values and add no error sums
/// (StForgetOptions::measure_loss), except the `nonfinite` count of LLM.int8
/// rows whose F16 cast overflows (C per such row: every value of it
/// dequantizes to NaN).
/// \throws as check_st_scheme() for a scheme no row writes.
std::unique_ptr<WeightEncoder> weight_encoder(const QuantParams& scheme, std::uint64_t R, std::uint64_t C, DType wdtype,
                                              const kernels::st::StKernels* kernels = nullptr, bool measure_loss = true);

/// The round trip of one encode_f32() call: the dequantized values `y()`
/// (null without measure_loss; the buffer of `s` grown only, never shrunk:
/// that would zero-fill it every chunk) and the loss of rows of `x` (or of
/// QuantScratch::reference) added to `loss`.
class RoundTrip {
public:
    /// Values summed a row (or a flat piece of kPiece values) at a time, in L1/L2.
    static constexpr std::uint64_t kPiece = 16384;
    RoundTrip(const QuantWeight& w, QuantScratch& s, const float* x, std::uint64_t nrows, kernels::st::LossSums& loss)
        : w_(w), s_(s), x_(s.reference ? s.reference : x), loss_(loss) {
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

}  // namespace amn::forget_st_internal
