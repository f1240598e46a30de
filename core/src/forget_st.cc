// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes (bitsandbytes, compressed-tensors, DeepSeek
// FP8): choose the Linear weights, encode each whole weight with the
// st_quantize.hpp quantizers on the executor, write payload + companions
// under the library's names through the safetensors sink of the output set
// (safetensors_set.hpp, shared with remember), pass every
// other tensor through, write config.json with the library's
// quantization_config. The round trip of each weight is measured on the spot
// when StForgetOptions::measure_loss asks for it.
// Scheme parsing, names, labels and quantization_config: forget_st_schemes.cc;
// which tensors are quantized and their stored tensors: forget_st_select.cc.
#include "anamnesis/forget_st.hpp"

#include "anamnesis/convert.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/safetensors_writer.hpp"
#include "input_release.hpp"
#include "json_util.hpp"
#include "output_files.hpp"
#include "safetensors_set.hpp"
#include "shape_rows.hpp"
#include "forget_st_internal.hpp"
#include "forget_st_quant.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <atomic>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <memory>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace amn {
namespace {

using u64 = std::uint64_t;

using forget_st_internal::Choice;
using forget_st_internal::OutSpec;
using forget_st_internal::classify;
using forget_st_internal::is_conv1d_model;
using forget_st_internal::lower;
using forget_st_internal::module_of;
using forget_st_internal::out_specs;
using forget_st_internal::overloaded;

// ---- the job -----------------------------------------------------------------------

struct Entry {
    std::size_t lt = 0;           // plan.tensors index
    ForgetTensor info;
    bool quantize = false;
    bool linear_kept = false;
    DType wdtype = DType::F32;    // dtype the weight is stored in (decides bytes)
    DType out_dtype = DType::Unknown;  // kept: output dtype
    std::vector<OutSpec> outs;    // quantized: stored tensors; kept: one
    std::uint32_t shard = 0;
    std::vector<std::size_t> sink_index;  // per out, index in its writer
};

struct Prepared {
    std::vector<Entry> entries;
    std::vector<std::string> ignore;
};

std::vector<std::regex> compile(const std::vector<std::string>& res, const char* flag) {
    std::vector<std::regex> out;
    for (const auto& r : res) {
        try {
            out.emplace_back(r, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw Error(ErrorCode::Usage, std::string(flag) + " '" + r + "' is not a valid regular expression: " + e.what());
        }
    }
    return out;
}

DType stored_float(const LogicalTensor& lt) {
    if (lt.quantized) return DType::BF16;
    const auto d = lt.recipe ? lt.recipe->lossless_dtype() : std::nullopt;
    if (!d) return DType::BF16;
    return *d;
}

Prepared prepare(const Catalog& cat, const Plan& plan, const std::optional<std::string>& config_json,
                 const StForgetOptions& opt) {
    if (lower(opt.output).ends_with(".gguf"))
        throw Error(ErrorCode::Usage,
                    "output " + opt.output + ": " + st_scheme_label(opt.scheme) +
                        " writes safetensors (a folder or a .safetensors file); for GGUF use --to gguf:FTYPE",
                    cat.path);
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error, cat.path, lt.name);
    bool quantized_input = false;
    for (const auto& lt : plan.tensors) quantized_input = quantized_input || lt.quantized;
    if (quantized_input && !opt.requantize) {
        std::string schemes;
        for (const auto& s : plan.schemes) schemes += (schemes.empty() ? "" : ", ") + s.id;
        throw Error(ErrorCode::Unsupported,
                    "the input is already quantized (" + (schemes.empty() ? std::string("quantized tensors") : schemes) +
                        "): pass --requantize to decode it and quantize again (the errors compound), or start from "
                        "the BF16/F16/F32 model",
                    cat.path);
    }
    const auto only = compile(opt.only, "--only");
    const auto keep = compile(opt.keep, "--keep");
    const std::string label = st_scheme_label(opt.scheme);

    Prepared p;
    std::set<std::string> ignore;
    const bool conv1d_model = is_conv1d_model(config_json);
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        Entry e;
        e.lt = i;
        e.shard = lt.shard;
        const DType sd = stored_float(lt);
        const bool is_float = lt.quantized || sd == DType::F32 || sd == DType::F16 || sd == DType::BF16 || sd == DType::F64;
        Choice c = classify(lt, is_float, only, keep,
                            std::holds_alternative<Bnb4Target>(opt.scheme) || std::holds_alternative<BnbInt8Target>(opt.scheme),
                            conv1d_model);
        e.quantize = c.quantize;
        e.linear_kept = c.linear;
        auto& t = e.info;
        t.name = lt.name;
        t.shape = lt.shape;
        t.numel = lt.numel();
        t.source = lt.quantized ? cat.tensors.at(lt.sources.at(0)).dtype : sd;
        if (e.quantize) {
            const u64 R = lt.shape[0], C = lt.shape[1];
            e.wdtype = lt.quantized ? DType::BF16 : sd == DType::F64 ? DType::F32 : sd;
            if (const auto* q = std::get_if<PackedIntTarget>(&opt.scheme); q && q->group_size && C % q->group_size != 0)
                throw Error(ErrorCode::Usage,
                            "group size " + std::to_string(q->group_size) + " does not divide the row of " + std::to_string(C) +
                                " columns (compressed-tensors refuses it): use --group-size channel, or --keep this tensor",
                            cat.path, lt.name);
            e.outs = out_specs(opt.scheme, lt.name, R, C, e.wdtype);
            t.target = e.outs[0].dtype;
            t.reason = "quantized: " + label;
            for (const auto& o : e.outs)
                if (!o.tail) t.bytes += *dtype_bytes(o.dtype, [&] { u64 n = 1; for (auto d : o.shape) n *= d; return n; }());
        } else {
            t.reason = c.reason;
            e.out_dtype = lt.quantized ? DType::BF16 : sd;
            t.copied = !lt.quantized;
            t.target = e.out_dtype;
            if (lt.quantized) t.reason += " (decoded to BF16)";
            t.bytes = dtype_bytes(e.out_dtype, t.numel).value_or(0);
            e.outs.push_back({lt.name, e.out_dtype, lt.shape});
            if (c.linear) ignore.insert(module_of(lt.name));
        }
        p.entries.push_back(std::move(e));
    }
    if (std::none_of(p.entries.begin(), p.entries.end(), [](const Entry& e) { return e.quantize; }))
        throw Error(ErrorCode::Usage,
                    "no tensor to quantize: no 2-D float Linear weight of the transformer blocks" +
                        std::string(opt.only.empty() ? "" : " matches --only") + " (see --only/--keep)",
                    cat.path);
    // Output names must not collide (a companion named like an input tensor).
    std::set<std::string> names;
    for (const auto& e : p.entries)
        for (const auto& o : e.outs)
            if (!names.insert(o.name).second)
                throw Error(ErrorCode::Usage, "two output tensors would be called " + o.name, cat.path, o.name);
    p.ignore.assign(ignore.begin(), ignore.end());
    return p;
}

}  // namespace

