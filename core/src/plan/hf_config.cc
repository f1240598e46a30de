// SPDX-License-Identifier: MIT OR Apache-2.0
// config.json of the GGUF → Hugging Face layout: each `{arch}.*` key/value
// back under the config.json key transformers reads for the model type —
// the inverse of core/src/arch/arch_hparams.cc (TextModel, LlamaModel,
// Qwen2MoeModel, Phi3MiniModel, GPT2Model, Gemma2/3Model, GraniteModel,
// Olmo2Model, OlmoeModel of convert_hf_to_gguf.py at 34af94c).
#include "plan/hf_config.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/metadata.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace amn::detail {

std::optional<std::string> GgufKeys::str(std::string_view key) const {
    read_.insert(std::string(key));
    const MetaValue* v = cat_.meta(key);
    if (!v || !v->is_string()) return std::nullopt;
    return v->str;
}

std::optional<double> GgufKeys::num(std::string_view key, std::size_t index) const {
    read_.insert(std::string(key));
    const MetaValue* v = cat_.meta(key);
    if (!v) return std::nullopt;
    return meta_number(*v, index);
}

std::optional<std::string> GgufKeys::number_text(std::string_view key) const {
    read_.insert(std::string(key));
    const MetaValue* v = cat_.meta(key);
    if (!v || !(v->is_integer() || v->is_float())) return std::nullopt;
    std::string t = meta_json(*v);
    if (t.empty() || t[0] == '"') return std::nullopt;  // NaN / ±inf
    return t;
}

std::uint64_t GgufKeys::required_u64(std::string_view key) const {
    const auto v = num(key);
    if (!v || *v < 1 || *v != std::floor(*v) || *v > 1e15)
        throw Error(ErrorCode::Malformed, "--layout hf needs the GGUF key " + std::string(key) + " (a positive integer)",
                    cat_.path);
    return static_cast<std::uint64_t>(*v);
}

std::vector<std::string> GgufKeys::unread(std::string_view prefix) const {
    std::vector<std::string> r;
    for (const auto& kv : cat_.metadata)
        if (kv.key.starts_with(prefix) && !read_.contains(kv.key)) r.push_back(kv.key);
    return r;
}

namespace {

bool is_gguf(const arch::ArchRow& row, std::initializer_list<std::string_view> names) {
    for (auto n : names)
        if (row.gguf == n) return true;
    return false;
}

class ConfigWriter {
public:
    ConfigWriter(const arch::ArchRow& row, const GgufKeys& kv) : a_(std::string(row.gguf) + "."), kv_(kv) {}
    /// `name`: the `{arch}.suffix` number, when the GGUF has it.
    void number(const char* name, std::string_view suffix) {
        if (auto t = kv_.number_text(a_ + std::string(suffix))) w.key(name).raw(*t);
    }
    void any_number(const char* name, std::string_view full_key) {
        if (auto t = kv_.number_text(full_key)) w.key(name).raw(*t);
    }
    std::optional<double> get(std::string_view suffix) const { return kv_.num(a_ + std::string(suffix)); }
    std::uint64_t required(std::string_view suffix) const { return kv_.required_u64(a_ + std::string(suffix)); }
    void mark(std::string_view suffix) const { kv_.mark(a_ + std::string(suffix)); }
    const std::string& prefix() const noexcept { return a_; }

    JsonWriter w{2};

private:
    std::string a_;
    const GgufKeys& kv_;
};

std::uint64_t vocab_size(const GgufKeys& kv, const std::string& a) {
    const Catalog& cat = kv.catalog();
    std::uint64_t vocab = 0;
    if (auto e = cat.find("token_embd.weight"); e && !cat.tensors[*e].shape.empty()) vocab = cat.tensors[*e].shape[0];
    else if (auto v = kv.num(a + "vocab_size")) vocab = static_cast<std::uint64_t>(*v);
    kv.mark(a + "vocab_size");
    if (vocab == 0) throw Error(ErrorCode::Malformed, "--layout hf: no token_embd.weight and no " + a + "vocab_size", cat.path);
    return vocab;
}

const char* torch_dtype(const HfConfigFacts& f) {
    const DType dt = f.out_dtype.value_or(DType::BF16);
    return dt == DType::F32 ? "float32" : dt == DType::F16 ? "float16" : "bfloat16";
}

void token_ids(ConfigWriter& c) {
    c.any_number("bos_token_id", "tokenizer.ggml.bos_token_id");
    c.any_number("eos_token_id", "tokenizer.ggml.eos_token_id");
    c.any_number("pad_token_id", "tokenizer.ggml.padding_token_id");
}

/// GPT2Model's short list: n_layer, n_ctx, n_embd, n_head, layer_norm_epsilon (n_inner = 4 · n_embd).
std::string gpt2_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    ConfigWriter c(row, kv);
    JsonWriter& w = c.w;
    w.begin_object();
    w.key("architectures").begin_array().value(row.hf_class).end_array();
    w.key("model_type").value(row.model_type);
    w.key("activation_function").value(row.hidden_act);
    w.key("n_embd").value(c.required("embedding_length"));
    w.key("n_layer").value(c.required("block_count"));
    w.key("n_head").value(c.required("attention.head_count"));
    const std::uint64_t ctx = c.required("context_length");
    w.key("n_ctx").value(ctx);
    w.key("n_positions").value(ctx);
    if (c.required("feed_forward_length") != 4 * c.required("embedding_length")) w.key("n_inner").value(c.required("feed_forward_length"));
    c.number("layer_norm_epsilon", "attention.layer_norm_epsilon");
    w.key("vocab_size").value(vocab_size(kv, c.prefix()));
    w.key("tie_word_embeddings").value(f.tied);
    token_ids(c);
    w.key("torch_dtype").value(torch_dtype(f));
    w.end_object();
    return w.take();
}

