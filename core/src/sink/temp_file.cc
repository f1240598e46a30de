// SPDX-License-Identifier: MIT OR Apache-2.0
// Temporary files and folders, their commit (alone or as a set, with the
// replaced files kept until the set is in place) and the sweep of those a
// killed run left behind.
#include "sink/temp_file.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <utility>

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace amn {
namespace fs = std::filesystem;

namespace detail {

TempFile::TempFile(TempFile&& o) noexcept { *this = std::move(o); }
TempFile& TempFile::operator=(TempFile&& o) noexcept {
    if (this != &o) {
        discard();  // (not this->~TempFile(): the members must stay alive for the assignments below)
        tmp_ = std::move(o.tmp_);
        final_ = std::move(o.final_);
        backup_ = std::move(o.backup_);
        backup_dir_ = std::move(o.backup_dir_);
        fd_ = o.fd_;
        backup_fd_ = o.backup_fd_;
        backup_is_link_ = o.backup_is_link_;
        force_ = o.force_;
        placed_ = o.placed_;
        o.fd_ = -1;
        o.backup_fd_ = -1;
        o.tmp_.clear();
        o.backup_.clear();
        o.backup_dir_.clear();
        o.placed_ = false;
    }
    return *this;
}
TempFile::~TempFile() { discard(); }

void TempFile::discard() noexcept {
    if (placed_) {  // placed but never released: a rollback that did not happen; keep the file
        drop_backup();
        close_placed();
        return;
    }
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    tmp_.clear();
}

namespace {

std::mutex g_cleanup_mu;
std::vector<std::string> g_cleanup_messages;
std::set<std::string> g_swept_dirs;

bool has_suffix(const std::string& s, std::string_view suf) {
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

bool is_temp_name(const std::string& n) {
    // ".<name>.amn-XXXXXXXX.tmp"
    if (n.size() < 19 || n[0] != '.' || !has_suffix(n, ".tmp")) return false;
    const std::size_t h = n.size() - 4 - 8;
    if (n.compare(h - 5, 5, ".amn-") != 0) return false;
    return std::all_of(n.begin() + static_cast<std::ptrdiff_t>(h), n.end() - 4, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// Inside every temporary folder of ours from its creation on (StagingDir,
// and the holder of a replaced symlink's backup): the sweeper removes a
// folder only when it holds this file, so a user's folder that merely has a
// name like ours is never deleted.
constexpr const char* kMarker = ".amn-temporary-folder";
constexpr std::string_view kMarkerText = "anamnesis: a temporary folder, removed when its run ends or by the next run here\n";

// Write the marker into `folder`; false when it cannot.
bool write_marker(const std::string& folder) noexcept {
    const std::string m = folder + "/" + kMarker;
    const int fd = ::open(m.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    const bool ok = ::write(fd, kMarkerText.data(), kMarkerText.size()) == static_cast<ssize_t>(kMarkerText.size());
    ::close(fd);
    return ok;
}

bool has_marker(const std::string& folder) {
    struct stat st {};
    return ::lstat((folder + "/" + kMarker).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Remove named temporaries (files and our marked folders) a dead writer left
// in `dir`: a live writer holds an flock on its temp, so a temp whose lock
// can be taken is abandoned. A folder with our name but without the marker
// is left in place, with a message.
void sweep_stale_temps(const fs::path& dir) {
    {
        std::lock_guard<std::mutex> lk(g_cleanup_mu);
        if (!g_swept_dirs.insert(fs::absolute(dir).lexically_normal().string()).second) return;
    }
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!is_temp_name(name)) continue;
        const std::string p = it->path().string();
        const int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st {};
        if (::fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) && ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            std::string msg;
            if (S_ISREG(st.st_mode)) {
                if (::unlink(p.c_str()) == 0)
                    msg = p + ": removed a temporary file (" + std::to_string(st.st_size) + " bytes) left by an interrupted run";
            } else if (!has_marker(p) && ::rmdir(p.c_str()) == 0) {
                // Empty: a run killed between making its folder and marking it (nothing to lose).
                msg = p + ": removed an empty temporary folder left by an interrupted run";
            } else if (!has_marker(p)) {
                msg = p + ": a folder named like a temporary folder of anamnesis but not made by it; left in place";
            } else {
                // Our folder (StagingDir, or a backup's holder): only temporaries of that run inside.
                std::error_code rec;
                std::uint64_t bytes = 0;
                for (auto f = fs::recursive_directory_iterator(p, rec); !rec && f != fs::recursive_directory_iterator(); f.increment(rec))
                    if (f->symlink_status(rec).type() == fs::file_type::regular && f->path().filename() != kMarker)
                        bytes += f->file_size(rec);
                if (fs::remove_all(p, rec) != static_cast<std::uintmax_t>(-1) && !rec)
                    msg = p + ": removed a temporary folder (" + std::to_string(bytes) + " bytes) left by an interrupted run";
            }
            if (!msg.empty()) {
                std::lock_guard<std::mutex> lk(g_cleanup_mu);
                g_cleanup_messages.push_back(std::move(msg));
            }
        }
        ::close(fd);
    }
}

bool tmpfile_allowed() {
    static const bool ok = [] {
        const char* e = std::getenv("AMN_NO_O_TMPFILE");  // tests: force the named-temp path
        return !(e && *e && std::string(e) != "0") && ::access("/proc/self/fd", X_OK) == 0;
    }();
    return ok;
}

std::string proc_fd_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

std::string random_suffix() {
    static thread_local std::mt19937 gen{std::random_device{}()};
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(gen()));
    return suffix;
}

// ".<name>.amn-XXXXXXXX.tmp" beside `final_path`.
std::string temp_name_beside(const std::string& final_path) {
    const fs::path p(final_path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    return (dir / ("." + p.filename().string() + ".amn-" + random_suffix() + ".tmp")).string();
}

// Take the lock of a freshly created temp at `path` through `fd`; false when
// a sweeper removed the name meanwhile (then try another name).
bool lock_fresh(int fd, const std::string& path) {
    struct stat a {}, b {};
    return ::flock(fd, LOCK_EX) == 0 && ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_ino == b.st_ino &&
           a.st_dev == b.st_dev;
}

struct LockedFolder {
    std::string path;
    int fd = -1;  ///< holds the folder's flock
};

// Create a temporary folder ".<name>.amn-XXXXXXXX.tmp" beside `final_path`,
// locked and marked as ours. `what` names it in errors. \throws Error{Io}.
LockedFolder make_temp_folder(const std::string& final_path, const char* what) {
    const fs::path p(final_path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string tmp = temp_name_beside(final_path);
        if (::mkdir(tmp.c_str(), 0755) != 0) {
            if (errno == EEXIST) continue;
            throw Error(ErrorCode::Io, std::string("cannot create ") + what + ": " + std::strerror(errno), final_path);
        }
        const int fd = ::open(tmp.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;  // swept meanwhile
        if (!lock_fresh(fd, tmp)) {
            ::close(fd);
            continue;
        }
        if (!write_marker(tmp)) {
            const int err = errno;
            std::error_code ec;
            fs::remove_all(tmp, ec);
            ::close(fd);
            throw Error(ErrorCode::Io, std::string("cannot create ") + what + ": " + std::strerror(err), final_path);
        }
        return {tmp, fd};
    }
    throw Error(ErrorCode::Io, std::string("cannot create ") + what, dir);
}

}  // namespace

std::vector<std::string> take_cleanup_messages() {
    std::lock_guard<std::mutex> lk(g_cleanup_mu);
    return std::exchange(g_cleanup_messages, {});
}

void fsync_dir(const std::string& dir) noexcept {
    const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);  // EINVAL on filesystems that do not sync folders: nothing to do
    ::close(fd);
}

TempFile TempFile::create(const std::string& final_path, bool force) {
    std::error_code ec;
    if (!force && fs::exists(final_path, ec)) throw Error(ErrorCode::OutputExists, "already exists (use --force to replace it)", final_path);
    const fs::path p(final_path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) throw Error(ErrorCode::Io, "output folder does not exist", dir.string());
    sweep_stale_temps(dir);
    TempFile t;
    t.final_ = final_path;
    t.force_ = force;
    if (tmpfile_allowed()) {
        // No name until commit: nothing survives a crash.
        const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ::flock(fd, LOCK_EX);  // guards the short-lived name a forced commit links it under
            t.fd_ = fd;
            return t;
        }
        // EOPNOTSUPP/EISDIR/EINVAL: the filesystem has no O_TMPFILE; fall back to a named temp.
    }
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string tmp = temp_name_beside(final_path);
        const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) {
            if (errno == EEXIST) continue;
            throw Error(ErrorCode::Io, std::string("cannot create output: ") + std::strerror(errno), dir.string());
        }
        // Hold the lock for the file's life; a sweeper may have removed the
        // name between open and flock: then try another name.
        if (!lock_fresh(fd, tmp)) {
            ::close(fd);
            continue;
        }
        t.fd_ = fd;
        t.tmp_ = tmp;
        return t;
    }
    throw Error(ErrorCode::Io, "cannot create a temporary file", dir.string());
}

void TempFile::truncate(std::uint64_t size) {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0)
        throw Error(ErrorCode::Io, std::string("cannot size output: ") + std::strerror(errno), final_);
}

void TempFile::write_all(std::string_view bytes) {
    std::size_t off = 0;
    while (off < bytes.size()) {
        const ssize_t w = ::write(fd_, bytes.data() + off, bytes.size() - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorCode::Io, std::string("write failed: ") + std::strerror(errno), final_);
        }
        off += static_cast<std::size_t>(w);
    }
}

