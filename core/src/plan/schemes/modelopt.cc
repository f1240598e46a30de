// SPDX-License-Identifier: MIT OR Apache-2.0
// NVIDIA ModelOpt exports (`nvidia/*-FP4`, `*-FP8`): quant_method "modelopt"
// in config.json, or hf_quant_config.json `quantization.quant_algo` (read
// into the catalog's quantization_config by open_model). MIXED_PRECISION
// exports name each layer's algorithm under `quantized_layers.<layer>`.
//
// Stored per layer X (output X.weight [out, in]):
//   NVFP4  X.weight U8 [out, in/2] (E2M1 pairs, low nibble first; ModelOpt's
//          value table has +0.0 for code 8), X.weight_scale F8_E4M3
//          [out, in/16], X.weight_scale_2 F32 [] — a multiplier:
//          s = f32(e4m3(scale) · weight_scale_2), x = f32(e2m1 · s)
//          (`NVFP4QTensor.dequantize`).
//   FP8    X.weight F8_E4M3 [out, in], X.weight_scale F32 [] (or [out]):
//          x = f32(e4m3 · scale), one f32 product rounded once by the sink —
//          PyTorch's `w.to(float32) * scale`, llama.cpp's convert_hf_to_gguf
//          (`dequant_simple`) and vLLM. (ModelOpt's own
//          `FP8QTensor.dequantize(dtype=bfloat16)` rounds the scale to BF16
//          first; 9 % of a real layer's values differ. Not offered: no loader
//          computes it that way.)
// X.input_scale and the KV-cache k_scale / v_scale are consumed.
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "facts.hpp"
#include "nvfp4_recipe.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <string>
#include <vector>

