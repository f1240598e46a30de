// SPDX-License-Identifier: MIT OR Apache-2.0
// bitsandbytes 4-bit (NF4, FP4) weight dequantization, with or without
// double quantization of the absmax.
//
// Stored per layer (transformers' serialization of `Params4bit`):
//   X                                   packed bytes, two elements per byte,
//                                       the first in the HIGH nibble
//   X.absmax                            F32 [blocks]  (U8 with double quant)
//   X.quant_map                         F32 [16]      the codebook
//   X.nested_absmax, X.nested_quant_map F32           (double quant only)
//   X.quant_state.bitsandbytes__nf4|fp4 U8 JSON blob: shape, blocksize,
//                                       dtype, nested_blocksize, nested_offset
// Output X with the blob's shape:
//   y[i] = code[nibble(i)] × absmax[i / blocksize]            (f32)
//   absmax[b] = nested_code[u8[b]] × nested_absmax[b / nested_blocksize]
//               + nested_offset                               (double quant, f32)
// as bitsandbytes `dequantize_4bit` (kDequantizeBlockwise, dDequantizeNF4 /
// dDequantizeFP4Tree) after `dequantize_blockwise` of the absmax.
// The codebooks are bitsandbytes' constants (its kernels never read the
// stored quant_map); a quant_map that disagrees is reported as a plan note.
// FP4: the reference computes sign × (magnitude × absmax), so code 8 (the
// "+0.0" entry with the sign bit set) yields −0.0: our FP4 table holds −0.0
// there (the stored quant_map has +0.0).
#include "anamnesis/error.hpp"
#include "util/json_util.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace amn::detail {
namespace {
using namespace quant;
namespace qk = amn::kernels::quant;

using qk::kFp4, qk::kNf4;  // bitsandbytes codebooks (quant_kernels.hpp)

struct Bnb4Layout {
    bool fp4 = false;
    std::uint64_t numel = 0, blocksize = 0, blocks = 0;
    std::uint64_t rows = 1, cols = 1;
    bool nested = false;
    std::uint64_t nested_blocksize = 0;
    float nested_offset = 0;
    std::string dtype;  // the blob's compute dtype, for the description
};

Bnb4Params params_of(const Bnb4Layout& l) {
    Bnb4Params p;
    p.type = l.fp4 ? Bnb4Type::Fp4 : Bnb4Type::Nf4;
    p.blocksize = l.blocksize;
    p.double_quant = l.nested;
    p.nested_blocksize = l.nested_blocksize;
    p.compute_dtype = l.dtype;
    return p;
}

class Bnb4Recipe final : public QuantRecipe {
public:
    Bnb4Recipe(const Catalog& cat, std::size_t w, std::size_t absmax, std::size_t nested_absmax,
               std::size_t nested_code, Bnb4Layout l)
        : QuantRecipe(params_of(l)), w_(cat.tensors[w]), wd_(cat.data(w_)), ad_(cat.data(cat.tensors[absmax])), l_(l) {
        ainfo_ = dtype_info(cat.tensors[absmax].dtype);
        if (l_.nested) {
            const auto& na = cat.tensors[nested_absmax];
            const auto& nc = cat.tensors[nested_code];
            nad_ = cat.data(na);
            nainfo_ = dtype_info(na.dtype);
            for (unsigned i = 0; i < 256; ++i) nested_code_[i] = load_float(dtype_info(nc.dtype), cat.data(nc), i);
        }
        qk::make_pairs(l_.fp4 ? kFp4.data() : kNf4.data(), pairs_.data());
    }

