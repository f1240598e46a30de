// SPDX-License-Identifier: MIT OR Apache-2.0
// Executor and sink behaviour: atomic output, cancellation, overwrite rules,
// input protection, output naming, config.json rewriting, threads.
#include "anamnesis/catalog.hpp"
#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "sink/output_files.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

using namespace amn;
namespace fs = std::filesystem;

namespace {

std::string sample() { return amn::test::source_dir() + "/fixtures/sample/tiny-llama-fp8"; }

// A larger FP8 model (8 MiB of E4M3 with per-channel scales) so that a
// conversion spans many chunks.
std::string write_big_fp8(const QTemporaryDir& tmp, int rows = 2048, int cols = 4096) {
    const std::string header = "{\"big.weight\":{\"dtype\":\"F8_E4M3\",\"shape\":[" + std::to_string(rows) + "," + std::to_string(cols) +
                               "],\"data_offsets\":[0," + std::to_string(rows * cols) + "]},\"big.weight_scale\":{\"dtype\":\"F32\",\"shape\":[" +
                               std::to_string(rows) + ",1],\"data_offsets\":[" + std::to_string(rows * cols) + "," +
                               std::to_string(rows * cols + rows * 4) + "]}}";
    std::vector<std::uint8_t> f(8);
    for (int i = 0; i < 8; ++i) f[i] = std::uint8_t(std::uint64_t(header.size()) >> (8 * i));
    f.insert(f.end(), header.begin(), header.end());
    std::mt19937 rng(1);
    for (int i = 0; i < rows * cols; ++i) f.push_back(std::uint8_t(rng() % 0x7E));
    for (int r = 0; r < rows; ++r) {
        float s = 0.001f * float(r % 17 + 1);
        std::uint8_t b[4];
        std::memcpy(b, &s, 4);
        f.insert(f.end(), b, b + 4);
    }
    const std::string path = tmp.filePath("big.safetensors").toStdString();
    amn::test::write_file(path, f);
    return path;
}

QStringList hidden_and_files(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::Dirs | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
}

// In a forked child: a run killed with kill -9 midway (no destructor, no
// cleanup).
[[noreturn]] void kill_9() {
    ::kill(::getpid(), SIGKILL);
    ::_exit(4);
}

// Runs `f` in a forked child; `f` ends by calling kill_9() while what it
// made is still alive. True when the child died by SIGKILL.
template <class F>
bool run_then_kill_9(F&& f) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        try {
            f();
        } catch (...) {
        }
        ::_exit(3);
    }
    int status = 0;
    return pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace

class TestConvert : public QObject {
    Q_OBJECT
private slots:
    void cancelBeforeStartLeavesNothing();
    void cancelMidRunLeavesNothing();
    void progressIsMonotonicAndComplete();
    void threadCountDoesNotChangeBytes();
    void existingOutputNeedsForce();
    void inputIsNeverOverwritten();
    void unwritableFolderIsAnIoError();
    void createdFolderRemovedOnFailure();
    void defaultOutputNames();
    void configRewrite();
    void directoryOutputCopiesTokenizerFiles();
    void outputLargerThanFreeSpaceIsRefused();
    void commitTogetherIsAllOrNothing();
    void tempFilesHaveNoNameOrAreSwept();
    void forcedCommitRestoresReplacedFiles();
    void newFolderIsStagedUnderATempName();
    void forcedCommitOverASymlink();
};

void TestConvert::cancelBeforeStartLeavesNothing() {
    QTemporaryDir tmp;
    const auto cat = open_model(write_big_fp8(tmp));
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out.safetensors").toStdString();
    std::atomic<bool> cancel{true};
    try {
        remember_to_safetensors(cat, plan, o, {}, &cancel);
        QFAIL("not cancelled");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Cancelled);
    }
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"big.safetensors"}));
}

