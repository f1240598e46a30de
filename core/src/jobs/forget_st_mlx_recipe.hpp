// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: mlx_lm.convert's `--quant-predicate` recipes (mlx-lm d78bf58e,
// convert.py `mixed_quant_predicate_builder`, l.20-77): mixed_2_6,
// mixed_3_4, mixed_3_6, mixed_4_6. Every module mlx-lm quantizes gets its own
// entry in config.json's `quantization`, low or high bits by its path, and
// the recipe replaces the model's own quant_predicate. Used by forget_st.cc.

#include "anamnesis/plan.hpp"
#include "jobs/forget_st_mlx_tree.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace amn::forget_st_internal {

/// One recipe applied to one model.
struct MlxRecipe {
    unsigned low_bits = 4, high_bits = 6;
    std::uint64_t group_size = 64;                      ///< what every layer is quantized with (mx.quantize)
    std::optional<std::uint64_t> recorded_group_size;   ///< what config.json records; nullopt: `null`
    std::size_t layer_location = 0;                     ///< the part of a module path that is its layer index
    std::uint64_t num_layers = 0;                       ///< len(model.layers)
};

/// The recipe `name` for the (sanitized, mlx-lm-named) `plan`: the layer
/// index's place = the first all-digit part of the first module whose path
/// contains "down_proj" (in mlx-lm module-tree order of `model_type`; the last
/// part when none is), the number of layers = 1 + the largest index found
/// there under the same prefix. `group_size`: the scheme's (the layers are
/// quantized with it); `recorded_group_size`: mlx_lm.convert passes its
/// --q-group-size unresolved, so nullopt when none was given (`null`).
/// \throws Error{Usage} for a name other than the four;
///         Error{Unsupported} when no module path contains "down_proj"
///         (mlx-lm: "Model does not have expected keys for mixed quant.").
MlxRecipe mlx_recipe(const std::string& name, const Plan& plan, const std::string& model_type, std::uint64_t group_size,
                     std::optional<std::uint64_t> recorded_group_size);

/// The parameters and `quantization` entry (`{"group_size": G|null, "bits": B,
/// "mode": "affine"}`) of the module `module_path` under `r`: high bits for
/// `lm_head`, and for `v_proj` / `v_a_proj` / `v_b_proj` / `down_proj` (substrings
/// of the path) in layers i with i < L/8, i ≥ 7L/8 or (i − L/8) mod 3 = 2
/// (integer division); low bits otherwise. A path with no part at the layer
/// index's place has index 0.
/// \throws Error{Unsupported} naming the module when that part is not a
///         number (mlx-lm's int() fails there).
MlxOverride mlx_recipe_override(const MlxRecipe& r, const std::string& module_path);

}  // namespace amn::forget_st_internal
