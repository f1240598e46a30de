// SPDX-License-Identifier: MIT OR Apache-2.0
#include "test_support.hpp"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cstring>
#include <fstream>

namespace amn::test {

std::string reference_dir() {
    QByteArray env = qgetenv("AMN_REFERENCE_DIR");
    QString dir = env.isEmpty() ? QString::fromUtf8(AMN_REFERENCE_DIR_DEFAULT) : QString::fromLocal8Bit(env);
    if (!QFileInfo(dir).isDir()) return {};
    return QFileInfo(dir).absoluteFilePath().toStdString();
}

std::string shared_fixtures_dir() {
    std::string ref = reference_dir();
    if (!ref.empty()) return QFileInfo(QString::fromStdString(ref) + "/..").canonicalFilePath().toStdString();
    QString dir = QString::fromUtf8(AMN_SHARED_FIXTURES_DIR_DEFAULT);
    return QFileInfo(dir).isDir() ? dir.toStdString() : std::string{};
}

bool reference_required() { return qgetenv("AMN_REQUIRE_REFERENCE") == "1"; }

std::string source_dir() { return AMN_SOURCE_DIR; }
std::string binary_dir() { return AMN_BINARY_DIR; }
std::string cli_path() { return AMN_CLI_PATH; }
std::string python() { return AMN_PYTHON; }

std::vector<std::uint8_t> read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return {};
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Deliberately independent of the core's parser: QJsonDocument is fine in tests.
std::map<std::string, RawTensor> read_safetensors_dir(const QString& dir) {
    std::map<std::string, RawTensor> all;
    for (const QString& f : QDir(dir).entryList({"*.safetensors"}, QDir::Files)) {
        auto st = read_safetensors_raw((dir + "/" + f).toStdString());
        if (!st) return {};
        for (auto& [k, v] : st->tensors) all.emplace(k, std::move(v));
    }
    return all;
}

std::optional<RawSafetensors> read_safetensors_raw(const std::string& path) {
    auto bytes = read_file(path);
    if (bytes.size() < 8) return std::nullopt;
    std::uint64_t n = 0;
    std::memcpy(&n, bytes.data(), 8);
    if (n > bytes.size() - 8) return std::nullopt;
    QJsonParseError perr;
    auto doc = QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char*>(bytes.data() + 8), qsizetype(n)), &perr);
    if (!doc.isObject()) return std::nullopt;
    RawSafetensors out;
    const auto obj = doc.object();
    const std::size_t base = 8 + n;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (it.key() == "__metadata__") {
            const auto m = it.value().toObject();
            for (auto mi = m.begin(); mi != m.end(); ++mi)
                out.metadata[mi.key().toStdString()] = mi.value().toString().toStdString();
            continue;
        }
        const auto t = it.value().toObject();
        RawTensor rt;
        rt.dtype = t["dtype"].toString().toStdString();
        for (const auto& d : t["shape"].toArray()) rt.shape.push_back(std::uint64_t(d.toDouble()));
        const auto off = t["data_offsets"].toArray();
        const auto b = std::uint64_t(off[0].toDouble()), e = std::uint64_t(off[1].toDouble());
        if (b > e || base + e > bytes.size()) return std::nullopt;
        rt.bytes.assign(bytes.begin() + std::ptrdiff_t(base + b), bytes.begin() + std::ptrdiff_t(base + e));
        out.tensors[it.key().toStdString()] = std::move(rt);
    }
    return out;
}

void write_safetensors_raw(const std::string& path, const std::map<std::string, RawTensor>& tensors) {
    std::string header = "{";
    std::vector<std::uint8_t> data;
    for (const auto& [n, t] : tensors) {
        header += (header.size() > 1 ? ",\"" : "\"") + n + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) header += (i ? "," : "") + std::to_string(t.shape[i]);
        header += "],\"data_offsets\":[" + std::to_string(data.size()) + "," + std::to_string(data.size() + t.bytes.size()) + "]}";
        data.insert(data.end(), t.bytes.begin(), t.bytes.end());
    }
    header += "}";
    std::vector<std::uint8_t> file(8 + header.size());
    for (int i = 0; i < 8; ++i) file[std::size_t(i)] = std::uint8_t(std::uint64_t(header.size()) >> (8 * i));
    std::memcpy(file.data() + 8, header.data(), header.size());
    file.insert(file.end(), data.begin(), data.end());
    write_file(path, file);
}

static std::size_t elem_size(const std::string& dtype) {
    if (dtype == "F64" || dtype == "I64" || dtype == "U64" || dtype == "C64") return 8;
    if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
    if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
    return 1;
}

std::string compare_safetensors(const std::string& actual, const std::string& expected) {
    auto a = read_safetensors_raw(actual);
    auto e = read_safetensors_raw(expected);
    if (!a) return "cannot read " + actual;
    if (!e) return "cannot read " + expected;
    std::string diff;
    for (const auto& [name, et] : e->tensors) {
        auto it = a->tensors.find(name);
        if (it == a->tensors.end()) { diff += "missing tensor " + name + "; "; continue; }
        const auto& at = it->second;
        if (at.dtype != et.dtype) { diff += name + ": dtype " + at.dtype + " != " + et.dtype + "; "; continue; }
        if (at.shape != et.shape) { diff += name + ": shape differs; "; continue; }
        if (at.bytes != et.bytes) {
            const std::size_t es = elem_size(et.dtype);
            std::size_t ndiff = 0, first = SIZE_MAX;
            for (std::size_t i = 0; i + es <= std::min(at.bytes.size(), et.bytes.size()); i += es)
                if (std::memcmp(&at.bytes[i], &et.bytes[i], es) != 0) { ++ndiff; if (first == SIZE_MAX) first = i / es; }
            diff += name + ": " + std::to_string(ndiff) + " elements differ (first at " + std::to_string(first) + "); ";
        }
    }
    for (const auto& [name, at] : a->tensors)
        if (!e->tensors.count(name)) diff += "unexpected tensor " + name + "; ";
    return diff;
}

QStringList reference_cases(const QString& kind) {
    QDir dir(QString::fromStdString(reference_dir()) + "/" + kind);
    QStringList out;
    for (const auto& e : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) out << dir.filePath(e);
    return out;
}

RunResult run(const QString& program, const QStringList& args, int timeout_ms, const QStringList& extra_env) {
    QProcess p;
    if (!extra_env.isEmpty()) {
        auto env = QProcessEnvironment::systemEnvironment();
        for (const auto& kv : extra_env) env.insert(kv.section('=', 0, 0), kv.section('=', 1));
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    RunResult r;
    if (!p.waitForStarted(30000)) { r.err = "failed to start " + program; return r; }
    if (!p.waitForFinished(timeout_ms)) { p.kill(); p.waitForFinished(); r.err = "timeout"; return r; }
    r.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

RunResult run_amn(const QStringList& args, int timeout_ms) {
    return run(QString::fromStdString(cli_path()), args, timeout_ms);
}

QStringList list_files(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

}  // namespace amn::test
