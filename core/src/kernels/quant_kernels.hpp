// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the element kernels of the integer-quantized safetensors schemes
// (GPTQ, AWQ, bitsandbytes NF4/FP4 and LLM.int8). Pure functions over spans:
// no I/O, no allocation. Lengths are element counts unless a name says bytes.
//
// The unqualified functions dispatch to the best Highway target for this CPU
// (HWY_DYNAMIC_DISPATCH, core/src/kernels/quant_simd.cc); `scalar::` holds
// the readable reference every SIMD target must equal bit for bit
// (tests/core/test_quant_kernels.cc checks each compiled target).
//
// Arithmetic is f32, one IEEE operation at a time, in the reference's order,
// no FMA contraction. Each result depends on at most one NaN operand, so
// NaN payloads do not depend on operand order either.

#include <array>
#include <cstddef>
#include <cstdint>

namespace amn::kernels::quant {

/// bitsandbytes NF4 codebook (functional.py NF4 code, dDequantizeNF4), as
/// f32 literals: the one copy for decoding (schemes/bnb4.cc) and
/// re-quantization (requantize.cc).
inline constexpr std::array<float, 16> kNf4{
    -1.0f, -0.6961928009986877f, -0.5250730514526367f, -0.39491748809814453f,
    -0.28444138169288635f, -0.18477343022823334f, -0.09105003625154495f, 0.0f,
    0.07958029955625534f, 0.16093020141124725f, 0.24611230194568634f, 0.33791524171829224f,
    0.44070982933044434f, 0.5626170039176941f, 0.7229568362236023f, 1.0f};
/// bitsandbytes FP4 codebook (dDequantizeFP4Tree): sign bit 3, magnitudes as
/// its literals.
inline constexpr std::array<float, 16> kFp4{
    0.0f, 5.208333333e-03f, 0.66666667f, 1.0f, 0.33333333f, 0.5f, 0.16666667f, 0.25f,
    -0.0f, -5.208333333e-03f, -0.66666667f, -1.0f, -0.33333333f, -0.5f, -0.16666667f, -0.25f};

/// Unpack `n` unsigned `bits`-bit fields (bits ∈ {2, 3, 4, 8}) from a
/// little-endian bit stream of 32-bit words: field i occupies stream bits
/// [i·bits, (i+1)·bits), stream bit j being bit j%32 of words[j/32]. This is
/// GPTQ's packing along the input dimension (AutoGPTQ/GPTQModel `pack`;
/// 3-bit fields 10 and 21 of every 3-word group straddle two words, as
/// GPTQModel `_unpack_rows_3bit` reads them). Reads ⌈n·bits/32⌉ words.
/// n = 0 reads and writes nothing (`words` and `q` may then be null).
void unpack_bits(unsigned bits, const std::uint32_t* words, std::uint8_t* q, std::size_t n);

/// q[i] = (words[i] >> shift) & (2^bits − 1), for `n` words: one field at a
/// fixed position of every word (an AWQ word column, the nibble of one
/// output column). shift + bits ≤ 32, bits ≤ 8.
void extract_field(const std::uint32_t* words, unsigned shift, unsigned bits, std::uint8_t* q, std::size_t n);

/// y[i] = (f32(q[i]) − zero) × scale: one group of a GPTQ/AWQ row, in the
/// order of GPTQModel `dequantize_weight` / AutoAWQ `dequantize_gemm`
/// ((weight − zeros) × scales, f32). f32(q) − zero is exact for integer zeros.
void affine_const(const std::uint8_t* q, float zero, float scale, float* y, std::size_t n);

/// y[i] = (f32(q[i]) − zero[g[i]]) × scale[g[i]]: a GPTQ act-order row, each
/// input index picking its group through g_idx. `zero` and `scale` hold
/// `groups` entries; \pre 0 ≤ g[i] < groups (validated by the caller).
/// Few groups (≤ 4 vectors' lanes) are looked up from registers, more are
/// gathered. (The scalar reference takes no group count.)
void affine_gather(const std::uint8_t* q, const std::int32_t* g, const float* zero, const float* scale,
                   std::size_t groups, float* y, std::size_t n);

/// bitsandbytes 4-bit (NF4/FP4) decoding of `nbytes` packed bytes of one
/// absmax block: y[2j] = code[b >> 4] × absmax, y[2j+1] = code[b & 15] × absmax
/// with b = packed[j] (first element in the high nibble). `pairs` is the table made by
/// `make_pairs` from the 16-entry codebook. Matches bitsandbytes
/// `dequantize_4bit` (kDequantizeBlockwise: code × absmax in f32).
void lut4_scale(const std::uint8_t* packed, const std::uint64_t* pairs, float absmax, float* y, std::size_t nbytes);

/// pairs[b] holds the f32 bits of code[b >> 4] in its low half and of
/// code[b & 15] in its high half (b in 0..255): the two outputs of byte b in
/// memory order on a little-endian host.
void make_pairs(const float* code16, std::uint64_t* pairs256) noexcept;

/// LLM.int8 row: y[i] = (f32(q[i]) × scb) × f32(7.874015718698502e-3), as
/// bitsandbytes `int8_vectorwise_dequant` computes `A * stats * (1/127)`.
void int8_row_scale(const std::int8_t* q, float scb, float* y, std::size_t n);

/// The f32 constant bitsandbytes multiplies by (its literal 1/127).
inline constexpr float kInt8Inv127 = static_cast<float>(7.874015718698502e-3);

/// Scalar reference implementations; same contracts.
namespace scalar {
void unpack_bits(unsigned bits, const std::uint32_t* words, std::uint8_t* q, std::size_t n);
void extract_field(const std::uint32_t* words, unsigned shift, unsigned bits, std::uint8_t* q, std::size_t n);
void affine_const(const std::uint8_t* q, float zero, float scale, float* y, std::size_t n);
void affine_gather(const std::uint8_t* q, const std::int32_t* g, const float* zero, const float* scale, float* y,
                   std::size_t n);
void lut4_scale(const std::uint8_t* packed, const std::uint64_t* pairs, float absmax, float* y, std::size_t nbytes);
void int8_row_scale(const std::int8_t* q, float scb, float* y, std::size_t n);
}  // namespace scalar

/// Highway target the dispatched quant kernels use ("AVX3", "AVX2", …).
const char* quant_target_name() noexcept;

}  // namespace amn::kernels::quant
