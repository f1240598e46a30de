// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/inspect.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace amn {

std::uint64_t Inspection::lethe_took() const noexcept {
    return quantized_bf16_bytes > quantized_stored_bytes ? quantized_bf16_bytes - quantized_stored_bytes : 0;
}

Inspection inspect(const Catalog& cat, const Plan& plan) {
    Inspection r;
    r.format = std::string(format_name(cat.format));
    r.shards = cat.shards.size();
    r.file_bytes = cat.file_bytes();
    r.stored_tensors = cat.tensors.size();
    std::map<std::string, DTypeUse> by_dtype;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& t = cat.tensors[i];
        r.tensor_bytes += t.nbytes;
        auto& u = by_dtype[t.dtype_name];
        u.dtype = t.dtype_name;
        ++u.tensors;
        u.elements += t.numel();
        u.bytes += t.nbytes;
        switch (plan.roles[i]) {
            case Role::Quantized: ++r.quantized; break;
            case Role::Companion: ++r.companions; break;
            case Role::Passthrough: ++r.passthrough; break;
            case Role::Unsupported: ++r.unsupported; break;
        }
    }
    for (auto& [k, u] : by_dtype) r.dtypes.push_back(u);
    std::sort(r.dtypes.begin(), r.dtypes.end(), [](const DTypeUse& a, const DTypeUse& b) { return a.bytes > b.bytes; });
    r.logical_tensors = plan.tensors.size();
    for (const auto& lt : plan.tensors) {
        const std::uint64_t n = lt.numel();
        r.parameters += n;
        if (lt.quantized) {
            r.quantized_parameters += n;
            r.quantized_stored_bytes += lt.stored_bytes;
            r.quantized_bf16_bytes += 2 * n;
        }
        if (!lt.error.empty()) r.errors.push_back({lt.name, lt.error});
    }
    // Companions consumed without a logical tensor of their own (activation
    // scales) still count as quantization overhead.
    std::vector<bool> owned(cat.tensors.size(), false);
    for (const auto& lt : plan.tensors)
        for (auto s : lt.sources) owned[s] = true;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i)
        if (plan.roles[i] == Role::Companion && !owned[i]) r.quantized_stored_bytes += cat.tensors[i].nbytes;
    r.bf16_bytes = 2 * r.parameters;
    r.bits_per_weight = r.quantized_parameters ? 8.0 * static_cast<double>(r.quantized_stored_bytes) / static_cast<double>(r.quantized_parameters) : 0.0;
    r.schemes = plan.schemes;
    r.notes = cat.notes;
    r.notes.insert(r.notes.end(), plan.notes.begin(), plan.notes.end());
    r.warnings = cat.warnings;
    r.warnings.insert(r.warnings.end(), plan.warnings.begin(), plan.warnings.end());
    return r;
}

}  // namespace amn
