// SPDX-License-Identifier: MIT OR Apache-2.0
// The one GGUF runner (gguf_output.hpp): decode → encode → write on the
// executor, for every job that writes a GGUF.
#include "gguf_output.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "input_release.hpp"
#include "loss_sums.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace amn::detail {
namespace {

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

class RawDecode final : public Recipe {
public:
    RawDecode(std::shared_ptr<const RawRows> raw, DType type, std::vector<std::uint64_t> shape)
        : raw_(std::move(raw)), info_(dtype_info(type)) {
        std::uint64_t n = 1;
        for (auto d : shape) n *= d;
        elems_ = raw_->rows() ? n / raw_->rows() : 0;
    }
    std::string describe() const override { return std::string(info_->name) + " (repacked)"; }
    std::string scheme_id() const override { return "gguf-" + std::string(info_->name); }
    std::uint64_t rows() const override { return raw_->rows(); }
    std::uint64_t row_elems() const override { return elems_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        std::vector<std::uint8_t> b(static_cast<std::size_t>(nrows * raw_->row_bytes()));
        raw_->read(row0, nrows, b.data());
        info_->to_f32(b.data(), out, nrows * elems_ / info_->block_elems);
    }
    std::vector<InputRange> inputs() const override { return raw_->inputs(); }
    bool payload_is_row_major() const override { return false; }

private:
    std::shared_ptr<const RawRows> raw_;
    const DTypeInfo* info_;
    std::uint64_t elems_ = 0;
};

}  // namespace

std::shared_ptr<const Recipe> make_raw_decode_recipe(std::shared_ptr<const RawRows> raw, DType type,
                                                     std::vector<std::uint64_t> shape) {
    return std::make_shared<RawDecode>(std::move(raw), type, std::move(shape));
}

GgufSource gguf_catalog_source(const Catalog& cat, const Plan& plan) {
    GgufSource src;
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error, cat.path, lt.name);
    src.kvs = gguf_read_kvs(cat);
    src.tensors.reserve(plan.tensors.size());
    for (const auto& lt : plan.tensors) {
        const TensorInfo& stored = cat.tensors.at(lt.sources.at(0));
        src.tensors.push_back({lt.name, lt.shape, stored.dtype, lt.recipe, &stored, nullptr, lt.quantized});
    }
    return src;
}

GgufForgetResult write_gguf_plan(const Catalog& cat, GgufOutputPlan p, const GgufRunOptions& opt, const ProgressFn& progress,
                                 const std::atomic<bool>* cancel) {
    GgufForgetResult res;
    res.file = opt.path;
    GgufWriter w(res.file, opt.force);
    w.set_kvs(std::move(p.kvs));
    w.set_pad_without_tensors(p.pad_without_tensors);
    for (const auto& t : p.tensors) w.add_tensor(t.info.name, t.info.target, t.info.shape);
    w.layout();

    // Work units: row chunks of the recipe, each a whole number of GGUF rows
    // (so of target blocks); weight = f32 bytes decoded.
    std::vector<WorkUnit> units;
    for (std::size_t k = 0; k < p.tensors.size(); ++k) {
        const auto& t = p.tensors[k].info;
        if (t.copied && p.tensors[k].stored) {
            units.push_back({k, 0, 1, t.bytes});
            continue;
        }
        if (t.copied && p.tensors[k].raw) {
            const auto& raw = *p.tensors[k].raw;
            split_rows(units, k, raw.rows(), raw.row_bytes(), 1, opt.chunk_bytes);
            continue;
        }
        const Recipe& r = *p.tensors[k].recipe;
        const std::uint64_t re = std::max<std::uint64_t>(1, r.row_elems());
        const std::uint64_t row = t.shape.empty() ? 1 : t.shape.back();
        const std::uint64_t g = row / std::gcd(row, re);  // recipe rows per whole GGUF row set
        const std::uint64_t gran = std::lcm(g, std::max<std::uint64_t>(1, r.row_granularity()));
        split_rows(units, k, r.rows(), re * 4, gran, opt.chunk_bytes);
    }

    // Each unit's round-trip error (loss_sums.hpp), merged per tensor in row order
    // afterwards (the same figures on every run, whatever the threads did).
    std::vector<LossSums> unit_loss(units.size());
    const auto& sk = st::kern::st_kernels();
    const unsigned nworkers = worker_count(opt.threads, units.size());
    struct Scratch { std::vector<float> x, y; std::vector<std::uint8_t> q; };
    std::vector<Scratch> scratch(nworkers);

    run_units(units, opt.threads, [&](const WorkUnit& u, unsigned worker) {
        const auto& ot = p.tensors[u.item];
        const auto& t = ot.info;
        try {
            if (t.copied && ot.stored) {
                const TensorInfo& stored = *ot.stored;
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
            if (t.copied && ot.raw) {
                Scratch& s = scratch[worker];
                const std::uint64_t rb = ot.raw->row_bytes();
                s.q.resize(u.nrows * rb);
                ot.raw->read(u.row0, u.nrows, s.q.data());
                w.write(u.item, u.row0 * rb, {s.q.data(), s.q.size()});
                return;
            }
            const Recipe& r = *ot.recipe;
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
                   ot.imatrix);
            const std::uint64_t offset = *dtype_bytes(t.target, u.row0 * r.row_elems());
            w.write(u.item, offset, {s.q.data(), static_cast<std::size_t>(qbytes)});
            LossSums& l = unit_loss[std::size_t(&u - units.data())];
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
            release_inputs(cat, r, u.row0, u.nrows);
        } catch (const Error& e) {
            throw e.with_tensor(t.name).with_file(cat.path);
        }
    }, progress, cancel);  // on error the writer's destructor removes the temporary file

    w.commit();
    res.file_bytes = w.file_size();
    res.loss_measured = opt.measure_loss;
    std::vector<LossSums> loss(p.tensors.size());
    for (std::size_t i = 0; i < units.size(); ++i) loss[units[i].item].merge(unit_loss[i]);  // units: tensor, then row order
    res.tensors.reserve(p.tensors.size());
    for (auto& ot : p.tensors) res.tensors.push_back(std::move(ot.info));
    for (std::size_t k = 0; k < res.tensors.size(); ++k) {
        auto& t = res.tensors[k];
        res.input_numel += t.numel;
        if (t.copied) continue;
        const auto& l = loss[k];
        if (opt.measure_loss) store_loss(t, l);
        if (l.nonfinite)
            res.warnings.push_back(t.name + ": " + std::to_string(l.nonfinite) +
                                   (opt.measure_loss ? " value(s) or their round trip are not finite (left out of the loss)"
                                                     : " value(s) are not finite (NaN/±inf)"));
    }
    return res;
}

}  // namespace amn::detail