void TempFile::sync() {
    if (fd_ < 0) throw Error(ErrorCode::Usage, "temporary file already closed", final_);
    if (::fdatasync(fd_) != 0) throw Error(ErrorCode::Io, std::string("cannot flush output: ") + std::strerror(errno), final_);
}

void TempFile::place() {
    if (fd_ < 0 || placed_) throw Error(ErrorCode::Usage, "temporary file already closed", final_);
    // The fd (and its lock) stays open until close_placed(): a sweeper never
    // sees a named temp's lock free while it is being put in place.
    if (force_) keep_replaced();
    try {
        place_file();
    } catch (...) {
        restore_replaced();
        throw;
    }
    placed_ = true;
}

void TempFile::place_file() {
    const auto exists = [&] { return Error(ErrorCode::OutputExists, "already exists (use --force to replace it)", final_); };
    const auto io = [&](const char* what) { return Error(ErrorCode::Io, std::string(what) + std::strerror(errno), final_); };
    if (tmp_.empty()) {
        // O_TMPFILE: give it a name. linkat() never replaces; with force,
        // link under a temp name and rename that over the final path.
        const std::string src = proc_fd_path(fd_);
        if (!force_) {
            if (::linkat(AT_FDCWD, src.c_str(), AT_FDCWD, final_.c_str(), AT_SYMLINK_FOLLOW) != 0) {
                if (errno == EEXIST) throw exists();
                throw io("cannot link output: ");
            }
        } else {
            const std::string named = temp_name_beside(final_);
            if (::linkat(AT_FDCWD, src.c_str(), AT_FDCWD, named.c_str(), AT_SYMLINK_FOLLOW) != 0) throw io("cannot link output: ");
            if (::rename(named.c_str(), final_.c_str()) != 0) {
                const Error e = io("cannot rename output: ");
                ::unlink(named.c_str());
                throw e;
            }
        }
    } else if (!force_) {
        // link() fails with EEXIST instead of replacing: no race with a file created meanwhile.
        if (::link(tmp_.c_str(), final_.c_str()) != 0) {
            if (errno == EEXIST) throw exists();
            // Filesystems without hard links: fall back to rename after a check.
            std::error_code ec;
            if (fs::exists(final_, ec)) throw exists();
            if (::rename(tmp_.c_str(), final_.c_str()) != 0) throw io("cannot rename output: ");
        } else {
            ::unlink(tmp_.c_str());
        }
        tmp_.clear();
    } else {
        if (::rename(tmp_.c_str(), final_.c_str()) != 0) throw io("cannot rename output: ");
        tmp_.clear();
    }
}

