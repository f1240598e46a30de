// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the safetensors parser: any input either parses or
// raises amn::Error — never a crash, hang or out-of-bounds read. A parsed
// file is planned and the first row of every convertible tensor decoded, so
// the validated offsets are exercised. Build: see tests/fuzz/README.md.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/safetensors.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        amn::Catalog cat;
        append_safetensors_shard(cat, amn::MappedFile::from_bytes(std::vector<std::uint8_t>(data, data + size), "fuzz.safetensors"));
        cat.index_names();
        const amn::Plan plan = amn::make_plan(cat);
        std::vector<float> row;
        for (const auto& lt : plan.tensors) {
            if (!lt.recipe || lt.recipe->rows() == 0 || lt.recipe->row_elems() > (1u << 20)) continue;
            row.resize(lt.recipe->row_elems());
            lt.recipe->dequantize_rows(lt.recipe->rows() - 1, 1, row.data());
        }
    } catch (const amn::Error&) {
    }
    return 0;
}