/// FalconModel's list back: FalconConfig's names (num_kv_heads, layer_norm_epsilon), its layout
/// flags from the tensors (ln_attn/ln_mlp: new_decoder_architecture; one KV head: multi_query); the
/// constant context length, the "jploski" layout and feed-forward 4 × hidden are the converter's.
std::string falcon_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    ConfigWriter c(row, kv);
    JsonWriter& w = c.w;
    const std::uint64_t heads = c.required("attention.head_count");
    const std::uint64_t kv_heads = c.get("attention.head_count_kv") ? c.required("attention.head_count_kv") : 1;
    if (const auto layout = kv.str(c.prefix() + "tensor_data_layout"); layout && *layout != "jploski")
        throw Error(ErrorCode::Unsupported, "--layout hf: Falcon tensor_data_layout '" + *layout + "' (only the converter's jploski)",
                    kv.catalog().path);
    c.mark("context_length");
    if (c.required("feed_forward_length") != 4 * c.required("embedding_length"))
        throw Error(ErrorCode::Unsupported, "--layout hf: a Falcon feed-forward length other than 4 × embedding_length", kv.catalog().path);
    w.begin_object();
    w.key("architectures").begin_array().value(row.hf_class).end_array();
    w.key("model_type").value(row.model_type);
    w.key("hidden_size").value(c.required("embedding_length"));
    w.key("num_hidden_layers").value(c.required("block_count"));
    w.key("num_attention_heads").value(heads);
    w.key("num_kv_heads").value(kv_heads);
    w.key("new_decoder_architecture").value(f.two_norms);
    w.key("multi_query").value(!f.two_norms && kv_heads == 1);
    w.key("parallel_attn").value(true);
    w.key("bias").value(false);
    w.key("alibi").value(false);
    c.number("layer_norm_epsilon", "attention.layer_norm_epsilon");
    w.key("vocab_size").value(vocab_size(kv, c.prefix()));
    w.key("tie_word_embeddings").value(f.tied);
    token_ids(c);
    w.key("torch_dtype").value(torch_dtype(f));
    w.end_object();
    return w.take();
}

/// The shortest decimal x (as JSON text) near `guess` with f32(forward(x)) == v: what config.json must hold
/// for a converter that writes forward(value) as F32; nullopt when none of 1…17 significant digits gives v.
template <class F>
std::optional<std::string> f32_preimage(float v, double guess, F forward) {
    char buf[40];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, guess);
        const double x = std::strtod(buf, nullptr);
        if (static_cast<float>(forward(x)) == v) return meta_json(MetaValue::f64(x));
    }
    return std::nullopt;
}

/// DeepseekV2Model writes yarn_log_multiplier = 0.1 · mscale_all_dim.
std::string scaled_f32_preimage(float v, double scale) {
    const double want = static_cast<double>(v) / scale;
    return f32_preimage(v, want, [&](double x) { return scale * x; }).value_or(meta_json(MetaValue::f64(want)));
}

/// HunYuanModel's NTK-alpha RoPE back (hunyuan.py: rope.freq_base = rope_theta · alpha^(d / (d − 2)), d = head_dim,
/// with rope_theta 10000 and rope.scaling.original_context_length 262144 for "dynamic"): rope_theta 10000 and the
/// alpha that gives the stored base. \throws Error{Unsupported} for another layout (xdrope: base and alpha unknown).
void hunyuan_rope(ConfigWriter& c, const GgufKeys& kv, std::uint64_t head_dim) {
    JsonWriter& w = c.w;
    const auto type = kv.str(c.prefix() + "rope.scaling.type");
    const auto base = c.get("rope.freq_base");
    if (!type) {
        if (base) c.number("rope_theta", "rope.freq_base");
        return;
    }
    const auto orig = c.get("rope.scaling.original_context_length");
    const MetaValue* fb = kv.catalog().meta(c.prefix() + "rope.freq_base");
    if (*type != "none" || c.get("rope.scaling.factor").value_or(0) != 1 || !orig || *orig != 262144 || !fb ||
        fb->type != GgufType::F32 || head_dim <= 2)
        throw Error(ErrorCode::Unsupported,
                    "--layout hf: HunYuan RoPE other than the converter's 'dynamic' NTK-alpha form has no config.json "
                    "equivalent here",
                    kv.catalog().path);
    const float v = static_cast<float>(*base);
    const double e = static_cast<double>(head_dim) / static_cast<double>(head_dim - 2);
    const auto alpha = f32_preimage(v, std::pow(static_cast<double>(v) / 10000.0, 1.0 / e),
                                    [&](double a) { return 10000.0 * std::pow(a, e); });
    if (!alpha)
        throw Error(ErrorCode::Unsupported, "--layout hf: no NTK alpha gives this HunYuan rope.freq_base", kv.catalog().path);
    for (const char* k : {"rope.freq_base", "rope.scaling.type", "rope.scaling.factor", "rope.scaling.original_context_length"})
        c.mark(k);
    w.key("rope_theta").value(10000.0);
    w.key("rope_scaling").begin_object();
    w.key("alpha").raw(*alpha);
    w.key("factor").value(1.0);
    w.key("type").value("dynamic");
    w.end_object();
}

