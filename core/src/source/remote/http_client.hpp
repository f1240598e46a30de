// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file http_client.hpp
/// Internal: HTTP(S) GETs for remote models, on libcurl — whole small files
/// and byte ranges of large ones. Redirects are followed here, not by
/// libcurl, so that the token goes only to the origin it belongs to (the
/// Hub answers a large file with a redirect to a CDN of another origin,
/// whose signed query string is kept and which must not see the token, as
/// huggingface_hub does). Proxies come from the environment as libcurl
/// reads it (`https_proxy`/`HTTPS_PROXY`, `http_proxy`, `no_proxy`/`NO_PROXY`).
/// Every failure is an amn::Error{Network} (or {Cancelled}) whose file is
/// the URL without its query string and whose message names the cause.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace amn::remote {

/// How a client talks to servers.
struct HttpSettings {
    /// Bearer token (the Hub's HF_TOKEN), sent as `Authorization: Bearer …`
    /// only to `token_origin`; empty: never sent.
    std::string token;
    /// `scheme://host[:port]` the token belongs to (the Hub endpoint's).
    std::string token_origin;
    /// Seconds without a byte (connect, or a stalled transfer) before a try
    /// is given up: huggingface_hub's HF_HUB_DOWNLOAD_TIMEOUT, default 10.
    long timeout_s = 10;
    /// Tries per request for what may pass (timeouts, refused or reset
    /// connections, HTTP 429 and 5xx): 3, waiting 0.5 s, then 1 s between.
    int tries = 3;
    /// Redirects followed per request before "redirect loop".
    int max_redirects = 10;
    /// Polled while transferring; true cancels (Error{Cancelled}).
    std::function<bool()> cancelled;
};

/// A successful GET.
struct HttpBody {
    std::string bytes;       ///< the body (for a range: exactly the bytes asked for, fewer at the end of the file)
    std::uint64_t total = 0; ///< the resource's whole size (Content-Range's total, or the 200 body's length)
    bool whole = false;      ///< the body is the whole resource (a 200 answer)
};

class HttpClient {
public:
    explicit HttpClient(HttpSettings settings);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    /// GET bytes [offset, offset + length) of `url` (`Range: bytes=a-b`,
    /// length ≥ 1). A 206 answer must start at `offset` and say the total
    /// size; a range past the end gives the bytes up to the end. A server
    /// that ignores Range (200 with the whole body): the body is read up to
    /// `whole_limit` bytes and used when the resource ends there (`whole`
    /// set); past that the read stops and Error{Network} says so.
    /// \throws Error{Network} for a failed request (see the file comment),
    ///         Error{Cancelled} when settings.cancelled says so.
    HttpBody get_range(const std::string& url, std::uint64_t offset, std::uint64_t length,
                       std::uint64_t whole_limit = 1u << 20);

    /// GET the whole resource, at most `limit` bytes (more: Error{Network}
    /// naming the limit). nullopt when the server answers 404 and
    /// `missing_ok` (a companion file probed for); otherwise as get_range.
    std::optional<std::string> get_all(const std::string& url, std::uint64_t limit, bool missing_ok = false);

    /// GET `url` from byte `offset` to its end (`Range: bytes=offset-`),
    /// written into `fd` at the same offsets as it arrives (never held in
    /// memory), until `total` bytes are there; a transfer that breaks off is
    /// resumed where it stopped (settings.tries in all). A server that
    /// ignores Range is read from byte 0. `progress` gets the bytes written
    /// so far (offset included).
    /// \throws Error{Network} (as get_range, and a body that ends before
    ///         `total`), Error{Io} when writing `fd` fails, Error{Cancelled}.
    void download(const std::string& url, int fd, std::uint64_t offset, std::uint64_t total,
                  const std::function<void(std::uint64_t)>& progress = {});

    /// Replace settings.cancelled (empty: never cancelled).
    void set_cancelled(std::function<bool()> cancelled) { settings_.cancelled = std::move(cancelled); }

    /// Body bytes received over every request so far (what travelled).
    std::uint64_t bytes_fetched() const noexcept { return fetched_; }
    /// HTTP requests sent so far (redirect hops and retries included).
    std::uint64_t requests() const noexcept { return requests_; }

    /// `url` without its query string and fragment (for messages: a signed
    /// CDN URL's signature is not printed).
    static std::string shown(const std::string& url);

private:
    struct Answer;
    Answer transfer(const std::string& url, std::optional<std::pair<std::uint64_t, std::uint64_t>> range,
                    std::uint64_t limit, bool missing_ok);
    Answer once(const std::string& url, std::optional<std::pair<std::uint64_t, std::uint64_t>> range, std::uint64_t limit);

    struct Sink;            // download(): the file the body goes to
    Sink* sink_ = nullptr;
    HttpSettings settings_;
    void* curl_ = nullptr;  // CURL*, reused: one connection per origin kept alive
    std::atomic<std::uint64_t> fetched_{0}, requests_{0};
};

/// `scheme://host[:port]` of an absolute URL (lower-cased scheme and host),
/// empty when `url` is not one.
std::string url_origin(const std::string& url);

}  // namespace amn::remote
