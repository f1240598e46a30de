// SPDX-License-Identifier: MIT OR Apache-2.0
// Zip bombs (issue 25): ~1 MB archives whose deflated members inflate to
// 1 GiB, built here with zlib (no Python needed). Every place that inflates
// a ZIP member whole must refuse such a member by its declared size, before
// inflating it: a `data.pkl` (or any pickle member) over
// ZipLimits::max_metadata_bytes, a deflated PyTorch storage larger than its
// storage, a deflated NPZ member larger than its header describes. Before
// the fix each took seconds and ~1.5 GB and failed with another error
// (Malformed on the pickle's first opcode) after inflating everything.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/mapped_file.hpp"
#include "anamnesis/npy.hpp"
#include "anamnesis/pth.hpp"
#include "anamnesis/zip.hpp"

#include <QtTest/QtTest>
#include <sys/resource.h>
#include <zlib.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace amn;
using namespace std::string_literals;  // literals holding NUL bytes

namespace {

std::optional<Error> error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const Error& e) {
        return e;
    }
    return std::nullopt;
}

void put16(std::vector<std::uint8_t>& b, std::uint32_t v) { for (int i = 0; i < 2; ++i) b.push_back(std::uint8_t(v >> (8 * i))); }
void put32(std::vector<std::uint8_t>& b, std::uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i))); }

// A raw deflate stream of `bytes` that does not end the stream: a fresh
// compressor, flushed to a byte boundary, so such pieces concatenate.
std::vector<std::uint8_t> deflate_piece(const std::vector<std::uint8_t>& bytes) {
    z_stream zs{};
    if (deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK) qFatal("deflateInit2");
    std::vector<std::uint8_t> out(deflateBound(&zs, bytes.size()) + 64);
    zs.next_in = const_cast<Bytef*>(bytes.data());
    zs.avail_in = uInt(bytes.size());
    zs.next_out = out.data();
    zs.avail_out = uInt(out.size());
    if (deflate(&zs, Z_FULL_FLUSH) != Z_OK || zs.avail_in != 0) qFatal("deflate");
    out.resize(out.size() - zs.avail_out);
    deflateEnd(&zs);
    return out;
}

// One ZIP member: `head` followed by `zeros` zero bytes, stored or deflated.
struct Member {
    std::string name;
    std::vector<std::uint8_t> head;
    std::uint64_t zeros = 0;
    bool deflate = true;
};

// A ZIP archive of `members` (no Zip64: every size under 4 GiB). A deflated
// member of 1 GiB of zeros costs ~1 MB: one compressed MiB of zeros repeated.
std::vector<std::uint8_t> zip_of(const std::vector<Member>& members) {
    constexpr std::uint64_t kMiB = 1u << 20;
    const std::vector<std::uint8_t> mib(kMiB, 0);
    const auto zero_piece = deflate_piece(mib);
    const std::uint32_t zero_crc = std::uint32_t(crc32_z(0, mib.data(), mib.size()));
    std::vector<std::uint8_t> z, cd;
    for (const Member& m : members) {
        std::vector<std::uint8_t> data;
        std::uint32_t crc = std::uint32_t(crc32_z(0, m.head.data(), m.head.size()));
        const std::uint64_t size = m.head.size() + m.zeros;
        std::vector<std::uint8_t> rest(static_cast<std::size_t>(m.zeros % kMiB), 0);
        if (m.deflate) {
            data = deflate_piece(m.head);
            for (std::uint64_t i = 0; i < m.zeros / kMiB; ++i) data.insert(data.end(), zero_piece.begin(), zero_piece.end());
            const auto tail = deflate_piece(rest);
            data.insert(data.end(), tail.begin(), tail.end());
            data.push_back(0x03);  // final empty fixed-Huffman block
            data.push_back(0x00);
        } else {
            data = m.head;
            data.resize(static_cast<std::size_t>(size), 0);
        }
        for (std::uint64_t i = 0; i < m.zeros / kMiB; ++i) crc = std::uint32_t(crc32_combine(crc, zero_crc, z_off_t(kMiB)));
        crc = std::uint32_t(crc32_combine(crc, std::uint32_t(crc32_z(0, rest.data(), rest.size())), z_off_t(rest.size())));
        const std::uint32_t offset = std::uint32_t(z.size());
        auto header = [&](std::vector<std::uint8_t>& b, bool central) {
            put32(b, central ? 0x02014b50 : 0x04034b50);
            if (central) put16(b, 20);
            put16(b, 20);
            put16(b, 0);                    // flags
            put16(b, m.deflate ? 8 : 0);    // method
            put16(b, 0);
            put16(b, 0);
            put32(b, crc);
            put32(b, std::uint32_t(data.size()));
            put32(b, std::uint32_t(size));
            put16(b, std::uint32_t(m.name.size()));
            put16(b, 0);
            if (central) {
                put16(b, 0);
                put16(b, 0);
                put16(b, 0);
                put32(b, 0);
                put32(b, offset);
            }
            b.insert(b.end(), m.name.begin(), m.name.end());
        };
        header(z, false);
        z.insert(z.end(), data.begin(), data.end());
        header(cd, true);
    }
    const std::uint32_t cd_offset = std::uint32_t(z.size());
    z.insert(z.end(), cd.begin(), cd.end());
    put32(z, 0x06054b50);
    put16(z, 0);
    put16(z, 0);
    put16(z, std::uint32_t(members.size()));
    put16(z, std::uint32_t(members.size()));
    put32(z, std::uint32_t(cd.size()));
    put32(z, cd_offset);
    put16(z, 0);
    return z;
}

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// A protocol-2 pickle of {'w': _rebuild_tensor_v2(storage('0', FloatStorage, numel 1), 0, (1,), (1,), False, OrderedDict())},
// what torch.save writes for {'w': torch.zeros(1)}.
std::vector<std::uint8_t> one_tensor_pickle() {
    std::string p = "\x80\x02}(";
    auto str = [&](const std::string& s) {
        p += 'X';
        for (int i = 0; i < 4; ++i) p += char((s.size() >> (8 * i)) & 0xFF);
        p += s;
    };
    str("w");
    p += "ctorch._utils\n_rebuild_tensor_v2\n(";
    p += "(";
    str("storage");
    p += "ctorch\nFloatStorage\n";
    str("0");
    str("cpu");
    p += "K\x01tQ";                       // numel 1; TUPLE; BINPERSID
    p += "K\x00K\x01\x85K\x01\x85\x89"s;    // offset 0, size (1,), stride (1,), False
    p += "ccollections\nOrderedDict\n)R";  // OrderedDict()
    p += "tRu.";
    return bytes_of(p);
}