/// DeepseekV2Model's MLA keys back: the LoRA ranks, the nope / rope / v head sizes (key_length and
/// value_length are kv_lora_rank + rope and kv_lora_rank, derived by the converter); head_count_kv is 1.
void mla_config(ConfigWriter& c, const GgufKeys& kv, std::uint64_t heads) {
    JsonWriter& w = c.w;
    if (c.get("attention.head_count_kv").value_or(1) != 1)
        throw Error(ErrorCode::Malformed, "--layout hf: a deepseek2 GGUF with attention.head_count_kv other than 1", kv.catalog().path);
    c.mark("attention.head_count_kv");
    if (c.get("attention.q_lora_rank")) c.number("q_lora_rank", "attention.q_lora_rank");
    else w.key("q_lora_rank").null();  // V2-Lite's plain q_proj (DeepseekV3Config defaults to a rank)
    const std::uint64_t kv_lora = c.required("attention.kv_lora_rank");
    const std::uint64_t rope = c.required("rope.dimension_count");
    const std::uint64_t k_mla = c.required("attention.key_length_mla");
    if (k_mla <= rope || c.required("attention.key_length") != kv_lora + rope || c.required("attention.value_length") != kv_lora)
        throw Error(ErrorCode::Malformed, "--layout hf: deepseek2 key lengths that are not the converter's (kv_lora_rank + rope)",
                    kv.catalog().path);
    w.key("kv_lora_rank").value(kv_lora);
    w.key("qk_rope_head_dim").value(rope);
    w.key("qk_nope_head_dim").value(k_mla - rope);
    c.number("v_head_dim", "attention.value_length_mla");
    const bool sigmoid = c.get("expert_gating_func").value_or(1) == 2;
    w.key("topk_method").value(sigmoid ? "noaux_tc" : "greedy");
    (void)heads;
}

/// DeepseekV2Model: yarn_log_multiplier = 0.1 · mscale_all_dim (mscale as the checkpoints have it: the same).
void yarn_deepseek2(ConfigWriter& c, const GgufKeys& kv) {
    const std::string key = c.prefix() + "rope.scaling.yarn_log_multiplier";
    if (const MetaValue* m = kv.catalog().meta(key); m && m->is_float()) {
        kv.mark(key);
        const std::string t = scaled_f32_preimage(static_cast<float>(*meta_number(*m)), 0.1);
        c.w.key("mscale").raw(t);
        c.w.key("mscale_all_dim").raw(t);
    }
}

/// Ministral3Model: mscale_all_dim as yarn_log_multiplier, llama_4_scaling_beta as temperature_scale.
void yarn_ministral3(ConfigWriter& c, const GgufKeys& kv) {
    c.number("mscale", "rope.scaling.yarn_log_multiplier");
    c.number("mscale_all_dim", "rope.scaling.yarn_log_multiplier");
    c.number("llama_4_scaling_beta", "attention.temperature_scale");
    c.number("rope_theta", "rope.freq_base");
    (void)kv;
}

/// Llama4Model's keys back, and what llama.cpp derives for Llama 4 (llama4.cpp load_arch_hparams): chunked
/// attention of 8192 with a NoPE layer every 4th (none with sliding_window 0), attention temperature
/// tuning (floor 8192, scale 0.1), QK norm except for the 128-expert model.
void llama4_config(ConfigWriter& c, const GgufKeys& kv, std::uint64_t layers) {
    JsonWriter& w = c.w;
    c.number("interleave_moe_layer_step", "interleave_moe_layer_step");
    const auto swa = c.get("attention.sliding_window");
    c.mark("attention.sliding_window");
    const bool chunked = !(swa && *swa == 0);
    w.key("no_rope_layers").begin_array();
    for (std::uint64_t i = 0; i < layers; ++i) w.value(std::uint64_t{!chunked || (i + 1) % 4 != 0 ? 1u : 0u});
    w.end_array();
    if (chunked) w.key("attention_chunk_size").value(std::uint64_t{8192});
    else w.key("attention_chunk_size").null();
    w.key("attn_temperature_tuning").value(chunked);
    w.key("floor_scale").value(std::uint64_t{8192});
    w.key("attn_scale").value(0.1);
    w.key("use_qk_norm").value(c.get("expert_count").value_or(0) != 128);
    (void)kv;
}

