// SPDX-License-Identifier: MIT OR Apache-2.0
// The one runner (run_output_plan.hpp).
#include "exec/run_output_plan.hpp"

#include "anamnesis/error.hpp"
#include "exec/chunk_rows.hpp"
#include "exec/encode_type.hpp"
#include "exec/input_release.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <type_traits>

namespace amn::exec {
namespace {

using u64 = std::uint64_t;
using detail::LossSums;

SchemeEncoder* scheme_of(OutputTensor& t) {
    auto* p = std::get_if<std::unique_ptr<SchemeEncoder>>(&t.encoding);
    return p ? p->get() : nullptr;
}

// The work of one batch: first-pass chunks (scheme encoders that need them)
// and the chunks of every tensor.
struct Batch {
    std::vector<WorkUnit> pre, main;
};

u64 weight_of(const std::vector<WorkUnit>& us) {
    u64 w = 0;
    for (const auto& u : us) w += u.weight;
    return w;
}

// Per-worker buffers, reused across chunks.
struct Scratch {
    std::vector<float> x, y;
    std::vector<std::uint8_t> b;
    std::unique_ptr<EncoderScratch> enc;
};

class Runner {
public:
    Runner(const Catalog& cat, OutputPlan& plan, TensorSink& sink, const RunOptions& opt, const ProgressFn& progress,
           const std::atomic<bool>* cancel)
        : cat_(cat), ts_(plan.tensors), sink_(sink), opt_(opt), progress_(progress), cancel_(cancel) {}

    RunResult run() {
        sink_.allocate();
        cut();
        res_.loss.resize(ts_.size());
        res_.tail_bytes.resize(ts_.size());
        const bool steps = std::any_of(ts_.begin(), ts_.end(), [](OutputTensor& t) { return scheme_of(t) != nullptr; });
        for (auto& bt : batches_) {
            if (steps) {
                // What each weight holds whole, then its first pass and the weight-wide values.
                per_weight(bt.main, [&](std::size_t k) { scheme_of(ts_[k])->start(); });
                run_pass(bt.pre, [&](const WorkUnit& u, unsigned worker) { prepass(u, worker); });
                per_weight(bt.pre, [&](std::size_t k) { scheme_of(ts_[k])->finish_prepass(); });
            }
            run_main(bt.main);
            if (steps) {
                // Whole-tensor outputs of each weight of the batch, then what it held is freed.
                per_weight(bt.main, [&](std::size_t k) {
                    auto& t = ts_[k];
                    res_.tail_bytes[k] = scheme_of(t)->finish(slot_writer(t), [&](std::size_t j, std::span<const std::uint8_t> bytes) {
                        sink_.set_tail_tensor(t.sink_tensors.at(j), {bytes.size()}, bytes);
                    });
                    std::get<std::unique_ptr<SchemeEncoder>>(t.encoding).reset();
                });
            }
        }
        if (opt_.before_commit) opt_.before_commit();
        sink_.commit();
        return std::move(res_);
    }

private:
    // Work units, batch by batch; unit weight = the tensor's row_weight.
    void cut() {
        batches_.resize(1);
        u64 in_batch = 0;
        bool batch_has_pre = false;
        for (std::size_t k = 0; k < ts_.size(); ++k) {
            auto& t = ts_[k];
            if (t.rows == 0) continue;
            const SchemeEncoder* s = scheme_of(t);
            const bool pre = s && s->needs_prepass();
            if (opt_.batch_elems && in_batch >= (pre || batch_has_pre ? opt_.prepass_batch_elems : opt_.batch_elems))
                batches_.emplace_back(), in_batch = 0, batch_has_pre = false;
            in_batch += t.numel;
            batch_has_pre = batch_has_pre || pre;
            Batch& bt = batches_.back();
            split_rows(bt.main, k, t.rows, t.row_weight, t.granularity, opt_.chunk_bytes);
            if (pre) split_rows(bt.pre, k, t.rows, t.row_weight, t.granularity, opt_.chunk_bytes);
        }
        std::size_t max_units = 0;
        for (const auto& bt : batches_)
            for (const auto* us : {&bt.pre, &bt.main}) {
                total_ += weight_of(*us);
                max_units = std::max(max_units, us->size());
            }
        scratch_.resize(worker_count(opt_.threads, max_units));
    }

