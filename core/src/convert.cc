// SPDX-License-Identifier: MIT OR Apache-2.0
// Remember: every tensor decoded (or copied) in row chunks on the executor,
// into the safetensors sink of the output set (safetensors_set.hpp: shards,
// index.json, config.json, tokenizer files, committed together).
#include "anamnesis/convert.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/inspect.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/zip.hpp"
#include "json_util.hpp"
#include "input_release.hpp"
#include "output_files.hpp"
#include "safetensors_set.hpp"
#include "schemes/facts.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>


namespace amn {
namespace fs = std::filesystem;

namespace {

// ---- output dtype ---------------------------------------------------------

DType output_dtype(const LogicalTensor& lt, const ConvertOptions& o) {
    if (lt.quantized) return o.to.value_or(DType::BF16);
    const auto stored = lt.recipe->lossless_dtype();
    if (!stored) return o.to.value_or(DType::BF16);
    if (o.to && dtype_is_float(*stored)) return *o.to;
    return *stored;
}

// ---- one output tensor -------------------------------------------------------

struct OutTensor {
    std::size_t lt;           // index into plan.tensors
    DType dtype;
    std::uint64_t bytes = 0;
    std::size_t index = 0;    // in the sink
};

// The output's `__metadata__`: "format": "pt", then what of the input's
// metadata is still true of the output.
std::vector<std::pair<std::string, std::string>> output_metadata(const Catalog& cat, const Plan& plan) {
    std::vector<std::pair<std::string, std::string>> m{{"format", "pt"}};
    if (cat.format == Format::Safetensors) {
        // Keys that describe the quantization (gptq_bits, quant_method, …)
        // are false of a dequantized output.
        auto describes_quantization = [&](std::string k) {
            if (plan.schemes.empty()) return false;
            for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return detail::describes_quantization_key(k);
        };
        for (const auto& [k, v] : cat.metadata)
            if (k != "format" && k.rfind("index.", 0) != 0 && !describes_quantization(k)) m.emplace_back(k, meta_text(v));
    } else if (cat.format == Format::Gguf) {
        // Every GGUF key/value, values as JSON, so nothing is lost.
        m.emplace_back("gguf.kv", gguf_kv_json(cat));
    }  // NPY/NPZ/PTH container facts (byte order, archive prefix) describe the input, not the output.
    return m;
}

std::size_t elem_bytes(DType d) {
    const auto* i = dtype_info(d);
    return i ? i->block_bytes / i->block_elems : 1;
}

// ---- work units -------------------------------------------------------------

void store_f32(const float* src, DType to, std::uint8_t* dst, std::size_t n) {
    switch (to) {
        case DType::F32: std::memcpy(dst, src, n * 4); break;
        case DType::BF16: kernels::f32_to_bf16(src, reinterpret_cast<std::uint16_t*>(dst), n); break;
        case DType::F16: kernels::f32_to_f16(src, reinterpret_cast<std::uint16_t*>(dst), n); break;
        default: throw Error(ErrorCode::Usage, "unsupported output dtype " + dtype_name(to));
    }
}

// CRC-32 of every range a parser mapped without reading (stored ZIP
// entries), before anything is written; pages are released as we go.
void verify_integrity(const Catalog& cat, const std::atomic<bool>* cancel) {
    constexpr std::uint64_t kStep = 4u << 20;  // pages released every step: flat RSS
    for (const auto& c : cat.integrity_checks) {
        const auto& file = *cat.shards.at(c.shard).file;
        if (c.offset > file.size() || c.len > file.size() - c.offset)
            throw Error(ErrorCode::OutOfRange, "entry " + c.what + " lies outside the file", cat.path);
        std::uint32_t crc = 0;
        for (std::uint64_t at = 0; at < c.len; at += kStep) {
            if (cancel && cancel->load(std::memory_order_relaxed)) throw Error(ErrorCode::Cancelled, "cancelled");
            const std::uint64_t n = std::min(kStep, c.len - at);
            crc = zip_crc32({file.data() + c.offset + at, static_cast<std::size_t>(n)}, crc);
            file.release(c.offset + at, n);
        }
        if (crc != c.crc32)
            throw Error(ErrorCode::Malformed, "CRC-32 mismatch in archive entry " + c.what + ": the data is corrupt", cat.path);
    }
}

}  // namespace

ConvertResult convert_to_safetensors(const Catalog& cat, const Plan& plan, const ConvertOptions& opt,
                                     const ProgressFn& progress, const std::atomic<bool>* cancel) {
    if (opt.to && *opt.to != DType::BF16 && *opt.to != DType::F16 && *opt.to != DType::F32)
        throw Error(ErrorCode::Usage, "output dtype must be BF16, F16 or F32, not " + dtype_name(*opt.to));
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error, cat.path, lt.name);
    verify_integrity(cat, cancel);

    // Everything that goes into the output is read and validated before the
    // first byte is written: config.json is rewritten now (a corrupt one
    // fails here, not after the shards were committed).
    const auto& cfg_in = opt.config_json ? opt.config_json : cat.config_json;
    std::optional<std::string> config_text;
    if (cfg_in) config_text = rewrite_config_json(*cfg_in, opt.to.value_or(DType::BF16)) + "\n";

