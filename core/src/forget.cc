// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to GGUF: plan (llama-quantize's type rules), then decode → encode →
// write on the executor, measuring each tensor's round trip on the way.
#include "anamnesis/forget.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/gguf_writer.hpp"
#include "anamnesis/imatrix.hpp"
#include "anamnesis/kernels.hpp"
#include "input_release.hpp"
#include "loss_sums.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/st/st_kernels.hpp"
#include "output_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
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
    std::optional<Imatrix> imatrix;        // --imatrix, read
    std::vector<const std::vector<float>*> weights;  // per output tensor: its imatrix entry or nullptr
    std::vector<GgufKv> kvs;               // the input's, typed
    std::vector<ForgetTensor> tensors;     // in output (llama-quantize) order
    std::vector<std::size_t> logical;      // plan.tensors index per output tensor
};

bool is_plain_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

Prepared prepare(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt) {
    Prepared p;
    if (cat.format != Format::Gguf)
        throw Error(ErrorCode::Unsupported,
                    "forget to GGUF needs a GGUF input for now (Hugging Face → GGUF tensor naming is not done yet); "
                    "remember it first or start from a GGUF",
                    cat.path);
    p.ftype = parse_llama_file_type(opt.ftype);
    if (!p.ftype) {
        std::string names;
        for (const auto& f : llama_file_types())
            if (f.offered) {
                if (!names.empty()) names += ' ';
                names += f.name;
            }
        throw Error(ErrorCode::Usage, "unknown GGUF file type '" + opt.ftype + "' (llama-quantize's names: " + names + ")");
    }
    if (!opt.imatrix.empty()) p.imatrix = read_imatrix(opt.imatrix);
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error, cat.path, lt.name);

    p.kvs = gguf_read_kvs(cat);
    std::vector<TensorDesc> descs;
    std::vector<std::string> names;
    descs.reserve(plan.tensors.size());
    for (const auto& lt : plan.tensors) {
        const auto& stored = cat.tensors.at(lt.sources.at(0));
        descs.push_back({lt.name, lt.shape, stored.dtype});
        names.push_back(lt.name);
    }
    QuantizeRequest req;
    req.ftype = p.ftype->id;
    req.pure = opt.pure;
    req.output_tensor_type = opt.output_tensor_type;
    req.token_embedding_type = opt.token_embedding_type;
    req.tensor_types = opt.tensor_types;
    req.has_imatrix = !opt.imatrix.empty();
    const auto choices = choose_gguf_types(descs, p.kvs, req);

    for (const std::size_t i : llama_quantize_tensor_order(names)) {
        const auto& lt = plan.tensors[i];
        const auto& c = choices[i];
        ForgetTensor t;
        t.name = lt.name;
        t.shape = lt.shape;
        t.source = descs[i].dtype;
        t.target = c.type;
        t.reason = c.reason;
        t.rule = c.rule;
        t.fallback = c.fallback;
        t.numel = lt.numel();
        // Same type as stored: llama-quantize copies the bytes unchanged.
        t.copied = t.target == t.source;
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
    }
    return p;
}

// Encode `n` f32 values (whole rows of `n_per_row`) to `type` at `dst`,
// with the importance weights `imatrix` (n_per_row per matrix of
// `rows_per_matrix` rows, or nullptr); `row0` is the first row's index in
// the tensor, so that each row takes its own matrix's weights.
void encode(DType type, const float* src, std::uint8_t* dst, std::size_t n, std::uint64_t n_per_row, std::uint64_t row0,
            std::uint64_t rows_per_matrix, const std::vector<float>* imatrix) {
    switch (type) {
        case DType::F32: std::memcpy(dst, src, n * 4); return;
        case DType::F16: kernels::f32_to_f16(src, reinterpret_cast<std::uint16_t*>(dst), n); return;
        case DType::BF16: kernels::f32_to_bf16(src, reinterpret_cast<std::uint16_t*>(dst), n); return;
        default: break;
    }
    const DTypeInfo* info = dtype_info(type);
    if (!imatrix) {
        if (const auto enc = kernels::gguf::best_encoder(info->ggml_id)) {
            enc(src, dst, n / info->block_elems);
            return;
        }
    }
    const auto enc = kernels::gguf::imatrix_encoder(info->ggml_id);
    const std::uint64_t row_bytes = n_per_row / info->block_elems * info->block_bytes;
    std::uint64_t rows = n / n_per_row, r = 0;
    while (r < rows) {  // one run per matrix (expert) the rows belong to
        const std::uint64_t m = (row0 + r) / rows_per_matrix;
        const std::uint64_t run = std::min(rows - r, (m + 1) * rows_per_matrix - (row0 + r));
        const float* w = imatrix ? imatrix->data() + m * n_per_row : nullptr;
        enc(src + r * n_per_row, dst + r * row_bytes, run, n_per_row, w);
        r += run;
    }
}

}  // namespace

