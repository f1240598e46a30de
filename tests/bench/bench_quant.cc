// SPDX-License-Identifier: MIT OR Apache-2.0
// GPTQ / AWQ / bitsandbytes dequantization throughput on one 4096 × 11008
// layer (an up_proj: output [11008, 4096]) in output elements/s, through the
// scheme's Recipe exactly as the executor runs it (row chunks of ~4 MiB of
// BF16, dequantized to f32; the final BF16 store is the shared executor's),
// for each Highway target compiled in and supported by this CPU (dispatch
// forced with hwy::SetSupportedTargetsForTest), on 1 thread and on all
// hardware threads (each thread a contiguous share of the chunks).
// Synthetic layers are written once to a temporary folder (random payload,
// ordinary finite scales). Compare as ratios within one run (the machine is shared).
//
//   amn_bench_quant [--benchmark_filter=gptq] [--benchmark_min_time=0.5]
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"
#include "kernels/int/quant_kernels.hpp"

#include <benchmark/benchmark.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kIn = 4096, kOut = 11008, kGroup = 128;

struct Tensor {
    std::string dtype;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint8_t> bytes;
};

void write_st(const std::string& path, const std::map<std::string, Tensor>& ts) {
    std::string header = "{";
    std::uint64_t off = 0;
    bool first = true;
    for (const auto& [n, t] : ts) {
        header += (first ? "" : ",") + std::string("\"") + n + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) header += (i ? "," : "") + std::to_string(t.shape[i]);
        header += "],\"data_offsets\":[" + std::to_string(off) + "," + std::to_string(off + t.bytes.size()) + "]}";
        off += t.bytes.size();
        first = false;
    }
    header += "}";
    while ((8 + header.size()) % 8) header += ' ';
    std::ofstream f(path, std::ios::binary);
    std::uint8_t len[8];
    for (int i = 0; i < 8; ++i) len[i] = std::uint8_t(std::uint64_t(header.size()) >> (8 * i));
    f.write(reinterpret_cast<const char*>(len), 8);
    f.write(header.data(), std::streamsize(header.size()));
    for (const auto& [n, t] : ts) f.write(reinterpret_cast<const char*>(t.bytes.data()), std::streamsize(t.bytes.size()));
}

std::mt19937 rng(7);

Tensor random_tensor(std::string dtype, std::vector<std::uint64_t> shape, std::uint64_t nbytes) {
    Tensor t{std::move(dtype), std::move(shape), std::vector<std::uint8_t>(nbytes)};
    for (std::uint64_t i = 0; i + 4 <= nbytes; i += 4) {
        const std::uint32_t v = rng();
        std::memcpy(&t.bytes[i], &v, 4);
    }
    return t;
}
Tensor f16_tensor(std::vector<std::uint64_t> shape, std::uint64_t n) {
    Tensor t{"F16", std::move(shape), std::vector<std::uint8_t>(2 * n)};
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint16_t h = std::uint16_t(0x2000 + rng() % 0x1000);  // small positive normals
        std::memcpy(&t.bytes[2 * i], &h, 2);
    }
    return t;
}
Tensor f32_tensor(std::vector<std::uint64_t> shape, std::uint64_t n, float lo, float hi) {
    Tensor t{"F32", std::move(shape), std::vector<std::uint8_t>(4 * n)};
    std::uniform_real_distribution<float> d(lo, hi);
    for (std::uint64_t i = 0; i < n; ++i) {
        const float f = d(rng);
        std::memcpy(&t.bytes[4 * i], &f, 4);
    }
    return t;
}
Tensor i32_tensor(std::vector<std::int32_t> v) {
    Tensor t{"I32", {v.size()}, std::vector<std::uint8_t>(4 * v.size())};
    std::memcpy(t.bytes.data(), v.data(), t.bytes.size());
    return t;
}

