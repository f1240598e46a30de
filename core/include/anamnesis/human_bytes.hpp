// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file human_bytes.hpp
/// A byte count in binary units for people ("1.50 GiB"): reports, the
/// inspection summary, the writers' free-space errors.

#include <cstdint>
#include <string>

namespace amn {

/// How human_bytes() writes the number.
enum class ByteDigits : std::uint8_t {
    /// Three significant digits, units B … PiB: "312 B", "64.0 KiB", "1.50 GiB", "120 MiB".
    Significant3,
    /// One decimal, units bytes … TiB: "312 bytes", "64.0 KiB", "1.5 GiB" (the GGUF writer's messages).
    OneDecimal,
};

/// `bytes` in binary units (1 KiB = 1024 bytes), written as `digits` says.
std::string human_bytes(std::uint64_t bytes, ByteDigits digits = ByteDigits::Significant3);

}  // namespace amn
