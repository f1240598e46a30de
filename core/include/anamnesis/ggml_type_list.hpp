// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file ggml_type_list.hpp
/// The one list of ggml block types the core knows, as an X-macro. Every
/// place that enumerates ggml types expands it: the `DType` enumerators
/// (dtype.hpp), the registry rows (core/src/ggml_types.cc), the decoder
/// lookups (core/src/kernels/gguf/decode_dispatch.cc), the block-struct size
/// checks (core/src/kernels/gguf/blocks.hpp) and the tests.
///
/// `AMN_GGML_TYPES(X)` calls `X(NAME, id, block_elems, block_bytes, kernel, decoder)`
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
///
/// Ids 4, 5 (Q4_2, Q4_3), 31–33 (Q4_0_4_4 …) and 36–38 (IQ4_NL_4_4 …) were
/// removed from ggml and are not valid in GGUF files; they stay unlisted, so
/// a tensor of such a type is shown as "ggml type N" and not converted.
/// ggml's plain types (F32, F16, BF16, F64, I8 … I64) are plain dtypes, not
/// listed here.
///
/// Adding a ggml type: one line here, its block struct in blocks.hpp, its
/// scalar decoder in one of core/src/kernels/gguf/{legacy,kquants,iquants,
/// fp4_ternary}.cc (and optionally a Highway one in simd_*.cc).
#define AMN_GGML_TYPES(X)                        \
    X(Q4_0, 2, 32, 18, q4_0, SIMD)               \
    X(Q4_1, 3, 32, 20, q4_1, SIMD)               \
    X(Q5_0, 6, 32, 22, q5_0, SIMD)               \
    X(Q5_1, 7, 32, 24, q5_1, SIMD)               \
    X(Q8_0, 8, 32, 34, q8_0, SIMD)               \
    X(Q8_1, 9, 32, 36, q8_1, SCALAR)             \
    X(Q2_K, 10, 256, 84, q2_K, SIMD)             \
    X(Q3_K, 11, 256, 110, q3_K, SIMD)            \
    X(Q4_K, 12, 256, 144, q4_K, SIMD)            \
    X(Q5_K, 13, 256, 176, q5_K, SIMD)            \
    X(Q6_K, 14, 256, 210, q6_K, SIMD)            \
    X(Q8_K, 15, 256, 292, q8_K, SCALAR)          \
    X(IQ2_XXS, 16, 256, 66, iq2_xxs, SIMD)       \
    X(IQ2_XS, 17, 256, 74, iq2_xs, SIMD)         \
    X(IQ3_XXS, 18, 256, 98, iq3_xxs, SIMD)       \
    X(IQ1_S, 19, 256, 50, iq1_s, SIMD)           \
    X(IQ4_NL, 20, 32, 18, iq4_nl, SIMD)          \
    X(IQ3_S, 21, 256, 110, iq3_s, SIMD)          \
    X(IQ2_S, 22, 256, 82, iq2_s, SIMD)           \
    X(IQ4_XS, 23, 256, 136, iq4_xs, SIMD)        \
    X(IQ1_M, 29, 256, 56, iq1_m, SIMD)           \
    X(TQ1_0, 34, 256, 54, tq1_0, SIMD)           \
    X(TQ2_0, 35, 256, 66, tq2_0, SIMD)           \
    X(MXFP4, 39, 32, 17, mxfp4, SIMD)            \
    X(NVFP4, 40, 64, 36, nvfp4, SIMD)            \
    X(Q1_0, 41, 128, 18, q1_0, SIMD)             \
    X(Q2_0, 42, 64, 18, q2_0, SIMD)
