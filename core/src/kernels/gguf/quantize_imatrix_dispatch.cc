// SPDX-License-Identifier: MIT OR Apache-2.0
// imatrix_encoder / requires_imatrix (gguf_quantize.hpp): what
// ggml_quantize_chunk runs per type when given an importance matrix, and
// what it runs with NULL.
#include "anamnesis/dtype.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/gguf/quantize_imatrix.hpp"

namespace amn::kernels::gguf {

namespace {

// Without an imatrix ggml quantizes block by block: the block encoder over
// all the rows at once (the dispatched one; it equals the scalar reference).
template <int Id>
void blockwise(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float*) {
    const DTypeInfo* info = dtype_info(dtype_from_ggml_id(Id));
    best_encoder(Id)(src, dst, nrows * n_per_row / info->block_elems);
}

// ggml's `if (!quant_weights) <ref> else <impl per row>`.
template <int Id, ImatrixEncoder Impl>
void ref_or_impl(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* imatrix) {
    if (imatrix)
        Impl(src, dst, nrows, n_per_row, imatrix);
    else
        blockwise<Id>(src, dst, nrows, n_per_row, nullptr);
}

}  // namespace

// Generated from AMN_GGML_TYPES' `imatrix` column.
#define AMN_IMATRIX_REF_OR_IMPL(id, kernel) ref_or_impl<id, imat::quantize_##kernel>
#define AMN_IMATRIX_BLOCKWISE(id, kernel) blockwise<id>
#define AMN_IMATRIX_IMPL(id, kernel) imat::quantize_##kernel
#define AMN_IMATRIX_REQUIRED(id, kernel) imat::quantize_##kernel
#define AMN_IMATRIX_NONE(id, kernel) nullptr

ImatrixEncoder imatrix_encoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_IMATRIX_##imatrix(id, kernel);
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return nullptr;
    }
}

bool requires_imatrix(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_IS_REQUIRED_REF_OR_IMPL false
#define AMN_IS_REQUIRED_BLOCKWISE false
#define AMN_IS_REQUIRED_IMPL false
#define AMN_IS_REQUIRED_REQUIRED true
#define AMN_IS_REQUIRED_NONE false
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_IS_REQUIRED_##imatrix;
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return false;
    }
}

}  // namespace amn::kernels::gguf
