// SPDX-License-Identifier: MIT OR Apache-2.0
// Reliability of amn on hostile and corrupt files (issue 14).
//
// 1. Regressions, one per class of finding: nothing left behind (corrupt
//    config.json, temporaries of killed runs), FIFOs refused, control
//    characters and invalid UTF-8 never reaching the terminal or JSON.
// 2. A corrupt-file corpus of our own: deterministic mutations (truncations,
//    bit flips, header lies) of a safetensors model folder, a GGUF, an NPZ and
//    a .pth, each run through `inspect --json`, `parse --json` and
//    `remember`, asserting for every mutant: exit 0 or 1; on 1 exactly one
//    stderr line naming a file of the run; nothing in the output folder after
//    exit 1; valid JSON after --json; after exit 0 an output that reads back.
//    AMN_MUTANTS=N changes the number of mutants per fixture (default 28).
#include "test_support.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <thread>

#include <signal.h>
#include <sys/stat.h>

namespace fs = std::filesystem;
using amn::test::read_file;
using amn::test::run;
using amn::test::run_amn;
using amn::test::write_file;

namespace {

QString sample() { return QString::fromStdString(amn::test::source_dir() + "/fixtures/sample/tiny-llama-fp8"); }

// Every entry under `dir`, hidden ones included (temporaries start with '.').
QStringList everything_under(const QString& dir) {
    QStringList out;
    std::error_code ec;
    if (!fs::exists(dir.toStdString(), ec)) return out;
    for (auto it = fs::recursive_directory_iterator(dir.toStdString(), ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        out << QString::fromStdString(fs::relative(it->path(), dir.toStdString()).string());
    out.sort();
    return out;
}

void copy_dir(const QString& from, const QString& to) {
    fs::create_directories(to.toStdString());
    for (const auto& e : fs::directory_iterator(from.toStdString()))
        if (e.is_regular_file()) fs::copy_file(e.path(), fs::path(to.toStdString()) / e.path().filename(), fs::copy_options::overwrite_existing);
}

// A minimal GGUF v3: one F32 tensor per name, 8 elements each.
std::vector<std::uint8_t> tiny_gguf(const std::vector<std::string>& names, const std::string& kv_value = "tiny") {
    std::vector<std::uint8_t> b;
    auto num = [&](std::uint64_t v, int n) { for (int i = 0; i < n; ++i) b.push_back(std::uint8_t(v >> (8 * i))); };
    auto str = [&](const std::string& s) {
        num(s.size(), 8);
        for (const char c : s) b.push_back(static_cast<std::uint8_t>(c));
    };
    for (const char c : {'G', 'G', 'U', 'F'}) b.push_back(static_cast<std::uint8_t>(c));
    num(3, 4);
    num(names.size(), 8);
    num(1, 8);
    str("general.name");
    num(8, 4);
    str(kv_value);
    for (std::size_t i = 0; i < names.size(); ++i) {
        str(names[i]);
        num(1, 4);
        num(8, 8);
        num(0, 4);  // F32
        num(32 * i, 8);
    }
    while (b.size() % 32) b.push_back(0);
    for (std::size_t i = 0; i < names.size() * 8; ++i) {
        const float f = float(i) * 0.5f;
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        num(u, 4);
    }
    return b;
}

// Deterministic generator (no std:: distribution: identical on every platform).
struct Lcg {
    std::uint64_t s;
    std::uint64_t next() { s = s * 6364136223846793005ull + 1442695040888963407ull; return s >> 33; }
    std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
};

struct Mutant {
    std::string label;
    std::vector<std::uint8_t> bytes;
};

std::uint64_t le64(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b[at + i];
    return v;
}
void put_le(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, int n) {
    for (int i = 0; i < n && at + i < b.size(); ++i) b[at + i] = std::uint8_t(v >> (8 * i));
}

// Truncations, bit flips (mostly in the first 2 KiB, where the headers
// are) and format-specific header lies.
std::vector<Mutant> mutate(const std::vector<std::uint8_t>& orig, const std::string& kind, int count, std::uint64_t seed) {
    std::vector<Mutant> out;
    Lcg rng{seed};
    const std::size_t n = orig.size();
    const int truncs = count / 4, lies = count / 4, flips = count - truncs - lies;
    std::vector<std::size_t> cuts = {0, 1, 7, 8, 9, 24, n / 2, n - 1};
    while (int(cuts.size()) < truncs) cuts.push_back(rng.below(n));
    for (int i = 0; i < truncs && i < int(cuts.size()); ++i) {
        const std::size_t c = std::min(cuts[i], n);
        out.push_back({"truncated to " + std::to_string(c), std::vector<std::uint8_t>(orig.begin(), orig.begin() + std::ptrdiff_t(c))});
    }
    for (int i = 0; i < flips; ++i) {
        auto b = orig;
        const std::size_t at = (i % 5 == 4) ? rng.below(n) : rng.below(std::min<std::size_t>(n, 2048));
        const int bit = int(rng.below(8));
        b[at] ^= std::uint8_t(1u << bit);
        out.push_back({"bit " + std::to_string(bit) + " of byte " + std::to_string(at) + " flipped", std::move(b)});
    }
    for (int i = 0; i < lies; ++i) {
        auto b = orig;
        std::string what;
        const int k = int(rng.below(4));
        if (kind == "safetensors" && n >= 8) {
            const std::uint64_t h = le64(b, 0);
            const std::int64_t d[] = {-1, 1, -8, 8};
            put_le(b, 0, h + std::uint64_t(d[k]), 8);
            what = "header length " + std::to_string(std::int64_t(d[k]));
        } else if (kind == "gguf" && n >= 24) {
            const std::size_t at = k < 2 ? 8 : 16;  // tensor count / kv count
            put_le(b, at, le64(b, at) + (k % 2 ? 1 : std::uint64_t(-1)), 8);
            what = std::string(k < 2 ? "tensor" : "key/value") + " count " + (k % 2 ? "+1" : "-1");
        } else if (kind == "zip" && n >= 22) {
            // The end of central directory record: entry counts, size, offset.
            std::size_t e = n - 22;
            while (e > 0 && !(b[e] == 'P' && b[e + 1] == 'K' && b[e + 2] == 5 && b[e + 3] == 6)) --e;
            const std::size_t at = e + (k == 0 ? 8 : k == 1 ? 10 : k == 2 ? 12 : 16);
            put_le(b, at, (k < 2 ? 1 : 0) + rng.below(3), k < 2 ? 2 : 4);
            what = "EOCD field at +" + std::to_string(at - e);
        } else {  // json (config.json): cut in the middle of a value, or a stray byte
            const std::size_t at = rng.below(n);
            if (k % 2) b.resize(at);
            else b.insert(b.begin() + std::ptrdiff_t(at), std::uint8_t(k == 0 ? '}' : 0xff));
            what = k % 2 ? "cut at " + std::to_string(at) : "stray byte at " + std::to_string(at);
        }
        out.push_back({"header lie: " + what, std::move(b)});
    }
    return out;
}

int mutant_count() {
    const QByteArray v = qgetenv("AMN_MUTANTS");
    return v.isEmpty() ? 28 : std::max(4, v.toInt());
}

}  // namespace

class TestCliMutations : public QObject {
    Q_OBJECT
    QTemporaryDir fx_;  // generated NPZ / PTH fixtures
    QString npz_, pth_;

private slots:
    void initTestCase();
    // ---- regressions ----
    void corruptConfigLeavesNothing();
    void multiFileOutputIsAllOrNothing();
    void staleTemporariesAreRemoved();
    void killedRunLeavesNoTemporary();
    void forcedRunRestoresReplacedFiles();
    void fifoIsRefused();
    void controlCharactersAreEscaped();
    void invalidUtf8NamesAreNamedErrors();
    void emptyTensorsConvert();
    // ---- the corpus ----
    void corpus_data();
    void corpus();
};

void TestCliMutations::initTestCase() {
    QVERIFY(fx_.isValid());
    const QString py = QString::fromStdString(amn::test::python());
    const QString script = R"(
import sys, numpy as np
d = sys.argv[1]
np.savez_compressed(d + '/tiny.npz', w=np.arange(24, dtype=np.float32).reshape(4, 6), b=np.ones(6, dtype=np.float16))
try:
    import torch
    torch.save({'w': torch.arange(24, dtype=torch.float32).reshape(4, 6), 'step': 3}, d + '/tiny.pth')
except ImportError:
    pass
)";
    const auto r = run(py, {"-c", script, fx_.path()}, 120000);
    if (r.exit_code == 0) {
        if (QFile::exists(fx_.filePath("tiny.npz"))) npz_ = fx_.filePath("tiny.npz");
        if (QFile::exists(fx_.filePath("tiny.pth"))) pth_ = fx_.filePath("tiny.pth");
    }
}

// 1(a): a config.json that is corrupt after its quantization_config was
// read lazily, then failed when re-emitted — after the safetensors were
// committed. It is now validated whole before any output exists.
void TestCliMutations::corruptConfigLeavesNothing() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("model-fp8");
    copy_dir(sample(), model);
    auto cfg = read_file((model + "/config.json").toStdString());
    const std::string text(cfg.begin(), cfg.end());
    const auto cut = text.find("\"intermediate_size\"");
    QVERIFY(cut != std::string::npos);
    cfg.resize(cut + 10);  // truncated after quantization_config
    write_file((model + "/config.json").toStdString(), cfg);
    for (const QString& out : {tmp.filePath("out-dir"), tmp.filePath("file-out/x.safetensors")}) {
        QDir().mkpath(tmp.filePath("file-out"));
        const auto r = run_amn({"remember", model, "-o", out});
        QCOMPARE(r.exit_code, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("config.json"), qPrintable(r.err));
        QVERIFY2(everything_under(tmp.filePath("file-out")).isEmpty(), qPrintable(everything_under(tmp.filePath("file-out")).join(' ')));
        QVERIFY(!QFile::exists(tmp.filePath("out-dir")));
    }
    // inspect names the broken file too (it used to pass silently).
    const auto r = run_amn({"inspect", model});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("config.json") && r.err.contains("not valid JSON"), qPrintable(r.err));
}

