// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the converter's convolution hybrids (lfm2.py LFM2Model):
// their keys after TextModel's list (arch_text_params.hpp); and of the state-space
// models (mamba.py MambaModel), a list of their own.
#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace amn::arch::detail {

using simdjson::dom::element;

namespace {

/// `hparams[key]`: present (null allowed), else missing().
element present(const HfConfig& cfg, std::string_view key) {
    auto v = cfg.get(key);
    if (!v) missing(key, cfg.file());
    return *v;
}

}  // namespace

void lfm2_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    // hparams["num_key_value_heads"] := [kv heads, or 0 for a "conv" layer, per layer_types], before TextModel's list.
    const element kvh = exact(cfg, "num_key_value_heads");
    const element types = exact(cfg, "layer_types");
    if (!types.is_array()) throw Error(ErrorCode::BadJson, "config.json key 'layer_types': expected a list", f);
    const std::int64_t heads = integer(kvh, "num_key_value_heads", f);
    if (heads < INT32_MIN || heads > INT32_MAX) throw Error(ErrorCode::BadJson, "config.json key 'num_key_value_heads': out of range", f);
    std::vector<std::int32_t> per_layer;
    for (element t : simdjson::dom::array(types))
        per_layer.push_back(t.is_string() && std::string_view(t) == "conv" ? 0 : static_cast<std::int32_t>(heads));

    text_model_params(cfg, kv);
    // TextModel's add_head_count_kv(list): an INT32 array, in the place of the key.
    std::string bytes(per_layer.size() * 4, '\0');
    for (std::size_t i = 0; i < per_layer.size(); ++i)
        for (int b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<char>((static_cast<std::uint32_t>(per_layer[i]) >> (8 * b)) & 0xff);
    kv.put("attention.head_count_kv", MetaValue::packed(GgufType::I32, per_layer.size(), std::move(bytes)));
    kv.to(res.after_file_type);

    kv.put("vocab_size", u32(exact(cfg, "vocab_size"), "vocab_size", f));
    kv.put("shortconv.l_cache", u32(exact(cfg, "conv_L_cache"), "conv_L_cache", f));
    kv.put("attention.layer_norm_rms_epsilon", f32(exact(cfg, "norm_eps"), "norm_eps", f));

    // _add_feed_forward_length: find_hparam(block_ff_dim, intermediate_size), then (block_auto_adjust_ff_dim)
    // int(2 · ff / 3), int(block_ffn_dim_multiplier · ff) unless null, rounded up to block_multiple_of.
    const element ff_e = required(cfg, {"block_ff_dim", "intermediate_size"});
    const element adjust = present(cfg, "block_auto_adjust_ff_dim");
    const element mult = present(cfg, "block_ffn_dim_multiplier");
    const element multiple = present(cfg, "block_multiple_of");
    // Python's ints do not overflow; a length past the u32 range is refused (as add_feed_forward_length's pack would).
    auto too_big = [&]() -> Error {
        return Error(ErrorCode::BadJson, "config.json key 'block_ff_dim': the feed-forward length is out of the u32 range", f);
    };
    constexpr std::int64_t kLimit = std::int64_t{1} << 40;
    std::int64_t ff = integer(ff_e, "block_ff_dim", f);
    if (ff < -kLimit || ff > kLimit) throw too_big();
    const bool do_adjust = adjust.is_bool() ? bool(adjust) : !adjust.is_null() && num(adjust, "block_auto_adjust_ff_dim", f).d != 0;
    if (do_adjust) {
        ff = static_cast<std::int64_t>(std::trunc(double(2 * ff) / 3.0));
        if (!mult.is_null()) {
            const PyNum m = num(mult, "block_ffn_dim_multiplier", f);
            const double prod = m.is_int ? double(m.i) * double(ff) : m.d * double(ff);
            if (!(prod > -double(kLimit) && prod < double(kLimit))) throw too_big();
            ff = m.is_int ? m.i * ff : static_cast<std::int64_t>(std::trunc(prod));
        }
        const std::int64_t mo = integer(multiple, "block_multiple_of", f);
        if (mo < -kLimit || mo > kLimit) throw too_big();
        const std::int64_t blocks = floordiv(ff + mo - 1, mo, "block_multiple_of", f);
        if (double(mo) * double(blocks) <= -double(kLimit) || double(mo) * double(blocks) >= double(kLimit)) throw too_big();
        ff = mo * blocks;
    }
    kv.put("feed_forward_length", u32(PyNum{true, ff, double(ff)}, "block_ff_dim", f));
}

