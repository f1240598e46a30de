// SPDX-License-Identifier: MIT OR Apache-2.0
// PyTorch checkpoints (ZIP and legacy) into a Catalog, and the pickle scan.
#include "anamnesis/pth.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/npy.hpp"
#include "anamnesis/zip.hpp"
#include "source/formats/pickle.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <unordered_map>

namespace amn {
namespace {

using detail::pickle::GlobalKind;
using detail::pickle::Machine;
using detail::pickle::Value;
using K = Value::Kind;

// Legacy magic number 0x1950a86a20f9469cfc6c as LONG1 little-endian bytes.
constexpr std::uint8_t kLegacyMagic[10] = {0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
constexpr std::size_t kMaxNotes = 256;
constexpr int kMaxDepth = 64;
constexpr std::uint64_t kMaxVisits = 1u << 24;

std::string base_name(const std::string& path) {
    const auto s = path.find_last_of('/');
    return s == std::string::npos ? path : path.substr(s + 1);
}

bool starts_with(const MappedFile& f, std::string_view magic) {
    return f.size() >= magic.size() && std::memcmp(f.data(), magic.data(), magic.size()) == 0;
}

// Where a storage's bytes are: shard offset and available bytes.
struct StorageData { std::uint64_t offset = 0, bytes = 0; };

// Walks the unpickled object and collects tensors and notes.
class Flattener {
public:
    Flattener(Catalog& cat, const std::unordered_map<std::string, StorageData>& data, bool big_endian)
        : cat_(cat), data_(data), big_endian_(big_endian) {}

    void walk(const Value* v, const std::string& name, int depth) {
        if (++visits_ > kMaxVisits) throw Error(ErrorCode::LimitExceeded, "checkpoint object graph larger than " + std::to_string(kMaxVisits) + " nodes");
        const std::string shown = name.empty() ? "(top level)" : name;
        if (depth > kMaxDepth) { note(shown + ": nested deeper than " + std::to_string(kMaxDepth) + " levels, skipped"); return; }
        switch (v->kind) {
            case K::Tensor: add_tensor(v->tensor, name.empty() ? "tensor" : name); return;
            case K::Dict:
                for (const auto& [k, val] : v->dict) {
                    std::string key;
                    if (k->kind == K::Str) key = k->s;
                    else if (k->kind == K::Int) key = std::to_string(k->i);
                    else if (k->kind == K::Bool) key = k->b ? "True" : "False";
                    else { note(shown + ": entry with a " + std::string(detail::pickle::kind_name(*k)) + " key, skipped"); continue; }
                    walk(val, name.empty() ? key : name + "." + key, depth + 1);
                }
                return;
            case K::List: case K::Tuple:
                for (std::size_t i = 0; i < v->items.size(); ++i)
                    walk(v->items[i], name.empty() ? std::to_string(i) : name + "." + std::to_string(i), depth + 1);
                return;
            case K::Opaque:
                note(shown + ": " + v->s + " is not a tensor anamnesis converts, skipped");
                return;
            default:
                note(shown + ": " + describe(v) + " — not a tensor, skipped");
        }
    }

    void finish() {
        if (dropped_ > 0) cat_.notes.push_back("… and " + std::to_string(dropped_) + " more non-tensor values skipped");
    }

private:
    Catalog& cat_;
    const std::unordered_map<std::string, StorageData>& data_;
    bool big_endian_;
    std::uint64_t visits_ = 0;
    std::size_t dropped_ = 0;

    void note(std::string s) {
        ++cat_.skipped_values;
        if (cat_.notes.size() < kMaxNotes) cat_.notes.push_back(std::move(s));
        else ++dropped_;
    }

    static std::string describe(const Value* v) {
        switch (v->kind) {
            case K::None: return "None";
            case K::Bool: return v->b ? "True (bool)" : "False (bool)";
            case K::Int: return std::to_string(v->i) + " (int)";
            case K::BigInt: return "a big integer (int)";
            case K::Float: {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.9g (float)", v->f);
                return buf;
            }
            case K::Str: return "'" + (v->s.size() > 60 ? v->s.substr(0, 57) + "..." : v->s) + "' (str)";
            case K::Bytes: return std::to_string(v->s.size()) + " bytes";
            case K::Set: return "a set of " + std::to_string(v->items.size());
            case K::Device: return "device '" + v->s + "'";
            case K::Dtype: return "dtype " + v->s;
            case K::Storage: return "a bare storage (" + v->storage.type_name + ")";
            case K::Global: return v->s;
            default: return std::string(detail::pickle::kind_name(*v));
        }
    }

    void add_tensor(const detail::pickle::TensorRef& t, const std::string& name) {
        const auto& st = t.storage->storage;
        const DType dt = t.dtype != DType::Unknown ? t.dtype : st.dtype;
        const DTypeInfo* info = dtype_info(dt);
        if (!info || info->block_elems != 1) {
            note(name + ": tensor over a " + st.type_name + " (no convertible dtype), skipped");
            return;
        }
        const auto it = data_.find(st.key);
        if (it == data_.end()) throw Error(ErrorCode::Malformed, "storage '" + st.key + "' has no data", {}, name);
        const std::uint64_t esize = info->block_bytes;
        const DTypeInfo* sinfo = dtype_info(st.dtype);
        const std::uint64_t storage_bytes = it->second.bytes;
        const std::uint64_t capacity = storage_bytes / esize;  // elements of the tensor dtype
        (void)sinfo;
        auto oor = [&](const std::string& why) { return Error(ErrorCode::OutOfRange, why, {}, name); };
        if (t.shape.size() > kMaxRank) throw Error(ErrorCode::LimitExceeded, "tensor of rank " + std::to_string(t.shape.size()), {}, name);
        std::uint64_t numel = 1;
        for (auto s : t.shape) {
            if (s != 0 && numel > std::numeric_limits<std::uint64_t>::max() / s) throw oor("element count overflows 64 bits");
            numel *= s;
        }
        const std::uint64_t base = st.view_offset + t.storage_offset;
        if (base < t.storage_offset) throw oor("storage offset overflows");
        std::uint64_t last = base;  // highest element index touched
        bool contiguous = true;
        std::uint64_t expect = 1;
        for (std::size_t i = t.shape.size(); i-- > 0;) {
            if (t.stride[i] < 0) throw Error(ErrorCode::Malformed, "negative stride", {}, name);
            const auto stride = static_cast<std::uint64_t>(t.stride[i]);
            if (t.shape[i] > 1) {
                if (stride != expect) contiguous = false;
                const std::uint64_t span = t.shape[i] - 1;
                if (stride != 0 && span > (std::numeric_limits<std::uint64_t>::max() - last) / stride) throw oor("view extent overflows 64 bits");
                last += span * stride;
            }
            if (t.shape[i] != 0 && expect > std::numeric_limits<std::uint64_t>::max() / t.shape[i]) throw oor("element count overflows 64 bits");
            expect *= t.shape[i] == 0 ? 1 : t.shape[i];
        }
        TensorInfo ti;
        ti.name = name;
        ti.dtype = dt;
        ti.dtype_name = dtype_name(dt);
        ti.shape = t.shape;
        ti.shard = 0;
        ti.big_endian = big_endian_ && esize > 1;
        if (numel == 0) {
            ti.offset = it->second.offset;
            ti.nbytes = 0;
        } else {
            if (last >= capacity)
                throw oor("view reaches element " + std::to_string(last) + " of a storage of " + std::to_string(capacity) + " elements");
            ti.offset = it->second.offset + base * esize;
            ti.nbytes = contiguous ? numel * esize : (last - base + 1) * esize;
            if (!contiguous) ti.strides = t.stride;
        }
        cat_.tensors.push_back(std::move(ti));
    }
};

// The persistent id → storage mapping shared by the ZIP and legacy readers.
struct StorageTable {
    std::unordered_map<std::string, Value*> by_key;
};

Value* load_storage(Machine& m, StorageTable& table, const Value& pid, bool legacy) {
    if (pid.kind != K::Tuple || pid.items.empty() || pid.items[0]->kind != K::Str)
        throw Error(ErrorCode::Malformed, "persistent id is not a ('storage', …) tuple");
    const auto& it = pid.items;
    if (it[0]->s == "module") throw Error(ErrorCode::Unsupported, "checkpoint pickles module source code (a whole nn.Module): refused");
    if (it[0]->s != "storage" || it.size() < 5) throw Error(ErrorCode::Malformed, "persistent id '" + it[0]->s + "' is not a storage");
    const Value* type = it[1];
    if (type->kind == K::Opaque) {
        Value* r = m.make(K::Opaque);
        r->s = type->s;
        return r;
    }
    if (type->kind != K::Global || type->global != GlobalKind::TorchStorage)
        throw Error(ErrorCode::Malformed, "persistent id names a " + std::string(detail::pickle::kind_name(*type)) + " as storage type");
    if (it[2]->kind != K::Str) throw Error(ErrorCode::Malformed, "storage key is not a string");
    if (it[4]->kind != K::Int || it[4]->i < 0) throw Error(ErrorCode::Malformed, "storage size is not a non-negative int");
    Value* s = m.make(K::Storage);
    s->storage.key = it[2]->s;
    s->storage.type_name = type->s.substr(type->s.find_last_of('.') + 1);
    s->storage.dtype = type->dtype;
    s->storage.numel = static_cast<std::uint64_t>(it[4]->i);
    if (it[3]->kind == K::Str) s->storage.location = it[3]->s;
    if (legacy && it.size() >= 6 && it[5]->kind == K::Tuple) {
        // (view_key, offset, view_size): a view into root storage `key`.
        const auto& vm = it[5]->items;
        if (vm.size() != 3 || vm[1]->kind != K::Int || vm[1]->i < 0) throw Error(ErrorCode::Malformed, "bad legacy storage view metadata");
        s->storage.view_offset = static_cast<std::uint64_t>(vm[1]->i);
    }
    table.by_key.emplace(s->storage.key, s);
    return s;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

// Finds "<prefix>data.pkl" (prefix "" or "name/") in a ZIP archive.
std::optional<std::string> pth_prefix(const ZipArchive& zip) {
    std::optional<std::string> prefix;
    for (const auto& e : zip.entries()) {
        const std::string& n = e.name;
        if (n.size() < 8 || n.compare(n.size() - 8, 8, "data.pkl") != 0) continue;
        const std::string p = n.substr(0, n.size() - 8);
        if (!p.empty() && (p.back() != '/' || p.find('/') != p.size() - 1)) continue;
        if (prefix) throw Error(ErrorCode::Malformed, "PyTorch archive holds several data.pkl (" + *prefix + "data.pkl, " + n + ")");
        prefix = p;
    }
    return prefix;
}

Catalog open_pth_zip(const std::string& path, MappedFilePtr file, Catalog cat) {
    const ZipArchive zip = ZipArchive::open(file);
    const auto prefix_opt = pth_prefix(zip);
    if (!prefix_opt) throw Error(ErrorCode::Malformed, "ZIP archive without data.pkl: not a PyTorch checkpoint");
    const std::string prefix = *prefix_opt;
    // Metadata, never tensor data: bounded before a byte is inflated (zip bomb).
    const auto pkl = zip.read_metadata(zip.entries()[*zip.find(prefix + "data.pkl")], "pickle");
    bool big = false;
    if (auto bo = zip.find(prefix + "byteorder")) {
        const auto& e = zip.entries()[*bo];
        if (e.uncompressed_size > 16) throw Error(ErrorCode::Malformed, "byteorder record longer than 16 bytes");
        const auto b = zip.read(e);
        const std::string s = trim(std::string(b.begin(), b.end()));
        if (s == "big") big = true;
        else if (s != "little") throw Error(ErrorCode::Malformed, "byteorder record says '" + s + "'");
    }
    cat.metadata.push_back({"container", MetaValue::string("zip")});
    cat.metadata.push_back({"archive_prefix", MetaValue::string(prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1))});
    cat.metadata.push_back({"byteorder", MetaValue::string(big ? "big" : "little")});
    for (const char* rec : {"version", ".data/version"})
        if (auto v = zip.find(prefix + rec)) {
            const auto& e = zip.entries()[*v];
            if (e.uncompressed_size <= 64) {
                const auto b = zip.read(e);
                cat.metadata.push_back({"version", MetaValue::string(trim(std::string(b.begin(), b.end())))});
                break;
            }
        }

    Machine m;
    StorageTable table;
    m.set_persistent_load([&](const Value& pid) { return load_storage(m, table, pid, false); });
    std::size_t pos = 0;
    const Value* root = m.run(pkl, pos);
    cat.metadata.push_back({"pickle_protocol", MetaValue::string(std::to_string(m.protocol()))});

    // Storage bytes: mapped in place when stored, else one owned buffer.
    std::vector<std::pair<std::string, const ZipEntry*>> used;
    bool any_deflated = false;
    for (const auto& [key, v] : table.by_key) {
        const auto idx = zip.find(prefix + "data/" + key);
        if (!idx) throw Error(ErrorCode::Malformed, "storage " + prefix + "data/" + key + " is missing from the archive");
        const ZipEntry& e = zip.entries()[*idx];
        const auto* info = dtype_info(v->storage.dtype);
        const std::uint64_t esize = info ? info->block_bytes : 1;
        if (v->storage.numel > e.uncompressed_size / esize)
            throw Error(ErrorCode::Truncated, "storage " + e.name + " holds " + std::to_string(e.uncompressed_size) + " bytes, its tensor claims " +
                        std::to_string(v->storage.numel) + " elements of " + std::to_string(esize) + " bytes");
        // A deflated storage is inflated whole at open: it may not hold more
        // than its storage claims (torch writes exactly nbytes), so a small
        // file cannot make a small tensor inflate gigabytes.
        if (!e.is_stored() && e.uncompressed_size > v->storage.numel * esize)
            throw Error(ErrorCode::LimitExceeded, "deflated storage " + e.name + " declares " + std::to_string(e.uncompressed_size) +
                        " bytes uncompressed, its storage holds " + std::to_string(v->storage.numel * esize) + " (zip bomb?)");
        used.emplace_back(key, &e);
        any_deflated |= !e.is_stored();
    }
    std::unordered_map<std::string, StorageData> data;
    MappedFilePtr shard = file;
    if (any_deflated) {
        std::uint64_t total = 0;
        std::vector<std::uint64_t> at(used.size());
        for (std::size_t i = 0; i < used.size(); ++i) {
            at[i] = total;
            if (used[i].second->uncompressed_size > zip.limits().max_inflated_bytes - total)
                throw Error(ErrorCode::LimitExceeded, "storages inflate to more than " + std::to_string(zip.limits().max_inflated_bytes) + " bytes");
            total += (used[i].second->uncompressed_size + 63) / 64 * 64;
        }
        // Streamed: the buffer grows with the inflated bytes, not by the declared sizes.
        std::vector<std::uint8_t> buf;
        for (std::size_t i = 0; i < used.size(); ++i) {
            buf.resize(static_cast<std::size_t>(at[i]));  // 64-byte alignment padding
            zip.inflate_append(*used[i].second, buf);
            data[used[i].first] = {at[i], used[i].second->uncompressed_size};
        }
        shard = MappedFile::from_bytes(std::move(buf), path);
    } else {
        for (const auto& [key, e] : used) {
            data[key] = {e->data_offset, e->uncompressed_size};
            cat.integrity_checks.push_back({static_cast<std::uint32_t>(cat.shards.size()), e->data_offset, e->uncompressed_size, e->crc32, e->name});
        }
    }
    cat.shards.push_back(Shard{path, shard});
    Flattener f(cat, data, big);
    f.walk(root, "", 0);
    f.finish();
    return cat;
}

// Reads one header pickle of the legacy format with a fresh machine.
const Value* legacy_pickle(Machine& m, std::span<const std::uint8_t> bytes, std::size_t& pos) { return m.run(bytes, pos); }

Catalog open_pth_legacy(const std::string& path, MappedFilePtr file, Catalog cat) {
    file->require(0, file->size());  // pickles and storages interleaved: the whole file
    const auto bytes = file->bytes();
    std::size_t pos = 0;
    {
        Machine m;
        const Value* magic = legacy_pickle(m, bytes, pos);
        if (magic->kind != K::BigInt || magic->s.size() != sizeof kLegacyMagic || std::memcmp(magic->s.data(), kLegacyMagic, sizeof kLegacyMagic) != 0)
            throw Error(ErrorCode::Malformed, "legacy checkpoint magic number missing or wrong");
    }
    {
        Machine m;
        const Value* proto = legacy_pickle(m, bytes, pos);
        if (proto->kind != K::Int || proto->i != 1001)
            throw Error(ErrorCode::Unsupported, "legacy checkpoint protocol version " + (proto->kind == K::Int ? std::to_string(proto->i) : std::string("?")));
    }
    // Legacy storages (and their element counts) are always written
    // little-endian, whatever sys_info's little_endian says (torch
    // THPStorage_writeFileRaw converts on big-endian hosts).
    {
        Machine m;
        const Value* info = legacy_pickle(m, bytes, pos);
        if (info->kind != K::Dict) throw Error(ErrorCode::Malformed, "legacy checkpoint sys_info is not a dict");
    }
    Machine m;
    StorageTable table;
    m.set_persistent_load([&](const Value& pid) { return load_storage(m, table, pid, true); });
    const Value* root = m.run(bytes, pos);
    std::vector<std::string> keys;
    {
        Machine km;
        const Value* list = legacy_pickle(km, bytes, pos);
        if (list->kind != K::List) throw Error(ErrorCode::Malformed, "legacy checkpoint storage key list is not a list");
        for (const Value* k : list->items) {
            if (k->kind != K::Str) throw Error(ErrorCode::Malformed, "legacy checkpoint storage key is not a string");
            keys.push_back(k->s);
        }
    }
    std::unordered_map<std::string, StorageData> data;
    for (const auto& key : keys) {
        const auto it = table.by_key.find(key);
        if (it == table.by_key.end()) throw Error(ErrorCode::Malformed, "legacy storage '" + key + "' is not referenced by the pickle (its element size is unknown)");
        const auto* info = dtype_info(it->second->storage.dtype);
        const std::uint64_t esize = info ? info->block_bytes : 1;
        if (bytes.size() - pos < 8) throw Error(ErrorCode::Truncated, "legacy storage '" + key + "' header past the end of the file");
        std::uint64_t numel = 0;
        for (int k = 7; k >= 0; --k) numel = (numel << 8) | bytes[pos + static_cast<std::size_t>(k)];
        pos += 8;
        if (numel > (bytes.size() - pos) / esize)
            throw Error(ErrorCode::Truncated, "legacy storage '" + key + "' of " + std::to_string(numel) + " elements runs past the end of the file");
        if (data.count(key)) throw Error(ErrorCode::Malformed, "legacy storage '" + key + "' listed twice");
        data[key] = {pos, numel * esize};
        pos += static_cast<std::size_t>(numel * esize);
    }
    for (const auto& [key, v] : table.by_key) {
        const auto d = data.find(key);
        if (d == data.end()) throw Error(ErrorCode::Malformed, "legacy storage '" + key + "' has no data");
        const auto* info = dtype_info(v->storage.dtype);
        const std::uint64_t esize = info ? info->block_bytes : 1;
        if (v->storage.numel > d->second.bytes / esize && v->storage.view_offset == 0)
            throw Error(ErrorCode::Truncated, "legacy storage '" + key + "' is shorter than its declared size");
    }
    cat.metadata.push_back({"container", MetaValue::string("legacy")});
    cat.metadata.push_back({"byteorder", MetaValue::string("little")});
    cat.metadata.push_back({"pickle_protocol", MetaValue::string(std::to_string(m.protocol()))});
    cat.shards.push_back(Shard{path, file});
    Flattener f(cat, data, false);
    f.walk(root, "", 0);
    f.finish();
    return cat;
}

void merge_globals(PickleScan& out, const std::vector<detail::pickle::GlobalRef>& refs) {
    for (const auto& r : refs) {
        bool found = false;
        for (auto& g : out.globals)
            if (g.module == r.module && g.name == r.name) { g.count += r.count; found = true; }
        if (!found) out.globals.push_back(PickleGlobalVerdict{r.module, r.name, r.allowed, r.verdict, r.count});
    }
}

// Scan one pickle stream at `pos`; returns false when it could not be read to STOP.
bool scan_one(PickleScan& out, std::span<const std::uint8_t> bytes, std::size_t& pos, const std::string& label) {
    Machine m({}, /*scan=*/true);
    m.set_persistent_load([&](const Value&) { return m.make(K::Opaque); });
    out.pickles.push_back(label);
    bool ok = true;
    try {
        m.run(bytes, pos);
    } catch (const Error& e) {
        out.errors.push_back(label + ": " + e.message());
        ok = false;
    }
    merge_globals(out, m.globals());
    return ok;
}

// Where the pickle of an object array starts (right after the header), or
// nullopt when `npy` (the whole .npy or a prefix holding its header) is not
// an object array. parse_npy_header refuses object arrays, so the preamble
// is read by hand.
std::optional<std::size_t> npy_object_pickle(std::span<const std::uint8_t> npy) {
    if (npy.size() < 10 || std::memcmp(npy.data(), "\x93NUMPY", 6) != 0) return std::nullopt;
    const int major = npy[6];
    const std::uint64_t hlen = major == 1 ? (npy[8] | (npy[9] << 8))
                                          : (npy.size() >= 12 ? (npy[8] | (npy[9] << 8) | (npy[10] << 16) | (std::uint64_t{npy[11]} << 24)) : ~0ull);
    const std::uint64_t hstart = major == 1 ? 10 : 12;
    if (hlen > npy.size() - std::min<std::uint64_t>(npy.size(), hstart)) return std::nullopt;
    const std::string_view header(reinterpret_cast<const char*>(npy.data() + hstart), static_cast<std::size_t>(hlen));
    if (header.find("'|O'") == std::string_view::npos && header.find("\"|O\"") == std::string_view::npos) return std::nullopt;
    return static_cast<std::size_t>(hstart + hlen);
}

void scan_npy(PickleScan& out, std::span<const std::uint8_t> npy, const std::string& label) {
    if (auto at = npy_object_pickle(npy)) {
        std::size_t pos = *at;
        scan_one(out, npy, pos, label);
    }
}

}  // namespace

bool is_legacy_pth(const std::uint8_t* head, std::size_t size) noexcept {
    // PROTO 2, LONG1 10 bytes, magic.
    return size >= 13 && head[0] == 0x80 && head[1] == 0x02 && head[2] == 0x8a && head[3] == 0x0a &&
           std::memcmp(head + 4, kLegacyMagic, 9) == 0;
}

Catalog open_pth(const std::string& path) { return parse_pth(MappedFile::open(path), path); }

Catalog parse_pth(MappedFilePtr file, const std::string& path) {
    Catalog cat;
    cat.format = Format::Pth;
    cat.path = path;
    cat.display_name = base_name(path);
    try {
        if (starts_with(*file, "PK\x03\x04") || starts_with(*file, "PK\x05\x06")) cat = open_pth_zip(path, file, std::move(cat));
        else if (is_legacy_pth(file->data(), file->size())) cat = open_pth_legacy(path, file, std::move(cat));
        else if (file->size() > 262 && (file->require(257, 5), std::memcmp(file->data() + 257, "ustar", 5) == 0))
            throw Error(ErrorCode::Unsupported, "pre-1.0 tar PyTorch checkpoint");
        else
            throw Error(ErrorCode::Malformed, "not a PyTorch checkpoint (neither ZIP nor legacy pickle)");
        cat.index_names();
    } catch (const Error& e) {
        throw e.with_file(path);
    }
    return cat;
}

Catalog open_zip_model(const std::string& path) { return parse_zip_model(MappedFile::open(path), path); }

Catalog parse_zip_model(MappedFilePtr file, const std::string& path) {
    std::optional<std::string> prefix;
    try {
        prefix = pth_prefix(ZipArchive::open(file));
    } catch (const Error& e) {
        throw e.with_file(path);
    }
    return prefix ? parse_pth(std::move(file), path) : parse_npz(std::move(file), path);
}

PickleScan scan_pickles(const std::string& path) { return scan_pickles(MappedFile::open(path), path); }

PickleScan scan_pickles(MappedFilePtr file, const std::string& path) {
    PickleScan out;
    const auto bytes = file->bytes();
    if (starts_with(*file, "PK\x03\x04") || starts_with(*file, "PK\x05\x06")) {
        try {
            const ZipArchive zip = ZipArchive::open(file);
            std::optional<std::string> prefix;
            try { prefix = pth_prefix(zip); } catch (const Error& e) { out.errors.push_back(e.message()); }
            out.container = prefix ? "pth (zip)" : "npz";
            for (const auto& e : zip.entries()) {
                const bool pkl = e.name.size() >= 4 && e.name.compare(e.name.size() - 4, 4, ".pkl") == 0;
                const bool npy = e.name.size() >= 4 && e.name.compare(e.name.size() - 4, 4, ".npy") == 0;
                if (!pkl && !npy) continue;
                std::vector<std::uint8_t> buf;
                try {
                    // An .npy member is read whole only when its header says
                    // object array: numeric members (gigabytes) are not touched.
                    if (npy && !npy_object_pickle(read_npy_head(zip, e))) continue;
                    buf = zip.read_metadata(e, npy ? "object-array pickle" : "pickle");
                } catch (const Error& err) {
                    out.errors.push_back(e.name + ": " + err.message());
                    continue;
                }
                if (pkl) {
                    std::size_t pos = 0;
                    scan_one(out, buf, pos, e.name);
                } else {
                    scan_npy(out, buf, e.name);
                }
            }
        } catch (const Error& e) {
            out.errors.push_back(e.message());
        }
    } else if (is_legacy_pth(file->data(), file->size())) {
        out.container = "pth (legacy)";
        std::size_t pos = 0;
        for (int i = 0; i < 5 && pos < bytes.size(); ++i)
            if (!scan_one(out, bytes, pos, "legacy pickle " + std::to_string(i + 1))) break;
    } else if (starts_with(*file, "\x93NUMPY")) {
        out.container = "npy object array";
        scan_npy(out, bytes, base_name(path));
    } else if (bytes.size() >= 2 && bytes[0] == 0x80 && bytes[1] >= 2 && bytes[1] <= 5) {
        out.container = "pickle";
        std::size_t pos = 0;
        scan_one(out, bytes, pos, base_name(path));
    }
    if (out.pickles.empty()) {
        out.container = out.container.empty() ? "none" : out.container;
        out.summary = "no pickle in this file";
        out.safe = out.errors.empty();
        if (!out.errors.empty()) out.summary = "could not be scanned: " + out.errors.front();
        return out;
    }
    if (out.container.rfind("np", 0) == 0)  // NumPy object arrays are unpickled by np.load, not torch.load
        for (auto& g : out.globals) {
            const auto at = g.verdict.find("torch.load(weights_only=False)");
            if (at != std::string::npos) g.verdict.replace(at, 30, "np.load(allow_pickle=True)");
        }
    std::vector<const PickleGlobalVerdict*> refused;
    for (const auto& g : out.globals)
        if (!g.allowed) refused.push_back(&g);
    out.safe = refused.empty() && out.errors.empty();
    if (!refused.empty()) {
        out.summary = "references " + refused[0]->module + "." + refused[0]->name + ": " + refused[0]->verdict;
        if (refused.size() > 1) out.summary += " (and " + std::to_string(refused.size() - 1) + " more refused globals)";
    } else if (!out.errors.empty()) {
        out.summary = "malformed pickle: " + out.errors.front();
    } else {
        bool only_tensor = true;
        for (const auto& g : out.globals)
            if (g.verdict != "tensor rebuild" && g.verdict != "storage type" && g.verdict != "data constructor" && g.verdict != "dtype" && g.verdict != "tensor type")
                only_tensor = false;
        out.summary = only_tensor ? "only tensor-rebuild globals: safe" : "only allowlisted globals: safe";
    }
    return out;
}

}  // namespace amn
