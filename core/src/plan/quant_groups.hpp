// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the quantized numbers behind a recipe's values — codes and one
// scale (and bias) per group of consecutive elements of a row — for repacks
// between formats that hold the same numbers, with no decode and no
// rounding (Recipe::quant_groups()):
//
//   MLX affine (bits, group G):  value = scale · code + bias      (mx.dequantize)
//   GGUF Q4_0 / Q5_0 / Q8_0:     affine, G = 32, bits 4 / 5 / 8, bias = −2^(bits−1) · scale
//                                (ggml: (q − 8)·d, (q − 16)·d, int8 q·d; code = q, q + 128 for Q8_0)
//   GGUF Q4_1 / Q5_1:            affine, G = 32, bits 4 / 5, scale = d, bias = m (q·d + m)
//   MLX mxfp4, GGUF MXFP4:       E2M1 codes, one E8M0 scale byte per 32
//   MLX nvfp4, GGUF NVFP4:       E2M1 codes, one E4M3 scale byte per 16 (GGUF: unsigned
//                                E4M3, 0x7F read as 0; MLX: signed, 0x7F = 480)
//
// Rows and row length are the recipe's (rows() × row_elems()); a row holds
// row_elems / group groups.
#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace amn::detail {

class QuantGroups {
public:
    enum class Kind : std::uint8_t { Affine, Mxfp4, Nvfp4 };
    struct Traits {
        Kind kind = Kind::Affine;
        unsigned bits = 4;            ///< code width (E2M1: 4)
        std::uint64_t group = 32;     ///< elements per scale
        /// Affine: the dtype the scales and biases are stored in (every one
        /// of them exact in it): GGUF F16, MLX its scales' dtype. U8 for E2M1.
        DType param_dtype = DType::F16;
        /// Affine: bias = −2^(bits−1) · scale for every group, by construction
        /// (GGUF Q4_0, Q5_0, Q8_0), so no scan is needed to know it.
        bool symmetric = false;
        /// Short words for messages: "GGUF Q4_0", "MLX affine 4-bit, group 32".
        std::string what;
    };
    virtual ~QuantGroups() = default;
    virtual const Traits& traits() const noexcept = 0;
    virtual std::uint64_t rows() const = 0;
    virtual std::uint64_t row_elems() const = 0;
    std::uint64_t groups_per_row() const { return row_elems() / traits().group; }

    /// Rows [row0, row0 + n). Every pointer may be null (not wanted):
    /// `codes` n · row_elems bytes, one code per element (affine:
    /// 0 … 2^bits − 1; E2M1: 0 … 15, MXFP4/MLX order: +0, .5, 1, 1.5, 2, 3, 4, 6, −0, …);
    /// affine: `scale`, `bias` n · groups_per_row exact values;
    /// E2M1: `scale_bytes` n · groups_per_row bytes (E8M0, or E4M3 as MLX reads it).
    /// \throws Error{OutOfRange} for rows past the end.
    virtual void read(std::uint64_t row0, std::uint64_t n, std::uint8_t* codes, float* scale, float* bias,
                      std::uint8_t* scale_bytes) const = 0;
    /// The input byte ranges rows [row0, row0 + n) finish reading (for page release).
    virtual std::vector<Recipe::InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t n) const = 0;
};

/// The groups of `inner`'s rows `from[0], from[1], …` (a row permutation or selection).
std::shared_ptr<const QuantGroups> make_row_gather_groups(std::shared_ptr<const QuantGroups> inner,
                                                          std::vector<std::uint64_t> from);
/// The groups of `inner`'s rows [begin, begin + n).
std::shared_ptr<const QuantGroups> make_row_range_groups(std::shared_ptr<const QuantGroups> inner, std::uint64_t begin,
                                                         std::uint64_t n);
/// The groups of several recipes' rows one after the other (a stack of
/// experts), when every part has groups with the same traits and row
/// length; nullptr otherwise.
std::shared_ptr<const QuantGroups> make_stacked_groups(const std::vector<std::shared_ptr<const Recipe>>& parts);

/// True when `x` is stored exactly in `d` (F32 always; F16/BF16: the
/// round trip through it gives the same bits; anything else false).
bool exact_in(DType d, float x) noexcept;

}  // namespace amn::detail
