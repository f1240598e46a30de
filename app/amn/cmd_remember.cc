// SPDX-License-Identifier: MIT OR Apache-2.0
// amn remember: dequantize to safetensors, with a progress bar on a terminal.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/plan.hpp"
#include "cli.hpp"
#include "notice_words.hpp"
#include "progress_bar.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace amn::cli {

namespace {

DType parse_dtype(const std::string& s) {
    if (s == "bf16" || s == "BF16" || s == "bfloat16") return DType::BF16;
    if (s == "f16" || s == "F16" || s == "fp16" || s == "float16") return DType::F16;
    if (s == "f32" || s == "F32" || s == "fp32" || s == "float32") return DType::F32;
    throw UsageError{"--to must be bf16, f16 or f32, not '" + s + "'"};
}

}  // namespace

int cmd_remember(Args& args, bool convert) {
    RememberOptions opt;
    const auto to = args.option("--to");
    if (convert && !to) throw UsageError{"--to is required (safetensors, gguf[:TYPE], bf16, f16 or f32)"};
    if (convert && (*to == "gguf" || to->rfind("gguf:", 0) == 0)) return cmd_convert_gguf(args, *to);
    if (to && !(convert && *to == "safetensors")) opt.to = parse_dtype(*to);
    if (auto o = args.option("-o", "--output")) opt.output = *o;
    if (const unsigned n = parse_threads(args)) opt.threads = n;
    opt.force = args.flag("--force", "-f");
    const auto layout = args.option("--layout");
    if (layout && *layout != "hf" && *layout != "gguf") throw UsageError{"--layout must be hf or gguf, not '" + *layout + "'"};
    const bool hf_layout = layout && *layout == "hf";
    const bool quiet = args.flag("--quiet", "-q");
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};

    const Catalog cat = open_model(pos[0]);
    Plan plan = make_plan(cat);
    // Contradictions between the model's files, and which side was believed.
    for (const auto& wmsg : cat.warnings) std::fprintf(stderr, "amn: warning: %s\n", printable(notice_text(wmsg)).c_str());
    for (const auto& wmsg : plan.warnings) std::fprintf(stderr, "amn: warning: %s\n", printable(notice_text(wmsg)).c_str());
    if (hf_layout && cat.format != Format::Gguf && is_mlx_folder(cat, plan)) {
        // An MLX folder: mlx-lm's switch_mlp stacks back under the Hugging Face expert names.
        plan = mlx_hf_layout(cat, plan);
    } else if (hf_layout) {
        // Hugging Face names, Q/K permutation undone, config.json, tokenizer
        // and generation files beside the output; by default a folder "<stem>-bf16/" transformers can load.
        HfLayout hf = to_hf_layout(cat, plan, opt.to);
        apply_hf_layout(hf, opt);
        plan = std::move(hf.plan);
        for (const auto& wmsg : hf.warnings) std::fprintf(stderr, "amn: warning: %s\n", printable(notice_text(wmsg)).c_str());
        for (const auto& n : hf.notes) std::fprintf(stderr, "amn: note: %s\n", printable(n).c_str());
        if (opt.output.empty()) opt.output = default_hf_layout_output_path(cat, opt.to);
    }

    RememberResult res;
    const double secs = run_with_progress(!quiet, res, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        return remember_to_safetensors(cat, plan, opt, progress, cancel);
    });
    if (!quiet) {
        std::size_t deq = 0;
        for (const auto& lt : plan.tensors) deq += lt.quantized;
        if (opt.side_files_only)
            std::printf("%s the tokenizer of a vocab-only GGUF (no tensors) in %.2f s\n", convert ? "converted" : "remembered", secs);
        else
            std::printf("%s %zu tensor(s) (%zu dequantized) → %s in %.2f s\n", convert ? "converted" : "remembered", res.tensors, deq,
                        human_bytes(res.tensor_bytes).c_str(), secs);
        for (const auto& f : res.files) std::printf("  wrote %s\n", f.c_str());
        // NPY/NPZ/PyTorch catalog notes are values the output leaves out
        // (epoch counters, hyper-parameters, non-array members).
        if (cat.skipped_values > 0)
            std::printf("note: %llu non-tensor value(s) not converted (amn parse lists them)\n",
                        static_cast<unsigned long long>(cat.skipped_values));
    }
    return kOk;
}

}  // namespace amn::cli
