// SPDX-License-Identifier: MIT OR Apache-2.0
// The bounded ZIP reader: stored/deflated entries (contents checked against
// sha256 sums Python computed), a hand-built Zip64 archive that Python's
// zipfile reads, PyTorch's 64-byte-aligned stored entries mapped in place,
// and every kind of bad archive producing its named error.
#include "anamnesis/mapped_file.hpp"
#include "anamnesis/zip.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/npy.hpp"
#include "npz_pth_fixtures.hpp"

#include <QCryptographicHash>
#include <algorithm>
#include <QtTest/QtTest>

using namespace amn;
using amn::test::error_of;

class TestZip : public QObject {
    Q_OBJECT
    amn::test::NpzPthFixtures fx;

private slots:
    void initTestCase() { AMN_GENERATE_NPZ_PTH_FIXTURES(fx); }
    void cases_data();
    void cases();
    void storedEntriesAreZeroCopy();
    void crc32MatchesZlibCheckValue();
    void readPrefixIsThePrefix();
    void declaredSizeIsNotAllocated();
};

void TestZip::cases_data() {
    QTest::addColumn<QJsonObject>("c");
    for (const auto& v : fx.list("zip")) QTest::newRow(qPrintable(v.toObject()["input"].toString())) << v.toObject();
}

void TestZip::cases() {
    QFETCH(QJsonObject, c);
    ZipLimits lim;
    if (c.contains("max_entries")) lim.max_entries = std::uint64_t(c["max_entries"].toInteger());
    if (c.contains("max_name")) lim.max_name_bytes = std::uint32_t(c["max_name"].toInteger());
    if (c.contains("limit")) lim.max_inflated_bytes = std::uint64_t(c["limit"].toInteger());
    const auto file = MappedFile::open(fx.path(c["input"].toString()));
    if (c.contains("entries")) {
        const ZipArchive z = ZipArchive::open(file, lim);
        const auto want = c["entries"].toObject();
        QCOMPARE(qsizetype(z.entries().size()), want.size());
        for (const auto& e : z.entries()) {
            const auto bytes = z.read(e);
            const auto sum = QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256).toHex();
            QCOMPARE(QString::fromLatin1(sum), want[QString::fromStdString(e.name)].toString());
            if (e.is_stored()) z.verify_crc(e);
        }
        return;
    }
    const auto e = error_of([&] {
        const ZipArchive z = ZipArchive::open(file, lim);
        for (const auto& en : z.entries()) {
            if (c.contains("verify")) z.verify_crc(en);
            else z.read(en);
        }
    });
    QVERIFY2(e.has_value(), "no error raised");
    QCOMPARE(QString::fromUtf8(error_code_name(e->code()).data()), c["code"].toString());
    QVERIFY2(QString::fromStdString(e->message()).contains(c["contains"].toString()), e->what());
    QCOMPARE(QString::fromStdString(e->file()), QString::fromStdString(fx.path(c["input"].toString())));
}

// PyTorch stores storages uncompressed at 64-byte-aligned offsets: the reader
// hands out spans into the mapping itself.
void TestZip::storedEntriesAreZeroCopy() {
    const auto file = MappedFile::open(fx.path("archive_prefix.pth"));
    const ZipArchive z = ZipArchive::open(file);
    int storages = 0;
    for (const auto& e : z.entries()) {
        if (e.name.find("/data/") == std::string::npos) continue;
        ++storages;
        QVERIFY(e.is_stored());
        const auto s = z.stored_span(e);
        QCOMPARE(s.data(), file->data() + e.data_offset);
        QCOMPARE(e.data_offset % 64, std::uint64_t(0));
        z.verify_crc(e);
    }
    QVERIFY(storages >= 2);
    QVERIFY(z.find("archive/data.pkl").has_value());
    QVERIFY(!z.find("archive/nope").has_value());
}

void TestZip::crc32MatchesZlibCheckValue() {
    const std::string s = "123456789";  // the CRC-32/ISO-HDLC check value
    QCOMPARE(zip_crc32({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}), 0xCBF43926u);
}

