// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: small helpers shared by forget_st.cc (the pipeline) and
// forget_st_schemes.cc (scheme parsing, names, labels, quantization_config).

#include <optional>
#include <string>

namespace amn::forget_st_internal {

/// The input's config.json (if any) with `quantization_config` = `qc` (raw
/// JSON) in place of any quantization_config / compression_config it had;
/// other keys keep their order and text. \throws Error on invalid JSON.
std::string config_with(const std::optional<std::string>& config_json, const std::string& qc);

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

}  // namespace amn::forget_st_internal
