// SPDX-License-Identifier: MIT OR Apache-2.0
// write_safetensors_plan (safetensors_output.hpp): a safetensors output
// plan as the runner's plan (exec/run_output_plan.hpp) into the output set.
#include "jobs/safetensors_output.hpp"

#include "sink/safetensors_set.hpp"

namespace amn::detail {

SafetensorsWriteResult write_safetensors_plan(const Catalog& cat, SafetensorsOutputPlan plan, const SafetensorsRunOptions& opt,
                                              const ProgressFn& progress, const std::atomic<bool>* cancel) {
    plan.files.side_files.clear();
    for (const auto& f : plan.side_files) plan.files.side_files.push_back(f.first);
    const auto paths = plan_output_files(cat, plan.files);

    SafetensorsSet sink(paths, plan.files.force, std::move(plan.metadata), plan.order);
    const bool one_shard = sink.shard_count() == 1;
    for (const auto& t : plan.tensors) {
        const std::size_t s = one_shard ? 0 : t.shard;
        if (t.tail) sink.add_tail_tensor(s, t.name, t.dtype, 1, 20);
        else sink.add_tensor(s, t.name, t.dtype, t.shape);
    }
    if (plan.mlx_index_parameters) sink.set_mlx_index(*plan.mlx_index_parameters);

    exec::RunOptions run;
    run.threads = opt.threads;
    run.chunk_bytes = opt.chunk_bytes;
    run.batch_elems = plan.batch_elems;
    run.prepass_batch_elems = plan.prepass_batch_elems;
    run.before_commit = [&] {
        if (plan.config_json) sink.set_config_json(*plan.config_json);
        for (auto& [dst, text] : read_ancillary_files(cat, paths, plan.files.force, plan.side_files)) sink.add_file(dst, std::move(text));
    };
    SafetensorsWriteResult res;
    res.run = exec::run_output_plan(cat, std::move(plan.run), sink, run, progress, cancel);
    res.files = sink.files();
    for (std::size_t s = 0; s < sink.shard_count(); ++s) res.file_bytes += sink.file_size(s);
    return res;
}

}  // namespace amn::detail
