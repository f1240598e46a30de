// SPDX-License-Identifier: MIT OR Apache-2.0
// write_gguf_plan (gguf_output.hpp): a GGUF output plan as the runner's
// plan (exec/run_output_plan.hpp) into a GgufWriter.
#include "jobs/gguf_output.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "sink/gguf_set.hpp"
#include "sink/gguf_writer.hpp"
#include "exec/run_output_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <optional>

namespace amn::detail {

GgufSource gguf_catalog_source(const Catalog& cat, const Plan& plan) {
    GgufSource src;
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
    src.kvs = gguf_read_kvs(cat);
    src.tensors.reserve(plan.tensors.size());
    for (const auto& lt : plan.tensors) {
        const TensorInfo& stored = cat.tensors.at(lt.sources.at(0));
        src.tensors.push_back({lt.name, lt.shape, stored.dtype, lt.recipe, &stored, nullptr, lt.quantized});
    }
    return src;
}

std::vector<GgufWarning> converter_log(std::vector<std::string> messages) {
    std::vector<GgufWarning> out(messages.size());
    for (std::size_t i = 0; i < messages.size(); ++i) out[i].detail = std::move(messages[i]);  // kind ConverterLog
    return out;
}

std::string beside_folder(const std::string& dir, const std::string& file_name) {
    std::filesystem::path folder = std::filesystem::path(dir).lexically_normal();
    if (!folder.has_filename()) folder = folder.parent_path();
    std::filesystem::path parent = folder.parent_path();
    if (parent.empty()) parent = ".";
    return (parent / file_name).string();
}

GgufOutputTensor converter_output_tensor(const Catalog& cat, std::string name, std::vector<std::uint64_t> shape, DType target,
                                         DType source, DType outtype) {
    GgufOutputTensor o;
    o.info.numel = 1;
    for (auto d : shape) o.info.numel *= d;
    const auto bytes = dtype_bytes(target, o.info.numel);
    if (!bytes) throw Error(ErrorCode::SizeMismatch, "not a whole number of " + dtype_name(target) + " blocks", cat.path, name);
    o.info.name = std::move(name);
    o.info.shape = std::move(shape);
    o.info.target = target;
    o.info.source = source;
    o.info.bytes = *bytes;
    GgufTypeReason& why = o.info.gguf_reason.emplace();
    why.rule = target == outtype ? TypeRule::ConverterOuttype : TypeRule::ConverterKept;
    why.chosen = target;
    o.info.copied = false;
    return o;
}

std::vector<GgufOutputFile> gguf_plan_files(const GgufOutputPlan& p, const std::string& path) {
    std::vector<GgufOutputFile> out;
    auto size_of = [&](const std::string& file, const std::vector<MetaKv>& kvs, std::size_t first, std::size_t n) {
        GgufWriter w(file);
        w.set_kvs(kvs);
        w.set_pad_without_tensors(p.pad_without_tensors);
        w.set_dims_as_given(p.dims_as_given);
        for (std::size_t k = first; k < first + n; ++k) w.add_tensor(p.tensors[k].info.name, p.tensors[k].info.target, p.tensors[k].info.shape);
        out.push_back({file, w.plan_size(), n});
    };
    if (p.parts.empty()) {
        size_of(path, p.kvs, 0, p.tensors.size());
    } else {
        std::size_t first = 0;
        for (const auto& part : p.parts) {
            size_of(part.path, part.kvs, first, part.tensors);
            first += part.tensors;
        }
    }
    return out;
}

std::vector<ForgetTensor> take_planned_tensors(GgufOutputPlan& p) {
    std::vector<ForgetTensor> out;
    out.reserve(p.tensors.size());
    std::size_t part = 0, left = p.parts.empty() ? p.tensors.size() : p.parts[0].tensors;
    for (auto& t : p.tensors) {
        while (left == 0 && part + 1 < p.parts.size()) left = p.parts[++part].tensors;
        out.push_back(std::move(t.info));
        out.back().part = static_cast<std::uint32_t>(part);
        if (left) --left;
    }
    return out;
}

GgufWriteResult write_gguf_plan(const Catalog& cat, GgufOutputPlan p, const GgufRunOptions& opt, const ProgressFn& progress,
                                 const std::atomic<bool>* cancel) {
    GgufWriteResult res;
    // One file, or one per part (committed together).
    std::optional<GgufWriter> single;
    std::optional<GgufSet> set;
    std::vector<std::uint32_t> part_of(p.tensors.size(), 0);
    if (p.parts.empty()) {
        single.emplace(opt.path, opt.force);
        single->set_kvs(std::move(p.kvs));
        single->set_pad_without_tensors(p.pad_without_tensors);
        single->set_dims_as_given(p.dims_as_given);
    } else {
        std::vector<GgufSet::Part> files;
        std::size_t k = 0;
        for (std::size_t i = 0; i < p.parts.size(); ++i) {
            for (std::size_t j = 0; j < p.parts[i].tensors; ++j) part_of.at(k++) = static_cast<std::uint32_t>(i);
            files.push_back({p.parts[i].path, std::move(p.parts[i].kvs), p.pad_without_tensors, p.dims_as_given});
        }
        if (k != p.tensors.size())
            throw Error(ErrorCode::Usage, "the parts take " + std::to_string(k) + " tensors, the plan has " +
                                              std::to_string(p.tensors.size()), opt.path);
        set.emplace(std::move(files), opt.force);
    }
    TensorSink& w = single ? static_cast<TensorSink&>(*single) : static_cast<TensorSink&>(*set);
    res.file = w.path();

    // The runner's plan: stored bytes copied in one unit (a type kept, its
    // bytes at hand), or row chunks of the recipe, each a whole number of GGUF rows (so of target blocks) encoded to
    // the target type; weight = f32 bytes decoded (stored bytes for copies).
    exec::OutputPlan plan;
    plan.tensors.reserve(p.tensors.size());
    for (const auto& ot : p.tensors) {
        const auto& t = ot.info;
        exec::OutputTensor o;
        o.name = t.name;
        const std::size_t k = plan.tensors.size();
        o.sink_tensors = {set ? set->add_tensor(part_of[k], t.name, t.target, t.shape) : w.add_tensor(t.name, t.target, t.shape)};
        o.bytes = t.bytes;
        o.numel = t.numel;
        if (t.copied && ot.stored) {
            o.stored = ot.stored;
            o.encoding = exec::CopyStored{};
            o.rows = 1, o.row_weight = t.bytes;
        } else if (t.copied && ot.raw) {
            // Bytes made directly in the target type (NVFP4 repacked), row chunk by row chunk.
            o.recipe = make_raw_decode_recipe(ot.raw, t.target, t.shape);
            o.encoding = exec::CopyRows{};
            o.rows = ot.raw->rows(), o.row_weight = ot.raw->row_bytes();
        } else {
            const Recipe& r = *ot.recipe;
            o.recipe = ot.recipe;
            const std::uint64_t re = std::max<std::uint64_t>(1, r.row_elems());
            const std::uint64_t row = t.shape.empty() ? 1 : t.shape.back();
            const std::uint64_t g = row / std::gcd(row, re);  // recipe rows per whole GGUF row set
            o.rows = r.rows(), o.row_weight = re * 4;
            o.granularity = std::lcm(g, std::max<std::uint64_t>(1, r.row_granularity()));
            exec::EncodeType e;
            e.type = t.target;
            e.n_per_row = row;
            e.rows_per_matrix = t.shape.size() >= 3 ? t.shape[t.shape.size() - 2] : std::max<std::uint64_t>(1, t.numel / row);
            e.imatrix = ot.imatrix;
            e.loss = opt.measure_loss ? exec::LossMode::Measure : exec::LossMode::CountNonfinite;
            o.encoding = e;
        }
        plan.tensors.push_back(std::move(o));
    }
    exec::RunOptions run;
    run.threads = opt.threads;
    run.chunk_bytes = opt.chunk_bytes;
    const auto ran = exec::run_output_plan(cat, std::move(plan), w, run, progress, cancel);

    if (single) {
        res.file_bytes = single->file_size();
        res.files.push_back({res.file, res.file_bytes, p.tensors.size()});
    } else {
        const auto paths = set->paths();
        for (std::size_t i = 0; i < paths.size(); ++i) {
            res.files.push_back({paths[i], set->file_size(i), set->part_tensor_count(i)});
            res.file_bytes += set->file_size(i);
        }
    }
    res.loss_measured = opt.measure_loss;
    res.tensors.reserve(p.tensors.size());
    for (std::size_t k = 0; k < p.tensors.size(); ++k) {
        res.tensors.push_back(std::move(p.tensors[k].info));
        res.tensors.back().part = part_of[k];
    }
    for (std::size_t k = 0; k < res.tensors.size(); ++k) {
        auto& t = res.tensors[k];
        res.input_numel += t.numel;
        if (t.copied) continue;
        const auto& l = ran.loss[k];
        if (opt.measure_loss) store_loss(t, l);
        if (l.nonfinite) {
            GgufWarning w;
            w.kind = GgufWarningKind::NonFinite;
            w.count = l.nonfinite;
            w.tensor = t.name;
            w.loss_measured = opt.measure_loss;
            res.warnings.push_back(std::move(w));
        }
    }
    return res;
}

GgufWriteResult write_converter_plan(const Catalog& cat, GgufOutputPlan plan, std::vector<GgufWarning> warnings,
                                     GgufRunOptions opt, const ProgressFn& progress, const std::atomic<bool>* cancel) {
    opt.measure_loss = false;
    auto res = write_gguf_plan(cat, std::move(plan), opt, progress, cancel);
    warnings.insert(warnings.end(), std::make_move_iterator(res.warnings.begin()), std::make_move_iterator(res.warnings.end()));
    res.warnings = std::move(warnings);
    return res;
}

}  // namespace amn::detail
