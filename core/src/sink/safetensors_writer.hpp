// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file safetensors_writer.hpp
/// A streaming safetensors writer: the header is laid out first, tensor
/// bytes are filled in place from any number of threads, and the file is
/// renamed onto its final path only when complete (a TensorSink, exec/tensor_sink.hpp).
///
/// File layout written (the safetensors format):
///   u64 little-endian N = header length in bytes;
///   N bytes of JSON: {"__metadata__": {string: string, …}, "<name>":
///   {"dtype": "<safetensors dtype>", "shape": [..], "data_offsets": [begin,
///   end]}, …} followed by spaces so that 8 + N is a multiple of 8 (as
///   upstream safetensors pads), so the data area is 8-byte aligned;
///   then the data area: every tensor's bytes, contiguous, no gaps, offsets
///   relative to the start of the data area.
/// Data order (as upstream `safetensors.serialize`): tensors sorted by
/// element size, largest first, then by name, so every tensor is naturally
/// aligned; the header lists them in that order after `__metadata__`
/// (omitted when the metadata is empty). Tail tensors (below) follow all
/// others, in the order they were added.
///
/// Tail tensors: a small tensor whose size is only known once the data is
/// computed (bitsandbytes' quant_state JSON, whose length depends on a
/// computed float) is declared with add_tail_tensor() and given its shape
/// and bytes with set_tail_tensor() any time before commit(). The header
/// reserves room for it when laid out; commit() writes the final header,
/// padded with spaces (JSON whitespace) to the reserved length.

#include "anamnesis/dtype.hpp"
#include "exec/tensor_sink.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace amn {

namespace detail {
class TempFile;
class SafetensorsSet;
}  // namespace detail

/// Streaming safetensors writer, a TensorSink: life cycle, temporary file,
/// atomic commit and thread safety as exec/tensor_sink.hpp says. The metadata is set
/// and tail tensors declared before allocate(): construct → set_metadata() →
/// add_tensor()/add_tail_tensor() × N → allocate() → write() × M and
/// set_tail_tensor() → commit().
class SafetensorsWriter final : public TensorSink {
public:
    /// Nothing is created until allocate(). `overwrite` = replace an existing
    /// file at commit (else OutputExists).
    explicit SafetensorsWriter(std::string path, bool overwrite = false);
    ~SafetensorsWriter() override;
    SafetensorsWriter(const SafetensorsWriter&) = delete;
    SafetensorsWriter& operator=(const SafetensorsWriter&) = delete;
    SafetensorsWriter(SafetensorsWriter&&) noexcept;
    SafetensorsWriter& operator=(SafetensorsWriter&&) noexcept;

    /// The `__metadata__` string map, written in this order (empty: no
    /// `__metadata__` entry). \throws Error{Usage} on a duplicate key or after allocate().
    void set_metadata(std::vector<std::pair<std::string, std::string>> metadata);
    const std::vector<std::pair<std::string, std::string>>& metadata() const noexcept;

    /// Data order in the file and the header. Upstream (the default): as
    /// `safetensors.serialize`, described above. AsAdded: the order the
    /// tensors were added (tail tensors still last); the caller keeps every
    /// tensor aligned — remember adds them sorted by element size, largest
    /// first, in the input's order within a size.
    /// MlxSaveSafetensors: as MLX's `save_safetensors` (mlx/io/safetensors.cpp
    /// at 846d17622, l.220-286) writes a dict that mlx-lm handed it through
    /// nanobind: the header compact JSON with every key sorted byte-wise
    /// (`__metadata__` among the tensor names; `data_offsets`, `dtype`,
    /// `shape` inside an entry: nlohmann::json's std::map), no padding; the
    /// data in the iteration order of a libstdc++ `std::unordered_map`
    /// into which the names were emplaced in the order added (MLX on Linux;
    /// macOS's libc++ orders differently). No tail tensors.
    enum class DataOrder { Upstream, AsAdded, MlxSaveSafetensors };
    /// \throws Error{Usage} after plan_offsets()/allocate().
    void set_data_order(DataOrder order);

