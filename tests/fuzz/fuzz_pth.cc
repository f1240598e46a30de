// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the PyTorch checkpoint layer (core/src/source/formats/pth.cc):
// whole checkpoints — ZIP (data.pkl + data/<key> storages, byteorder) and
// legacy (pickle header, storage list, raw storages) — go through the same
// entry points open_model uses (parse_zip_model, parse_pth) and the pickle
// scan. Any input must either parse or raise amn::Error: never crash, hang,
// read out of bounds (views past storages, shared storages, strides) or
// allocate without bound. A parsed catalog is planned and the first and last
// row of every tensor copied, so the views the parser accepted are read.
// Build and seed corpus: tests/fuzz/README.md.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/pth.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

void exercise(const amn::Catalog& cat) {
    const amn::Plan plan = amn::make_plan(cat);
    std::vector<float> f32;
    std::vector<std::uint8_t> bytes;
    for (const auto& lt : plan.tensors) {
        if (!lt.recipe || lt.recipe->rows() == 0 || lt.recipe->row_elems() > (1u << 20)) continue;
        const std::uint64_t re = lt.recipe->row_elems();
        for (const std::uint64_t r : {std::uint64_t{0}, lt.recipe->rows() - 1}) {
            if (const auto dt = lt.recipe->lossless_dtype()) {
                const auto n = amn::dtype_bytes(*dt, re);
                if (n && *n <= (16u << 20)) {
                    bytes.resize(static_cast<std::size_t>(*n));
                    lt.recipe->copy_rows(r, 1, bytes.data());
                }
            }
            try {
                f32.resize(static_cast<std::size_t>(re));
                lt.recipe->dequantize_rows(r, 1, f32.data());
            } catch (const amn::Error&) {
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto file = amn::MappedFile::from_bytes(std::vector<std::uint8_t>(data, data + size), "fuzz.pth");
    try {
        // open_model's dispatch: "PK" → ZIP model (PyTorch when it has a data.pkl), legacy magic → pth.
        if (size >= 4 && std::memcmp(data, "PK", 2) == 0) exercise(amn::parse_zip_model(file, "fuzz.pth"));
        else exercise(amn::parse_pth(file, "fuzz.pth"));
    } catch (const amn::Error&) {
    }
    (void)amn::scan_pickles(file, "fuzz.pth");
    return 0;
}