    // One pass of chunks on the executor; progress over every pass.
    void run_pass(const std::vector<WorkUnit>& us, const std::function<void(const WorkUnit&, unsigned)>& body) {
        const ProgressFn step = progress_ ? ProgressFn([&](const Progress& p) { progress_({done_before_ + p.done, total_}); })
                                          : ProgressFn{};
        run_units(us, opt_.threads, [&](const WorkUnit& u, unsigned worker) {
            try {
                body(u, worker);
            } catch (const Error& e) {
                throw e.with_tensor(ts_[u.item].name).with_file(cat_.path);
            }
            sweep_now_and_then(u.weight);
        }, step, cancel_);
        done_before_ += weight_of(us);
    }

    // Every kSweepUnits of work, the input pages released so far are released
    // again (MappedFile::release_again): reads of small tensors out of file
    // order map finished neighbours back in (fault-around), which would make
    // memory grow with the number of tensors. One worker sweeps at a time.
    static constexpr u64 kSweepUnits = 32u << 20;
    void sweep_now_and_then(u64 weight) {
        if (since_sweep_.fetch_add(weight, std::memory_order_relaxed) + weight < kSweepUnits) return;
        std::unique_lock lock(sweep_mu_, std::try_to_lock);
        if (!lock.owns_lock()) return;
        since_sweep_.store(0, std::memory_order_relaxed);
        for (const auto& s : cat_.shards)
            if (s.file) s.file->release_again();
    }

    // Run fn(item) once for each scheme weight of `us` (its chunk at row 0), one
    // weight per worker, errors named after the weight.
    void per_weight(const std::vector<WorkUnit>& us, const std::function<void(std::size_t)>& fn) {
        std::vector<WorkUnit> weights;
        for (const auto& u : us)
            if (scheme_of(ts_[u.item]) && u.row0 == 0) weights.push_back({u.item, 0, 0, 1});
        run_units(weights, opt_.threads, [&](const WorkUnit& u, unsigned) {
            try {
                fn(u.item);
            } catch (const Error& e) {
                throw e.with_tensor(ts_[u.item].name).with_file(cat_.path);
            }
        }, {}, cancel_);
    }

    SlotWriteFn slot_writer(const OutputTensor& t) {
        return [&t, this](std::size_t j, u64 offset, std::span<const std::uint8_t> bytes) {
            const std::size_t i = t.sink_tensors.at(j);
            if (offset + bytes.size() > sink_.tensor_nbytes(i))
                throw Error(ErrorCode::SizeMismatch, "encoder wrote past the end of output tensor " + std::to_string(j) + " of " + t.name);
            sink_.write(i, offset, bytes);
        };
    }

    void prepass(const WorkUnit& u, unsigned worker) {
        ChunkRows rows(cat_, ts_[u.item], u.row0, u.nrows, scratch_[worker].x);
        scheme_of(ts_[u.item])->prepass(rows);
    }

    void run_main(const std::vector<WorkUnit>& us) {
        // Each unit's round-trip error, merged per tensor in row order afterwards.
        std::vector<LossSums> unit_loss(us.size());
        // after_pass by the worker that finishes a weight's last chunk.
        std::vector<std::atomic<u64>> chunks_left(ts_.size());
        for (const auto& u : us)
            if (const auto* s = scheme_of(ts_[u.item]); s && s->needs_after_pass()) chunks_left[u.item].fetch_add(1);
        run_pass(us, [&](const WorkUnit& u, unsigned worker) {
            OutputTensor& t = ts_[u.item];
            LossSums& loss = unit_loss[std::size_t(&u - us.data())];
            std::visit([&](auto& enc) { chunk(t, enc, u, scratch_[worker], loss); }, t.encoding);
            if (auto* s = scheme_of(t);
                s && s->needs_after_pass() && chunks_left[u.item].fetch_sub(1, std::memory_order_acq_rel) == 1)
                s->after_pass(slot_writer(t));
        });
        for (std::size_t i = 0; i < us.size(); ++i) res_.loss[us[i].item].merge(unit_loss[i]);
    }

    void chunk(const OutputTensor& t, const CopyStored&, const WorkUnit&, Scratch&, LossSums&) {
        const TensorInfo& stored = *t.stored;
        if (stored.big_endian || !stored.strides.empty() || stored.nbytes < t.bytes)
            throw Error(ErrorCode::Unsupported, "cannot copy this stored layout unchanged (big-endian or strided)");
        const std::uint8_t* src = cat_.data(stored);
        constexpr u64 kStep = 8u << 20;
        for (u64 at = 0; at < t.bytes; at += kStep) {
            if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw Error(ErrorCode::Cancelled, "cancelled");
            const u64 n = std::min(kStep, t.bytes - at);
            sink_.write(t.sink_tensors[0], at, {src + at, static_cast<std::size_t>(n)});
            cat_.shards[stored.shard].file->release(stored.offset + at, n, at + n >= t.bytes);
        }
    }

