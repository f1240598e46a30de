// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: ggml's quantizers with an importance matrix, one function per
// type with the ImatrixEncoder shape (gguf_quantize.hpp): `nrows` rows of
// `n_per_row` f32 values at `src` into the rows' blocks at `dst`, with
// `imatrix` = n_per_row importance weights (one per column) used for every
// row. Each matches ggml_quantize_chunk(type, src, dst, 0, nrows, n_per_row,
// imatrix) byte for byte (ggml 34af94c; shared fixtures gguf-real/, the 15
// files made with aux/tiny-llama.imatrix.gguf).
//
// These functions require `imatrix != nullptr` unless noted: the dispatcher
// (quantize_imatrix_dispatch.cc) sends nullptr to the no-imatrix encoders,
// as ggml does.

#include <cstddef>
#include <cstdint>

namespace amn::kernels::gguf::imat {

#define AMN_IMATRIX_ROWS(name)                                                                              \
    void quantize_##name(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, \
                         const float* imatrix);

// quantize_imatrix.cc: the `_impl` paths ggml takes only with an imatrix.
AMN_IMATRIX_ROWS(q4_0)
AMN_IMATRIX_ROWS(q4_1)
AMN_IMATRIX_ROWS(q5_0)
AMN_IMATRIX_ROWS(q5_1)
AMN_IMATRIX_ROWS(q2_K)
AMN_IMATRIX_ROWS(q3_K)
AMN_IMATRIX_ROWS(q4_K)
AMN_IMATRIX_ROWS(q5_K)
AMN_IMATRIX_ROWS(q6_K)
AMN_IMATRIX_ROWS(iq4_nl)
AMN_IMATRIX_ROWS(iq4_xs)

// quantize_iq2.cc / quantize_iq3.cc / quantize_iq1.cc: the grid types. IQ3_XXS,
// IQ3_S, IQ2_S and IQ1_M also accept imatrix == nullptr (ggml's no-imatrix
// weights); IQ2_XXS, IQ2_XS and IQ1_S require one.
AMN_IMATRIX_ROWS(iq2_xxs)
AMN_IMATRIX_ROWS(iq2_xs)
AMN_IMATRIX_ROWS(iq2_s)
AMN_IMATRIX_ROWS(iq3_xxs)
AMN_IMATRIX_ROWS(iq3_s)
AMN_IMATRIX_ROWS(iq1_s)
AMN_IMATRIX_ROWS(iq1_m)

#undef AMN_IMATRIX_ROWS

}  // namespace amn::kernels::gguf::imat