namespace {

/// find_hparam(keys, optional=True) or default: an absent, null or zero value takes the default.
PyNum or_default(const HfConfig& cfg, std::initializer_list<std::string_view> keys, std::int64_t def) {
    if (auto v = optional_hp(cfg, keys)) {
        const PyNum n = num(*v, *keys.begin(), cfg.file());
        if (n.is_int ? n.i != 0 : n.d != 0) return n;
    }
    return {true, def, double(def)};
}

std::int64_t bounded(const PyNum& n, std::string_view key, const std::string& f) {
    if (!n.is_int || n.i < 0 || n.i > (std::int64_t{1} << 40))
        throw Error(ErrorCode::BadJson, "config.json key '" + std::string(key) + "': expected an integer in [0, 2^40]", f);
    return n.i;
}

}  // namespace

std::optional<std::uint64_t> ssm_padded_vocab_size(const HfConfig& cfg, bool mamba2) {
    const std::string& f = cfg.file();
    const auto v = cfg.get("vocab_size");
    if (!v || v->is_null()) return std::nullopt;
    const std::int64_t vocab = integer(*v, "vocab_size", f);
    std::int64_t pad = mamba2 ? 16 : 8;
    if (const auto p = cfg.get("pad_vocab_size_multiple")) {
        pad = integer(*p, "pad_vocab_size_multiple", f);
        if (pad <= 0 || pad > (std::int64_t{1} << 20))
            throw Error(ErrorCode::BadJson, "config.json key 'pad_vocab_size_multiple': expected a positive integer", f);
    }
    if (vocab < 0) throw Error(ErrorCode::BadJson, "config.json key 'vocab_size' is negative", f);
    return static_cast<std::uint64_t>((vocab + pad - 1) / pad * pad);  // -(vocab_size // -pad) * pad
}

Mamba2Dims mamba2_dims(const HfConfig& cfg) {
    const std::string& f = cfg.file();
    Mamba2Dims d;
    d.model = bounded(num(required(cfg, {"hidden_size", "d_model", "dim"}), "hidden_size", f), "hidden_size", f);
    d.expand = bounded(or_default(cfg, {"mamba_expand", "expand"}, 2), "expand", f);
    d.inner = bounded(or_default(cfg, {"mamba_d_ssm", "intermediate_size", "d_inner"}, d.expand * d.model), "intermediate_size", f);
    d.groups = bounded(or_default(cfg, {"n_groups"}, 1), "n_groups", f);
    return d;
}

void mamba2_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    const Mamba2Dims d = mamba2_dims(cfg);
    const PyNum d_conv = or_default(cfg, {"conv_kernel", "d_conv"}, 4);
    const PyNum d_state = or_default(cfg, {"state_size", "d_state"}, 128);
    const std::int64_t head_dim = bounded(or_default(cfg, {"mamba_d_head", "head_dim"}, 64), "head_dim", f);
    double eps = 1e-5;
    if (auto v = optional_hp(cfg, {"layer_norm_epsilon", "rms_norm_eps"}))
        if (const PyNum n = num(*v, "layer_norm_epsilon", f); n.d != 0) eps = n.d;
    if (d.inner != d.expand * d.model || d.inner % head_dim != 0)
        throw Error(ErrorCode::Malformed, "the inner size is not expand × hidden_size or not a multiple of head_dim (the converter asserts both)", f);
    auto u = [&](std::int64_t v, const char* key) { return u32(PyNum{true, v, double(v)}, key, f); };
    kv.put("context_length", MetaValue::u32(1u << 20));
    kv.put("embedding_length", u(d.model, "hidden_size"));
    kv.put("feed_forward_length", MetaValue::u32(0));
    kv.put("attention.head_count", MetaValue::u32(0));
    kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", f));
    kv.put("ssm.conv_kernel", u32(d_conv, "conv_kernel", f));
    kv.put("ssm.inner_size", u(d.inner, "intermediate_size"));
    kv.put("ssm.state_size", u32(d_state, "state_size", f));
    kv.put("ssm.time_step_rank", u(d.inner / head_dim, "head_dim"));
    kv.put("ssm.group_count", u(d.groups, "n_groups"));
    kv.put("attention.layer_norm_rms_epsilon", f32(eps, "layer_norm_epsilon", f));
}

