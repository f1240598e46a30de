// SPDX-License-Identifier: MIT OR Apache-2.0
// mlx-lm's model side of `mlx_lm.convert -q` (mlx-lm d78bf58e,
// mlx_lm/models/{llama,qwen2,qwen3,mixtral,qwen2_moe,qwen3_moe,olmoe,
// deepseek_v2,deepseek_v3,gpt_oss}.py, mla.py, switch_layers.py, utils.py,
// convert.py): expert stacking, deepseek_v3's kv_b_proj split, module-tree
// order, the model's quant and cast predicates, the dtype cast. See forget_st_mlx_tree.hpp.
#include "jobs/forget_st_mlx_tree.hpp"

#include "jobs/forget_st_mlx_gpt_oss.hpp"

#include "anamnesis/error.hpp"
#include "plan/layout_recipes.hpp"
#include "util/json_dom.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;

// A layer index "12" of "model.layers.12.<rest>", and rest; false otherwise.
bool split_layer(std::string_view name, std::string& index, std::string& rest) {
    constexpr std::string_view kLayers = "model.layers.";
    if (!name.starts_with(kLayers)) return false;
    name.remove_prefix(kLayers.size());
    const auto d = name.find('.');
    if (d == 0 || d == std::string_view::npos) return false;
    index = std::string(name.substr(0, d));
    if (!std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    rest = std::string(name.substr(d + 1));
    return true;
}

struct StackRule {
    std::string_view experts;  // "mlp.experts." (after the layer prefix)
    std::string_view stacked;  // "mlp.switch_mlp."
    std::pair<std::string_view, std::string_view> proj[3];  // HF projection → SwitchGLU member
};

const StackRule* stack_rule(const std::string& model_type) {
    // mixtral.py sanitize: w1 → gate_proj, w2 → down_proj, w3 → up_proj.
    static const StackRule kMixtral{"block_sparse_moe.experts.", "block_sparse_moe.switch_mlp.",
                                    {{"w1", "gate_proj"}, {"w2", "down_proj"}, {"w3", "up_proj"}}};
    // qwen2_moe.py / qwen3_moe.py / olmoe.py sanitize: names kept.
    static const StackRule kQwen{"mlp.experts.", "mlp.switch_mlp.",
                                 {{"gate_proj", "gate_proj"}, {"up_proj", "up_proj"}, {"down_proj", "down_proj"}}};
    if (model_type == "mixtral") return &kMixtral;
    // deepseek_v2.py sanitize: experts.E.{gate,down,up}_proj → switch_mlp, names kept.
    // deepseek_v3.py sanitize: the same names (its w1/w2/w3 loop variables unused).
    if (model_type == "qwen2_moe" || model_type == "qwen3_moe" || model_type == "olmoe" || model_type == "deepseek_v2" ||
        model_type == "deepseek_v3")
        return &kQwen;
    return nullptr;
}

constexpr u64 kMtpLayer = 61;  // deepseek_v3.py sanitize: `k.startswith("model.layers.61")`

u64 layer_number(const std::string& index, const std::string& name) {
    if (index.size() > 18) throw Error(ErrorCode::Malformed, "layer index " + index + " is too large", "", name);
    return std::stoull(index);
}

// deepseek_v3.py sanitize, its attention part: kv_b_proj → embed_q / unembed_out
// (mla.py MultiLinear), the MTP layer and rotary inv_freq dropped.
Plan deepseek_v3_attention(const Plan& plan, const MlxModelFacts& f) {
    const u64 L = f.num_hidden_layers.value_or(30), H = f.num_attention_heads.value_or(32);
    const u64 nope = f.qk_nope_head_dim.value_or(128), vd = f.v_head_dim.value_or(128);
    if (L > kMtpLayer)
        throw Error(ErrorCode::Unsupported,
                    "mlx-lm's deepseek_v3 sanitize drops every tensor whose name starts with model.layers.61 (DeepSeek-V3's "
                    "MTP layer); with num_hidden_layers = " + std::to_string(L) + " that is a real layer and mlx-lm's load fails");
    Plan out = plan;
    out.tensors.clear();
    for (const auto& lt : plan.tensors) {
        if (lt.name.starts_with("model.layers.61") || lt.name.find("rotary_emb.inv_freq") != std::string::npos) continue;
        std::string index, rest;
        if (!split_layer(lt.name, index, rest)) {
            out.tensors.push_back(lt);
            continue;
        }
        if (layer_number(index, lt.name) >= L)
            throw Error(ErrorCode::Unsupported,
                        "mlx-lm's deepseek_v3 model has num_hidden_layers = " + std::to_string(L) + " layers and its sanitize "
                        "drops only model.layers.61…; this tensor would not load (mlx-lm's strict load_weights)", "", lt.name);
        if (rest != "self_attn.kv_b_proj.weight") {
            out.tensors.push_back(lt);
            continue;
        }
        if (lt.shape.size() != 2 || lt.shape[0] != H * (nope + vd))
            throw Error(ErrorCode::Malformed,
                        "mlx-lm's deepseek_v3 reshapes kv_b_proj to [num_attention_heads = " + std::to_string(H) +
                            ", qk_nope_head_dim + v_head_dim = " + std::to_string(nope + vd) + ", kv_lora_rank]; it is " +
                            [&] { std::string s; for (auto d : lt.shape) s += (s.empty() ? "[" : ", ") + std::to_string(d); return s + "]"; }(),
                        "", lt.name);
        const u64 R = lt.shape[1];
        const std::string p = "model.layers." + index + ".self_attn.";
        LogicalTensor k = lt, v = lt;
        k.name = p + "embed_q.weight";
        k.shape = {H, R, nope};
        k.stored_bytes = lt.stored_bytes / (nope + vd) * nope;
        v.name = p + "unembed_out.weight";
        v.shape = {H, vd, R};
        v.stored_bytes = lt.stored_bytes - k.stored_bytes;
        if (lt.error.empty()) {
            k.recipe = detail::make_head_rows_recipe(lt.recipe, H, 0, nope, true);
            v.recipe = detail::make_head_rows_recipe(lt.recipe, H, nope, nope + vd, false);
        }
        out.tensors.push_back(std::move(k));
        out.tensors.push_back(std::move(v));
    }
    return out;
}

// The inverse: embed_q [H, R, nope] and unembed_out [H, v, R] → kv_b_proj [H·(nope + v), R].
Plan deepseek_v3_join(const Plan& plan) {
    std::map<std::string, std::size_t> unembed;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i)
        if (plan.tensors[i].name.ends_with(".self_attn.unembed_out.weight")) unembed.emplace(plan.tensors[i].name, i);
    Plan out = plan;
    out.tensors.clear();
    std::vector<bool> used(plan.tensors.size(), false);
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& q = plan.tensors[i];
        constexpr std::string_view kQ = "embed_q.weight";
        const auto u = q.name.ends_with(".self_attn.embed_q.weight")
                           ? unembed.find(q.name.substr(0, q.name.size() - kQ.size()) + "unembed_out.weight")
                           : unembed.end();
        if (u == unembed.end() || q.shape.size() != 3 || !q.recipe) continue;
        const auto& o = plan.tensors[u->second];
        if (o.shape.size() != 3 || !o.recipe) continue;
        const u64 H = q.shape[0], R = q.shape[1], nope = q.shape[2], vd = o.shape[1];
        if (o.shape[0] != H || o.shape[2] != R)
            throw Error(ErrorCode::Malformed,
                        "embed_q is [" + std::to_string(H) + ", " + std::to_string(R) + ", " + std::to_string(nope) +
                            "] but unembed_out is not [" + std::to_string(H) + ", v_head_dim, " + std::to_string(R) +
                            "] (mlx-lm's deepseek_v3 kv_b_proj split)",
                        "", o.name);
        LogicalTensor t = q;
        t.name = q.name.substr(0, q.name.size() - kQ.size()) + "kv_b_proj.weight";
        t.shape = {H * (nope + vd), R};
        t.sources.insert(t.sources.end(), o.sources.begin(), o.sources.end());
        t.stored_bytes += o.stored_bytes;
        t.quantized = q.quantized || o.quantized;
        if (!t.params) t.params = o.params;
        t.recipe = detail::make_group_join_recipe({{q.recipe, R, nope, true}, {o.recipe, vd, R, false}}, H, false, false,
                                                  "kv_b_proj from embed_q and unembed_out (mlx-lm deepseek_v3)");
        used[i] = used[u->second] = true;
        out.tensors.push_back(std::move(t));
    }
    // Every tensor in its place, the joined kv_b_proj where its embed_q was.
    Plan res = plan;
    res.tensors.clear();
    std::size_t j = 0;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        if (!used[i]) res.tensors.push_back(plan.tensors[i]);
        else if (plan.tensors[i].name.ends_with(".embed_q.weight")) res.tensors.push_back(std::move(out.tensors[j++]));
    }
    return res;
}

}  // namespace

