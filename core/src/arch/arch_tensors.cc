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

std::optional<std::string> filter_tensor_name(const ArchRow& row, std::string_view hf_name) {
    std::string name(hf_name);
    auto replace_all = [&](std::string_view from, std::string_view to) {
        for (std::size_t p = 0; (p = name.find(from, p)) != std::string::npos; p += to.size()) name.replace(p, from.size(), to);
    };
    if ((row.hparams == HparamsRule::Gemma || row.hparams == HparamsRule::Gemma2) && hf_name == "lm_head.weight")
        return std::nullopt;  // GemmaModel / Gemma2Model.filter_tensors
    if (row.hparams == HparamsRule::GptOss && hf_name.find("sinks") != std::string_view::npos) name += ".weight";
    if (row.hparams == HparamsRule::NomicBert && name.find("mlp.experts.bias") != std::string::npos)
        return std::nullopt;  // NomicBertModel.filter_tensors, then BertModel's
    if (row.hparams == HparamsRule::ModernBert && name.starts_with("model.")) name.erase(0, 6);  // ModernBertModel's, then BertModel's
    if (row.hparams == HparamsRule::Bert || row.hparams == HparamsRule::NomicBert || row.hparams == HparamsRule::ModernBert) {
        if (name.starts_with("bert.")) name.erase(0, 5);
        if (name.ends_with(".gamma")) name.replace(name.size() - 6, 6, ".weight");
        if (name.ends_with(".beta")) name.replace(name.size() - 5, 5, ".bias");
        if (name == "embeddings.position_ids" || name == "pooler.dense.weight" || name == "pooler.dense.bias" ||
            name.starts_with("cls.predictions") || name.starts_with("cls.seq_relationship"))
            return std::nullopt;
    }
    if (row.hparams == HparamsRule::Deepseek2 &&  // DeepseekV2Model.filter_tensors: the OCR vision encoders
        (hf_name.find("sam_model") != std::string_view::npos || hf_name.find("qwen2_model") != std::string_view::npos))
        return std::nullopt;
    if ((row.hparams == HparamsRule::Granite || row.hparams == HparamsRule::GraniteMoe) &&  // GraniteModel.filter_tensors
        (hf_name.starts_with("encoder.") || hf_name.find("image_") != std::string_view::npos ||
         hf_name.find("layerwise_projectors") != std::string_view::npos || hf_name.find("spatial_projectors") != std::string_view::npos))
        return std::nullopt;
    if (row.hparams == HparamsRule::Ernie4_5Moe) {  // Ernie4_5MoeModel.filter_tensors: the MTP tensors, before the rename
        // re.match(r"model.mtp_block.(\d+)", name) and its three siblings: '.' is any character.
        for (std::string_view p : {"model.mtp_block.", "model.mtp_emb_norm.", "model.mtp_hidden_norm.", "model.mtp_linear_proj."}) {
            if (hf_name.size() <= p.size()) continue;
            bool match = hf_name[p.size()] >= '0' && hf_name[p.size()] <= '9';
            for (std::size_t i = 0; match && i < p.size(); ++i) match = p[i] == '.' || hf_name[i] == p[i];
            if (match) return std::nullopt;
        }
    }
    if (row.hparams == HparamsRule::Lfm2) {  // LFM2Model.filter_tensors: ConformerAudioModel.is_audio_tensor, then lfm. → model.
        for (std::string_view p : {"audio", "codebook", "conformer", "depth_embedding", "depthformer", "depth_linear"})
            if (hf_name.find(p) != std::string_view::npos) return std::nullopt;
        replace_all("lfm.", "model.");
    }
    if (row.hparams == HparamsRule::Ernie4_5 || row.hparams == HparamsRule::Ernie4_5Moe)
        replace_all("ernie.", "model.");  // Ernie4_5Model.filter_tensors
    if (row.gguf == "qwen2vl" || row.gguf == "qwen3vl" || row.gguf == "qwen3vlmoe") {  // Qwen2VLModel / Qwen3VL*TextModel.filter_tensors
        if (row.gguf != "qwen2vl" || name.starts_with("thinker.")) replace_all("thinker.", "");
    }
    if (row.hparams == HparamsRule::Llama || row.hparams == HparamsRule::Granite || row.hparams == HparamsRule::Mistral3 ||
        row.hparams == HparamsRule::Arcee || row.hparams == HparamsRule::GraniteMoe || row.hparams == HparamsRule::Llama4)
        replace_all("text_model.", "");  // LlamaModel.filter_tensors (SmolVLM); its subclasses too
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

std::vector<std::uint64_t> falcon_qkv_source_rows(std::uint64_t n_head, std::uint64_t n_kv_head, std::uint64_t head_dim) {
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
    auto b = integer(required(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"}), "num_hidden_layers", file_);
    if (row.hparams == HparamsRule::Glm4Moe)  // Glm4MoeModel: + the NextN layers (a block each)
        if (auto n = cfg.get("num_nextn_predict_layers"); n && !n->is_null()) b += integer(*n, "num_nextn_predict_layers", file_);
    block_count_ = b > 0 ? static_cast<std::uint64_t>(b) : 0;
    // hparams.get(k) as a positive int, 0 when absent, null or not positive.
    auto opt_u = [&](std::string_view k) -> std::uint64_t {
        auto v = cfg.get(k);
        if (!v || v->is_null()) return 0;
        const auto n = integer(*v, k, file_);
        return n > 0 ? static_cast<std::uint64_t>(n) : 0;
    };
    if (row.hparams == HparamsRule::GraniteMoe) {  // GraniteMoeModel.modify_tensors
        moe_ff_ = opt_u("intermediate_size");
        shared_ff_ = opt_u("shared_intermediate_size");
        has_experts_ = opt_u("num_local_experts") != 0;
    }
    if (row.hparams == HparamsRule::Falcon) {  // FalconModel.modify_tensors (query_key_value)
        n_head_ = static_cast<std::uint64_t>(integer(required(cfg, {"num_attention_heads", "n_head"}), "num_attention_heads", file_));
        n_kv_head_ = 1;  // find_hparam([num_kv_heads, n_head_kv], optional=True) or 1
        if (auto v = detail::optional_hp(cfg, {"num_kv_heads", "n_head_kv"}))
            if (const auto n = integer(*v, "num_kv_heads", file_); n != 0) n_kv_head_ = static_cast<std::uint64_t>(n);
        if (n_head_)
            falcon_head_dim_ = static_cast<std::uint64_t>(integer(required(cfg, {"hidden_size"}), "hidden_size", file_)) / n_head_;
    }
    if (row.hparams == HparamsRule::Ernie4_5) {  // Ernie4_5Model.modify_tensors reads these for every tensor
        n_head_ = static_cast<std::uint64_t>(integer(required(cfg, {"num_attention_heads"}), "num_attention_heads", file_));
        n_kv_head_ = static_cast<std::uint64_t>(integer(required(cfg, {"num_key_value_heads"}), "num_key_value_heads", file_));
        if (auto hd = cfg.get("head_dim"); hd && !hd->is_null()) head_dim_ = static_cast<std::uint64_t>(integer(*hd, "head_dim", file_));
        else if (n_head_)
            head_dim_ = static_cast<std::uint64_t>(integer(required(cfg, {"hidden_size"}), "hidden_size", file_)) / n_head_;
    }
    if (row.permute_qk) {
        n_head_ = static_cast<std::uint64_t>(integer(required(cfg, {"n_heads", "num_attention_heads"}), "num_attention_heads", file_));
        n_kv_head_ = static_cast<std::uint64_t>(integer(required(cfg, {"n_kv_heads", "num_key_value_heads"}), "num_key_value_heads", file_));
    }
    if (row.hparams == HparamsRule::Deepseek2 || row.hparams == HparamsRule::HunYuanDense) {
        auto t = cfg.get("tie_word_embeddings");
        tied_ = t && ((t->is_bool() && bool(*t)) || (t->is_number() && double(*t) != 0));
    }
    if (row.hparams == HparamsRule::Deepseek2) {
        mla_kv_heads_ = opt_u("num_key_value_heads");
        mla_v_ = opt_u("v_head_dim");
        mla_nope_ = opt_u("qk_nope_head_dim");
    }
    if (row.experts == ExpertRule::Deepseek2) {
        if (auto v = cfg.get("n_routed_experts"); v && !v->is_null())
            n_experts_ = static_cast<std::uint64_t>(integer(*v, "n_routed_experts", file_));
    }
    if (row.experts == ExpertRule::Ernie4_5Moe) {
        if (auto v = cfg.get("moe_num_experts"); v && !v->is_null())
            n_experts_ = static_cast<std::uint64_t>(integer(*v, "moe_num_experts", file_));
    }
    if (row.experts == ExpertRule::Mixtral) {
        if (auto v = cfg.get("num_local_experts"); v && !v->is_null())
            n_experts_ = static_cast<std::uint64_t>(integer(*v, "num_local_experts", file_));
    } else if (row.experts == ExpertRule::Qwen2Moe) {
        if (auto v = detail::optional_hp(cfg, {"num_local_experts", "num_experts"}))
            n_experts_ = static_cast<std::uint64_t>(integer(*v, "num_experts", file_));
    }
}

std::vector<MappedTensor> TensorMapper::one(std::string name, std::string_view hf_source, std::vector<std::uint64_t> shape,
                                            TensorTransform tr) const {
    auto g = map_tensor_name(row_, block_count_, name);
    if (!g) cannot_map(hf_source, file_);
    MappedTensor t;
    t.name = std::move(*g);
    t.shape = std::move(shape);
    t.sources = {std::string(hf_source)};
    t.transform = tr;
    return {std::move(t)};
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
            const std::uint64_t nh = q || n_head_ == n_kv_head_ ? n_head_ : n_kv_head_;
            const std::uint64_t rows = shape.empty() ? 0 : shape[0];
            if (nh == 0 || rows % nh != 0 || (rows / nh) % 2 != 0)
                throw Error(ErrorCode::Malformed,
                            std::to_string(rows) + " rows do not split into " + std::to_string(nh) + " heads of an even size",
                            file_, name);
            tr = {TensorTransform::Kind::PermuteQK, nh, 0, 0};
        }
    }
    if (row_.hparams == HparamsRule::GraniteMoe && bid) {  // GraniteMoeModel.modify_tensors: JetMoE's fused w1|w3
        const std::string b = std::to_string(*bid);
        auto halves = [&](std::uint64_t ff, const char* what, std::string_view gate, std::string_view up) {
            if (shape.size() < 2 || shape[shape.size() - 2] != 2 * ff)
                throw Error(ErrorCode::Malformed, std::string("merged FFN tensor rows must be 2 × ") + what, file_, name);
            auto half = shape;
            half[half.size() - 2] = ff;
            auto out = one("blk." + b + "." + std::string(gate) + ".weight", hf_name, half, {TensorTransform::Kind::SliceDim1, 0, 0, ff});
            auto u = one("blk." + b + "." + std::string(up) + ".weight", hf_name, half, {TensorTransform::Kind::SliceDim1, 0, ff, 2 * ff});
            out.push_back(std::move(u.front()));
            return out;
        };
        if (name.ends_with("block_sparse_moe.input_linear.weight"))
            return halves(moe_ff_, "intermediate_size", "ffn_gate_exps", "ffn_up_exps");
        if (name.ends_with("shared_mlp.input_linear.weight"))
            return has_experts_ ? halves(shared_ff_, "shared_intermediate_size", "ffn_gate_shexp", "ffn_up_shexp")
                                : halves(shared_ff_, "shared_intermediate_size", "ffn_gate", "ffn_up");
        if (!has_experts_ && name.ends_with("shared_mlp.output_linear.weight"))
            return one("blk." + b + ".ffn_down.weight", hf_name, std::move(shape), tr);
    }
    if (row_.hparams == HparamsRule::Lfm2 && name.find("conv.conv") != std::string::npos && shape.size() > 1 && shape[1] == 1)
        shape.erase(shape.begin() + 1);  // LFM2Model.modify_tensors: squeeze(1), the bytes unchanged
    // Llama4Model.modify_tensors / Qwen3VLMoeTextModel.modify_tensors: fused experts [E, in, out] transposed.
    const bool qwen3vlmoe = row_.hparams == HparamsRule::Qwen3VLMoe;
    if (row_.hparams == HparamsRule::Llama4 || qwen3vlmoe) {
        auto replace = [](std::string s, std::string_view from, std::string_view to) {
            if (auto p = s.find(from); p != std::string::npos) s.replace(p, from.size(), to);
            return s;
        };
        // Qwen3-VL-MoE: names ending "mlp.experts.gate_up_proj" (or ".weight"); Llama 4: any containing "gate_up_proj".
        if (qwen3vlmoe ? name.ends_with("mlp.experts.gate_up_proj") || name.ends_with("mlp.experts.gate_up_proj.weight")
                       : name.find("gate_up_proj") != std::string::npos) {  // [E, H, 2F] → [E, 2F, H] → gate rows [0, F), up [F, 2F)
            if (shape.size() != 3 || shape[2] % 2)
                throw Error(ErrorCode::Malformed, "gate_up_proj is not [experts, hidden, 2 × intermediate]", file_, name);
            const std::uint64_t ff = shape[2] / 2;
            const std::vector<std::uint64_t> half{shape[0], ff, shape[1]};
            const std::string base = qwen3vlmoe ? name.substr(0, name.rfind("gate_up_proj")) : std::string();
            auto out = one(qwen3vlmoe ? base + "gate_proj.weight" : replace(name, "gate_up_proj", "gate_proj.weight"), hf_name, half,
                           {TensorTransform::Kind::ExpertTransposeRows, 0, 0, ff});
            auto up = one(qwen3vlmoe ? base + "up_proj.weight" : replace(name, "gate_up_proj", "up_proj.weight"), hf_name, half,
                          {TensorTransform::Kind::ExpertTransposeRows, 0, ff, 2 * ff});
            out.push_back(std::move(up.front()));
            return out;
        }
        const bool down = qwen3vlmoe ? name.ends_with("mlp.experts.down_proj") || name.ends_with("mlp.experts.down_proj.weight")
                                     : name.ends_with("down_proj");
        if (down) {  // [E, F, H] → [E, H, F]
            if (shape.size() != 3)
                throw Error(ErrorCode::Malformed, "experts.down_proj is not [experts, intermediate, hidden]", file_, name);
            return one(name.ends_with(".weight") ? name : name + ".weight", hf_name, {shape[0], shape[2], shape[1]},
                       {TensorTransform::Kind::ExpertTransposeRows, 0, 0, shape[2]});
        }
    }
    if (row_.hparams == HparamsRule::Falcon && name.find("query_key_value") != std::string::npos) {
        const std::uint64_t hd = falcon_head_dim_;
        if (n_kv_head_ == 0 || n_head_ % n_kv_head_ != 0 || shape.size() != 2 || shape[0] != (n_head_ + 2 * n_kv_head_) * hd ||
            shape[1] != n_head_ * hd)
            throw Error(ErrorCode::Malformed,
                        "query_key_value is not [(n_head + 2 × n_kv_heads) × head_dim, hidden_size] = [" +
                            std::to_string((n_head_ + 2 * n_kv_head_) * hd) + ", " + std::to_string(n_head_ * hd) +
                            "] with n_kv_heads dividing n_head (the converter's view fails)",
                        file_, name);
        TensorTransform rq{TensorTransform::Kind::RegroupQkv, n_head_, 0, 0, n_kv_head_, hd};
        return one(std::move(name), hf_name, std::move(shape), rq);
    }
    if (row_.hparams == HparamsRule::Ernie4_5) {  // Ernie4_5Model.modify_tensors: fused projections split by rows
        auto split = [&](std::string_view fused, std::initializer_list<std::pair<std::string_view, std::uint64_t>> parts) {
            std::uint64_t total = 0;
            for (auto& p : parts) total += p.second;
            if (shape.size() != 2 || shape[0] != total)
                throw Error(ErrorCode::Malformed, std::string(fused) + " rows are not " + std::to_string(total), file_, name);
            const std::string base = name.substr(0, name.size() - fused.size() - 7);  // "….self_attn." / "….mlp."
            std::vector<MappedTensor> out;
            std::uint64_t at = 0;
            for (auto& [part, rows] : parts) {
                auto t = one(base + std::string(part) + ".weight", hf_name, {rows, shape[1]},
                             {TensorTransform::Kind::SliceDim1, 0, at, at + rows});
                out.push_back(std::move(t.front()));
                at += rows;
            }
            return out;
        };
        if (name.find("qkv_proj") != std::string::npos && name.ends_with("qkv_proj.weight"))
            return split("qkv_proj", {{"q_proj", n_head_ * head_dim_}, {"k_proj", n_kv_head_ * head_dim_},
                                      {"v_proj", n_kv_head_ * head_dim_}});
        if (name.find("up_gate_proj") != std::string::npos && name.ends_with("up_gate_proj.weight")) {
            if (shape.empty() || shape[0] % 2) throw Error(ErrorCode::Malformed, "up_gate_proj rows do not halve", file_, name);
            return split("up_gate_proj", {{"gate_proj", shape[0] / 2}, {"up_proj", shape[0] / 2}});  // gate first
        }
    }
    if (row_.hparams == HparamsRule::HunYuanDense && tied_ && name == "lm_head.weight") return {};  // HunYuanModel.modify_tensors
    if (row_.hparams == HparamsRule::Deepseek2) {  // DeepseekV2Model.modify_tensors
        if (tied_ && (name == "lm_head.weight" || name == "model.lm_head.weight")) return {};
        if (name.starts_with("model.layers.")) {  // Multi-Token Prediction layers past num_hidden_layers
            std::uint64_t b = 0;
            std::size_t i = 13, n0 = 13;
            while (i < name.size() && name[i] >= '0' && name[i] <= '9' && b < (std::uint64_t{1} << 40)) b = b * 10 + (name[i++] - '0');
            if (i > n0 && b >= block_count_) return {};
        }
        if (name.ends_with("kv_b_proj.weight")) {
            const std::uint64_t nh = mla_kv_heads_, v = mla_v_, nope = mla_nope_;
            if (!nh || !v || !nope)
                throw Error(ErrorCode::Malformed,
                            "config.json needs num_key_value_heads, v_head_dim and qk_nope_head_dim to split kv_b_proj", file_, name);
            if (shape.size() != 2 || shape[0] != nh * (v + nope))
                throw Error(ErrorCode::Malformed,
                            "kv_b_proj rows are not num_key_value_heads × (v_head_dim + qk_nope_head_dim) = " +
                                std::to_string(nh * (v + nope)),
                            file_, name);
            const std::string base = name.substr(0, name.size() - std::string_view("kv_b_proj.weight").size());
            auto out = one(base + "k_b_proj.weight", hf_name, {nh, shape[1], nope}, {TensorTransform::Kind::HeadRowsTransposed, nh, 0, nope});
            auto vb = one(base + "v_b_proj.weight", hf_name, {nh, v, shape[1]}, {TensorTransform::Kind::HeadRows, nh, nope, nope + v});
            out.push_back(std::move(vb.front()));
            return out;
        }
    }
    if (row_.hparams == HparamsRule::GptOss) {  // GptOssModel.modify_tensors
        auto replace = [](std::string s, std::string_view from, std::string_view to) {
            if (auto p = s.find(from); p != std::string::npos) s.replace(p, from.size(), to);
            return s;
        };
        const bool packed = name.find("_blocks") != std::string::npos || name.find("_scales") != std::string::npos;
        if (name.find("down_proj") != std::string::npos) {
            if (name.ends_with("_bias")) name = replace(name, "down_proj_bias", "down_proj.bias");
            else if (packed) return {};  // repacked to GGUF MXFP4 before the other tensors (hf_to_gguf.cc)
            else {
                if (shape.size() < 2) throw Error(ErrorCode::Malformed, "expected an [experts, in, out] tensor", file_, name);
                name = replace(name, "down_proj", "down_proj.weight");
                std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
                tr = {TensorTransform::Kind::ExpertTransposeStrided, 1, 0, 0};
            }
        }
        if (name.find("gate_up_proj") != std::string::npos) {
            if (packed) return {};
            const bool bias = name.ends_with("_bias");
            if (shape.size() < (bias ? 1u : 2u) || shape.back() % 2)
                throw Error(ErrorCode::Malformed, "gate_up_proj does not split into gate and up halves", file_, name);
            std::vector<std::uint64_t> half = shape;
            const auto kind = bias ? TensorTransform::Kind::StridedCols : TensorTransform::Kind::ExpertTransposeStrided;
            if (bias) half.back() /= 2;
            else {
                half[half.size() - 1] = shape[shape.size() - 2];
                half[half.size() - 2] = shape.back() / 2;
            }
            const std::string gate = bias ? replace(name, "gate_up_proj_bias", "gate_proj.bias") : replace(name, "gate_up_proj", "gate_proj.weight");
            const std::string up = bias ? replace(name, "gate_up_proj_bias", "up_proj.bias") : replace(name, "gate_up_proj", "up_proj.weight");
            auto out = one(gate, hf_name, half, {kind, 2, 0, 0});
            auto u = one(up, hf_name, half, {kind, 2, 1, 0});
            out.push_back(std::move(u.front()));
            return out;
        }
        return one(std::move(name), hf_name, std::move(shape), tr);
    }
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
        if (n_experts_ == 0)
            throw Error(ErrorCode::Malformed,
                        row_.experts == ExpertRule::Mixtral     ? "config.json has no key 'num_local_experts'"
                        : row_.experts == ExpertRule::Deepseek2 ? "config.json has no key 'n_routed_experts'"
                        : row_.experts == ExpertRule::Ernie4_5Moe ? "config.json has no key 'moe_num_experts'"
                                                                : "config.json has no key 'num_local_experts / num_experts'",
                        file_, name);
        if (!bid || *bid >= block_count_) throw Error(ErrorCode::Malformed, "expert tensor outside the blocks", file_, name);
        auto& buf = experts_[*bid];
        auto it = std::find_if(buf.begin(), buf.end(), [&](const Buffered& b) { return b.name == name; });
        if (it != buf.end()) it->shape = shape;
        else buf.push_back({name, shape});
        if (buf.size() < n_experts_ * 3) return {};
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
            for (std::uint64_t x = 0; x < n_experts_; ++x) {
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
            auto g = map_tensor_name(row_, block_count_, merged);
            if (!g) cannot_map(merged, file_);
            t.name = *g;
            t.shape = part_shape;
            t.shape.insert(t.shape.begin(), n_experts_);
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
