// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/unicode_text.hpp"

#include <algorithm>
#include <unordered_set>

namespace amn::tok {
namespace {

struct DecompEntry {
    char32_t cp;
    std::uint8_t compat;  // 0: canonical (NFD of cp), 1: compatibility (NFKD of cp, when ≠ NFD)
    std::uint32_t off;
    std::uint32_t len;
};
struct CccEntry {
    char32_t cp;
    std::uint8_t ccc;
};
struct ComposeEntry {
    char32_t a, b, c;
};
struct MapEntry {
    char32_t cp;
    std::uint32_t off;
    std::uint32_t len;
};

#include "tokenizer/unicode_tables.inc"

// Hangul syllables (Unicode §3.12), composed and decomposed algorithmically.
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

template <class T>
const T* find_cp(const T* begin, const T* end, char32_t cp) {
    auto it = std::lower_bound(begin, end, cp, [](const T& e, char32_t c) { return e.cp < c; });
    return it != end && it->cp == cp ? it : nullptr;
}

void decompose(char32_t c, bool compat, std::u32string& out) {
    if (c >= kSBase && c < kSBase + kSCount) {
        const char32_t s = c - kSBase;
        out.push_back(kLBase + s / kNCount);
        out.push_back(kVBase + (s % kNCount) / kTCount);
        if (s % kTCount) out.push_back(kTBase + s % kTCount);
        return;
    }
    const DecompEntry* b = std::begin(kDecomp);
    const DecompEntry* e = std::end(kDecomp);
    auto it = std::lower_bound(b, e, c, [](const DecompEntry& d, char32_t x) { return d.cp < x; });
    const DecompEntry* canon = nullptr;
    const DecompEntry* comp = nullptr;
    for (; it != e && it->cp == c; ++it) (it->compat ? comp : canon) = &*it;
    const DecompEntry* use = compat && comp ? comp : canon;
    if (!use) {
        out.push_back(c);
        return;
    }
    out.append(kUnicodePool + use->off, use->len);
}

char32_t compose_pair(char32_t a, char32_t b) {
    if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
        return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
    if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase && b < kTBase + kTCount)
        return a + (b - kTBase);
    auto it = std::lower_bound(std::begin(kCompose), std::end(kCompose), std::pair{a, b},
                               [](const ComposeEntry& e, const std::pair<char32_t, char32_t>& k) {
                                   return e.a != k.first ? e.a < k.first : e.b < k.second;
                               });
    if (it != std::end(kCompose) && it->a == a && it->b == b) return it->c;
    return 0;
}

}  // namespace

bool valid_utf8(std::string_view s) noexcept {
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
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
        p += n;
    }
    return true;
}

std::u32string utf8_to_u32(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const std::size_t len = utf8_len(p[i]);
        if (len == 1) {
            out.push_back(p[i] < 0x80 ? p[i] : 0xFFFD);
            ++i;
            continue;
        }
        if (i + len > n) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        char32_t c = p[i] & (0xFF >> (len + 1));
        for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (p[i + k] & 0x3F);
        out.push_back(c);
        i += len;
    }
    return out;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

std::string u32_to_utf8(std::u32string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char32_t c : s) append_utf8(out, c);
    return out;
}

std::uint8_t combining_class(char32_t c) noexcept {
    const CccEntry* e = find_cp(std::begin(kCcc), std::end(kCcc), c);
    return e ? e->ccc : 0;
}

