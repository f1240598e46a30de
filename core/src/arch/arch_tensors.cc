// SPDX-License-Identifier: MIT OR Apache-2.0
// HF tensor names → GGUF (gguf-py TensorNameMap over the generated data),
// the converter classes' modify_tensors (Q/K permutation, GPT-2 transposes,
// expert stacking), tensor order and the output type rule (base.py
// prepare_tensors).
#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"
#include "arch/arch_values.hpp"

#include "util/json_dom.hpp"
#include "tokenizer/spm_vocab.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace amn::arch {
namespace {

bool row_has(const ArchRow& row, TensorKind k) {
    return std::find(row.kinds.begin(), row.kinds.end(), k) != row.kinds.end();
}

/// Does `key` equal template `tpl` with "{bid}" replaced by str(bid) for some
/// bid < n_blocks? Returns that bid (0 for templates without "{bid}").
std::optional<std::uint64_t> match_template(std::string_view tpl, std::string_view key, std::uint64_t n_blocks) {
    const auto p = tpl.find("{bid}");
    if (p == std::string_view::npos) return tpl == key ? std::optional<std::uint64_t>(0) : std::nullopt;
    const std::string_view pre = tpl.substr(0, p), post = tpl.substr(p + 5);
    if (key.size() <= pre.size() + post.size() || !key.starts_with(pre) || !key.ends_with(post)) return std::nullopt;
    const std::string_view digits = key.substr(pre.size(), key.size() - pre.size() - post.size());
    if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // str(int) has no leading zeros
    std::uint64_t b = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), b);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || b >= n_blocks) return std::nullopt;
    if (post.find("{bid}") != std::string_view::npos) return std::nullopt;
    return b;
}

std::string format_bid(std::string_view tpl, std::uint64_t bid) {
    std::string s(tpl);
    if (auto p = s.find("{bid}"); p != std::string::npos) s.replace(p, 5, std::to_string(bid));
    return s;
}

/// TensorNameMap.mapping.get(key): the last row (dict overwrite order) that claims it.
std::optional<std::string> lookup(const ArchRow& row, std::uint64_t n_blocks, std::string_view key) {
    const auto rows = tensor_kind_rows();
    // Block rows are inserted after all non-block rows (for every bid in turn,
    // a given key only arises from one bid), so search them last-first, then the rest.
    for (int pass = 0; pass < 2; ++pass) {
        const bool block = pass == 0;
        for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
            if (it->block != block || !row_has(row, it->kind)) continue;
            if (block && n_blocks == 0) continue;
            // Within one row the GGUF name itself is inserted first, then the aliases.
            for (auto a = it->hf_aliases.rbegin(); a != it->hf_aliases.rend(); ++a)
                if (auto b = block ? match_template(*a, key, n_blocks) : (*a == key ? std::optional<std::uint64_t>(0) : std::nullopt))
                    return format_bid(it->gguf, *b);
            if (auto b = block ? match_template(it->gguf, key, n_blocks) : (it->gguf == key ? std::optional<std::uint64_t>(0) : std::nullopt))
                return format_bid(it->gguf, *b);
        }
    }
    return std::nullopt;
}

/// base.py prepare_tensors: "use the first number-like part of the tensor name as the block id".
std::optional<std::uint64_t> block_id(std::string_view name) {
    std::size_t i = 0;
    while (i <= name.size()) {
        std::size_t j = name.find('.', i);
        if (j == std::string_view::npos) j = name.size();
        const std::string_view part = name.substr(i, j - i);
        if (!part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            std::uint64_t b = 0;
            auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), b);
            if (ec == std::errc()) return b;
        }
        i = j + 1;
    }
    return std::nullopt;
}

bool ends_with_any(std::string_view s, std::initializer_list<std::string_view> ends) {
    for (auto e : ends)
        if (s.ends_with(e)) return true;
    return false;
}

[[noreturn]] void cannot_map(std::string_view name, const std::string& file) {
    throw Error(ErrorCode::Unsupported, "cannot map this tensor to a GGUF name", file, std::string(name));
}

}  // namespace

// ---- names -------------------------------------------------------------------------------

