// SPDX-License-Identifier: MIT OR Apache-2.0
#include "output_files.hpp"

#include "anamnesis/error.hpp"
#include "schemes/facts.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <cstdlib>
#include <mutex>
#include <utility>

#include <fcntl.h>
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
        fd_ = o.fd_;
        force_ = o.force_;
        placed_ = o.placed_;
        o.fd_ = -1;
        o.tmp_.clear();
        o.placed_ = false;
    }
    return *this;
}
TempFile::~TempFile() { discard(); }

void TempFile::discard() noexcept {
    if (placed_) {  // placed but never released: a rollback that did not happen; keep the file
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

// Remove named temporaries a dead writer left in `dir`: a live writer holds
// an flock on its temp, so a temp whose lock can be taken is abandoned.
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
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::unlink(p.c_str()) == 0) {
            std::lock_guard<std::mutex> lk(g_cleanup_mu);
            g_cleanup_messages.push_back(p + ": removed a temporary file (" + std::to_string(st.st_size) +
                                         " bytes) left by an interrupted run");
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
        const std::string tmp = (dir / ("." + p.filename().string() + ".amn-" + random_suffix() + ".tmp")).string();
        const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) {
            if (errno == EEXIST) continue;
            throw Error(ErrorCode::Io, std::string("cannot create output: ") + std::strerror(errno), dir.string());
        }
        // Hold the lock for the file's life; a sweeper may have removed the
        // name between open and flock: then try another name.
        struct stat a {}, b {};
        if (::flock(fd, LOCK_EX) != 0 || ::fstat(fd, &a) != 0 || ::stat(tmp.c_str(), &b) != 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
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
    const auto exists = [&] { return Error(ErrorCode::OutputExists, "already exists (use --force to replace it)", final_); };
    const auto io = [&](const char* what) { return Error(ErrorCode::Io, std::string(what) + std::strerror(errno), final_); };
    // The fd (and its lock) stays open until close_placed(): a sweeper never
    // sees a named temp's lock free while it is being put in place.
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
            const fs::path p(final_);
            const std::string named = ((p.has_parent_path() ? p.parent_path() : fs::path(".")) /
                                       ("." + p.filename().string() + ".amn-" + random_suffix() + ".tmp")).string();
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
    placed_ = true;
}

void TempFile::unplace() noexcept {
    if (!placed_) return;
    ::unlink(final_.c_str());
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

void commit_together(const std::vector<TempFile*>& files) {
    for (auto* f : files) f->sync();
    std::size_t placed = 0;
    try {
        for (; placed < files.size(); ++placed) files[placed]->place();
    } catch (...) {
        for (std::size_t i = 0; i < placed; ++i) files[i]->unplace();
        throw;
    }
    std::set<std::string> dirs;
    for (auto* f : files) {
        const fs::path p(f->final_path());
        dirs.insert(p.has_parent_path() ? p.parent_path().string() : std::string("."));
    }
    for (const auto& d : dirs) fsync_dir(d);
    for (auto* f : files) f->close_placed();
}

void TempFile::commit() { commit_together({this}); }

void write_file_atomically(const std::string& path, const std::string& text, bool force) {
    auto t = TempFile::create(path, force);
    t.write_all(text);
    t.commit();
}

inline namespace names {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool is_quant_token(const std::string& tok) { return detail::is_quant_file_token(lower(tok)); }

// "Llama-3.2-1B-FP8-dynamic" → "Llama-3.2-1B"; tokens split on '-' only,
// so version dots survive.
std::string strip_quant_suffix(const std::string& stem) {
    std::string s = stem;
    for (;;) {
        const auto pos = s.find_last_of('-');
        if (pos == std::string::npos || pos == 0) break;
        const std::string tok = s.substr(pos + 1);
        if (tok.empty() || !is_quant_token(tok)) break;
        s.resize(pos);
    }
    if (s.size() == stem.size()) {
        // "model_fp8" style underscores at the very end.
        const auto pos = s.find_last_of('_');
        if (pos != std::string::npos && pos > 0 && is_quant_token(s.substr(pos + 1))) s.resize(pos);
    }
    return s.empty() ? stem : s;
}

std::string dtype_suffix(std::optional<DType> to) {
    return lower(dtype_name(to.value_or(DType::BF16)));
}

const char* const kAncillaryNames[] = {"tokenizer.json", "tokenizer_config.json", "tokenizer.model", "special_tokens_map.json",
                                       "generation_config.json", "vocab.json", "merges.txt", "added_tokens.json",
                                       "chat_template.jinja", "chat_template.json", "preprocessor_config.json"};

fs::path model_dir(const Catalog& cat) {
    fs::path p = fs::absolute(cat.shards.empty() ? fs::path(cat.path) : fs::path(cat.shards[0].path)).lexically_normal();
    return p.parent_path();
}

}  // namespace

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code ec;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

OutputLayout plan_output_files(const Catalog& cat, const ConvertOptions& opt) {
    OutputLayout L;
    const std::string out = opt.output.empty() ? default_output_path(cat, opt.to) : opt.output;
    const std::size_t nshards = cat.format == Format::Safetensors ? std::max<std::size_t>(1, cat.shards.size()) : 1;
    if (out.ends_with(".safetensors")) {
        const fs::path p(out);
        L.dir = p.has_parent_path() ? p.parent_path().string() : ".";
        if (nshards == 1) {
            L.shard_paths.push_back(out);
        } else {
            const std::string stem = out.substr(0, out.size() - std::strlen(".safetensors"));
            for (std::size_t i = 0; i < nshards; ++i) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "-%05zu-of-%05zu.safetensors", i + 1, nshards);
                L.shard_paths.push_back(stem + buf);
            }
            L.index_path = stem + ".safetensors.index.json";
        }
    } else {
        L.dir_mode = true;
        L.dir = out;
        const fs::path d(out);
        if (nshards == 1) {
            const std::string name = cat.format == Format::Safetensors && !cat.shards.empty()
                                         ? fs::path(cat.shards[0].path).filename().string() : "model.safetensors";
            L.shard_paths.push_back((d / name).string());
        } else {
            std::set<std::string> names;
            for (const auto& s : cat.shards) names.insert(fs::path(s.path).filename().string());
            for (std::size_t i = 0; i < nshards; ++i) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "model-%05zu-of-%05zu.safetensors", i + 1, nshards);
                L.shard_paths.push_back((d / (names.size() == nshards ? fs::path(cat.shards[i].path).filename().string() : buf)).string());
            }
            const std::string idx = cat.path.ends_with(".index.json") ? fs::path(cat.path).filename().string()
                                                                         : "model.safetensors.index.json";
            L.index_path = (d / idx).string();
        }
    }
    if (cat.config_json || opt.config_json) L.config_path = (fs::path(L.dir) / "config.json").string();

    // Never overwrite an input, even with --force.
    std::vector<fs::path> inputs;
    for (const auto& s : cat.shards) inputs.emplace_back(s.path);
    if (!cat.config_path.empty()) inputs.emplace_back(cat.config_path);
    if (cat.path.ends_with(".index.json")) inputs.emplace_back(cat.path);
    std::vector<std::string> outs = L.shard_paths;
    if (!L.index_path.empty()) outs.push_back(L.index_path);
    if (!L.config_path.empty()) outs.push_back(L.config_path);
    for (const auto& o : outs) {
        for (const auto& in : inputs)
            if (same_file(o, in))
                throw Error(ErrorCode::Usage, "output would overwrite the input file " + in.string() + "; choose another -o", o);
        std::error_code ec;
        if (!opt.force && fs::exists(o, ec)) throw Error(ErrorCode::OutputExists, "already exists (use --force to replace it)", o);
    }
    if (L.dir_mode) {
        std::error_code ec;
        if (!fs::exists(L.dir, ec)) {
            // Remember the outermost folder we create, to remove it on failure.
            fs::path first = fs::absolute(L.dir);
            while (first.has_parent_path() && !fs::exists(first.parent_path(), ec) && first.parent_path() != first) first = first.parent_path();
            if (!fs::create_directories(L.dir, ec) && ec)
                throw Error(ErrorCode::Io, "cannot create output folder: " + ec.message(), L.dir);
            L.created_dir = first.string();
        } else if (!fs::is_directory(L.dir, ec)) {
            throw Error(ErrorCode::Io, "output path exists and is not a folder", L.dir);
        }
    }
    return L;
}

