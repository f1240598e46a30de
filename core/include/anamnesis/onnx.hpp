// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file onnx.hpp
/// ONNX models (`.onnx`, onnx/onnx.proto `ModelProto`, docs/ExternalData.md).
///
/// The catalog lists exactly the top-level graph's initializers
/// (`GraphProto.initializer`, what `onnx.load(...).graph.initializer`
/// holds): never Constant-node tensors, sparse initializers or the
/// initializers of sub-graphs. Their data stays where it is:
///
/// - `raw_data` (TensorProto field 9): a byte range of the mapped `.onnx`;
/// - external data (`data_location` EXTERNAL, `external_data` keys
///   `location`, `offset`, `length`): a byte range of the mapped external
///   file, one shard per file;
/// - the typed fields (`float_data`, `int32_data`, `int64_data`,
///   `double_data`, `uint64_data`) are protobuf varints or packed fixed-width
///   values, not the tensor's bytes: they are decoded once into one owned
///   buffer (the catalog's last shard, `<model>#typed-fields`). Its size is
///   at most twice the bytes those fields take in the file (an int32_data
///   FLOAT16 varint of 1 byte becomes 2), so it is bounded by the file size
///   (itself at most 2 GiB, protobuf's message limit).
///
/// The wire format of `ModelProto`, `GraphProto` and `TensorProto` is walked
/// with protobuf's `io::CodedInputStream` so that `raw_data` is never copied
/// (a generated `TensorProto::ParseFromArray` copies it into a std::string);
/// nodes, value infos, opset imports and string pairs are parsed with the
/// classes protoc generates at build time from the `onnx/onnx.proto` of
/// Debian's libonnx-dev (protobuf-lite, linked statically:
/// core/CMakeLists.txt says why). Nothing is executed.
///
/// Dtypes, in amn's names (`TensorInfo::dtype_name`): FLOAT F32, UINT8 U8,
/// INT8 I8, UINT16 U16, INT16 I16, INT32 I32, INT64 I64, BOOL BOOL, FLOAT16
/// F16, DOUBLE F64, UINT32 U32, UINT64 U64, COMPLEX64 C64, COMPLEX128 C128,
/// BFLOAT16 BF16, FLOAT8E4M3FN F8_E4M3, FLOAT8E4M3FNUZ F8_E4M3FNUZ,
/// FLOAT8E5M2 F8_E5M2, FLOAT8E5M2FNUZ F8_E5M2FNUZ, FLOAT4E2M1 F4, FLOAT8E8M0
/// F8_E8M0. Types amn's registry has no row for keep `DType::Unknown` and
/// are named U4, I4 (two per byte, first element in the low nibble), U2, I2
/// (four per byte from bit 0 up) and STRING (no bytes: `nbytes` 0); their
/// `nbytes` is ⌈numel·bits/8⌉. Unknown ids are "ONNX type N".
///
/// Container facts go to Catalog::metadata: `onnx.ir_version`,
/// `onnx.producer_name`, `onnx.producer_version`, `onnx.domain`,
/// `onnx.model_version`, `onnx.opset.<domain>` (one per opset import,
/// "ai.onnx" for the default domain), `onnx.graph.name`, `onnx.graph.inputs`
/// and `onnx.graph.outputs` ("name: TYPE [dims]" strings), `onnx.nodes`,
/// `onnx.op.<domain>.<op_type>` (nodes per operator, the default domain
/// without prefix: `onnx.op.MatMul`, `onnx.op.com.microsoft.MatMulNBits`),
/// `onnx.metadata.<key>` (`metadata_props`). The nodes that consume
/// initializers are kept typed in Catalog::onnx (OnnxGraph) for the
/// quantization detector (plan/schemes/onnx.cc).

#include "anamnesis/catalog.hpp"
#include "anamnesis/mapped_file.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn {

/// Limits of the parser (Error{LimitExceeded} beyond them).
inline constexpr std::uint64_t kOnnxMaxModelBytes = 0x7FFFFFFF;  ///< protobuf's 2 GiB message limit
inline constexpr std::size_t kOnnxMaxNodes = 1u << 22;           ///< nodes of the top-level graph
inline constexpr std::size_t kOnnxMaxInitializers = 1u << 22;    ///< initializers of the top-level graph

/// One node of the top-level graph, as far as the plan needs it.
struct OnnxNode {
    std::string name;                 ///< NodeProto.name (may be empty)
    std::string op_type;              ///< "MatMulNBits", "DequantizeLinear", …
    std::string domain;               ///< "" (ai.onnx) or "com.microsoft", …
    std::vector<std::string> inputs;  ///< input names in order; "" = an omitted optional input
    std::vector<std::string> outputs; ///< output names in order
    /// The node's INT attributes (AttributeProto type INT), in file order.
    std::vector<std::pair<std::string, std::int64_t>> ints;

    /// The INT attribute `key`, or nullopt when the node has none.
    std::optional<std::int64_t> attr(std::string_view key) const noexcept;
    /// True when the node is `op` of `domain` ("" and "ai.onnx" are the same domain).
    bool is(std::string_view domain, std::string_view op) const noexcept;
};

/// The typed part of an ONNX model the plan reads: every node of the
/// top-level graph in file order (sub-graphs of If/Loop/Scan are not
/// descended into).
struct OnnxGraph {
    std::vector<OnnxNode> nodes;
};

/// True when `head` (the first bytes of a file) starts like a serialized
/// ModelProto: field 1 (ir_version, a varint 1…127) followed by the tag of
/// another ModelProto field. `.onnx` files are recognised by name too
/// (formats.cc).
bool looks_like_onnx(std::span<const std::uint8_t> head) noexcept;

/// Parse the ONNX model mapped as `file` (at `path`) into a catalog
/// (Format::Onnx): one shard for the `.onnx`, one per external data file,
/// and the typed-field buffer last when an initializer uses a typed field.
/// External data: `location` is relative to the model's folder and may name
/// a subfolder; absolute paths, `..` components, empty components and
/// symbolic links on the way are refused (onnx checker.cc rules);
/// `offset` (decimal, default 0) and `length` (decimal; absent = to the end
/// of the file) must be inside the file and `length` must equal the
/// tensor's size; `checksum`, `basepath` and unknown keys are ignored.
/// \throws Error{Truncated} when a protobuf field runs past its message or
///   the file, or external data is shorter than its offset + length;
///   Error{Malformed} for invalid wire data, a tensor without a data field,
///   a typed field that does not fit the data type, a negative dimension, an
///   unparsable offset/length; Error{OutOfRange} for a negative or
///   overflowing offset/length; Error{SizeMismatch} when raw_data, a typed
///   field or external data holds another number of bytes/values than
///   shape × dtype; Error{Unsupported} for segmented tensors (`segment`) and
///   an external location that escapes the model's folder; Error{Io} for a
///   missing external file; Error{LimitExceeded} for a file over 2 GiB,
///   rank over kMaxRank, more than kOnnxMaxNodes nodes or
///   kOnnxMaxInitializers initializers, a numel overflowing 64 bits;
///   Error{Malformed} for a duplicated initializer name. Every error names
///   the file and, when there is one, the initializer.
Catalog open_onnx(MappedFilePtr file, const std::string& path);

/// open_onnx() of the file at `path`. \throws as above, Error{Io} when it cannot be mapped.
Catalog open_onnx(const std::string& path);

}  // namespace amn
