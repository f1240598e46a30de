// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file catalog.hpp
/// The parsed result of a model: every stored tensor (name, dtype, shape,
/// byte range, owning shard) and the file's metadata. Produced by a Source
/// (`open_model`), consumed by scheme detection (`plan.hpp`), printed by
/// `amn parse` and shown by the GUI tree.

#include "anamnesis/dtype.hpp"
#include "anamnesis/mapped_file.hpp"
#include "anamnesis/metadata.hpp"
#include "anamnesis/notice.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace amn {

struct OnnxGraph;  // onnx.hpp

/// Container format of the input.
enum class Format { Safetensors, Gguf, Npy, Npz, Pth, Onnx };

/// "safetensors", "gguf", "npy", "npz", "pth", "onnx".
std::string_view format_name(Format f) noexcept;

/// Maximum tensor rank any parser accepts.
inline constexpr std::size_t kMaxRank = 8;

/// One stored tensor, exactly as the file has it.
struct TensorInfo {
    std::string name;              ///< full name as stored ("model.layers.0.mlp.down_proj.weight")
    DType dtype = DType::Unknown;  ///< registry type; Unknown when the file's type string is not known
    std::string dtype_name;        ///< the type as the file spells it ("F8_E4M3", "Q4_K", "ggml type 99")
    std::vector<std::uint64_t> shape;  ///< row-major (PyTorch) order, outermost first; {} = scalar
    std::uint32_t shard = 0;       ///< index into Catalog::shards
    std::uint64_t offset = 0;      ///< absolute byte offset of the data in the shard's file
    std::uint64_t nbytes = 0;      ///< bytes of stored data
    /// Element strides (row-major order, in elements) when the data is not
    /// C-contiguous (Fortran-order NPY, strided PyTorch views); empty = contiguous.
    std::vector<std::int64_t> strides;
    bool big_endian = false;       ///< stored big-endian: bytes are swapped when converting
    std::uint64_t storage_offset_elems = 0;  ///< first element inside the byte range (views)

    /// Product of the shape (1 for a scalar). Parsers guarantee it does not overflow.
    std::uint64_t numel() const noexcept;
};

/// One file of the model (a safetensors shard, the GGUF, the NPZ …).
struct Shard {
    std::string path;     ///< path as opened
    MappedFilePtr file;   ///< the mapping; owned buffers for inflated entries
};

/// A byte range whose CRC-32 the container records but that a parser mapped
/// in place without reading (stored ZIP entries of NPZ/PTH files). Opening
/// stays header-only; remember_to_safetensors verifies every check before it
/// writes anything.
struct IntegrityCheck {
    std::uint32_t shard = 0;       ///< index into Catalog::shards
    std::uint64_t offset = 0;      ///< absolute byte offset in the shard
    std::uint64_t len = 0;         ///< bytes covered
    std::uint32_t crc32 = 0;       ///< expected CRC-32 (ZIP / zlib polynomial)
    std::string what;              ///< what it covers, for the error ("archive/data/0")
};

