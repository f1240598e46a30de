// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file scheme_encoder.hpp
/// Internal: the encoder object of a safetensors scheme (bitsandbytes,
/// compressed-tensors, FP8, …) as the runner (run_output_plan.hpp) drives it.
/// A scheme writes several output tensors for one weight (payload and
/// companions) and may need the whole weight before or after its row chunks;
/// those needs are steps of the encoder, in this order per weight:
///
///   start() → prepass() × chunks → finish_prepass()     (when needs_prepass())
///           → encode() × chunks → after_pass()          (when needs_after_pass())
///           → finish()
///
/// prepass() and encode() chunks run concurrently on any worker; the other
/// steps run once per weight (different weights concurrently).

#include "kernels/common/loss_sums.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace amn::exec {

class ChunkRows;

/// Write `bytes` at byte `offset` of the weight's output tensor `slot`
/// (0 = payload, then the companions in the scheme's order).
using SlotWriteFn = std::function<void(std::size_t slot, std::uint64_t offset, std::span<const std::uint8_t> bytes)>;
/// Give the weight's tail output tensor `slot` (a tensor whose length is known
/// only after quantizing, e.g. bitsandbytes' quant_state) its bytes.
using TailSetFn = std::function<void(std::size_t slot, std::span<const std::uint8_t> bytes)>;

/// Buffers a worker keeps from one chunk to the next. The runner keeps one
/// per worker and hands it to every scheme encoder that worker runs: it is
/// made (when null) by the first of them, so the encoders of one plan must
/// use one scratch type.
struct EncoderScratch {
    virtual ~EncoderScratch() = default;
};

class SchemeEncoder {
public:
    virtual ~SchemeEncoder() = default;

    /// True when prepass() must see every row before the first encode().
    virtual bool needs_prepass() const noexcept = 0;
    /// True when after_pass() must run between the last encode() and finish().
    virtual bool needs_after_pass() const noexcept = 0;

    /// Allocate what the encoder holds whole; once, before any other step.
    virtual void start() = 0;
    /// First pass over the chunk's rows (reading them through `rows`).
    virtual void prepass(ChunkRows& rows) = 0;
    /// After every prepass(): the weight-wide values.
    virtual void finish_prepass() = 0;
    /// Encode the chunk's rows: write their slices through `write`, add
    /// their round-trip error to `loss`. `scratch`: see EncoderScratch.
    virtual void encode(ChunkRows& rows, std::unique_ptr<EncoderScratch>& scratch, const SlotWriteFn& write,
                        detail::LossSums& loss) = 0;
    /// After the weight's last encode(): what the chunks recorded, made whole.
    virtual void after_pass(const SlotWriteFn& write) = 0;
    /// The whole-weight outputs. Returns the bytes given to `tail` (0 if none).
    virtual std::uint64_t finish(const SlotWriteFn& write, const TailSetFn& tail) = 0;
};

}  // namespace amn::exec
