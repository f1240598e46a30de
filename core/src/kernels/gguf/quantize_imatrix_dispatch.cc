// SPDX-License-Identifier: MIT OR Apache-2.0
// imatrix_encoder / requires_imatrix (gguf_quantize.hpp): what
// ggml_quantize_chunk runs per type when given an importance matrix, and
// what it runs with NULL.
#include "anamnesis/dtype.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/gguf/quantize_imatrix.hpp"

namespace amn::kernels::gguf {

namespace {

// Without an imatrix ggml quantizes block by block: the block encoder over
// all the rows at once (the dispatched one; it equals the scalar reference).
template <int Id>
void blockwise(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float*) {
    const DTypeInfo* info = dtype_info(dtype_from_ggml_id(Id));
    best_encoder(Id)(src, dst, nrows * n_per_row / info->block_elems);
}

// ggml's `if (!quant_weights) <ref> else <impl per row>`.
template <int Id, ImatrixEncoder Impl>
void ref_or_impl(const float* src, std::uint8_t* dst, std::size_t nrows, std::size_t n_per_row, const float* imatrix) {
    if (imatrix)
        Impl(src, dst, nrows, n_per_row, imatrix);
    else
        blockwise<Id>(src, dst, nrows, n_per_row, nullptr);
}

struct Entry {
    int id;
    ImatrixEncoder encode;
};

constexpr Entry kEntries[] = {
    {2, ref_or_impl<2, imat::quantize_q4_0>},     {3, ref_or_impl<3, imat::quantize_q4_1>},
    {6, ref_or_impl<6, imat::quantize_q5_0>},     {7, ref_or_impl<7, imat::quantize_q5_1>},
    {8, blockwise<8>},                            {10, ref_or_impl<10, imat::quantize_q2_K>},
    {11, ref_or_impl<11, imat::quantize_q3_K>},   {12, ref_or_impl<12, imat::quantize_q4_K>},
    {13, ref_or_impl<13, imat::quantize_q5_K>},   {14, ref_or_impl<14, imat::quantize_q6_K>},
    {16, imat::quantize_iq2_xxs},                 {17, imat::quantize_iq2_xs},
    {18, imat::quantize_iq3_xxs},                 {19, imat::quantize_iq1_s},
    {20, ref_or_impl<20, imat::quantize_iq4_nl>}, {21, imat::quantize_iq3_s},
    {22, imat::quantize_iq2_s},                   {23, ref_or_impl<23, imat::quantize_iq4_xs>},
    {29, imat::quantize_iq1_m},                   {34, blockwise<34>},
    {35, blockwise<35>},                          {39, blockwise<39>},
    {40, blockwise<40>},                          {41, blockwise<41>},
    {42, blockwise<42>},
};

}  // namespace

ImatrixEncoder imatrix_encoder(int ggml_id) noexcept {
    for (const auto& e : kEntries)
        if (e.id == ggml_id) return e.encode;
    return nullptr;
}

bool requires_imatrix(int ggml_id) noexcept { return ggml_id == 16 || ggml_id == 17 || ggml_id == 19; }

}  // namespace amn::kernels::gguf
