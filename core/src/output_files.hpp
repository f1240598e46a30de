// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: where conversion output goes, and how it gets there atomically.
#include "anamnesis/catalog.hpp"
#include "anamnesis/convert.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace amn::detail {

/// A temporary file beside its final path, renamed onto it by commit();
/// unlinked by the destructor when not committed.
class TempFile {
public:
    TempFile() = default;
    TempFile(TempFile&& o) noexcept;
    TempFile& operator=(TempFile&& o) noexcept;
    ~TempFile();

    /// Create ".<name>.amn-XXXXXX.tmp" in the final path's folder.
    /// \throws Error{OutputExists} when `final_path` exists and !force;
    ///         Error{Io} when the folder is missing or not writable.
    static TempFile create(const std::string& final_path, bool force);
    int fd() const noexcept { return fd_; }
    /// Set the file size (sparse). \throws Error{Io}.
    void truncate(std::uint64_t size);
    /// fdatasync, close, rename onto the final path (without replacing an
    /// existing file unless force). \throws Error{Io}, Error{OutputExists}.
    void commit();

private:
    void discard() noexcept;  ///< close and unlink an uncommitted file
    std::string tmp_, final_;
    int fd_ = -1;
    bool force_ = false;
};

/// True when both paths exist and name the same file (hard links and
/// symlinks included).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

/// Write a small file (index.json, config.json) through a TempFile.
void write_file_atomically(const std::string& path, const std::string& text, bool force);

struct OutputLayout {
    std::vector<std::string> shard_paths;  ///< one per output shard
    std::string index_path;                ///< empty unless sharded
    std::string config_path;               ///< empty when no config.json is written
    std::string dir;                       ///< output folder
    bool dir_mode = false;                 ///< output named as a directory
    std::string created_dir;               ///< a folder this call created (removed again on failure)
};

/// Decide every output path for `cat` and `opt` (see ConvertOptions::output),
/// creating the output folder in directory mode.
/// \throws Error{Usage} when an output path is an input file (never
///         overwritten, even with force); Error{OutputExists} when an output
///         exists and !force; Error{Io} when the folder cannot be created.
OutputLayout plan_output_files(const Catalog& cat, const ConvertOptions& opt);

/// Copy tokenizer and generation files from the input folder into a
/// directory-mode output folder (skipped in file mode). Returns the files written.
std::vector<std::string> copy_ancillary_files(const Catalog& cat, const OutputLayout& layout, bool force);

}  // namespace amn::detail
