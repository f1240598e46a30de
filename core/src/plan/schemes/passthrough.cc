// SPDX-License-Identifier: MIT OR Apache-2.0
// Passthrough: a stored tensor emitted as is, or cast to the target float
// dtype through the registry's decoder.
#include "anamnesis/error.hpp"
#include "scheme.hpp"

#include <cstring>

namespace amn::detail {
namespace {

class Passthrough final : public Recipe {
public:
    Passthrough(const Catalog& cat, std::size_t i) : t_(cat.tensors[i]), data_(cat.data(cat.tensors[i])) {
        info_ = dtype_info(t_.dtype);
        const std::uint64_t n = t_.numel();
        // Rows along the outermost dimension when a row is whole blocks.
        rows_ = t_.shape.empty() ? 1 : t_.shape[0];
        row_elems_ = rows_ ? n / rows_ : 0;
        if (rows_ && (row_elems_ % info_->block_elems) != 0) {
            rows_ = 1;
            row_elems_ = n;
        }
        // A work unit is at least one row, so a huge outermost row ([1, N, D]
        // position embeddings, [2, 1<<28] tables) would be buffered whole and
        // peak memory would grow with the tensor. Split such rows: the
        // innermost dimension when it is whole blocks, else (element types)
        // the largest divisor of numel up to 64 Ki elements.
        if (row_elems_ > kMaxRowElems) {
            const std::uint64_t last = t_.shape.back();
            if (last > 0 && last <= kMaxRowElems && last % info_->block_elems == 0) {
                row_elems_ = last;
            } else if (info_->block_elems == 1) {
                for (std::uint64_t d = std::min<std::uint64_t>(n, 1u << 16); d >= 1; --d)
                    if (n % d == 0) { row_elems_ = d; break; }
            }
            rows_ = n / row_elems_;
        }
        row_bytes_ = row_elems_ / info_->block_elems * info_->block_bytes;
    }
    std::string describe() const override { return "stored " + t_.dtype_name; }
    std::string scheme_id() const override { return "passthrough"; }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return row_elems_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        if (!info_->to_f32) throw Error(ErrorCode::Unsupported, "no decoder for dtype " + t_.dtype_name, {}, t_.name);
        if (nrows == 0 || row_elems_ == 0) return;  // an empty tensor has no data pointer (UB to offset or copy it)
        info_->to_f32(data_ + row0 * row_bytes_, out, nrows * row_elems_ / info_->block_elems);
    }
    std::optional<DType> lossless_dtype() const override { return t_.dtype; }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        if (nrows * row_bytes_ != 0) std::memcpy(out, data_ + row0 * row_bytes_, nrows * row_bytes_);
    }
    std::vector<InputRange> inputs() const override { return {{t_.shard, t_.offset, t_.nbytes}}; }

private:
    static constexpr std::uint64_t kMaxRowElems = 1u << 20;
    const TensorInfo& t_;
    const std::uint8_t* data_;
    const DTypeInfo* info_ = nullptr;
    std::uint64_t rows_ = 0, row_elems_ = 0, row_bytes_ = 0;
};

}  // namespace

std::shared_ptr<const Recipe> make_passthrough(const Catalog& cat, std::size_t tensor_index) {
    return std::make_shared<Passthrough>(cat, tensor_index);
}

}  // namespace amn::detail
