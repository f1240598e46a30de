// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file formats.hpp
/// Internal: the table of container formats open_model() (catalog.cc)
/// dispatches on. Each row names a format, says whether a file is one (by
/// its first bytes, or for safetensors its name or header shape) and opens
/// it. Rows are tried in order; the first match wins. Adding a format = one
/// row in formats.cc + its parser in this folder. This layer depends only on
/// the Catalog data type, never on open_model().
#include "anamnesis/catalog.hpp"
#include "anamnesis/mapped_file.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace amn::detail {

/// One row of the format table.
struct FormatSniffer {
    /// Short name of the row ("gguf", "npy", "zip", "pth", "onnx", "safetensors").
    std::string_view name;
    /// True when the file is of this format. `head` holds the first (up to
    /// 64) bytes, `path` is the file's path, `file_size` its size.
    bool (*matches)(std::span<const std::uint8_t> head, const std::string& path, std::uint64_t file_size);
    /// Parse the file (already mapped as `file`) into a catalog.
    Catalog (*open)(MappedFilePtr file, const std::string& path);
};

/// The format table, in dispatch order: magic bytes first (GGUF and the old
/// GGML magics, NPY, ZIP = PyTorch checkpoint or NPZ, legacy PyTorch), then
/// ONNX by name (`.onnx`) or its first protobuf fields, then
/// safetensors by name or header shape, so a broken `.safetensors` file
/// reaches the safetensors parser and its precise error.
std::span<const FormatSniffer> format_table() noexcept;

/// The first row of format_table() that matches, or nullptr.
const FormatSniffer* sniff_format(std::span<const std::uint8_t> head, const std::string& path,
                                  std::uint64_t file_size) noexcept;

/// True when the first bytes look like a safetensors file: an 8-byte LE
/// length followed by '{'.
bool looks_like_safetensors(std::span<const std::uint8_t> head, std::uint64_t file_size);

}  // namespace amn::detail