    // Output: the safetensors sink of the whole set (shards, index.json,
    // config.json, tokenizer files), committed as one.
    const auto layout = detail::plan_output_files(cat, opt);
    detail::SafetensorsSet sink(layout, opt.force, output_metadata(cat, plan), SafetensorsWriter::DataOrder::AsAdded);
    std::vector<std::vector<OutTensor>> per_shard(sink.shard_count());
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        const std::size_t s = per_shard.size() == 1 ? 0 : lt.shard;
        OutTensor t{i, output_dtype(lt, opt)};
        const auto lossless = lt.recipe->lossless_dtype();
        // Output bytes come from shape × dtype: a strided view's stored byte
        // range (stored_bytes) can be larger than its contiguous output.
        if (lossless && *lossless == t.dtype) t.bytes = dtype_bytes(t.dtype, lt.numel()).value_or(lt.stored_bytes);
        else t.bytes = lt.numel() * elem_bytes(t.dtype);
        per_shard.at(s).push_back(t);
    }
    std::vector<OutTensor> items;  // per WorkUnit::item
    std::vector<WorkUnit> units;   // row chunks of about opt.chunk_bytes of output
    std::uint64_t total = 0;
    for (std::size_t s = 0; s < per_shard.size(); ++s) {
        auto& ts = per_shard[s];
        // Larger elements first keeps every tensor naturally aligned (as
        // upstream); within a size, the input's order.
        std::stable_sort(ts.begin(), ts.end(),
                         [](const OutTensor& a, const OutTensor& b) { return elem_bytes(a.dtype) > elem_bytes(b.dtype); });
        for (auto& t : ts) {
            const auto& lt = plan.tensors[t.lt];
            t.index = sink.add_tensor(s, lt.name, t.dtype, lt.shape);
            total += t.bytes;
            const auto& r = *lt.recipe;
            const std::uint64_t rows = r.rows();
            if (rows == 0 || t.bytes == 0) continue;
            items.push_back(t);
            split_rows(units, items.size() - 1, rows, std::max<std::uint64_t>(1, t.bytes / rows), r.row_granularity(),
                       opt.chunk_bytes);
        }
    }
    // Free space for the whole set, then the temporary files (this is where
    // an unwritable folder fails).
    sink.layout();

    // Run: each worker reuses its own f32 and output buffers.
    const unsigned nworkers = worker_count(opt.threads, units.size());
    std::vector<std::vector<float>> f32s(nworkers);
    std::vector<std::vector<std::uint8_t>> outs(nworkers);
    run_units(units, opt.threads, [&](const WorkUnit& unit, unsigned worker) {
        auto& f32 = f32s[worker];
        auto& out = outs[worker];
        const auto& t = items[unit.item];
        const auto& lt = plan.tensors[t.lt];
        const auto& r = *lt.recipe;
        const std::uint64_t rows = r.rows();
        const std::uint64_t row_bytes = t.bytes / rows;
        const std::uint64_t nbytes = unit.nrows * row_bytes;
        const auto lossless = r.lossless_dtype();
        out.resize(nbytes);
        try {
            if (lossless && *lossless == t.dtype) {
                r.copy_rows(unit.row0, unit.nrows, out.data());
            } else {
                const std::uint64_t n = unit.nrows * r.row_elems();
                f32.resize(n);
                r.dequantize_rows(unit.row0, unit.nrows, f32.data());
                store_f32(f32.data(), t.dtype, out.data(), n);
            }
        } catch (const Error& e) {
            throw e.with_tensor(lt.name).with_file(cat.path);
        }
        sink.write(t.index, unit.row0 * row_bytes, {out.data(), static_cast<std::size_t>(nbytes)});
        detail::release_inputs(cat, r, unit.row0, unit.nrows);
    }, progress, cancel);  // on error the sink removes its temporaries

    // Companion files go in the same set: all in place, or (on any failure) none.
    if (config_text) sink.set_config_json(*config_text);
    for (auto& [dst, text] : detail::read_ancillary_files(cat, layout, opt.force)) sink.add_file(dst, std::move(text));
    sink.commit();
    ConvertResult res;
    res.files = sink.files();
    res.tensors = plan.tensors.size();
    res.tensor_bytes = total;
    return res;
}

std::string rewrite_config_json(const std::string& config_json, DType out) {
    const char* dt = out == DType::F32 ? "float32" : out == DType::F16 ? "float16" : "bfloat16";
    JsonWriter w(2);
    w.begin_object();
    bool wrote_dtype = false;
    detail::write_config_members(config_json, w, [&](const std::string& k) {
        if (k != "torch_dtype" && k != "dtype") return false;
        w.key(k).value(dt);
        wrote_dtype = true;
        return true;
    });
    if (!wrote_dtype) w.key("torch_dtype").value(dt);
    w.end_object();
    return w.take();
}

}  // namespace amn
