// SPDX-License-Identifier: MIT OR Apache-2.0
// llama.cpp's file types (the table of gguf_ftype.hpp, constants carried
// over from llama.h / tools/quantize/quantize.cpp), their names and
// aliases, ggml type names, and `--tensor-type` overrides.
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/ggml_type_list.hpp"
#include "plan/gguf_ftype_ids.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace amn {
namespace {

using namespace detail::ftype;

constexpr LlamaFileType kFileTypes[] = {
    // id          name              default type       offered needs_imatrix
    {ALL_F32,       "F32",            DType::F32,        true,  false},
    {F16,           "F16",            DType::F16,        true,  false},
    {Q4_0,          "Q4_0",           DType::Q4_0,       true,  false},
    {Q4_1,          "Q4_1",           DType::Q4_1,       true,  false},
    {Q4_1_SOME_F16, "Q4_1_SOME_F16",  DType::Unknown,    false, false},
    {Q8_0,          "Q8_0",           DType::Q8_0,       true,  false},
    {Q5_0,          "Q5_0",           DType::Q5_0,       true,  false},
    {Q5_1,          "Q5_1",           DType::Q5_1,       true,  false},
    {Q2_K,          "Q2_K",           DType::Q2_K,       true,  false},
    {Q3_K_S,        "Q3_K_S",         DType::Q3_K,       true,  false},
    {Q3_K_M,        "Q3_K_M",         DType::Q3_K,       true,  false},
    {Q3_K_L,        "Q3_K_L",         DType::Q3_K,       true,  false},
    {Q4_K_S,        "Q4_K_S",         DType::Q4_K,       true,  false},
    {Q4_K_M,        "Q4_K_M",         DType::Q4_K,       true,  false},
    {Q5_K_S,        "Q5_K_S",         DType::Q5_K,       true,  false},
    {Q5_K_M,        "Q5_K_M",         DType::Q5_K,       true,  false},
    {Q6_K,          "Q6_K",           DType::Q6_K,       true,  false},
    {IQ2_XXS,       "IQ2_XXS",        DType::IQ2_XXS,    true,  true},
    {IQ2_XS,        "IQ2_XS",         DType::IQ2_XS,     true,  true},
    {Q2_K_S,        "Q2_K_S",         DType::Q2_K,       true,  true},
    {IQ3_XS,        "IQ3_XS",         DType::IQ3_S,      true,  false},
    {IQ3_XXS,       "IQ3_XXS",        DType::IQ3_XXS,    true,  false},
    {IQ1_S,         "IQ1_S",          DType::IQ1_S,      true,  true},
    {IQ4_NL,        "IQ4_NL",         DType::IQ4_NL,     true,  false},
    {IQ3_S,         "IQ3_S",          DType::IQ3_S,      true,  false},
    {IQ3_M,         "IQ3_M",          DType::IQ3_S,      true,  false},
    {IQ2_S,         "IQ2_S",          DType::IQ2_XS,     true,  true},
    {IQ2_M,         "IQ2_M",          DType::IQ2_S,      true,  false},
    {IQ4_XS,        "IQ4_XS",         DType::IQ4_XS,     true,  false},
    {IQ1_M,         "IQ1_M",          DType::IQ1_M,      true,  true},
    {BF16,          "BF16",           DType::BF16,       true,  false},
    {TQ1_0,         "TQ1_0",          DType::TQ1_0,      true,  false},
    {TQ2_0,         "TQ2_0",          DType::TQ2_0,      true,  false},
    {MXFP4_MOE,     "MXFP4_MOE",      DType::MXFP4,      true,  false},
    {NVFP4,         "NVFP4",          DType::NVFP4,      false, false},
    {Q1_0,          "Q1_0",           DType::Q1_0,       true,  false},
    {Q2_0,          "Q2_0",           DType::Q2_0,       true,  false},
};

// llama-quantize's aliases (QUANT_OPTIONS "alias for …").
constexpr std::pair<std::string_view, std::uint32_t> kAliases[] = {{"Q3_K", Q3_K_M}, {"Q4_K", Q4_K_M}, {"Q5_K", Q5_K_M}};

bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

}  // namespace

std::span<const LlamaFileType> llama_file_types() noexcept { return kFileTypes; }

const LlamaFileType* llama_file_type(std::uint32_t id) noexcept {
    for (const auto& f : kFileTypes)
        if (f.id == id) return &f;
    return nullptr;
}

std::string_view llama_ftype_name(std::uint32_t file_type) noexcept {
    const LlamaFileType* f = llama_file_type(file_type);
    return f ? f->name : std::string_view();
}

