// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal simdjson helpers (on-demand API).
#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"

#include <simdjson.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// Throw Error{BadJson} with simdjson's message when `e` is an error.
void check_json(simdjson::error_code e, std::string_view what, const std::string& file = {},
                const std::string& tensor = {});

/// A JSON object read on demand: `text` copied into a padded buffer and
/// iterated once, by a parser this object owns or by the caller's `parser`
/// (a thread_local one reused for many small documents). The one way the
/// core opens an on-demand document: config.json and the quantization
/// configs, safetensors headers and index.json, ollama manifests,
/// bitsandbytes quant_state blobs. Keys and strings read from root() point
/// into the buffers: they stay valid while this object lives.
class OnDemandObject {
public:
    /// \throws Error{BadJson} "<invalid>: <simdjson message>" when `text` does
    ///         not begin a JSON document, "<not_object>: <message>" when it is
    ///         not an object; both naming `file` and `tensor`.
    OnDemandObject(std::string_view text, std::string_view invalid, std::string_view not_object,
                   const std::string& file = {}, const std::string& tensor = {},
                   simdjson::ondemand::parser* parser = nullptr);
    OnDemandObject(const OnDemandObject&) = delete;
    OnDemandObject& operator=(const OnDemandObject&) = delete;

    /// The top-level object, to iterate once.
    simdjson::ondemand::object& root() noexcept { return root_; }
    /// The document (its position after root() is read: trailing bytes).
    simdjson::ondemand::document& document() noexcept { return doc_; }

private:
    simdjson::padded_string json_;
    std::unique_ptr<simdjson::ondemand::parser> own_;
    simdjson::ondemand::document doc_;
    simdjson::ondemand::object root_;
};

/// Raw JSON text of any on-demand value (object/array: whole text; scalar: token, trimmed).
std::string_view raw_text(simdjson::ondemand::value v, const std::string& file);

/// Flatten an object into dotted keys → scalar text (strings unquoted and
/// unescaped, numbers/booleans as written, null as "null"; array elements
/// as key.N). Depth-limited. Duplicate keys → Error{BadJson}, unless `dups`
/// is given: then a repeated key's LAST value wins, as in Python's `json`
/// (its earlier value, with everything flattened under it, is replaced), and
/// the dotted key is appended to `*dups` once per repetition.
void flatten_object(simdjson::ondemand::object obj, const std::string& prefix,
                    std::map<std::string, std::string>& out, const std::string& file, int depth = 0,
                    std::vector<std::string>* dups = nullptr);

/// Parse `text` completely (every value, UTF-8, nothing trailing) and throw
/// Error{BadJson} naming `file` when it is not one valid JSON document.
/// On-demand parsing reads only what it asks for; companion files whose
/// content ends up in the output (config.json) are checked whole up front.
void validate_json_document(std::string_view text, const std::string& file);

/// Copy the top-level members of the `config.json` text `config_json` into
/// `w` (inside an object the caller has begun), in file order, each value's
/// JSON text unchanged (raw_text), except:
/// - `quantization_config`, `compression_config` and an object-valued
///   `quantization` (MLX's, mlx-lm `save_config`), dropped (the caller
///   writes the output's own, or none: remember's output is not quantized);
/// - the members for which `replace(key)` returns a value: written at their
///   place with that JSON text as the value (remember's `torch_dtype`/`dtype`).
/// A repeated key is written once, at its first place with its last value
/// (Python's json.load + json.dump); `replace` is asked at its first place
/// only, and its answer is the value whatever the later repetitions hold.
/// Used for the config.json of remember (rewrite_config_json, remember.cc)
/// and of forget to a safetensors scheme (forget_st_internal::config_with).
/// \throws Error{BadJson} "config.json is not valid JSON" / "config.json is
///         not a JSON object" / "config.json: invalid key|value" (with
///         simdjson's message) when the text is not a JSON object.
void write_config_members(std::string_view config_json, JsonWriter& w,
                          const std::function<std::optional<std::string>(const std::string& key)>& replace = {});

}  // namespace amn::detail
