// SPDX-License-Identifier: MIT OR Apache-2.0
// A streaming GGUF v3 writer matching ggml's gguf.cpp byte for byte: a plain
// container (header, key/values, tensor infos, data).
#include "sink/gguf_writer.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/human_bytes.hpp"
#include "source/metadata_internal.hpp"
#include "sink/output_files.hpp"
#include "sink/sink_file.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_set>

#include <unistd.h>

namespace amn {
namespace {
namespace fs = std::filesystem;

constexpr std::uint64_t kDefaultAlignment = 32;  // GGUF_DEFAULT_ALIGNMENT
constexpr std::size_t kMaxDims = 4;              // GGML_MAX_DIMS
constexpr std::size_t kMaxName = 64;             // GGML_MAX_NAME (with the terminator)

// ---- encoding ---------------------------------------------------------------

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_str(std::vector<std::uint8_t>& out, std::string_view s) {
    put_u64(out, s.size());
    out.insert(out.end(), s.begin(), s.end());
}

// The value's payload (no type tag), ggml's gguf_writer_base::write(gguf_kv).
// Nested arrays: each element is "u32 element type, u64 count, elements".
void put_payload(std::vector<std::uint8_t>& out, const GgufValue& v) {
    switch (v.type) {
        case GgufType::String: put_str(out, v.str); return;
        case GgufType::Array:
            put_u32(out, static_cast<std::uint32_t>(v.elem_type));
            put_u64(out, v.size());
            if (v.elem_type == GgufType::String) {
                for (std::size_t i = 0; i < v.size(); ++i) put_str(out, v.string_at(i));
            } else if (v.elem_type == GgufType::Array) {
                for (std::size_t i = 0; i < v.size(); ++i) put_payload(out, v.array_at(i));
            } else {  // packed little-endian scalars: the file's bytes
                const std::string_view b = v.packed_bytes();
                out.insert(out.end(), b.begin(), b.end());
            }
            return;
        default: {
            const unsigned n = detail::meta_scalar_size(v.type);
            for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v.bits >> (8 * i)));
        }
    }
}

void put_kv(std::vector<std::uint8_t>& out, const GgufKv& kv) {
    put_str(out, kv.key);
    put_u32(out, static_cast<std::uint32_t>(kv.value.type));
    put_payload(out, kv.value);
}

std::uint64_t pad_to(std::uint64_t n, std::uint64_t a) { return (n + a - 1) / a * a; }

}  // namespace

std::vector<std::uint8_t> gguf_encode_kv(const GgufKv& kv) {
    detail::check_meta_value(kv.value, kv.key, 0);
    std::vector<std::uint8_t> out;
    put_kv(out, kv);
    return out;
}

// ---- GgufWriter -------------------------------------------------------------------

struct GgufWriter::Impl {
    std::string path;
    bool overwrite = false;
    std::vector<GgufKv> kvs;
    struct Tensor {
        std::string name;
        DType type;
        std::vector<std::uint64_t> ne;  // innermost first, ggml_n_dims applied
        std::uint64_t nbytes = 0;
        std::uint64_t rel_offset = 0;   // relative to the data section
        detail::WrittenRanges written;
    };
    std::vector<Tensor> tensors;
    std::unordered_set<std::string> names;
    using State = detail::SinkState;
    State state = State::Open;
    std::uint64_t alignment = kDefaultAlignment;
    bool pad_empty = true;  // set_pad_without_tensors()
    bool dims_as_given = false;  // set_dims_as_given()
    std::uint64_t data_offset = 0;
    std::uint64_t file_size = 0;
    // optional + reset(): TempFile's move-assignment runs its destructor on
    // itself first, which is only safe while its path strings are empty.
    std::optional<detail::TempFile> file;
    std::mutex mu;

    void require_open(const char* what) const {
        if (state != State::Open)
            throw Error(ErrorCode::Usage, std::string(what) + " after allocate()", path);
    }

    void validate_kvs(const std::vector<GgufKv>& list) const {
        std::unordered_set<std::string_view> seen;
        for (const auto& kv : list) {
            if (!seen.insert(kv.key).second) throw Error(ErrorCode::Usage, "metadata key '" + kv.key + "' appears twice", path);
            try {
                detail::check_meta_value(kv.value, kv.key, 0);
            } catch (const Error& e) {
                throw e.with_file(path);
            }
            if (kv.key == "general.alignment") {
                if (kv.value.type != GgufType::U32)
                    throw Error(ErrorCode::Usage, "general.alignment must be a u32, not " +
                                                      std::string(gguf_type_name(kv.value.type)), path);
                const auto a = kv.value.bits;
                if (a == 0 || (a & (a - 1)) != 0 || a > GgufLimits::max_alignment)
                    throw Error(ErrorCode::Usage, "general.alignment " + std::to_string(a) + " is not a power of two between 1 and " +
                                                      std::to_string(GgufLimits::max_alignment), path);
            }
        }
    }

