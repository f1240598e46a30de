// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to GGUF: llama-quantize's policy (its type rules and key/values)
// building a GgufOutputPlan, executed by write_gguf_plan (gguf_output.hpp).
#include "anamnesis/forget_gguf.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "sink/gguf_writer.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "plan/imatrix.hpp"
#include "anamnesis/kernels.hpp"
#include "jobs/gguf_output.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "sink/output_files.hpp"
#include "plan/gguf_parts.hpp"
#include "plan/gguf_groups.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>

namespace fs = std::filesystem;

namespace amn {

double ForgetTensor::bits_per_weight() const noexcept {
    return numel ? static_cast<double>(bytes) * 8.0 / static_cast<double>(numel) : 0.0;
}

namespace {

struct Prepared {
    const LlamaFileType* ftype = nullptr;
    std::shared_ptr<const Imatrix> imatrix;  // --imatrix, read (the output plan keeps it)
    std::vector<const std::vector<float>*> weights;  // per output tensor: its imatrix entry or nullptr
    std::vector<ForgetTensor> tensors;     // in output (llama-quantize) order
    std::vector<std::size_t> logical;      // source tensor index per output tensor
    std::vector<std::shared_ptr<const detail::RawRows>> repacked;  // per output tensor: its lossless repack or null
};

bool is_plain_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

const LlamaFileType* file_type_or_throw(const std::string& name) {
    const LlamaFileType* ft = parse_llama_file_type(name);
    if (!ft) {
        std::string names;
        for (const auto& f : llama_file_types())
            if (f.offered) {
                if (!names.empty()) names += ' ';
                names += f.name;
            }
        throw Error(ErrorCode::Usage, "unknown GGUF file type '" + name + "' (llama-quantize's names: " + names + ")");
    }
    return ft;
}

// The GGUF llama-quantize reads: the input itself, or the one
// convert_hf_to_gguf.py would write for a Hugging Face folder (its lossless
// --outtype: BF16 for BF16 weights, F16 for F16, else F32).
detail::GgufSource forget_source(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt) {
    if (cat.format == Format::Gguf) {
        if (opt.no_mtp) throw Error(ErrorCode::Usage, "--no-mtp is convert_hf_to_gguf's: for a Hugging Face folder, not a GGUF", cat.path);
        return detail::gguf_catalog_source(cat, plan);
    }
    if ((cat.format == Format::Safetensors || cat.format == Format::Pth) && cat.config_json) return detail::hf_gguf_lossless_source(cat, opt.vocab_pre, opt.no_mtp);
    throw Error(ErrorCode::Unsupported,
                "forget to GGUF needs a GGUF or a Hugging Face model folder (config.json beside safetensors weights); "
                "remember it first",
                cat.path);
}

// `forget DIR --to gguf:F32|F16|BF16|Q8_0` of a Hugging Face folder is what
// convert_hf_to_gguf.py writes with that --outtype (no llama-quantize pass),
// unless an option only llama-quantize has asks for its rules.
std::optional<DType> converter_outtype(const Catalog& cat, const LlamaFileType& ft, const GgufForgetOptions& opt) {
    if (cat.format == Format::Gguf) return std::nullopt;
    if (opt.pure || opt.output_tensor_type || opt.token_embedding_type || !opt.tensor_types.empty() || !opt.imatrix.empty())
        return std::nullopt;
    if (const auto* o = converter_outtype_of_ftype(ft.id)) return o->type;
    return std::nullopt;
}

// Where and how the runner writes: -o or the default name beside the input
// (never the input itself), the options of the run.
detail::GgufRunOptions run_options(const Catalog& cat, const GgufForgetOptions& opt, const LlamaFileType& ft) {
    detail::GgufRunOptions run;
    run.path = !opt.output.empty()             ? opt.output
               : cat.format == Format::Gguf ? default_gguf_output_path(cat, std::string(ft.name))
                                             : default_hf_gguf_output_path(cat, std::string(ft.name));
    if (!opt.split.any()) detail::refuse_input_as_output(cat, run.path);  // parts: checked once cut
    run.force = opt.force;
    run.threads = opt.threads;
    run.chunk_bytes = opt.chunk_bytes;
    run.measure_loss = opt.measure_loss;
    return run;
}

Prepared prepare(const Catalog& cat, const detail::GgufSource& src, const GgufForgetOptions& opt) {
    Prepared p;
    p.ftype = file_type_or_throw(opt.ftype);
    if (!opt.imatrix.empty()) p.imatrix = std::make_shared<const Imatrix>(read_imatrix(opt.imatrix));

    std::vector<TensorDesc> descs;
    std::vector<std::string> names;
    descs.reserve(src.tensors.size());
    for (const auto& t : src.tensors) {
        descs.push_back({t.name, t.shape, t.dtype});
        names.push_back(t.name);
    }
    QuantizeRequest req;
    req.ftype = p.ftype->id;
    req.pure = opt.pure;
    req.output_tensor_type = opt.output_tensor_type;
    req.token_embedding_type = opt.token_embedding_type;
    req.tensor_types = opt.tensor_types;
    req.has_imatrix = !opt.imatrix.empty();
    // --keep-split: llama-quantize visits and writes the tensors by input
    // part, then offset (the source's order); else by its name order.
    req.visit_in_given_order = opt.split.keep_split;
    const auto choices = choose_gguf_types(descs, src.kvs, req);
    std::vector<std::size_t> order(src.tensors.size());
    std::iota(order.begin(), order.end(), 0);
    if (!opt.split.keep_split) order = llama_quantize_tensor_order(names);

    for (const std::size_t i : order) {
        const auto& lt = src.tensors[i];
        const auto& c = choices[i];
        ForgetTensor t;
        t.name = lt.name;
        t.shape = lt.shape;
        t.source = descs[i].dtype;
        t.target = c.type;
        t.gguf_reason = c.reason;
        t.numel = 1;
        for (auto d : lt.shape) t.numel *= d;
        // Same type as stored: llama-quantize copies the bytes unchanged.
        t.copied = t.target == t.source;
        // Not a GGUF (llama-quantize would decode it): a folder whose codes the
        // target type holds as they are (MLX affine 4-bit, group 32 → Q4_1 …)
        // is repacked, nothing rounded.
        std::shared_ptr<const detail::RawRows> repack;
        if (!t.copied && cat.format != Format::Gguf && lt.recipe && !is_plain_float(t.target))
            if (auto g = lt.recipe->quant_groups()) {
                repack = detail::make_gguf_group_repack(std::move(g), t.target, t.repack);
                if (repack) t.copied = true, t.repack = Repack::Lossless;
            }
        const DTypeInfo* info = dtype_info(t.target);
        if (!info) throw Error(ErrorCode::UnknownDtype, "no registry row for the chosen type", cat.path, lt.name);
        if (!t.copied && !is_plain_float(t.target) && !kernels::gguf::imatrix_encoder(info->ggml_id))
            throw Error(ErrorCode::Unsupported, "no quantizer for " + std::string(info->name) + " yet", cat.path, lt.name);
        // The importance weights llama-quantize would pass: the entry of that
        // name (token_embd has none), n_per_row per matrix (expert).
        const std::vector<float>* w = p.imatrix ? p.imatrix->find(lt.name) : nullptr;
        if (w && !t.copied && !is_plain_float(t.target)) {
            const std::uint64_t row = t.shape.empty() ? 1 : t.shape.back();
            const std::uint64_t matrices = t.shape.size() >= 3 ? t.numel / (row * t.shape[t.shape.size() - 2]) : 1;
            if (w->size() != row * matrices)
                throw Error(ErrorCode::SizeMismatch,
                            "the importance matrix has " + std::to_string(w->size()) + " weights for this tensor, its rows need " +
                                std::to_string(row * matrices) + " (an imatrix made for another model?)",
                            opt.imatrix, lt.name);
        }
        p.weights.push_back(w);
        const auto bytes = dtype_bytes(t.target, t.numel);
        if (!bytes) throw Error(ErrorCode::SizeMismatch, "not a whole number of " + std::string(info->name) + " blocks", cat.path, lt.name);
        t.bytes = *bytes;
        p.tensors.push_back(std::move(t));
        p.logical.push_back(i);
        p.repacked.push_back(std::move(repack));
    }
    return p;
}

void check_split_options(const Catalog& cat, const GgufForgetOptions& opt) {
    const auto& sp = opt.split;
    if (sp.keep_split && (sp.max_tensors || sp.max_bytes || sp.no_tensor_first_split))
        throw Error(ErrorCode::Usage, "--keep-split keeps the input's parts: not with --split-max-size, --split-max-tensors "
                                      "or --no-tensor-first-split");
    if (sp.keep_split && cat.format != Format::Gguf)
        throw Error(ErrorCode::Usage, "--keep-split keeps the parts of a split GGUF input; for a folder use --split-max-size "
                                      "or --split-max-tensors", cat.path);
}

// The parts of the output: llama-quantize --keep-split (the input's parts), or
// what llama-gguf-split --split makes of the one file. Every part path is
// checked against the inputs.
void cut_parts(const Catalog& cat, const GgufForgetOptions& opt, detail::GgufOutputPlan& out, const std::string& path) {
    if (!opt.split.any()) return;
    std::vector<detail::GgufPartTensor> ts;
    ts.reserve(out.tensors.size());
    for (const auto& t : out.tensors)
        ts.push_back({t.info.name, t.info.bytes, t.stored ? t.stored->shard : 0u});
    const auto rule = opt.split.keep_split ? detail::GgufPartRule::KeepSplit : detail::GgufPartRule::GgufSplit;
    try {
        out.parts = detail::cut_gguf_parts(rule, opt.split, out.kvs, ts, path, static_cast<std::uint32_t>(cat.shards.size()));
    } catch (const Error& e) {
        throw e.with_file(cat.path);
    }
    for (const auto& part : out.parts) detail::refuse_input_as_output(cat, part.path);
    out.dims_as_given = false;  // both tools write through ggml (its n_dims rule), also the converter's file
}

std::string output_plan(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt, detail::GgufOutputPlan& out,
                        std::vector<GgufWarning>& warnings);

}  // namespace

std::vector<ForgetTensor> plan_gguf_forget(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt,
                                           std::vector<GgufOutputFile>* files) {
    // The output plan as forget_to_gguf() builds it, not written.
    detail::GgufOutputPlan out;
    std::vector<GgufWarning> warnings;
    const std::string path = output_plan(cat, plan, opt, out, warnings);
    if (files) *files = detail::gguf_plan_files(out, path);
    return detail::take_planned_tensors(out);
}

std::string default_gguf_output_path(const Catalog& cat, const std::string& ftype) {
    const fs::path in = gguf_unsplit_path(cat);  // a split set: "X-00001-of-00003.gguf" → "X.gguf"
    std::string stem = in.stem().string();
    if (in.extension() != ".gguf") stem = in.filename().string();
    // "tiny-llama-F32" → "tiny-llama": a trailing file type or float dtype name is replaced.
    if (const auto dash = stem.find_last_of("-."); dash != std::string::npos && dash > 0) {
        std::string last = stem.substr(dash + 1);
        std::string up = last;
        std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        if (parse_llama_file_type(up) || up == "F32" || up == "FP32" || up == "FP16" || up == "F16" || up == "BF16")
            stem.resize(dash);
    }
    const std::string name = stem + "-" + ftype + ".gguf";
    return (in.parent_path() / name).string();
}

GgufWriteResult forget_to_gguf(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt,
                                const ProgressFn& progress, const std::atomic<bool>* cancel) {
    detail::GgufOutputPlan out;
    std::vector<GgufWarning> warnings;
    detail::GgufRunOptions run = run_options(cat, opt, *file_type_or_throw(opt.ftype));
    run.path = output_plan(cat, plan, opt, out, warnings);
    GgufWriteResult res = detail::write_gguf_plan(cat, std::move(out), run, progress, cancel);
    warnings.insert(warnings.end(), res.warnings.begin(), res.warnings.end());
    res.warnings = std::move(warnings);
    return res;
}

namespace {

// The whole output of forget_to_gguf(): key/values, tensors, parts; returns
// the output path (the file, or the prefix of the parts).
std::string output_plan(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt, detail::GgufOutputPlan& out,
                        std::vector<GgufWarning>& warnings) {
    check_split_options(cat, opt);
    const LlamaFileType* ft = file_type_or_throw(opt.ftype);
    const std::string path = run_options(cat, opt, *ft).path;
    if (const auto outtype = converter_outtype(cat, *ft, opt)) {
        auto c = detail::hf_gguf_converter_plan(cat, *outtype, opt.vocab_pre, opt.no_mtp);
        out = std::move(c.plan);
        warnings = std::move(c.warnings);
        cut_parts(cat, opt, out, path);
        return path;
    }
    detail::GgufSource src = forget_source(cat, plan, opt);
    Prepared p = prepare(cat, src, opt);

    warnings = src.warnings;
    std::uint64_t requantized = 0;
    for (std::size_t k = 0; k < p.tensors.size(); ++k)
        if (!p.tensors[k].copied && src.tensors[p.logical[k]].quantized) ++requantized;
    if (requantized) {
        GgufWarning w;
        w.kind = GgufWarningKind::Requantized;
        w.count = requantized;
        warnings.push_back(std::move(w));
    }

    if (p.imatrix) {
        LlamaImatrixKvs ik;
        ik.file = opt.imatrix;  // as given, like llama-quantize
        ik.dataset = p.imatrix->datasets.empty() ? std::string() : p.imatrix->datasets.front();
        ik.entries_count = static_cast<std::uint32_t>(p.imatrix->weights.size());
        ik.chunks_count = p.imatrix->chunk_count;
        out.kvs = llama_quantize_kvs(src.kvs, p.ftype->id, ik);
        out.imatrix = p.imatrix;
    } else {
        out.kvs = llama_quantize_kvs(src.kvs, p.ftype->id);
    }
    for (std::size_t k = 0; k < p.tensors.size(); ++k) {
        const auto& lt = src.tensors[p.logical[k]];
        detail::GgufOutputTensor t;
        t.info = std::move(p.tensors[k]);
        t.recipe = lt.recipe;
        t.stored = p.repacked[k] ? nullptr : lt.stored;
        t.raw = p.repacked[k] ? p.repacked[k] : lt.raw;
        t.imatrix = p.weights[k];
        out.tensors.push_back(std::move(t));
    }
    cut_parts(cat, opt, out, path);
    return path;
}

}  // namespace

}  // namespace amn
