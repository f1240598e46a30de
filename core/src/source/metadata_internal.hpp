// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Checks on typed metadata values shared by metadata.cc and the GGUF writer.

#include "anamnesis/metadata.hpp"

#include <string>

namespace amn::detail {

/// Bytes of a fixed-size scalar GGUF type; 0 for String/Array (and invalid types).
unsigned meta_scalar_size(GgufType t) noexcept;

/// True for a type inside GgufType.
inline bool meta_valid_type(GgufType t) noexcept { return static_cast<std::uint32_t>(t) <= 12; }

/// Check that `v` can be written: known types, array items of the array's
/// element type, nesting within GgufLimits::max_array_depth (`depth` = the
/// nesting of `v`). \throws Error{Usage} naming `key`.
void check_meta_value(const MetaValue& v, const std::string& key, unsigned depth);

}  // namespace amn::detail
