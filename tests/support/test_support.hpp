// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Helpers shared by the Qt Test suites.

#include "anamnesis/error.hpp"

#include <QString>
#include <QStringList>
#include <QtTest/QtTest>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// Built with AddressSanitizer (scripts/sanitize.sh: every instrumented
// process runs many times slower). Suites that sweep many similar cases take a
// stride of them there; the g++ run (scripts/test.sh) takes every case.
#if defined(__SANITIZE_ADDRESS__)
#define AMN_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AMN_TEST_SANITIZED 1
#endif
#endif

namespace amn::test {

#ifdef AMN_TEST_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

/// The shared reference fixtures directory ($AMN_REFERENCE_DIR, else the
/// configured default). Empty when it does not exist.
std::string reference_dir();
/// ../shared/fixtures (parent of the reference dir); empty when missing.
std::string shared_fixtures_dir();
/// True when $AMN_REQUIRE_REFERENCE=1: a missing reference dir is a failure.
bool reference_required();

/// Use at the top of a test that needs the reference data:
/// skips (or fails when required) when it is missing.
#define AMN_REQUIRE_REFERENCE_DIR(dirvar)                                           \
    const std::string dirvar = ::amn::test::reference_dir();                          \
    if (dirvar.empty()) {                                                             \
        if (::amn::test::reference_required())                                        \
            QFAIL("reference fixtures missing and AMN_REQUIRE_REFERENCE=1");          \
        QSKIP("reference fixtures not found (set AMN_REFERENCE_DIR)");                \
    }

/// Project source dir, build dir, amn binary, /usr/bin/python3.
std::string source_dir();
std::string binary_dir();
std::string cli_path();
std::string python();

/// A tensor read back from a safetensors file by an independent minimal
/// reader (no code shared with the core parser).
struct RawTensor {
    std::string dtype;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint8_t> bytes;
};
struct RawSafetensors {
    std::map<std::string, std::string> metadata;
    std::map<std::string, RawTensor> tensors;
};
/// \returns nullopt (and records a QTest failure message) on unreadable files.
std::optional<RawSafetensors> read_safetensors_raw(const std::string& path);
/// Every tensor of every *.safetensors file in folder `dir` (not its
/// subfolders), by name; empty when one of them is unreadable.
std::map<std::string, RawTensor> read_safetensors_dir(const QString& dir);

/// Write `tensors` as a safetensors file (in name order, header unpadded):
/// expected outputs assembled in tests, edited copies of fixtures.
void write_safetensors_raw(const std::string& path, const std::map<std::string, RawTensor>& tensors);

/// Compare two safetensors files: same names, dtypes, shapes and bytes.
/// Returns an empty string when identical, else a description of the first
/// differences (count of differing elements and the first index).
std::string compare_safetensors(const std::string& actual, const std::string& expected);

/// List of case directories under reference_dir()/kind (sorted).
QStringList reference_cases(const QString& kind);

/// Read a whole file; empty on failure.
std::vector<std::uint8_t> read_file(const std::string& path);
void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes);

/// Run a program, capture exit code and output.
struct RunResult { int exit_code = -1; QString out, err; };
RunResult run(const QString& program, const QStringList& args, int timeout_ms = 300000,
              const QStringList& extra_env = {});
/// Run amn with `args`.
RunResult run_amn(const QStringList& args, int timeout_ms = 300000);

/// Files (recursively, relative paths) under `dir`, sorted.
QStringList list_files(const QString& dir);

/// Runs `f()`; the code of the amn::Error it throws (its message into
/// `*what` when given), or nullopt when it returns normally. Any other
/// exception propagates.
template <class F>
std::optional<ErrorCode> error_code_of(F&& f, std::string* what = nullptr) {
    try {
        f();
    } catch (const Error& e) {
        if (what) *what = e.what();
        return e.code();
    }
    return std::nullopt;
}

}  // namespace amn::test
