// SPDX-License-Identifier: MIT OR Apache-2.0
// Where a conversion's output goes: output paths, default names, the files
// copied beside it. (Temporary files and their commit: temp_file.cc.)
#include "sink/output_files.hpp"

#include "anamnesis/output_paths.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "util/ascii_lower.hpp"
#include "plan/schemes/facts.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>

namespace amn {
namespace fs = std::filesystem;

namespace detail {

inline namespace names {

bool is_quant_token(const std::string& tok) { return detail::is_quant_file_token(ascii_lower(tok)); }

// "Llama-3.2-1B-FP8-dynamic" → "Llama-3.2-1B"; tokens split on '-' only,
// so version dots survive.
std::string strip_quant_suffix(const std::string& stem) {
    std::string s = stem;
    for (;;) {
        const auto pos = s.find_last_of('-');
        if (pos == std::string::npos || pos == 0) break;
        const std::string tok = s.substr(pos + 1);
        if (tok.empty() || !is_quant_token(tok)) break;
        s.resize(pos);
    }
    if (s.size() == stem.size()) {
        // "model_fp8" style underscores at the very end.
        const auto pos = s.find_last_of('_');
        if (pos != std::string::npos && pos > 0 && is_quant_token(s.substr(pos + 1))) s.resize(pos);
    }
    return s.empty() ? stem : s;
}

std::string dtype_suffix(std::optional<DType> to) {
    return ascii_lower(dtype_name(to.value_or(DType::BF16)));
}

const char* const kAncillaryNames[] = {"tokenizer.json", "tokenizer_config.json", "tokenizer.model", "special_tokens_map.json",
                                       "generation_config.json", "vocab.json", "merges.txt", "added_tokens.json",
                                       "chat_template.jinja", "chat_template.json", "preprocessor_config.json"};

fs::path model_dir(const Catalog& cat) {
    fs::path p = fs::absolute(cat.shards.empty() ? fs::path(cat.path) : fs::path(cat.shards[0].path)).lexically_normal();
    return p.parent_path();
}

}  // namespace

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code ec;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

void refuse_input_as_output(const Catalog& cat, const std::string& path) {
    for (const auto& s : cat.shards)
        if (same_file(path, s.path))
            throw Error(ErrorCode::Usage, "output would overwrite the input file; choose another -o", path);
}

std::size_t output_shard_count(const Catalog& cat, const OutputFilesOptions& opt) {
    return opt.shards ? std::max<std::size_t>(1, *opt.shards)
                      : cat.format == Format::Safetensors ? std::max<std::size_t>(1, cat.shards.size()) : 1;
}

OutputPaths plan_output_files(const Catalog& cat, const OutputFilesOptions& opt) {
    OutputPaths L;
    const std::string& out = opt.output;
    const std::size_t nshards = output_shard_count(cat, opt);
    if (opt.side_files_only && out.ends_with(".safetensors"))
        throw Error(ErrorCode::Usage, "the output is a folder of tokenizer files, not a .safetensors file; name a folder with -o", out);
    if (opt.side_files_only) {
        L.dir_mode = true;
        L.dir = out;
    } else if (out.ends_with(".safetensors")) {
        const fs::path p(out);
        L.dir = p.has_parent_path() ? p.parent_path().string() : ".";
        if (nshards == 1) {
            L.shard_paths.push_back(out);
        } else {
            const std::string stem = out.substr(0, out.size() - std::strlen(".safetensors"));
            for (std::size_t i = 0; i < nshards; ++i) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "-%05zu-of-%05zu.safetensors", i + 1, nshards);
                L.shard_paths.push_back(stem + buf);
            }
            L.index_path = stem + ".safetensors.index.json";
        }
    } else {
        L.dir_mode = true;
        L.dir = out;
        const fs::path d(out);
        if (nshards == 1) {
            const std::string name = cat.format == Format::Safetensors && !cat.shards.empty() && !opt.shards
                                         ? fs::path(cat.shards[0].path).filename().string() : "model.safetensors";
            L.shard_paths.push_back((d / name).string());
            if (opt.index_always) L.index_path = (d / "model.safetensors.index.json").string();
        } else if (opt.shards) {
            for (std::size_t i = 0; i < nshards; ++i) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "model-%05zu-of-%05zu.safetensors", i + 1, nshards);
                L.shard_paths.push_back((d / buf).string());
            }
            L.index_path = (d / "model.safetensors.index.json").string();
        } else {
            std::set<std::string> names;
            for (const auto& s : cat.shards) names.insert(fs::path(s.path).filename().string());
            for (std::size_t i = 0; i < nshards; ++i) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "model-%05zu-of-%05zu.safetensors", i + 1, nshards);
                L.shard_paths.push_back((d / (names.size() == nshards ? fs::path(cat.shards[i].path).filename().string() : buf)).string());
            }
            const std::string idx = cat.path.ends_with(".index.json") ? fs::path(cat.path).filename().string()
                                                                         : "model.safetensors.index.json";
            L.index_path = (d / idx).string();
        }
    }
    if (!opt.side_files_only && (cat.config_json || opt.config_json)) L.config_path = (fs::path(L.dir) / "config.json").string();

    // Never overwrite an input, even with --force.
    std::vector<fs::path> inputs;
    for (const auto& s : cat.shards) inputs.emplace_back(s.path);
    if (!cat.config_path.empty()) inputs.emplace_back(cat.config_path);
    if (cat.path.ends_with(".index.json")) inputs.emplace_back(cat.path);
    std::vector<std::string> outs = L.shard_paths;
    if (!L.index_path.empty()) outs.push_back(L.index_path);
    if (!L.config_path.empty()) outs.push_back(L.config_path);
    for (const auto& name : opt.side_files) outs.push_back((fs::path(L.dir) / name).string());
    for (const auto& o : outs) {
        for (const auto& in : inputs)
            if (same_file(o, in))
                throw Error(ErrorCode::Usage, "output would overwrite the input file " + in.string() + "; choose another -o", o);
        std::error_code ec;
        if (!opt.force && fs::exists(o, ec)) throw Error(ErrorCode::OutputExists, "already exists (use --force to replace it)", o);
    }
    if (L.dir_mode) {
        std::error_code ec;
        // A missing folder is not created here: the output set creates it
        // under a temporary name and renames it into place at commit.
        fs::path dir(L.dir);
        while (dir.has_filename() == false && dir.has_parent_path() && dir.parent_path() != dir) dir = dir.parent_path();  // "out/" → "out"
        if (!fs::exists(dir, ec)) {
            fs::path top = dir;
            while (top.has_parent_path() && top.parent_path() != top && !fs::exists(top.parent_path(), ec)) top = top.parent_path();
            L.missing_dir = top.string();
        } else if (!fs::is_directory(dir, ec)) {
            throw Error(ErrorCode::Io, "output path exists and is not a folder", L.dir);
        }
    }
    return L;
}

