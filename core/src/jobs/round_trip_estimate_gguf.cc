// SPDX-License-Identifier: MIT OR Apache-2.0
// "What Lethe took" for GGUF block types with an encoder
// (a RoundTripScheme of GgmlParams): every chunk of whole rows is
// quantized with ggml's no-imatrix quantizer of the tensor's own type
// (byte-exact, kernels/gguf/gguf_quantize.hpp), decoded again with the
// type's dequantizer, and compared with the values it came from.
#include "jobs/round_trip_estimate_internal.hpp"

#include "anamnesis/error.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/common/loss_sums.hpp"
#include "exec/row_pass.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace amn::detail {

std::string gguf_round_trip_unavailable(DType type) {
    const DTypeInfo* info = dtype_info(type);
    const std::string id = "gguf-" + dtype_name(type);
    if (!info || info->ggml_id < 0 || !info->to_f32) return "not measurable yet for " + id;
    if (kernels::gguf::requires_imatrix(info->ggml_id))
        return "not measurable for " + id + ": ggml quantizes it only with an importance matrix, which the file does not carry";
    if (!kernels::gguf::imatrix_encoder(info->ggml_id)) return "not measurable yet for " + id;
    return {};
}

RoundTripError measure_gguf_encoder(const LogicalTensor& t, DType type, std::string estimator, const ProgressFn& progress,
                                  const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    const Recipe& r = *t.recipe;
    const std::string why = gguf_round_trip_unavailable(type);
    if (!why.empty()) throw Error(ErrorCode::Usage, why, {}, t.name);
    const DTypeInfo& info = *dtype_info(type);
    const auto encode = kernels::gguf::imatrix_encoder(info.ggml_id);
    const std::uint64_t C = r.row_elems();
    if (C == 0 || C % info.block_elems != 0)
        throw Error(ErrorCode::Usage,
                    "a row of " + std::to_string(C) + " elements is not a whole number of " + dtype_name(type) +
                        " blocks (" + std::to_string(info.block_elems) + " elements)",
                    {}, t.name);
    const std::uint64_t blocks_per_row = C / info.block_elems;
    std::vector<float> buf, back;
    std::vector<std::uint8_t> bytes;
    LossSums sums;
    for_each_row_chunk(r, chunk_elems, buf, cancel, "measurement cancelled", progress, 0, r.rows(),
                       [&](std::uint64_t, std::uint64_t n, const float* v) {
                           const std::size_t elems = static_cast<std::size_t>(n * C);
                           const std::size_t nblocks = static_cast<std::size_t>(n * blocks_per_row);
                           bytes.resize(nblocks * info.block_bytes);
                           back.resize(elems);
                           encode(v, bytes.data(), static_cast<std::size_t>(n), static_cast<std::size_t>(C), nullptr);
                           info.to_f32(bytes.data(), back.data(), nblocks);
                           for (std::size_t i = 0; i < elems; ++i) sums.add(v[i], back[i]);
                       });
    return round_trip_measured(std::move(estimator), sums);
}

}  // namespace amn::detail
