// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file safetensors.hpp
/// safetensors reading: 8-byte little-endian header length N, N bytes of
/// JSON header ({name: {dtype, shape, data_offsets}, "__metadata__": {str:
/// str}}), then the data area; data_offsets are relative to the end of the
/// header. Matches the upstream `safetensors` format and its validation.

#include "anamnesis/catalog.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace amn {

/// Largest header accepted (bytes), as upstream safetensors.
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100ull << 20;

struct SafetensorsEntry {
    std::string name;
    std::string dtype_name;        ///< as written
    DType dtype = DType::Unknown;  ///< Unknown when the name is not a safetensors dtype
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0, end = 0;  ///< data_offsets, relative to the data area
};

struct SafetensorsHeader {
    std::uint64_t header_size = 0;  ///< N (JSON bytes, padding included)
    std::vector<std::pair<std::string, std::string>> metadata;  ///< `__metadata__`, in file order
    std::vector<SafetensorsEntry> tensors;  ///< in header order
    std::uint64_t data_size = 0;    ///< bytes after the header
};

/// Parse and validate the header of a whole safetensors file `bytes`.
/// Checks: file ≥ 8 bytes; N ≤ kMaxSafetensorsHeader and 8 + N ≤ size; the
/// JSON is one object (no trailing garbage, no duplicate keys); every entry
/// has a string dtype, an integer array shape of rank ≤ 8 whose element
/// count does not overflow, and data_offsets [begin, end] with begin ≤ end ≤
/// data size and end − begin = numel × dtype size (known dtypes); no two
/// tensors overlap; `__metadata__` maps strings to strings.
/// An unknown dtype string is not an error here (the tensor stays listable
/// with DType::Unknown); the plan refuses to convert it.
/// \throws Error{Truncated} (file shorter than 8 bytes or than 8 + N),
///         Error{LimitExceeded} (N too large, rank > 8),
///         Error{BadJson} (syntax, wrong value types, duplicate keys),
///         Error{OutOfRange} (offsets past the data area, begin > end),
///         Error{SizeMismatch} (byte size ≠ shape × dtype, numel overflow),
///         Error{Overlap} (two tensors share bytes) — each naming `file`
///         and, where one is concerned, the tensor.
SafetensorsHeader parse_safetensors_header(std::span<const std::uint8_t> bytes, const std::string& file);

/// Parse one safetensors file and append its tensors (absolute offsets,
/// sorted by offset) to `catalog` as shard number catalog.shards.size().
/// \throws as parse_safetensors_header, plus Error{Io} when unreadable.
void append_safetensors_shard(Catalog& catalog, const std::string& path);

/// As above, for an already mapped file (or an owned buffer: fuzzing, tests).
/// \throws as parse_safetensors_header.
void append_safetensors_shard(Catalog& catalog, MappedFilePtr file);

/// Open a sharded model from its `*.safetensors.index.json`: every shard in
/// `weight_map` is parsed; each tensor must live in the shard the map names.
/// \throws Error{BadJson} (malformed index), Error{Malformed} (a weight_map
///         entry missing from its shard, a name in two shards), Error{Io}.
Catalog open_safetensors_index(const std::string& index_path);

}  // namespace amn
