// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/catalog.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/pth.hpp"
#include "anamnesis/safetensors.hpp"
#include "source/formats/formats.hpp"
#include "util/json_dom.hpp"
#include "util/json_util.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <new>
#include <fstream>
#include <sstream>

namespace amn {
namespace fs = std::filesystem;

std::string_view format_name(Format f) noexcept {
    switch (f) {
        case Format::Safetensors: return "safetensors";
        case Format::Gguf: return "gguf";
        case Format::Npy: return "npy";
        case Format::Npz: return "npz";
        case Format::Pth: return "pth";
        case Format::Onnx: return "onnx";
    }
    return "unknown";
}

std::uint64_t TensorInfo::numel() const noexcept {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::optional<std::size_t> Catalog::find(std::string_view name) const {
    auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
}

const std::uint8_t* Catalog::data(const TensorInfo& t) const noexcept {
    return shards[t.shard].file->data() + t.offset;
}

std::optional<std::string> Catalog::qconfig(std::string_view key) const {
    auto it = quantization_config.find(std::string(key));
    if (it == quantization_config.end()) return std::nullopt;
    return it->second;
}

std::uint64_t Catalog::file_bytes() const noexcept {
    std::uint64_t n = 0;
    for (const auto& s : shards) n += s.file->size();
    return n;
}

void Catalog::index_names() {
    by_name_.clear();
    by_name_.reserve(tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        // Names end up as JSON keys (safetensors headers, --json): they must
        // be UTF-8, whatever container they came from (GGUF, pickle, ZIP).
        const auto& n = tensors[i].name;
        if (!simdjson::validate_utf8(n.data(), n.size())) {
            std::string shown;
            static const char* hx = "0123456789abcdef";
            for (unsigned char c : n.substr(0, 48)) {
                if (c >= 0x20 && c < 0x7f && c != '\\') shown += static_cast<char>(c);
                else { shown += "\\x"; shown += hx[c >> 4]; shown += hx[c & 15]; }
            }
            throw Error(ErrorCode::BadText, "tensor name is not valid UTF-8: \"" + shown + "\"", path);
        }
        if (!by_name_.emplace(tensors[i].name, i).second)
            throw Error(ErrorCode::Malformed, "tensor name appears twice", path, tensors[i].name);
    }
}

namespace detail {

// A companion file's text, or nullopt when it does not exist. Read through
// MappedFile (regular files only: a FIFO named config.json must not block)
// and validated as a whole JSON document up front, so a corrupt companion is
// a named error before any output exists, never a failure after commit.
static std::optional<std::string> slurp(const fs::path& p) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(p, ec)) && !fs::exists(p, ec)) return std::nullopt;
    auto f = MappedFile::open(p.string());
    f->require(0, f->size());  // a remote mirror fetches it now
    std::string text(reinterpret_cast<const char*>(f->data()), static_cast<std::size_t>(f->size()));
    validate_json_document(text, p.string());
    return text;
}

// Catalog::warnings for the keys a companion file repeats (dotted, under `where`).
static void warn_duplicates(Catalog& cat, const std::string& path, const std::string& where, const std::vector<std::string>& dups) {
    for (const auto& k : dups) {
        Notice n;
        n.kind = NoticeKind::DuplicateKey;
        n.file = path;
        n.key = where.empty() ? k : where + "." + k;
        cat.warnings.push_back(std::move(n));  // count 0: "more than once"
    }
}

static void read_quant_object(const std::string& text, const std::string& path, bool nested, Catalog& cat) {
    namespace od = simdjson::ondemand;
    detail::OnDemandObject json(text, "not valid JSON", "not a JSON object", path);
    od::object& root = json.root();
    std::vector<std::string> dups;
    if (!nested) {
        detail::flatten_object(root, "", cat.quantization_config, path, 0, &dups);
        warn_duplicates(cat, path, "", dups);
        return;
    }
    // The first of quantization_config / compression_config named is read;
    // when it is repeated, its last occurrence (Python's json).
    std::string chosen;
    std::map<std::string, std::string> q;
    std::map<std::string, std::size_t> seen;  // every top-level key: remember copies them (write_config_members)
    std::vector<std::string> order;
    std::map<std::string, std::string> mlx;
    std::vector<std::string> mlx_dups;
    for (auto field : root) {
        std::string_view key;
        check_json(field.unescaped_key().get(key), "invalid key", path);
        if (seen[std::string(key)]++ == 1) order.emplace_back(key);
        if (key == "quantization") {  // MLX's (mlx-lm): used when the file has no quantization_config
            od::object o;
            if (field.value().get_object().get(o) != simdjson::SUCCESS) continue;
            mlx.clear();
            detail::flatten_object(o, "", mlx, path, 0, &mlx_dups);
            continue;
        }
        if (key != "quantization_config" && key != "compression_config") continue;
        if (chosen.empty()) chosen = std::string(key);
        if (key != chosen) continue;
        q.clear();
        dups.clear();
        od::value v;
        check_json(field.value().get(v), "invalid value", path);
        od::object o;
        if (v.get_object().get(o) != simdjson::SUCCESS) continue;  // null / other: no quantization
        detail::flatten_object(o, "", q, path, 0, &dups);
    }
    for (const auto& k : order) {
        Notice n;
        n.kind = NoticeKind::DuplicateKey;
        n.file = path;
        n.key = k;
        n.count = seen[k];
        cat.warnings.push_back(std::move(n));
    }
    if (chosen.empty() && !mlx.empty()) {
        chosen = "quantization";
        q = std::move(mlx);
        dups = std::move(mlx_dups);
    }
    warn_duplicates(cat, path, chosen, dups);
    cat.quantization_config.insert(q.begin(), q.end());
}

