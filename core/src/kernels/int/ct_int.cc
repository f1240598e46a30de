// SPDX-License-Identifier: MIT OR Apache-2.0
// compressed-tensors INT4/INT8 weight quantizer (`pack-quantized`: W4A16,
// W4A16_ASYM, W8A16, W8A16_ASYM, group or channel) of st_quantize.hpp.
// On the row-chunk kernels (st_kernels.hpp), in the order of compressed-tensors 0.18 `calculate_qparams`
// and `_quantize`, every operation rounded to the weight dtype.
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace amn::st {

using detail::round_to;

PackedIntResult quantize_ct_int(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                                unsigned bits, bool symmetric, unsigned group_size) {
    const auto [R, C] = detail::check_weight("compressed-tensors INT", w, shape, wdtype);
    if (bits != 4 && bits != 8)
        throw Error(ErrorCode::Usage, "compressed-tensors INT: bits must be 4 or 8, not " + std::to_string(bits));
    if (group_size != 0 && C % group_size != 0)
        throw Error(ErrorCode::Usage, "compressed-tensors INT: group size " + std::to_string(group_size) +
                                          " does not divide the " + std::to_string(C) + " columns");
    const std::size_t gs = group_size == 0 ? C : group_size;
    const std::size_t G = C / gs;  // scale entries per row

    // calculate_range: qmin = −2^(bits−1), qmax = 2^(bits−1) − 1.
    const float qmin = -float(1u << (bits - 1));
    const float qmax = float((1u << (bits - 1)) - 1);

    PackedIntResult res;
    res.scale_dtype = wdtype;
    res.scale_shape = {R, G};
    res.scale.resize(R * G);
    res.weight_shape = {std::int64_t(R), std::int64_t(C)};
    std::vector<std::int8_t> zp(R * G, 0);
    res.q.resize(R * C);
    const auto& k = kernels::st::st_kernels();
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t g = 0; g < G; ++g) {
            const float* x = w.data() + r * C + g * gs;
            float mn, mx, s;
            std::int8_t z;
            k.minmax(x, gs, &mn, &mx);
            detail::ct_int_qparams(mn, mx, bits, symmetric, wdtype, s, z);
            res.scale[r * G + g] = s;
            zp[r * G + g] = z;
            // _quantize: x / scale, + zp (0 when symmetric), clamp, round half to even.
            k.int_encode(x, gs, s, float(z), qmin, qmax, wdtype, res.q.data() + r * C + g * gs, nullptr);
        }

    // pack_to_int32 along dim 1.
    res.packed_cols = (C * bits + 31) / 32;
    res.packed.resize(R * res.packed_cols);
    for (std::size_t r = 0; r < R; ++r)
        k.pack_int(res.q.data() + r * C, C, bits, res.packed.data() + r * res.packed_cols);

    if (!symmetric) {
        // weight_zero_point: int8 [R, G] packed down dim 0 → [⌈R·bits/32⌉, G].
        const std::size_t zrows = (R * bits + 31) / 32;
        res.zero_point_packed_shape = {zrows, G};
        res.zero_point_packed.resize(zrows * G);
        for (std::size_t g = 0; g < G; ++g)
            detail::pack_int32(zp.data() + g, R, G, bits, res.zero_point_packed.data() + g, G);
        res.zero_point = std::move(zp);
    }
    return res;
}

}  // namespace amn::st
