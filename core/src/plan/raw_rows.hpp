// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: tensors whose bytes are made directly in their GGUF type, row by
// row (NVFP4 and MXFP4 weights repacked from their safetensors layouts: no
// decode, no rounding), and the recipe that decodes them for jobs that
// re-encode such a tensor.
#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace amn::detail {

/// A tensor whose bytes are made directly in its GGUF type, row by row
/// (NVFP4 and MXFP4 repacked from their safetensors layouts: no decode, no rounding).
class RawRows {
public:
    virtual ~RawRows() = default;
    virtual std::uint64_t rows() const = 0;
    virtual std::uint64_t row_bytes() const = 0;  ///< bytes of one row in the GGUF type
    /// Write rows [row0, row0 + n) to `out` (n × row_bytes()). Thread-safe.
    virtual void read(std::uint64_t row0, std::uint64_t n, std::uint8_t* out) const = 0;
    /// The catalog ranges it reads, for page release.
    virtual std::vector<Recipe::InputRange> inputs() const { return {}; }
    /// The ranges rows [row0, row0 + n) finish reading (Recipe::consumed_inputs);
    /// default: every input once the last row is in the range.
    virtual std::vector<Recipe::InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t n) const {
        return row0 + n >= rows() ? inputs() : std::vector<Recipe::InputRange>{};
    }
};

/// The f32 values of `raw` (GGUF type `type`, decoded with its registry
/// decoder): a recipe for jobs that re-encode such a tensor.
std::shared_ptr<const Recipe> make_raw_decode_recipe(std::shared_ptr<const RawRows> raw, DType type,
                                                     std::vector<std::uint64_t> shape);

}  // namespace amn::detail
