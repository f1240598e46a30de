// SPDX-License-Identifier: MIT OR Apache-2.0
// A GGUF model as llama.cpp reads it: one file, or every part of a split set
// (llama-model-loader.cpp: `split.count` in the file opened, the other parts
// found by name with llama_split_path, `split.no` checked per part, the
// tensors of all parts counted against `split.tensors.count`). Names of the
// parts: llama.cpp `llama_split_path` / `llama_split_prefix`.
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <unordered_map>

namespace amn {
namespace fs = std::filesystem;

bool is_gguf_split_key(std::string_view key) noexcept {
    return key == kGgufSplitNo || key == kGgufSplitCount || key == kGgufSplitTensorsCount;
}

std::optional<GgufSplitName> parse_gguf_split_name(std::string_view path) {
    constexpr std::string_view ext = ".gguf";
    if (!path.ends_with(ext)) return std::nullopt;
    std::string_view s = path.substr(0, path.size() - ext.size());
    // "...-NNNNN-of-MMMMM": digits from the end, then "-of-", digits, '-'.
    auto digits_back = [&](std::string_view t) {
        std::size_t n = 0;
        while (n < t.size() && t[t.size() - 1 - n] >= '0' && t[t.size() - 1 - n] <= '9') ++n;
        return n;
    };
    const std::size_t nc = digits_back(s);
    if (nc < 5 || nc > 9) return std::nullopt;
    const std::string_view count_txt = s.substr(s.size() - nc);
    s.remove_suffix(nc);
    if (!s.ends_with("-of-")) return std::nullopt;
    s.remove_suffix(4);
    const std::size_t nn = digits_back(s);
    if (nn < 5 || nn > 9) return std::nullopt;
    const std::string_view no_txt = s.substr(s.size() - nn);
    s.remove_suffix(nn);
    if (!s.ends_with('-') || s.size() < 2) return std::nullopt;
    s.remove_suffix(1);
    if (s.ends_with('/')) return std::nullopt;  // "dir/-00001-of-00002.gguf": no name before the number
    GgufSplitName r;
    std::from_chars(no_txt.data(), no_txt.data() + no_txt.size(), r.no);
    std::from_chars(count_txt.data(), count_txt.data() + count_txt.size(), r.count);
    // %05d prints at least five digits: more only when the number needs them.
    if ((nn > 5 && no_txt[0] == '0') || (nc > 5 && count_txt[0] == '0')) return std::nullopt;
    if (r.no < 1 || r.no > r.count) return std::nullopt;
    r.prefix = std::string(s);
    return r;
}

std::string gguf_split_path(std::string_view prefix, std::uint32_t no, std::uint32_t count) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "-%05u-of-%05u.gguf", no, count);
    return std::string(prefix) + buf;
}

std::string gguf_unsplit_path(const Catalog& cat) {
    if (cat.shards.empty()) return cat.path;
    if (cat.format == Format::Gguf && cat.shards.size() > 1)
        if (const auto n = parse_gguf_split_name(cat.shards[0].path)) return n->prefix + ".gguf";
    return cat.shards[0].path;
}

namespace {

// The split keys of one parsed file, type-checked as llama.cpp's get_key
// does (a key of another type is an error there too).
struct SplitKeys {
    std::optional<std::uint16_t> no, count;
    std::optional<std::int32_t> tensors;
};

SplitKeys read_split_keys(const Catalog& c, const std::string& path) {
    SplitKeys k;
    auto typed = [&](std::string_view key, GgufType want, const char* want_name) -> const MetaValue* {
        const MetaValue* v = c.meta(key);
        if (v && v->type != want)
            throw Error(ErrorCode::Malformed,
                        std::string(key) + " is " + meta_type_words(*v) + "; llama.cpp writes and reads it as " + want_name,
                        path);
        return v;
    };
    if (const auto* v = typed(kGgufSplitNo, GgufType::U16, "u16")) k.no = static_cast<std::uint16_t>(v->bits);
    if (const auto* v = typed(kGgufSplitCount, GgufType::U16, "u16")) k.count = static_cast<std::uint16_t>(v->bits);
    if (const auto* v = typed(kGgufSplitTensorsCount, GgufType::I32, "i32"))
        k.tensors = static_cast<std::int32_t>(static_cast<std::uint32_t>(v->bits));
    return k;
}

// Take the split keys out of `c.metadata` into c.gguf_split_kvs (with their positions).
void take_split_keys(Catalog& c) {
    std::vector<MetaKv> kept;
    kept.reserve(c.metadata.size());
    for (std::size_t i = 0; i < c.metadata.size(); ++i) {
        if (is_gguf_split_key(c.metadata[i].key)) c.gguf_split_kvs.emplace_back(i, std::move(c.metadata[i]));
        else kept.push_back(std::move(c.metadata[i]));
    }
    c.metadata = std::move(kept);
}

std::string file_name(const std::string& p) { return fs::path(p).filename().string(); }

}  // namespace

