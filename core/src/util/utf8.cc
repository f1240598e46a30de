// SPDX-License-Identifier: MIT OR Apache-2.0
#include "util/utf8.hpp"

#include <cstddef>

namespace amn::detail {

bool valid_utf8(std::string_view s, bool allow_surrogates) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const unsigned char b = *p;
        if (b < 0x80) {
            ++p;
            continue;
        }
        std::size_t n;
        char32_t c, min;
        if ((b >> 5) == 6) n = 2, c = b & 0x1F, min = 0x80;
        else if ((b >> 4) == 14) n = 3, c = b & 0x0F, min = 0x800;
        else if ((b >> 3) == 30) n = 4, c = b & 0x07, min = 0x10000;
        else return false;
        if (static_cast<std::size_t>(end - p) < n) return false;
        for (std::size_t i = 1; i < n; ++i) {
            if ((p[i] & 0xC0) != 0x80) return false;
            c = (c << 6) | (p[i] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (!allow_surrogates && c >= 0xD800 && c <= 0xDFFF)) return false;
        p += n;
    }
    return true;
}

}  // namespace amn::detail
