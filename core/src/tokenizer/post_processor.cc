// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tokenizer/post_processor.hpp"

#include "anamnesis/error.hpp"
#include "util/json_dom.hpp"
#include "tokenizer/json_fields.hpp"

namespace amn::tok {
namespace {

std::uint32_t pair_id(simdjson::dom::element e, std::string_view key, const std::string& file) {
    // Roberta/Bert: "sep": ["</s>", 2]
    auto m = detail::json_get(e, key);
    simdjson::dom::array a;
    std::int64_t id;
    if (!m || m->get(a) || a.size() != 2 || a.at(1).get(id) || id < 0 || id > UINT32_MAX)
        throw Error(ErrorCode::BadJson, "post_processor: \"" + std::string(key) + "\" must be [token, id]", file);
    return static_cast<std::uint32_t>(id);
}

}  // namespace

PostProcessor parse_post_processor(simdjson::dom::element e, const std::string& file) {
    PostProcessor p;
    p.type = required_type(e, "post_processor", file);
    const std::string& t = p.type;
    using K = PostProcessor::Kind;
    if (t == "Sequence") {
        p.kind = K::Sequence;
        for (auto c : required_array(e, "processors", "post_processor Sequence", file))
            p.children.push_back(parse_post_processor(c, file));
    } else if (t == "ByteLevel") {
        p.kind = K::ByteLevel;
    } else if (t == "RobertaProcessing" || t == "BertProcessing") {
        p.kind = t == "RobertaProcessing" ? K::Roberta : K::Bert;
        p.cls_id = pair_id(e, "cls", file);
        p.sep_id = pair_id(e, "sep", file);
    } else if (t == "TemplateProcessing") {
        p.kind = K::Template;
        auto specials = detail::json_get(e, "special_tokens");
        for (auto item : required_array(e, "single", "post_processor TemplateProcessing", file)) {
            PostProcessor::Item it;
            if (auto seq = detail::json_get(item, "Sequence")) {
                it.is_sequence = true;
            } else if (auto sp = detail::json_get(item, "SpecialToken")) {
                const std::string name = required_string(*sp, "id", "TemplateProcessing SpecialToken", file);
                std::optional<simdjson::dom::element> def;
                if (specials) def = detail::json_get(*specials, name);
                if (!def)
                    throw Error(ErrorCode::BadJson,
                                "post_processor TemplateProcessing: special token \"" + name + "\" is not in special_tokens", file);
                for (auto id : required_array(*def, "ids", "TemplateProcessing special_tokens", file)) {
                    std::int64_t v;
                    if (id.get(v) || v < 0 || v > UINT32_MAX)
                        throw Error(ErrorCode::BadJson, "post_processor TemplateProcessing: ids of \"" + name + "\"", file);
                    it.ids.push_back(static_cast<std::uint32_t>(v));
                }
            } else {
                throw Error(ErrorCode::BadJson, "post_processor TemplateProcessing: an item is neither Sequence nor SpecialToken",
                            file);
            }
            p.single.push_back(std::move(it));
        }
    } else {
        throw Error(ErrorCode::Unsupported, "post_processor type \"" + t + "\" is not supported", file);
    }
    return p;
}

std::vector<std::uint32_t> PostProcessor::apply(std::vector<std::uint32_t> ids, bool add_special_tokens) const {
    if (!add_special_tokens && kind != Kind::Sequence) return ids;
    switch (kind) {
        case Kind::Sequence:
            for (const PostProcessor& c : children) ids = c.apply(std::move(ids), add_special_tokens);
            return ids;
        case Kind::ByteLevel: return ids;
        case Kind::Roberta:
        case Kind::Bert: {
            std::vector<std::uint32_t> out;
            out.reserve(ids.size() + 2);
            out.push_back(cls_id);
            out.insert(out.end(), ids.begin(), ids.end());
            out.push_back(sep_id);
            return out;
        }
        case Kind::Template: {
            std::vector<std::uint32_t> out;
            for (const Item& it : single) {
                if (it.is_sequence) out.insert(out.end(), ids.begin(), ids.end());
                else out.insert(out.end(), it.ids.begin(), it.ids.end());
            }
            return out;
        }
    }
    return ids;
}

}  // namespace amn::tok
