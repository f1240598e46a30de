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

class WeightQuantizer {
public:
    /// R×C weight stored as `wdtype` (F32, BF16, F16), quantized to `scheme`
    /// with `kernels` (default: st::kern::st_kernels(), SIMD; the benchmark
    /// passes the scalar reference). `measure_loss` false: encode() makes no
    /// dequantized values and adds no error sums (StForgetOptions::measure_loss),
    /// except the `nonfinite` count of LLM.int8 rows whose F16 cast overflows
    /// (C per such row: every value of it dequantizes to NaN).
    WeightQuantizer(const StScheme& scheme, std::uint64_t R, std::uint64_t C, DType wdtype,
                    const st::kern::StKernels* kernels = nullptr, bool measure_loss = true);
    ~WeightQuantizer();

    /// Allocate what the quantizer holds whole (double-quant absmax, row
    /// amax, zero points); call once before the first prepass()/encode().
    void start();
    /// Chunks must start at a multiple of this many rows (bitsandbytes:
    /// whole blocks of the flattened tensor; 128×128 tiles: 128 rows).
    std::uint64_t row_granularity() const noexcept;
    /// True when prepass() must see every row before the first encode().
    bool needs_prepass() const noexcept;
    /// True when encode() is safe on non-finite input (no undefined
    /// behaviour, no crash) and a non-finite x always shows in the loss it
    /// returns (sx2 not finite, or `nonfinite` > 0): the caller may skip the
    /// separate finite check and look at the chunk only when the loss says
    /// so (bitsandbytes 4-bit: every kernel path is compares and lane
    /// permutes, no float → int cast). Always false without measure_loss.
    bool loss_flags_nonfinite() const noexcept;
    /// First pass over rows [row0, row0 + nrows) (x: nrows·C finite values).
    /// Chunks may run concurrently (each writes only its own rows' slots).
    void prepass(const float* x, std::uint64_t row0, std::uint64_t nrows);
    /// True when prepass_bf16() may replace prepass() (a BF16 weight to FP8
    /// per tensor, or to bitsandbytes 4-bit with double quantization: the
    /// pass only needs max |x| per row or per block).
    bool has_bf16_prepass() const noexcept;
    /// prepass() straight from the stored BF16 bit patterns of rows
    /// [row0, row0 + nrows) (nrows·C values, no decode to f32; the same
    /// values recorded). Returns false when they hold a NaN/±inf (the caller
    /// then decodes the chunk and reports it).
    bool prepass_bf16(const std::uint16_t* in, std::uint64_t row0, std::uint64_t nrows);
    /// True when encode_bf16() may replace encode(): a BF16 weight without
    /// measure_loss, to bitsandbytes 4-bit or LLM.int8, FP8 or DeepSeek FP8, or
    /// compressed-tensors INT (pack-quantized).
    bool has_bf16_encode() const noexcept;
    /// encode() straight from the stored BF16 bit patterns of rows
    /// [row0, row0 + nrows) (the *_bf16 kernels: no decode to f32, the same
    /// bytes and put() calls; `loss` gets only the `nonfinite` count of
    /// LLM.int8 rows whose F16 cast overflows, as encode() without measure_loss). Returns false, having written nothing, when they hold a
    /// NaN/±inf (the caller then decodes the chunk and reports it).
    bool encode_bf16(const std::uint16_t* in, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s,
                     const PutFn& put, st::kern::LossSums& loss);
    /// After every prepass(): the tensor-wide values.
    void finish_prepass();
    /// Quantize rows [row0, row0 + nrows): write their slices through
    /// `put`, add their round-trip error to `loss`. Concurrent chunks are fine.
    void encode(const float* x, std::uint64_t row0, std::uint64_t nrows, QuantScratch& s, const PutFn& put,
                st::kern::LossSums& loss);
    /// True when after_pass() must run between the last encode() and
    /// finish(): bitsandbytes double quantization without measure_loss, whose
    /// absmax values are recorded by encode() instead of a first pass.
    bool needs_after_pass() const noexcept;
    /// The tensor-wide values of what encode() recorded (the double
    /// quantization of every absmax: nested absmax, offset, absmax codes),
    /// and the absmax codes written through `put` at once (finish() writes
    /// the rest). Quantizers of different weights may run it concurrently.
    void after_pass(const PutFn& put);
    /// After every encode() (and after_pass()): write the whole-tensor outputs. Returns the
    /// bytes of the tail tensor given to `tail` (0 if none).
    std::uint64_t finish(const PutFn& put, const TailFn& tail);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace amn::forget_st_internal
