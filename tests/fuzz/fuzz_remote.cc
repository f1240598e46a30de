// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for what a server says to the remote reader
// (core/src/source/remote/): the Hub's model listing (parse_hub_listing),
// a shard index's weight_map (index_shard_files) and an hf:// spec
// (parse_hub_spec), each over the same input. Any input must parse or raise
// amn::Error — never crash, hang or overflow; a listed name is kept as text
// (the mirror joins it under its folder only after these checks).
// Build and seed corpus: tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "source/remote/hub.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)amn::remote::parse_hub_listing(text, "listing");
    } catch (const amn::Error&) {
    }
    try {
        (void)amn::remote::index_shard_files(text, "index");
    } catch (const amn::Error&) {
    }
    try {
        (void)amn::remote::parse_hub_spec(std::string("hf://") + std::string(text.substr(0, 512)));
    } catch (const amn::Error&) {
    }
    return 0;
}