std::vector<std::pair<std::string, std::string>> read_ancillary_files(const Catalog& cat, const OutputLayout& layout, bool force) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!layout.dir_mode) return out;
    const fs::path in = model_dir(cat);
    std::error_code ec;
    if (fs::equivalent(in, layout.dir, ec)) return out;
    for (const char* n : kAncillaryNames) {
        const fs::path src = in / n;
        if (!fs::is_regular_file(src, ec)) continue;
        const fs::path dst = fs::path(layout.dir) / n;
        if (!force && fs::exists(dst, ec)) continue;
        const auto f = MappedFile::open(src.string());
        out.emplace_back(dst.string(), std::string(reinterpret_cast<const char*>(f->data()), static_cast<std::size_t>(f->size())));
    }
    return out;
}

void sync_created_dirs(const OutputLayout& layout) noexcept {
    const fs::path dir = layout.dir.empty() ? fs::path(".") : fs::absolute(layout.dir).lexically_normal();
    fsync_dir(dir.string());
    if (layout.created_dir.empty()) {
        return;
    }
    const fs::path top = fs::path(layout.created_dir).lexically_normal();
    for (fs::path d = dir; ; d = d.parent_path()) {
        fsync_dir(d.parent_path().string());  // the entry of d lives in its parent
        if (d == top || !d.has_parent_path() || d.parent_path() == d) break;
    }
}

