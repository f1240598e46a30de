// SPDX-License-Identifier: MIT OR Apache-2.0
// amn convert DIR --to gguf[:TYPE]: a Hugging Face folder → GGUF, what
// llama.cpp's convert_hf_to_gguf.py writes (its --outtype, --vocab-only,
// --vocab-pre, --split-max-size, --split-max-tensors, --no-tensor-first-split);
// amn convert ADAPTER_DIR --to gguf[:TYPE] --base BASE_DIR: a PEFT LoRA
// adapter → GGUF adapter, what convert_lora_to_gguf.py writes (its --base,
// --outtype, --outfile);
// amn convert X.gguf --to gguf: llama-gguf-split --merge / --split.
#include "anamnesis/catalog.hpp"
#include "anamnesis/gguf_split.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/lora_to_gguf.hpp"
#include "cli.hpp"
#include "gguf_words.hpp"
#include "progress_bar.hpp"

#include <cstdio>
#include <filesystem>

namespace amn::cli {

namespace {

// convert X.gguf --to gguf: llama-gguf-split's --merge (a split set into one
// file) or --split (parts), the tensors' bytes copied as they are.
int split_merge(const Catalog& cat, const std::string& to, const std::string& output, bool force, unsigned threads,
                bool dry_run, bool quiet, const GgufSplitOptions& split) {
    if (to != "gguf")
        throw UsageError{"a GGUF input is merged or split as it is (--to gguf); to change its types use amn forget " +
                         cat.path + " --to gguf:" + to.substr(to.find(':') + 1)};
    GgufSplitJobOptions opt;
    opt.output = output;
    opt.split = split;
    opt.force = force;
    opt.threads = threads;
    const bool merge = !split.any();
    if (dry_run) {
        std::vector<ForgetTensor> tensors;
        const auto files = plan_split_merge_gguf(cat, opt, &tensors);
        std::printf("%s %zu tensor(s) into %zu file(s) (nothing written):\n", merge ? "merge" : "split", tensors.size(), files.size());
        print_gguf_files(files, true);
        return kOk;
    }
    GgufWriteResult res;
    const double secs = run_with_progress(!quiet, res, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        return split_merge_gguf(cat, opt, progress, cancel);
    });
    if (!quiet) {
        std::printf("%s %zu tensor(s) of %zu file(s) into %zu file(s), %s in %.2f s\n", merge ? "merged" : "split",
                    res.tensors.size(), cat.shards.size(), res.files.size(), human_bytes(res.file_bytes).c_str(), secs);
        print_gguf_files(res.files, false);
    }
    return kOk;
}

// Every tensor with its type and why; `lora`: the rules are convert_lora_to_gguf.py's (the same as
// convert_hf_to_gguf's, named after the script that applies them).
void print_dry_run(const std::vector<ForgetTensor>& tensors, bool lora = false) {
    std::size_t wn = 6;
    for (const auto& t : tensors) wn = std::max(wn, t.name.size());
    std::uint64_t bytes = 0;
    for (const auto& t : tensors) {
        std::string why = gguf_reason_text(t);
        if (lora && why.starts_with("convert_hf_to_gguf")) why.replace(0, 18, "convert_lora_to_gguf");
        std::printf("%-*s  %-5s %-18s %s\n", int(wn), t.name.c_str(), dtype_name(t.target).c_str(),
                    shape_to_string(t.shape).c_str(), printable(why).c_str());
        bytes += t.bytes;
    }
    std::printf("%zu tensor(s), %s of tensor data (nothing written)\n", tensors.size(), human_bytes(bytes).c_str());
}

void print_result(const GgufWriteResult& res, double secs) {
    std::size_t deq = 0;
    for (const auto& t : res.tensors) deq += !t.copied;
    std::printf("converted %zu tensor(s) (%zu re-encoded) → %s in %.2f s\n", res.tensors.size(), deq,
                human_bytes(res.file_bytes).c_str(), secs);
    print_gguf_files(res.files, false);
}

// convert ADAPTER_DIR --to gguf[:TYPE] --base BASE_DIR (convert_lora_to_gguf.py).
int convert_lora(const std::string& adapter, const std::string& to, const std::optional<std::string>& base, const HfGgufOptions& hf,
                 bool dry_run, bool quiet) {
    if (hf.mmproj) throw UsageError{"--mmproj is for a multimodal model folder: an adapter has no vision tower"};
    if (hf.vocab_only || hf.vocab_pre || hf.split.any() || hf.no_mtp)
        throw UsageError{"--vocab-only, --vocab-pre, --no-mtp and --split-* are convert_hf_to_gguf's: an adapter has no tokenizer "
                         "and is one file"};
    LoraGgufOptions opt;
    const auto colon = to.find(':');
    opt.outtype = colon == std::string::npos ? "f32" : to.substr(colon + 1);  // convert_lora_to_gguf's default
    opt.base = base.value_or("");
    opt.output = hf.output;
    opt.force = hf.force;
    opt.threads = hf.threads;
    if (dry_run) {
        std::vector<GgufOutputFile> files;
        print_dry_run(plan_lora_gguf(adapter, opt, &files), true);
        print_gguf_files(files, true);
        return kOk;
    }
    GgufWriteResult res;
    const double secs = run_with_progress(!quiet, res, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        return convert_lora_to_gguf(adapter, opt, progress, cancel);
    });
    for (const auto& w : res.warnings) std::fprintf(stderr, "amn: warning: %s\n", printable(gguf_warning_text(w)).c_str());
    if (!quiet) print_result(res, secs);
    return kOk;
}

}  // namespace

