// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: GGUF blocks as quantized groups (quant_groups.hpp) and back —
// the GGUF side of the lossless MLX ↔ GGUF repacks. Block layouts as ggml's
// (ggml-common.h): Q4_0 {d, qs[16]}, Q4_1 {d, m, qs[16]}, Q5_0 {d, qh[4],
// qs[16]}, Q5_1 {d, m, qh[4], qs[16]}, Q8_0 {d, int8 qs[32]} — element j of
// a 32-block in the low nibble of qs[j % 16] for j < 16, the high one for
// j ≥ 16, its fifth bit bit j of qh; MXFP4 {e, qs[16]} with the same nibble
// order; NVFP4 per 64 elements {four UE4M3 scale bytes, then per 16 elements
// 8 bytes: element j low nibble of byte j % 8 for j < 8, high for j ≥ 8}.
#include "anamnesis/catalog.hpp"
#include "anamnesis/repack.hpp"
#include "plan/quant_groups.hpp"
#include "plan/raw_rows.hpp"

#include <memory>
#include <string>

namespace amn::detail {

/// The groups of GGUF tensor `t` (rows of t.shape.back() elements) when it is
/// Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, MXFP4 or NVFP4; nullptr for any other type.
/// NVFP4 scale bytes are given as MLX reads E4M3 (value kept: the top bit
/// cleared, 0x7F → 0x00, 0xFF → 0x7F). `cat` and `t` must outlive the result.
std::shared_ptr<const QuantGroups> gguf_quant_groups(const Catalog& cat, const TensorInfo& t);

/// GGUF `target` rows made from `g` with nothing rounded: the codes and
/// scales as they are, in ggml's block layout. nullptr, with `why` set, when
/// `g` does not hold numbers `target` stores exactly: another kind, bits or
/// group (32; NVFP4 16 with rows of a multiple of 64), a scale or bias not
/// exact in F16, a bias that is not −2^(bits−1)·scale for Q4_0/Q5_0/Q8_0, a
/// negative NVFP4 scale. Scales and biases are read whole to decide (unless
/// `g`'s traits decide it: F16 parameters, symmetric by construction).
std::shared_ptr<const RawRows> make_gguf_group_repack(std::shared_ptr<const QuantGroups> g, DType target, Repack& why);

}  // namespace amn::detail
