// SPDX-License-Identifier: MIT OR Apache-2.0
// Remote models: the mirror of sparse files and the fetch-until-parsed loop
// (anamnesis/remote.hpp).
#include "anamnesis/remote.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/mapped_file.hpp"
#include "source/remote/http_client.hpp"
#include "source/remote/hub.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

namespace amn {

namespace {
namespace fs = std::filesystem;

constexpr std::uint64_t kCompanionLimit = 64ull << 20;  // a companion file read whole: at most this
constexpr std::uint64_t kFirstRange = 1024 + 64;        // the first request of a file of unknown size
constexpr std::uint64_t kSlackExact = 1024;             // read on past an exact need …
constexpr std::uint64_t kSlackAtLeast = 32 * 1024;      // … and past a lower bound
constexpr int kMaxRounds = 200000;

// The files a local inspection reads beside a model, fetched whole; `probe`:
// also looked for beside a single-file URL (whose folder is not listed: one
// request each, so only what inspection needs most).
struct Companion {
    std::string_view name;
    bool probe;
};
constexpr std::array<Companion, 20> kCompanions = {{
    {"config.json", true}, {"generation_config.json", true}, {"hf_quant_config.json", true}, {"quantize_config.json", true},
    {"quant_config.json", false}, {"tokenizer.json", true}, {"tokenizer_config.json", true}, {"tokenizer.model", true},
    {"special_tokens_map.json", true}, {"added_tokens.json", false}, {"vocab.json", false}, {"vocab.txt", false},
    {"merges.txt", false}, {"chat_template.jinja", false}, {"chat_template.json", false}, {"params.json", false},
    {"preprocessor_config.json", false}, {"processor_config.json", false}, {"sentencepiece.bpe.model", false},
    {"spiece.model", false},
}};

bool is_companion(std::string_view name) {
    return std::any_of(kCompanions.begin(), kCompanions.end(), [&](const Companion& c) { return c.name == name; }) ||
           name.ends_with(".index.json");
}

std::string last_segment(const std::string& url) {
    const std::string bare = remote::HttpClient::shown(url);
    const auto slash = bare.rfind('/');
    return slash == std::string::npos ? bare : bare.substr(slash + 1);
}

void write_at(int fd, const std::string& local, std::uint64_t offset, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const auto n = ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorCode::Io, std::string("cannot write the remote mirror: ") + std::strerror(errno), local);
        }
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

bool is_remote_model(std::string_view arg) noexcept {
    return arg.starts_with("http://") || arg.starts_with("https://") || arg.starts_with("hf://");
}

struct RemoteModel::State {
    struct File {
        std::string url, local;
        std::uint64_t size = 0;
        bool size_known = false;
        bool partial = false;  // fetched range by range (a model file), else whole or not at all
        std::uint64_t fetched = 0;
        std::shared_ptr<ByteRanges> present = std::make_shared<ByteRanges>();
    };
    std::string spec, dir, local, label;  // label: what `dir` stands for
    RemoteOptions options;
    std::unique_ptr<remote::HttpClient> http;
    std::vector<File> files;
    std::mutex mu;  // fetch() after open: one transfer at a time (one libcurl handle)

