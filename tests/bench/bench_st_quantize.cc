// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes: single-thread cost per weight element of
// quantizing one BF16 Linear weight [4096, 4096] (N(0, 0.02²), mt19937 seed 0)
// exactly as the forget pipeline does per row chunk (the scheme quantizers of forget_st_<scheme>.cc:
// scales, codes, packing, the dequantized round trip and its loss sums;
// 256-row chunks, output bytes copied into a buffer instead of a file), with
// the SIMD kernels of this CPU's best Highway target ("simd") and with the
// scalar reference ("scalar"). Reported as ns/element (items_per_second⁻¹).
// Decoding the BF16 input and writing the file are not included, except in
// "bf16-noloss": the path of `amn forget` without --report (the stored BF16
// bits straight into the quantizer, no round trip, no loss sums).
//
//   amn_bench_st_quantize [--benchmark_filter=nf4] [--benchmark_min_time=0.5]
#include "anamnesis/forget_st.hpp"
#include "jobs/forget_st_encoder.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace amn;
constexpr std::uint64_t kR = 4096, kC = 4096, kChunkRows = 256;

const std::vector<float>& weight() {
    static const std::vector<float> w = [] {
        std::mt19937 rng(0);
        std::normal_distribution<float> nd(0.0f, 0.02f);
        std::vector<float> v(kR * kC);
        for (auto& x : v) x = st::detail::round_bf16(nd(rng));
        return v;
    }();
    return w;
}

void run(benchmark::State& state, const QuantParams& scheme, bool simd) {
    const auto& w = weight();
    const auto* k = simd ? &kernels::st::st_kernels() : &kernels::st::scalar_kernels();
    std::vector<std::uint8_t> sink(kR * kC * 4);
    const exec::SlotWriteFn put = [&](std::size_t, std::uint64_t off, std::span<const std::uint8_t> b) {
        std::memcpy(sink.data() + (off % (sink.size() - b.size() + 1)), b.data(), b.size());
    };
    const exec::TailSetFn tail = [](std::size_t, std::span<const std::uint8_t>) {};
    forget_st_internal::QuantScratch scratch;
    double sqnr = 0;
    for (auto _ : state) {
        const auto q = forget_st_internal::weight_encoder(scheme, kR, kC, DType::BF16, k);
        q->start();
        if (q->needs_prepass()) {
            for (std::uint64_t r = 0; r < kR; r += kChunkRows) q->prepass_f32(w.data() + r * kC, r, kChunkRows);
            q->finish_prepass();
        }
        kernels::st::LossSums loss;
        for (std::uint64_t r = 0; r < kR; r += kChunkRows) q->encode_f32(w.data() + r * kC, r, kChunkRows, scratch, put, loss);
        q->finish(put, tail);
        sqnr = loss.sqnr_db();
        benchmark::DoNotOptimize(sink.data());
    }
    state.SetItemsProcessed(std::int64_t(state.iterations() * kR * kC));
    state.counters["ns/elem"] = benchmark::Counter(double(kR * kC), benchmark::Counter::kIsIterationInvariantRate |
                                                                        benchmark::Counter::kInvert);
    state.counters["sqnr_dB"] = sqnr;
}

