// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file tensor_sink.hpp
/// The Sink: where a job's output tensors go. Internal to the core. The
/// runner (run_output_plan.hpp) owns this interface and fills any sink
/// through it; every writer of sink/ (GgufWriter, GgufSet,
/// SafetensorsWriter, SafetensorsSet) keeps this one contract and documents
/// only what it adds to it.
///
///   construct → add_tensor() × N → allocate() → write() × M (any order, any
///   thread) → commit()            (or abort() at any time)
///
/// allocate() fixes every tensor's place, checks the free space and creates a
/// temporary file ".<name>.amn-XXXXXXXX.tmp" beside the final path, sized to
/// the final length (sparse: padding reads as zeros); write() fills tensor
/// bytes in place; commit() checks every byte was written, flushes
/// (fdatasync) and renames the file onto its final path. abort(), or
/// destroying the sink without a successful commit(), removes the temporary
/// file: nothing half-written is ever left behind. Nothing is created before
/// allocate().
///
/// The caller makes sure the output is not one of its inputs: with
/// overwriting asked for, an input would be replaced (a sink does not know
/// the inputs).
///
/// Thread safety: write() (and set_tail_tensor()) may run concurrently from
/// several threads (positional pwrite, bookkeeping under a mutex); every
/// other member must not run concurrently with anything else.

#include "anamnesis/dtype.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace amn {

class TensorSink {
public:
    virtual ~TensorSink() = default;

    /// Declare one tensor; returns its index (0, 1, … in the order added).
    /// `shape` is row-major (outermost first); {} is a 0-d scalar.
    /// \throws Error{Usage} on a duplicate or empty name or after allocate();
    ///         Error{Unsupported}/Error{UnknownDtype} for a type the format
    ///         cannot hold; Error{SizeMismatch} when shape × type is not a
    ///         whole number of bytes or overflows. (Each writer documents its own rules.)
    virtual std::size_t add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) = 0;

    /// Number of tensors added.
    virtual std::size_t tensor_count() const noexcept = 0;
    /// Bytes of tensor `i` (without padding). \throws Error{OutOfRange}.
    virtual std::uint64_t tensor_nbytes(std::size_t i) const = 0;

    /// Fix the layout, check the free space, create the temporary file at its
    /// final size and write the header.
    /// \throws Error{OutputExists} when the output exists and overwriting was
    ///         not asked for; Error{Io} when the folder is missing, not
    ///         writable or too small; Error{Usage} when called twice.
    virtual void allocate() = 0;

    /// Write `bytes` at byte `offset` of tensor `tensor`'s data (positional
    /// write). Thread-safe: may be called concurrently for any ranges;
    /// writing a range again is allowed (the last write wins).
    /// \throws Error{Usage} before allocate() or after commit()/abort();
    ///         Error{OutOfRange} for a bad index or a range past the tensor's
    ///         end; Error{Io} when the write fails (ENOSPC …).
    virtual void write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) = 0;

    /// Give a tail tensor (declared by the writer's own add_tail_tensor():
    /// its length is known only once computed) its shape and bytes, after
    /// allocate() and before commit(). Thread-safe like write().
    /// \throws Error{Unsupported} for a format without tail tensors (the
    ///         default); else as the writer documents.
    virtual void set_tail_tensor(std::size_t tensor, std::vector<std::uint64_t> shape,
                                 std::span<const std::uint8_t> bytes);

    /// Check every byte of every tensor was written, flush (fdatasync) and
    /// rename onto the final path.
    /// \throws Error{Usage} naming the first incomplete tensor (the temporary
    ///         file stays until abort()/destruction), before allocate() or
    ///         twice; Error{Io} when flushing or renaming fails;
    ///         Error{OutputExists} when the output appeared meanwhile.
    virtual void commit() = 0;

    /// Remove the temporary file, if any. Safe at any time and repeatedly.
    virtual void abort() noexcept = 0;

    /// The final path.
    virtual const std::string& path() const noexcept = 0;

protected:
    TensorSink() = default;
    TensorSink(const TensorSink&) = default;
    TensorSink& operator=(const TensorSink&) = default;
    TensorSink(TensorSink&&) = default;
    TensorSink& operator=(TensorSink&&) = default;
};

}  // namespace amn
