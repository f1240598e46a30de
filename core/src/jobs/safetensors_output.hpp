// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the safetensors output plan, and write_safetensors_plan() that
// hands it to the one runner (exec/run_output_plan.hpp) with the output set
// (sink/safetensors_set.hpp). The wiring of every safetensors job (jobs/: it
// reaches plan, exec and sink), as gguf_output.hpp is for the GGUF jobs.
//
// Remember (dequantize to BF16/F16/F32, remember.cc) and forget to a
// safetensors scheme (forget_st.cc, MLX's layout included) are policies
// that build a SafetensorsOutputPlan: where the set goes, the tensors of
// the set in the order its writers add them with the shard each goes to
// (the tensor cut), the runner's tensors that fill them, config.json and
// the files copied beside. write_safetensors_plan() decides the paths,
// creates the set, runs the plan and commits everything together.
#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/executor.hpp"
#include "exec/output_plan.hpp"
#include "exec/run_output_plan.hpp"
#include "sink/output_files.hpp"
#include "sink/safetensors_writer.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace amn::detail {

/// One tensor of the output set.
struct SafetensorsOutputTensor {
    /// The output shard: with OutputFilesOptions::shards unset, the input
    /// shard it comes from (one output shard per input shard); any value
    /// means shard 0 when the set has one shard.
    std::size_t shard = 0;
    std::string name;
    DType dtype = DType::Unknown;
    std::vector<std::uint64_t> shape;  ///< row-major; ignored for a tail tensor
    /// A rank-1 tensor whose shape and bytes its scheme encoder gives at the
    /// end (SchemeEncoder::finish: bitsandbytes' quant_state, …).
    bool tail = false;
};

/// Everything a safetensors output set holds, decided before any byte is
/// written.
struct SafetensorsOutputPlan {
    /// Where: output (never empty), force, config.json, the shard count
    /// (unset: one per input shard) and index.json rule. Its side_files
    /// names are filled from `side_files`.
    OutputFilesOptions files;
    std::vector<std::pair<std::string, std::string>> metadata;  ///< every shard's `__metadata__`, in order
    SafetensorsWriter::DataOrder order = SafetensorsWriter::DataOrder::AsAdded;
    /// The set's tensors in the order they are added to the writers; a
    /// runner tensor's `sink_tensors` are indices into this list.
    std::vector<SafetensorsOutputTensor> tensors;
    /// The runner's plan: the tensors in the order they run.
    exec::OutputPlan run;
    /// Batches (exec::RunOptions::batch_elems / prepass_batch_elems; 0 = one batch).
    std::uint64_t batch_elems = 0;
    std::uint64_t prepass_batch_elems = 0;
    /// config.json's text (validated), written when the paths have one.
    std::optional<std::string> config_json;
    /// (name, text) files written into the output folder (read_ancillary_files()).
    std::vector<std::pair<std::string, std::string>> side_files;
    /// Set: index.json as mlx-lm writes it, with this total_parameters
    /// (SafetensorsSet::set_mlx_index).
    std::optional<std::uint64_t> mlx_index_parameters;
};

/// How to run it.
struct SafetensorsRunOptions {
    unsigned threads = 0;                  ///< 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;  ///< progress units per work unit (about)
};

struct SafetensorsWriteResult {
    std::vector<std::string> files;  ///< put in place: shards, index.json, config.json, other files
    std::uint64_t file_bytes = 0;    ///< bytes of the shards (headers and tail tensors included)
    exec::RunResult run;             ///< per runner tensor: loss sums, tail bytes
};

/// Decide the paths of `plan.files` (plan_output_files()), create the set,
/// add `plan.tensors`, run `plan.run`, then read the files copied beside
/// (`side_files`, the tokenizer and generation files: read_ancillary_files())
/// and commit the whole set — all in place, or (on any failure) none.
/// \throws Error{Usage} (an output is an input), Error{OutputExists},
///         Error{Io} from the paths and the set; Error{Cancelled}; any Error
///         a recipe or encoder raises, naming the tensor and `cat.path`.
///         Nothing remains at the output path.
SafetensorsWriteResult write_safetensors_plan(const Catalog& cat, SafetensorsOutputPlan plan, const SafetensorsRunOptions& opt,
                                              const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace amn::detail
