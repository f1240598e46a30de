// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the plan builder every scheme family plugs into. make_plan()
// runs the detectors in order; each claims the catalog tensors it
// understands and adds logical tensors. Whatever nobody claimed becomes
// passthrough (or Unsupported when its dtype cannot be converted).
//
// Adding a scheme = one file in core/src/plan/schemes/ (detector, recipe
// deriving from QuantRecipe) + one row in the scheme facts table (facts.cc),
// which make_plan runs in order + its typed parameters: an existing struct
// of quant_params.hpp (a new enum value, with its words in that struct's
// id()/describe()) or a new struct in the QuantParams variant.

#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// Base of every dequantizing recipe: its scheme is a typed value, and
/// describe()/scheme_id() are derived from it.
class QuantRecipe : public Recipe {
public:
    explicit QuantRecipe(QuantParams params) : params_(std::move(params)) {}
    const QuantParams& params() const noexcept { return params_; }
    std::string describe() const final { return amn::describe(params_); }
    std::string scheme_id() const final { return amn::scheme_id(params_); }

private:
    QuantParams params_;
};

class PlanBuilder {
public:
    PlanBuilder(const Catalog& catalog, Plan& plan, const PlanOptions& options = {});

    const Catalog& catalog() const noexcept { return cat_; }
    /// How the recipes compute (make_plan's options).
    const PlanOptions& options() const noexcept { return options_; }
    /// True when tensor `i` was already claimed by a detector.
    bool claimed(std::size_t i) const noexcept { return claimed_[i]; }
    /// Index of an unclaimed tensor named `name`, or npos.
    std::size_t find_unclaimed(std::string_view name) const;
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    /// Claim `payload` (Role::Quantized) and `companions` (Role::Companion)
    /// and add the logical tensor `lt` made by `recipe` (lt.recipe,
    /// lt.params, lt.sources, lt.stored_bytes and lt.shard are filled in
    /// here; lt.quantized is set).
    void add_quantized(LogicalTensor lt, std::shared_ptr<const QuantRecipe> recipe, std::size_t payload,
                       const std::vector<std::size_t>& companions);
    /// Claim a companion without producing anything (activation scales,
    /// `input_scale`, `weight_format` …): consumed, not emitted.
    void consume(std::size_t i);
    /// Claim `payload` with an error (Role::Unsupported), keeping the
    /// tensor visible in the plan under `name`.
    void add_error(std::size_t payload, std::string name, TensorError error,
                   const std::vector<std::size_t>& companions = {});
    /// Claim tensor `i` as passthrough with the given recipe (formats whose
    /// stored layout needs work: strided/big-endian NPY, PyTorch views).
    void add_passthrough(std::size_t i, std::shared_ptr<const Recipe> recipe);
    void note(std::string text);
    /// Consume every unclaimed tensor whose name ends with one of `suffixes` (with `scalars_only`, only
    /// one-element ones): the KV-cache / attention scales a quantized checkpoint carries for its runtime
    /// (vLLM's FP8 KV cache: `self_attn.k_scale`, `v_scale`, …). A dequantized folder and llama.cpp have no
    /// use for them (convert_hf_to_gguf.py stops on them, "Can not map tensor"), so they are dropped — and
    /// said: one note naming how many and the first.
    void consume_runtime_scales(std::initializer_list<std::string_view> suffixes, bool scalars_only);
    /// A Plan::warnings entry (once: repeated notices are dropped).
    void warn(Notice notice);

    /// After all detectors: plain passthrough for the rest, companion roles, scheme counts.
    void finish();

private:
    const Catalog& cat_;
    Plan& plan_;
    PlanOptions options_;
    std::vector<bool> claimed_;
};

// Scheme detectors, run by make_plan() in the order of the facts table
// (facts.cc): gguf, compressed-tensors, modelopt, mxfp4, fp8, mlx, gptq, awq,
// bnb4, bnb-int8.
/// GGUF catalogs: ggml block types → quantized logical tensors (row = innermost
/// GGUF dim), big-endian plain types → byte-swapping passthrough (schemes/gguf.cc).
void detect_gguf(PlanBuilder& b);
/// ONNX catalogs: initializers consumed by MatMulNBits, MatMulBnb4,
/// GatherBlockQuantized, DequantizeLinear or MatMulInteger → quantized
/// logical tensors named as the float weight they replaced (schemes/onnx.cc).
void detect_onnx(PlanBuilder& b);
// Formats named by their quantization_config; run before detect_fp8 so their
// FP8 layers get the library's arithmetic (new formats, issue 12).
void detect_compressed_tensors(PlanBuilder& b);  // schemes/compressed_tensors.cc (quant_method "compressed-tensors")
void detect_modelopt(PlanBuilder& b);  // schemes/modelopt.cc (NVIDIA ModelOpt NVFP4 / FP8, hf_quant_config.json)
void detect_mxfp4(PlanBuilder& b);     // schemes/mxfp4.cc (gpt-oss *_blocks + *_scales)
/// gpt-oss's MXFP4 parameters (schemes/mxfp4.cc): blocks of 32 E2M1 codes, E8M0 scales, code 8 = −0.0, no
/// global scale; `experts`: the [E, rows, in/32, 16] layout (Fp4Layout::BlocksExperts), else Blocks.
Fp4Params gpt_oss_mxfp4_params(bool experts);
void detect_fp8(PlanBuilder& b);       // schemes/fp8.cc
// Claims tensors whose stored layout needs work (TensorInfo::strides,
// big_endian, storage_offset_elems: Fortran-order/big-endian NPY, PyTorch
// views) as passthrough with a recipe producing contiguous little-endian rows.
void detect_strided_storage(PlanBuilder& b);  // schemes/strided.cc
// Integer-quantized safetensors schemes (claim qweight/qzeros/absmax/SCB …
// before detect_known_unsupported sees them).
void detect_mlx(PlanBuilder& b);       // schemes/mlx.cc (mlx-lm: U32 weight + scales [+ biases], config.json quantization)
void detect_gptq(PlanBuilder& b);      // schemes/gptq.cc (GPTQ layout: packed along inputs)
void detect_awq(PlanBuilder& b);       // schemes/awq.cc (AWQ GEMM: packed along outputs)
void detect_bnb4(PlanBuilder& b);      // schemes/bnb4.cc (bitsandbytes NF4/FP4, double quant)
void detect_bnb_int8(PlanBuilder& b);  // schemes/bnb_int8.cc (bitsandbytes LLM.int8)
/// After the table's detectors: tensors that belong to a quantization scheme the core cannot
/// dequantize (yet) are marked Unsupported, naming the scheme, instead of
/// passing packed integers through as if they were weights (schemes/unsupported.cc).
void detect_known_unsupported(PlanBuilder& b);

// A passthrough recipe over a contiguous little-endian stored tensor
// (schemes/passthrough.cc). Decodes via the dtype registry's to_f32.
std::shared_ptr<const Recipe> make_passthrough(const Catalog& cat, std::size_t tensor_index);

}  // namespace amn::detail
