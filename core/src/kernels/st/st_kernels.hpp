// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the row-chunk kernels of the safetensors-family quantizers
// (st_quantize.hpp), as a table of functions with two implementations:
//  - scalar_kernels(): the scalar reference (st_kernels_scalar.cc), one IEEE
//    binary32 operation at a time in the libraries' order;
//  - st_kernels(): Highway SIMD (st_simd.cc, the loss in st_simd_loss.cc), compiled per target and chosen
//    at run time. Byte-identical outputs (codes, absmax, dequantized values);
//    only `loss` sums in another order (f64 lanes), see there.
// The whole-tensor quantizers of st_quantize.hpp and the streaming forget
// pipeline (the scheme quantizers, forget_st_<scheme>.cc) are both built on these kernels.
//
// Common contract: `x` holds finite f32 values exactly representable in
// `wdtype` (F32, BF16 or F16; the caller checks). `wdtype` decides the
// rounding after each operation (RNE to BF16/F16; none for F32). Any output
// pointer documented "nullable" may be null (then it is not computed).
// Counts are elements, never bytes. Nothing here throws.

#include "anamnesis/dtype.hpp"
#include "anamnesis/st_quantize.hpp"
#include "kernels/common/loss_sums.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace amn::kernels::st {

// The public result of the bitsandbytes 4-bit encoder (st_quantize.hpp)
// that the bnb4_* helpers below fill.
using amn::st::Bnb4Result;

/// Round-trip error sums of dequantized values y against the input x
/// (loss_sums.hpp: f64 sums over the pairs whose y is finite — x is always
/// finite here —, `nonfinite` counts the others, one SQNR rule).
using LossSums = amn::detail::LossSums;

/// A 16-entry bitsandbytes code table (NF4 or FP4 `quant_map`) prepared for
/// `torch.bucketize(x, mid, right=False)` against the midpoints of its sorted
/// values: code = order[k], k = #{midpoints < v}, so a value equal to a
/// midpoint takes the lower code. sorted[k] = quant_map[order[k]].
struct Codebook4 {
    float mid[15];
    std::int32_t order[16];
    float sorted[16];
    std::int32_t zero_code;  ///< the code of 0.0 (pads an odd element count): NF4 7, FP4 0
    /// A shortcut for the SIMD search (the same k): cell c(v) = min(trunc((v + 1) · 16), 31)
    /// of a clamped v (f32 operations, monotone in v); cell_k[c] = #{midpoints whose cell
    /// < c}. When no cell holds two midpoints (`cells_ok`: NF4 yes, FP4 no — its midpoints
    /// near 0 are 0.0026 apart), k = cell_k[c] + (mid[cell_k[c]] < v).
    std::int32_t cell_k[32];
    bool cells_ok;
};
/// Build from the 16 f32 entries of a quant_map (equal values keep index order).
Codebook4 make_codebook4(const float* quant_map);

struct StKernels {
    const char* target;  ///< "scalar" or the Highway target name

    /// Index of the first NaN/±inf among x[0..n), or n when all are finite.
    std::size_t (*first_nonfinite)(const float* x, std::size_t n);

    /// Decode n BF16 values (little-endian bit patterns) to f32 (exact: the
    /// bits shifted left by 16) and find the first NaN/±inf among them in the
    /// same pass: returns its index, or n when all are finite. out[0..n) is
    /// written in full either way.
    std::size_t (*bf16_decode_checked)(const std::uint16_t* in, std::size_t n, float* out);

    /// max |x[i]| over n ≥ 0 values (0 for n = 0).
    float (*absmax)(const float* x, std::size_t n);

    /// out[b] = max |x| over block b of ⌈n/blocksize⌉ consecutive blocks (the
    /// last one may be partial).
    void (*absmax_blocks)(const float* x, std::size_t n, std::size_t blocksize, float* out);

    /// *mn = min(0, min x), *mx = max(0, max x) (the sign of a zero result is
    /// unspecified: every caller's arithmetic is the same for ±0).
    void (*minmax)(const float* x, std::size_t n, float* mn, float* mx);