/// The parsed model.
struct Catalog {
    Format format = Format::Safetensors;
    std::string path;                 ///< what the user opened (file, index.json or directory)
    std::string display_name;         ///< short name for UIs (file or directory name)
    std::vector<Shard> shards;
    std::vector<TensorInfo> tensors;  ///< in file order (safetensors: by data offset)
    /// File-level metadata, typed, in file order (metadata.hpp): GGUF
    /// key/values exactly as stored (integers, floats, bools, strings,
    /// arrays); safetensors `__metadata__` and index `metadata` ("index."
    /// keys), NPY/NPZ/PTH container facts as strings. Parsed once by the
    /// format parser; text and JSON are derived from it (meta_json() …).
    std::vector<MetaKv> metadata;
    /// GGUF only (zero otherwise): the header's version, whether its numbers
    /// are big-endian, and the absolute byte offset of the tensor data
    /// section, as the parser read them (gguf_info()).
    std::uint32_t gguf_version = 0;
    bool gguf_big_endian = false;
    std::uint64_t gguf_data_offset = 0;
    /// GGUF only: llama.cpp's split keys (`split.no`, `split.count`,
    /// `split.tensors.count`) of the first file (part 1 of a split set, or
    /// the one file), taken out of `metadata` by open_model(): they say how
    /// the model is cut into files, not what it is, so a split set reads as
    /// the file `llama-gguf-split --merge` makes of it, less those keys.
    /// Each is kept with its position in that file's key/value list (the
    /// merge and split writers put them back where the tools do). Empty
    /// for files without them and for open_gguf(), which keeps every key.
    std::vector<std::pair<std::size_t, MetaKv>> gguf_split_kvs;
    /// GGUF only: the absolute offset of each shard's tensor data section
    /// (one per part of a split set; gguf_data_offset is part 1's).
    std::vector<std::uint64_t> gguf_data_offsets;
    /// Raw text of `config.json` beside the model, when present.
    std::optional<std::string> config_json;
    std::string config_path;          ///< its path (empty when absent)
    /// `quantization_config` from config.json (or `quantize_config.json`;
    /// or MLX's `quantization` object when config.json has no
    /// quantization_config: {"bits": "4", "group_size": "64",
    /// "lm_head.bits": "6", "model.layers.1.self_attn.o_proj": "false"})
    /// flattened to dotted keys with JSON-scalar text values:
    /// {"quant_method": "fp8", "weight_block_size.0": "128", "fmt": "e4m3",
    ///  "config_groups.group_0.weights.strategy": "channel", "kv_cache_scheme": "null"}.
    /// Strings are unquoted; numbers and booleans as written; null as "null".
    std::map<std::string, std::string> quantization_config;
    /// Notes a parser wants the user to see (skipped non-tensor pickle values …).
    std::vector<std::string> notes;
    /// Values the output leaves out because they are no tensors: PyTorch
    /// pickle values (epoch counters, hyper-parameters …) and NPZ members
    /// that are not arrays, summed over the shards of an index. `notes`
    /// names each of them, up to a limit ("… and N more …" then counts the rest).
    std::uint64_t skipped_values = 0;
    /// Warnings about the companion files, each naming its file, what is
    /// ambiguous and what was believed: a key that occurs twice in
    /// config.json (the last one is used, as Python's `json` and so
    /// transformers read it): NoticeKind::DuplicateKey. Shown by `amn
    /// inspect` with the plan's.
    std::vector<Notice> warnings;
    /// Deferred integrity checks over mapped data (see IntegrityCheck).
    std::vector<IntegrityCheck> integrity_checks;
    /// ONNX only (null otherwise): the top-level graph's nodes, which say
    /// how initializers are used (onnx.hpp; the quantization detector reads it).
    std::shared_ptr<const OnnxGraph> onnx;

    /// Index of the tensor called `name`, or nullopt.
    std::optional<std::size_t> find(std::string_view name) const;
    /// Pointer to the first stored byte of `t` (inside its shard's mapping).
    const std::uint8_t* data(const TensorInfo& t) const noexcept;
    /// The metadata value under `key`, or nullptr.
    const MetaValue* meta(std::string_view key) const noexcept { return meta_find(metadata, key); }
    /// Value of a quantization_config key, or nullopt.
    std::optional<std::string> qconfig(std::string_view key) const;
    /// Sum of all shard sizes in bytes.
    std::uint64_t file_bytes() const noexcept;

    /// Build the name index; parsers call it once after filling `tensors`.
    /// \throws Error{Malformed} naming the first duplicated tensor name.
    void index_names();

private:
    std::unordered_map<std::string, std::size_t> by_name_;
};

/// Open any supported input: a `.safetensors` file, a
/// `*.safetensors.index.json`, a directory holding either, a `.gguf` (any
/// part of a split set `NAME-%05d-of-%05d.gguf` opens the whole set as one
/// model: one shard per part, tensors in part order, key/values of part 1
/// without the split keys; gguf.hpp open_gguf_model()), a
/// `.npy`/`.npz`, a `.pth`/`.pt`/`.bin` PyTorch ZIP or legacy checkpoint.
/// The format is detected from the content (magic bytes), not the name.
/// Reads `config.json` (and `quantize_config.json`, ModelOpt's
/// `hf_quant_config.json`) beside the model.
/// Those files are read with Python's `json` semantics: a repeated key's last
/// value wins, with a Catalog::warnings entry naming it.
/// \throws Error (Io, Truncated, Malformed, BadJson, OutOfRange, Overlap,
///         SizeMismatch, LimitExceeded, Unsupported) naming the file.
Catalog open_model(const std::string& path);

/// A shape as text, outermost dimension first: "[4096, 11008]"; "[]" for a
/// scalar. The one spelling of shapes in messages, the CLI and the GUI.
std::string shape_to_string(std::span<const std::uint64_t> shape);

}  // namespace amn