// A v1 .npy header for one little-endian float32 (shape (1,)), data included.
std::vector<std::uint8_t> npy_one_float() {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
    while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
    dict += '\n';
    std::string h = "\x93NUMPY\x01\x00"s;
    h += char(dict.size() & 0xFF);
    h += char(dict.size() >> 8);
    h += dict;
    h += std::string(4, '\0');
    return bytes_of(h);
}

long peak_rss_kib() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

}  // namespace

class TestZipBomb : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void dataPklIsRefusedUninflated();
    void pickleMembersAreBoundedWhenScanned();
    void metadataLimitIsTheDeclaredSize();
    void deflatedStorageLargerThanItsStorage();
    void deflatedNpzMemberLargerThanItsHeader();
    void realArchivesStillOpen();
    void cleanupTestCase();

private:
    long rss_before_ = 0, rss_test_ = 0;
    QElapsedTimer timer_;
};

void TestZipBomb::initTestCase() {
    rss_before_ = peak_rss_kib();
    timer_.start();
}

// Peak RSS per test: a bomb inflated before it is refused shows as ~1 GiB
// (Linux counts ru_maxrss in KiB). Generous, and the old code misses it by far.
void TestZipBomb::init() { rss_test_ = peak_rss_kib(); }

void TestZipBomb::cleanup() {
    const long grown_mib = (peak_rss_kib() - rss_test_) / 1024;
    QVERIFY2(grown_mib < 100, qPrintable(QStringLiteral("peak RSS grew by %1 MiB: a bomb was inflated").arg(grown_mib)));
}

// The issue's case: a ~1 MB .pth whose data.pkl inflates to 1 GiB of junk.
void TestZipBomb::dataPklIsRefusedUninflated() {
    const auto bytes = zip_of({{"archive/data.pkl", {}, kGiB, true}, {"archive/version", bytes_of("3\n"), 0, false}});
    QVERIFY2(bytes.size() < 2u << 20, "the bomb should be about 1 MB");
    const auto e = error_of([&] { (void)parse_pth(MappedFile::from_bytes(bytes, "bomb.pth"), "bomb.pth"); });
    QVERIFY(e.has_value());
    QCOMPARE(int(e->code()), int(ErrorCode::LimitExceeded));
    QCOMPARE(e->file(), std::string("bomb.pth"));
    QVERIFY2(e->message().find("archive/data.pkl") != std::string::npos, e->what());
    QVERIFY2(e->message().find("1073741824") != std::string::npos, e->what());
    QVERIFY2(e->message().find("limit 67108864") != std::string::npos, e->what());
    // Through the format dispatch, as `amn inspect` opens it.
    const QString path = QDir::temp().filePath(QStringLiteral("amn-zip-bomb-%1.pth").arg(QCoreApplication::applicationPid()));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    const auto opened = error_of([&] { (void)open_model(path.toStdString()); });
    QFile::remove(path);
    QVERIFY(opened.has_value());
    QCOMPARE(int(opened->code()), int(ErrorCode::LimitExceeded));
    QCOMPARE(opened->file(), path.toStdString());
}