// The forget path of `amn forget` without --report: the stored BF16 bits
// straight into the quantizer (encode_bf16 / prepass_bf16 where the scheme has
// them, else decoded row chunk by row chunk as forget does), no round trip and
// no loss (measure_loss = false).
void run_bf16(benchmark::State& state, const QuantParams& scheme) {
    const auto& w = weight();
    static const std::vector<std::uint16_t> bits = [&] {
        std::vector<std::uint16_t> b(w.size());
        for (std::size_t i = 0; i < w.size(); ++i) b[i] = std::uint16_t(st::detail::bits_of(w[i]) >> 16);
        return b;
    }();
    std::vector<std::uint8_t> sink(kR * kC * 4);
    const exec::SlotWriteFn put = [&](std::size_t, std::uint64_t off, std::span<const std::uint8_t> b) {
        std::memcpy(sink.data() + (off % (sink.size() - b.size() + 1)), b.data(), b.size());
    };
    const exec::TailSetFn tail = [](std::size_t, std::span<const std::uint8_t>) {};
    forget_st_internal::QuantScratch scratch;
    std::vector<float> x(kChunkRows * kC);
    const auto& k = kernels::st::st_kernels();
    for (auto _ : state) {
        const auto q = forget_st_internal::weight_encoder(scheme, kR, kC, DType::BF16, &k, false);
        q->start();
        if (q->needs_prepass()) {
            for (std::uint64_t r = 0; r < kR; r += kChunkRows) {
                if (q->has_bf16_prepass()) {
                    q->prepass_bf16(bits.data() + r * kC, r, kChunkRows);
                } else {
                    k.bf16_decode_checked(bits.data() + r * kC, kChunkRows * kC, x.data());
                    q->prepass_f32(x.data(), r, kChunkRows);
                }
            }
            q->finish_prepass();
        }
        kernels::st::LossSums loss;
        for (std::uint64_t r = 0; r < kR; r += kChunkRows) {
            if (q->has_bf16_encode()) {
                q->encode_bf16(bits.data() + r * kC, r, kChunkRows, scratch, put, loss);
            } else {
                k.bf16_decode_checked(bits.data() + r * kC, kChunkRows * kC, x.data());
                q->encode_f32(x.data(), r, kChunkRows, scratch, put, loss);
            }
        }
        if (q->needs_after_pass()) q->after_pass(put);
        q->finish(put, tail);
        benchmark::DoNotOptimize(sink.data());
    }
    state.SetItemsProcessed(std::int64_t(state.iterations() * kR * kC));
    state.counters["ns/elem"] = benchmark::Counter(double(kR * kC), benchmark::Counter::kIsIterationInvariantRate |
                                                                        benchmark::Counter::kInvert);
}

void register_all() {
    StSchemeOptions none;
    StSchemeOptions dq;
    dq.double_quant = true;
    StSchemeOptions tensor, block, channel;
    tensor.granularity = Fp8Granularity::Tensor;
    block.granularity = Fp8Granularity::Block;
    channel.group_size = 0;
    const std::vector<std::pair<std::string, QuantParams>> schemes = {
        {"bnb-nf4", parse_st_scheme("bnb-nf4", none)},
        {"bnb-nf4-dq", parse_st_scheme("bnb-nf4", dq)},
        {"bnb-fp4", parse_st_scheme("bnb-fp4", none)},
        {"bnb-int8", parse_st_scheme("bnb-int8", none)},
        {"fp8-channel", parse_st_scheme("fp8", none)},
        {"fp8-tensor", parse_st_scheme("fp8", tensor)},
        {"fp8-block", parse_st_scheme("fp8", block)},
        {"fp8-block-deepseek", parse_st_scheme("fp8-block-deepseek", none)},
        {"w4a16-g128", parse_st_scheme("w4a16", none)},
        {"w4a16-asym-g128", parse_st_scheme("w4a16-asym", none)},
        {"w8a16-g128", parse_st_scheme("w8a16", none)},
        {"w8a16-channel", parse_st_scheme("w8a16", channel)},
    };
    for (const auto& [name, s] : schemes) {
        for (const bool simd : {true, false})
            benchmark::RegisterBenchmark((name + (simd ? "/simd" : "/scalar")).c_str(),
                                         [s = s, simd](benchmark::State& st) { run(st, s, simd); })
                ->Unit(benchmark::kMillisecond)
                ->MinTime(0.2);
        benchmark::RegisterBenchmark((name + "/bf16-noloss").c_str(), [s = s](benchmark::State& st) { run_bf16(st, s); })
            ->Unit(benchmark::kMillisecond)
            ->MinTime(0.2);
    }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