void TempFile::keep_replaced() {
    struct stat st {};
    if (::lstat(final_.c_str(), &st) != 0) return;  // nothing to replace
    if (S_ISDIR(st.st_mode)) throw Error(ErrorCode::Io, "is a folder: cannot replace it with a file", final_);
    if (!S_ISREG(st.st_mode)) {
        // A symlink (or FIFO, socket…) cannot be flocked: it is kept inside a
        // locked, marked temp folder, which a sweeper removes once we died.
        const LockedFolder holder = make_temp_folder(final_, "a folder for the file it replaces");
        const std::string b = holder.path + "/replaced";
        if (::link(final_.c_str(), b.c_str()) == 0) {  // link() does not follow a symlink
            backup_is_link_ = true;
        } else if (::renameat2(AT_FDCWD, final_.c_str(), AT_FDCWD, b.c_str(), RENAME_NOREPLACE) == 0) {
            backup_is_link_ = false;
        } else {
            const int err = errno;
            std::error_code ec;
            fs::remove_all(holder.path, ec);
            ::close(holder.fd);
            throw Error(ErrorCode::Io, std::string("cannot keep the file it replaces: ") + std::strerror(err), final_);
        }
        backup_ = b;
        backup_dir_ = holder.path;
        backup_fd_ = holder.fd;
        return;
    }
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string b = temp_name_beside(final_);
        if (::link(final_.c_str(), b.c_str()) == 0) {
            backup_is_link_ = true;
        } else if (errno == EEXIST) {
            continue;
        } else if (::renameat2(AT_FDCWD, final_.c_str(), AT_FDCWD, b.c_str(), RENAME_NOREPLACE) == 0) {
            backup_is_link_ = false;  // no hard links here: the final path is free until placed
        } else {
            if (errno == EEXIST) continue;
            throw Error(ErrorCode::Io, std::string("cannot keep the file it replaces: ") + std::strerror(errno), final_);
        }
        backup_ = b;
        // Locked like every temp, so that a sweeper leaves it while we live.
        backup_fd_ = ::open(b.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (backup_fd_ >= 0) ::flock(backup_fd_, LOCK_EX | LOCK_NB);
        return;
    }
    throw Error(ErrorCode::Io, "cannot name a backup of the file it replaces", final_);
}

