// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the element kernels of the integer-quantized safetensors schemes
// (GPTQ, AWQ, bitsandbytes NF4/FP4 and LLM.int8). Pure functions over spans:
// no I/O, no allocation. Lengths are element counts unless a name says bytes.
//
// The unqualified functions dispatch to the best Highway target for this CPU
// (HWY_DYNAMIC_DISPATCH, core/src/kernels/int/quant_simd.cc); `scalar::` holds
// the readable reference every SIMD target must equal bit for bit
// (tests/core/test_quant_kernels.cc checks each compiled target).
//
// Arithmetic is f32, one IEEE operation at a time, in the reference's order,
// no FMA contraction. Each result depends on at most one NaN operand, so
// NaN payloads do not depend on operand order either.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace amn::kernels::quant {

/// bitsandbytes' 4-bit code tables as float32 bit patterns, the one copy:
/// equal to the quant_map tensors of real checkpoints (and of the reference
/// data), written by the NF4/FP4 encoder (kernels/int/bnb4.cc).
/// NF4: `get_4bit_type("nf4")` (functional.py NF4 code, dDequantizeNF4).
inline constexpr std::array<std::uint32_t, 16> kNf4Bits{
    0xBF800000u, 0xBF3239B1u, 0xBF066B30u, 0xBECA32A0u, 0xBE91A24Du, 0xBE3D353Fu, 0xBDBA7871u, 0x00000000u,
    0x3DA2FAFFu, 0x3E24CAE3u, 0x3E7C04DDu, 0x3EAD033Au, 0x3EE1A4B8u, 0x3F1007ABu, 0x3F3913B3u, 0x3F800000u,
};
/// FP4: `get_4bit_type("fp4")` = [0, 0.0625, 8, 12, 4, 6, 2, 3, -0, -0.0625, …] / 12;
/// the source's "-0" is a Python integer, so entry 8 is +0.0.
inline constexpr std::array<std::uint32_t, 16> kFp4Bits{
    0x00000000u, 0x3BAAAAABu, 0x3F2AAAABu, 0x3F800000u, 0x3EAAAAABu, 0x3F000000u, 0x3E2AAAABu, 0x3E800000u,
    0x00000000u, 0xBBAAAAABu, 0xBF2AAAABu, 0xBF800000u, 0xBEAAAAABu, 0xBF000000u, 0xBE2AAAABu, 0xBE800000u,
};

namespace detail_codebook {
constexpr std::array<float, 16> floats(const std::array<std::uint32_t, 16>& bits, bool negative_zero_8) {
    std::array<float, 16> f{};
    for (std::size_t i = 0; i < 16; ++i) f[i] = std::bit_cast<float>(bits[i]);
    if (negative_zero_8) f[8] = -0.0f;
    return f;
}
}  // namespace detail_codebook

/// The same tables as floats, for decoding (schemes/bnb4.cc) and
/// re-quantization (round_trip_estimate.cc). NF4: kNf4Bits.
inline constexpr std::array<float, 16> kNf4 = detail_codebook::floats(kNf4Bits, false);
/// FP4 as bitsandbytes decodes it (dDequantizeFP4Tree): kFp4Bits, except
/// that code 8 (sign bit 3 set, magnitude 0) decodes to −0.0.
inline constexpr std::array<float, 16> kFp4 = detail_codebook::floats(kFp4Bits, true);

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
