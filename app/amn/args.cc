// SPDX-License-Identifier: MIT OR Apache-2.0
#include "cli.hpp"

namespace amn::cli {

std::string printable(std::string_view s) {
    static const char* hx = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    auto esc = [&](unsigned char c) { out += "\\x"; out += hx[c >> 4]; out += hx[c & 15]; };
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f) { out += static_cast<char>(c); ++i; continue; }
        if (c < 0x80) {
            if (c == 0x1b) out += "\\e";
            else if (c == '\r') out += "\\r";
            else if (c == '\n') out += "\\n";
            else if (c == '\t') out += "\\t";
            else esc(c);
            ++i;
            continue;
        }
        // A valid UTF-8 sequence passes, except C1 controls (U+0080..U+009F).
        std::size_t n = 0;
        const auto cont = [&](std::size_t k) { return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80; };
        const auto b1 = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
        if (c >= 0xC2 && c <= 0xDF && cont(1)) n = 2;
        else if (c >= 0xE0 && c <= 0xEF && cont(1) && cont(2) && !(c == 0xE0 && b1 < 0xA0) && !(c == 0xED && b1 >= 0xA0)) n = 3;
        else if (c >= 0xF0 && c <= 0xF4 && cont(1) && cont(2) && cont(3) && !(c == 0xF0 && b1 < 0x90) && !(c == 0xF4 && b1 >= 0x90)) n = 4;
        if (n == 0 || (c == 0xC2 && b1 < 0xA0)) {
            for (std::size_t k = 0; k < (n ? n : 1); ++k) esc(static_cast<unsigned char>(s[i + k]));
            i += n ? n : 1;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
    }
    return out;
}

bool Args::flag(std::string_view name, std::string_view alias) {
    for (auto it = a_.begin(); it != a_.end(); ++it) {
        if (*it == "--") break;
        if (*it == name || (!alias.empty() && *it == alias)) {
            a_.erase(it);
            return true;
        }
    }
    return false;
}

std::optional<std::string> Args::option(std::string_view name, std::string_view alias) {
    for (auto it = a_.begin(); it != a_.end(); ++it) {
        if (*it == "--") break;
        const std::string& s = *it;
        for (std::string_view n : {name, alias}) {
            if (n.empty()) continue;
            if (s == n) {
                if (it + 1 == a_.end() || (*(it + 1)).empty())
                    throw UsageError{std::string(n) + " needs a value"};
                std::string v = *(it + 1);
                a_.erase(it, it + 2);
                return v;
            }
            if (s.size() > n.size() + 1 && s.compare(0, n.size(), n) == 0 && s[n.size()] == '=') {
                std::string v = s.substr(n.size() + 1);
                a_.erase(it);
                return v;
            }
        }
    }
    return std::nullopt;
}

std::vector<std::string> Args::positionals() {
    std::vector<std::string> out;
    bool after_dashes = false;
    for (const auto& s : a_) {
        if (!after_dashes && s == "--") { after_dashes = true; continue; }
        if (!after_dashes && s.size() > 1 && s[0] == '-') throw UsageError{"unknown option " + s};
        out.push_back(s);
    }
    a_.clear();
    return out;
}

unsigned parse_threads(Args& args) {
    const auto t = args.option("--threads");
    if (!t) return 0;
    try {
        const long n = std::stol(*t);
        if (n < 1 || n > 1024) throw 0;
        return static_cast<unsigned>(n);
    } catch (...) {
        throw UsageError{"--threads must be a number from 1 to 1024"};
    }
}

}  // namespace amn::cli
