// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The SIMD == scalar tests of the kernel families: run a check once per
// Highway target, and find the first element two outputs differ in, bit for
// bit. Header-only: the suites that use it link hwy::hwy.

#include <hwy/targets.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace amn::test {

/// Runs `body(target_name)` once per Highway target compiled in and supported
/// by this CPU (hwy::SupportedAndGeneratedTargets()), with dispatch forced to
/// that target by hwy::SetSupportedTargetsForTest; dispatch is restored
/// (SetSupportedTargetsForTest(0)) before returning.
///
/// `active_target` is the kernel family's own report of the target its
/// HWY_DYNAMIC_DISPATCH picked (e.g. kernels::active_target_name); a target
/// whose dispatch did not switch is a failure, before `body` runs for it.
/// `min_targets`: fewer targets run than this is itself a failure (a suite
/// comparing SIMD with scalar across targets asks for 2).
///
/// Returns the first failure message ("" when every target passed); stops at
/// the first failing target.
inline std::string for_each_target(const char* (*active_target)(),
                                   const std::function<std::string(const std::string&)>& body, int min_targets = 1) {
    std::string failure;
    int ran = 0;
    for (const std::int64_t t : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(t);
        const std::string name = hwy::TargetName(t);
        const std::string active = active_target();
        failure = name != active ? "dispatch did not switch to " + name + " (got " + active + ")" : body(name);
        ++ran;
        if (!failure.empty()) break;
    }
    hwy::SetSupportedTargetsForTest(0);
    if (failure.empty() && ran < min_targets)
        failure = "fewer than " + std::to_string(min_targets) + " Highway targets to compare";
    return failure;
}

/// Index of the first element whose bytes differ between `a` and `b`
/// (bitwise: NaN payloads, signed zeros), -1 when they are identical, 0
/// when the sizes differ.
template <class T>
long first_diff(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return long(i);
    return -1;
}

}  // namespace amn::test
