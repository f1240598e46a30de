// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file gguf_writer.hpp
/// A streaming GGUF v3 writer, a plain container (header, key/values, tensor
/// infos, data) whose output is byte for byte what ggml's `gguf.cpp` writer
/// produces (and so what llama.cpp's `llama-quantize` writes). Which
/// key/values and tensors go in is the caller's policy (llama-quantize's
/// key/value rules: gguf_ftype.hpp).
///
/// File layout written (ggml `gguf_write_out`, GGUF v3, little-endian):
///   "GGUF", u32 version = 3, u64 tensor count, u64 key/value count,
///   the key/values in order (u64-length key, u32 value type, value),
///   the tensor infos in order (u64-length name, u32 n_dims, n_dims × u64
///   dims innermost first, u32 ggml type id, u64 offset relative to the data
///   section), zero padding to the alignment, then every tensor's bytes in
///   the order added, each followed by zero padding to the alignment (the
///   last one too, as llama-quantize does).
/// Tensor offsets: the first is 0, each next one is the previous offset plus
/// the previous size rounded up to the alignment (ggml `gguf_add_tensor`).
/// The alignment is `general.alignment` (a u32 power of two) when the
/// key/values carry it, else 32 (GGUF_DEFAULT_ALIGNMENT).

#include "anamnesis/dtype.hpp"
#include "anamnesis/metadata.hpp"
#include "exec/tensor_sink.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace amn {
namespace detail {
class GgufSet;
class TempFile;
}  // namespace detail

// GgufType, GgufValue (= MetaValue), GgufKv (= MetaKv) and gguf_find_kv()
// are declared in metadata.hpp.

/// The encoded bytes of one key/value as ggml writes it (u64 key length,
/// key, u32 type, value; arrays: u32 element type, u64 count, elements).
/// \throws Error{Usage} for an invalid value (array item of the wrong type,
///         a type outside GgufType).
std::vector<std::uint8_t> gguf_encode_kv(const GgufKv& kv);

/// Streaming GGUF v3 writer, a TensorSink: life cycle, temporary file,
/// atomic commit and thread safety as exec/tensor_sink.hpp says. The key/values are set
/// before allocate(): construct → set_kvs()/set()/remove() → add_tensor() × N
/// → allocate() → write() × M → commit().
class GgufWriter final : public TensorSink {
public:
    /// Nothing is created until allocate(). `overwrite` = replace an existing
    /// file at commit (else OutputExists).
    explicit GgufWriter(std::string path, bool overwrite = false);
    ~GgufWriter() override;
    GgufWriter(const GgufWriter&) = delete;
    GgufWriter& operator=(const GgufWriter&) = delete;
    GgufWriter(GgufWriter&&) noexcept;
    GgufWriter& operator=(GgufWriter&&) noexcept;

    /// Replace all key/values (kept in this order).
    /// \throws Error{Usage} on a duplicate key, a `general.alignment` that is
    ///         not a u32 power of two (ggml `gguf_check_reserved_keys`), or an
    ///         invalid value; or after allocate().
    void set_kvs(std::vector<GgufKv> kvs);
    /// Set one key the way ggml's gguf_set_val_* does: an existing key is
    /// removed, the new one appended at the end. \throws as set_kvs().
    void set(std::string key, GgufValue value);
    /// Remove a key (no-op when absent), ggml's gguf_remove_key. \throws Error{Usage} after allocate().
    void remove(std::string_view key);
    const std::vector<GgufKv>& kvs() const noexcept;

    /// Add a tensor; returns its index (0, 1, … in the order added = file order).
    /// `shape` is row-major (PyTorch order, outermost first); the file stores
    /// it reversed (innermost first) with ggml's n_dims rule: trailing
    /// innermost-first dims equal to 1 are not written (ggml_n_dims; at least
    /// one dim), so [1, 256] is stored as the 1-D [256] — unless
    /// set_dims_as_given(true).
    /// \throws Error{Usage} on a duplicate or empty name, a name of 64 bytes
    ///         or more (ggml GGML_MAX_NAME), or after allocate();
    ///         Error{Unsupported} for more than 4 dims (GGML_MAX_DIMS) or a
    ///         type without a ggml id; Error{UnknownDtype} for an unregistered
    ///         type; Error{SizeMismatch} when the row (innermost dim) is not a
    ///         whole number of blocks of `type` or the size overflows.
    std::size_t add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) override;

    std::size_t tensor_count() const noexcept override;

    /// Write every tensor's dims as given (gguf-py's GGUFWriter, which writes
    /// convert_hf_to_gguf's files: `n_dims = len(shape)`, so a [1, 32] tensor
    /// stays 2-D) instead of ggml's n_dims rule (the default: trailing
    /// innermost-first 1s dropped). Call before add_tensor().
    /// \throws Error{Usage} after a tensor was added or after allocate().
    void set_dims_as_given(bool as_given);
    /// A file without tensors ends after its key/values: ggml pads it to the
    /// alignment (the default, `pad` = true); gguf-py's GGUFWriter, which
    /// writes convert_hf_to_gguf's `--vocab-only` files, does not (false).
    /// \throws Error{Usage} after allocate().
    void set_pad_without_tensors(bool pad);
    /// Bytes of tensor `i` (blocks × block bytes, without padding).
    /// \throws Error{OutOfRange} for a bad index.
    std::uint64_t tensor_nbytes(std::size_t i) const override;

    /// TensorSink::allocate(); the header written is the key/values and tensor
    /// infos. Error{OutputExists} unless `overwrite`.
    void allocate() override;
    /// The file size allocate() will give (header, padded data), in bytes,
    /// without creating anything (a split set checks the free space for all
    /// its parts first). \throws Error{SizeMismatch} when it overflows;
    /// Error{Usage} after allocate().
    std::uint64_t plan_size();

    /// Alignment in use (general.alignment or 32). Valid after allocate().
    std::uint64_t alignment() const noexcept;
    /// Absolute offset of the data section. Valid after allocate().
    std::uint64_t data_offset() const noexcept;
    /// Absolute file offset of tensor `i`'s first byte. \throws Error{Usage}
    /// before allocate(), Error{OutOfRange} for a bad index.
    std::uint64_t tensor_offset(std::size_t i) const;
    /// Total file size. Valid after allocate().
    std::uint64_t file_size() const noexcept;

    /// TensorSink::write(). Writeback of the range to disk starts at once,
    /// without waiting (Linux sync_file_range), so commit()'s fdatasync waits
    /// for the tail only.
    void write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) override;

    /// TensorSink::commit().
    void commit() override;

    /// TensorSink::abort().
    void abort() noexcept override;

    const std::string& path() const noexcept override;

private:
    // A split output (gguf_set.hpp) commits its parts together: finish() is
    // commit() up to (not including) the sync and rename of the file, which
    // the set does for all parts at once.
    friend class detail::GgufSet;
    detail::TempFile& finish();
    void mark_committed() noexcept;

    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace amn
