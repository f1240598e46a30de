// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes: the scheme names, parsing the scheme and its
// options, the human label, the library's quantization_config and the
// default output path, and config.json with it. The pipeline itself is in
// forget_st.cc.
#include "anamnesis/forget_st.hpp"

#include "anamnesis/convert.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "forget_st_internal.hpp"
#include "json_util.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace amn {
namespace {

using forget_st_internal::overloaded;

const char* fp8_preset(st::Fp8Granularity g) {
    switch (g) {
        case st::Fp8Granularity::Tensor: return "FP8";
        case st::Fp8Granularity::Channel: return "FP8_DYNAMIC";
        default: return "FP8_BLOCK";
    }
}
const char* granularity_name(st::Fp8Granularity g) {
    switch (g) {
        case st::Fp8Granularity::Tensor: return "tensor";
        case st::Fp8Granularity::Channel: return "channel";
        default: return "block";
    }
}

bool is_ct(const StScheme& s) {
    return std::holds_alternative<Fp8CtTarget>(s) || std::holds_alternative<PackedIntTarget>(s);
}

}  // namespace

// ---- schemes ------------------------------------------------------------------------------

const std::vector<std::string_view>& st_scheme_names() {
    static const std::vector<std::string_view> n = {"bnb-nf4", "bnb-fp4", "bnb-int8", "fp8", "fp8-block-deepseek",
                                                    "w4a16", "w4a16-asym", "w8a16", "w8a16-asym"};
    return n;
}

StScheme parse_st_scheme(std::string_view name, const StSchemeOptions& o) {
    const std::string n(name);
    auto refuse = [&](bool present, const char* opt) {
        if (present) throw Error(ErrorCode::Usage, std::string(opt) + " does not apply to " + n);
    };
    const bool bnb4 = n == "bnb-nf4" || n == "bnb-fp4";
    const bool ints = n == "w4a16" || n == "w4a16-asym" || n == "w8a16" || n == "w8a16-asym";
    if (!bnb4 && !ints && n != "bnb-int8" && n != "fp8" && n != "fp8-block-deepseek") {
        std::string names;
        for (auto s : st_scheme_names()) names += (names.empty() ? "" : ", ") + std::string(s);
        throw Error(ErrorCode::Usage, "unknown scheme '" + n + "' (safetensors schemes: " + names + "; GGUF: gguf:FTYPE)");
    }
    if (!bnb4) {
        refuse(o.blocksize.has_value(), "--blocksize");
        refuse(o.double_quant, "--double-quant");
    }
    if (n != "fp8") refuse(o.granularity.has_value(), "--granularity");
    if (n != "fp8-block-deepseek") refuse(o.ue8m0, "--ue8m0");
    if (!ints) refuse(o.group_size.has_value(), "--group-size");
    if (bnb4) {
        Bnb4Target b;
        b.kind = n == "bnb-nf4" ? st::Bnb4Kind::NF4 : st::Bnb4Kind::FP4;
        b.blocksize = o.blocksize.value_or(64);
        if (b.blocksize < 64 || b.blocksize > 4096 || (b.blocksize & (b.blocksize - 1)) != 0)
            throw Error(ErrorCode::Usage, "--blocksize must be a power of two from 64 to 4096 (64 or 128 are usual), not " +
                                              std::to_string(b.blocksize));
        b.double_quant = o.double_quant;
        return b;
    }
    if (n == "bnb-int8") return BnbInt8Target{};
    if (n == "fp8") {
        Fp8CtTarget f;
        const std::string g = o.granularity.value_or("channel");
        if (g == "tensor") f.granularity = st::Fp8Granularity::Tensor;
        else if (g == "channel") f.granularity = st::Fp8Granularity::Channel;
        else if (g == "block") f.granularity = st::Fp8Granularity::Block;
        else throw Error(ErrorCode::Usage, "--granularity must be tensor, channel or block, not '" + g + "'");
        return f;
    }
    if (n == "fp8-block-deepseek") return Fp8DeepseekTarget{o.ue8m0};
    PackedIntTarget q;
    q.bits = n[1] == '4' ? 4 : 8;
    q.symmetric = !std::string_view(n).ends_with("-asym");
    q.group_size = o.group_size.value_or(128);
    if (q.group_size % 8 != 0)
        throw Error(ErrorCode::Usage, "--group-size must be a multiple of 8 or 'channel', not " + std::to_string(q.group_size));
    return q;
}

