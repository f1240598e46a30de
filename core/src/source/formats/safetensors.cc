// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/safetensors.hpp"

#include "anamnesis/error.hpp"
#include "util/json_util.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

namespace amn {
namespace fs = std::filesystem;
using detail::check_json;
namespace od = simdjson::ondemand;

namespace {

std::uint64_t read_le64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

void parse_entry(od::object obj, SafetensorsEntry& e, const std::string& file) {
    bool have_dtype = false, have_shape = false, have_offsets = false;
    for (auto field : obj) {
        std::string_view k;
        check_json(field.unescaped_key().get(k), "invalid key", file, e.name);
        const bool known = k == "dtype" || k == "shape" || k == "data_offsets";
        if (known && ((k == "dtype" && have_dtype) || (k == "shape" && have_shape) || (k == "data_offsets" && have_offsets)))
            throw Error(ErrorCode::BadJson, "duplicate key \"" + std::string(k) + "\"", file, e.name);
        od::value v;
        check_json(field.value().get(v), "invalid value", file, e.name);
        if (k == "dtype") {
            std::string_view s;
            check_json(v.get_string().get(s), "\"dtype\" must be a string", file, e.name);
            e.dtype_name = std::string(s);
            e.dtype = dtype_from_safetensors_name(s).value_or(DType::Unknown);
            have_dtype = true;
        } else if (k == "shape") {
            od::array a;
            check_json(v.get_array().get(a), "\"shape\" must be an array", file, e.name);
            for (auto d : a) {
                std::uint64_t x = 0;
                check_json(d.get_uint64().get(x), "\"shape\" must hold non-negative integers", file, e.name);
                if (e.shape.size() >= kMaxRank)
                    throw Error(ErrorCode::LimitExceeded, "rank exceeds " + std::to_string(kMaxRank), file, e.name);
                e.shape.push_back(x);
            }
            have_shape = true;
        } else if (k == "data_offsets") {
            od::array a;
            check_json(v.get_array().get(a), "\"data_offsets\" must be an array", file, e.name);
            std::uint64_t xs[2];
            std::size_t n = 0;
            for (auto d : a) {
                std::uint64_t x = 0;
                check_json(d.get_uint64().get(x), "\"data_offsets\" must hold non-negative integers", file, e.name);
                if (n < 2) xs[n] = x;
                ++n;
            }
            if (n != 2) throw Error(ErrorCode::BadJson, "\"data_offsets\" must have two elements", file, e.name);
            e.begin = xs[0];
            e.end = xs[1];
            have_offsets = true;
        }
        // Unknown keys are tolerated (forward compatibility), as upstream.
    }
    if (!have_dtype || !have_shape || !have_offsets)
        throw Error(ErrorCode::BadJson,
                    std::string("missing \"") + (!have_dtype ? "dtype" : !have_shape ? "shape" : "data_offsets") + "\"",
                    file, e.name);
}

}  // namespace

SafetensorsHeader parse_safetensors_header(std::span<const std::uint8_t> bytes, const std::string& file) {
    if (bytes.size() < 8)
        throw Error(ErrorCode::Truncated, "file is " + std::to_string(bytes.size()) + " bytes, shorter than the 8-byte header length", file);
    SafetensorsHeader h;
    h.header_size = read_le64(bytes.data());
    if (h.header_size > kMaxSafetensorsHeader)
        throw Error(ErrorCode::LimitExceeded, "header length " + std::to_string(h.header_size) + " exceeds the 100 MiB limit", file);
    if (h.header_size > bytes.size() - 8)
        throw Error(ErrorCode::Truncated, "header length " + std::to_string(h.header_size) + " runs past the end of the file (" +
                    std::to_string(bytes.size()) + " bytes)", file);
    if (h.header_size < 2 || bytes[8] != '{')
        throw Error(ErrorCode::BadJson, "header does not start with '{'", file);
    h.data_size = bytes.size() - 8 - h.header_size;

    detail::OnDemandObject json(std::string_view(reinterpret_cast<const char*>(bytes.data() + 8), h.header_size),
                                "header is not valid JSON", "header is not a valid JSON object", file);
    od::object& root = json.root();

    // Keys are unescaped into the parser's string buffer, alive until it is destroyed.
    std::unordered_set<std::string_view> names;
    names.reserve(h.header_size / 64);
    for (auto field : root) {
        std::string_view key;
        check_json(field.unescaped_key().get(key), "invalid key in header", file);
        if (!names.insert(key).second) throw Error(ErrorCode::BadJson, "duplicate key in header", file, std::string(key));
        std::string name(key);
        od::value v;
        check_json(field.value().get(v), "invalid value in header", file, name);
        if (name == "__metadata__") {
            od::object m;
            check_json(v.get_object().get(m), "\"__metadata__\" must be an object", file);
            std::set<std::string> mkeys;
            for (auto mf : m) {
                std::string_view mk, mv;
                check_json(mf.unescaped_key().get(mk), "invalid __metadata__ key", file);
                check_json(mf.value().get_string().get(mv), "__metadata__ values must be strings", file);
                if (!mkeys.insert(std::string(mk)).second)
                    throw Error(ErrorCode::BadJson, "duplicate __metadata__ key \"" + std::string(mk) + "\"", file);
                h.metadata.emplace_back(std::string(mk), std::string(mv));
            }
            continue;
        }
        od::object t;
        check_json(v.get_object().get(t), "tensor entry must be an object", file, name);
        SafetensorsEntry e;
        e.name = std::move(name);
        parse_entry(t, e, file);
        h.tensors.push_back(std::move(e));
    }
    // Reject trailing garbage: past the root object there must be nothing.
    const char* loc = nullptr;
    if (json.document().current_location().get(loc) == simdjson::SUCCESS)
        throw Error(ErrorCode::BadJson, "trailing data after the header's JSON object", file);

    // Offsets, sizes, overlaps.
    for (const auto& e : h.tensors) {
        if (e.begin > e.end)
            throw Error(ErrorCode::OutOfRange, "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "] begin after end", file, e.name);
        if (e.end > h.data_size)
            throw Error(ErrorCode::OutOfRange, "data_offsets end " + std::to_string(e.end) + " is past the data area (" +
                        std::to_string(h.data_size) + " bytes)", file, e.name);
        std::uint64_t numel = 1;
        for (auto d : e.shape) {
            if (d != 0 && numel > std::numeric_limits<std::uint64_t>::max() / d)
                throw Error(ErrorCode::SizeMismatch, "element count overflows 64 bits", file, e.name);
            numel *= d;
        }
        if (e.dtype != DType::Unknown) {
            auto want = dtype_bytes(e.dtype, numel);
            if (!want)
                throw Error(ErrorCode::SizeMismatch, "element count " + std::to_string(numel) + " is not a whole number of " +
                            e.dtype_name + " blocks or overflows", file, e.name);
            if (*want != e.end - e.begin)
                throw Error(ErrorCode::SizeMismatch, "holds " + std::to_string(e.end - e.begin) + " bytes but shape × " + e.dtype_name +
                            " needs " + std::to_string(*want), file, e.name);
        }
    }
    // Exact coverage, as the safetensors crate requires: sorted by offsets,
    // every tensor starts where the previous one ended (from 0), and the
    // last one ends at the end of the file. A gap means the header length or
    // an offset lies (e.g. a header length one short reads every tensor one
    // byte early), so it is refused, not guessed around.
    std::vector<const SafetensorsEntry*> order;
    order.reserve(h.tensors.size());
    for (const auto& e : h.tensors) order.push_back(&e);
    std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->begin != b->begin ? a->begin < b->begin : a->end < b->end; });
    std::uint64_t running = 0;
    const SafetensorsEntry* prev = nullptr;
    for (const auto* e : order) {
        if (e->begin < running)
            throw Error(ErrorCode::Overlap, "bytes [" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
                        ") overlap tensor " + (prev ? prev->name : std::string("?")), file, e->name);
        if (e->begin > running)
            throw Error(ErrorCode::Gap, "data_offsets begin " + std::to_string(e->begin) + " leaves bytes [" + std::to_string(running) +
                        ", " + std::to_string(e->begin) + ") of the data area to no tensor", file, e->name);
        running = e->end;
        if (e->end > e->begin) prev = e;
    }
    if (running != h.data_size)
        throw Error(ErrorCode::Gap, "the tensors cover " + std::to_string(running) + " bytes but the data area holds " +
                    std::to_string(h.data_size) + " (header length or offsets are wrong)", file);
    return h;
}