std::string mlx_model_class(const std::string& model_type) {
    // utils.py MODEL_REMAPPING at d78bf58e.
    static constexpr std::pair<std::string_view, std::string_view> kRemap[] = {
        {"mistral", "llama"},          {"llava", "mistral3"},       {"phi-msft", "phixtral"},
        {"falcon_mamba", "mamba"},     {"joyai_llm_flash", "deepseek_v3"}, {"kimi_k2", "deepseek_v3"},
        {"qwen2_5_vl", "qwen2_vl"},    {"minimax_m2", "minimax"},   {"iquestcoder", "llama"},
        {"gemma4_unified", "gemma4"}};
    for (const auto& [from, to] : kRemap)
        if (model_type == from) return std::string(to);
    return model_type;
}

MlxModelFacts mlx_model_facts(const std::optional<std::string>& config_json) {
    MlxModelFacts f;
    if (!config_json) return f;
    const detail::JsonDoc doc(*config_json, "config.json", "config.json");
    if (!doc.root().is_object()) throw Error(ErrorCode::BadJson, "config.json is not a JSON object", "config.json");
    auto str = [](simdjson::dom::element o, std::string_view k) -> std::optional<std::string> {
        const auto v = detail::json_get(o, k);
        if (!v || !v->is_string()) return std::nullopt;
        return std::string(std::string_view(*v));
    };
    f.model_type = str(doc.root(), "model_type").value_or("");
    auto num = [&](std::string_view k) -> std::optional<u64> {
        const auto v = detail::json_get(doc.root(), k);
        if (!v) return std::nullopt;
        if (v->is_int64() && std::int64_t(*v) >= 0) return static_cast<u64>(std::int64_t(*v));
        if (v->is_uint64()) return std::uint64_t(*v);
        return std::nullopt;
    };
    f.num_hidden_layers = num("num_hidden_layers");
    f.num_attention_heads = num("num_attention_heads");
    f.qk_nope_head_dim = num("qk_nope_head_dim");
    f.v_head_dim = num("v_head_dim");
    // convert.py: dtype = config.get("torch_dtype"); if None, text_config.get("dtype").
    std::optional<std::string> d;
    const auto td = detail::json_get(doc.root(), "torch_dtype");
    if (td && !td->is_null()) d = str(doc.root(), "torch_dtype").value_or("?");
    else if (const auto tc = detail::json_get(doc.root(), "text_config"); tc && tc->is_object()) d = str(*tc, "dtype");
    if (d == "float16") f.cast_dtype = DType::F16;
    if (d == "bfloat16") f.cast_dtype = DType::BF16;
    if (d == "float32") f.cast_dtype = DType::F32;
    return f;
}

