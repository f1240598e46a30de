// SPDX-License-Identifier: MIT OR Apache-2.0
// bitsandbytes LLM.int8 weight quantizer of st_quantize.hpp
// (`Int8Params._quantize` → `int8_vectorwise_quant`, default torch backend,
// threshold 0), on the row-chunk kernels (st_kernels.hpp).
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace amn::st {

Int8Result quantize_bnb_int8(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype) {
    const auto [R, C] = detail::check_weight("bitsandbytes LLM.int8", w, shape, wdtype);
    Int8Result res;
    res.q.resize(R * C);
    res.scb.resize(R);
    const auto& k = kernels::st::st_kernels();
    for (std::size_t r = 0; r < R; ++r) k.int8_row(w.data() + r * C, C, res.q.data() + r * C, &res.scb[r], nullptr);
    return res;
}

}  // namespace amn::st
