// SPDX-License-Identifier: MIT OR Apache-2.0
// Quantized weights inside an ONNX graph, recognised from the node that
// consumes them (Catalog::onnx). Facts: onnx Operators.md (DequantizeLinear
// 13/19/21), onnxruntime ContribOperators.md (MatMulNBits,
// GatherBlockQuantized, MatMulBnb4), matmul_nbits_impl.cc (the float zero
// point's arithmetic), the quantizers' tensor names (matmul_nbits_quantizer.py,
// onnxruntime-genai builders, transformers.js quantize.py).
//
//   MatMulNBits(A, B, scales, zero_points?)   B uint8 [N, k_blocks, blob]
//       → W [K, N]: W[k, n] = (q − zp) × s   (integer or default zero point)
//                   W[k, n] = q·s + (−s·zp)   (float zero point, as onnxruntime)
//   MatMulNBits(A, B, scales, zero_points?, g_idx)   (act order, 4-bit only)
//       → W[k, n] = q·s + (−s·zp), s and zp of group g_idx[k] of row n; zp
//         the float zero point or 8 (packed uint8 zero points are read but
//         unused by onnxruntime's kernel for it, Dequantize4BitsKernelReOrder)
//   GatherBlockQuantized(data, indices, scales, zero_points?)
//       → data's logical shape: (q − zp) × s, rounded to the scales' dtype
//   DequantizeLinear(x, scale, zero_point?)   (x an initializer, or a Gather of one)
//       → x's shape: f32(x − zp) × scale, rounded to the scales' dtype
//   MatMulInteger(A, W, A_zp, W_zp) · Mul(A_scale, W_scale)
//       → W's shape [K, N]: f32(W − W_zp) × W_scale
//   MatMulBnb4(A, B, absmax)                  B uint8 [⌈N·K/2⌉], [N, K] flattened
//       → W [K, N]: W[k, n] = code[nibble(n·K + k)] × absmax[(n·K + k) / block]
//
// The output takes the quantized initializer's name without the quantizer's
// suffix (_DQ_Q4, _Q4G32, _Q4, _quantized, _Bnb4) unless that name is taken;
// scales, zero points and absmax are consumed.
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/onnx.hpp"
#include "onnx_recipes.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace amn {

namespace {
std::string_view op_name(OnnxQuantOp op) {
    switch (op) {
        case OnnxQuantOp::MatMulNBits: return "MatMulNBits";
        case OnnxQuantOp::GatherBlockQuantized: return "GatherBlockQuantized";
        case OnnxQuantOp::DequantizeLinear: return "DequantizeLinear";
        case OnnxQuantOp::MatMulInteger: return "MatMulInteger";
        case OnnxQuantOp::MatMulBnb4: return "MatMulBnb4";
    }
    return "?";
}
std::string lower(std::string_view s) {
    std::string r(s);
    for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}
std::string grid_id(const OnnxQuantParams& p) {
    switch (p.grid) {
        case OnnxScaleGrid::Tensor: return "tensor";
        case OnnxScaleGrid::Axis: return "axis";
        case OnnxScaleGrid::Block: return "b" + std::to_string(p.block_size);
    }
    return "?";
}
}  // namespace

std::string OnnxQuantParams::id() const {
    switch (op) {
        case OnnxQuantOp::MatMulNBits:
            return "onnx-matmulnbits-" + std::to_string(bits) + "bit-b" + std::to_string(block_size) +
                   (zero_point == OnnxZeroPoint::Float ? "-fzp" : zero_point == OnnxZeroPoint::Integer ? "-zp" : "") +
                   (act_order ? "-gidx" : "");
        case OnnxQuantOp::MatMulBnb4: return std::string("onnx-bnb4-") + (nf4 ? "nf4" : "fp4") + "-b" + std::to_string(block_size);
        case OnnxQuantOp::GatherBlockQuantized: return "onnx-gbq-" + lower(element) + "-" + std::to_string(bits) + "bit-" + grid_id(*this);
        case OnnxQuantOp::DequantizeLinear: return "onnx-dq-" + lower(element) + "-" + grid_id(*this);
        case OnnxQuantOp::MatMulInteger: return "onnx-matmulinteger-" + lower(element) + "-" + grid_id(*this);
    }
    return "onnx";
}

