// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal helpers shared by the quantized schemes (gptq.cc, awq.cc,
// bnb4.cc, bnb_int8.cc, compressed-tensors, ModelOpt, MXFP4): configuration
// lookup, unaligned little-endian loads from the mapped file. The GPTQ/AWQ
// packed-layer lookup and checks: packed_layer.hpp.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "kernels/gguf/gguf_kernels.hpp"
#include "util/ascii_lower.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail::quant {

static_assert(std::endian::native == std::endian::little, "quantized schemes read little-endian words in place");

using detail::ascii_lower;

/// Unaligned little-endian u32 at byte address p (safetensors data need not be aligned).
inline std::uint32_t load_u32(const std::uint8_t* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

/// Element `i` of a float tensor (F16, BF16, F32, F64) as f32, exactly as
/// PyTorch's `.to(torch.float32)` (F64 rounds to nearest).
/// F16, BF16 and F32 inline (a scale per group is read one at a time: the
/// registry's SIMD decoder costs a dispatch per call).
inline float load_float(const DTypeInfo* info, const std::uint8_t* data, std::uint64_t i) noexcept {
    float f;
    switch (info->dtype) {
        case DType::F32: std::memcpy(&f, data + 4 * i, 4); return f;
        case DType::BF16: {
            std::uint16_t h;
            std::memcpy(&h, data + 2 * i, 2);
            const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
            std::memcpy(&f, &bits, 4);
            return f;
        }
        case DType::F16: {
            std::uint16_t h;
            std::memcpy(&h, data + 2 * i, 2);
            f = kernels::gguf::fp16_to_f32(h);
            if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) {  // NaN made quiet, as PyTorch and F16C do
                std::uint32_t bits;
                std::memcpy(&bits, &f, 4);
                bits |= 0x00400000u;
                std::memcpy(&f, &bits, 4);
            }
            return f;
        }
        default: info->to_f32(data + i * info->block_bytes, &f, 1); return f;
    }
}

inline bool is_float_scale(DType d) {
    return d == DType::F16 || d == DType::BF16 || d == DType::F32;
}
inline bool is_int32_word(DType d) { return d == DType::I32 || d == DType::U32; }

/// Parse a non-negative/negative integer from config text ("128", "-1"); nullopt otherwise.
inline std::optional<std::int64_t> parse_int(std::string_view s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}
inline std::optional<double> parse_double(std::string_view s) {
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}
inline std::optional<bool> parse_bool(std::string_view s) {
    if (s == "true" || s == "True" || s == "1") return true;
    if (s == "false" || s == "False" || s == "0") return false;
    return std::nullopt;
}

/// A setting from quantization_config, else from the safetensors
/// `__metadata__` under any of `meta_keys`.
inline std::optional<std::string> setting(const Catalog& cat, std::string_view qkey,
                                          std::initializer_list<std::string_view> meta_keys) {
    if (auto v = cat.qconfig(qkey); v && *v != "null") return v;
    for (auto mk : meta_keys)
        if (const MetaValue* v = cat.meta(mk)) return meta_text(*v);
    return std::nullopt;
}

/// True when quantization_config has per-module overrides (GPTQModel `dynamic`).
inline bool has_dynamic_overrides(const Catalog& cat) {
    auto it = cat.quantization_config.lower_bound("dynamic.");
    return it != cat.quantization_config.end() && it->first.rfind("dynamic.", 0) == 0;
}

/// "X" for "X.suffix".
inline std::string stem_of(const std::string& name, std::string_view suffix) {
    return name.substr(0, name.size() - suffix.size());
}

}  // namespace amn::detail::quant
