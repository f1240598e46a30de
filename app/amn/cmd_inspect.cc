// SPDX-License-Identifier: MIT OR Apache-2.0
// amn inspect: format, schemes, counts, sizes, and what Lethe took.
#include "anamnesis/catalog.hpp"
#include "anamnesis/inspect.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/json_writer.hpp"

#include <optional>
#include "anamnesis/plan.hpp"
#include "anamnesis/pth.hpp"
#include "cli.hpp"
#include "notice_words.hpp"

#include <cstdio>

namespace amn::cli {

namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
    if (whole == 0) return "0%";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
    return b;
}

std::string count(std::uint64_t n) {
    char b[32];
    if (n >= 1000000000000ull) std::snprintf(b, sizeof b, "%.2f T", n / 1e12);
    else if (n >= 1000000000ull) std::snprintf(b, sizeof b, "%.2f B", n / 1e9);
    else if (n >= 1000000ull) std::snprintf(b, sizeof b, "%.2f M", n / 1e6);
    else if (n >= 1000ull) std::snprintf(b, sizeof b, "%.1f K", n / 1e3);
    else std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(n));
    return b;
}

}  // namespace

namespace {

// amn inspect --scan: every global the file's pickles reference, with a
// verdict, without building anything (works on files open_model refuses).
// Exit 0 when safe, 1 when a global is refused or a pickle is malformed.
int inspect_scan(const std::string& path, bool json) {
    const PickleScan s = scan_pickles(path);
    if (json) {
        JsonWriter w(2);
        w.begin_object();
        w.key("file").value(path);
        w.key("container").value(s.container);
        w.key("safe").value(s.safe);
        w.key("summary").value(s.summary);
        w.key("pickles").begin_array();
        for (const auto& p : s.pickles) w.value(p);
        w.end_array();
        w.key("globals").begin_array();
        for (const auto& g : s.globals)
            w.begin_object().key("global").value(g.module + "." + g.name).key("allowed").value(g.allowed)
                .key("verdict").value(g.verdict).key("count").value(static_cast<std::uint64_t>(g.count)).end_object();
        w.end_array();
        w.key("errors").begin_array();
        for (const auto& e : s.errors) w.value(e);
        w.end_array();
        w.end_object();
        std::printf("%s\n", w.str().c_str());
    } else {
        std::printf("%s\n", printable(path).c_str());
        std::printf("  container     %s\n", printable(s.container).c_str());
        for (const auto& p : s.pickles) std::printf("  pickle        %s\n", printable(p).c_str());
        for (const auto& g : s.globals)
            std::printf("  %-13s %s.%s ×%zu — %s\n", g.allowed ? "allowed" : "REFUSED", printable(g.module).c_str(), printable(g.name).c_str(), g.count,
                        printable(g.verdict).c_str());
        for (const auto& e : s.errors) std::printf("  error         %s\n", printable(e).c_str());
        std::printf("  verdict       %s\n", printable(s.summary).c_str());
    }
    return s.safe ? kOk : kError;
}

}  // namespace

int inspect_model(const ModelArg& model, bool json);

int cmd_inspect(Args& args) {
    const bool json = args.flag("--json");
    const bool scan = args.flag("--scan");
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};
    if (scan) {
        if (is_remote_model(pos[0])) throw UsageError{"--scan reads local files only"};
        return inspect_scan(pos[0], json);
    }
    const ModelArg model(pos[0]);
    try {
        return inspect_model(model, json);
    } catch (const amn::Error& e) {
        throw model.relabel(e);
    }
}

