// SPDX-License-Identifier: MIT OR Apache-2.0
// amn forget (alias quantize): quantize to GGUF as llama-quantize does, or
// to the safetensors schemes transformers/vLLM load (bitsandbytes,
// compressed-tensors, DeepSeek FP8), and report what each tensor lost.
#include "anamnesis/catalog.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/plan.hpp"
#include "cli.hpp"
#include "gguf_words.hpp"
#include "notice_words.hpp"
#include "progress_bar.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace amn::cli {

namespace {

DType parse_type_option(const std::string& flag, const std::string& v) {
    if (const auto t = parse_ggml_type(v)) return *t;
    throw UsageError{flag + ": unknown ggml type '" + v + "' (e.g. Q4_K, Q6_K, Q8_0, F16)"};
}

// SQNR rule (core loss_sums.hpp): +inf = nothing lost, −inf = an error over an all-zero signal.
std::string db_text(double db) {
    if (std::isinf(db)) return db > 0 ? "exact" : "-inf dB";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f dB", db);
    return b;
}

// Why forget to safetensors kept a tensor, after "kept: ".
const char* kept_text(StRule r) {
    switch (r) {
        case StRule::Quantized: break;
        case StRule::KeptOneD: return "1-D";
        case StRule::KeptFusedExperts:
            return "fused 3-D experts (not nn.Linear weights: neither transformers' bitsandbytes nor llm-compressor "
                   "quantizes them)";
        case StRule::KeptNot2D: return "not 2-D";
        case StRule::KeptNotWeight: return "not a weight";
        case StRule::KeptEmpty: return "empty";
        case StRule::KeptNotFloat: return "not float";
        case StRule::KeptByKeep: return "--keep";
        case StRule::KeptNotMatchedByOnly: return "not matched by --only";
        case StRule::KeptConv1D: return "Conv1D (llm-compressor quantizes nn.Linear only)";
        case StRule::KeptEmbedding: return "embedding";
        case StRule::KeptNorm: return "norm";
        case StRule::KeptLmHead: return "lm_head";
        case StRule::KeptRouter: return "router";
        case StRule::KeptNotBlockLinear: return "not a block Linear";
        case StRule::KeptGroupSize: return "the group size does not divide its rows";
    }
    return "";
}

// The report's "why" of a tensor: llama-quantize's rule for a GGUF target; for a
// safetensors scheme "quantized: <label>" or "kept: <why>" (+ " (decoded to
// BF16)" for an already-quantized tensor decoded under --requantize).
std::string reason_text(const ForgetTensor& t, const std::string& label) {
    const std::string repack = repack_text(t);
    if (!t.st_rule) return gguf_reason_text(t) + (repack.empty() ? "" : "; " + repack);
    if (*t.st_rule == StRule::Quantized) return "quantized: " + label + (repack.empty() ? "" : "; " + repack);
    return std::string("kept: ") + kept_text(*t.st_rule) + (t.copied ? "" : " (decoded to BF16)");
}

bool is_quantized(const ForgetTensor& t) { return t.st_rule == StRule::Quantized; }

// The per-tensor keys both forget reports share: identity, then (after
// what the caller adds) the sizes, then the measured loss.
void tensor_json_head(JsonWriter& w, const ForgetTensor& t) {
    w.key("name").value(t.name);
    w.key("shape").begin_array();
    for (auto d : t.shape) w.value(d);
    w.end_array();
    w.key("source").value(dtype_name(t.source));
    w.key("type").value(dtype_name(t.target));
}
void tensor_json_sizes(JsonWriter& w, const ForgetTensor& t, const std::string& label) {
    w.key("reason").value(reason_text(t, label));
    w.key("bytes").value(t.bytes);
    w.key("bits_per_weight").value(t.bits_per_weight());
    w.key("copied").value(t.copied);
    if (t.repack != Repack::None) w.key("repack").value(repack_id(t.repack));
}
// Writes the loss keys and adds the tensor's sums (and finite pairs) to the totals.
void tensor_json_loss(JsonWriter& w, const ForgetTensor& t, double& sse, double& sx2, std::uint64_t& pairs) {
    w.key("rmse").value(t.rmse);
    w.key("max_abs").value(t.max_abs);
    if (std::isinf(t.sqnr_db)) w.key("sqnr_db").null();
    else w.key("sqnr_db").value(t.sqnr_db);
    sse += t.sum_sq_error;
    sx2 += t.sum_sq_signal;
    pairs += t.loss_pairs;
}
void totals_json(JsonWriter& w, std::uint64_t bytes, std::uint64_t numel) {
    w.key("tensor_bytes").value(bytes);
    w.key("parameters").value(numel);
    w.key("bits_per_weight").value(numel ? static_cast<double>(bytes) * 8.0 / static_cast<double>(numel) : 0.0);
}
// The totals over every measured tensor: RMSE over their finite pairs, SQNR of the sums.
void loss_totals_json(JsonWriter& w, double sse, double sx2, std::uint64_t pairs) {
    w.key("rmse").value(pairs ? std::sqrt(sse / static_cast<double>(pairs)) : 0.0);
    if (sse > 0) w.key("sqnr_db").value(10.0 * std::log10(sx2 / sse));
    else w.key("sqnr_db").null();
}

void write_json(const GgufWriteResult* res, const std::vector<ForgetTensor>& tensors, const std::string& input,
                const std::string& ftype, const std::vector<GgufOutputFile>* files) {
    JsonWriter w(2);
    w.begin_object();
    w.key("input").value(input);
    w.key("ftype").value(ftype);
    if (res) w.key("file").value(res->file).key("file_bytes").value(res->file_bytes);
    if (files) write_gguf_files_json(w, *files);
    std::uint64_t bytes = 0, numel = 0, pairs = 0;
    double sse = 0, sx2 = 0;
    w.key("tensors").begin_array();
    for (const auto& t : tensors) {
        bytes += t.bytes;
        numel += t.numel;
        w.begin_object();
        tensor_json_head(w, t);
        tensor_json_sizes(w, t, ftype);
        if (files && files->size() > 1) w.key("part").value(static_cast<std::uint64_t>(t.part));
        if (res && !t.copied) tensor_json_loss(w, t, sse, sx2, pairs);
        w.end_object();
    }
    w.end_array();
    totals_json(w, bytes, numel);
    if (res) {
        loss_totals_json(w, sse, sx2, pairs);
        w.key("warnings").begin_array();
        for (const auto& s : res->warnings) w.value(gguf_warning_text(s));
        w.end_array();
    }
    w.end_object();
    std::printf("%s\n", w.str().c_str());
}

// `label`: the file type or scheme label, for the safetensors reasons.
void print_table(const std::vector<ForgetTensor>& tensors, bool measured, const std::string& label) {
    std::size_t wn = 6;
    for (const auto& t : tensors) wn = std::max(wn, t.name.size());
    if (measured)
        std::printf("%-*s  %-7s %6s  %10s  %10s  %9s\n", int(wn), "tensor", "type", "bpw", "RMSE", "max abs", "SQNR");
    else
        std::printf("%-*s  %-7s %6s  %s\n", int(wn), "tensor", "type", "bpw", "why");
    for (const auto& t : tensors) {
        const std::string type = dtype_name(t.target);
        if (measured && !t.copied)
            std::printf("%-*s  %-7s %6.2f  %10.3g  %10.3g  %9s\n", int(wn), t.name.c_str(), type.c_str(), t.bits_per_weight(),
                        t.rmse, t.max_abs, db_text(t.sqnr_db).c_str());
        else if (measured)
            std::printf("%-*s  %-7s %6.2f  %10s  %10s  %9s\n", int(wn), t.name.c_str(), type.c_str(), t.bits_per_weight(), "-",
                        "-", t.repack == Repack::Lossless ? "repacked" : "copied");
        else
            std::printf("%-*s  %-7s %6.2f  %s\n", int(wn), t.name.c_str(), type.c_str(), t.bits_per_weight(),
                        reason_text(t, label).c_str());
    }
}


unsigned parse_uint_option(const std::string& flag, const std::string& v) {
    try {
        std::size_t used = 0;
        const unsigned long n = std::stoul(v, &used);
        if (used != v.size() || n > 1u << 20) throw 0;
        return static_cast<unsigned>(n);
    } catch (...) {
        throw UsageError{flag + " must be a number, not '" + v + "'"};
    }
}

void write_st_json(const StForgetResult* res, const std::vector<ForgetTensor>& tensors, const std::string& input,
                   const std::string& scheme) {
    JsonWriter w(2);
    w.begin_object();
    w.key("input").value(input);
    w.key("scheme").value(scheme);
    if (res) {
        w.key("files").begin_array();
        for (const auto& f : res->files) w.value(f);
        w.end_array();
        w.key("file_bytes").value(res->file_bytes);
    }
    std::uint64_t bytes = 0, numel = 0, qnumel = 0, qbytes = 0, pairs = 0;
    double sse = 0, sx2 = 0;
    w.key("tensors").begin_array();
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const auto& t = tensors[i];
        const bool quantized = is_quantized(t);
        bytes += t.bytes;
        numel += t.numel;
        if (quantized) qnumel += t.numel, qbytes += t.bytes;
        w.begin_object();
        tensor_json_head(w, t);
        w.key("quantized").value(quantized);
        tensor_json_sizes(w, t, scheme);
        if (res && i < res->stored.size()) {
            w.key("stored").begin_array();
            for (const auto& n : res->stored[i]) w.value(n);
            w.end_array();
        }
        if (res && quantized) tensor_json_loss(w, t, sse, sx2, pairs);
        w.end_object();
    }
    w.end_array();
    totals_json(w, bytes, numel);
    w.key("quantized_parameters").value(qnumel);
    w.key("quantized_bits_per_weight").value(qnumel ? static_cast<double>(qbytes) * 8.0 / static_cast<double>(qnumel) : 0.0);
    if (res) {
        loss_totals_json(w, sse, sx2, pairs);
        w.key("nonfinite").value(res->nonfinite);
        w.key("kept").begin_array();
        for (const auto& k : res->kept) w.value(k);
        w.end_array();
        w.key("quantization_config").raw(res->quantization_config);
        w.key("warnings").begin_array();
        for (const auto& s : res->warnings) w.value(notice_text(s));
        w.end_array();
    }
    w.end_object();
    std::printf("%s\n", w.str().c_str());
}

