// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file st_quantize.hpp
/// Quantizers (encoders) of the safetensors-family schemes: what the
/// canonical Python libraries write into a checkpoint for one Linear weight,
/// byte for byte.
///
/// | function                 | library call it matches                                        |
/// |--------------------------|----------------------------------------------------------------|
/// | `quantize_bnb4`          | bitsandbytes `functional.quantize_4bit` (default torch backend), with `compress_statistics` the nested `quantize_blockwise(absmax − mean, 256)`; serialized as `Linear4bit._save_to_state_dict` |
/// | `quantize_bnb_int8`      | bitsandbytes `Int8Params._quantize`: F16 cast, `int8_vectorwise_quant` (threshold 0) |
/// | `quantize_fp8_ct`        | llm-compressor `memoryless_minmax` → compressed-tensors 0.18 `calculate_qparams` → `quantize` (presets FP8, FP8_DYNAMIC, FP8_BLOCK; `float-quantized`) |
/// | `quantize_fp8_deepseek`  | DeepGEMM `per_block_cast_to_fp8` (optionally `ceil_to_ue8m0`) |
/// | `quantize_ct_int`        | the same compressed-tensors path, `pack-quantized` (W4A16, W4A16_ASYM, W8A16, W8A16_ASYM; group 128 or channel) |
///
/// The judge is `../shared/fixtures/quantize-ref-st/` (its README lists the
/// pitfalls every function below reproduces). Where that reference documents
/// a CPU and a CUDA variant, these functions give the **CPU** bytes
/// (torch's CPU float32 reductions and true divisions).
///
/// Common contract:
///  - `w` is a row-major 2-D weight `[R, C]` (`shape = {R, C}`, R, C ≥ 1) as
///    f32 values; `wdtype` (F32, BF16 or F16) is the dtype it is stored in.
///    Every value must be exactly representable in `wdtype` (a BF16 or F16
///    weight widened exactly). The libraries compute in that dtype, so it
///    decides bytes.
///  - Errors (`amn::Error`): `ErrorCode::Usage` for a shape that is not 2-D,
///    an element count that disagrees with it, an unsupported `wdtype`, bad
///    parameters (block size, bits, a group size that does not divide C),
///    values not representable in `wdtype`; `ErrorCode::Unsupported` for a
///    NaN or ±inf in `w` (the message names the flat index). Nothing is
///    partially returned.
///  - Arithmetic is binary32, one IEEE operation at a time in the
///    reference's order (no FMA); for BF16/F16 weights in compressed-tensors
///    every operation's f32 result is rounded (RNE) to the weight dtype, as
///    torch does.
///  - Whole-tensor API, on the row-chunk kernels of
///    core/src/kernels/st/st_kernels.hpp (Highway SIMD chosen at run time,
///    byte-identical to their scalar reference on every target). The forget
///    pipeline streams the same kernels by row chunks (forget_st_<scheme>.cc);
///    two values need the whole tensor first: the per-tensor FP8 scale
///    (`Fp8Granularity::Tensor`) and the double-quantization offset (mean of
///    all absmax). bitsandbytes blocks run over the flattened tensor, across
///    rows, so chunks hold whole blocks.
///  - Scales "in the weight dtype" are returned as f32 values exactly
///    representable in that dtype; `encode_floats` gives their stored bytes.

#include "anamnesis/dtype.hpp"
#include "anamnesis/quant_params.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace amn::st {

// ------------------------------------------------------------------ helpers

/// Little-endian bytes of `v` stored as `dtype` (F32, BF16 or F16; RNE for
/// the 16-bit types, exact for values representable in them).
/// \throws amn::Error(Usage) for another dtype.
std::vector<std::uint8_t> encode_floats(std::span<const float> v, DType dtype);

