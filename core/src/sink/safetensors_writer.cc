// SPDX-License-Identifier: MIT OR Apache-2.0
// Streaming safetensors writer: header first, data pwritten in place from
// any thread, temporary file renamed only when complete.
#include "sink/safetensors_writer.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/json_writer.hpp"
#include "sink/output_files.hpp"
#include "sink/sink_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <unistd.h>

namespace amn {
namespace {
namespace fs = std::filesystem;

constexpr std::size_t kMaxTailRank = 8;

std::uint64_t elem_size(DType t) {
    const DTypeInfo* i = dtype_info(t);
    return i && i->block_elems ? std::max<std::uint64_t>(1, i->block_bytes / i->block_elems) : 1;
}

}  // namespace

using detail::pwrite_all;

struct SafetensorsWriter::Impl {
    std::string path;
    bool overwrite = false;
    std::vector<std::pair<std::string, std::string>> metadata;
    struct Tensor {
        std::string name;
        DType type = DType::Unknown;
        std::vector<std::uint64_t> shape;
        std::uint64_t nbytes = 0;
        std::uint64_t begin = 0;  // relative to the data area
        bool tail = false;
        std::size_t tail_rank = 0;
        unsigned tail_digits = 20;
        bool tail_set = false;
        std::vector<std::uint8_t> tail_bytes;
        detail::WrittenRanges written;
    };
    std::vector<Tensor> tensors;
    std::vector<std::size_t> order;  // data order (fixed tensors sorted, then tails)
    std::unordered_set<std::string> names;
    using State = detail::SinkState;
    State state = State::Open;
    bool planned = false;  // plan_offsets() done
    DataOrder data_order = DataOrder::Upstream;
    std::uint64_t header_len = 0;   // N
    std::uint64_t fixed_bytes = 0;  // data of the non-tail tensors
    std::optional<detail::TempFile> file;
    std::mutex mu;

    void require_open(const char* what) const {
        if (state != State::Open || planned) throw Error(ErrorCode::Usage, std::string(what) + " after allocate()", path);
    }
    Tensor& tensor(std::size_t i) {
        if (i >= tensors.size())
            throw Error(ErrorCode::OutOfRange,
                        "tensor index " + std::to_string(i) + " out of range (" + std::to_string(tensors.size()) + " tensors)",
                        path);
        return tensors[i];
    }
    const Tensor& tensor(std::size_t i) const { return const_cast<Impl*>(this)->tensor(i); }

    std::uint64_t size_of(const std::string& name, DType type, const std::vector<std::uint64_t>& shape) const {
        std::uint64_t numel = 1;
        for (auto n : shape) {
            if (n != 0 && numel > std::numeric_limits<std::uint64_t>::max() / n)
                throw Error(ErrorCode::SizeMismatch, "element count overflows 64 bits", path, name);
            numel *= n;
        }
        const auto nb = dtype_bytes(type, numel);
        if (!nb)
            throw Error(ErrorCode::SizeMismatch,
                        std::to_string(numel) + " elements are not a whole number of " + dtype_name(type) + " blocks", path,
                        name);
        return *nb;
    }

    void check_new(const std::string& name, DType type) const {
        if (name.empty()) throw Error(ErrorCode::Usage, "empty tensor name", path);
        if (name == "__metadata__") throw Error(ErrorCode::Usage, "\"__metadata__\" is reserved", path, name);
        if (names.count(name)) throw Error(ErrorCode::Usage, "tensor name added twice", path, name);
        const DTypeInfo* info = dtype_info(type);
        if (!info) throw Error(ErrorCode::UnknownDtype, "unregistered type " + dtype_name(type), path, name);
        if (static_cast<std::uint16_t>(type) >= static_cast<std::uint16_t>(DType::GgmlBase))
            throw Error(ErrorCode::Unsupported, std::string(info->name) + " is a ggml block type: safetensors has no name for it",
                        path, name);
    }

    // The JSON header. `reserve`: tail tensors with placeholder numbers of
    // their maximum width (the room the final header may use).
    // MLX's header: nlohmann::json dump() of std::map objects (sorted keys,
    // compact), `__metadata__` sorted among the names.
    std::string mlx_header() const {
        std::vector<std::pair<std::string, std::string>> members;  // key, value JSON
        if (!metadata.empty()) {
            std::vector<std::pair<std::string, std::string>> m(metadata.begin(), metadata.end());
            std::sort(m.begin(), m.end());
            JsonWriter w;
            w.begin_object();
            for (const auto& [k, v] : m) w.key(k).value(v);
            w.end_object();
            members.emplace_back("__metadata__", w.take());
        }
        for (const std::size_t i : order) {
            const Tensor& t = tensors[i];
            JsonWriter w;
            w.begin_object();
            w.key("data_offsets").begin_array().value(t.begin).value(t.begin + t.nbytes).end_array();
            w.key("dtype").value(dtype_name(t.type));
            w.key("shape").begin_array();
            for (auto d : t.shape) w.value(d);
            w.end_array().end_object();
            members.emplace_back(t.name, w.take());
        }
        std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        JsonWriter w;
        w.begin_object();
        for (const auto& [k, v] : members) w.key(k).raw(v);
        w.end_object();
        return w.take();
    }

