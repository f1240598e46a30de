// SPDX-License-Identifier: MIT OR Apache-2.0
// mlx-lm's gpt_oss sanitize on the original MXFP4 checkpoint (mlx-lm d78bf58e,
// mlx_lm/models/gpt_oss.py: `v.view(mx.uint32).flatten(-2)`, then rows ::2 →
// gate_proj, 1::2 → up_proj; utils.py load_model: quant_method "mxfp4" →
// {"group_size": 32, "bits": 4, "mode": "mxfp4"}). See forget_st_mlx_gpt_oss.hpp.
#include "jobs/forget_st_mlx_gpt_oss.hpp"

#include "anamnesis/error.hpp"
#include "kernels/fp4/fp4_kernels.hpp"
#include "plan/layout_recipes.hpp"
#include "plan/quant_groups.hpp"
#include "plan/schemes/scheme.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;
namespace f4 = amn::kernels::fp4;

// Stored rows of one projection: output row r = (e, j) is stored row
// e·R + parity + stride·j of blocks [E, R, G, 16] / scales [E, R, G].
struct RowMap {
    u64 E = 0, R = 0, G = 0, stride = 1, parity = 0;
    u64 rows() const { return E * (R / stride); }
    u64 stored(u64 r) const {
        const u64 per = R / stride;
        return (r / per) * R + parity + stride * (r % per);
    }
};

