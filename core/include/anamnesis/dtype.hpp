// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file dtype.hpp
/// The dtype registry: every element type the core knows, from safetensors'
/// dtypes (`F8_E4M3`, `BF16`, …) to ggml block types (`Q4_K`, `IQ2_XXS`, …),
/// in one table in the manner of ggml's type traits. A type is stored in
/// blocks of `block_elems` elements taking `block_bytes` bytes; plain dtypes
/// are blocks of one element (sub-byte safetensors dtypes `F4`, `F6_*` use
/// `block_elems` > 1 so that sizes stay whole bytes).
///
/// Adding a plain dtype = one registry row in core/src/types/dtype.cc; adding a
/// ggml type = one line in ggml_type_list.hpp (which generates its `DType`
/// enumerator and registry row) + its block struct and kernels.

#include "anamnesis/ggml_type_list.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace amn {

/// Element type identifier. Values below `GgmlBase` are dtypes with a
/// safetensors name; `GgmlBase + id` is ggml type `id` (GGUF files store ggml
/// ids; ggml's plain types F32/F16/BF16/F64/I8…I64 map to the plain values).
enum class DType : std::uint16_t {
    Unknown = 0,
    BOOL, U8, I8, U16, I16, U32, I32, U64, I64,
    F16, BF16, F32, F64, C64, C128,
    F8_E4M3,      ///< OCP E4M3 "fn": bias 7, no inf, NaN = S.1111.111
    F8_E5M2,      ///< IEEE-like E5M2: bias 15, inf and NaN
    F8_E4M3FNUZ,  ///< AMD E4M3: bias 8, no inf, no −0, NaN = 0x80
    F8_E5M2FNUZ,  ///< AMD E5M2: bias 16, no inf, no −0, NaN = 0x80
    F8_E8M0,      ///< OCP UE8M0 scale: 2^(e−127), 0xFF = NaN
    F4,           ///< E2M1 (MX FP4), two per byte, first element in the low nibble
    F6_E2M3,      ///< MX FP6 E2M3, four per three bytes
    F6_E3M2,      ///< MX FP6 E3M2, four per three bytes

    GgmlBase = 0x100,
    // ggml block types: GgmlBase + ggml type id (ggml.h `enum ggml_type`).
#define AMN_GGML_ENUMERATOR(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) NAME = GgmlBase + id,
    AMN_GGML_TYPES(AMN_GGML_ENUMERATOR)
#undef AMN_GGML_ENUMERATOR
};

/// Decoder from stored blocks to f32: `n_blocks` whole blocks at `src`
/// (`n_blocks × block_bytes` bytes) into `n_blocks × block_elems` floats.
/// Pure, no allocation, dispatched to the best SIMD target when it has one.
using DecodeToF32 = void (*)(const std::uint8_t* src, float* dst, std::size_t n_blocks);

/// Encoder from f32 to stored blocks, the reverse of DecodeToF32: `n_blocks`
/// whole blocks of f32 at `src` (`n_blocks × block_elems` floats) into
/// `n_blocks × block_bytes` bytes at `dst` (any alignment). Pure, no
/// allocation; for ggml types byte-exact with ggml's reference quantizer
/// (core/src/kernels/gguf/gguf_quantize.hpp).
using EncodeFromF32 = void (*)(const float* src, std::uint8_t* dst, std::size_t n_blocks);

/// One registry row.
struct DTypeInfo {
    DType dtype;
    std::string_view name;        ///< canonical name: safetensors spelling or ggml's ("Q4_K")
    std::uint32_t block_elems;    ///< elements per block (1 for plain dtypes)
    std::uint32_t block_bytes;    ///< bytes per block
    bool is_float;                ///< a floating-point type (output of dequantization is float)
    bool is_quantized_block;      ///< a ggml block-quantized type
    int ggml_id;                  ///< ggml type id, or −1 when ggml has none
    DecodeToF32 to_f32;           ///< nullptr when the core cannot decode it (yet)
    /// Encoder to this type: for ggml types the GGUF quantizer
    /// (`kernels::gguf::best_encoder`, SIMD-dispatched where available);
    /// nullptr for ggml types without one and for plain dtypes.
    EncodeFromF32 from_f32;
};

/// The registry row of `t`, or nullptr for `DType::Unknown` and ids nobody registered.
const DTypeInfo* dtype_info(DType t) noexcept;

/// Canonical name of `t`; "unknown" when unregistered (for ggml ids: "ggml type N").
std::string dtype_name(DType t);

/// Look up a safetensors dtype string ("F8_E4M3", "BF16", …); nullopt when unknown.
/// Also accepts the aliases other writers use: "F8_E4M3FN" for F8_E4M3.
std::optional<DType> dtype_from_safetensors_name(std::string_view name) noexcept;

/// Map a ggml type id (GGUF tensor info) to a DType: plain types to their
/// plain value, block types to `GgmlBase + id`. Unregistered ids still map
/// (to `GgmlBase + id`) so that a file with a newer type stays listable;
/// `dtype_info()` is then nullptr.
DType dtype_from_ggml_id(std::uint32_t id) noexcept;

/// Byte size of `numel` elements of `t`; nullopt when `numel` is not a whole
/// number of blocks, the size overflows 64 bits, or `t` is unregistered.
std::optional<std::uint64_t> dtype_bytes(DType t, std::uint64_t numel) noexcept;

/// True for types whose values are floating point (F16, BF16, F32, F64,
/// all F8/F6/F4 and every ggml block type).
bool dtype_is_float(DType t) noexcept;

/// Element size in bits for plain types, or the mean bits per weight of a
/// block type (block_bytes × 8 / block_elems).
double dtype_bits_per_element(DType t) noexcept;

/// Every registered row, plain dtypes first, then ggml types by id.
std::span<const DTypeInfo> dtype_table() noexcept;

}  // namespace amn
