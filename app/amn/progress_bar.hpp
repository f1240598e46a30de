// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// amn: the terminal progress bar and Ctrl-C handling shared by the long verbs.
#include "anamnesis/executor.hpp"
#include "anamnesis/human_bytes.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace amn::cli {

/// Install SIGINT/SIGTERM/SIGHUP handlers that set the returned flag (a
/// closed terminal cancels too); the running job sees it per chunk,
/// stops, and its output's temporary files are removed.
const std::atomic<bool>& install_cancel_signals();

/// "[####....]  42.0%  1.2 GiB/s  0:13 left" on stderr, redrawn at most
/// every 100 ms; nothing when disabled (not a terminal, --quiet).
class ProgressBar {
public:
    explicit ProgressBar(bool enabled) : enabled_(enabled), start_(Clock::now()) {}
    void update(const Progress& p) {
        if (!enabled_ || p.total == 0) return;
        const auto now = Clock::now();
        if (p.done != p.total && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        const double frac = static_cast<double>(p.done) / static_cast<double>(p.total);
        const double secs = std::chrono::duration<double>(now - start_).count();
        const double rate = secs > 0 ? static_cast<double>(p.done) / secs : 0;
        const double left = rate > 0 ? static_cast<double>(p.total - p.done) / rate : 0;
        char bar[31];
        const int fill = static_cast<int>(frac * 30);
        for (int i = 0; i < 30; ++i) bar[i] = i < fill ? '#' : '.';
        bar[30] = 0;
        std::fprintf(stderr, "\r[%s] %5.1f%%  %s/s  %s left   ", bar, 100 * frac, human_bytes(static_cast<std::uint64_t>(rate)).c_str(),
                     format_secs(left).c_str());
        std::fflush(stderr);
        drawn_ = true;
    }
    void finish() {
        if (drawn_) std::fprintf(stderr, "\r%*s\r", 72, "");
    }

private:
    using Clock = std::chrono::steady_clock;
    static std::string format_secs(double s) {
        char b[32];
        const long t = static_cast<long>(s + 0.5);
        std::snprintf(b, sizeof b, "%ld:%02ld", t / 60, t % 60);
        return b;
    }
    bool enabled_, drawn_ = false;
    Clock::time_point start_, last_{};
};

/// Run a long core job with Ctrl-C handling and, when `show` (and stderr
/// is a terminal), the progress bar: `job(progress, cancel)` returns the
/// job's result, stored in `result`. Returns the wall time in seconds; the
/// bar is cleared whether the job returns or throws.
template <class Result, class Job>
double run_with_progress(bool show, Result& result, Job&& job) {
    const std::atomic<bool>& cancel = install_cancel_signals();
    ProgressBar bar(show && ::isatty(STDERR_FILENO));
    const auto t0 = std::chrono::steady_clock::now();
    try {
        result = job([&](const Progress& p) { bar.update(p); }, &cancel);
    } catch (...) {
        bar.finish();
        throw;
    }
    bar.finish();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace amn::cli
