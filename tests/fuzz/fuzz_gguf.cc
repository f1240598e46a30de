// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the GGUF parser: any input must either parse or
// raise amn::Error, never crash, hang or read out of bounds. A parsed file
// is also planned and every convertible tensor's first row dequantized, so
// the offsets the parser validated are exercised.
//
// Not part of ctest. Build with clang-14 (g++ has no -fsanitize=fuzzer),
// from the repository root:
//
//   CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DAMN_BUILD_GUI=OFF \
//       -DAMN_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
//       -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined"
//   ninja -C build-fuzz amn_core
//   clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Icore/include -Icore/src \
//       tests/fuzz/fuzz_gguf.cc build-fuzz/core/libamn_core.a -lsimdjson -lhwy -lz -o build-fuzz/fuzz_gguf
//   mkdir -p build-fuzz/corpus-gguf && cp ../shared/fixtures/reference/gguf/*/input/model.gguf build-fuzz/corpus-gguf/ 2>/dev/null
//   build-fuzz/fuzz_gguf -max_len=65536 -timeout=10 build-fuzz/corpus-gguf
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
