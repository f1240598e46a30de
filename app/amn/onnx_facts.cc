// SPDX-License-Identifier: MIT OR Apache-2.0
// amn inspect of an ONNX model: the container facts the parser keeps in
// Catalog::metadata (onnx.hpp) and the quantized weights with their sources.
#include "anamnesis/json_writer.hpp"
#include "anamnesis/metadata.hpp"
#include "cli.hpp"

#include <cstdio>
#include <string>

namespace amn::cli {

namespace {

std::string meta_or(const Catalog& cat, std::string_view key, std::string fallback = {}) {
    const MetaValue* v = cat.meta(key);
    return v ? meta_text(*v) : fallback;
}

// "ai.onnx 21, com.microsoft 1" (every onnx.opset.* key), or "MatMulNBits 7, Add 2" (onnx.op.*).
std::string joined(const Catalog& cat, std::string_view prefix) {
    std::string s;
    for (const auto& [k, v] : cat.metadata)
        if (k.rfind(prefix, 0) == 0) s += (s.empty() ? "" : ", ") + k.substr(prefix.size()) + " " + meta_text(v);
    return s;
}

std::string list_of(const Catalog& cat, std::string_view key) {
    const MetaValue* v = cat.meta(key);
    if (!v) return "none";
    std::string s;
    for (std::size_t i = 0; i < v->size(); ++i) s += (i ? "; " : "") + std::string(v->string_at(i));
    return s;
}

}  // namespace

void print_onnx_facts(const Catalog& cat, const Plan& plan) {
    std::string producer = meta_or(cat, "onnx.producer_name", "(none)");
    if (const std::string v = meta_or(cat, "onnx.producer_version"); !v.empty()) producer += " " + v;
    std::printf("  onnx          IR %s, producer %s, opsets %s\n", printable(meta_or(cat, "onnx.ir_version", "?")).c_str(),
                printable(producer).c_str(), printable(joined(cat, "onnx.opset.")).c_str());
    std::printf("  graph         %s node(s): %s\n", printable(meta_or(cat, "onnx.nodes", "0")).c_str(), printable(joined(cat, "onnx.op.")).c_str());
    std::printf("  inputs        %s\n", printable(list_of(cat, "onnx.graph.inputs")).c_str());
    std::printf("  outputs       %s\n", printable(list_of(cat, "onnx.graph.outputs")).c_str());
    bool first = true;
    for (const auto& lt : plan.tensors) {
        if (!lt.quantized || !lt.recipe) continue;
        std::printf("  %-13s %s %s ← %s (%s)\n", first ? "weights" : "", printable(lt.name).c_str(), shape_to_string(lt.shape).c_str(),
                    printable(cat.tensors[lt.sources[0]].name).c_str(), printable(lt.recipe->scheme_id()).c_str());
        first = false;
    }
}

void write_onnx_json(amn::JsonWriter& w, const Catalog& cat, const Plan& plan) {
    w.key("onnx").begin_object();
    for (const auto& [k, v] : cat.metadata)
        if (k.rfind("onnx.", 0) == 0) w.key(k.substr(5)).value(meta_text(v));
    w.end_object();
    w.key("onnx_weights").begin_array();
    for (const auto& lt : plan.tensors) {
        if (!lt.quantized || !lt.recipe) continue;
        w.begin_object().key("name").value(lt.name).key("shape").begin_array();
        for (auto d : lt.shape) w.value(d);
        w.end_array().key("from").value(cat.tensors[lt.sources[0]].name).key("scheme").value(lt.recipe->scheme_id()).end_object();
    }
    w.end_array();
}

}  // namespace amn::cli