// 1(c): the output set (safetensors, config.json, copied files) is planned
// and committed as one: a conflict on any member means nothing is written.
// (core test_convert covers the rollback of a commit failing midway.)
void TestCliMutations::multiFileOutputIsAllOrNothing() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("model");
    copy_dir(sample(), model);
    QVERIFY(run_amn({"remember", model, "-o", tmp.filePath("out")}).exit_code == 0);
    const QString out2 = tmp.filePath("out2");
    QDir().mkpath(out2);
    write_file((out2 + "/config.json").toStdString(), {'{', '}'});
    auto r = run_amn({"remember", model, "-o", out2});
    QCOMPARE(r.exit_code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("already exists"), qPrintable(r.err));
    QCOMPARE(everything_under(out2), QStringList{"config.json"});
}

// 1(b): temporaries of killed runs. A named temp left in the folder (the
// fallback where O_TMPFILE is missing, or an older amn) is removed by the
// next run there, with one note naming it.
void TestCliMutations::staleTemporariesAreRemoved() {
    QTemporaryDir tmp;
    const QString stale = tmp.filePath(".x.safetensors.amn-deadbeef.tmp");
    write_file(stale.toStdString(), std::vector<std::uint8_t>(4096, 0));
    write_file(tmp.filePath(".keep.amn-notatemp.tmp").toStdString(), {1});  // not our pattern: kept
    const auto r = run_amn({"remember", sample() + "/model.safetensors", "-o", tmp.filePath("y.safetensors")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(!QFile::exists(stale));
    QVERIFY(QFile::exists(tmp.filePath(".keep.amn-notatemp.tmp")));
    QVERIFY2(r.err.contains(".x.safetensors.amn-deadbeef.tmp") && r.err.contains("interrupted run"), qPrintable(r.err));
    // The named-temp path itself (AMN_NO_O_TMPFILE=1) writes the same file and leaves no temp.
    QDir().mkpath(tmp.filePath("named"));
    const auto r2 = run(QString::fromStdString(amn::test::cli_path()),
                        {"remember", sample() + "/model.safetensors", "-o", tmp.filePath("named/z.safetensors")}, 60000,
                        {"AMN_NO_O_TMPFILE=1"});
    QCOMPARE(r2.exit_code, 0);
    QCOMPARE(read_file(tmp.filePath("named/z.safetensors").toStdString()), read_file(tmp.filePath("y.safetensors").toStdString()));
    for (const auto& f : everything_under(tmp.path())) QVERIFY2(!f.contains(".amn-") || f.contains("notatemp"), qPrintable(f));
}

// kill -9 at random points during remember of a 256 MiB model, into a file
// (replacing an older one, --force) and into a new folder, with O_TMPFILE and
// with named temps. After exit: the older file intact, no output folder, and
// nothing but hidden temporaries of our pattern; after the next run in that
// folder: no temporary and no empty folder at all.
void TestCliMutations::killedRunLeavesNoTemporary() {
    QTemporaryDir tmp;
    // 8 × 32 MiB F32 tensors, written chunk by chunk.
    const QString in = tmp.filePath("big.safetensors");
    {
        std::string header = "{";
        const std::uint64_t tbytes = std::uint64_t(2048) * 4096 * 4;
        for (int i = 0; i < 8; ++i)
            header += std::string(i ? "," : "") + "\"t" + std::to_string(i) + "\":{\"dtype\":\"F32\",\"shape\":[2048,4096],\"data_offsets\":[" +
                      std::to_string(i * tbytes) + "," + std::to_string((i + 1) * tbytes) + "]}";
        header += "}";
        while (header.size() % 8) header += ' ';
        std::ofstream f(in.toStdString(), std::ios::binary);
        const std::uint64_t n = header.size();
        for (int i = 0; i < 8; ++i) f.put(char(n >> (8 * i)));
        f << header;
        for (int i = 0; i < 8; ++i) {
            const std::vector<float> values(std::size_t(2048) * 4096, float(i + 1) * 0.5f);
            f.write(reinterpret_cast<const char*>(values.data()), std::streamsize(tbytes));
        }
        QVERIFY(f.good());
    }
    const QString o = tmp.filePath("o");
    QDir().mkpath(o);
    const std::vector<std::uint8_t> old_bytes(100, 7);
    const auto is_our_temp = [](const QString& entry) {  // ".<name>.amn-XXXXXXXX.tmp", or inside one
        static const QRegularExpression re(R"(^\.[^/]+\.amn-[0-9a-f]{8}\.tmp(/.*)?$)");
        return re.match(entry).hasMatch();
    };
    std::mt19937 rng(20261124);
    int killed = 0, runs = 0;
    for (const bool named : {false, true}) {
        for (const bool folder : {false, true}) {
            for (int point = 0; point < 3; ++point) {
                const int delay_ms = std::uniform_int_distribution<int>(0, 400)(rng);
                const QString out = folder ? o + "/outdir" : o + "/out.safetensors";
                if (!folder) write_file(out.toStdString(), old_bytes);
                QProcess p;
                QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                if (named) env.insert("AMN_NO_O_TMPFILE", "1");
                p.setProcessEnvironment(env);
                p.start(QString::fromStdString(amn::test::cli_path()),
                        {"remember", in, "--to", "f16", "--threads", "1", "-o", out, "--force"});
                QVERIFY(p.waitForStarted());
                QElapsedTimer t;
                t.start();
                while (t.elapsed() < delay_ms && p.state() == QProcess::Running) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                const bool was_running = p.state() == QProcess::Running;
                ::kill(pid_t(p.processId()), SIGKILL);
                QVERIFY(p.waitForFinished(10000));
                ++runs;
                const bool completed = !was_running && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
                killed += completed ? 0 : 1;
                const QString what = QString("named=%1 folder=%2 delay=%3ms: ").arg(named).arg(folder).arg(delay_ms);
                // After exit: the older file or the complete new one (killed
                // after its commit); an output folder only when complete.
                const auto complete = [](const QString& file) {
                    std::error_code ec;
                    const auto n = fs::file_size(file.toStdString(), ec);
                    return !ec && n > (std::uintmax_t(128) << 20) && n < (std::uintmax_t(128) << 20) + 4096;
                };
                if (!folder) {
                    QVERIFY2(read_file(out.toStdString()) == old_bytes || complete(out),
                             qPrintable(what + "the replaced file was lost"));
                } else if (QFile::exists(out)) {
                    QVERIFY2(complete(out + "/big.safetensors"), qPrintable(what + "output folder left: " + everything_under(out).join(' ')));
                }
                QVERIFY2(!completed || complete(folder ? out + "/big.safetensors" : out), qPrintable(what + "incomplete output"));
                for (const auto& f : everything_under(o)) {
                    if (f == "out.safetensors" || f == "outdir" || f == "outdir/big.safetensors") continue;  // checked above
                    QVERIFY2(is_our_temp(f), qPrintable(what + "left behind: " + f));
                }
                // The next run in that folder removes what the killed one left.
                const QString next = point % 2 ? o + "/next" : o + "/next.safetensors";
                const auto r = run_amn({"remember", sample() + "/model.safetensors", "-o", next, "--force"});
                QCOMPARE(r.exit_code, 0);
                fs::remove((o + "/config.json").toStdString());  // written beside next.safetensors
                for (const auto& f : everything_under(o)) QVERIFY2(!f.contains(".amn-"), qPrintable(what + "after the next run: " + f));
                std::error_code ec;
                fs::remove_all((o + "/outdir").toStdString(), ec);
                fs::remove_all(next.toStdString(), ec);
            }
        }
    }
    QVERIFY2(killed >= runs / 2, qPrintable(QString("only %1 of %2 runs were killed before finishing").arg(killed).arg(runs)));
}

// --force replaced the outputs one by one: when a later member of the set
// could not be put in place, the files already replaced were lost. They are
// kept until the whole set is in place and restored on failure.
void TestCliMutations::forcedRunRestoresReplacedFiles() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out");
    QDir().mkpath(out + "/config.json");  // config.json, committed after the shard, cannot be replaced
    write_file((out + "/config.json/keep").toStdString(), {1});
    const std::vector<std::uint8_t> old_bytes(100, 7);
    write_file((out + "/model.safetensors").toStdString(), old_bytes);
    const auto r = run_amn({"remember", sample(), "-o", out, "--force"});
    QCOMPARE(r.exit_code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("config.json"), qPrintable(r.err));
    QVERIFY(read_file((out + "/model.safetensors").toStdString()) == old_bytes);  // replaced, then restored
    QCOMPARE(everything_under(out), QStringList({"config.json", "config.json/keep", "model.safetensors"}));
    // Once the obstacle is gone the same command replaces the file.
    fs::remove_all((out + "/config.json").toStdString());
    QCOMPARE(run_amn({"remember", sample(), "-o", out, "--force"}).exit_code, 0);
    QVERIFY(read_file((out + "/model.safetensors").toStdString()).size() > old_bytes.size());
    for (const auto& f : everything_under(out)) QVERIFY2(!f.contains(".amn-"), qPrintable(f));
}

// 5: a FIFO as input blocked forever; it is refused by name.
void TestCliMutations::fifoIsRefused() {
    QTemporaryDir tmp;
    const QString fifo = tmp.filePath("model.safetensors");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    const auto r = run_amn({"inspect", fifo}, 20000);
    QCOMPARE(r.exit_code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("not a regular file") && r.err.contains(fifo), qPrintable(r.err));
    // A FIFO named config.json beside a model is refused too, not waited on.
    QTemporaryDir tmp2;
    copy_dir(sample(), tmp2.path());
    QFile::remove(tmp2.filePath("config.json"));
    QCOMPARE(::mkfifo(tmp2.filePath("config.json").toLocal8Bit().constData(), 0600), 0);
    const auto r2 = run_amn({"inspect", tmp2.path()}, 20000);
    QCOMPARE(r2.exit_code, 1);
    QVERIFY2(r2.err.contains("not a regular file"), qPrintable(r2.err));
}

// 3: control characters from a file never reach the terminal raw.
void TestCliMutations::controlCharactersAreEscaped() {
    QTemporaryDir tmp;
    const QString f = tmp.filePath("esc.gguf");
    write_file(f.toStdString(), tiny_gguf({"\x1b[31mred\r", "ok"}, "name\x1b]0;pwned\x07"));
    auto r = run_amn({"parse", "--kv", f});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(!r.out.contains(QChar(0x1b)) && !r.out.contains('\r') && !r.out.contains(QChar(0x07)), qPrintable(r.out));
    QVERIFY2(r.out.contains("\\e[31mred\\r"), qPrintable(r.out));
    r = run_amn({"inspect", f});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(!r.out.contains(QChar(0x1b)));
    // In JSON the name survives exactly (escaped by JSON itself).
    r = run_amn({"parse", "--json", f});
    QCOMPARE(r.exit_code, 0);
    QJsonParseError pe;
    const auto doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe);
    QCOMPARE(pe.error, QJsonParseError::NoError);
    QVERIFY(r.out.contains("\\u001b[31mred\\r"));
    // Errors: a name that breaks a limit is printed escaped.
    write_file(f.toStdString(), tiny_gguf({"\x1b[2J" + std::string(70, 'x')}));
    r = run_amn({"parse", f});
    QCOMPARE(r.exit_code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(!r.err.contains(QChar(0x1b)) && r.err.contains("\\e[2J"), qPrintable(r.err));
}

// 3: invalid UTF-8 in a tensor name made `parse --json` emit invalid JSON and
// `remember` write a header amn itself refused. Now a named error.
void TestCliMutations::invalidUtf8NamesAreNamedErrors() {
    QTemporaryDir tmp;
    const QString f = tmp.filePath("bad.gguf");
    write_file(f.toStdString(), tiny_gguf({std::string("w\xc3\x28", 3)}));
    for (const QStringList& args : {QStringList{"parse", "--json", f}, QStringList{"inspect", f},
                                    QStringList{"remember", f, "-o", tmp.filePath("o.safetensors")}}) {
        const auto r = run_amn(args);
        QCOMPARE(r.exit_code, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("not valid UTF-8") && r.err.contains("bad.gguf"), qPrintable(r.err));
    }
    QVERIFY(!QFile::exists(tmp.filePath("o.safetensors")));
    // An invalid string *value* is kept, shown as U+FFFD: JSON stays valid.
    write_file(f.toStdString(), tiny_gguf({"w"}, std::string("bad\xff\xfe", 5)));
    const auto r = run_amn({"parse", "--json", "--kv", f});
    QCOMPARE(r.exit_code, 0);
    QJsonParseError pe;
    QJsonDocument::fromJson(r.out.toUtf8(), &pe);
    QCOMPARE(pe.error, QJsonParseError::NoError);
}

// 6: a 0-element tensor (a null/empty data range) converts; under UBSan
// this was memcpy from a null pointer.
void TestCliMutations::emptyTensorsConvert() {
    QTemporaryDir tmp;
    std::map<std::string, amn::test::RawTensor> ts;
    ts["empty"] = {"F32", {0, 4}, {}};
    ts["w"] = {"BF16", {2}, {0, 0x3f, 0, 0x40}};
    amn::test::write_safetensors_raw(tmp.filePath("e.safetensors").toStdString(), ts);
    const auto r = run_amn({"remember", tmp.filePath("e.safetensors"), "--to", "f32", "-o", tmp.filePath("o.safetensors")});
    QCOMPARE(r.exit_code, 0);
    const auto back = amn::test::read_safetensors_raw(tmp.filePath("o.safetensors").toStdString());
    QVERIFY(back);
    QCOMPARE(back->tensors.at("empty").bytes.size(), std::size_t(0));
}

void TestCliMutations::corpus_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("mutated");  // file of the fixture to mutate (relative to a folder input)
    QTest::newRow("safetensors") << "safetensors" << sample() + "/model.safetensors" << "";
    QTest::newRow("config.json") << "json" << sample() << "config.json";
    const auto ref = amn::test::reference_dir();
    const QString gguf = QString::fromStdString(ref + "/gguf/tinyllama_q2_k/input/model.gguf");
    if (!ref.empty() && QFile::exists(gguf)) QTest::newRow("gguf") << "gguf" << gguf << "";
    if (!npz_.isEmpty()) QTest::newRow("npz") << "zip" << npz_ << "";
    if (!pth_.isEmpty()) QTest::newRow("pth") << "zip" << pth_ << "";
}

