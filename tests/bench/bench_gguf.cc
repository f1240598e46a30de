// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF dequantization throughput: every ggml block type, 1 Mi elements per
// call to F32, single thread, in elements/s — the scalar reference and, for
// the types with a SIMD decoder, each Highway target compiled in and
// supported by this CPU (dispatch forced with hwy::SetSupportedTargetsForTest).
// Compare with ggml's to_float in ../shared/bench/ggml-dequant.md as ratios
// measured in one run (the machine is shared).
//
//   amn_bench_gguf [--benchmark_filter=Q4_K] [--benchmark_min_time=0.2]
#include "anamnesis/dtype.hpp"
#include "kernels/gguf/gguf_kernels.hpp"

#include <benchmark/benchmark.h>
#include <hwy/aligned_allocator.h>
#include <hwy/targets.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

namespace g = amn::kernels::gguf;
constexpr std::size_t kN = std::size_t{1} << 20;

// Byte offsets of the fp16 scale fields of each block layout (ggml-common.h),
// set to ordinary normal values so that random blocks time like real ones
// (no NaN/subnormal slow paths).
std::vector<int> fp16_fields(int id) {
    switch (id) {
        case 3: case 7: case 9: case 12: case 13: return {0, 2};
        case 10: return {80, 82};
        case 11: return {108};
        case 14: return {208};
        case 34: return {52};
        case 35: return {64};
        case 15: case 29: case 39: case 40: return {};
        default: return {0};
    }
}

struct Input {
    std::vector<std::uint8_t> blocks;
    std::size_t nb = 0;
};

Input make_input(const amn::DTypeInfo& info) {
    Input in;
    in.nb = kN / info.block_elems;
    in.blocks.resize(in.nb * info.block_bytes);
    std::mt19937 rng(42);
    for (auto& b : in.blocks) b = static_cast<std::uint8_t>(rng());
    const auto fields = fp16_fields(info.ggml_id);
    for (std::size_t i = 0; i < in.nb; ++i) {
        std::uint8_t* blk = in.blocks.data() + i * info.block_bytes;
        for (int off : fields) {
            const std::uint16_t h = static_cast<std::uint16_t>((5 + rng() % 6) << 10 | (rng() & 0x3FF) | (rng() & 0x8000));
            std::memcpy(blk + off, &h, 2);
        }
        if (info.ggml_id == 15) {  // Q8_K: f32 scale
            const float d = 0.001f;
            std::memcpy(blk, &d, 4);
        }
        if (info.ggml_id == 29) {  // IQ1_M: fp16 scale in the top nibbles of the 4 u16 scales → 0x2Cxx
            blk[55] = static_cast<std::uint8_t>((blk[55] & 0x0F) | 0x20);
            blk[53] = static_cast<std::uint8_t>((blk[53] & 0x0F) | 0xC0);
        }
    }
    return in;
}

void run(benchmark::State& state, const amn::DTypeInfo* info, g::Decoder dec, std::int64_t target) {
    // 64-byte aligned output (as the executor's chunk buffers are): a vector
    // from malloc starts 16 bytes into a page, splitting every 64-byte store.
    static const auto out_buf = hwy::AllocateAligned<float>(kN);
    static float* const out_ptr = out_buf.get();
    struct { float* data() const { return out_ptr; } } out;
    const Input in = make_input(*info);
    if (target) hwy::SetSupportedTargetsForTest(target);
    for (auto _ : state) {
        dec(in.blocks.data(), out.data(), in.nb);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    if (target) hwy::SetSupportedTargetsForTest(0);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(kN));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(kN * 4));
}

}  // namespace

int main(int argc, char** argv) {
    for (int id = 0; id < 64; ++id) {
        const amn::DTypeInfo* info = amn::dtype_info(amn::dtype_from_ggml_id(static_cast<std::uint32_t>(id)));
        if (!info || !info->is_quantized_block || !g::scalar_decoder(id)) continue;
        const std::string name(info->name);
        benchmark::RegisterBenchmark((name + "/scalar").c_str(), run, info, g::scalar_decoder(id), std::int64_t{0});
        if (!g::has_simd_decoder(id)) continue;
        for (const std::int64_t t : hwy::SupportedAndGeneratedTargets())
            benchmark::RegisterBenchmark((name + "/" + hwy::TargetName(t)).c_str(), run, info, g::best_decoder(id), t);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
