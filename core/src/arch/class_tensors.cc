// SPDX-License-Identifier: MIT OR Apache-2.0
// The converter classes' own filter_tensors / modify_tensors (granite.py,
// deepseek.py, gpt_oss.py, bert.py, ernie.py, lfm2.py, qwen3vl.py, llama.py, mamba.py
// Llama4Model, falcon.py, hunyuan.py, glm.py), each named by the rows of
// arch_table.cc through class_tensors.hpp.
#include "arch/class_tensors.hpp"

#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"

namespace amn::arch::classes {
namespace {

using detail::integer;
using detail::required;

void replace_all(std::string& name, std::string_view from, std::string_view to) {
    for (std::size_t p = 0; (p = name.find(from, p)) != std::string::npos; p += to.size()) name.replace(p, from.size(), to);
}

std::string replace_first(std::string s, std::string_view from, std::string_view to) {
    if (auto p = s.find(from); p != std::string::npos) s.replace(p, from.size(), to);
    return s;
}

/// hparams.get(k) as a positive int, 0 when absent, null or not positive.
std::uint64_t opt_u(const HfConfig& cfg, std::string_view k) {
    auto v = cfg.get(k);
    if (!v || v->is_null()) return 0;
    const auto n = integer(*v, k, cfg.file());
    return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

/// Llama4Model.modify_tensors / Qwen3VLMoeTextModel.modify_tensors: fused experts [E, in, out] transposed.
Tensors fused_experts_transposed(const ClassTensorCtx& c, bool qwen3vlmoe, std::string& name, std::string_view hf_name,
                                 std::vector<std::uint64_t>& shape) {
    // Qwen3-VL-MoE: names ending "mlp.experts.gate_up_proj" (or ".weight"); Llama 4: any containing "gate_up_proj".
    if (qwen3vlmoe ? name.ends_with("mlp.experts.gate_up_proj") || name.ends_with("mlp.experts.gate_up_proj.weight")
                   : name.find("gate_up_proj") != std::string::npos) {  // [E, H, 2F] → [E, 2F, H] → gate rows [0, F), up [F, 2F)
        if (shape.size() != 3 || shape[2] % 2)
            throw Error(ErrorCode::Malformed, "gate_up_proj is not [experts, hidden, 2 × intermediate]", c.file, name);
        const std::uint64_t ff = shape[2] / 2;
        const std::vector<std::uint64_t> half{shape[0], ff, shape[1]};
        const std::string base = qwen3vlmoe ? name.substr(0, name.rfind("gate_up_proj")) : std::string();
        auto out = c.one(qwen3vlmoe ? base + "gate_proj.weight" : replace_first(name, "gate_up_proj", "gate_proj.weight"), hf_name,
                         half, {TensorTransform::Kind::ExpertTransposeRows, 0, 0, ff});
        auto up = c.one(qwen3vlmoe ? base + "up_proj.weight" : replace_first(name, "gate_up_proj", "up_proj.weight"), hf_name, half,
                        {TensorTransform::Kind::ExpertTransposeRows, 0, ff, 2 * ff});
        out.push_back(std::move(up.front()));
        return out;
    }
    const bool down = qwen3vlmoe ? name.ends_with("mlp.experts.down_proj") || name.ends_with("mlp.experts.down_proj.weight")
                                 : name.ends_with("down_proj");
    if (down) {  // [E, F, H] → [E, H, F]
        if (shape.size() != 3)
            throw Error(ErrorCode::Malformed, "experts.down_proj is not [experts, intermediate, hidden]", c.file, name);
        return c.one(name.ends_with(".weight") ? name : name + ".weight", hf_name, {shape[0], shape[2], shape[1]},
                     {TensorTransform::Kind::ExpertTransposeRows, 0, 0, shape[2]});
    }
    return std::nullopt;
}

/// re.match(PREFIX + r"\d+" + REST, name): `name` starts with prefix, digits, then rest.
bool match_layer(std::string_view name, std::string_view prefix, std::string_view rest) {
    if (!name.starts_with(prefix)) return false;
    std::size_t i = prefix.size();
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    return i > prefix.size() && name.substr(i).starts_with(rest);
}

/// hparams.get(a, hparams.get(b)), asserted not None.
std::uint64_t get_or(const HfConfig& cfg, std::string_view a, std::string_view b) {
    const bool has_a = cfg.get(a).has_value();
    const auto v = has_a ? cfg.get(a) : cfg.get(b);
    if (!v || v->is_null()) detail::missing(std::string(a) + " / " + std::string(b), cfg.file());
    const auto n = integer(*v, has_a ? a : b, cfg.file());
    return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

/// GPTNeoXModel / BloomModel.modify_tensors: query_key_value viewed as [n_head, 3, head_dim(, n_embed)], written
/// all q, all k, all v (RegroupQkv with a group per head).
void qkv_per_head(const ClassTensorCtx& c, const std::string& name, const std::vector<std::uint64_t>& shape, bool bias,
                  TensorTransform& tr) {
    const std::uint64_t nh = c.hp.n_head, e = c.hp.embd;
    const bool ok = nh && e && (bias ? shape == std::vector<std::uint64_t>{3 * e} : shape == std::vector<std::uint64_t>{3 * e, e});
    if (!ok || c.hp.embd % nh)
        throw Error(ErrorCode::Malformed,
                    "query_key_value is not " + std::string(bias ? "[3 × hidden_size]" : "[3 × hidden_size, hidden_size]") +
                        " in heads of hidden_size / n_head (the converter's reshape fails)",
                    c.file, name);
    tr = {TensorTransform::Kind::RegroupQkv, nh, 0, 0, nh, c.hp.head_dim};
}

}  // namespace

// ---- filter_tensors ------------------------------------------------------------------------

bool drop_lm_head(std::string& name) { return name != "lm_head.weight"; }

bool strip_text_model(std::string& name) {
    replace_all(name, "text_model.", "");
    return true;
}

bool granite_filter(std::string& name) {
    if (name.starts_with("encoder.") || name.find("image_") != std::string::npos ||
        name.find("layerwise_projectors") != std::string::npos || name.find("spatial_projectors") != std::string::npos)
        return false;
    return strip_text_model(name);
}

bool deepseek2_filter(std::string& name) {
    return name.find("sam_model") == std::string::npos && name.find("qwen2_model") == std::string::npos;
}

bool gpt_oss_filter(std::string& name) {
    if (name.find("sinks") != std::string::npos) name += ".weight";
    return true;
}

bool bert_filter(std::string& name) {
    if (name.starts_with("bert.")) name.erase(0, 5);
    if (name.ends_with(".gamma")) name.replace(name.size() - 6, 6, ".weight");
    if (name.ends_with(".beta")) name.replace(name.size() - 5, 5, ".bias");
    return !(name == "embeddings.position_ids" || name == "pooler.dense.weight" || name == "pooler.dense.bias" ||
             name.starts_with("cls.predictions") || name.starts_with("cls.seq_relationship"));
}

bool nomic_bert_filter(std::string& name) { return name.find("mlp.experts.bias") == std::string::npos && bert_filter(name); }

bool roberta_filter(std::string& name) {
    if (name.starts_with("roberta.")) name.erase(0, 8);
    return bert_filter(name);
}

bool xlmroberta_filter(std::string& name) {
    if (name.starts_with("roberta.")) name.erase(0, 8);
    if (const auto at = name.find(".parametrizations."); at != std::string::npos) {  // jina-embeddings-v3
        name.replace(at, 18, ".");  // the first one (str.replace replaces all; a name holds at most one)
        if (name.ends_with(".original")) name.erase(name.size() - 9);
    }
    return bert_filter(name);
}

bool modern_bert_filter(std::string& name) {
    if (name.starts_with("model.")) name.erase(0, 6);
    return bert_filter(name);
}

bool ernie_filter(std::string& name) {
    replace_all(name, "ernie.", "model.");
    return true;
}

bool ernie_moe_filter(std::string& name) {
    // re.match(r"model.mtp_block.(\d+)", name) and its three siblings, before the rename: '.' is any character.
    for (std::string_view p : {"model.mtp_block.", "model.mtp_emb_norm.", "model.mtp_hidden_norm.", "model.mtp_linear_proj."}) {
        if (name.size() <= p.size()) continue;
        bool match = name[p.size()] >= '0' && name[p.size()] <= '9';
        for (std::size_t i = 0; match && i < p.size(); ++i) match = p[i] == '.' || name[i] == p[i];
        if (match) return false;
    }
    return ernie_filter(name);
}

bool lfm2_filter(std::string& name) {  // ConformerAudioModel.is_audio_tensor, then lfm. → model.
    for (std::string_view p : {"audio", "codebook", "conformer", "depth_embedding", "depthformer", "depth_linear"})
        if (name.find(p) != std::string::npos) return false;
    replace_all(name, "lfm.", "model.");
    return true;
}

bool mamba2_filter(std::string& name) {
    if (name.starts_with("model.backbone") || name.starts_with("model.lm_head")) name.erase(0, 6);  // Mamba-Codestral
    if (name.ends_with(".dt_bias")) name.replace(name.size() - 8, 8, ".dt_proj.bias");
    return true;
}

bool bloom_filter(std::string& name) {  // BloomModel.modify_tensors' re.sub(r'transformer\.', '', name), the same bytes
    replace_all(name, "transformer.", "");
    return true;
}

bool qwen2vl_filter(std::string& name) {
    if (name.starts_with("thinker.")) replace_all(name, "thinker.", "");
    return true;
}

bool qwen3vl_filter(std::string& name) {
    replace_all(name, "thinker.", "");
    return true;
}

// ---- config values -------------------------------------------------------------------------

void glm4moe_read(ClassHparams& hp, const HfConfig& cfg) {  // Glm4MoeModel: + the NextN layers (a block each)
    if (auto n = cfg.get("num_nextn_predict_layers"); n && !n->is_null())
        hp.block_count += static_cast<std::uint64_t>(std::max<std::int64_t>(0, integer(*n, "num_nextn_predict_layers", cfg.file())));
}

void granitemoe_read(ClassHparams& hp, const HfConfig& cfg) {
    hp.moe_ff = opt_u(cfg, "intermediate_size");
    hp.shared_ff = opt_u(cfg, "shared_intermediate_size");
    hp.has_experts = opt_u(cfg, "num_local_experts") != 0;
}

void falcon_read(ClassHparams& hp, const HfConfig& cfg) {  // FalconModel.modify_tensors (query_key_value)
    const std::string& f = cfg.file();
    hp.n_head = static_cast<std::uint64_t>(integer(required(cfg, {"num_attention_heads", "n_head"}), "num_attention_heads", f));
    hp.n_kv_head = 1;  // find_hparam([num_kv_heads, n_head_kv], optional=True) or 1
    if (auto v = detail::optional_hp(cfg, {"num_kv_heads", "n_head_kv"}))
        if (const auto n = integer(*v, "num_kv_heads", f); n != 0) hp.n_kv_head = static_cast<std::uint64_t>(n);
    if (hp.n_head) hp.head_dim = static_cast<std::uint64_t>(integer(required(cfg, {"hidden_size"}), "hidden_size", f)) / hp.n_head;
}

void ernie_read(ClassHparams& hp, const HfConfig& cfg) {  // Ernie4_5Model.modify_tensors reads these for every tensor
    const std::string& f = cfg.file();
    hp.n_head = static_cast<std::uint64_t>(integer(required(cfg, {"num_attention_heads"}), "num_attention_heads", f));
    hp.n_kv_head = static_cast<std::uint64_t>(integer(required(cfg, {"num_key_value_heads"}), "num_key_value_heads", f));
    if (auto hd = cfg.get("head_dim"); hd && !hd->is_null()) hp.head_dim = static_cast<std::uint64_t>(integer(*hd, "head_dim", f));
    else if (hp.n_head)
        hp.head_dim = static_cast<std::uint64_t>(integer(required(cfg, {"hidden_size"}), "hidden_size", f)) / hp.n_head;
}

void qkv_per_head_read(ClassHparams& hp, const HfConfig& cfg) {  // GPTNeoXModel / BloomModel.modify_tensors, every tensor
    hp.n_head = get_or(cfg, "n_head", "num_attention_heads");
    hp.embd = get_or(cfg, "hidden_size", "n_embed");
    hp.head_dim = hp.n_head ? hp.embd / hp.n_head : 0;
}

void internlm2_read(ClassHparams& hp, const HfConfig& cfg) {  // InternLM2Model.modify_tensors, every tensor
    const std::string& f = cfg.file();
    hp.n_head = static_cast<std::uint64_t>(std::max<std::int64_t>(0, integer(required(cfg, {"num_attention_heads"}), "num_attention_heads", f)));
    hp.n_kv_head = static_cast<std::uint64_t>(std::max<std::int64_t>(0, integer(required(cfg, {"num_key_value_heads"}), "num_key_value_heads", f)));
    hp.embd = static_cast<std::uint64_t>(std::max<std::int64_t>(0, integer(required(cfg, {"hidden_size"}), "hidden_size", f)));
    hp.head_dim = hp.n_head ? hp.embd / hp.n_head : 0;
}

void mamba2_read(ClassHparams& hp, const HfConfig& cfg) {
    const auto d = detail::mamba2_dims(cfg);
    hp.ssm_inner = static_cast<std::uint64_t>(d.inner);
    hp.ssm_groups = static_cast<std::uint64_t>(d.groups);
}

void xlmroberta_read(ClassHparams& hp, const HfConfig& cfg) {
    if (const auto o = detail::xlmroberta_position_offset(cfg)) hp.position_offset = static_cast<std::uint64_t>(*o);
}

void bert_read(ClassHparams& hp, const HfConfig& cfg) { hp.cls_out_labels = !detail::bert_output_labels(cfg).empty(); }

void tied_read(ClassHparams& hp, const HfConfig& cfg) {
    auto t = cfg.get("tie_word_embeddings");
    hp.tied = t && ((t->is_bool() && bool(*t)) || (t->is_number() && double(*t) != 0));
}

void deepseek2_read(ClassHparams& hp, const HfConfig& cfg) {
    tied_read(hp, cfg);
    hp.mla_kv_heads = opt_u(cfg, "num_key_value_heads");
    hp.mla_v = opt_u(cfg, "v_head_dim");
    hp.mla_nope = opt_u(cfg, "qk_nope_head_dim");
}

// ---- modify_tensors ------------------------------------------------------------------------

Tensors granitemoe_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                          TensorTransform& tr, std::optional<std::uint64_t> bid) {
    if (!bid) return std::nullopt;  // GraniteMoeModel.modify_tensors: JetMoE's fused w1|w3
    const std::string b = std::to_string(*bid);
    auto halves = [&](std::uint64_t ff, const char* what, std::string_view gate, std::string_view up) {
        if (shape.size() < 2 || shape[shape.size() - 2] != 2 * ff)
            throw Error(ErrorCode::Malformed, std::string("merged FFN tensor rows must be 2 × ") + what, c.file, name);
        auto half = shape;
        half[half.size() - 2] = ff;
        auto out = c.one("blk." + b + "." + std::string(gate) + ".weight", hf_name, half, {TensorTransform::Kind::SliceDim1, 0, 0, ff});
        auto u = c.one("blk." + b + "." + std::string(up) + ".weight", hf_name, half, {TensorTransform::Kind::SliceDim1, 0, ff, 2 * ff});
        out.push_back(std::move(u.front()));
        return out;
    };
    if (name.ends_with("block_sparse_moe.input_linear.weight"))
        return halves(c.hp.moe_ff, "intermediate_size", "ffn_gate_exps", "ffn_up_exps");
    if (name.ends_with("shared_mlp.input_linear.weight"))
        return c.hp.has_experts ? halves(c.hp.shared_ff, "shared_intermediate_size", "ffn_gate_shexp", "ffn_up_shexp")
                                : halves(c.hp.shared_ff, "shared_intermediate_size", "ffn_gate", "ffn_up");
    if (!c.hp.has_experts && name.ends_with("shared_mlp.output_linear.weight"))
        return c.one("blk." + b + ".ffn_down.weight", hf_name, std::move(shape), tr);
    return std::nullopt;
}

Tensors lfm2_modify(const ClassTensorCtx&, std::string& name, std::string_view, std::vector<std::uint64_t>& shape,
                    TensorTransform&, std::optional<std::uint64_t>) {
    if (name.find("conv.conv") != std::string::npos && shape.size() > 1 && shape[1] == 1)
        shape.erase(shape.begin() + 1);  // LFM2Model.modify_tensors: squeeze(1), the bytes unchanged
    return std::nullopt;
}

Tensors mamba_modify(const ClassTensorCtx&, std::string& name, std::string_view, std::vector<std::uint64_t>& shape,
                     TensorTransform& tr, std::optional<std::uint64_t>) {
    if (name.ends_with(".A_log")) tr = {TensorTransform::Kind::NegExp, 0, 0, 0};  // A = -torch.exp(A_log)
    if (name.ends_with(".conv1d.weight"))  // MambaModel.modify_tensors: squeeze() (every size-1 dim), the bytes unchanged
        std::erase(shape, std::uint64_t{1});
    return std::nullopt;
}

// Mamba2Model.modify_tensors: conv1d squeezed; A and D unsqueezed to [H, 1]; the norm viewed as
// [n_groups, d_inner / n_groups]; then A = -exp(A_log) (shapes only, but the last).
Tensors mamba2_modify(const ClassTensorCtx& c, std::string& name, std::string_view, std::vector<std::uint64_t>& shape,
                      TensorTransform& tr, std::optional<std::uint64_t>) {
    if (name.ends_with(".conv1d.weight")) std::erase(shape, std::uint64_t{1});
    else if (name.ends_with(".A_log") || name.ends_with(".D")) shape.push_back(1);
    else if (name.ends_with(".mixer.norm.weight")) {
        if (c.hp.ssm_groups == 0 || c.hp.ssm_inner % c.hp.ssm_groups != 0)
            throw Error(ErrorCode::Malformed, "the inner size does not split into n_groups", c.file, name);
        shape = {c.hp.ssm_groups, c.hp.ssm_inner / c.hp.ssm_groups};
    }
    if (name.ends_with(".A_log")) tr = {TensorTransform::Kind::NegExp, 0, 0, 0};
    return std::nullopt;
}

Tensors llama4_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                      TensorTransform&, std::optional<std::uint64_t>) {
    return fused_experts_transposed(c, false, name, hf_name, shape);
}

Tensors qwen3vlmoe_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                          TensorTransform&, std::optional<std::uint64_t>) {
    return fused_experts_transposed(c, true, name, hf_name, shape);
}

