// SPDX-License-Identifier: MIT OR Apache-2.0
// SKELETON: not implemented yet (zero-filled output)
#include "kernels/gguf/gguf_quantize.hpp"
#include <cstring>
namespace amn::kernels::gguf::scalar {
void quantize_iq4_nl(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
void quantize_iq4_xs(const float*, std::uint8_t* dst, std::size_t n_blocks) { (void)dst; (void)n_blocks; }
}
