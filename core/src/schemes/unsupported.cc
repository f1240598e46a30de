// SPDX-License-Identifier: MIT OR Apache-2.0
// Tensors that belong to a quantization scheme no detector handled: named
// errors instead of passing packed integers through as if they were weights.
#include "scheme.hpp"

#include <array>
#include <string>

namespace amn::detail {
namespace {

bool ends_with(std::string_view s, std::string_view suf) {
    return s.size() >= suf.size() && s.substr(s.size() - suf.size()) == suf;
}

struct Marker { std::string_view suffix; std::string_view scheme; };
constexpr std::array kMarkers{
    Marker{".qweight", "GPTQ/AWQ packed weight"},
    Marker{".qzeros", "GPTQ/AWQ zero points"},
    Marker{".g_idx", "GPTQ act-order group index"},
    Marker{".absmax", "bitsandbytes block absmax"},
    Marker{".quant_map", "bitsandbytes codebook"},
    Marker{".SCB", "bitsandbytes LLM.int8 row scales"},
    Marker{".weight_packed", "compressed-tensors packed weight"},
    Marker{".weight_zero_point", "compressed-tensors zero point"},
    Marker{".weight_global_scale", "compressed-tensors NVFP4 global scale"},
    Marker{".weight_g_idx", "compressed-tensors act-order group index"},
    Marker{".weight_shape", "compressed-tensors packed weight shape"},
    Marker{".weight_scale_2", "ModelOpt NVFP4 second-level scale"},
    Marker{"_blocks", "MXFP4 blocks"},
};

}  // namespace

void detect_known_unsupported(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        if (b.claimed(i)) continue;
        const auto& name = cat.tensors[i].name;
        std::string_view scheme;
        for (const auto& m : kMarkers)
            if (ends_with(name, m.suffix)) { scheme = m.scheme; break; }
        if (scheme.empty() && (name.find(".quant_state.") != std::string::npos || name.find(".nested_") != std::string::npos))
            scheme = "bitsandbytes quantization state";
        if (scheme.empty()) continue;
        std::string why = "belongs to a quantization scheme this build cannot dequantize (" + std::string(scheme);
        if (method) why += ", quant_method \"" + *method + "\"";
        b.add_error(i, name, why + ")");
    }
}

}  // namespace amn::detail
