// SPDX-License-Identifier: MIT OR Apache-2.0
// llama-quantize's key/value rules (gguf_ftype.hpp): the input's key/values
// and what llama_model_quantize_impl and quantize.cpp make of them.
#include "anamnesis/gguf_ftype.hpp"

#include "anamnesis/error.hpp"


namespace amn {
namespace {

std::string_view cut_at_nul(std::string_view s) {
    const auto z = s.find('\0');
    return z == std::string_view::npos ? s : s.substr(0, z);
}

// ggml gguf_set_kv: strings travel as const char*.
GgufValue ggml_copy(const GgufValue& v) {
    if (v.type == GgufType::String) return GgufValue::string(std::string(cut_at_nul(v.str)));
    if (v.type == GgufType::Array && v.elem_type == GgufType::String) {
        if (v.packed_bytes().find('\0') == std::string_view::npos) return v;
        GgufValue a = GgufValue::strings({});
        a.reserve(v.size(), v.packed_bytes().size());
        for (std::size_t i = 0; i < v.size(); ++i) a.push_string(cut_at_nul(v.string_at(i)));
        return a;
    }
    return v;
}

}  // namespace

std::vector<GgufKv> gguf_read_kvs(const Catalog& cat) {
    if (cat.format != Format::Gguf) throw Error(ErrorCode::Usage, "not a GGUF catalog", cat.path);
    return cat.metadata;
}

std::vector<GgufKv> ggml_copy_kvs(const std::vector<GgufKv>& input) {
    std::vector<GgufKv> out;
    out.reserve(input.size() + 3);
    for (const auto& kv : input) gguf_set_kv(out, kv.key, ggml_copy(kv.value));
    return out;
}

std::vector<GgufKv> llama_quantize_kvs(const std::vector<GgufKv>& input, std::uint32_t ftype_id) {
    std::vector<GgufKv> out = ggml_copy_kvs(input);
    gguf_set_kv(out, "general.quantization_version", GgufValue::u32(2));  // GGML_QNT_VERSION
    gguf_set_kv(out, "general.file_type", GgufValue::u32(ftype_id));
    for (const char* k : {"split.no", "split.count", "split.tensors.count"}) gguf_remove_kv(out, k);
    return out;
}

std::vector<GgufKv> llama_quantize_kvs(const std::vector<GgufKv>& input, std::uint32_t ftype_id,
                                       const LlamaImatrixKvs& im) {
    auto out = llama_quantize_kvs(input, ftype_id);
    auto cut127 = [](const std::string& s) { return std::string(cut_at_nul(s).substr(0, 127)); };
    gguf_set_kv(out, "quantize.imatrix.file", GgufValue::string(cut127(im.file)));
    if (!im.dataset.empty()) gguf_set_kv(out, "quantize.imatrix.dataset", GgufValue::string(cut127(im.dataset)));
    gguf_set_kv(out, "quantize.imatrix.entries_count", GgufValue::u32(im.entries_count));
    if (im.chunks_count > 0) gguf_set_kv(out, "quantize.imatrix.chunks_count", GgufValue::u32(im.chunks_count));
    return out;
}

}  // namespace amn