    std::string header(bool reserve) const {
        if (data_order == DataOrder::MlxSaveSafetensors) return mlx_header();
        JsonWriter w;
        w.begin_object();
        if (!metadata.empty()) {
            w.key("__metadata__").begin_object();
            for (const auto& [k, v] : metadata) w.key(k).value(v);
            w.end_object();
        }
        for (const std::size_t i : order) {
            const Tensor& t = tensors[i];
            w.key(t.name).begin_object();
            w.key("dtype").value(dtype_name(t.type));
            w.key("shape").begin_array();
            if (t.tail && reserve) {
                const std::string wide(t.tail_digits, '9');
                for (std::size_t k = 0; k < t.tail_rank; ++k) w.raw(wide);
            } else {
                for (auto d : t.shape) w.value(d);
            }
            w.end_array();
            w.key("data_offsets").begin_array();
            if (t.tail && reserve) w.raw("18446744073709551615").raw("18446744073709551615");
            else w.value(t.begin).value(t.begin + t.nbytes);
            w.end_array();
            w.end_object();
        }
        w.end_object();
        return w.take();
    }
};

SafetensorsWriter::SafetensorsWriter(std::string path, bool overwrite) : d_(std::make_unique<Impl>()) {
    d_->path = std::move(path);
    d_->overwrite = overwrite;
}
SafetensorsWriter::~SafetensorsWriter() { abort(); }
SafetensorsWriter::SafetensorsWriter(SafetensorsWriter&&) noexcept = default;
SafetensorsWriter& SafetensorsWriter::operator=(SafetensorsWriter&& o) noexcept {
    if (this != &o) {
        abort();
        d_ = std::move(o.d_);
    }
    return *this;
}

void SafetensorsWriter::set_metadata(std::vector<std::pair<std::string, std::string>> metadata) {
    d_->require_open("set_metadata()");
    std::unordered_set<std::string_view> seen;
    for (const auto& [k, v] : metadata)
        if (!seen.insert(k).second) throw Error(ErrorCode::Usage, "metadata key '" + k + "' appears twice", d_->path);
    d_->metadata = std::move(metadata);
}

const std::vector<std::pair<std::string, std::string>>& SafetensorsWriter::metadata() const noexcept { return d_->metadata; }

std::size_t SafetensorsWriter::add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) {
    d_->require_open("add_tensor()");
    d_->check_new(name, type);
    Impl::Tensor t;
    t.nbytes = d_->size_of(name, type, shape);
    t.name = std::move(name);
    t.type = type;
    t.shape = std::move(shape);
    d_->names.insert(t.name);
    d_->tensors.push_back(std::move(t));
    return d_->tensors.size() - 1;
}

std::size_t SafetensorsWriter::add_tail_tensor(std::string name, DType type, std::size_t rank, unsigned max_digits) {
    d_->require_open("add_tail_tensor()");
    d_->check_new(name, type);
    if (max_digits < 1 || max_digits > 20)
        throw Error(ErrorCode::Usage, "max_digits must be 1 to 20, not " + std::to_string(max_digits), d_->path, name);
    if (rank > kMaxTailRank) throw Error(ErrorCode::Usage, "rank " + std::to_string(rank) + " above 8", d_->path, name);
    Impl::Tensor t;
    t.name = std::move(name);
    t.type = type;
    t.tail = true;
    t.tail_rank = rank;
    t.tail_digits = max_digits;
    d_->names.insert(t.name);
    d_->tensors.push_back(std::move(t));
    return d_->tensors.size() - 1;
}