std::string OnnxQuantParams::describe() const {
    std::string s = "ONNX " + std::string(op_name(op)) + ", ";
    if (op == OnnxQuantOp::MatMulBnb4)
        return s + (nf4 ? "NF4" : "FP4") + ", block " + std::to_string(block_size) + ", " + dtype_name(scale_dtype) +
               " absmax, dequantized to [K, N]";
    s += element + (op == OnnxQuantOp::MatMulNBits || element == "U8" ? " " + std::to_string(bits) + "-bit" : "") + ", ";
    switch (grid) {
        case OnnxScaleGrid::Tensor: s += "per tensor"; break;
        case OnnxScaleGrid::Axis: s += "per axis " + std::to_string(axis); break;
        case OnnxScaleGrid::Block: s += "block " + std::to_string(block_size) + " along axis " + std::to_string(axis); break;
    }
    switch (zero_point) {
        case OnnxZeroPoint::Default: {
            // The operator's default: 2^(bits−1) for MatMulNBits and UINT8 GatherBlockQuantized data, else 0.
            const bool mid = op == OnnxQuantOp::MatMulNBits || (op == OnnxQuantOp::GatherBlockQuantized && element == "U8");
            s += ", no zero points (" + std::to_string(mid ? (1u << (bits - 1)) : 0u) + ")";
            break;
        }
        case OnnxZeroPoint::Integer: s += act_order ? ", zero points (unused with g_idx, as onnxruntime: 8)" : ", zero points"; break;
        case OnnxZeroPoint::Float: s += ", float zero points (q·s − s·zp)"; break;
    }
    s += ", " + dtype_name(scale_dtype) + " scales";
    if (act_order) s += ", act order (g_idx)";
    if (op == OnnxQuantOp::MatMulNBits) s += ", dequantized to [K, N]";
    return s;
}

}  // namespace amn

namespace amn::detail {
namespace {
using namespace quant;
using namespace onnx_recipes;

// ---- detection ----------------------------------------------------------------

bool ends_with_digits_after(const std::string& n, std::size_t& cut, std::string_view prefix) {
    // n ends with prefix + digits; cut = where prefix starts
    std::size_t e = n.size();
    while (e > 0 && std::isdigit(static_cast<unsigned char>(n[e - 1]))) --e;
    if (e == n.size() || e < prefix.size() || n.compare(e - prefix.size(), prefix.size(), prefix) != 0) return false;
    cut = e - prefix.size();
    return true;
}

// The float name a quantized initializer replaced (its quantizer's suffix removed).
std::string strip_quant_suffix(const std::string& n) {
    std::size_t cut = 0;
    if (ends_with_digits_after(n, cut, "_DQ_Q")) return n.substr(0, cut);  // QDQ: W_DQ_Q4
    {   // onnxruntime-genai: W_Q4G32
        std::size_t g = 0;
        if (ends_with_digits_after(n, g, "G")) {
            const std::string head = n.substr(0, g);
            if (ends_with_digits_after(head, cut, "_Q")) return n.substr(0, cut);
        }
    }
    if (ends_with_digits_after(n, cut, "_Q")) return n.substr(0, cut);  // W_Q4
    for (std::string_view s : {std::string_view("_quantized"), std::string_view("_Bnb4")})
        if (n.size() > s.size() && n.ends_with(s)) return n.substr(0, n.size() - s.size());
    return n;
}

class Detector {
public:
    explicit Detector(PlanBuilder& b) : b_(b), cat_(b.catalog()) {}

    void run() {
        const auto& nodes = cat_.onnx->nodes;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const auto& n = nodes[i];
            try {
                if (n.is("com.microsoft", "MatMulNBits")) matmul_nbits(n);
                else if (n.is("com.microsoft", "MatMulBnb4")) matmul_bnb4(n);
                else if (n.is("com.microsoft", "GatherBlockQuantized")) gather_block_quantized(n);
                else if (n.is("", "DequantizeLinear") || n.is("com.microsoft", "DequantizeLinear")) dequantize_linear(n);
                else if (n.is("", "MatMulInteger")) matmul_integer(n, nodes);
            } catch (const Error& e) {
                if (payload_ != PlanBuilder::npos && !b_.claimed(payload_))
                    b_.add_error(payload_, cat_.tensors[payload_].name, {TensorErrorKind::UnsupportedLayout, std::string(n.op_type), e.message()});
            }
            payload_ = PlanBuilder::npos;
        }
    }

private:
    PlanBuilder& b_;
    const Catalog& cat_;
    std::size_t payload_ = PlanBuilder::npos;  // the payload being recognised (for errors)
    std::set<std::string> used_;

