// SPDX-License-Identifier: MIT OR Apache-2.0
// SKELETON: not implemented yet (zero-filled output)
#include "kernels/gguf/gguf_quantize.hpp"
#include <cstring>
namespace amn::kernels::gguf::scalar {
void quantize_tq1_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_tq2_0(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_mxfp4(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_nvfp4(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
}
