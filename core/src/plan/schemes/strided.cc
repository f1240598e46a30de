// SPDX-License-Identifier: MIT OR Apache-2.0
// Passthrough for stored layouts that need work: element strides
// (Fortran-order NPY, non-contiguous PyTorch views), big-endian bytes and
// storage offsets. Output is contiguous, row-major, little-endian — what
// numpy's `np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<'))` and
// torch's `t.contiguous()` produce.
#include "anamnesis/dtype.hpp"
#include "anamnesis/error.hpp"
#include "plan/schemes/scheme.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace amn::detail {
namespace {

class StridedRecipe final : public Recipe {
public:
    StridedRecipe(const Catalog& cat, const TensorInfo& t, std::uint32_t esize, std::uint32_t swap_unit)
        : base_(cat.data(t)), shard_(t.shard), offset_(t.offset), nbytes_(t.nbytes), dtype_(t.dtype),
          shape_(t.shape), strides_(t.strides), start_(static_cast<std::int64_t>(t.storage_offset_elems)),
          esize_(esize), swap_unit_(t.big_endian ? swap_unit : 0) {
        numel_ = t.numel();
        // Output split: the last dimension when it is reasonable, else a
        // divisor of numel (copies work on any flat element range).
        const std::uint64_t last = shape_.empty() ? 1 : shape_.back();
        if (shape_.size() >= 2 && last <= (1u << 20) && last > 0) {
            row_elems_ = last;
        } else if (numel_ == 0) {
            row_elems_ = last == 0 ? 1 : last;
        } else {
            row_elems_ = 1;
            for (std::uint64_t d = std::min<std::uint64_t>(numel_, 1u << 16); d >= 1; --d)
                if (numel_ % d == 0) { row_elems_ = d; break; }
        }
        rows_ = numel_ / row_elems_;
    }

    std::string describe() const override {
        std::string s = "copy of a ";
        if (!strides_.empty()) s += "strided ";
        if (swap_unit_) s += "big-endian ";
        s += dtype_name(dtype_) + " tensor to contiguous little-endian";
        return s;
    }
    std::string scheme_id() const override { return "passthrough"; }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return row_elems_; }
    std::optional<DType> lossless_dtype() const override { return dtype_; }
    std::vector<InputRange> inputs() const override { return {{shard_, offset_, nbytes_}}; }

    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        check_rows(row0, nrows);
        gather(row0 * row_elems_, nrows * row_elems_, out);
    }

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        check_rows(row0, nrows);
        const DTypeInfo* info = dtype_info(dtype_);
        if (!info || !info->to_f32) throw Error(ErrorCode::Unsupported, dtype_name(dtype_) + " has no conversion to float");
        const std::uint64_t count = nrows * row_elems_;
        std::vector<std::uint8_t> buf(static_cast<std::size_t>(count * esize_));
        gather(row0 * row_elems_, count, buf.data());
        info->to_f32(buf.data(), out, static_cast<std::size_t>(count));
    }

