// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// A logical tensor over given float values, for tests of passes that read a
// tensor through its Recipe (statistics, re-quantization estimates).

#include "anamnesis/plan.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace amn::test {

/// Recipe whose "dequantized" rows are `v` viewed as rows × cols (row-major).
class VecRecipe final : public Recipe {
public:
    VecRecipe(std::vector<float> v, std::uint64_t rows, std::uint64_t cols) : v_(std::move(v)), rows_(rows), cols_(cols) {}
    std::string describe() const override { return "test values"; }
    std::string scheme_id() const override { return "test"; }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return cols_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        std::memcpy(out, v_.data() + row0 * cols_, nrows * cols_ * sizeof(float));
    }

private:
    std::vector<float> v_;
    std::uint64_t rows_, cols_;
};

/// A quantized logical tensor "t" of shape [rows, cols] over `v` (no params).
inline LogicalTensor tensor_of(std::vector<float> v, std::uint64_t rows, std::uint64_t cols) {
    LogicalTensor t;
    t.name = "t";
    t.shape = {rows, cols};
    t.quantized = true;
    t.recipe = std::make_shared<VecRecipe>(std::move(v), rows, cols);
    return t;
}

}  // namespace amn::test
