// SPDX-License-Identifier: MIT OR Apache-2.0
// The bounded ZIP reader: stored/deflated entries (contents checked against
// sha256 sums Python computed), a hand-built Zip64 archive that Python's
// zipfile reads, PyTorch's 64-byte-aligned stored entries mapped in place,
// and every kind of bad archive producing its named error.
#include "anamnesis/mapped_file.hpp"
#include "anamnesis/zip.hpp"
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
#include "test_zip.moc"
