// SPDX-License-Identifier: MIT OR Apache-2.0
// Decoder lookup by ggml type id, generated from AMN_GGML_TYPES
// (anamnesis/ggml_type_list.hpp): the scalar reference of every type, and
// the registry's decoder (the Highway-dispatched one of simd_*.cc for the
// types marked SIMD, the scalar reference otherwise).
#include "kernels/gguf/gguf_kernels.hpp"

namespace amn::kernels::gguf {

#define AMN_IS_SIMD_SIMD true
#define AMN_IS_SIMD_SCALAR false

Decoder scalar_decoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return scalar::dequantize_##kernel;
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return nullptr;
    }
}

Decoder best_decoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_GGUF_DECODER_##decoder(kernel);
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return nullptr;
    }
}

bool has_simd_decoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_IS_SIMD_##decoder;
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return false;
    }
}

}  // namespace amn::kernels::gguf
