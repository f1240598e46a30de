// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file ggml_type_list.hpp
/// The one list of ggml block types the core knows, as an X-macro. Every
/// place that enumerates ggml types expands it: the `DType` enumerators
/// (dtype.hpp), the registry rows (core/src/types/ggml_types.cc), the decoder
/// lookups (core/src/kernels/gguf/decode_dispatch.cc), the encoder lookups
/// (core/src/kernels/gguf/quantize_dispatch.cc, quantize_imatrix_dispatch.cc),
/// the block-struct size checks (core/src/kernels/gguf/blocks.hpp) and the tests.
///
/// `AMN_GGML_TYPES(X)` calls
/// `X(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix)`
/// once per type, by ggml id:
/// - `NAME`: the `DType` enumerator and ggml's spelling of the type ("Q4_K");
/// - `id`: ggml's type id (ggml.h `enum ggml_type`), stored in GGUF files;
///   the enumerator's value is `DType::GgmlBase + id`;
/// - `block_elems`, `block_bytes`: elements and bytes per block
///   (ggml-common.h; `sizeof(block_<kernel>)` in blocks.hpp must agree);
/// - `kernel`: the lower-case stem of the kernel functions
///   (`dequantize_<kernel>`, `quantize_<kernel>`, `block_<kernel>`);
/// - `decoder`: `SIMD` when a Highway decoder `dequantize_<kernel>` exists
///   (core/src/kernels/gguf/simd_*.cc), `SCALAR` when the registry uses the
///   scalar reference `scalar::dequantize_<kernel>` alone. The token is only
///   pasted (`PREFIX_##decoder`), never expanded on its own.
/// - `encoder`: the block encoder (`quantize_<kernel>`, gguf_quantize.hpp;
///   ggml_quantize_chunk without an importance matrix): `SIMD` = a scalar
///   reference `scalar::quantize_<kernel>` (quantize_{legacy,kquants,iquants,
///   fp4_ternary}.cc) and a Highway one `simd::quantize_<kernel>`
///   (quantize_simd_*.cc), the registry using the Highway one; `SCALAR` = the
///   scalar reference alone; `NONE` = no block encoder (the type cannot be
///   written block by block).
/// - `imatrix`: what ggml_quantize_chunk runs with an importance matrix
///   (quantize_imatrix_dispatch.cc): `REF_OR_IMPL` = `imat::quantize_<kernel>`
///   with one, the block encoder without; `BLOCKWISE` = the block encoder
///   either way (ggml ignores the matrix); `IMPL` = `imat::quantize_<kernel>`
///   either way (it has its own no-imatrix weighting); `REQUIRED` = the same,
///   and ggml refuses to quantize without a matrix (ggml_quantize_requires_imatrix);
///   `NONE` = not quantizable.
///
/// Ids 4, 5 (Q4_2, Q4_3), 31–33 (Q4_0_4_4 …) and 36–38 (IQ4_NL_4_4 …) were
/// removed from ggml and are not valid in GGUF files; they stay unlisted, so
/// a tensor of such a type is shown as "ggml type N" and not converted.
/// ggml's plain types (F32, F16, BF16, F64, I8 … I64) are plain dtypes, not
/// listed here.
///
/// Adding a ggml type: one line here, its block struct in blocks.hpp, its
/// scalar decoder in one of core/src/kernels/gguf/{legacy,kquants,iquants,
/// fp4_ternary}.cc (and optionally a Highway one in simd_*.cc), and, when it
/// can be written, its encoder(s) in quantize_*.cc — no dispatch table to edit.
#define AMN_GGML_TYPES(X)                                       \
    X(Q4_0, 2, 32, 18, q4_0, SIMD, SIMD, REF_OR_IMPL)           \
    X(Q4_1, 3, 32, 20, q4_1, SIMD, SIMD, REF_OR_IMPL)           \
    X(Q5_0, 6, 32, 22, q5_0, SIMD, SIMD, REF_OR_IMPL)           \
    X(Q5_1, 7, 32, 24, q5_1, SIMD, SIMD, REF_OR_IMPL)           \
    X(Q8_0, 8, 32, 34, q8_0, SIMD, SIMD, BLOCKWISE)             \
    X(Q8_1, 9, 32, 36, q8_1, SCALAR, NONE, NONE)                \
    X(Q2_K, 10, 256, 84, q2_K, SIMD, SIMD, REF_OR_IMPL)         \
    X(Q3_K, 11, 256, 110, q3_K, SIMD, SIMD, REF_OR_IMPL)        \
    X(Q4_K, 12, 256, 144, q4_K, SIMD, SIMD, REF_OR_IMPL)        \
    X(Q5_K, 13, 256, 176, q5_K, SIMD, SIMD, REF_OR_IMPL)        \
    X(Q6_K, 14, 256, 210, q6_K, SIMD, SIMD, REF_OR_IMPL)        \
    X(Q8_K, 15, 256, 292, q8_K, SCALAR, NONE, NONE)             \
    X(IQ2_XXS, 16, 256, 66, iq2_xxs, SIMD, NONE, REQUIRED)      \
    X(IQ2_XS, 17, 256, 74, iq2_xs, SIMD, NONE, REQUIRED)        \
    X(IQ3_XXS, 18, 256, 98, iq3_xxs, SIMD, NONE, IMPL)          \
    X(IQ1_S, 19, 256, 50, iq1_s, SIMD, NONE, REQUIRED)          \
    X(IQ4_NL, 20, 32, 18, iq4_nl, SIMD, SIMD, REF_OR_IMPL)      \
    X(IQ3_S, 21, 256, 110, iq3_s, SIMD, NONE, IMPL)             \
    X(IQ2_S, 22, 256, 82, iq2_s, SIMD, NONE, IMPL)              \
    X(IQ4_XS, 23, 256, 136, iq4_xs, SIMD, SIMD, REF_OR_IMPL)    \
    X(IQ1_M, 29, 256, 56, iq1_m, SIMD, NONE, IMPL)              \
    X(TQ1_0, 34, 256, 54, tq1_0, SIMD, SIMD, BLOCKWISE)         \
    X(TQ2_0, 35, 256, 66, tq2_0, SIMD, SIMD, BLOCKWISE)         \
    X(MXFP4, 39, 32, 17, mxfp4, SIMD, SIMD, BLOCKWISE)          \
    X(NVFP4, 40, 64, 36, nvfp4, SIMD, SIMD, BLOCKWISE)          \
    X(Q1_0, 41, 128, 18, q1_0, SIMD, SIMD, BLOCKWISE)           \
    X(Q2_0, 42, 64, 18, q2_0, SIMD, SIMD, BLOCKWISE)
