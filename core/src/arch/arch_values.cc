// SPDX-License-Identifier: MIT OR Apache-2.0
// config.json values with Python's semantics → gguf-py writer values.
#include "arch/arch_values.hpp"

#include "anamnesis/error.hpp"

#include <cmath>
#include <limits>

namespace amn::arch::detail {

namespace {
[[noreturn]] void wrong(std::string_view key, std::string_view want, simdjson::dom::element e, const std::string& file) {
    throw Error(ErrorCode::BadJson,
                "config.json key '" + std::string(key) + "': expected " + std::string(want) + ", got " +
                    std::string(amn::detail::json_type_name(e)),
                file);
}
}  // namespace

PyNum num(simdjson::dom::element e, std::string_view key, const std::string& file) {
    PyNum n;
    switch (e.type()) {
        case simdjson::dom::element_type::BOOL: n.i = bool(e) ? 1 : 0; n.d = static_cast<double>(n.i); return n;
        case simdjson::dom::element_type::INT64: n.i = std::int64_t(e); n.d = static_cast<double>(n.i); return n;
        case simdjson::dom::element_type::UINT64: {
            const std::uint64_t u = std::uint64_t(e);
            if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                throw Error(ErrorCode::BadJson, "config.json key '" + std::string(key) + "': integer out of range", file);
            n.i = static_cast<std::int64_t>(u);
            n.d = static_cast<double>(n.i);
            return n;
        }
        case simdjson::dom::element_type::DOUBLE: n.is_int = false; n.d = double(e); return n;
        default: wrong(key, "a number", e, file);
    }
}

std::int64_t integer(simdjson::dom::element e, std::string_view key, const std::string& file) {
    const PyNum n = num(e, key, file);
    if (!n.is_int) wrong(key, "an integer", e, file);
    return n.i;
}

MetaValue u32(const PyNum& v, std::string_view key, const std::string& file) {
    if (!v.is_int)
        throw Error(ErrorCode::BadJson, "config.json key '" + std::string(key) + "': expected an integer, got a float", file);
    if (v.i < 0 || v.i > 0xFFFFFFFFll)
        throw Error(ErrorCode::BadJson,
                    "config.json key '" + std::string(key) + "': " + std::to_string(v.i) + " does not fit a u32", file);
    return MetaValue::u32(static_cast<std::uint32_t>(v.i));
}

MetaValue u32(simdjson::dom::element e, std::string_view key, const std::string& file) {
    return u32(num(e, key, file), key, file);
}

MetaValue f32(double v, std::string_view key, const std::string& file) {
    const float f = static_cast<float>(v);  // round to nearest even, as struct.pack('<f')
    if (std::isinf(f) && !std::isinf(v))
        throw Error(ErrorCode::BadJson, "config.json key '" + std::string(key) + "': value too large for an f32", file);
    return MetaValue::f32(f);
}

MetaValue f32(simdjson::dom::element e, std::string_view key, const std::string& file) {
    return f32(num(e, key, file).d, key, file);
}

void missing(std::string_view keys, const std::string& file) {
    throw Error(ErrorCode::Malformed, "config.json has no key '" + std::string(keys) + "'", file);
}

simdjson::dom::element required(const HfConfig& cfg, std::initializer_list<std::string_view> keys) {
    for (auto k : keys)
        if (auto v = cfg.get(k)) {
            if (v->is_null())
                throw Error(ErrorCode::Malformed, "config.json key '" + std::string(k) + "' is null", cfg.file());
            return *v;
        }
    std::string all;
    for (auto k : keys) all += (all.empty() ? "" : " / ") + std::string(k);
    missing(all, cfg.file());
}

std::optional<simdjson::dom::element> optional_hp(const HfConfig& cfg, std::initializer_list<std::string_view> keys) {
    for (auto k : keys)
        if (auto v = cfg.get(k)) {
            if (v->is_null()) return std::nullopt;
            return v;
        }
    return std::nullopt;
}

// ---- rope parameters -----------------------------------------------------------------------

RopeParams::RopeParams(const HfConfig& cfg) : cfg_(cfg) {
    // self.hparams.get("rope_parameters", self.hparams.get("rope_scaling")) or {}
    std::optional<simdjson::dom::element> rp = cfg.get("rope_parameters");
    if (!rp) rp = cfg.get("rope_scaling");
    if (rp && !rp->is_null()) {
        if (!rp->is_object())
            throw Error(ErrorCode::BadJson,
                        "config.json key 'rope_scaling': expected an object, got " +
                            std::string(amn::detail::json_type_name(*rp)),
                        cfg.file());
        // An empty dict is falsy: `or {}` gives a fresh {} — same contents.
        outer_ = rp;
    }
    auto in_outer = [&](std::string_view k) { return outer_ && amn::detail::json_get(*outer_, k).has_value(); };
    if (!in_outer("full_attention") && !in_outer("sliding_attention")) {
        const auto local = optional_hp(cfg, {"local_rope_theta", "rope_local_theta", "rope_theta_local", "swa_rope_theta",
                                             "rope_local_base_freq"});
        if (local) swa_theta_ = local;
        const auto theta =
            optional_hp(cfg, {"global_rope_theta", "rope_global_theta", "rope_theta_global", "rope_theta", "rotary_emb_base"});
        if (!in_outer("rope_theta") && theta) mirrored_.push_back({"rope_theta", *theta});
        if (!in_outer("rope_type"))
            if (auto t = outer("type")) mirrored_.push_back({"rope_type", *t});
        const auto prf = optional_hp(cfg, {"partial_rotary_factor", "rope_pct", "rope_percent"});
        if (!in_outer("partial_rotary_factor") && prf) mirrored_.push_back({"partial_rotary_factor", *prf});
        const auto omp = optional_hp(cfg, {"original_max_position_embeddings"});
        if (!in_outer("original_max_position_embeddings") && omp)
            mirrored_.push_back({"original_max_position_embeddings", *omp});
    } else {
        if (auto s = outer("sliding_attention"); s && s->is_object())
            if (auto t = amn::detail::json_get(*s, "rope_theta"); t && !t->is_null()) swa_theta_ = t;
        if (auto f = amn::detail::json_get(*outer_, "full_attention"); f) {
            if (!f->is_object())
                throw Error(ErrorCode::BadJson, "config.json key 'rope_scaling.full_attention': expected an object",
                            cfg.file());
            inner_ = f;
            inner_is_outer_ = false;
        }
    }
    if (inner_is_outer_) inner_ = outer_;
}

std::optional<simdjson::dom::element> RopeParams::outer(std::string_view key) const {
    if (outer_)
        if (auto v = amn::detail::json_get(*outer_, key); v && !v->is_null()) return v;
    for (const auto& m : mirrored_)
        if (m.key == key) return m.value;  // mirrors are only of keys absent from the dict
    return std::nullopt;
}

bool RopeParams::has(std::string_view key) const {
    if (inner_ && amn::detail::json_get(*inner_, key)) return true;
    if (inner_is_outer_)
        for (const auto& m : mirrored_)
            if (m.key == key) return true;
    return false;
}

std::optional<simdjson::dom::element> RopeParams::get(std::string_view key) const {
    if (inner_is_outer_) return outer(key);
    if (auto v = amn::detail::json_get(*inner_, key); v && !v->is_null()) return v;
    return std::nullopt;
}

std::string RopeParams::rope_type() const {
    auto t = get("rope_type");
    if (!t) return {};
    if (!t->is_string())
        throw Error(ErrorCode::BadJson,
                    "config.json key 'rope_scaling.rope_type': expected a string, got " +
                        std::string(amn::detail::json_type_name(*t)),
                    cfg_.file());
    return std::string(std::string_view(*t));
}

}  // namespace amn::arch::detail
