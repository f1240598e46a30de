// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the safetensors output of a job — remember (remember.cc) and
// forget to a safetensors scheme (forget_st.cc) — as one TensorSink: one
// SafetensorsWriter per shard, `model.safetensors.index.json` (sharded),
// `config.json` and copied tokenizer files, committed as one set.
//
// The one place for: the free-space check of the whole set, the staging of a
// new output folder under a temporary name (StagingDir), the temporary files,
// index.json, and the commit (every file synced, all placed — replaced files
// kept until the end —, folders fsynced, the staging folder renamed; on any
// failure everything undone). Nothing is left behind by a failure or by the
// destructor without commit(); a kill -9 leaves only hidden temporaries that
// the next run in that folder removes (temp_file.hpp).

#include "sink/safetensors_writer.hpp"
#include "exec/tensor_sink.hpp"
#include "sink/output_files.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace amn::detail {

class SafetensorsSet final : public TensorSink {
public:
    /// `paths` as plan_output_files() returned it (its checks done): one
    /// shard per paths.shard_paths entry. Every shard gets `metadata` as its
    /// `__metadata__` and `order` as its data order. In directory mode with a
    /// missing output folder, the folder is created now under a temporary
    /// name beside it (StagingDir) and renamed into place at commit.
    /// \throws Error{Io} when that folder cannot be created; Error{OutputExists}
    ///         when it appeared meanwhile; Error{Usage} on a duplicate metadata key.
    SafetensorsSet(OutputPaths paths, bool force, std::vector<std::pair<std::string, std::string>> metadata,
                   SafetensorsWriter::DataOrder order);
    ~SafetensorsSet() override;
    SafetensorsSet(const SafetensorsSet&) = delete;
    SafetensorsSet& operator=(const SafetensorsSet&) = delete;

    std::size_t shard_count() const noexcept;

    /// Add a tensor to shard 0. \throws as SafetensorsWriter::add_tensor().
    std::size_t add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) override;
    /// Add a tensor to shard `shard`; returns its index in the set (0, 1, …
    /// across shards in the order added). \throws Error{OutOfRange} for a bad
    /// shard; as SafetensorsWriter::add_tensor().
    std::size_t add_tensor(std::size_t shard, std::string name, DType type, std::vector<std::uint64_t> shape);
    /// SafetensorsWriter::add_tail_tensor() on shard `shard`. \throws as add_tensor(shard, …).
    std::size_t add_tail_tensor(std::size_t shard, std::string name, DType type, std::size_t rank, unsigned max_digits = 20);
    /// SafetensorsWriter::set_tail_tensor() for set index `i` (thread-safe).
    void set_tail_tensor(std::size_t i, std::vector<std::uint64_t> shape, std::span<const std::uint8_t> bytes) override;

    std::size_t tensor_count() const noexcept override;
    /// Bytes of tensor `i` (0 for a tail tensor not set yet). \throws Error{OutOfRange}.
    std::uint64_t tensor_nbytes(std::size_t i) const override;

    /// index.json as mlx-lm's save_model writes it (utils.py l.778-815):
    /// {"metadata": {"total_size", "total_parameters": `total_parameters`},
    /// "weight_map": sorted}, Python's json.dump(indent=4), no trailing
    /// newline. Call before commit().
    void set_mlx_index(std::uint64_t total_parameters);
    /// The text of config.json (written at commit when the paths have a
    /// config_path; the caller validated it). Call before commit().
    void set_config_json(std::string text);
    /// Another file of the set (a tokenizer file), `final_path` in the
    /// output folder; written at commit. Call before commit().
    void add_file(std::string final_path, std::string bytes);

    /// Lay out every shard, check the free space for the whole set (the
    /// error names the output folder), create the temporary files.
    /// \throws Error{Io} (too little space, folder not writable);
    ///         Error{OutputExists}; Error{Usage} when called twice.
    void allocate() override;
    /// SafetensorsWriter::write() on the tensor's shard (thread-safe).
    void write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) override;
    /// Finish every shard (tail tensors, final header, every byte written),
    /// write index.json (total_size = bytes of all tensors; weight_map sorted
    /// by name), config.json and the added files to temporaries, then commit
    /// them all together (temp_file.hpp commit_together(), then the staging
    /// folder renamed into place). On failure nothing of the set remains and
    /// replaced files are restored.
    /// \throws Error{Usage} naming an incomplete tensor; Error{Io};
    ///         Error{OutputExists} when an output appeared meanwhile.
    void commit() override;
    /// Remove every temporary (files and staging folder). Safe at any time.
    void abort() noexcept override;

    /// The output: the folder in directory mode, else the (first) file.
    const std::string& path() const noexcept override;

    /// After commit(): the files put in place (shards, index.json,
    /// config.json, added files, in that order).
    const std::vector<std::string>& files() const noexcept;
    /// Size in bytes of shard `s`'s file (tail tensors included once set).
    std::uint64_t file_size(std::size_t s) const;
    /// Final path of shard `s`.
    const std::string& shard_path(std::size_t s) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace amn::detail
