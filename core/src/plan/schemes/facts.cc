// SPDX-License-Identifier: MIT OR Apache-2.0
// The scheme facts table (see facts.hpp).
#include "facts.hpp"

#include "scheme.hpp"
#include "util/ascii_lower.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace amn::detail {
namespace {

using R = CompanionRole;
using M = CompanionFact::Match;

// GPTQ and AWQ share their tensor names: an orphan is "GPTQ/AWQ".
constexpr std::string_view kPackedWeight = "GPTQ/AWQ packed weight";
constexpr std::string_view kPackedZeros = "GPTQ/AWQ zero points";
constexpr std::string_view kBnbState = "bitsandbytes quantization state";

std::vector<SchemeFacts> make_table() {
    std::vector<SchemeFacts> t;
    t.push_back({"gguf", detect_gguf, {}, {}, {"gguf", "pure"}, {}});  // + ggml type names, see is_quant_file_token
    // ONNX: the consuming node names the companions; these suffixes (the
    // quantizers' names) only give them their roles.
    t.push_back({"onnx", detect_onnx, {},
                 {{"_scales", R::Scale, {}}, {"_zero_points", R::ZeroPoint, {}}, {"_zero_point", R::ZeroPoint, {}},
                  {"_zp", R::ZeroPoint, {}}, {"_absmax", R::Scale, {}}},
                 {"uint8", "bnb4", "q4f16"},
                 {}});
    // Formats named by their quantization_config: before fp8, so that their
    // FP8 layers get the library's arithmetic (compressed-tensors leaves
    // float-quantized layers with BF16/F32 scales to detect_fp8).
    t.push_back({"compressed-tensors", detect_compressed_tensors, {"compressed-tensors"},
                 {{".weight_packed", R::Payload, "compressed-tensors packed weight"},
                  {".weight_scale", R::Scale, {}},
                  {".weight_zero_point", R::ZeroPoint, "compressed-tensors zero point"},
                  {".weight_shape", R::Layout, "compressed-tensors packed weight shape"},
                  {".weight_g_idx", R::GroupIndex, "compressed-tensors act-order group index"},
                  {".weight_global_scale", R::GlobalScale, "compressed-tensors NVFP4 global scale"},
                  {".input_global_scale", R::ActivationScale, {}}, {".input_scale", R::ActivationScale, {}},
                  {".output_scale", R::ActivationScale, {}}},
                 {"w8a8", "w4a4", "nvfp4"},
                 {}});
    t.push_back({"modelopt", detect_modelopt, {"modelopt"},
                 {{".weight_scale", R::Scale, {}},
                  {".weight_scale_2", R::GlobalScale, "ModelOpt NVFP4 second-level scale"},
                  {".input_scale", R::ActivationScale, {}}, {".k_scale", R::ActivationScale, {}},
                  {".v_scale", R::ActivationScale, {}}},
                 {},
                 {}});
    t.push_back({"mxfp4", detect_mxfp4, {"mxfp4"},
                 {{"_blocks", R::Payload, "MXFP4 blocks"}, {"_scales", R::Scale, {}}},
                 {"mxfp4"},
                 {}});
    t.push_back({"fp8", detect_fp8, {"fp8"},
                 {{"_scale_inv", R::Scale, {}}, {"_scale", R::Scale, {}}, {".scale_weight", R::Scale, {}},
                  {".scale", R::Scale, {}}, {".weight_zero_point", R::ZeroPoint, {}},
                  {".input_scale", R::ActivationScale, {}}, {".input_scale_inv", R::ActivationScale, {}},
                  {".activation_scale", R::ActivationScale, {}}, {".output_scale", R::ActivationScale, {}},
                  {".k_scale", R::ActivationScale, {}}, {".v_scale", R::ActivationScale, {}},
                  {".q_scale", R::ActivationScale, {}}, {".kv_scale", R::ActivationScale, {}},
                  {".prob_scale", R::ActivationScale, {}}},
                 {"fp8", "dynamic", "fp8_dynamic", "e4m3", "e5m2", "block", "fp8_e4m3", "fp8-e4m3"},
                 {"fp8", "scale"}});
    // MLX (mlx-lm): no quant_method; the config's `quantization` object and
    // the U32 weight + scales pairs decide.
    t.push_back({"mlx", detect_mlx, {},
                 {{".scales", R::Scale, {}}, {".biases", R::Bias, {}}},
                 {"mlx", "2bit", "3bit", "4bit", "5bit", "6bit", "8bit", "mxfp4", "nvfp4", "mxfp8"},
                 {}});
    t.push_back({"gptq", detect_gptq, {"gptq", "gptqmodel"},
                 {{".qweight", R::Payload, kPackedWeight}, {".qzeros", R::ZeroPoint, kPackedZeros},
                  {".scales", R::Scale, {}}, {".g_idx", R::GroupIndex, "GPTQ act-order group index"}},
                 {"gptq", "int4", "int8", "w4a16", "w8a16"},
                 {"gptq", "bits", "group_size"}});
    t.push_back({"awq", detect_awq, {"awq"},
                 {{".qweight", R::Payload, kPackedWeight}, {".qzeros", R::ZeroPoint, kPackedZeros},
                  {".scales", R::Scale, {}}},
                 {"awq", "int4_awq"},
                 {"awq", "bits", "group_size"}});
    t.push_back({"bnb4", detect_bnb4, {"bitsandbytes"},
                 {{".absmax", R::Scale, "bitsandbytes block absmax"}, {".quant_map", R::Codebook, "bitsandbytes codebook"},
                  {".nested_absmax", R::NestedScale, {}}, {".nested_quant_map", R::Codebook, {}},
                  {".quant_state.bitsandbytes__nf4", R::QuantState, {}},
                  {".quant_state.bitsandbytes__fp4", R::QuantState, {}},
                  {".quant_state.", R::None, kBnbState, M::Infix}, {".nested_", R::None, kBnbState, M::Infix}},
                 {"bnb", "nf4", "fp4", "4bit"},
                 {"bnb"}});
    t.push_back({"bnb-int8", detect_bnb_int8, {"bitsandbytes"},
                 {{".SCB", R::Scale, "bitsandbytes LLM.int8 row scales"}, {".weight_format", R::Layout, {}}},
                 {"bnb", "8bit", "int8"},
                 {"bnb"}});
    // Recognised, not dequantized: tensors are refused by name. The sparse
    // compressed-tensors formats (their layers are refused by
    // detect_compressed_tensors, naming the format; these catch the rest).
    t.push_back({"compressed-tensors-sparse", nullptr, {},
                 {{".bitmask", R::None, "compressed-tensors sparse-24-bitmask bitmask"},
                  {".scale_packed", R::None, "compressed-tensors marlin-24 packed scales"}},
                 {},
                 {}});
    return t;
}


}  // namespace

