// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the dequantizing recipes of ONNX quantized weights
// (onnx_recipes.cc) that the detector of plan/schemes/onnx.cc builds, with
// the layouts it fills in after checking every shape. The arithmetic of
// each operator is in onnx.cc's header comment and onnx_recipes.cc.
#include "anamnesis/catalog.hpp"
#include "anamnesis/onnx.hpp"
#include "anamnesis/plan.hpp"
#include "scheme.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace amn::detail::onnx_recipes {

/// Bits per field of a stored element type name ("U8", "I4", "F8_E4M3" …);
/// 0 when it is no integer/float8 type the recipes read.
unsigned element_bits(const std::string& e);
/// True for the float8 element names ("F8_…").
bool element_float8(const std::string& e);
/// F32, F16 or BF16: a dtype scales may have.
bool is_scale_dtype(DType d);

/// com.microsoft.MatMulNBits: B [N, k_blocks, blob] → W [K, N].
struct NBitsLayout {
    std::uint64_t K = 0, N = 0, bits = 4, block = 32, k_blocks = 0, blob = 0;
    OnnxZeroPoint zp = OnnxZeroPoint::Default;
    std::uint64_t zp_row_bytes = 0;  // packed uint8 zero points per row of B
    std::vector<std::int32_t> g_idx;  // act order: the group of every row k of W (checked < k_blocks); empty: k / block
};

/// DequantizeLinear, MatMulInteger, GatherBlockQuantized: y = (q − zp) × s
/// over a tensor in its logical shape, scales per tensor, per axis or per
/// block along an axis; the product rounded to the scales' dtype.
struct GridLayout {
    std::vector<std::uint64_t> shape;  // logical shape of the output
    unsigned axis = 0;
    OnnxScaleGrid grid = OnnxScaleGrid::Tensor;
    std::uint64_t block = 0;
    std::uint64_t outer = 1, dim = 1, inner = 1, blocks = 1;  // around `axis`
    // Stored fields: element type, field bits, and for UINT8-packed GatherBlockQuantized
    // data and zero points the bytes per row (fields packed per row along the last axis).
    std::string element;
    unsigned bits = 8;
    std::uint64_t row_bytes = 0, zp_row_bytes = 0;
    bool has_zp = false;
    bool zp_scalar = false;  // one zero point for every scale (MatMulInteger per tensor zero point, per-channel scales)
    std::int64_t default_zero = 0;
};

/// The recipe of a MatMulNBits weight; `in` = B, scales[, zero points][, g_idx].
std::shared_ptr<const QuantRecipe> make_nbits_recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in,
                                                NBitsLayout l);
/// The recipe of a MatMulBnb4 weight [K, N]; `in` = B, absmax.
std::shared_ptr<const QuantRecipe> make_bnb4_recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in,
                                               std::uint64_t K, std::uint64_t N);
/// The recipe of a DequantizeLinear / MatMulInteger / GatherBlockQuantized
/// weight; `in` = x, scales[, zero points].
std::shared_ptr<const QuantRecipe> make_grid_recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in, GridLayout l);

}  // namespace amn::detail::onnx_recipes