/// E4M3FN code of an f32 value as torch's `.to(torch.float8_e4m3fn)` (c10
/// `fp8e4m3fn_from_fp32_value`): round to nearest even (subnormal step
/// 2⁻⁹); |x| in (448, 464] → 448 (464 ties to even); |x| > 464, ±inf, NaN
/// → 0x7F | sign; −0.0 → 0x80. No saturation.
std::uint8_t e4m3fn_from_f32(float x) noexcept;

/// Python `repr()` of a double: the shortest round-trip digits, fixed
/// notation for decimal exponents −4 ≤ e < 16 ("2.594409942626953", "1.0",
/// "0.0001"), else scientific with at least two exponent digits ("1e-05",
/// "1.5e+16"); "inf", "-inf", "nan".
std::string python_float_repr(double x);

// ------------------------------------------------------------------ bitsandbytes 4-bit

/// What `Linear4bit` stores for `weight` (tensor names relative to the
/// module prefix, e.g. `model.layers.0.mlp.down_proj.`).
struct Bnb4Result {
    /// `weight`: U8 `[(n+1)/2, 1]`, n = R·C. Element 2i in the high nibble,
    /// 2i+1 in the low one; an odd n is padded with the code of 0.0
    /// (NF4 7, FP4 0). Nibbles are indices into `quant_map`.
    std::vector<std::uint8_t> packed;
    /// Per block of `blocksize` consecutive flat elements: max|x| (f32).
    /// The last partial block holds max(max|x|, f32(1e-38)). Without double
    /// quantization this is `weight.absmax` F32 `[blocks]`.
    std::vector<float> absmax;
    /// Double quantization only (else empty): `weight.absmax` U8 `[blocks]`,
    /// codes of `absmax − nested_offset` in `nested_quant_map`.
    std::vector<std::uint8_t> absmax_q;
    /// Double quantization only: `weight.nested_absmax` F32 `[⌈blocks/256⌉]`.
    std::vector<float> nested_absmax;
    /// Double quantization only: mean of `absmax` (torch CPU f32 order).
    float nested_offset = 0.0f;
    /// `weight.quant_map` F32 `[16]` (NF4 or FP4 table; FP4 entry 8 is +0.0).
    std::vector<float> quant_map;
    /// Double quantization only: `weight.nested_quant_map` F32 `[256]`
    /// (bitsandbytes' signed dynamic map as real checkpoints carry it).
    std::vector<float> nested_quant_map;
    /// `weight.quant_state.bitsandbytes__nf4|fp4`: the U8 bytes of this JSON
    /// (`json.dumps` of `QuantState.as_dict(packed=True)`'s entry).
    std::string quant_state_json;
    /// "quant_state.bitsandbytes__nf4" or "quant_state.bitsandbytes__fp4".
    std::string quant_state_suffix;
};

/// bitsandbytes NF4/FP4 of the whole flattened weight, blocks of
/// `blocksize` (64 or 128; any power of two 64…4096 accepted) across rows.
/// Full blocks are scaled by f32(1/absmax), the last partial block divided
/// by its (clamped) absmax; codes by the midpoints of the sorted table, a tie
/// taking the lower code. With `double_quant`, absmax − mean is quantized in
/// blocks of 256 against the dynamic map by the same rules.
Bnb4Result quantize_bnb4(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                         Bnb4Type kind, unsigned blocksize, bool double_quant);

// ------------------------------------------------------------------ LLM.int8

struct Int8Result {
    std::vector<std::int8_t> q;   ///< `weight`: I8 `[R, C]`
    std::vector<float> scb;       ///< `SCB`: F32 `[R]`, max|f16(w)| per row (may be 0 or +inf)
    // `weight_format` is U8 `[]` = 0 (row-major) for every output.
};

/// LLM.int8 row-wise absmax quantization: w → F16 (RNE, |x| ≥ 65520 → ±inf),
/// SCB = max|w16| per row, q = round_half_even(f32(w16 · f32(f32(1/SCB)·127))),
/// a NaN product (rows with SCB 0 or inf) giving 0.
Int8Result quantize_bnb_int8(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype);

