// SPDX-License-Identifier: MIT OR Apache-2.0
// issue 34: remote models — amn parse/inspect of http(s) URLs and hf:// ids,
// against a real HTTP server this test starts on 127.0.0.1 (Debian's nginx,
// tests/cli/remote_server.py; the served files by tests/cli/remote_models.py):
// - inspect and parse of a URL print exactly what they print for the same
//   file read locally (its URL in place of its path), for every format with
//   a header: GGUF single and split, safetensors single and sharded, .pth,
//   .npz, Hub folders (safetensors, ONNX with external data, a GGUF);
// - only header bytes travel: a 1 GiB GGUF and a 1 GiB sharded safetensors
//   model fetch less than their header + 64 KiB (--json bytes_fetched);
// - the Hub: the listing, a revision, the token (HF_TOKEN, the token file)
//   sent to the endpoint and not to the CDN a file redirects to;
// - bad servers and bad input: one line naming the URL and the cause,
//   exit 1, nothing on stdout, no temporary folder left.
#include "test_support.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/npy_writer.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/remote.hpp"

#include <cstring>

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using amn::test::run;

namespace {

QString py() { return QString::fromStdString(amn::test::python()); }
QString amn_path() { return QString::fromStdString(amn::test::cli_path()); }
QString script(const char* name) { return QString::fromStdString(amn::test::source_dir()) + "/tests/cli/" + name; }

bool have_nginx() {
    return !QStandardPaths::findExecutable("nginx", {"/usr/sbin", "/usr/bin"}).isEmpty() &&
           !QStandardPaths::findExecutable("openssl").isEmpty();
}

}  // namespace

class TestCliRemote : public QObject {
    Q_OBJECT

    QTemporaryDir work_;
    QString root_, state_, tmp_, hf_home_;
    QString base_;  // http://127.0.0.1:PORT
    int tls_ = 0, short_ = 0;
    bool up_ = false;

