// SPDX-License-Identifier: MIT OR Apache-2.0
// amn remember: dequantize to safetensors, with a progress bar on a terminal.
#include "anamnesis/catalog.hpp"
#include "anamnesis/convert.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/inspect.hpp"
#include "anamnesis/plan.hpp"
#include "cli.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace amn::cli {

namespace {

std::atomic<bool> g_cancel{false};
extern "C" void on_signal(int) { g_cancel.store(true); }

DType parse_dtype(const std::string& s) {
    if (s == "bf16" || s == "BF16" || s == "bfloat16") return DType::BF16;
    if (s == "f16" || s == "F16" || s == "fp16" || s == "float16") return DType::F16;
    if (s == "f32" || s == "F32" || s == "fp32" || s == "float32") return DType::F32;
    throw UsageError{"--to must be bf16, f16 or f32, not '" + s + "'"};
}

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

}  // namespace

int cmd_remember(Args& args, bool convert) {
    ConvertOptions opt;
    const auto to = args.option("--to");
    if (convert && !to) throw UsageError{"--to is required (safetensors, bf16, f16 or f32)"};
    if (to && !(convert && *to == "safetensors")) opt.to = parse_dtype(*to);
    if (auto o = args.option("-o", "--output")) opt.output = *o;
    if (auto t = args.option("--threads")) {
        try {
            const long n = std::stol(*t);
            if (n < 1 || n > 1024) throw 0;
            opt.threads = static_cast<unsigned>(n);
        } catch (...) {
            throw UsageError{"--threads must be a number from 1 to 1024"};
        }
    }
    opt.force = args.flag("--force", "-f");
    const auto layout = args.option("--layout");
    if (layout && *layout != "hf" && *layout != "gguf") throw UsageError{"--layout must be hf or gguf, not '" + *layout + "'"};
    const bool hf_layout = layout && *layout == "hf";
    const bool quiet = args.flag("--quiet", "-q");
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};

    const Catalog cat = open_model(pos[0]);
    Plan plan = make_plan(cat);
    if (hf_layout) {
        // Hugging Face names, Q/K permutation undone, config.json beside the
        // output; by default a folder "<stem>-bf16/" transformers can load.
        HfLayout hf = to_hf_layout(cat, plan, opt.to);
        plan = std::move(hf.plan);
        opt.config_json = std::move(hf.config_json);
        if (opt.output.empty()) {
            std::string out = default_output_path(cat, opt.to);
            const std::string ext = ".safetensors";
            if (out.size() > ext.size() && out.compare(out.size() - ext.size(), ext.size(), ext) == 0) out.resize(out.size() - ext.size());
            opt.output = out;
        }
    }

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGHUP, on_signal);  // terminal closed: cancel and clean up too
    ProgressBar bar(!quiet && ::isatty(STDERR_FILENO));
    const auto t0 = std::chrono::steady_clock::now();
    ConvertResult res;
    try {
        res = convert_to_safetensors(cat, plan, opt, [&](const Progress& p) { bar.update(p); }, &g_cancel);
    } catch (...) {
        bar.finish();
        throw;
    }
    bar.finish();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!quiet) {
        std::size_t deq = 0;
        for (const auto& lt : plan.tensors) deq += lt.quantized;
        std::printf("%s %zu tensor(s) (%zu dequantized) → %s in %.2f s\n", convert ? "converted" : "remembered", res.tensors, deq,
                    human_bytes(res.tensor_bytes).c_str(), secs);
        for (const auto& f : res.files) std::printf("  wrote %s\n", f.c_str());
        // NPY/NPZ/PyTorch catalog notes are values the output leaves out
        // (epoch counters, hyper-parameters, non-array members).
        if ((cat.format == Format::Pth || cat.format == Format::Npz || cat.format == Format::Npy) && !cat.notes.empty()) {
            std::size_t skipped = cat.notes.size();
            unsigned long long more = 0;
            if (std::sscanf(cat.notes.back().c_str(), "\u2026 and %llu more", &more) == 1) skipped += more - 1;
            std::printf("note: %zu non-tensor value(s) not converted (amn parse lists them)\n", skipped);
        }
    }
    return kOk;
}

}  // namespace amn::cli
