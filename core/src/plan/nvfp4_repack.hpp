// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: NVFP4 checkpoints (ModelOpt, compressed-tensors) moved into GGUF
// NVFP4 blocks as convert_hf_to_gguf.py does (`_nvfp4_pack`), nothing rounded.
#include "anamnesis/catalog.hpp"
#include "plan/raw_rows.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace amn::detail {

/// GGUF NVFP4 rows of the stored E2M1 weight `w` (U8 [out, in/2]) and its
/// E4M3 group scales `s` (F8_E4M3 [out, in/16]): per row and 64 inputs one
/// 36-byte block = the four scale bytes with the sign bit cleared (read as
/// UE4M3), then per group of 16 values the 8 bytes c(j) | c(j+8) << 4, c(2i)
/// the low and c(2i+1) the high nibble of stored byte i. GGUF row r comes
/// from stored row `rows_from[r]` (llama's Q/K permutation), or r when empty.
/// The caller checks that `in` is a multiple of 64; `w`, `s` and `cat`
/// must outlive the result.
std::shared_ptr<const RawRows> make_nvfp4_repack(const Catalog& cat, const TensorInfo& w, const TensorInfo& s,
                                                 std::vector<std::uint64_t> rows_from);

/// The one float value of a 0-d or one-element tensor (weight_scale_2, a
/// global scale). \throws Error{BadCompanion} naming it when it is not one float.
float stored_scalar(const Catalog& cat, const TensorInfo& t);

}  // namespace amn::detail
