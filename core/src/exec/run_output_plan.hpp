// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file run_output_plan.hpp
/// Internal: the one runner of every write job (remember, forget to a
/// safetensors scheme, every GGUF job). It executes an OutputPlan into a
/// TensorSink whose tensors the policy has added:
///
///   sink.allocate() → per batch: [scheme steps: start, prepass chunks,
///   finish_prepass] → row chunks on the executor's threads (byte copies,
///   decode → encode → TensorSink::write, scheme encode, after_pass by the
///   worker finishing a weight's last chunk) → [finish] → before_commit()
///   → sink.commit()
///
/// Input pages are released behind the work; memory stays bounded (one
/// chunk buffer per worker; batches bound what scheme encoders hold whole).
/// Any error or a cancel leaves nothing at the output path: the sink is
/// aborted (its temporaries removed) before the error propagates.

#include "anamnesis/catalog.hpp"
#include "anamnesis/executor.hpp"
#include "exec/tensor_sink.hpp"
#include "exec/output_plan.hpp"
#include "kernels/common/loss_sums.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace amn::exec {

/// How to run a plan.
struct RunOptions {
    unsigned threads = 0;                  ///< 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;  ///< progress units per work unit (about)
    /// Batches: the tensors run in batches of about this many elements, in
    /// order, so that what scheme encoders hold whole is freed batch by
    /// batch; 0 = one batch.
    std::uint64_t batch_elems = 0;
    /// The batch size when a batch holds a tensor whose encoder needs a first
    /// pass (its input pages stay mapped between the passes).
    std::uint64_t prepass_batch_elems = 0;
    /// Called after the last tensor byte was written, before sink.commit()
    /// (companion files of the output set: config.json, tokenizer files).
    std::function<void()> before_commit;
};

/// What a run measured, per plan tensor.
struct RunResult {
    /// Round-trip error sums (EncodeType with a LossMode, scheme encoders),
    /// merged in row order: the same figures whatever the thread count.
    std::vector<detail::LossSums> loss;
    /// Bytes of a scheme encoder's tail tensor (SchemeEncoder::finish), else 0.
    std::vector<std::uint64_t> tail_bytes;
};

/// Execute `plan` into `sink` and commit it. Progress: units of the plan's
/// row_weight over every pass, in the order they run.
/// \throws what the sink throws (Error{OutputExists}, Error{Io} …);
///         Error{Cancelled}; any Error an encoder or recipe raises, naming
///         the tensor and `cat.path`. Nothing remains at the output path.
RunResult run_output_plan(const Catalog& cat, OutputPlan plan, TensorSink& sink, const RunOptions& opt,
                          const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace amn::exec
