// SPDX-License-Identifier: MIT OR Apache-2.0
// SKELETON: not implemented yet (zero-filled output)
#include "kernels/gguf/gguf_quantize.hpp"
#include <cstring>
namespace amn::kernels::gguf::scalar {
void quantize_q2_K(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q3_K(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q4_K(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q5_K(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q6_K(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
}