    QStringList env(const QStringList& more = {}) const {
        return QStringList{"HF_ENDPOINT=" + base_, "HF_TOKEN=", "HF_HOME=" + hf_home_, "TMPDIR=" + tmp_,
                           "HF_HUB_DOWNLOAD_TIMEOUT=5", "http_proxy=", "https_proxy=", "HTTPS_PROXY=", "no_proxy="} + more;
    }
    amn::test::RunResult amn(const QStringList& args, const QStringList& more_env = {}) const {
        return run(amn_path(), args, 120000, env(more_env));
    }
    // The local twin's output with its path prefix replaced by the URL's.
    static QString relabel(QString text, const QString& local, const QString& remote) { return text.replace(local, remote); }
    void no_mirror_left() const {
        QVERIFY2(QDir(tmp_).entryList({"amn-remote-*"}, QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty(),
                 "a remote mirror folder was left in TMPDIR");
    }

private slots:
    void initTestCase() {
        if (!have_nginx()) {
            if (amn::test::reference_required()) QFAIL("nginx (nginx-light) or openssl missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("nginx or openssl not installed (apt-get install nginx-light openssl)");
        }
        const std::string shared = amn::test::shared_fixtures_dir();
        if (shared.empty()) {
            if (amn::test::reference_required()) QFAIL("../shared/fixtures missing and AMN_REQUIRE_REFERENCE=1");
            QSKIP("../shared/fixtures not found");
        }
        QVERIFY(work_.isValid());
        root_ = work_.path() + "/root";
        state_ = work_.path() + "/state";
        tmp_ = work_.path() + "/tmp";
        hf_home_ = work_.path() + "/hf_home";
        QVERIFY(QDir().mkpath(state_) && QDir().mkpath(tmp_) && QDir().mkpath(hf_home_));
        auto g = run(py(), {script("remote_models.py"), root_, QString::fromStdString(shared), amn_path()});
        QVERIFY2(g.exit_code == 0, qPrintable(g.out + g.err));
        auto s = run(py(), {script("remote_server.py"), "start", state_, root_}, 60000);
        QVERIFY2(s.exit_code == 0, qPrintable(s.out + s.err));
        const auto ports = QJsonDocument::fromJson(s.out.toUtf8()).object();
        base_ = "http://127.0.0.1:" + QString::number(ports["http"].toInt());
        tls_ = ports["tls"].toInt();
        short_ = ports["short"].toInt();
        QVERIFY(ports["http"].toInt() > 0 && tls_ > 0 && short_ > 0);
        up_ = true;
    }
    void cleanupTestCase() {
        if (up_) run(py(), {script("remote_server.py"), "stop", state_});
    }

    // inspect and parse (text and --json) of the URL = of the local file.
    void same_as_local_data() {
        QTest::addColumn<QString>("remote");
        QTest::addColumn<QString>("local");   // relative to ROOT
        QTest::addColumn<QString>("prefix");  // the local prefix the remote one replaces (relative to ROOT)
        QTest::addColumn<QString>("rprefix"); // … by this (base_ prepended when it starts with '/')
        auto file = [&](const char* tag, const QString& rel) {
            QTest::newRow(tag) << "/" + rel << rel << "files" << "/files";
        };
        file("gguf", "files/fixtures/tiny-llama-Q4_K_M.gguf");
        file("gguf-1GiB", "files/big.gguf");
        file("gguf-split-part2", "files/split/tiny-00002-of-00003.gguf");
        file("safetensors+config", "files/fixtures/Qwen3-0.6B/model.safetensors");
        file("safetensors-index", "files/fixtures/Llama-2-7b-hf/model.safetensors.index.json");
        file("safetensors-1GiB-index", "files/big_st/model.safetensors.index.json");
        file("pth", "files/fixtures/algzoo_rnn_small.pth");
        file("npz", "files/fixtures/gemma_scope_small.npz");
        QTest::newRow("hub-folder") << "hf://org/llama" << "repos/org/llama" << "repos/org/llama" << "hf://org/llama";
        QTest::newRow("hub-revision") << "hf://org/llama@v1.0" << "repos/org/llama" << "repos/org/llama" << "hf://org/llama@v1.0";
        QTest::newRow("hub-file") << "hf://org/ggufs/tiny-llama-Q8_0.gguf" << "repos/org/ggufs/tiny-llama-Q8_0.gguf"
                                  << "repos/org/ggufs" << "hf://org/ggufs";
        QTest::newRow("hub-onnx-external") << "hf://org/onnx" << "repos/org/onnx" << "repos/org/onnx" << "hf://org/onnx";
    }
    void same_as_local() {
        QFETCH(QString, remote);
        QFETCH(QString, local);
        QFETCH(QString, prefix);
        QFETCH(QString, rprefix);
        const QString url = remote.startsWith('/') ? base_ + remote : remote;
        const QString rp = rprefix.startsWith('/') ? base_ + rprefix : rprefix;
        for (const QStringList& verb : {QStringList{"inspect"}, QStringList{"parse"}, QStringList{"parse", "--kv"}}) {
            const auto r = amn(verb + QStringList{url});
            QVERIFY2(r.exit_code == 0, qPrintable(verb.join(' ') + ": " + r.err));
            const auto l = amn(verb + QStringList{root_ + "/" + local});
            QVERIFY2(l.exit_code == 0, qPrintable(l.err));
            QCOMPARE(r.out, relabel(l.out, root_ + "/" + prefix, rp));
        }
        // --json: the same document but for the "remote" member, which says what travelled.
        auto r = QJsonDocument::fromJson(amn({"inspect", "--json", url}).out.toUtf8()).object();
        const auto l = QJsonDocument::fromJson(relabel(amn({"inspect", "--json", root_ + "/" + local}).out, root_ + "/" + prefix, rp).toUtf8()).object();
        QVERIFY(r.contains("remote"));
        QVERIFY(r["remote"].toObject()["bytes_fetched"].toInteger() > 0);
        r.remove("remote");
        QCOMPARE(r, l);
        no_mirror_left();
    }

    // A 1 GiB GGUF and a 1 GiB sharded safetensors model: less than the header + 64 KiB travels.
    void header_bytes_only() {
        // GGUF: the header ends where the tensor data starts.
        const auto g = QJsonDocument::fromJson(amn({"inspect", "--json", base_ + "/files/big.gguf"}).out.toUtf8()).object();
        const qint64 header = g["gguf"].toObject()["data_offset"].toInteger();
        const qint64 fetched = g["remote"].toObject()["bytes_fetched"].toInteger();
        QVERIFY2(header > 1000000, qPrintable(QString::number(header)));
        QVERIFY2(fetched >= header && fetched < header + 64 * 1024,
                 qPrintable(QString("fetched %1 for a header of %2").arg(fetched).arg(header)));
        // Safetensors: each shard's 8 bytes + JSON header, and the small files read whole.
        const auto s = QJsonDocument::fromJson(amn({"inspect", "--json", base_ + "/files/big_st/model.safetensors.index.json"}).out.toUtf8()).object();
        qint64 need = 0;
        for (const auto& v : s["remote"].toObject()["files"].toArray()) {
            const auto f = v.toObject();
            const QString name = f["url"].toString().section('/', -1);
            QFile local(root_ + "/files/big_st/" + name);
            QVERIFY2(local.open(QIODevice::ReadOnly), qPrintable(name));
            if (name.endsWith(".safetensors")) {
                const QByteArray len = local.read(8);
                qint64 n = 0;
                for (int i = 7; i >= 0; --i) n = n * 256 + static_cast<unsigned char>(len[i]);
                need += 8 + n;
            } else {
                need += local.size();
            }
        }
        const qint64 got = s["remote"].toObject()["bytes_fetched"].toInteger();
        QVERIFY2(s["file_bytes"].toInteger() > (1ll << 30), "the model is not 1 GiB");
        QVERIFY2(got >= need && got < need + 64 * 1024, qPrintable(QString("fetched %1 for headers of %2").arg(got).arg(need)));
    }

    // The token goes to the endpoint (gated repository) and never to the CDN
    // (which answers 400 when it sees one): HF_TOKEN, then the token file.
    void hub_token() {
        const QString want = amn({"inspect", root_ + "/repos/org/gated/tiny-llama-Q4_K_M.gguf"}).out.section('\n', 1);
        auto r = amn({"inspect", "hf://org/gated"}, {"HF_TOKEN=hf_good"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(r.out.section('\n', 1), want);
        r = amn({"inspect", "hf://org/cdn"}, {"HF_TOKEN=hf_good"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(r.out.section('\n', 1), want);
        {
            QFile t(hf_home_ + "/token");
            QVERIFY(t.open(QIODevice::WriteOnly));
            t.write("hf_good\n");
        }
        r = amn({"inspect", "hf://org/gated"});
        QFile::remove(hf_home_ + "/token");
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        no_mirror_left();
    }

    // A remote model's value preview (the desktop app's): the input bytes
    // the shown rows are decoded from (preview_inputs) fetched into the
    // mirror give the values the downloaded model gives, bit for bit, and no
    // more than those rows travel.
    void preview_rows_data() {
        QTest::addColumn<QString>("remote");
        QTest::addColumn<QString>("local");
        QTest::newRow("gguf-q4_k_m") << "@BASE@/files/fixtures/tiny-llama-Q4_K_M.gguf" << "files/fixtures/tiny-llama-Q4_K_M.gguf";
        QTest::newRow("gguf-split") << "@BASE@/files/split/tiny-00001-of-00003.gguf" << "files/split/tiny-00001-of-00003.gguf";
        QTest::newRow("gguf-1GiB") << "@BASE@/files/big.gguf" << "files/big.gguf";
        QTest::newRow("safetensors-index") << "@BASE@/files/fixtures/Llama-2-7b-hf/model.safetensors.index.json"
                                           << "files/fixtures/Llama-2-7b-hf/model.safetensors.index.json";
        QTest::newRow("pth") << "@BASE@/files/fixtures/algzoo_rnn_small.pth" << "files/fixtures/algzoo_rnn_small.pth";
        QTest::newRow("npz") << "@BASE@/files/fixtures/gemma_scope_small.npz" << "files/fixtures/gemma_scope_small.npz";
        QTest::newRow("hub-onnx") << "hf://org/onnx" << "repos/org/onnx";
    }
    void preview_rows() {
        QFETCH(QString, remote);
        QFETCH(QString, local);
        qputenv("HF_ENDPOINT", base_.toUtf8());
        qputenv("HF_TOKEN", "");
        qputenv("HF_HOME", hf_home_.toUtf8());
        qputenv("TMPDIR", tmp_.toUtf8());
        constexpr std::uint64_t kRowsShown = 8, kColsShown = 16;
        {
            const auto rm = amn::RemoteModel::open(remote.replace("@BASE@", base_).toStdString());
            const amn::Catalog rc = amn::open_model(rm.local_path());
            const amn::Plan rp = amn::make_plan(rc);
            const amn::Catalog lc = amn::open_model((root_ + "/" + local).toStdString());
            const amn::Plan lp = amn::make_plan(lc);
            QCOMPARE(rp.tensors.size(), lp.tensors.size());
            const std::uint64_t headers = rm.bytes_fetched();
            int shown = 0;
            for (std::size_t i = 0; i < rp.tensors.size(); ++i) {
                if (!rp.tensors[i].recipe) continue;
                const std::uint64_t before = rm.bytes_fetched();
                std::uint64_t want = 0;
                for (const auto& r : amn::preview_inputs(rp.tensors[i], kRowsShown, kColsShown)) {
                    rm.fetch(rc.shards.at(r.shard).path, r.offset, r.len);
                    rc.shards.at(r.shard).file->release(r.offset, r.len, true);
                    want += r.len;
                }
                QVERIFY2(rm.bytes_fetched() - before <= want, qPrintable(QString::fromStdString(rp.tensors[i].name)));
                const auto a = amn::preview_values(rp.tensors[i], kRowsShown, kColsShown);
                const auto b = amn::preview_values(lp.tensors[i], kRowsShown, kColsShown);
                QCOMPARE(a.rows, b.rows);
                QCOMPARE(a.cols, b.cols);
                QVERIFY2(a.values.size() == b.values.size() &&
                             std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0,
                         qPrintable("values differ: " + QString::fromStdString(rp.tensors[i].name)));
                ++shown;
            }
            QVERIFY(shown > 0);
            // The 1 GiB GGUF: 8 rows of 8192 F16 values (128 KiB) of each of its 16 tensors, not their 64 MiB.
            if (local.endsWith("big.gguf"))
                // (the header's last request may have read into the first tensor's rows)
                QVERIFY2(rm.bytes_fetched() - headers <= 16 * 8 * 8192 * 2, qPrintable(QString::number(rm.bytes_fetched() - headers)));
        }
        no_mirror_left();
    }

    // remember / forget of a remote model: its files downloaded (resumably)
    // into AMN_DOWNLOAD_DIR, then the output equals the local model's.
    void download_then_convert_data() {
        QTest::addColumn<QStringList>("verb");    // the command and its options, -o added
        QTest::addColumn<QString>("remote");
        QTest::addColumn<QString>("local");
        QTest::newRow("remember-hub-folder") << QStringList{"remember"} << "hf://org/llama" << "repos/org/llama";
        QTest::newRow("remember-hub-onnx-external") << QStringList{"remember"} << "hf://org/onnx" << "repos/org/onnx";
        QTest::newRow("forget-split-part-url") << QStringList{"forget", "--to", "gguf:Q4_K_M"}
                                               << "@BASE@/files/split/tiny-00002-of-00003.gguf"
                                               << "files/split/tiny-00001-of-00003.gguf";
    }
    void download_then_convert() {
        QFETCH(QStringList, verb);
        QFETCH(QString, remote);
        QFETCH(QString, local);
        const QString dl = work_.path() + "/downloads", out = work_.path() + "/remote-out", want = work_.path() + "/local-out";
        const QString ext = verb[0] == "forget" ? ".gguf" : "";
        QDir(dl).removeRecursively();
        QDir(out).removeRecursively();
        QDir(want).removeRecursively();
        QFile::remove(out + ext);
        QFile::remove(want + ext);
        const auto r = amn(verb + QStringList{remote.replace("@BASE@", base_), "-o", out + ext}, {"AMN_DOWNLOAD_DIR=" + dl});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("amn: downloading ") && r.err.contains("kept in " + dl), qPrintable(r.err));
        const auto l = amn(verb + QStringList{root_ + "/" + local, "-o", want + ext, "--quiet"});
        QVERIFY2(l.exit_code == 0, qPrintable(l.err));
        if (ext.isEmpty()) {
            const QStringList files = amn::test::list_files(want);
            QCOMPARE(amn::test::list_files(out), files);
            for (const auto& f : files)
                QVERIFY2(amn::test::read_file((out + "/" + f).toStdString()) == amn::test::read_file((want + "/" + f).toStdString()),
                         qPrintable(f));
        } else {
            QVERIFY(amn::test::read_file((out + ext).toStdString()) == amn::test::read_file((want + ext).toStdString()));
        }
        QVERIFY2(amn::test::list_files(dl).filter(".part").isEmpty(), "a .part file was left");
        no_mirror_left();
    }

    // An interrupted download resumes from its .part file: the bytes there
    // are kept, not fetched again (so a .part whose first byte is changed
    // gives a file with that byte changed), and renamed when complete.
    void download_resumes() {
        const QString dl = work_.path() + "/downloads-resume";
        QDir(dl).removeRecursively();
        const QString spec = base_ + "/files/fixtures/tiny-llama-Q4_K_M.gguf";
        const QString name = "tiny-llama-Q4_K_M.gguf";
        // Where it goes: https/HOST_PORT/files/fixtures under AMN_DOWNLOAD_DIR.
        const QString folder = dl + "/http/127.0.0.1_" + base_.section(':', -1) + "/files/fixtures";
        QVERIFY(QDir().mkpath(folder));
        const auto whole = amn::test::read_file((root_ + "/files/fixtures/" + name).toStdString());
        QVERIFY(whole.size() > 300000);
        QByteArray head(reinterpret_cast<const char*>(whole.data()), 300000);  // an interrupted download's first bytes
        head[200000] = static_cast<char>(head[200000] ^ 0x5a);  // in the tensor data: still parses
        {
            QFile part(folder + "/" + name + ".part");
            QVERIFY(part.open(QIODevice::WriteOnly));
            part.write(head);
        }
        const auto r = amn({"forget", spec, "--to", "gguf:Q8_0", "-o", work_.path() + "/resumed.gguf", "--quiet"}, {"AMN_DOWNLOAD_DIR=" + dl});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(folder + "/" + name + ".part"));
        const auto got = amn::test::read_file((folder + "/" + name).toStdString());
        auto orig = amn::test::read_file((root_ + "/files/fixtures/" + name).toStdString());
        QCOMPARE(got.size(), orig.size());
        QVERIFY(got[200000] != orig[200000]);  // the .part's byte kept: resumed, not fetched again
        orig[200000] = got[200000];
        QVERIFY(got == orig);             // and the rest is the remote file
        // Without -o: a usage error before anything travels.
        const auto u = amn({"remember", "hf://org/llama"});
        QCOMPARE(u.exit_code, 2);
        QVERIFY2(u.err.contains("a remote model needs -o OUT"), qPrintable(u.err));
    }

    // Every bad server and bad input: exit 1, one line naming the URL and the cause, nothing on stdout.
    void bad_servers_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("more_env");
        QTest::addColumn<QString>("expect");  // the error line must contain this (@BASE@, @TLS@ and @SHORT@ replaced)
        QTest::newRow("range-ignored") << "@BASE@/norange/big.gguf" << QStringList{}
                                       << "@BASE@/norange/big.gguf: the server ignores Range requests";
        QTest::newRow("timeout") << "@BASE@/slow/x.gguf" << QStringList{"HF_HUB_DOWNLOAD_TIMEOUT=1"}
                                 << "@BASE@/slow/x.gguf: timed out: no data for 1 s (HF_HUB_DOWNLOAD_TIMEOUT), 3 tries";
        QTest::newRow("redirect-loop") << "@BASE@/loop" << QStringList{} << "@BASE@/loop: redirect loop";
        QTest::newRow("not-found") << "@BASE@/files/nope.gguf" << QStringList{} << "@BASE@/files/nope.gguf: not found (HTTP 404)";
        QTest::newRow("short-body") << "http://127.0.0.1:@SHORT@/x.gguf" << QStringList{}
                                    << "the server sent fewer bytes than its Content-Length says";
        QTest::newRow("tls") << "https://127.0.0.1:@TLS@/files/big.gguf" << QStringList{} << "https://127.0.0.1:@TLS@/files/big.gguf: TLS error";
        QTest::newRow("header-past-end") << "@BASE@/files/bad_header.safetensors" << QStringList{}
                                         << "@BASE@/files/bad_header.safetensors: header length 1048576 runs past the end of the file";
        QTest::newRow("repo-not-found") << "hf://org/missing" << QStringList{} << "repository not found (HTTP 401; or private: set HF_TOKEN)";
        QTest::newRow("gated-no-token") << "hf://org/gated" << QStringList{} << "gated repository: it needs a token";
        QTest::newRow("gated-wrong-token") << "hf://org/gated" << QStringList{"HF_TOKEN=hf_other"}
                                           << "gated repository: this token has no access (HTTP 403";
        QTest::newRow("revision-not-found") << "hf://org/llama@v9" << QStringList{} << "revision not found (HTTP 404)";
        QTest::newRow("entry-not-found") << "@BASE@/org/llama/resolve/main/nope.safetensors" << QStringList{}
                                         << "file not found in the repository (HTTP 404)";
        QTest::newRow("no-such-path") << "hf://org/llama/nope.safetensors" << QStringList{}
                                      << "hf://org/llama/nope.safetensors: no file or folder 'nope.safetensors' in org/llama";
        QTest::newRow("several-models") << "hf://org/ggufs" << QStringList{} << "hf://org/ggufs: several model files: open one of them (tiny-llama-Q4_K_M.gguf, tiny-llama-Q8_0.gguf)";
        QTest::newRow("bad-spec") << "hf://nothing" << QStringList{} << "expected hf://ORG/REPO";
        QTest::newRow("remember-gated") << "remember:hf://org/gated" << QStringList{} << "gated repository: it needs a token";
        QTest::newRow("forget-not-found") << "forget:@BASE@/files/nope.gguf" << QStringList{} << "@BASE@/files/nope.gguf: not found (HTTP 404)";
        QTest::newRow("proxy-used") << "@BASE@/files/big.gguf" << QStringList{"http_proxy=http://127.0.0.1:1"}
                                    << "cannot connect: Failed to connect to 127.0.0.1 port 1";
    }
    void bad_servers() {
        QFETCH(QString, model);
        QFETCH(QStringList, more_env);
        QFETCH(QString, expect);
        auto fill = [&](QString s) {
            return s.replace("@BASE@", base_).replace("@TLS@", QString::number(tls_)).replace("@SHORT@", QString::number(short_));
        };
        // "VERB:MODEL" runs another command than inspect (nothing may be written).
        const QString verb = model.contains(QRegularExpression("^(remember|forget):")) ? model.section(':', 0, 0) : QString("inspect");
        if (verb != "inspect") model = model.section(':', 1);
        QStringList args{verb, fill(model)};
        if (verb == "remember") args << "-o" << work_.path() + "/out";
        if (verb == "forget") args << "--to" << "gguf:Q4_K_M" << "-o" << work_.path() + "/out.gguf";
        const auto r = amn(args, more_env);
        QVERIFY(!QFileInfo::exists(work_.path() + "/out") && !QFileInfo::exists(work_.path() + "/out.gguf"));
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        const QStringList lines = r.err.trimmed().split('\n');
        QVERIFY2(lines.size() == 1 && lines[0].startsWith("amn: error: "), qPrintable(r.err));
        QVERIFY2(lines[0].contains(fill(expect)), qPrintable(r.err + "\nexpected: " + fill(expect)));
        no_mirror_left();
    }
};

QTEST_GUILESS_MAIN(TestCliRemote)
#include "test_cli_remote.moc"