/// MiniCPMModel's scales back: scale_emb (embedding_scale), dim_model_base (hidden / logit_scale) and scale_depth
/// (residual_scale · √layers), each the shortest decimal the converter turns into the stored F32; the remote code's
/// auto_map (transformers has no MiniCPM class of its own).
void minicpm_scales(ConfigWriter& c, const GgufKeys& kv, std::uint64_t hidden, std::uint64_t layers) {
    JsonWriter& w = c.w;
    c.number("scale_emb", "embedding_scale");
    const std::string a = c.prefix();
    for (const char* k : {"logit_scale", "residual_scale"}) {
        const MetaValue* m = kv.catalog().meta(a + k);
        if (!m || !m->is_float()) continue;
        kv.mark(a + k);
        const float v = static_cast<float>(*meta_number(*m));
        const double h = static_cast<double>(hidden), root = std::pow(static_cast<double>(layers), 0.5);
        if (std::string_view(k) == "logit_scale")
            w.key("dim_model_base").raw(f32_preimage(v, h / v, [&](double x) { return h / x; }).value_or(meta_json(MetaValue::f64(h / v))));
        else
            w.key("scale_depth").raw(f32_preimage(v, v * root, [&](double x) { return x / root; }).value_or(meta_json(MetaValue::f64(v * root))));
    }
    w.key("auto_map").begin_object();
    w.key("AutoConfig").value("openbmb/MiniCPM-2B-sft-bf16--configuration_minicpm.MiniCPMConfig");
    w.key("AutoModelForCausalLM").value("openbmb/MiniCPM-2B-sft-bf16--modeling_minicpm.MiniCPMForCausalLM");
    w.end_object();
}

std::string_view model_type_for(const arch::ArchRow& row, std::string_view cls) {
    if (cls == "MixtralForCausalLM") return "mixtral";
    if (cls == "Olmo3ForCausalLM") return "olmo3";
    if (cls == "MistralForCausalLM") return "mistral";
    if (cls == "DeepseekV2ForCausalLM") return "deepseek_v2";
    if (cls == "GraniteMoeForCausalLM") return "granitemoe";
    return row.model_type;
}

void rope_scaling(ConfigWriter& c, const GgufKeys& kv, const HfConfigFacts& f) {
    JsonWriter& w = c.w;
    if (f.llama3_factor) {
        w.key("rope_scaling").begin_object();
        w.key("factor").value(*f.llama3_factor);
        w.key("high_freq_factor").value(f.llama3_high);
        w.key("low_freq_factor").value(1.0);
        w.key("original_max_position_embeddings").value(std::uint64_t{8192});
        w.key("rope_type").value("llama3");
        w.end_object();
        return;
    }
    const auto type = kv.str(c.prefix() + "rope.scaling.type");
    if (!type || *type == "none") return;
    const auto factor = c.get("rope.scaling.factor");
    if ((*type == "linear" || *type == "yarn") && factor) {
        // Ministral 3: rope_parameters (transformers 5's name; the converter reads either), with its theta.
        const bool ministral3 = c.prefix() == "mistral3.";
        w.key(ministral3 ? "rope_parameters" : "rope_scaling").begin_object();
        if (ministral3) yarn_ministral3(c, kv);
        if (c.prefix() == "deepseek2.") yarn_deepseek2(c, kv);
        c.number("factor", "rope.scaling.factor");
        if (*type == "yarn") {
            c.number("original_max_position_embeddings", "rope.scaling.original_context_length");
            c.number("extrapolation_factor", "rope.scaling.yarn_ext_factor");
            c.number("attention_factor", "rope.scaling.yarn_attn_factor");
            c.number("beta_fast", "rope.scaling.yarn_beta_fast");
            c.number("beta_slow", "rope.scaling.yarn_beta_slow");
        }
        w.key("rope_type").value(*type);
        w.key("type").value(*type);
        w.end_object();
        return;
    }
    throw Error(ErrorCode::Unsupported, "--layout hf: RoPE scaling type '" + *type + "' has no config.json equivalent here",
                kv.catalog().path);
}

/// JSON text of an f32 as the shortest decimal that reads back to it.
std::string f32_text(float v) { return meta_json(MetaValue::f32(v)); }


}  // namespace