std::string mlx_refuse_model(const std::string& model_type, const Plan& plan) {
    if (model_type.empty()) return {};
    // mlx_lm/models/*.py with a Model class at d78bf58e, and MODEL_REMAPPING's keys.
    static constexpr std::string_view kTypes[] = {
        "Klear", "afm7", "afmoe", "apertus", "baichuan_m1", "bailing_moe", "bailing_moe_linear", "bitnet", "cohere",
        "cohere2", "dbrx", "deepseek", "deepseek_v2", "deepseek_v3", "deepseek_v32", "dots1", "ernie4_5", "ernie4_5_moe",
        "exaone", "exaone4", "exaone_moe", "falcon_h1", "gemma", "gemma2", "gemma3", "gemma3_text", "gemma3n", "gemma4",
        "gemma4_text", "glm", "glm4", "glm4_moe", "glm4_moe_lite", "glm_moe_dsa", "gpt2", "gpt_bigcode", "gpt_neox",
        "gpt_oss", "granite", "granitemoe", "granitemoehybrid", "helium", "hunyuan", "hunyuan_v1_dense", "internlm2",
        "internlm3", "iquestloopcoder", "jamba", "kimi_k25", "kimi_linear", "kimi_vl", "laguna", "lfm2-vl", "lfm2",
        "lfm2_moe", "lille-130m", "llama", "llama4", "llama4_text", "longcat_flash", "longcat_flash_ngram", "mamba",
        "mamba2", "mellum", "mimo", "mimo_v2_flash", "minicpm", "minicpm3", "minimax", "ministral3", "mistral3", "mixtral",
        "nanochat", "nemotron-nas", "nemotron", "nemotron_h", "olmo", "olmo2", "olmo3", "olmoe", "openelm", "phi", "phi3",
        "phi3small", "phimoe", "phixtral", "pixtral", "plamo", "plamo2", "qwen", "qwen2", "qwen2_moe", "qwen2_vl", "qwen3",
        "qwen3_5", "qwen3_5_moe", "qwen3_moe", "qwen3_next", "qwen3_vl", "qwen3_vl_moe", "recurrent_gemma", "rwkv7",
        "seed_oss", "smollm3", "stablelm", "starcoder2", "step3p5", "telechat3", "youtu_llm",
        // MODEL_REMAPPING
        "mistral", "llava", "phi-msft", "falcon_mamba", "joyai_llm_flash", "kimi_k2", "qwen2_5_vl", "minimax_m2",
        "iquestcoder", "gemma4_unified"};
    if (std::find(std::begin(kTypes), std::end(kTypes), model_type) == std::end(kTypes))
        return "mlx-lm (d78bf58e) has no model for model_type \"" + model_type + "\" (mlx_lm.convert: Model type " +
               model_type + " not supported)";
    if (mlx_model_class(model_type) == "gpt_oss") {
        // gpt_oss.py sanitize / utils.py load_model at d78bf58e: the original
        // MXFP4 checkpoint (quantized gate_up_proj / down_proj) is written
        // (forget_st_mlx_gpt_oss.hpp); a BF16 one mlx-lm cannot load.
        for (const auto& lt : plan.tensors)
            if ((lt.name.ends_with(".mlp.experts.gate_up_proj") || lt.name.ends_with(".mlp.experts.down_proj")) && !lt.quantized)
                return "mlx-lm cannot convert a BF16 gpt-oss checkpoint (transformers' experts." + lt.name.substr(lt.name.rfind('.') + 1) +
                       " [E, in, out], no .weight): its gpt_oss sanitize slices it on the hidden axis (v[..., ::2, :]) under names "
                       "its model does not have and load_weights fails (\"Received 6 parameters not in model\"); start from the "
                       "original MXFP4 checkpoint";
    }
    if (stack_rule(mlx_model_class(model_type))) return {};
    for (const auto& lt : plan.tensors) {
        const auto at = lt.name.find(".experts.");
        if (at != std::string::npos && at + 9 < lt.name.size() && lt.name[at + 9] >= '0' && lt.name[at + 9] <= '9')
            return "mlx-lm's " + model_type + " model stacks its experts (" + lt.name +
                   ") in its own way; amn stacks them for mixtral, qwen2_moe, qwen3_moe, olmoe, deepseek_v2 and deepseek_v3 only";
    }
    return {};
}