std::string unicode_normalize(std::string_view s, NormForm form) {
    // Fast path: ASCII is invariant under every form.
    if (std::all_of(s.begin(), s.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; }))
        return std::string(s);
    const bool compat = form == NormForm::NFKC || form == NormForm::NFKD;
    std::u32string d;
    for (char32_t c : utf8_to_u32(s)) decompose(c, compat, d);
    // Canonical ordering: stable sort of each run of non-starters by class.
    for (std::size_t i = 0; i < d.size();) {
        if (combining_class(d[i]) == 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < d.size() && combining_class(d[j]) != 0) ++j;
        std::stable_sort(d.begin() + static_cast<std::ptrdiff_t>(i), d.begin() + static_cast<std::ptrdiff_t>(j),
                         [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
        i = j;
    }
    if (form == NormForm::NFD || form == NormForm::NFKD) return u32_to_utf8(d);
    // Canonical composition.
    std::u32string r;
    r.reserve(d.size());
    std::ptrdiff_t starter = -1;
    int last_ccc = 0;
    for (char32_t c : d) {
        const int ccc = combining_class(c);
        if (starter >= 0) {
            const bool adjacent = static_cast<std::ptrdiff_t>(r.size()) - 1 == starter;
            if (adjacent || (last_ccc != 0 && last_ccc < ccc)) {
                if (char32_t comp = compose_pair(r[static_cast<std::size_t>(starter)], c)) {
                    r[static_cast<std::size_t>(starter)] = comp;
                    continue;
                }
            }
        }
        if (ccc == 0) starter = static_cast<std::ptrdiff_t>(r.size());
        last_ccc = ccc;
        r.push_back(c);
    }
    return u32_to_utf8(r);
}

namespace {
const MapEntry* lower_entry(char32_t c) { return find_cp(std::begin(kLower), std::end(kLower), c); }

// "Cased" approximated from the lower-case table: a letter that has a lower-case
// mapping or is the single-letter lower case of one.
bool is_cased(char32_t c) {
    static const std::unordered_set<char32_t> lower_targets = [] {
        std::unordered_set<char32_t> s;
        for (const MapEntry& e : kLower)
            if (e.len == 1) s.insert(kUnicodePool[e.off]);
        return s;
    }();
    return lower_entry(c) != nullptr || lower_targets.count(c) != 0;
}
bool is_case_ignorable(char32_t c) {
    return c == U'\'' || c == U'.' || c == U':' || c == 0x00B7 || c == 0x2019 || combining_class(c) != 0;
}
}  // namespace

std::string unicode_lowercase(std::string_view s) {
    if (std::all_of(s.begin(), s.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; })) {
        std::string out(s);
        for (char& ch : out)
            if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        return out;
    }
    const std::u32string u = utf8_to_u32(s);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        const char32_t c = u[i];
        if (c == 0x03A3) {  // Σ: final sigma (Unicode SpecialCasing Final_Sigma)
            bool before = false, after = false;
            for (std::size_t j = i; j-- > 0;) {
                if (is_case_ignorable(u[j])) continue;
                before = is_cased(u[j]);
                break;
            }
            for (std::size_t j = i + 1; j < u.size(); ++j) {
                if (is_case_ignorable(u[j])) continue;
                after = is_cased(u[j]);
                break;
            }
            append_utf8(out, before && !after ? 0x03C2 : 0x03C3);
            continue;
        }
        if (const MapEntry* e = lower_entry(c))
            for (std::uint32_t k = 0; k < e->len; ++k) append_utf8(out, kUnicodePool[e->off + k]);
        else
            append_utf8(out, c);
    }
    return out;
}

const std::array<std::string, 256>& byte_level_chars() noexcept {
    static const std::array<std::string, 256> table = [] {
        std::array<std::string, 256> t;
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            append_utf8(t[static_cast<std::size_t>(b)], printable ? static_cast<char32_t>(b) : next++);
        }
        return t;
    }();
    return table;
}

int byte_level_byte(char32_t c) noexcept {
    if ((c >= 33 && c <= 126) || (c >= 161 && c <= 172) || (c >= 174 && c <= 255)) return static_cast<int>(c);
    if (c < 256 || c >= 256 + 68) return -1;
    // The n-th non-printable byte (in byte order) maps to U+0100 + n.
    int n = static_cast<int>(c - 256);
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
        if (!printable && n-- == 0) return b;
    }
    return -1;
}

}  // namespace amn::tok
