// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file repack.hpp
/// Lossless repacks between quantized formats that hold the same numbers
/// (MLX affine ↔ GGUF Q4_0/Q4_1/Q5_0/Q5_1/Q8_0, MLX mxfp4/nvfp4 ↔ GGUF
/// MXFP4/NVFP4; core/src/plan/quant_groups.hpp): what a forget did with a
/// tensor's input codes (ForgetTensor::repack, forget_gguf.hpp).

#include <cstdint>

namespace amn {

/// Whether a tensor's bytes were repacked from the input's own codes and
/// scales — no decode, no rounding — or why not (forget an MLX folder to
/// GGUF, a GGUF to MLX: MLX affine ↔ Q4_0/Q4_1/Q5_0/Q5_1/Q8_0 with groups
/// of 32, mxfp4 ↔ MXFP4, nvfp4 ↔ NVFP4; plan/quant_groups.hpp).
enum class Repack : std::uint8_t {
    None,              ///< no codes to repack (plain values, a kept or copied tensor)
    Lossless,          ///< repacked: the same codes and scales in the target's layout
    OtherCodes,        ///< the input's codes are of another kind, width or group size than the target's
    ScaleNotExact,     ///< a scale or bias is not exact in the target's parameter dtype (GGUF: F16)
    BiasNotSymmetric,  ///< a bias is not −2^(bits−1)·scale, which Q4_0/Q5_0/Q8_0 assume
    NegativeScale,     ///< a negative E4M3 scale (GGUF NVFP4's scales are unsigned)
};

}  // namespace amn
