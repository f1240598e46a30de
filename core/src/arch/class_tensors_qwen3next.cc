// SPDX-License-Identifier: MIT OR Apache-2.0
// qwen.py Qwen3NextModel with _QwenMtpMixin: the MTP tensors renamed past
// num_hidden_layers (filter_tensors), the layer count they add (the mixin's
// __init__), and modify_tensors (A = -exp(A_log), dt_bias, conv1d squeezed,
// norms + 1 but the delta-net's gated norm, in_proj_qkvz regrouped into
// attn_qkv / attn_gate). Named by the qwen3next row through class_tensors.hpp.
#include "arch/class_tensors.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"

#include <algorithm>
#include <charconv>

namespace amn::arch {
namespace {

bool is_decimal(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Python's name.split(".", 3).
std::vector<std::string_view> split3(std::string_view name) {
    std::vector<std::string_view> parts;
    std::size_t at = 0;
    while (parts.size() < 3) {
        const std::size_t dot = name.find('.', at);
        if (dot == std::string_view::npos) break;
        parts.push_back(name.substr(at, dot - at));
        at = dot + 1;
    }
    parts.push_back(name.substr(at));
    return parts;
}

/// `name` after TextModel's filter and the mixin's "model.mtp." → "mtp.": its MTP layer index when it is
/// `mtp.layers.N.…`, else nullopt.
std::optional<std::uint64_t> mtp_layer(std::string name) {
    for (std::size_t p = 0; (p = name.find("language_model.", p)) != std::string::npos;) name.erase(p, 15);
    if (name.starts_with("model.mtp.")) name.erase(0, 6);
    if (!name.starts_with("mtp.")) return std::nullopt;
    const auto parts = split3(name);
    if (parts.size() != 4 || parts[1] != "layers" || !is_decimal(parts[2])) return std::nullopt;
    std::uint64_t i = 0;
    const auto [p, ec] = std::from_chars(parts[2].data(), parts[2].data() + parts[2].size(), i);
    if (ec != std::errc() || i >= (1u << 20)) return std::nullopt;
    return i;
}

std::uint64_t main_layers(const HfConfig& cfg) {
    const auto b = detail::integer(detail::required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}),
                                   "num_hidden_layers", cfg.file());
    return b > 0 ? static_cast<std::uint64_t>(b) : 0;
}

}  // namespace

namespace detail {

std::uint64_t qwen_mtp_layers(const HfConfig& cfg, const std::string& model_dir) {
    if (cfg.no_mtp()) return 0;  // --no-mtp: `if not self.no_mtp` skips the count (and its assert)
    const std::string& f = cfg.file();
    std::int64_t n = 0;
    if (auto v = cfg.get("mtp_num_hidden_layers")) {
        if (v->is_null()) missing("mtp_num_hidden_layers", f);  // None + int: the converter's TypeError
        n = integer(*v, "mtp_num_hidden_layers", f);
        if (n < 0) throw Error(ErrorCode::Malformed, "config.json key 'mtp_num_hidden_layers' is negative", f);
    }
    if (n != 0 || model_dir.empty()) return static_cast<std::uint64_t>(n);
    std::uint64_t count = 0;  // opt_num_mtp_layers: the largest mtp.layers index + 1
    for (const auto& t : open_model(model_dir).tensors)
        if (const auto i = mtp_layer(t.name)) count = std::max(count, *i + 1);
    if (count == 0)
        throw Error(ErrorCode::Malformed,
                    "no mtp_num_hidden_layers and no mtp.layers.N tensors: the converter's MTP layer count fails "
                    "(assert opt_num_mtp_layers != 0; it converts such a folder only with --no-mtp)",
                    f);
    return count;
}

}  // namespace detail

