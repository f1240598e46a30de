// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: temporary files and folders beside their final paths, put in
// place atomically (one file, or a set together), and the sweep of those a
// killed run left behind.
//
// Temporary names are ".<name>.amn-XXXXXXXX.tmp" (8 hex digits) beside the
// final path — for files, for folders (StagingDir) and for the backups of
// files a forced commit replaces (a replaced symlink, which cannot be
// locked, is kept inside such a folder). Each is held under an flock() while
// its owner lives; every temporary folder holds a marker file
// (".amn-temporary-folder") from its creation on. The first
// TempFile::create() / StagingDir::create() of a process in a folder removes
// the ones whose lock is free (their owner died) — a folder only when it
// holds the marker or is empty (a run killed between making and marking
// it): any other is left in place and mentioned — and records a message
// (take_cleanup_messages()). A commit removes the marker right before its
// rename, with no fsync between (the folder and its parent are synced after).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// A temporary file beside its final path, put in place by commit();
/// removed by the destructor when not committed.
///
/// Crash safety: where the filesystem supports it the file is created with
/// O_TMPFILE (it has no name until commit links it, so a crash or kill -9
/// leaves nothing behind). Elsewhere it is a named temp (above) under an flock.
/// Durability: commit() fdatasyncs the file, links/renames it into place,
/// then fsyncs the folder.
/// Replacing (force): an existing file at the final path is kept under a
/// locked backup temp name (hard link, or rename where the filesystem has no
/// hard links) until the commit is over, so a failed commit restores it. A
/// symlink (it is replaced, not written through) or other non-regular file
/// is kept as "replaced" inside a locked, marked temp folder instead, so
/// that the sweep removes it when its run was killed.
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
    /// Set the file size in bytes (sparse). \throws Error{Io}.
    void truncate(std::uint64_t size);
    /// Write all of `bytes` at the current position. \throws Error{Io}.
    void write_all(std::string_view bytes);
    /// commit_together({this}). \throws as commit_together().
    void commit();

    // The steps of commit(), for committing several files together
    // (commit_together()).
    /// fdatasync. \throws Error{Usage} when closed; Error{Io}.
    void sync();
    /// Link/rename onto the final path. With force an existing file is first
    /// kept as a backup (restored by unplace(), dropped by drop_backup());
    /// when placing fails, it is restored at once.
    /// \throws Error{OutputExists} (exists and !force); Error{Io} (link,
    ///         rename or backup failed, or the backup's folder could not be
    ///         made; the final path is a folder).
    void place();
    /// After place(): undo it — restore the replaced file, or remove the
    /// final path when nothing was replaced.
    void unplace() noexcept;
    /// After place() succeeded for the whole set: remove the backup, if any.
    void drop_backup() noexcept;
    /// After place(): release the file (its fd and lock).
    void close_placed() noexcept;

private:
    void discard() noexcept;  ///< close and unlink an uncommitted file
    void place_file();        ///< place() without the backup
    void keep_replaced();     ///< force: back up an existing final file
    void restore_replaced() noexcept;
    void release_backup() noexcept;  ///< forget the backup: its holder folder removed, its lock closed
    std::string tmp_, final_;  ///< tmp_ empty for an O_TMPFILE file
    std::string backup_;       ///< the replaced file's temp name, while placing
    std::string backup_dir_;   ///< the locked temp folder holding backup_ (a non-regular file), else empty
    int fd_ = -1;
    int backup_fd_ = -1;       ///< holds the backup's (or its folder's) lock
    bool backup_is_link_ = false;  ///< backup_ is a second link (else the file was renamed)
    bool force_ = false;
    bool placed_ = false;
};

/// Commit several files as one: every file is synced, then all are put in
/// place (replaced files kept as backups), then their folders are fsynced,
/// then `before_release` runs (e.g. StagingDir::commit()). When any step
/// fails, the files already placed are undone in reverse order — replaced
/// files restored, new ones removed — and the error is rethrown: the set is
/// all-or-nothing. On success the backups are removed and the files released.
/// \throws what TempFile::sync()/place() or `before_release` throw.
void commit_together(const std::vector<TempFile*>& files, const std::function<void()>& before_release = {});

/// A folder created under a temporary name (".<name>.amn-XXXXXXXX.tmp")
/// beside its final path, held under an flock and marked as ours (a
/// ".amn-temporary-folder" file inside, removed just before the rename),
/// renamed onto the final path by commit(); removed with everything in it
/// when not committed. A kill -9 leaves it behind; the next run in that
/// parent removes it (only with the marker: a folder of that name without
/// it is not ours and is left, with a message).
class StagingDir {
public:
    StagingDir() = default;
    StagingDir(StagingDir&& o) noexcept;
    StagingDir& operator=(StagingDir&& o) noexcept;
    ~StagingDir();

    /// Create the temporary folder beside `final_path` (whose parent must
    /// exist), with its marker. \throws Error{OutputExists} when
    ///         `final_path` exists; Error{Io} when the parent is missing or
    ///         not writable, or the marker cannot be written.
    static StagingDir create(const std::string& final_path);
    bool active() const noexcept { return fd_ >= 0; }
    const std::string& path() const noexcept { return tmp_; }
    const std::string& final_path() const noexcept { return final_; }
    /// fsync every folder inside, rename onto the final path (never over an
    /// existing one) and fsync the parent.
    /// \throws Error{OutputExists} when the final path appeared meanwhile;
    ///         Error{Io} when the rename fails.
    void commit();

private:
    void discard() noexcept;
    std::string tmp_, final_;
    int fd_ = -1;
};

/// fsync a folder (after a rename/link in it, or after creating it).
/// Errors are ignored where the filesystem does not support it.
void fsync_dir(const std::string& dir) noexcept;

/// Messages about stale temporary files and folders removed by
/// TempFile::create() / StagingDir::create() since the last call, and about
/// folders named like ours but without the marker, left in place (the
/// process-wide list is cleared).
std::vector<std::string> take_cleanup_messages();

}  // namespace amn::detail
