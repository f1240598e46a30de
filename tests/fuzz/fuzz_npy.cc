// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the NPY header parser (a bounded Python-literal
// parser) and the NPY/NPZ catalogs (core/src/source/formats/npy.cc over the ZIP
// reader): any input must either parse or raise amn::Error — never crash,
// hang, read out of bounds or allocate without bound. The same bytes go
// through parse_npy_header, parse_npy, parse_npz and the pickle scan; a
// parsed catalog is planned and the first and last row of every tensor
// copied and decoded, so the byte ranges, Fortran strides and byte swaps the
// parser accepted are exercised. Build and seed corpus: tests/fuzz/README.md.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/npy.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/pth.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
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
            } catch (const amn::Error&) {  // e.g. BOOL/complex have no float decoder
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> in(data, size);
    try {
        (void)amn::parse_npy_header(in);
    } catch (const amn::Error&) {
    }
    const auto file = amn::MappedFile::from_bytes(std::vector<std::uint8_t>(data, data + size), "fuzz.npz");
    try {
        exercise(amn::parse_npy(file, "fuzz.npy"));
    } catch (const amn::Error&) {
    }
    try {
        exercise(amn::parse_npz(file, "fuzz.npz"));
    } catch (const amn::Error&) {
    }
    (void)amn::scan_pickles(file, "fuzz.npz");  // never throws for content
    return 0;
}
