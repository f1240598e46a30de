// SPDX-License-Identifier: MIT OR Apache-2.0
// ggml block types: name, block size and bytes per block as in ggml's type
// traits (ggml-common.h block structs, ggml.h `enum ggml_type` up to
// GGML_TYPE_Q2_0 = 42), each with its dequantizer from
// core/src/kernels/gguf/ (bit-exact with ggml's dequantize_row_*).
// Ids 4, 5 (Q4_2, Q4_3), 31–33 (Q4_0_4_4 …) and 36–38 (IQ4_NL_4_4 …) were
// removed from ggml and are not valid in GGUF files; they stay unregistered,
// so a tensor of such a type is listed as "ggml type N" and not converted.
#include "ggml_types.hpp"

#include "kernels/gguf/gguf_kernels.hpp"

namespace amn::detail {
namespace {
namespace k = amn::kernels::gguf;
constexpr DTypeInfo kGgml[] = {
    {DType::Q4_0, "Q4_0", 32, 18, true, true, 2, k::dequantize_q4_0},
    {DType::Q4_1, "Q4_1", 32, 20, true, true, 3, k::dequantize_q4_1},
    {DType::Q5_0, "Q5_0", 32, 22, true, true, 6, k::dequantize_q5_0},
    {DType::Q5_1, "Q5_1", 32, 24, true, true, 7, k::dequantize_q5_1},
    {DType::Q8_0, "Q8_0", 32, 34, true, true, 8, k::dequantize_q8_0},
    {DType::Q8_1, "Q8_1", 32, 36, true, true, 9, k::dequantize_q8_1},
    {DType::Q2_K, "Q2_K", 256, 84, true, true, 10, k::dequantize_q2_K},
    {DType::Q3_K, "Q3_K", 256, 110, true, true, 11, k::dequantize_q3_K},
    {DType::Q4_K, "Q4_K", 256, 144, true, true, 12, k::dequantize_q4_K},
    {DType::Q5_K, "Q5_K", 256, 176, true, true, 13, k::dequantize_q5_K},
    {DType::Q6_K, "Q6_K", 256, 210, true, true, 14, k::dequantize_q6_K},
    {DType::Q8_K, "Q8_K", 256, 292, true, true, 15, k::dequantize_q8_K},
    {DType::IQ2_XXS, "IQ2_XXS", 256, 66, true, true, 16, k::dequantize_iq2_xxs},
    {DType::IQ2_XS, "IQ2_XS", 256, 74, true, true, 17, k::dequantize_iq2_xs},
    {DType::IQ3_XXS, "IQ3_XXS", 256, 98, true, true, 18, k::dequantize_iq3_xxs},
    {DType::IQ1_S, "IQ1_S", 256, 50, true, true, 19, k::dequantize_iq1_s},
    {DType::IQ4_NL, "IQ4_NL", 32, 18, true, true, 20, k::dequantize_iq4_nl},
    {DType::IQ3_S, "IQ3_S", 256, 110, true, true, 21, k::dequantize_iq3_s},
    {DType::IQ2_S, "IQ2_S", 256, 82, true, true, 22, k::dequantize_iq2_s},
    {DType::IQ4_XS, "IQ4_XS", 256, 136, true, true, 23, k::dequantize_iq4_xs},
    {DType::IQ1_M, "IQ1_M", 256, 56, true, true, 29, k::dequantize_iq1_m},
    {DType::TQ1_0, "TQ1_0", 256, 54, true, true, 34, k::dequantize_tq1_0},
    {DType::TQ2_0, "TQ2_0", 256, 66, true, true, 35, k::dequantize_tq2_0},
    {DType::MXFP4, "MXFP4", 32, 17, true, true, 39, k::dequantize_mxfp4},
    {DType::NVFP4, "NVFP4", 64, 36, true, true, 40, k::dequantize_nvfp4},
    {DType::Q1_0, "Q1_0", 128, 18, true, true, 41, k::dequantize_q1_0},
    {DType::Q2_0, "Q2_0", 64, 18, true, true, 42, k::dequantize_q2_0},
};
}  // namespace

std::span<const DTypeInfo> ggml_type_rows() noexcept { return kGgml; }

}  // namespace amn::detail
