// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the bounded ZIP reader (core/src/formats/zip.cc):
// any input must either parse or raise amn::Error — never crash, hang,
// read out of bounds or allocate without bound. Every entry of a parsed
// archive is read (inflated, CRC checked) under small limits.
//
// Not part of ctest. Build with clang-14 (g++ has no -fsanitize=fuzzer),
// from the repository root; the reader needs only these three sources:
//
//   mkdir -p build-fuzz
//   clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Icore/include -Icore/src \
//       tests/fuzz/fuzz_zip.cc core/src/formats/zip.cc core/src/error.cc core/src/mapped_file.cc \
//       -lz -o build-fuzz/fuzz_zip
//   mkdir -p build-fuzz/corpus-zip
//   /usr/bin/python3 fixtures/npz_pth/make_npz_pth_fixtures.py build-fuzz/fx
//   cp build-fuzz/fx/*.zip build-fuzz/fx/*.npz build-fuzz/fx/*.pth build-fuzz/corpus-zip/
//   build-fuzz/fuzz_zip -max_len=65536 -timeout=10 -rss_limit_mb=1024 build-fuzz/corpus-zip
#include "anamnesis/error.hpp"
#include "anamnesis/mapped_file.hpp"
#include "anamnesis/zip.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        auto file = amn::MappedFile::from_bytes(std::vector<std::uint8_t>(data, data + size), "fuzz.zip");
        amn::ZipLimits lim;
        lim.max_entries = 4096;
        lim.max_inflated_bytes = 8u << 20;
        const amn::ZipArchive z = amn::ZipArchive::open(file, lim);
        for (const auto& e : z.entries()) {
            try {
                (void)z.read_prefix(e, 4096);
                (void)z.read(e);
                if (e.is_stored()) z.verify_crc(e);
            } catch (const amn::Error&) {
            }
        }
    } catch (const amn::Error&) {
    }
    return 0;
}