namespace classes {

bool qwen_mtp_filter(std::string& name, const HfConfig* cfg) {
    if (name.starts_with("model.mtp.")) name.erase(0, 6);
    if (!name.starts_with("mtp.")) return true;
    if (cfg && cfg->no_mtp()) return false;  // --no-mtp: `if cls.no_mtp: return None`
    if (!cfg) throw Error(ErrorCode::Usage, "renaming an MTP tensor needs config.json (num_hidden_layers)", std::string(), name);
    const std::uint64_t orig = main_layers(*cfg);
    const auto parts = split3(name);
    static constexpr std::pair<std::string_view, std::string_view> kRemap[] = {
        {"fc", "eh_proj"}, {"pre_fc_norm_embedding", "enorm"}, {"pre_fc_norm_hidden", "hnorm"}, {"norm", "shared_head.norm"}};
    if (const auto i = mtp_layer(name)) {
        name = "model.layers." + std::to_string(orig + *i) + "." + std::string(parts[3]);
    } else if (parts.size() == 3) {
        for (const auto& [from, to] : kRemap)
            if (parts[1] == from) {
                name = "model.layers." + std::to_string(orig) + "." + std::string(to) + "." + std::string(parts[2]);
                break;
            }
    }
    return true;
}

void qwen_mtp_read(ClassHparams& hp, const HfConfig& cfg, const std::string& model_dir) {
    hp.block_count = main_layers(cfg) + detail::qwen_mtp_layers(cfg, model_dir);
}

void qwen3next_read(ClassHparams& hp, const HfConfig& cfg) {
    auto get = [&](std::string_view k) -> std::uint64_t {
        const auto v = cfg.get(k);
        if (!v || v->is_null()) return 0;
        const auto i = detail::integer(*v, k, cfg.file());
        return i > 0 ? static_cast<std::uint64_t>(i) : 0;
    };
    hp.lin_k_heads = get("linear_num_key_heads");
    hp.lin_k_dim = get("linear_key_head_dim");
    const std::uint64_t nv = get("linear_num_value_heads"), hv = get("linear_value_head_dim");
    // num_v_heads // num_k_heads * head_v_dim; 0 (refused at in_proj_qkvz) when it does not divide
    hp.lin_v_rows = hp.lin_k_heads && nv % hp.lin_k_heads == 0 ? nv / hp.lin_k_heads * hv : 0;
}

Tensors qwen3next_modify(const ClassTensorCtx& c, std::string& name, std::string_view hf_name, std::vector<std::uint64_t>& shape,
                         TensorTransform& tr, std::optional<std::uint64_t> bid) {
    if (name.ends_with(".A_log")) tr = {TensorTransform::Kind::NegExp, 0, 0, 0};  // -torch.exp(data_torch)
    else if (name.ends_with(".dt_bias")) name = name.substr(0, name.size() - 8) + ".dt_proj.bias";
    else if (name.find("conv1d") != std::string::npos) std::erase(shape, std::uint64_t{1});  // squeeze()
    else if (name.ends_with("norm.weight") && !name.ends_with("linear_attn.norm.weight"))
        tr = {TensorTransform::Kind::AddOne, 0, 0, 0};
    if (name.find("in_proj_qkvz.weight") == std::string::npos) return std::nullopt;
    const std::uint64_t nk = c.hp.lin_k_heads, hk = c.hp.lin_k_dim, vr = c.hp.lin_v_rows;
    if (!bid || !nk || !hk || !vr || shape.size() != 2 || shape[0] != nk * (2 * hk + 2 * vr))
        throw Error(ErrorCode::Malformed,
                    "in_proj_qkvz is not [linear_num_key_heads × (2 × linear_key_head_dim + 2 × linear_num_value_heads / "
                    "linear_num_key_heads × linear_value_head_dim), hidden_size] with the key heads dividing the value "
                    "heads (the converter's view fails)",
                    c.file, std::string(hf_name));
    const std::string b = "blk." + std::to_string(*bid) + ".";
    const std::uint64_t qkv = nk * (2 * hk + vr), h = shape[1];
    auto out = c.one(b + "attn_qkv.weight", hf_name, {qkv, h}, {TensorTransform::Kind::QkvzPart, nk, 0, qkv, vr, hk});
    auto z = c.one(b + "attn_gate.weight", hf_name, {nk * vr, h}, {TensorTransform::Kind::QkvzPart, nk, qkv, shape[0], vr, hk});
    out.push_back(std::move(z.front()));
    return out;
}

}  // namespace classes
}  // namespace amn::arch
