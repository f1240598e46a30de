// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file gguf_set.hpp
/// Internal: a GGUF output cut into parts (a split set, llama.cpp's
/// `NAME-%05d-of-%05d.gguf`) as one TensorSink: one GgufWriter per part,
/// the free space checked for all parts before any is created, and one
/// commit for all (temp_file.hpp commit_together(): every part in place, or
/// on any failure none, replaced files restored). Which tensor and which
/// key/values go into which part is the split policy's (gguf_split.hpp);
/// this sink only holds the files. Life cycle, temporaries and thread
/// safety: exec/tensor_sink.hpp.

#include "sink/gguf_writer.hpp"
#include "exec/tensor_sink.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace amn::detail {

class GgufSet final : public TensorSink {
public:
    /// One file of the set.
    struct Part {
        std::string path;                ///< final path
        std::vector<GgufKv> kvs;         ///< its key/values, in file order
        bool pad_without_tensors = true; ///< GgufWriter::set_pad_without_tensors()
        bool dims_as_given = false;      ///< GgufWriter::set_dims_as_given()
    };
    /// \throws as GgufWriter::set_kvs() (naming the part's path);
    ///         Error{Usage} when `parts` is empty.
    GgufSet(std::vector<Part> parts, bool overwrite);
    ~GgufSet() override;
    GgufSet(const GgufSet&) = delete;
    GgufSet& operator=(const GgufSet&) = delete;

    std::size_t part_count() const noexcept;

    /// Add a tensor to part 0. \throws as GgufWriter::add_tensor().
    std::size_t add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) override;
    /// Add a tensor to part `part`; returns its index in the set (0, 1, …
    /// across parts in the order added). A name must be unique across the
    /// set. \throws Error{OutOfRange} for a bad part; Error{Usage} for a
    /// name already in another part; as GgufWriter::add_tensor().
    std::size_t add_tensor(std::size_t part, std::string name, DType type, std::vector<std::uint64_t> shape);

    std::size_t tensor_count() const noexcept override;
    std::uint64_t tensor_nbytes(std::size_t i) const override;

    /// Lay out every part, check the free space for all of them together
    /// (the error names the output folder), then create every temporary.
    /// \throws Error{Io}; Error{OutputExists} for the first part that exists
    ///         without `overwrite`; Error{Usage} when called twice.
    void allocate() override;
    /// GgufWriter::write() on the tensor's part (thread-safe).
    void write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) override;
    /// Every part complete, synced and renamed into place together.
    /// \throws Error{Usage} naming an incomplete tensor; Error{Io};
    ///         Error{OutputExists} when a part appeared meanwhile.
    void commit() override;
    void abort() noexcept override;
    /// The first part's final path.
    const std::string& path() const noexcept override;

    /// Final paths of the parts, in order.
    std::vector<std::string> paths() const;
    /// Size in bytes of part `p`'s file. Valid after allocate().
    std::uint64_t file_size(std::size_t p) const;
    /// Tensors in part `p`.
    std::size_t part_tensor_count(std::size_t p) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace amn::detail
