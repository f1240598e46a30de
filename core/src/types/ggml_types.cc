// SPDX-License-Identifier: MIT OR Apache-2.0
// ggml block types: one registry row per entry of AMN_GGML_TYPES
// (anamnesis/ggml_type_list.hpp): name, block size and bytes per block as in
// ggml's type traits, its decoder from core/src/kernels/gguf/ (bit-exact
// with ggml's dequantize_row_*) and its encoder (byte-exact with ggml's
// reference quantizer) where one exists.
#include "types/ggml_types.hpp"

#include "kernels/gguf/gguf_kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"

#include <array>

namespace amn::detail {
namespace {
namespace k = amn::kernels::gguf;

#define AMN_GGML_COUNT(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) +1
constexpr std::size_t kCount = 0 AMN_GGML_TYPES(AMN_GGML_COUNT);
#undef AMN_GGML_COUNT

// The encoders come from a lookup function, so the rows are made once, on first use.
std::array<DTypeInfo, kCount> make_rows() {
    return {{
#define AMN_GGML_ROW(NAME, id, block_elems, block_bytes, kernel, decoder, encoder, imatrix) \
    {DType::NAME, #NAME, block_elems, block_bytes, true, true, id, AMN_GGUF_DECODER_##decoder(kernel), k::best_encoder(id)},
        AMN_GGML_TYPES(AMN_GGML_ROW)
#undef AMN_GGML_ROW
    }};
}
}  // namespace

std::span<const DTypeInfo> ggml_type_rows() noexcept {
    static const std::array<DTypeInfo, kCount> rows = make_rows();
    return rows;
}

}  // namespace amn::detail