std::map<std::string, Tensor> gptq_layer(unsigned bits, bool act_order) {
    const std::uint64_t G = kIn / kGroup;
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.up_proj";
    m[p + ".qweight"] = random_tensor("I32", {kIn * bits / 32, kOut}, kIn * bits / 32 * kOut * 4);
    m[p + ".qzeros"] = random_tensor("I32", {G, kOut * bits / 32}, G * kOut * bits / 32 * 4);
    m[p + ".scales"] = f16_tensor({G, kOut}, G * kOut);
    std::vector<std::int32_t> g(kIn);
    for (std::uint64_t k = 0; k < kIn; ++k) g[k] = std::int32_t(k / kGroup);
    if (act_order) std::shuffle(g.begin(), g.end(), rng);
    m[p + ".g_idx"] = i32_tensor(g);
    return m;
}

std::map<std::string, Tensor> awq_layer() {
    const std::uint64_t G = kIn / kGroup;
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.up_proj";
    m[p + ".qweight"] = random_tensor("I32", {kIn, kOut / 8}, kIn * kOut / 2);
    m[p + ".qzeros"] = random_tensor("I32", {G, kOut / 8}, G * kOut / 2);
    m[p + ".scales"] = f16_tensor({G, kOut}, G * kOut);
    return m;
}

std::map<std::string, Tensor> bnb4_layer(bool fp4, bool nested) {
    const std::uint64_t n = kIn * kOut, blocks = n / 64;
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.up_proj.weight";
    m[p] = random_tensor("U8", {n / 2, 1}, n / 2);
    std::string blob = std::string("{\"quant_type\": \"") + (fp4 ? "fp4" : "nf4") +
                       "\", \"blocksize\": 64, \"dtype\": \"bfloat16\", \"shape\": [" + std::to_string(kOut) + ", " +
                       std::to_string(kIn) + "]";
    if (nested) {
        const std::uint64_t nb = (blocks + 255) / 256;
        m[p + ".absmax"] = random_tensor("U8", {blocks}, blocks);
        m[p + ".nested_absmax"] = f32_tensor({nb}, nb, 0.01f, 0.1f);
        m[p + ".nested_quant_map"] = f32_tensor({256}, 256, -1.0f, 1.0f);
        blob += ", \"nested_blocksize\": 256, \"nested_offset\": 0.05";
    } else {
        m[p + ".absmax"] = f32_tensor({blocks}, blocks, 0.01f, 0.1f);
    }
    blob += "}";
    m[p + ".quant_state.bitsandbytes__" + std::string(fp4 ? "fp4" : "nf4")] =
        Tensor{"U8", {blob.size()}, std::vector<std::uint8_t>(blob.begin(), blob.end())};
    return m;
}

std::map<std::string, Tensor> int8_layer() {
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.up_proj";
    m[p + ".weight"] = random_tensor("I8", {kOut, kIn}, kOut * kIn);
    m[p + ".SCB"] = f32_tensor({kOut}, kOut, 0.1f, 2.0f);
    return m;
}

// New formats (compressed-tensors, ModelOpt, gpt-oss MXFP4), same layer size.
const char* kCtW4 = R"({"quantization_config":{"quant_method":"compressed-tensors","format":"pack-quantized","config_groups":{"group_0":{"format":"pack-quantized","targets":["Linear"],"weights":{"num_bits":4,"type":"int","symmetric":true,"group_size":128,"strategy":"group"}}}}})";
const char* kCtNvfp4 = R"({"quantization_config":{"quant_method":"compressed-tensors","format":"nvfp4-pack-quantized","config_groups":{"group_0":{"format":"nvfp4-pack-quantized","targets":["Linear"],"weights":{"num_bits":4,"type":"float","symmetric":true,"group_size":16,"strategy":"tensor_group","scale_dtype":"torch.float8_e4m3fn"}}}}})";
const char* kModelOpt = R"({"quantization_config":{"quant_method":"modelopt","quant_algo":"NVFP4","producer":{"name":"modelopt"},"group_size":16,"config_groups":{"group_0":{"weights":{"num_bits":4,"type":"float","group_size":16},"targets":["Linear"]}}}})";
const char* kMxfp4 = R"({"quantization_config":{"quant_method":"mxfp4"}})";

