// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF quantization (forget) speed: every ggml block type with an encoder,
// single thread, in ns per input element — the scalar reference and, for the
// types with a Highway encoder, the dispatched one forced to each target
// compiled in and supported by this CPU (hwy::SetSupportedTargetsForTest).
//
// Same data as ggml's figures in ../shared/bench/ggml-quantize.md:
// 0.02·N(0,1) with about 1 in 512 elements ×8, rows of 4096, 16 Mi elements
// for the types ggml quantizes in ≤ 40 ns/element and 4 Mi for the slower
// ones. The counters report ns/element and `x_ggml` = ggml's "portable, no
// imatrix" ns ÷ ours (> 1: faster than ggml), both from this thread's CPU
// time (the machine is shared; wall time counts other processes too).
// ggml's table was measured on another VM (Zen 3, AVX2, no AVX-512):
// read the ratios as indicative, and compare our own rows within one run.
//
//   amn_bench_quantize [--benchmark_filter=Q4_K] [--benchmark_repetitions=2]
#include "anamnesis/dtype.hpp"
#include "kernels/gguf/gguf_quantize.hpp"

#include <benchmark/benchmark.h>
#include <hwy/aligned_allocator.h>
#include <hwy/targets.h>

#include <ctime>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace g = amn::kernels::gguf;

// ggml 34af94c, portable build, no imatrix, ns per element (ggml-quantize.md).
struct GgmlRef { std::string_view name; double ns; };
constexpr GgmlRef kGgml[] = {
    {"Q4_0", 1.09},  {"Q4_1", 0.85},  {"Q5_0", 1.98},   {"Q5_1", 1.69},   {"Q8_0", 4.56},  {"Q2_K", 66.1},
    {"Q3_K", 13.6},  {"Q4_K", 75.9},  {"Q5_K", 62.7},   {"Q6_K", 33.9},   {"IQ4_NL", 235.3}, {"IQ4_XS", 240.4},
    {"TQ1_0", 4.50}, {"TQ2_0", 4.24}, {"MXFP4", 4.81},  {"NVFP4", 26.2},  {"Q1_0", 5.87},  {"Q2_0", 4.67},
};

double ggml_ns(std::string_view name) {
    for (const auto& r : kGgml)
        if (r.name == name) return r.ns;
    return 0.0;
}

constexpr std::size_t kRow = 4096;
constexpr std::size_t kBig = std::size_t{16} << 20;   // types ggml does in ≤ 40 ns/element
constexpr std::size_t kSmall = std::size_t{4} << 20;  // the slower ones

// 0.02·N(0,1), about 1 in 512 ×8; generated once (the first kSmall serve the slow types).
const float* weights() {
    static const auto buf = [] {
        auto b = hwy::AllocateAligned<float>(kBig);
        std::mt19937 rng(2026);
        std::normal_distribution<float> nd(0.0f, 1.0f);
        for (std::size_t i = 0; i < kBig; ++i) {
            float v = 0.02f * nd(rng);
            if (rng() % 512 == 0) v *= 8.0f;
            b[i] = v;
        }
        return b;
    }();
    return buf.get();
}

// This thread's CPU time: on the shared machine wall time also counts the
// time other processes held the core.
double thread_cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

void run(benchmark::State& state, const amn::DTypeInfo* info, g::Encoder enc, std::int64_t target, double ggml) {
    const std::size_t n = ggml <= 40.0 ? kBig : kSmall;
    static_assert(kSmall % kRow == 0 && kBig % kRow == 0);
    const std::size_t nb = n / info->block_elems;
    const float* src = weights();
    auto dst = hwy::AllocateAligned<std::uint8_t>(nb * info->block_bytes);
    if (target) hwy::SetSupportedTargetsForTest(target);
    enc(src, dst.get(), kRow / info->block_elems);  // warm-up: dispatch, page faults
    double ns = 0.0;
    for (auto _ : state) {
        const double t0 = thread_cpu_ns();
        enc(src, dst.get(), nb);
        ns += thread_cpu_ns() - t0;
        benchmark::DoNotOptimize(dst.get());
        benchmark::ClobberMemory();
    }
    if (target) hwy::SetSupportedTargetsForTest(0);
    const double per = ns / (static_cast<double>(state.iterations()) * static_cast<double>(n));
    state.counters["ns/elem"] = per;
    if (ggml > 0.0) state.counters["x_ggml"] = ggml / per;
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

}  // namespace

int main(int argc, char** argv) {
    for (int id = 0; id < 64; ++id) {
        const amn::DTypeInfo* info = amn::dtype_info(amn::dtype_from_ggml_id(static_cast<std::uint32_t>(id)));
        if (!info || !info->is_quantized_block || !g::scalar_encoder(id)) continue;
        const std::string name(info->name);
        const double ggml = ggml_ns(name);
        benchmark::RegisterBenchmark((name + "/scalar").c_str(), run, info, g::scalar_encoder(id), std::int64_t{0},
                                     ggml)
            ->Unit(benchmark::kMillisecond);
        if (!g::has_simd_encoder(id)) continue;
        for (const std::int64_t t : hwy::SupportedAndGeneratedTargets())
            benchmark::RegisterBenchmark((name + "/" + hwy::TargetName(t)).c_str(), run, info, g::best_encoder(id), t,
                                         ggml)
                ->Unit(benchmark::kMillisecond);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
