// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/error.hpp"

namespace amn {
namespace {
std::string compose(const std::string& file, const std::string& tensor, const std::string& msg) {
    std::string s;
    s.reserve(file.size() + tensor.size() + msg.size() + 4);
    if (!file.empty()) s.append(file).append(": ");
    if (!tensor.empty()) s.append(tensor).append(": ");
    s.append(msg);
    return s;
}
}  // namespace

std::string_view error_code_name(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::Io: return "io";
        case ErrorCode::Truncated: return "truncated";
        case ErrorCode::Malformed: return "malformed";
        case ErrorCode::BadJson: return "bad-json";
        case ErrorCode::OutOfRange: return "out-of-range";
        case ErrorCode::Overlap: return "overlap";
        case ErrorCode::Gap: return "gap";
        case ErrorCode::SizeMismatch: return "size-mismatch";
        case ErrorCode::LimitExceeded: return "limit-exceeded";
        case ErrorCode::UnknownDtype: return "unknown-dtype";
        case ErrorCode::Unsupported: return "unsupported";
        case ErrorCode::MissingCompanion: return "missing-companion";
        case ErrorCode::BadCompanion: return "bad-companion";
        case ErrorCode::OutputExists: return "output-exists";
        case ErrorCode::Cancelled: return "cancelled";
        case ErrorCode::Usage: return "usage";
        case ErrorCode::UnsafePickle: return "unsafe-pickle";
        case ErrorCode::BadText: return "bad-text";
        case ErrorCode::NotRegularFile: return "not-regular-file";
        case ErrorCode::OutOfMemory: return "out-of-memory";
        case ErrorCode::Network: return "network";
    }
    return "error";
}

Error::Error(ErrorCode code, std::string message, std::string file, std::string tensor)
    : std::runtime_error(compose(file, tensor, message)),
      code_(code), message_(std::move(message)), file_(std::move(file)), tensor_(std::move(tensor)) {}

Error Error::with_file(std::string file) const {
    if (!file_.empty()) return *this;
    Error e(code_, message_, std::move(file), tensor_);
    e.notice_ = notice_;
    return e;
}

Error Error::with_tensor(std::string tensor) const {
    if (!tensor_.empty()) return *this;
    Error e(code_, message_, file_, std::move(tensor));
    e.notice_ = notice_;
    return e;
}

Error Error::with_notice(Notice notice) const {
    Error e = *this;
    e.notice_ = std::move(notice);
    return e;
}

}  // namespace amn
