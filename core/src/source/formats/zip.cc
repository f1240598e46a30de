// SPDX-License-Identifier: MIT OR Apache-2.0
// Bounded ZIP central-directory reader (APPNOTE 6.3.x, Zip64) over a mapping.
#include "anamnesis/zip.hpp"

#include "anamnesis/error.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_set>

namespace amn {
namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50;
constexpr std::uint32_t kCentralSig = 0x02014b50;
constexpr std::uint32_t kEocdSig = 0x06054b50;
constexpr std::uint32_t kZip64EocdSig = 0x06064b50;
constexpr std::uint32_t kZip64LocatorSig = 0x07064b50;
constexpr std::size_t kEocdSize = 22, kZip64LocatorSize = 20, kZip64EocdSize = 56;
constexpr std::size_t kCentralSize = 46, kLocalSize = 30;

std::uint16_t rd16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t rd32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint64_t rd64(const std::uint8_t* p) { return rd32(p) | (static_cast<std::uint64_t>(rd32(p + 4)) << 32); }

std::string method_name(std::uint16_t m) {
    switch (m) {
        case 1: return "shrunk";
        case 2: case 3: case 4: case 5: return "reduced";
        case 6: return "imploded";
        case 9: return "deflate64";
        case 10: return "PKWARE DCL imploded";
        case 12: return "bzip2";
        case 14: return "LZMA";
        case 18: return "IBM TERSE";
        case 19: return "IBM LZ77";
        case 20: case 93: return "zstd";
        case 94: return "MP3";
        case 95: return "xz";
        case 96: return "JPEG";
        case 97: return "WavPack";
        case 98: return "PPMd";
        case 99: return "AES encryption";
        default: return "unknown";
    }
}

[[noreturn]] void fail(ErrorCode c, std::string msg, const std::string& file) { throw Error(c, std::move(msg), file); }

// Bytes [off, off+len) must lie inside a file of `size` bytes.
bool fits(std::uint64_t size, std::uint64_t off, std::uint64_t len) { return off <= size && len <= size - off; }

}  // namespace

std::uint32_t zip_crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc) noexcept {
    return static_cast<std::uint32_t>(::crc32_z(crc, bytes.data(), bytes.size()));
}

