// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: small helpers shared by forget_st.cc (the pipeline) and
// forget_st_schemes.cc (scheme parsing, names, labels, quantization_config).

namespace amn::forget_st_internal {

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

}  // namespace amn::forget_st_internal
