// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file npy.hpp
/// NumPy `.npy` and `.npz` sources (format spec: `numpy.lib.format`).
///
/// An `.npy` file is the magic `\x93NUMPY`, a version (1.0, 2.0 or 3.0), a
/// little-endian header length (2 bytes in v1, 4 in v2/v3) and a header that
/// is a Python dict literal — `{'descr': '<f4', 'fortran_order': False,
/// 'shape': (3, 4), }` — parsed here by a tiny bounded literal parser (it is
/// not JSON, and nothing is evaluated). The array data follows, stored
/// C-order or Fortran-order, in the byte order the descr names.
///
/// Supported descrs: `b1`, `i1`/`u1`, `i2`/`u2`, `i4`/`u4`, `i8`/`u8`, `f2`,
/// `f4`, `f8`, `c8`, `c16` with byte order `<`, `>` or `|`, and `<V2`/`>V2`
/// as BF16 — the descr numpy writes for `ml_dtypes.bfloat16` (JAX), whose
/// dtype kind is 'V' with a byte order; a plain void `|V2` (no byte order) is
/// refused as raw bytes. Object arrays (`|O`), structured dtypes, strings,
/// datetimes, `f16`/`f12` (long double) are refused by name.
///
/// Tensors are never copied: TensorInfo points into the mapping (or, for
/// deflated `.npz` members, into one owned buffer holding every member
/// inflated). Big-endian arrays set `TensorInfo::big_endian`, Fortran-order
/// arrays set `TensorInfo::strides` (column-major element strides); the
/// `strided` passthrough recipe turns both into contiguous little-endian
/// rows on conversion. `TensorInfo::dtype_name` is the registry name ("F32",
/// "BF16"); the descr as written is kept in Catalog::metadata
/// ("<tensor>.descr" for `.npz`, "descr" for `.npy`).

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/mapped_file.hpp"
#include "anamnesis/zip.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace amn {

/// Limits of the header parser (Error{LimitExceeded} beyond them).
inline constexpr std::uint64_t kNpyMaxHeaderBytes = 1u << 20;  ///< header dict text
inline constexpr int kNpyMaxNesting = 16;                       ///< literal nesting depth

/// A parsed NPY header.
struct NpyHeader {
    int major = 1, minor = 0;            ///< format version
    std::string descr;                   ///< as written ("<f4", "<V2")
    DType dtype = DType::Unknown;        ///< registry type
    bool big_endian = false;             ///< descr byte order '>' (for element size > 1)
    bool fortran_order = false;          ///< data stored column-major
    std::vector<std::uint64_t> shape;    ///< as written (numpy order); {} for a 0-d array
    std::uint64_t data_offset = 0;       ///< bytes from the start of the .npy to the data
    std::uint64_t data_bytes = 0;        ///< numel × element size
};

/// Parse the header of the `.npy` bytes `npy` and check that the data it
/// declares fits (exactly: trailing bytes are an error) in `npy`.
/// \throws Error{Malformed} for a bad magic, version, header syntax, missing
///   or extra keys; Error{Unsupported} naming object arrays ("object array
///   (descr '|O'): would need pickle"), structured/string/datetime dtypes;
///   Error{UnknownDtype} for other descrs; Error{LimitExceeded} for a header
///   over kNpyMaxHeaderBytes, nesting over kNpyMaxNesting, rank over
///   kMaxRank or a size that overflows 64 bits; Error{Truncated} when the
///   data is shorter than declared, Error{SizeMismatch} when longer.
///   No file name is set (callers add it).
NpyHeader parse_npy_header(std::span<const std::uint8_t> npy);

/// parse_npy_header() from the first bytes `head` of a `.npy` of
/// `total_size` bytes (head.size() ≤ total_size): the header must lie in
/// `head`, the data it declares must fill the rest of `total_size` exactly.
/// Lets a deflated NPZ member be checked before it is inflated.
/// \throws as parse_npy_header() (Truncated also when the header runs past
///   `head`).
NpyHeader parse_npy_header(std::span<const std::uint8_t> head, std::uint64_t total_size);

/// The first bytes of the `.npy` member `e` of `zip`, through the end of its
/// header when the preamble is readable (at most 12 + kNpyMaxHeaderBytes
/// bytes; the whole member when it is shorter). Only that much is inflated.
/// \throws as ZipArchive::read_prefix().
std::vector<std::uint8_t> read_npy_head(const ZipArchive& zip, const ZipEntry& e);

/// Element strides (row-major dimension order, in elements) of a
/// Fortran-order array of `shape`: {1, s0, s0·s1, …}. Empty for rank ≤ 1
/// (C and Fortran order coincide).
std::vector<std::int64_t> fortran_strides(const std::vector<std::uint64_t>& shape);

/// Open a `.npy` file as a one-tensor Catalog (Format::Npy). The tensor is
/// named after the file stem ("weights.npy" → "weights").
/// \throws Error (see parse_npy_header, plus Io) with the file name set.
Catalog open_npy(const std::string& path);

/// open_npy() on a mapping the caller already has (tests, fuzzing, owned
/// buffers); `path` is what errors and the catalog report.
Catalog parse_npy(MappedFilePtr file, const std::string& path);

/// Open a `.npz` archive (Format::Npz): one tensor per `*.npy` member, named
/// by the member name without ".npy". Other members are skipped with a note.
/// Stored members are mapped in place; when any member is deflated
/// (`np.savez_compressed`), every member is inflated (CRC checked, zip-bomb
/// limits of ZipLimits) into one owned buffer, which becomes the only shard.
/// \throws Error (ZIP errors of ZipArchive::open/read, parse_npy_header
///   errors with the member named as the tensor) with the file name set.
Catalog open_npz(const std::string& path);

/// open_npz() on a mapping the caller already has; `path` is what errors
/// and the catalog report.
Catalog parse_npz(MappedFilePtr file, const std::string& path);

}  // namespace amn