void SafetensorsWriter::set_tail_tensor(std::size_t i, std::vector<std::uint64_t> shape, std::span<const std::uint8_t> bytes) {
    Impl& d = *d_;
    if (d.state != Impl::State::Laid)
        throw Error(ErrorCode::Usage,
                    d.state == Impl::State::Open ? "set_tail_tensor() before allocate()" : "set_tail_tensor() after commit()/abort()",
                    d.path);
    Impl::Tensor& t = d.tensor(i);
    if (!t.tail) throw Error(ErrorCode::Usage, "not a tail tensor (use write())", d.path, t.name);
    if (shape.size() != t.tail_rank)
        throw Error(ErrorCode::Usage,
                    "rank " + std::to_string(shape.size()) + " but " + std::to_string(t.tail_rank) + " was reserved", d.path,
                    t.name);
    for (auto n : shape)
        if (std::to_string(n).size() > t.tail_digits)
            throw Error(ErrorCode::Usage,
                        "dimension " + std::to_string(n) + " is wider than the " + std::to_string(t.tail_digits) +
                            " digits reserved",
                        d.path, t.name);
    const std::uint64_t nb = d.size_of(t.name, t.type, shape);
    if (nb != bytes.size())
        throw Error(ErrorCode::SizeMismatch,
                    std::to_string(bytes.size()) + " bytes given, the shape needs " + std::to_string(nb), d.path, t.name);
    std::lock_guard lock(d.mu);
    t.shape = std::move(shape);
    t.nbytes = nb;
    t.tail_bytes.assign(bytes.begin(), bytes.end());
    t.tail_set = true;
}

std::size_t SafetensorsWriter::tensor_count() const noexcept { return d_->tensors.size(); }
std::uint64_t SafetensorsWriter::tensor_nbytes(std::size_t i) const { return d_->tensor(i).nbytes; }
const std::vector<std::uint64_t>& SafetensorsWriter::tensor_shape(std::size_t i) const { return d_->tensor(i).shape; }

void SafetensorsWriter::set_data_order(DataOrder order) {
    d_->require_open("set_data_order()");
    d_->data_order = order;
}

std::uint64_t SafetensorsWriter::plan_offsets() {
    Impl& d = *d_;
    d.require_open("plan_offsets()");
    d.order.clear();
    for (std::size_t i = 0; i < d.tensors.size(); ++i)
        if (!d.tensors[i].tail) d.order.push_back(i);
    if (d.data_order == DataOrder::MlxSaveSafetensors) {
        // libstdc++'s iteration order of the names emplaced in the order added.
        for (const auto& t : d.tensors)
            if (t.tail) throw Error(ErrorCode::Usage, "MLX's layout has no tail tensors", d.path, t.name);
        std::unordered_map<std::string, std::size_t> m;
        for (std::size_t i = 0; i < d.tensors.size(); ++i) m.emplace(d.tensors[i].name, i);
        d.order.clear();
        for (const auto& kv : m) d.order.push_back(kv.second);
    }
    if (d.data_order == DataOrder::Upstream)
        std::stable_sort(d.order.begin(), d.order.end(), [&](std::size_t a, std::size_t b) {
            const auto& ta = d.tensors[a];
            const auto& tb = d.tensors[b];
            const auto ea = elem_size(ta.type), eb = elem_size(tb.type);
            if (ea != eb) return ea > eb;
            return ta.name < tb.name;
        });
    std::uint64_t off = 0;
    for (const std::size_t i : d.order) {
        auto& t = d.tensors[i];
        if (t.nbytes > std::numeric_limits<std::uint64_t>::max() / 2 - off)
            throw Error(ErrorCode::SizeMismatch, "file size overflows 64 bits", d.path, t.name);
        t.begin = off;
        off += t.nbytes;
    }
    d.fixed_bytes = off;
    for (std::size_t i = 0; i < d.tensors.size(); ++i)
        if (d.tensors[i].tail) d.order.push_back(i);

    std::string head = d.header(true);
    if (d.data_order != DataOrder::MlxSaveSafetensors)
        while ((8 + head.size()) % 8 != 0) head.push_back(' ');
    d.header_len = head.size();
    d.planned = true;
    return 8 + d.header_len + d.fixed_bytes;
}

