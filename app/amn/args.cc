// SPDX-License-Identifier: MIT OR Apache-2.0
#include "cli.hpp"

namespace amn::cli {

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

}  // namespace amn::cli
