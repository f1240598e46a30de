// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: gpt-oss MXFP4 experts moved into GGUF MXFP4 blocks as
// convert_hf_to_gguf.py does (GptOssModel.repack_mxfp4), nothing rounded.
#include "anamnesis/catalog.hpp"
#include "plan/raw_rows.hpp"

#include <cstdint>
#include <memory>

namespace amn::detail {

/// GGUF MXFP4 rows of the stored `blocks` (U8 [E, R, K/32, 16]) and `scales`
/// (U8 [E, R, K/32]): rows parity, parity + stride, … of every expert
/// (gate_up_proj: stride 2, gate parity 0, up parity 1; down_proj: stride 1),
/// E × R / stride rows of K/32 blocks of 17 bytes: the E8M0 scale byte as
/// stored, then byte j = c(j) | c(j + 16) << 4 where c(2i) is the low and
/// c(2i + 1) the high nibble of stored byte i.
/// \throws Error{Malformed} naming `blocks` when the shapes do not match or R
///         is not a multiple of stride. `cat` and the tensors must outlive the result.
std::shared_ptr<const RawRows> make_mxfp4_repack(const Catalog& cat, const TensorInfo& blocks, const TensorInfo& scales,
                                                 std::uint64_t stride, std::uint64_t parity);

}  // namespace amn::detail
