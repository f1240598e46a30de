// SPDX-License-Identifier: MIT OR Apache-2.0
// remember/convert/forget of a remote model: its files downloaded first.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/remote.hpp"
#include "cli.hpp"
#include "progress_bar.hpp"

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace amn::cli {

std::string download_remote_model(const std::string& spec, const std::vector<std::string>& argv) {
    bool output = false, quiet = false;
    for (const auto& a : argv) {
        output = output || a == "-o" || a == "--output" || a.starts_with("--output=") || a == "--outfile" || a.starts_with("--outfile=");
        quiet = quiet || a == "--quiet" || a == "-q";
    }
    if (!output) throw UsageError{"a remote model needs -o OUT (its files are downloaded first; the output does not go beside them)"};
    const auto& cancel = install_cancel_signals();
    RemoteOptions options;
    options.cancelled = [&cancel] { return cancel.load(); };
    RemoteModel remote = RemoteModel::open(spec, options);
    // What parsing reads, and every file the catalog's tensors lie in
    // (an ONNX graph's external data is only measured while parsing).
    std::vector<std::string> shards;
    try {
        for (const auto& s : open_model(remote.local_path()).shards) shards.push_back(s.path);
    } catch (const Error& e) {
        throw remote.relabel(e);
    }
    const std::string dir = remote.default_download_dir();
    if (!quiet) std::fprintf(stderr, "amn: downloading %s to %s\n", printable(spec).c_str(), printable(dir).c_str());
    ProgressBar bar(!quiet && ::isatty(2));
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t all = 0;
    std::string local;
    try {
        local = remote.download(dir, shards, [&](std::uint64_t done, std::uint64_t total) {
            all = total;
            bar.update(Progress{done, total});
        }, &cancel);
    } catch (const Error& e) {
        bar.finish();
        if (e.code() == ErrorCode::Cancelled)
            throw Error(ErrorCode::Cancelled, "download cancelled; the .part files stay: run again to resume", dir);
        throw;
    }
    bar.finish();
    if (!quiet)
        std::fprintf(stderr, "amn: downloaded %s in %.1f s (kept in %s)\n", human_bytes(all).c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), printable(dir).c_str());
    return local;
}

}  // namespace amn::cli