void TestCliMutations::corpus() {
    QFETCH(QString, kind);
    QFETCH(QString, input);
    QFETCH(QString, mutated);
    const bool folder = !mutated.isEmpty();
    const QString victim = folder ? input + "/" + mutated : input;
    const auto orig = read_file(victim.toStdString());
    QVERIFY(!orig.empty());
    std::uint64_t seed = 14;
    for (char c : kind.toStdString()) seed = seed * 131 + std::uint8_t(c);
    const auto mutants = mutate(orig, kind.toStdString(), mutant_count(), seed);
    int ok = 0, refused = 0;
    QElapsedTimer clock;
    clock.start();
    for (std::size_t i = 0; i < mutants.size(); ++i) {
        const auto& m = mutants[i];
        QTemporaryDir tmp;
        QString model;
        if (folder) {
            model = tmp.filePath("model");
            copy_dir(input, model);
            write_file((model + "/" + mutated).toStdString(), m.bytes);
        } else {
            model = tmp.filePath("m-" + QString::number(i) + "." + QFileInfo(input).suffix());
            write_file(model.toStdString(), m.bytes);
        }
        const QString what = QString::fromStdString(m.label);
        auto check_refusal = [&](const amn::test::RunResult& r, const char* verb) {
            QVERIFY2(r.exit_code == 0 || r.exit_code == 1,
                     qPrintable(QString("%1 %2: exit %3: %4").arg(verb, what).arg(r.exit_code).arg(r.err)));
            if (r.exit_code == 1) {
                QVERIFY2(r.err.count('\n') == 1 && r.err.startsWith("amn: error: ") && r.err.contains(tmp.path()),
                         qPrintable(QString("%1 %2: stderr: %3").arg(verb, what, r.err)));
            }
        };
        for (const char* verb : {"inspect", "parse"}) {
            const auto r = run_amn({verb, "--json", model}, 60000);
            check_refusal(r, verb);
            if (r.exit_code == 0) {
                QJsonParseError pe;
                QJsonDocument::fromJson(r.out.toUtf8(), &pe);
                QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(QString("%1 --json %2: invalid JSON").arg(verb, what)));
            }
        }
        const QString outdir = tmp.filePath("out");
        QDir().mkpath(outdir);
        const QString out = folder ? outdir + "/model" : outdir + "/x.safetensors";
        const auto r = run_amn({"remember", model, "-o", out}, 60000);
        check_refusal(r, "remember");
        if (r.exit_code == 1) {
            ++refused;
            QVERIFY2(everything_under(outdir).isEmpty(),
                     qPrintable("remember " + what + " exit 1 left: " + everything_under(outdir).join(' ')));
        } else {
            ++ok;
            const QString shard = folder ? out + "/model.safetensors" : out;
            const auto back = run_amn({"parse", "--json", shard});
            QVERIFY2(back.exit_code == 0, qPrintable("remember " + what + ": output unreadable: " + back.err));
            QVERIFY2(amn::test::read_safetensors_raw(shard.toStdString()).has_value(), qPrintable(what));
            for (const auto& f : everything_under(outdir)) QVERIFY2(!f.contains(".amn-"), qPrintable(f));
        }
    }
    qInfo("%s: %zu mutants, %d converted, %d refused, %.1f s", qPrintable(kind), mutants.size(), ok, refused, clock.elapsed() / 1000.0);
}

QTEST_GUILESS_MAIN(TestCliMutations)
#include "test_cli_mutations.moc"
