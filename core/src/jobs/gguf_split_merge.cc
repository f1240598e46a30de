// SPDX-License-Identifier: MIT OR Apache-2.0
// Merge a split GGUF or cut a GGUF into parts without re-encoding
// (gguf_split.hpp): llama-gguf-split's --merge and --split, as a GGUF output
// plan of stored bytes copied (CopyStored), written by write_gguf_plan.
#include "anamnesis/gguf_split.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "plan/gguf_parts.hpp"
#include "jobs/gguf_output.hpp"
#include "sink/output_files.hpp"

#include <filesystem>

namespace amn {
namespace {
namespace fs = std::filesystem;

// Part 1's key/values as stored: the model's with the split keys back in their places.
std::vector<MetaKv> first_part_kvs(const Catalog& cat) {
    std::vector<MetaKv> out;
    out.reserve(cat.metadata.size() + cat.gguf_split_kvs.size());
    std::size_t m = 0;
    for (const auto& [pos, kv] : cat.gguf_split_kvs) {
        while (out.size() < pos && m < cat.metadata.size()) out.push_back(cat.metadata[m++]);
        out.push_back(kv);
    }
    while (m < cat.metadata.size()) out.push_back(cat.metadata[m++]);
    return out;
}

struct Built {
    detail::GgufOutputPlan plan;
    std::string path;  // the merged file, or the prefix of the parts
};

Built build(const Catalog& cat, const GgufSplitJobOptions& opt) {
    if (cat.format != Format::Gguf)
        throw Error(ErrorCode::Usage, "merging and splitting take a GGUF; a Hugging Face folder converts with --to gguf[:TYPE] "
                                      "(--split-max-size and --split-max-tensors split its output)", cat.path);
    if (opt.split.keep_split)
        throw Error(ErrorCode::Usage, "--keep-split is llama-quantize's (amn forget … --keep-split); merging or splitting "
                                      "copies the tensors as they are");
    if (cat.gguf_big_endian)
        throw Error(ErrorCode::Unsupported, "a big-endian GGUF: llama-gguf-split copies it as it is, which llama.cpp on this "
                                            "machine cannot read; remember it or forget it to a little-endian file instead", cat.path);
    if (const MetaValue* a = cat.meta("general.alignment"); a && a->bits != 32)
        throw Error(ErrorCode::Unsupported,
                    "general.alignment is " + std::to_string(a->bits) +
                        ": llama-gguf-split pads tensor data to 32 bytes whatever the file says, so it cannot split or "
                        "merge this file consistently",
                    cat.path);
    const bool merge = !opt.split.any();
    if (merge && cat.shards.size() < 2)
        throw Error(ErrorCode::Usage,
                    "is one file, not a split set: there is nothing to merge (--split-max-size or --split-max-tensors "
                    "cut it into parts)",
                    cat.path);

    Built b;
    for (const auto& t : cat.tensors) {
        if (!dtype_info(t.dtype) || dtype_info(t.dtype)->ggml_id < 0)
            throw Error(ErrorCode::Unsupported, t.dtype_name + " is not a type this version can write", cat.path, t.name);
        detail::GgufOutputTensor o;
        o.info.name = t.name;
        o.info.shape = t.shape;
        o.info.source = o.info.target = t.dtype;
        o.info.numel = t.numel();
        o.info.bytes = t.nbytes;
        o.info.copied = true;
        o.stored = &t;
        b.plan.tensors.push_back(std::move(o));
    }
    if (merge) {
        // gguf_merge: part 1's split.count set to 0 (moved to the end), then
        // every key/value copied into the new file.
        std::vector<MetaKv> kvs = first_part_kvs(cat);
        gguf_set_kv(kvs, std::string(kGgufSplitCount), MetaValue::u16(0));
        b.plan.kvs = ggml_copy_kvs(kvs);
        b.path = opt.output.empty() ? gguf_unsplit_path(cat) : opt.output;
        detail::refuse_input_as_output(cat, b.path);
        return b;
    }
    b.plan.kvs = cat.metadata;  // split_strategy copies the input's key/values into part 1
    b.path = detail::gguf_part_prefix(opt.output.empty() ? gguf_unsplit_path(cat) : opt.output);
    std::vector<detail::GgufPartTensor> ts;
    ts.reserve(b.plan.tensors.size());
    for (const auto& t : b.plan.tensors) ts.push_back({t.info.name, t.info.bytes, 0});
    try {
        b.plan.parts = detail::cut_gguf_parts(detail::GgufPartRule::GgufSplit, opt.split, b.plan.kvs, ts, b.path, 0);
    } catch (const Error& e) {
        throw e.with_file(cat.path);
    }
    for (const auto& p : b.plan.parts) detail::refuse_input_as_output(cat, p.path);
    return b;
}

}  // namespace

std::vector<GgufOutputFile> plan_split_merge_gguf(const Catalog& cat, const GgufSplitJobOptions& opt,
                                                  std::vector<ForgetTensor>* tensors) {
    Built b = build(cat, opt);
    auto files = detail::gguf_plan_files(b.plan, b.path);
    if (tensors) *tensors = detail::take_planned_tensors(b.plan);
    return files;
}

GgufWriteResult split_merge_gguf(const Catalog& cat, const GgufSplitJobOptions& opt, const ProgressFn& progress,
                                  const std::atomic<bool>* cancel) {
    Built b = build(cat, opt);
    detail::GgufRunOptions run;
    run.path = b.path;
    run.force = opt.force;
    run.threads = opt.threads;
    run.measure_loss = false;
    return detail::write_gguf_plan(cat, std::move(b.plan), run, progress, cancel);
}

}  // namespace amn
