// SPDX-License-Identifier: MIT OR Apache-2.0
// Encoder lookup by ggml type id. A type's dispatched entry point is its
// Highway version (quantize_simd_*.cc).
#include "kernels/gguf/gguf_quantize.hpp"

namespace amn::kernels::gguf {

#define AMN_FORWARD(ns, name) \
    void quantize_##name(const float* src, std::uint8_t* dst, std::size_t n_blocks) { \
        ns::quantize_##name(src, dst, n_blocks);                                      \
    }
#define AMN_SIMD(name) AMN_FORWARD(simd, name)
AMN_GGUF_SIMD_ENCODERS(AMN_SIMD)
#undef AMN_SIMD
#undef AMN_FORWARD

namespace {
struct Entry { int id; Encoder scalar; Encoder best; };
// Every type has a Highway version; the scalar reference is kept for the tests.
constexpr Entry kEntries[] = {
    {2, scalar::quantize_q4_0, quantize_q4_0},     {3, scalar::quantize_q4_1, quantize_q4_1},
    {6, scalar::quantize_q5_0, quantize_q5_0},     {7, scalar::quantize_q5_1, quantize_q5_1},
    {8, scalar::quantize_q8_0, quantize_q8_0},     {10, scalar::quantize_q2_K, quantize_q2_K},
    {11, scalar::quantize_q3_K, quantize_q3_K},    {12, scalar::quantize_q4_K, quantize_q4_K},
    {13, scalar::quantize_q5_K, quantize_q5_K},    {14, scalar::quantize_q6_K, quantize_q6_K},
    {20, scalar::quantize_iq4_nl, quantize_iq4_nl}, {23, scalar::quantize_iq4_xs, quantize_iq4_xs},
    {34, scalar::quantize_tq1_0, quantize_tq1_0},  {35, scalar::quantize_tq2_0, quantize_tq2_0},
    {39, scalar::quantize_mxfp4, quantize_mxfp4},  {40, scalar::quantize_nvfp4, quantize_nvfp4},
    {41, scalar::quantize_q1_0, quantize_q1_0},    {42, scalar::quantize_q2_0, quantize_q2_0},
};
const Entry* find(int id) noexcept {
    for (const auto& e : kEntries)
        if (e.id == id) return &e;
    return nullptr;
}
}  // namespace

Encoder scalar_encoder(int ggml_id) noexcept {
    const Entry* e = find(ggml_id);
    return e ? e->scalar : nullptr;
}
Encoder best_encoder(int ggml_id) noexcept {
    const Entry* e = find(ggml_id);
    return e ? e->best : nullptr;
}
bool has_simd_encoder(int ggml_id) noexcept {
    const Entry* e = find(ggml_id);
    return e && e->best != e->scalar;
}

}  // namespace amn::kernels::gguf
