// SPDX-License-Identifier: MIT OR Apache-2.0
// amn inspect of a PEFT adapter folder (lora_adapter.hpp): what it adapts,
// how strongly, and whether it becomes a GGUF adapter.
#include "anamnesis/json_writer.hpp"
#include "cli.hpp"

#include <cstdio>
#include <string>

namespace amn::cli {

namespace {

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

}  // namespace

void print_adapter_facts(const LoraAdapterInfo& a) {
    std::string head = "PEFT " + (a.peft_type.empty() ? std::string("adapter") : a.peft_type);
    if (a.r) head += ", rank " + std::to_string(*a.r);
    if (a.adapted_modules && (a.min_rank != a.max_rank || (a.r && *a.r != a.min_rank)))
        head += a.min_rank == a.max_rank ? " (" + std::to_string(a.min_rank) + " in the weights)"
                                         : " (" + std::to_string(a.min_rank) + "–" + std::to_string(a.max_rank) + " per module)";
    if (a.lora_alpha) head += ", alpha " + number(*a.lora_alpha);
    if (const auto s = a.scale()) head += ", scale " + number(*s) + (a.use_rslora ? " (alpha/√r: rsLoRA)" : " (alpha/r)");
    if (a.use_dora) head += ", DoRA";
    if (!a.task_type.empty()) head += ", " + a.task_type;
    std::printf("  adapter       %s\n", printable(head).c_str());
    if (a.rank_pattern || a.alpha_pattern)
        std::printf("  adapter note  per-module overrides: %zu rank(s), %zu alpha(s)\n", a.rank_pattern, a.alpha_pattern);
    std::string targets = a.target_modules.empty() ? std::string("none named")
                          : a.target_modules_is_string ? "\"" + a.target_modules[0] + "\""
                                                        : joined(a.target_modules);
    std::printf("  targets       %s — %zu adapted module(s)", printable(targets).c_str(), a.adapted_modules);
    if (a.whole_tensors) std::printf(", %zu tensor(s) saved whole", a.whole_tensors);
    std::printf("\n");
    if (!a.modules_to_save.empty()) std::printf("  saved whole   %s\n", printable(joined(a.modules_to_save)).c_str());
    if (!a.base_model.empty()) std::printf("  base model    %s\n", printable(a.base_model).c_str());
    if (a.gguf_refusal.empty())
        std::printf("  GGUF          a LoRA adapter: amn convert %s --to gguf --base BASE_DIR\n", printable(a.folder).c_str());
    else
        std::printf("  GGUF          not possible: %s\n", printable(a.gguf_refusal).c_str());
}

void write_adapter_json(amn::JsonWriter& w, const LoraAdapterInfo& a) {
    w.key("adapter").begin_object();
    w.key("peft_type").value(a.peft_type);
    w.key("task_type").value(a.task_type);
    w.key("base_model").value(a.base_model);
    w.key("r");
    if (a.r) w.value(*a.r);
    else w.null();
    w.key("lora_alpha");
    if (a.lora_alpha) w.value(*a.lora_alpha);
    else w.null();
    w.key("scale");
    if (const auto s = a.scale()) w.value(*s);
    else w.null();
    w.key("use_rslora").value(a.use_rslora);
    w.key("use_dora").value(a.use_dora);
    w.key("rank_pattern").value(static_cast<std::uint64_t>(a.rank_pattern));
    w.key("alpha_pattern").value(static_cast<std::uint64_t>(a.alpha_pattern));
    w.key("target_modules").begin_array();
    for (const auto& t : a.target_modules) w.value(t);
    w.end_array();
    w.key("target_modules_is_string").value(a.target_modules_is_string);
    w.key("modules_to_save").begin_array();
    for (const auto& t : a.modules_to_save) w.value(t);
    w.end_array();
    w.key("adapted_modules").value(static_cast<std::uint64_t>(a.adapted_modules));
    w.key("min_rank").value(a.min_rank);
    w.key("max_rank").value(a.max_rank);
    w.key("whole_tensors").value(static_cast<std::uint64_t>(a.whole_tensors));
    w.key("gguf_refusal").value(a.gguf_refusal);
    w.end_object();
}

}  // namespace amn::cli
