// SPDX-License-Identifier: MIT OR Apache-2.0
// Executor (row chunks on a thread pool, progress, cancellation, bounded
// memory) and the safetensors sink (header first, data pwritten in place,
// temporary files renamed only when complete).
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

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

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

// ---- one output shard -------------------------------------------------------

struct OutTensor {
    std::size_t lt;           // index into plan.tensors
    DType dtype;
    std::uint64_t begin = 0;  // relative to the data area
    std::uint64_t bytes = 0;
};

struct OutShard {
    std::string final_path;
    std::vector<OutTensor> tensors;
    std::string header;       // JSON header incl. padding
    std::uint64_t data_bytes = 0;
    detail::TempFile file;
};

std::string build_header(const Catalog& cat, const Plan& plan, const OutShard& sh) {
    JsonWriter w;
    w.begin_object();
    w.key("__metadata__").begin_object();
    w.key("format").value("pt");
    if (cat.format == Format::Safetensors) {
        // Keys that describe the quantization (gptq_bits, quant_method, …)
        // are false of a dequantized output.
        auto describes_quantization = [&](std::string k) {
            if (plan.schemes.empty()) return false;
            for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return detail::describes_quantization_key(k);
        };
        for (const auto& [k, v] : cat.metadata)
            if (k != "format" && k.rfind("index.", 0) != 0 && !describes_quantization(k)) w.key(k).value(meta_text(v));
    } else if (cat.format == Format::Gguf) {
        // Every GGUF key/value, values as JSON, so nothing is lost.
        w.key("gguf.kv").value(gguf_kv_json(cat));
    }  // NPY/NPZ/PTH container facts (byte order, archive prefix) describe the input, not the output.
    w.end_object();
    for (const auto& t : sh.tensors) {
        const auto& lt = plan.tensors[t.lt];
        w.key(lt.name).begin_object();
        w.key("dtype").value(dtype_name(t.dtype));
        w.key("shape").begin_array();
        for (auto d : lt.shape) w.value(d);
        w.end_array();
        w.key("data_offsets").begin_array().value(t.begin).value(t.begin + t.bytes).end_array();
        w.end_object();
    }
    w.end_object();
    std::string h = w.take();
    while ((8 + h.size()) % 8 != 0) h.push_back(' ');  // data area 8-byte aligned, as upstream
    return h;
}

std::size_t elem_bytes(DType d) {
    const auto* i = dtype_info(d);
    return i ? i->block_bytes / i->block_elems : 1;
}

// ---- work units -------------------------------------------------------------