    std::vector<std::uint8_t> layout();

    const Tensor& tensor(std::size_t i) const {
        if (i >= tensors.size())
            throw Error(ErrorCode::OutOfRange, "tensor index " + std::to_string(i) + " out of range (" +
                                                   std::to_string(tensors.size()) + " tensors)", path);
        return tensors[i];
    }
};

GgufWriter::GgufWriter(std::string path, bool overwrite) : d_(std::make_unique<Impl>()) {
    d_->path = std::move(path);
    d_->overwrite = overwrite;
}
GgufWriter::~GgufWriter() { abort(); }
GgufWriter::GgufWriter(GgufWriter&&) noexcept = default;
GgufWriter& GgufWriter::operator=(GgufWriter&& o) noexcept {
    if (this != &o) {
        abort();
        d_ = std::move(o.d_);
    }
    return *this;
}

void GgufWriter::set_kvs(std::vector<GgufKv> kvs) {
    d_->require_open("set_kvs()");
    d_->validate_kvs(kvs);
    d_->kvs = std::move(kvs);
}

void GgufWriter::set(std::string key, GgufValue value) {
    d_->require_open("set()");
    auto next = d_->kvs;
    gguf_set_kv(next, std::move(key), std::move(value));
    d_->validate_kvs(next);
    d_->kvs = std::move(next);
}

void GgufWriter::remove(std::string_view key) {
    d_->require_open("remove()");
    gguf_remove_kv(d_->kvs, key);
}

const std::vector<GgufKv>& GgufWriter::kvs() const noexcept { return d_->kvs; }

std::size_t GgufWriter::add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) {
    d_->require_open("add_tensor()");
    const std::string& path = d_->path;
    if (name.empty()) throw Error(ErrorCode::Usage, "empty tensor name", path);
    if (name.size() >= kMaxName)
        throw Error(ErrorCode::Usage, "tensor name of " + std::to_string(name.size()) +
                                          " bytes is too long for ggml (at most " + std::to_string(kMaxName - 1) + ")",
                    path, name);
    if (d_->names.count(name)) throw Error(ErrorCode::Usage, "tensor name added twice", path, name);
    const DTypeInfo* info = dtype_info(type);
    if (!info) throw Error(ErrorCode::UnknownDtype, "unregistered type " + dtype_name(type), path, name);
    if (info->ggml_id < 0) throw Error(ErrorCode::Unsupported, std::string(info->name) + " has no ggml type id", path, name);
    Impl::Tensor t;
    t.ne.assign(shape.rbegin(), shape.rend());
    if (!d_->dims_as_given)
        while (t.ne.size() > 1 && t.ne.back() == 1) t.ne.pop_back();  // ggml_n_dims
    if (t.ne.empty()) t.ne.push_back(1);
    if (t.ne.size() > kMaxDims)
        throw Error(ErrorCode::Unsupported, std::to_string(t.ne.size()) + " dimensions (ggml writes at most 4)", path, name);
    if (t.ne[0] % info->block_elems != 0)
        throw Error(ErrorCode::SizeMismatch,
                    "row of " + std::to_string(t.ne[0]) + " elements is not a whole number of " + std::string(info->name) +
                        " blocks (" + std::to_string(info->block_elems) + " elements each)",
                    path, name);
    std::uint64_t numel = 1;
    for (auto n : t.ne) {
        if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
            (n != 0 && numel > std::numeric_limits<std::uint64_t>::max() / n))
            throw Error(ErrorCode::SizeMismatch, "element count overflows 64 bits", path, name);
        numel *= n;
    }
    const auto nb = dtype_bytes(type, numel);
    if (!nb) throw Error(ErrorCode::SizeMismatch, "byte size overflows 64 bits", path, name);
    t.nbytes = *nb;
    t.name = std::move(name);
    t.type = type;
    d_->names.insert(t.name);
    d_->tensors.push_back(std::move(t));
    return d_->tensors.size() - 1;
}

std::size_t GgufWriter::tensor_count() const noexcept { return d_->tensors.size(); }

void GgufWriter::set_dims_as_given(bool as_given) {
    d_->require_open("set_dims_as_given()");
    if (!d_->tensors.empty()) throw Error(ErrorCode::Usage, "set_dims_as_given() after add_tensor()", d_->path);
    d_->dims_as_given = as_given;
}

void GgufWriter::set_pad_without_tensors(bool pad) {
    d_->require_open("set_pad_without_tensors()");
    d_->pad_empty = pad;
}
std::uint64_t GgufWriter::tensor_nbytes(std::size_t i) const { return d_->tensor(i).nbytes; }

