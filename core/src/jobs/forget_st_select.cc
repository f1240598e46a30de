// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors: which tensors are quantized (classify, the
// libraries' default `ignore`), declared in forget_st_internal.hpp. The
// stored tensors each scheme writes for a weight are its row's
// (forget_st_rows.hpp).
#include "jobs/forget_st_internal.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace amn::forget_st_internal {
namespace {

// The last module name of "a.b.c.weight" → "c".
std::string last_module(const std::string& name) {
    std::string m = name;
    if (m.ends_with(".weight")) m.resize(m.size() - 7);
    const auto dot = m.find_last_of('.');
    return dot == std::string::npos ? m : m.substr(dot + 1);
}

bool in_block(const std::string& name) {
    static const std::regex re(R"((^|\.)(layers|layer|blocks|block|h)\.\d+\.)");
    return std::regex_search(name, re);
}

// The Conv1D modules (transformers.pytorch_utils.Conv1D) of the model types
// that use them (GPT-2, OpenAI GPT, ImageGPT, Decision Transformer): c_attn,
// c_proj, c_fc, q_attn. Other models name nn.Linear layers the same way
// (Qwen-1, GPTBigCode, CLIP), hence the model_type check.
bool is_conv1d(const std::string& module) {
    return module == "c_attn" || module == "c_proj" || module == "c_fc" || module == "q_attn";
}

// A `model_type` naming a Conv1D model type in `e` or in any object nested
// in it (the decoder of an encoder-decoder config, a text_config …).
bool names_conv1d_model(simdjson::dom::element e) {
    simdjson::dom::object obj;
    simdjson::dom::array arr;
    if (e.get_object().get(obj) == simdjson::SUCCESS) {
        for (auto [key, value] : obj) {
            std::string_view v;
            if (key == "model_type" && value.get_string().get(v) == simdjson::SUCCESS &&
                (v == "gpt2" || v == "openai-gpt" || v == "imagegpt" || v == "decision_transformer"))
                return true;
            if (names_conv1d_model(value)) return true;
        }
    } else if (e.get_array().get(arr) == simdjson::SUCCESS) {
        for (auto item : arr)
            if (names_conv1d_model(item)) return true;
    }
    return false;
}

}  // namespace

std::string module_of(const std::string& name) {
    return name.ends_with(".weight") ? name.substr(0, name.size() - 7) : name;
}

bool is_conv1d_model(const std::optional<std::string>& config_json) {
    if (!config_json) return false;
    const detail::JsonDoc doc(*config_json, "config.json", "config.json");
    return names_conv1d_model(doc.root());
}

Choice classify(const LogicalTensor& lt, bool is_float, const std::vector<std::regex>& only,
                const std::vector<std::regex>& keep, bool bnb, bool conv1d_model) {
    Choice c;
    const std::string& n = lt.name;
    if (lt.shape.size() < 2) return {false, false, StRule::KeptOneD};
    if (lt.shape.size() == 3 && in_block(n))
        return {false, false, StRule::KeptFusedExperts};
    if (lt.shape.size() != 2) return {false, false, StRule::KeptNot2D};
    if (!n.ends_with(".weight")) return {false, false, StRule::KeptNotWeight};
    if (lt.numel() == 0) return {false, false, StRule::KeptEmpty};
    const std::string l = detail::ascii_lower(n);
    const std::string m = detail::ascii_lower(last_module(n));
    const bool embedding = l.find("embed") != std::string::npos || m == "wte" || m == "wpe" || m == "tok_embeddings";
    const bool norm = l.find("norm") != std::string::npos || m.rfind("ln", 0) == 0;
    const bool conv1d = conv1d_model && is_conv1d(m);
    if (!is_float) return {false, false, StRule::KeptNotFloat};
    auto matches = [&](const std::vector<std::regex>& res) {
        return std::any_of(res.begin(), res.end(), [&](const std::regex& r) { return std::regex_search(n, r); });
    };
    const bool linear = !embedding && !norm;
    if (matches(keep)) return {false, linear, StRule::KeptByKeep};
    if (conv1d && (only.empty() || matches(only)) && in_block(n)) {
        // GPT-2 style Conv1D stores [in, out]. llm-compressor targets nn.Linear only; transformers'
        // bitsandbytes path transposes it first, which has no reference here yet (forget refuses it).
        if (!bnb) return {false, false, StRule::KeptConv1D};
        throw Error(ErrorCode::Unsupported,
                    "GPT-2 Conv1D weight (stored transposed, [in, out]): transformers transposes it before bitsandbytes "
                    "quantization, which forget does not reproduce yet; keep these layers with --keep "
                    "'\\.(c_attn|c_proj|c_fc|q_attn)\\.' or pick a compressed-tensors/FP8 scheme",
                    {}, n);
    }
    if (!only.empty()) {
        if (matches(only)) return {true, false, StRule::Quantized};
        return {false, linear, StRule::KeptNotMatchedByOnly};
    }
    if (embedding) return {false, false, StRule::KeptEmbedding};
    if (norm) return {false, false, StRule::KeptNorm};
    if (l.find("lm_head") != std::string::npos || m == "output") return {false, true, StRule::KeptLmHead};
    if (m == "gate" || m == "router" || m == "shared_expert_gate" || m.find("router") != std::string::npos)
        return {false, true, StRule::KeptRouter};
    if (!in_block(n)) return {false, true, StRule::KeptNotBlockLinear};
    c.quantize = true;
    return c;
}

Choice classify_mlx(const LogicalTensor& lt, bool is_float, const std::vector<std::regex>& only,
                    const std::vector<std::regex>& keep, std::uint64_t group_size) {
    const std::string& n = lt.name;
    if (lt.shape.size() < 2) return {false, false, StRule::KeptOneD};
    // SwitchLinear (mlx-lm switch_layers.py): the stacked experts [E, out, in].
    // mla.py MultiLinear (deepseek_v3's self_attn.embed_q / unembed_out): [heads, out, in].
    const bool switch_linear = lt.shape.size() == 3 && (n.find(".switch_mlp.") != std::string::npos ||
                                                        n.ends_with(".self_attn.embed_q.weight") ||
                                                        n.ends_with(".self_attn.unembed_out.weight"));
    if (lt.shape.size() != 2 && !switch_linear) return {false, false, StRule::KeptNot2D};
    if (!n.ends_with(".weight")) return {false, false, StRule::KeptNotWeight};
    if (lt.numel() == 0) return {false, false, StRule::KeptEmpty};
    if (!is_float) return {false, false, StRule::KeptNotFloat};
    auto matches = [&](const std::vector<std::regex>& res) {
        return std::any_of(res.begin(), res.end(), [&](const std::regex& r) { return std::regex_search(n, r); });
    };
    if (matches(keep)) return {false, false, StRule::KeptByKeep};
    if (!only.empty() && !matches(only)) return {false, false, StRule::KeptNotMatchedByOnly};
    if (group_size == 0 || lt.shape.back() % group_size != 0) return {false, false, StRule::KeptGroupSize};
    return {true, false, StRule::Quantized};
}

}  // namespace amn::forget_st_internal
