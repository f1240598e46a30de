// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/remember_size.hpp"

namespace amn {

std::uint64_t predicted_output_bytes(const Plan& plan, std::optional<DType> to) {
    std::uint64_t total = 0;
    for (const auto& lt : plan.tensors) {
        if (!lt.recipe) continue;
        DType d = to.value_or(DType::BF16);
        if (!lt.quantized) {
            if (const auto stored = lt.recipe->lossless_dtype()) {
                if (!(to && dtype_is_float(*stored))) d = *stored;
            }
        }
        total += dtype_bytes(d, lt.numel()).value_or(0);
    }
    return total;
}

}  // namespace amn
