// SPDX-License-Identifier: MIT OR Apache-2.0
// read_lora_config (lora_config.hpp): adapter_config.json as
// convert_lora_to_gguf.py reads it, checked.
#include "jobs/lora_config.hpp"

#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"

#include <filesystem>
#include <utility>

namespace fs = std::filesystem;

namespace amn::detail {

LoraConfig read_lora_config(const std::string& adapter_dir) {
    const std::string path = (fs::path(adapter_dir) / "adapter_config.json").string();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw Error(ErrorCode::Io,
                    "no adapter_config.json: a PEFT LoRA adapter folder holds adapter_config.json and adapter_model.safetensors",
                    adapter_dir);
    const arch::HfConfig doc = arch::HfConfig::load(path);
    simdjson::dom::object o;
    if (doc.root().get_object().get(o)) throw Error(ErrorCode::BadJson, "not a JSON object", path);
    LoraConfig c;
    auto field = [&](std::string_view key) -> std::optional<simdjson::dom::element> {
        simdjson::dom::element e;
        if (o.at_key(key).get(e)) return std::nullopt;
        return e;
    };
    if (auto e = field("peft_type"); e && !e->is_null()) {
        std::string_view t;
        if (e->get_string().get(t) || t != "LORA")
            throw Error(ErrorCode::Unsupported,
                        "peft_type is " + std::string(simdjson::to_string(*e)) + ": only LoRA adapters (\"LORA\") have a GGUF form",
                        path);
    }
    if (auto e = field("use_dora"); e && e->is_bool() && bool(*e))
        throw Error(ErrorCode::Unsupported,
                    "use_dora is true: DoRA adapters (lora_magnitude_vector) have no GGUF form (convert_lora_to_gguf refuses them)",
                    path);
    if (auto e = field("alpha_pattern"); e && e->is_object() && simdjson::dom::object(*e).size() > 0)
        throw Error(ErrorCode::Unsupported,
                    "alpha_pattern is not empty: a GGUF adapter holds one adapter.lora.alpha for every tensor", path);
    if (auto e = field("use_rslora"); e && e->is_bool() && bool(*e))
        c.warnings.push_back("use_rslora is true: PEFT scales by lora_alpha/sqrt(r), llama.cpp by lora_alpha/r "
                             "(written as convert_lora_to_gguf writes it)");
    const auto alpha = field("lora_alpha");
    if (!alpha) throw Error(ErrorCode::BadJson, "no key 'lora_alpha'", path);
    if (alpha->is_int64()) c.alpha = static_cast<float>(static_cast<double>(std::int64_t(*alpha)));
    else if (alpha->is_uint64()) c.alpha = static_cast<float>(static_cast<double>(std::uint64_t(*alpha)));
    else if (alpha->is_double()) c.alpha = static_cast<float>(double(*alpha));
    else throw Error(ErrorCode::BadJson, "key 'lora_alpha': expected a number, got " + std::string(simdjson::to_string(*alpha)), path);
    if (auto e = field("alora_invocation_tokens"); e && !e->is_null()) {
        simdjson::dom::array a;
        if (e->get_array().get(a)) throw Error(ErrorCode::BadJson, "key 'alora_invocation_tokens': expected a list of token ids", path);
        std::vector<std::uint32_t> ids;
        for (auto v : a) {
            std::int64_t i = 0;
            if (v.get_int64().get(i) || i < 0 || i > 0xFFFFFFFFll)
                throw Error(ErrorCode::BadJson, "key 'alora_invocation_tokens': expected token ids (0 … 2^32-1)", path);
            ids.push_back(static_cast<std::uint32_t>(i));
        }
        if (!ids.empty()) c.alora_tokens = std::move(ids);
    }
    if (!c.alora_tokens)
        if (auto e = field("invocation_string"); e && e->is_string() && !std::string_view(*e).empty())
            throw Error(ErrorCode::Unsupported,
                        "invocation_string without alora_invocation_tokens: tokenizing it needs the base's tokenizer "
                        "(give the token ids as alora_invocation_tokens)",
                        path);
    if (auto e = field("base_model_name_or_path"); e && e->is_string()) c.base_name_or_path = std::string(std::string_view(*e));
    return c;
}


std::optional<LoraHalf> lora_half(std::string_view name) noexcept {
    static constexpr std::pair<std::string_view, bool> kTags[] = {
        {".lora_A.weight", true}, {".lora_B.weight", false}, {".lora_embedding_A", true}, {".lora_embedding_B", false}};
    for (const auto& [tag, a] : kTags)
        if (const auto at = name.find(tag); at != std::string_view::npos) return LoraHalf{name.substr(0, at), a};
    return std::nullopt;
}

}  // namespace amn::detail