Tensors falcon_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                      TensorTransform&, std::optional<std::uint64_t>) {
    if (name.find("query_key_value") == std::string::npos) return std::nullopt;
    const std::uint64_t hd = c.hp.head_dim, nh = c.hp.n_head, nkv = c.hp.n_kv_head;
    if (nkv == 0 || nh % nkv != 0 || shape.size() != 2 || shape[0] != (nh + 2 * nkv) * hd || shape[1] != nh * hd)
        throw Error(ErrorCode::Malformed,
                    "query_key_value is not [(n_head + 2 × n_kv_heads) × head_dim, hidden_size] = [" +
                        std::to_string((nh + 2 * nkv) * hd) + ", " + std::to_string(nh * hd) +
                        "] with n_kv_heads dividing n_head (the converter's view fails)",
                    c.file, name);
    return c.one(std::move(name), hf_name, std::move(shape), {TensorTransform::Kind::RegroupQkv, nh, 0, 0, nkv, hd});
}

Tensors ernie_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                     TensorTransform&, std::optional<std::uint64_t>) {  // Ernie4_5Model.modify_tensors: fused projections split by rows
    auto split = [&](std::string_view fused, std::initializer_list<std::pair<std::string_view, std::uint64_t>> parts) {
        std::uint64_t total = 0;
        for (auto& p : parts) total += p.second;
        if (shape.size() != 2 || shape[0] != total)
            throw Error(ErrorCode::Malformed, std::string(fused) + " rows are not " + std::to_string(total), c.file, name);
        const std::string base = name.substr(0, name.size() - fused.size() - 7);  // "….self_attn." / "….mlp."
        std::vector<MappedTensor> out;
        std::uint64_t at = 0;
        for (auto& [part, rows] : parts) {
            auto t = c.one(base + std::string(part) + ".weight", hf_name, {rows, shape[1]},
                           {TensorTransform::Kind::SliceDim1, 0, at, at + rows});
            out.push_back(std::move(t.front()));
            at += rows;
        }
        return out;
    };
    const std::uint64_t hd = c.hp.head_dim;
    if (name.find("qkv_proj") != std::string::npos && name.ends_with("qkv_proj.weight"))
        return split("qkv_proj", {{"q_proj", c.hp.n_head * hd}, {"k_proj", c.hp.n_kv_head * hd}, {"v_proj", c.hp.n_kv_head * hd}});
    if (name.find("up_gate_proj") != std::string::npos && name.ends_with("up_gate_proj.weight")) {
        if (shape.empty() || shape[0] % 2) throw Error(ErrorCode::Malformed, "up_gate_proj rows do not halve", c.file, name);
        return split("up_gate_proj", {{"gate_proj", shape[0] / 2}, {"up_proj", shape[0] / 2}});  // gate first
    }
    return std::nullopt;
}

