// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file mapped_file.hpp
/// A read-only memory map of a whole file (POSIX `mmap`), or an owned byte
/// buffer standing in for one (inflated ZIP entries, test data). Parsing
/// never copies tensor data: tensors are spans into a `MappedFile`.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace amn {

/// Byte ranges [begin, end) of a file, kept sorted, disjoint and merged
/// (touching ranges become one). Used for the parts of a partial file that
/// hold real bytes.
class ByteRanges {
public:
    /// Add [begin, end); an empty range is ignored.
    void add(std::uint64_t begin, std::uint64_t end);
    /// The first byte of [offset, offset + length) not covered, or nothing
    /// when every byte is (an empty range always is).
    std::optional<std::uint64_t> first_missing(std::uint64_t offset, std::uint64_t length) const;
    /// Bytes covered, summed over the ranges.
    std::uint64_t covered() const noexcept;
    /// The ranges, begin → end.
    const std::map<std::uint64_t, std::uint64_t>& ranges() const noexcept { return ranges_; }

private:
    std::map<std::uint64_t, std::uint64_t> ranges_;
};

/// What MappedFile::require() throws for a partial file: the parser needs
/// bytes [offset, offset + length) that have not been fetched yet. With
/// `at_least`, `length` is a lower bound (the parser knows that at least so
/// much follows, e.g. an array of N strings takes at least 8·N bytes), so a
/// fetcher may read on past it. Not an amn::Error: only the remote reader
/// (source/remote/) that marked the file partial catches it, fetches the
/// bytes and parses again; for every other file require() never throws.
struct MissingBytes {
    std::string path;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    bool at_least = false;
};

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

    /// A parser's declaration that it is about to read bytes
    /// [offset, offset + length) as header (structure, not tensor data). For a
    /// complete file (every file but the ones below) a no-op. For a file
    /// marked partial (mark_partial(): a remote file mirrored into a sparse
    /// local file, of which only the header bytes fetched so far are real)
    /// it throws MissingBytes{path, first missing byte, up to offset +
    /// length, at_least} when some of those bytes are not there yet. The
    /// range is clamped to the file size (a range past the end is the
    /// parser's own truncation error to report). Parsers call it before
    /// every header read whose bytes a remote reader may not have fetched.
    void require(std::uint64_t offset, std::uint64_t length, bool at_least = false) const {
        if (present_) require_partial(offset, length, at_least);  // inline: parsers call it per value read
    }

    /// Mark the file at `path` partial: open() of that path (compared after
    /// std::filesystem::absolute + lexically_normal) gives a MappedFile whose
    /// require() checks `present`, read when require() is called (the
    /// remote reader adds ranges as it fetches them). Process-wide,
    /// thread-safe; unmark_partial() ends it. Never fails but for
    /// std::bad_alloc.
    static void mark_partial(const std::string& path, std::shared_ptr<const ByteRanges> present);
    /// End mark_partial() for `path` (files already open keep their ranges).
    static void unmark_partial(const std::string& path) noexcept;

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
    std::shared_ptr<const ByteRanges> present_;  // set for a partial file: the real bytes
    void require_partial(std::uint64_t offset, std::uint64_t length, bool at_least) const;
};

using MappedFilePtr = std::shared_ptr<const MappedFile>;

}  // namespace amn
