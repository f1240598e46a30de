// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file error.hpp
/// The one exception type of the core. Every failure the core reports is an
/// `amn::Error` carrying a machine-readable code, the file and (when there is
/// one) the tensor it concerns, and a human sentence naming the cause.

#include "anamnesis/notice.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace amn {

/// What went wrong, in categories a caller can act on.
enum class ErrorCode {
    Io,                ///< open/read/write/rename failed (errno text in message)
    Truncated,         ///< the file ends before a structure it declares
    Malformed,         ///< bytes that do not follow the container format
    BadJson,           ///< JSON syntax error, wrong value type, duplicate key
    OutOfRange,        ///< an offset, size or index points outside its bounds
    Overlap,           ///< two tensors claim the same bytes
    Gap,               ///< bytes of a data area that no tensor covers (or offsets off the running size)
    SizeMismatch,      ///< byte size disagrees with shape × dtype
    LimitExceeded,     ///< a count/length beyond the parser's safety limits
    UnknownDtype,      ///< a dtype/type id the registry does not know
    Unsupported,       ///< understood but not convertible (names the feature)
    MissingCompanion,  ///< a quantized tensor lacks a tensor it needs (e.g. its scale)
    BadCompanion,      ///< a companion of the wrong dtype or shape
    OutputExists,      ///< the output exists and --force was not given
    Cancelled,         ///< the caller cancelled the operation
    Usage,             ///< invalid options passed to a core call
    UnsafePickle,      ///< a pickle referenced a global outside the allowlist
    BadText,           ///< a name or string that is not valid UTF-8 where the format requires it
    NotRegularFile,    ///< an input that is a FIFO, device or folder where a file is needed
    OutOfMemory,       ///< an allocation failed (std::bad_alloc), reported with the file
    Network,           ///< a remote read failed: connection, TLS, timeout, an HTTP error status (401/403/404/5xx, the Hub's
                       ///< X-Error-Code named), a redirect loop, a server that ignores Range or sends fewer bytes than it says
};

/// Short stable name of a code ("truncated", "missing-companion", …), used
/// in `--json` output.
std::string_view error_code_name(ErrorCode code) noexcept;

/// The core's exception. `what()` is the full one-line message:
/// "<file>: <tensor>: <message>" with the empty parts left out.
class Error : public std::runtime_error {
public:
    Error(ErrorCode code, std::string message, std::string file = {}, std::string tensor = {});

    ErrorCode code() const noexcept { return code_; }
    const std::string& file() const noexcept { return file_; }
    const std::string& tensor() const noexcept { return tensor_; }
    /// The cause alone, without file and tensor.
    const std::string& message() const noexcept { return message_; }

    /// A copy with the file set (when not set yet), for errors raised deep
    /// inside a parser that does not know the path.
    Error with_file(std::string file) const;
    /// A copy with the tensor set (when not set yet).
    Error with_tensor(std::string tensor) const;

    /// The refusal typed, for front ends that word it themselves, where the
    /// core has a kind for it (NoticeKind::AlreadyQuantized); nullopt for
    /// every other error. what() stays the core's English sentence.
    const std::optional<Notice>& notice() const noexcept { return notice_; }
    /// A copy carrying `notice` (notice()).
    Error with_notice(Notice notice) const;

private:
    ErrorCode code_;
    std::string message_, file_, tensor_;
    std::optional<Notice> notice_;
};

}  // namespace amn