void TempFile::restore_replaced() noexcept {
    if (backup_.empty()) return;
    if (backup_is_link_) ::unlink(backup_.c_str());                 // the final path still holds it
    else ::rename(backup_.c_str(), final_.c_str());                 // put it back
    release_backup();
}

void TempFile::drop_backup() noexcept {
    if (!backup_.empty()) ::unlink(backup_.c_str());
    release_backup();
}

void TempFile::release_backup() noexcept {
    if (!backup_dir_.empty()) {  // its holder folder goes before its lock is let go
        std::error_code ec;
        fs::remove_all(backup_dir_, ec);
        backup_dir_.clear();
    }
    backup_.clear();
    if (backup_fd_ >= 0) ::close(backup_fd_);
    backup_fd_ = -1;
}

void TempFile::unplace() noexcept {
    if (!placed_) return;
    if (backup_.empty()) {
        ::unlink(final_.c_str());
    } else {
        ::rename(backup_.c_str(), final_.c_str());  // the replaced file back, atomically over ours
        release_backup();
    }
    placed_ = false;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void TempFile::close_placed() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    placed_ = false;
    tmp_.clear();
}

void commit_together(const std::vector<TempFile*>& files, const std::function<void()>& before_release) {
    for (auto* f : files) f->sync();
    std::set<std::string> dirs;
    for (auto* f : files) {
        const fs::path p(f->final_path());
        dirs.insert(p.has_parent_path() ? p.parent_path().string() : std::string("."));
    }
    std::size_t placed = 0;
    try {
        for (; placed < files.size(); ++placed) files[placed]->place();
        for (const auto& d : dirs) fsync_dir(d);
        if (before_release) before_release();
    } catch (...) {
        for (std::size_t i = placed; i-- > 0;) files[i]->unplace();
        for (const auto& d : dirs) fsync_dir(d);
        throw;
    }
    for (auto* f : files) f->drop_backup();
    for (auto* f : files) f->close_placed();
}