const LlamaFileType* parse_llama_file_type(std::string_view text) noexcept {
    for (const auto& f : kFileTypes)
        if (f.offered && iequals(f.name, text)) return &f;
    for (const auto& [alias, id] : kAliases)
        if (iequals(alias, text)) return llama_file_type(id);
    if (!text.empty() && text.size() < 6 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const auto id = static_cast<std::uint32_t>(std::stoul(std::string(text)));
        const LlamaFileType* f = llama_file_type(id);
        if (f && f->offered) return f;
    }
    return nullptr;
}

std::string ggml_type_name(DType t) {
    const DTypeInfo* i = dtype_info(t);
    if (!i || i->ggml_id < 0) return {};
    std::string s(i->name);
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s.size() >= 2 && s.compare(s.size() - 2, 2, "_k") == 0) s.back() = 'K';  // q4_K, q8_K
    return s;
}

std::optional<DType> parse_ggml_type(std::string_view name) noexcept {
    if (name.empty()) return std::nullopt;
    for (const auto& row : dtype_table())
        if (row.ggml_id >= 0 && iequals(row.name, name)) return row.dtype;
    return std::nullopt;
}

std::pair<std::string, DType> parse_tensor_type_override(std::string_view arg) {
    const std::string a(arg);
    const auto eq = arg.find('=');
    if (eq == std::string_view::npos) throw Error(ErrorCode::Usage, "malformed tensor type '" + a + "' (expected PATTERN=TYPE)");
    if (eq == 0) throw Error(ErrorCode::Usage, "malformed tensor type '" + a + "': missing tensor name");
    if (eq + 1 == arg.size()) throw Error(ErrorCode::Usage, "malformed tensor type '" + a + "': missing quantization type");
    std::string pattern(arg.substr(0, eq));
    for (auto& c : pattern) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string_view tname = arg.substr(eq + 1);
    const auto t = parse_ggml_type(tname);
    if (!t) throw Error(ErrorCode::Usage, "invalid quantization type '" + std::string(tname) + "' in '" + a + "'");
    try {
        std::regex re(pattern);
    } catch (const std::regex_error& e) {
        throw Error(ErrorCode::Usage, "tensor type pattern '" + pattern + "' is not a valid regular expression: " + e.what());
    }
    return {pattern, *t};
}

std::string converter_output_type(std::uint32_t id) {
    const LlamaFileType* t = llama_file_type(id);
    // The llama.h names without LLAMA_FTYPE_MOSTLY_ / ALL_ are the gguf-py enum names after the first '_'.
    if (!t || t->name.empty() || id == ftype::Q4_1_SOME_F16)
        throw Error(ErrorCode::Usage, "no converter output type for llama file type " + std::to_string(id));
    return std::string(t->name);
}


namespace {
constexpr ConverterOuttype kOuttypes[] = {
    {"F32", DType::F32, ftype::ALL_F32},
    {"F16", DType::F16, ftype::F16},
    {"BF16", DType::BF16, ftype::BF16},
    {"Q8_0", DType::Q8_0, ftype::Q8_0},
};
}  // namespace

std::span<const ConverterOuttype> converter_outtypes() noexcept { return kOuttypes; }

const ConverterOuttype* converter_outtype_of(DType type) noexcept {
    for (const auto& o : kOuttypes)
        if (o.type == type) return &o;
    return nullptr;
}

const ConverterOuttype* converter_outtype_of_ftype(std::uint32_t id) noexcept {
    for (const auto& o : kOuttypes)
        if (o.ftype == id) return &o;
    return nullptr;
}

std::vector<DType> encodable_ggml_types() {
    std::vector<DType> out{DType::F32, DType::F16, DType::BF16};
#define AMN_ENCODABLE_NONE(name) (void)0
#define AMN_ENCODABLE_REF_OR_IMPL(name) out.push_back(DType::name)
#define AMN_ENCODABLE_BLOCKWISE(name) out.push_back(DType::name)
#define AMN_ENCODABLE_IMPL(name) out.push_back(DType::name)
#define AMN_ENCODABLE_REQUIRED(name) out.push_back(DType::name)
#define AMN_ENCODABLE_ROW(name, id, be, bb, kernel, decoder, encoder, imatrix) AMN_ENCODABLE_##imatrix(name);
    AMN_GGML_TYPES(AMN_ENCODABLE_ROW)
#undef AMN_ENCODABLE_ROW
#undef AMN_ENCODABLE_NONE
#undef AMN_ENCODABLE_REF_OR_IMPL
#undef AMN_ENCODABLE_BLOCKWISE
#undef AMN_ENCODABLE_IMPL
#undef AMN_ENCODABLE_REQUIRED
    return out;
}

}  // namespace amn
