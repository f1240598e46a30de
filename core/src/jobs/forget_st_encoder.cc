// SPDX-License-Identifier: MIT OR Apache-2.0
// The runner's steps of every safetensors scheme's WeightEncoder
// (forget_st_encoder.hpp): which rows a scheme reads (the stored BF16 bits
// or the decoded values) and where the finite check of the input goes.
#include "jobs/forget_st_encoder.hpp"

#include "exec/chunk_rows.hpp"

#include <cmath>

namespace amn::forget_st_internal {

void WeightEncoder::prepass(exec::ChunkRows& rows) {
    // FP8 per tensor / double quant of a BF16 weight: max |x| per row or block from
    // the stored bits (no decode); a non-finite value goes the decoding way to its
    // named error. The input pages stay mapped for the second pass (which releases them).
    if (const std::uint16_t* in = has_bf16_prepass() ? rows.stored_bf16() : nullptr;
        in && prepass_bf16(in, rows.row0(), rows.nrows()))
        return;
    prepass_f32(rows.decode(true, false), rows.row0(), rows.nrows());
}

void WeightEncoder::encode(exec::ChunkRows& rows, std::unique_ptr<exec::EncoderScratch>& scratch,
                           const exec::SlotWriteFn& write, detail::LossSums& loss) {
    if (!scratch) scratch = std::make_unique<QuantScratch>();
    QuantScratch& s = static_cast<QuantScratch&>(*scratch);
    // A stored BF16 weight the scheme reads as it is (no decode); a
    // non-finite value goes the decoding way to its named error.
    if (const std::uint16_t* in = has_bf16_encode() ? rows.stored_bf16() : nullptr;
        in && encode_bf16(in, rows.row0(), rows.nrows(), s, write, loss)) {
        rows.release();
        return;
    }
    // A first pass checked these rows already; a scheme whose loss flags a
    // non-finite input is checked after encoding, and only when it does.
    const bool after = !needs_prepass() && loss_flags_nonfinite();
    const float* x = rows.decode(!needs_prepass() && !after, true);
    encode_f32(x, rows.row0(), rows.nrows(), s, write, loss);
    // What was written for these rows is in the temporary file only: an error
    // here removes it with the rest.
    if (after && (!std::isfinite(loss.sx2) || loss.nonfinite)) rows.check_finite();
}

}  // namespace amn::forget_st_internal
