// SPDX-License-Identifier: MIT OR Apache-2.0
// amn parse: the per-tensor table.
#include "anamnesis/catalog.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/plan.hpp"
#include "cli.hpp"

#include <algorithm>
#include <cstdio>

namespace amn::cli {

std::string role_text(const Plan& plan, std::size_t i) {
    const Role r = plan.roles[i];
    if (r == Role::Companion && is_scale(plan.companion_roles[i])) return "scale";
    return std::string(role_name(r));
}

void print_gguf_facts(const Catalog& cat) {
    const GgufInfo g = gguf_info(cat);
    std::printf("  GGUF v%u (%s-endian), alignment %llu, data at byte %llu, %llu key/values\n", g.version,
                g.big_endian ? "big" : "little", static_cast<unsigned long long>(g.alignment),
                static_cast<unsigned long long>(g.data_offset), static_cast<unsigned long long>(g.kv_count));
    if (!g.architecture.empty() || !g.name.empty())
        std::printf("  architecture %s%s%s\n", g.architecture.empty() ? "?" : printable(g.architecture).c_str(), g.name.empty() ? "" : ", name ",
                    printable(g.name).c_str());
    if (g.file_type) {
        const auto n = llama_ftype_name(*g.file_type);
        std::printf("  file type    %s (%u)\n", n.empty() ? "unknown" : std::string(n).c_str(), *g.file_type);
    }
    // The tokenizer: its model, pre-tokenizer and size; a vocab-only file (no tensors) says what it is good for.
    const MetaValue* model = cat.meta("tokenizer.ggml.model");
    if (model && model->is_string()) {
        const MetaValue* pre = cat.meta("tokenizer.ggml.pre");
        const MetaValue* tokens = cat.meta("tokenizer.ggml.tokens");
        std::printf("  tokenizer    %s%s%s, %zu tokens%s\n", printable(model->as_string()).c_str(), pre && pre->is_string() ? ", pre " : "",
                    pre && pre->is_string() ? printable(pre->as_string()).c_str() : "", tokens ? tokens->size() : std::size_t{0},
                    is_vocab_only_gguf(cat) ? " — vocab-only (no tensors): amn remember --layout hf writes its tokenizer files" : "");
    }
    if (g.parts.size() > 1) {
        std::printf("  split set    %zu parts, read as one model (key/values from part 1):\n", g.parts.size());
        for (std::size_t i = 0; i < g.parts.size(); ++i)
            std::printf("    %zu  %s  %llu tensor(s), %s\n", i + 1, printable(g.parts[i].path).c_str(),
                        static_cast<unsigned long long>(g.parts[i].tensors), human_bytes(g.parts[i].bytes).c_str());
    } else if (!g.split_kvs.empty()) {
        std::string keys;
        for (const auto& kv : g.split_kvs) keys += (keys.empty() ? "" : ", ") + kv.key + " = " + meta_json(kv.value);
        std::printf("  split keys   %s (one file: not read as a set)\n", printable(keys).c_str());
    }
}

void write_gguf_json(JsonWriter& w, const Catalog& cat, bool full_kv) {
    const GgufInfo g = gguf_info(cat);
    w.key("gguf").begin_object();
    w.key("version").value(static_cast<std::uint64_t>(g.version));
    w.key("big_endian").value(g.big_endian);
    w.key("alignment").value(g.alignment);
    w.key("data_offset").value(g.data_offset);
    w.key("tensor_count").value(g.tensor_count);
    w.key("kv_count").value(g.kv_count);
    w.key("architecture").value(g.architecture);
    w.key("name").value(g.name);
    if (g.file_type) {
        w.key("file_type").value(static_cast<std::uint64_t>(*g.file_type));
        w.key("file_type_name").value(llama_ftype_name(*g.file_type));
    }
    // The files: one, or every part of a split set; the split keys apart from the model's.
    w.key("parts").begin_array();
    for (const auto& p : g.parts)
        w.begin_object().key("path").value(p.path).key("bytes").value(p.bytes).key("tensors").value(p.tensors)
            .key("data_offset").value(p.data_offset).end_object();
    w.end_array();
    w.key("split_kv").begin_object();
    for (const auto& kv : g.split_kvs) w.key(kv.key).raw(meta_json(kv.value));
    w.end_object();
    w.key("kv").begin_object();
    // One value's text at a time (a vocabulary's full JSON is megabytes).
    if (full_kv) {
        for (const auto& [k, v] : cat.metadata) w.key(k).raw(meta_json(v));
    } else {
        for (const auto& e : gguf_key_values(cat, 8, false)) w.key(e.key).raw(e.summary);
    }
    w.end_object();
    w.end_object();
}

int parse_model(const ModelArg& model, bool json, bool kv);

int cmd_parse(Args& args) {
    const bool json = args.flag("--json");
    const bool kv = args.flag("--kv");
    const auto pos = args.positionals();
    if (pos.size() != 1) throw UsageError{pos.empty() ? "missing MODEL" : "expected one MODEL"};
    const ModelArg model(pos[0]);
    try {
        return parse_model(model, json, kv);
    } catch (const amn::Error& e) {
        throw model.relabel(e);
    }
}

int parse_model(const ModelArg& model, bool json, bool kv) {
    Catalog cat = open_model(model.path());
    const Plan plan = make_plan(cat);
    model.relabel(cat);  // a remote model: its URLs for the mirror's paths

    if (json) {
        JsonWriter w(2);
        w.begin_object();
        w.key("file").value(cat.path);
        w.key("format").value(format_name(cat.format));
        w.key("shards").begin_array();
        for (const auto& s : cat.shards) w.begin_object().key("path").value(s.path).key("bytes").value(s.file->size()).end_object();
        w.end_array();
        if (cat.format == Format::Gguf) {
            write_gguf_json(w, cat, kv);
        } else {
            w.key("metadata").begin_object();
            for (const auto& [k, v] : cat.metadata) w.key(k).value(meta_text(v));
            w.end_object();
        }
        w.key("tensors").begin_array();
        for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
            const auto& t = cat.tensors[i];
            w.begin_object();
            w.key("name").value(t.name);
            w.key("dtype").value(t.dtype_name);
            w.key("shape").begin_array();
            for (auto d : t.shape) w.value(d);
            w.end_array();
            w.key("bytes").value(t.nbytes);
            w.key("offset").value(t.offset);
            w.key("shard").value(static_cast<std::uint64_t>(t.shard));
            w.key("role").value(role_text(plan, i));
            w.end_object();
        }
        w.end_array();
        w.key("notes").begin_array();
        for (const auto& n : cat.notes) w.value(n);
        w.end_array();
        model.write_json(w);
        w.end_object();
        std::printf("%s\n", w.str().c_str());
        return kOk;
    }

