// SPDX-License-Identifier: MIT OR Apache-2.0
// The dtype registry: plain dtypes here, ggml block types in ggml_types.cc.
#include "anamnesis/dtype.hpp"

#include "anamnesis/kernels.hpp"
#include "types/ggml_types.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

namespace amn {
namespace {

// Block decoders for plain dtypes (block = 1 element unless noted).
void dec_f32(const std::uint8_t* s, float* d, std::size_t n) {
    if (n) std::memcpy(d, s, n * 4);  // s may be null for an empty tensor: memcpy(_, nullptr, 0) is UB
}
void dec_f16(const std::uint8_t* s, float* d, std::size_t n) {
    // Unaligned-safe: the kernels take uint16 pointers; mmap'd tensor data
    // is at least 2-byte aligned in every format we parse except when a
    // writer misaligns it, so copy through a small buffer in that case.
    if (reinterpret_cast<std::uintptr_t>(s) % 2 == 0) {
        kernels::f16_to_f32(reinterpret_cast<const std::uint16_t*>(s), d, n);
        return;
    }
    for (std::size_t i = 0; i < n; ++i) { std::uint16_t h; std::memcpy(&h, s + 2 * i, 2); d[i] = kernels::scalar::f32_from_f16(h); }
}
void dec_bf16(const std::uint8_t* s, float* d, std::size_t n) {
    if (reinterpret_cast<std::uintptr_t>(s) % 2 == 0) {
        kernels::bf16_to_f32(reinterpret_cast<const std::uint16_t*>(s), d, n);
        return;
    }
    for (std::size_t i = 0; i < n; ++i) { std::uint16_t h; std::memcpy(&h, s + 2 * i, 2); d[i] = kernels::scalar::f32_from_bf16(h); }
}
void dec_f64(const std::uint8_t* s, float* d, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) { double v; std::memcpy(&v, s + 8 * i, 8); d[i] = static_cast<float>(v); }
}
template <class T>
void dec_int(const std::uint8_t* s, float* d, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) { T v; std::memcpy(&v, s + sizeof(T) * i, sizeof(T)); d[i] = static_cast<float>(v); }
}
void dec_bool(const std::uint8_t* s, float* d, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i] ? 1.0f : 0.0f;
}
template <DType F>
void dec_fp8(const std::uint8_t* s, float* d, std::size_t n) { kernels::fp8_to_f32(F, s, d, n); }
// F4: block of 2 elements in 1 byte, first element in the low nibble.
void dec_f4(const std::uint8_t* s, float* d, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        d[2 * i] = kernels::scalar::fp4_e2m1_value(s[i] & 0xF);
        d[2 * i + 1] = kernels::scalar::fp4_e2m1_value(s[i] >> 4);
    }
}
// F6: block of 4 elements in 3 bytes, little-endian bit order (element k
// occupies bits 6k..6k+5 of the 24-bit little-endian word).
template <DType F>
void dec_f6(const std::uint8_t* s, float* d, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t w = s[3 * i] | (s[3 * i + 1] << 8) | (s[3 * i + 2] << 16);
        for (int k = 0; k < 4; ++k) d[4 * i + k] = kernels::scalar::fp6_value(F, (w >> (6 * k)) & 0x3F);
    }
}

