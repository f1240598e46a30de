// SPDX-License-Identifier: MIT OR Apache-2.0
// The NVFP4 recipe of compressed-tensors and ModelOpt (nvfp4_recipe.hpp):
// compressed-tensors `dequantize` (scale = scale / global_scale, then
// x·scale, each rounded to the arithmetic dtype) and ModelOpt
// `NVFP4QTensor.dequantize` (s = f32(e4m3(scale) · weight_scale_2),
// x = f32(e2m1 · s)).

#include "nvfp4_recipe.hpp"

#include "anamnesis/kernels.hpp"
#include "kernels/fp4/fp4_kernels.hpp"
#include "quant_common.hpp"

#include <vector>

namespace amn::detail {
namespace {
using u64 = std::uint64_t;
namespace f4 = amn::kernels::fp4;

class Nvfp4Recipe final : public QuantRecipe {
public:
    Nvfp4Recipe(const Catalog& cat, std::size_t w, std::size_t s, std::size_t gs, u64 out, u64 in, Fp4Params p)
        : QuantRecipe(p), w_(cat.tensors[w]), s_(cat.tensors[s]), wd_(cat.data(w_)), sd_(cat.data(s_)),
          global_(quant::load_float(dtype_info(cat.tensors[gs].dtype), cat.data(cat.tensors[gs]), 0)), out_(out), in_(in),
          multiply_(p.global_scale == Fp4GlobalScale::Multiplier), negative_zero_(p.negative_zero), arith_(p.arithmetic) {}
    std::uint64_t rows() const override { return out_; }
    std::uint64_t row_elems() const override { return in_; }
    std::vector<InputRange> inputs() const override {
        return {{w_.shard, w_.offset, w_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const u64 K = in_, G = in_ / 16;
        std::vector<float> sc(G);
        for (u64 r = row0; r < row0 + nrows; ++r) {
            amn::kernels::fp8_to_f32(DType::F8_E4M3, sd_ + r * G, sc.data(), G);
            if (multiply_)
                for (float& s : sc) s = f4::round_to(arith_, s * global_);
            else
                for (float& s : sc) s = f4::round_to(arith_, s / global_);
            f4::e2m1_groups(wd_ + r * (K / 2), sc.data(), 8, negative_zero_, arith_, out + (r - row0) * K, G);
        }
    }

private:
    const TensorInfo& w_;
    const TensorInfo& s_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    float global_;  // the divisor or the multiplier
    u64 out_, in_;
    bool multiply_;
    bool negative_zero_;
    DType arith_;  // Fp4Params::arithmetic
};

}  // namespace

std::shared_ptr<const QuantRecipe> make_nvfp4_recipe(const Catalog& cat, std::size_t w, std::size_t s, std::size_t global,
                                                     std::uint64_t out, std::uint64_t in, Fp4Params p) {
    return std::make_shared<Nvfp4Recipe>(cat, w, s, global, out, in, std::move(p));
}

}  // namespace amn::detail