// ------------------------------------------------------------------ FP8

struct Fp8Result {
    std::vector<std::uint8_t> q;            ///< `weight`: F8_E4M3 `[R, C]`
    /// compressed-tensors: `weight_scale` in `scale_dtype` (= the weight
    /// dtype), shape `[1]` (tensor), `[R, 1]` (channel) or
    /// `[⌈R/128⌉, ⌈C/128⌉]` (block). DeepSeek: `weight_scale_inv` F32
    /// `[⌈R/128⌉, ⌈C/128⌉]`, the multiplier (dequant = e4m3 · scale).
    std::vector<float> scale;
    std::vector<std::uint64_t> scale_shape;
    DType scale_dtype = DType::F32;
};

/// compressed-tensors FP8 (`float-quantized`), symmetric, dequant = e4m3 · scale:
/// scale = rt(amax / 448) per tensor / row / 128×128 tile (zero padded),
/// 0 → eps of the weight dtype; q = E4M3(clamp(rt(rt(x / scale) + 0), ±448)),
/// rt = rounding to the weight dtype. `granularity`: Tensor, Channel or
/// Block (128 × 128 tiles); Expert and Group throw Error{Usage}.
Fp8Result quantize_fp8_ct(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                          Fp8Granularity granularity);

/// DeepSeek-V3 style 128×128 block FP8 (DeepGEMM `per_block_cast_to_fp8`):
/// sf = max(amax_f32, f32(1e-4)) / 448 (true division), with `ue8m0`
/// rounded up to a power of two (exponent clamped to [1, 254]);
/// q = E4M3(f32(x · f32(1/sf))), no clamp; −0.0 stays 0x80.
Fp8Result quantize_fp8_deepseek(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                                bool ue8m0);

// ------------------------------------------------------------------ compressed-tensors INT (pack-quantized)

struct PackedIntResult {
    /// `weight_packed`: I32 `[R, ⌈C·bits/32⌉]`; element j of a row is
    /// u = q + 2^(bits−1) at bits (j·bits) % 32 of word j·bits/32.
    std::vector<std::int32_t> packed;
    std::uint64_t packed_cols = 0;
    /// `weight_scale` in `scale_dtype` (= the weight dtype): `[R, C/group]`
    /// or `[R, 1]` (channel).
    std::vector<float> scale;
    std::vector<std::uint64_t> scale_shape;
    DType scale_dtype = DType::F32;
    /// Asymmetric only (else empty): the int8 zero points `[R, groups]`
    /// and `weight_zero_point` I32 `[⌈R·bits/32⌉, groups]`, packed the same
    /// way down dim 0.
    std::vector<std::int8_t> zero_point;
    std::vector<std::int32_t> zero_point_packed;
    std::vector<std::uint64_t> zero_point_packed_shape;
    /// `weight_shape`: I64 `[2]` = {R, C}.
    std::vector<std::int64_t> weight_shape;
    /// The quantized integers q ∈ [−2^(bits−1), 2^(bits−1)−1], `[R, C]`
    /// (for the loss report; dequant = (q − zp) · scale in the weight dtype).
    std::vector<std::int8_t> q;
};

/// compressed-tensors INT4/INT8 weights. `group_size` 0 = channel (one
/// scale per row), else it must divide C (compressed-tensors raises
/// otherwise). Symmetric: scale = rt(amax / 7.5 | 127.5), zp = 0.
/// Asymmetric: scale = rt(rt(max − min) / 15 | 255),
/// zp = round_half_even(clamp(rt(qmin − rt(min/scale)), qmin, qmax)) computed
/// before a zero scale becomes eps (NaN → 0). Then
/// q = round_half_even(clamp(rt(rt(x / scale) + zp), qmin, qmax)).
PackedIntResult quantize_ct_int(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                                unsigned bits, bool symmetric, unsigned group_size);

}  // namespace amn::st
