// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Private to compressed_tensors.cc (config parsing, detection) and
// compressed_tensors_recipes.cc (the per-layer dequantization recipes): the
// scale layouts the detector settles on and the recipe factories.

#include "quant_common.hpp"
#include "scheme.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace amn::detail::ct {
using u64 = std::uint64_t;

enum class Gran { Tensor, Channel, Group, Block };

struct ScaleGrid {
    Gran g = Gran::Tensor;
    u64 groups = 1;      // scale columns (Group) / 1
    u64 group_size = 0;  // input columns per scale column
    u64 block_r = 0, block_c = 0, grid_c = 0;  // Block (float-quantized)
};

struct IntLayout {
    bool packed = false;  // I32 bit stream, else plain I8 / int8-ranged values
    unsigned bits = 8;
    u64 out = 0, in = 0, words = 0;  // words per packed row
    ScaleGrid grid;
    enum class Zero { None, Packed, Plain } zero = Zero::None;
    u64 zero_words = 0;  // rows of a packed zero point
};

inline bool is_int_dtype(DType d) {
    return d == DType::I8 || d == DType::U8 || d == DType::I16 || d == DType::I32 || d == DType::I64;
}

inline std::optional<std::int64_t> load_index(const TensorInfo& t, const std::uint8_t* p, u64 i) {
    if (t.dtype == DType::I32) { std::int32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    if (t.dtype == DType::I64) { std::int64_t v; std::memcpy(&v, p + 8 * i, 8); return v; }
    return std::nullopt;
}

// pack-quantized / int-quantized / naive-quantized: x = (q − z)·s.
std::shared_ptr<const QuantRecipe> make_int_recipe(const Catalog& cat, std::size_t w, std::size_t s, std::size_t z,
                                                   IntLayout l, std::vector<std::int32_t> g_idx, AffineParams p,
                                                   bool f32_products);
// float-quantized with F16 scales (BF16/F32 scales go to detect_fp8).
std::shared_ptr<const QuantRecipe> make_float_recipe(const Catalog& cat, std::size_t w, std::size_t s, u64 out, u64 in,
                                                     ScaleGrid grid, Fp8Params p, bool f32_products);

}  // namespace amn::detail::ct
