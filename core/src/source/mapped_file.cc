// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/mapped_file.hpp"

#include "anamnesis/error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace amn {

struct MappedFile::Released {
    std::mutex mu;
    ByteRanges ranges;  // page-aligned
    void add(std::uint64_t b, std::uint64_t e) {
        std::lock_guard lock(mu);
        ranges.add(b, e);
    }
};

void ByteRanges::add(std::uint64_t b, std::uint64_t e) {
    if (e <= b) return;
    auto it = ranges_.upper_bound(b);
    if (it != ranges_.begin()) {
        auto prev = std::prev(it);
        if (prev->second >= b) {
            b = prev->first;
            e = std::max(e, prev->second);
            it = ranges_.erase(prev);
        }
    }
    while (it != ranges_.end() && it->first <= e) {
        e = std::max(e, it->second);
        it = ranges_.erase(it);
    }
    ranges_.emplace(b, e);
}

std::optional<std::uint64_t> ByteRanges::first_missing(std::uint64_t offset, std::uint64_t length) const {
    if (length == 0) return std::nullopt;
    auto it = ranges_.upper_bound(offset);
    if (it == ranges_.begin()) return offset;
    --it;  // the last range starting at or before offset
    if (it->second <= offset) return offset;
    if (it->second - offset >= length) return std::nullopt;
    return it->second;
}

std::uint64_t ByteRanges::covered() const noexcept {
    std::uint64_t n = 0;
    for (const auto& [b, e] : ranges_) n += e - b;
    return n;
}

namespace {
namespace fs = std::filesystem;

// The files mark_partial() declared, by normalised absolute path.
struct PartialFiles {
    std::mutex mu;
    std::map<std::string, std::shared_ptr<const ByteRanges>> files;
    std::atomic<bool> any{false};  // read unlocked first: the common case is a process with none
};
PartialFiles& partial_files() {
    static PartialFiles p;
    return p;
}
std::string partial_key(const std::string& path) {
    std::error_code ec;
    auto abs = fs::absolute(path, ec);
    return (ec ? fs::path(path) : abs).lexically_normal().string();
}
}  // namespace

void MappedFile::mark_partial(const std::string& path, std::shared_ptr<const ByteRanges> present) {
    auto& p = partial_files();
    std::lock_guard lock(p.mu);
    p.files[partial_key(path)] = std::move(present);
    p.any = true;
}

void MappedFile::unmark_partial(const std::string& path) noexcept {
    auto& p = partial_files();
    try {
        const auto key = partial_key(path);
        std::lock_guard lock(p.mu);
        p.files.erase(key);
        p.any = !p.files.empty();
    } catch (...) {
    }
}

void MappedFile::require_partial(std::uint64_t offset, std::uint64_t length, bool at_least) const {
    if (offset >= size_) return;
    if (length > size_ - offset) length = size_ - offset;
    if (const auto gap = present_->first_missing(offset, length))
        throw MissingBytes{path_, *gap, offset + length - *gap, at_least};
}

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
    // writer forever; it is refused below as not a regular file.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw Error(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), path);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        throw Error(ErrorCode::Io, std::string("cannot stat: ") + std::strerror(e), path);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        throw Error(ErrorCode::Io, "is a directory", path);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw Error(ErrorCode::NotRegularFile,
                    std::string("is not a regular file (") +
                        (S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "a special file") + "): model files must be regular files",
                    path);
    }
    std::shared_ptr<MappedFile> m(new MappedFile());
    m->path_ = path;
    m->size_ = static_cast<std::uint64_t>(st.st_size);
    if (m->size_ > 0) {
        void* p = ::mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int e = errno;
            ::close(fd);
            throw Error(ErrorCode::Io, std::string("cannot map: ") + std::strerror(e), path);
        }
        m->data_ = static_cast<const std::uint8_t*>(p);
        m->mapped_ = true;
        m->released_ = std::make_unique<Released>();
    }
    ::close(fd);
    auto& partial = partial_files();
    if (partial.any) {
        const auto key = partial_key(path);
        std::lock_guard lock(partial.mu);
        if (auto it = partial.files.find(key); it != partial.files.end()) m->present_ = it->second;
    }
    return m;
}

std::shared_ptr<const MappedFile> MappedFile::from_bytes(std::vector<std::uint8_t> bytes, std::string name) {
    std::shared_ptr<MappedFile> m(new MappedFile());
    m->owned_ = std::move(bytes);
    m->path_ = std::move(name);
    m->data_ = m->owned_.data();
    m->size_ = m->owned_.size();
    return m;
}

MappedFile::~MappedFile() {
    if (mapped_ && data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

namespace {
const std::uint64_t kPage = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

void MappedFile::release(std::uint64_t offset, std::uint64_t len, bool cover_edges) const noexcept {
    if (!mapped_ || offset >= size_) return;
    if (len > size_ - offset) len = size_ - offset;
    const std::uint64_t begin = cover_edges ? offset / kPage * kPage : (offset + kPage - 1) / kPage * kPage;
    const std::uint64_t end = cover_edges ? std::min((offset + len + kPage - 1) / kPage * kPage, (size_ + kPage - 1) / kPage * kPage)
                                          : (offset + len) / kPage * kPage;
    if (end <= begin) return;
    ::madvise(const_cast<std::uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
    try {
        released_->add(begin, end);
    } catch (...) {  // out of memory for the bookkeeping: the pages are released all the same
    }
}

void MappedFile::release_again() const noexcept {
    if (!mapped_ || !released_) return;
    std::lock_guard lock(released_->mu);
    for (const auto& [b, e] : released_->ranges.ranges()) ::madvise(const_cast<std::uint8_t*>(data_) + b, e - b, MADV_DONTNEED);
}

void MappedFile::advise_sequential(std::uint64_t offset, std::uint64_t len) const noexcept {
    if (!mapped_ || offset >= size_) return;
    if (len > size_ - offset) len = size_ - offset;
    const std::uint64_t begin = offset / kPage * kPage;
    ::madvise(const_cast<std::uint8_t*>(data_) + begin, len + (offset - begin), MADV_SEQUENTIAL);
}

}  // namespace amn
