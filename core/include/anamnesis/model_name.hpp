// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file model_name.hpp
/// Facts that name a model for a user interface (the GUI's tabs and title).

#include "anamnesis/catalog.hpp"

#include <optional>
#include <string>

namespace amn {

/// The top-level `_name_or_path` string of config.json beside the model
/// (the Hugging Face model id transformers saved it from, e.g.
/// "meta-llama/Llama-3.1-8B", or the local folder it was loaded from).
/// nullopt when there is no config.json, the key is absent or not a string,
/// or the JSON is invalid. Never throws.
std::optional<std::string> config_name_or_path(const Catalog& catalog);

}  // namespace amn
