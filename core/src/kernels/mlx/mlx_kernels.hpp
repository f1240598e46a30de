// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the element kernels of MLX's quantized layers (mlx-lm folders),
// as `mx.dequantize` computes them on the CPU and `mx.quantize` packs them.
// Pure functions over spans: no I/O, no allocation. Lengths are element
// counts unless a name says bytes.
//
// Sources (ml-explore/mlx 846d1762): mlx/ops.cpp `affine_dequantize`
// (l.5248-5340: the CPU runs the unpack, then multiply and add as two
// elementwise ops, each rounded to the scales' dtype), `fp_dequantize`
// (l.5342-5463), mlx/backend/cpu/quantized.cpp `extract_bits` (l.65-100),
// mlx/types/bf16.h (round to nearest even, NaN → 0x7FC0),
// mlx/backend/cpu/unary_ops.h `FromFP8` (l.154-173).

#include "anamnesis/dtype.hpp"
#include "anamnesis/quant_params.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>

namespace amn::kernels::mlx {

/// Unpack `n` unsigned codes of `bits` bits (1 ≤ bits ≤ 8) from a row of
/// MLX's packed uint32 words read as little-endian bytes: one LSB-first bit
/// stream, code i at stream bits [i·bits, (i+1)·bits) — 3-, 5- and 6-bit
/// codes cross byte and word boundaries. Reads ⌈n·bits/8⌉ bytes.
void unpack_codes(unsigned bits, const std::uint8_t* bytes, std::uint8_t* q, std::size_t n);

/// One affine group: y[i] = rnd(rnd(f32(q[i]) × scale) + bias), each
/// operation computed in f32 and rounded to `dtype` (BF16: nearest even,
/// NaN → 0x7FC0; F16: IEEE nearest even; F32: the f32 operations), as MLX's
/// CPU `multiply` then `add` of the scales' dtype. `scale` and `bias` are
/// the stored values widened to f32. \pre dtype is BF16, F16 or F32.
/// Dispatched to the best Highway target for BF16 and F32 (mlx_simd.cc);
/// every target equals scalar::affine_group bit for bit (test_mlx_kernels).
void affine_group(DType dtype, const std::uint8_t* q, float scale, float bias, float* y, std::size_t n);

namespace scalar {
/// The reference of affine_group: one value at a time.
void affine_group(DType dtype, const std::uint8_t* q, float scale, float bias, float* y, std::size_t n);
}  // namespace scalar

/// The Highway target affine_group dispatches to ("AVX2", …), for tests.
const char* mlx_target_name() noexcept;

/// MLX's BF16 rounding of one f32 (nearest even; any NaN → 0x7FC0), widened back.
inline float round_bf16(float x) noexcept {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    const std::uint32_t r = ((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16) << 16;
    return std::bit_cast<float>((u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : r);
}

/// The E8M0 scale as MLX computes it: power(2, bf16(e) − 127) in BF16 —
/// 2^(e−127), e = 0 giving the BF16 subnormal 2^−127, e = 255 giving +inf.
float e8m0_scale(std::uint8_t e) noexcept;

/// MLX's E4M3 decode (`detail::FromFP8`): the magnitude bits shifted into a
/// float16 and multiplied by 256, the sign from bit 7. Equal to E4M3FN for
/// every code except 0x7F / 0xFF, which decode to ±480 (not NaN).
float e4m3_value(std::uint8_t x) noexcept;

/// One fp-mode group of E2M1 codes (two per byte, low nibble first):
/// y[i] = round_bf16(e2m1(code i) × scale). `n` even.
void e2m1_group(const std::uint8_t* bytes, float scale, float* y, std::size_t n);

/// One fp-mode group of E4M3 codes (one per byte):
/// y[i] = round_bf16(e4m3_value(byte i) × scale).
void e4m3_group(const std::uint8_t* bytes, float scale, float* y, std::size_t n);

}  // namespace amn::kernels::mlx

namespace amn::kernels::mlx {

/// The parameters MLX's affine quantizer gives one group (mlx/backend/cpu/
/// quantized.cpp `quantize`, l.1149-1212), from the group's minimum and
/// maximum, in f32: `scale` and `bias` as the codes are computed with,
/// `stored_scale` / `stored_bias` rounded to the model dtype as written
/// (and as the dequantizer reads them back).
struct AffineGroup {
    float scale, bias, stored_scale, stored_bias;
};
/// mask = |w_min| > |w_max|; scale = max((w_max − w_min)/(2^bits − 1), 1e-7),
/// negated unless mask; edge = mask ? w_min : w_max; q0 = rint(edge/scale);
/// q0 ≠ 0: scale = edge/q0, bias = edge; else bias = 0. `dtype` BF16, F16 or F32.
AffineGroup affine_group_params(float w_min, float w_max, unsigned bits, DType dtype) noexcept;

/// The code of one value: clamp(rint((w − bias)/scale), 0, 2^bits − 1), ties to even.
std::uint8_t affine_code(float w, const AffineGroup& g, unsigned bits) noexcept;

}  // namespace amn::kernels::mlx

namespace amn::kernels::mlx {

/// Pack `n` codes of `bits` bits (each < 2^bits) into MLX's LSB-first bit
/// stream (the inverse of unpack_codes): writes ⌈n·bits/8⌉ bytes, the bits of
/// a last partial byte above the stream zero. n·bits a multiple of 32 gives
/// whole uint32 words, as mx.quantize writes them.
void pack_codes(unsigned bits, const std::uint8_t* q, std::uint8_t* bytes, std::size_t n);

/// One row of `n` values (n a multiple of `group`) quantized as mx.quantize
/// does on the CPU (affine_group_params + affine_code per group): the packed
/// codes into `packed` (n·bits/8 bytes), the stored scale and bias of each
/// group into `scales` / `biases` (n/group values, already rounded to
/// `dtype`), and, when `y` is not null, the values mx.dequantize gives back
/// (n floats). `q` is scratch of n bytes.
void affine_quantize_row(unsigned bits, std::size_t group, DType dtype, const float* x, std::size_t n, std::uint8_t* q,
                         std::uint8_t* packed, float* scales, float* biases, float* y);

}  // namespace amn::kernels::mlx

namespace amn::kernels::mlx {

/// Elements per scale of an fp mode: 16 (nvfp4), 32 (mxfp4, mxfp8).
constexpr std::size_t fp_group_size(MlxMode mode) noexcept { return mode == MlxMode::Nvfp4 ? 16 : 32; }

/// MLX's f32 → E4M3 (`detail::ToFP8`, mlx/backend/cpu/unary_ops.h l.120-152):
/// round to nearest even; |f| ≥ 464, ±inf and NaN saturate to ±448 (0x7E /
/// 0xFE) — 0x7F / 0xFF are never produced; the sign bit kept (−0 → 0x80).
std::uint8_t e4m3_from_float(float f) noexcept;

/// One group of an fp mode quantized as mx.quantize does on the CPU
/// (mlx/ops.cpp `fp_quantize`, l.5101-5206, the graph the CPU runs; every
/// elementwise step rounded to `dtype`, the weight's: BF16, F16 or F32).
/// `x`: fp_group_size(mode) values of that dtype, widened to f32.
/// - mxfp4 / mxfp8: s = rnd(max|x| / maxval) (maxval 6 / 448), e = 0 for
///   s = 0 else rint(rnd(log2 s)), scale byte e + 127 (E8M0: an all-zero
///   group gets 127), wq = rnd(x / rnd(2^e)); mxfp4 codes argmin_k
///   rnd(|rnd(wq − LUT[k])|) over the E2M1 table (+0 … 6, −0 … −6; the first
///   minimum), two per byte low nibble first (16 bytes); mxfp8 codes
///   e4m3_from_float(wq), one byte each (32 bytes).
/// - nvfp4: s = rnd(max|x| / 6), scale byte e4m3_from_float(s), wq =
///   rnd(x / e4m3_value(byte)) then the E2M1 argmin in f32 (8 bytes); an
///   all-zero group gives scale 0 and codes 0 (0/0 is NaN: no code wins).
/// `codes` receives the packed codes, `scale` the scale byte; when `y` is
/// not null it receives what mx.dequantize gives back (BF16 values).
void fp_quantize_group(MlxMode mode, DType dtype, const float* x, std::uint8_t* codes, std::uint8_t* scale, float* y);

}  // namespace amn::kernels::mlx