    /// bitsandbytes 4-bit, `nblocks` *full* blocks of `blocksize` (even, ≥ 16)
    /// consecutive values: absmax[b] = max|x| of the block (unclamped);
    /// v = clamp(x · f32(1 / max(absmax, 1e-38)), −1, 1); code by `cb`;
    /// packed[i/2] gets element i in the high nibble when i is even.
    /// y (nullable) = rt(sorted[k] · am[b]) with am = am_deq (nullable;
    /// the double-quantized absmax) or else absmax[b]. packed holds
    /// nblocks·blocksize/2 bytes.
    void (*bnb4_blocks)(const float* x, std::size_t nblocks, std::size_t blocksize, const Codebook4& cb,
                        const float* am_deq, DType wdtype, std::uint8_t* packed, float* absmax, float* y);

    /// FP8 E4M3FN codes of n values sharing one scale.
    /// deepseek = false (compressed-tensors): q = E4M3(clamp(rt(rt(x / s) + 0), ±448)),
    ///   y (nullable) = rt(e4m3(q) · s).
    /// deepseek = true (DeepGEMM; wdtype ignored): q = E4M3(x · f32(1 / s)),
    ///   y = e4m3(q) · s.
    void (*fp8_encode)(const float* x, std::size_t n, float s, bool deepseek, DType wdtype, std::uint8_t* q,
                       float* y);

    /// compressed-tensors INT: q = round_half_even(clamp(rt(rt(x / s) + z), qmin, qmax)),
    /// y (nullable) = rt(rt(q − z) · s).
    void (*int_encode)(const float* x, std::size_t n, float s, float z, float qmin, float qmax, DType wdtype,
                       std::int8_t* q, float* y);

    /// compressed-tensors `pack_to_int32` of n values q (bits 4 or 8) along
    /// one row: u = q + 2^(bits−1), element j at bits (j·bits) % 32 of word
    /// j·bits/32; writes ⌈n·bits/32⌉ words (padding bits 0).
    void (*pack_int)(const std::int8_t* q, std::size_t n, unsigned bits, std::int32_t* out);

    /// LLM.int8 of one row of n values: w16 = f16(x) (RNE, ≥ 65520 → inf),
    /// *scb = max|w16|, q = round_half_even(w16 · f32(f32(1/scb) · 127)) with
    /// NaN → 0; y (nullable) = (q · scb) · 7.874015718698502e-3f.
    void (*int8_row)(const float* x, std::size_t n, std::int8_t* q, float* scb, float* y);

    /// Add the round-trip error of n pairs to `acc` (see LossSums). The scalar
    /// reference sums element by element; SIMD sums in f64 lanes, then adds
    /// the lanes: the sums may differ in the last bits (not the file bytes).
    void (*loss)(const float* x, const float* y, std::size_t n, LossSums& acc);

    /// max |x| of n BF16 values (little-endian bit patterns), as a BF16 bit
    /// pattern: max(in[i] & 0x7FFF) (0 for n = 0) — for finite values the
    /// order of these patterns is the order of |x|, so bits << 16 is the f32
    /// `absmax` of the decoded values. A result ≥ 0x7F80 means a NaN or ±inf
    /// is among them (the value is then meaningless).
    std::uint16_t (*bf16_absmax_bits)(const std::uint16_t* in, std::size_t n);

    /// `absmax_blocks` of n BF16 values (little-endian bit patterns) in
    /// ⌈n/blocksize⌉ blocks, read from the bits (bf16_absmax_bits per
    /// block): the same f32 values as on the decoded input. Returns false
    /// when a NaN/±inf is among them (out then unspecified).
    bool (*bf16_absmax_blocks)(const std::uint16_t* in, std::size_t n, std::size_t blocksize, float* out);

    /// `bnb4_blocks` straight from BF16 bit patterns, without round trip:
    /// `nblocks` *full* blocks of `blocksize` (even, ≥ 16) values; writes
    /// nblocks·blocksize/2 packed bytes and nblocks absmax values, the bytes
    /// bnb4_blocks writes for the decoded values with wdtype BF16. Returns
    /// false when a NaN/±inf is among them (outputs then unspecified).
    bool (*bnb4_blocks_bf16)(const std::uint16_t* in, std::size_t nblocks, std::size_t blocksize, const Codebook4& cb,
                             std::uint8_t* packed, float* absmax);

