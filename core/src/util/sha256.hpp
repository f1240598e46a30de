// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: SHA-256 (FIPS 180-4), for checking digests (ollama blobs,
// test fixtures' manifests). Incremental; not constant-time (no secrets here).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace amn::detail {

class Sha256 {
public:
    Sha256() { reset(); }
    void reset();
    void update(const void* data, std::size_t len);
    std::array<std::uint8_t, 32> finish();
    /// Lower-case hex digest of everything fed so far; resets the state.
    std::string hex();
    /// One-shot hex digest.
    static std::string of(const void* data, std::size_t len);

private:
    void block(const std::uint8_t* p);
    std::uint32_t h_[8];
    std::uint8_t buf_[64];
    std::size_t fill_ = 0;
    std::uint64_t total_ = 0;
};

}  // namespace amn::detail