void TestConvert::cancelMidRunLeavesNothing() {
    QTemporaryDir tmp;
    const std::string input = write_big_fp8(tmp);
    const auto before = amn::test::read_file(input);
    const auto cat = open_model(input);
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out.safetensors").toStdString();
    o.chunk_bytes = 64 << 10;  // many chunks
    std::atomic<bool> cancel{false};
    std::uint64_t seen = 0, total = 0;
    try {
        remember_to_safetensors(cat, plan, o, [&](const Progress& p) {
            seen = p.done; total = p.total;
            if (p.done * 4 >= p.total) cancel = true;  // a quarter in
        }, &cancel);
        QFAIL("not cancelled");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Cancelled);
    }
    QVERIFY(seen > 0 && seen < total);
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"big.safetensors"}));
    QVERIFY(amn::test::read_file(input) == before);  // input untouched
}

void TestConvert::progressIsMonotonicAndComplete() {
    QTemporaryDir tmp;
    const auto cat = open_model(write_big_fp8(tmp));
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out.safetensors").toStdString();
    o.chunk_bytes = 256 << 10;
    std::vector<Progress> reports;
    const auto res = remember_to_safetensors(cat, plan, o, [&](const Progress& p) { reports.push_back(p); });
    QVERIFY(reports.size() > 10);
    for (std::size_t i = 1; i < reports.size(); ++i) QVERIFY(reports[i].done >= reports[i - 1].done);
    QCOMPARE(reports.back().done, reports.back().total);
    QCOMPARE(reports.back().total, res.tensor_bytes);
    QCOMPARE(res.tensor_bytes, std::uint64_t(2048) * 4096 * 2);
}

void TestConvert::threadCountDoesNotChangeBytes() {
    QTemporaryDir tmp;
    const auto cat = open_model(write_big_fp8(tmp, 512, 1024));
    const auto plan = make_plan(cat);
    std::vector<std::vector<std::uint8_t>> outs;
    for (unsigned threads : {1u, 2u, 7u}) {
        RememberOptions o;
        o.output = tmp.filePath(QString("out%1.safetensors").arg(threads)).toStdString();
        o.threads = threads;
        o.chunk_bytes = 8 << 10;
        remember_to_safetensors(cat, plan, o);
        outs.push_back(amn::test::read_file(o.output));
    }
    QVERIFY(outs[0].size() > 1000000);
    QVERIFY(outs[0] == outs[1]);
    QVERIFY(outs[0] == outs[2]);
}

void TestConvert::existingOutputNeedsForce() {
    QTemporaryDir tmp;
    const auto cat = open_model(sample());
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out").toStdString();
    remember_to_safetensors(cat, plan, o);
    const auto first = amn::test::read_file(o.output + "/model.safetensors");
    amn::test::write_file(o.output + "/model.safetensors", {1, 2, 3});
    try {
        remember_to_safetensors(cat, plan, o);
        QFAIL("overwrote without --force");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::OutputExists);
    }
    QVERIFY(amn::test::read_file(o.output + "/model.safetensors") == std::vector<std::uint8_t>({1, 2, 3}));
    o.force = true;
    remember_to_safetensors(cat, plan, o);
    QVERIFY(amn::test::read_file(o.output + "/model.safetensors") == first);
    QCOMPARE(hidden_and_files(QString::fromStdString(o.output)),
             QStringList({"config.json", "generation_config.json", "model.safetensors", "tokenizer.model"}));
}

void TestConvert::inputIsNeverOverwritten() {
    QTemporaryDir tmp;
    fs::copy(sample(), tmp.filePath("m").toStdString());
    const std::string in = tmp.filePath("m/model.safetensors").toStdString();
    const auto before = amn::test::read_file(in);
    const auto cat = open_model(in);
    const auto plan = make_plan(cat);
    for (const auto& out : {in, tmp.filePath("m").toStdString()}) {
        RememberOptions o;
        o.output = out;
        o.force = true;
        try {
            remember_to_safetensors(cat, plan, o);
            QFAIL("overwrote the input");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Usage);
        }
    }
    QVERIFY(amn::test::read_file(in) == before);
    QCOMPARE(hidden_and_files(tmp.filePath("m")),
             QStringList({"config.json", "generation_config.json", "model.safetensors", "tokenizer.model"}));
}