bool mlx_leaf_parameter(const std::string& model_type, const std::string& name) {
    return !(mlx_model_class(model_type) == "gpt_oss" && name.ends_with(".self_attn.sinks"));
}

Plan mlx_lm_sanitize(const Plan& input, const MlxModelFacts& facts) {
    const std::string cls = mlx_model_class(facts.model_type);
    const Plan plan = cls == "deepseek_v3" ? deepseek_v3_attention(input, facts) : input;
    const StackRule* rule = stack_rule(cls);
    if (!rule) return plan;
    Plan out = plan;
    out.tensors.clear();
    // (stacked name) → expert index → plan tensor index; first position in plan order.
    std::map<std::string, std::map<u64, std::size_t>> groups;
    std::map<std::string, std::size_t> first;
    std::vector<std::string> order;  // output: a plain tensor's index as "#i", or a stacked name
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        std::string index, rest;
        std::string stacked;
        if (split_layer(lt.name, index, rest) && rest.starts_with(rule->experts) && rest.ends_with(".weight")) {
            const std::string tail = rest.substr(rule->experts.size());  // "E.w1.weight"
            const auto d = tail.find('.');
            const std::string e = tail.substr(0, d);
            const std::string proj = d == std::string::npos ? std::string() : tail.substr(d + 1, tail.size() - d - 1 - 7);
            const bool digits = !e.empty() && std::all_of(e.begin(), e.end(), [](char c) { return c >= '0' && c <= '9'; });
            for (const auto& [hf, mlx] : rule->proj)
                if (digits && proj == hf)
                    stacked = "model.layers." + index + "." + std::string(rule->stacked) + std::string(mlx) + ".weight";
            if (!stacked.empty()) {
                auto& g = groups[stacked];
                if (!g.emplace(std::stoull(e), i).second)
                    throw Error(ErrorCode::Malformed, "expert " + e + " occurs twice", "", lt.name);
                if (first.emplace(stacked, i).second) order.push_back(stacked);
                continue;
            }
        }
        order.push_back("#" + std::to_string(i));
    }
    for (const auto& o : order) {
        if (o[0] == '#') {
            out.tensors.push_back(plan.tensors[std::stoull(o.substr(1))]);
            continue;
        }
        const auto& g = groups.at(o);
        const LogicalTensor& t0 = plan.tensors[g.begin()->second];
        LogicalTensor s;
        s.name = o;
        s.shard = t0.shard;
        s.params = t0.params;
        std::vector<std::shared_ptr<const Recipe>> parts;
        u64 want = 0;
        for (const auto& [e, i] : g) {
            const LogicalTensor& t = plan.tensors[i];
            if (e != want++ || t.shape != t0.shape || t.shape.size() != 2)
                throw Error(ErrorCode::Malformed,
                            "mlx-lm stacks experts 0 … " + std::to_string(g.size() - 1) + " of one 2-D shape into " + o +
                                "; this one does not fit (expert " + std::to_string(e) + ")",
                            "", t.name);
            if (!t.error.empty()) {
                s.error = t.error;
                break;
            }
            s.sources.insert(s.sources.end(), t.sources.begin(), t.sources.end());
            s.quantized = s.quantized || t.quantized;
            s.stored_bytes += t.stored_bytes;
            parts.push_back(t.recipe);
        }
        s.shape = {g.size(), t0.shape[0], t0.shape[1]};
        if (s.error.empty()) s.recipe = detail::make_stack_recipe(std::move(parts), "experts stacked (mlx-lm switch_mlp)");
        out.tensors.push_back(std::move(s));
    }
    return out;
}