std::vector<std::pair<std::string, std::string>> read_ancillary_files(const Catalog& cat, const OutputPaths& paths, bool force,
                                                                     const std::vector<std::pair<std::string, std::string>>& side_files) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, text] : side_files) out.emplace_back((fs::path(paths.dir) / name).string(), text);
    if (!paths.dir_mode) return out;
    const fs::path in = model_dir(cat);
    std::error_code ec;
    if (fs::equivalent(in, paths.dir, ec)) return out;
    for (const char* n : kAncillaryNames) {
        if (std::any_of(side_files.begin(), side_files.end(), [&](const auto& f) { return f.first == n; })) continue;
        const fs::path src = in / n;
        if (!fs::is_regular_file(src, ec)) continue;
        const fs::path dst = fs::path(paths.dir) / n;
        if (!force && fs::exists(dst, ec)) continue;
        const auto f = MappedFile::open(src.string());
        out.emplace_back(dst.string(), std::string(reinterpret_cast<const char*>(f->data()), static_cast<std::size_t>(f->size())));
    }
    return out;
}

}  // namespace detail

std::vector<std::string> take_output_cleanup_messages() { return detail::take_cleanup_messages(); }

std::string default_output_path(const Catalog& cat, std::optional<DType> to) {
    using detail::strip_quant_suffix;
    using detail::dtype_suffix;
    const fs::path first = gguf_unsplit_path(cat);  // a split GGUF's parts: the name of the whole
    const bool as_dir = cat.format == Format::Safetensors &&
                        (cat.config_json.has_value() || cat.shards.size() > 1 || cat.path.ends_with(".index.json"));
    if (as_dir) {
        fs::path dir = fs::absolute(first).lexically_normal().parent_path();
        std::string name = dir.filename().string();
        if (name.empty()) name = "model";
        return (dir.parent_path() / (strip_quant_suffix(name) + "-" + dtype_suffix(to))).string();
    }
    const std::string stem = first.stem().string();
    std::string suffix = "-" + dtype_suffix(to);
    if (cat.format != Format::Safetensors && cat.format != Format::Gguf && !to) suffix.clear();  // lossless NPZ/PTH
    std::string base = strip_quant_suffix(stem);
    if (suffix.empty() && base == stem) base = stem;
    return (first.parent_path() / (base + suffix + ".safetensors")).string();
}

std::string default_hf_layout_output_path(const Catalog& cat, std::optional<DType> out_dtype) {
    if (is_vocab_only_gguf(cat)) {
        const fs::path first = gguf_unsplit_path(cat);
        return (first.parent_path() / (first.stem().string() + "-tokenizer")).string();
    }
    std::string out = default_output_path(cat, out_dtype);
    constexpr std::string_view ext = ".safetensors";
    if (out.size() > ext.size() && out.ends_with(ext)) out.resize(out.size() - ext.size());
    return out;
}

}  // namespace amn
