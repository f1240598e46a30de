// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: what mlx-lm (d78bf58e) does to a Hugging Face model before and
// around `quantize_model`, per model type (mlx_lm/models/<model_type>.py):
// `sanitize`'s expert stacking (SwitchGLU), the module-tree order
// (`tree_flatten(model.parameters())`), the model's own `quant_predicate`
// overrides, and convert.py's dtype cast. Used by forget_st.cc for
// OutputLayout::MlxLm.

#include "anamnesis/plan.hpp"
#include "anamnesis/quant_params.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace amn::forget_st_internal {

/// The facts of config.json mlx-lm's conversion reads.
struct MlxModelFacts {
    std::string model_type;  ///< config["model_type"] ("" when absent)
    /// The config.json numbers deepseek_v3's sanitize reads (ModelArgs
    /// defaults when absent: 30, 32, 128, 128); nullopt when not an integer.
    std::optional<std::uint64_t> num_hidden_layers, num_attention_heads, qk_nope_head_dim, v_head_dim;
    /// convert.py l.130-145: config["torch_dtype"], else text_config["dtype"],
    /// when one of float16 / bfloat16 / float32 (the top-level "dtype" is not read).
    std::optional<DType> cast_dtype;
};

/// mlx-lm's model file for `model_type` (utils.py MODEL_REMAPPING:
/// kimi_k2 and joyai_llm_flash → deepseek_v3, mistral → llama, …); the
/// type itself otherwise.
std::string mlx_model_class(const std::string& model_type);

/// Reads model_type and the cast dtype of `config_json` (none: empty facts).
/// \throws Error{BadJson} when it is not a JSON object.
MlxModelFacts mlx_model_facts(const std::optional<std::string>& config_json);

/// Empty when mlx-lm can hold a model of `model_type` as amn writes it; else
/// why not (an Error{Unsupported} text): mlx-lm has no model file for the
/// type (utils.py `_get_classes`: mlx_lm/models/<type>.py after
/// MODEL_REMAPPING; "" = no model_type, taken as it is), or the plan holds
/// per-expert tensors (`….experts.N.…`) of a type whose stacking amn does not
/// know (mlx-lm's strict load_weights would refuse them unstacked).
/// gpt_oss: a BF16 checkpoint (unquantized `mlp.experts.gate_up_proj` /
/// `down_proj`) is refused, mlx-lm's own sanitize cannot load it; the original
/// MXFP4 one is written (forget_st_mlx_gpt_oss.hpp).
/// Types are matched after MODEL_REMAPPING (mlx_model_class).
std::string mlx_refuse_model(const std::string& model_type, const Plan& plan);

/// False for a parameter mlx-lm's get_total_parameters (index.json's
/// `total_parameters`) does not count: it sums the leaf modules only, so a
/// parameter held by a module with children is left out (gpt_oss.py's
/// AttentionBlock `self_attn.sinks`). True for every other tensor name.
bool mlx_leaf_parameter(const std::string& model_type, const std::string& name);

