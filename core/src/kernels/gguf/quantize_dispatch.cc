// SPDX-License-Identifier: MIT OR Apache-2.0
// Encoder lookup by ggml type id, generated from AMN_GGML_TYPES
// (anamnesis/ggml_type_list.hpp), `encoder` column: the scalar reference of
// every type that has one, and the registry's encoder (the Highway-dispatched
// one of quantize_simd_*.cc for the types marked SIMD, the scalar reference
// for SCALAR).
#include "kernels/gguf/gguf_quantize.hpp"

namespace amn::kernels::gguf {

// The unqualified quantize_<kernel>: the registry's entry point.
#define AMN_FORWARD_SIMD(kernel) \
    void quantize_##kernel(const float* src, std::uint8_t* dst, std::size_t n_blocks) { simd::quantize_##kernel(src, dst, n_blocks); }
#define AMN_FORWARD_SCALAR(kernel) \
    void quantize_##kernel(const float* src, std::uint8_t* dst, std::size_t n_blocks) { scalar::quantize_##kernel(src, dst, n_blocks); }
#define AMN_FORWARD_NONE(kernel)
#define AMN_FORWARD(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) AMN_FORWARD_##encoder(kernel)
AMN_GGML_TYPES(AMN_FORWARD)
#undef AMN_FORWARD
#undef AMN_FORWARD_NONE
#undef AMN_FORWARD_SCALAR
#undef AMN_FORWARD_SIMD

#define AMN_SCALAR_ENCODER_SIMD(kernel) scalar::quantize_##kernel
#define AMN_SCALAR_ENCODER_SCALAR(kernel) scalar::quantize_##kernel
#define AMN_SCALAR_ENCODER_NONE(kernel) nullptr
#define AMN_BEST_ENCODER_SIMD(kernel) quantize_##kernel
#define AMN_BEST_ENCODER_SCALAR(kernel) quantize_##kernel
#define AMN_BEST_ENCODER_NONE(kernel) nullptr
#define AMN_HAS_SIMD_ENCODER_SIMD true
#define AMN_HAS_SIMD_ENCODER_SCALAR false
#define AMN_HAS_SIMD_ENCODER_NONE false

Encoder scalar_encoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_SCALAR_ENCODER_##encoder(kernel);
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return nullptr;
    }
}

Encoder best_encoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_BEST_ENCODER_##encoder(kernel);
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return nullptr;
    }
}

bool has_simd_encoder(int ggml_id) noexcept {
    switch (ggml_id) {
#define AMN_CASE(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    case id: return AMN_HAS_SIMD_ENCODER_##encoder;
        AMN_GGML_TYPES(AMN_CASE)
#undef AMN_CASE
        default: return false;
    }
}

}  // namespace amn::kernels::gguf