Tensors tied_lm_head_modify(const ClassTensorCtx& c, std::string& name, std::string_view, std::vector<std::uint64_t>&,
                            TensorTransform&, std::optional<std::uint64_t>) {
    if (c.hp.tied && name == "lm_head.weight") return std::vector<MappedTensor>{};  // HunYuanModel.modify_tensors
    return std::nullopt;
}

Tensors deepseek2_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                         TensorTransform&, std::optional<std::uint64_t>) {  // DeepseekV2Model.modify_tensors
    if (c.hp.tied && (name == "lm_head.weight" || name == "model.lm_head.weight")) return std::vector<MappedTensor>{};
    if (name.starts_with("model.layers.")) {  // Multi-Token Prediction layers past num_hidden_layers
        std::uint64_t b = 0;
        std::size_t i = 13, n0 = 13;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9' && b < (std::uint64_t{1} << 40)) b = b * 10 + (name[i++] - '0');
        if (i > n0 && b >= c.hp.block_count) return std::vector<MappedTensor>{};
    }
    if (!name.ends_with("kv_b_proj.weight")) return std::nullopt;
    const std::uint64_t nh = c.hp.mla_kv_heads, v = c.hp.mla_v, nope = c.hp.mla_nope;
    if (!nh || !v || !nope)
        throw Error(ErrorCode::Malformed, "config.json needs num_key_value_heads, v_head_dim and qk_nope_head_dim to split kv_b_proj",
                    c.file, name);
    if (shape.size() != 2 || shape[0] != nh * (v + nope))
        throw Error(ErrorCode::Malformed,
                    "kv_b_proj rows are not num_key_value_heads × (v_head_dim + qk_nope_head_dim) = " + std::to_string(nh * (v + nope)),
                    c.file, name);
    const std::string base = name.substr(0, name.size() - std::string_view("kv_b_proj.weight").size());
    auto out = c.one(base + "k_b_proj.weight", hf_name, {nh, shape[1], nope}, {TensorTransform::Kind::HeadRowsTransposed, nh, 0, nope});
    auto vb = c.one(base + "v_b_proj.weight", hf_name, {nh, v, shape[1]}, {TensorTransform::Kind::HeadRows, nh, nope, nope + v});
    out.push_back(std::move(vb.front()));
    return out;
}

