// SPDX-License-Identifier: MIT OR Apache-2.0
// The variant-wide entry points. Each parameter struct's id() and
// describe() live with its scheme (core/src/plan/schemes/*.cc).
#include "anamnesis/quant_params.hpp"

namespace amn {

std::string scheme_id(const QuantParams& p) {
    return std::visit([](const auto& x) { return x.id(); }, p);
}

std::string describe(const QuantParams& p) {
    return std::visit([](const auto& x) { return x.describe(); }, p);
}

}  // namespace amn