    /// Add a tensor of `type` (any plain registered dtype with a safetensors
    /// name: BOOL, U8…U64, I8…I64, F16, BF16, F32, F64, F8_*, F4, F6_*) and
    /// row-major `shape` ({} = 0-d scalar of one element; a 0 in the shape =
    /// no data). Returns its index (order added).
    /// \throws Error{Usage} on an empty or duplicate name (the name
    ///         "__metadata__" included) or after allocate();
    ///         Error{UnknownDtype} for an unregistered type;
    ///         Error{Unsupported} for a ggml block type (no safetensors name);
    ///         Error{SizeMismatch} when the element count is not a whole
    ///         number of the type's blocks (F4 pairs, F6 quads) or overflows.
    std::size_t add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) override;

    /// Declare a tail tensor of `type` and rank `rank` whose shape and bytes
    /// come later through set_tail_tensor(). Returns its index. The header
    /// reserves room for `rank` dimensions of up to `max_digits` decimal
    /// digits each (1..20) and two 20-digit data offsets.
    /// \throws as add_tensor(); Error{Usage} for max_digits outside 1..20
    ///         or a rank above 8.
    std::size_t add_tail_tensor(std::string name, DType type, std::size_t rank, unsigned max_digits = 20);

    /// Give tail tensor `i` its shape and bytes (copied; meant for small
    /// tensors). May be called again (the last call wins).
    /// \throws Error{Usage} when `i` is not a tail tensor, before allocate()
    ///         or after commit()/abort(), or when the shape's rank or a
    ///         dimension's digits exceed what add_tail_tensor() reserved;
    ///         Error{SizeMismatch} when bytes.size() ≠ shape × type;
    ///         Error{OutOfRange} for a bad index.
    void set_tail_tensor(std::size_t i, std::vector<std::uint64_t> shape, std::span<const std::uint8_t> bytes) override;

    std::size_t tensor_count() const noexcept override;
    /// Bytes of tensor `i` (shape × type; 0 for a tail tensor not set yet).
    /// \throws Error{OutOfRange} for a bad index.
    std::uint64_t tensor_nbytes(std::size_t i) const override;
    /// Shape of tensor `i` as it will be written. \throws Error{OutOfRange}.
    const std::vector<std::uint64_t>& tensor_shape(std::size_t i) const;

    /// Fix the layout (data order, offsets, header) without creating anything
    /// and return the bytes the file needs (tail tensors excluded), so that a
    /// caller can check the free space for several files at once. After it,
    /// no tensor can be added; allocate() does it when not done yet.
    /// \throws Error{Usage} after allocate(); Error{SizeMismatch} on overflow.
    std::uint64_t plan_offsets();

    /// TensorSink::allocate() in the data order above; the header written is
    /// the 8-byte length and the JSON without tail tensors (the final header
    /// replaces it at commit). Error{OutputExists} unless `overwrite`;
    /// Error{SizeMismatch} when the sizes overflow.
    void allocate() override;

    /// Header length N (the u64 at the start), a multiple of 8 minus 8
    /// included: the data area starts at 8 + N. Valid after allocate().
    std::uint64_t header_bytes() const noexcept;
    /// Offset of tensor `i` relative to the data area. \throws
    /// Error{Usage} before allocate(), or for a tail tensor before commit();
    /// Error{OutOfRange} for a bad index.
    std::uint64_t tensor_offset(std::size_t i) const;
    /// Total file size (tail tensors included once set). Valid after allocate().
    std::uint64_t file_size() const noexcept;

    /// TensorSink::write(); also Error{Usage} for a tail tensor (use set_tail_tensor()).
    void write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) override;

    /// TensorSink::commit(), after writing the tail tensors and the final
    /// header; also Error{Usage} naming an unset tail tensor.
    void commit() override;

    /// TensorSink::abort().
    void abort() noexcept override;

    const std::string& path() const noexcept override;

private:
    // The output set (safetensors_set.hpp) commits its shards together with
    // index.json and config.json: finish() is commit() up to (not including)
    // the sync and rename of the file, which the set does for all files at once.
    friend class detail::SafetensorsSet;
    detail::TempFile& finish();
    void mark_committed() noexcept;

    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace amn