void TestConvert::unwritableFolderIsAnIoError() {
    const auto cat = open_model(sample());
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = "/proc/self/amn-out.safetensors";  // not writable, even for root
    try {
        remember_to_safetensors(cat, plan, o);
        QFAIL("wrote into /proc");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Io);
        QVERIFY2(std::string(e.what()).find("/proc/self") != std::string::npos, e.what());
    }
    if (::geteuid() != 0) {  // permission bits only bind non-root users
        QTemporaryDir tmp;
        QVERIFY(QFile::setPermissions(tmp.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        o.output = tmp.filePath("x.safetensors").toStdString();
        QVERIFY_THROWS_EXCEPTION(Error, remember_to_safetensors(cat, plan, o));
        QVERIFY(QFile::setPermissions(tmp.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    }
}

void TestConvert::createdFolderRemovedOnFailure() {
    QTemporaryDir tmp;
    const auto cat = open_model(write_big_fp8(tmp));
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("new/nested/out").toStdString();
    std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(Error, remember_to_safetensors(cat, plan, o, {}, &cancel));
    QVERIFY(!fs::exists(tmp.filePath("new").toStdString()));
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"big.safetensors"}));  // no staging folder either
}

void TestConvert::defaultOutputNames() {
    QTemporaryDir tmp;
    // Single file without config.json: beside it, quantization suffix replaced.
    fs::copy_file(amn::test::source_dir() + "/fixtures/fp8/e5m2_channel/input/model.safetensors",
                  tmp.filePath("Model-FP8-dynamic.safetensors").toStdString());
    auto cat = open_model(tmp.filePath("Model-FP8-dynamic.safetensors").toStdString());
    QCOMPARE(QString::fromStdString(default_output_path(cat, std::nullopt)), tmp.filePath("Model-bf16.safetensors"));
    QCOMPARE(QString::fromStdString(default_output_path(cat, DType::F32)), tmp.filePath("Model-f32.safetensors"));
    // The Hugging Face layout (remember --layout hf, the wizard): the same name as a folder.
    QCOMPARE(QString::fromStdString(default_hf_layout_output_path(cat, std::nullopt)), tmp.filePath("Model-bf16"));
    QCOMPARE(QString::fromStdString(default_hf_layout_output_path(cat, DType::F16)), tmp.filePath("Model-f16"));
    fs::copy_file(amn::test::source_dir() + "/fixtures/fp8/e5m2_channel/input/model.safetensors",
                  tmp.filePath("model-fp8.safetensors").toStdString());
    cat = open_model(tmp.filePath("model-fp8.safetensors").toStdString());
    QCOMPARE(QString::fromStdString(default_output_path(cat, std::nullopt)), tmp.filePath("model-bf16.safetensors"));
    // A model folder (config.json beside the weights): a sibling folder.
    fs::copy(sample(), tmp.filePath("Llama-3.2-1B-FP8").toStdString());
    cat = open_model(tmp.filePath("Llama-3.2-1B-FP8").toStdString());
    QCOMPARE(QString::fromStdString(default_output_path(cat, std::nullopt)), tmp.filePath("Llama-3.2-1B-bf16"));
    QCOMPARE(QString::fromStdString(default_hf_layout_output_path(cat, std::nullopt)), tmp.filePath("Llama-3.2-1B-bf16"));
    cat = open_model(tmp.filePath("Llama-3.2-1B-FP8/model.safetensors").toStdString());
    QCOMPARE(QString::fromStdString(default_output_path(cat, DType::F16)), tmp.filePath("Llama-3.2-1B-f16"));
}