class ExpertGroups final : public detail::QuantGroups {
public:
    ExpertGroups(const TensorInfo& b, const TensorInfo& s, const std::uint8_t* bd, const std::uint8_t* sd, RowMap m)
        : b_(b), s_(s), bd_(bd), sd_(sd), m_(m) {
        tr_.kind = Kind::Mxfp4;
        tr_.bits = 4;
        tr_.group = 32;
        tr_.param_dtype = DType::U8;
        tr_.what = "gpt-oss MXFP4";
    }
    const Traits& traits() const noexcept override { return tr_; }
    u64 rows() const override { return m_.rows(); }
    u64 row_elems() const override { return m_.G * 32; }
    void read(u64 row0, u64 n, std::uint8_t* codes, float*, float*, std::uint8_t* sb) const override {
        if (row0 > rows() || n > rows() - row0) throw Error(ErrorCode::OutOfRange, "rows out of range", {}, b_.name);
        const u64 G = m_.G;
        for (u64 k = 0; k < n; ++k) {
            const u64 src = m_.stored(row0 + k);
            if (codes) {
                const std::uint8_t* p = bd_ + src * G * 16;
                std::uint8_t* c = codes + k * G * 32;
                for (u64 i = 0; i < G * 16; ++i) c[2 * i] = p[i] & 15, c[2 * i + 1] = p[i] >> 4;
            }
            if (sb) std::copy(sd_ + src * G, sd_ + (src + 1) * G, sb + k * G);
        }
    }
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override {
        if (row0 + n < rows()) return {};
        return {{b_.shard, b_.offset, b_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }

private:
    const TensorInfo& b_;
    const TensorInfo& s_;
    const std::uint8_t* bd_;
    const std::uint8_t* sd_;
    RowMap m_;
    Traits tr_;
};


// One projection's experts as [E·rows, K] in stored (not transposed) order.
class ExpertRecipe final : public detail::QuantRecipe {
public:
    ExpertRecipe(const Catalog& cat, const TensorInfo& b, const TensorInfo& s, RowMap m)
        : QuantRecipe(detail::gpt_oss_mxfp4_params(false)), groups_(std::make_shared<ExpertGroups>(b, s, cat.data(b), cat.data(s), m)),
          b_(b), s_(s), bd_(cat.data(b)), sd_(cat.data(s)), m_(m) {}
    u64 rows() const override { return m_.rows(); }
    u64 row_elems() const override { return m_.G * 32; }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override {
        return {{b_.shard, b_.offset, b_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }
    void dequantize_rows(u64 row0, u64 nrows, float* out) const override {
        const u64 G = m_.G;
        std::vector<float> sc(G);
        for (u64 k = 0; k < nrows; ++k) {
            const u64 src = m_.stored(row0 + k);
            for (u64 g = 0; g < G; ++g) sc[g] = f4::e8m0_value(sd_[src * G + g]);
            f4::e2m1_groups(bd_ + src * G * 16, sc.data(), 16, true, DType::F32, out + k * G * 32, G);
        }
    }
    std::shared_ptr<const detail::QuantGroups> quant_groups() const override { return groups_; }

private:
    std::shared_ptr<const detail::QuantGroups> groups_;
    const TensorInfo& b_;
    const TensorInfo& s_;
    const std::uint8_t* bd_;
    const std::uint8_t* sd_;
    RowMap m_;
};

// Every stride-th element of each row of `inner` ([E, n]), from `parity`: [E, n / stride].
class ColumnRecipe final : public Recipe {
public:
    ColumnRecipe(std::shared_ptr<const Recipe> inner, u64 E, u64 n, u64 stride, u64 parity)
        : in_(std::move(inner)), E_(E), n_(n), stride_(stride), parity_(parity) {}
    std::string describe() const override { return in_->describe() + ", every other column (mlx-lm gpt_oss sanitize)"; }
    std::string scheme_id() const override { return in_->scheme_id(); }
    u64 rows() const override { return E_; }
    u64 row_elems() const override { return n_ / stride_; }
    std::optional<DType> lossless_dtype() const override { return in_->lossless_dtype(); }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return in_->inputs(); }
    void dequantize_rows(u64 row0, u64 nrows, float* out) const override {
        std::vector<float> all(in_->rows() * in_->row_elems());
        in_->dequantize_rows(0, in_->rows(), all.data());
        for (u64 k = 0; k < nrows; ++k)
            for (u64 j = 0; j < n_ / stride_; ++j) out[k * (n_ / stride_) + j] = all[(row0 + k) * n_ + parity_ + stride_ * j];
    }
    void copy_rows(u64 row0, u64 nrows, std::uint8_t* out) const override {
        const u64 w = dtype_bytes(*in_->lossless_dtype(), 1).value_or(0);
        std::vector<std::uint8_t> all(in_->rows() * in_->row_elems() * w);
        in_->copy_rows(0, in_->rows(), all.data());
        for (u64 k = 0; k < nrows; ++k)
            for (u64 j = 0; j < n_ / stride_; ++j)
                std::copy_n(all.data() + ((row0 + k) * n_ + parity_ + stride_ * j) * w, w, out + (k * (n_ / stride_) + j) * w);
    }

private:
    std::shared_ptr<const Recipe> in_;
    u64 E_, n_, stride_, parity_;
};

}  // namespace

bool gpt_oss_expert_weight(const std::string& name) {
    if (!name.starts_with("model.layers.")) return false;
    for (std::string_view p : {".mlp.experts.gate_proj.weight", ".mlp.experts.up_proj.weight", ".mlp.experts.down_proj.weight"})
        if (name.ends_with(p)) return true;
    return false;
}

MlxParams gpt_oss_expert_params() {
    MlxParams p;
    p.mode = MlxMode::Mxfp4;
    p.bits = 4;
    p.group_size = 32;
    p.scale_dtype = DType::U8;
    return p;
}

Plan gpt_oss_sanitize(const Catalog& cat, const Plan& plan) {
    Plan out = plan;
    out.tensors.clear();
    for (const auto& lt : plan.tensors) {
        const bool gate_up = lt.name.ends_with(".mlp.experts.gate_up_proj"), down = lt.name.ends_with(".mlp.experts.down_proj");
        const bool gate_up_bias = lt.name.ends_with(".mlp.experts.gate_up_proj_bias");
        const std::string base = lt.name.substr(0, lt.name.rfind('.') + 1);  // "model.layers.N.mlp.experts."
        if ((gate_up || down) && lt.error.empty()) {
            if (!lt.quantized || lt.sources.size() != 2)
                throw Error(ErrorCode::Malformed, "mlx-lm's gpt_oss takes the experts as MXFP4 _blocks and _scales", "", lt.name);
            const TensorInfo& b = cat.tensors.at(lt.sources[0]);
            const TensorInfo& s = cat.tensors.at(lt.sources[1]);
            if (b.shape.size() != 4 || b.dtype != DType::U8 || s.dtype != DType::U8 || b.shape[3] != 16 ||
                s.shape != std::vector<u64>(b.shape.begin(), b.shape.end() - 1) || (gate_up && b.shape[1] % 2))
                throw Error(ErrorCode::Malformed,
                            "mlx-lm's gpt_oss takes " + b.name + " as U8 [E, rows, in/32, 16] (rows even for gate_up_proj) and " +
                                s.name + " as U8 [E, rows, in/32]; they are " + shape_to_string(b.shape) + " and " + shape_to_string(s.shape),
                            "", lt.name);
            const u64 E = b.shape[0], R = b.shape[1], G = b.shape[2];
            auto add = [&](const std::string& name, u64 stride, u64 parity) {
                LogicalTensor t = lt;
                t.name = base + name + ".weight";
                t.shape = {E, R / stride, G * 32};
                t.stored_bytes = lt.stored_bytes / stride;
                t.recipe = std::make_shared<ExpertRecipe>(cat, b, s, RowMap{E, R, G, stride, parity});
                out.tensors.push_back(std::move(t));
            };
            if (gate_up) add("gate_proj", 2, 0), add("up_proj", 2, 1);
            else add("down_proj", 1, 0);
            continue;
        }
        if (gate_up_bias && lt.error.empty() && lt.recipe) {
            if (lt.shape.size() != 2 || lt.shape[1] % 2 || lt.recipe->rows() * lt.recipe->row_elems() != lt.numel())
                throw Error(ErrorCode::Malformed, "mlx-lm's gpt_oss splits gate_up_proj_bias [E, 2·intermediate]; it is " +
                                                      shape_to_string(lt.shape), "", lt.name);
            for (u64 parity : {0, 1}) {
                LogicalTensor t = lt;
                t.name = base + (parity ? "up_proj.bias" : "gate_proj.bias");
                t.shape = {lt.shape[0], lt.shape[1] / 2};
                t.stored_bytes = lt.stored_bytes / 2;
                t.recipe = std::make_shared<ColumnRecipe>(lt.recipe, lt.shape[0], lt.shape[1], 2, parity);
                out.tensors.push_back(std::move(t));
            }
            continue;
        }
        LogicalTensor t = lt;
        if (lt.name.ends_with(".mlp.experts.down_proj_bias")) t.name = base + "down_proj.bias";
        out.tensors.push_back(std::move(t));
    }
    return out;
}

Plan gpt_oss_unsanitize(const Plan& plan) {
    // name → index, for the partners of a gate_proj.
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) at.emplace(plan.tensors[i].name, i);
    auto find = [&](const std::string& n) -> const LogicalTensor* {
        const auto it = at.find(n);
        const LogicalTensor* t = it == at.end() ? nullptr : &plan.tensors[it->second];
        return t && t->recipe && t->error.empty() ? t : nullptr;
    };
    std::vector<bool> used(plan.tensors.size(), false);
    Plan out = plan;
    out.tensors.clear();
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        if (used[i]) continue;
        const bool layer = lt.name.starts_with("model.layers.");
        const std::string base = lt.name.substr(0, lt.name.find(".mlp.experts.") + 13);
        auto join = [&](const LogicalTensor& g, const LogicalTensor* u, std::string name, bool weight) {
            LogicalTensor t = g;
            t.name = std::move(name);
            const u64 E = g.shape[0], rows = weight ? g.shape[1] : 1, cols = weight ? g.shape[2] : g.shape[1];
            std::vector<detail::JoinPart> parts{{g.recipe, rows, cols, !weight}};
            if (u) {
                parts.push_back({u->recipe, rows, cols, !weight});
                t.sources.insert(t.sources.end(), u->sources.begin(), u->sources.end());
                t.stored_bytes += u->stored_bytes;
                t.quantized = g.quantized || u->quantized;
                used[at.at(u->name)] = true;
            }
            const u64 n = u ? 2 : 1;
            // weights: (rows interleaved)ᵀ → [E, cols, n·rows]; biases: [E, n·cols] (each a 1 × cols block).
            t.shape = weight ? std::vector<u64>{E, cols, n * rows} : std::vector<u64>{E, n * cols};
            t.recipe = detail::make_group_join_recipe(std::move(parts), E, u != nullptr, true,
                                                      "gpt-oss experts in transformers' layout (mlx-lm gpt_oss sanitize undone)");
            out.tensors.push_back(std::move(t));
        };
        const bool three = lt.shape.size() == 3, two = lt.shape.size() == 2;
        // An up_proj whose gate_proj is there: joined where the gate_proj is.
        for (std::string_view p : {"weight", "bias"})
            if (layer && lt.name == base + "up_proj." + std::string(p) && lt.shape.size() == (p == "weight" ? 3u : 2u))
                if (const auto* g = find(base + "gate_proj." + std::string(p)); g && g->shape == lt.shape && lt.recipe) used[i] = true;
        if (used[i]) continue;
        if (layer && three && lt.recipe && lt.name.ends_with(".mlp.experts.gate_proj.weight")) {
            if (const auto* u = find(base + "up_proj.weight"); u && u->shape == lt.shape) {
                join(lt, u, base + "gate_up_proj", true);
                continue;
            }
        } else if (layer && two && lt.recipe && lt.name.ends_with(".mlp.experts.gate_proj.bias")) {
            if (const auto* u = find(base + "up_proj.bias"); u && u->shape == lt.shape) {
                join(lt, u, base + "gate_up_proj_bias", false);
                continue;
            }
        } else if (layer && three && lt.recipe && lt.name.ends_with(".mlp.experts.down_proj.weight")) {
            join(lt, nullptr, base + "down_proj", true);
            continue;
        } else if (layer && two && lt.name.ends_with(".mlp.experts.down_proj.bias")) {
            LogicalTensor t = lt;
            t.name = base + "down_proj_bias";
            out.tensors.push_back(std::move(t));
            continue;
        }
        out.tensors.push_back(lt);
    }
    return out;
}

}  // namespace amn::forget_st_internal