// NVIDIA ModelOpt's hf_quant_config.json ({"producer": …, "quantization":
// {"quant_algo": "NVFP4", …}}): its `quantization` object fills the keys
// config.json's quantization_config lacks, and quant_method becomes "modelopt".
static void read_hf_quant_config(const std::string& text, const std::string& path, Catalog& cat) {
    namespace od = simdjson::ondemand;
    detail::OnDemandObject json(text, "not valid JSON", "not a JSON object", path);
    od::object& root = json.root();
    std::map<std::string, std::string> q;
    for (auto field : root) {
        std::string_view key;
        check_json(field.unescaped_key().get(key), "invalid key", path);
        if (key != "quantization") continue;
        od::object obj;
        q.clear();  // a repeated "quantization": the last one (Python's json)
        if (field.value().get_object().get(obj) != simdjson::SUCCESS) continue;
        std::vector<std::string> dups;
        detail::flatten_object(obj, "", q, path, 0, &dups);
        warn_duplicates(cat, path, "quantization", dups);
    }
    if (q.empty()) return;
    cat.quantization_config.insert(q.begin(), q.end());  // config.json wins
    cat.quantization_config.emplace("quant_method", "modelopt");
}

// Read config.json (and hf_quant_config.json / quantize_config.json) from
// `dir` into the catalog; throws Error{BadJson} when one is not valid JSON.
static void read_model_config(Catalog& cat, const std::string& dir) {
    const fs::path cfg = fs::path(dir) / "config.json";
    if (auto text = slurp(cfg)) {
        cat.config_json = *text;
        cat.config_path = cfg.string();
        read_quant_object(*text, cfg.string(), true, cat);
    }
    if (!cat.quantization_config.count("quant_algo") &&
        (cat.quantization_config.empty() || cat.qconfig("quant_method") == "modelopt")) {
        const fs::path hq = fs::path(dir) / "hf_quant_config.json";
        if (auto text = slurp(hq)) read_hf_quant_config(*text, hq.string(), cat);
    }
    if (cat.quantization_config.empty()) {
        const fs::path qc = fs::path(dir) / "quantize_config.json";  // AutoGPTQ's older layout
        if (auto text = slurp(qc)) read_quant_object(*text, qc.string(), false, cat);
    }
}

}  // namespace detail

