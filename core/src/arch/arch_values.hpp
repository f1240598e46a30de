// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Private helpers of core/src/arch: config.json values read with Python's
// semantics and turned into gguf-py writer values (add_uint32 / add_float32),
// and the converter's `self.rope_parameters` view.
#include "arch/arch_table.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::arch::detail {

/// A JSON number as Python holds it: an int (bool counts as 0/1, as Python's
/// bool is an int) or a float.
struct PyNum {
    bool is_int = true;
    std::int64_t i = 0;  ///< when is_int (uint64 values above INT64_MAX are refused)
    double d = 0;        ///< the value as a double (float(x))
};

/// `e` as a number. \throws Error{BadJson} "config.json key 'K': expected a number, got …".
PyNum num(simdjson::dom::element e, std::string_view key, const std::string& file);
/// struct.pack('<I', v): an int in [0, 2^32). \throws Error{BadJson} naming the key otherwise.
MetaValue u32(simdjson::dom::element e, std::string_view key, const std::string& file);
MetaValue u32(const PyNum& v, std::string_view key, const std::string& file);
/// struct.pack('<f', v): the double rounded to nearest f32; Error{BadJson} when it overflows to ±inf.
MetaValue f32(simdjson::dom::element e, std::string_view key, const std::string& file);
MetaValue f32(double v, std::string_view key, const std::string& file);
/// An int (bool included). \throws Error{BadJson} naming the key otherwise.
std::int64_t integer(simdjson::dom::element e, std::string_view key, const std::string& file);

/// Error{Malformed} "config.json has no key 'K'" (keys joined with " / " for find_hparam lists).
[[noreturn]] void missing(std::string_view keys, const std::string& file);
/// The value of the first present key of `keys`, non-null; else missing().
simdjson::dom::element required(const HfConfig& cfg, std::initializer_list<std::string_view> keys);
/// find_hparam(keys, optional=True): nullopt when none present or the value is null.
std::optional<simdjson::dom::element> optional_hp(const HfConfig& cfg, std::initializer_list<std::string_view> keys);

/// The converter's `self.rope_parameters` after TextModel.__init__'s mirroring
/// (rope_parameters or rope_scaling, else {}; rope_theta / rope_type (from
/// "type") / partial_rotary_factor / original_max_position_embeddings copied
/// in from the top level when absent and when it has neither
/// "full_attention" nor "sliding_attention"), and `rope_params` =
/// `.get("full_attention", rope_parameters)`.
class RopeParams {
public:
    explicit RopeParams(const HfConfig& cfg);
    /// rope_params.get(key) (nullopt when absent or null).
    std::optional<simdjson::dom::element> get(std::string_view key) const;
    /// rope_params has `key` (null included).
    bool has(std::string_view key) const;
    /// rope_parameters.get(key) on the outer dict (before "full_attention").
    std::optional<simdjson::dom::element> outer(std::string_view key) const;
    /// rope_parameters.get("sliding_attention", {}).get("rope_theta"), mirror included.
    std::optional<simdjson::dom::element> swa_theta() const { return swa_theta_; }
    /// rope_params.get("rope_type") as a string ("" when absent/null).
    /// \throws Error{BadJson} when not a string.
    std::string rope_type() const;

private:
    const HfConfig& cfg_;
    std::optional<simdjson::dom::element> outer_, inner_;  // objects (or none: {})
    struct Mirror {
        std::string_view key;
        simdjson::dom::element value;
    };
    std::vector<Mirror> mirrored_;  // applies to the outer dict
    bool inner_is_outer_ = true;
    std::optional<simdjson::dom::element> swa_theta_;
};

}  // namespace amn::arch::detail