// scan_pickles (`amn scan`) reads every *.pkl member and object-array .npy whole.
void TestZipBomb::pickleMembersAreBoundedWhenScanned() {
    const auto bytes = zip_of({{"archive/data.pkl", {}, kGiB, true}, {"extra.pkl", {}, kGiB, true}});
    const PickleScan s = scan_pickles(MappedFile::from_bytes(bytes, "bomb.pth"), "bomb.pth");
    QCOMPARE(s.pickles.size(), std::size_t(0));
    QCOMPARE(s.errors.size(), std::size_t(2));
    for (const auto& err : s.errors) QVERIFY2(err.find("limit 67108864") != std::string::npos, err.c_str());
}

// The limit is on the declared size; a smaller limit refuses a real pickle,
// the default lets a small one through to the pickle machine.
void TestZipBomb::metadataLimitIsTheDeclaredSize() {
    const auto bytes = zip_of({{"a/data.pkl", one_tensor_pickle(), 0, true}});
    ZipLimits lim;
    lim.max_metadata_bytes = one_tensor_pickle().size() - 1;
    const ZipArchive tight = ZipArchive::open(MappedFile::from_bytes(bytes, "t.pth"), lim);
    const auto e = error_of([&] { (void)tight.read_metadata(tight.entries()[0], "pickle"); });
    QVERIFY(e.has_value());
    QCOMPARE(int(e->code()), int(ErrorCode::LimitExceeded));
    QCOMPARE(e->file(), std::string("t.pth"));
    const ZipArchive loose = ZipArchive::open(MappedFile::from_bytes(bytes, "t.pth"));
    QCOMPARE(loose.read_metadata(loose.entries()[0], "pickle"), one_tensor_pickle());
}

// A deflated storage inflates whole at open: one that declares 1 GiB for a
// one-float storage is refused before it is inflated.
void TestZipBomb::deflatedStorageLargerThanItsStorage() {
    const auto bytes = zip_of({{"a/data.pkl", one_tensor_pickle(), 0, false}, {"a/data/0", std::vector<std::uint8_t>(4, 0), kGiB, true}});
    const auto e = error_of([&] { (void)parse_pth(MappedFile::from_bytes(bytes, "st.pth"), "st.pth"); });
    QVERIFY(e.has_value());
    QCOMPARE(int(e->code()), int(ErrorCode::LimitExceeded));
    QCOMPARE(e->file(), std::string("st.pth"));
    QVERIFY2(e->message().find("a/data/0") != std::string::npos, e->what());
    QVERIFY2(e->message().find("its storage holds 4") != std::string::npos, e->what());
}

// A deflated NPZ member's header is read first: 1 GiB behind a one-float
// header is refused (trailing bytes) without inflating it.
void TestZipBomb::deflatedNpzMemberLargerThanItsHeader() {
    const auto bytes = zip_of({{"w.npy", npy_one_float(), kGiB, true}});
    const auto e = error_of([&] { (void)parse_npz(MappedFile::from_bytes(bytes, "b.npz"), "b.npz"); });
    QVERIFY(e.has_value());
    QCOMPARE(int(e->code()), int(ErrorCode::SizeMismatch));
    QCOMPARE(e->file(), std::string("b.npz"));
    QCOMPARE(e->tensor(), std::string("w"));
}

// The same builders without the bombs open: the checks refuse sizes, not shapes.
void TestZipBomb::realArchivesStillOpen() {
    const auto pth = zip_of({{"a/data.pkl", one_tensor_pickle(), 0, true}, {"a/data/0", std::vector<std::uint8_t>(4, 0), 0, true}});
    const Catalog c = parse_pth(MappedFile::from_bytes(pth, "ok.pth"), "ok.pth");
    QCOMPARE(c.tensors.size(), std::size_t(1));
    QCOMPARE(c.tensors[0].name, std::string("w"));
    const auto npz = zip_of({{"w.npy", npy_one_float(), 0, true}});
    const Catalog n = parse_npz(MappedFile::from_bytes(npz, "ok.npz"), "ok.npz");
    QCOMPARE(n.tensors.size(), std::size_t(1));
}

// Five 1 GiB bombs: before the fix 25 s and a 2 GB peak in all, here 50 ms.
void TestZipBomb::cleanupTestCase() {
    const long grown_mib = (peak_rss_kib() - rss_before_) / 1024;
    qInfo("zip bombs: %lld ms, peak RSS grew by %ld MiB", static_cast<long long>(timer_.elapsed()), grown_mib);
    QVERIFY2(grown_mib < 100, "a bomb was inflated");
}

QTEST_APPLESS_MAIN(TestZipBomb)
#include "test_zip_bomb.moc"