void TestConvert::configRewrite() {
    const std::string in = R"({"architectures":["X"],"torch_dtype":"float8_e4m3fn","rope_theta":500000.0,
        "quantization_config":{"quant_method":"fp8","weight_block_size":[128,128]},"nested":{"a":[1,2,{"b":null}]},"eps":1e-05})";
    const std::string out = rewrite_config_json(in, DType::F16);
    const auto obj = QJsonDocument::fromJson(QByteArray::fromStdString(out)).object();
    QVERIFY(!obj.isEmpty());
    QVERIFY(!obj.contains("quantization_config"));
    QCOMPARE(obj["torch_dtype"].toString(), QString("float16"));
    QCOMPARE(obj["nested"].toObject()["a"].toArray()[2].toObject()["b"].isNull(), true);
    QVERIFY(out.find("500000.0") != std::string::npos);  // numbers kept as written
    QVERIFY(out.find("1e-05") != std::string::npos);
    QCOMPARE(obj.keys().size(), 5);
    // torch_dtype replaced at its own place (second), not moved.
    QVERIFY(out.find("\"architectures\"") < out.find("\"torch_dtype\"") &&
            out.find("\"torch_dtype\"") < out.find("\"rope_theta\""));
    // A repeated key: one member, at its first place.
    const std::string rep = rewrite_config_json(R"({"torch_dtype":"float32","a":1,"torch_dtype":"float16"})", DType::BF16);
    QCOMPARE(QString::fromStdString(rep).count("torch_dtype"), 1);
    QVERIFY(rep.find("torch_dtype") < rep.find("\"a\""));
    // No torch_dtype: added.
    const auto o2 = QJsonDocument::fromJson(QByteArray::fromStdString(rewrite_config_json("{\"a\":1}", DType::BF16))).object();
    QCOMPARE(o2["torch_dtype"].toString(), QString("bfloat16"));
    QVERIFY_THROWS_EXCEPTION(Error, rewrite_config_json("[1]", DType::BF16));
    QVERIFY_THROWS_EXCEPTION(Error, rewrite_config_json("{\"a\":", DType::BF16));
}

void TestConvert::directoryOutputCopiesTokenizerFiles() {
    QTemporaryDir tmp;
    fs::copy(sample(), tmp.filePath("in").toStdString());
    amn::test::write_file(tmp.filePath("in/tokenizer.json").toStdString(), {'{', '}'});
    const auto cat = open_model(tmp.filePath("in").toStdString());
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out").toStdString();
    const auto res = remember_to_safetensors(cat, plan, o);
    QCOMPARE(amn::test::list_files(tmp.filePath("out")),
             QStringList({"config.json", "generation_config.json", "model.safetensors", "tokenizer.json", "tokenizer.model"}));
    QCOMPARE(res.files.size(), std::size_t(5));
}

// torch.save of an expanded view stores one element and a stride-0 view of
// 2^40 elements: 4 TiB once made contiguous. Refused before writing.
void TestConvert::outputLargerThanFreeSpaceIsRefused() {
    QTemporaryDir tmp;
    const QString pth = tmp.filePath("expanded.pth");
    const auto r = amn::test::run(QString::fromStdString(amn::test::python()),
                                  {"-c", "import sys, torch; torch.save({'x': torch.zeros(1).expand(2**40)}, sys.argv[1])", pth});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto cat = open_model(pth.toStdString());
    QCOMPARE(cat.tensors.at(0).numel(), std::uint64_t(1) << 40);
    const auto plan = make_plan(cat);
    RememberOptions o;
    o.output = tmp.filePath("out.safetensors").toStdString();
    try {
        remember_to_safetensors(cat, plan, o);
        QFAIL("wrote a 4 TiB file");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::Io);
        QVERIFY2(std::string(e.what()).find("are free") != std::string::npos, e.what());
    }
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"expanded.pth"}));
}

