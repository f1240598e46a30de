// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of conversion/hunyuan.py HunYuanModel (HunYuanDenseV1ForCausalLM → hunyuan-dense):
// TextModel's list without num_experts, then HunYuan's NTK-alpha RoPE (arch_text_params.hpp).
#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"

#include <cmath>
#include <string>

namespace amn::arch::detail {

using simdjson::dom::element;

void hunyuan_dense_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    // hparams.pop("num_experts") before TextModel's list: its find(num_local_experts, num_experts,
    // n_routed_experts) then reaches only the other two keys.
    text_model_params(cfg, kv);
    const std::string expert_count = "hunyuan-dense.expert_count";
    if (!cfg.get("num_local_experts") && cfg.get("num_experts")) {
        auto& v = res.before_file_type;
        for (auto it = v.begin(); it != v.end(); ++it)
            if (it->key == expert_count) {
                if (auto r = cfg.get("n_routed_experts"); r && !r->is_null()) it->value = u32(*r, "n_routed_experts", f);
                else v.erase(it);
                break;
            }
    }
    kv.to(res.after_file_type);

    const RopeParams rp(cfg);
    const std::string type = rp.rope_type();
    if (type != "dynamic" && type != "xdrope") return;
    // NTK-aware alpha scaling: base · alpha ** (dim / (dim − 2)) in Python floats (double), written as F32.
    auto number_or = [&](std::string_view key, double dflt) {
        const auto v = rp.outer(key);  // rope_parameters.get(key, default): null is not the default
        if (!v) {
            if (rp.has(key)) throw Error(ErrorCode::BadJson, "config.json key 'rope_scaling." + std::string(key) + "' is null", f);
            return dflt;
        }
        return num(*v, "rope_scaling." + std::string(key), f).d;
    };
    const double alpha = number_or("alpha", 50);
    const double base = number_or("rope_theta", 10000.0);
    const std::int64_t dim = integer(exact(cfg, "head_dim"), "head_dim", f);
    if (dim == 2) throw Error(ErrorCode::Malformed, "config.json key 'head_dim' is 2 (HunYuan's alpha exponent divides by head_dim − 2)", f);
    const double scaled = base * std::pow(alpha, static_cast<double>(dim) / static_cast<double>(dim - 2));
    kv.put("rope.freq_base", f32(scaled, "rope_theta · alpha^(head_dim / (head_dim − 2))", f));
    kv.put("rope.scaling.type", MetaValue::string("none"));
    kv.put("rope.scaling.factor", f32(1.0, "rope_scaling.factor", f));
    if (type != "dynamic") return;
    kv.put("rope.scaling.original_context_length", MetaValue::u32(256 * 1024));
    kv.put("context_length", MetaValue::u32(256 * 1024));
    // The converter's assertion: "HunYuan dynamic RoPE scaling assumptions changed".
    const std::int64_t ctx = integer(exact(cfg, "max_position_embeddings"), "max_position_embeddings", f);
    if (base != 10000.0 || (ctx != 32 * 1024 && ctx != 256 * 1024))
        throw Error(ErrorCode::Malformed,
                    "HunYuan's dynamic RoPE needs rope_theta 10000 and max_position_embeddings 32768 or 262144 (the "
                    "converter asserts it: \"HunYuan dynamic RoPE scaling assumptions changed\")",
                    f);
}

}  // namespace amn::arch::detail