int cmd_convert_gguf(Args& args, const std::string& to) {
    HfGgufOptions opt;
    const auto colon = to.find(':');
    opt.outtype = colon == std::string::npos ? "auto" : to.substr(colon + 1);
    if (auto o = args.option("-o", "--output")) opt.output = *o;
    if (auto o = args.option("--outfile")) opt.output = *o;  // convert_hf_to_gguf.py's name
    if (auto v = args.option("--vocab-pre")) opt.vocab_pre = *v;
    opt.vocab_only = args.flag("--vocab-only");
    opt.no_mtp = args.flag("--no-mtp", "--no-nextn");  // convert_hf_to_gguf.py's two names
    opt.mmproj = args.flag("--mmproj");
    if (const unsigned n = parse_threads(args)) opt.threads = n;
    opt.force = args.flag("--force", "-f");
    const bool dry_run = args.flag("--dry-run", "-n");
    const bool quiet = args.flag("--quiet", "-q");
    opt.split = parse_split_options(args, false);
    const auto base = args.option("--base");  // convert_lora_to_gguf.py's
    if (args.option("--base-model-id"))
        throw UsageError{"--base-model-id reads the base's config from the Hugging Face Hub; download its config.json and pass --base DIR"};
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};
    if (is_lora_adapter_dir(pos[0])) return convert_lora(pos[0], to, base, opt, dry_run, quiet);
    // The adapter's weights named instead of its folder.
    if (const auto parent = std::filesystem::path(pos[0]).parent_path();
        std::filesystem::path(pos[0]).filename().string().starts_with("adapter_model.") &&
        is_lora_adapter_dir(parent.empty() ? std::string(".") : parent.string()))
        return convert_lora(parent.empty() ? std::string(".") : parent.string(), to, base, opt, dry_run, quiet);
    if (base) throw UsageError{"--base is for a PEFT adapter folder (adapter_config.json): " + pos[0] + " is not one"};

    const Catalog cat = open_model(pos[0]);
    if (cat.format == Format::Gguf && opt.mmproj)
        throw UsageError{"--mmproj converts a Hugging Face folder's vision tower: " + pos[0] + " is a GGUF"};
    if (cat.format == Format::Gguf) return split_merge(cat, to, opt.output, opt.force, opt.threads, dry_run, quiet, opt.split);
    if (dry_run) {
        std::vector<GgufOutputFile> files;
        const auto tensors = plan_hf_gguf(cat, opt, &files);
        print_dry_run(tensors);
        if (files.size() > 1 || opt.split.any()) print_gguf_files(files, true);
        return kOk;
    }
    GgufWriteResult res;
    const double secs = run_with_progress(!quiet, res, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        return convert_hf_to_gguf(cat, opt, progress, cancel);
    });
    for (const auto& w : res.warnings) std::fprintf(stderr, "amn: warning: %s\n", printable(gguf_warning_text(w)).c_str());
    if (!quiet) print_result(res, secs);
    return kOk;
}

}  // namespace amn::cli
