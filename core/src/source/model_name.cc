// SPDX-License-Identifier: MIT OR Apache-2.0
// The model name a config.json records (model_name.hpp).
#include "anamnesis/model_name.hpp"

#include "util/json_dom.hpp"
#include "util/json_util.hpp"

#include <simdjson.h>

namespace amn {

std::optional<std::string> config_name_or_path(const Catalog& catalog) {
    if (!catalog.config_json) return std::nullopt;
    try {
        const detail::JsonDoc doc(*catalog.config_json, catalog.config_path, "config.json");
        const auto v = detail::json_get(doc.root(), "_name_or_path");  // the last one, as Python's json reads it
        std::string_view value;
        if (!v || v->get_string().get(value) != simdjson::SUCCESS) return std::nullopt;
        return std::string(value);
    } catch (...) {
    }
    return std::nullopt;
}

}  // namespace amn