    std::uint64_t rows() const override { return l_.rows; }
    std::uint64_t row_elems() const override { return l_.cols; }
    bool payload_is_row_major() const override { return l_.cols % 2 == 0; }  // rows own whole bytes
    std::vector<InputRange> inputs() const override { return {{w_.shard, w_.offset, w_.nbytes}}; }

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t e0 = row0 * l_.cols, e1 = e0 + nrows * l_.cols;
        for (std::uint64_t b = e0 / l_.blocksize; b * l_.blocksize < e1; ++b) {
            const std::uint64_t a = std::max(e0, b * l_.blocksize), e = std::min(e1, (b + 1) * l_.blocksize);
            decode(a, e, absmax(b), out + (a - e0));
        }
    }

private:
    float absmax(std::uint64_t b) const {
        if (!l_.nested) return load_float(ainfo_, ad_, b);
        const float code = nested_code_[ad_[b]];
        const float scaled = code * load_float(nainfo_, nad_, b / l_.nested_blocksize);
        return scaled + l_.nested_offset;
    }
    float element(std::uint64_t e, float a) const {
        const std::uint8_t byte = wd_[e / 2];
        const unsigned nib = (e % 2 == 0) ? byte >> 4 : byte & 15u;
        return (l_.fp4 ? kFp4 : kNf4)[nib] * a;
    }
    // Elements [a, e) of one absmax block into y.
    void decode(std::uint64_t a, std::uint64_t e, float am, float* y) const {
        if (a < e && a % 2 == 1) *y++ = element(a++, am);
        const std::uint64_t nbytes = (e - a) / 2;
        qk::lut4_scale(wd_ + a / 2, pairs_.data(), am, y, nbytes);
        y += 2 * nbytes;
        a += 2 * nbytes;
        if (a < e) *y = element(a, am);
    }

    const TensorInfo& w_;
    const std::uint8_t* wd_;
    const std::uint8_t* ad_;
    const DTypeInfo* ainfo_ = nullptr;
    const std::uint8_t* nad_ = nullptr;
    const DTypeInfo* nainfo_ = nullptr;
    std::array<float, 256> nested_code_{};
    std::array<std::uint64_t, 256> pairs_{};
    Bnb4Layout l_;
};

// Parse the quant_state blob into dotted keys. \throws Error{BadJson}.
std::map<std::string, std::string> parse_blob(const Catalog& cat, const TensorInfo& t) {
    namespace od = simdjson::ondemand;
    const std::uint8_t* p = cat.data(t);
    // Called once per quantized tensor: one parser per thread, reused (the
    // document below is done with before the next call).
    thread_local od::parser parser;
    OnDemandObject json(std::string_view(reinterpret_cast<const char*>(p), t.nbytes), "quant_state is not valid JSON",
                        "quant_state is not a JSON object", cat.path, t.name, &parser);
    std::map<std::string, std::string> m;
    flatten_object(json.root(), "", m, cat.path);
    if (!json.document().current_location().error())
        throw Error(ErrorCode::BadJson, "quant_state has trailing bytes after the JSON object", cat.path, t.name);
    return m;
}

bool codebook_matches(const Catalog& cat, const TensorInfo& qm, const std::array<float, 16>& code) {
    if (!is_float_scale(qm.dtype) || qm.numel() != 16) return false;
    const auto* info = dtype_info(qm.dtype);
    for (unsigned i = 0; i < 16; ++i) {
        const float v = load_float(info, cat.data(qm), i);
        if (!(v == code[i])) return false;  // ±0 compare equal (FP4's stored +0.0 at code 8)
    }
    return true;
}

}  // namespace

}  // namespace amn::detail

namespace amn {

std::string Bnb4Params::id() const {
    const bool fp4 = type == Bnb4Type::Fp4;
    return std::string("bnb-") + (fp4 ? "fp4" : "nf4") + "-b" + std::to_string(blocksize) + (double_quant ? "-dq" : "");
}

std::string Bnb4Params::describe() const {
    std::string s = std::string("bitsandbytes ") + (type == Bnb4Type::Fp4 ? "FP4" : "NF4") + ", blocksize " +
                    std::to_string(blocksize);
    if (double_quant) s += ", double-quant (nested blocksize " + std::to_string(nested_blocksize) + ")";
    if (!compute_dtype.empty()) s += ", compute " + compute_dtype;
    return s;
}

}  // namespace amn

