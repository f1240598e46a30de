// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the GGUF parser: any input must either parse or
// raise amn::Error, never crash, hang or read out of bounds. A parsed file
// is also planned and every convertible tensor's first row dequantized, so
// the offsets the parser validated are exercised.
// Not part of ctest; built and run by scripts/sanitize.sh (CI), corpus in
// tests/fuzz/corpus/: tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/plan.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        auto file = amn::MappedFile::from_bytes(std::vector<std::uint8_t>(data, data + size), "fuzz.gguf");
        const amn::Catalog cat = amn::parse_gguf(file, "fuzz.gguf");
        (void)amn::gguf_key_values(cat, 4);
        (void)amn::gguf_kv_json(cat);
        const amn::Plan plan = amn::make_plan(cat);
        for (const auto& lt : plan.tensors) {
            if (!lt.recipe || lt.recipe->rows() == 0 || lt.recipe->row_elems() > (1u << 20)) continue;
            std::vector<float> row(lt.recipe->row_elems());
            lt.recipe->dequantize_rows(0, 1, row.data());
        }
    } catch (const amn::Error&) {
    }
    return 0;
}