std::vector<ForgetTensor> plan_gguf_forget(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt) {
    return prepare(cat, plan, opt).tensors;
}

std::string default_gguf_output_path(const Catalog& cat, const std::string& ftype) {
    const fs::path in = cat.shards.empty() ? fs::path(cat.path) : fs::path(cat.shards[0].path);
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

GgufForgetResult forget_to_gguf(const Catalog& cat, const Plan& plan, const GgufForgetOptions& opt,
                                const ProgressFn& progress, const std::atomic<bool>* cancel) {
    Prepared p = prepare(cat, plan, opt);
    GgufForgetResult res;
    res.file = opt.output.empty() ? default_gguf_output_path(cat, std::string(p.ftype->name)) : opt.output;
    for (const auto& s : cat.shards)
        if (detail::same_file(res.file, s.path))
            throw Error(ErrorCode::Usage, "output would overwrite the input file; choose another -o", res.file);

    std::size_t requantized = 0;
    for (std::size_t k = 0; k < p.tensors.size(); ++k)
        if (!p.tensors[k].copied && plan.tensors[p.logical[k]].quantized) ++requantized;
    if (requantized)
        res.warnings.push_back(std::to_string(requantized) +
                               " tensor(s) are already quantized in the input: re-quantizing compounds their error "
                               "(start from F32/F16/BF16 when you can)");

    GgufWriter w(res.file, opt.force);
    if (p.imatrix) {
        LlamaImatrixKvs ik;
        ik.file = opt.imatrix;  // as given, like llama-quantize
        ik.dataset = p.imatrix->datasets.empty() ? std::string() : p.imatrix->datasets.front();
        ik.entries_count = static_cast<std::uint32_t>(p.imatrix->weights.size());
        ik.chunks_count = p.imatrix->chunk_count;
        w.set_kvs(llama_quantize_kvs(p.kvs, p.ftype->id, ik));
    } else {
        w.set_kvs(llama_quantize_kvs(p.kvs, p.ftype->id));
    }
    for (const auto& t : p.tensors) w.add_tensor(t.name, t.target, t.shape);
    w.layout();

    // Work units: row chunks of the recipe, each a whole number of GGUF rows
    // (so of target blocks); weight = f32 bytes decoded.
    std::vector<WorkUnit> units;
    for (std::size_t k = 0; k < p.tensors.size(); ++k) {
        const auto& t = p.tensors[k];
        const Recipe& r = *plan.tensors[p.logical[k]].recipe;
        if (t.copied) {
            units.push_back({k, 0, 1, t.bytes});
            continue;
        }
        const std::uint64_t re = std::max<std::uint64_t>(1, r.row_elems());
        const std::uint64_t row = t.shape.empty() ? 1 : t.shape.back();
        const std::uint64_t g = row / std::gcd(row, re);  // recipe rows per whole GGUF row set
        const std::uint64_t gran = std::lcm(g, std::max<std::uint64_t>(1, r.row_granularity()));
        split_rows(units, k, r.rows(), re * 4, gran, opt.chunk_bytes);
    }

    // Each unit's round-trip error (loss_sums.hpp), merged per tensor in row order
    // afterwards (the same figures on every run, whatever the threads did).
    std::vector<detail::LossSums> unit_loss(units.size());
    const auto& sk = st::kern::st_kernels();
    const unsigned nworkers = worker_count(opt.threads, units.size());
    struct Scratch { std::vector<float> x, y; std::vector<std::uint8_t> q; };
    std::vector<Scratch> scratch(nworkers);

    run_units(units, opt.threads, [&](const WorkUnit& u, unsigned worker) {
        const auto& t = p.tensors[u.item];
        const auto& lt = plan.tensors[p.logical[u.item]];
        const Recipe& r = *lt.recipe;
        try {
            if (t.copied) {
                const auto& stored = cat.tensors.at(lt.sources.at(0));
                if (stored.big_endian || !stored.strides.empty() || stored.nbytes < t.bytes)
                    throw Error(ErrorCode::Unsupported, "cannot copy this stored layout unchanged (big-endian or strided)");
                const std::uint8_t* src = cat.data(stored);
                constexpr std::uint64_t kStep = 8u << 20;
                for (std::uint64_t at = 0; at < t.bytes; at += kStep) {
                    if (cancel && cancel->load(std::memory_order_relaxed)) throw Error(ErrorCode::Cancelled, "cancelled");
                    const std::uint64_t n = std::min(kStep, t.bytes - at);
                    w.write(u.item, at, {src + at, static_cast<std::size_t>(n)});
                    cat.shards[stored.shard].file->release(stored.offset + at, n);
                }
                return;
            }
            Scratch& s = scratch[worker];
            const std::uint64_t n = u.nrows * r.row_elems();
            s.x.resize(n);
            r.dequantize_rows(u.row0, u.nrows, s.x.data());
            const auto qbytes = *dtype_bytes(t.target, n);
            s.q.resize(qbytes);
            const std::uint64_t n_per_row = t.shape.empty() ? 1 : t.shape.back();
            const std::uint64_t rows_per_matrix =
                t.shape.size() >= 3 ? t.shape[t.shape.size() - 2] : std::max<std::uint64_t>(1, t.numel / n_per_row);
            encode(t.target, s.x.data(), s.q.data(), n, n_per_row, u.row0 * r.row_elems() / n_per_row, rows_per_matrix,
                   p.weights[u.item]);
            const std::uint64_t offset = *dtype_bytes(t.target, u.row0 * r.row_elems());
            w.write(u.item, offset, {s.q.data(), static_cast<std::size_t>(qbytes)});
            detail::LossSums& l = unit_loss[std::size_t(&u - units.data())];
            if (opt.measure_loss) {
                // Round trip, measured against the exact input values.
                s.y.resize(n);
                const DTypeInfo* info = dtype_info(t.target);
                info->to_f32(s.q.data(), s.y.data(), n / info->block_elems);
                // The SIMD loss takes finite inputs (it checks y only); a chunk holding a
                // NaN/±inf input is summed pair by pair.
                if (sk.first_nonfinite(s.x.data(), n) == n) sk.loss(s.x.data(), s.y.data(), n, l);
                else
                    for (std::uint64_t i = 0; i < n; ++i) l.add(s.x[i], s.y[i]);
            } else if (sk.first_nonfinite(s.x.data(), n) < n) {
                for (std::uint64_t i = 0; i < n; ++i) l.nonfinite += std::isfinite(s.x[i]) ? 0 : 1;
            }
            detail::release_inputs(cat, r, u.row0, u.nrows);
        } catch (const Error& e) {
            throw e.with_tensor(t.name).with_file(cat.path);
        }
    }, progress, cancel);  // on error the writer's destructor removes the temporary file

    w.commit();
    res.file_bytes = w.file_size();
    res.loss_measured = opt.measure_loss;
    std::vector<detail::LossSums> loss(p.tensors.size());
    for (std::size_t i = 0; i < units.size(); ++i) loss[units[i].item].merge(unit_loss[i]);  // units: tensor, then row order
    res.tensors = std::move(p.tensors);
    for (std::size_t k = 0; k < res.tensors.size(); ++k) {
        auto& t = res.tensors[k];
        res.input_numel += t.numel;
        if (t.copied) continue;
        const auto& l = loss[k];
        if (opt.measure_loss) detail::store_loss(t, l);
        if (l.nonfinite)
            res.warnings.push_back(t.name + ": " + std::to_string(l.nonfinite) +
                                   (opt.measure_loss ? " value(s) or their round trip are not finite (left out of the loss)"
                                                     : " value(s) are not finite (NaN/±inf)"));
    }
    return res;
}

}  // namespace amn
