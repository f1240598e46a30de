// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the one NVFP4 recipe of the safetensors producers that store it
// row-major — compressed-tensors nvfp4-pack-quantized
// (compressed_tensors.cc) and ModelOpt NVFP4 (modelopt.cc). They differ
// only in what Fp4Params already says: the global scale divides or
// multiplies (Fp4GlobalScale), the dtype the arithmetic rounds to
// (Fp4Params::arithmetic) and what code 8 decodes to (negative_zero).

#include "scheme.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace amn::detail {

/// NVFP4 [out, in]: payload `w` U8 [out, in/2] (E2M1 pairs, low nibble
/// first), `s` F8_E4M3 [out, in/16], `global` one F32/BF16/F16 value. Per
/// group of 16: s' = round_to(p.arithmetic, e4m3(s) / global) for
/// Fp4GlobalScale::Divisor (compressed-tensors), e4m3(s) × global for
/// Multiplier (ModelOpt, p.arithmetic F32); x = round_to(p.arithmetic,
/// e2m1 · s'), code 8 → −0.0 when p.negative_zero. `in` must be a multiple
/// of 16 and the tensors of those shapes (the detectors check them).
std::shared_ptr<const QuantRecipe> make_nvfp4_recipe(const Catalog& cat, std::size_t w, std::size_t s, std::size_t global,
                                                     std::uint64_t out, std::uint64_t in, Fp4Params p);

}  // namespace amn::detail
