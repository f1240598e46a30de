// The floor under `amn forget` of a BF16 safetensors model on this machine:
// the time to read every tensor's bytes through the same mapping the
// converter uses (amn::MappedFile, released behind the reader) and decode
// them to f32 with the dispatched SIMD kernel (amn::kernels::bf16_to_f32),
// on 1 thread and on every core — no quantization, no loss, no output.
// Whatever forget does costs at least this; compare it with `cp` of the
// output (tests/bench/forget_st_e2e.sh prints both).
//
// Usage: amn_bench_read_floor MODEL.safetensors [REPEATS]
// Output: one line per thread count: wall seconds (best of REPEATS) and
// ns per element × threads (CPU-ish cost per element).
#include <anamnesis/kernels.hpp>
#include <anamnesis/mapped_file.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

namespace {

// Bytes of the safetensors header (8-byte little-endian length + JSON).
std::uint64_t data_begin(const amn::MappedFile& f) {
    if (f.size() < 8) return f.size();
    std::uint64_t n = 0;
    std::memcpy(&n, f.data(), 8);
    return std::min<std::uint64_t>(f.size(), 8 + n);
}

double run(const amn::MappedFile& f, std::uint64_t begin, unsigned threads) {
    const std::uint64_t elems = (f.size() - begin) / 2;
    constexpr std::size_t kChunk = std::size_t{1} << 21;  // 2 Mi elements = 4 MiB of BF16, as forget's chunks
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::vector<float> out(kChunk);
            const std::uint64_t lo = elems * t / threads, hi = elems * (t + 1) / threads;
            for (std::uint64_t i = lo; i < hi; i += kChunk) {
                const std::size_t n = std::size_t(std::min<std::uint64_t>(kChunk, hi - i));
                const std::uint64_t off = begin + 2 * i;
                f.advise_sequential(off, 2 * n);
                amn::kernels::bf16_to_f32(reinterpret_cast<const std::uint16_t*>(f.data() + off), out.data(), n);
                f.release(off, 2 * n);
            }
        });
    for (auto& th : pool) th.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.safetensors [REPEATS]\n", argv[0]);
        return 2;
    }
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    const auto f = amn::MappedFile::open(argv[1]);
    const std::uint64_t begin = data_begin(*f);
    const double elems = double((f->size() - begin) / 2);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::vector<unsigned> counts{1};
    if (cores > 1) counts.push_back(cores);
    std::printf("%s: %.0f MiB of BF16 after the header\n", argv[1], elems * 2 / 1048576.0);
    for (const unsigned t : counts) {
        double best = 1e30;
        for (int r = 0; r < repeats; ++r) best = std::min(best, run(*f, begin, t));
        std::printf("read + decode, %u thread(s): %.3f s wall (best of %d), %.3f ns/element x threads\n", t, best,
                    repeats, best * 1e9 * t / elems);
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "amn_bench_read_floor: %s\n", e.what());
    return 1;
}