Tensors gpt_oss_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                       TensorTransform& tr, std::optional<std::uint64_t>) {  // GptOssModel.modify_tensors
    const bool packed = name.find("_blocks") != std::string::npos || name.find("_scales") != std::string::npos;
    if (name.find("down_proj") != std::string::npos) {
        if (name.ends_with("_bias")) name = replace_first(name, "down_proj_bias", "down_proj.bias");
        else if (packed) return std::vector<MappedTensor>{};  // repacked to GGUF MXFP4 before the other tensors (hf_to_gguf.cc)
        else {
            if (shape.size() < 2) throw Error(ErrorCode::Malformed, "expected an [experts, in, out] tensor", c.file, name);
            name = replace_first(name, "down_proj", "down_proj.weight");
            std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
            tr = {TensorTransform::Kind::ExpertTransposeStrided, 1, 0, 0};
        }
    }
    if (name.find("gate_up_proj") != std::string::npos) {
        if (packed) return std::vector<MappedTensor>{};
        const bool bias = name.ends_with("_bias");
        if (shape.size() < (bias ? 1u : 2u) || shape.back() % 2)
            throw Error(ErrorCode::Malformed, "gate_up_proj does not split into gate and up halves", c.file, name);
        std::vector<std::uint64_t> half = shape;
        const auto kind = bias ? TensorTransform::Kind::StridedCols : TensorTransform::Kind::ExpertTransposeStrided;
        if (bias) half.back() /= 2;
        else {
            half[half.size() - 1] = shape[shape.size() - 2];
            half[half.size() - 2] = shape.back() / 2;
        }
        const std::string gate = bias ? replace_first(name, "gate_up_proj_bias", "gate_proj.bias") : replace_first(name, "gate_up_proj", "gate_proj.weight");
        const std::string up = bias ? replace_first(name, "gate_up_proj_bias", "up_proj.bias") : replace_first(name, "gate_up_proj", "up_proj.weight");
        auto out = c.one(gate, hf_name, half, {kind, 2, 0, 0});
        auto u = c.one(up, hf_name, half, {kind, 2, 1, 0});
        out.push_back(std::move(u.front()));
        return out;
    }
    return c.one(std::move(name), hf_name, std::move(shape), tr);
}