void append_safetensors_shard(Catalog& catalog, const std::string& path) {
    append_safetensors_shard(catalog, MappedFile::open(path));
}

void append_safetensors_shard(Catalog& catalog, MappedFilePtr file) {
    const std::string path = file->path();
    // The 8-byte length, then exactly the header it declares (a partial
    // file: a remote one whose header is fetched on demand).
    file->require(0, 8);
    if (file->size() >= 8) file->require(8, std::min<std::uint64_t>(read_le64(file->data()), kMaxSafetensorsHeader));
    auto h = parse_safetensors_header(file->bytes(), path);
    const std::uint32_t shard = static_cast<std::uint32_t>(catalog.shards.size());
    catalog.shards.push_back({path, file});
    const std::uint64_t base = 8 + h.header_size;
    std::vector<TensorInfo> ts;
    ts.reserve(h.tensors.size());
    for (auto& e : h.tensors) {
        TensorInfo t;
        t.name = std::move(e.name);
        t.dtype = e.dtype;
        t.dtype_name = std::move(e.dtype_name);
        t.shape = std::move(e.shape);
        t.shard = shard;
        t.offset = base + e.begin;
        t.nbytes = e.end - e.begin;
        ts.push_back(std::move(t));
    }
    std::stable_sort(ts.begin(), ts.end(), [](const TensorInfo& a, const TensorInfo& b) { return a.offset < b.offset; });
    for (auto& t : ts) catalog.tensors.push_back(std::move(t));
    if (shard == 0)
        for (auto& [k, v] : h.metadata) catalog.metadata.push_back({std::move(k), MetaValue::string(std::move(v))});
}

