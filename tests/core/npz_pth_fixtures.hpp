// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Shared by test_npz, test_pth, test_zip: generates the fixtures of
// fixtures/npz_pth/make_npz_pth_fixtures.py (numpy/torch write the inputs
// and the expected outputs) into a temporary directory, once per suite.
#include "anamnesis/error.hpp"
#include "test_support.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace amn::test {

class NpzPthFixtures {
public:
    /// Runs the generator; returns an error text (empty on success).
    QString generate() {
        dir_ = std::make_unique<QTemporaryDir>();
        if (!dir_->isValid()) return "cannot create a temporary directory";
        const auto probe = run(QString::fromStdString(python()), {"-c", "import numpy, torch"}, 120000);
        if (probe.exit_code != 0) return "SKIP: python3-numpy/python3-torch missing: " + probe.err.left(200);
        const QString script = QString::fromStdString(source_dir()) + "/fixtures/npz_pth/make_npz_pth_fixtures.py";
        const auto r = run(QString::fromStdString(python()), {script, dir_->path()}, 300000);
        if (r.exit_code != 0) return "fixture generator failed: " + r.err.right(2000);
        QFile f(dir_->path() + "/manifest.json");
        if (!f.open(QIODevice::ReadOnly)) return "no manifest.json";
        manifest_ = QJsonDocument::fromJson(f.readAll()).object();
        return {};
    }
    std::string path(const QString& name) const { return (dir_->path() + "/" + name).toStdString(); }
    QString dir() const { return dir_->path(); }
    QJsonArray list(const char* key) const { return manifest_[key].toArray(); }

private:
    std::unique_ptr<QTemporaryDir> dir_;
    QJsonObject manifest_;
};

/// Run `fn` and return the Error it throws (nullopt when it does not throw).
inline std::optional<Error> error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const Error& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace amn::test

/// In initTestCase: generate, skipping when numpy/torch are missing.
#define AMN_GENERATE_NPZ_PTH_FIXTURES(fx)                                  \
    do {                                                                   \
        const QString err_ = (fx).generate();                              \
        if (err_.startsWith("SKIP: ")) QSKIP(qPrintable(err_.mid(6)));     \
        QVERIFY2(err_.isEmpty(), qPrintable(err_));                        \
    } while (0)
