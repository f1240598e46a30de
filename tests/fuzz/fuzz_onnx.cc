// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the ONNX parser (core/src/source/formats/onnx.cc:
// ModelProto/GraphProto/TensorProto walked on the wire, nodes through ONNX's
// generated classes) and the ONNX quantization detector
// (plan/schemes/onnx.cc): any input must either parse or raise amn::Error —
// never crash, hang, read out of bounds or allocate without bound. A parsed
// catalog is planned and the first and last row of every logical tensor
// decoded, so the byte ranges the parser accepted and the shapes the
// detector checked are exercised. The model sits in a folder that does not
// exist, so every external data location fails to open (no file of the
// fuzzing machine is read). Build and seed corpus: tests/fuzz/README.md.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/onnx.hpp"
#include "anamnesis/plan.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto file = amn::MappedFile::from_bytes(std::vector<std::uint8_t>(data, data + size), "fuzz.onnx");
    (void)amn::looks_like_onnx({data, size});
    try {
        const amn::Catalog cat = amn::open_onnx(file, "/nonexistent-amn-fuzz/fuzz.onnx");
        const amn::Plan plan = amn::make_plan(cat);
        std::vector<float> f32;
        for (const auto& lt : plan.tensors) {
            if (!lt.recipe || lt.recipe->rows() == 0 || lt.recipe->row_elems() > (1u << 20)) continue;
            const std::uint64_t re = lt.recipe->row_elems();
            const std::uint64_t g = lt.recipe->row_granularity();
            for (const std::uint64_t r : {std::uint64_t{0}, (lt.recipe->rows() - 1) / g * g}) {
                const std::uint64_t n = std::min(g, lt.recipe->rows() - r);
                if (n * re > (4u << 20)) continue;
                f32.resize(static_cast<std::size_t>(n * re));
                try {
                    lt.recipe->dequantize_rows(r, n, f32.data());
                } catch (const amn::Error&) {  // e.g. BOOL/complex have no float decoder
                }
            }
        }
    } catch (const amn::Error&) {
    }
    return 0;
}
