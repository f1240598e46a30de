// SPDX-License-Identifier: MIT OR Apache-2.0
// Where llama.cpp's tools cut a GGUF into parts (gguf_parts.hpp): gguf-py's
// GGUFWriter.add_tensor_info / add_shard_kv_data / format_shard_names,
// llama-gguf-split's split_strategy, llama-quantize's --keep-split.
#include "plan/gguf_parts.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/gguf_ftype.hpp"

#include <charconv>
#include <filesystem>
#include <limits>

namespace amn {

std::uint64_t parse_split_max_size(std::string_view text) {
    const std::string shown(text);
    std::uint64_t unit = 1;
    if (!text.empty()) {
        switch (text.back()) {
            case 'K': unit = 1000; break;
            case 'M': unit = 1000 * 1000; break;
            case 'G': unit = 1000 * 1000 * 1000; break;
            default: break;
        }
    }
    if (unit != 1) text.remove_suffix(1);
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw Error(ErrorCode::Usage, "--split-max-size '" + shown + "': a number of bytes, optionally followed by K, M or G (10³, 10⁶, 10⁹)");
    if (n == 0) throw Error(ErrorCode::Usage, "--split-max-size must be more than 0");
    if (n > std::numeric_limits<std::uint64_t>::max() / unit) throw Error(ErrorCode::Usage, "--split-max-size '" + shown + "' is too large");
    return n * unit;
}

namespace detail {
namespace {
namespace fs = std::filesystem;

constexpr std::uint64_t kPad = 32;  // GGUF_DEFAULT_ALIGNMENT: llama-gguf-split's size unit
std::uint64_t padded(std::uint64_t n) { return (n + kPad - 1) / kPad * kPad; }

// Consecutive groups of tensors: the count in each part.
using Cut = std::vector<std::size_t>;

// gguf-py GGUFWriter.add_tensor_info: a new part when the last one holds a
// tensor and is full by count, or its unpadded bytes plus this tensor's exceed the size.
Cut cut_converter(const GgufSplitOptions& o, const std::vector<GgufPartTensor>& ts) {
    Cut parts(o.no_tensor_first_split ? 2 : 1, 0);
    std::uint64_t bytes = 0;
    for (const auto& t : ts) {
        if (parts.back() > 0 && ((o.max_tensors && parts.back() >= o.max_tensors) ||
                                 (o.max_bytes && bytes + t.bytes > o.max_bytes))) {
            parts.push_back(0);
            bytes = 0;
        }
        ++parts.back();
        bytes += t.bytes;
    }
    return parts;
}

// llama-gguf-split's split_strategy: by size (padded bytes) or every max_tensors
// tensors (128 when neither is given); a part left empty is an error.
Cut cut_gguf_split(const GgufSplitOptions& o, const std::vector<GgufPartTensor>& ts) {
    if (o.max_bytes && o.max_tensors)
        throw Error(ErrorCode::Usage, "--split-max-size and --split-max-tensors: llama-gguf-split takes one or the other");
    const std::uint64_t every = o.max_tensors ? o.max_tensors : 128;
    Cut parts(o.no_tensor_first_split ? 2 : 1, 0);
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const std::uint64_t n = padded(ts[i].bytes);
        const bool split = o.max_bytes ? bytes + n > o.max_bytes : (i > 0 && i % every == 0);
        if (split) {
            if (parts.back() == 0)
                throw Error(ErrorCode::Usage,
                            "is " + std::to_string(ts[i].bytes) + " bytes, more than --split-max-size (" +
                                std::to_string(o.max_bytes) +
                                " bytes) alone: a part would hold no tensor (llama-gguf-split: \"one of splits have 0 "
                                "tensors\"); choose a larger size",
                            {}, ts[i].name);
            parts.push_back(0);
            bytes = n;
        } else {
            bytes += n;
        }
        ++parts.back();
    }
    return parts;
}

// llama-quantize --keep-split: the input's parts (tensors already in part order).
Cut cut_keep_split(const std::vector<GgufPartTensor>& ts, std::uint32_t input_parts) {
    std::uint32_t n = 1;
    for (const auto& t : ts) n = std::max(n, t.input_part + 1);
    (void)input_parts;
    Cut parts(n, 0);
    std::uint32_t last = 0;
    for (const auto& t : ts) {
        if (t.input_part < last)
            throw Error(ErrorCode::Usage, "--keep-split: the tensors are not in the order of the input's parts", {}, t.name);
        last = t.input_part;
        ++parts[t.input_part];
    }
    for (std::size_t p = 1; p < parts.size(); ++p)
        if (parts[p] == 0)
            throw Error(ErrorCode::Usage, "--keep-split: input part " + std::to_string(p + 1) +
                                              " holds no tensor (llama-quantize writes no file for it, which breaks the set)");
    return parts;
}

// gguf-py's format_shard_names: Path.with_name(f"{stem}-{i:05d}-of-{n:05d}.gguf"),
// the stem being the name less its last suffix (pathlib's rule).
std::string converter_part_path(const std::string& output, std::uint32_t no, std::uint32_t count) {
    const fs::path p(output);
    std::string name = p.filename().string();
    const auto dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0 && dot + 1 < name.size()) name.resize(dot);
    return gguf_split_path((p.parent_path() / name).string(), no, count);
}

}  // namespace

