// SPDX-License-Identifier: MIT OR Apache-2.0
// Throughput of the element kernels (anamnesis/kernels.hpp) in elements/s,
// once per Highway target compiled in and supported by this CPU (dispatch
// forced with hwy::SetSupportedTargetsForTest), plus the scalar reference.
//
//   amn_bench_kernels [--benchmark_filter=f32_to_bf16] [--benchmark_min_time=0.2]
#include "anamnesis/dtype.hpp"
#include "anamnesis/kernels.hpp"

#include <benchmark/benchmark.h>
#include <hwy/targets.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

namespace k = amn::kernels;
using amn::DType;

constexpr std::size_t kN = std::size_t{1} << 20;  // 1M elements per call

struct Buffers {
    std::vector<std::uint8_t> fp8 = std::vector<std::uint8_t>(kN);
    std::vector<float> f32 = std::vector<float>(kN);
    std::vector<float> f32_out = std::vector<float>(kN);
    std::vector<std::uint16_t> u16 = std::vector<std::uint16_t>(kN);
    std::vector<std::uint16_t> u16_out = std::vector<std::uint16_t>(kN);

    Buffers() {
        std::mt19937 rng(7);
        std::normal_distribution<float> normal(0.0f, 0.02f);  // weight-like values
        for (auto& b : fp8) b = static_cast<std::uint8_t>(rng());
        for (auto& f : f32) f = normal(rng);
        for (std::size_t i = 0; i < kN; ++i) u16[i] = k::scalar::bf16_from_f32(f32[i]);
    }
};

Buffers& buffers() {
    static Buffers b;
    return b;
}

using Kernel = std::function<void(Buffers&)>;

/// target = 0: the scalar reference (`kernel` must call amn::kernels::scalar).
void run(benchmark::State& state, std::int64_t target, const Kernel& kernel) {
    Buffers& b = buffers();
    if (target != 0) hwy::SetSupportedTargetsForTest(target);
    for (auto _ : state) {
        kernel(b);
        benchmark::DoNotOptimize(b.f32_out.data());
        benchmark::DoNotOptimize(b.u16_out.data());
        benchmark::ClobberMemory();
    }
    if (target != 0) hwy::SetSupportedTargetsForTest(0);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kN));
}

struct Entry {
    std::string name;
    Kernel simd;    // dispatched
    Kernel scalar;  // reference
};

std::vector<Entry> entries() {
    std::vector<Entry> out;
    for (DType fmt : {DType::F8_E4M3, DType::F8_E5M2, DType::F8_E4M3FNUZ, DType::F8_E5M2FNUZ, DType::F8_E8M0}) {
        out.push_back({"fp8_to_f32/" + amn::dtype_name(fmt),
                       [fmt](Buffers& b) { k::fp8_to_f32(fmt, b.fp8.data(), b.f32_out.data(), kN); },
                       [fmt](Buffers& b) { k::scalar::fp8_to_f32(fmt, b.fp8.data(), b.f32_out.data(), kN); }});
    }
    out.push_back({"fp8_scale_to_f32/F8_E4M3",
                   [](Buffers& b) { k::fp8_scale_to_f32(DType::F8_E4M3, b.fp8.data(), 0.0123f, b.f32_out.data(), kN); },
                   [](Buffers& b) {
                       k::scalar::fp8_scale_to_f32(DType::F8_E4M3, b.fp8.data(), 0.0123f, b.f32_out.data(), kN);
                   }});
    out.push_back({"f32_to_bf16", [](Buffers& b) { k::f32_to_bf16(b.f32.data(), b.u16_out.data(), kN); },
                   [](Buffers& b) { k::scalar::f32_to_bf16(b.f32.data(), b.u16_out.data(), kN); }});
    out.push_back({"f32_to_f16", [](Buffers& b) { k::f32_to_f16(b.f32.data(), b.u16_out.data(), kN); },
                   [](Buffers& b) { k::scalar::f32_to_f16(b.f32.data(), b.u16_out.data(), kN); }});
    out.push_back({"bf16_to_f32", [](Buffers& b) { k::bf16_to_f32(b.u16.data(), b.f32_out.data(), kN); },
                   [](Buffers& b) { k::scalar::bf16_to_f32(b.u16.data(), b.f32_out.data(), kN); }});
    out.push_back({"f16_to_f32", [](Buffers& b) { k::f16_to_f32(b.u16.data(), b.f32_out.data(), kN); },
                   [](Buffers& b) { k::scalar::f16_to_f32(b.u16.data(), b.f32_out.data(), kN); }});
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    for (const Entry& e : entries()) {
        for (const std::int64_t t : targets) {
            benchmark::RegisterBenchmark((e.name + "/" + hwy::TargetName(t)).c_str(),
                                         [t, kernel = e.simd](benchmark::State& s) { run(s, t, kernel); });
        }
        benchmark::RegisterBenchmark((e.name + "/reference").c_str(),
                                     [kernel = e.scalar](benchmark::State& s) { run(s, 0, kernel); });
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::AddCustomContext("kernels.active_target", k::active_target_name());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