// read_prefix (the scan peeks at .npy headers with it): the first n bytes
// of the full read, stored or deflated; a corrupt stream is still an error.
void TestZip::readPrefixIsThePrefix() {
    int checked = 0;
    for (const char* name : {"good.zip", "compressed.npz", "zip64.zip"}) {
        const ZipArchive z = ZipArchive::open(MappedFile::open(fx.path(name)));
        for (const auto& e : z.entries()) {
            const auto all = z.read(e);
            for (std::uint64_t n : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(10), std::uint64_t(128), e.uncompressed_size,
                                    e.uncompressed_size + 7}) {
                const auto p = z.read_prefix(e, n);
                QCOMPARE(p.size(), std::size_t(std::min(n, e.uncompressed_size)));
                QVERIFY(std::equal(p.begin(), p.end(), all.begin()));
                ++checked;
            }
        }
    }
    QVERIFY(checked >= 6 * 8);
    const ZipArchive bad = ZipArchive::open(MappedFile::open(fx.path("corrupt_deflate.zip")));
    const auto e = error_of([&] { bad.read_prefix(bad.entries().at(0), 1u << 20); });
    QVERIFY(e && e->code() == ErrorCode::Malformed);
}

QTEST_APPLESS_MAIN(TestZip)
namespace {
void put16(std::vector<std::uint8_t>& b, std::uint32_t v) { for (int i = 0; i < 2; ++i) b.push_back(std::uint8_t(v >> (8 * i))); }
void put32(std::vector<std::uint8_t>& b, std::uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i))); }

// One deflated entry `name` whose stream holds `real` bytes (stored deflate
// blocks) but whose headers declare `declared` bytes.
std::vector<std::uint8_t> lying_zip(const std::string& name, std::size_t real, std::uint32_t declared) {
    std::vector<std::uint8_t> stream;
    for (std::size_t done = 0; done < real || done == 0;) {
        const std::size_t n = std::min<std::size_t>(65535, real - done);
        const bool last = done + n >= real;
        stream.push_back(last ? 1 : 0);
        put16(stream, std::uint32_t(n));
        put16(stream, std::uint32_t(~n & 0xFFFF));
        for (std::size_t i = 0; i < n; ++i) stream.push_back(std::uint8_t(i * 7 + done));
        done += n;
        if (last) break;
    }
    std::vector<std::uint8_t> z;
    auto header = [&](bool central) {
        put32(z, central ? 0x02014b50 : 0x04034b50);
        if (central) put16(z, 20);
        put16(z, 20);
        put16(z, 0);   // flags
        put16(z, 8);   // deflate
        put16(z, 0);
        put16(z, 0);
        put32(z, 0x12345678);  // CRC (never reached)
        put32(z, std::uint32_t(stream.size()));
        put32(z, declared);
        put16(z, std::uint32_t(name.size()));
        put16(z, 0);
        if (central) {
            put16(z, 0);
            put16(z, 0);
            put16(z, 0);
            put32(z, 0);
            put32(z, 0);  // local header offset
        }
        z.insert(z.end(), name.begin(), name.end());
    };
    header(false);
    z.insert(z.end(), stream.begin(), stream.end());
    const std::uint32_t cd = std::uint32_t(z.size());
    header(true);
    const std::uint32_t cd_size = std::uint32_t(z.size()) - cd;
    put32(z, 0x06054b50);
    put16(z, 0);
    put16(z, 0);
    put16(z, 1);
    put16(z, 1);
    put32(z, cd_size);
    put32(z, cd);
    put16(z, 0);
    return z;
}
}  // namespace

// issue 14: a deflated member declaring ~4 GiB but holding 4 MiB was
// allocated (and zero-filled) at its declared size before inflating: 4 GB of
// RSS for a 4 MB file, even to inspect it. Inflate now grows with the real
// data and names the lie (tests/bench/robustness.sh checks time and RSS).
void TestZip::declaredSizeIsNotAllocated() {
    const auto bytes = lying_zip("w.npy", 4u << 20, 0xFFFFFFF0u);
    const ZipArchive z = ZipArchive::open(MappedFile::from_bytes(bytes, "lie.zip"));
    QCOMPARE(z.entries().size(), std::size_t(1));
    QElapsedTimer t;
    t.start();
    const auto e = error_of([&] { (void)z.read(z.entries()[0]); });
    QVERIFY(e.has_value());
    QCOMPARE(int(e->code()), int(ErrorCode::Malformed));
    QVERIFY2(e->message().find("ends after 4194304 of its declared 4294967280 bytes") != std::string::npos, e->what());
    const auto npz = error_of([&] { (void)parse_npz(MappedFile::from_bytes(bytes, "lie.npz"), "lie.npz"); });
    QVERIFY(npz.has_value());
    QCOMPARE(int(npz->code()), int(ErrorCode::Malformed));
    QCOMPARE(npz->file(), std::string("lie.npz"));
    QVERIFY2(t.elapsed() < 10000, "declared size allocated?");
}

#include "test_zip.moc"
