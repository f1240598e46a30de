// SPDX-License-Identifier: MIT OR Apache-2.0
#include "jobs/forget_st_encoder.hpp"

#include "exec/chunk_rows.hpp"

#include <cmath>

namespace amn::forget_st_internal {
namespace {

struct Scratch final : exec::EncoderScratch {
    QuantScratch q;
};

}  // namespace

WeightEncoder::WeightEncoder(const QuantParams& scheme, std::uint64_t R, std::uint64_t C, DType wdtype, bool measure_loss)
    : q_(scheme, R, C, wdtype, nullptr, measure_loss) {}

void WeightEncoder::prepass(exec::ChunkRows& rows) {
    // FP8 per tensor / double quant of a BF16 weight: max |x| per row or block from
    // the stored bits (no decode); a non-finite value goes the decoding way to its
    // named error. The input pages stay mapped for the second pass (which releases them).
    if (const std::uint16_t* in = q_.has_bf16_prepass() ? rows.stored_bf16() : nullptr;
        in && q_.prepass_bf16(in, rows.row0(), rows.nrows()))
        return;
    q_.prepass(rows.decode(true, false), rows.row0(), rows.nrows());
}

void WeightEncoder::encode(exec::ChunkRows& rows, std::unique_ptr<exec::EncoderScratch>& scratch,
                           const exec::SlotWriteFn& write, detail::LossSums& loss) {
    if (!scratch) scratch = std::make_unique<Scratch>();
    QuantScratch& s = static_cast<Scratch&>(*scratch).q;
    // A stored BF16 weight the quantizer reads as it is (no decode); a
    // non-finite value goes the decoding way to its named error.
    if (const std::uint16_t* in = q_.has_bf16_encode() ? rows.stored_bf16() : nullptr;
        in && q_.encode_bf16(in, rows.row0(), rows.nrows(), s, write, loss)) {
        rows.release();
        return;
    }
    // A first pass checked these rows already; a quantizer whose loss flags a
    // non-finite input is checked after encoding, and only when it does.
    const bool after = !q_.needs_prepass() && q_.loss_flags_nonfinite();
    const float* x = rows.decode(!q_.needs_prepass() && !after, true);
    q_.encode(x, rows.row0(), rows.nrows(), s, write, loss);
    // What was written for these rows is in the temporary file only: an error
    // here removes it with the rest.
    if (after && (!std::isfinite(loss.sx2) || loss.nonfinite)) rows.check_finite();
}

}  // namespace amn::forget_st_internal
