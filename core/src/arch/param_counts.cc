// SPDX-License-Identifier: MIT OR Apache-2.0
// ParamCounter (gguf-py GGUFWriter.get_total_parameter_count), the output
// type text and the default file name (conversion/base.py
// TextModel.prepare_metadata).
#include "anamnesis/error.hpp"
#include "arch/general_kvs.hpp"
#include "arch/model_naming.hpp"

#include <vector>

namespace amn::arch {

void ParamCounter::add(std::string_view name, std::span<const std::uint64_t> ne) {
    if (bail_) return;
    auto ends_with = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
    };
    if (ends_with(".lora_a")) {
        have_lora_a_ = true;
        lora_a_name_ = std::string(name);
        lora_a_ne0_ = ne.empty() ? 1 : ne[0];  // numpy shape[-1]
        return;
    }
    std::vector<std::uint64_t> dims(ne.begin(), ne.end());
    if (ends_with(".lora_b")) {
        if (!have_lora_a_ || lora_a_name_ != std::string(name.substr(0, name.size() - 1)) + "a") {
            // gguf-py: "can't measure LoRA size correctly, tensor order is unusual" → all zero
            bail_ = true;
            return;
        }
        // shape = (*shape[:-1], lora_a.shape[-1])
        if (dims.empty()) dims.push_back(lora_a_ne0_);
        else dims[0] = lora_a_ne0_;
    }
    std::int64_t size = 1;
    for (std::uint64_t d : dims) size *= static_cast<std::int64_t>(d);
    if (name.find("_exps.") != std::string_view::npos && dims.size() >= 3) {
        // numpy shape[-3] (shape[-2] for a bias) = ne[2] (ne[1])
        const auto n_expert = static_cast<std::int64_t>(name.find(".bias") != std::string_view::npos ? dims[1] : dims[2]);
        if (n_expert > 0) expert_ += size / n_expert;
        expert_sum_ += n_expert;
        ++n_expert_tensors_;
    } else {
        shared_ += size;
    }
    total_ += size;
}

ParamCounts ParamCounter::counts() const noexcept {
    if (bail_) return {};
    ParamCounts c;
    c.total = have_lora_a_ ? -total_ : total_;
    c.shared = shared_;
    c.expert = expert_;
    c.expert_count = n_expert_tensors_ > 0 ? expert_sum_ / n_expert_tensors_ : 0;
    return c;
}

std::string default_gguf_name(const GeneralNaming& n, std::string_view output_type, const ParamCounts& params) {
    auto need_string = [&](const char* field) {
        if (n.non_string.count(field))
            throw Error(ErrorCode::Unsupported,
                        std::string("README.md: `") + field +
                            "` is not a string: the converter cannot build a default file name from it (give -o)");
    };
    need_string("basename");
    if (!n.basename) need_string("name");
    need_string("finetune");
    need_string("version");
    return naming_convention(n.name, n.basename, n.finetune, n.version, n.size_label, std::string(output_type),
                             params.total < 0 ? std::optional<std::string>("LoRA") : std::nullopt) +
           ".gguf";
}

}  // namespace amn::arch