std::string gguf_part_prefix(const std::string& output) {
    return output.ends_with(".gguf") && output.size() > 5 ? output.substr(0, output.size() - 5) : output;
}

std::vector<GgufPart> cut_gguf_parts(GgufPartRule rule, const GgufSplitOptions& o, const std::vector<MetaKv>& kvs,
                                     const std::vector<GgufPartTensor>& tensors, const std::string& output,
                                     std::uint32_t input_parts, bool* one_part) {
    const Cut cut = rule == GgufPartRule::Converter  ? cut_converter(o, tensors)
                    : rule == GgufPartRule::GgufSplit ? cut_gguf_split(o, tensors)
                                                      : cut_keep_split(tensors, input_parts);
    const std::size_t n = cut.size();
    if (n > std::numeric_limits<std::uint16_t>::max())
        throw Error(ErrorCode::Usage, std::to_string(n) + " parts: split.count is a u16 (at most 65535); choose larger parts");
    if (tensors.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw Error(ErrorCode::Usage, "too many tensors for split.tensors.count (an i32)");
    const auto count = static_cast<std::uint16_t>(n);
    const auto total = static_cast<std::int32_t>(tensors.size());

    std::vector<GgufPart> parts(n);
    for (std::size_t i = 0; i < n; ++i) parts[i].tensors = cut[i];
    const auto no = [](std::size_t i) { return MetaValue::u16(static_cast<std::uint16_t>(i)); };
    switch (rule) {
        case GgufPartRule::Converter:
            if (n == 1) {  // "Model fails split requirements, not splitting": the plain file
                if (one_part) *one_part = true;
                parts[0].path = output;
                parts[0].kvs = kvs;
                return parts;
            }
            // add_shard_kv_data: every part's dict gets no, count, tensors.count.
            for (std::size_t i = 0; i < n; ++i) {
                if (i == 0) parts[i].kvs = kvs;
                parts[i].kvs.push_back({std::string(kGgufSplitNo), no(i)});
                parts[i].kvs.push_back({std::string(kGgufSplitCount), MetaValue::u16(count)});
                parts[i].kvs.push_back({std::string(kGgufSplitTensorsCount), MetaValue::i32(total)});
                parts[i].path = converter_part_path(output, static_cast<std::uint32_t>(i + 1), count);
            }
            return parts;
        case GgufPartRule::GgufSplit:
            // gguf_set_kv of the input (part 1), then split.no, split.count (0),
            // split.tensors.count, and split.count again once the parts are known:
            // each set moves its key to the end.
            for (std::size_t i = 0; i < n; ++i) {
                auto& k = parts[i].kvs;
                if (i == 0) k = ggml_copy_kvs(kvs);
                gguf_set_kv(k, std::string(kGgufSplitNo), no(i));
                gguf_set_kv(k, std::string(kGgufSplitCount), MetaValue::u16(0));
                gguf_set_kv(k, std::string(kGgufSplitTensorsCount), MetaValue::i32(total));
                gguf_set_kv(k, std::string(kGgufSplitCount), MetaValue::u16(count));
                parts[i].path = gguf_split_path(gguf_part_prefix(output), static_cast<std::uint32_t>(i + 1), count);
            }
            return parts;
        case GgufPartRule::KeepSplit:
            // llama_model_quantize_impl: with more than one part, every part gets
            // split.no, split.count, split.tensors.count; the names always carry the numbers.
            for (std::size_t i = 0; i < n; ++i) {
                auto& k = parts[i].kvs;
                if (i == 0) k = kvs;
                if (n > 1) {
                    gguf_set_kv(k, std::string(kGgufSplitNo), no(i));
                    gguf_set_kv(k, std::string(kGgufSplitCount), MetaValue::u16(count));
                    gguf_set_kv(k, std::string(kGgufSplitTensorsCount), MetaValue::i32(total));
                }
                parts[i].path = gguf_split_path(gguf_part_prefix(output), static_cast<std::uint32_t>(i + 1), count);
            }
            return parts;
    }
    return parts;
}

}  // namespace detail
}  // namespace amn
