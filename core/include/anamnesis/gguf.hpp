// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file gguf.hpp
/// GGUF (llama.cpp / ggml) container: parsing into a Catalog, the file's
/// key/values for display and export, and `ollama:MODEL[:TAG]` resolution.
///
/// Reference: ggml `docs/gguf.md` (GGUF v2/v3) and gguf-py's GGUFReader.
/// Layout: magic "GGUF", u32 version, u64 tensor count, u64 key/value count,
/// the key/values, the tensor infos (name, u32 n_dims, u64 dims innermost
/// first, u32 ggml type, u64 offset relative to the data section), padding to
/// `general.alignment` (default 32), the data section. Big-endian files (all
/// numbers big-endian; detected from the version field) are read too.

#include "anamnesis/catalog.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

/// Parser safety limits. Counts and lengths above them raise
/// Error{LimitExceeded}; below them every length is still checked against
/// the bytes left in the file (Error{Truncated}).
struct GgufLimits {
    static constexpr std::uint64_t max_tensors = 1u << 20;        ///< tensor infos
    static constexpr std::uint64_t max_key_values = 1u << 20;     ///< metadata key/values
    static constexpr std::uint64_t max_string_bytes = 1u << 30;   ///< one string (key, value, name)
    static constexpr std::uint64_t max_array_elems = 1ull << 32;  ///< one array
    static constexpr unsigned max_array_depth = 8;                ///< arrays nested in arrays
    static constexpr std::uint64_t max_alignment = 1u << 24;      ///< general.alignment
};

/// True when `first_bytes` (at least 4) start with the GGUF magic, or with
/// the magic of its pre-GGUF predecessors (ggml "lmgg", GGMF, GGJT), which
/// `open_gguf` recognises in order to reject them by name.
bool is_gguf(std::span<const std::uint8_t> first_bytes) noexcept;

/// Parse the GGUF file at `path` (memory-mapped; tensor data is not read).
///
/// The catalog has format Gguf, one shard (the file), tensors in file order
/// with: `shape` in row-major (PyTorch) order = the GGUF dims reversed;
/// `dtype` from `dtype_from_ggml_id` and `dtype_name` ggml's name ("Q4_K")
/// or "ggml type N" for an id the registry does not know; `offset` absolute
/// in the file; `nbytes` = blocks × bytes per block; `big_endian` for
/// big-endian files. `metadata` holds every key/value in file order as a
/// typed MetaValue (metadata.hpp) — exact bits, arrays complete, strings as
/// stored; gguf_key_values() derives display text from it. `gguf_version`,
/// `gguf_big_endian` and `gguf_data_offset` are set.
///
/// Validation (every failure is an Error naming the file and, where there
/// is one, the tensor or key):
/// - magic other than GGUF → Malformed; GGUF v1, ggml/GGMF/GGJT → Unsupported;
///   a version above 3 → Unsupported;
/// - counts, string and array lengths, nesting, dims above GgufLimits or
///   kMaxRank → LimitExceeded; anything running past the end → Truncated;
/// - an unknown metadata value type, duplicate keys, a `general.alignment`
///   that is not a non-zero power-of-two u32 → Malformed;
/// - ggml's limits: an empty key → Malformed; a tensor name of 64 bytes or
///   more, more than 4 dims → LimitExceeded; a key or tensor name that is
///   not valid UTF-8 → BadText (string values are kept, bad bytes shown as
///   U+FFFD in JSON);
/// - tensor offsets: misaligned → Malformed, outside the data section →
///   OutOfRange; as ggml requires, in declaration order each offset must be
///   the running size of the tensors before it (each padded to the
///   alignment): below it → Overlap, above it → Gap; a row (innermost dim)
///   that is not whole blocks, or element/byte counts overflowing 64 bits →
///   SizeMismatch; duplicate tensor names → Malformed.
/// A tensor whose ggml type id the registry does not know is listed
/// (dtype_info() is null, dtype_name "ggml type N"); its size cannot be
/// checked, so `nbytes` is the distance to the next tensor (or the end of
/// the data) and a catalog note says so. Only converting it fails.
/// \throws Error as above, or Io when the file cannot be mapped.
Catalog open_gguf(const std::string& path);

