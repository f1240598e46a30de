// SPDX-License-Identifier: MIT OR Apache-2.0
#include "source/remote/http_client.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/human_bytes.hpp"

#include <curl/curl.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#ifndef AMN_VERSION
#define AMN_VERSION "dev"
#endif

namespace amn::remote {

namespace {

void global_init() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
    return std::string(s);
}

bool tls_error(CURLcode rc) {
    switch (rc) {
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        case CURLE_SSL_INVALIDCERTSTATUS:
        case CURLE_SSL_ENGINE_NOTFOUND:
        case CURLE_SSL_ENGINE_SETFAILED:
        case CURLE_SSL_SHUTDOWN_FAILED:
        case CURLE_SSL_CRL_BADFILE:
        case CURLE_USE_SSL_FAILED: return true;
        default: return false;
    }
}

// Failures a later try may not repeat.
bool transient(CURLcode rc) {
    switch (rc) {
        case CURLE_COULDNT_CONNECT:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_GOT_NOTHING:
        case CURLE_PARTIAL_FILE:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM: return true;
        default: return false;
    }
}

// "bytes FIRST-LAST/TOTAL" of a Content-Range header; false for anything else.
bool parse_content_range(const std::string* header, std::uint64_t& first, std::uint64_t& last, std::uint64_t& total) {
    unsigned long long f = 0, l = 0, t = 0;
    if (!header || std::sscanf(header->c_str(), "bytes %llu-%llu/%llu", &f, &l, &t) != 3 || l < f) return false;
    first = f;
    last = l;
    total = t;
    return true;
}

}  // namespace

std::string url_origin(const std::string& url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) return {};
    const auto host_end = url.find_first_of("/?#", scheme_end + 3);
    return lower(url.substr(0, host_end == std::string::npos ? url.size() : host_end));
}

std::string HttpClient::shown(const std::string& url) {
    const auto q = url.find_first_of("?#");
    return q == std::string::npos ? url : url.substr(0, q);
}

struct HttpClient::Sink {
    int fd = -1;
    std::uint64_t start = 0;  // the byte the request asked to start at
    std::uint64_t pos = 0;    // where the next body byte goes
    std::uint64_t written = 0;
    int error = 0;            // errno of a failed write
    const std::function<void(std::uint64_t)>* progress = nullptr;
};

struct HttpClient::Answer {
    Sink* sink = nullptr;
    CURLcode rc = CURLE_OK;
    long status = 0;
    std::map<std::string, std::string> headers;  // lower-case names, of the last response
    std::string body;
    std::string redirect;                        // absolute Location of a 3xx
    std::string curl_error;
    bool over_limit = false;                     // the body outgrew what was allowed: read stopped
    std::uint64_t limit = 0;                     // the body limit for this answer's status
    std::uint64_t range_limit = 0, whole_limit = 0, error_limit = 64 * 1024;
    bool ranged = false;
    bool range_ignored() const { return ranged && status == 200; }
    const std::string* header(const std::string& name) const {
        auto it = headers.find(name);
        return it == headers.end() ? nullptr : &it->second;
    }
};

HttpClient::HttpClient(HttpSettings settings) : settings_(std::move(settings)) {
    global_init();
    curl_ = curl_easy_init();
    if (!curl_) throw Error(ErrorCode::Network, "libcurl could not start (curl_easy_init failed)");
}

HttpClient::~HttpClient() {
    if (curl_) curl_easy_cleanup(static_cast<CURL*>(curl_));
}