ZipArchive ZipArchive::open(MappedFilePtr file, const ZipLimits& limits) {
    ZipArchive z;
    z.file_ = std::move(file);
    z.limits_ = limits;
    const std::string& path = z.file_->path();
    const std::uint8_t* d = z.file_->data();
    const std::uint64_t size = z.file_->size();

    // --- End of central directory: the last EOCD signature within 64 KiB + 22 of the end.
    if (size < kEocdSize) fail(ErrorCode::Truncated, "not a ZIP archive: shorter than an end-of-central-directory record", path);
    std::uint64_t eocd = UINT64_MAX;
    const std::uint64_t lowest = size >= kEocdSize + 0xFFFF ? size - kEocdSize - 0xFFFF : 0;
    // Every read of this function is declared first (MappedFile::require):
    // a remote file is fetched range by range as far as the directory goes.
    const MappedFile& f = *z.file_;
    f.require(lowest, size - lowest);
    for (std::uint64_t p = size - kEocdSize + 1; p-- > lowest;) {
        if (rd32(d + p) == kEocdSig && p + kEocdSize + rd16(d + p + 20) <= size) { eocd = p; break; }
    }
    if (eocd == UINT64_MAX) fail(ErrorCode::Malformed, "no ZIP end-of-central-directory record (truncated or not a ZIP archive)", path);
    const std::uint8_t* e = d + eocd;
    std::uint64_t disk = rd16(e + 4), cd_disk = rd16(e + 6);
    std::uint64_t n_disk = rd16(e + 8), n_total = rd16(e + 10);
    std::uint64_t cd_size = rd32(e + 12), cd_offset = rd32(e + 16);

    // --- Zip64: a locator right before the EOCD points to the Zip64 EOCD record.
    if (eocd >= kZip64LocatorSize) f.require(eocd - kZip64LocatorSize, kZip64LocatorSize);
    if (eocd >= kZip64LocatorSize && rd32(d + eocd - kZip64LocatorSize) == kZip64LocatorSig) {
        const std::uint8_t* loc = d + eocd - kZip64LocatorSize;
        const std::uint64_t z64 = rd64(loc + 8);
        if (rd32(loc + 4) != 0 || rd32(loc + 16) > 1) fail(ErrorCode::Unsupported, "multi-disk (spanned) ZIP archive", path);
        if (!fits(size, z64, kZip64EocdSize) || z64 > eocd - kZip64LocatorSize)
            fail(ErrorCode::OutOfRange, "Zip64 end-of-central-directory record lies outside the file", path);
        f.require(z64, kZip64EocdSize);
        const std::uint8_t* r = d + z64;
        if (rd32(r) != kZip64EocdSig) fail(ErrorCode::Malformed, "bad Zip64 end-of-central-directory signature", path);
        disk = rd32(r + 16);
        cd_disk = rd32(r + 20);
        n_disk = rd64(r + 24);
        n_total = rd64(r + 32);
        cd_size = rd64(r + 40);
        cd_offset = rd64(r + 48);
    } else if (n_total == 0xFFFF || cd_size == 0xFFFFFFFF || cd_offset == 0xFFFFFFFF) {
        // Markers without a locator: tolerated only if the plain values make sense.
        if (!fits(size, cd_offset, cd_size)) fail(ErrorCode::Malformed, "Zip64 markers in the EOCD but no Zip64 locator", path);
    }
    if (disk != 0 || cd_disk != 0 || n_disk != n_total) fail(ErrorCode::Unsupported, "multi-disk (spanned) ZIP archive", path);
    if (n_total > limits.max_entries)
        fail(ErrorCode::LimitExceeded, "ZIP archive declares " + std::to_string(n_total) + " entries (limit " + std::to_string(limits.max_entries) + ")", path);
    if (!fits(size, cd_offset, cd_size)) {
        if (cd_offset > size) fail(ErrorCode::OutOfRange, "ZIP central directory starts past the end of the file (truncated?)", path);
        fail(ErrorCode::Truncated, "ZIP central directory runs past the end of the file", path);
    }
    if (cd_offset + cd_size > eocd) fail(ErrorCode::Overlap, "ZIP central directory overlaps its end record", path);
    // Each entry needs at least 46 bytes: a cheap check before allocating.
    if (n_total > cd_size / kCentralSize) fail(ErrorCode::Truncated, "ZIP central directory is too small for its declared entry count", path);

    f.require(cd_offset, cd_size);
    // --- Central directory entries.
    z.entries_.reserve(static_cast<std::size_t>(n_total));
    std::unordered_set<std::string> names;
    std::uint64_t p = cd_offset;
    const std::uint64_t cd_end = cd_offset + cd_size;
    for (std::uint64_t i = 0; i < n_total; ++i) {
        if (!fits(cd_end, p, kCentralSize)) fail(ErrorCode::Truncated, "ZIP central directory entry " + std::to_string(i) + " runs past the directory", path);
        const std::uint8_t* c = d + p;
        if (rd32(c) != kCentralSig) fail(ErrorCode::Malformed, "bad central directory signature at entry " + std::to_string(i), path);
        ZipEntry en;
        en.flags = rd16(c + 8);
        en.method = rd16(c + 10);
        en.crc32 = rd32(c + 16);
        en.compressed_size = rd32(c + 20);
        en.uncompressed_size = rd32(c + 24);
        const std::uint16_t name_len = rd16(c + 28), extra_len = rd16(c + 30), comment_len = rd16(c + 32);
        std::uint64_t disk_start = rd16(c + 34);
        en.header_offset = rd32(c + 42);
        if (name_len > limits.max_name_bytes)
            fail(ErrorCode::LimitExceeded, "ZIP entry name of " + std::to_string(name_len) + " bytes (limit " + std::to_string(limits.max_name_bytes) + ")", path);
        const std::uint64_t rec = kCentralSize + name_len + extra_len + comment_len;
        if (!fits(cd_end, p, rec)) fail(ErrorCode::Truncated, "ZIP central directory entry " + std::to_string(i) + " runs past the directory", path);
        en.name.assign(reinterpret_cast<const char*>(c + kCentralSize), name_len);
        // Zip64 extended information: only the fields saturated in the header, in this order.
        const std::uint8_t* x = c + kCentralSize + name_len;
        const std::uint8_t* xend = x + extra_len;
        bool need_u = en.uncompressed_size == 0xFFFFFFFF, need_c = en.compressed_size == 0xFFFFFFFF;
        bool need_o = en.header_offset == 0xFFFFFFFF, need_d = disk_start == 0xFFFF;
        while (xend - x >= 4) {
            const std::uint16_t id = rd16(x), len = rd16(x + 2);
            if (len > xend - x - 4) fail(ErrorCode::Malformed, "ZIP extra field runs past its entry: " + en.name, path);
            if (id == 0x0001) {
                const std::uint8_t* f = x + 4;
                const std::uint8_t* fend = f + len;
                auto take64 = [&](std::uint64_t& v) {
                    if (fend - f < 8) fail(ErrorCode::Malformed, "Zip64 extra field too short: " + en.name, path);
                    v = rd64(f);
                    f += 8;
                };
                if (need_u) { take64(en.uncompressed_size); need_u = false; }
                if (need_c) { take64(en.compressed_size); need_c = false; }
                if (need_o) { take64(en.header_offset); need_o = false; }
                if (need_d) {
                    if (fend - f < 4) fail(ErrorCode::Malformed, "Zip64 extra field too short: " + en.name, path);
                    disk_start = rd32(f);
                    need_d = false;
                }
            }
            x += 4 + len;
        }
        if (need_u || need_c || need_o) fail(ErrorCode::Malformed, "ZIP entry needs a Zip64 extra field but has none: " + en.name, path);
        if (disk_start != 0) fail(ErrorCode::Unsupported, "multi-disk (spanned) ZIP archive", path);
        if (en.flags & 0x0001) fail(ErrorCode::Unsupported, "encrypted ZIP entry: " + en.name, path);
        if (en.flags & 0x0040) fail(ErrorCode::Unsupported, "strongly encrypted ZIP entry: " + en.name, path);
        if (en.method != 0 && en.method != 8)
            fail(ErrorCode::Unsupported, "ZIP entry " + en.name + " uses compression method " + std::to_string(en.method) + " (" + method_name(en.method) + "); only stored and deflate are supported", path);
        if (en.method == 0 && en.compressed_size != en.uncompressed_size)
            fail(ErrorCode::Malformed, "stored ZIP entry with different compressed and uncompressed sizes: " + en.name, path);
        if (en.method == 8 && en.uncompressed_size / limits.max_ratio > std::max<std::uint64_t>(en.compressed_size, 1))
            fail(ErrorCode::LimitExceeded, "ZIP entry " + en.name + " claims " + std::to_string(en.uncompressed_size) + " bytes from " +
                 std::to_string(en.compressed_size) + " compressed (ratio limit " + std::to_string(limits.max_ratio) + ": zip bomb?)", path);
        if (!names.insert(en.name).second) fail(ErrorCode::Malformed, "duplicate ZIP entry name: " + en.name, path);

        // --- Local header cross-check.
        if (!fits(size, en.header_offset, kLocalSize)) fail(ErrorCode::OutOfRange, "local header of ZIP entry " + en.name + " lies past the end of the file", path);
        // The local header with a name as long as the central one's (its own
        // length is read from it) and room for a usual extra field.
        f.require(en.header_offset, kLocalSize + name_len + 128, true);
        f.require(en.header_offset, kLocalSize);
        const std::uint8_t* l = d + en.header_offset;
        if (rd32(l) != kLocalSig) fail(ErrorCode::Malformed, "bad local header signature for ZIP entry " + en.name, path);
        const std::uint16_t lflags = rd16(l + 6), lmethod = rd16(l + 8);
        const std::uint16_t lname = rd16(l + 26), lextra = rd16(l + 28);
        if (!fits(size, en.header_offset + kLocalSize, std::uint64_t{lname} + lextra))
            fail(ErrorCode::Truncated, "local header of ZIP entry " + en.name + " runs past the end of the file", path);
        f.require(en.header_offset + kLocalSize, std::uint64_t{lname} + lextra);
        if (lmethod != en.method || (lflags & 0x0041) != (en.flags & 0x0041))
            fail(ErrorCode::Malformed, "local header of ZIP entry " + en.name + " disagrees with the central directory (method/flags)", path);
        if (lname != name_len || std::memcmp(l + kLocalSize, c + kCentralSize, name_len) != 0)
            fail(ErrorCode::Malformed, "local header of ZIP entry " + en.name + " names a different file", path);
        if (!(lflags & 0x0008)) {
            // Sizes and CRC are in the local header (Zip64 sizes in its extra field).
            std::uint64_t lcomp = rd32(l + 18), luncomp = rd32(l + 22);
            if (lcomp == 0xFFFFFFFF || luncomp == 0xFFFFFFFF) {
                const std::uint8_t* lx = l + kLocalSize + lname;
                const std::uint8_t* lxend = lx + lextra;
                bool found = false;
                while (lxend - lx >= 4) {
                    const std::uint16_t id = rd16(lx), len = rd16(lx + 2);
                    if (len > lxend - lx - 4) break;
                    if (id == 0x0001) {
                        const std::uint8_t* f = lx + 4;
                        const std::uint8_t* fend = f + len;
                        if (luncomp == 0xFFFFFFFF && fend - f >= 8) { luncomp = rd64(f); f += 8; }
                        if (lcomp == 0xFFFFFFFF && fend - f >= 8) { lcomp = rd64(f); f += 8; }
                        found = true;
                    }
                    lx += 4 + len;
                }
                if (!found) fail(ErrorCode::Malformed, "local header of ZIP entry " + en.name + " lacks its Zip64 extra field", path);
            }
            if (rd32(l + 14) != en.crc32 || lcomp != en.compressed_size || luncomp != en.uncompressed_size)
                fail(ErrorCode::Malformed, "local header of ZIP entry " + en.name + " disagrees with the central directory (CRC/sizes)", path);
        }
        en.data_offset = en.header_offset + kLocalSize + lname + lextra;
        if (!fits(size, en.data_offset, en.compressed_size))
            fail(ErrorCode::Truncated, "data of ZIP entry " + en.name + " runs past the end of the file", path);
        z.entries_.push_back(std::move(en));
        p += rec;
    }

    // --- No two entries (nor an entry and the central directory) share bytes.
    struct Range { std::uint64_t begin, end; const std::string* name; };
    std::vector<Range> ranges;
    ranges.reserve(z.entries_.size() + 1);
    for (const auto& en : z.entries_) ranges.push_back({en.header_offset, en.data_offset + en.compressed_size, &en.name});
    static const std::string cd_name = "(central directory)";
    ranges.push_back({cd_offset, cd_offset + cd_size, &cd_name});
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].begin < ranges[i - 1].end)
            fail(ErrorCode::Overlap, "ZIP entries " + *ranges[i - 1].name + " and " + *ranges[i].name + " overlap", path);
    z.by_name_.resize(z.entries_.size());
    for (std::size_t i = 0; i < z.by_name_.size(); ++i) z.by_name_[i] = static_cast<std::uint32_t>(i);
    std::sort(z.by_name_.begin(), z.by_name_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return z.entries_[a].name < z.entries_[b].name; });
    return z;
}

