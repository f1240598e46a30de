// SPDX-License-Identifier: MIT OR Apache-2.0
// The safetensors output set: shards + index.json + config.json + copied
// files, staged and committed as one (safetensors_set.hpp).
#include "sink/safetensors_set.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/json_writer.hpp"
#include "sink/sink_file.hpp"
#include "sink/temp_file.hpp"
#include "util/json_dom.hpp"
#include "util/py_json.hpp"

#include <filesystem>
#include <map>
#include <optional>

namespace amn::detail {
namespace fs = std::filesystem;

struct SafetensorsSet::Impl {
    OutputPaths paths;
    bool force = false;
    StagingDir staging;       // directory mode, folder missing: the folder under a temporary name
    std::string staged_top;   // the final path staging stands for
    std::vector<std::unique_ptr<SafetensorsWriter>> shards;
    std::vector<std::pair<std::size_t, std::size_t>> where;  // set index → (shard, index in shard)
    std::vector<std::string> names;                          // set index → tensor name
    std::optional<std::uint64_t> mlx_parameters;             // set_mlx_index()
    std::optional<std::string> config;
    std::vector<std::pair<std::string, std::string>> extra;  // (final path, bytes)
    std::vector<std::string> files;
    std::string path;
    bool laid = false;

    // Where a final path is written while the set is staged.
    std::string staged(const std::string& final_path) const {
        if (!staging.active()) return final_path;
        return (fs::path(staging.path()) / fs::path(final_path).lexically_relative(staged_top)).string();
    }
    // An error naming a staged path, renamed to the final path.
    Error unstaged(const Error& e) const {
        if (!staging.active() || e.file().empty()) return e;
        const fs::path rel = fs::path(e.file()).lexically_relative(staging.path());
        if (rel.empty() || *rel.begin() == "..") return e;
        const fs::path fin = rel == "." ? fs::path(staged_top) : fs::path(staged_top) / rel;
        return Error(e.code(), e.message(), fin.string(), e.tensor());
    }
    template <class F>
    decltype(auto) guarded(F&& f) const {
        try {
            return f();
        } catch (const Error& e) {
            throw unstaged(e);
        }
    }
    std::pair<std::size_t, std::size_t> at(std::size_t i) const {
        if (i >= where.size())
            throw Error(ErrorCode::OutOfRange,
                        "tensor index " + std::to_string(i) + " out of range (" + std::to_string(where.size()) + " tensors)",
                        path);
        return where[i];
    }
    SafetensorsWriter& shard(std::size_t s) const {
        if (s >= shards.size())
            throw Error(ErrorCode::OutOfRange,
                        "shard " + std::to_string(s) + " out of range (" + std::to_string(shards.size()) + " shards)", path);
        return *shards[s];
    }
};

SafetensorsSet::SafetensorsSet(OutputPaths paths, bool force, std::vector<std::pair<std::string, std::string>> metadata,
                               SafetensorsWriter::DataOrder order)
    : d_(std::make_unique<Impl>()) {
    Impl& d = *d_;
    d.paths = std::move(paths);
    d.force = force;
    d.path = d.paths.dir_mode || d.paths.shard_paths.empty() ? d.paths.dir : d.paths.shard_paths.front();
    if (d.paths.dir_mode && !d.paths.missing_dir.empty()) {
        d.staging = StagingDir::create(d.paths.missing_dir);
        d.staged_top = d.paths.missing_dir;
        const std::string inner = d.staged(d.paths.dir);
        std::error_code ec;
        if (!fs::create_directories(inner, ec) && ec)
            throw Error(ErrorCode::Io, "cannot create output folder: " + ec.message(), d.paths.dir);
    }
    for (const auto& p : d.paths.shard_paths) {
        d.shards.push_back(std::make_unique<SafetensorsWriter>(d.staged(p), force));
        d.guarded([&] {
            d.shards.back()->set_metadata(metadata);
            d.shards.back()->set_data_order(order);
        });
    }
}

SafetensorsSet::~SafetensorsSet() { abort(); }

std::size_t SafetensorsSet::shard_count() const noexcept { return d_->shards.size(); }

std::size_t SafetensorsSet::add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) {
    return add_tensor(0, std::move(name), type, std::move(shape));
}

std::size_t SafetensorsSet::add_tensor(std::size_t shard, std::string name, DType type, std::vector<std::uint64_t> shape) {
    Impl& d = *d_;
    const std::size_t k = d.guarded([&] { return d.shard(shard).add_tensor(name, type, std::move(shape)); });
    d.where.emplace_back(shard, k);
    d.names.push_back(std::move(name));
    return d.where.size() - 1;
}

std::size_t SafetensorsSet::add_tail_tensor(std::size_t shard, std::string name, DType type, std::size_t rank,
                                            unsigned max_digits) {
    Impl& d = *d_;
    const std::size_t k = d.guarded([&] { return d.shard(shard).add_tail_tensor(name, type, rank, max_digits); });
    d.where.emplace_back(shard, k);
    d.names.push_back(std::move(name));
    return d.where.size() - 1;
}

void SafetensorsSet::set_tail_tensor(std::size_t i, std::vector<std::uint64_t> shape, std::span<const std::uint8_t> bytes) {
    const Impl& d = *d_;
    const auto at = d.at(i);  // not a structured binding: clang 14 cannot capture one
    const std::size_t s = at.first, k = at.second;
    d.guarded([&] { d.shards[s]->set_tail_tensor(k, std::move(shape), bytes); });
}