HttpClient::Answer HttpClient::once(const std::string& url, std::optional<std::pair<std::uint64_t, std::uint64_t>> range,
                                    std::uint64_t limit) {
    CURL* c = static_cast<CURL*>(curl_);
    curl_easy_reset(c);
    Answer a;
    a.ranged = range.has_value();
    a.range_limit = range ? range->second - range->first : limit;
    a.whole_limit = limit;
    char errbuf[CURL_ERROR_SIZE] = {0};

    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);  // followed in transfer(): the token stays with its origin
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "anamnesis/" AMN_VERSION);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, settings_.timeout_s);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);  // a stalled transfer: under 1 byte/s for timeout_s
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, settings_.timeout_s);
    std::string range_text;
    a.sink = sink_;
    if (a.sink) a.range_limit = a.whole_limit = UINT64_MAX;
    if (range && range->second == UINT64_MAX) {  // to the end (download)
        range_text = std::to_string(range->first) + "-";
        curl_easy_setopt(c, CURLOPT_RANGE, range_text.c_str());
    } else if (range) {
        range_text = std::to_string(range->first) + "-" + std::to_string(range->second - 1);
        curl_easy_setopt(c, CURLOPT_RANGE, range_text.c_str());
    }
    curl_slist* headers = nullptr;
    std::string auth;
    if (!settings_.token.empty() && url_origin(url) == settings_.token_origin) {
        auth = "Authorization: Bearer " + settings_.token;
        headers = curl_slist_append(headers, auth.c_str());
    }
    if (headers) curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);

    auto on_header = +[](char* p, std::size_t size, std::size_t n, void* ud) -> std::size_t {
        auto* a = static_cast<Answer*>(ud);
        const std::string_view line(p, size * n);
        if (line.starts_with("HTTP/")) {  // a new response (after a 100 Continue, or a proxy's CONNECT)
            a->headers.clear();
            const auto sp = line.find(' ');
            a->status = sp == std::string_view::npos ? 0 : std::atol(std::string(line.substr(sp + 1, 3)).c_str());
            a->limit = a->status == 206 ? a->range_limit
                     : a->status == 200 ? (a->ranged ? a->whole_limit : a->range_limit)
                                        : a->error_limit;
            // A download: a 206 continues where it was asked to, a 200 (Range ignored) from byte 0.
            if (a->sink) a->sink->pos = a->status == 206 ? a->sink->start : 0;
        } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
            a->headers[lower(std::string(line.substr(0, colon)))] = trim(line.substr(colon + 1));
        }
        return size * n;
    };
    auto on_body = +[](char* p, std::size_t size, std::size_t n, void* ud) -> std::size_t {
        auto* a = static_cast<Answer*>(ud);
        const std::size_t k = size * n;
        if (a->sink && (a->status == 200 || a->status == 206)) {
            Sink& s = *a->sink;
            for (std::size_t done = 0; done < k;) {
                const auto w = ::pwrite(s.fd, p + done, k - done, static_cast<off_t>(s.pos));
                if (w < 0) {
                    if (errno == EINTR) continue;
                    s.error = errno;
                    return 0;
                }
                done += static_cast<std::size_t>(w);
                s.pos += static_cast<std::uint64_t>(w);
                s.written += static_cast<std::uint64_t>(w);
            }
            if (s.progress && *s.progress) (*s.progress)(s.pos);
            return k;
        }
        if (a->body.size() + k > a->limit) {
            const auto room = static_cast<std::size_t>(a->limit - a->body.size());
            a->body.append(p, room);
            a->over_limit = true;
            return 0;  // stops the transfer (CURLE_WRITE_ERROR)
        }
        a->body.append(p, k);
        return k;
    };
    auto on_progress = +[](void* ud, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> int {
        const auto* s = static_cast<const HttpSettings*>(ud);
        return s->cancelled && s->cancelled() ? 1 : 0;
    };
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &a);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &settings_);

    ++requests_;
    const std::uint64_t written_before = a.sink ? a.sink->written : 0;
    a.rc = curl_easy_perform(c);
    if (headers) curl_slist_free_all(headers);
    fetched_ += a.body.size() + (a.sink ? a.sink->written - written_before : 0);
    a.curl_error = errbuf[0] ? errbuf : curl_easy_strerror(a.rc);
    if (a.rc == CURLE_OK || a.rc == CURLE_WRITE_ERROR) {
        long code = 0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
        if (code) a.status = code;
        if (a.status >= 300 && a.status < 400) {
            char* loc = nullptr;
            curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &loc);
            if (loc) a.redirect = loc;
        }
    }
    return a;
}