QTEST_APPLESS_MAIN(TestConvert)
// issue 14, 1(c): a set of outputs is committed together. When one cannot
// be put in place (a file appeared meanwhile), the ones already placed are
// removed again: no partial set.
void TestConvert::commitTogetherIsAllOrNothing() {
    QTemporaryDir tmp;
    auto a = detail::TempFile::create(tmp.filePath("a.safetensors").toStdString(), false);
    auto b = detail::TempFile::create(tmp.filePath("b.index.json").toStdString(), false);
    a.write_all("aaaa");
    b.write_all("{}");
    // Someone creates b's final name after planning.
    QFile f(tmp.filePath("b.index.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("theirs");
    f.close();
    try {
        detail::commit_together({&a, &b});
        QFAIL("commit succeeded over an existing file");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::OutputExists);
    }
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"b.index.json"}));  // theirs, untouched
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("theirs"));
}

// issue 14, 1(b): while being written an output has no name (O_TMPFILE) or
// a named temp under an flock that a later run removes once its writer died.
void TestConvert::tempFilesHaveNoNameOrAreSwept() {
    QTemporaryDir tmp;
    {
        auto t = detail::TempFile::create(tmp.filePath("x.safetensors").toStdString(), false);
        t.write_all("data");
        const QStringList during = hidden_and_files(tmp.path());
        // O_TMPFILE where the filesystem has it: nothing visible.
        if (during.isEmpty()) QVERIFY(true);
        else QVERIFY2(during.size() == 1 && during[0].startsWith(".x.safetensors.amn-"), qPrintable(during.join(' ')));
        t.commit();
    }
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"x.safetensors"}));
    // An abandoned named temp (its writer is gone: no lock) is swept by the
    // next create() in that folder, once per process and folder.
    QTemporaryDir tmp2;
    QFile stale(tmp2.filePath(".y.safetensors.amn-0badf00d.tmp"));
    QVERIFY(stale.open(QIODevice::WriteOnly));
    stale.write("left by kill -9");
    stale.close();
    (void)detail::take_cleanup_messages();
    { auto t = detail::TempFile::create(tmp2.filePath("y.safetensors").toStdString(), false); }
    QVERIFY(!stale.exists());
    const auto msgs = detail::take_cleanup_messages();
    QCOMPARE(msgs.size(), std::size_t(1));
    QVERIFY(msgs[0].find(".y.safetensors.amn-0badf00d.tmp") != std::string::npos);
}

// issue 14: --force used to replace files one by one, so a failure midway
// left the first ones replaced and their old bytes lost. The replaced files
// are now kept (under a locked backup temp) until the whole set is in place,
// and restored when placing a later member fails.
void TestConvert::forcedCommitRestoresReplacedFiles() {
    QTemporaryDir tmp;
    const auto put = [&](const char* name, const std::string& text) {
        amn::test::write_file(tmp.filePath(name).toStdString(), std::vector<std::uint8_t>(text.begin(), text.end()));
    };
    const auto text = [&](const char* name) {
        const auto b = amn::test::read_file(tmp.filePath(name).toStdString());
        return std::string(b.begin(), b.end());
    };
    put("a.safetensors", "old a");
    put("c.json", "old c");
    QVERIFY(QDir(tmp.path()).mkpath("b.json"));  // the second member cannot be put in place
    put("b.json/inside", "x");
    {
        auto a = detail::TempFile::create(tmp.filePath("a.safetensors").toStdString(), true);
        auto b = detail::TempFile::create(tmp.filePath("b.json").toStdString(), true);
        auto c = detail::TempFile::create(tmp.filePath("c.json").toStdString(), true);
        a.write_all("new a");
        b.write_all("new b");
        c.write_all("new c");
        try {
            detail::commit_together({&a, &b, &c});
            QFAIL("commit succeeded over a folder");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Io);
            QVERIFY2(e.file() == tmp.filePath("b.json").toStdString(), e.what());
        }
    }
    QCOMPARE(text("a.safetensors"), std::string("old a"));  // replaced, then restored
    QCOMPARE(text("c.json"), std::string("old c"));
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"a.safetensors", "b.json", "c.json"}));  // no temp, no backup
    // A forced commit that succeeds replaces both and keeps no backup.
    {
        auto a = detail::TempFile::create(tmp.filePath("a.safetensors").toStdString(), true);
        auto c = detail::TempFile::create(tmp.filePath("c.json").toStdString(), true);
        a.write_all("new a");
        c.write_all("new c");
        detail::commit_together({&a, &c});
    }
    QCOMPARE(text("a.safetensors"), std::string("new a"));
    QCOMPARE(text("c.json"), std::string("new c"));
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"a.safetensors", "b.json", "c.json"}));
}