Tensors gptneox_modify(const ClassTensorCtx& c, std::string& name, std::string_view, std::vector<std::uint64_t>& shape,
                       TensorTransform& tr, std::optional<std::uint64_t>) {
    if (match_layer(name, "gpt_neox.layers.", ".attention.query_key_value.weight")) qkv_per_head(c, name, shape, false, tr);
    else if (match_layer(name, "gpt_neox.layers.", ".attention.query_key_value.bias")) qkv_per_head(c, name, shape, true, tr);
    return std::nullopt;
}

Tensors qk_weights_permuted_modify(const ClassTensorCtx&, std::string& name, std::string_view, std::vector<std::uint64_t>&, TensorTransform& tr,
                    std::optional<std::uint64_t>) {
    if (name.ends_with("q_proj.bias") || name.ends_with("k_proj.bias")) tr = {};  // OlmoModel / MiniCPMModel permute the weights only
    return std::nullopt;
}

Tensors bloom_modify(const ClassTensorCtx& c, std::string& name, std::string_view, std::vector<std::uint64_t>& shape,
                     TensorTransform& tr, std::optional<std::uint64_t>) {
    if (match_layer(name, "h.", ".self_attention.query_key_value.weight")) qkv_per_head(c, name, shape, false, tr);
    else if (match_layer(name, "h.", ".self_attention.query_key_value.bias")) qkv_per_head(c, name, shape, true, tr);
    return std::nullopt;
}

