// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the ggml block-type rows of the dtype registry (ggml_types.cc).
#include "anamnesis/dtype.hpp"

#include <span>

namespace amn::detail {
/// Rows for ggml block types (not the plain F32/F16/… which are shared).
std::span<const DTypeInfo> ggml_type_rows() noexcept;
}  // namespace amn::detail
