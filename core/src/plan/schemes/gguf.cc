// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF tensors: every ggml block type becomes a logical tensor dequantized
// row by row through the dtype registry's decoder (bit-exact with ggml's
// dequantize_row_*); plain little-endian types are left to the generic
// passthrough; plain types of a big-endian file get a byte-swapping
// passthrough here.
#include "anamnesis/error.hpp"
#include "plan/gguf_groups.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace amn::detail {
namespace {

std::string format_bpw(double bpw) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", bpw);
    return buf;
}

// Rows are the innermost GGUF dimension (ne0 = the last row-major dim): a
// ggml row is always whole blocks.
struct RowSplit {
    std::uint64_t rows = 0, row_elems = 0;
    explicit RowSplit(const TensorInfo& t) {
        row_elems = t.shape.empty() ? 1 : t.shape.back();
        rows = row_elems ? t.numel() / row_elems : 0;
    }
};

class GgufBlocks final : public QuantRecipe {
public:
    GgufBlocks(const Catalog& cat, std::size_t i)
        : QuantRecipe(GgmlParams{cat.tensors[i].dtype}), cat_(cat), t_(cat.tensors[i]), data_(cat.data(cat.tensors[i])), info_(dtype_info(t_.dtype)), split_(t_) {
        row_bytes_ = split_.row_elems / info_->block_elems * info_->block_bytes;
    }
    std::uint64_t rows() const override { return split_.rows; }
    std::uint64_t row_elems() const override { return split_.row_elems; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        if (row0 > split_.rows || nrows > split_.rows - row0)
            throw Error(ErrorCode::OutOfRange, "rows out of range", {}, t_.name);
        info_->to_f32(data_ + row0 * row_bytes_, out, nrows * (split_.row_elems / info_->block_elems));
    }
    std::vector<InputRange> inputs() const override { return {{t_.shard, t_.offset, t_.nbytes}}; }
    // Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, MXFP4, NVFP4: their codes and scales.
    std::shared_ptr<const QuantGroups> quant_groups() const override { return gguf_quant_groups(cat_, t_); }

private:
    const Catalog& cat_;
    const TensorInfo& t_;
    const std::uint8_t* data_;
    const DTypeInfo* info_;
    RowSplit split_;
    std::uint64_t row_bytes_ = 0;
};

// A plain (one element per block) tensor of a big-endian GGUF file.
class BigEndianPlain final : public Recipe {
public:
    BigEndianPlain(const Catalog& cat, std::size_t i)
        : t_(cat.tensors[i]), data_(cat.data(cat.tensors[i])), info_(dtype_info(t_.dtype)), split_(t_) {}
    std::string describe() const override { return "stored " + t_.dtype_name + " (big-endian)"; }
    std::string scheme_id() const override { return "passthrough"; }
    std::uint64_t rows() const override { return split_.rows; }
    std::uint64_t row_elems() const override { return split_.row_elems; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        if (!info_->to_f32) throw Error(ErrorCode::Unsupported, "no decoder for dtype " + t_.dtype_name, {}, t_.name);
        const std::uint64_t n = nrows * split_.row_elems;
        std::vector<std::uint8_t> le(static_cast<std::size_t>(n * info_->block_bytes));
        copy_rows(row0, nrows, le.data());
        info_->to_f32(le.data(), out, n);
    }
    std::optional<DType> lossless_dtype() const override { return t_.dtype; }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::size_t w = info_->block_bytes;
        const std::uint64_t n = nrows * split_.row_elems;
        const std::uint8_t* src = data_ + row0 * split_.row_elems * w;
        for (std::uint64_t e = 0; e < n; ++e)
            for (std::size_t b = 0; b < w; ++b) out[e * w + b] = src[e * w + (w - 1 - b)];
    }
    std::vector<InputRange> inputs() const override { return {{t_.shard, t_.offset, t_.nbytes}}; }

private:
    const TensorInfo& t_;
    const std::uint8_t* data_;
    const DTypeInfo* info_;
    RowSplit split_;
};

}  // namespace

}  // namespace amn::detail

namespace amn {

std::string GgmlParams::id() const { return "gguf-" + dtype_name(type); }

std::string GgmlParams::describe() const {
    const DTypeInfo* info = dtype_info(type);
    if (!info) return "GGUF " + dtype_name(type);
    return "GGUF " + std::string(info->name) + " (" + std::to_string(info->block_elems) + "-element blocks of " +
           std::to_string(info->block_bytes) + " bytes, " + detail::format_bpw(dtype_bits_per_element(type)) +
           " bits per weight)";
}

}  // namespace amn

namespace amn::detail {

void detect_gguf(PlanBuilder& b) {
    const auto& cat = b.catalog();
    if (cat.format != Format::Gguf) return;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        if (b.claimed(i)) continue;
        const auto& t = cat.tensors[i];
        const DTypeInfo* info = dtype_info(t.dtype);
        if (!info) {
            b.add_error(i, t.name, {TensorErrorKind::UnknownDtype, "", t.dtype_name + " is not a type this version knows: cannot convert"});
            continue;
        }
        if (!info->is_quantized_block) {
            if (t.big_endian && info->block_bytes > 1) b.add_passthrough(i, std::make_shared<BigEndianPlain>(cat, i));
            continue;  // little-endian plain types: the generic passthrough
        }
        if (t.big_endian) {
            b.add_error(i, t.name, {TensorErrorKind::UnsupportedLayout, "", "big-endian GGUF: " + t.dtype_name + " blocks with big-endian scales cannot be converted"});
            continue;
        }
        if (!info->to_f32) {
            b.add_error(i, t.name, {TensorErrorKind::UnsupportedLayout, "", "no decoder for " + t.dtype_name});
            continue;
        }
        LogicalTensor lt;
        lt.name = t.name;
        lt.shape = t.shape;
        b.add_quantized(std::move(lt), std::make_shared<GgufBlocks>(cat, i), i, {});
    }
}

}  // namespace amn::detail
