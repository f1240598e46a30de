// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/npy_writer.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "sink/output_files.hpp"
#include "exec/row_pass.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace amn {

std::string npy_header(const std::vector<std::uint64_t>& shape, DType dtype) {
    const char* descr = nullptr;
    if (dtype == DType::F32) descr = "<f4";
    else if (dtype == DType::F16) descr = "<f2";
    else throw Error(ErrorCode::Usage, "an .npy file is written as F32 or F16, not " + dtype_name(dtype));
    std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) dict += ", ";
        dict += std::to_string(shape[i]);
    }
    if (shape.size() == 1) dict += ',';
    dict += "), }";
    // magic (6) + version (2) + length (2) + dict + padding + '\n' ≡ 0 (mod 64)
    const std::size_t unpadded = 10 + dict.size() + 1;
    const std::size_t total = (unpadded + 63) / 64 * 64;
    if (total - 10 > 65535) throw Error(ErrorCode::Usage, "shape too long for an NPY 1.0 header");
    dict.append(total - unpadded, ' ');
    dict += '\n';
    const auto hlen = static_cast<std::uint16_t>(dict.size());
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(hlen & 0xFF);
    out += static_cast<char>(hlen >> 8);
    return out + dict;
}

NpyWriteResult write_npy(const Catalog& cat, const LogicalTensor& t, const std::string& path, DType dtype, bool force,
                         const ProgressFn& progress, const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    const std::string header = npy_header(t.shape, dtype);  // dtype checked first
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? std::string("tensor has no recipe") : t.error.message(), {}, t.name);
    for (const auto& sh : cat.shards)
        if (detail::same_file(path, sh.path))
            throw Error(ErrorCode::Usage, "the output is an input file; refusing to overwrite it", path);
    const Recipe& r = *t.recipe;
    auto tmp = detail::TempFile::create(path, force);
    tmp.write_all(header);
    std::uint64_t bytes = header.size();
    std::vector<float> buf;
    std::vector<std::uint16_t> half;
    const std::uint64_t C = r.row_elems();
    detail::for_each_row_chunk(r, chunk_elems, buf, cancel, "export cancelled", progress, 0, r.rows(),
                               [&](std::uint64_t, std::uint64_t n, const float* v) {
                                   const std::size_t elems = static_cast<std::size_t>(n * C);
                                   std::string_view out;
                                   if (dtype == DType::F16) {
                                       half.resize(elems);
                                       kernels::f32_to_f16(v, half.data(), elems);
                                       out = {reinterpret_cast<const char*>(half.data()), elems * 2};
                                   } else {
                                       out = {reinterpret_cast<const char*>(v), elems * 4};
                                   }
                                   tmp.write_all(out);  // x86-64 / AArch64: host order is little-endian
                                   bytes += out.size();
                               });
    tmp.commit();
    return {path, bytes};
}

namespace {

// The preview's shape (rows, cols, totals) and the recipe rows it decodes.
ValuePreview preview_shape(const LogicalTensor& t, std::uint64_t max_rows, std::uint64_t max_cols, std::uint64_t& decode_rows) {
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? std::string("tensor has no recipe") : t.error.message(), {}, t.name);
    const Recipe& r = *t.recipe;
    ValuePreview p;
    decode_rows = 0;
    const std::uint64_t numel = r.rows() * r.row_elems();
    p.total_cols = t.shape.empty() ? numel : t.shape.back();
    p.total_rows = p.total_cols ? numel / p.total_cols : 0;
    p.rows = std::min(max_rows, p.total_rows);
    p.cols = std::min(max_cols, p.total_cols);
    if (p.rows == 0 || p.cols == 0) {
        p.rows = p.cols = 0;
        return p;
    }
    // The first rows × total_cols elements in row-major order, as whole recipe rows.
    const std::uint64_t re = std::max<std::uint64_t>(r.row_elems(), 1);
    const std::uint64_t g = std::max<std::uint64_t>(r.row_granularity(), 1);
    const std::uint64_t need = ((p.rows - 1) * p.total_cols + p.cols + re - 1) / re;
    decode_rows = std::min(r.rows(), (need + g - 1) / g * g);
    return p;
}

}  // namespace

std::vector<Recipe::InputRange> preview_inputs(const LogicalTensor& t, std::uint64_t max_rows, std::uint64_t max_cols) {
    std::uint64_t decode_rows = 0;
    preview_shape(t, max_rows, max_cols, decode_rows);
    std::vector<Recipe::InputRange> in = t.recipe->inputs();
    if (decode_rows == 0) return {};
    if (!in.empty() && t.recipe->payload_is_row_major() && t.recipe->rows() > 0) {
        auto& p = in[0];
        const std::uint64_t rows = t.recipe->rows();
        // Rows' share, rounded out (a share may end inside a byte of packed codes).
        __extension__ typedef unsigned __int128 u128;  // len × rows can pass 2^64
        const u128 end = (static_cast<u128>(p.len) * decode_rows + rows - 1) / rows;
        p.len = static_cast<std::uint64_t>(end);
    }
    return in;
}

ValuePreview preview_values(const LogicalTensor& t, std::uint64_t max_rows, std::uint64_t max_cols) {
    std::uint64_t decode_rows = 0;
    ValuePreview p = preview_shape(t, max_rows, max_cols, decode_rows);
    if (p.rows == 0) return p;
    const Recipe& r = *t.recipe;
    const std::uint64_t re = std::max<std::uint64_t>(r.row_elems(), 1);
    std::vector<float> buf(static_cast<std::size_t>(decode_rows * re));
    r.dequantize_rows(0, decode_rows, buf.data());
    p.values.resize(static_cast<std::size_t>(p.rows * p.cols));
    for (std::uint64_t i = 0; i < p.rows; ++i)
        std::memcpy(p.values.data() + i * p.cols, buf.data() + i * p.total_cols, p.cols * sizeof(float));
    return p;
}

}  // namespace amn