std::optional<std::size_t> ZipArchive::find(std::string_view name) const {
    auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                               [&](std::uint32_t i, std::string_view n) { return std::string_view(entries_[i].name) < n; });
    if (it != by_name_.end() && entries_[*it].name == name) return *it;
    return std::nullopt;
}

std::span<const std::uint8_t> ZipArchive::stored_span(const ZipEntry& e) const {
    if (!e.is_stored()) throw Error(ErrorCode::Usage, "ZIP entry " + e.name + " is compressed, not stored", file_->path());
    file_->require(e.data_offset, e.compressed_size);
    return {file_->data() + e.data_offset, static_cast<std::size_t>(e.compressed_size)};
}

void ZipArchive::verify_crc(const ZipEntry& e) const {
    if (zip_crc32(stored_span(e)) != e.crc32) throw Error(ErrorCode::Malformed, "CRC-32 mismatch in ZIP entry " + e.name, file_->path());
}

void ZipArchive::extract_to(const ZipEntry& e, std::span<std::uint8_t> dst) const {
    const std::string& path = file_->path();
    if (dst.size() != e.uncompressed_size) throw Error(ErrorCode::Usage, "extract_to: buffer size differs from ZIP entry size: " + e.name, path);
    if (e.uncompressed_size > limits_.max_inflated_bytes)
        fail(ErrorCode::LimitExceeded, "ZIP entry " + e.name + " inflates to " + std::to_string(e.uncompressed_size) + " bytes (limit " +
             std::to_string(limits_.max_inflated_bytes) + ")", path);
    if (e.is_stored()) {
        const auto src = stored_span(e);
        if (!src.empty()) std::memcpy(dst.data(), src.data(), src.size());
    } else {
        z_stream zs{};
        if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) fail(ErrorCode::Io, "zlib inflateInit2 failed", path);
        const std::uint8_t* in = file_->data() + e.data_offset;
        std::uint64_t in_left = e.compressed_size, out_left = dst.size();
        std::uint8_t* out = dst.data();
        int rc = Z_OK;
        constexpr std::uint64_t kStep = 1u << 30;
        while (true) {
            if (zs.avail_in == 0 && in_left > 0) {
                const auto n = std::min(in_left, kStep);
                zs.next_in = const_cast<Bytef*>(in);
                zs.avail_in = static_cast<uInt>(n);
                in += n;
                in_left -= n;
            }
            if (zs.avail_out == 0 && out_left > 0) {
                const auto n = std::min(out_left, kStep);
                zs.next_out = out;
                zs.avail_out = static_cast<uInt>(n);
                out += n;
                out_left -= n;
            }
            if (zs.avail_out == 0) break;  // output full: check below that the stream ends here
            rc = inflate(&zs, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) break;
            if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0) break;  // input exhausted early
            if (rc != Z_OK) {
                const std::string why = zs.msg ? zs.msg : "error " + std::to_string(rc);
                inflateEnd(&zs);
                fail(ErrorCode::Malformed, "corrupt deflate data in ZIP entry " + e.name + ": " + why, path);
            }
        }
        if (rc != Z_STREAM_END) {
            // Output is full (or input ran out). A valid stream ends exactly here.
            std::uint8_t extra = 0;
            if (zs.avail_in == 0 && in_left > 0) {
                const auto n = std::min(in_left, kStep);
                zs.next_in = const_cast<Bytef*>(in);
                zs.avail_in = static_cast<uInt>(n);
                in_left -= n;
            }
            zs.next_out = &extra;
            zs.avail_out = 1;
            rc = inflate(&zs, Z_NO_FLUSH);
            const bool produced = zs.avail_out == 0;
            inflateEnd(&zs);
            if (produced) fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " runs past its declared size", path);
            if (rc != Z_STREAM_END) fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " ends early (truncated or corrupt)", path);
        } else {
            const bool short_out = zs.avail_out != 0 || out_left != 0;
            inflateEnd(&zs);
            if (short_out) fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " is shorter than its declared size", path);
        }
    }
    if (zip_crc32(dst) != e.crc32) fail(ErrorCode::Malformed, "CRC-32 mismatch in ZIP entry " + e.name, path);
}