namespace amn::detail {

void detect_bnb4(PlanBuilder& b) {
    const auto& cat = b.catalog();
    for (std::size_t qs = 0; qs < cat.tensors.size(); ++qs) {
        const auto& qst = cat.tensors[qs];
        if (b.claimed(qs)) continue;
        bool fp4;
        std::string stem;
        if (qst.name.ends_with(".quant_state.bitsandbytes__nf4")) {
            fp4 = false;
            stem = stem_of(qst.name, ".quant_state.bitsandbytes__nf4");
        } else if (qst.name.ends_with(".quant_state.bitsandbytes__fp4")) {
            fp4 = true;
            stem = stem_of(qst.name, ".quant_state.bitsandbytes__fp4");
        } else {
            continue;
        }
        const std::size_t w = b.find_unclaimed(stem);
        const std::size_t am = b.find_unclaimed(stem + ".absmax");
        const std::size_t qm = b.find_unclaimed(stem + ".quant_map");
        const std::size_t na = b.find_unclaimed(stem + ".nested_absmax");
        const std::size_t nq = b.find_unclaimed(stem + ".nested_quant_map");
        std::vector<std::size_t> comps{qs};
        for (auto c : {am, qm, na, nq}) if (c != PlanBuilder::npos) comps.push_back(c);
        const std::string kind = fp4 ? "bitsandbytes FP4" : "bitsandbytes NF4";
        if (w == PlanBuilder::npos) {
            // No payload: keep the blob visible with the error.
            comps.erase(comps.begin());
            b.add_error(qs, stem, {TensorErrorKind::MissingCompanion, kind, "missing the packed weight " + stem}, comps);
            continue;
        }
        const auto& wt = cat.tensors[w];
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(w, stem, {k, kind, why}, comps);
        };

        std::map<std::string, std::string> blob;
        try {
            blob = parse_blob(cat, qst);
        } catch (const Error& e) {
            fail(qst.name + ": " + e.message());
            continue;
        }
        auto get = [&](const std::string& k) -> std::optional<std::string> {
            auto it = blob.find(k);
            if (it == blob.end() || it->second == "null") return std::nullopt;
            return it->second;
        };
        Bnb4Layout l;
        l.fp4 = fp4;
        if (auto t = get("quant_type"); !t || ascii_lower(*t) != (fp4 ? "fp4" : "nf4")) {
            fail("quant_state quant_type is \"" + get("quant_type").value_or("") + "\", the tensor name says " +
                 (fp4 ? "fp4" : "nf4"), TensorErrorKind::ConfigConflict);
            continue;
        }
        const auto bs = get("blocksize") ? parse_int(*get("blocksize")) : std::nullopt;
        if (!bs || *bs <= 0 || *bs % 2 != 0) {
            fail("quant_state blocksize \"" + get("blocksize").value_or("") + "\" is not a positive even integer", TensorErrorKind::ConfigConflict);
            continue;
        }
        l.blocksize = static_cast<std::uint64_t>(*bs);
        std::vector<std::uint64_t> shape;
        bool shape_ok = true;
        for (std::size_t d = 0;; ++d) {
            auto v = get("shape." + std::to_string(d));
            if (!v) break;
            auto x = parse_int(*v);
            if (!x || *x < 0 || d >= kMaxRank) { shape_ok = false; break; }
            shape.push_back(static_cast<std::uint64_t>(*x));
        }
        if (!shape_ok || shape.empty()) {
            fail("quant_state shape is missing or not a list of sizes", TensorErrorKind::ConfigConflict);
            continue;
        }
        l.numel = 1;
        for (auto d : shape) {
            if (d != 0 && l.numel > (std::uint64_t{1} << 60) / d) { shape_ok = false; break; }
            l.numel *= d;
        }
        if (!shape_ok || l.numel == 0) {
            fail("quant_state shape " + shape_to_string(shape) + " is empty or too large", TensorErrorKind::ConfigConflict);
            continue;
        }
        l.cols = shape.back();
        l.rows = l.numel / l.cols;
        l.blocks = (l.numel + l.blocksize - 1) / l.blocksize;
        l.dtype = get("dtype").value_or("");
        if (wt.nbytes != (l.numel + 1) / 2) {
            fail("packed weight holds " + std::to_string(wt.nbytes) + " bytes, quant_state shape " + shape_to_string(shape) +
                 " needs " + std::to_string((l.numel + 1) / 2), TensorErrorKind::ConfigConflict);
            continue;
        }
        // Codebook.
        if (qm != PlanBuilder::npos && !codebook_matches(cat, cat.tensors[qm], fp4 ? kFp4 : kNf4))
            b.note(cat.tensors[qm].name + " is not bitsandbytes' " + (fp4 ? "FP4" : "NF4") +
                   " codebook; decoded with the built-in codebook, as bitsandbytes' dequantize_4bit does");
        // Nested (double-quant) absmax.
        const auto nbs_text = get("nested_blocksize");
        const auto nbs = nbs_text ? parse_int(*nbs_text) : std::optional<std::int64_t>(0);
        if (!nbs || *nbs < 0) {
            fail("quant_state nested_blocksize \"" + *nbs_text + "\" is not valid", TensorErrorKind::ConfigConflict);
            continue;
        }
        l.nested = *nbs > 0 || na != PlanBuilder::npos || nq != PlanBuilder::npos;
        if (am == PlanBuilder::npos) {
            fail("missing companion " + stem + ".absmax", TensorErrorKind::MissingCompanion);
            continue;
        }
        const auto& amt = cat.tensors[am];
        if (amt.numel() != l.blocks) {
            fail("absmax has " + std::to_string(amt.numel()) + " values, " + std::to_string(l.numel) +
                 " elements in blocks of " + std::to_string(l.blocksize) + " need " + std::to_string(l.blocks));
            continue;
        }
        if (l.nested) {
            if (*nbs <= 0) {
                fail("nested tensors present but quant_state has no nested_blocksize", TensorErrorKind::ConfigConflict);
                continue;
            }
            if (na == PlanBuilder::npos || nq == PlanBuilder::npos) {
                fail("double quant needs " + stem + (na == PlanBuilder::npos ? ".nested_absmax" : ".nested_quant_map"), TensorErrorKind::MissingCompanion);
                continue;
            }
            l.nested_blocksize = static_cast<std::uint64_t>(*nbs);
            const auto off = get("nested_offset") ? parse_double(*get("nested_offset")) : std::nullopt;
            if (!off) {
                fail("quant_state nested_offset is missing or not a number", TensorErrorKind::ConfigConflict);
                continue;
            }
            l.nested_offset = static_cast<float>(*off);
            const auto& nat = cat.tensors[na];
            const auto& nqt = cat.tensors[nq];
            if (amt.dtype != DType::U8) {
                fail("double-quant absmax must be U8, got " + amt.dtype_name);
                continue;
            }
            const std::uint64_t nblocks = (l.blocks + l.nested_blocksize - 1) / l.nested_blocksize;
            if (!is_float_scale(nat.dtype) || nat.numel() != nblocks) {
                fail("nested_absmax must hold " + std::to_string(nblocks) + " F32 values, got " + nat.dtype_name + " " +
                     shape_to_string(nat.shape));
                continue;
            }
            if (!is_float_scale(nqt.dtype) || nqt.numel() != 256) {
                fail("nested_quant_map must hold 256 F32 values, got " + nqt.dtype_name + " " + shape_to_string(nqt.shape));
                continue;
            }
        } else if (!is_float_scale(amt.dtype)) {
            fail("absmax must be F32, got " + amt.dtype_name);
            continue;
        }
        LogicalTensor lt;
        lt.name = stem;
        lt.shape = shape;
        b.add_quantized(std::move(lt), std::make_shared<Bnb4Recipe>(cat, w, am, na, nq, l), w, comps);
    }
}

}  // namespace amn::detail