std::string st_scheme_label(const StScheme& s) {
    return std::visit(overloaded{
                          [](const Bnb4Target& b) {
                              return std::string(b.kind == st::Bnb4Kind::NF4 ? "bnb-nf4" : "bnb-fp4") + " (blocksize " +
                                     std::to_string(b.blocksize) + (b.double_quant ? ", double quant)" : ")");
                          },
                          [](const BnbInt8Target&) { return std::string("bnb-int8"); },
                          [](const Fp8CtTarget& f) {
                              return std::string("fp8 (") + fp8_preset(f.granularity) + ", " + granularity_name(f.granularity) +
                                     ")";
                          },
                          [](const Fp8DeepseekTarget& d) {
                              return std::string("fp8-block-deepseek") + (d.ue8m0 ? " (ue8m0)" : "");
                          },
                          [](const PackedIntTarget& q) {
                              return std::string(q.bits == 4 ? "w4a16" : "w8a16") + (q.symmetric ? "" : "-asym") + " (" +
                                     (q.group_size ? "group " + std::to_string(q.group_size) : std::string("channel")) + ")";
                          },
                      },
                      s);
}

std::string st_quantization_config(const StScheme& s, const std::vector<std::string>& ignore) {
    JsonWriter w;
    w.begin_object();
    std::visit(overloaded{
                   [&](const Bnb4Target& b) {
                       w.key("quant_method").value("bitsandbytes");
                       w.key("load_in_4bit").value(true);
                       w.key("bnb_4bit_quant_type").value(b.kind == st::Bnb4Kind::NF4 ? "nf4" : "fp4");
                       w.key("bnb_4bit_use_double_quant").value(b.double_quant);
                       w.key("bnb_4bit_quant_storage").value("uint8");
                   },
                   [&](const BnbInt8Target&) {
                       w.key("quant_method").value("bitsandbytes");
                       w.key("load_in_8bit").value(true);
                       w.key("llm_int8_threshold").raw("6.0");
                   },
                   [&](const Fp8CtTarget& f) {
                       w.key("quant_method").value("compressed-tensors");
                       w.key("format").value("float-quantized");
                       w.key("config_groups").begin_object().key("group_0").begin_object();
                       w.key("targets").begin_array().value("Linear").end_array();
                       w.key("weights").begin_object();
                       w.key("num_bits").value(8).key("type").value("float").key("symmetric").value(true);
                       w.key("strategy").value(granularity_name(f.granularity));
                       w.key("dynamic").value(false).key("observer").value("memoryless_minmax");
                       if (f.granularity == st::Fp8Granularity::Block)
                           w.key("block_structure").begin_array().value(128).value(128).end_array();
                       w.end_object();
                       w.key("input_activations").begin_object();
                       w.key("num_bits").value(8).key("type").value("float").key("symmetric").value(true);
                       switch (f.granularity) {
                           case st::Fp8Granularity::Tensor: w.key("strategy").value("tensor").key("dynamic").value(false); break;
                           case st::Fp8Granularity::Channel: w.key("strategy").value("token").key("dynamic").value(true); break;
                           default:
                               w.key("strategy").value("group").key("group_size").value(128).key("dynamic").value(true);
                       }
                       w.end_object();
                       w.end_object().end_object();
                       w.key("quantization_status").value("compressed");
                   },
                   [&](const Fp8DeepseekTarget& d) {
                       w.key("quant_method").value("fp8");
                       w.key("fmt").value("e4m3");
                       w.key("activation_scheme").value("dynamic");
                       w.key("weight_block_size").begin_array().value(128).value(128).end_array();
                       if (d.ue8m0) w.key("scale_fmt").value("ue8m0");
                   },
                   [&](const PackedIntTarget& q) {
                       w.key("quant_method").value("compressed-tensors");
                       w.key("format").value("pack-quantized");
                       w.key("config_groups").begin_object().key("group_0").begin_object();
                       w.key("targets").begin_array().value("Linear").end_array();
                       w.key("weights").begin_object();
                       w.key("num_bits").value(q.bits).key("type").value("int").key("symmetric").value(q.symmetric);
                       w.key("strategy").value(q.group_size ? "group" : "channel");
                       w.key("dynamic").value(false).key("observer").value("memoryless_minmax");
                       if (q.group_size) w.key("group_size").value(q.group_size);
                       w.end_object();
                       w.end_object().end_object();
                       w.key("quantization_status").value("compressed");
                   },
               },
               s);
    if (is_ct(s)) {
        w.key("ignore").begin_array();
        for (const auto& m : ignore) w.value(m);
        w.end_array();
    }
    w.end_object();
    return w.take();
}

