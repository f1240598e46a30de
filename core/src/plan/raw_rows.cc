// SPDX-License-Identifier: MIT OR Apache-2.0
// The recipe of a tensor made directly in its GGUF type (raw_rows.hpp).
#include "plan/raw_rows.hpp"

#include <vector>

namespace amn::detail {

namespace {

// The f32 values (and, for CopyRows, the bytes) of a tensor made directly in
// its GGUF type (RawRows).
class RawDecode final : public Recipe {
public:
    RawDecode(std::shared_ptr<const RawRows> raw, DType type, std::vector<std::uint64_t> shape)
        : raw_(std::move(raw)), type_(type), info_(dtype_info(type)) {
        std::uint64_t n = 1;
        for (auto d : shape) n *= d;
        elems_ = raw_->rows() ? n / raw_->rows() : 0;
    }
    std::string describe() const override { return std::string(info_->name) + " (repacked)"; }
    std::string scheme_id() const override { return "gguf-" + std::string(info_->name); }
    std::uint64_t rows() const override { return raw_->rows(); }
    std::uint64_t row_elems() const override { return elems_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        std::vector<std::uint8_t> b(static_cast<std::size_t>(nrows * raw_->row_bytes()));
        raw_->read(row0, nrows, b.data());
        info_->to_f32(b.data(), out, nrows * elems_ / info_->block_elems);
    }
    std::optional<DType> lossless_dtype() const override { return type_; }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override { raw_->read(row0, nrows, out); }
    std::vector<InputRange> inputs() const override { return raw_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t n) const override {
        return raw_->consumed_inputs(row0, n);
    }
    bool payload_is_row_major() const override { return false; }

private:
    std::shared_ptr<const RawRows> raw_;
    DType type_;
    const DTypeInfo* info_;
    std::uint64_t elems_ = 0;
};

}  // namespace

std::shared_ptr<const Recipe> make_raw_decode_recipe(std::shared_ptr<const RawRows> raw, DType type,
                                                     std::vector<std::uint64_t> shape) {
    return std::make_shared<RawDecode>(std::move(raw), type, std::move(shape));
}

}  // namespace amn::detail