/// The same on a mapping the caller already has (tests, fuzzing, owned
/// buffers); `path` is what errors and the catalog report.
Catalog parse_gguf(MappedFilePtr file, const std::string& path);

/// llama.cpp's split keys (`LLM_KV_SPLIT_*`): the part's 0-based index
/// (u16), the number of parts (u16), the tensors of all parts (i32).
inline constexpr std::string_view kGgufSplitNo = "split.no";
inline constexpr std::string_view kGgufSplitCount = "split.count";
inline constexpr std::string_view kGgufSplitTensorsCount = "split.tensors.count";
/// True for the three keys above.
bool is_gguf_split_key(std::string_view key) noexcept;

/// A path named as llama.cpp names the parts of a split set
/// (`llama_split_path`: "PREFIX-%05d-of-%05d.gguf", 1-based).
struct GgufSplitName {
    std::string prefix;     ///< the path before "-NNNNN-of-MMMMM.gguf"
    std::uint32_t no = 0;   ///< 1-based part number
    std::uint32_t count = 0;
};
/// `path` split into prefix, part and count when its name ends in
/// "-NNNNN-of-MMMMM.gguf" (at least five digits each, as %05d prints,
/// 1 ≤ NNNNN ≤ MMMMM); nullopt otherwise.
std::optional<GgufSplitName> parse_gguf_split_name(std::string_view path);
/// "PREFIX-%05d-of-%05d.gguf" for 1-based part `no` of `count`
/// (llama.cpp `llama_split_path`).
std::string gguf_split_path(std::string_view prefix, std::uint32_t no, std::uint32_t count);

/// The path the model of `cat` would have as one file: "PREFIX.gguf" when
/// it was opened from a split set (its first shard named
/// "PREFIX-00001-of-NNNNN.gguf"), else its first shard's path (cat.path
/// without shards). What default output names start from.
std::string gguf_unsplit_path(const Catalog& cat);

/// Open the GGUF model `file` (mapped, at `path`) belongs to, as llama.cpp's
/// loader does (llama-model-loader.cpp): a file whose `split.count` is 2 or
/// more is one part of a split set, and any part may be named. The set is
/// the parts `gguf_split_path(prefix, 1 … count)` beside it; each is parsed
/// (parse_gguf) and becomes one shard, in order; tensors are concatenated
/// in part order with their shard; `metadata` is part 1's key/values
/// without the split keys (Catalog::gguf_split_kvs keeps those), as reading
/// the merged file gives. A single file with split keys (a merged file has
/// `split.count` 0) reads the same way, its split keys taken out.
/// \throws what parse_gguf() throws for any part, naming that part; and,
///         naming the part concerned:
///         Error{Io} for a missing part ("part 2 of 3 … is missing");
///         Error{Malformed} when a split key has another type than
///         llama.cpp writes (u16, u16, i32), `split.no` ≥ `split.count`,
///         the named file's name does not end in "-%05d-of-%05d.gguf" for its
///         own split.no/split.count (llama.cpp finds the parts by name), a
///         part's `split.no` is not its place or its `split.count` or
///         `split.tensors.count` differs from part 1's (a part of another
///         set), a tensor name occurs in two parts, or the parts' tensors
///         do not add up to `split.tensors.count` (a set without it:
///         Malformed too, as llama.cpp requires it); Error{Unsupported}
///         when parts differ in byte order.
Catalog open_gguf_model(MappedFilePtr file, const std::string& path);

