// SPDX-License-Identifier: MIT OR Apache-2.0
// Link the anamnesis core from another CMake project: open a model, find one
// tensor in its plan, dequantize it to f32 and write it as raw BF16.
//   remember_one MODEL TENSOR [OUT.bf16]
#include <anamnesis/catalog.hpp>
#include <anamnesis/kernels.hpp>
#include <anamnesis/plan.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

int main(int argc, char** argv) try {
    if (argc < 3) return std::fprintf(stderr, "usage: remember_one MODEL TENSOR [OUT.bf16]\n"), 2;
    const amn::Catalog catalog = amn::open_model(argv[1]);  // headers only; data stays mapped
    const amn::Plan plan = amn::make_plan(catalog);          // scheme detection
    for (const amn::LogicalTensor& t : plan.tensors) {
        if (t.name != argv[2]) continue;
        if (!t.recipe) return std::fprintf(stderr, "%s: %s\n", argv[2], t.error.message().c_str()), 1;
        std::vector<float> f32(t.recipe->rows() * t.recipe->row_elems());
        t.recipe->dequantize_rows(0, t.recipe->rows(), f32.data());
        std::vector<std::uint16_t> bf16(f32.size());
        amn::kernels::f32_to_bf16(f32.data(), bf16.data(), f32.size());
        std::printf("%s: %s, %zu elements, first %g\n", t.name.c_str(), t.recipe->describe().c_str(),
                    f32.size(), f32.empty() ? 0.0 : f32[0]);
        if (argc > 3) {
            std::FILE* out = std::fopen(argv[3], "wb");
            if (!out || std::fwrite(bf16.data(), 2, bf16.size(), out) != bf16.size() || std::fclose(out) != 0)
                return std::fprintf(stderr, "cannot write %s\n", argv[3]), 1;
        }
        return 0;
    }
    return std::fprintf(stderr, "%s: no tensor %s\n", argv[1], argv[2]), 1;
} catch (const std::exception& e) {
    return std::fprintf(stderr, "error: %s\n", e.what()), 1;
}