    std::optional<std::size_t> init(const OnnxNode& n, std::size_t k) const {
        if (k >= n.inputs.size() || n.inputs[k].empty()) return std::nullopt;
        return cat_.find(n.inputs[k]);
    }
    // The payload: an initializer not claimed yet (another node may have taken it).
    bool take_payload(std::optional<std::size_t> i) {
        if (!i || b_.claimed(*i)) return false;
        payload_ = *i;
        return true;
    }
    const TensorInfo& t(std::size_t i) const { return cat_.tensors[i]; }
    [[noreturn]] static void fail(ErrorCode c, const std::string& m) { throw Error(c, m); }

    std::size_t companion(const OnnxNode& n, std::size_t k, std::string_view what) const {
        auto i = init(n, k);
        if (!i) fail(ErrorCode::MissingCompanion, std::string(what) + " '" + (k < n.inputs.size() ? n.inputs[k] : "") + "' is not an initializer");
        return *i;
    }
    std::int64_t need_attr(const OnnxNode& n, std::string_view key) const {
        auto v = n.attr(key);
        if (!v) fail(ErrorCode::Malformed, "attribute '" + std::string(key) + "' missing");
        return *v;
    }

    std::string output_name(const std::string& q) {
        std::string f = strip_quant_suffix(q);
        if (f != q && (cat_.find(f) || used_.count(f))) f = q;
        used_.insert(f);
        return f;
    }

    void add(std::size_t payload, std::vector<std::size_t> companions, std::vector<std::uint64_t> shape,
             std::shared_ptr<const QuantRecipe> r) {
        LogicalTensor lt;
        lt.name = output_name(t(payload).name);
        lt.shape = std::move(shape);
        b_.add_quantized(std::move(lt), std::move(r), payload, companions);
    }

    static std::uint64_t numel(const TensorInfo& x) {
        std::uint64_t n = 1;
        for (auto d : x.shape) n *= d;
        return n;
    }
    void need_scale(std::size_t s, std::uint64_t count, const char* what) const {
        if (!is_scale_dtype(t(s).dtype)) fail(ErrorCode::BadCompanion, std::string(what) + " '" + t(s).name + "' is " + t(s).dtype_name + ", not F32/F16/BF16");
        if (numel(t(s)) != count)
            fail(ErrorCode::BadCompanion, std::string(what) + " '" + t(s).name + "' holds " + std::to_string(numel(t(s))) + " values, " +
                                              std::to_string(count) + " expected");
    }

