// SPDX-License-Identifier: MIT OR Apache-2.0
// The table of forget's safetensors schemes (forget_st_rows.hpp) and what
// every scheme answers through its row: names, parsing, labels,
// quantization_config, stored tensors, the encoder of a weight.
#include "jobs/forget_st_rows.hpp"

#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"

#include <algorithm>
#include <variant>

namespace amn {
namespace forget_st_internal {

// The rows, each defined beside its encoder object (forget_st_<scheme>.cc).
const StSchemeRow& bnb4_row();
const StSchemeRow& bnb_int8_row();
const StSchemeRow& fp8_ct_row();
const StSchemeRow& fp8_deepseek_row();
const StSchemeRow& ct_int_row();
const StSchemeRow& mlx_row();

const std::vector<const StSchemeRow*>& st_scheme_rows() {
    static const std::vector<const StSchemeRow*> t = {
        &bnb4_row(),          // Bnb4Params: bnb-nf4, bnb-fp4
        &bnb_int8_row(),      // Int8Params: bnb-int8
        &fp8_ct_row(),        // Fp8Params, compressed-tensors: fp8
        &fp8_deepseek_row(),  // Fp8Params, DeepSeek weight_scale_inv: fp8-block-deepseek
        &ct_int_row(),        // AffineParams, pack-quantized: w4a16, w4a16-asym, w8a16, w8a16-asym
        &mlx_row(),           // MlxParams, affine: mlx, mlx:2 … mlx:8
    };
    return t;
}

const StSchemeRow& st_scheme_row(const QuantParams& s) {
    for (const auto* r : st_scheme_rows()) {
        if (!r->writes(s)) continue;
        if (r->refuse)
            if (std::string why = r->refuse(s); !why.empty()) throw Error(ErrorCode::Usage, why);
        return *r;
    }
    std::string names;
    for (auto n : st_scheme_names()) names += (names.empty() ? "" : ", ") + std::string(n);
    throw Error(ErrorCode::Unsupported, "forget to safetensors does not write " + describe(s) + " (it writes " + names + ")");
}

std::vector<OutSpec> out_specs(const QuantParams& s, const std::string& weight_name, std::uint64_t R, std::uint64_t C,
                               DType wdtype) {
    const std::string prefix = weight_name.substr(0, weight_name.size() - 6);  // "...q_proj."
    return st_scheme_row(s).outputs(s, prefix, R, C, wdtype);
}

std::unique_ptr<WeightEncoder> weight_encoder(const QuantParams& scheme, std::uint64_t R, std::uint64_t C, DType wdtype,
                                              const kernels::st::StKernels* kernels, bool measure_loss) {
    return st_scheme_row(scheme).encoder(scheme, {R, C, wdtype, kernels ? kernels : &kernels::st::st_kernels(), measure_loss});
}

}  // namespace forget_st_internal

using forget_st_internal::st_scheme_row;
using forget_st_internal::st_scheme_rows;

std::optional<StSchemeInfo> st_scheme_info(std::string_view name) {
    for (const auto* r : st_scheme_rows())
        for (auto n : r->names)
            if (n == name)
                return StSchemeInfo{r->takes_blocksize, r->takes_double_quant, r->takes_granularity, r->takes_ue8m0,
                                    r->takes_group_size};
    return std::nullopt;
}

const std::vector<std::string_view>& st_scheme_names() {
    static const std::vector<std::string_view> n = [] {
        std::vector<std::string_view> v;
        for (const auto* r : st_scheme_rows()) v.insert(v.end(), r->names.begin(), r->names.end());
        return v;
    }();
    return n;
}

QuantParams parse_st_scheme(std::string_view name, const StSchemeOptions& o) {
    const std::string n(name);
    const auto rows = st_scheme_rows();
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const auto* r) {
        return std::find(r->names.begin(), r->names.end(), name) != r->names.end();
    });
    if (it == rows.end()) {
        std::string names;
        for (auto s : st_scheme_names()) names += (names.empty() ? "" : ", ") + std::string(s);
        throw Error(ErrorCode::Usage, "unknown scheme '" + n + "' (safetensors schemes: " + names + "; GGUF: gguf:FTYPE)");
    }
    const forget_st_internal::StSchemeRow& row = **it;
    auto refuse = [&](bool takes, bool present, const char* opt) {
        if (!takes && present) throw Error(ErrorCode::Usage, std::string(opt) + " does not apply to " + n);
    };
    refuse(row.takes_blocksize, o.blocksize.has_value(), "--blocksize");
    refuse(row.takes_double_quant, o.double_quant, "--double-quant");
    refuse(row.takes_granularity, o.granularity.has_value(), "--granularity");
    refuse(row.takes_ue8m0, o.ue8m0, "--ue8m0");
    refuse(row.takes_group_size, o.group_size.has_value(), "--group-size");
    QuantParams s = row.parse(name, o);
    check_st_scheme(s);
    return s;
}

void check_st_scheme(const QuantParams& s) { (void)st_scheme_row(s); }

QuantParams st_weight_params(const QuantParams& s, std::uint64_t rows, std::uint64_t cols, DType weight_dtype) {
    return st_scheme_row(s).weight_params(s, rows, cols, weight_dtype);
}

std::string st_scheme_label(const QuantParams& s) { return st_scheme_row(s).label(s); }

std::string st_quantization_config(const QuantParams& s, const std::vector<std::string>& ignore) {
    const auto& row = st_scheme_row(s);
    JsonWriter w;
    w.begin_object();
    row.config(s, w);
    if (row.lists_ignore) {
        w.key("ignore").begin_array();
        for (const auto& m : ignore) w.value(m);
        w.end_array();
    }
    w.end_object();
    return w.take();
}

std::string default_st_output_path(const Catalog& cat, const QuantParams& s) {
    const std::string tag = st_scheme_row(s).output_tag(s);
    std::string p = default_output_path(cat, DType::BF16);  // "<name>-bf16" or "<stem>-bf16.safetensors"
    const auto at = p.rfind("-bf16");
    if (at != std::string::npos) p.replace(at, 5, "-" + tag);
    // A GGUF becomes a Hugging Face model folder "<stem>-<scheme>/" (config.json inside).
    const std::string ext = ".safetensors";
    if (cat.format == Format::Gguf && p.ends_with(ext)) p.resize(p.size() - ext.size());
    return p;
}

}  // namespace amn