void pwrite_all(int fd, const std::uint8_t* p, std::uint64_t n, std::uint64_t off, const std::string& path) {
    while (n > 0) {
        const ssize_t w = ::pwrite(fd, p, std::min<std::uint64_t>(n, 1u << 30), static_cast<off_t>(off));
        if (w < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorCode::Io, std::string("write failed: ") + std::strerror(errno), path);
        }
        p += w; n -= static_cast<std::uint64_t>(w); off += static_cast<std::uint64_t>(w);
    }
}

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

    // Output layout.
    const auto layout = detail::plan_output_files(cat, opt);
    // A folder this call created is removed again unless the run completes.
    struct DirGuard {
        std::string dir;
        bool keep = false;
        ~DirGuard() {
            if (keep || dir.empty()) return;
            std::error_code ec;
            for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); ++it)
                if (it->is_regular_file()) return;  // never delete anything that holds files
            fs::remove_all(dir, ec);
        }
    } dir_guard{layout.created_dir};
    std::vector<OutShard> shards(layout.shard_paths.size());
    for (std::size_t s = 0; s < shards.size(); ++s) shards[s].final_path = layout.shard_paths[s];
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        const std::size_t s = shards.size() == 1 ? 0 : lt.shard;
        OutTensor t{i, output_dtype(lt, opt)};
        const auto lossless = lt.recipe->lossless_dtype();
        // Output bytes come from shape × dtype: a strided view's stored byte
        // range (stored_bytes) can be larger than its contiguous output.
        if (lossless && *lossless == t.dtype) t.bytes = dtype_bytes(t.dtype, lt.numel()).value_or(lt.stored_bytes);
        else t.bytes = lt.numel() * elem_bytes(t.dtype);
        shards[s].tensors.push_back(t);
    }
    std::uint64_t total = 0;
    for (auto& sh : shards) {
        // Larger elements first keeps every tensor naturally aligned (as upstream).
        std::stable_sort(sh.tensors.begin(), sh.tensors.end(),
                         [](const OutTensor& a, const OutTensor& b) { return elem_bytes(a.dtype) > elem_bytes(b.dtype); });
        std::uint64_t off = 0;
        for (auto& t : sh.tensors) { t.begin = off; off += t.bytes; }
        sh.data_bytes = off;
        total += off;
        sh.header = build_header(cat, plan, sh);
    }

    // Work units: row chunks of about opt.chunk_bytes of output.
    std::vector<WorkUnit> units;
    std::vector<std::pair<std::size_t, std::size_t>> items;  // (shard, tensor) per WorkUnit::item
    for (std::size_t s = 0; s < shards.size(); ++s) {
        for (std::size_t k = 0; k < shards[s].tensors.size(); ++k) {
            const auto& t = shards[s].tensors[k];
            const auto& r = *plan.tensors[t.lt].recipe;
            const std::uint64_t rows = r.rows();
            if (rows == 0 || t.bytes == 0) continue;
            items.emplace_back(s, k);
            split_rows(units, items.size() - 1, rows, std::max<std::uint64_t>(1, t.bytes / rows), r.row_granularity(),
                       opt.chunk_bytes);
        }
    }

    // Enough room? (A hostile or mistaken input — a stride-0 view expanded to
    // terabytes — is refused here, by name, before anything is written.)
    {
        std::uint64_t need = 0;
        for (const auto& sh : shards) need += 8 + sh.header.size() + sh.data_bytes;
        struct statvfs vfs {};
        const std::string dir = layout.dir.empty() ? std::string(".") : layout.dir;
        if (::statvfs(dir.c_str(), &vfs) == 0) {
            const std::uint64_t avail = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
            if (need > avail)
                throw Error(ErrorCode::Io, "the output needs " + human_bytes(need) + " but only " + human_bytes(avail) +
                            " are free here", dir);
        }
    }

    // Create the temporary files (this is where an unwritable folder fails).
    for (auto& sh : shards) {
        sh.file = detail::TempFile::create(sh.final_path, opt.force);
        const std::uint64_t size = 8 + sh.header.size() + sh.data_bytes;
        sh.file.truncate(size);
        std::uint8_t len[8];
        const std::uint64_t n = sh.header.size();
        for (int i = 0; i < 8; ++i) len[i] = static_cast<std::uint8_t>(n >> (8 * i));
        pwrite_all(sh.file.fd(), len, 8, 0, sh.final_path);
        pwrite_all(sh.file.fd(), reinterpret_cast<const std::uint8_t*>(sh.header.data()), n, 8, sh.final_path);
    }

    // Run: each worker reuses its own f32 and output buffers.
    const unsigned nworkers = worker_count(opt.threads, units.size());
    std::vector<std::vector<float>> f32s(nworkers);
    std::vector<std::vector<std::uint8_t>> outs(nworkers);
    run_units(units, opt.threads, [&](const WorkUnit& unit, unsigned worker) {
        auto& f32 = f32s[worker];
        auto& out = outs[worker];
        auto& sh = shards[items[unit.item].first];
        const auto& t = sh.tensors[items[unit.item].second];
        const auto& lt = plan.tensors[t.lt];
        const auto& r = *lt.recipe;
        const std::uint64_t rows = r.rows();
        const std::uint64_t row_bytes = t.bytes / rows;
        const std::uint64_t nbytes = unit.nrows * row_bytes;
        const std::uint64_t file_off = 8 + sh.header.size() + t.begin + unit.row0 * row_bytes;
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
        pwrite_all(sh.file.fd(), out.data(), nbytes, file_off, sh.final_path);
        detail::release_inputs(cat, r, unit.row0, unit.nrows);
    }, progress, cancel);  // on error the TempFiles unlink themselves

    // Companion files into temporaries too, then the whole set is committed
    // together: all in place, or (on any failure) none.
    ConvertResult res;
    std::vector<detail::TempFile> extras;
    if (!layout.index_path.empty()) {
        JsonWriter w(2);
        w.begin_object();
        w.key("metadata").begin_object().key("total_size").value(total).end_object();
        w.key("weight_map").begin_object();
        std::map<std::string, std::string> wm;
        for (const auto& sh : shards)
            for (const auto& t : sh.tensors) wm[plan.tensors[t.lt].name] = fs::path(sh.final_path).filename().string();
        for (const auto& [n, f] : wm) w.key(n).value(f);
        w.end_object().end_object();
        extras.push_back(detail::TempFile::create(layout.index_path, opt.force));
        extras.back().write_all(w.str() + "\n");
    }
    if (config_text && !layout.config_path.empty()) {
        extras.push_back(detail::TempFile::create(layout.config_path, opt.force));
        extras.back().write_all(*config_text);
    }
    for (auto& [dst, text] : detail::read_ancillary_files(cat, layout, opt.force)) {
        extras.push_back(detail::TempFile::create(dst, opt.force));
        extras.back().write_all(text);
    }
    std::vector<detail::TempFile*> all;
    for (auto& sh : shards) all.push_back(&sh.file);
    for (auto& e : extras) all.push_back(&e);
    detail::commit_together(all);
    for (auto& sh : shards) {
        res.files.push_back(sh.final_path);
        res.tensors += sh.tensors.size();
        res.tensor_bytes += sh.data_bytes;
    }
    for (auto& e : extras) res.files.push_back(e.final_path());
    detail::sync_created_dirs(layout);
    dir_guard.keep = true;
    return res;
}

std::string rewrite_config_json(const std::string& config_json, DType out) {
    namespace od = simdjson::ondemand;
    const char* dt = out == DType::F32 ? "float32" : out == DType::F16 ? "float16" : "bfloat16";
    simdjson::padded_string json(config_json);
    od::parser parser;
    od::document doc;
    detail::check_json(parser.iterate(json).get(doc), "config.json is not valid JSON");
    od::object root;
    detail::check_json(doc.get_object().get(root), "config.json is not a JSON object");
    JsonWriter w(2);
    w.begin_object();
    bool wrote_dtype = false;
    for (auto field : root) {
        std::string_view key;
        detail::check_json(field.unescaped_key().get(key), "config.json: invalid key");
        const std::string k(key);
        od::value v;
        detail::check_json(field.value().get(v), "config.json: invalid value");
        if (k == "quantization_config" || k == "compression_config") continue;
        if (k == "torch_dtype" || k == "dtype") { w.key(k).value(dt); wrote_dtype = true; continue; }
        w.key(k).raw(detail::raw_text(v, "config.json"));
    }
    if (!wrote_dtype) w.key("torch_dtype").value(dt);
    w.end_object();
    return w.take();
}

}  // namespace amn