const std::vector<SchemeFacts>& scheme_facts() {
    static const std::vector<SchemeFacts> t = make_table();
    return t;
}

const SchemeFacts& scheme_facts(std::string_view family) {
    for (const auto& f : scheme_facts())
        if (f.family == family) return f;
    throw std::out_of_range("no scheme family " + std::string(family));
}

bool quant_method_is(std::string_view method, std::string_view family) {
    const auto& m = scheme_facts(family).quant_methods;
    return std::find(m.begin(), m.end(), ascii_lower(method)) != m.end();
}

CompanionRole companion_role_of(std::string_view name) {
    CompanionRole role = CompanionRole::None;
    std::size_t best = 0;
    for (const auto& f : scheme_facts())
        for (const auto& c : f.companions)
            if (c.match == CompanionFact::Match::Suffix && c.role != CompanionRole::None &&
                c.pattern.size() > best && name.ends_with(c.pattern)) {
                best = c.pattern.size();
                role = c.role;
            }
    return role;
}

std::optional<std::string_view> orphan_label(std::string_view name) {
    for (auto match : {CompanionFact::Match::Suffix, CompanionFact::Match::Infix})
        for (const auto& f : scheme_facts())
            for (const auto& c : f.companions) {
                if (c.orphan.empty() || c.match != match) continue;
                if (match == CompanionFact::Match::Suffix ? name.ends_with(c.pattern)
                                                          : name.find(c.pattern) != std::string_view::npos)
                    return c.orphan;
            }
    return std::nullopt;
}

bool is_quant_file_token(std::string_view t) {
    if (t.empty()) return false;
    // Not scheme facts: the generic word and the float dtypes an output is named by.
    static constexpr std::string_view kGeneric[] = {"quantized", "bf16",    "f16",     "f32",     "fp16",
                                                    "fp32",      "float16", "float32", "bfloat16"};
    if (std::find(std::begin(kGeneric), std::end(kGeneric), t) != std::end(kGeneric)) return true;
    for (const auto& f : scheme_facts())
        if (std::find(f.file_tokens.begin(), f.file_tokens.end(), t) != f.file_tokens.end()) return true;
    // gguf: ggml type names and llama.cpp file types (q4_0, q4_k_m, iq2_xxs, tq1_0 …).
    auto digit_at = [&](std::size_t n) { return t.size() > n && std::isdigit(static_cast<unsigned char>(t[n])); };
    return (t[0] == 'q' && digit_at(1)) || (t.substr(0, 2) == "iq" && digit_at(2)) || (t.substr(0, 2) == "tq" && digit_at(2));
}

bool describes_quantization_key(std::string_view k) {
    if (k.find("quant") != std::string_view::npos) return true;  // quant_method, quantization_config, …
    for (const auto& f : scheme_facts())
        for (auto m : f.metadata_markers)
            if (k.find(m) != std::string_view::npos) return true;
    return false;
}

}  // namespace amn::detail