Catalog open_safetensors_index(const std::string& index_path) {
    auto file = MappedFile::open(index_path);
    detail::OnDemandObject json(std::string_view(reinterpret_cast<const char*>(file->data()), file->size()),
                                "index is not valid JSON", "index is not a JSON object", index_path);
    od::object& root = json.root();

    std::vector<std::pair<std::string, std::string>> weight_map;  // tensor → shard file
    std::vector<std::pair<std::string, std::string>> meta;
    bool have_map = false;
    for (auto field : root) {
        std::string_view key;
        check_json(field.unescaped_key().get(key), "invalid key", index_path);
        od::value v;
        check_json(field.value().get(v), "invalid value", index_path);
        if (key == "weight_map") {
            if (have_map) throw Error(ErrorCode::BadJson, "duplicate key \"weight_map\"", index_path);
            have_map = true;
            od::object m;
            check_json(v.get_object().get(m), "\"weight_map\" must be an object", index_path);
            std::set<std::string> seen;
            for (auto wf : m) {
                std::string_view tn, sf;
                check_json(wf.unescaped_key().get(tn), "invalid weight_map key", index_path);
                check_json(wf.value().get_string().get(sf), "weight_map values must be file names", index_path);
                if (!seen.insert(std::string(tn)).second)
                    throw Error(ErrorCode::BadJson, "duplicate weight_map entry", index_path, std::string(tn));
                weight_map.emplace_back(std::string(tn), std::string(sf));
            }
        } else if (key == "metadata") {
            std::map<std::string, std::string> flat;
            od::object m;
            if (v.get_object().get(m) == simdjson::SUCCESS) detail::flatten_object(m, "", flat, index_path);
            for (auto& kv : flat) meta.emplace_back("index." + kv.first, kv.second);
        }
    }
    if (!have_map) throw Error(ErrorCode::BadJson, "missing \"weight_map\"", index_path);

    Catalog cat;
    cat.format = Format::Safetensors;
    const fs::path dir = fs::path(index_path).parent_path();
    std::vector<std::string> shard_files;
    for (const auto& [t, f] : weight_map) {
        if (f.find('/') != std::string::npos || f == ".." || f.empty())
            throw Error(ErrorCode::Malformed, "weight_map names a file outside the model folder: " + f, index_path, t);
        shard_files.push_back(f);
    }
    std::sort(shard_files.begin(), shard_files.end());
    shard_files.erase(std::unique(shard_files.begin(), shard_files.end()), shard_files.end());
    for (const auto& f : shard_files) append_safetensors_shard(cat, (dir / f).string());
    for (auto& [k, v] : meta) cat.metadata.push_back({std::move(k), MetaValue::string(std::move(v))});
    cat.index_names();
    // Every weight_map entry must be in the shard it names.
    for (const auto& [t, f] : weight_map) {
        auto i = cat.find(t);
        if (!i) throw Error(ErrorCode::Malformed, "listed in weight_map but not found in " + f, index_path, t);
        const auto& shard_path = cat.shards[cat.tensors[*i].shard].path;
        if (fs::path(shard_path).filename() != f)
            throw Error(ErrorCode::Malformed, "weight_map says " + f + " but the tensor is in " +
                        fs::path(shard_path).filename().string(), index_path, t);
    }
    if (weight_map.size() != cat.tensors.size())
        cat.notes.push_back(std::to_string(cat.tensors.size() - weight_map.size()) +
                            " tensor(s) in the shards are not listed in the index's weight_map");
    return cat;
}

}  // namespace amn
