// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the block layouts of ggml's block types, as in ggml-common.h
// (`ggml_half` is the raw IEEE binary16 bits, a std::uint16_t here).
//
// The structs name the fields; the kernels never dereference a block through
// a struct pointer, since tensor data may sit at any address. They walk byte
// pointers, `x += sizeof(block_q4_K)`, and reach a field at
// `x + offsetof(block_q4_K, qs)`, reading multi-byte values with the memcpy
// loads of gguf_kernels.hpp (load_fp16, load_u16, load_u32).
//
// Every struct carries its element count `elems`; both it and sizeof() are
// checked against the type list (anamnesis/ggml_type_list.hpp) below.

#include "anamnesis/ggml_type_list.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace amn::kernels::gguf {

using ggml_half = std::uint16_t;  ///< IEEE binary16 bits (fp16_to_f32 in gguf_kernels.hpp)

constexpr std::size_t QK_K = 256;  ///< elements per k-quant / IQ super-block

// ---- 32-element legacy blocks, and the 1-/2-bit Q1_0, Q2_0

struct block_q4_0 {
    static constexpr std::size_t elems = 32;
    ggml_half d;
    std::uint8_t qs[16];  // nibbles: element j low, element j + 16 high
};
struct block_q4_1 {
    static constexpr std::size_t elems = 32;
    ggml_half d, m;
    std::uint8_t qs[16];
};
struct block_q5_0 {
    static constexpr std::size_t elems = 32;
    ggml_half d;
    std::uint8_t qh[4];  // 5th bits, a little-endian u32
    std::uint8_t qs[16];
};
struct block_q5_1 {
    static constexpr std::size_t elems = 32;
    ggml_half d, m;
    std::uint8_t qh[4];
    std::uint8_t qs[16];
};
struct block_q8_0 {
    static constexpr std::size_t elems = 32;
    ggml_half d;
    std::int8_t qs[32];
};
struct block_q8_1 {
    static constexpr std::size_t elems = 32;
    ggml_half d, s;  // s = d × Σqs (dot products only)
    std::int8_t qs[32];
};
struct block_q1_0 {
    static constexpr std::size_t elems = 128;
    ggml_half d;
    std::uint8_t qs[16];  // one sign bit per element
};
struct block_q2_0 {
    static constexpr std::size_t elems = 64;
    ggml_half d;
    std::uint8_t qs[16];  // 2 bits per element
};

// ---- k-quants: 256-element super-blocks

struct block_q2_K {
    static constexpr std::size_t elems = QK_K;
    std::uint8_t scales[QK_K / 16];  // 4-bit scale, 4-bit min
    std::uint8_t qs[QK_K / 4];
    ggml_half d, dmin;
};
struct block_q3_K {
    static constexpr std::size_t elems = QK_K;
    std::uint8_t hmask[QK_K / 8];
    std::uint8_t qs[QK_K / 4];
    std::uint8_t scales[12];  // 16 6-bit scales
    ggml_half d;
};
struct block_q4_K {
    static constexpr std::size_t elems = QK_K;
    ggml_half d, dmin;
    std::uint8_t scales[12];  // 8 6-bit scales and mins (get_scale_min_k4)
    std::uint8_t qs[QK_K / 2];
};
struct block_q5_K {
    static constexpr std::size_t elems = QK_K;
    ggml_half d, dmin;
    std::uint8_t scales[12];
    std::uint8_t qh[QK_K / 8];
    std::uint8_t qs[QK_K / 2];
};
struct block_q6_K {
    static constexpr std::size_t elems = QK_K;
    std::uint8_t ql[QK_K / 2];
    std::uint8_t qh[QK_K / 4];
    std::int8_t scales[QK_K / 16];
    ggml_half d;
};
struct block_q8_K {
    static constexpr std::size_t elems = QK_K;
    float d;
    std::int8_t qs[QK_K];
    std::int16_t bsums[QK_K / 16];
};

// ---- IQ types

struct block_iq2_xxs {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint16_t qs[QK_K / 8];
};
struct block_iq2_xs {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint16_t qs[QK_K / 8];
    std::uint8_t scales[QK_K / 32];
};
struct block_iq2_s {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint8_t qs[QK_K / 4];  // 32 grid indices, then 32 sign bytes
    std::uint8_t qh[QK_K / 32];
    std::uint8_t scales[QK_K / 32];
};
struct block_iq3_xxs {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint8_t qs[3 * QK_K / 8];  // 64 grid indices, then 8 u32 of scales and signs
};
struct block_iq3_s {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint8_t qs[QK_K / 4];
    std::uint8_t qh[QK_K / 32];
    std::uint8_t signs[QK_K / 8];
    std::uint8_t scales[4];
};
struct block_iq1_s {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint8_t qs[QK_K / 8];
    std::uint16_t qh[QK_K / 32];
};
struct block_iq1_m {
    static constexpr std::size_t elems = QK_K;
    std::uint8_t qs[QK_K / 8];
    std::uint8_t qh[QK_K / 16];
    std::uint8_t scales[QK_K / 32];  // 4 u16; their top nibbles hold the fp16 scale
};
struct block_iq4_nl {
    static constexpr std::size_t elems = 32;
    ggml_half d;
    std::uint8_t qs[16];
};
struct block_iq4_xs {
    static constexpr std::size_t elems = QK_K;
    ggml_half d;
    std::uint16_t scales_h;
    std::uint8_t scales_l[QK_K / 64];
    std::uint8_t qs[QK_K / 2];
};

// ---- ternary and FP4 types

struct block_tq1_0 {
    static constexpr std::size_t elems = QK_K;
    std::uint8_t qs[(QK_K - 4 * QK_K / 64) / 5];  // 5 base-3 digits per byte
    std::uint8_t qh[QK_K / 64];                   // 4 digits per byte
    ggml_half d;
};
struct block_tq2_0 {
    static constexpr std::size_t elems = QK_K;
    std::uint8_t qs[QK_K / 4];
    ggml_half d;
};
struct block_mxfp4 {
    static constexpr std::size_t elems = 32;
    std::uint8_t e;  // E8M0 scale
    std::uint8_t qs[16];
};
struct block_nvfp4 {
    static constexpr std::size_t elems = 64;
    std::uint8_t d[4];  // UE4M3 scale per 16 elements
    std::uint8_t qs[32];
};

// The layouts agree with the type list: bytes and elements per block.
#define AMN_CHECK_BLOCK(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix)                      \
    static_assert(std::is_standard_layout_v<block_##kernel>);                                     \
    static_assert(sizeof(block_##kernel) == (block_bytes), "block_" #kernel ": size differs from ggml"); \
    static_assert(block_##kernel::elems == (block_elems), "block_" #kernel ": elements differ from ggml");
AMN_GGML_TYPES(AMN_CHECK_BLOCK)
#undef AMN_CHECK_BLOCK

}  // namespace amn::kernels::gguf