namespace {

// "a.gguf, b.gguf, … (12 in all)": the file names of `paths`, sorted, at most eight.
std::string names_of(std::vector<std::string> paths) {
    std::sort(paths.begin(), paths.end());
    std::string out;
    for (std::size_t i = 0; i < paths.size() && i < 8; ++i) out += (i ? ", " : "") + fs::path(paths[i]).filename().string();
    if (paths.size() > 8) out += ", … (" + std::to_string(paths.size()) + " in all)";
    return out;
}

// Resolve a directory to the model file inside it.
std::string resolve_directory(const std::string& dir) {
    std::vector<std::string> index, st, other, bin_index, bins;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        const std::string name = e.path().filename().string();
        if (name.ends_with(".safetensors.index.json")) index.push_back(e.path().string());
        else if (name.ends_with(".safetensors")) st.push_back(e.path().string());
        // transformers' PyTorch weights (save_pretrained without safetensors),
        // and PEFT's (an adapter saved with safe_serialization=False).
        else if (name == "pytorch_model.bin.index.json") bin_index.push_back(e.path().string());
        else if ((name.starts_with("pytorch_model") && name.ends_with(".bin")) || name == "adapter_model.bin")
            bins.push_back(e.path().string());
        else if (name.ends_with(".gguf") || name.ends_with(".npz") || name.ends_with(".npy") ||
                 name.ends_with(".pth") || name.ends_with(".pt") || name.ends_with(".onnx"))
            other.push_back(e.path().string());
    }
    std::sort(index.begin(), index.end());
    if (index.size() == 1) return index[0];
    if (index.size() > 1) throw Error(ErrorCode::Malformed, "several *.safetensors.index.json files: open one of them", dir);
    if (st.size() == 1) return st[0];
    if (st.size() > 1)
        throw Error(ErrorCode::Malformed, "several .safetensors files and no index.json: open one of them (" + names_of(st) + ")", dir);
    if (other.empty() && bin_index.size() == 1) return bin_index[0];
    if (other.empty() && bins.size() == 1) return bins[0];
    if (other.empty() && bins.size() > 1)
        throw Error(ErrorCode::Malformed, "several .bin weight files and no pytorch_model.bin.index.json (" + names_of(bins) + ")", dir);
    if (other.size() == 1) return other[0];
    // Every part of one split GGUF (NAME-%05d-of-%05d.gguf, one prefix and
    // count, nothing else): the set, opened from its first part.
    if (other.size() > 1) {
        std::sort(other.begin(), other.end());
        // (A part missing: opening reports which.)
        const auto first = parse_gguf_split_name(other[0]);
        bool one_set = first && other.size() <= first->count;
        for (std::size_t i = 1; one_set && i < other.size(); ++i) {
            const auto n = parse_gguf_split_name(other[i]);
            one_set = n && n->prefix == first->prefix && n->count == first->count;
        }
        if (one_set) return other[0];
    }
    if (other.size() > 1) throw Error(ErrorCode::Malformed, "several model files: open one of them (" + names_of(other) + ")", dir);
    throw Error(ErrorCode::Malformed, "no model file (.safetensors, index.json, .gguf, .npz, .npy, .pth, .bin, .onnx) in this folder", dir);
}

}  // namespace

static Catalog open_model_impl(const std::string& path_in) {
    std::string path = path_in;
    std::error_code ec;
    if (is_ollama_spec(path_in)) path = resolve_ollama(path_in);  // ollama:NAME[:TAG] → model-layer blob
    if (!fs::exists(path, ec)) throw Error(ErrorCode::Io, "no such file or directory", path_in);
    if (fs::is_directory(path, ec)) path = resolve_directory(path);

    Catalog cat;
    if (path.ends_with(".bin.index.json")) {
        cat = open_pth_index(path);
    } else if (path.ends_with(".index.json")) {
        cat = open_safetensors_index(path);
    } else {
        auto file = MappedFile::open(path);
        file->require(0, 64);  // the format is sniffed from the first bytes
        const auto head = file->bytes().first(std::min<std::size_t>(file->size(), 64));
        // The first matching row of the format table (formats/formats.hpp):
        // magic bytes first; a .safetensors name goes to the safetensors parser
        // even when broken, so that the user gets its precise error.
        if (const auto* row = detail::sniff_format(head, path, file->size())) {
            cat = row->open(file, path);
        } else {
            throw Error(ErrorCode::Malformed,
                        file->size() < 8 ? "file too short to be any supported format (" + std::to_string(file->size()) + " bytes)"
                                         : "not a supported model file (safetensors, GGUF, NPY/NPZ, PyTorch, ONNX)",
                        path);
        }
    }
    cat.path = path_in;
    cat.display_name = fs::path(path_in).filename().string();
    if (cat.display_name.empty()) cat.display_name = fs::path(path_in).parent_path().filename().string();
    // A config.json beside a GGUF describes some other model (GGUF carries its own key/values).
    // Nor is one beside an ONNX graph read: its initializers carry the graph's names, not the config's.
    if (cat.format != Format::Gguf && cat.format != Format::Onnx)
        detail::read_model_config(cat, fs::path(path).parent_path().string().empty() ? "." : fs::path(path).parent_path().string());
    return cat;
}

std::string shape_to_string(std::span<const std::uint64_t> shape) {
    std::string r = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) r += (i ? ", " : "") + std::to_string(shape[i]);
    return r + "]";
}

Catalog open_model(const std::string& path_in) {
    try {
        return open_model_impl(path_in);
    } catch (const std::bad_alloc&) {
        // A corrupt or hostile file asked for more memory than there is.
        throw Error(ErrorCode::OutOfMemory, "out of memory while reading the file (it declares more than is available)", path_in);
    }
}

}  // namespace amn