private:
    const std::uint8_t* base_;
    std::uint32_t shard_;
    std::uint64_t offset_, nbytes_;
    DType dtype_;
    std::vector<std::uint64_t> shape_;
    std::vector<std::int64_t> strides_;
    std::int64_t start_;
    std::uint32_t esize_, swap_unit_;
    std::uint64_t numel_ = 0, rows_ = 0, row_elems_ = 1;

    void check_rows(std::uint64_t row0, std::uint64_t nrows) const {
        if (row0 > rows_ || nrows > rows_ - row0)
            throw Error(ErrorCode::Usage, "rows [" + std::to_string(row0) + ", +" + std::to_string(nrows) + ") outside " + std::to_string(rows_));
    }

    template <std::size_t N>
    static void gather_run(const std::uint8_t* src, std::int64_t stride_bytes, std::uint64_t n, std::uint8_t* out) {
        for (std::uint64_t k = 0; k < n; ++k) std::memcpy(out + k * N, src + static_cast<std::int64_t>(k) * stride_bytes, N);
    }

    void run(const std::uint8_t* src, std::int64_t stride, std::uint64_t n, std::uint8_t* out) const {
        if (stride == 1) { std::memcpy(out, src, static_cast<std::size_t>(n * esize_)); return; }
        const std::int64_t sb = stride * static_cast<std::int64_t>(esize_);
        switch (esize_) {
            case 1: gather_run<1>(src, sb, n, out); break;
            case 2: gather_run<2>(src, sb, n, out); break;
            case 4: gather_run<4>(src, sb, n, out); break;
            case 8: gather_run<8>(src, sb, n, out); break;
            case 16: gather_run<16>(src, sb, n, out); break;
            default:
                for (std::uint64_t k = 0; k < n; ++k) std::memcpy(out + k * esize_, src + static_cast<std::int64_t>(k) * sb, esize_);
        }
    }

    // Elements [e0, e0+count) of the row-major order into `out`, then byte-swapped.
    void gather(std::uint64_t e0, std::uint64_t count, std::uint8_t* out) const {
        if (count == 0) return;
        std::uint8_t* const out0 = out;
        if (strides_.empty()) {
            std::memcpy(out, base_ + (static_cast<std::uint64_t>(start_) + e0) * esize_, static_cast<std::size_t>(count * esize_));
        } else {
            const std::size_t r = shape_.size();
            std::vector<std::uint64_t> idx(r);
            std::uint64_t rem = e0;
            std::int64_t off = start_;
            for (std::size_t i = r; i-- > 0;) {
                idx[i] = rem % shape_[i];
                rem /= shape_[i];
                off += static_cast<std::int64_t>(idx[i]) * strides_[i];
            }
            const std::size_t L = r - 1;
            while (count > 0) {
                const std::uint64_t n = std::min(count, shape_[L] - idx[L]);
                run(base_ + off * static_cast<std::int64_t>(esize_), strides_[L], n, out);
                out += n * esize_;
                count -= n;
                idx[L] += n;
                off += static_cast<std::int64_t>(n) * strides_[L];
                if (idx[L] == shape_[L]) {
                    off -= static_cast<std::int64_t>(shape_[L]) * strides_[L];
                    idx[L] = 0;
                    for (std::size_t i = L; i-- > 0;) {
                        ++idx[i];
                        off += strides_[i];
                        if (idx[i] < shape_[i]) break;
                        off -= static_cast<std::int64_t>(shape_[i]) * strides_[i];
                        idx[i] = 0;
                    }
                }
            }
        }
        if (swap_unit_ > 1) {
            const std::uint64_t bytes = static_cast<std::uint64_t>(out - out0) + count * esize_;
            for (std::uint8_t* p = out0; p < out0 + bytes; p += swap_unit_) std::reverse(p, p + swap_unit_);
        }
    }
};

// Checks that every element the view addresses lies inside the tensor's
// byte range. Returns an empty string when it does, else why not.
std::string check_bounds(const TensorInfo& t, std::uint64_t esize) {
    if (t.nbytes % esize != 0) return "byte range is not a whole number of elements";
    const std::uint64_t capacity = t.nbytes / esize;
    const std::uint64_t numel = t.numel();
    if (numel == 0) return {};
    if (!t.strides.empty() && t.strides.size() != t.shape.size()) return "strides and shape of different ranks";
    std::int64_t lo = static_cast<std::int64_t>(t.storage_offset_elems), hi = lo;
    if (t.storage_offset_elems > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 2)) return "storage offset too large";
    if (t.strides.empty()) {
        if (numel > capacity || t.storage_offset_elems > capacity - numel) return "data past the tensor's byte range";
        return {};
    }
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
        const std::int64_t span = static_cast<std::int64_t>(t.shape[i] - 1);
        const std::int64_t s = t.strides[i];
        if (s != 0 && (span > std::numeric_limits<std::int64_t>::max() / 4 / (s < 0 ? -s : s))) return "stride overflow";
        if (s >= 0) hi += span * s;
        else lo += span * s;
    }
    if (lo < 0 || static_cast<std::uint64_t>(hi) >= capacity) return "strided view reaches outside the tensor's byte range";
    return {};
}

}  // namespace

void detect_strided_storage(PlanBuilder& b) {
    const Catalog& cat = b.catalog();
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const TensorInfo& t = cat.tensors[i];
        if (b.claimed(i) || (t.strides.empty() && !t.big_endian && t.storage_offset_elems == 0)) continue;
        const DTypeInfo* info = dtype_info(t.dtype);
        if (!info) {
            b.add_error(i, t.name, {TensorErrorKind::UnknownDtype, "", "unknown dtype " + t.dtype_name});
            continue;
        }
        if (info->block_elems != 1) {
            b.add_error(i, t.name, {TensorErrorKind::UnsupportedLayout, "", "strided or big-endian layout of block dtype " + std::string(info->name) + " is not supported"});
            continue;
        }
        const bool complex = t.dtype == DType::C64 || t.dtype == DType::C128;
        const std::uint32_t swap_unit = complex ? info->block_bytes / 2 : info->block_bytes;
        if (const std::string why = check_bounds(t, info->block_bytes); !why.empty()) {
            b.add_error(i, t.name, {TensorErrorKind::UnsupportedLayout, "", why});
            continue;
        }
        b.add_passthrough(i, std::make_shared<StridedRecipe>(cat, t, info->block_bytes, swap_unit));
    }
}

}  // namespace amn::detail