/// File-level facts for `amn parse` / `inspect`.
struct GgufInfo {
    std::uint32_t version = 0;
    bool big_endian = false;
    std::uint64_t alignment = 32;       ///< general.alignment or the default 32
    std::uint64_t data_offset = 0;      ///< absolute offset of the tensor data section
    std::uint64_t tensor_count = 0;
    std::uint64_t kv_count = 0;
    std::string architecture;           ///< general.architecture ("" when absent)
    std::string name;                   ///< general.name ("" when absent)
    std::optional<std::uint32_t> file_type;  ///< general.file_type (llama_ftype)
    /// One per file: the one file, or every part of a split set in order.
    struct Part {
        std::string path;
        std::uint64_t bytes = 0;         ///< file size
        std::uint64_t tensors = 0;       ///< tensors stored in it
        std::uint64_t data_offset = 0;   ///< absolute offset of its data section
    };
    std::vector<Part> parts;
    /// The split keys of the first file (Catalog::gguf_split_kvs), in file
    /// order; empty when it has none.
    std::vector<MetaKv> split_kvs;
};

/// One metadata key/value, for display and export.
struct GgufKeyValue {
    std::string key;
    /// Type in words: "u8" "i8" "u16" "i16" "u32" "i32" "u64" "i64" "f32"
    /// "f64" "bool" "string", arrays as "array[string]", "array[array[i32]]".
    std::string type;
    std::uint64_t count = 1;  ///< element count of an array (1 for a scalar)
    std::string json;         ///< the full value as JSON text
    /// The value as JSON text for display: arrays longer than
    /// `summary_items` keep their first items followed by one string
    /// element "… N more"; strings longer than 240 bytes are cut with
    /// "… (N bytes)". Equal to `json` when nothing was cut.
    std::string summary;
};

/// Facts of a catalog opened from a GGUF file or split set, from what the
/// parser stored in the catalog (no second read of the file). `kv_count`
/// counts the model's key/values (without the split keys).
/// \throws Error{Usage} when `cat` is not GGUF.
GgufInfo gguf_info(const Catalog& cat);

/// A vocab-only GGUF: no tensors, a `tokenizer.ggml.model` key (what
/// convert_hf_to_gguf.py --vocab-only writes; llama.cpp's
/// models/ggml-vocab-*.gguf). False for any other catalog.
bool is_vocab_only_gguf(const Catalog& cat);

/// Every key/value of a GGUF catalog in file order, derived from the typed
/// `cat.metadata` (meta_type_words(), meta_json(), meta_summary() keeping
/// `summary_items` array elements). With `with_json` false, `json` is left
/// empty (display only: the full text of a 256k-token vocabulary is
/// megabytes). \throws Error{Usage} when `cat` is not GGUF.
std::vector<GgufKeyValue> gguf_key_values(const Catalog& cat, std::size_t summary_items = 8, bool with_json = true);

/// All key/values as one JSON object text {"key": value, …} in file order,
/// arrays complete (tokenizer vocab included) — what `remember` stores in
/// the output's `__metadata__` under "gguf.kv". Floats are written with the
/// shortest round-trip form; NaN/±inf as the strings "NaN", "Infinity",
/// "-Infinity" (meta_json()). Works from `cat.metadata`, so also on a copied catalog.
std::string gguf_kv_json(const Catalog& cat);

/// llama.cpp's name of a `general.file_type` value ("Q4_K_M", "IQ3_M",
/// "MOSTLY_F16" → "F16" …); empty when unknown. Reads the file-type table
/// of gguf_ftype.hpp (llama_file_types()).
std::string_view llama_ftype_name(std::uint32_t file_type) noexcept;

/// True when `spec` starts with "ollama:".
bool is_ollama_spec(std::string_view spec) noexcept;

/// Resolve `ollama:MODEL[:TAG]` (TAG defaults to "latest"; MODEL may be
/// "name", "namespace/name" or "host/namespace/name", the library namespace
/// and registry.ollama.ai host being the defaults) to the path of the
/// model's GGUF blob in the local ollama store: $OLLAMA_MODELS, else
/// ~/.ollama/models; manifest manifests/HOST/NAMESPACE/NAME/TAG → the layer
/// with mediaType "application/vnd.ollama.image.model" → blobs/sha256-HEX.
/// \throws Error{Usage} for a malformed spec, Error{Io} naming the path
///         looked at when the manifest or blob is missing, Error{BadJson}
///         for an unreadable manifest, Error{Malformed} when it has no model layer.
std::string resolve_ollama(std::string_view spec);

}  // namespace amn