    std::size_t wname = 4, wdtype = 5, wshape = 5;
    std::vector<std::string> shapes;
    for (const auto& t : cat.tensors) {
        shapes.push_back(shape_to_string(t.shape));
        wname = std::max(wname, t.name.size());
        wdtype = std::max(wdtype, t.dtype_name.size());
        wshape = std::max(wshape, shapes.back().size());
    }
    wname = std::min<std::size_t>(wname, 72);
    std::printf("%s: %s, %zu tensor(s) in %zu file(s), %s\n", printable(cat.path).c_str(), std::string(format_name(cat.format)).c_str(),
                cat.tensors.size(), cat.shards.size(), human_bytes(cat.file_bytes()).c_str());
    if (cat.format == Format::Gguf) {
        print_gguf_facts(cat);
        if (kv) {
            const auto kvs = gguf_key_values(cat, 8, false);
            std::printf("\nkey/values (%zu):\n", kvs.size());
            for (const auto& e : kvs) std::printf("  %-40s %-16s %s\n", printable(e.key).c_str(), printable(e.type).c_str(), printable(e.summary).c_str());
        }
    } else if (kv && !cat.metadata.empty()) {
        std::printf("\nmetadata:\n");
        for (const auto& [k, value] : cat.metadata) {
            const std::string v = meta_text(value);
            std::string shown = v.size() > 200 ? v.substr(0, 197) + "..." : v;
            std::printf("  %s = %s\n", printable(k).c_str(), printable(shown).c_str());
        }
    }
    std::printf("\n%-*s  %-*s  %-*s  %10s  %s\n", int(wname), "NAME", int(wdtype), "DTYPE", int(wshape), "SHAPE", "SIZE", "ROLE");
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& t = cat.tensors[i];
        std::printf("%-*s  %-*s  %-*s  %10s  %s\n", int(wname), printable(t.name).c_str(), int(wdtype), printable(t.dtype_name).c_str(), int(wshape),
                    shapes[i].c_str(), human_bytes(t.nbytes).c_str(), role_text(plan, i).c_str());
    }
    for (const auto& n : cat.notes) std::printf("note: %s\n", printable(n).c_str());
    return kOk;
}

}  // namespace amn::cli
