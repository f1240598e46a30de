// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the bounded ZIP reader (core/src/source/formats/zip.cc):
// any input must either parse or raise amn::Error — never crash, hang,
// read out of bounds or allocate without bound. Every entry of a parsed
// archive is read (inflated, CRC checked) under small limits.
// Not part of ctest; built and run by scripts/sanitize.sh (CI), corpus in
// tests/fuzz/corpus/: tests/fuzz/README.md.
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
