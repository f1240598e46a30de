// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file zip.hpp
/// A small, bounded ZIP reader over a memory-mapped file, for `.npz` and
/// PyTorch `.pth` checkpoints (ZIP APPNOTE 6.3.x, including Zip64).
///
/// It reads the end-of-central-directory record (and the Zip64 locator and
/// record when present), walks the central directory under count and length
/// limits, and cross-checks every entry's local file header (signature,
/// name, method, flags, CRC and sizes unless a data descriptor defers them).
/// Entries may not overlap one another nor the central directory (this
/// defeats overlapping-entry zip bombs). Stored entries are exposed as
/// zero-copy spans into the mapping (PyTorch stores its tensors aligned to
/// 64 bytes, so tensor data is never copied); deflated entries
/// (`np.savez_compressed`) are inflated with zlib into owned memory under a
/// ratio and an absolute size limit, with their CRC-32 checked. Encrypted
/// entries and compression methods other than stored (0) and deflate (8)
/// are refused by name. Multi-disk (spanned) archives are refused.

#include "anamnesis/mapped_file.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

/// Safety limits of the ZIP reader; exceeding one is Error{LimitExceeded}.
struct ZipLimits {
    std::uint64_t max_entries = 1u << 20;        ///< central-directory entries
    std::uint32_t max_name_bytes = 4096;         ///< bytes of one entry name
    /// Largest uncompressed size a deflated entry may declare per compressed
    /// byte. Deflate cannot exceed ~1032:1, so any larger claim is a bomb or
    /// corruption; tests lower it.
    std::uint64_t max_ratio = 1100;
    /// Largest total of inflated bytes one `inflate`/`read` call may produce.
    std::uint64_t max_inflated_bytes = std::uint64_t{64} << 30;
    /// Largest uncompressed size of a member that is read whole as metadata
    /// rather than tensor data: a pickle (`data.pkl`, any `*.pkl`, an
    /// object-array `.npy`). Real ones are kilobytes to a few MB; a member
    /// declaring more is refused by read_metadata() before a byte is
    /// inflated (a 1 MB deflated `data.pkl` may otherwise declare 1 GiB).
    std::uint64_t max_metadata_bytes = std::uint64_t{64} << 20;
};

/// One entry of the central directory, after Zip64 extra fields were applied.
struct ZipEntry {
    std::string name;                 ///< as stored (UTF-8 or CP437 bytes, not converted)
    std::uint16_t method = 0;         ///< 0 = stored, 8 = deflate (others are refused at open)
    std::uint16_t flags = 0;          ///< general purpose bit flags
    std::uint32_t crc32 = 0;          ///< CRC-32 of the uncompressed data
    std::uint64_t compressed_size = 0;    ///< bytes at data_offset
    std::uint64_t uncompressed_size = 0;  ///< bytes after inflating
    std::uint64_t header_offset = 0;  ///< absolute offset of the local file header
    std::uint64_t data_offset = 0;    ///< absolute offset of the (compressed) data
    bool is_directory() const noexcept { return !name.empty() && name.back() == '/'; }
    bool is_stored() const noexcept { return method == 0; }
};

/// A parsed archive. Holds the mapping alive; cheap to copy.
class ZipArchive {
public:
    /// Parse the central directory of `file` and cross-check every local header.
    /// \throws Error{Truncated} when a record runs past the end of the file;
    ///   Error{Malformed} for a missing EOCD, bad signatures, a local header
    ///   that disagrees with the central directory, or a spanned archive;
    ///   Error{OutOfRange} when the central directory or an entry lies past EOF;
    ///   Error{Overlap} when two entries (or an entry and the central
    ///   directory) share bytes; Error{LimitExceeded} for too many entries, a
    ///   too long name or an impossible compression ratio;
    ///   Error{Unsupported} naming an encrypted entry or an unknown
    ///   compression method ("compression method 12 (bzip2)").
    ///   The file name is set on every error.
    static ZipArchive open(MappedFilePtr file, const ZipLimits& limits = {});

    const MappedFilePtr& file() const noexcept { return file_; }
    const std::vector<ZipEntry>& entries() const noexcept { return entries_; }
    const ZipLimits& limits() const noexcept { return limits_; }

    /// Index of the entry named exactly `name`, or nullopt (binary search).
    std::optional<std::size_t> find(std::string_view name) const;

    /// Zero-copy view of a stored entry's bytes inside the mapping. The CRC is
    /// NOT checked here (that would read the whole entry): call verify_crc()
    /// when the bytes must be trusted beyond their structure.
    /// \throws Error{Usage} when the entry is deflated.
    std::span<const std::uint8_t> stored_span(const ZipEntry& e) const;

    /// CRC-32 of a stored entry's bytes compared with the central directory.
    /// \throws Error{Malformed} "CRC-32 mismatch in <name>" on mismatch.
    void verify_crc(const ZipEntry& e) const;

    /// The uncompressed bytes of `e` into `dst` (exactly
    /// `e.uncompressed_size` bytes): copied when stored, inflated when
    /// deflated. The CRC-32 is always checked.
    /// \throws Error{Malformed} for a corrupt deflate stream, a stream that
    ///   ends early or runs long, or a CRC mismatch; Error{LimitExceeded} when
    ///   the size exceeds limits().max_inflated_bytes; Error{Usage} when
    ///   `dst.size()` differs from the entry size.
    void extract_to(const ZipEntry& e, std::span<std::uint8_t> dst) const;

    /// The uncompressed bytes of `e` appended to `out`, streaming: `out`
    /// grows with the bytes actually inflated (geometrically, never beyond
    /// the declared size), so a member that *declares* gigabytes but holds
    /// little costs only what it holds before it is refused. Exactly
    /// `e.uncompressed_size` bytes are appended on success, CRC-32 checked.
    /// \throws as extract_to(); on error `out` may hold a partial tail.
    void inflate_append(const ZipEntry& e, std::vector<std::uint8_t>& out) const;

    /// inflate_append() into a new buffer.
    std::vector<std::uint8_t> read(const ZipEntry& e) const;

    /// read() for a member that is metadata (a pickle), not tensor data:
    /// refused before anything is inflated when it declares more than
    /// limits().max_metadata_bytes. Since inflate_append() never produces
    /// more than the declared size, at most that many bytes are ever held.
    /// `what` says what the member is, for the message ("pickle").
    /// \throws Error{LimitExceeded} "ZIP entry <name> (<what>) declares N
    ///   bytes uncompressed (limit M: zip bomb?)" with the file name set; else
    ///   as read().
    std::vector<std::uint8_t> read_metadata(const ZipEntry& e, std::string_view what) const;

    /// The first min(`n`, e.uncompressed_size) uncompressed bytes of `e`
    /// (copied when stored, inflated only that far when deflated), for
    /// peeking at a member's header without inflating it whole. The CRC
    /// cannot be checked on a prefix and is not.
    /// \throws Error{Malformed} for a corrupt deflate stream or one that
    ///   ends before the prefix.
    std::vector<std::uint8_t> read_prefix(const ZipEntry& e, std::uint64_t n) const;

private:
    MappedFilePtr file_;
    ZipLimits limits_;
    std::vector<ZipEntry> entries_;
    std::vector<std::uint32_t> by_name_;  ///< entry indices sorted by name, for find()
};

/// CRC-32 (ISO-HDLC, the ZIP/zlib polynomial) of `bytes`, continuing from `crc`.
std::uint32_t zip_crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0) noexcept;

}  // namespace amn