// --to SCHEME (a safetensors scheme).
int cmd_forget_st(Args& args, const std::string& scheme_name) {
    StSchemeOptions so;
    if (auto v = args.option("--blocksize")) so.blocksize = parse_uint_option("--blocksize", *v);
    so.double_quant = args.flag("--double-quant");
    if (auto v = args.option("--granularity")) so.granularity = parse_fp8_granularity(*v);
    so.ue8m0 = args.flag("--ue8m0");
    if (auto v = args.option("--group-size")) so.group_size = *v == "channel" ? 0u : parse_uint_option("--group-size", *v);
    StForgetOptions opt;
    opt.scheme = parse_st_scheme(scheme_name, so);  // a named error (exit 1) for an unknown scheme or option
    if (auto o = args.option("-o", "--output")) opt.output = *o;
    while (auto v = args.option("--keep")) opt.keep.push_back(*v);
    while (auto v = args.option("--only")) opt.only.push_back(*v);
    opt.requantize = args.flag("--requantize");
    if (auto v = args.option("--dtype")) {
        // mlx_lm.convert's --dtype choices.
        if (*v == "float16") opt.dtype = DType::F16;
        else if (*v == "bfloat16") opt.dtype = DType::BF16;
        else if (*v == "float32") opt.dtype = DType::F32;
        else throw UsageError{"--dtype must be float16, bfloat16 or float32, not '" + *v + "'"};
    }
    if (auto v = args.option("--quant-predicate")) {
        // mlx_lm.convert's recipes (QUANT_RECIPES); it passes --q-group-size unresolved.
        if (*v != "mixed_2_6" && *v != "mixed_3_4" && *v != "mixed_3_6" && *v != "mixed_4_6")
            throw UsageError{"--quant-predicate must be mixed_2_6, mixed_3_4, mixed_3_6 or mixed_4_6, not '" + *v + "'"};
        opt.quant_predicate = *v;
        if (so.group_size) opt.quant_predicate_group_size = *so.group_size;
    }
    opt.threads = parse_threads(args);
    opt.force = args.flag("--force", "-f");
    const bool json = args.flag("--json");
    const bool report = args.flag("--report");
    const bool dry_run = args.flag("--dry-run", "-n");
    const bool quiet = args.flag("--quiet", "-q");
    // The loss is measured only when it is shown (--report, --json): the same files either way.
    opt.measure_loss = report || json;
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};
    const std::string label = st_scheme_label(opt.scheme);

    const Catalog cat = open_model(pos[0]);
    const Plan plan = make_plan(cat);
    if (dry_run) {
        const auto tensors = plan_st_forget(cat, plan, opt);
        if (json) {
            write_st_json(nullptr, tensors, pos[0], label);
        } else {
            print_table(tensors, false, label);
            std::uint64_t bytes = 0, numel = 0;
            std::size_t q = 0;
            for (const auto& t : tensors) bytes += t.bytes, numel += t.numel, q += !t.copied || t.repack == Repack::Lossless;
            std::printf("%s: %zu tensor(s), %zu quantized, about %s of tensor data (nothing written)\n", label.c_str(),
                        tensors.size(), q, human_bytes(bytes).c_str());
        }
        return kOk;
    }

    StForgetResult res;
    const double secs = run_with_progress(!quiet && !json, res, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        return forget_to_safetensors(cat, plan, opt, progress, cancel);
    });
    for (const auto& wmsg : res.warnings) std::fprintf(stderr, "amn: warning: %s\n", notice_text(wmsg).c_str());
    if (json) {
        write_st_json(&res, res.tensors, pos[0], label);
        return kOk;
    }
    if (report) print_table(res.tensors, true, label);
    if (!quiet) {
        std::size_t quantized = 0;
        std::uint64_t qbytes = 0, qnumel = 0;
        std::size_t repacked = 0;
        for (const auto& t : res.tensors) {
            if ((!t.copied || t.repack == Repack::Lossless) && is_quantized(t)) ++quantized, qbytes += t.bytes, qnumel += t.numel;
            repacked += t.repack == Repack::Lossless;
        }
        const std::string lossless = repacked ? " (" + std::to_string(repacked) + " repacked losslessly)" : "";
        std::printf("forgot %zu of %zu tensor(s) to %s%s: %.2f bits per quantized weight, %s in %.2f s\n", quantized,
                    res.tensors.size(), label.c_str(), lossless.c_str(),
                    qnumel ? static_cast<double>(qbytes) * 8.0 / static_cast<double>(qnumel) : 0.0,
                    human_bytes(res.file_bytes).c_str(), secs);
        if (!res.kept.empty()) {
            std::printf("  kept unquantized:");
            for (std::size_t i = 0; i < res.kept.size() && i < 8; ++i) std::printf(" %s", res.kept[i].c_str());
            if (res.kept.size() > 8) std::printf(" … (%zu more)", res.kept.size() - 8);
            std::printf("\n");
        }
        for (const auto& f : res.files) std::printf("  wrote %s\n", f.c_str());
    }
    return kOk;
}

}  // namespace