    void matmul_nbits(const OnnxNode& n) {
        if (!take_payload(init(n, 1))) return;  // inputs: A, B, scales, zero_points, g_idx, bias
        NBitsLayout l;
        const std::int64_t K = need_attr(n, "K"), N = need_attr(n, "N"), bits = need_attr(n, "bits"), bs = need_attr(n, "block_size");
        if (K <= 0 || N <= 0) fail(ErrorCode::Malformed, "K and N must be positive");
        if (bits != 2 && bits != 4 && bits != 8) fail(ErrorCode::Unsupported, "bits " + std::to_string(bits) + " (2, 4 or 8)");
        if (bs < 16 || (bs & (bs - 1))) fail(ErrorCode::Malformed, "block_size " + std::to_string(bs) + " is not a power of two ≥ 16");
        l.K = static_cast<std::uint64_t>(K);
        l.N = static_cast<std::uint64_t>(N);
        l.bits = static_cast<std::uint64_t>(bits);
        l.block = static_cast<std::uint64_t>(bs);
        l.k_blocks = (l.K + l.block - 1) / l.block;
        l.blob = l.block * l.bits / 8;
        const auto& B = t(payload_);
        if (B.dtype != DType::U8) fail(ErrorCode::Malformed, "B is " + B.dtype_name + ", not U8");
        if (B.nbytes != l.N * l.k_blocks * l.blob)
            fail(ErrorCode::SizeMismatch, "packed weight '" + B.name + "' holds " + std::to_string(B.nbytes) + " bytes; K " +
                                              std::to_string(K) + ", N " + std::to_string(N) + ", " + std::to_string(bits) + "-bit, block " +
                                              std::to_string(bs) + " need " + std::to_string(l.N * l.k_blocks * l.blob) + " ([N, k_blocks, blob] = " +
                                              shape_to_string(std::vector<std::uint64_t>{l.N, l.k_blocks, l.blob}) + ")");
        const std::size_t s = companion(n, 2, "scales");
        need_scale(s, l.N * l.k_blocks, "scales");
        std::vector<std::size_t> comps{s};
        if (auto z = init(n, 3)) {
            const auto& Z = t(*z);
            if (Z.dtype == DType::U8) {
                l.zp = OnnxZeroPoint::Integer;
                l.zp_row_bytes = (l.k_blocks * l.bits + 7) / 8;
                if (Z.nbytes != l.N * l.zp_row_bytes)
                    fail(ErrorCode::SizeMismatch, "zero points '" + Z.name + "' hold " + std::to_string(Z.nbytes) + " bytes, " +
                                                      std::to_string(l.N * l.zp_row_bytes) + " expected (N × ⌈k_blocks·bits/8⌉)");
            } else {
                need_scale(*z, l.N * l.k_blocks, "float zero points");
                l.zp = OnnxZeroPoint::Float;
            }
            comps.push_back(*z);
        } else if (n.inputs.size() > 3 && !n.inputs[3].empty()) {
            fail(ErrorCode::MissingCompanion, "zero points '" + n.inputs[3] + "' are not an initializer");
        }
        if (n.inputs.size() > 4 && !n.inputs[4].empty()) {
            const std::size_t g = companion(n, 4, "g_idx");
            const auto& G = t(g);
            // onnxruntime runs act order only in its 4-bit unpacked kernel (ORT_ENFORCE nbits_ == 4).
            if (l.bits != 4) fail(ErrorCode::Unsupported, "g_idx with " + std::to_string(l.bits) + "-bit weights (onnxruntime runs act order for 4 bits only)");
            if (G.dtype != DType::I32 || numel(G) != l.K)
                fail(ErrorCode::BadCompanion, "g_idx '" + G.name + "' is " + G.dtype_name + " " + shape_to_string(G.shape) + ", I32 [" +
                                                  std::to_string(l.K) + "] expected");
            const std::uint8_t* d = cat_.data(G);
            l.g_idx.resize(l.K);
            for (std::uint64_t k = 0; k < l.K; ++k) {
                std::int32_t v;
                std::memcpy(&v, d + 4 * k, 4);
                if (v < 0 || static_cast<std::uint64_t>(v) >= l.k_blocks)
                    fail(ErrorCode::BadCompanion, "g_idx[" + std::to_string(k) + "] = " + std::to_string(v) + " is out of range (" +
                                                      std::to_string(l.k_blocks) + " blocks per row)");
                l.g_idx[k] = v;
            }
            comps.push_back(g);
        }
        OnnxQuantParams p;
        p.op = OnnxQuantOp::MatMulNBits;
        p.element = "U8";
        p.bits = static_cast<unsigned>(l.bits);
        p.grid = OnnxScaleGrid::Block;
        p.block_size = l.block;
        p.axis = 0;
        p.zero_point = l.zp;
        p.scale_dtype = t(s).dtype;
        p.act_order = !l.g_idx.empty();
        std::vector<std::size_t> in{payload_};
        in.insert(in.end(), comps.begin(), comps.end());
        add(payload_, comps, {l.K, l.N}, onnx_recipes::make_nbits_recipe(cat_, p, in, l));
    }

