// SPDX-License-Identifier: MIT OR Apache-2.0
// Sharded PyTorch checkpoints (`pytorch_model-0000N-of-0000M.bin` +
// `pytorch_model.bin.index.json`, as transformers' save_pretrained writes
// them with safe_serialization=False): every shard opened by the PyTorch
// reader (pth.cc, no pickle code run) and merged into one catalog, checked
// against the index's weight_map.
#include "anamnesis/error.hpp"
#include "anamnesis/pth.hpp"
#include "util/json_dom.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace amn {

Catalog open_pth_index(const std::string& index_path) {
    const auto doc = detail::JsonDoc::load(index_path, "index");
    const auto map = detail::json_get(doc.root(), "weight_map");
    if (!map) throw Error(ErrorCode::BadJson, "missing \"weight_map\"", index_path);
    simdjson::dom::object m;
    if (map->get(m)) throw Error(ErrorCode::BadJson, "\"weight_map\" must be an object", index_path);
    std::vector<std::pair<std::string, std::string>> weight_map;
    std::set<std::string> files;
    for (auto f : m) {
        std::string_view file;
        if (f.value.get(file)) throw Error(ErrorCode::BadJson, "weight_map values must be file names", index_path, std::string(f.key));
        if (file.empty() || file.find('/') != std::string_view::npos || file == "..")
            throw Error(ErrorCode::Malformed, "weight_map names a file outside the model folder: " + std::string(file), index_path,
                        std::string(f.key));
        weight_map.emplace_back(std::string(f.key), std::string(file));
        files.insert(std::string(file));
    }
    Catalog cat;
    cat.format = Format::Pth;
    const fs::path dir = fs::path(index_path).parent_path();
    for (const auto& f : files) {  // sorted file names, as the converter reads them
        Catalog part = open_pth((dir / f).string());
        const auto base = static_cast<std::uint32_t>(cat.shards.size());
        for (auto& s : part.shards) cat.shards.push_back(std::move(s));
        for (auto& t : part.tensors) {
            t.shard += base;
            cat.tensors.push_back(std::move(t));
        }
        for (auto& c : part.integrity_checks) {
            c.shard += base;
            cat.integrity_checks.push_back(std::move(c));
        }
        for (auto& n : part.notes) cat.notes.push_back(f + ": " + n);
        cat.skipped_values += part.skipped_values;
        if (cat.metadata.empty()) cat.metadata = std::move(part.metadata);
    }
    cat.index_names();
    for (const auto& [t, f] : weight_map) {
        const auto i = cat.find(t);
        if (!i) throw Error(ErrorCode::Malformed, "listed in weight_map but not found in " + f, index_path, t);
        if (fs::path(cat.shards[cat.tensors[*i].shard].path).filename() != f)
            throw Error(ErrorCode::Malformed,
                        "weight_map says " + f + " but the tensor is in " +
                            fs::path(cat.shards[cat.tensors[*i].shard].path).filename().string(),
                        index_path, t);
    }
    if (weight_map.size() != cat.tensors.size())
        cat.notes.push_back(std::to_string(cat.tensors.size() - weight_map.size()) +
                            " tensor(s) in the shards are not listed in the index's weight_map");
    return cat;
}

}  // namespace amn