    /// `fp8_encode` of n finite BF16 values (bit patterns; wdtype BF16),
    /// without round trip, in segments of `seg` ≥ 1 values: values
    /// [t·seg, (t+1)·seg) (the last may be shorter) with scale s[t] — a row
    /// (seg = n), or a row of 128 × 128 tiles (seg = 128, one scale per
    /// tile). The same codes as fp8_encode per segment. The caller knows them
    /// finite (its scales came from bf16_absmax_bits / bf16_absmax_blocks,
    /// which flag NaN/±inf).
    void (*fp8_encode_bf16)(const std::uint16_t* in, std::size_t n, const float* s, std::size_t seg, bool deepseek,
                            std::uint8_t* q);

    /// `int8_row` of one row of n BF16 values (bit patterns), without round
    /// trip: the same codes and SCB. Returns false when a NaN/±inf is among
    /// them (outputs then unspecified).
    bool (*int8_row_bf16)(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb);

    /// bitsandbytes' blockwise 8-bit quantization (quantize_blockwise, CPU)
    /// of `nblocks` *full* blocks of `blocksize` values x (finite) against a
    /// 256-entry code table given sorted: `mid` its 255 midpoints ascending
    /// and +inf (256 floats), `order` the code of each sorted entry (256).
    /// absmax[b] = max |x| of the block; v = clamp(x · f32(1 / max(absmax,
    /// 1e-38)), −1, 1); q = order[#{midpoints < v}] (a tie takes the lower
    /// code). Writes nblocks·blocksize codes and nblocks absmax values. The
    /// double quantization of the 4-bit absmax (blocks of 256).
    void (*code8_blocks)(const float* x, std::size_t nblocks, std::size_t blocksize, const float* mid,
                         const std::uint8_t* order, std::uint8_t* q, float* absmax);
    // ---- compressed-tensors INT (pack-quantized) straight from BF16 bits (st_simd_ctint.cc)

    /// compressed-tensors INT of `nrows` rows of C BF16 values each (little-endian bit
    /// patterns, row-major; wdtype BF16), without round trip, in groups of `gs`
    /// consecutive values of a row (gs ≥ 1 divides C; gs = C: one group per row, the
    /// channel strategy; G = C / gs groups per row). Per group, as the f32 path
    /// (`minmax`, amn::st::detail::ct_int_qparams, `int_encode`, `pack_int`): mn = min(0, min x),
    /// mx = max(0, max x); scale and zero point by ct_int_qparams(mn, mx, bits,
    /// symmetric, BF16); codes q = round_half_even(clamp(rt(rt(x / s) + z), qmin,
    /// qmax)) with rt the BF16 rounding (RNE) and qmin, qmax = −2^(bits−1),
    /// 2^(bits−1) − 1; each row packed as pack_int (bits 4 or 8).
    /// Writes scale[r·G + g] (f32 holding the BF16 scale), zp[r·G + g] (the zero
    /// point, 0 when symmetric; zp nullable: then not written) and the packed row r
    /// at packed[r·W .. r·W + W) with W = ⌈C·bits/32⌉ int32 words: the bytes the f32
    /// path writes for the decoded values. Returns false when a NaN/±inf is among
    /// the values (outputs then unspecified).
    bool (*ct_int_rows_bf16)(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, unsigned bits,
                             bool symmetric, float* scale, std::int8_t* zp, std::int32_t* packed);
};

/// The 256 E4M3FN values as f32 (index = code; 0x7F/0xFF are NaN).
const float* e4m3_values() noexcept;

/// The SIMD `loss` of st_kernels() (st_simd_loss.cc), dispatched to the best
/// Highway target: f64 sums per lane, see StKernels::loss.
void simd_loss(const float* x, const float* y, std::size_t n, LossSums& acc);
/// The SIMD `bf16_absmax_blocks` and `bnb4_blocks_bf16` of st_kernels()
/// (st_simd_bnb4.cc), dispatched to the best Highway target.
bool simd_bf16_absmax_blocks(const std::uint16_t* in, std::size_t n, std::size_t blocksize, float* out);
bool simd_bnb4_blocks_bf16(const std::uint16_t* in, std::size_t nblocks, std::size_t blocksize, const Codebook4& cb,
                           std::uint8_t* packed, float* absmax);