std::optional<std::string> filter_tensor_name(const ArchRow& row, std::string_view hf_name, const HfConfig* cfg) {
    std::string name(hf_name);
    auto replace_all = [&](std::string_view from, std::string_view to) {
        for (std::size_t p = 0; (p = name.find(from, p)) != std::string::npos; p += to.size()) name.replace(p, from.size(), to);
    };
    if (row.tensors && row.tensors->filter && !row.tensors->filter(name)) return std::nullopt;  // the class's own
    // TextModel.filter_tensors: multimodal parts are dropped.
    const std::string_view n = name;
    static constexpr std::string_view kPrefixes[] = {"mlp", "vit.", "vpm.", "siglip2.", "conformer.", "merger.", "resampler.",
                                                     "sound_encoder.", "sound_projection.", "speech_embeddings."};
    static constexpr std::string_view kInfixes[] = {
        "visual.", "vision.", "audio.", "talker.", "vision_", "audio_", "token2wav.", "code2wav.", "projector.",
        "pre_mm_projector_norm", "image_newline", "view_seperator", "patch_embed", "patch_embedding", "patch_merger.",
        "patch_merge_mlp.", "model.connector."};
    for (auto p : kPrefixes)
        if (n.starts_with(p)) return std::nullopt;
    for (auto s : kInfixes)
        if (n.find(s) != std::string_view::npos) return std::nullopt;
    // ModelBase.filter_tensors.
    if (name.ends_with("e_score_correction_bias"))
        replace_all("e_score_correction_bias", "e_score_correction.bias");
    replace_all("language_model.", "");
    if (row.tensors && row.tensors->filter_cfg && !row.tensors->filter_cfg(name, cfg)) return std::nullopt;  // after TextModel's
    return name;
}

std::optional<std::string> map_tensor_name(const ArchRow& row, std::uint64_t block_count, std::string_view name) {
    if (auto r = lookup(row, block_count, name)) return r;
    for (std::string_view suffix : {std::string_view(".weight"), std::string_view(".bias")})
        if (name.ends_with(suffix))
            if (auto r = lookup(row, block_count, name.substr(0, name.size() - suffix.size()))) return *r + std::string(suffix);
    return std::nullopt;
}

std::uint64_t llama_permute_source_row(std::uint64_t gguf_row, std::uint64_t rows, std::uint64_t n_head) {
    if (n_head == 0 || rows % n_head != 0 || (rows / n_head) % 2 != 0)
        throw Error(ErrorCode::Malformed,
                    std::to_string(rows) + " rows do not split into " + std::to_string(n_head) + " heads of an even size");
    if (gguf_row >= rows) throw Error(ErrorCode::OutOfRange, "row " + std::to_string(gguf_row) + " of " + std::to_string(rows));
    const std::uint64_t d = rows / n_head, half = d / 2;
    const std::uint64_t h = gguf_row / d, rem = gguf_row % d;
    const std::uint64_t j = rem / 2, s = rem % 2;
    return h * d + s * half + j;
}

std::vector<std::uint64_t> qkv_regroup_source_rows(std::uint64_t n_head, std::uint64_t n_kv_head, std::uint64_t head_dim) {
    if (n_kv_head == 0 || n_head % n_kv_head != 0)
        throw Error(ErrorCode::Malformed,
                    std::to_string(n_head) + " query heads do not split into " + std::to_string(n_kv_head) + " KV groups");
    const std::uint64_t q_per = n_head / n_kv_head, group = (q_per + 2) * head_dim;
    std::vector<std::uint64_t> rows;
    rows.reserve((n_head + 2 * n_kv_head) * head_dim);
    for (std::uint64_t h = 0; h < n_head; ++h)  // q heads, group-major
        for (std::uint64_t r = 0; r < head_dim; ++r) rows.push_back((h / q_per) * group + (h % q_per) * head_dim + r);
    for (std::uint64_t part = 0; part < 2; ++part)  // the k heads, then the v heads
        for (std::uint64_t g = 0; g < n_kv_head; ++g)
            for (std::uint64_t r = 0; r < head_dim; ++r) rows.push_back(g * group + (q_per + part) * head_dim + r);
    return rows;
}