void SafetensorsWriter::allocate() {
    Impl& d = *d_;
    if (d.state != Impl::State::Open) throw Error(ErrorCode::Usage, "allocate() after allocate()", d.path);
    const std::uint64_t size = d.planned ? 8 + d.header_len + d.fixed_bytes : plan_offsets();

    detail::check_free_space(d.path, size, ByteDigits::Significant3);

    d.file.emplace(detail::TempFile::create(d.path, d.overwrite));
    try {
        d.file->truncate(size);
        // Blocks allocated now: faster writes, and a full disk fails before any work.
        if (!detail::preallocate(d.file->fd(), size))
            throw Error(ErrorCode::Io, "the output needs " + human_bytes(size) + " but the disk is full", d.path);
        // A provisional header (the final one is written by commit()).
        std::uint8_t len[8];
        for (int i = 0; i < 8; ++i) len[i] = static_cast<std::uint8_t>(d.header_len >> (8 * i));
        pwrite_all(d.file->fd(), len, 8, 0, d.path);
        if (std::none_of(d.tensors.begin(), d.tensors.end(), [](const Impl::Tensor& t) { return t.tail; })) {
            std::string real = d.header(false);
            real.resize(static_cast<std::size_t>(d.header_len), ' ');
            pwrite_all(d.file->fd(), reinterpret_cast<const std::uint8_t*>(real.data()), real.size(), 8, d.path);
        }
    } catch (...) {
        d.file.reset();
        throw;
    }
    d.state = Impl::State::Laid;
}

std::uint64_t SafetensorsWriter::header_bytes() const noexcept { return d_->header_len; }

std::uint64_t SafetensorsWriter::tensor_offset(std::size_t i) const {
    const Impl& d = *d_;
    if (d.state == Impl::State::Open) throw Error(ErrorCode::Usage, "tensor_offset() before allocate()", d.path);
    const auto& t = d.tensor(i);
    if (t.tail && d.state != Impl::State::Committed)
        throw Error(ErrorCode::Usage, "a tail tensor's offset is known at commit()", d.path, t.name);
    return t.begin;
}

std::uint64_t SafetensorsWriter::file_size() const noexcept {
    std::uint64_t n = 8 + d_->header_len + d_->fixed_bytes;
    for (const auto& t : d_->tensors)
        if (t.tail) n += t.nbytes;
    return n;
}

void SafetensorsWriter::write(std::size_t index, std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    Impl& d = *d_;
    detail::require_laid(d.state, "write", d.path);
    if (index >= d.tensors.size())
        throw Error(ErrorCode::OutOfRange, "tensor index " + std::to_string(index) + " out of range", d.path);
    Impl::Tensor& t = d.tensors[index];
    if (t.tail) throw Error(ErrorCode::Usage, "a tail tensor is given with set_tail_tensor(), not write()", d.path, t.name);
    detail::WrittenRanges::check_range(offset, bytes.size(), t.nbytes, d.path, t.name);
    if (bytes.empty()) return;
    pwrite_all(d.file->fd(), bytes.data(), bytes.size(), 8 + d.header_len + t.begin + offset, d.path, t.name);
    // Writeback starts now, overlapping the work still to come (commit()'s fdatasync waits for less).
    detail::start_writeback(d.file->fd(), 8 + d.header_len + t.begin + offset, bytes.size());
    std::lock_guard lock(d.mu);
    t.written.add(offset, bytes.size());
}

void SafetensorsWriter::commit() {
    finish().commit();
    mark_committed();
}

void SafetensorsWriter::mark_committed() noexcept { d_->state = Impl::State::Committed; }

detail::TempFile& SafetensorsWriter::finish() {
    Impl& d = *d_;
    detail::require_laid(d.state, "commit", d.path);
    std::lock_guard lock(d.mu);
    bool has_tail = false;
    for (const auto& t : d.tensors) {
        if (t.tail) {
            has_tail = true;
            if (!t.tail_set) throw Error(ErrorCode::Usage, "tail tensor never set", d.path, t.name);
            continue;
        }
        t.written.check_complete(t.nbytes, d.path, t.name);
    }
    if (has_tail) {
        std::uint64_t off = d.fixed_bytes;
        for (auto& t : d.tensors) {
            if (!t.tail) continue;
            t.begin = off;
            off += t.nbytes;
        }
        for (const auto& t : d.tensors)
            if (t.tail && t.nbytes)
                pwrite_all(d.file->fd(), t.tail_bytes.data(), t.nbytes, 8 + d.header_len + t.begin, d.path, t.name);
        d.file->truncate(8 + d.header_len + off);
        std::string real = d.header(false);
        if (real.size() > d.header_len)  // cannot happen: every number fits the reserved width
            throw Error(ErrorCode::Usage, "final header longer than the room reserved", d.path);
        real.resize(static_cast<std::size_t>(d.header_len), ' ');
        pwrite_all(d.file->fd(), reinterpret_cast<const std::uint8_t*>(real.data()), real.size(), 8, d.path);
    }
    return *d.file;
}

void SafetensorsWriter::abort() noexcept {
    if (!d_) return;
    d_->file.reset();
    if (d_->state == Impl::State::Laid) d_->state = Impl::State::Aborted;
}

const std::string& SafetensorsWriter::path() const noexcept { return d_->path; }

}  // namespace amn
