// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: ggml block-type quantizers (encoders), the reverse of
// gguf_kernels.hpp's decoders.
//
// Every encoder has the registry's EncodeFromF32 shape: `n_blocks` whole
// blocks of f32 at `src` (n_blocks × the type's block elements) into
// n_blocks × the type's bytes per block at `dst` (any alignment). Without an
// importance matrix ggml quantizes block by block, so a row, a chunk of rows
// or a whole tensor is just a run of blocks.
//
// Each one reproduces, byte for byte, what ggml's
// `ggml_quantize_chunk(type, src, dst, 0, nrows, n_per_row, imatrix = NULL)`
// writes (ggml 34af94c; shared fixtures quantize-ref/): for most types that
// is `quantize_row_<type>_ref`; for IQ4_NL it is
// `quantize_row_iq4_nl_impl(…, ntry = 7)` (not the `_ref`, which passes
// ntry = −1). Same f32 operations in ggml's order, no FMA contraction
// (-ffp-contract=off), ggml's rounding functions as written (nearest_int's
// magic-number round-half-even, roundf/lroundf half away from zero,
// truncating casts), and x86-64 GCC semantics for float→int conversions of
// inf/NaN/out-of-range values (0x80000000, low bits kept).
//
// `scalar::` holds the readable reference of every encoder. The unqualified
// functions are what the registry uses: the Highway-dispatched SIMD version
// where one exists, otherwise the scalar reference itself.

#include "anamnesis/ggml_type_list.hpp"

#include <cstddef>
#include <cstdint>

namespace amn::kernels::gguf {

using Encoder = void (*)(const float* src, std::uint8_t* dst, std::size_t n_blocks);

// The encoders come from the one type list (anamnesis/ggml_type_list.hpp):
// every type whose `encoder` column is SIMD or SCALAR has
// scalar::quantize_<kernel> and the unqualified quantize_<kernel>; SIMD ones
// also simd::quantize_<kernel>.
#define AMN_ENCODER_DECLARE_SIMD(kernel) void quantize_##kernel(const float* src, std::uint8_t* dst, std::size_t n_blocks);
#define AMN_ENCODER_DECLARE_SCALAR(kernel) AMN_ENCODER_DECLARE_SIMD(kernel)
#define AMN_ENCODER_DECLARE_NONE(kernel)
#define AMN_DECLARE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    AMN_ENCODER_DECLARE_##encoder(kernel)
namespace scalar {
AMN_GGML_TYPES(AMN_DECLARE)
}  // namespace scalar

AMN_GGML_TYPES(AMN_DECLARE)
#undef AMN_DECLARE
#undef AMN_ENCODER_DECLARE_NONE
#undef AMN_ENCODER_DECLARE_SCALAR

/// Highway-dispatched encoders (quantize_simd_*.cc), byte-identical to
/// scalar:: on every target. Legacy types: blocks whose scale is zero,
/// subnormal or not finite (and, for Q4_1/Q5_1, blocks whose minimum is a
/// zero; for Q4_0/Q5_0, blocks whose largest magnitude occurs with both
/// signs) take the scalar path. Q4_0, Q4_1, Q5_0, Q5_1 run lanes = blocks
/// (one 32-element block per f32 lane, the last blocks zero-padded to a
/// batch); a batch holding NaN takes the scalar path whole. K-quants and IQ4_*: the scale searches run
/// one sub-block per lane; blocks holding inf or NaN take the scalar path.
/// TQ1_0, TQ2_0, Q2_0: blocks with a zero, subnormal or non-finite d, or
/// holding inf or NaN, take the scalar path. MXFP4, NVFP4: blocks holding
/// inf or NaN take the scalar path. Q1_0: lanes = blocks (the |x| sum in
/// element order, 4 blocks at a time on AVX2/AVX3, one vector's worth
/// elsewhere); the last blocks, fewer than that, take the scalar path.
/// (Every type whose list entry says `encoder` SIMD.)
#define AMN_ENCODER_DECLARE_SCALAR(kernel)
#define AMN_ENCODER_DECLARE_NONE(kernel)
#define AMN_DECLARE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    AMN_ENCODER_DECLARE_##encoder(kernel)
namespace simd {
AMN_GGML_TYPES(AMN_DECLARE)
}  // namespace simd
#undef AMN_DECLARE
#undef AMN_ENCODER_DECLARE_NONE
#undef AMN_ENCODER_DECLARE_SCALAR
#undef AMN_ENCODER_DECLARE_SIMD

/// The scalar reference encoder of ggml type `ggml_id`; nullptr when none.
Encoder scalar_encoder(int ggml_id) noexcept;
/// The encoder the registry uses (SIMD-dispatched when available); nullptr when none.
Encoder best_encoder(int ggml_id) noexcept;
/// True when `ggml_id` has a Highway SIMD encoder (tests compare it with scalar).
bool has_simd_encoder(int ggml_id) noexcept;

// ---- With an importance matrix ----------------------------------------
//
// llama-quantize's `--imatrix` path: ggml_quantize_chunk(type, src, dst, 0,
// nrows, n_per_row, imatrix). The importance matrix is one weight per
// column (llama-imatrix's in_sum2 / counts, see anamnesis/imatrix.hpp), the
// same for every row, so these encoders take whole rows: `nrows` rows of
// `n_per_row` f32 values at `src` (n_per_row a multiple of the type's block
// elements) into nrows × n_per_row / block elements blocks at `dst`.
//
// With `imatrix == nullptr` an encoder writes exactly what ggml writes with
// NULL: for the types with a block encoder (the list's `encoder` column) that is the encoder above;
// IQ3_XXS, IQ3_S, IQ2_S and IQ1_M have no-imatrix weightings of their own.
// IQ2_XXS, IQ2_XS and IQ1_S require an imatrix (ggml aborts): their
// encoders throw amn::Error{Usage} when given nullptr. Types for which ggml
// ignores the imatrix (Q8_0, Q1_0, Q2_0, TQ1_0, TQ2_0, MXFP4, NVFP4) give
// the same bytes with or without one.
//
// Byte-exact with ggml 34af94c: every tensor of the 15 imatrix-made files of
// the shared fixtures gguf-real/ (tests/core/test_gguf_imatrix.cc).
using ImatrixEncoder = void (*)(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row,
                                const float* imatrix /* n_per_row weights, or nullptr */);

/// The importance-matrix encoder of ggml type `ggml_id`: the 18 types above
/// plus IQ2_XXS (16), IQ2_XS (17), IQ3_XXS (18), IQ1_S (19), IQ3_S (21),
/// IQ2_S (22) and IQ1_M (29); nullptr for any other id.
ImatrixEncoder imatrix_encoder(int ggml_id) noexcept;

/// True for the types ggml cannot quantize without an importance matrix
/// (ggml_quantize_requires_imatrix): IQ2_XXS, IQ2_XS and IQ1_S.
bool requires_imatrix(int ggml_id) noexcept;

}  // namespace amn::kernels::gguf