std::vector<std::uint64_t> qwen3next_qkvz_source_rows(std::uint64_t n_k_heads, std::uint64_t head_k_dim, std::uint64_t v_rows) {
    const std::uint64_t per_head = 2 * head_k_dim + 2 * v_rows;
    std::vector<std::uint64_t> rows;
    rows.reserve(n_k_heads * per_head);
    const std::uint64_t begin[4] = {0, head_k_dim, 2 * head_k_dim, 2 * head_k_dim + v_rows};
    const std::uint64_t size[4] = {head_k_dim, head_k_dim, v_rows, v_rows};
    for (int part = 0; part < 4; ++part)  // q, k, v, z: each head's part in head order
        for (std::uint64_t h = 0; h < n_k_heads; ++h)
            for (std::uint64_t j = 0; j < size[part]; ++j) rows.push_back(h * per_head + begin[part] + j);
    return rows;
}

std::vector<std::uint64_t> internlm2_qkv_source_rows(std::uint64_t n_head, std::uint64_t n_kv_head, std::uint64_t head_dim) {
    const auto all = qkv_regroup_source_rows(n_head, n_kv_head, head_dim);  // every q, every k, every v
    const std::uint64_t q = n_head * head_dim, k = n_kv_head * head_dim;
    std::vector<std::uint64_t> rows(all.size());
    for (std::uint64_t r = 0; r < q; ++r) rows[r] = all[llama_permute_source_row(r, q, n_head)];
    for (std::uint64_t r = 0; r < k; ++r) rows[q + r] = all[q + llama_permute_source_row(r, k, n_kv_head)];
    for (std::uint64_t r = q + k; r < all.size(); ++r) rows[r] = all[r];
    return rows;
}

// ---- modify_tensors ------------------------------------------------------------------------

std::uint64_t embedding_rows_kept(const HfConfig& cfg, const std::string& dir) {
    namespace fs = std::filesystem;
    if (fs::is_regular_file(fs::path(dir) / "tokenizer.model")) {
        if (const auto v = cfg.find(std::vector<std::string_view>{"vocab_size_per_layer_input", "vocab_size"}))
            if (!v->second.is_null()) {
                const std::int64_t n = detail::integer(v->second, v->first, cfg.file());
                if (n > 0) return static_cast<std::uint64_t>(n);
            }
        if (auto spm = tok::sentencepiece_vocab(dir, std::nullopt)) return spm->tokens.size();
        throw Error(ErrorCode::Malformed, "tokenizer.model could not be read", dir + "/tokenizer.model");
    }
    const std::string path = dir + "/tokenizer.json";
    const auto doc = amn::detail::JsonDoc::load(path, "tokenizer.json");
    auto count = [&](std::optional<simdjson::dom::element> e, const char* what) -> std::uint64_t {
        if (e && e->is_object()) return simdjson::dom::object(*e).size();
        if (e && e->is_array()) return simdjson::dom::array(*e).size();
        throw Error(ErrorCode::BadJson, std::string("tokenizer.json: '") + what + "' is not an object or a list", path);
    };
    const auto model = amn::detail::json_get(doc.root(), "model");
    if (!model || !model->is_object()) throw Error(ErrorCode::BadJson, "tokenizer.json has no 'model' object", path);
    return count(amn::detail::json_get(*model, "vocab"), "model.vocab") +
           count(amn::detail::json_get(doc.root(), "added_tokens"), "added_tokens");
}