// XLMRobertaModel.modify_tensors: position embeddings start at pad_token_id + 1, `data_torch[offset:, :]`.
Tensors bert_modify(const ClassTensorCtx& c, std::string& name, std::string_view, std::vector<std::uint64_t>&, TensorTransform&,
                    std::optional<std::uint64_t>) {
    // BertForSequenceClassification's direct projection, as the reranker head llama.cpp reads (with labels kept).
    if (c.hp.cls_out_labels && (name == "classifier.weight" || name == "classifier.bias"))
        name.replace(0, 10, "classifier.out_proj");
    return std::nullopt;
}

Tensors xlmroberta_modify(const ClassTensorCtx& c, std::string& name, std::string_view, std::vector<std::uint64_t>& shape,
                          TensorTransform& tr, std::optional<std::uint64_t>) {
    if (name != "embeddings.position_embeddings.weight" || !c.hp.position_offset) return std::nullopt;
    const std::uint64_t off = *c.hp.position_offset;
    if (shape.size() != 2 || off >= shape[0])
        throw Error(ErrorCode::Malformed,
                    "the position embedding must be 2-D with more rows than pad_token_id + 1 (" + std::to_string(off) +
                        ", the rows the converter drops)",
                    c.file, name);
    tr = {TensorTransform::Kind::SliceDim1, 0, off, shape[0]};
    shape[0] -= off;
    return std::nullopt;
}