HttpClient::Answer HttpClient::transfer(const std::string& url, std::optional<std::pair<std::uint64_t, std::uint64_t>> range,
                                        std::uint64_t limit, bool missing_ok) {
    const std::string where = shown(url);
    std::string cur = url;
    for (int hop = 0; hop <= settings_.max_redirects; ++hop) {
        Answer a;
        auto wait_ms = 500;
        for (int attempt = 1;; ++attempt) {
            a = once(cur, range, limit);
            const bool again = (transient(a.rc) || (a.rc == CURLE_OK && (a.status == 429 || a.status >= 500))) &&
                               attempt < settings_.tries;
            if (!again) break;
            for (int waited = 0; waited < wait_ms; waited += 50) {
                if (settings_.cancelled && settings_.cancelled()) throw Error(ErrorCode::Cancelled, "cancelled", where);
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            wait_ms *= 2;
        }
        const int tries_made = settings_.tries;
        if (a.rc == CURLE_ABORTED_BY_CALLBACK) throw Error(ErrorCode::Cancelled, "cancelled", where);
        if (a.rc == CURLE_WRITE_ERROR && a.sink && a.sink->error)
            throw Error(ErrorCode::Io, std::string("cannot write the download: ") + std::strerror(a.sink->error), where);
        if (a.rc == CURLE_WRITE_ERROR && a.over_limit) {
            if (a.range_ignored())
                throw Error(ErrorCode::Network,
                            "the server ignores Range requests (it answered bytes=" + std::to_string(range->first) + "-" +
                                std::to_string(range->second - 1) + " with HTTP 200 and the whole file): stopped reading after " +
                                human_bytes(a.body.size()) + "; download the file instead",
                            where);
            throw Error(ErrorCode::Network, "larger than the " + human_bytes(limit) + " read for a file of this kind; stopped reading",
                        where);
        }
        if (a.rc != CURLE_OK) {
            std::string why;
            if (tls_error(a.rc)) why = "TLS error: " + a.curl_error;
            else if (a.rc == CURLE_OPERATION_TIMEDOUT)
                why = "timed out: no data for " + std::to_string(settings_.timeout_s) + " s (HF_HUB_DOWNLOAD_TIMEOUT), " +
                      std::to_string(tries_made) + " tries";
            else if (a.rc == CURLE_PARTIAL_FILE)
                why = "the server sent fewer bytes than its Content-Length says (connection closed after " +
                      std::to_string(a.body.size()) + " bytes), " + std::to_string(tries_made) + " tries";
            else if (a.rc == CURLE_COULDNT_RESOLVE_HOST) why = "cannot resolve the host name";
            else if (a.rc == CURLE_COULDNT_RESOLVE_PROXY) why = "cannot resolve the proxy's host name";
            else if (a.rc == CURLE_COULDNT_CONNECT) why = "cannot connect: " + a.curl_error;
            else if (a.rc == CURLE_UNSUPPORTED_PROTOCOL || a.rc == CURLE_URL_MALFORMAT) why = "not an http(s) URL: " + a.curl_error;
            else why = a.curl_error;
            throw Error(ErrorCode::Network, why, where);
        }
        if (a.status >= 300 && a.status < 400) {
            if (a.redirect.empty())
                throw Error(ErrorCode::Network, "HTTP " + std::to_string(a.status) + " redirect without a Location", where);
            cur = a.redirect;
            continue;
        }
        if (a.status == 200 || a.status == 206) return a;
        if (a.status == 404 && missing_ok) return a;
        const std::string code = a.header("x-error-code") ? *a.header("x-error-code") : std::string();
        const bool token = !settings_.token.empty();
        std::string why;
        if (code == "GatedRepo")
            why = a.status == 403 ? "gated repository: this token has no access (HTTP 403; accept the model's terms on the Hub)"
                                  : "gated repository: it needs a token (HTTP " + std::to_string(a.status) +
                                        "; set HF_TOKEN after accepting the model's terms on the Hub)";
        else if (code == "RepoNotFound")
            why = std::string("repository not found (HTTP ") + std::to_string(a.status) + (token ? "; or this token cannot see it)" : "; or private: set HF_TOKEN)");
        else if (code == "RevisionNotFound") why = "revision not found (HTTP " + std::to_string(a.status) + ")";
        else if (code == "EntryNotFound") why = "file not found in the repository (HTTP " + std::to_string(a.status) + ")";
        else if (a.status == 401) why = token ? "the token was refused (HTTP 401)" : "authentication required (HTTP 401; set HF_TOKEN)";
        else if (a.status == 403) why = "access denied (HTTP 403)";
        else if (a.status == 404) why = "not found (HTTP 404)";
        else if (a.status == 416) why = "range not satisfiable (HTTP 416): the file is shorter than expected";
        else if (a.status == 429 || a.status >= 500)
            why = "server error HTTP " + std::to_string(a.status) + " (" + std::to_string(tries_made) + " tries)";
        else why = "unexpected HTTP " + std::to_string(a.status);
        if (!code.empty() && why.find(code) == std::string::npos && code != "GatedRepo" && code != "RepoNotFound" &&
            code != "RevisionNotFound" && code != "EntryNotFound")
            why += " [" + code + "]";
        throw Error(ErrorCode::Network, why, where);
    }
    throw Error(ErrorCode::Network, "redirect loop (more than " + std::to_string(settings_.max_redirects) + " redirects)", where);
}

HttpBody HttpClient::get_range(const std::string& url, std::uint64_t offset, std::uint64_t length, std::uint64_t whole_limit) {
    const std::string where = shown(url);
    if (length == 0) throw Error(ErrorCode::Usage, "get_range: empty range", where);
    Answer a = transfer(url, std::make_pair(offset, offset + length), whole_limit, false);
    HttpBody out;
    if (a.status == 200) {  // Range ignored, but the whole file fitted the limit
        out.total = a.body.size();
        out.whole = true;
        out.bytes = std::move(a.body);
        return out;
    }
    const std::string* cr = a.header("content-range");
    std::uint64_t first = 0, last = 0, total = 0;
    if (!parse_content_range(cr, first, last, total))
        throw Error(ErrorCode::Network, "HTTP 206 without a usable Content-Range (" + (cr ? *cr : std::string("none")) + ")", where);
    if (first != offset || last - first + 1 != a.body.size() || last >= total)
        throw Error(ErrorCode::Network,
                    "the server answered bytes " + std::to_string(first) + "-" + std::to_string(last) + "/" + std::to_string(total) +
                        " with " + std::to_string(a.body.size()) + " bytes to a request for bytes " + std::to_string(offset) + "-" +
                        std::to_string(offset + length - 1),
                    where);
    out.total = total;
    out.bytes = std::move(a.body);
    return out;
}

void HttpClient::download(const std::string& url, int fd, std::uint64_t offset, std::uint64_t total,
                          const std::function<void(std::uint64_t)>& progress) {
    const std::string where = shown(url);
    for (int attempt = 1; offset < total; ++attempt) {
        Sink s;
        s.fd = fd;
        s.start = s.pos = offset;
        s.progress = &progress;
        sink_ = &s;
        try {
            Answer a = transfer(url, std::make_pair(offset, UINT64_MAX), UINT64_MAX, false);
            sink_ = nullptr;
            if (a.status == 206) {
                const std::string* cr = a.header("content-range");
                std::uint64_t first = 0, last = 0, all = 0;
                if (!parse_content_range(cr, first, last, all) || first != offset)
                    throw Error(ErrorCode::Network, "HTTP 206 for bytes " + (cr ? *cr : std::string("?")) + " to a request from byte " +
                                                        std::to_string(offset), where);
                if (all != total)
                    throw Error(ErrorCode::Network, "the file has " + std::to_string(all) + " bytes, " + std::to_string(total) +
                                                        " were expected (changed since it was listed?)", where);
            }
            if (s.pos != total)
                throw Error(ErrorCode::Network, "the body ended after byte " + std::to_string(s.pos) + " of " + std::to_string(total), where);
            return;
        } catch (const Error& e) {
            sink_ = nullptr;
            // Broken off after some bytes arrived: resume from there.
            if (e.code() == ErrorCode::Network && s.pos > offset && s.pos < total && attempt < settings_.tries && s.start == offset) {
                offset = s.pos;
                continue;
            }
            throw;
        }
    }
}

std::optional<std::string> HttpClient::get_all(const std::string& url, std::uint64_t limit, bool missing_ok) {
    Answer a = transfer(url, std::nullopt, limit, missing_ok);
    if (a.status == 404) return std::nullopt;
    return std::move(a.body);
}

}  // namespace amn::remote