TensorMapper::TensorMapper(const ArchRow& row, const HfConfig& cfg, const std::string& model_dir)
    : row_(row), file_(cfg.file()) {
    if (row.trim_embd_to_vocab && !model_dir.empty()) vocab_rows_ = embedding_rows_kept(cfg, model_dir);
    using detail::integer;
    using detail::required;
    if (row.hparams == HparamsRule::None)
        throw Error(ErrorCode::Unsupported, "no Hugging Face → GGUF conversion for architecture " + std::string(row.gguf),
                    file_);
    const auto b = integer(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", file_);
    hp_.block_count = b > 0 ? static_cast<std::uint64_t>(b) : 0;
    if (row.permute_qk) {
        hp_.n_head = static_cast<std::uint64_t>(integer(required(cfg, {"n_heads", "num_attention_heads"}), "num_attention_heads", file_));
        hp_.n_kv_head = static_cast<std::uint64_t>(integer(required(cfg, {"n_kv_heads", "num_key_value_heads"}), "num_key_value_heads", file_));
    }
    if (row.experts == ExpertRule::Deepseek2) {
        if (auto v = cfg.get("n_routed_experts"); v && !v->is_null())
            hp_.n_experts = static_cast<std::uint64_t>(integer(*v, "n_routed_experts", file_));
    }
    if (row.experts == ExpertRule::Ernie4_5Moe) {
        if (auto v = cfg.get("moe_num_experts"); v && !v->is_null())
            hp_.n_experts = static_cast<std::uint64_t>(integer(*v, "moe_num_experts", file_));
    }
    if (row.experts == ExpertRule::Mixtral) {
        if (auto v = cfg.get("num_local_experts"); v && !v->is_null())
            hp_.n_experts = static_cast<std::uint64_t>(integer(*v, "num_local_experts", file_));
    } else if (row.experts == ExpertRule::Qwen2Moe) {
        if (auto v = detail::optional_hp(cfg, {"num_local_experts", "num_experts"}))
            hp_.n_experts = static_cast<std::uint64_t>(integer(*v, "num_experts", file_));
    }
    if (row.tensors && row.tensors->read) row.tensors->read(hp_, cfg);  // the class's own
    if (row.tensors && row.tensors->read_dir) row.tensors->read_dir(hp_, cfg, model_dir);
}

std::vector<MappedTensor> ClassTensorCtx::one(std::string name, std::string_view hf_source, std::vector<std::uint64_t> shape,
                                              TensorTransform tr) const {
    auto g = map_tensor_name(row, hp.block_count, name);
    if (!g) cannot_map(hf_source, file);
    MappedTensor t;
    t.name = std::move(*g);
    t.shape = std::move(shape);
    t.sources = {std::string(hf_source)};
    t.transform = tr;
    return {std::move(t)};
}

std::vector<MappedTensor> TensorMapper::one(std::string name, std::string_view hf_source, std::vector<std::uint64_t> shape,
                                            TensorTransform tr) const {
    return ClassTensorCtx{row_, file_, hp_}.one(std::move(name), hf_source, std::move(shape), tr);
}

std::vector<MappedTensor> TensorMapper::add(std::string_view hf_name, std::span<const std::uint64_t> shape_in) {
    // prepare_tensors: "we don't need these"
    if (ends_with_any(hf_name, {".attention.masked_bias", ".attention.bias", ".rotary_emb.inv_freq"})) return {};
    const auto bid = block_id(hf_name);
    std::vector<std::uint64_t> shape(shape_in.begin(), shape_in.end());
    std::string name(hf_name);
    TensorTransform tr;

    if (row_.permute_qk) {  // LlamaModel.modify_tensors
        const bool q = ends_with_any(name, {"q_proj.weight", "q_proj.bias"});
        const bool k = ends_with_any(name, {"k_proj.weight", "k_proj.bias"});
        if (q || k) {
            const std::uint64_t nh = q || hp_.n_head == hp_.n_kv_head ? hp_.n_head : hp_.n_kv_head;
            const std::uint64_t rows = shape.empty() ? 0 : shape[0];
            if (nh == 0 || rows % nh != 0 || (rows / nh) % 2 != 0)
                throw Error(ErrorCode::Malformed,
                            std::to_string(rows) + " rows do not split into " + std::to_string(nh) + " heads of an even size",
                            file_, name);
            tr = {TensorTransform::Kind::PermuteQK, nh, 0, 0};
        }
    }
    if (row_.tensors && row_.tensors->modify)  // the class's own modify_tensors
        if (auto out = row_.tensors->modify(ClassTensorCtx{row_, file_, hp_}, name, hf_name, shape, tr, bid)) return std::move(*out);
    if (row_.norm_plus_one && name.ends_with("norm.weight"))  // Gemma*Model.modify_tensors
        tr = {TensorTransform::Kind::AddOne, 0, 0, 0};
    if (vocab_rows_ && name.find("embed_tokens.weight") != std::string::npos && !shape.empty() && *vocab_rows_ < shape[0]) {
        tr = {TensorTransform::Kind::LeadingRows, 0, 0, *vocab_rows_};  // Gemma3Model: data_torch[:n_vocab_real]
        shape[0] = *vocab_rows_;
    }
    if (row_.transpose_conv1d && !ends_with_any(name, {".attn.bias", ".attn.masked_bias"}) &&
        ends_with_any(name, {".c_attn.weight", ".c_proj.weight", ".c_fc.weight"})) {  // GPT2Model.modify_tensors
        if (shape.size() != 2) throw Error(ErrorCode::Malformed, "expected a 2-D Conv1D weight", file_, name);
        std::swap(shape[0], shape[1]);
        tr = {TensorTransform::Kind::Transpose, 0, 0, 0};
    }

    // Expert merging.
    bool expert = false;
    if (row_.experts == ExpertRule::Mixtral) expert = name.find("block_sparse_moe.experts") != std::string::npos;
    if (row_.experts == ExpertRule::Deepseek2 || row_.experts == ExpertRule::Ernie4_5Moe)
        expert = name.find("mlp.experts") != std::string::npos;
    if (row_.experts == ExpertRule::Qwen2Moe) {
        if (name.ends_with("mlp.experts.down_proj") || name.ends_with("mlp.experts.down_proj.weight")) {
            std::string mapped = name.ends_with(".weight") ? name : name + ".weight";
            return one(std::move(mapped), hf_name, std::move(shape), tr);
        }
        if (name.ends_with("mlp.experts.gate_up_proj") || name.ends_with("mlp.experts.gate_up_proj.weight")) {
            if (shape.size() < 3 || shape[shape.size() - 2] % 2 != 0)
                throw Error(ErrorCode::Malformed, "unexpected gate_up_proj shape", file_, name);
            std::string base = name;
            if (base.ends_with(".weight")) base.resize(base.size() - 7);
            base.resize(base.size() - std::string_view(".gate_up_proj").size());
            const std::uint64_t n_ff = shape[shape.size() - 2] / 2;
            auto half = shape;
            half[half.size() - 2] = n_ff;
            auto out = one(base + ".gate_proj.weight", hf_name, half, {TensorTransform::Kind::SliceDim1, 0, 0, n_ff});
            auto up = one(base + ".up_proj.weight", hf_name, half, {TensorTransform::Kind::SliceDim1, 0, n_ff, 2 * n_ff});
            out.push_back(std::move(up.front()));
            return out;
        }
        expert = name.find("experts") != std::string::npos;
    }
    if (expert) {
        if (hp_.n_experts == 0)
            throw Error(ErrorCode::Malformed,
                        row_.experts == ExpertRule::Mixtral     ? "config.json has no key 'num_local_experts'"
                        : row_.experts == ExpertRule::Deepseek2 ? "config.json has no key 'n_routed_experts'"
                        : row_.experts == ExpertRule::Ernie4_5Moe ? "config.json has no key 'moe_num_experts'"
                                                                : "config.json has no key 'num_local_experts / num_experts'",
                        file_, name);
        if (!bid || *bid >= hp_.block_count) throw Error(ErrorCode::Malformed, "expert tensor outside the blocks", file_, name);
        auto& buf = experts_[*bid];
        auto it = std::find_if(buf.begin(), buf.end(), [&](const Buffered& b) { return b.name == name; });
        if (it != buf.end()) it->shape = shape;
        else buf.push_back({name, shape});
        if (buf.size() < hp_.n_experts * 3) return {};
        const bool mixtral = row_.experts == ExpertRule::Mixtral;
        static constexpr std::string_view kMixtral[] = {"w1", "w2", "w3"};
        static constexpr std::string_view kQwen[] = {"down_proj", "gate_proj", "up_proj"};
        static constexpr std::string_view kErnie[] = {"gate_proj", "up_proj", "down_proj"};
        const std::string_view* order = mixtral ? kMixtral : row_.experts == ExpertRule::Ernie4_5Moe ? kErnie : kQwen;
        std::vector<MappedTensor> out;
        const std::string b = std::to_string(*bid);
        for (int w = 0; w < 3; ++w) {
            const std::string_view wid = order[w];
            MappedTensor t;
            std::vector<std::uint64_t> part_shape;
            for (std::uint64_t x = 0; x < hp_.n_experts; ++x) {
                const std::string ename = mixtral
                                              ? "model.layers." + b + ".block_sparse_moe.experts." + std::to_string(x) + "." + std::string(wid) + ".weight"
                                              : "model.layers." + b + ".mlp.experts." + std::to_string(x) + "." + std::string(wid) + ".weight";
                auto e = std::find_if(buf.begin(), buf.end(), [&](const Buffered& bb) { return bb.name == ename; });
                if (e == buf.end()) throw Error(ErrorCode::Malformed, "expert tensor missing for layer " + b, file_, ename);
                if (x == 0) part_shape = e->shape;
                else if (e->shape != part_shape)
                    throw Error(ErrorCode::Malformed, "experts of one layer differ in shape", file_, ename);
                t.sources.push_back(ename);
                buf.erase(e);
            }
            const std::string merged = mixtral ? "layers." + b + ".feed_forward.experts." + std::string(wid) + ".weight"
                                               : "model.layers." + b + ".mlp.experts." + std::string(wid) + ".weight";
            auto g = map_tensor_name(row_, hp_.block_count, merged);
            if (!g) cannot_map(merged, file_);
            t.name = *g;
            t.shape = part_shape;
            t.shape.insert(t.shape.begin(), hp_.n_experts);
            t.stacked = true;
            out.push_back(std::move(t));
        }
        return out;
    }
    return one(std::move(name), hf_name, std::move(shape), tr);
}

void TensorMapper::finish() const {
    std::string left;
    for (const auto& [bid, b] : experts_)
        for (const auto& e : b) left += (left.empty() ? "" : ", ") + e.name;
    if (!left.empty()) throw Error(ErrorCode::Malformed, "unprocessed experts: " + left, file_);
}

// ---- order -------------------------------------------------------------------------------

std::vector<std::size_t> converter_order(std::span<const HfTensorRef> refs) {
    std::vector<std::size_t> idx(refs.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        if (refs[a].file != refs[b].file) return refs[a].file < refs[b].file;
        return refs[a].name < refs[b].name;
    });
    return idx;
}