std::size_t SafetensorsSet::tensor_count() const noexcept { return d_->where.size(); }

std::uint64_t SafetensorsSet::tensor_nbytes(std::size_t i) const {
    const auto [s, k] = d_->at(i);
    return d_->shards[s]->tensor_nbytes(k);
}

void SafetensorsSet::set_config_json(std::string text) { d_->config = std::move(text); }

void SafetensorsSet::add_file(std::string final_path, std::string bytes) {
    d_->extra.emplace_back(std::move(final_path), std::move(bytes));
}

void SafetensorsSet::allocate() {
    Impl& d = *d_;
    if (d.laid) throw Error(ErrorCode::Usage, "allocate() after allocate()", d.path);
    d.guarded([&] {
        // Enough room for the whole set? (A hostile or mistaken input — a
        // stride-0 view expanded to terabytes — is refused here, by name,
        // before anything is written.)
        std::uint64_t need = 0;
        for (auto& w : d.shards) need += w->plan_offsets();
        const std::string shown = d.paths.dir.empty() ? std::string(".") : d.paths.dir;
        check_free_space_in(d.staging.active() ? d.staging.path() : shown, shown, need, ByteDigits::Significant3);
        for (auto& w : d.shards) w->allocate();  // this is where an unwritable folder fails
    });
    d.laid = true;
}

void SafetensorsSet::write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    const Impl& d = *d_;
    const auto at = d.at(tensor);  // not a structured binding: clang 14 cannot capture one
    const std::size_t s = at.first, k = at.second;
    d.guarded([&] { d.shards[s]->write(k, offset, bytes); });
}

void SafetensorsSet::set_mlx_index(std::uint64_t total_parameters) { d_->mlx_parameters = total_parameters; }

void SafetensorsSet::commit() {
    Impl& d = *d_;
    d.guarded([&] {
        std::vector<TempFile*> all;
        for (auto& w : d.shards) all.push_back(&w->finish());
        std::vector<TempFile> extras;
        if (!d.paths.index_path.empty()) {
            std::uint64_t total = 0;
            std::map<std::string, std::string> weight_map;  // sorted by name
            for (std::size_t i = 0; i < d.where.size(); ++i) {
                const auto [s, k] = d.where[i];
                total += d.shards[s]->tensor_nbytes(k);
                weight_map[d.names[i]] = fs::path(d.paths.shard_paths[s]).filename().string();
            }
            JsonWriter j(d.mlx_parameters ? 0 : 2);
            j.begin_object();
            j.key("metadata").begin_object().key("total_size").value(total);
            if (d.mlx_parameters) j.key("total_parameters").value(*d.mlx_parameters);
            j.end_object();
            j.key("weight_map").begin_object();
            for (const auto& [n, f] : weight_map) j.key(n).value(f);
            j.end_object().end_object();
            std::string text = j.take() + "\n";
            if (d.mlx_parameters) {  // Python's json.dump(indent=4), key order kept
                const JsonDoc doc(text, d.paths.index_path, "index.json");
                text.clear();
                py_json_dump(text, doc.root(), 4, false);
            }
            extras.push_back(TempFile::create(d.staged(d.paths.index_path), d.force));
            extras.back().write_all(text);
        }
        if (d.config && !d.paths.config_path.empty()) {
            extras.push_back(TempFile::create(d.staged(d.paths.config_path), d.force));
            extras.back().write_all(*d.config);
        }
        for (const auto& [dst, bytes] : d.extra) {
            // A side file in a subfolder of the output (sentence-transformers' 1_Pooling/config.json).
            const fs::path parent = fs::path(d.staged(dst)).parent_path();
            std::error_code ec;
            if (!parent.empty() && !fs::is_directory(parent) && !fs::create_directories(parent, ec) && ec)
                throw Error(ErrorCode::Io, "cannot create folder: " + ec.message(), parent.string());
            extras.push_back(TempFile::create(d.staged(dst), d.force));
            extras.back().write_all(bytes);
        }
        for (auto& e : extras) all.push_back(&e);
        commit_together(all, [&] {
            if (d.staging.active()) d.staging.commit();
        });
        for (auto& w : d.shards) w->mark_committed();
        d.files = d.paths.shard_paths;
        if (!d.paths.index_path.empty()) d.files.push_back(d.paths.index_path);
        if (d.config && !d.paths.config_path.empty()) d.files.push_back(d.paths.config_path);
        for (const auto& [dst, bytes] : d.extra) d.files.push_back(dst);
    });
}

void SafetensorsSet::abort() noexcept {
    if (!d_) return;
    for (auto& w : d_->shards) w->abort();
    d_->staging = StagingDir();  // removes the folder and what is left in it
}

const std::string& SafetensorsSet::path() const noexcept { return d_->path; }
const std::vector<std::string>& SafetensorsSet::files() const noexcept { return d_->files; }
std::uint64_t SafetensorsSet::file_size(std::size_t s) const { return d_->shard(s).file_size(); }
const std::string& SafetensorsSet::shard_path(std::size_t s) const { return d_->paths.shard_paths.at(s); }

}  // namespace amn::detail
