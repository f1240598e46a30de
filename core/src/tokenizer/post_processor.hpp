// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// tokenizer.json `post_processor` (processors/*.rs) for one sequence: the
// special tokens `encode(text, add_special_tokens=True)` adds around the ids
// (Llama 3's TemplateProcessing puts <|begin_of_text|> first). ByteLevel
// only trims offsets, which are not kept here, so it changes no id.
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <vector>

namespace amn::tok {

struct PostProcessor {
    enum class Kind : std::uint8_t { Sequence, ByteLevel, Template, Roberta, Bert };
    Kind kind = Kind::Sequence;
    std::string type;                     ///< the JSON `type` as written
    std::vector<PostProcessor> children;  ///< Sequence: `processors`
    /// Template: `single`, each item a special token's ids or (empty, is_sequence) the text.
    struct Item {
        bool is_sequence = false;
        std::vector<std::uint32_t> ids;
    };
    std::vector<Item> single;
    std::uint32_t cls_id = 0, sep_id = 0;  ///< Roberta / Bert: `cls`, `sep` ids

    /// The ids of one encoded sequence after post-processing
    /// (`PostProcessor::process` with no pair). Without `add_special_tokens`
    /// the ids are returned unchanged.
    std::vector<std::uint32_t> apply(std::vector<std::uint32_t> ids, bool add_special_tokens) const;
};

/// Parse a tokenizer.json post_processor object. \throws Error{Unsupported}
/// for an unknown type, Error{BadJson} for a malformed one (e.g. a template
/// naming a special token not in `special_tokens`).
PostProcessor parse_post_processor(simdjson::dom::element e, const std::string& file);

}  // namespace amn::tok
