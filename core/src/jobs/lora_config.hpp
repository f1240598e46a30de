// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: a PEFT adapter folder's adapter_config.json as
// convert_lora_to_gguf.py (llama.cpp 34af94c) reads it — for the LoRA
// converter (lora_to_gguf.cc) and for inspect's adapter facts
// (lora_adapter.cc: why an adapter has no GGUF form).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// What the converter takes from adapter_config.json.
struct LoraConfig {
    float alpha = 0;  ///< lora_alpha (the converter's float32)
    /// alora_invocation_tokens (an activated LoRA), when present and non-empty.
    std::optional<std::vector<std::uint32_t>> alora_tokens;
    std::vector<std::string> warnings;  ///< English: use_rslora's scale differs in llama.cpp
    std::string base_name_or_path;      ///< base_model_name_or_path ("" when absent)
};

/// Read `adapter_dir`/adapter_config.json.
/// \throws Error{Io} no adapter_config.json; Error{BadJson} not an object,
///         lora_alpha missing or not a number, alora_invocation_tokens not a
///         list of ids in 0 … 2^32-1; Error{Unsupported} peft_type other than
///         "LORA", use_dora true, a non-empty alpha_pattern, an
///         invocation_string without alora_invocation_tokens — each one line
///         naming the file.
LoraConfig read_lora_config(const std::string& adapter_dir);

/// A PEFT tensor that is half of a LoRA pair: the module it adapts (the name
/// before the tag) and which half — A for `.lora_A.weight` /
/// `.lora_embedding_A`, B for `.lora_B.weight` / `.lora_embedding_B`, as
/// convert_lora_to_gguf's get_base_tensor_name reads them.
struct LoraHalf {
    std::string_view module;  ///< a view into the name passed
    bool a = false;           ///< lora_A (else lora_B)
};
/// The half `name` is, or nullopt for a tensor saved whole (modules_to_save,
/// norms, DoRA magnitude vectors, `.base_layer.weight`).
std::optional<LoraHalf> lora_half(std::string_view name) noexcept;

}  // namespace amn::detail
