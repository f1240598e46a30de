// SPDX-License-Identifier: MIT OR Apache-2.0
// Remember: every tensor decoded (or copied) in row chunks by the runner
// (exec/run_output_plan.hpp), into the safetensors sink of the output set (safetensors_set.hpp: shards,
// index.json, config.json, tokenizer files, committed together).
#include "anamnesis/remember.hpp"
#include "anamnesis/remember_size.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/zip.hpp"
#include "util/json_dom.hpp"
#include "util/json_util.hpp"
#include "util/py_json.hpp"
#include "jobs/safetensors_output.hpp"
#include "plan/schemes/facts.hpp"

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

DType output_dtype(const Catalog& cat, const LogicalTensor& lt, const RememberOptions& o) {
    return remember_output_dtype(cat, lt, o.to);  // one rule with the wizard's size prediction
}

// config.json's torch_dtype: `to`, else the one dtype every dequantized
// tensor gets (MLX F16 layers stay F16), else BF16.
DType config_dtype(const Catalog& cat, const Plan& plan, const RememberOptions& o) {
    if (o.to) return *o.to;
    std::optional<DType> common;
    for (const auto& lt : plan.tensors) {
        if (!lt.quantized || !lt.recipe) continue;
        const DType d = output_dtype(cat, lt, o);
        if (common && *common != d) return DType::BF16;
        common = d;
    }
    return common.value_or(DType::BF16);
}

// The dtype the default output is named after: `to`, else config_dtype()
// when something is dequantized (an MLX F16 folder → "<name>-f16"), else
// none (default_output_path's lossless naming).
std::optional<DType> named_dtype(const Catalog& cat, const Plan& plan, const RememberOptions& o) {
    if (o.to) return o.to;
    for (const auto& lt : plan.tensors)
        if (lt.quantized && lt.recipe) return config_dtype(cat, plan, o);
    return std::nullopt;
}

// ---- one output tensor -------------------------------------------------------