// issue 14: a new output folder is created under a hidden temporary name and
// renamed at commit, so kill -9 never leaves an empty (or partial) output
// folder; the next run in that parent removes a stale one, with a message.
void TestConvert::newFolderIsStagedUnderATempName() {
    QTemporaryDir tmp;
    const std::string out = tmp.filePath("out").toStdString();
    {
        auto s = detail::StagingDir::create(out);
        const QStringList during = hidden_and_files(tmp.path());
        QVERIFY2(during.size() == 1 && during[0].startsWith(".out.amn-") && during[0].endsWith(".tmp"), qPrintable(during.join(' ')));
        QVERIFY(!QFile::exists(tmp.filePath("out")));
        auto t = detail::TempFile::create(s.path() + "/x.safetensors", false);
        t.write_all("data");
        detail::commit_together({&t}, [&] { s.commit(); });
    }
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"out"}));
    QCOMPARE(hidden_and_files(tmp.filePath("out")), QStringList({"x.safetensors"}));
    // Not committed: nothing remains.
    { auto s = detail::StagingDir::create(tmp.filePath("other").toStdString()); }
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"out"}));
    // An abandoned staging folder (its run was killed: no lock) is removed
    // by the next run in that parent; a folder with a name like ours but
    // without our marker inside (a user's) is left, with a message.
    QTemporaryDir tmp2;
    QVERIFY(QDir(tmp2.path()).mkpath(".model.amn-0badf00d.tmp/sub"));
    amn::test::write_file(tmp2.filePath(".model.amn-0badf00d.tmp/sub/part").toStdString(), std::vector<std::uint8_t>(100, 1));
    QVERIFY(run_then_kill_9([&] {
        auto s = detail::StagingDir::create(tmp2.filePath("killed").toStdString());
        amn::test::write_file(s.path() + "/part", std::vector<std::uint8_t>(200, 2));
        kill_9();
    }));
    const QStringList during = hidden_and_files(tmp2.path());
    QCOMPARE(during.size(), 2);
    QVERIFY2(during[0].startsWith(".killed.amn-") && during[1] == ".model.amn-0badf00d.tmp", qPrintable(during.join(' ')));
    QVERIFY(QFile::exists(tmp2.filePath(during[0] + "/.amn-temporary-folder")));
    // An empty folder named like ours (a run killed between making its folder and
    // marking it) is removed: there is nothing in it to lose.
    QVERIFY(QDir(tmp2.path()).mkdir(".empty.amn-0000abcd.tmp"));
    (void)detail::take_cleanup_messages();
    { auto s = detail::StagingDir::create(tmp2.filePath("model").toStdString()); }
    QCOMPARE(hidden_and_files(tmp2.path()), QStringList({".model.amn-0badf00d.tmp"}));
    QCOMPARE(amn::test::read_file(tmp2.filePath(".model.amn-0badf00d.tmp/sub/part").toStdString()), std::vector<std::uint8_t>(100, 1));
    auto msgs = detail::take_cleanup_messages();
    std::sort(msgs.begin(), msgs.end());
    QCOMPARE(msgs.size(), std::size_t(3));
    QVERIFY2(msgs[0].find(".empty.amn-0000abcd.tmp") != std::string::npos && msgs[0].find("removed an empty temporary folder") != std::string::npos,
             msgs[0].c_str());
    QVERIFY2(msgs[1].find(".killed.amn-") != std::string::npos && msgs[1].find("removed a temporary folder (200 bytes)") != std::string::npos,
             msgs[1].c_str());
    QVERIFY2(msgs[2].find(".model.amn-0badf00d.tmp") != std::string::npos && msgs[2].find("not made by it; left in place") != std::string::npos,
             msgs[2].c_str());
    // A committed folder does not carry the marker.
    QCOMPARE(hidden_and_files(tmp.filePath("out")), QStringList({"x.safetensors"}));
}

