// SPDX-License-Identifier: MIT OR Apache-2.0
// `amn remember MLX_DIR --layout hf`: an MLX (mlx-lm) folder's switch_mlp
// expert stacks back under their Hugging Face per-expert names (the inverse
// of mlx-lm's sanitize, forget_st_mlx_tree.hpp), for remember_to_safetensors.
#include "anamnesis/remember.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "jobs/forget_st_mlx_tree.hpp"

#include <algorithm>
#include <variant>

namespace amn {

bool is_mlx_folder(const Catalog& cat, const Plan& plan) {
    if (cat.format != Format::Safetensors) return false;
    for (const auto& kv : cat.metadata)
        if (kv.key == "format" && kv.value.type == GgufType::String && kv.value.str == "mlx") return true;
    return std::any_of(plan.tensors.begin(), plan.tensors.end(),
                       [](const LogicalTensor& lt) { return lt.params && std::holds_alternative<MlxParams>(*lt.params); });
}

Plan mlx_hf_layout(const Catalog& cat, const Plan& plan) {
    if (!is_mlx_folder(cat, plan))
        throw Error(ErrorCode::Usage, "--layout hf needs a GGUF or an MLX (mlx-lm) input", cat.path);
    return forget_st_internal::mlx_lm_unsanitize(plan, forget_st_internal::mlx_model_facts(cat.config_json).model_type);
}

}  // namespace amn
