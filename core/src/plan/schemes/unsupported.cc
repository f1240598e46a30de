// SPDX-License-Identifier: MIT OR Apache-2.0
// Tensors that belong to a quantization scheme no detector handled: named
// errors instead of passing packed integers through as if they were weights.
#include "facts.hpp"
#include "scheme.hpp"

#include <string>

namespace amn::detail {

void detect_known_unsupported(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        if (b.claimed(i)) continue;
        const auto& name = cat.tensors[i].name;
        const auto scheme = orphan_label(name);  // the facts table's distinctive companion names
        if (!scheme) continue;
        std::string why = "belongs to a quantization scheme this build cannot dequantize (" + std::string(*scheme);
        if (method) why += ", quant_method \"" + *method + "\"";
        b.add_error(i, name, {TensorErrorKind::UnknownScheme, "", why + ")"});
    }
}

}  // namespace amn::detail
