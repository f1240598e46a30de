// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF → Hugging Face layout: tensor names, llama.cpp's Q/K permutation
// undone, Gemma's norm offset removed, stacked experts split per expert,
// GPT-2's Conv1D weights transposed back; config.json (plan/hf_config.cc).
#include "anamnesis/hf_layout.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/kernels.hpp"
#include "arch/arch_table.hpp"
#include "plan/hf_config.hpp"
#include "plan/layout_recipes.hpp"
#include "plan/quant_groups.hpp"
#include "tokenizer/hf_from_gguf.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <charconv>
#include <map>
#include <numbers>

namespace amn {
namespace {

constexpr std::uint64_t kMaxGatherWhole = 64ull << 20;  // elements decoded at once for odd row splits

// ---- architectures ---------------------------------------------------------------

/// The GGUF → HF facts of an architecture come from the shared table
/// (core/src/arch/arch_table.hpp): rows with canonical HF names.
using ArchInfo = arch::ArchRow;

const ArchInfo* find_arch(std::string_view a) noexcept {
    const arch::ArchRow* r = arch::find_gguf_arch(a);
    return r && !r->hf_names.empty() ? r : nullptr;
}

/// The rows whose way back is refused on purpose, and why: transformers has no text-only causal-LM class for
/// them (only the ForConditionalGeneration class, which would fill the vision tower this text GGUF lacks with
/// random weights), and the nearest text class would silently drop what the GGUF holds.
std::optional<std::string_view> no_text_class(std::string_view arch) {
    if (arch == "qwen2vl")
        return "transformers has no text-only class for Qwen2-VL / Qwen2.5-VL (Qwen2_5_VLForConditionalGeneration needs the "
               "vision tower this GGUF does not hold; Qwen2ForCausalLM would drop its M-RoPE sections)";
    if (arch == "qwen3vl")
        return "transformers has no text-only class for Qwen3-VL (Qwen3VLForConditionalGeneration needs the vision tower "
               "this GGUF does not hold; Qwen3ForCausalLM would drop its M-RoPE sections and deepstack layers)";
    if (arch == "qwen3vlmoe")
        return "transformers has no text-only class for Qwen3-VL-MoE (Qwen3VLMoeForConditionalGeneration needs the vision "
               "tower this GGUF does not hold; Qwen3MoeForCausalLM would drop its M-RoPE sections and deepstack layers)";
    return std::nullopt;
}

std::string supported_list() {
    std::string s;
    for (auto a : hf_layout_architectures()) s += (s.empty() ? "" : ", ") + std::string(a);
    return s;
}

/// "blk.12.attn_q.weight" → (12, "attn_q", "weight"); "blk.0.ssm_a" → (0, "ssm_a", "") (Mamba's A and D have
/// no suffix); nullopt otherwise.
struct BlockName {
    std::uint64_t layer;
    std::string_view part, suffix;
};
std::optional<BlockName> split_block_name(std::string_view n) {
    if (!n.starts_with("blk.")) return std::nullopt;
    n.remove_prefix(4);
    std::size_t i = 0;
    std::uint64_t layer = 0;
    while (i < n.size() && n[i] >= '0' && n[i] <= '9' && i < 9) layer = layer * 10 + static_cast<std::uint64_t>(n[i++] - '0');
    if (i == 0 || i >= n.size() || n[i] != '.') return std::nullopt;
    n.remove_prefix(i + 1);
    const auto dot = n.rfind('.');
    if (dot == std::string_view::npos && !n.empty()) return BlockName{layer, n, {}};
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    return BlockName{layer, n.substr(0, dot), n.substr(dot + 1)};
}

// ---- recipes ----------------------------------------------------------------------

std::size_t plain_elem_bytes(DType d) {
    const auto* i = dtype_info(d);
    return i && i->block_elems == 1 ? i->block_bytes : 0;
}

class RowGather final : public Recipe {
public:
    RowGather(std::shared_ptr<const Recipe> inner, std::vector<std::uint64_t> shape, std::vector<std::uint64_t> src)
        : inner_(std::move(inner)), src_(std::move(src)) {
        rows_ = shape.empty() ? 1 : shape[0];
        std::uint64_t n = 1;
        for (auto d : shape) n *= d;
        row_elems_ = rows_ ? n / rows_ : 0;
        if (src_.size() != rows_) throw Error(ErrorCode::Usage, "row gather: one source row per output row needed");
        for (auto s : src_)
            if (s >= rows_) throw Error(ErrorCode::OutOfRange, "row gather: source row out of range");
        const std::uint64_t ir = inner_->rows(), ie = inner_->row_elems();
        if (ie == row_elems_ && ir == rows_) per_ = 1;
        else if (ie && row_elems_ % ie == 0 && ir == rows_ * (row_elems_ / ie)) per_ = row_elems_ / ie;
        else if (n <= kMaxGatherWhole) per_ = 0;  // decode whole, then gather
        else throw Error(ErrorCode::Unsupported, "cannot reorder the rows of this tensor's storage");
    }
    std::string describe() const override { return inner_->describe() + ", Q/K rows un-permuted (llama.cpp → Hugging Face)"; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return row_elems_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        check(row0, nrows);
        if (per_ == 0) {
            std::vector<float> all(static_cast<std::size_t>(rows_ * row_elems_));
            inner_->dequantize_rows(0, inner_->rows(), all.data());
            for (std::uint64_t r = 0; r < nrows; ++r)
                std::memcpy(out + r * row_elems_, all.data() + src_[row0 + r] * row_elems_, row_elems_ * sizeof(float));
            return;
        }
        for (std::uint64_t r = 0; r < nrows; ++r) inner_->dequantize_rows(src_[row0 + r] * per_, per_, out + r * row_elems_);
    }
    std::optional<DType> lossless_dtype() const override {
        const auto d = inner_->lossless_dtype();
        return d && plain_elem_bytes(*d) ? d : std::nullopt;
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        check(row0, nrows);
        const std::size_t w = plain_elem_bytes(*lossless_dtype());
        const std::uint64_t rb = row_elems_ * w;
        if (per_ == 0) {
            std::vector<std::uint8_t> all(static_cast<std::size_t>(rows_ * rb));
            inner_->copy_rows(0, inner_->rows(), all.data());
            for (std::uint64_t r = 0; r < nrows; ++r) std::memcpy(out + r * rb, all.data() + src_[row0 + r] * rb, rb);
            return;
        }
        for (std::uint64_t r = 0; r < nrows; ++r) inner_->copy_rows(src_[row0 + r] * per_, per_, out + r * rb);
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::shared_ptr<const detail::QuantGroups> quant_groups() const override {
        auto g = per_ == 1 ? inner_->quant_groups() : nullptr;
        return g && g->rows() == rows_ ? detail::make_row_gather_groups(std::move(g), src_) : nullptr;
    }

private:
    void check(std::uint64_t row0, std::uint64_t nrows) const {
        if (row0 > rows_ || nrows > rows_ - row0) throw Error(ErrorCode::OutOfRange, "rows out of range");
    }
    std::shared_ptr<const Recipe> inner_;
    std::vector<std::uint64_t> src_;
    std::uint64_t rows_ = 0, row_elems_ = 0, per_ = 1;
};

/// Gemma norms: the stored value minus 1 (convert_hf_to_gguf stored w + 1).
class NormMinusOne final : public detail::ElementwiseRecipe {
public:
    explicit NormMinusOne(std::shared_ptr<const Recipe> inner)
        : ElementwiseRecipe(std::move(inner), "minus 1 (Gemma RMSNorm offset)") {}
    /// Stored F32/F16/BF16 keep their dtype (the result rounded to it).
    std::optional<DType> lossless_dtype() const override {
        const auto d = inner().lossless_dtype();
        if (d && (*d == DType::F32 || *d == DType::F16 || *d == DType::BF16)) return d;
        return std::nullopt;
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::uint64_t n = nrows * inner().row_elems();
        std::vector<float> f(static_cast<std::size_t>(n));
        dequantize_rows(row0, nrows, f.data());
        switch (*lossless_dtype()) {
            case DType::F32: std::memcpy(out, f.data(), n * 4); break;
            case DType::BF16: kernels::f32_to_bf16(f.data(), reinterpret_cast<std::uint16_t*>(out), n); break;
            default: kernels::f32_to_f16(f.data(), reinterpret_cast<std::uint16_t*>(out), n); break;
        }
    }

private:
    void apply(float* values, std::size_t n) const override {
        for (std::size_t i = 0; i < n; ++i) values[i] = values[i] - 1.0f;
    }
};

// ---- Llama 3 RoPE factors → rope_scaling ------------------------------------------

/// transformers' "llama3" rope_scaling rule (as convert_hf_to_gguf writes
/// rope_freqs): factor 1 for short wavelengths, `factor` for long ones,
/// smooth in between. Returns the factor when `stored` matches it for
/// low_freq_factor 1, high_freq_factor `hi` (Llama 3: 4; Llama 4: 1, no
/// smooth band), original context 8192.
std::optional<double> match_llama3_rope(const std::vector<float>& stored, double base, std::uint64_t dim, double hi) {
    if (stored.empty() || dim < 2 || stored.size() != dim / 2) return std::nullopt;
    const double factor = *std::max_element(stored.begin(), stored.end());
    const double lo = 1.0, old_ctx = 8192.0;
    const double lo_wl = old_ctx / lo, hi_wl = old_ctx / hi;
    for (std::size_t i = 0; i < stored.size(); ++i) {
        const float freq = static_cast<float>(1.0 / std::pow(base, static_cast<double>(static_cast<float>(2 * i) / static_cast<float>(dim))));
        const double wl = 2 * std::numbers::pi / freq;
        double want;
        if (wl < hi_wl) want = 1;
        else if (wl > lo_wl) want = factor;
        else {
            const double smooth = (old_ctx / wl - lo) / (hi - lo);
            want = 1 / ((1 - smooth) / factor + smooth);
        }
        if (std::fabs(static_cast<double>(stored[i]) - want) > 1e-5 * std::max(1.0, std::fabs(want))) return std::nullopt;
    }
    return factor;
}

}  // namespace

const std::vector<std::string_view>& hf_layout_architectures() noexcept {
    static const std::vector<std::string_view> v = [] {
        std::vector<std::string_view> r;
        for (const auto& a : arch::arch_rows())  // (bert twice: BertModel's and XLM-RoBERTa's rows)
            if (!a.hf_names.empty() && std::find(r.begin(), r.end(), a.gguf) == r.end()) r.push_back(a.gguf);
        return r;
    }();
    return v;
}

bool hf_layout_supported(std::string_view a) noexcept { return find_arch(a) != nullptr; }

namespace {

/// The HF name of GGUF tensor `n` and the table entry it comes from.
struct HfEntry {
    std::string name;
    const arch::HfTensorName* entry = nullptr;
};

/// "name.weight" / "name.bias" (or, for `bare` entries, "name" / "name_bias").
std::string with_suffix(std::string hf, std::string_view suffix, const arch::HfTensorName& h) {
    if (h.join.bare) return suffix == "weight" ? hf : hf + "_bias";
    if (suffix.empty()) return hf;  // a GGUF name without suffix (Mamba's ssm_a / ssm_d: A_log, D)
    // The router's correction bias is `…e_score_correction_bias` in HF (the converter's filter_tensors renames it).
    if (hf.ends_with(".e_score_correction") && suffix == "bias") return hf + "_bias";
    return hf + "." + std::string(suffix);
}

std::optional<HfEntry> hf_entry(const ArchInfo& A, std::string_view n) {
    // "name.weight" / "name.bias" (LayerNorms and projections with biases: GPT-2, StarCoder 2, Qwen2).
    for (const auto& h : A.hf_names) {
        const std::string_view tpl = arch::tensor_kind_name(h.kind);
        if (tpl.find("{bid}") != std::string_view::npos || !n.starts_with(tpl) || n.size() <= tpl.size() ||
            n[tpl.size()] != '.')
            continue;
        const std::string_view suffix = n.substr(tpl.size() + 1);
        if (suffix == "weight" || suffix == "bias") return HfEntry{with_suffix(std::string(h.hf), suffix, h), &h};
    }
    const auto b = split_block_name(n);
    if (!b || (b->suffix != "weight" && b->suffix != "bias" && !b->suffix.empty())) return std::nullopt;
    for (const auto& h : A.hf_names) {
        const std::string_view tpl = arch::tensor_kind_name(h.kind);
        if (!tpl.starts_with("blk.{bid}.") || tpl.substr(10) != b->part) continue;
        std::string hf(h.hf);
        if (auto p = hf.find("{bid}"); p != std::string::npos) hf.replace(p, 5, std::to_string(b->layer));
        return HfEntry{with_suffix(std::move(hf), b->suffix, h), &h};
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> hf_tensor_name(std::string_view arch, std::string_view n) {
    const ArchInfo* A = find_arch(arch);
    if (!A) return std::nullopt;
    auto e = hf_entry(*A, n);
    if (!e) return std::nullopt;
    return std::move(e->name);
}

std::uint64_t llama_unpermute_source_row(std::uint64_t hf_row, std::uint64_t rows, std::uint64_t n_head) {
    if (n_head == 0 || rows % n_head != 0 || (rows / n_head) % 2 != 0)
        throw Error(ErrorCode::Malformed, std::to_string(rows) + " rows do not split into " + std::to_string(n_head) +
                                              " heads of an even size");
    if (hf_row >= rows) throw Error(ErrorCode::OutOfRange, "row " + std::to_string(hf_row) + " of " + std::to_string(rows));
    const std::uint64_t d = rows / n_head, half = d / 2;
    const std::uint64_t h = hf_row / d, rem = hf_row % d;
    const std::uint64_t s = rem / half, j = rem % half;
    return h * d + 2 * j + s;
}

std::shared_ptr<const Recipe> make_row_gather_recipe(std::shared_ptr<const Recipe> inner, std::vector<std::uint64_t> shape,
                                                     std::vector<std::uint64_t> source_row) {
    return std::make_shared<RowGather>(std::move(inner), std::move(shape), std::move(source_row));
}

namespace {

/// Phi-3's rope_factors_long/short.weight values (1-D, F32 as the converter writes them).
std::vector<float> read_values(const LogicalTensor& lt, const Catalog& cat) {
    if (!lt.recipe) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
    const std::uint64_t n = lt.numel();
    if (n == 0 || n > (1u << 20)) throw Error(ErrorCode::Malformed, "unexpected size", cat.path, lt.name);
    std::vector<float> f(static_cast<std::size_t>(n));
    lt.recipe->dequantize_rows(0, lt.recipe->rows(), f.data());
    return f;
}

/// One HF tensor per expert from a stacked GGUF `ffn_*_exps` [E, R, C]: `hf` holds "{xid}".
void unstack_experts(const LogicalTensor& lt, const std::string& hf, const Catalog& cat, std::vector<LogicalTensor>& out) {
    if (lt.shape.size() != 3 || lt.shape[0] == 0)
        throw Error(ErrorCode::Malformed, "stacked experts must be 3-D [experts, rows, columns]", cat.path, lt.name);
    const std::uint64_t e_count = lt.shape[0];
    const std::uint64_t rows = lt.recipe ? lt.recipe->rows() : 0;
    if (lt.recipe && rows % e_count)
        throw Error(ErrorCode::Unsupported, "the stored rows do not split into " + std::to_string(e_count) + " experts",
                    cat.path, lt.name);
    const auto p = hf.find("{xid}");
    for (std::uint64_t e = 0; e < e_count; ++e) {
        LogicalTensor x = lt;
        x.name = hf.substr(0, p) + std::to_string(e) + hf.substr(p + 5);
        x.shape = {lt.shape[1], lt.shape[2]};
        x.stored_bytes = lt.stored_bytes / e_count;
        if (lt.recipe) {
            try {
                x.recipe = detail::make_row_range_recipe(lt.recipe, e * (rows / e_count), rows / e_count);
            } catch (const Error& err) {
                throw err.with_tensor(lt.name).with_file(cat.path);
            }
        }
        out.push_back(std::move(x));
    }
}

/// The GGUF tensors an HF tensor is joined from, as they arrive.
struct PendingJoin {
    std::vector<std::optional<LogicalTensor>> parts;
    std::vector<const arch::HfTensorName*> entries;
};

/// _QwenMtpMixin.filter_tensors undone: the blocks from `first` on (the MTP layers) back to `mtp.layers.{i}.…`,
/// and the MTP block's own fc / norms back to `mtp.fc`, `mtp.pre_fc_norm_embedding` / `_hidden`, `mtp.norm`.
void mtp_hf_names(std::vector<LogicalTensor>& tensors, std::uint64_t first) {
    static constexpr std::pair<std::string_view, std::string_view> kOwn[] = {
        {"eh_proj.", "fc."}, {"enorm.", "pre_fc_norm_embedding."}, {"hnorm.", "pre_fc_norm_hidden."}, {"shared_head.norm.", "norm."}};
    for (auto& t : tensors) {
        if (!t.name.starts_with("model.layers.")) continue;
        const std::size_t dot = t.name.find('.', 13);
        if (dot == std::string::npos) continue;
        std::uint64_t layer = 0;
        const auto [p, ec] = std::from_chars(t.name.data() + 13, t.name.data() + dot, layer);
        if (ec != std::errc() || p != t.name.data() + dot || layer < first) continue;
        std::string rest = t.name.substr(dot + 1);
        std::string to = "mtp.layers." + std::to_string(layer - first) + "." + rest;
        for (const auto& [from, own] : kOwn)
            if (layer == first && rest.starts_with(from)) to = "mtp." + std::string(own) + rest.substr(from.size());
        t.name = std::move(to);
    }
}

/// One HF tensor from its complete parts (arch::HfJoin): 3-D parts join per expert/head ([E, R, C] each),
/// 2-D weights as one block, 2-D biases ([E, F]: gpt-oss's experts) per expert along their columns.
LogicalTensor join_parts(const std::string& name, const PendingJoin& p, bool bias, const Catalog& cat) {
    const arch::HfJoin& j = p.entries[0]->join;
    const LogicalTensor& first = *p.parts[0];
    const std::size_t rank = first.shape.size();
    LogicalTensor out = first;
    out.name = name;
    out.sources.clear();
    out.stored_bytes = 0;
    std::vector<detail::JoinPart> parts;
    std::uint64_t groups = 0;
    const bool columns = rank == 2 && bias;
    for (std::size_t k = 0; k < p.parts.size(); ++k) {
        const LogicalTensor& lt = *p.parts[k];
        if (!lt.recipe) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
        if (lt.shape.size() != rank || rank < 2 || rank > 3)
            throw Error(ErrorCode::Malformed, "--layout hf: the parts of " + name + " must all be 2-D or all 3-D", cat.path, lt.name);
        const std::uint64_t g = rank == 3 || columns ? lt.shape[0] : 1;
        const std::uint64_t r = rank == 3 ? lt.shape[1] : columns ? 1 : lt.shape[0];
        const std::uint64_t c = lt.shape[rank - 1];
        if (k && g != groups)
            throw Error(ErrorCode::Malformed, "--layout hf: the parts of " + name + " differ in their first dimension", cat.path, lt.name);
        groups = g;
        parts.push_back({lt.recipe, r, c, columns || p.entries[k]->join.transpose});
        out.sources.insert(out.sources.end(), lt.sources.begin(), lt.sources.end());
        out.stored_bytes += lt.stored_bytes;
        out.quantized = out.quantized || lt.quantized;
    }
    std::string what = p.parts.size() > 1 ? "joined from" : "from";
    for (const auto& x : p.parts) what += " " + x->name;
    try {
        out.recipe = detail::make_group_join_recipe(std::move(parts), groups, j.interleave, columns || j.transpose_out,
                                                    first.recipe->describe() + ", " + what + " (the converter's split undone)");
    } catch (const Error& e) {
        throw e.with_tensor(first.name).with_file(cat.path);
    }
    const std::uint64_t r = out.recipe->rows() / groups, c = out.recipe->row_elems();
    out.shape = rank == 3 && !j.flatten ? std::vector<std::uint64_t>{groups, r, c}
                : columns              ? std::vector<std::uint64_t>{groups, r * c}
                                       : std::vector<std::uint64_t>{groups * r, c};
    return out;
}

/// A vocab-only GGUF: its tokenizer and generation files alone, whatever the architecture.
HfLayout vocab_only_layout(const Catalog& cat, const Plan& plan, const std::string& arch) {
    HfLayout res;
    res.vocab_only = true;
    res.architecture = arch;
    res.plan.notes = plan.notes;
    auto side = tok::hf_side_files(cat);
    bool tokenizer = false;
    for (const auto& [name, text] : side.files) tokenizer = tokenizer || name == "tokenizer.json";
    if (!tokenizer)
        throw Error(ErrorCode::Unsupported,
                    "--layout hf: a vocab-only GGUF (no tensors) whose tokenizer cannot be written: " +
                        (side.warnings.empty() ? std::string("no tokenizer.json") : side.warnings.front().detail),
                    cat.path);
    res.side_files = std::move(side.files);
    res.warnings = std::move(side.warnings);
    res.notes.push_back("a vocab-only GGUF (no tensors): the folder holds its tokenizer files alone");
    return res;
}

}  // namespace

HfLayout to_hf_layout(const Catalog& cat, const Plan& plan, std::optional<DType> out_dtype) {
    if (cat.format != Format::Gguf) throw Error(ErrorCode::Usage, "--layout hf needs a GGUF input", cat.path);
    const detail::GgufKeys kv(cat);
    const std::string arch = kv.str("general.architecture").value_or("");
    if (is_vocab_only_gguf(cat)) return vocab_only_layout(cat, plan, arch);
    const ArchInfo* A = find_arch(arch);
    if (const auto why = no_text_class(arch); !A && why)
        throw Error(ErrorCode::Unsupported, "--layout hf does not support the GGUF architecture '" + arch + "': " + std::string(*why),
                    cat.path);
    if (!A)
        throw Error(ErrorCode::Unsupported,
                    "--layout hf does not support the GGUF architecture '" + (arch.empty() ? std::string("(none)") : arch) +
                        "' (supported: " + supported_list() + ")",
                    cat.path);
    const std::string a(A->gguf);
    // XLMRobertaModel's `bert` (tokenizer.ggml.model "t5", the Unigram sentencepiece.bpe.model): its own row. The
    // converter cut the position rows before pad_token_id + 1 (never read by XLM-R: its positions start there);
    // they come back as zeros.
    // RobertaModel's `bert` (tokenizer.ggml.model "gpt2": its BPE tokenizer.json) likewise.
    detail::HfConfigFacts facts;
    const std::string tokenizer_model = a == "bert" ? kv.str("tokenizer.ggml.model").value_or("") : "";
    if (tokenizer_model == "t5" || tokenizer_model == "gpt2") {
        A = arch::find_hf_arch(tokenizer_model == "t5" ? "XLMRobertaModel" : "RobertaModel");
        if (const auto pad = kv.num("tokenizer.ggml.padding_token_id"); pad && *pad >= 0)
            facts.position_offset = static_cast<std::uint64_t>(*pad) + 1;
    }
    const std::uint64_t position_offset = facts.position_offset;

    HfLayout res;
    res.architecture = arch;
    res.plan.roles = plan.roles;
    res.plan.companion_roles = plan.companion_roles;
    res.plan.schemes = plan.schemes;
    res.plan.notes = plan.notes;

    std::uint64_t heads = 0, kv_heads = 0;
    if (A->permute_qk) {
        heads = kv.required_u64(a + ".attention.head_count");
        kv_heads = kv.num(a + ".attention.head_count_kv") ? kv.required_u64(a + ".attention.head_count_kv") : heads;
    }
    facts.out_dtype = out_dtype;
    // Falcon: the 40B layout (ln_attn → attn_norm_2, ln_mlp → attn_norm) or 7B's input_layernorm; the fused
    // query_key_value back from all q, all k, all v to transformers' per-KV-group [q…, k, v] (GPT-NeoX, BLOOM: a
    // group per head, [q, k, v] per head, bias too).
    std::vector<std::uint64_t> qkv_rows;
    if (a == "falcon" || a == "gptneox" || a == "bloom") {
        for (const auto& lt : plan.tensors) facts.two_norms = facts.two_norms || lt.name.ends_with(".attn_norm_2.weight");
        const std::uint64_t nh = kv.required_u64(a + ".attention.head_count");
        const std::uint64_t nkv = a != "falcon" ? nh : kv.num(a + ".attention.head_count_kv") ? kv.required_u64(a + ".attention.head_count_kv") : 1;
        const std::uint64_t hidden = kv.required_u64(a + ".embedding_length");
        const auto fwd = arch::qkv_regroup_source_rows(nh, nkv, hidden / nh);  // GGUF row g = HF row fwd[g]
        qkv_rows.assign(fwd.size(), 0);
        for (std::uint64_t g = 0; g < fwd.size(); ++g) qkv_rows[fwd[g]] = g;
    }

    // InternLM2: q, k, v joined back into wqkv, then regrouped per KV group with the Q/K permutation undone.
    std::vector<std::uint64_t> wqkv_rows;
    if (a == "internlm2") {
        const std::uint64_t nh = kv.required_u64(a + ".attention.head_count");
        const std::uint64_t nkv = kv.num(a + ".attention.head_count_kv") ? kv.required_u64(a + ".attention.head_count_kv") : nh;
        const auto fwd = arch::internlm2_qkv_source_rows(nh, nkv, kv.required_u64(a + ".embedding_length") / nh);
        wqkv_rows.assign(fwd.size(), 0);
        for (std::uint64_t g = 0; g < fwd.size(); ++g) wqkv_rows[fwd[g]] = g;
    }

    // Qwen3-Next: in_proj_qkvz joined back from attn_qkv (every q, k, v) and attn_gate (every z), then regrouped
    // per key head as [q, k, v, z]; the MTP block's tensors renamed to mtp.* after the loop.
    std::vector<std::uint64_t> qkvz_rows;
    if (a == "qwen3next") {
        const std::uint64_t nk = kv.required_u64(a + ".ssm.group_count"), nv = kv.required_u64(a + ".ssm.time_step_rank");
        const std::uint64_t inner = kv.required_u64(a + ".ssm.inner_size");
        if (nv % nk != 0 || inner % nv != 0)
            throw Error(ErrorCode::Malformed, "--layout hf: the value heads do not split over the key heads (ssm.*)", cat.path);
        const auto fwd = arch::qwen3next_qkvz_source_rows(nk, kv.required_u64(a + ".ssm.state_size"), nv / nk * (inner / nv));
        qkvz_rows.assign(fwd.size(), 0);
        for (std::uint64_t g = 0; g < fwd.size(); ++g) qkvz_rows[fwd[g]] = g;
    }

    std::map<std::string, PendingJoin> joins;  // HF name → the parts seen so far
    for (const auto& lt : plan.tensors) {
        if (lt.name == "rope_freqs.weight" && (A->generated == arch::GeneratedRule::Llama3RopeFreqs || a == "mistral")) {
            // Llama 3 RoPE factors: no HF tensor; recovered as config rope_scaling.
            const std::vector<float> f = read_values(lt, cat);
            const double base = kv.num(a + ".rope.freq_base").value_or(10000.0);
            const auto dim = kv.num(a + ".rope.dimension_count");
            std::uint64_t rope_dim = dim ? static_cast<std::uint64_t>(*dim) : 0;
            if (!rope_dim) rope_dim = kv.required_u64(a + ".embedding_length") / kv.required_u64(a + ".attention.head_count");
            for (const double hi : {4.0, 1.0}) {
                facts.llama3_factor = match_llama3_rope(f, base, rope_dim, hi);
                facts.llama3_high = hi;
                if (facts.llama3_factor) break;
            }
            if (!facts.llama3_factor)
                throw Error(ErrorCode::Unsupported,
                            "RoPE factors that do not follow the Llama 3 rule (low 1, high 4 or 1, context 8192) have no "
                            "config.json equivalent",
                            cat.path, lt.name);
            for (auto s : lt.sources) res.plan.roles[s] = Role::Companion;
            res.plan.notes.push_back("rope_freqs.weight (Llama 3 RoPE factors) written as config.json rope_scaling");
            continue;
        }
        if (a == "phi3" && (lt.name == "rope_factors_long.weight" || lt.name == "rope_factors_short.weight")) {
            // Phi-3 LongRoPE factors: config.json rope_scaling long_factor / short_factor.
            (lt.name == "rope_factors_long.weight" ? facts.long_factor : facts.short_factor) = read_values(lt, cat);
            for (auto s : lt.sources) res.plan.roles[s] = Role::Companion;
            continue;
        }
        auto entry = hf_entry(*A, lt.name);
        if (!entry)
            throw Error(ErrorCode::Unsupported,
                        "no Hugging Face name for this tensor in architecture '" + arch + "' (--layout hf)", cat.path, lt.name);
        const std::string* hf = &entry->name;
        if (lt.name == "output.weight") facts.tied = false;
        const auto b = split_block_name(lt.name);
        if (b && b->suffix == "bias" && (b->part == "attn_q" || b->part == "attn_k" || b->part == "attn_v"))
            facts.attention_bias = true;
        if (b && b->part == "attn_q_norm") facts.qk_norm = true;
        if (entry->entry->join.parts) {  // joined with others (or transposed alone): emitted when complete
            PendingJoin& p = joins[*hf];
            const auto& j = entry->entry->join;
            if (p.parts.empty()) p.parts.resize(j.parts), p.entries.resize(j.parts);
            if (j.part >= p.parts.size() || p.parts[j.part])
                throw Error(ErrorCode::Malformed, "--layout hf: a second tensor for part " + std::to_string(j.part) + " of " + *hf,
                            cat.path, lt.name);
            p.parts[j.part] = lt;
            p.entries[j.part] = entry->entry;
            if (std::all_of(p.parts.begin(), p.parts.end(), [](const auto& x) { return x.has_value(); })) {
                LogicalTensor joined = join_parts(*hf, p, b && b->suffix == "bias", cat);
                if (!wqkv_rows.empty() && b && b->suffix == "weight" && (b->part == "attn_q" || b->part == "attn_k" || b->part == "attn_v")) {
                    if (joined.shape.size() != 2 || joined.shape[0] != wqkv_rows.size())
                        throw Error(ErrorCode::Malformed,
                                    "--layout hf: attn_q, attn_k and attn_v of " + std::to_string(wqkv_rows.size()) +
                                        " rows in all ((head_count + 2 × head_count_kv) × head size) were expected",
                                    cat.path, lt.name);
                    joined.recipe = make_row_gather_recipe(joined.recipe, joined.shape, wqkv_rows);
                }
                if (!qkvz_rows.empty() && b && (b->part == "attn_qkv" || b->part == "attn_gate")) {
                    if (joined.shape.size() != 2 || joined.shape[0] != qkvz_rows.size())
                        throw Error(ErrorCode::Malformed,
                                    "--layout hf: attn_qkv and attn_gate of " + std::to_string(qkvz_rows.size()) +
                                        " rows in all (ssm.group_count × (2 × ssm.state_size) + 2 × ssm.inner_size) were expected",
                                    cat.path, lt.name);
                    joined.recipe = make_row_gather_recipe(joined.recipe, joined.shape, qkvz_rows);
                }
                res.plan.tensors.push_back(std::move(joined));
                joins.erase(*hf);
            }
            continue;
        }
        if (hf->find("{xid}") != std::string::npos) {
            facts.experts = true;
            unstack_experts(lt, *hf, cat, res.plan.tensors);
            continue;
        }
        LogicalTensor out = lt;
        out.name = *hf;
        if (facts.two_norms && b && b->part == "attn_norm")  // Falcon-40B: attn_norm is ln_mlp
            out.name = "transformer.h." + std::to_string(b->layer) + ".ln_mlp." + std::string(b->suffix);
        if (out.recipe && !qkv_rows.empty() && b && b->part == "attn_qkv") {
            const bool bias = b->suffix == "bias" && a != "falcon";
            if (!(b->suffix == "weight" || bias) || out.shape.size() != (bias ? 1u : 2u) || out.shape[0] != qkv_rows.size())
                throw Error(ErrorCode::Malformed,
                            "a query_key_value " + std::string(b->suffix) + " of " + std::to_string(qkv_rows.size()) +
                                " rows ((head_count + 2 × head_count_kv) × head size) was expected",
                            cat.path, lt.name);
            out.recipe = make_row_gather_recipe(out.recipe, out.shape, qkv_rows);
        }
        if (out.recipe && A->permute_qk && b && (b->part == "attn_q" || b->part == "attn_k")) {
            const std::uint64_t nh = b->part == "attn_q" ? heads : kv_heads;
            const std::uint64_t rows = out.shape.empty() ? 1 : out.shape[0];
            std::vector<std::uint64_t> src(static_cast<std::size_t>(rows));
            try {
                for (std::uint64_t r = 0; r < rows; ++r) src[r] = llama_unpermute_source_row(r, rows, nh);
                out.recipe = make_row_gather_recipe(out.recipe, out.shape, std::move(src));
            } catch (const Error& e) {
                throw e.with_tensor(lt.name).with_file(cat.path);
            }
        }
        // GPT-2's Conv1D stores [in, out]: the converter transposed c_attn / c_proj / c_fc weights.
        if (out.recipe && A->transpose_conv1d && b && b->suffix == "weight" && out.shape.size() == 2 &&
            (b->part == "attn_qkv" || b->part == "attn_output" || b->part == "ffn_up" || b->part == "ffn_down")) {
            out.recipe = detail::make_transpose_recipe(out.recipe, out.shape[0], out.shape[1]);
            std::swap(out.shape[0], out.shape[1]);
        }
        // LFM2: the converter squeezed conv.conv [C, 1, K] to [C, K] (shape only).
        if (a == "lfm2" && b && b->part == "shortconv.conv" && b->suffix == "weight" && out.shape.size() == 2)
            out.shape.insert(out.shape.begin() + 1, 1);
        if (out.recipe && position_offset && lt.name == "position_embd.weight" && out.shape.size() == 2) {
            out.recipe = detail::make_zero_rows_before_recipe(out.recipe, position_offset);
            out.shape[0] += position_offset;
        }
        // Mamba: conv1d [C, K] back to [C, 1, K]; A back to an A_log the converter's -torch.exp turns into it;
        // Mamba-2's A and D [H, 1] back to [H], its norm [groups, inner / groups] to [inner] (shapes only).
        const bool ssm = a == "mamba" || a == "mamba2" || a == "qwen3next";
        if (ssm && b && b->part == "ssm_conv1d" && b->suffix == "weight" && out.shape.size() == 2)
            out.shape.insert(out.shape.begin() + 1, 1);
        if (out.recipe && ssm && b && b->part == "ssm_a") out.recipe = detail::make_neg_exp_inverse_recipe(out.recipe);
        if (a == "mamba2" && b && (b->part == "ssm_a" || b->part == "ssm_d" || b->part == "ssm_norm") && out.shape.size() == 2)
            out.shape = {out.shape[0] * out.shape[1]};
        if (out.recipe && (A->norm_plus_one || (a == "qwen3next" && !out.name.ends_with("linear_attn.norm.weight"))) &&
            out.name.ends_with("norm.weight"))
            out.recipe = std::make_shared<NormMinusOne>(out.recipe);
        res.plan.tensors.push_back(std::move(out));
    }
    if (!joins.empty())
        throw Error(ErrorCode::Malformed,
                    "--layout hf: " + joins.begin()->first + " is joined from " +
                        std::to_string(joins.begin()->second.parts.size()) + " GGUF tensors and not all of them are present",
                    cat.path);
    if (a == "qwen3next") {
        const std::uint64_t blocks = kv.required_u64(a + ".block_count");
        const auto nextn = kv.num(a + ".nextn_predict_layers");
        mtp_hf_names(res.plan.tensors, blocks - std::min<std::uint64_t>(blocks, nextn ? static_cast<std::uint64_t>(*nextn) : 0));
    }
    if (facts.long_factor.size() != facts.short_factor.size())
        throw Error(ErrorCode::Malformed, "rope_factors_long.weight and rope_factors_short.weight differ in length", cat.path);
    res.hf_class = std::string(detail::hf_class_for(*A, kv, facts.experts));
    // The classifier classes keep their encoder under `roberta.` (bge-reranker-v2-m3, RoBERTa cross-encoders) /
    // `bert.` (BERT cross-encoders).
    if (const bool roberta = res.hf_class == "XLMRobertaForSequenceClassification" ||
                             res.hf_class == "RobertaForSequenceClassification";
        roberta || res.hf_class == "BertForSequenceClassification")
        for (auto& t : res.plan.tensors)
            if (!t.name.starts_with("classifier")) t.name = (roberta ? "roberta." : "bert.") + t.name;
    if (a == "llama4" || a == "mistral3")
        res.notes.push_back("written as " + res.hf_class + ", the text model: the GGUF holds no vision tower (" +
                            (a == "llama4" ? "Llama4" : "Mistral3") + "ForConditionalGeneration needs one)");
    if (a == "gpt-oss" && std::any_of(res.plan.tensors.begin(), res.plan.tensors.end(),
                                      [](const LogicalTensor& t) { return t.quantized && t.name.find(".experts.") != std::string::npos; }))
        res.notes.push_back("the MXFP4 experts are written dequantized (transformers' gate_up_proj / down_proj layout)");
    res.config_json = detail::hf_config_json(*A, kv, facts);
    auto side = tok::hf_side_files(cat);
    res.side_files = std::move(side.files);
    for (auto& file : detail::embedding_side_files(*A, kv)) res.side_files.push_back(std::move(file));
    res.warnings = std::move(side.warnings);
    std::string unread;
    for (const auto& k : kv.unread(a + ".")) unread += (unread.empty() ? "" : ", ") + k;
    if (!unread.empty()) res.warnings.push_back(Notice{.kind = NoticeKind::KeysNotCarried, .key = arch, .detail = unread});
    return res;
}


}  // namespace amn
