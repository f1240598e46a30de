// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: ggml block-type dequantizers (GGUF tensors).
//
// Every decoder has the registry's DecodeToF32 shape: `n_blocks` whole
// blocks at `src` (n_blocks × the type's bytes per block, any alignment)
// into n_blocks × block elements f32 at `dst`. Each one matches ggml's
// `dequantize_row_<type>` (ggml-quants.c) bit for bit: the same f32
// operations in the same order, no FMA contraction, fp16 scales converted
// exactly, IEEE signed zeros kept. gguf-py's `quants.dequantize` agrees with
// ggml wherever it has the type.
//
// `scalar::` holds the readable reference of every type (legacy.cc,
// kquants.cc, iquants.cc, fp4_ternary.cc). The unqualified functions are the
// Highway-dispatched SIMD versions (simd_*.cc) of the types marked `SIMD` in
// AMN_GGML_TYPES (anamnesis/ggml_type_list.hpp); the registry uses them
// where they exist and the scalar reference otherwise (decode_dispatch.cc).
// Block layouts: blocks.hpp.

#include "anamnesis/ggml_type_list.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace amn::kernels::gguf {

static_assert(std::endian::native == std::endian::little, "GGUF kernels assume a little-endian host");

using Decoder = void (*)(const std::uint8_t* src, float* dst, std::size_t n_blocks);

/// Exact IEEE binary16 → f32 (subnormals, ±0, ±inf, NaN payload kept),
/// the value of ggml's GGML_FP16_TO_FP32.
inline float fp16_to_f32(std::uint16_t h) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1Fu;
    const std::uint32_t man = h & 0x3FFu;
    std::uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {  // subnormal: man × 2^-24, exact in f32
            const float f = static_cast<float>(man) * 0x1p-24f;
            return sign ? -f : f;
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | (man << 13);
    } else {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

/// Little-endian loads from unaligned block bytes.
inline std::uint16_t load_u16(const std::uint8_t* p) noexcept {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}
inline std::uint32_t load_u32(const std::uint8_t* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
inline float load_fp16(const std::uint8_t* p) noexcept { return fp16_to_f32(load_u16(p)); }

/// ggml_e8m0_to_fp32_half: 2^(e−128) (MXFP4 scale; the codebook is doubled).
inline float e8m0_to_f32_half(std::uint8_t e) noexcept {
    const std::uint32_t bits = e < 2 ? (0x00200000u << e) : (static_cast<std::uint32_t>(e - 1) << 23);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

/// ggml_ue4m3_to_fp32: half the value of an unsigned E4M3 scale (NVFP4);
/// 0x00 and 0x7F (NaN) decode to 0; the top bit is ignored.
float ue4m3_to_f32_half(std::uint8_t x) noexcept;

namespace scalar {
#define AMN_DECLARE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    void dequantize_##kernel(const std::uint8_t* src, float* dst, std::size_t n_blocks);
AMN_GGML_TYPES(AMN_DECLARE)
#undef AMN_DECLARE
}  // namespace scalar

/// The Highway-dispatched decoders (simd_*.cc), one per type whose list
/// entry says `SIMD`.
#define AMN_DECLARE_SIMD(kernel) void dequantize_##kernel(const std::uint8_t* src, float* dst, std::size_t n_blocks);
#define AMN_DECLARE_SCALAR(kernel)
#define AMN_DECLARE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) AMN_DECLARE_##decoder(kernel)
AMN_GGML_TYPES(AMN_DECLARE)
#undef AMN_DECLARE
#undef AMN_DECLARE_SCALAR
#undef AMN_DECLARE_SIMD

/// `AMN_GGUF_DECODER_##decoder(kernel)`: the decoder the registry uses for a
/// list entry, the SIMD-dispatched one or the scalar reference.
#define AMN_GGUF_DECODER_SIMD(kernel) ::amn::kernels::gguf::dequantize_##kernel
#define AMN_GGUF_DECODER_SCALAR(kernel) ::amn::kernels::gguf::scalar::dequantize_##kernel

/// The scalar reference decoder of ggml type `ggml_id`; nullptr when none.
Decoder scalar_decoder(int ggml_id) noexcept;
/// The decoder the registry uses (SIMD-dispatched when available); nullptr when none.
Decoder best_decoder(int ggml_id) noexcept;
/// True when `ggml_id` has a Highway SIMD decoder (tests compare it with scalar).
bool has_simd_decoder(int ggml_id) noexcept;

}  // namespace amn::kernels::gguf
