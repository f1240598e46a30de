// SPDX-License-Identifier: MIT OR Apache-2.0
// A split GGUF output: one GgufWriter per part, committed together (gguf_set.hpp).
#include "sink/gguf_set.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/human_bytes.hpp"
#include "sink/sink_file.hpp"
#include "sink/temp_file.hpp"

#include <filesystem>
#include <unordered_set>

namespace amn::detail {
namespace fs = std::filesystem;

struct GgufSet::Impl {
    std::vector<std::unique_ptr<GgufWriter>> parts;
    std::vector<std::pair<std::size_t, std::size_t>> where;  // set index → (part, index in part)
    std::unordered_set<std::string> names;
    bool laid = false;

    std::pair<std::size_t, std::size_t> at(std::size_t i) const {
        if (i >= where.size())
            throw Error(ErrorCode::OutOfRange,
                        "tensor index " + std::to_string(i) + " out of range (" + std::to_string(where.size()) + " tensors)",
                        parts[0]->path());
        return where[i];
    }
};

GgufSet::GgufSet(std::vector<Part> parts, bool overwrite) : d_(std::make_unique<Impl>()) {
    if (parts.empty()) throw Error(ErrorCode::Usage, "a GGUF set needs at least one part");
    for (auto& p : parts) {
        auto w = std::make_unique<GgufWriter>(p.path, overwrite);
        w->set_kvs(std::move(p.kvs));
        w->set_pad_without_tensors(p.pad_without_tensors);
        w->set_dims_as_given(p.dims_as_given);
        d_->parts.push_back(std::move(w));
    }
}

GgufSet::~GgufSet() { abort(); }

std::size_t GgufSet::part_count() const noexcept { return d_->parts.size(); }

std::size_t GgufSet::add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) {
    return add_tensor(0, std::move(name), type, std::move(shape));
}

std::size_t GgufSet::add_tensor(std::size_t part, std::string name, DType type, std::vector<std::uint64_t> shape) {
    Impl& d = *d_;
    if (part >= d.parts.size())
        throw Error(ErrorCode::OutOfRange,
                    "part " + std::to_string(part) + " out of range (" + std::to_string(d.parts.size()) + " parts)",
                    d.parts[0]->path(), name);
    if (d.names.count(name)) throw Error(ErrorCode::Usage, "tensor name added twice", d.parts[part]->path(), name);
    const std::size_t k = d.parts[part]->add_tensor(name, type, std::move(shape));
    d.names.insert(std::move(name));
    d.where.emplace_back(part, k);
    return d.where.size() - 1;
}

std::size_t GgufSet::tensor_count() const noexcept { return d_->where.size(); }

std::uint64_t GgufSet::tensor_nbytes(std::size_t i) const {
    const auto [p, k] = d_->at(i);
    return d_->parts[p]->tensor_nbytes(k);
}

void GgufSet::allocate() {
    Impl& d = *d_;
    if (d.laid) throw Error(ErrorCode::Usage, "allocate() after allocate()", path());
    std::uint64_t need = 0;
    for (auto& w : d.parts) need += w->plan_size();
    const fs::path dir = fs::path(path()).has_parent_path() ? fs::path(path()).parent_path() : fs::path(".");
    check_free_space_in(dir.string(), dir.string(), need, ByteDigits::OneDecimal);
    try {
        for (auto& w : d.parts) w->allocate();
    } catch (...) {
        abort();
        throw;
    }
    d.laid = true;
}

void GgufSet::write(std::size_t tensor, std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    const auto at = d_->at(tensor);
    d_->parts[at.first]->write(at.second, offset, bytes);
}

void GgufSet::commit() {
    Impl& d = *d_;
    std::vector<TempFile*> files;
    for (auto& w : d.parts) files.push_back(&w->finish());
    commit_together(files);
    for (auto& w : d.parts) w->mark_committed();
}

void GgufSet::abort() noexcept {
    if (!d_) return;
    for (auto& w : d_->parts) w->abort();
}

const std::string& GgufSet::path() const noexcept { return d_->parts[0]->path(); }

std::vector<std::string> GgufSet::paths() const {
    std::vector<std::string> out;
    for (const auto& w : d_->parts) out.push_back(w->path());
    return out;
}

std::uint64_t GgufSet::file_size(std::size_t p) const { return d_->parts.at(p)->file_size(); }

std::size_t GgufSet::part_tensor_count(std::size_t p) const { return d_->parts.at(p)->tensor_count(); }

}  // namespace amn::detail