    void matmul_bnb4(const OnnxNode& n) {
        if (!take_payload(init(n, 1))) return;
        const std::int64_t K = need_attr(n, "K"), N = need_attr(n, "N"), bs = need_attr(n, "block_size");
        const std::int64_t qt = need_attr(n, "quant_type");
        if (K <= 0 || N <= 0 || bs <= 0) fail(ErrorCode::Malformed, "K, N and block_size must be positive");
        if (qt != 0 && qt != 1) fail(ErrorCode::Unsupported, "quant_type " + std::to_string(qt) + " (0 FP4, 1 NF4)");
        const auto& B = t(payload_);
        const std::uint64_t total = static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
        if (B.dtype != DType::U8 || B.nbytes != (total + 1) / 2)
            fail(ErrorCode::SizeMismatch, "packed weight '" + B.name + "' holds " + std::to_string(B.nbytes) + " bytes of " + B.dtype_name +
                                              "; K " + std::to_string(K) + " × N " + std::to_string(N) + " 4-bit codes need " +
                                              std::to_string((total + 1) / 2) + " U8");
        const std::size_t a = companion(n, 2, "absmax");
        const std::uint64_t blocks = (total + static_cast<std::uint64_t>(bs) - 1) / static_cast<std::uint64_t>(bs);
        need_scale(a, blocks, "absmax");
        OnnxQuantParams p;
        p.op = OnnxQuantOp::MatMulBnb4;
        p.element = "U8";
        p.bits = 4;
        p.block_size = static_cast<std::uint64_t>(bs);
        p.nf4 = qt == 1;
        p.scale_dtype = t(a).dtype;
        add(payload_, {a}, {static_cast<std::uint64_t>(K), static_cast<std::uint64_t>(N)},
            onnx_recipes::make_bnb4_recipe(cat_, p, std::vector<std::size_t>{payload_, a}, static_cast<std::uint64_t>(K),
                                         static_cast<std::uint64_t>(N)));
    }

    // Scales per tensor / axis / block of `x`, checked against the scale tensor's shape.
    void grid_of(GridLayout& l, const TensorInfo& s, std::int64_t axis, std::uint64_t block, bool per_tensor_ok = true) const {
        const std::size_t r = l.shape.size();
        const std::uint64_t sn = numel(s);
        if (per_tensor_ok && sn == 1 && s.shape.size() <= 1 && block == 0) {
            l.grid = OnnxScaleGrid::Tensor;
            return;
        }
        if (r == 0) fail(ErrorCode::BadCompanion, "a scalar with " + std::to_string(sn) + " scales");
        if (axis < 0) axis += static_cast<std::int64_t>(r);
        if (axis < 0 || axis >= static_cast<std::int64_t>(r)) fail(ErrorCode::Malformed, "axis out of range for rank " + std::to_string(r));
        l.axis = static_cast<unsigned>(axis);
        l.dim = l.shape[l.axis];
        l.outer = l.inner = 1;
        for (std::size_t d = 0; d < l.axis; ++d) l.outer *= l.shape[d];
        for (std::size_t d = l.axis + 1; d < r; ++d) l.inner *= l.shape[d];
        if (block == 0) {
            if (s.shape.size() != 1 || s.shape[0] != l.dim)
                fail(ErrorCode::BadCompanion, "scale '" + s.name + "' " + shape_to_string(s.shape) + " is neither one value nor one per index of axis " +
                                                  std::to_string(axis) + " (" + std::to_string(l.dim) + ")");
            l.grid = OnnxScaleGrid::Axis;
            return;
        }
        l.grid = OnnxScaleGrid::Block;
        l.block = block;
        l.blocks = (l.dim + block - 1) / block;
        std::vector<std::uint64_t> want = l.shape;
        want[l.axis] = l.blocks;
        if (s.shape != want)
            fail(ErrorCode::BadCompanion, "scale '" + s.name + "' is " + shape_to_string(s.shape) + ", blocks of " + std::to_string(block) +
                                              " along axis " + std::to_string(axis) + " need " + shape_to_string(want));
    }

