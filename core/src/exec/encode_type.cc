// SPDX-License-Identifier: MIT OR Apache-2.0
#include "exec/encode_type.hpp"

#include "anamnesis/kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"

#include <algorithm>
#include <cstring>

namespace amn::exec {

void encode_to_type(DType type, const float* src, std::uint8_t* dst, std::size_t n, std::uint64_t n_per_row,
                    std::uint64_t row0, std::uint64_t rows_per_matrix, const std::vector<float>* imatrix) {
    switch (type) {
        case DType::F32: std::memcpy(dst, src, n * 4); return;
        case DType::F16: kernels::f32_to_f16(src, reinterpret_cast<std::uint16_t*>(dst), n); return;
        case DType::BF16: kernels::f32_to_bf16(src, reinterpret_cast<std::uint16_t*>(dst), n); return;
        default: break;
    }
    const DTypeInfo* info = dtype_info(type);
    if (!imatrix) {
        if (const auto enc = kernels::gguf::best_encoder(info->ggml_id)) {
            enc(src, dst, n / info->block_elems);
            return;
        }
    }
    const auto enc = kernels::gguf::imatrix_encoder(info->ggml_id);
    const std::uint64_t row_bytes = n_per_row / info->block_elems * info->block_bytes;
    std::uint64_t rows = n / n_per_row, r = 0;
    while (r < rows) {  // one run per matrix (expert) the rows belong to
        const std::uint64_t m = (row0 + r) / rows_per_matrix;
        const std::uint64_t run = std::min(rows - r, (m + 1) * rows_per_matrix - (row0 + r));
        const float* w = imatrix ? imatrix->data() + m * n_per_row : nullptr;
        enc(src + r * n_per_row, dst + r * row_bytes, run, n_per_row, w);
        r += run;
    }
}

}  // namespace amn::exec