Plan mlx_lm_unsanitize(const Plan& input, const std::string& model_type) {
    const std::string cls = mlx_model_class(model_type);
    if (cls == "gpt_oss") return gpt_oss_unsanitize(input);
    const Plan plan = cls == "deepseek_v3" ? deepseek_v3_join(input) : input;
    const StackRule* rule = stack_rule(cls);
    if (!rule) return plan;
    Plan out = plan;
    out.tensors.clear();
    for (const auto& lt : plan.tensors) {
        std::string index, rest, hf;
        if (lt.shape.size() == 3 && lt.recipe && split_layer(lt.name, index, rest) && rest.starts_with(rule->stacked) &&
            rest.ends_with(".weight")) {
            const std::string mlx = rest.substr(rule->stacked.size(), rest.size() - rule->stacked.size() - 7);
            for (const auto& [h, m] : rule->proj)
                if (mlx == m) hf = std::string(h);
        }
        if (hf.empty()) {
            out.tensors.push_back(lt);
            continue;
        }
        const u64 E = lt.shape[0], rows = lt.shape[1];
        for (u64 e = 0; e < E; ++e) {
            LogicalTensor t = lt;
            t.name = "model.layers." + index + "." + std::string(rule->experts) + std::to_string(e) + "." + hf + ".weight";
            t.shape = {rows, lt.shape[2]};
            t.stored_bytes = lt.stored_bytes / E;
            const u64 per = lt.recipe->rows() / E;  // recipe rows of one expert
            t.recipe = detail::make_row_range_recipe(lt.recipe, e * per, per);
            out.tensors.push_back(std::move(t));
        }
    }
    return out;
}

