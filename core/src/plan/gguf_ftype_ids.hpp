// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// llama_ftype ids: the public enum (gguf_ftype.hpp, amn::ftype) under the
// name the file-type table and llama-quantize's type choice use.

#include "anamnesis/gguf_ftype.hpp"

namespace amn::detail {
namespace ftype = amn::ftype;
}  // namespace amn::detail
