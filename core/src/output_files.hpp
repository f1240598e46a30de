// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: where conversion output goes, and how it gets there atomically.
#include "anamnesis/catalog.hpp"
#include "anamnesis/convert.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// A temporary file beside its final path, put in place by commit();
/// removed by the destructor when not committed.
///
/// Crash safety: where the filesystem supports it the file is created with
/// O_TMPFILE (it has no name until commit links it, so a crash or kill -9
/// leaves nothing behind). Elsewhere it is a named ".<name>.amn-XXXXXXXX.tmp"
/// held under an flock() while it lives; the next TempFile::create() in that
/// folder removes such temps whose lock is free (their writer died) and
/// records a message (take_cleanup_messages()).
/// Durability: commit() fdatasyncs the file, links/renames it into place,
/// then fsyncs the folder.
class TempFile {
public:
    TempFile() = default;
    TempFile(TempFile&& o) noexcept;
    TempFile& operator=(TempFile&& o) noexcept;
    ~TempFile();

    /// Create the temporary file in the final path's folder.
    /// \throws Error{OutputExists} when `final_path` exists and !force;
    ///         Error{Io} when the folder is missing or not writable.
    static TempFile create(const std::string& final_path, bool force);
    int fd() const noexcept { return fd_; }
    const std::string& final_path() const noexcept { return final_; }
    /// Set the file size (sparse). \throws Error{Io}.
    void truncate(std::uint64_t size);
    /// Write all of `bytes` at the current position. \throws Error{Io}.
    void write_all(std::string_view bytes);
    /// sync(), place(), fsync the folder, close. \throws Error{Io}, Error{OutputExists}.
    void commit();

    // The steps of commit(), for committing several files together
    // (commit_together()).
    void sync();     ///< fdatasync. \throws Error{Io}
    void place();    ///< link/rename onto the final path (not replacing unless force). \throws Error{Io}, Error{OutputExists}
    void unplace() noexcept;  ///< after place(): remove the final path again (rollback)
    void close_placed() noexcept;  ///< after place(): release the file

private:
    void discard() noexcept;  ///< close and unlink an uncommitted file
    std::string tmp_, final_;  ///< tmp_ empty for an O_TMPFILE file
    int fd_ = -1;
    bool force_ = false;
    bool placed_ = false;
};

/// Commit several files as one: every file is synced, then all are put in
/// place, then their folders are fsynced. When putting one in place fails,
/// the ones already placed are removed again and the error is rethrown, so
/// the set is all-or-nothing (with force, a replaced file cannot be restored).
void commit_together(const std::vector<TempFile*>& files);

/// fsync a folder (after a rename/link in it, or after creating it).
/// Errors are ignored where the filesystem does not support it.
void fsync_dir(const std::string& dir) noexcept;

/// Messages about stale temporary files removed by TempFile::create()
/// since the last call (the process-wide list is cleared).
std::vector<std::string> take_cleanup_messages();

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

/// The tokenizer and generation files to copy into a directory-mode output
/// folder (none in file mode, or when the folder is the input's): (destination,
/// bytes) pairs, read now so that a read error comes before any output.
std::vector<std::pair<std::string, std::string>> read_ancillary_files(const Catalog& cat, const OutputLayout& layout, bool force);

/// fsync the output folder and every folder plan_output_files() created
/// (and the parent of the outermost), so new folders survive a crash.
void sync_created_dirs(const OutputLayout& layout) noexcept;

/// Copy tokenizer and generation files from the input folder into a
/// directory-mode output folder (skipped in file mode). Returns the files written.
std::vector<std::string> copy_ancillary_files(const Catalog& cat, const OutputLayout& layout, bool force);

}  // namespace amn::detail