namespace amn::detail {
namespace {
using namespace quant;
using u64 = std::uint64_t;

std::string upper(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

Fp4Params nvfp4_params(DType scale2_dtype) {
    Fp4Params p;
    p.format = Fp4Format::Nvfp4;
    p.producer = Fp4Producer::ModelOpt;
    p.block_size = 16;
    p.scale_dtype = DType::F8_E4M3;
    p.global_scale = Fp4GlobalScale::Multiplier;
    p.global_dtype = scale2_dtype;
    p.negative_zero = false;  // ModelOpt's E2M1 value table has +0.0 for code 8
    p.layout = Fp4Layout::RowMajor;
    return p;
}

Fp8Params fp8_params(const TensorInfo& w, const TensorInfo& s, bool per_channel) {
    Fp8Params p;
    p.producer = Fp8Producer::ModelOpt;
    p.format = w.dtype;
    p.granularity = per_channel ? Fp8Granularity::Channel : Fp8Granularity::Tensor;
    p.scale_dtype = s.dtype;
    p.scale_name = Fp8ScaleName::Scale;
    return p;
}

class Fp8Recipe final : public QuantRecipe {
public:
    Fp8Recipe(const Catalog& cat, std::size_t w, std::size_t s, bool per_channel)
        : QuantRecipe(fp8_params(cat.tensors[w], cat.tensors[s], per_channel)), w_(cat.tensors[w]), s_(cat.tensors[s]),
          wd_(cat.data(w_)), sd_(cat.data(s_)), sinfo_(dtype_info(s_.dtype)), per_channel_(per_channel) {}
    std::uint64_t rows() const override { return w_.shape[0]; }
    std::uint64_t row_elems() const override { return w_.shape[1]; }
    std::vector<InputRange> inputs() const override { return {{w_.shard, w_.offset, w_.nbytes}}; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const u64 K = w_.shape[1];
        for (u64 r = row0; r < row0 + nrows; ++r) {
            const float s = load_float(sinfo_, sd_, per_channel_ ? r : 0);
            amn::kernels::fp8_scale_to_f32(w_.dtype, wd_ + r * K, s, out + (r - row0) * K, K);
        }
    }

private:
    const TensorInfo& w_;
    const TensorInfo& s_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    const DTypeInfo* sinfo_;
    bool per_channel_;
};

}  // namespace

void detect_modelopt(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    const bool configured = method && quant_method_is(*method, "modelopt");
    if (method && !configured) return;  // no config at all: NVFP4 layouts are still recognised
    const std::string algo = upper(cat.qconfig("quant_algo").value_or(""));
    bool any = false;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& wt = cat.tensors[i];
        if (b.claimed(i) || !wt.name.ends_with(".weight")) continue;
        const std::string stem = stem_of(wt.name, ".weight");
        const std::size_t sc = b.find_unclaimed(stem + ".weight_scale");
        if (sc == PlanBuilder::npos) continue;
        const std::size_t sc2 = b.find_unclaimed(stem + ".weight_scale_2");
        const auto& st = cat.tensors[sc];
        const bool nvfp4_layout = wt.dtype == DType::U8 && st.dtype == DType::F8_E4M3;
        if (!configured && !(nvfp4_layout && sc2 != PlanBuilder::npos)) continue;
        std::string layer_algo = upper(cat.qconfig("quantized_layers." + stem + ".quant_algo").value_or(algo));
        if (layer_algo.empty() || layer_algo == "MIXED_PRECISION")
            layer_algo = nvfp4_layout ? "NVFP4" : wt.dtype == DType::F8_E4M3 ? "FP8" : "";
        std::vector<std::size_t> comps{sc};
        if (sc2 != PlanBuilder::npos) comps.push_back(sc2);
        any = true;
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(i, wt.name, {k, "ModelOpt " + (layer_algo.empty() ? std::string("(no quant_algo)") : layer_algo), why},
                        comps);
        };
        if (layer_algo == "NVFP4") {
            if (wt.dtype != DType::U8 || wt.shape.size() != 2) {
                fail("weight must be a 2-D U8 tensor (E2M1 pairs), got " + wt.dtype_name + " " + shape_to_string(wt.shape));
            } else if ((wt.shape[1] * 2) % 16 != 0) {
                fail("rows of " + std::to_string(wt.shape[1] * 2) + " values are not a multiple of 16 (NVFP4 groups of 16)");
            } else if (st.dtype != DType::F8_E4M3 || st.shape.size() != 2 || st.shape[0] != wt.shape[0] ||
                       st.shape[1] != wt.shape[1] * 2 / 16) {
                fail("weight_scale must be F8_E4M3 [" + std::to_string(wt.shape[0]) + ", " +
                     std::to_string(wt.shape[1] * 2 / 16) + "], got " + st.dtype_name + " " + shape_to_string(st.shape));
            } else if (sc2 == PlanBuilder::npos) {
                fail("missing " + stem + ".weight_scale_2", TensorErrorKind::MissingCompanion);
            } else if (!is_float_scale(cat.tensors[sc2].dtype) || cat.tensors[sc2].numel() != 1) {
                fail("weight_scale_2 must be one F32 value, got " + cat.tensors[sc2].dtype_name + " " +
                     shape_to_string(cat.tensors[sc2].shape));
            } else {
                LogicalTensor lt;
                lt.name = wt.name;
                lt.shape = {wt.shape[0], wt.shape[1] * 2};
                b.add_quantized(std::move(lt), make_nvfp4_recipe(cat, i, sc, sc2, wt.shape[0], wt.shape[1] * 2, nvfp4_params(cat.tensors[sc2].dtype)), i,
                                comps);
            }
        } else if (layer_algo == "FP8" || layer_algo == "FP8_PER_CHANNEL_PER_TOKEN") {
            const bool per_channel = wt.shape.size() == 2 && st.numel() == wt.shape[0] && st.numel() != 1;
            if (wt.dtype != DType::F8_E4M3 || wt.shape.size() != 2) {
                fail("weight must be a 2-D F8_E4M3 tensor, got " + wt.dtype_name + " " + shape_to_string(wt.shape));
            } else if (!is_float_scale(st.dtype) || (st.numel() != 1 && !per_channel)) {
                fail("weight_scale " + st.dtype_name + " " + shape_to_string(st.shape) + " is neither one value nor one per output row");
            } else {
                LogicalTensor lt;
                lt.name = wt.name;
                lt.shape = wt.shape;
                b.add_quantized(std::move(lt), std::make_shared<Fp8Recipe>(cat, i, sc, per_channel), i, comps);
            }
        } else {
            fail("quant_algo \"" + layer_algo + "\" is not yet supported (" + wt.name + ")", TensorErrorKind::UnsupportedVariant);
        }
        for (const char* suf : {".input_scale", ".output_scale"})
            if (auto j = b.find_unclaimed(stem + suf); j != PlanBuilder::npos) b.consume(j);
    }
    if (!any && !configured) return;
    b.consume_runtime_scales({".k_scale", ".v_scale"}, false);
    for (std::size_t i = 0; i < cat.tensors.size(); ++i)  // activation scales of layers left unquantized
        if (!b.claimed(i) && cat.tensors[i].name.ends_with(".input_scale")) b.consume(i);
}

}  // namespace amn::detail
