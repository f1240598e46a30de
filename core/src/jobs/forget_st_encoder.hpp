// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the encoder object of a safetensors scheme for the runner
// (exec/scheme_encoder.hpp): a WeightQuantizer (forget_st_quant.hpp) with
// the choice, per chunk, between the stored BF16 bits as they are and the
// decoded values, and where the finite check of the input goes.

#include "anamnesis/forget_st.hpp"
#include "exec/scheme_encoder.hpp"
#include "jobs/forget_st_quant.hpp"

#include <cstdint>
#include <memory>

namespace amn::forget_st_internal {

class WeightEncoder final : public exec::SchemeEncoder {
public:
    /// R×C weight stored as `wdtype`, quantized to `scheme` (see WeightQuantizer).
    WeightEncoder(const QuantParams& scheme, std::uint64_t R, std::uint64_t C, DType wdtype, bool measure_loss);

    /// Chunks must start at a multiple of this many rows.
    std::uint64_t row_granularity() const noexcept { return q_.row_granularity(); }

    bool needs_prepass() const noexcept override { return q_.needs_prepass(); }
    bool needs_after_pass() const noexcept override { return q_.needs_after_pass(); }
    void start() override { q_.start(); }
    /// Max |x| per row or block from the stored BF16 bits when the quantizer
    /// can (no decode; input pages stay mapped for the second pass), else
    /// from the decoded values, checked finite.
    void prepass(exec::ChunkRows& rows) override;
    void finish_prepass() override { q_.finish_prepass(); }
    /// From the stored BF16 bits when the quantizer can, else from the
    /// decoded values: checked finite before encoding, or after it when the
    /// quantizer's loss flags a non-finite input (bitsandbytes 4-bit).
    void encode(exec::ChunkRows& rows, std::unique_ptr<exec::EncoderScratch>& scratch, const exec::SlotWriteFn& write,
                detail::LossSums& loss) override;
    void after_pass(const exec::SlotWriteFn& write) override { q_.after_pass(write); }
    std::uint64_t finish(const exec::SlotWriteFn& write, const exec::TailSetFn& tail) override {
        return q_.finish(write, tail);
    }

private:
    WeightQuantizer q_;
};

}  // namespace amn::forget_st_internal