std::vector<std::string> copy_ancillary_files(const Catalog& cat, const OutputLayout& layout, bool force) {
    std::vector<std::string> written;
    if (!layout.dir_mode) return written;
    const fs::path in = model_dir(cat);
    std::error_code ec;
    if (fs::equivalent(in, layout.dir, ec)) return written;
    for (const char* n : kAncillaryNames) {
        const fs::path src = in / n;
        if (!fs::is_regular_file(src, ec)) continue;
        const fs::path dst = fs::path(layout.dir) / n;
        if (!force && fs::exists(dst, ec)) continue;
        std::ifstream f(src, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(f)), {});
        write_file_atomically(dst.string(), text, force);
        written.push_back(dst.string());
    }
    return written;
}

}  // namespace detail

std::vector<std::string> take_output_cleanup_messages() { return detail::take_cleanup_messages(); }

std::string default_output_path(const Catalog& cat, std::optional<DType> to) {
    using detail::strip_quant_suffix;
    using detail::dtype_suffix;
    const fs::path first = cat.shards.empty() ? fs::path(cat.path) : fs::path(cat.shards[0].path);
    const bool as_dir = cat.format == Format::Safetensors &&
                        (cat.config_json.has_value() || cat.shards.size() > 1 || cat.path.ends_with(".index.json"));
    if (as_dir) {
        fs::path dir = fs::absolute(first).lexically_normal().parent_path();
        std::string name = dir.filename().string();
        if (name.empty()) name = "model";
        return (dir.parent_path() / (strip_quant_suffix(name) + "-" + dtype_suffix(to))).string();
    }
    const std::string stem = first.stem().string();
    std::string suffix = "-" + dtype_suffix(to);
    if (cat.format != Format::Safetensors && cat.format != Format::Gguf && !to) suffix.clear();  // lossless NPZ/PTH
    std::string base = strip_quant_suffix(stem);
    if (suffix.empty() && base == stem) base = stem;
    return (first.parent_path() / (base + suffix + ".safetensors")).string();
}

}  // namespace amn