// ---- output type -------------------------------------------------------------------------

DType converter_type(const ArchRow& row, std::string_view name, std::span<const std::uint64_t> shape, DType outtype) {
    if (outtype != DType::F32 && outtype != DType::F16 && outtype != DType::BF16 && outtype != DType::Q8_0 &&
        outtype != DType::TQ1_0 && outtype != DType::TQ2_0)
        throw Error(ErrorCode::Usage, "the converter has no output type " + dtype_name(outtype));
    if (shape.size() <= 1 || name.ends_with("_norm.weight")) return DType::F32;
    // match_model_tensor_name(new_name, key, bid) for the kinds of the row, suffix ".weight".
    auto is_kind = [&](TensorKind k) {
        if (!row_has(row, k)) return false;
        const std::string_view tpl = tensor_kind_name(k);
        if (!name.ends_with(".weight")) return false;
        const std::string_view base = name.substr(0, name.size() - 7);
        return match_template(tpl, base, UINT64_MAX).has_value();
    };
    const std::string_view last7 = name.size() >= 7 ? name.substr(name.size() - 7) : name;
    if (std::any_of(forced_f32_kinds().begin(), forced_f32_kinds().end(), is_kind) ||
        (last7 != ".weight" && last7 != ".lora_a" && last7 != ".lora_b"))
        return DType::F32;
    if (outtype == DType::TQ1_0 || outtype == DType::TQ2_0) {
        if (std::any_of(ternary_f16_kinds().begin(), ternary_f16_kinds().end(), is_kind)) return DType::F16;
    }
    // gguf.quants.quantize: the last dimension must be a multiple of the block size, else F16.
    if (const DTypeInfo* i = dtype_info(outtype); i && i->is_quantized_block && shape.back() % i->block_elems != 0)
        return DType::F16;
    return outtype;
}

}  // namespace amn::arch
