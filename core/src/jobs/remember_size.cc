// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/remember_size.hpp"

namespace amn {

DType remember_output_dtype(const Catalog& cat, const LogicalTensor& lt, std::optional<DType> to) {
    if (lt.quantized) return to.value_or(lt.recipe->result_dtype().value_or(DType::BF16));
    const auto stored = lt.recipe->lossless_dtype();
    if (!stored) return to.value_or(DType::BF16);
    if (cat.format == Format::Onnx && *stored == DType::F64) return *stored;
    if (to && dtype_is_float(*stored)) return *to;
    return *stored;
}

std::uint64_t predicted_output_bytes(const Catalog& cat, const Plan& plan, std::optional<DType> to) {
    std::uint64_t total = 0;
    for (const auto& lt : plan.tensors)
        if (lt.recipe) total += dtype_bytes(remember_output_dtype(cat, lt, to), lt.numel()).value_or(0);
    return total;
}

}  // namespace amn
