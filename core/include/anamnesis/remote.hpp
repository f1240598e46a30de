// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file remote.hpp
/// Remote models, inspected before (or without) downloading them: a file
/// at an `http(s)://` URL (a safetensors file or shard index, a GGUF file
/// or one part of a split set, a PyTorch checkpoint, NPY/NPZ, ONNX) or a
/// Hugging Face Hub repository `hf://ORG/REPO[@REVISION][/PATH]`.
///
/// Only header bytes travel. The remote files are mirrored into a private
/// temporary folder as sparse files of their remote sizes; the parsers run
/// on that folder as on a local one, and every header byte they declare
/// (MappedFile::require) that is not there yet is fetched with an HTTP
/// range request — the first small, each next one what the parser knows it
/// still needs (a GGUF's array of N strings: at least 8·N bytes), plus at
/// most 32 KiB. Tensor data is never fetched: in the mirror it reads as
/// zeros, so a mirror is for parse/inspect only. The companion files a
/// local folder's inspection reads (config.json, the tokenizer files, the
/// shard index, …) are fetched whole (up to 64 MiB each).
///
/// The Hub's conventions, as huggingface_hub has them: `HF_ENDPOINT` (the
/// base URL, default https://huggingface.co), `HF_TOKEN` or the token file
/// (`HF_TOKEN_PATH`, else `$HF_HOME/token`, HF_HOME defaulting to
/// `~/.cache/huggingface`) sent only to the endpoint's origin — never to the
/// CDN a large file redirects to —, `HF_HUB_DOWNLOAD_TIMEOUT` (seconds
/// without data, default 10), `HTTPS_PROXY`/`NO_PROXY`. The model listing
/// is `{HF_ENDPOINT}/api/models/{repo}/revision/{rev}?blobs=true`
/// (`siblings[].rfilename`, `.size`), a file `{HF_ENDPOINT}/{repo}/resolve/{rev}/{path}`.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

/// True when `arg` names a remote model: it starts with `http://`,
/// `https://` or `hf://`.
bool is_remote_model(std::string_view arg) noexcept;

/// How a remote model is read.
struct RemoteOptions {
    /// Header bytes fetched at most, over all files (a header larger than
    /// this: Error{LimitExceeded}, "download the file").
    std::uint64_t max_header_bytes = 256ull << 20;
    /// Called after every request of open() with the bytes fetched so far.
    std::function<void(std::uint64_t fetched)> progress;
    /// Polled during open()'s transfers; true stops with Error{Cancelled}.
    /// Neither is kept after open() returns.
    std::function<bool()> cancelled;
};

/// A remote model whose headers are mirrored locally (see the file
/// comment). Movable, not copyable; the mirror folder is removed when the
/// object is destroyed.
class RemoteModel {
public:
    /// Fetch what parsing `spec` needs and leave the model ready to open.
    ///
    /// `https://HOST/…/FILE`: that file; a `*.safetensors.index.json` or
    /// `pytorch_model.bin.index.json` brings every shard it names, a part of
    /// a split GGUF (`NAME-00001-of-00003.gguf`) every part of the set;
    /// beside a file that is not a GGUF the folder is probed for
    /// config.json and the tokenizer files (absent ones are fine), so the
    /// inspection says what it says for the downloaded folder.
    /// `hf://ORG/REPO[@REV][/PATH]`: the repository's files listed by the
    /// Hub API; PATH a file opens that file (its folder's companions beside
    /// it), PATH a folder or none opens the folder as `amn inspect DIR`
    /// does (which model file in it is chosen as locally: several GGUF
    /// files → "several model files: open one of them").
    ///
    /// \throws Error{Network} for what the servers answer (named: gated
    ///         repository, token missing or refused, repository, revision or
    ///         file not found, timeouts after retries, TLS errors, a server
    ///         that ignores Range, a truncated body, a redirect loop),
    ///         Error{Usage} for a malformed `hf://` spec, the parsers' own
    ///         errors (the file's URL in place of a local path),
    ///         Error{LimitExceeded} past options.max_header_bytes,
    ///         Error{Cancelled}, Error{Io} when the temporary folder cannot
    ///         be written. Nothing is left behind on failure.
    static RemoteModel open(const std::string& spec, const RemoteOptions& options = {});