std::string default_st_output_path(const Catalog& cat, const StScheme& s) {
    const std::string tag = std::visit(
        overloaded{
            [](const Bnb4Target& b) { return std::string(b.kind == st::Bnb4Kind::NF4 ? "bnb-nf4" : "bnb-fp4"); },
            [](const BnbInt8Target&) { return std::string("bnb-int8"); },
            [](const Fp8CtTarget& f) {
                return std::string(f.granularity == st::Fp8Granularity::Tensor    ? "fp8"
                                   : f.granularity == st::Fp8Granularity::Channel ? "fp8-dynamic"
                                                                                  : "fp8-block");
            },
            [](const Fp8DeepseekTarget&) { return std::string("fp8-block-ds"); },
            [](const PackedIntTarget& q) {
                return std::string(q.bits == 4 ? "w4a16" : "w8a16") + (q.symmetric ? "" : "-asym") + (q.group_size ? "" : "-ch");
            },
        },
        s);
    std::string p = default_output_path(cat, DType::BF16);  // "<name>-bf16" or "<stem>-bf16.safetensors"
    const auto at = p.rfind("-bf16");
    if (at != std::string::npos) p.replace(at, 5, "-" + tag);
    // A GGUF becomes a Hugging Face model folder "<stem>-<scheme>/" (config.json inside).
    const std::string ext = ".safetensors";
    if (cat.format == Format::Gguf && p.ends_with(ext)) p.resize(p.size() - ext.size());
    return p;
}

// ---- input ---------------------------------------------------------------------------------

forget_st_internal::StInput::StInput(const Catalog& cat, const Plan& plan) : cat_(cat), plan_(plan) {
    if (cat.format != Format::Gguf) return;
    // torch_dtype: the float dtype holding most bytes among the tensors kept as they are.
    std::map<DType, std::uint64_t> bytes;
    for (const auto& lt : plan.tensors) {
        if (lt.quantized || lt.sources.size() != 1) continue;
        const TensorInfo& ti = cat.tensors.at(lt.sources[0]);
        if (ti.dtype == DType::F32 || ti.dtype == DType::F16 || ti.dtype == DType::BF16) bytes[ti.dtype] += ti.nbytes;
    }
    std::optional<DType> torch_dtype;
    for (const auto& [d, n] : bytes)
        if (!torch_dtype || n > bytes[*torch_dtype]) torch_dtype = d;
    hf_ = to_hf_layout(cat, plan, torch_dtype);
    hf_config_ = hf_->config_json;
}

// ---- config.json -------------------------------------------------------------------------

std::string forget_st_internal::config_with(const std::optional<std::string>& config_json, const std::string& qc) {
    JsonWriter w(2);
    w.begin_object();
    if (config_json) detail::write_config_members(*config_json, w);
    w.key("quantization_config").raw(qc);
    w.end_object();
    return w.take();
}

}  // namespace amn