/// mlx-lm's `sanitize` expert stacking: for mixtral
/// (`model.layers.L.block_sparse_moe.experts.E.{w1,w2,w3}.weight` →
/// `model.layers.L.block_sparse_moe.switch_mlp.{gate,down,up}_proj.weight`) and
/// qwen2_moe / qwen3_moe / olmoe / deepseek_v2 (`model.layers.L.mlp.experts.E.{gate,up,down}_proj.weight` →
/// `model.layers.L.mlp.switch_mlp.*.weight`) the experts 0 … E−1 of one
/// projection become one logical tensor [E, out, in] (mx.stack; a Stack
/// recipe: read expert by expert, nothing held whole). Every other tensor and
/// every other model type as in `plan`.
/// deepseek_v3 (and kimi_k2, joyai_llm_flash: deepseek_v3.py sanitize) also:
/// experts stacked as qwen's; every `model.layers.L.self_attn.kv_b_proj.weight`
/// [H·(nope + v), kv_lora_rank] (H = num_attention_heads, nope =
/// qk_nope_head_dim, v = v_head_dim) split per head into
/// `self_attn.embed_q.weight` [H, kv_lora_rank, nope] (rows 0 … nope−1 of
/// each head, transposed) and `self_attn.unembed_out.weight`
/// [H, v, kv_lora_rank] (rows nope … nope+v−1): mla.py's MultiLinear, one
/// head read at a time; every tensor whose name starts with
/// `model.layers.61` (the MTP layer of DeepSeek-V3's 61) or holds
/// `rotary_emb.inv_freq` dropped.
/// \throws Error{Malformed} naming the tensor when a layer's experts are not
///         0 … E−1 with one shape, or a kv_b_proj is not [H·(nope + v), R];
///         Error{Unsupported} (deepseek_v3) for a layer at or past
///         num_hidden_layers that sanitize does not drop, or num_hidden_layers
///         above 61 (sanitize would drop a real layer 61): mlx-lm's strict
///         load fails on both.
Plan mlx_lm_sanitize(const Plan& plan, const MlxModelFacts& facts);

/// The inverse, for reading an MLX folder as the Hugging Face model it came
/// from (MLX → GGUF: the converter's tables know the per-expert names): every
/// 3-D `…switch_mlp.<proj>.weight` [E, out, in] of a model type above split
/// into E tensors [out, in] under their Hugging Face names (row ranges of the
/// stacked recipe: one expert read at a time). deepseek_v3 (and its
/// remapped types) also: each layer's `self_attn.embed_q.weight`
/// [H, R, nope] and `self_attn.unembed_out.weight` [H, v, R] joined back into
/// `self_attn.kv_b_proj.weight` [H·(nope + v), R] (per head embed_qᵀ then
/// unembed_out; one head at a time), where embed_q was. gpt_oss:
/// gpt_oss_unsanitize (forget_st_mlx_gpt_oss.hpp). Anything else as in `plan`.
/// \throws Error{Malformed} when an embed_q and its unembed_out disagree on H or R.
Plan mlx_lm_unsanitize(const Plan& plan, const std::string& model_type);

/// The byte order of `name` in mlx-lm's module tree of `model_type`
/// (llama, mistral, qwen2, qwen3, mixtral, qwen2_moe, qwen3_moe, olmoe, deepseek_v2, deepseek_v3 …; after MODEL_REMAPPING): Model →
/// model (embed_tokens, layers[i] (…), norm), lm_head; a quantized module's
/// parameters weight, scales, biases, then a Linear's own bias. Names it
/// does not know sort after the known ones of their level, by name.
std::string mlx_tree_order_key(const std::string& model_type, const std::string& name);

/// The model's own `quant_predicate` for the module `module_path` (qwen3_moe:
/// `*.mlp.gate` → affine 8-bit group 64), as the MLX parameters used and the
/// JSON mlx-lm records under the module's path in `quantization`
/// (`{"group_size": 64, "bits": 8}`, verbatim, no mode); nullopt: the
/// top-level scheme.
/// False when mlx-lm's module `module_path` of `model_type` has no
/// `to_quantized` although its weight is 2-D: deepseek_v2's MoEGate
/// (`model.layers.L.mlp.gate`, a bare weight array, deepseek_v2.py) stays
/// float, and deepseek_v3's (MoEGate with e_score_correction_bias).
bool mlx_module_quantizable(const std::string& model_type, const std::string& module_path);

/// convert.py's dtype cast applies to the float tensor `name` (the model's
/// `cast_predicate`): false for deepseek_v3's `…e_score_correction_bias`
/// (kept in its stored dtype), true otherwise.
bool mlx_cast_applies(const std::string& model_type, const std::string& name);

struct MlxOverride {
    MlxParams params;
    std::string json;
};
std::optional<MlxOverride> mlx_quant_override(const std::string& model_type, const std::string& module_path);

}  // namespace amn::forget_st_internal
