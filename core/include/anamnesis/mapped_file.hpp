// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file mapped_file.hpp
/// A read-only memory map of a whole file (POSIX `mmap`), or an owned byte
/// buffer standing in for one (inflated ZIP entries, test data). Parsing
/// never copies tensor data: tensors are spans into a `MappedFile`.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace amn {

class MappedFile {
public:
    /// Map `path` read-only. An empty file maps to an empty span.
    /// \throws Error{Io} when the file cannot be opened, stat'ed or mapped
    ///         (message carries strerror), or when `path` is a directory.
    static std::shared_ptr<const MappedFile> open(const std::string& path);

    /// Wrap an owned buffer (e.g. an inflated deflate entry); `name` is what
    /// errors report as the file.
    static std::shared_ptr<const MappedFile> from_bytes(std::vector<std::uint8_t> bytes,
                                                        std::string name);

    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::string& path() const noexcept { return path_; }
    const std::uint8_t* data() const noexcept { return data_; }
    std::uint64_t size() const noexcept { return size_; }
    std::span<const std::uint8_t> bytes() const noexcept { return {data_, static_cast<std::size_t>(size_)}; }

    /// Tell the kernel the byte range [offset, offset+len) will not be read
    /// again soon, dropping its pages from this process's resident set (the
    /// page cache keeps them). Keeps peak RSS flat while converting models
    /// larger than memory. Whole pages inside the range only, or with
    /// `cover_edges` every page the range touches (for a range whose reading
    /// is over: its first and last pages, shared with the neighbouring bytes,
    /// go too — a neighbour still to be read is read in again, which costs
    /// time, never a value; without it a model of many small tensors would
    /// keep two pages of each). A no-op for owned buffers. Never fails.
    void release(std::uint64_t offset, std::uint64_t len, bool cover_edges = false) const noexcept;

    /// Drop again every page release() has dropped so far. A later read
    /// near a released range maps the pages around it back in (the kernel's
    /// fault-around, 64 KiB), so a job that reads many small tensors out of
    /// file order would slowly gather pages it has finished with; the
    /// writers' runner calls this every so often. Thread-safe; never fails.
    void release_again() const noexcept;

    /// Hint sequential access for [offset, offset+len) (MADV_SEQUENTIAL/WILLNEED).
    void advise_sequential(std::uint64_t offset, std::uint64_t len) const noexcept;

private:
    MappedFile() = default;
    std::string path_;
    const std::uint8_t* data_ = nullptr;
    std::uint64_t size_ = 0;
    bool mapped_ = false;
    std::vector<std::uint8_t> owned_;
    struct Released;  // the page ranges release() dropped, coalesced
    std::unique_ptr<Released> released_;
};

using MappedFilePtr = std::shared_ptr<const MappedFile>;

}  // namespace amn
