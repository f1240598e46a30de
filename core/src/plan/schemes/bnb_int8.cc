// SPDX-License-Identifier: MIT OR Apache-2.0
// bitsandbytes LLM.int8 weight dequantization.
//
// Stored per layer X (transformers' serialization of `Int8Params`):
//   X.weight         I8 [out, in]   row-wise absmax-quantized weight
//   X.SCB            F32 [out]      the row absmax ("scale, column-wise B")
//   X.weight_format  U8 scalar      layout: 0 = row (others are GPU tile layouts)
// Output X.weight [out, in]:
//   W[r, c] = (f32(q[r, c]) × SCB[r]) × f32(7.874015718698502e-3)
// as bitsandbytes `int8_vectorwise_dequant` (`A * stats * (1/127)` with the
// literal, in f32, left to right).
#include "anamnesis/error.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "facts.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <string>
#include <vector>

namespace amn::detail {
namespace {
using namespace quant;
namespace qk = amn::kernels::quant;

class Int8Recipe final : public QuantRecipe {
public:
    Int8Recipe(const Catalog& cat, std::size_t w, std::size_t scb)
        : QuantRecipe(Int8Params{cat.tensors[scb].dtype}), w_(cat.tensors[w]), wd_(cat.data(w_)),
          sd_(cat.data(cat.tensors[scb])), sinfo_(dtype_info(cat.tensors[scb].dtype)) {}
    std::uint64_t rows() const override { return w_.shape[0]; }
    std::uint64_t row_elems() const override { return w_.shape[1]; }
    std::vector<InputRange> inputs() const override { return {{w_.shard, w_.offset, w_.nbytes}}; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t C = w_.shape[1];
        for (std::uint64_t r = row0; r < row0 + nrows; ++r)
            qk::int8_row_scale(reinterpret_cast<const std::int8_t*>(wd_ + r * C), load_float(sinfo_, sd_, r),
                               out + (r - row0) * C, C);
    }

private:
    const TensorInfo& w_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    const DTypeInfo* sinfo_;
};

std::optional<std::int64_t> read_int_scalar(const Catalog& cat, const TensorInfo& t) {
    if (t.numel() != 1) return std::nullopt;
    const std::uint8_t* p = cat.data(t);
    switch (t.dtype) {
        case DType::U8: return p[0];
        case DType::I8: return static_cast<std::int8_t>(p[0]);
        case DType::I32: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
        case DType::I64: { std::int64_t v; std::memcpy(&v, p, 8); return v; }
        default: return std::nullopt;
    }
}

}  // namespace

}  // namespace amn::detail

namespace amn {

std::string Int8Params::id() const { return "bnb-int8"; }
std::string Int8Params::describe() const {
    return "bitsandbytes LLM.int8, row-wise " + dtype_name(scale_dtype) + " absmax (SCB)";
}

}  // namespace amn

namespace amn::detail {

void detect_bnb_int8(PlanBuilder& b) {
    const auto& cat = b.catalog();
    bool any = false;
    for (std::size_t s = 0; s < cat.tensors.size(); ++s) {
        const auto& st = cat.tensors[s];
        if (b.claimed(s) || !st.name.ends_with(".SCB")) continue;
        const std::string stem = stem_of(st.name, ".SCB");
        const std::string wname = stem + ".weight";
        const std::size_t w = b.find_unclaimed(wname);
        const std::size_t wf = b.find_unclaimed(stem + ".weight_format");
        std::vector<std::size_t> comps{s};
        if (wf != PlanBuilder::npos) comps.push_back(wf);
        if (w == PlanBuilder::npos) {
            comps.erase(comps.begin());
            b.add_error(s, wname, {TensorErrorKind::MissingCompanion, "bitsandbytes LLM.int8", "SCB without its weight " + wname}, comps);
            continue;
        }
        const auto& wt = cat.tensors[w];
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(w, wname, {k, "bitsandbytes LLM.int8", why}, comps);
        };
        if (wt.dtype != DType::I8 || wt.shape.size() != 2) {
            fail("weight must be a 2-D I8 tensor, got " + wt.dtype_name + " " + shape_to_string(wt.shape));
            continue;
        }
        if (!is_float_scale(st.dtype) || st.numel() != wt.shape[0]) {
            fail("SCB must hold one F32 value per row (" + std::to_string(wt.shape[0]) + "), got " + st.dtype_name + " " +
                 shape_to_string(st.shape));
            continue;
        }
        if (wf != PlanBuilder::npos) {
            const auto v = read_int_scalar(cat, cat.tensors[wf]);
            if (!v) {
                fail("weight_format must be an integer scalar, got " + cat.tensors[wf].dtype_name + " " +
                     shape_to_string(cat.tensors[wf].shape));
                continue;
            }
            if (*v != 0) {
                static const char* names[] = {"row", "col32", "col_turing", "col_ampere"};
                fail("weight_format " + std::to_string(*v) +
                     (*v > 0 && *v < 4 ? std::string(" (") + names[*v] + ")" : std::string()) +
                     " is a GPU tile layout; only the row layout (0) is supported", TensorErrorKind::UnsupportedVariant);
                continue;
            }
        }
        LogicalTensor lt;
        lt.name = wname;
        lt.shape = wt.shape;
        b.add_quantized(std::move(lt), std::make_shared<Int8Recipe>(cat, w, s), w, comps);
        any = true;
    }
    // An LLM.int8 model's I8 weight without SCB would otherwise pass through
    // as integers, as if it were the weight.
    const auto in8 = cat.qconfig("load_in_8bit");
    const auto method = cat.qconfig("quant_method");
    if (!any && !(in8 && *in8 == "true" && method && quant_method_is(*method, "bnb-int8"))) return;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& t = cat.tensors[i];
        if (b.claimed(i) || t.dtype != DType::I8 || t.shape.size() != 2 || !t.name.ends_with(".weight")) continue;
        b.add_error(i, t.name, {TensorErrorKind::MissingCompanion, "bitsandbytes LLM.int8", "I8 weight without its row scales " + stem_of(t.name, ".weight") + ".SCB"});
    }
}

}  // namespace amn::detail
