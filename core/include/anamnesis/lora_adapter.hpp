// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file lora_adapter.hpp
/// What a PEFT adapter folder is (`amn inspect ADAPTER_DIR`, the app's
/// Overview): PEFT's `adapter_config.json` (LoraConfig, peft 0.x: `r`,
/// `lora_alpha`, `target_modules`, `use_rslora`, `use_dora`,
/// `rank_pattern`, `alpha_pattern`, `modules_to_save`,
/// `base_model_name_or_path`, `task_type`) beside the weights, and what the
/// weights hold: per adapted module `…<module>.lora_A.weight` [r, in] and
/// `.lora_B.weight` [out, r] (embeddings: `lora_embedding_A` [r, vocab],
/// `lora_embedding_B` [hidden, r]); anything else is saved whole
/// (modules_to_save, DoRA's `lora_magnitude_vector`, mergekit's norms).

#include "anamnesis/catalog.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace amn {

struct LoraAdapterInfo {
    std::string folder;     ///< the adapter folder
    std::string peft_type;  ///< "LORA", "LOHA", …; "" when the key is absent
    std::string task_type;  ///< "CAUSAL_LM", …; "" when absent
    std::string base_model; ///< base_model_name_or_path; "" when absent
    std::optional<std::uint64_t> r;  ///< the configured rank (`r`)
    std::optional<double> lora_alpha;
    bool use_rslora = false;     ///< PEFT scales by alpha/√r instead of alpha/r
    bool use_dora = false;       ///< DoRA (weight-decomposed LoRA)
    std::size_t rank_pattern = 0;   ///< modules with their own rank
    std::size_t alpha_pattern = 0;  ///< modules with their own alpha
    /// target_modules: the list as written; a string (a regex, or PEFT's
    /// "all-linear") is one entry with target_modules_is_string set.
    std::vector<std::string> target_modules;
    bool target_modules_is_string = false;
    std::vector<std::string> modules_to_save;
    /// From the weights: lora_A/lora_B pairs (embedding pairs included), the
    /// smallest and largest rank among them (rows of A), and the tensors
    /// that are no pair member (saved whole).
    std::size_t adapted_modules = 0;
    std::uint64_t min_rank = 0, max_rank = 0;
    std::size_t whole_tensors = 0;
    /// Why convert_lora_to_gguf.py (and `amn convert … --base`) refuses the
    /// folder from its config alone (English, one line), "" when it does not.
    std::string gguf_refusal;

    /// The factor PEFT multiplies B·A by: lora_alpha / r, or
    /// lora_alpha / √r with use_rslora; nullopt without both keys or r = 0.
    std::optional<double> scale() const;
};

/// The adapter facts of `cat` when its folder — `cat.path` itself, or the
/// folder of a file named `adapter_model.safetensors` / `adapter_model.bin`
/// — holds `adapter_config.json`; nullopt otherwise (and for remote models).
/// A config.json that is unreadable or not an object gives the facts of the
/// weights alone, its error in `gguf_refusal`. Never throws.
std::optional<LoraAdapterInfo> describe_lora_adapter(const Catalog& cat);

}  // namespace amn
