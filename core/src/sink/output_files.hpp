// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: where conversion output goes, and how it gets there atomically.
#include "anamnesis/catalog.hpp"
#include "sink/temp_file.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// True when both paths exist and name the same file (hard links and
/// symlinks included).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

/// \throws Error{Usage} "output would overwrite the input file; choose another -o"
///         naming `path` when it is one of `cat`'s files (even with --force).
void refuse_input_as_output(const Catalog& cat, const std::string& path);

struct OutputPaths {
    std::vector<std::string> shard_paths;  ///< one per output shard
    std::string index_path;                ///< empty unless sharded
    std::string config_path;               ///< empty when no config.json is written
    std::string dir;                       ///< output folder
    bool dir_mode = false;                 ///< output named as a directory
    /// Directory mode, the output folder missing: its outermost missing
    /// ancestor (the folder itself when its parent exists), which the output
    /// set creates under a temporary name (StagingDir); empty otherwise.
    std::string missing_dir;
};

/// What plan_output_files() needs to know of a job (remember, forget to
/// safetensors).
struct OutputFilesOptions {
    /// The output, never empty (the job's default already applied): a
    /// `.safetensors` file (a sharded input → numbered files + index.json
    /// beside it) or a folder (the input's shard names, index.json).
    std::string output;
    bool force = false;        ///< an existing output may be replaced
    bool config_json = false;  ///< the job writes a config.json even when the input has none
    /// Names of the files the job writes into the output folder (checked
    /// like the shards: never an input, OutputExists without force).
    std::vector<std::string> side_files;
    /// Set: the job cuts the output into this many shards itself (forget to
    /// MLX: mlx-lm's 5 GiB shards), named `model.safetensors` (one) or
    /// `model-%05d-of-%05d.safetensors` in a folder, `OUT-%05d-of-%05d` for
    /// an OUT.safetensors; unset: one shard per input shard, the input's names.
    std::optional<std::size_t> shards;
    /// A folder output gets `model.safetensors.index.json` even with one
    /// shard (mlx-lm's save_model).
    bool index_always = false;
    /// The job writes `side_files` alone into a folder (a vocab-only GGUF's
    /// tokenizer files): no shard, index.json or config.json paths.
    bool side_files_only = false;
};

/// How many shards plan_output_files() gives: `opt.shards` (at least 1),
/// else one per input shard of a safetensors input, else 1.
std::size_t output_shard_count(const Catalog& cat, const OutputFilesOptions& opt);

/// Decide every output path for `cat` and `opt`.
/// Nothing is created (a missing output folder is reported in missing_dir).
/// \throws Error{Usage} when an output path is an input file (never
///         overwritten, even with force), or when `side_files_only` and the
///         output names a `.safetensors` file; Error{OutputExists} when an output
///         exists and !force; Error{Io} when the output folder path names
///         something that is not a folder.
OutputPaths plan_output_files(const Catalog& cat, const OutputFilesOptions& opt);

/// The files to write beside the output tensors, (destination, bytes) pairs:
/// `side_files` ((name, text) pairs, into the output folder, in both
/// modes), then the tokenizer and generation files to copy into a
/// directory-mode output folder (none in file mode, when the folder is the
/// input's, or for a name `side_files` has), read now so that a read error
/// comes before any output.
std::vector<std::pair<std::string, std::string>> read_ancillary_files(const Catalog& cat, const OutputPaths& paths, bool force,
                                                                     const std::vector<std::pair<std::string, std::string>>& side_files = {});

}  // namespace amn::detail