constexpr DTypeInfo kPlain[] = {
    {DType::BOOL, "BOOL", 1, 1, false, false, -1, dec_bool, nullptr},
    {DType::U8, "U8", 1, 1, false, false, -1, dec_int<std::uint8_t>, nullptr},
    {DType::I8, "I8", 1, 1, false, false, 24, dec_int<std::int8_t>, nullptr},
    {DType::U16, "U16", 1, 2, false, false, -1, dec_int<std::uint16_t>, nullptr},
    {DType::I16, "I16", 1, 2, false, false, 25, dec_int<std::int16_t>, nullptr},
    {DType::U32, "U32", 1, 4, false, false, -1, dec_int<std::uint32_t>, nullptr},
    {DType::I32, "I32", 1, 4, false, false, 26, dec_int<std::int32_t>, nullptr},
    {DType::U64, "U64", 1, 8, false, false, -1, dec_int<std::uint64_t>, nullptr},
    {DType::I64, "I64", 1, 8, false, false, 27, dec_int<std::int64_t>, nullptr},
    {DType::F16, "F16", 1, 2, true, false, 1, dec_f16, nullptr},
    {DType::BF16, "BF16", 1, 2, true, false, 30, dec_bf16, nullptr},
    {DType::F32, "F32", 1, 4, true, false, 0, dec_f32, nullptr},
    {DType::F64, "F64", 1, 8, true, false, 28, dec_f64, nullptr},
    {DType::C64, "C64", 1, 8, false, false, -1, nullptr, nullptr},
    {DType::C128, "C128", 1, 16, false, false, -1, nullptr, nullptr},
    {DType::F8_E4M3, "F8_E4M3", 1, 1, true, false, -1, dec_fp8<DType::F8_E4M3>, nullptr},
    {DType::F8_E5M2, "F8_E5M2", 1, 1, true, false, -1, dec_fp8<DType::F8_E5M2>, nullptr},
    {DType::F8_E4M3FNUZ, "F8_E4M3FNUZ", 1, 1, true, false, -1, dec_fp8<DType::F8_E4M3FNUZ>, nullptr},
    {DType::F8_E5M2FNUZ, "F8_E5M2FNUZ", 1, 1, true, false, -1, dec_fp8<DType::F8_E5M2FNUZ>, nullptr},
    {DType::F8_E8M0, "F8_E8M0", 1, 1, true, false, -1, dec_fp8<DType::F8_E8M0>, nullptr},
    {DType::F4, "F4", 2, 1, true, false, -1, dec_f4, nullptr},
    {DType::F6_E2M3, "F6_E2M3", 4, 3, true, false, -1, dec_f6<DType::F6_E2M3>, nullptr},
    {DType::F6_E3M2, "F6_E3M2", 4, 3, true, false, -1, dec_f6<DType::F6_E3M2>, nullptr},
};

struct Registry {
    std::vector<DTypeInfo> rows;
    std::array<const DTypeInfo*, 0x200> by_id{};
    Registry() {
        rows.assign(std::begin(kPlain), std::end(kPlain));
        const auto ggml = detail::ggml_type_rows();
        rows.insert(rows.end(), ggml.begin(), ggml.end());
        for (const auto& r : rows) by_id[static_cast<std::size_t>(r.dtype) & 0x1FF] = &r;
    }
};

const Registry& registry() {
    static const Registry r;
    return r;
}

}  // namespace

const DTypeInfo* dtype_info(DType t) noexcept {
    const auto v = static_cast<std::size_t>(t);
    if (v == 0 || v >= 0x200) return nullptr;
    return registry().by_id[v];
}

std::string dtype_name(DType t) {
    if (const auto* i = dtype_info(t)) return std::string(i->name);
    const auto v = static_cast<unsigned>(t);
    if (v >= static_cast<unsigned>(DType::GgmlBase)) return "ggml type " + std::to_string(v - static_cast<unsigned>(DType::GgmlBase));
    return "unknown";
}

std::optional<DType> dtype_from_safetensors_name(std::string_view name) noexcept {
    if (name == "F8_E4M3FN") return DType::F8_E4M3;  // alias some writers use
    for (const auto& r : kPlain)
        if (r.name == name) return r.dtype;
    return std::nullopt;
}

DType dtype_from_ggml_id(std::uint32_t id) noexcept {
    for (const auto& r : kPlain)
        if (r.ggml_id >= 0 && static_cast<std::uint32_t>(r.ggml_id) == id) return r.dtype;
    if (id >= 0x100) return DType::Unknown;
    return static_cast<DType>(static_cast<std::uint32_t>(DType::GgmlBase) + id);
}

std::optional<std::uint64_t> dtype_bytes(DType t, std::uint64_t numel) noexcept {
    const auto* i = dtype_info(t);
    if (!i || numel % i->block_elems != 0) return std::nullopt;
    const std::uint64_t blocks = numel / i->block_elems;
    if (blocks != 0 && i->block_bytes > std::numeric_limits<std::uint64_t>::max() / blocks) return std::nullopt;
    return blocks * i->block_bytes;
}

bool dtype_is_float(DType t) noexcept {
    const auto* i = dtype_info(t);
    return i ? i->is_float : static_cast<unsigned>(t) >= static_cast<unsigned>(DType::GgmlBase);
}

double dtype_bits_per_element(DType t) noexcept {
    const auto* i = dtype_info(t);
    return i ? 8.0 * i->block_bytes / i->block_elems : 0.0;
}

std::span<const DTypeInfo> dtype_table() noexcept { return registry().rows; }

}  // namespace amn
