// SPDX-License-Identifier: MIT OR Apache-2.0
// Which Highway target the dispatched kernels run: the list this build and
// CPU offer, and a pin to one of them (AMN_SIMD_TARGET, benchmarks).
#include "anamnesis/kernels.hpp"

#include <hwy/targets.h>

#include <atomic>
#include <cstdint>

namespace amn::kernels {
namespace {

// The mask of better targets this process disabled (hwy::DisableTargets
// replaces, so an earlier pin is undone by passing 0 first).
std::atomic<std::int64_t> g_disabled{0};

bool same_name(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lo = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lo(a[i]) != lo(b[i])) return false;
    }
    return true;
}

}  // namespace

std::vector<std::string> available_target_names() {
    const std::int64_t pinned = g_disabled.load();
    if (pinned) hwy::DisableTargets(0);
    std::vector<std::string> names;
    for (const std::int64_t t : hwy::SupportedAndGeneratedTargets()) names.emplace_back(hwy::TargetName(t));
    if (pinned) hwy::DisableTargets(pinned);
    return names;
}

bool pin_target(std::string_view name) {
    const std::int64_t before = g_disabled.load();
    if (before) hwy::DisableTargets(0);
    for (const std::int64_t t : hwy::SupportedAndGeneratedTargets()) {
        if (!same_name(hwy::TargetName(t), name)) continue;
        // Highway orders targets best first by their bit: every lower bit is
        // a better target. Disabling those makes `t` the one chosen.
        const std::int64_t better = t - 1;
        hwy::DisableTargets(better);
        g_disabled = better;
        return true;
    }
    if (before) hwy::DisableTargets(before);
    return false;
}

}  // namespace amn::kernels