Tensors internlm2_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                         TensorTransform&, std::optional<std::uint64_t> bid) {
    if (!bid || name.find("model.layers." + std::to_string(*bid) + ".attention.wqkv") == std::string::npos) return std::nullopt;
    const std::uint64_t nh = c.hp.n_head, nkv = c.hp.n_kv_head, hd = c.hp.head_dim, e = c.hp.embd;
    if (!nh || !nkv || nh % nkv || hd % 2 || shape != std::vector<std::uint64_t>{(nh + 2 * nkv) * hd, e})
        throw Error(ErrorCode::Malformed,
                    "wqkv is not [(num_attention_heads + 2 × num_key_value_heads) × head_dim, hidden_size] with "
                    "num_key_value_heads dividing num_attention_heads and an even head_dim (the converter's reshape fails)",
                    c.file, name);
    const std::string b = "blk." + std::to_string(*bid) + ".";
    std::vector<MappedTensor> out;
    std::uint64_t at = 0;
    for (auto [part, rows] : {std::pair{"attn_q", nh * hd}, std::pair{"attn_k", nkv * hd}, std::pair{"attn_v", nkv * hd}}) {
        auto t = c.one(b + part + ".weight", hf_name, {rows, e}, {TensorTransform::Kind::GroupedQkvPart, nh, at, at + rows, nkv, hd});
        out.push_back(std::move(t.front()));
        at += rows;
    }
    return out;
}

}  // namespace amn::arch::classes