// ---- plan / run ---------------------------------------------------------------------------------

std::vector<ForgetTensor> plan_st_forget(const Catalog& cat, const Plan& input_plan, const StForgetOptions& opt) {
    const forget_st_internal::StInput in(cat, input_plan);
    auto p = prepare(cat, in.plan(), in.config_json(), opt);
    std::vector<ForgetTensor> out;
    for (auto& e : p.entries) out.push_back(std::move(e.info));
    return out;
}

StForgetResult forget_to_safetensors(const Catalog& cat, const Plan& input_plan, const StForgetOptions& opt,
                                     const ProgressFn& progress, const std::atomic<bool>* cancel) {
    const forget_st_internal::StInput in(cat, input_plan);  // a GGUF input: its Hugging Face layout
    const Plan& plan = in.plan();
    Prepared p = prepare(cat, plan, in.config_json(), opt);
    StForgetResult res;
    res.loss_measured = opt.measure_loss;
    res.quantization_config = st_quantization_config(opt.scheme, p.ignore);
    for (const auto& e : p.entries)
        if (!e.quantize && e.linear_kept) res.kept.push_back(e.info.name);
    if (opt.requantize)
        for (const auto& e : p.entries)
            if (e.quantize && plan.tensors[e.lt].quantized) {
                res.warnings.push_back("re-quantizing tensors that were already quantized compounds their error "
                                       "(start from F32/F16/BF16 when you can)");
                break;
            }

    // Output files (checks: never an input, OutputExists, folder created).
    ConvertOptions co;
    co.output = opt.output.empty() ? default_st_output_path(cat, opt.scheme) : opt.output;
    co.force = opt.force;
    co.config_json = forget_st_internal::config_with(in.config_json(), res.quantization_config);
    const auto layout = detail::plan_output_files(cat, co);

    // The output set: one shard per input shard, index.json, config.json,
    // tokenizer files, committed together (safetensors_set.hpp).
    detail::SafetensorsSet sink(layout, opt.force, {{"format", "pt"}}, SafetensorsWriter::DataOrder::Upstream);
    const std::size_t nshards = sink.shard_count();
    for (auto& e : p.entries) {
        if (nshards == 1) e.shard = 0;
        for (const auto& o : e.outs)
            e.sink_index.push_back(o.tail ? sink.add_tail_tensor(e.shard, o.name, o.dtype, 1, 20)
                                          : sink.add_tensor(e.shard, o.name, o.dtype, o.shape));
    }
    sink.layout();

    // Every tensor streams in row chunks (quantized weights: a multiple of the
    // quantizer's row granularity). Weights that need a tensor-wide value first
    // (FP8 per tensor, double quant) get a first pass over their chunks. The
    // tensors run in batches of about 64 · chunk_bytes elements (2^29 by
    // default), in order, so that what a quantizer holds whole (double-quant
    // absmax, zero points: ≤ 1/64 of its elements) is freed batch by batch.
    // A batch with a first pass is smaller (8 · chunk_bytes elements): its input
    // pages stay mapped from the first pass to the second (not released and
    // faulted in again), which bounds what they add to the resident set.
    // Unit weight = input f32 bytes.
    const u64 kBatchElems = 64 * std::max<u64>(1, opt.chunk_bytes);
    const u64 kPrepassBatchElems = 8 * std::max<u64>(1, opt.chunk_bytes);
    struct Batch {
        std::vector<WorkUnit> pre, main;
    };
    std::vector<std::unique_ptr<forget_st_internal::WeightQuantizer>> quantizers(p.entries.size());
    std::vector<Batch> batches(1);
    u64 in_batch = 0, grand_total = 0;
    bool batch_has_pre = false;
    for (std::size_t k = 0; k < p.entries.size(); ++k) {
        const auto& e = p.entries[k];
        const Recipe& r = *plan.tensors[e.lt].recipe;
        if (r.rows() == 0 || e.info.numel == 0) continue;
        if (e.quantize)
            quantizers[k] = std::make_unique<forget_st_internal::WeightQuantizer>(
                opt.scheme, e.info.shape[0], e.info.shape[1], e.wdtype, nullptr, opt.measure_loss);
        const bool pre = quantizers[k] && quantizers[k]->needs_prepass();
        if (in_batch >= (pre || batch_has_pre ? kPrepassBatchElems : kBatchElems))
            batches.emplace_back(), in_batch = 0, batch_has_pre = false;
        in_batch += e.info.numel;
        batch_has_pre = batch_has_pre || pre;
        Batch& bt = batches.back();
        if (!e.quantize) {
            split_rows(bt.main, k, r.rows(), r.row_elems() * 4, std::max<u64>(1, r.row_granularity()), opt.chunk_bytes);
            continue;
        }
        const u64 R = e.info.shape[0], C = e.info.shape[1];
        const u64 g = std::lcm(quantizers[k]->row_granularity(), std::max<u64>(1, r.row_granularity()));
        split_rows(bt.main, k, R, C * 4, g, opt.chunk_bytes);
        if (quantizers[k]->needs_prepass()) split_rows(bt.pre, k, R, C * 4, g, opt.chunk_bytes);
    }
    std::size_t max_units = 0;
    for (const auto& bt : batches) {
        for (const auto* us : {&bt.pre, &bt.main}) {
            for (const auto& u : *us) grand_total += u.weight;
            max_units = std::max(max_units, us->size());
        }
    }

    struct Scratch {
        std::vector<float> x;
        std::vector<std::uint8_t> b;
        forget_st_internal::QuantScratch q;
    };
    std::vector<Scratch> scratch(worker_count(opt.threads, max_units));
    std::vector<st::kern::LossSums> loss(p.entries.size());

    // The rows in s.x are finite, or a named error.
    auto nonfinite_error = [](float v, u64 row, u64 col) {
        throw Error(ErrorCode::Unsupported, std::string(std::isnan(v) ? "NaN" : "infinity") + " at [" +
                                                std::to_string(row) + ", " + std::to_string(col) +
                                                "]: a weight to quantize must be finite (nothing written)");
    };
    auto check_finite = [&](const Entry& e, const WorkUnit& u, const Scratch& s) {
        const u64 C = e.info.shape[1], n = u.nrows * C;
        const u64 i = st::kern::st_kernels().first_nonfinite(s.x.data(), n);
        if (i < n) nonfinite_error(s.x[i], u.row0 + i / C, i % C);
    };
    // The stored BF16 values of a weight to quantize (the usual input), or null.
    auto stored_bf16 = [&](const Entry& e) -> const std::uint16_t* {
        const LogicalTensor& lt = plan.tensors[e.lt];
        if (lt.quantized || e.wdtype != DType::BF16 || lt.recipe->scheme_id() != "passthrough" ||
            lt.sources.size() != 1)
            return nullptr;
        const TensorInfo& ti = cat.tensors[lt.sources[0]];
        const std::uint8_t* base = cat.data(ti);
        if (ti.dtype != DType::BF16 || ti.nbytes != e.info.numel * 2 || !base ||
            reinterpret_cast<std::uintptr_t>(base) % 2 != 0)
            return nullptr;
        return reinterpret_cast<const std::uint16_t*>(base);
    };
    // Decode rows [row0, row0 + nrows) of a weight to quantize into s.x, checked when `check`
    // (not needed: the first pass of a two-pass weight checked these rows; the quantizer's
    // loss flags a non-finite value, checked after encode()). `release`: give their input
    // pages back (not in a first pass: the second one reads them again).
    auto load = [&](const Entry& e, const WorkUnit& u, Scratch& s, bool check, bool release = true) {
        const LogicalTensor& lt = plan.tensors[e.lt];
        const Recipe& r = *lt.recipe;
        const u64 C = e.info.shape[1], n = u.nrows * C;
        s.x.resize(n);
        // A stored BF16 weight: decoded and checked in one pass.
        if (check) {
            if (const std::uint16_t* in = stored_bf16(e)) {
                const u64 i = st::kern::st_kernels().bf16_decode_checked(in + u.row0 * C, n, s.x.data());
                if (release) detail::release_shape_rows(cat, r, C, u.row0, u.nrows);
                if (i < n) nonfinite_error(s.x[i], u.row0 + i / C, i % C);
                return;
            }
        }
        detail::dequantize_shape_rows(r, C, u.row0, u.nrows, s.x.data());  // rows of the shape, not of the recipe
        if (release) detail::release_shape_rows(cat, r, C, u.row0, u.nrows);
        // A decoded (--requantize) weight is quantized as the BF16 model
        // `remember` writes: values rounded to BF16 first.
        if (lt.quantized)
            for (u64 i = 0; i < n; ++i) s.x[i] = st::detail::round_to(e.wdtype, s.x[i]);
        if (check) check_finite(e, u, s);
    };
    auto sink_put = [&](const Entry& e) {
        return [&e, &sink](std::size_t j, u64 offset, std::span<const std::uint8_t> bytes) {
            if (offset + bytes.size() > sink.tensor_nbytes(e.sink_index[j]))
                throw Error(ErrorCode::SizeMismatch, "quantizer wrote past the end of " + e.outs[j].name);
            sink.write(e.sink_index[j], offset, bytes);
        };
    };

    // Progress over every pass of every batch, in the order they run.
    u64 done_before = 0;
    const ProgressFn step_progress = progress ? ProgressFn([&](const Progress& pr) {
        progress({done_before + pr.done, grand_total});
    }) : ProgressFn{};
    auto weight_of = [](const std::vector<WorkUnit>& us) {
        u64 w = 0;
        for (const auto& u : us) w += u.weight;
        return w;
    };

    // Run fn(item) once for each quantized weight of `us` (its chunk at row 0), one
    // weight per worker (serial, a whole-weight step would leave a core idle), errors
    // named after the weight.
    auto per_weight = [&](const std::vector<WorkUnit>& us, const std::function<void(std::size_t)>& fn) {
        std::vector<WorkUnit> weights;
        for (const auto& u : us)
            if (quantizers[u.item] && u.row0 == 0) weights.push_back({u.item, 0, 0, 1});
        run_units(weights, opt.threads, [&](const WorkUnit& u, unsigned) {
            try {
                fn(u.item);
            } catch (const Error& err) {
                throw err.with_tensor(p.entries[u.item].info.name).with_file(cat.path);
            }
        }, {}, cancel);
    };

    for (auto& bt : batches) {
        // What each weight holds whole.
        per_weight(bt.main, [&](std::size_t k) { quantizers[k]->start(); });
        run_units(bt.pre, opt.threads, [&](const WorkUnit& u, unsigned worker) {
            const Entry& e = p.entries[u.item];
            try {
                auto& q = *quantizers[u.item];
                // FP8 per tensor / double quant of a BF16 weight: max |x| per row or block from
                // the stored bits (no decode); a non-finite value goes the decoding way to its
                // named error.
                // The input pages stay mapped for the second pass (which releases them).
                if (const std::uint16_t* in = q.has_bf16_prepass() ? stored_bf16(e) : nullptr;
                    in && q.prepass_bf16(in + u.row0 * e.info.shape[1], u.row0, u.nrows))
                    return;
                load(e, u, scratch[worker], true, false);
                q.prepass(scratch[worker].x.data(), u.row0, u.nrows);
            } catch (const Error& err) {
                throw err.with_tensor(e.info.name).with_file(cat.path);
            }
        }, step_progress, cancel);
        done_before += weight_of(bt.pre);
        // The tensor-wide values (double quantization of every absmax, the FP8 tensor scale).
        per_weight(bt.pre, [&](std::size_t k) { quantizers[k]->finish_prepass(); });

        std::vector<st::kern::LossSums> unit_loss(bt.main.size());
        // Tensor-wide values of what the chunks recorded (double quantization without a
        // first pass): by the worker that finishes a weight's last chunk, beside the
        // other weights' chunks.
        std::vector<std::atomic<u64>> chunks_left(p.entries.size());
        for (const auto& u : bt.main)
            if (quantizers[u.item] && quantizers[u.item]->needs_after_pass()) chunks_left[u.item].fetch_add(1);
        auto chunk_done = [&](const WorkUnit& u) {
            if (quantizers[u.item] && quantizers[u.item]->needs_after_pass() &&
                chunks_left[u.item].fetch_sub(1, std::memory_order_acq_rel) == 1)
                quantizers[u.item]->after_pass(sink_put(p.entries[u.item]));
        };
        run_units(bt.main, opt.threads, [&](const WorkUnit& u, unsigned worker) {
            Entry& e = p.entries[u.item];
            const LogicalTensor& lt = plan.tensors[e.lt];
            const Recipe& r = *lt.recipe;
            Scratch& s = scratch[worker];
            try {
                if (e.quantize) {
                    auto& q = *quantizers[u.item];
                    // A stored BF16 weight the quantizer reads as it is (no decode); a
                    // non-finite value goes the decoding way to its named error.
                    if (const std::uint16_t* in = q.has_bf16_encode() ? stored_bf16(e) : nullptr;
                        in && q.encode_bf16(in + u.row0 * e.info.shape[1], u.row0, u.nrows, s.q, sink_put(e),
                                            unit_loss[std::size_t(&u - bt.main.data())])) {
                        detail::release_shape_rows(cat, r, e.info.shape[1], u.row0, u.nrows);
                        chunk_done(u);
                        return;
                    }
                    const bool after = !q.needs_prepass() && q.loss_flags_nonfinite();
                    load(e, u, s, !q.needs_prepass() && !after);
                    auto& l = unit_loss[std::size_t(&u - bt.main.data())];
                    q.encode(s.x.data(), u.row0, u.nrows, s.q, sink_put(e), l);
                    // What was written for these rows is in the temporary file only: an error
                    // here removes it with the rest.
                    if (after && (!std::isfinite(l.sx2) || l.nonfinite)) check_finite(e, u, s);
                    chunk_done(u);
                    return;
                }
                const u64 n = u.nrows * r.row_elems();
                const u64 row_bytes = e.info.bytes / r.rows();
                s.b.resize(static_cast<std::size_t>(u.nrows * row_bytes));
                if (!lt.quantized) {
                    r.copy_rows(u.row0, u.nrows, s.b.data());
                } else {
                    s.x.resize(n);
                    r.dequantize_rows(u.row0, u.nrows, s.x.data());
                    kernels::f32_to_bf16(s.x.data(), reinterpret_cast<std::uint16_t*>(s.b.data()), n);
                }
                sink.write(e.sink_index[0], u.row0 * row_bytes, s.b);
                detail::release_inputs(cat, r, u.row0, u.nrows);
            } catch (const Error& err) {
                throw err.with_tensor(lt.name).with_file(cat.path);
            }
        }, step_progress, cancel);  // on error the sink's destructor removes its temporaries
        done_before += weight_of(bt.main);

        // Whole-tensor outputs of each quantized weight of the batch (the sink takes writes
        // and tail tensors from any thread), and its loss (chunks in row order).
        for (std::size_t i = 0; i < bt.main.size(); ++i) loss[bt.main[i].item].merge(unit_loss[i]);
        per_weight(bt.main, [&](std::size_t k) {
            Entry& e = p.entries[k];
            e.info.bytes += quantizers[k]->finish(sink_put(e), [&](std::size_t j, std::span<const std::uint8_t> bytes) {
                sink.set_tail_tensor(e.sink_index[j], {bytes.size()}, bytes);
            });
            quantizers[k].reset();  // frees what it held whole
        });
    }

    // Commit the whole set: all in place, or (on any failure) none.
    sink.set_config_json(*co.config_json + "\n");
    for (auto& [dst, text] : detail::read_ancillary_files(cat, layout, opt.force)) sink.add_file(dst, std::move(text));
    sink.commit();
    res.files = sink.files();
    for (std::size_t s = 0; s < nshards; ++s) res.file_bytes += sink.file_size(s);

    for (std::size_t k = 0; k < p.entries.size(); ++k) {
        auto& e = p.entries[k];
        auto& t = e.info;
        res.input_numel += t.numel;
        std::vector<std::string> names;
        for (const auto& o : e.outs) names.push_back(o.name);
        res.stored.push_back(std::move(names));
        if (e.quantize) {
            const auto& l = loss[k];
            res.nonfinite += l.nonfinite;
            if (opt.measure_loss) detail::store_loss(t, l);
            if (l.nonfinite)
                res.warnings.push_back(t.name + ": " + std::to_string(l.nonfinite) +
                                       " value(s) dequantize to a non-finite number (left out of the loss)");
        }
        res.tensors.push_back(std::move(t));
    }
    return res;
}

}  // namespace amn
