// SPDX-License-Identifier: MIT OR Apache-2.0
// llama-imatrix files (GGUF and legacy .dat), read as llama-quantize does:
// see anamnesis/imatrix.hpp.
#include "plan/imatrix.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/mapped_file.hpp"

#include <cstring>
#include <optional>
#include <string_view>

namespace amn {

namespace {

const std::string_view kInSum2 = ".in_sum2";
const std::string_view kCounts = ".counts";
const std::string_view kInSum = ".in_sum";

bool strip_suffix(std::string& name, std::string_view suffix) {
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    name.resize(name.size() - suffix.size());
    return true;
}

// A non-negative integer key of at most 32 bits; 0 when absent or of another type.
std::uint32_t metadata_u32(const Catalog& cat, std::string_view key) {
    const MetaValue* v = cat.meta(key);
    if (!v || !v->is_integer()) return 0;
    if (v->type == GgufType::U64 ? v->bits > 0xFFFFFFFFu : (v->as_int() < 0 || v->as_int() > 0xFFFFFFFFll)) return 0;
    return static_cast<std::uint32_t>(v->bits);
}

// An array of strings; empty when absent, not an array, or holding a non-string.
std::vector<std::string> metadata_strings(const Catalog& cat, std::string_view key) {
    std::vector<std::string> out;
    const MetaValue* v = cat.meta(key);
    if (!v || !v->is_array()) return out;
    if (v->elem_type != GgufType::String) return out;
    out.reserve(v->size());
    for (std::size_t i = 0; i < v->size(); ++i) out.emplace_back(v->string_at(i));
    return out;
}

struct SumTensors {
    const TensorInfo* in_sum2 = nullptr;
    const TensorInfo* counts = nullptr;
};

Imatrix read_gguf_imatrix(const std::string& path) {
    const Catalog cat = open_gguf(path);
    std::map<std::string, SumTensors> by_name;
    for (const TensorInfo& t : cat.tensors) {
        std::string name = t.name;
        if (strip_suffix(name, kInSum2))
            by_name[name].in_sum2 = &t;
        else if (strip_suffix(name, kCounts))
            by_name[name].counts = &t;
        else if (strip_suffix(name, kInSum))
            (void)by_name[name];  // plain sums: not used for quantization
    }
    Imatrix out;
    for (const auto& [name, st] : by_name) {
        if (!st.in_sum2 || !st.counts)
            throw Error(ErrorCode::Malformed,
                        std::string("importance matrix entry without ") + (st.in_sum2 ? "counts" : "in_sum2"), path,
                        name);
        for (const TensorInfo* t : {st.in_sum2, st.counts}) {
            if (t->dtype != DType::F32)
                throw Error(ErrorCode::Unsupported, "importance matrix data of type " + t->dtype_name + " (need F32)",
                            path, t->name);
            if (t->big_endian)
                throw Error(ErrorCode::Unsupported, "big-endian importance matrix", path, t->name);
        }
        const std::uint64_t nsums = st.in_sum2->numel();
        const std::uint64_t ncounts = st.counts->numel();
        if (ncounts == 0 || nsums == 0 || nsums % ncounts != 0)
            throw Error(ErrorCode::Malformed,
                        "in_sum2 has " + std::to_string(nsums) + " values, not a multiple of the " +
                            std::to_string(ncounts) + " counts",
                        path, name);
        const std::uint64_t ne0 = nsums / ncounts;
        std::vector<float> sums(nsums), counts(ncounts);
        std::memcpy(sums.data(), cat.data(*st.in_sum2), nsums * sizeof(float));
        std::memcpy(counts.data(), cat.data(*st.counts), ncounts * sizeof(float));
        std::vector<float>& w = out.weights[name];
        w.resize(nsums);
        for (std::uint64_t j = 0; j < ncounts; ++j) {
            const float count = counts[j];
            for (std::uint64_t i = 0; i < ne0; ++i)
                w[j * ne0 + i] = count > 0.0f ? sums[j * ne0 + i] / count : 1.0f;
        }
        out.matrices[name] = static_cast<std::uint32_t>(ncounts);
    }
    if (out.weights.empty()) throw Error(ErrorCode::Malformed, "GGUF file holds no importance matrix entries", path);
    out.datasets = metadata_strings(cat, "imatrix.datasets");
    out.chunk_count = metadata_u32(cat, "imatrix.chunk_count");
    out.chunk_size = metadata_u32(cat, "imatrix.chunk_size");
    return out;
}

// Bounds-checked little-endian reader over the legacy file.
class Reader {
public:
    Reader(const MappedFile& f, const std::string& path) : p_(f.data()), n_(f.size()), path_(path) {}
    std::uint64_t remaining() const noexcept { return n_ - off_; }
    std::int32_t i32(const std::string& what, const std::string& entry = {}) {
        std::int32_t v;
        std::memcpy(&v, take(4, what, entry), 4);
        return v;
    }
    const std::uint8_t* take(std::uint64_t len, const std::string& what, const std::string& entry = {}) {
        if (len > n_ - off_)
            throw Error(ErrorCode::Truncated, "file ends inside " + what + " at byte " + std::to_string(off_), path_,
                        entry);
        const std::uint8_t* p = p_ + off_;
        off_ += len;
        return p;
    }

private:
    const std::uint8_t* p_;
    std::uint64_t n_, off_ = 0;
    const std::string& path_;
};

Imatrix read_legacy_imatrix(const MappedFile& f, const std::string& path) {
    Reader in(f, path);
    const std::int32_t n_entries = in.i32("the entry count");
    if (n_entries < 1)
        throw Error(ErrorCode::Malformed, "legacy importance matrix with " + std::to_string(n_entries) + " entries",
                    path);
    Imatrix out;
    out.legacy = true;
    for (std::int32_t e = 0; e < n_entries; ++e) {
        const std::string where = "entry " + std::to_string(e + 1);
        const std::int32_t len = in.i32("the name length of " + where);
        if (len < 0) throw Error(ErrorCode::Malformed, "negative name length in " + where, path);
        const auto* name_bytes = in.take(static_cast<std::uint64_t>(len), "the name of " + where);
        // ggml reads the name as a C string: it ends at the first NUL.
        std::string name(reinterpret_cast<const char*>(name_bytes), static_cast<std::size_t>(len));
        name.resize(std::strlen(name.c_str()));
        const std::int32_t ncall = in.i32("the call count", name);
        const std::int32_t nval = in.i32("the value count", name);
        if (nval < 1) throw Error(ErrorCode::Malformed, "entry with " + std::to_string(nval) + " values", path, name);
        const auto* data = in.take(static_cast<std::uint64_t>(nval) * 4, "the values", name);
        std::vector<float>& w = out.weights[name];
        w.resize(static_cast<std::size_t>(nval));
        std::memcpy(w.data(), data, w.size() * 4);
        if (ncall > 0)
            for (float& v : w) v = v / static_cast<float>(ncall);
        out.matrices[name] = 1;
    }
    // Optional trailer: chunk count, then the dataset name; llama.cpp reads
    // as much of it as is there.
    if (in.remaining() >= 4) {
        out.chunk_count = static_cast<std::uint32_t>(in.i32("the chunk count"));
        if (in.remaining() >= 4) {
            const std::int32_t len = in.i32("the dataset name length");
            if (len > 0 && static_cast<std::uint64_t>(len) <= in.remaining()) {
                const auto* s = in.take(static_cast<std::uint64_t>(len), "the dataset name");
                std::string name(reinterpret_cast<const char*>(s), static_cast<std::size_t>(len));
                name.resize(std::strlen(name.c_str()));
                out.datasets.push_back(std::move(name));
            }
        }
    }
    return out;
}

}  // namespace

Imatrix read_imatrix(const std::string& path) {
    const MappedFilePtr file = MappedFile::open(path);
    if (file->size() >= 4 && std::memcmp(file->data(), "GGUF", 4) == 0) return read_gguf_imatrix(path);
    return read_legacy_imatrix(*file, path);
}

}  // namespace amn