int inspect_model(const ModelArg& model, bool json) {
    Catalog cat = open_model(model.path());
    const Plan plan = make_plan(cat);
    Inspection r = inspect(cat, plan);
    // A Hugging Face folder: which GGUF it becomes (amn convert --to gguf), or why not.
    std::optional<HfGgufInfo> hf;
    if ((cat.format == Format::Safetensors || cat.format == Format::Pth) && cat.config_json) {
        hf = describe_hf_gguf(cat);
        if (hf->hf_architecture.empty()) hf.reset();  // config.json of a slice or adapter, not a model
    }
    // A PEFT adapter folder: rank, alpha, targets, and whether it becomes a GGUF adapter.
    const std::optional<LoraAdapterInfo> adapter = describe_lora_adapter(cat);
    // A remote model: its URLs where the mirror's paths are (everything read by now).
    model.relabel(cat);
    std::vector<std::string> warnings;  // r.warnings in amn's words
    for (const auto& n : r.warnings) warnings.push_back(notice_text(n));
    std::vector<std::string> errors;  // r.errors in amn's words: "tensor: why"
    for (const auto& e : r.errors) errors.push_back(e.tensor + ": " + e.error.message());
    for (auto* list : {&errors, &r.notes, &warnings})
        for (auto& s : *list) s = model.relabel(s);
    std::vector<std::string> hf_notes;  // hf->warnings in amn's words
    if (hf) {
        hf->error = model.relabel(hf->error);
        for (const auto& n : hf->warnings) hf_notes.push_back(model.relabel(notice_text(n)));
    }

    if (json) {
        JsonWriter w(2);
        w.begin_object();
        w.key("file").value(cat.path);
        w.key("format").value(r.format);
        w.key("shards").value(static_cast<std::uint64_t>(r.shards));
        w.key("file_bytes").value(r.file_bytes);
        w.key("tensor_bytes").value(r.tensor_bytes);
        w.key("tensors").begin_object()
            .key("stored").value(static_cast<std::uint64_t>(r.stored_tensors))
            .key("logical").value(static_cast<std::uint64_t>(r.logical_tensors))
            .key("quantized").value(static_cast<std::uint64_t>(r.quantized))
            .key("companions").value(static_cast<std::uint64_t>(r.companions))
            .key("passthrough").value(static_cast<std::uint64_t>(r.passthrough))
            .key("unsupported").value(static_cast<std::uint64_t>(r.unsupported))
            .end_object();
        w.key("parameters").value(r.parameters);
        w.key("quantized_parameters").value(r.quantized_parameters);
        w.key("bf16_bytes").value(r.bf16_bytes);
        w.key("quantized_stored_bytes").value(r.quantized_stored_bytes);
        w.key("quantized_bf16_bytes").value(r.quantized_bf16_bytes);
        w.key("lethe_took_bytes").value(r.lethe_took());
        w.key("bits_per_weight").value(r.bits_per_weight);
        w.key("schemes").begin_array();
        for (const auto& s : r.schemes)
            w.begin_object().key("id").value(s.id).key("description").value(s.description)
                .key("tensors").value(static_cast<std::uint64_t>(s.tensors)).end_object();
        w.end_array();
        w.key("dtypes").begin_array();
        for (const auto& d : r.dtypes)
            w.begin_object().key("dtype").value(d.dtype).key("tensors").value(static_cast<std::uint64_t>(d.tensors))
                .key("elements").value(d.elements).key("bytes").value(d.bytes).end_object();
        w.end_array();
        if (cat.format == Format::Gguf) write_gguf_json(w, cat, false);
        if (cat.format == Format::Onnx) write_onnx_json(w, cat, plan);
        if (hf) {
            w.key("hf_gguf").begin_object()
                .key("hf_architecture").value(hf->hf_architecture)
                .key("gguf_architecture").value(hf->gguf_architecture)
                .key("tokenizer_model").value(hf->tokenizer_model)
                .key("tokenizer_pre").value(hf->tokenizer_pre)
                .key("default_outtype").value(hf->default_outtype)
                .key("error").value(hf->error)
                .key("warnings").begin_array();
            for (const auto& s : hf_notes) w.value(s);
            w.end_array();
            if (hf->has_vision)  // a multimodal folder: the files convert writes (--mmproj: the vision projector)
                w.key("outputs").begin_object()
                    .key("text").value(hf->text_output)
                    .key("mmproj").value(hf->mmproj_output)
                    .key("mmproj_error").value(hf->mmproj_error)
                    .end_object();
            w.end_object();
        }
        if (adapter) write_adapter_json(w, *adapter);
        w.key("quantization_config").begin_object();
        for (const auto& [k, v] : cat.quantization_config) w.key(k).value(v);
        w.end_object();
        w.key("errors").begin_array();
        for (const auto& e : errors) w.value(e);
        w.end_array();
        w.key("notes").begin_array();
        for (const auto& n : r.notes) w.value(n);
        w.end_array();
        w.key("warnings").begin_array();
        for (const auto& n : warnings) w.value(n);
        w.end_array();
        model.write_json(w);
        w.end_object();
        std::printf("%s\n", w.str().c_str());
        return kOk;
    }

    std::printf("%s\n", printable(cat.path).c_str());
    std::printf("  format        %s, %zu file(s), %s\n", r.format.c_str(), r.shards, human_bytes(r.file_bytes).c_str());
    if (cat.format == Format::Gguf) print_gguf_facts(cat);
    if (cat.format == Format::Onnx) print_onnx_facts(cat, plan);
    if (auto m = cat.qconfig("quant_method")) std::printf("  config        quant_method \"%s\" (%s)\n", printable(*m).c_str(), printable(cat.config_path).c_str());
    if (r.schemes.empty()) {
        std::printf("  scheme        none (no quantized tensors)\n");
    } else {
        for (std::size_t i = 0; i < r.schemes.size(); ++i)
            std::printf("  %-13s %s — %zu tensor(s)\n", i ? "" : "scheme", printable(r.schemes[i].description).c_str(), r.schemes[i].tensors);
    }
    std::printf("  tensors       %zu stored: %zu quantized, %zu companion(s), %zu passthrough%s\n", r.stored_tensors, r.quantized,
                r.companions, r.passthrough, r.unsupported ? (", " + std::to_string(r.unsupported) + " unsupported").c_str() : "");
    std::printf("  parameters    %s (%s quantized)\n", count(r.parameters).c_str(), count(r.quantized_parameters).c_str());
    std::printf("  dtypes       ");
    for (const auto& d : r.dtypes) std::printf(" %s %s (%zu)", printable(d.dtype).c_str(), human_bytes(d.bytes).c_str(), d.tensors);
    std::printf("\n");
    std::printf("  size          %s now → %s as BF16\n", human_bytes(r.tensor_bytes).c_str(), human_bytes(r.bf16_bytes).c_str());
    if (r.quantized_parameters) {
        std::printf("  Lethe took    %s of %s (%s) — %.2f bits per weight instead of 16\n", human_bytes(r.lethe_took()).c_str(),
                    human_bytes(r.quantized_bf16_bytes).c_str(), percent(r.lethe_took(), r.quantized_bf16_bytes).c_str(),
                    r.bits_per_weight);
    } else {
        std::printf("  Lethe took    nothing: no quantized tensors\n");
    }
    if (hf && hf->error.empty()) {
        std::printf("  GGUF          %s (%s), tokenizer %s/%s, --to gguf = %s\n", printable(hf->gguf_architecture).c_str(),
                    printable(hf->hf_architecture).c_str(), printable(hf->tokenizer_model).c_str(),
                    printable(hf->tokenizer_pre).c_str(), printable(hf->default_outtype).c_str());
        for (const auto& s : hf_notes) std::printf("  GGUF note     %s\n", printable(s).c_str());
        if (r.quantized)
            std::printf("  GGUF note     the weights are quantized already: a GGUF file type quantizes them twice\n");
    } else if (hf) {
        std::printf("  GGUF          not possible: %s\n", printable(hf->error).c_str());
    }
    if (hf && hf->has_vision) {  // a multimodal folder: which files convert writes
        if (!hf->text_output.empty())
            std::printf("  GGUF file     convert --to gguf → %s\n", printable(hf->text_output).c_str());
        if (hf->mmproj_error.empty())
            std::printf("  GGUF file     convert --to gguf --mmproj → %s (vision projector)\n", printable(hf->mmproj_output).c_str());
        else
            std::printf("  GGUF file     no --mmproj: %s\n", printable(hf->mmproj_error).c_str());
    }
    if (adapter) print_adapter_facts(*adapter);
    for (const auto& e : errors) std::printf("  cannot convert  %s\n", printable(e).c_str());
    for (const auto& n : r.notes) std::printf("  note          %s\n", printable(n).c_str());
    for (const auto& n : warnings) std::printf("  warning       %s\n", printable(n).c_str());
    return kOk;
}

}  // namespace amn::cli