std::string_view hf_class_for(const arch::ArchRow& row, const GgufKeys& kv, bool experts) {
    if (is_gguf(row, {"llama", "mistral"}) && experts) return "MixtralForCausalLM";
    // Mistral Small 3.x's text model is plain Mistral; Ministral 3 has the yarn / temperature keys its class reads.
    if (row.gguf == "mistral3" && !kv.num("mistral3.rope.scaling.yarn_log_multiplier")) return "MistralForCausalLM";
    // DeepSeek-V3's router is a sigmoid (noaux_tc); V2's a softmax.
    if (row.gguf == "deepseek2" && kv.num("deepseek2.expert_gating_func").value_or(1) != 2) return "DeepseekV2ForCausalLM";
    // GraniteMoe without a shared expert.
    if (row.gguf == "granitemoe" && !kv.catalog().find("blk.0.ffn_up_shexp.weight")) return "GraniteMoeForCausalLM";
    if (row.gguf == "olmo2" && kv.num("olmo2.attention.sliding_window")) return "Olmo3ForCausalLM";
    // XLM-RoBERTa with the reranker's classifier (cls / cls.output).
    if (row.vocab == tok::VocabStyle::XlmRoberta && kv.catalog().find("cls.output.weight"))
        return "XLMRobertaForSequenceClassification";
    if (row.vocab == tok::VocabStyle::Roberta && kv.catalog().find("cls.output.weight"))
        return "RobertaForSequenceClassification";
    if (row.vocab == tok::VocabStyle::Bert && row.gguf == "bert" && kv.catalog().find("cls.output.weight"))
        return "BertForSequenceClassification";
    if (row.gguf == "mamba" && kv.num("mamba.ssm.dt_b_c_rms").value_or(0)) return "FalconMambaForCausalLM";
    return row.hf_class;
}

