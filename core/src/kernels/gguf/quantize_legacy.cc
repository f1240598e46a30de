// SPDX-License-Identifier: MIT OR Apache-2.0
// SKELETON: not implemented yet (zero-filled output)
#include "kernels/gguf/gguf_quantize.hpp"
#include <cstring>
namespace amn::kernels::gguf::scalar {
void quantize_q4_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q4_1(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q5_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q5_1(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q8_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q1_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_q2_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
}
