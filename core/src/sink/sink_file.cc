// SPDX-License-Identifier: MIT OR Apache-2.0
#include "sink/sink_file.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace amn::detail {

void require_laid(SinkState state, const char* call, const std::string& path) {
    if (state != SinkState::Laid)
        throw Error(ErrorCode::Usage,
                    std::string(call) + (state == SinkState::Open ? "() before allocate()" : "() after commit()/abort()"),
                    path);
}

void check_free_space(const std::string& path, std::uint64_t size, ByteDigits digits) {
    const std::filesystem::path p(path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
    check_free_space_in(dir, dir, size, digits);
}

void check_free_space_in(const std::string& stat_dir, const std::string& shown_dir, std::uint64_t size,
                         ByteDigits digits) {
    struct statvfs vfs {};
    if (::statvfs(stat_dir.c_str(), &vfs) == 0) {
        const std::uint64_t avail = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
        if (size > avail)
            throw Error(ErrorCode::Io, "the output needs " + human_bytes(size, digits) + " but only " + human_bytes(avail, digits) +
                                           " are free here",
                        shown_dir);
    }
}

void pwrite_all(int fd, const std::uint8_t* p, std::uint64_t n, std::uint64_t off, const std::string& path,
                const std::string& tensor) {
    while (n > 0) {
        const ssize_t w = ::pwrite(fd, p, std::min<std::uint64_t>(n, 1u << 30), static_cast<off_t>(off));
        if (w <= 0) {
            if (w < 0 && errno == EINTR) continue;
            throw Error(ErrorCode::Io, std::string("write failed: ") + std::strerror(w < 0 ? errno : EIO), path, tensor);
        }
        p += w;
        n -= static_cast<std::uint64_t>(w);
        off += static_cast<std::uint64_t>(w);
    }
}

void start_writeback(int fd, std::uint64_t off, std::uint64_t n) noexcept {
#if defined(__linux__)
    ::sync_file_range(fd, static_cast<off64_t>(off), static_cast<off64_t>(n), SYNC_FILE_RANGE_WRITE);
#else
    (void)fd, (void)off, (void)n;
#endif
}

bool preallocate(int fd, std::uint64_t size) noexcept {
#if defined(__linux__)
    if (size == 0) return true;
    int r;
    do r = ::fallocate(fd, 0, 0, static_cast<off_t>(size));
    while (r != 0 && errno == EINTR);
    return r == 0 || (errno != ENOSPC && errno != EDQUOT);
#else
    (void)fd, (void)size;
    return true;
#endif
}

void WrittenRanges::check_range(std::uint64_t offset, std::uint64_t size, std::uint64_t nbytes, const std::string& path,
                                const std::string& tensor) {
    if (offset > nbytes || size > nbytes - offset)
        throw Error(ErrorCode::OutOfRange,
                    "write of " + std::to_string(size) + " bytes at " + std::to_string(offset) + " runs past the tensor's " +
                        std::to_string(nbytes) + " bytes",
                    path, tensor);
}

void WrittenRanges::add(std::uint64_t offset, std::uint64_t size) {
    std::uint64_t s = offset, e = offset + size;
    auto& m = ranges_;
    auto it = m.upper_bound(s);
    if (it != m.begin() && std::prev(it)->second >= s) --it;
    while (it != m.end() && it->first <= e) {
        s = std::min(s, it->first);
        e = std::max(e, it->second);
        it = m.erase(it);
    }
    m.emplace(s, e);
}

void WrittenRanges::check_complete(std::uint64_t nbytes, const std::string& path, const std::string& tensor) const {
    if (nbytes == 0) return;
    std::uint64_t done = 0;
    for (const auto& [s, e] : ranges_) done += e - s;
    if (done == nbytes) return;
    std::uint64_t gap = 0;  // first unwritten byte
    for (const auto& [s, e] : ranges_) {
        if (s > gap) break;
        gap = e;
    }
    throw Error(ErrorCode::Usage,
                "tensor data incomplete: " + std::to_string(nbytes - done) + " of " + std::to_string(nbytes) +
                    " bytes never written (first at byte " + std::to_string(gap) + ")",
                path, tensor);
}

}  // namespace amn::detail