void mamba_params(const HfConfig& cfg, KvOut& kv) {
    const std::string& f = cfg.file();
    const std::int64_t d_model = integer(required(cfg, {"hidden_size", "d_model"}), "hidden_size", f);
    if (d_model < 0 || d_model > (std::int64_t{1} << 40)) throw Error(ErrorCode::BadJson, "config.json key 'hidden_size': out of range", f);
    const PyNum d_conv = or_default(cfg, {"conv_kernel", "d_conv"}, 4);
    const PyNum d_inner = or_default(cfg, {"intermediate_size", "d_inner"}, 2 * d_model);
    const PyNum d_state = or_default(cfg, {"state_size", "d_state"}, 16);
    const PyNum dt_rank = or_default(cfg, {"time_step_rank", "dt_rank"}, floordiv(d_model + 15, 16, "hidden_size", f));
    double eps = 1e-5;
    if (auto v = optional_hp(cfg, {"layer_norm_epsilon", "rms_norm_eps"}))
        if (const PyNum n = num(*v, "layer_norm_epsilon", f); n.d != 0) eps = n.d;
    bool dt_b_c_rms = false;  // FalconMamba applies RMS norms on B / dt / C
    if (auto mt = optional_hp(cfg, {"model_type"}); mt && mt->is_string()) dt_b_c_rms = std::string_view(*mt) == "falcon_mamba";
    if (d_inner.d != 2.0 * double(d_model))  // "Fail early for models which don't have a block expansion factor of 2"
        throw Error(ErrorCode::Malformed, "intermediate_size is not 2 × hidden_size (the converter asserts a block expansion factor of 2)", f);

    kv.put("context_length", MetaValue::u32(1u << 20));  // "arbitrary value; for those who use the default"
    kv.put("embedding_length", u32(PyNum{true, d_model, double(d_model)}, "hidden_size", f));
    kv.put("feed_forward_length", MetaValue::u32(0));
    kv.put("attention.head_count", MetaValue::u32(0));
    kv.put("block_count", u32(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", f));
    kv.put("ssm.conv_kernel", u32(d_conv, "conv_kernel", f));
    kv.put("ssm.inner_size", u32(d_inner, "intermediate_size", f));
    kv.put("ssm.state_size", u32(d_state, "state_size", f));
    kv.put("ssm.time_step_rank", u32(dt_rank, "time_step_rank", f));
    kv.put("attention.layer_norm_rms_epsilon", f32(eps, "layer_norm_epsilon", f));
    kv.put("ssm.dt_b_c_rms", MetaValue::boolean(dt_b_c_rms));
}

void qwen3next_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res, const std::string& model_dir) {
    const std::string& f = cfg.file();
    const std::uint64_t mtp = qwen_mtp_layers(cfg, model_dir);
    text_model_params(cfg, kv, true, false, false, static_cast<std::int64_t>(mtp));
    kv.to(res.after_file_type);
    if (auto v = optional_hp(cfg, {"moe_intermediate_size"})) kv.put("expert_feed_forward_length", u32(*v, "moe_intermediate_size", f));
    if (auto v = optional_hp(cfg, {"shared_expert_intermediate_size"}))
        kv.put("expert_shared_feed_forward_length", u32(*v, "shared_expert_intermediate_size", f));
    if (mtp > 0) kv.put("nextn_predict_layers", MetaValue::u32(static_cast<std::uint32_t>(mtp)));
    kv.put("ssm.conv_kernel", u32(exact(cfg, "linear_conv_kernel_dim"), "linear_conv_kernel_dim", f));
    kv.put("ssm.state_size", u32(exact(cfg, "linear_key_head_dim"), "linear_key_head_dim", f));
    kv.put("ssm.group_count", u32(exact(cfg, "linear_num_key_heads"), "linear_num_key_heads", f));
    kv.put("ssm.time_step_rank", u32(exact(cfg, "linear_num_value_heads"), "linear_num_value_heads", f));
    const std::int64_t hv = integer(exact(cfg, "linear_value_head_dim"), "linear_value_head_dim", f);
    const std::int64_t nv = integer(exact(cfg, "linear_num_value_heads"), "linear_num_value_heads", f);
    if (hv < 0 || nv < 0 || (nv != 0 && hv > INT64_MAX / nv))
        throw Error(ErrorCode::BadJson, "config.json: linear_value_head_dim × linear_num_value_heads is out of range", f);
    kv.put("ssm.inner_size", u32(PyNum{true, hv * nv, double(hv * nv)}, "linear_value_head_dim * linear_num_value_heads", f));
    const auto interval = cfg.get("full_attention_interval");
    kv.put("full_attention_interval", interval ? u32(*interval, "full_attention_interval", f) : MetaValue::u32(4));
    const auto prf = RopeParams(cfg).outer("partial_rotary_factor");
    kv.put("rope.dimension_count", head_rope_dim(cfg, prf ? num(*prf, "partial_rotary_factor", f) : PyNum{false, 0, 0.25}));
}

}  // namespace amn::arch::detail