void ZipArchive::inflate_append(const ZipEntry& e, std::vector<std::uint8_t>& out) const {
    const std::string& path = file_->path();
    if (e.uncompressed_size > limits_.max_inflated_bytes)
        fail(ErrorCode::LimitExceeded, "ZIP entry " + e.name + " inflates to " + std::to_string(e.uncompressed_size) + " bytes (limit " +
             std::to_string(limits_.max_inflated_bytes) + ")", path);
    const std::size_t start = out.size();
    if (e.is_stored()) {
        const auto src = stored_span(e);
        out.insert(out.end(), src.begin(), src.end());
    } else {
        file_->require(e.data_offset, e.compressed_size);
        z_stream zs{};
        if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) fail(ErrorCode::Io, "zlib inflateInit2 failed", path);
        struct End { z_stream* z; ~End() { inflateEnd(z); } } end{&zs};
        const std::uint8_t* in = file_->data() + e.data_offset;
        std::uint64_t in_left = e.compressed_size;
        const std::uint64_t want = e.uncompressed_size;
        std::uint64_t produced = 0;
        constexpr std::uint64_t kMinChunk = 1u << 20, kMaxChunk = 1u << 30;
        auto feed = [&] {
            if (zs.avail_in == 0 && in_left > 0) {
                const auto n = std::min(in_left, kMaxChunk);
                zs.next_in = const_cast<Bytef*>(in);
                zs.avail_in = static_cast<uInt>(n);
                in += n;
                in_left -= n;
            }
        };
        int rc = Z_OK;
        while (produced < want) {
            feed();
            // Grow with the data: double what is there (at least 1 MiB), never past the declared size.
            const std::uint64_t chunk = std::min(want - produced, std::clamp<std::uint64_t>(out.size(), kMinChunk, kMaxChunk));
            out.resize(start + static_cast<std::size_t>(produced + chunk));
            zs.next_out = out.data() + start + produced;
            zs.avail_out = static_cast<uInt>(chunk);
            rc = inflate(&zs, Z_NO_FLUSH);
            produced += chunk - zs.avail_out;
            out.resize(start + static_cast<std::size_t>(produced));
            if (rc == Z_STREAM_END) break;
            if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0) break;  // input exhausted early
            if (rc != Z_OK)
                fail(ErrorCode::Malformed, "corrupt deflate data in ZIP entry " + e.name + ": " + (zs.msg ? zs.msg : "error " + std::to_string(rc)), path);
        }
        if (produced < want)
            fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " ends after " + std::to_string(produced) +
                 " of its declared " + std::to_string(want) + " bytes (truncated, corrupt or a lying size)", path);
        if (rc != Z_STREAM_END) {
            // Output complete: a valid stream ends exactly here.
            feed();
            std::uint8_t extra = 0;
            zs.next_out = &extra;
            zs.avail_out = 1;
            rc = inflate(&zs, Z_NO_FLUSH);
            if (zs.avail_out == 0) fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " runs past its declared size", path);
            if (rc != Z_STREAM_END) fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " ends early (truncated or corrupt)", path);
        }
    }
    if (zip_crc32(std::span<const std::uint8_t>(out.data() + start, out.size() - start)) != e.crc32)
        fail(ErrorCode::Malformed, "CRC-32 mismatch in ZIP entry " + e.name, path);
}