// --force over an output that is a symlink replaces the link (never writes
// through it). A symlink cannot be flocked, so its backup is kept inside a
// locked, marked temp folder: restored on failure, removed on success, and
// — when the run is killed while it is kept — removed by the next run.
void TestConvert::forcedCommitOverASymlink() {
    QTemporaryDir tmp;
    const auto put = [](const QString& path, const std::string& text) {
        amn::test::write_file(path.toStdString(), std::vector<std::uint8_t>(text.begin(), text.end()));
    };
    const auto text = [](const QString& path) {
        const auto b = amn::test::read_file(path.toStdString());
        return std::string(b.begin(), b.end());
    };
    put(tmp.filePath("target.bin"), "theirs");
    const QString link = tmp.filePath("a.safetensors");
    fs::create_symlink("target.bin", link.toStdString());
    QVERIFY(QDir(tmp.path()).mkpath("b.json"));  // the second member cannot be put in place
    {
        auto a = detail::TempFile::create(link.toStdString(), true);
        auto b = detail::TempFile::create(tmp.filePath("b.json").toStdString(), true);
        a.write_all("new a");
        b.write_all("new b");
        try {
            detail::commit_together({&a, &b});
            QFAIL("commit succeeded over a folder");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Io);
        }
    }
    QVERIFY(fs::is_symlink(link.toStdString()));  // restored: the same link
    QCOMPARE(fs::read_symlink(link.toStdString()).string(), std::string("target.bin"));
    QCOMPARE(text(tmp.filePath("target.bin")), std::string("theirs"));
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"a.safetensors", "b.json", "target.bin"}));  // no backup left
    {
        auto a = detail::TempFile::create(link.toStdString(), true);
        a.write_all("new a");
        a.commit();
    }
    QVERIFY(!fs::is_symlink(link.toStdString()));
    QCOMPARE(text(link), std::string("new a"));
    QCOMPARE(text(tmp.filePath("target.bin")), std::string("theirs"));
    QCOMPARE(hidden_and_files(tmp.path()), QStringList({"a.safetensors", "b.json", "target.bin"}));  // no backup left

    // Killed while the replaced link is kept (after place(), before the set's end).
    QTemporaryDir tmp2;
    put(tmp2.filePath("target.bin"), "theirs");
    fs::create_symlink("target.bin", tmp2.filePath("c.safetensors").toStdString());
    QVERIFY(run_then_kill_9([&] {
        auto c = detail::TempFile::create(tmp2.filePath("c.safetensors").toStdString(), true);
        c.write_all("new c");
        c.sync();
        c.place();
        kill_9();
    }));
    const QStringList left = hidden_and_files(tmp2.path());
    QCOMPARE(left.size(), 3);
    QVERIFY2(left[0].startsWith(".c.safetensors.amn-") && left[0].endsWith(".tmp"), qPrintable(left.join(' ')));
    (void)detail::take_cleanup_messages();
    { auto t = detail::TempFile::create(tmp2.filePath("d.safetensors").toStdString(), false); }
    QCOMPARE(hidden_and_files(tmp2.path()), QStringList({"c.safetensors", "target.bin"}));
    QCOMPARE(text(tmp2.filePath("c.safetensors")), std::string("new c"));
    QCOMPARE(text(tmp2.filePath("target.bin")), std::string("theirs"));
    const auto msgs = detail::take_cleanup_messages();
    QCOMPARE(msgs.size(), std::size_t(1));
    QVERIFY2(msgs[0].find(left[0].toStdString()) != std::string::npos, msgs[0].c_str());
}

#include "test_convert.moc"