std::string hf_config_json(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    if (row.gguf == "gpt2") return gpt2_config(row, kv, f);
    if (row.gguf == "falcon") return falcon_config(row, kv, f);
    if (row.gguf == "bert") return bert_config(row, kv, f);
    if (row.gguf == "gptneox") return gptneox_config(row, kv, f);
    if (row.gguf == "starcoder") return starcoder_config(row, kv, f);
    if (row.gguf == "bloom") return bloom_config(row, kv, f);
    if (row.gguf == "mamba" || row.gguf == "mamba2") return mamba_config(row, kv, f);
    if (row.gguf == "nomic-bert") return nomic_bert_config(row, kv, f);
    if (row.gguf == "modern-bert") return modern_bert_config(row, kv, f);
    ConfigWriter c(row, kv);
    JsonWriter& w = c.w;
    const std::string_view cls = hf_class_for(row, kv, f.experts);
    const bool mixtral = cls == "MixtralForCausalLM", olmo3 = cls == "Olmo3ForCausalLM";
    const bool mla = row.gguf == "deepseek2", llama4 = row.gguf == "llama4";
    const std::uint64_t hidden = c.required("embedding_length");
    const std::uint64_t layers = c.required("block_count");
    const std::uint64_t heads = c.required("attention.head_count");
    const std::uint64_t ff = c.required("feed_forward_length");
    const auto key_len = c.get("attention.key_length");
    const std::uint64_t head_dim = key_len ? static_cast<std::uint64_t>(*key_len) : hidden / heads;

    w.begin_object();
    w.key("architectures").begin_array().value(cls).end_array();
    w.key("model_type").value(model_type_for(row, cls));
    w.key("hidden_size").value(hidden);
    // Llama 4: intermediate_size is the experts', the dense layers' intermediate_size_mlp.
    if (llama4) {
        c.number("intermediate_size", "expert_feed_forward_length");
        w.key("intermediate_size_mlp").value(ff);
    } else {
        w.key("intermediate_size").value(ff);
    }
    // GLM-4.5: block_count counts the NextN layers after the main ones.
    const bool mtp = is_gguf(row, {"glm4moe", "qwen3next"});  // Qwen3-Next's MTP block: the mixin counts its tensors
    const std::uint64_t nextn = mtp ? static_cast<std::uint64_t>(c.get("nextn_predict_layers").value_or(0)) : 0;
    if (row.gguf == "qwen3next") c.mark("nextn_predict_layers");
    if (nextn >= layers) throw Error(ErrorCode::Malformed, "--layout hf: nextn_predict_layers is not below block_count", kv.catalog().path);
    w.key(row.gguf == "exaone" ? "num_layers" : "num_hidden_layers").value(layers - nextn);  // EXAONE 3.x's config names it so
    w.key("num_attention_heads").value(heads);
    // llama.cpp reads an absent head_count_kv as head_count; transformers' defaults differ per class.
    // DeepSeek's MLA is written as MQA (head_count_kv 1): its checkpoints have one KV head per head.
    if (c.get("attention.head_count_kv") && !mla) c.number("num_key_value_heads", "attention.head_count_kv");
    else w.key("num_key_value_heads").value(heads);
    if (mla) mla_config(c, kv, heads);  // key_length is kv_lora_rank + the rope dimension: no head_dim
    else if (key_len) {
        w.key("head_dim").value(head_dim);
        c.mark("attention.value_length");  // the converter writes both from head_dim
    }
    w.key(row.gguf == "exaone" ? "activation_function" : "hidden_act").value(row.hidden_act);
    if (row.norm_plus_one) w.key("hidden_activation").value(row.hidden_act);
    c.number("rms_norm_eps", "attention.layer_norm_rms_epsilon");
    if (row.gguf == "olmo") {  // OlmoModel writes 1e-5 whatever config.json says; clip_qkv as clamp_kqv
        c.mark("attention.layer_norm_epsilon");
        c.number("clip_qkv", "attention.clamp_kqv");
    } else {
        c.number(row.gguf == "starcoder2" ? "norm_epsilon" : row.gguf == "exaone" ? "layer_norm_epsilon" : "layer_norm_eps",
                 "attention.layer_norm_epsilon");
    }
    if (row.gguf == "minicpm") minicpm_scales(c, kv, hidden, layers);
    if (row.gguf == "internlm2") {  // remote code: InternLM2's own config and model classes
        w.key("bias").value(false);
        w.key("auto_map").begin_object();
        w.key("AutoConfig").value("internlm/internlm2-chat-7b--configuration_internlm2.InternLM2Config");
        w.key("AutoModelForCausalLM").value("internlm/internlm2-chat-7b--modeling_internlm2.InternLM2ForCausalLM");
        w.end_object();
    }
    if (row.gguf == "hunyuan-dense") hunyuan_rope(c, kv, head_dim);
    else c.number("rope_theta", "rope.freq_base");
    c.number("max_position_embeddings", "context_length");
    w.key("vocab_size").value(vocab_size(kv, c.prefix()));
    w.key("tie_word_embeddings").value(f.tied);
    token_ids(c);

    // The rotary dimension: LlamaModel-style classes write head_dim (carried by head_dim); Phi-3,
    // StableLM, EXAONE and Cohere2 a partial one: int(factor · (hidden // heads)), so the factor
    // written is the smallest double that gives it back. Any other value stays unread (a warning).
    if (const MetaValue* rv = kv.catalog().meta(c.prefix() + "rope.dimension_count")) {
        const auto rd = meta_number(*rv);
        const bool glm = is_gguf(row, {"glm4", "glm4moe", "qwen3next"});  // head_dim · factor, the factor always written
        const bool partial = glm || is_gguf(row, {"phi3", "phi2", "stablelm", "exaone", "cohere2"});
        const bool per_embd = is_gguf(row, {"phi3", "phi2"});  // int(factor · hidden) // heads
        if (rd && partial) {
            c.mark("rope.dimension_count");
            // GLM-4: int(head_dim · factor), head_dim from attention.key_length.
            const double per_head = glm ? static_cast<double>(head_dim)
                                                       : static_cast<double>(per_embd ? hidden : hidden / heads) /
                                                             static_cast<double>(per_embd ? heads : 1);
            double factor = *rd / per_head;
            // phi3: int(factor · hidden) // heads; the others: int(factor · (hidden // heads))
            auto gives = [&](double x) {
                return per_embd ? std::floor(std::trunc(x * static_cast<double>(hidden)) / static_cast<double>(heads))
                                          : std::trunc(x * per_head);
            };
            for (int i = 0; i < 4 && gives(factor) < *rd; ++i) factor = std::nextafter(factor, 2.0);
            if (row.gguf == "cohere2") w.key("rotary_pct").value(factor);  // required by the converter
            else if (*rd != per_head || glm) w.key("partial_rotary_factor").value(factor);  // GLM's default 0.5, Qwen3-Next's 0.25
        } else if (rd && static_cast<std::uint64_t>(*rd) == head_dim) {
            c.mark("rope.dimension_count");
        }
    }

    // Biases.
    if (is_gguf(row, {"llama", "mistral", "qwen3", "gemma", "gemma2", "gemma3", "granite", "olmo2", "smollm3", "arcee",
                      "seed_oss", "qwen3moe", "olmoe", "exaone4", "command-r", "cohere2", "glm4", "glm4moe", "granitemoe",
                      "gpt-oss", "llama4", "deepseek2", "mistral3", "hunyuan-dense", "olmo", "qwen3next"}))
        w.key("attention_bias").value(f.attention_bias);
    if (is_gguf(row, {"llama", "mistral", "granite", "smollm3", "arcee", "seed_oss", "mistral3"})) w.key("mlp_bias").value(false);
    if (row.gguf == "seed_oss") w.key("attention_out_bias").value(false);
    if (row.gguf == "starcoder2") w.key("use_bias").value(f.attention_bias);

    // Experts.
    const bool ernie_moe = row.gguf == "ernie4_5-moe", glm4moe = row.gguf == "glm4moe";
    if (f.experts || c.get("expert_count")) {
        c.number(mixtral || is_gguf(row, {"minimax-m2", "granitemoe", "gpt-oss", "llama4"}) ? "num_local_experts"
                 : ernie_moe                                                               ? "moe_num_experts"
                 : glm4moe || mla                                                          ? "n_routed_experts"
                                                                                           : "num_experts",
                 "expert_count");
        // TextModel's expert_gating_func: sigmoid 2, softmax 1, sqrtsoftplus 4 (another value stays unread: a warning).
        if (glm4moe) c.mark("expert_gating_func");  // sigmoid, always (Glm4MoeModel writes it whatever config.json says)
        else if (const MetaValue* g = kv.catalog().meta(c.prefix() + "expert_gating_func")) {
            const auto id = meta_number(*g);
            const char* fn = !id ? nullptr : *id == 2 ? "sigmoid" : *id == 1 ? "softmax" : *id == 4 ? "sqrtsoftplus" : nullptr;
            if (fn) {
                w.key("scoring_func").value(fn);
                c.mark("expert_gating_func");
            }
        }
        c.number(ernie_moe ? "moe_k" : "num_experts_per_tok", "expert_used_count");
        if (row.gguf == "gpt-oss") c.mark("expert_feed_forward_length");  // = intermediate_size, as the converter writes it
        else if (!is_gguf(row, {"minimax-m2", "llama4"})) c.number("moe_intermediate_size", "expert_feed_forward_length");
        if (ernie_moe) c.mark("expert_shared_feed_forward_length");  // = intermediate_size // num_key_value_heads, as written
        else c.number(row.gguf == "granitemoe" ? "shared_intermediate_size" : "shared_expert_intermediate_size",
                      "expert_shared_feed_forward_length");
        if (is_gguf(row, {"qwen2moe", "qwen3moe", "qwen3next"})) {
            w.key("decoder_sparse_step").value(std::uint64_t{1});
            w.key("mlp_only_layers").begin_array().end_array();
        }
        // llama.cpp normalises the top-k weights for qwen3moe / qwen3next and never for qwen2moe / olmoe.
        if (is_gguf(row, {"qwen2moe", "qwen3moe", "olmoe", "qwen3next"}))
            w.key("norm_topk_prob").value(is_gguf(row, {"qwen3moe", "qwen3next"}));
    }

    // Per-architecture extras.
    if (row.sandwich_norms) {
        c.number("sliding_window", "attention.sliding_window");
        c.number("attn_logit_softcapping", "attn_logit_softcapping");
        c.number("final_logit_softcapping", "final_logit_softcapping");
        // Not stored in GGUF. llama.cpp's rule (llama-model.cpp, f_attention_scale):
        // 1/sqrt(hidden/heads) for the 27B models (gemma2: 46 layers, gemma3: 62), else 1/sqrt(head_dim).
        const bool big = (row.gguf == "gemma2" && layers == 46) || (row.gguf == "gemma3" && layers == 62);
        w.key("query_pre_attn_scalar").value(big ? hidden / heads : head_dim);
        if (row.gguf == "gemma3") {
            // llama.cpp: every 6th layer global (hard-coded); the local RoPE base is rope.freq_base_swa (10000 when absent).
            w.key("sliding_window_pattern").value(std::uint64_t{6});
            if (c.get("rope.freq_base_swa")) c.number("rope_local_base_freq", "rope.freq_base_swa");
            else w.key("rope_local_base_freq").value(10000.0);
        }
    }
    if (is_gguf(row, {"granite", "granitemoe"})) {
        c.number("attention_multiplier", "attention.scale");
        c.number("embedding_multiplier", "embedding_scale");
        c.number("residual_multiplier", "residual_scale");
        c.number("logits_scaling", "logit_scale");
    }
    if (is_gguf(row, {"command-r", "cohere2"})) {
        c.number("logit_scale", "logit_scale");
        c.mark("rope.scaling.type");  // "none", as the converter writes it for these classes
        if (row.gguf == "command-r") w.key("use_qk_norm").value(f.qk_norm);
        if (row.gguf == "cohere2") {
            c.number("sliding_window", "attention.sliding_window");
            w.key("sliding_window_pattern").value(std::uint64_t{4});  // llama.cpp: every 4th layer global (hard-coded)
        }
    }
    if (glm4moe || mla) {  // Glm4MoeModel's and DeepseekV2Model's keys
        c.number("n_shared_experts", "expert_shared_count");
        c.number("first_k_dense_replace", "leading_dense_block_count");
        c.number("routed_scaling_factor", "expert_weights_scale");
        c.number("n_group", "expert_group_count");
        c.number("topk_group", "expert_group_used_count");
        // DeepSeek: absent means not normalised (transformers' DeepseekV3Config would default to true).
        if (const auto n = c.get("expert_weights_norm"); n || mla) w.key("norm_topk_prob").value(n && *n != 0);
        if (glm4moe) {
            c.number("num_nextn_predict_layers", "nextn_predict_layers");
            w.key("use_qk_norm").value(f.qk_norm);
        }
    }
    if (llama4) llama4_config(c, kv, layers);
    if (row.gguf == "qwen3next") {  // Qwen3NextModel's delta-net keys: ssm.inner_size = value head size · value heads
        c.number("linear_conv_kernel_dim", "ssm.conv_kernel");
        c.number("linear_key_head_dim", "ssm.state_size");
        c.number("linear_num_key_heads", "ssm.group_count");
        const std::uint64_t nv = c.required("ssm.time_step_rank"), inner = c.required("ssm.inner_size");
        if (inner % nv != 0)
            throw Error(ErrorCode::Malformed, "--layout hf: ssm.inner_size is not a multiple of ssm.time_step_rank", kv.catalog().path);
        w.key("linear_num_value_heads").value(nv);
        w.key("linear_value_head_dim").value(inner / nv);
        c.number("full_attention_interval", "full_attention_interval");
    }
    if (row.gguf == "gpt-oss") {  // GptOssModel's sliding window; llama.cpp alternates sliding and full layers
        c.number("sliding_window", "attention.sliding_window");
        w.key("layer_types").begin_array();
        for (std::uint64_t i = 0; i < layers; ++i) w.value(i % 2 == 0 ? "sliding_attention" : "full_attention");
        w.end_array();
        c.number("experts_per_token", "expert_used_count");
        w.key("swiglu_limit").value(7.0);  // llama.cpp's constant for gpt-oss
    }
    if (ernie_moe) {  // Ernie4_5MoeModel's keys
        c.number("moe_layer_interval", "interleave_moe_layer_step");
        c.number("moe_layer_start_index", "leading_dense_block_count");
        c.number("moe_num_shared_experts", "expert_shared_count");
        w.key("moe_layer_end_index").value(layers - 1);
    }
    if (row.gguf == "lfm2") {  // LFM2Model's keys: layer_types from the per-layer head_count_kv, the block_* keys
        const std::string key = c.prefix() + "attention.head_count_kv";
        const MetaValue* hk = kv.catalog().meta(key);
        if (!hk || !hk->is_array() || hk->size() != layers)
            throw Error(ErrorCode::Malformed, "--layout hf needs " + key + " as one value per block", kv.catalog().path);
        std::uint64_t n_kv = 0;
        w.key("layer_types").begin_array();
        for (std::size_t i = 0; i < hk->size(); ++i) {
            const auto v = meta_number(*hk, i);
            if (!v || *v < 0 || *v != std::floor(*v) || (*v != 0 && n_kv != 0 && *v != double(n_kv)))
                throw Error(ErrorCode::Unsupported,
                            "--layout hf: " + key + " must be 0 (a convolution block) or one head count for every attention block",
                            kv.catalog().path);
            if (*v != 0) n_kv = static_cast<std::uint64_t>(*v);
            w.value(*v == 0 ? std::string_view("conv") : std::string_view("full_attention"));
        }
        w.end_array();
        c.mark("attention.head_count_kv");
        w.key("num_key_value_heads").value(n_kv ? n_kv : heads);
        c.number("norm_eps", "attention.layer_norm_rms_epsilon");
        c.number("conv_L_cache", "shortconv.l_cache");
        // The converter's feed-forward length as is: no adjustment (block_multiple_of is read all the same).
        w.key("block_ff_dim").value(ff);
        w.key("block_auto_adjust_ff_dim").value(false);
        w.key("block_ffn_dim_multiplier").null();
        w.key("block_multiple_of").value(std::uint64_t{256});
        w.key("tie_embedding").value(f.tied);
    }
    if (row.gguf == "hunyuan-dense") {  // HunYuanModel: eos is config.json's eod_token_id
        c.any_number("eod_token_id", "tokenizer.ggml.eos_token_id");
        w.key("use_qk_norm").value(f.qk_norm);
        w.key("mlp_bias").value(false);
    }
    if (row.gguf == "minimax-m2") {
        c.number("rotary_dim", "rope.dimension_count");
        c.mark("expert_feed_forward_length");  // = intermediate_size, as the converter writes it
        w.key("use_qk_norm").value(f.qk_norm);
    }
    if (row.gguf == "stablelm") {
        if (const auto p = c.get("use_parallel_residual")) w.key("use_parallel_residual").value(*p != 0);
        w.key("use_qkv_bias").value(f.attention_bias);
        w.key("qk_layernorm").value(false);
    }
    if ((row.gguf == "olmo2" && olmo3) || row.gguf == "exaone4") {
        c.number("sliding_window", "attention.sliding_window");
        const Catalog& cat = kv.catalog();
        c.mark("attention.sliding_window_pattern");
        if (const MetaValue* p = cat.meta(c.prefix() + "attention.sliding_window_pattern"); p && p->is_array()) {
            w.key("layer_types").begin_array();
            for (std::size_t i = 0; i < p->size(); ++i)
                w.value(p->bits_at(i) ? "sliding_attention" : "full_attention");
            w.end_array();
        }
    }
    if (row.gguf == "phi3") {
        c.number("original_max_position_embeddings", "rope.scaling.original_context_length");
        c.number("sliding_window", "attention.sliding_window");
        c.mark("rope.scaling.attn_factor");  // computed by the converter from the two context lengths
        if (!f.long_factor.empty()) {
            w.key("rope_scaling").begin_object();
            w.key("type").value("longrope");
            for (auto [name, v] : {std::pair{"long_factor", &f.long_factor}, std::pair{"short_factor", &f.short_factor}}) {
                w.key(name).begin_array();
                for (float x : *v) w.raw(f32_text(x));
                w.end_array();
            }
            w.end_object();
        }
    } else if (row.gguf != "hunyuan-dense") {
        rope_scaling(c, kv, f);
    }
    w.key("torch_dtype").value(torch_dtype(f));
    w.end_object();
    return w.take();
}

}  // namespace amn::detail