struct OutTensor {
    std::size_t lt;           // index into plan.tensors
    DType dtype;
    std::uint64_t bytes = 0;
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

void apply_hf_layout(const HfLayout& hf, RememberOptions& opt) {
    if (!hf.vocab_only) opt.config_json = hf.config_json;
    opt.side_files = hf.side_files;
    opt.side_files_only = hf.vocab_only;
}

RememberResult remember_to_safetensors(const Catalog& cat, const Plan& plan, const RememberOptions& opt,
                                     const ProgressFn& progress, const std::atomic<bool>* cancel) {
    if (opt.to && *opt.to != DType::BF16 && *opt.to != DType::F16 && *opt.to != DType::F32)
        throw Error(ErrorCode::Usage, "output dtype must be BF16, F16 or F32, not " + dtype_name(*opt.to));
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
    if (opt.side_files_only && !plan.tensors.empty())
        throw Error(ErrorCode::Usage, "side_files_only with a plan that has tensors", cat.path);
    verify_integrity(cat, cancel);

    // Everything that goes into the output is read and validated before the
    // first byte is written: config.json is rewritten now (a corrupt one
    // fails here, not after the shards were committed).
    const auto& cfg_in = opt.config_json ? opt.config_json : cat.config_json;
    std::optional<std::string> config_text;
    // An MLX folder's config.json is mlx-lm's (sorted, indent 4): kept in that style.
    const auto style = is_mlx_folder(cat, plan) ? ConfigStyle::MlxLm : ConfigStyle::AsInput;
    if (cfg_in && !opt.side_files_only)  // json.dump writes no newline after the text; amn's own style ends with one
        config_text = rewrite_config_json(*cfg_in, config_dtype(cat, plan, opt), style) +
                      (style == ConfigStyle::AsInput ? "\n" : "");

    // Output: the safetensors set (shards, index.json, config.json,
    // tokenizer files, committed as one), one output shard per input shard.
    detail::SafetensorsOutputPlan out;
    out.files = {opt.output.empty() ? default_output_path(cat, named_dtype(cat, plan, opt)) : opt.output, opt.force,
                 opt.config_json.has_value() && !opt.side_files_only, {}, std::nullopt};
    out.files.side_files_only = opt.side_files_only;
    out.metadata = output_metadata(cat, plan);
    out.order = SafetensorsWriter::DataOrder::AsAdded;
    out.config_json = std::move(config_text);
    out.side_files = opt.side_files;
    const std::size_t nshards = detail::output_shard_count(cat, out.files);
    std::vector<std::vector<OutTensor>> per_shard(nshards);
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        OutTensor t{i, output_dtype(cat, lt, opt)};
        const auto lossless = lt.recipe->lossless_dtype();
        // Output bytes come from shape × dtype: a strided view's stored byte
        // range (stored_bytes) can be larger than its contiguous output.
        if (lossless && *lossless == t.dtype) t.bytes = dtype_bytes(t.dtype, lt.numel()).value_or(lt.stored_bytes);
        else t.bytes = lt.numel() * elem_bytes(t.dtype);
        per_shard.at(nshards == 1 ? 0 : lt.shard).push_back(t);
    }
    // The runner's plan, in the set's order: bytes the recipe holds
    // losslessly copied, the others decoded and encoded to the output dtype;
    // row chunks of about opt.chunk_bytes output bytes.
    std::uint64_t total = 0;
    for (std::size_t s = 0; s < per_shard.size(); ++s) {
        auto& ts = per_shard[s];
        // Larger elements first keeps every tensor naturally aligned (as
        // upstream); within a size, the input's order.
        std::stable_sort(ts.begin(), ts.end(),
                         [](const OutTensor& a, const OutTensor& b) { return elem_bytes(a.dtype) > elem_bytes(b.dtype); });
        for (auto& t : ts) {
            const auto& lt = plan.tensors[t.lt];
            total += t.bytes;
            const auto& r = *lt.recipe;
            exec::OutputTensor o;
            o.name = lt.name;
            o.recipe = lt.recipe;
            o.sink_tensors = {out.tensors.size()};
            out.tensors.push_back({s, lt.name, t.dtype, lt.shape});
            o.bytes = t.bytes;
            o.numel = lt.numel();
            const auto lossless = r.lossless_dtype();
            if (lossless && *lossless == t.dtype) o.encoding = exec::CopyRows{};
            else o.encoding = exec::EncodeType{t.dtype, std::max<std::uint64_t>(1, r.row_elems())};
            const std::uint64_t rows = r.rows();
            if (rows != 0 && t.bytes != 0) {
                o.rows = rows;
                o.row_weight = std::max<std::uint64_t>(1, t.bytes / rows);
                o.granularity = r.row_granularity();
            }
            out.run.tensors.push_back(std::move(o));
        }
    }
    // Free space for the whole set, then the temporary files (this is where
    // an unwritable folder fails; on any error nothing is left).
    const auto written = detail::write_safetensors_plan(cat, std::move(out), {opt.threads, opt.chunk_bytes}, progress, cancel);
    RememberResult res;
    res.files = written.files;
    res.tensors = plan.tensors.size();
    res.tensor_bytes = total;
    return res;
}

std::string rewrite_config_json(const std::string& config_json, DType out, ConfigStyle style) {
    const std::string dt = out == DType::F32 ? "\"float32\"" : out == DType::F16 ? "\"float16\"" : "\"bfloat16\"";
    JsonWriter w(2);
    w.begin_object();
    bool wrote_dtype = false;
    detail::write_config_members(config_json, w, [&](const std::string& k) -> std::optional<std::string> {
        if (k != "torch_dtype" && k != "dtype") return std::nullopt;
        wrote_dtype = true;
        return dt;
    });
    if (!wrote_dtype) w.key("torch_dtype").raw(dt);
    w.end_object();
    if (style == ConfigStyle::AsInput) return w.take();
    // mlx-lm's save_config: json.dump(dict(sorted(config.items())), indent=4).
    const std::string text = w.take();
    const detail::JsonDoc doc(text, "config.json", "config.json");
    std::string py;
    detail::py_json_dump(py, doc.root(), 4, true);
    return py;
}

}  // namespace amn