/// The SIMD `code8_blocks` of st_kernels() (st_simd_bnb4.cc).
void simd_code8_blocks(const float* x, std::size_t nblocks, std::size_t blocksize, const float* mid,
                       const std::uint8_t* order, std::uint8_t* q, float* absmax);
/// The SIMD `fp8_encode_bf16` and `int8_row_bf16` of st_kernels() (st_simd_fp8.cc).
void simd_fp8_encode_bf16(const std::uint16_t* in, std::size_t n, const float* s, std::size_t seg, bool deepseek,
                          std::uint8_t* q);
bool simd_int8_row_bf16(const std::uint16_t* in, std::size_t n, std::int8_t* q, float* scb);
/// The SIMD `ct_int_rows_bf16` of st_kernels() (st_simd_ctint.cc), dispatched to the best Highway target.
bool simd_ct_int_rows_bf16(const std::uint16_t* in, std::size_t nrows, std::size_t C, std::size_t gs, unsigned bits,
                           bool symmetric, float* scale, std::int8_t* zp, std::int32_t* packed);

/// The scalar reference kernels.
const StKernels& scalar_kernels() noexcept;
/// The SIMD kernels of the best Highway target of this CPU (re-chosen after
/// hwy::SetSupportedTargetsForTest, so tests can walk every target).
const StKernels& st_kernels() noexcept;

/// bitsandbytes 4-bit of n consecutive flat elements starting on a block
/// boundary: the full blocks through `k.bnb4_blocks`, then (only at the end
/// of a tensor) the last partial block, *divided* by its absmax clamped to
/// ≥ 1e-38 (which is what it stores), with the scalar reference's
/// expressions; an odd n is padded with `cb.zero_code`. Writes ⌈n/2⌉ packed
/// bytes, ⌈n/blocksize⌉ absmax values and, when y is not null, n dequantized
/// values (am_deq as in bnb4_blocks, nullable).
void bnb4_run(const StKernels& k, const float* x, std::size_t n, std::size_t blocksize, const Codebook4& cb,
              const float* am_deq, DType wdtype, std::uint8_t* packed, float* absmax, float* y);

/// bnb4_run from BF16 bit patterns without round trip (bnb4_blocks_bf16 for
/// the full blocks, the last partial block decoded and quantized as
/// bnb4_run does): the same packed bytes and absmax as bnb4_run on the
/// decoded values with wdtype BF16. Returns false when a NaN/±inf is among
/// the n values (outputs then unspecified).
bool bnb4_run_bf16(const StKernels& k, const std::uint16_t* in, std::size_t n, std::size_t blocksize,
                   const Codebook4& cb, std::uint8_t* packed, float* absmax);

// ---- bitsandbytes 4-bit pieces shared by quantize_bnb4 and the forget pipeline (bnb4.cc)

/// `quant_map` of NF4 or FP4 (16 f32).
std::vector<float> bnb4_quant_map(Bnb4Type kind);
/// Double quantization of `res.absmax` (all blocks of the tensor): sets
/// nested_offset (torch CPU f32 mean), nested_quant_map, absmax_q and
/// nested_absmax.
void bnb4_double_quant(Bnb4Result& res);
/// The same of the absmax values in `absmax` (every block of the tensor;
/// res.absmax is not read), which it overwrites with absmax − nested_offset:
/// no copy of them is made.
void bnb4_double_quant(Bnb4Result& res, std::span<float> absmax);
/// The absmax a loader dequantizes from the double quantization:
/// nested_quant_map[absmax_q[i]] · nested_absmax[i/256] + nested_offset.
std::vector<float> bnb4_absmax_dequant(const Bnb4Result& res);
/// Sets quant_state_json and quant_state_suffix (after bnb4_double_quant).
void bnb4_quant_state(Bnb4Result& res, Bnb4Type kind, unsigned blocksize, DType wdtype, std::uint64_t R,
                      std::uint64_t C, bool double_quant);

}  // namespace amn::kernels::st