std::vector<std::uint8_t> ZipArchive::read(const ZipEntry& e) const {
    std::vector<std::uint8_t> out;
    inflate_append(e, out);
    return out;
}

std::vector<std::uint8_t> ZipArchive::read_metadata(const ZipEntry& e, std::string_view what) const {
    if (e.uncompressed_size > limits_.max_metadata_bytes)
        fail(ErrorCode::LimitExceeded, "ZIP entry " + e.name + " (" + std::string(what) + ") declares " + std::to_string(e.uncompressed_size) +
             " bytes uncompressed (limit " + std::to_string(limits_.max_metadata_bytes) + ": zip bomb?)", file_->path());
    return read(e);
}

std::vector<std::uint8_t> ZipArchive::read_prefix(const ZipEntry& e, std::uint64_t n) const {
    const std::string& path = file_->path();
    n = std::min(n, e.uncompressed_size);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(n));
    if (n == 0) return out;
    if (e.is_stored()) {
        file_->require(e.data_offset, out.size());
        std::memcpy(out.data(), file_->data() + e.data_offset, out.size());
        return out;
    }
    file_->require(e.data_offset, e.compressed_size);  // how much of it the prefix takes is known only by inflating
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) fail(ErrorCode::Io, "zlib inflateInit2 failed", path);
    const std::uint8_t* in = file_->data() + e.data_offset;
    std::uint64_t in_left = e.compressed_size;
    zs.next_out = out.data();
    zs.avail_out = static_cast<uInt>(out.size());
    int rc = Z_OK;
    while (zs.avail_out > 0) {
        if (zs.avail_in == 0 && in_left > 0) {
            const auto k = std::min<std::uint64_t>(in_left, 1u << 30);
            zs.next_in = const_cast<Bytef*>(in);
            zs.avail_in = static_cast<uInt>(k);
            in += k;
            in_left -= k;
        }
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0) break;
        if (rc != Z_OK) {
            const std::string why = zs.msg ? zs.msg : "error " + std::to_string(rc);
            inflateEnd(&zs);
            fail(ErrorCode::Malformed, "corrupt deflate data in ZIP entry " + e.name + ": " + why, path);
        }
    }
    const bool short_out = zs.avail_out != 0;
    inflateEnd(&zs);
    if (short_out) fail(ErrorCode::Malformed, "deflate data of ZIP entry " + e.name + " ends before its declared size", path);
    return out;
}

}  // namespace amn
