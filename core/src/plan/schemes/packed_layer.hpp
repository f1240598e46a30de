// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: one GPTQ or AWQ packed layer X — X.qweight, X.qzeros, X.scales
// (+ X.g_idx for GPTQ) — found and checked alike by both detectors
// (gptq.cc, awq.cc). The two differ in how the words are packed, not in
// which tensors they need or in how the configuration names a group size.

#include "quant_common.hpp"
#include "scheme.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail::quant {

/// The stored tensors of packed layer `stem` (catalog indices,
/// PlanBuilder::npos when absent or already claimed).
struct PackedLayer {
    std::string stem;      ///< "X" of "X.qweight"
    std::string out_name;  ///< "X.weight", the dequantized output
    std::size_t qweight = PlanBuilder::npos;
    std::size_t qzeros = PlanBuilder::npos;
    std::size_t scales = PlanBuilder::npos;
    std::size_t g_idx = PlanBuilder::npos;  ///< looked up only when asked for
    std::vector<std::size_t> companions;    ///< the present ones of qzeros, scales, g_idx, in that order
};

/// The unclaimed companions of tensor `qweight` ("stem.qweight"); `g_idx`
/// only when `with_g_idx` (GPTQ).
inline PackedLayer find_packed_layer(const PlanBuilder& b, std::size_t qweight, std::string stem, bool with_g_idx) {
    PackedLayer p;
    p.out_name = stem + ".weight";
    p.qweight = qweight;
    p.qzeros = b.find_unclaimed(stem + ".qzeros");
    p.scales = b.find_unclaimed(stem + ".scales");
    if (with_g_idx) p.g_idx = b.find_unclaimed(stem + ".g_idx");
    for (auto c : {p.qzeros, p.scales, p.g_idx})
        if (c != PlanBuilder::npos) p.companions.push_back(c);
    p.stem = std::move(stem);
    return p;
}

/// The companion checks GPTQ and AWQ share: `qzeros` and `scales` present,
/// `qweight` and `qzeros` 2-D I32/U32, `scales` 2-D F16/BF16/F32, none of
/// qweight's rows (AWQ: inputs, GPTQ: packed words), the scales' groups
/// and outputs zero. Returns
/// the reason for the first failure, nullopt when all hold.
inline std::optional<std::string> check_packed_layer(const Catalog& cat, const PackedLayer& p) {
    constexpr auto npos = PlanBuilder::npos;
    if (p.qzeros == npos || p.scales == npos)
        return "missing companion " + (p.qzeros == npos ? p.stem + ".qzeros" : p.stem + ".scales");
    const auto& qwt = cat.tensors[p.qweight];
    const auto& qzt = cat.tensors[p.qzeros];
    const auto& sct = cat.tensors[p.scales];
    if (!is_int32_word(qwt.dtype) || qwt.shape.size() != 2)
        return "qweight must be a 2-D I32 tensor, got " + qwt.dtype_name + " " + shape_to_string(qwt.shape);
    if (!is_int32_word(qzt.dtype) || qzt.shape.size() != 2)
        return "qzeros must be a 2-D I32 tensor, got " + qzt.dtype_name + " " + shape_to_string(qzt.shape);
    if (!is_float_scale(sct.dtype) || sct.shape.size() != 2)
        return "scales must be a 2-D F16/BF16/F32 tensor, got " + sct.dtype_name + " " + shape_to_string(sct.shape);
    if (qwt.shape[0] == 0 || sct.shape[0] == 0 || sct.shape[1] == 0)
        return "empty tensor: qweight " + shape_to_string(qwt.shape) + ", scales " + shape_to_string(sct.shape);
    return std::nullopt;
}

/// The configuration's `group_size` text as a group size in input rows
/// (−1 = one group of all `in` rows); nullopt when it is not a valid size
/// (not a number, 0, below −1): the caller reports
/// group_size_error(text).
inline std::optional<std::uint64_t> config_group_size(std::string_view text, std::uint64_t in) {
    const auto gs = parse_int(text);
    if (!gs || *gs == 0 || *gs < -1) return std::nullopt;
    return *gs == -1 ? in : static_cast<std::uint64_t>(*gs);
}
inline std::string group_size_error(std::string_view text) {
    return "group_size \"" + std::string(text) + "\" in the configuration is not valid";
}

/// When `group_size` over `in` input rows does not give `groups` groups
/// (the scales' rows), the reason; nullopt when it does.
inline std::optional<std::string> check_group_count(std::uint64_t in, std::uint64_t group_size, std::uint64_t groups) {
    const std::uint64_t made = (in + group_size - 1) / group_size;
    if (made == groups) return std::nullopt;
    return "group size " + std::to_string(group_size) + " over " + std::to_string(in) + " input rows gives " +
           std::to_string(made) + " groups, scales have " + std::to_string(groups);
}

}  // namespace amn::detail::quant