    void chunk(const OutputTensor& t, const CopyRows&, const WorkUnit& u, Scratch& s, LossSums&) {
        const Recipe& r = *t.recipe;
        const u64 row_bytes = t.bytes / r.rows();
        s.b.resize(static_cast<std::size_t>(u.nrows * row_bytes));
        r.copy_rows(u.row0, u.nrows, s.b.data());
        sink_.write(t.sink_tensors[0], u.row0 * row_bytes, s.b);
        detail::release_inputs(cat_, r, u.row0, u.nrows);
    }

    // f32 values decoded and encoded at a time: 128 KiB, so that they stay in
    // the core's cache between the two steps (a whole chunk's f32 values, up to
    // 8 MiB, made a round trip through memory).
    static constexpr u64 kSliceElems = 32768;

    void chunk(const OutputTensor& t, const EncodeType& e, const WorkUnit& u, Scratch& s, LossSums& l) {
        const Recipe& r = *t.recipe;
        const u64 C = r.row_elems();
        const u64 n = u.nrows * C;
        const auto qbytes = *dtype_bytes(e.type, n);
        s.b.resize(qbytes);
        // Slices of whole rows, a multiple of the tensor's granularity (unit
        // boundaries are, so slice boundaries are valid ones too). The loss
        // measure keeps the whole chunk: its sums run in the chunk's order.
        u64 step = u.nrows;
        if (e.loss != LossMode::Measure) {
            const u64 g = std::max<u64>(1, t.granularity);
            step = std::min(u.nrows, std::max<u64>(g, kSliceElems / std::max<u64>(1, C) / g * g));
        }
        s.x.resize(step * C);
        const auto& sk = kernels::st::st_kernels();
        for (u64 a = 0; a < u.nrows; a += step) {
            const u64 m = std::min(step, u.nrows - a), k = m * C;
            r.dequantize_rows(u.row0 + a, m, s.x.data());
            encode_to_type(e.type, s.x.data(), s.b.data() + *dtype_bytes(e.type, a * C), k, e.n_per_row,
                           (u.row0 + a) * C / e.n_per_row, e.rows_per_matrix, e.imatrix);
            if (e.loss == LossMode::CountNonfinite && sk.first_nonfinite(s.x.data(), k) < k)
                for (u64 i = 0; i < k; ++i) l.nonfinite += std::isfinite(s.x[i]) ? 0 : 1;
        }
        sink_.write(t.sink_tensors[0], *dtype_bytes(e.type, u.row0 * C), {s.b.data(), static_cast<std::size_t>(qbytes)});
        if (e.loss == LossMode::Measure) {
            // Round trip, measured against the exact input values (s.x holds the chunk).
            s.y.resize(n);
            const DTypeInfo* info = dtype_info(e.type);
            info->to_f32(s.b.data(), s.y.data(), n / info->block_elems);
            // The SIMD loss takes finite inputs (it checks y only); a chunk holding a
            // NaN/±inf input is summed pair by pair.
            if (sk.first_nonfinite(s.x.data(), n) == n) sk.loss(s.x.data(), s.y.data(), n, l);
            else
                for (u64 i = 0; i < n; ++i) l.add(s.x[i], s.y[i]);
        }
        detail::release_inputs(cat_, r, u.row0, u.nrows);
    }

    void chunk(const OutputTensor& t, std::unique_ptr<SchemeEncoder>& enc, const WorkUnit& u, Scratch& s, LossSums& l) {
        ChunkRows rows(cat_, t, u.row0, u.nrows, s.x);
        enc->encode(rows, s.enc, slot_writer(t), l);
    }

    const Catalog& cat_;
    std::vector<OutputTensor>& ts_;
    TensorSink& sink_;
    const RunOptions& opt_;
    const ProgressFn& progress_;
    const std::atomic<bool>* cancel_;
    std::vector<Batch> batches_;
    std::vector<Scratch> scratch_;
    u64 total_ = 0, done_before_ = 0;
    std::atomic<u64> since_sweep_{0};
    std::mutex sweep_mu_;
    RunResult res_;
};

}  // namespace

RunResult run_output_plan(const Catalog& cat, OutputPlan plan, TensorSink& sink, const RunOptions& opt,
                          const ProgressFn& progress, const std::atomic<bool>* cancel) {
    try {
        return Runner(cat, plan, sink, opt, progress, cancel).run();
    } catch (...) {
        sink.abort();
        throw;
    }
}

}  // namespace amn::exec
