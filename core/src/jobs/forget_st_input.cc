// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors: what is read (a GGUF input in its Hugging Face
// layout) and config.json with the scheme's quantization_config. The
// schemes are rows of forget_st_rows.cc; the pipeline is in forget_st.cc.
#include "anamnesis/forget_st.hpp"

#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "jobs/forget_st_internal.hpp"
#include "util/json_dom.hpp"
#include "util/json_util.hpp"
#include "util/py_json.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace amn {

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
    if (hf_->vocab_only)
        throw Error(ErrorCode::Unsupported,
                    "a vocab-only GGUF (no tensors) has nothing to quantize; `amn remember --layout hf` writes its tokenizer files",
                    cat.path);
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

std::string forget_st_internal::mlx_config_with(const std::optional<std::string>& config_json, const std::string& qc,
                                                const std::optional<std::string>& generation_config) {
    // generation_config.json's eos_token_id, when Python would call it true
    // (a non-zero number, a non-empty list).
    std::optional<std::string> eos;
    if (generation_config) {
        const detail::JsonDoc g(*generation_config, "generation_config.json", "generation_config.json");
        simdjson::dom::element v;
        if (g.root()["eos_token_id"].get(v) == simdjson::SUCCESS) {
            const bool truthy = v.is_array() ? simdjson::dom::array(v).size() != 0
                              : v.is_int64() ? std::int64_t(v) != 0
                              : v.is_uint64() ? std::uint64_t(v) != 0
                              : v.is_double() ? double(v) != 0.0
                              : v.is_bool() ? bool(v)
                              : v.is_string() ? !std::string_view(v).empty() : false;
            if (truthy) eos = simdjson::minify(v);
        }
    }
    // {input keys, quantization, quantization_config} as one JSON object, then
    // dumped the Python way with sorted keys (a key of the input named like
    // them is replaced, as the dict assignment does).
    std::string merged = "{";
    if (config_json) {
        const detail::JsonDoc in(*config_json, "config.json", "config.json");
        simdjson::dom::object o;
        if (in.root().get_object().get(o) != simdjson::SUCCESS)
            throw Error(ErrorCode::BadJson, "config.json is not a JSON object", "config.json");
        for (auto [k, v] : o) {
            if (k == "quantization" || k == "quantization_config" || k == "_name_or_path" || k == "vision_config") continue;
            if (k == "eos_token_id" && eos) continue;
            detail::py_json_string(merged, k);
            merged += ':' + simdjson::minify(v) + ',';
        }
    }
    if (eos) merged += "\"eos_token_id\":" + *eos + ",";
    merged += "\"quantization\":" + qc + ",\"quantization_config\":" + qc + "}";
    const detail::JsonDoc doc(merged, "config.json", "config.json");
    std::string out;
    detail::py_json_dump(out, doc.root(), 4, true);
    return out;
}

}  // namespace amn