    ~State() {
        for (const auto& f : files)
            if (f.partial) MappedFile::unmark_partial(f.local);
        if (!dir.empty()) {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    }

    File& add(std::string url, const std::string& name, std::uint64_t size, bool size_known) {
        File f;
        f.url = std::move(url);
        f.local = (fs::path(dir) / name).string();
        f.size = size;
        f.size_known = size_known;
        files.push_back(std::move(f));
        return files.back();
    }

    void report() const {
        if (options.progress) options.progress(http->bytes_fetched());
    }

    void check_budget(std::uint64_t more, const File& f) const {
        if (http->bytes_fetched() + more > options.max_header_bytes)
            throw Error(ErrorCode::LimitExceeded,
                        "reading the header would fetch more than " + human_bytes(options.max_header_bytes) +
                            " (the remote-header budget): download the file instead",
                        f.url);
    }

    // Create the sparse local file of f.size bytes (holes read as zeros).
    void create(File& f) {
        const int fd = ::open(f.local.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) throw Error(ErrorCode::Io, std::string("cannot create the remote mirror: ") + std::strerror(errno), f.local);
        const int rc = ::ftruncate(fd, static_cast<off_t>(f.size));
        const int e = errno;
        ::close(fd);
        if (rc != 0) throw Error(ErrorCode::Io, std::string("cannot size the remote mirror: ") + std::strerror(e), f.local);
    }

    void store(File& f, std::uint64_t offset, const std::string& bytes) {
        const int fd = ::open(f.local.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) throw Error(ErrorCode::Io, std::string("cannot open the remote mirror: ") + std::strerror(errno), f.local);
        try {
            write_at(fd, f.local, offset, bytes);
        } catch (...) {
            ::close(fd);
            throw;
        }
        ::close(fd);
        f.present->add(offset, offset + bytes.size());
        f.fetched += bytes.size();
    }

    // A companion file: whole, or absent (404) when `probe`.
    bool fetch_whole(File& f, bool probe) {
        check_budget(std::min(f.size_known ? f.size : kCompanionLimit, kCompanionLimit), f);
        auto body = http->get_all(f.url, kCompanionLimit, probe);
        report();
        if (!body) return false;
        f.size = body->size();
        f.size_known = true;
        create(f);
        store(f, 0, *body);
        return true;
    }

    // Fetch [offset, end) of a model file (the size learnt from the answer
    // when not known yet) into the mirror; a header read counts against the
    // header budget, a preview's (fetch()) does not.
    void fetch_range(File& f, std::uint64_t offset, std::uint64_t end, bool header = true) {
        if (header) check_budget(end - offset, f);
        auto body = http->get_range(f.url, offset, end - offset);
        report();
        if (!f.size_known) {
            f.size = body.total;
            f.size_known = true;
            create(f);
        } else if (body.total != f.size) {
            throw Error(ErrorCode::Network,
                        "the file has " + std::to_string(body.total) + " bytes, its listing says " + std::to_string(f.size) +
                            " (changed while reading?)",
                        remote::HttpClient::shown(f.url));
        }
        if (body.whole) {
            store(f, 0, body.bytes);
            return;
        }
        const std::uint64_t want = std::min(end, f.size) - std::min(offset, f.size);
        if (body.bytes.size() != want)
            throw Error(ErrorCode::Network,
                        "the server sent " + std::to_string(body.bytes.size()) + " of the " + std::to_string(want) +
                            " bytes asked for",
                        remote::HttpClient::shown(f.url));
        store(f, offset, body.bytes);
    }

    void make_partial(File& f) {
        if (!f.size_known) fetch_range(f, 0, kFirstRange);
        else if (f.fetched == 0) create(f);
        f.partial = true;
        MappedFile::mark_partial(f.local, f.present);
    }

    // The transfers of one fetch()/download() call polled `cancel`.
    struct CancelScope {
        remote::HttpClient& http;
        CancelScope(remote::HttpClient& h, const std::atomic<bool>* cancel) : http(h) {
            http.set_cancelled([cancel] { return cancel && cancel->load(); });
        }
        ~CancelScope() { http.set_cancelled({}); }
    };

    File* find_local(const std::string& path) {
        const auto key = fs::absolute(path).lexically_normal();
        for (auto& f : files)
            if (fs::path(f.local).lexically_normal() == key) return &f;
        return nullptr;
    }

    // What a parser declared missing, fetched: from the first missing byte
    // to what it needs plus a little (more when its need is a lower
    // bound), never over bytes already there.
    void fetch_missing(const MissingBytes& m) {
        File* f = find_local(m.path);
        if (!f) throw Error(ErrorCode::Io, "a parser asked for bytes of a file that is not mirrored", m.path);
        std::uint64_t end = std::min(f->size, m.offset + m.length + (m.at_least ? kSlackAtLeast : kSlackExact));
        const auto& ranges = f->present->ranges();
        if (auto next = ranges.upper_bound(m.offset); next != ranges.end()) end = std::min(end, next->first);
        if (end <= m.offset) throw Error(ErrorCode::Io, "a parser asked again for bytes already fetched", f->url);
        fetch_range(*f, m.offset, end);
    }

    void open_hub(const std::string& given);
    void open_url(const std::string& url);
};

void RemoteModel::State::open_hub(const std::string& given) {
    const auto hs = remote::parse_hub_spec(given);
    const std::string endpoint = remote::hub_endpoint();
    const auto listing = remote::hub_list(*http, endpoint, hs);
    report();
    // PATH a file: its folder is mirrored, the file opened; a folder or
    // nothing: the folder, opened as a folder.
    std::string folder = hs.path, opened;
    const bool is_file = std::any_of(listing.begin(), listing.end(), [&](const remote::HubFile& f) { return f.path == hs.path; });
    if (is_file) {
        const auto slash = hs.path.rfind('/');
        folder = slash == std::string::npos ? std::string() : hs.path.substr(0, slash);
        opened = slash == std::string::npos ? hs.path : hs.path.substr(slash + 1);
    } else if (!hs.path.empty() &&
               std::none_of(listing.begin(), listing.end(), [&](const remote::HubFile& f) { return f.path.starts_with(hs.path + "/"); })) {
        throw Error(ErrorCode::Network, "no file or folder '" + hs.path + "' in " + hs.repo + " at revision " + hs.revision, given);
    }
    label = "hf://" + hs.repo + (hs.revision_given ? "@" + hs.revision : std::string()) + (folder.empty() ? "" : "/" + folder);
    const std::string prefix = folder.empty() ? std::string() : folder + "/";
    for (const auto& lf : listing) {
        if (!lf.path.starts_with(prefix)) continue;
        // Subfolders too (an ONNX graph's external data may sit in one): as
        // holes, they cost nothing until a parser reads them.
        const std::string name = lf.path.substr(prefix.size());
        if (name.empty()) continue;
        if (const auto slash = name.rfind('/'); slash != std::string::npos) {
            std::error_code ec;
            fs::create_directories(fs::path(dir) / name.substr(0, slash), ec);
            if (ec) throw Error(ErrorCode::Io, "cannot create the remote mirror: " + ec.message(), (fs::path(dir) / name).string());
        }
        add(remote::hub_file_url(endpoint, hs, lf.path), name, lf.size, lf.size_known);
    }
    for (auto& f : files) {
        const std::string name = fs::path(f.local).filename().string();
        const bool top = fs::path(f.local).parent_path() == fs::path(dir);
        if (top && is_companion(name) && (!f.size_known || f.size <= kCompanionLimit)) fetch_whole(f, false);
        else make_partial(f);
    }
    local = opened.empty() ? dir : (fs::path(dir) / opened).string();
}

void RemoteModel::State::open_url(const std::string& url) {
    const std::string name = last_segment(url);
    if (name.empty()) throw Error(ErrorCode::Usage, "the URL names a folder, not a file", url);
    const std::string bare = remote::HttpClient::shown(url);
    const std::string base = bare.substr(0, bare.size() - name.size());  // ends with '/'
    const std::string query = url.substr(bare.size());
    label = base.substr(0, base.size() - 1);
    local = (fs::path(dir) / name).string();
    std::set<std::string> names{name};
    add(url, name, 0, false);
    std::vector<std::size_t> models;  // indices of files read range by range
    if (name.ends_with(".index.json")) {
        fetch_whole(files[0], false);
        const std::string text(reinterpret_cast<const char*>(MappedFile::open(files[0].local)->data()), files[0].size);
        for (const auto& shard : remote::index_shard_files(text, bare))
            if (names.insert(shard).second) {
                add(base + shard + query, shard, 0, false);
                models.push_back(files.size() - 1);
            }
    } else {
        models.push_back(0);
        if (name.ends_with(".gguf"))
            if (const auto split = parse_gguf_split_name(name); split && split->count > 1)
                for (std::uint32_t i = 1; i <= split->count; ++i) {
                    const std::string part = gguf_split_path(split->prefix, i, split->count);
                    if (names.insert(part).second) {
                        add(base + part + query, part, 0, false);
                        models.push_back(files.size() - 1);
                    }
                }
    }
    for (auto i : models) make_partial(files[i]);
    // A GGUF carries its own configuration; any other file is inspected with
    // the companions of its folder, as locally.
    if (!name.ends_with(".gguf"))
        for (const auto& c : kCompanions) {
            const std::string companion(c.name);
            if (!c.probe || !names.insert(companion).second) continue;
            add(base + companion + query, companion, 0, false);
            if (!fetch_whole(files.back(), true)) files.pop_back();
        }
}

RemoteModel RemoteModel::open(const std::string& spec, const RemoteOptions& options) {
    auto s = std::make_unique<State>();
    s->spec = spec;
    s->options = options;
    remote::HttpSettings hs;
    hs.token = remote::hub_token();
    hs.token_origin = remote::url_origin(remote::hub_endpoint());
    hs.timeout_s = remote::hub_timeout_seconds();
    hs.cancelled = options.cancelled;
    s->http = std::make_unique<remote::HttpClient>(std::move(hs));
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = (fs::path(tmp && *tmp ? tmp : "/tmp") / "amn-remote-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw Error(ErrorCode::Io, std::string("cannot create a temporary folder: ") + std::strerror(errno), templ);
    s->dir = fs::absolute(templ).lexically_normal().string();
    State& st = *s;
    try {
        if (spec.starts_with("hf://")) st.open_hub(spec);
        else st.open_url(spec);
        // Parse until nothing is missing: each round fetches what the
        // parsers declared next (MappedFile::require).
        for (int round = 0;; ++round) {
            if (round == kMaxRounds) throw Error(ErrorCode::LimitExceeded, "header still incomplete after " + std::to_string(kMaxRounds) + " requests", spec);
            try {
                (void)open_model(st.local);
                break;
            } catch (const MissingBytes& m) {
                st.fetch_missing(m);
            }
        }
    } catch (const Error& e) {
        RemoteModel failed(std::move(s));
        throw failed.relabel(e);
    }
    // Done: the mirror is complete for parsing; later opens need no checks.
    // The caller's callbacks are not kept (they may not outlive this call).
    st.options.progress = {};
    st.options.cancelled = {};
    st.http->set_cancelled({});
    for (auto& f : st.files)
        if (f.partial) {
            MappedFile::unmark_partial(f.local);
            f.partial = false;
        }
    return RemoteModel(std::move(s));
}

RemoteModel::RemoteModel(std::unique_ptr<State> s) : s_(std::move(s)) {}
RemoteModel::RemoteModel(RemoteModel&&) noexcept = default;
RemoteModel& RemoteModel::operator=(RemoteModel&&) noexcept = default;
RemoteModel::~RemoteModel() = default;

const std::string& RemoteModel::local_path() const noexcept { return s_->local; }
const std::string& RemoteModel::spec() const noexcept { return s_->spec; }
std::uint64_t RemoteModel::bytes_fetched() const noexcept { return s_->http->bytes_fetched(); }
std::uint64_t RemoteModel::requests() const noexcept { return s_->http->requests(); }

std::uint64_t RemoteModel::fetch(const std::string& local_path, std::uint64_t offset, std::uint64_t length,
                                 const std::atomic<bool>* cancel) const {
    std::lock_guard lock(s_->mu);
    const State::CancelScope scope(*s_->http, cancel);
    State::File* f = s_->find_local(local_path);
    if (!f) throw Error(ErrorCode::Io, "not a file of this remote model's mirror", local_path);
    if (offset >= f->size) return 0;
    const std::uint64_t end = std::min(f->size, offset + length);
    const std::uint64_t before = s_->http->bytes_fetched();
    for (std::uint64_t at = offset; at < end;) {
        const auto gap = f->present->first_missing(at, end - at);
        if (!gap) break;
        std::uint64_t gap_end = end;
        const auto& ranges = f->present->ranges();
        if (auto next = ranges.upper_bound(*gap); next != ranges.end()) gap_end = std::min(gap_end, next->first);
        // In pieces of at most 16 MiB: the cancel flag is polled between them too.
        gap_end = std::min<std::uint64_t>(gap_end, *gap + (16ull << 20));
        s_->fetch_range(*f, *gap, gap_end, false);
        at = gap_end;
    }
    return s_->http->bytes_fetched() - before;
}

std::string RemoteModel::download(const std::string& dir, const std::vector<std::string>& also,
                                  const std::function<void(std::uint64_t, std::uint64_t)>& progress,
                                  const std::atomic<bool>* cancel) const {
    std::lock_guard lock(s_->mu);
    const State::CancelScope scope(*s_->http, cancel);
    std::vector<State::File*> want;
    for (auto& f : s_->files) {
        bool named = f.fetched > 0;
        for (const auto& a : also) named = named || fs::path(a).lexically_normal() == fs::path(f.local).lexically_normal();
        if (named) want.push_back(&f);
    }
    std::uint64_t total = 0, done = 0;
    for (const auto* f : want) total += f->size;
    const fs::path root(s_->dir);
    for (auto* f : want) {
        const fs::path target = fs::path(dir) / fs::path(f->local).lexically_relative(root);
        std::error_code ec;
        fs::create_directories(target.parent_path(), ec);
        if (ec) throw Error(ErrorCode::Io, "cannot create the download folder: " + ec.message(), target.parent_path().string());
        if (fs::is_regular_file(target, ec) && fs::file_size(target, ec) == f->size) {  // done by an earlier run
            done += f->size;
            if (progress) progress(done, total);
            continue;
        }
        const std::string part = target.string() + ".part";
        const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) throw Error(ErrorCode::Io, std::string("cannot create: ") + std::strerror(errno), part);
        struct Close {
            int fd;
            ~Close() { ::close(fd); }
        } closer{fd};
        std::uint64_t have = static_cast<std::uint64_t>(::lseek(fd, 0, SEEK_END));
        if (have > f->size) {  // not a part of this file
            if (::ftruncate(fd, 0) != 0) throw Error(ErrorCode::Io, std::string("cannot truncate: ") + std::strerror(errno), part);
            have = 0;
        }
        if (f->present->first_missing(0, f->size) == std::nullopt) {  // whole in the mirror already (a companion)
            auto src = MappedFile::open(f->local);
            write_at(fd, part, 0, std::string(reinterpret_cast<const char*>(src->data()), static_cast<std::size_t>(src->size())));
        } else {
            const std::uint64_t base = done;
            s_->http->download(f->url, fd, have, f->size, [&](std::uint64_t at) {
                if (progress) progress(base + at, total);
            });
        }
        if (::fsync(fd) != 0) throw Error(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), part);
        fs::rename(part, target, ec);
        if (ec) throw Error(ErrorCode::Io, "cannot rename the finished download: " + ec.message(), part);
        done += f->size;
        if (progress) progress(done, total);
    }
    return (fs::path(dir) / fs::path(s_->local).lexically_relative(root)).lexically_normal().string();
}

std::string RemoteModel::default_download_dir() const {
    fs::path base;
    if (const char* d = std::getenv("AMN_DOWNLOAD_DIR"); d && *d) {
        base = d;
    } else {
        const char* hf = std::getenv("HF_HOME");
        const char* xdg = std::getenv("XDG_CACHE_HOME");
        const char* home = std::getenv("HOME");
        base = hf && *hf ? fs::path(hf) : xdg && *xdg ? fs::path(xdg) / "huggingface" : fs::path(home ? home : ".") / ".cache" / "huggingface";
        base /= "anamnesis";
    }
    // What the mirror folder stands for, made a relative path.
    std::string rel = s_->label;
    if (const auto scheme = rel.find("://"); scheme != std::string::npos) rel = rel.substr(0, scheme) + "/" + rel.substr(scheme + 3);
    fs::path out = base;
    std::string seg;
    auto flush = [&] {
        if (!seg.empty() && seg != "." && seg != "..") out /= seg;
        seg.clear();
    };
    for (char c : rel) {
        if (c == '/') {
            flush();
            continue;
        }
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                        c == '-' || c == '@';
        seg += ok ? c : '_';
    }
    flush();
    return out.string();
}

std::vector<RemoteModel::File> RemoteModel::files() const {
    std::vector<File> out;
    for (const auto& f : s_->files) out.push_back({remote::HttpClient::shown(f.url), f.size, f.fetched});
    return out;
}

std::string RemoteModel::relabel(std::string text) const {
    const std::string& dir = s_->dir;
    if (dir.empty()) return text;
    for (std::size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at)) {
        text.replace(at, dir.size(), s_->label);
        at += s_->label.size();
    }
    return text;
}

Error RemoteModel::relabel(const Error& e) const {
    Error out(e.code(), relabel(e.message()), relabel(e.file()), e.tensor());
    return e.notice() ? out.with_notice(*e.notice()) : out;
}

void RemoteModel::relabel(Catalog& cat) const {
    cat.path = relabel(cat.path);
    cat.config_path = relabel(cat.config_path);
    for (auto& sh : cat.shards) sh.path = relabel(sh.path);
    for (auto& n : cat.notes) n = relabel(n);
    for (auto& w : cat.warnings) w.file = relabel(w.file);
}

}  // namespace amn