std::string mlx_tree_order_key(const std::string& type, const std::string& name) {
    const std::string model_type = mlx_model_class(type);
    const auto dot = name.rfind('.');
    const std::string module = dot == std::string::npos ? std::string() : name.substr(0, dot);
    const std::string param = dot == std::string::npos ? name : name.substr(dot + 1);
    static constexpr std::pair<std::string_view, std::string_view> kParams[] = {
        {"weight", "0"}, {"scales", "1"}, {"biases", "2"}, {"bias", "3"}};
    std::string p = "9" + param;
    for (const auto& [n, r] : kParams)
        if (param == n) p = std::string(r);
    // One decoder layer's modules in attribute-assignment order (llama.py,
    // qwen2.py, qwen3.py: self_attn, mlp, the two norms; qwen3_moe.py: the
    // norms before mlp; mixtral.py: block_sparse_moe (gate, switch_mlp);
    // qwen2_moe.py: mlp (gate, switch_mlp, shared_expert, shared_expert_gate);
    // olmoe.py: self_attn (q, k, v, o, q_norm, k_norm), mlp (gate, switch_mlp), the norms;
    // SwitchGLU: gate_proj, up_proj, down_proj; MLP: gate_proj, down_proj, up_proj).
    const bool norms_first = model_type == "qwen3_moe";
    const std::string_view mlp_rank = norms_first ? "3" : "1", norm_rank = norms_first ? "1" : "2";
    static constexpr std::pair<std::string_view, std::string_view> kBlock[] = {
        {"self_attn.q_proj", "00"},
        {"self_attn.k_proj", "01"},
        {"self_attn.v_proj", "02"},
        {"self_attn.o_proj", "03"},
        {"self_attn.q_norm", "04"},
        {"self_attn.k_norm", "05"},
        {"mlp.gate_proj", "M0"},
        {"mlp.down_proj", "M1"},
        {"mlp.up_proj", "M2"},
        {"mlp.gate", "M3"},
        {"mlp.switch_mlp.gate_proj", "M4"},
        {"mlp.switch_mlp.up_proj", "M5"},
        {"mlp.switch_mlp.down_proj", "M6"},
        {"mlp.shared_expert.gate_proj", "M7"},
        {"mlp.shared_expert.down_proj", "M8"},
        {"mlp.shared_expert.up_proj", "M9"},
        {"mlp.shared_expert_gate", "MA"},
        {"block_sparse_moe.gate", "M3"},
        // gpt_oss.py: AttentionBlock's sinks before q_proj; MLPBlock: experts (SwitchGLU), router.
        {"self_attn", "0/"},
        {"mlp.experts.gate_proj", "M4"},
        {"mlp.experts.up_proj", "M5"},
        {"mlp.experts.down_proj", "M6"},
        {"mlp.router", "MB"},
        {"block_sparse_moe.switch_mlp.gate_proj", "M4"},
        {"block_sparse_moe.switch_mlp.up_proj", "M5"},
        {"block_sparse_moe.switch_mlp.down_proj", "M6"},
        {"input_layernorm", "N0"},
        {"post_attention_layernorm", "N1"}};
    // deepseek_v2.py: self_attn (q_proj, or q_a_proj, q_a_layernorm, q_b_proj;
    // kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj), mlp (DeepseekV2MLP:
    // gate_proj, up_proj, down_proj; DeepseekV2MoE: switch_mlp, gate, shared_experts), the norms.
    // deepseek_v3.py: the same, kv_b_proj's place taken by embed_q, unembed_out (MultiLinear; a folder
    // holds one or the other).
    static constexpr std::pair<std::string_view, std::string_view> kDeepseek[] = {
        {"self_attn.q_proj", "00"},
        {"self_attn.q_a_proj", "01"},
        {"self_attn.q_a_layernorm", "02"},
        {"self_attn.q_b_proj", "03"},
        {"self_attn.kv_a_proj_with_mqa", "04"},
        {"self_attn.kv_a_layernorm", "05"},
        {"self_attn.kv_b_proj", "06"},
        {"self_attn.embed_q", "06"},
        {"self_attn.unembed_out", "07"},
        {"self_attn.o_proj", "08"},
        {"mlp.gate_proj", "M0"},
        {"mlp.up_proj", "M1"},
        {"mlp.down_proj", "M2"},
        {"mlp.switch_mlp.gate_proj", "M3"},
        {"mlp.switch_mlp.up_proj", "M4"},
        {"mlp.switch_mlp.down_proj", "M5"},
        {"mlp.gate", "M6"},
        {"mlp.shared_experts.gate_proj", "M7"},
        {"mlp.shared_experts.up_proj", "M8"},
        {"mlp.shared_experts.down_proj", "M9"},
        {"input_layernorm", "N0"},
        {"post_attention_layernorm", "N1"}};
    using Row = std::pair<std::string_view, std::string_view>;
    const std::span<const Row> table = model_type == "deepseek_v2" || model_type == "deepseek_v3"
                                           ? std::span<const Row>(kDeepseek)
                                           : std::span<const Row>(kBlock);
    std::string m, index, sub;
    if (module == "model.embed_tokens") {
        m = "0";
    } else if (split_layer(module + ".", index, sub)) {
        if (!sub.empty()) sub.pop_back();
        std::string r = "99" + sub;
        for (const auto& [n, k] : table)
            if (sub == n) {
                r = std::string(k);
                if (r[0] == 'M') r = std::string(mlp_rank) + r.substr(1);
                else if (r[0] == 'N') r = std::string(norm_rank) + r.substr(1);
                else r = "0" + r.substr(1);
            }
        m = "1" + std::string(index.size() < 10 ? 10 - index.size() : 0, '0') + index + "." + r;
    } else if (module == "model.norm") {
        m = model_type == "gpt_oss" ? "0N" : "2";  // gpt_oss.py GptOssMoeModel: embed_tokens, norm, layers
    } else if (module == "lm_head") {
        m = "3";
    } else {
        m = "4" + module;
    }
    return m + '\x01' + p;
}