    void gather_block_quantized(const OnnxNode& n) {
        if (!take_payload(init(n, 0))) return;
        const auto& X = t(payload_);
        const std::size_t s = companion(n, 2, "scales");
        const std::int64_t gather_axis = n.attr("gather_axis").value_or(0);
        std::int64_t qaxis = n.attr("quantize_axis").value_or(1);
        const std::int64_t bs = n.attr("block_size").value_or(128);
        const std::int64_t bits_attr = n.attr("bits").value_or(4);
        const std::size_t r = X.shape.size();
        if (r == 0) fail(ErrorCode::Malformed, "scalar data");
        if (qaxis < 0) qaxis += static_cast<std::int64_t>(r);
        if (qaxis != static_cast<std::int64_t>(r) - 1)
            fail(ErrorCode::Unsupported, "quantize_axis " + std::to_string(qaxis) + " (only the last axis is supported)");
        if (bs < 16 || (bs & (bs - 1))) fail(ErrorCode::Malformed, "block_size " + std::to_string(bs) + " is not a power of two ≥ 16");
        (void)gather_axis;
        GridLayout l;
        l.element = X.dtype_name;
        l.shape = X.shape;
        if (X.dtype_name == "U4" || X.dtype_name == "I4") {
            l.bits = 4;
            l.default_zero = 0;  // onnxruntime: 0 for INT4 and UINT4
        } else if (X.dtype == DType::U8) {
            if (bits_attr != 2 && bits_attr != 4 && bits_attr != 8) fail(ErrorCode::Unsupported, "bits " + std::to_string(bits_attr));
            l.bits = static_cast<unsigned>(bits_attr);
            l.default_zero = std::int64_t{1} << (l.bits - 1);
            if (l.bits < 8) {
                l.row_bytes = X.shape.back();
                l.shape.back() = X.shape.back() * 8 / l.bits;
            }
        } else {
            fail(ErrorCode::Unsupported, "data of type " + X.dtype_name + " (U4, I4 or U8)");
        }
        if (!is_scale_dtype(t(s).dtype)) fail(ErrorCode::BadCompanion, "scales '" + t(s).name + "' are " + t(s).dtype_name);
        grid_of(l, t(s), qaxis, static_cast<std::uint64_t>(bs), false);
        std::vector<std::size_t> comps{s};
        if (auto z = init(n, 3)) {
            const auto& Z = t(*z);
            if (Z.dtype_name != X.dtype_name) fail(ErrorCode::BadCompanion, "zero points '" + Z.name + "' are " + Z.dtype_name + ", the data " + X.dtype_name);
            const std::uint64_t count = numel(t(s));
            if (l.row_bytes) {
                l.zp_row_bytes = (l.blocks * l.bits + 7) / 8;
                if (Z.nbytes != count / l.blocks * l.zp_row_bytes)
                    fail(ErrorCode::SizeMismatch, "zero points '" + Z.name + "' hold " + std::to_string(Z.nbytes) + " bytes, " +
                                                      std::to_string(count / l.blocks * l.zp_row_bytes) + " expected");
            } else if (numel(Z) != count) {
                fail(ErrorCode::BadCompanion, "zero points '" + Z.name + "' " + shape_to_string(Z.shape) + " do not match the scales " +
                                                  shape_to_string(t(s).shape));
            }
            l.has_zp = true;
            comps.push_back(*z);
        }
        OnnxQuantParams p;
        p.op = OnnxQuantOp::GatherBlockQuantized;
        p.element = X.dtype_name;
        p.bits = l.bits;
        p.grid = OnnxScaleGrid::Block;
        p.block_size = l.block;
        p.axis = static_cast<int>(l.axis);
        p.zero_point = l.has_zp ? OnnxZeroPoint::Integer : OnnxZeroPoint::Default;
        p.scale_dtype = t(s).dtype;
        std::vector<std::size_t> in{payload_};
        in.insert(in.end(), comps.begin(), comps.end());
        auto shape = l.shape;
        add(payload_, comps, shape, onnx_recipes::make_grid_recipe(cat_, p, in, std::move(l)));
    }