    RemoteModel(RemoteModel&&) noexcept;
    RemoteModel& operator=(RemoteModel&&) noexcept;
    ~RemoteModel();

    /// The mirror path to hand to open_model() (a file or the folder).
    const std::string& local_path() const noexcept;
    /// What the user named (`spec` as given).
    const std::string& spec() const noexcept;
    /// Body bytes received over HTTP, and the requests sent.
    std::uint64_t bytes_fetched() const noexcept;
    std::uint64_t requests() const noexcept;
    /// The remote files mirrored (URLs), with the bytes of each fetched.
    struct File {
        std::string url;
        std::uint64_t size = 0;     ///< the remote size in bytes
        std::uint64_t fetched = 0;  ///< bytes of it fetched
    };
    std::vector<File> files() const;

    /// Fetch bytes [offset, offset + length) of the mirrored file at
    /// `local_path` (a shard path of a catalog opened from local_path()),
    /// those not fetched yet, so that reading them gives the remote bytes
    /// (then drop the range from a mapping that read it before:
    /// MappedFile::release(offset, length, true)). For value previews of a
    /// remote model; thread-safe. `cancel`, when given, is polled during the
    /// transfers. Returns the bytes transferred.
    /// \throws Error{Network}, Error{Cancelled}, Error{Io} for a path that
    ///         is not a mirrored file.
    std::uint64_t fetch(const std::string& local_path, std::uint64_t offset, std::uint64_t length,
                        const std::atomic<bool>* cancel = nullptr) const;

    /// Download the model whole into the folder `dir` (created), in the
    /// mirror's layout, and return the path in it that stands for
    /// local_path(). What is downloaded: every file the parsers read from
    /// (the model files and their companions) and the mirror files named in
    /// `also` (a catalog's shards: e.g. an ONNX graph's external data, which
    /// parsing only measures). Each file is written to `NAME.part` and
    /// renamed to NAME when complete; a `NAME.part` left by an interrupted
    /// run is resumed from its size, a NAME already of the remote size is
    /// kept. `progress(done, total)` in bytes over all files; `cancel`
    /// polled (the .part files stay, to resume).
    /// \throws Error{Network}, Error{Io} (the folder, a write, a rename),
    ///         Error{Cancelled}.
    std::string download(const std::string& dir, const std::vector<std::string>& also = {},
                         const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {},
                         const std::atomic<bool>* cancel = nullptr) const;

    /// Where download() puts the model by default:
    /// `$AMN_DOWNLOAD_DIR/<where>` when that is set, else
    /// `$HF_HOME/anamnesis/<where>` (HF_HOME defaulting to
    /// `$XDG_CACHE_HOME/huggingface` or `~/.cache/huggingface`), `<where>`
    /// the remote folder as a relative path: `hf/ORG/REPO[@REV][/FOLDER]`,
    /// `https/HOST_PORT/PATH` (characters other than letters, digits and
    /// `._-@` replaced by `_`; `.` and `..` segments dropped).
    std::string default_download_dir() const;

    /// `text` with every mirror path in it replaced by the remote name it
    /// stands for (messages, notes, paths of a catalog opened from
    /// local_path()).
    std::string relabel(std::string text) const;
    /// `e` with its file and message relabelled (an error raised while
    /// reading local_path()).
    Error relabel(const Error& e) const;
    /// relabel() applied to every path and message of a catalog opened from
    /// local_path() (call after everything that reads files is done).
    void relabel(Catalog& cat) const;

private:
    struct State;
    explicit RemoteModel(std::unique_ptr<State> s);
    std::unique_ptr<State> s_;
};

}  // namespace amn
