// SPDX-License-Identifier: MIT OR Apache-2.0
// bitsandbytes LLM.int8 weight quantizer of st_quantize.hpp
// (`Int8Params._quantize` → `int8_vectorwise_quant`, default torch backend,
// threshold 0). Scalar reference.
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>
#include <cmath>

namespace amn::st {

Int8Result quantize_bnb_int8(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype) {
    const auto [R, C] = detail::check_weight("bitsandbytes LLM.int8", w, shape, wdtype);
    Int8Result res;
    res.q.resize(R * C);
    res.scb.resize(R);
    std::vector<float> w16(C);
    for (std::size_t r = 0; r < R; ++r) {
        // The weight is cast to F16 first (RNE; |x| ≥ 65520 → ±inf, tiny → 0).
        float amax = 0.0f;
        for (std::size_t c = 0; c < C; ++c) {
            w16[c] = kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(w[r * C + c]));
            amax = std::max(amax, std::fabs(w16[c]));
        }
        res.scb[r] = amax;  // max|w16| in F16, widened exactly
        // 127.0 / SCB is SCB.reciprocal() * 127 in torch: two roundings.
        const float scale = (1.0f / amax) * 127.0f;
        for (std::size_t c = 0; c < C; ++c) {
            const float p = w16[c] * scale;  // F16 × F32 → F32
            // NaN (0·inf in rows with SCB 0 or inf) → 0, as torch's CPU cast gives.
            res.q[r * C + c] = std::isnan(p) ? std::int8_t(0) : std::int8_t(std::nearbyint(p));
        }
    }
    return res;
}

}  // namespace amn::st