Tensor e4m3_scales(std::vector<std::uint64_t> shape, std::uint64_t n) {
    Tensor t{"F8_E4M3", std::move(shape), std::vector<std::uint8_t>(n)};
    for (auto& b : t.bytes) b = std::uint8_t(0x30 + rng() % 0x20);  // positive normals
    return t;
}
std::map<std::string, Tensor> ct_w4_layer() {
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.up_proj";
    m[p + ".weight_packed"] = random_tensor("I32", {kOut, kIn / 8}, kOut * kIn / 2);
    Tensor s = f16_tensor({kOut, kIn / kGroup}, kOut * kIn / kGroup);
    s.dtype = "BF16";
    for (std::size_t i = 0; i < s.bytes.size(); i += 2) s.bytes[i + 1] = 0x3C;  // small positive BF16
    m[p + ".weight_scale"] = s;
    std::vector<std::int32_t> sh{std::int32_t(kOut), 0, std::int32_t(kIn), 0};
    m[p + ".weight_shape"] = Tensor{"I64", {2}, std::vector<std::uint8_t>(16)};
    std::memcpy(m[p + ".weight_shape"].bytes.data(), sh.data(), 16);
    return m;
}
std::map<std::string, Tensor> nvfp4_layer(bool modelopt) {
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.up_proj";
    m[p + (modelopt ? ".weight" : ".weight_packed")] = random_tensor("U8", {kOut, kIn / 2}, kOut * kIn / 2);
    m[p + ".weight_scale"] = e4m3_scales({kOut, kIn / 16}, kOut * kIn / 16);
    m[p + (modelopt ? ".weight_scale_2" : ".weight_global_scale")] = f32_tensor(modelopt ? std::vector<std::uint64_t>{} : std::vector<std::uint64_t>{1}, 1, 0.5f, 2.0f);
    return m;
}
std::map<std::string, Tensor> mxfp4_layer() {
    std::map<std::string, Tensor> m;
    const std::string p = "model.layers.0.mlp.experts.down_proj";
    const std::uint64_t E = 2, R = kOut / 2, G = kIn / 32;
    m[p + "_blocks"] = random_tensor("U8", {E, R, G, 16}, E * R * G * 16);
    Tensor s{"U8", {E, R, G}, std::vector<std::uint8_t>(E * R * G)};
    for (auto& b : s.bytes) b = std::uint8_t(120 + rng() % 8);
    m[p + "_scales"] = s;
    return m;
}

struct Layer {
    amn::Catalog cat;
    amn::Plan plan;
    const amn::Recipe* recipe = nullptr;
};

fs::path bench_dir() {
    static const fs::path d = [] {
        fs::path p = fs::temp_directory_path() / ("amn_bench_quant_" + std::to_string(::getpid()));
        fs::create_directories(p);
        return p;
    }();
    return d;
}

// `config` non-empty: a model folder with that config.json (the schemes
// that are recognised from quantization_config).
std::unique_ptr<Layer> open_layer(const std::string& name, const std::map<std::string, Tensor>& ts,
                                  const std::string& config = {}) {
    fs::path f = bench_dir() / (name + ".safetensors");
    if (!config.empty()) {
        const fs::path d = bench_dir() / name;
        fs::create_directories(d);
        std::ofstream(d / "config.json") << config;
        f = d / "model.safetensors";
    }
    write_st(f.string(), ts);
    auto l = std::make_unique<Layer>();
    l->cat = amn::open_model(config.empty() ? f.string() : f.parent_path().string());
    l->plan = amn::make_plan(l->cat);
    for (const auto& t : l->plan.tensors)
        if (t.quantized && t.recipe) l->recipe = t.recipe.get();
    if (!l->recipe || l->plan.error_count()) throw std::runtime_error(name + ": not planned as a quantized layer");
    return l;
}

