// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: mlx-lm's gpt_oss model side of `mlx_lm.convert -q` for the
// original MXFP4 checkpoint (mlx-lm d78bf58e: mlx_lm/models/gpt_oss.py
// sanitize and quant_predicate; mlx_lm/utils.py load_model, quant_method
// "mxfp4"; quantize_model's per-module `quantization` entries).
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/quant_params.hpp"

#include <string>

namespace amn::forget_st_internal {

/// gpt_oss.py sanitize, on the plan of the original checkpoint: each layer's
/// `mlp.experts.gate_up_proj` (MXFP4 `_blocks` U8 [E, 2·I, K/32, 16] and
/// `_scales` U8 [E, 2·I, K/32]) becomes `mlp.experts.gate_proj.weight` (stored
/// rows 0, 2, 4, … of every expert) and `mlp.experts.up_proj.weight` (rows
/// 1, 3, 5, …), each [E, I, K]; `down_proj` becomes `mlp.experts.down_proj.weight`
/// [E, H, I]; their recipes read the stored codes row by row and give
/// quant_groups() of kind MXFP4 (group 32, the E8M0 byte as stored), so MLX's
/// mxfp4 weight (the codes viewed as uint32) and scales are the stored bytes
/// with no rounding. `gate_up_proj_bias` [E, 2·I] becomes `gate_proj.bias`
/// (columns 0, 2, …) and `up_proj.bias` (1, 3, …), `down_proj_bias` `down_proj.bias`.
/// Every other tensor as it is.
/// \throws Error{Malformed} naming the tensor when blocks, scales or a bias
///         do not have those shapes. `cat` must outlive the result.
Plan gpt_oss_sanitize(const Catalog& cat, const Plan& plan);

/// The inverse for `remember MLX_DIR --layout hf`, in transformers' dequantized
/// layout (GptOssExperts, as unsloth's BF16 release stores it): the MLX
/// `mlp.experts.gate_proj.weight` and `up_proj.weight` [E, I, H] → one
/// `mlp.experts.gate_up_proj` [E, H, 2·I] (each expert's rows interleaved gate,
/// up, then transposed), `down_proj.weight` [E, H, I] → `down_proj` [E, I, H]
/// (transposed per expert), the biases interleaved back into
/// `gate_up_proj_bias` [E, 2·I] and `down_proj_bias`. Every other tensor, and
/// experts without both gate and up, as in `plan`.
Plan gpt_oss_unsanitize(const Plan& plan);

/// True for `model.layers.N.mlp.experts.{gate,up,down}_proj.weight`: the
/// modules load_model quantizes as MXFP4 from the stored codes before
/// `convert -q` quantizes the rest (they keep those codes; config.json's
/// top-level `quantization` is theirs, every other module gets its own entry).
bool gpt_oss_expert_weight(const std::string& name);

/// load_model's parameters for them: {"group_size": 32, "bits": 4, "mode": "mxfp4"}.
MlxParams gpt_oss_expert_params();

}  // namespace amn::forget_st_internal