int cmd_forget(Args& args) {
    GgufForgetOptions opt;
    const auto to = args.option("--to");
    if (!to)
        throw UsageError{"--to is required: gguf:FTYPE (e.g. --to gguf:Q4_K_M) or a safetensors scheme (bnb-nf4, "
                         "bnb-fp4, bnb-int8, fp8, fp8-block-deepseek, w4a16, w4a16-asym, w8a16, w8a16-asym, mlx[:BITS])"};
    if (to->rfind("gguf:", 0) != 0) return cmd_forget_st(args, *to);
    opt.ftype = to->substr(5);  // checked by the core (a named error listing llama-quantize's names)
    if (const auto* ft = parse_llama_file_type(opt.ftype)) opt.ftype = std::string(ft->name);
    if (auto o = args.option("-o", "--output")) opt.output = *o;
    if (auto v = args.option("--imatrix")) opt.imatrix = *v;
    if (auto v = args.option("--vocab-pre")) opt.vocab_pre = *v;
    opt.no_mtp = args.flag("--no-mtp", "--no-nextn");
    opt.pure = args.flag("--pure");
    if (auto v = args.option("--output-tensor-type")) opt.output_tensor_type = parse_type_option("--output-tensor-type", *v);
    if (auto v = args.option("--token-embedding-type")) opt.token_embedding_type = parse_type_option("--token-embedding-type", *v);
    while (auto v = args.option("--tensor-type")) {
        try {
            opt.tensor_types.push_back(parse_tensor_type_override(*v));
        } catch (const Error& e) {
            throw UsageError{"--tensor-type " + *v + ": " + e.message()};
        }
    }
    if (const unsigned n = parse_threads(args)) opt.threads = n;
    opt.force = args.flag("--force", "-f");
    opt.split = parse_split_options(args, true);
    const bool json = args.flag("--json");
    const bool report = args.flag("--report");
    const bool dry_run = args.flag("--dry-run", "-n");
    const bool quiet = args.flag("--quiet", "-q");
    opt.measure_loss = report || json;  // the round trip only when it is shown
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};

    const Catalog cat = open_model(pos[0]);
    const Plan plan = make_plan(cat);
    if (dry_run) {
        std::vector<GgufOutputFile> files;
        const auto tensors = plan_gguf_forget(cat, plan, opt, &files);
        if (json) {
            write_json(nullptr, tensors, pos[0], opt.ftype, &files);
        } else {
            print_table(tensors, false, opt.ftype);
            std::uint64_t bytes = 0, numel = 0;
            for (const auto& t : tensors) bytes += t.bytes, numel += t.numel;
            std::printf("%s: %zu tensor(s), %s of tensor data, %.2f bits per weight (nothing written)\n", opt.ftype.c_str(),
                        tensors.size(), human_bytes(bytes).c_str(),
                        numel ? static_cast<double>(bytes) * 8.0 / static_cast<double>(numel) : 0.0);
            if (files.size() > 1 || opt.split.any()) print_gguf_files(files, true);
        }
        return kOk;
    }

    GgufWriteResult res;
    const double secs = run_with_progress(!quiet && !json, res, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        return forget_to_gguf(cat, plan, opt, progress, cancel);
    });
    for (const auto& wmsg : res.warnings) std::fprintf(stderr, "amn: warning: %s\n", gguf_warning_text(wmsg).c_str());
    if (json) {
        write_json(&res, res.tensors, pos[0], opt.ftype, &res.files);
        return kOk;
    }
    if (report) print_table(res.tensors, true, opt.ftype);
    if (!quiet) {
        std::uint64_t bytes = 0;
        std::size_t quantized = 0, repacked = 0;
        for (const auto& t : res.tensors) bytes += t.bytes, quantized += !t.copied, repacked += t.repack == Repack::Lossless;
        const std::string lossless = repacked ? ", " + std::to_string(repacked) + " repacked losslessly" : "";
        std::printf("forgot %zu tensor(s) (%zu encoded%s) to %s: %.2f bits per weight, %s in %.2f s\n",
                    res.tensors.size(), quantized, lossless.c_str(), opt.ftype.c_str(),
                    res.input_numel ? static_cast<double>(bytes) * 8.0 / static_cast<double>(res.input_numel) : 0.0,
                    human_bytes(res.file_bytes).c_str(), secs);
        print_gguf_files(res.files, false);
    }
    return kOk;
}

}  // namespace amn::cli
