// SPDX-License-Identifier: MIT OR Apache-2.0
// mlx_lm.convert --quant-predicate mixed_X_Y (convert.py l.20-77), as read
// from mlx-lm d78bf58e: see forget_st_mlx_recipe.hpp.
#include "jobs/forget_st_mlx_recipe.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace amn::forget_st_internal {
namespace {

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> parts;
    std::size_t a = 0;
    for (;;) {
        const auto d = s.find('.', a);
        parts.push_back(s.substr(a, d == std::string::npos ? std::string::npos : d - a));
        if (d == std::string::npos) return parts;
        a = d + 1;
    }
}

// Python's str.isdigit for ASCII: non-empty, every character 0-9.
bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string module_path_of(const std::string& tensor) {
    const auto d = tensor.rfind('.');
    return d == std::string::npos ? tensor : tensor.substr(0, d);
}

}  // namespace

MlxRecipe mlx_recipe(const std::string& name, const Plan& plan, const std::string& model_type, std::uint64_t group_size,
                     std::optional<std::uint64_t> recorded_group_size) {
    MlxRecipe r;
    if (name == "mixed_2_6") r.low_bits = 2;
    else if (name == "mixed_3_4") r.low_bits = 3, r.high_bits = 4;
    else if (name == "mixed_3_6") r.low_bits = 3;
    else if (name == "mixed_4_6") r.low_bits = 4;
    else
        throw Error(ErrorCode::Usage, "unknown --quant-predicate '" + name +
                                          "' (mlx_lm.convert's recipes: mixed_2_6, mixed_3_4, mixed_3_6, mixed_4_6)");
    r.group_size = group_size;
    r.recorded_group_size = recorded_group_size;
    // The first module (in mlx-lm's tree order) whose path contains down_proj.
    std::string first, first_key;
    for (const auto& lt : plan.tensors) {
        const std::string m = module_path_of(lt.name);
        if (m.find("down_proj") == std::string::npos) continue;
        std::string k = mlx_tree_order_key(model_type, lt.name);
        if (first.empty() || k < first_key) first = m, first_key = std::move(k);
    }
    if (first.empty())
        throw Error(ErrorCode::Unsupported,
                    "--quant-predicate " + name + ": the model has no down_proj module, which mlx_lm.convert's mixed "
                    "recipes place the layer index by (\"Model does not have expected keys for mixed quant.\")");
    const auto parts = split_dots(first);
    r.layer_location = parts.size() - 1;
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (all_digits(parts[i])) {
            r.layer_location = i;
            break;
        }
    // len(model.layers): the layers under the same prefix.
    for (const auto& lt : plan.tensors) {
        const auto p = split_dots(lt.name);
        if (p.size() <= r.layer_location || !all_digits(p[r.layer_location])) continue;
        if (!std::equal(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(r.layer_location), parts.begin())) continue;
        if (p[r.layer_location].size() > 9) continue;
        r.num_layers = std::max<std::uint64_t>(r.num_layers, std::stoull(p[r.layer_location]) + 1);
    }
    return r;
}

MlxOverride mlx_recipe_override(const MlxRecipe& r, const std::string& module_path) {
    const auto parts = split_dots(module_path);
    std::uint64_t index = 0;
    if (parts.size() > r.layer_location) {
        const std::string& p = parts[r.layer_location];
        if (!all_digits(p) || p.size() > 18)
            throw Error(ErrorCode::Unsupported,
                        "mlx_lm.convert's mixed recipes read the layer index of " + module_path + " from its part " +
                            std::to_string(r.layer_location + 1) + " ('" + p + "'), which is not a number (mlx-lm fails there)",
                        "", module_path);
        index = std::stoull(p);
    }
    const std::uint64_t L = r.num_layers;
    const bool more = index < L / 8 || index >= 7 * L / 8 || (index - L / 8) % 3 == 2;
    auto has = [&](std::string_view s) { return module_path.find(s) != std::string::npos; };
    const bool high = ((has("v_proj") || has("v_a_proj") || has("v_b_proj")) && more) || (has("down_proj") && more) ||
                      has("lm_head");
    MlxOverride o;
    o.params.mode = MlxMode::Affine;
    o.params.bits = high ? r.high_bits : r.low_bits;
    o.params.group_size = r.group_size;
    o.json = "{\"group_size\":" + (r.recorded_group_size ? std::to_string(*r.recorded_group_size) : std::string("null")) +
             ",\"bits\":" + std::to_string(o.params.bits) + ",\"mode\":\"affine\"}";
    return o;
}

}  // namespace amn::forget_st_internal