std::uint64_t GgufWriter::plan_size() {
    d_->require_open("plan_size()");
    d_->layout();
    return d_->file_size;
}

void GgufWriter::allocate() {
    Impl& d = *d_;
    d.require_open("allocate()");
    const std::vector<std::uint8_t> head = d.layout();

    // Enough room? Checked before anything is created.
    detail::check_free_space(d.path, d.file_size, ByteDigits::OneDecimal);

    d.file.emplace(detail::TempFile::create(d.path, d.overwrite));
    try {
        d.file->truncate(d.file_size);
        detail::pwrite_all(d.file->fd(), head.data(), head.size(), 0, d.path);
    } catch (...) {
        d.file.reset();
        throw;
    }
    d.state = Impl::State::Laid;
}

// The header and every tensor's place: ggml's gguf_write_to_buf.
std::vector<std::uint8_t> GgufWriter::Impl::layout() {
    Impl& d = *this;
    d.alignment = kDefaultAlignment;
    if (const GgufValue* a = gguf_find_kv(d.kvs, "general.alignment")) d.alignment = a->bits;

    std::vector<std::uint8_t> head;
    head.reserve(4096);
    put_u32(head, 0x46554747u);  // "GGUF"
    put_u32(head, 3);
    put_u64(head, d.tensors.size());
    put_u64(head, d.kvs.size());
    for (const auto& kv : d.kvs) put_kv(head, kv);
    std::uint64_t rel = 0;
    for (auto& t : d.tensors) {
        t.rel_offset = rel;
        if (t.nbytes > std::numeric_limits<std::uint64_t>::max() - rel - d.alignment)
            throw Error(ErrorCode::SizeMismatch, "file size overflows 64 bits", d.path, t.name);
        rel += pad_to(t.nbytes, d.alignment);
        put_str(head, t.name);
        put_u32(head, static_cast<std::uint32_t>(t.ne.size()));
        for (auto n : t.ne) put_u64(head, n);
        put_u32(head, static_cast<std::uint32_t>(dtype_info(t.type)->ggml_id));
        put_u64(head, t.rel_offset);
    }
    d.data_offset = d.tensors.empty() && !d.pad_empty ? head.size() : pad_to(head.size(), d.alignment);
    head.resize(static_cast<std::size_t>(d.data_offset), 0);
    d.file_size = d.data_offset + rel;
    return head;
}

std::uint64_t GgufWriter::alignment() const noexcept { return d_->alignment; }
std::uint64_t GgufWriter::data_offset() const noexcept { return d_->data_offset; }
std::uint64_t GgufWriter::file_size() const noexcept { return d_->file_size; }

std::uint64_t GgufWriter::tensor_offset(std::size_t i) const {
    if (d_->state == Impl::State::Open) throw Error(ErrorCode::Usage, "tensor_offset() before allocate()", d_->path);
    return d_->data_offset + d_->tensor(i).rel_offset;
}

void GgufWriter::write(std::size_t index, std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    Impl& d = *d_;
    detail::require_laid(d.state, "write", d.path);
    if (index >= d.tensors.size())
        throw Error(ErrorCode::OutOfRange, "tensor index " + std::to_string(index) + " out of range", d.path);
    Impl::Tensor& t = d.tensors[index];
    detail::WrittenRanges::check_range(offset, bytes.size(), t.nbytes, d.path, t.name);
    if (bytes.empty()) return;
    detail::pwrite_all(d.file->fd(), bytes.data(), bytes.size(), d.data_offset + t.rel_offset + offset, d.path, t.name);
    // Writeback starts now, overlapping the work still to come (commit()'s fdatasync waits for less).
    detail::start_writeback(d.file->fd(), d.data_offset + t.rel_offset + offset, bytes.size());
    // Record [offset, end) and merge with neighbours.
    std::lock_guard<std::mutex> lock(d.mu);
    t.written.add(offset, bytes.size());
}

detail::TempFile& GgufWriter::finish() {
    Impl& d = *d_;
    detail::require_laid(d.state, "commit", d.path);
    std::lock_guard<std::mutex> lock(d.mu);
    for (const auto& t : d.tensors) t.written.check_complete(t.nbytes, d.path, t.name);
    return *d.file;
}

void GgufWriter::mark_committed() noexcept { d_->state = Impl::State::Committed; }

void GgufWriter::commit() {
    finish().commit();
    mark_committed();
}

void GgufWriter::abort() noexcept {
    if (!d_) return;
    d_->file.reset();  // closes and unlinks an uncommitted temp file
    if (d_->state == Impl::State::Laid) d_->state = Impl::State::Aborted;
}

const std::string& GgufWriter::path() const noexcept { return d_->path; }

}  // namespace amn
