// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Model names the way gguf-py derives them: the components of a Hugging
// Face model id (`Metadata.get_model_id_components`, `Metadata.id_to_title`
// in gguf-py/gguf/metadata.py), the size label (`size_label`,
// `model_weight_count_rounded_notation`) and the default file name
// (`naming_convention`) of gguf-py/gguf/utility.py, as of llama.cpp
// 34af94cd (the commit of the shared hf-gguf fixtures).
//
// Text is UTF-8 (validated by the caller); Python's regular expressions are
// matched on ASCII (see py_text.hpp for the non-ASCII limits).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace amn::arch {

/// What `Metadata.get_model_id_components` returns (nullopt = Python None).
struct ModelIdParts {
    std::optional<std::string> full_name;     ///< the id without its organization ("Mixtral-8x7B-v0.1")
    std::optional<std::string> organization;  ///< the part before the first '/' (None when it starts with '.')
    std::optional<std::string> basename;      ///< "Mixtral"
    std::optional<std::string> finetune;      ///< "Instruct", "8b-Instruct" …
    std::optional<std::string> version;       ///< "v0.1"
    std::optional<std::string> size_label;    ///< "8x7B"
};

/// `Metadata.get_model_id_components(model_id, total_params)`.
/// Inputs: an id "org/name" or "name" (nullopt → all nullopt), and the
/// parameter total of the model (0 = unknown; negative = a LoRA adapter):
/// a size part of the name ("8B") that is further than 7/8 of the total
/// away from it becomes part of the finetune, lower-cased ("8b").
/// An id containing a space is returned whole as `full_name`. Never throws.
ModelIdParts model_id_components(std::optional<std::string_view> model_id, std::int64_t total_params);

/// `Metadata.id_to_title`: '-' → ' ', words split on whitespace, each
/// all-lowercase word title-cased unless it is a version ("v1.2") or starts
/// with a digit; joined with one space.
std::string id_to_title(std::string_view id);

/// gguf-py `model_weight_count_rounded_notation(count, min_digits)`:
/// count scaled to T (> 1e12), B (> 1e9), M (> 1e6) or K, printed with
/// enough decimals for `min_digits` significant integer digits
/// (8 158 400 → "8.2M", 25 000 000 → "25M", 0 → "0.00K").
std::string weight_count_notation(std::int64_t count, int min_digits = 2);

/// gguf-py `size_label(total, shared, expert, expert_count)`:
/// expert_count > 0 → "<expert_count>x<notation(|shared| + |expert|)>",
/// else notation(|total|).
std::string size_label(std::int64_t total_params, std::int64_t shared_params, std::int64_t expert_params,
                       std::int64_t expert_count);

/// gguf-py `naming_convention(model_name, base_name, finetune, version,
/// size_label, output_type, model_type)` (no ".gguf"):
/// `{basename or name or "ggml-model"}-{size_label}-{finetune}-{version}-{OUTPUT_TYPE}-{model_type}`,
/// absent parts left out with their '-', names stripped with ' ' and '/'
/// turned into '-', the other parts stripped with ' ' → '-', the output
/// type upper-cased.
std::string naming_convention(const std::optional<std::string>& model_name,
                              const std::optional<std::string>& base_name,
                              const std::optional<std::string>& finetune,
                              const std::optional<std::string>& version,
                              const std::optional<std::string>& size_label,
                              const std::optional<std::string>& output_type,
                              const std::optional<std::string>& model_type = std::nullopt);

/// Python `pathlib.Path(path).name`: the last component, with empty and
/// "." components ignored ("inputs/Qwen3-0.6B/" → "Qwen3-0.6B",
/// "a/." → "a", "." → "", "/" → "", "a/.." → "..").
std::string path_name(std::string_view path);

}  // namespace amn::arch
