// SPDX-License-Identifier: MIT OR Apache-2.0
// describe_lora_adapter (lora_adapter.hpp): a PEFT adapter folder's config
// and what its weights hold, for inspect.
#include "anamnesis/lora_adapter.hpp"

#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"
#include "jobs/lora_config.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace amn {

std::optional<double> LoraAdapterInfo::scale() const {
    if (!r || !lora_alpha || *r == 0) return std::nullopt;
    const double rr = static_cast<double>(*r);
    return *lora_alpha / (use_rslora ? std::sqrt(rr) : rr);
}

namespace {

std::optional<std::string> adapter_folder(const Catalog& cat) {
    std::error_code ec;
    const fs::path p(cat.path);
    fs::path dir;
    if (fs::is_directory(p, ec)) dir = p;
    else if (p.filename() == "adapter_model.safetensors" || p.filename() == "adapter_model.bin") dir = p.parent_path();
    else return std::nullopt;
    if (!fs::is_regular_file(dir / "adapter_config.json", ec)) return std::nullopt;
    return dir.string();
}

// The keys of adapter_config.json inspect shows (no checks: read_lora_config's).
void read_config(const std::string& folder, LoraAdapterInfo& info) {
    const arch::HfConfig doc = arch::HfConfig::load((fs::path(folder) / "adapter_config.json").string());
    simdjson::dom::object o;
    if (doc.root().get_object().get(o)) return;  // HfConfig refused it already
    auto text = [&](std::string_view key) {
        std::string_view v;
        return o[key].get_string().get(v) ? std::string() : std::string(v);
    };
    auto flag = [&](std::string_view key) {
        bool b = false;
        return !o[key].get_bool().get(b) && b;
    };
    auto entries = [&](std::string_view key) {
        simdjson::dom::object m;
        return o[key].get_object().get(m) ? std::size_t(0) : m.size();
    };
    auto strings = [&](std::string_view key, std::vector<std::string>& out) {
        simdjson::dom::array a;
        if (o[key].get_array().get(a)) return false;
        for (auto v : a) {
            std::string_view s;
            if (!v.get_string().get(s)) out.emplace_back(s);
        }
        return true;
    };
    info.peft_type = text("peft_type");
    info.task_type = text("task_type");
    info.base_model = text("base_model_name_or_path");
    std::uint64_t r = 0;
    if (!o["r"].get_uint64().get(r)) info.r = r;
    double alpha = 0;
    if (!o["lora_alpha"].get_double().get(alpha)) info.lora_alpha = alpha;
    else if (std::int64_t i = 0; !o["lora_alpha"].get_int64().get(i)) info.lora_alpha = static_cast<double>(i);
    info.use_rslora = flag("use_rslora");
    info.use_dora = flag("use_dora");
    info.rank_pattern = entries("rank_pattern");
    info.alpha_pattern = entries("alpha_pattern");
    if (!strings("target_modules", info.target_modules)) {
        const std::string one = text("target_modules");
        if (!one.empty()) info.target_modules = {one}, info.target_modules_is_string = true;
    }
    strings("modules_to_save", info.modules_to_save);
}

// lora_A/lora_B (and lora_embedding_A/B) pairs by module, from the names (lora_half).
void read_weights(const Catalog& cat, LoraAdapterInfo& info) {
    struct Pair {
        bool a = false, b = false;
        std::uint64_t rank = 0;
    };
    std::map<std::string, Pair> pairs;
    std::size_t members = 0;
    for (const auto& t : cat.tensors) {
        const auto half = detail::lora_half(t.name);
        if (!half) continue;
        auto& p = pairs[std::string(half->module)];
        (half->a ? p.a : p.b) = true;
        if (half->a && !t.shape.empty()) p.rank = t.shape[0];
        ++members;
    }
    info.whole_tensors = cat.tensors.size() - members;
    for (const auto& [stem, p] : pairs) {
        if (!(p.a && p.b)) continue;
        ++info.adapted_modules;
        info.min_rank = info.adapted_modules == 1 ? p.rank : std::min(info.min_rank, p.rank);
        info.max_rank = std::max(info.max_rank, p.rank);
    }
}

}  // namespace

std::optional<LoraAdapterInfo> describe_lora_adapter(const Catalog& cat) {
    const auto folder = adapter_folder(cat);
    if (!folder) return std::nullopt;
    LoraAdapterInfo info;
    info.folder = *folder;
    try {
        read_config(*folder, info);
        detail::read_lora_config(*folder);  // the converter's refusals
    } catch (const Error& e) {
        info.gguf_refusal = e.message();
    } catch (const std::exception& e) {
        info.gguf_refusal = e.what();
    }
    read_weights(cat, info);
    return info;
}

}  // namespace amn