// Dequantize the whole layer in executor-sized chunks, `threads` workers
// each owning a contiguous share of the chunks.
void run_layer(const amn::Recipe& r, unsigned threads, std::vector<std::vector<float>>& bufs) {
    const std::uint64_t rows = r.rows(), C = r.row_elems();
    const std::uint64_t per = std::max<std::uint64_t>(1, (4u << 20) / (2 * C));
    const std::uint64_t chunks = (rows + per - 1) / per;
    auto work = [&](unsigned t) {
        auto& buf = bufs[t];
        for (std::uint64_t c = chunks * t / threads; c < chunks * (t + 1) / threads; ++c) {
            const std::uint64_t r0 = c * per, n = std::min(per, rows - r0);
            r.dequantize_rows(r0, n, buf.data());
            benchmark::DoNotOptimize(buf.data());
        }
    };
    if (threads == 1) return work(0);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (auto& th : pool) th.join();
}

void register_all() {
    struct Scheme { std::string name; std::function<std::map<std::string, Tensor>()> make; std::string config = {}; };
    const std::vector<Scheme> schemes = {
        {"gptq_4bit", [] { return gptq_layer(4, false); }},
        {"gptq_4bit_actorder", [] { return gptq_layer(4, true); }},
        {"gptq_8bit", [] { return gptq_layer(8, false); }},
        {"gptq_3bit", [] { return gptq_layer(3, false); }},
        {"gptq_2bit", [] { return gptq_layer(2, false); }},
        {"awq_gemm_4bit", awq_layer},
        {"bnb_nf4", [] { return bnb4_layer(false, false); }},
        {"bnb_nf4_dq", [] { return bnb4_layer(false, true); }},
        {"bnb_fp4", [] { return bnb4_layer(true, false); }},
        {"bnb_int8", int8_layer},
        {"ct_w4a16_g128", ct_w4_layer, kCtW4},
        {"ct_nvfp4", [] { return nvfp4_layer(false); }, kCtNvfp4},
        {"modelopt_nvfp4", [] { return nvfp4_layer(true); }, kModelOpt},
        {"mxfp4_experts", mxfp4_layer, kMxfp4},
    };
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    std::vector<unsigned> thread_counts{1};
    if (hw > 1) thread_counts.push_back(hw);
    for (const auto& s : schemes) {
        std::shared_ptr<Layer> layer = open_layer(s.name, s.make(), s.config);
        for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
            for (unsigned threads : thread_counts) {
                const std::string name = s.name + "/" + hwy::TargetName(target) + "/threads:" + std::to_string(threads);
                benchmark::RegisterBenchmark(name.c_str(), [layer, target, threads](benchmark::State& st) {
                    hwy::SetSupportedTargetsForTest(target);
                    const amn::Recipe& r = *layer->recipe;
                    std::vector<std::vector<float>> bufs(threads);
                    const std::uint64_t per = std::max<std::uint64_t>(1, (4u << 20) / (2 * r.row_elems()));
                    for (auto& b : bufs) b.resize(per * r.row_elems());
                    for (auto _ : st) run_layer(r, threads, bufs);
                    const double n = double(r.rows() * r.row_elems());
                    st.counters["elem/s"] = benchmark::Counter(n * double(st.iterations()), benchmark::Counter::kIsRate);
                    st.counters["ns/elem"] = benchmark::Counter(n * double(st.iterations()) * 1e-9,
                                                                benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
                    st.SetLabel(layer->recipe->describe());
                    hwy::SetSupportedTargetsForTest(0);
                })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.3);
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    register_all();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ec;
    fs::remove_all(bench_dir(), ec);
    return 0;
}
