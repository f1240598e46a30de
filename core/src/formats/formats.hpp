// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: helpers of open_model() (catalog.cc), which recognises each
// container format by its magic bytes (or, for safetensors, its name or
// header shape) in one if/else chain. Adding a format = one branch there +
// its parser in this folder.
#include "anamnesis/catalog.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace amn::detail {

/// True when the first bytes look like a safetensors file: an 8-byte LE
/// length followed by '{'.
bool looks_like_safetensors(std::span<const std::uint8_t> head, std::uint64_t file_size);

/// Read config.json (and quantize_config.json) from `dir` into the catalog.
/// \throws Error{BadJson} when config.json exists but is not a JSON object.
void read_model_config(Catalog& cat, const std::string& dir);

}  // namespace amn::detail
