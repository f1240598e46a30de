// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/human_bytes.hpp"

#include <cstdio>

namespace amn {

std::string human_bytes(std::uint64_t bytes, ByteDigits digits) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    const bool one_decimal = digits == ByteDigits::OneDecimal;
    if (bytes < 1024) return std::to_string(bytes) + (one_decimal ? " bytes" : " B");
    const int last_unit = one_decimal ? 4 : 5;
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < last_unit) { v /= 1024.0; ++u; }
    char buf[32];
    if (one_decimal) std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    else std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[u]);
    return buf;
}

}  // namespace amn