bool mlx_module_quantizable(const std::string& model_type, const std::string& module_path) {
    const std::string cls = mlx_model_class(model_type);
    return !((cls == "deepseek_v2" || cls == "deepseek_v3") && module_path.ends_with(".mlp.gate"));
}

bool mlx_cast_applies(const std::string& model_type, const std::string& name) {
    // deepseek_v3.py cast_predicate: "e_score_correction_bias" not in k.
    return !(mlx_model_class(model_type) == "deepseek_v3" && name.find("e_score_correction_bias") != std::string::npos);
}

std::optional<MlxOverride> mlx_quant_override(const std::string& type, const std::string& module_path) {
    const std::string model_type = mlx_model_class(type);
    // qwen3_moe.py quant_predicate: path.endswith("mlp.gate"); gpt_oss.py: path.endswith("router") — both
    // {"group_size": 64, "bits": 8}.
    if ((model_type == "qwen3_moe" && module_path.ends_with("mlp.gate")) ||
        (model_type == "gpt_oss" && module_path.ends_with("router"))) {
        MlxParams p;
        p.mode = MlxMode::Affine;
        p.bits = 8;
        p.group_size = 64;
        return MlxOverride{p, R"({"group_size":64,"bits":8})"};
    }
    return std::nullopt;
}

}  // namespace amn::forget_st_internal
