// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// What test_cli_hf_gguf and test_cli_hf_arch share: the shared hf-gguf
// fixtures' folder (and the skip when it is missing), sha256 of a file, a
// flat folder copy, writing a file whole.
#include "test_support.hpp"

#include <QByteArray>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QtTest/QtTest>

namespace amn::test {

inline QString hf_gguf_dir() {
    const auto shared = amn::test::shared_fixtures_dir();
    return shared.empty() ? QString() : QString::fromStdString(shared) + "/hf-gguf";
}

#define SKIP_WITHOUT_HF_GGUF(var)                                                  \
    AMN_REQUIRE_REFERENCE_DIR(ref_dir_);                                           \
    const QString var = ::amn::test::hf_gguf_dir();                                \
    if (!QFileInfo::exists(var + "/manifest.json")) {                              \
        if (amn::test::reference_required()) QFAIL("hf-gguf fixtures missing");    \
        QSKIP("hf-gguf fixtures missing");                                         \
    }

inline QByteArray sha256_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

// The files of `from` (not its subfolders) into `to`, created.
inline bool copy_dir(const QString& from, const QString& to) {
    QDir().mkpath(to);
    for (const auto& e : QDir(from).entryInfoList(QDir::Files | QDir::NoDotAndDotDot))
        if (!QFile::copy(e.filePath(), to + "/" + e.fileName())) return false;
    return true;
}

inline void write_bytes(const QString& path, const QByteArray& b) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(b);
}

}  // namespace amn::test