Catalog open_gguf_model(MappedFilePtr file, const std::string& path) {
    Catalog named = parse_gguf(std::move(file), path);
    const SplitKeys nk = read_split_keys(named, path);
    const std::uint32_t count = nk.count.value_or(0);
    if (count <= 1) {  // one file (a merged file says 0, a one-part set 1)
        named.gguf_data_offsets = {named.gguf_data_offset};
        take_split_keys(named);
        return named;
    }
    const std::string count_txt = std::to_string(count);
    if (!nk.no)
        throw Error(ErrorCode::Malformed,
                    "split.count says the model is split into " + count_txt + " files, but split.no (which part this is) is missing",
                    path);
    if (*nk.no >= count)
        throw Error(ErrorCode::Malformed,
                    "split.no " + std::to_string(*nk.no) + " is not a part of a " + count_txt + "-part set (0 … " +
                        std::to_string(count - 1) + ")",
                    path);
    const auto name = parse_gguf_split_name(path);
    if (!name || name->no != *nk.no + 1u || name->count != count)
        throw Error(ErrorCode::Malformed,
                    "part " + std::to_string(*nk.no + 1) + " of a " + count_txt +
                        "-part split GGUF, but its name does not end in \"" +
                        gguf_split_path("", *nk.no + 1u, count) +
                        "\": llama.cpp finds the other parts by that name (rename it back)",
                    path);

    Catalog cat;
    cat.format = Format::Gguf;
    cat.path = path;
    cat.display_name = file_name(path);
    std::optional<std::int32_t> tensors_count;
    std::unordered_map<std::string, std::uint32_t> part_of;  // tensor name → part index
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string part_path = gguf_split_path(name->prefix, i + 1, count);
        const std::string part_words = "part " + std::to_string(i + 1) + " of " + count_txt;
        Catalog part;
        if (i == *nk.no) {
            part = std::move(named);
        } else {
            std::error_code ec;
            if (!fs::exists(part_path, ec))
                throw Error(ErrorCode::Io,
                            part_words + " of the split GGUF that " + file_name(path) +
                                " belongs to is missing (every part must sit beside the others under its own name)",
                            part_path);
            part = parse_gguf(MappedFile::open(part_path), part_path);
        }
        const SplitKeys k = read_split_keys(part, part_path);
        if (!k.no)
            throw Error(ErrorCode::Malformed, part_words + " of a split GGUF, but split.no (which part it is) is missing",
                        part_path);
        if (*k.no != i)
            throw Error(ErrorCode::Malformed,
                        "its split.no says part " + std::to_string(*k.no + 1) + ", its name " + part_words +
                            " (a part of another set, or renamed)",
                        part_path);
        if (k.count && *k.count != count)
            throw Error(ErrorCode::Malformed,
                        "split.count is " + std::to_string(*k.count) + ", the set " + file_name(path) + " belongs to has " +
                            count_txt + " parts (a part of another set?)",
                        part_path);
        if (i == 0) {
            if (!k.tensors)
                throw Error(ErrorCode::Malformed,
                            "part 1 of a split GGUF without split.tensors.count (llama.cpp requires it to check the parts)",
                            part_path);
            tensors_count = k.tensors;
        } else if (k.tensors && *k.tensors != *tensors_count) {
            throw Error(ErrorCode::Malformed,
                        "split.tensors.count is " + std::to_string(*k.tensors) + ", part 1 says " +
                            std::to_string(*tensors_count) + " (a part of another set?)",
                        part_path);
        }
        if (i > 0 && part.gguf_big_endian != cat.gguf_big_endian)
            throw Error(ErrorCode::Unsupported, "byte order differs from part 1's", part_path);
        for (auto& t : part.tensors) {
            const auto [it, fresh] = part_of.emplace(t.name, i);
            if (!fresh)
                throw Error(ErrorCode::Malformed,
                            "tensor also in part " + std::to_string(it->second + 1) + " (" +
                                file_name(gguf_split_path(name->prefix, it->second + 1, count)) + ")",
                            part_path, t.name);
            t.shard = i;
            cat.tensors.push_back(std::move(t));
        }
        for (auto& n : part.notes) cat.notes.push_back(file_name(part_path) + ": " + n);
        cat.shards.push_back(std::move(part.shards.at(0)));
        cat.gguf_data_offsets.push_back(part.gguf_data_offset);
        if (i == 0) {
            cat.metadata = std::move(part.metadata);
            cat.gguf_version = part.gguf_version;
            cat.gguf_big_endian = part.gguf_big_endian;
            cat.gguf_data_offset = part.gguf_data_offset;
        }
    }
    if (static_cast<std::int64_t>(cat.tensors.size()) != *tensors_count)
        throw Error(ErrorCode::Malformed,
                    "the " + count_txt + " parts hold " + std::to_string(cat.tensors.size()) +
                        " tensors, split.tensors.count says " + std::to_string(*tensors_count),
                    gguf_split_path(name->prefix, 1, count));
    take_split_keys(cat);
    cat.index_names();
    return cat;
}

}  // namespace amn