void TempFile::commit() { commit_together({this}); }

// ---- StagingDir ---------------------------------------------------------------

StagingDir::StagingDir(StagingDir&& o) noexcept { *this = std::move(o); }
StagingDir& StagingDir::operator=(StagingDir&& o) noexcept {
    if (this != &o) {
        discard();
        tmp_ = std::move(o.tmp_);
        final_ = std::move(o.final_);
        fd_ = o.fd_;
        o.fd_ = -1;
        o.tmp_.clear();
    }
    return *this;
}
StagingDir::~StagingDir() { discard(); }

void StagingDir::discard() noexcept {
    if (fd_ < 0) return;
    std::error_code ec;
    fs::remove_all(tmp_, ec);  // ours: only this run's temporaries inside
    ::close(fd_);
    fd_ = -1;
    tmp_.clear();
}

StagingDir StagingDir::create(const std::string& final_path) {
    std::error_code ec;
    if (fs::exists(final_path, ec)) throw Error(ErrorCode::OutputExists, "already exists (use --force to replace it)", final_path);
    const fs::path p(final_path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) throw Error(ErrorCode::Io, "output folder does not exist", dir.string());
    sweep_stale_temps(dir);
    LockedFolder f = make_temp_folder(final_path, "output folder");
    StagingDir s;
    s.tmp_ = std::move(f.path);
    s.final_ = final_path;
    s.fd_ = f.fd;
    return s;
}

void StagingDir::commit() {
    if (fd_ < 0) throw Error(ErrorCode::Usage, "staging folder already committed", final_);
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(tmp_, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory(ec)) fsync_dir(it->path().string());
    // The marker does not go into the output; put back if the rename fails. It is
    // removed right before the rename (no fsync between): a kill between the two
    // leaves an unmarked folder, which the next run only mentions.
    ::unlink((tmp_ + "/" + kMarker).c_str());
    const auto fail = [&](ErrorCode code, const std::string& message) {
        write_marker(tmp_);
        return Error(code, message, final_);
    };
    if (::renameat2(AT_FDCWD, tmp_.c_str(), AT_FDCWD, final_.c_str(), RENAME_NOREPLACE) != 0) {
        if (errno == EEXIST || errno == ENOTEMPTY) throw fail(ErrorCode::OutputExists, "already exists (use --force to replace it)");
        if (errno != EINVAL && errno != ENOSYS)
            throw fail(ErrorCode::Io, std::string("cannot rename output folder: ") + std::strerror(errno));
        // No RENAME_NOREPLACE on this filesystem: check, then rename (which
        // would replace only an empty folder).
        if (fs::exists(final_, ec)) throw fail(ErrorCode::OutputExists, "already exists (use --force to replace it)");
        if (::rename(tmp_.c_str(), final_.c_str()) != 0)
            throw fail(ErrorCode::Io, std::string("cannot rename output folder: ") + std::strerror(errno));
    }
    fsync_dir(final_);  // the marker's removal
    const fs::path p(final_);
    fsync_dir(p.has_parent_path() ? p.parent_path().string() : std::string("."));
    ::close(fd_);
    fd_ = -1;
    tmp_.clear();
}

}  // namespace detail
}  // namespace amn
