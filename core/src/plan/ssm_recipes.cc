// SPDX-License-Identifier: MIT OR Apache-2.0
// The state-space models' value recipes: Mamba's A = -exp(A_log) and its way back (layout_recipes.hpp).
#include "anamnesis/error.hpp"
#include "kernels/common/torch_exp.hpp"
#include "plan/layout_recipes.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include <string>

namespace amn::detail {
namespace {

void require_cpu() {
    if (!kernels::torch_exp_supported()) kernels::torch_neg_exp(nullptr, 0);  // throws the named error
}

class NegExp final : public ElementwiseRecipe {
public:
    explicit NegExp(std::shared_ptr<const Recipe> inner) : ElementwiseRecipe(std::move(inner), "A = -exp(A_log)") { require_cpu(); }
    bool payload_is_row_major() const override { return false; }

private:
    void apply(float* values, std::size_t n) const override { kernels::torch_neg_exp(values, n); }
};

class NegExpInverse final : public ElementwiseRecipe {
public:
    explicit NegExpInverse(std::shared_ptr<const Recipe> inner) : ElementwiseRecipe(std::move(inner), "A_log = log(-A)") {
        require_cpu();
    }
    bool payload_is_row_major() const override { return false; }
    /// A_log is written F32 (unless remember --to asks another dtype): A is F32 in the GGUF, and A_log's bits decide it.
    std::optional<DType> lossless_dtype() const override { return DType::F32; }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        std::vector<float> f(static_cast<std::size_t>(nrows * inner().row_elems()));
        dequantize_rows(row0, nrows, f.data());
        std::memcpy(out, f.data(), f.size() * sizeof(float));
    }

private:
    void apply(float* values, std::size_t n) const override {
        for (std::size_t i = 0; i < n; ++i) {
            const auto x = kernels::torch_neg_exp_inverse(values[i]);
            if (!x) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(values[i]));
                throw Error(ErrorCode::Unsupported, std::string("A holds ") + buf +
                                                        ", which -torch.exp gives for no float A_log: the way back cannot be exact");
            }
            values[i] = *x;
        }
    }
};

}  // namespace

std::shared_ptr<const Recipe> make_neg_exp_recipe(std::shared_ptr<const Recipe> inner) {
    return std::make_shared<NegExp>(std::move(inner));
}

std::shared_ptr<const Recipe> make_neg_exp_inverse_recipe(std::shared_ptr<const Recipe> inner) {
    return std::make_shared<NegExpInverse>(std::move(inner));
}

bool recipes_equal(const Recipe& a, const Recipe& b) {
    const std::uint64_t rows = a.rows(), cols = a.row_elems();
    if (b.rows() != rows || b.row_elems() != cols) return false;
    const std::uint64_t g = std::max<std::uint64_t>({1, a.row_granularity(), b.row_granularity()});
    std::vector<float> x, y;
    for (std::uint64_t r = 0; r < rows; r += g) {
        const std::uint64_t n = std::min(g, rows - r);
        x.resize(static_cast<std::size_t>(n * cols));
        y.resize(x.size());
        a.dequantize_rows(r, n, x.data());
        b.dequantize_rows(r, n, y.data());
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!(x[i] == y[i])) return false;
    }
    return true;
}

}  // namespace amn::detail
