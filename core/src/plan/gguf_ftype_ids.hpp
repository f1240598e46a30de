// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// llama_ftype ids (llama.h `enum llama_ftype`), shared by the file-type
// table (gguf_ftype_names.cc) and llama-quantize's type choice (gguf_ftype.cc).

#include <cstdint>

namespace amn::detail::ftype {

enum Ft : std::uint32_t {
    ALL_F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q4_1_SOME_F16 = 4, Q8_0 = 7, Q5_0 = 8, Q5_1 = 9, Q2_K = 10,
    Q3_K_S = 11, Q3_K_M = 12, Q3_K_L = 13, Q4_K_S = 14, Q4_K_M = 15, Q5_K_S = 16, Q5_K_M = 17, Q6_K = 18,
    IQ2_XXS = 19, IQ2_XS = 20, Q2_K_S = 21, IQ3_XS = 22, IQ3_XXS = 23, IQ1_S = 24, IQ4_NL = 25, IQ3_S = 26,
    IQ3_M = 27, IQ2_S = 28, IQ2_M = 29, IQ4_XS = 30, IQ1_M = 31, BF16 = 32, TQ1_0 = 36, TQ2_0 = 37,
    MXFP4_MOE = 38, NVFP4 = 39, Q1_0 = 40, Q2_0 = 41,
};

}  // namespace amn::detail::ftype
