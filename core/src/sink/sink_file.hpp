// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the bookkeeping GgufWriter and SafetensorsWriter share — the
// state checks of write()/commit(), the free-space check before the
// temporary file is created, the full pwrite loop, and the merged
// [start, end) ranges that prove every byte of a tensor was written.

#include "anamnesis/human_bytes.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace amn::detail {

/// A sink's life: add tensors, allocate(), write(), then commit() or abort().
enum class SinkState { Open, Laid, Committed, Aborted };

/// Throws ErrorCode::Usage unless `state` is Laid: "<call>() before
/// allocate()" or "<call>() after commit()/abort()".
void require_laid(SinkState state, const char* call, const std::string& path);

/// Throws ErrorCode::Io when the folder of `path` has fewer than `size`
/// bytes free (sizes written by human_bytes with `digits`); says nothing when it cannot tell.
void check_free_space(const std::string& path, std::uint64_t size, ByteDigits digits);
/// The same for a set of files: statvfs of folder `stat_dir` (which must
/// exist), the error naming `shown_dir` (the output folder, maybe not created yet).
void check_free_space_in(const std::string& stat_dir, const std::string& shown_dir, std::uint64_t size,
                         ByteDigits digits);

/// Writes n bytes at `off`, retrying short writes and EINTR; ErrorCode::Io
/// ("write failed: …") on failure.
void pwrite_all(int fd, const std::uint8_t* p, std::uint64_t n, std::uint64_t off, const std::string& path,
                const std::string& tensor = {});

/// Ask the kernel to start writing [off, off + n) of `fd` to disk now, without
/// waiting (Linux sync_file_range SYNC_FILE_RANGE_WRITE; nothing elsewhere).
/// The final fdatasync of commit() then has little left to wait for: the
/// writeback overlaps the work that produces the rest of the file instead of
/// following it. A hint: errors are ignored (fdatasync reports them).
void start_writeback(int fd, std::uint64_t off, std::uint64_t n) noexcept;

/// Allocate the blocks of [0, size) of `fd` now (Linux fallocate, mode 0:
/// unwritten extents, the file size unchanged if already `size`): the writes
/// that follow find their blocks allocated instead of reserving them page by
/// page (ext4 delayed allocation), and a disk that is too full fails here,
/// before any work. Returns false only when the disk is full (ENOSPC/EDQUOT);
/// a file system without the call (EOPNOTSUPP) or another platform is fine.
bool preallocate(int fd, std::uint64_t size) noexcept;

/// Merged [start, end) byte ranges written into one tensor of `nbytes`.
class WrittenRanges {
public:
    /// ErrorCode::OutOfRange unless [offset, offset + size) lies in [0, nbytes).
    static void check_range(std::uint64_t offset, std::uint64_t size, std::uint64_t nbytes, const std::string& path,
                            const std::string& tensor);
    /// Records [offset, offset + size), merged with its neighbours (caller locks).
    void add(std::uint64_t offset, std::uint64_t size);
    /// ErrorCode::Usage ("tensor data incomplete: …") unless all nbytes were written.
    void check_complete(std::uint64_t nbytes, const std::string& path, const std::string& tensor) const;

private:
    std::map<std::uint64_t, std::uint64_t> ranges_;
};

}  // namespace amn::detail
