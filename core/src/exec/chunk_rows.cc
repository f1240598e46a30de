// SPDX-License-Identifier: MIT OR Apache-2.0
#include "exec/chunk_rows.hpp"

#include "anamnesis/error.hpp"
#include "exec/input_release.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"
#include "plan/shape_rows.hpp"

#include <cmath>
#include <string>

namespace amn::exec {
namespace {

[[noreturn]] void nonfinite_error(float v, std::uint64_t row, std::uint64_t col) {
    throw Error(ErrorCode::Unsupported, std::string(std::isnan(v) ? "NaN" : "infinity") + " at [" + std::to_string(row) +
                                            ", " + std::to_string(col) +
                                            "]: a weight to quantize must be finite (nothing written)");
}

}  // namespace

ChunkRows::ChunkRows(const Catalog& cat, const OutputTensor& t, std::uint64_t row0, std::uint64_t nrows,
                     std::vector<float>& x)
    : cat_(cat), t_(t), row0_(row0), nrows_(nrows), x_(x) {}

const std::uint16_t* ChunkRows::stored_bf16() const noexcept {
    if (!t_.stored) return nullptr;
    return reinterpret_cast<const std::uint16_t*>(cat_.data(*t_.stored)) + row0_ * t_.cols;
}

const float* ChunkRows::decode(bool check, bool release) {
    const Recipe& r = *t_.recipe;
    const std::uint64_t C = t_.cols, n = nrows_ * C;
    x_.resize(n);
    // A stored BF16 weight: decoded and checked in one pass.
    if (check) {
        if (const std::uint16_t* in = stored_bf16()) {
            const std::uint64_t i = kernels::st::st_kernels().bf16_decode_checked(in, n, x_.data());
            if (release) this->release();
            if (i < n) nonfinite_error(x_[i], row0_ + i / C, i % C);
            return x_.data();
        }
    }
    detail::dequantize_shape_rows(r, C, row0_, nrows_, x_.data());  // rows of the shape, not of the recipe
    if (release) this->release();
    if (t_.round_to)
        for (std::uint64_t i = 0; i < n; ++i) x_[i] = st::detail::round_to(*t_.round_to, x_[i]);
    if (check) check_finite();
    return x_.data();
}

void ChunkRows::check_finite() const {
    const std::uint64_t C = t_.cols, n = nrows_ * C;
    const std::uint64_t i = kernels::st::st_kernels().first_nonfinite(x_.data(), n);
    if (i < n) nonfinite_error(x_[i], row0_ + i / C, i % C);
}

void ChunkRows::release() const { detail::release_shape_rows(cat_, *t_.recipe, t_.cols, row0_, nrows_); }

}  // namespace amn::exec