    // x (with its own scale and optional zero point) in x's shape, shared by
    // DequantizeLinear and MatMulInteger.
    void grid_weight(OnnxQuantOp op, std::size_t s, std::optional<std::size_t> z, std::int64_t axis, std::uint64_t block) {
        const auto& X = t(payload_);
        GridLayout l;
        l.element = X.dtype_name;
        l.bits = element_bits(l.element);
        if (!l.bits) fail(ErrorCode::Unsupported, "quantized data of type " + X.dtype_name);
        l.shape = X.shape;
        if (!is_scale_dtype(t(s).dtype)) fail(ErrorCode::BadCompanion, "scale '" + t(s).name + "' is " + t(s).dtype_name);
        grid_of(l, t(s), axis, block);
        std::vector<std::size_t> comps{s};
        if (z && !element_float8(l.element)) {
            const auto& Z = t(*z);
            if (Z.dtype_name != X.dtype_name) fail(ErrorCode::BadCompanion, "zero point '" + Z.name + "' is " + Z.dtype_name + ", the data " + X.dtype_name);
            if (numel(Z) != numel(t(s)) && !(op == OnnxQuantOp::MatMulInteger && numel(Z) == 1))
                fail(ErrorCode::BadCompanion, "zero point '" + Z.name + "' " + shape_to_string(Z.shape) + " does not match the scale " +
                                                  shape_to_string(t(s).shape));
            l.zp_scalar = numel(Z) == 1;
            l.has_zp = true;
            comps.push_back(*z);
        } else if (z) {
            comps.push_back(*z);  // float8: the zero point is unused (0)
        }
        OnnxQuantParams p;
        p.op = op;
        p.element = X.dtype_name;
        p.bits = l.bits;
        p.grid = l.grid;
        p.block_size = l.grid == OnnxScaleGrid::Block ? l.block : 0;
        p.axis = l.grid == OnnxScaleGrid::Tensor ? 0 : static_cast<int>(l.axis);
        p.zero_point = l.has_zp ? OnnxZeroPoint::Integer : OnnxZeroPoint::Default;
        p.scale_dtype = t(s).dtype;
        std::vector<std::size_t> in{payload_, s};
        if (l.has_zp) in.push_back(*z);
        auto shape = l.shape;
        add(payload_, comps, shape, onnx_recipes::make_grid_recipe(cat_, p, in, std::move(l)));
    }

    void dequantize_linear(const OnnxNode& n) {
        auto x = init(n, 0);
        bool gathered = false;
        if (!x && !n.inputs.empty()) {
            // transformers.js embeddings: Gather(W_quantized, ids) → DequantizeLinear.
            for (const auto& g : cat_.onnx->nodes)
                if (g.is("", "Gather") && !g.outputs.empty() && g.outputs[0] == n.inputs[0]) {
                    x = init(g, 0);
                    gathered = true;
                    break;
                }
        }
        if (!take_payload(x)) return;
        const std::size_t s = companion(n, 1, "scale");
        if (gathered && numel(t(s)) != 1) fail(ErrorCode::Unsupported, "a gathered weight with more than one scale");
        grid_weight(OnnxQuantOp::DequantizeLinear, s, init(n, 2), n.attr("axis").value_or(1),
                    static_cast<std::uint64_t>(std::max<std::int64_t>(0, n.attr("block_size").value_or(0))));
    }

    void matmul_integer(const OnnxNode& n, const std::vector<OnnxNode>& nodes) {
        if (!take_payload(init(n, 1))) return;
        const auto& W = t(payload_);
        if (W.shape.size() != 2 || (W.dtype != DType::I8 && W.dtype != DType::U8))
            fail(ErrorCode::Unsupported, "weight '" + W.name + "' is " + W.dtype_name + " " + shape_to_string(W.shape) + " (I8/U8 [K, N])");
        // The weight's scale: the other factor of the Mul by A's scale
        // (DynamicQuantizeLinear output 1), else the quantizer's name W_scale.
        std::optional<std::size_t> s;
        if (!n.inputs.empty()) {
            std::string a_scale;
            for (const auto& p : nodes)
                if (p.outputs.size() > 1 && p.outputs[0] == n.inputs[0]) a_scale = p.outputs[1];
            if (!a_scale.empty())
                for (const auto& m : nodes)
                    if (m.is("", "Mul") && m.inputs.size() == 2 && (m.inputs[0] == a_scale || m.inputs[1] == a_scale)) {
                        const std::string& other = m.inputs[0] == a_scale ? m.inputs[1] : m.inputs[0];
                        if (auto i = cat_.find(other)) { s = i; break; }
                    }
        }
        if (!s) {
            const std::string base = strip_quant_suffix(W.name);
            for (std::string_view suf : {"_scale", "_scales"})
                if (auto i = cat_.find(base + std::string(suf))) { s = i; break; }
        }
        if (!s) fail(ErrorCode::MissingCompanion, "no scale found for weight '" + W.name + "' (a Mul by its A scale, or '" +
                                                      strip_quant_suffix(W.name) + "_scale')");
        // Per channel: one scale per column N (axis 1).
        grid_weight(OnnxQuantOp::MatMulInteger, *s, init(n, 3), 1, 0);
    }
};

}  // namespace

void detect_onnx(PlanBuilder& b) {
    if (b.catalog().format != Format::Onnx || !b.catalog().onnx) return;
    Detector(b).run();
}

}  // namespace amn::detail
