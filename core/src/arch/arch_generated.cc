// SPDX-License-Identifier: MIT OR Apache-2.0
// generate_extra_tensors of the converter classes: Llama 3 `rope_freqs`
// (conversion/llama.py LlamaModel; exaone.py ExaoneModel, Exaone4Model) and Phi-3 `rope_factors_long/short` +
// rope.scaling.attn_factor (conversion/phi.py Phi3MiniModel), with the same
// float64 / float32 arithmetic as the converter (PyTorch f32 tensor ops).
#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"
#include "arch/arch_values.hpp"

#include <cmath>
#include <numbers>

namespace amn::arch {
namespace {

using namespace detail;
using simdjson::dom::element;

/// torch.tensor(python_list, dtype=torch.float32): ints/floats rounded to f32.
float to_f32(element e, std::string_view key, const std::string& file) {
    return static_cast<float>(num(e, key, file).d);
}

/// A Python float from rope_params.get(key, default).
double param_or(const RopeParams& rp, std::string_view key, double dflt, const std::string& file) {
    auto v = rp.get(key);
    return v ? num(*v, key, file).d : dflt;
}

GeneratedExtras llama3_rope_freqs(const ArchRow& row, const HfConfig& cfg) {
    GeneratedExtras res;
    const std::string& f = cfg.file();
    const RopeParams rp(cfg);
    std::string type = rp.rope_type();
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (type != "llama3") return res;

    const double base = param_or(rp, "rope_theta", 10000.0, f);
    std::int64_t dim;
    if (auto hd = cfg.get("head_dim"); hd && !hd->is_null()) dim = integer(*hd, "head_dim", f);
    else {
        auto h = cfg.get("hidden_size"), n = cfg.get("num_attention_heads");
        if (!h || h->is_null()) missing("hidden_size", f);
        if (!n || n->is_null()) missing("num_attention_heads", f);
        const std::int64_t nh = integer(*n, "num_attention_heads", f);
        if (nh <= 0) throw Error(ErrorCode::Malformed, "config.json key 'num_attention_heads' must be positive", f);
        dim = integer(*h, "hidden_size", f) / nh;
    }
    if (dim <= 0 || dim > (1 << 20)) throw Error(ErrorCode::Malformed, "config.json: bad head dimension " + std::to_string(dim), f);
    const double factor = param_or(rp, "factor", row.gguf == "exaone4" ? 16.0 : 8.0, f);  // Exaone4Model: 16 by default
    const double lo = param_or(rp, "low_freq_factor", 1.0, f);
    const double hi = param_or(rp, "high_freq_factor", 4.0, f);
    const double old_ctx = param_or(rp, "original_max_position_embeddings", 8192.0, f);
    const double lo_wl = old_ctx / lo, hi_wl = old_ctx / hi;  // Python floats
    if (row.gguf == "exaone" && lo_wl == hi_wl)  // ExaoneModel asserts low_freq_wavelen != high_freq_wavelen
        throw Error(ErrorCode::Malformed, "rope_scaling: low and high frequency wavelengths are equal (the converter asserts they differ)", f);

    // PyTorch: Python scalars meet f32 tensors as f32 values; every op rounds to f32.
    const float base_f = static_cast<float>(base), dim_f = static_cast<float>(dim);
    const float two_pi = static_cast<float>(2 * std::numbers::pi);
    const float lo_wl_f = static_cast<float>(lo_wl), hi_wl_f = static_cast<float>(hi_wl);
    const float factor_f = static_cast<float>(factor), lo_f = static_cast<float>(lo), old_f = static_cast<float>(old_ctx);
    const float span_f = static_cast<float>(hi - lo);  // (high_freq_factor - low_freq_factor) in Python, then f32

    GeneratedTensor t;
    t.name = std::string(tensor_kind_name(TensorKind::ROPE_FREQS)) + ".weight";
    for (std::int64_t i = 0; i < dim; i += 2) {
        const float e = static_cast<float>(i) / dim_f;                              // arange(0, dim, 2) / dim
        const float p = static_cast<float>(std::pow(static_cast<double>(base_f), static_cast<double>(e)));  // base ** e
        const float freq = 1.0f / p;                                                // 1.0 / (...)
        const float wavelen = (1.0f / freq) * two_pi;                               // 2π / freq = reciprocal(freq) * 2π
        float v;
        if (wavelen < hi_wl_f) v = 1.0f;
        else if (wavelen > lo_wl_f) v = static_cast<float>(factor);
        else {
            const float smooth = ((1.0f / wavelen) * old_f - lo_f) / span_f;  // (old / wavelen - low) / (high - low)
            v = 1.0f / ((1.0f - smooth) / factor_f + smooth);                  // 1 / ((1 - smooth) / factor + smooth)
        }
        t.data.push_back(v);
    }
    t.shape = {static_cast<std::uint64_t>(t.data.size())};
    res.tensors.push_back(std::move(t));
    return res;
}

GeneratedExtras phi3_rope_factors(const ArchRow& row, const HfConfig& cfg) {
    GeneratedExtras res;
    const std::string& f = cfg.file();
    const std::int64_t n_embd = integer(required(cfg, {"hidden_size", "n_embd"}), "hidden_size", f);
    const std::int64_t n_head = integer(required(cfg, {"num_attention_heads", "n_head"}), "num_attention_heads", f);
    const PyNum max_pos = num(required(cfg, {"n_positions", "max_position_embeddings"}), "max_position_embeddings", f);
    const RopeParams rp(cfg);
    const auto orig_e = rp.get("original_max_position_embeddings");
    if (!orig_e) missing("original_max_position_embeddings", f);
    const PyNum orig = num(*orig_e, "original_max_position_embeddings", f);
    const auto prf = rp.get("partial_rotary_factor");
    const PyNum rot = prf ? num(*prf, "partial_rotary_factor", f) : PyNum{false, 0, 1.0};
    if (n_head <= 0) throw Error(ErrorCode::Malformed, "config.json key 'num_attention_heads' must be positive", f);
    const std::int64_t prod = rot.is_int ? rot.i * n_embd : static_cast<std::int64_t>(std::trunc(rot.d * double(n_embd)));
    std::int64_t rope_dims = prod / n_head;
    if ((prod % n_head != 0) && ((prod < 0) != (n_head < 0))) --rope_dims;

    const auto long_f = rp.get("long_factor");
    const auto short_f = rp.get("short_factor");
    // `if not long_factors: return` — None and [] are falsy.
    if (!long_f) return res;
    if (!long_f->is_array())
        throw Error(ErrorCode::BadJson, "config.json key 'rope_scaling.long_factor': expected a list", f);
    if (simdjson::dom::array(*long_f).size() == 0) return res;

    const double scale = max_pos.d / orig.d;
    std::string type = rp.rope_type();
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (type.empty()) missing("rope_scaling.type", f);
    double attn_factor;
    if (type == "su" || type == "longrope")
        attn_factor = scale > 1.0 ? std::sqrt(1 + std::log(scale) / std::log(orig.d)) : 1.0;
    else if (type == "yarn")
        attn_factor = scale > 1.0 ? 0.1 * std::log(scale) + 1.0 : 1.0;
    else
        throw Error(ErrorCode::Unsupported, "the rope scaling type " + type + " is not supported (Phi-3)", f);
    res.kvs.push_back({std::string(row.gguf) + ".rope.scaling.attn_factor", f32(attn_factor, "attn_factor", f)});

    if (!short_f || !short_f->is_array())
        missing("rope_scaling.short_factor", f);
    const simdjson::dom::array la = *long_f, sa = *short_f;
    if (la.size() != sa.size() || static_cast<double>(la.size()) != static_cast<double>(rope_dims) / 2)
        throw Error(ErrorCode::Malformed,
                    "the rope long and short factors must have " + std::to_string(rope_dims) + "/2 entries (long " +
                        std::to_string(la.size()) + ", short " + std::to_string(sa.size()) + ")",
                    f);
    for (auto [kind, arr, key] : {std::tuple{TensorKind::ROPE_FACTORS_LONG, la, "long_factor"},
                                  std::tuple{TensorKind::ROPE_FACTORS_SHORT, sa, "short_factor"}}) {
        GeneratedTensor t;
        t.name = std::string(tensor_kind_name(kind)) + ".weight";
        for (element e : arr) t.data.push_back(to_f32(e, key, f));
        t.shape = {static_cast<std::uint64_t>(t.data.size())};
        res.tensors.push_back(std::move(t));
    }
    return res;
}

}  // namespace

GeneratedExtras generate_extra_tensors(const ArchRow& row, const HfConfig& cfg) {
    switch (row.generated) {
        case GeneratedRule::None: return {};
        case GeneratedRule::Llama3RopeFreqs: return llama3_rope_freqs(row, cfg);
        case GeneratedRule::Phi3RopeFactors: return phi3_rope_factors(row, cfg);
    }
    return {};
}

}  // namespace amn::arch
