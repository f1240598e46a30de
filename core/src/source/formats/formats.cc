// SPDX-License-Identifier: MIT OR Apache-2.0
#include "source/formats/formats.hpp"

#include "anamnesis/gguf.hpp"
#include "anamnesis/npy.hpp"
#include "anamnesis/onnx.hpp"
#include "anamnesis/pth.hpp"
#include "anamnesis/safetensors.hpp"

#include <array>
#include <cstring>

namespace amn::detail {

bool looks_like_safetensors(std::span<const std::uint8_t> head, std::uint64_t file_size) {
    if (head.size() < 9) return false;
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | head[static_cast<std::size_t>(i)];
    if (n < 2 || n > file_size - 8) return false;
    std::size_t i = 8;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\t' || head[i] == '\r')) ++i;
    return i < head.size() && head[i] == '{';
}

namespace {

bool match_gguf(std::span<const std::uint8_t> head, const std::string&, std::uint64_t) { return is_gguf(head); }
Catalog open_gguf_row(MappedFilePtr file, const std::string& path) {
    // One file or every part of its split set (also names the old GGML/GGJT magics as unsupported).
    return open_gguf_model(std::move(file), path);
}

bool match_npy(std::span<const std::uint8_t> head, const std::string&, std::uint64_t) {
    return head.size() >= 6 && std::memcmp(head.data(), "\x93NUMPY", 6) == 0;
}
Catalog open_npy_row(MappedFilePtr, const std::string& path) { return open_npy(path); }

bool match_zip(std::span<const std::uint8_t> head, const std::string&, std::uint64_t) {
    return head.size() >= 4 &&
           (std::memcmp(head.data(), "PK\x03\x04", 4) == 0 || std::memcmp(head.data(), "PK\x05\x06", 4) == 0);
}
Catalog open_zip_row(MappedFilePtr, const std::string& path) {
    return open_zip_model(path);  // PyTorch ZIP checkpoint (has data.pkl) or .npz
}

bool match_pth(std::span<const std::uint8_t> head, const std::string&, std::uint64_t) {
    return is_legacy_pth(head.data(), head.size());
}
Catalog open_pth_row(MappedFilePtr, const std::string& path) { return open_pth(path); }

bool match_onnx(std::span<const std::uint8_t> head, const std::string& path, std::uint64_t file_size) {
    if (path.ends_with(".onnx")) return true;
    // Without the name, only a file that cannot be a safetensors one (whose
    // 8-byte header length may begin with the same bytes, 1 MiB headers).
    return !path.ends_with(".safetensors") && !looks_like_safetensors(head, file_size) && looks_like_onnx(head);
}
Catalog open_onnx_row(MappedFilePtr file, const std::string& path) { return open_onnx(std::move(file), path); }

bool match_safetensors(std::span<const std::uint8_t> head, const std::string& path, std::uint64_t file_size) {
    return path.ends_with(".safetensors") || looks_like_safetensors(head, file_size);
}
Catalog open_safetensors_row(MappedFilePtr, const std::string& path) {
    Catalog cat;
    cat.format = Format::Safetensors;
    append_safetensors_shard(cat, path);
    cat.index_names();
    return cat;
}

constexpr std::array<FormatSniffer, 6> kFormats{{
    {"gguf", match_gguf, open_gguf_row},
    {"npy", match_npy, open_npy_row},
    {"zip", match_zip, open_zip_row},
    {"pth", match_pth, open_pth_row},
    {"onnx", match_onnx, open_onnx_row},
    {"safetensors", match_safetensors, open_safetensors_row},
}};

}  // namespace

std::span<const FormatSniffer> format_table() noexcept { return kFormats; }

const FormatSniffer* sniff_format(std::span<const std::uint8_t> head, const std::string& path,
                                  std::uint64_t file_size) noexcept {
    for (const auto& row : kFormats)
        if (row.matches(head, path, file_size)) return &row;
    return nullptr;
}

}  // namespace amn::detail
