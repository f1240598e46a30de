// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar reference of the GPTQ / AWQ / bitsandbytes element kernels
// (quant_kernels.hpp). Readable first: the SIMD targets are tested against
// these bit for bit.
#include "quant_kernels.hpp"

#include <bit>
#include <cstring>

namespace amn::kernels::quant {

void make_pairs(const float* code16, std::uint64_t* pairs256) noexcept {
    static_assert(std::endian::native == std::endian::little, "pairs table assumes a little-endian host");
    for (unsigned b = 0; b < 256; ++b) {
        std::uint32_t hi, lo;
        std::memcpy(&hi, &code16[b >> 4], 4);
        std::memcpy(&lo, &code16[b & 15u], 4);
        pairs256[b] = static_cast<std::uint64_t>(hi) | (static_cast<std::uint64_t>(lo) << 32);
    }
}

namespace scalar {

void unpack_bits(unsigned bits, const std::uint32_t* words, std::uint8_t* q, std::size_t n) {
    const std::uint32_t mask = (1u << bits) - 1u;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits;
        const std::size_t w = static_cast<std::size_t>(bit / 32);
        const unsigned s = static_cast<unsigned>(bit % 32);
        std::uint32_t v = words[w] >> s;
        if (s + bits > 32) v |= words[w + 1] << (32 - s);  // a field straddling two words (3-bit)
        q[i] = static_cast<std::uint8_t>(v & mask);
    }
}

void extract_field(const std::uint32_t* words, unsigned shift, unsigned bits, std::uint8_t* q, std::size_t n) {
    const std::uint32_t mask = (1u << bits) - 1u;
    for (std::size_t i = 0; i < n; ++i) q[i] = static_cast<std::uint8_t>((words[i] >> shift) & mask);
}

void affine_const(const std::uint8_t* q, float zero, float scale, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float d = static_cast<float>(q[i]) - zero;
        y[i] = d * scale;
    }
}

void affine_gather(const std::uint8_t* q, const std::int32_t* g, const float* zero, const float* scale, float* y,
                   std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float d = static_cast<float>(q[i]) - zero[g[i]];
        y[i] = d * scale[g[i]];
    }
}

void lut4_scale(const std::uint8_t* packed, const std::uint64_t* pairs, float absmax, float* y, std::size_t nbytes) {
    for (std::size_t j = 0; j < nbytes; ++j) {
        float code[2];  // code[b >> 4], code[b & 15]
        std::memcpy(code, &pairs[packed[j]], 8);
        y[2 * j] = code[0] * absmax;
        y[2 * j + 1] = code[1] * absmax;
    }
}

void int8_row_scale(const std::int8_t* q, float scb, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float a = static_cast<float>(q[i]) * scb;
        y[i] = a * kInt8Inv127;
    }
}

}  // namespace scalar
}  // namespace amn::kernels::quant
