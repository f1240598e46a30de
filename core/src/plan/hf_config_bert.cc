// SPDX-License-Identifier: MIT OR Apache-2.0
// The way back for BERT (GGUF `bert` → transformers BertModel; `nomic-bert` → nomic's remote-code
// NomicBertModel): config.json and the sentence-transformers pooling files, the inverse of
// core/src/arch/arch_embed_params.cc (conversion/bert.py BertModel / NomicBertModel
// .set_gguf_parameters, base.py _try_set_pooling_type).
#include "plan/hf_config.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/metadata.hpp"

namespace amn::detail {

namespace {

/// token_types.weight rows (what token_type_embeddings holds), else the tokenizer's count; 0 when neither.
std::uint64_t token_types(const GgufKeys& kv) {
    const Catalog& cat = kv.catalog();
    if (auto e = cat.find("token_types.weight"); e && !cat.tensors[*e].shape.empty()) return cat.tensors[*e].shape[0];
    if (auto n = kv.num("tokenizer.ggml.token_type_count")) return static_cast<std::uint64_t>(*n);
    return 0;
}

/// token_embd.weight rows. \throws Error{Malformed} without it.
std::uint64_t embedding_rows(const GgufKeys& kv, std::string_view arch) {
    const Catalog& cat = kv.catalog();
    if (auto e = cat.find("token_embd.weight"); e && !cat.tensors[*e].shape.empty() && cat.tensors[*e].shape[0])
        return cat.tensors[*e].shape[0];
    throw Error(ErrorCode::Malformed, "--layout hf: a " + std::string(arch) + " GGUF without token_embd.weight", cat.path);
}

/// The keys BertConfig and ModernBertConfig begin with: architectures, model_type and the sizes
/// (hidden, intermediate, layers, heads) from the row's GGUF keys. \throws Error{Malformed} without one.
void encoder_sizes(JsonWriter& w, const arch::ArchRow& row, const GgufKeys& kv) {
    const std::string a = std::string(row.gguf) + ".";
    w.key("architectures").begin_array().value(hf_class_for(row, kv, false)).end_array();
    w.key("model_type").value(row.model_type);
    w.key("hidden_size").value(kv.required_u64(a + "embedding_length"));
    w.key("intermediate_size").value(kv.required_u64(a + "feed_forward_length"));
    w.key("num_hidden_layers").value(kv.required_u64(a + "block_count"));
    w.key("num_attention_heads").value(kv.required_u64(a + "attention.head_count"));
}

}  // namespace

std::string nomic_bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    // NomicBertModel.__init__ maps n_positions 8192 (trained 2048) to the context 2048, and 2048 to 512.
    const std::uint64_t ctx = kv.required_u64(a + "context_length");
    if (ctx != 2048 && ctx != 512)
        throw Error(ErrorCode::Unsupported,
                    "--layout hf: nomic-bert with context_length " + std::to_string(ctx) +
                        " (NomicBertModel's n_positions / max_trained_positions give 2048 or 512)",
                    cat.path);
    if (!kv.number_text(a + "rope.freq_base"))
        throw Error(ErrorCode::Malformed, "--layout hf: a nomic-bert GGUF without " + a + "rope.freq_base", cat.path);
    if (auto c = kv.num(a + "attention.causal"); c && *c != 0) kv.unmark(a + "attention.causal");
    JsonWriter w(2);
    w.begin_object();
    w.key("activation_function").value("swiglu");
    w.key("architectures").begin_array().value(hf_class_for(row, kv, false)).end_array();
    w.key("attn_pdrop").raw("0.0");
    // The remote code nomic-embed-text ships (transformers' trust_remote_code).
    w.key("auto_map").begin_object();
    w.key("AutoConfig").value("nomic-ai/nomic-bert-2048--configuration_hf_nomic_bert.NomicBertConfig");
    w.key("AutoModel").value("nomic-ai/nomic-bert-2048--modeling_hf_nomic_bert.NomicBertModel");
    w.key("AutoModelForMaskedLM").value("nomic-ai/nomic-bert-2048--modeling_hf_nomic_bert.NomicBertForPreTraining");
    w.end_object();
    w.key("bos_token_id").null();
    w.key("causal").value(false);
    w.key("embd_pdrop").raw("0.0");
    w.key("eos_token_id").null();
    w.key("initializer_range").raw("0.02");
    if (auto t = kv.number_text(a + "attention.layer_norm_epsilon")) w.key("layer_norm_epsilon").raw(*t);
    w.key("max_trained_positions").value(std::uint64_t{2048});
    w.key("mlp_fc1_bias").value(false);
    w.key("mlp_fc2_bias").value(false);
    w.key("model_type").value(row.model_type);
    w.key("n_embd").value(kv.required_u64(a + "embedding_length"));
    w.key("n_head").value(kv.required_u64(a + "attention.head_count"));
    w.key("n_inner").value(kv.required_u64(a + "feed_forward_length"));
    w.key("n_layer").value(kv.required_u64(a + "block_count"));
    w.key("n_positions").value(std::uint64_t{ctx == 2048 ? 8192u : 2048u});
    w.key("pad_vocab_size_multiple").value(std::uint64_t{1});  // vocab_size is token_embd's rows already
    w.key("prenorm").value(false);
    w.key("qkv_proj_bias").value(false);
    w.key("resid_pdrop").raw("0.0");
    w.key("rotary_emb_base").raw(*kv.number_text(a + "rope.freq_base"));
    w.key("rotary_emb_fraction").raw("1.0");
    w.key("rotary_emb_interleaved").value(false);
    w.key("rotary_emb_scale_base").null();
    w.key("rotary_scaling_factor").null();
    w.key("torch_dtype").value(f.out_dtype == DType::F32 ? "float32" : f.out_dtype == DType::F16 ? "float16" : "bfloat16");
    if (const std::uint64_t types = token_types(kv)) w.key("type_vocab_size").value(types);
    w.key("use_rms_norm").value(false);
    w.key("vocab_size").value(embedding_rows(kv, row.gguf));
    w.end_object();
    return w.take();
}

std::string modern_bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    if (auto c = kv.num(a + "attention.causal"); c && *c != 0) kv.unmark(a + "attention.causal");
    // ModernBertModel writes rope.scaling.type "none" whatever the config says: nothing to carry.
    if (kv.str(a + "rope.scaling.type").value_or("none") != "none") kv.unmark(a + "rope.scaling.type");
    JsonWriter w(2);
    w.begin_object();
    encoder_sizes(w, row, kv);
    w.key("hidden_activation").value(kv.str(a + "hidden_activation").value_or(std::string(row.hidden_act)));
    w.key("max_position_embeddings").value(kv.required_u64(a + "context_length"));
    // TextModel reads the RMS epsilon from norm_eps and the LayerNorm one from layer_norm_eps.
    if (auto t = kv.number_text(a + "attention.layer_norm_rms_epsilon")) w.key("norm_eps").raw(*t);
    if (auto t = kv.number_text(a + "attention.layer_norm_epsilon")) w.key("layer_norm_eps").raw(*t);
    if (auto t = kv.number_text(a + "rope.freq_base")) w.key("global_rope_theta").raw(*t);
    if (auto t = kv.number_text(a + "rope.freq_base_swa")) w.key("local_rope_theta").raw(*t);
    w.key("local_attention").value(kv.required_u64(a + "attention.sliding_window"));
    if (auto t = kv.number_text(a + "attention.sliding_window_pattern")) w.key("global_attn_every_n_layers").raw(*t);
    for (const char* k : {"attention_bias", "mlp_bias", "norm_bias"}) w.key(k).value(false);
    // The special ids the tokenizer keys hold (ModernBERT's CLS is its BOS).
    for (auto [name, key] : {std::pair{"bos_token_id", "bos_token_id"}, std::pair{"cls_token_id", "bos_token_id"},
                             std::pair{"eos_token_id", "eos_token_id"}, std::pair{"sep_token_id", "seperator_token_id"},
                             std::pair{"pad_token_id", "padding_token_id"}})
        if (auto t = kv.number_text(std::string("tokenizer.ggml.") + key)) w.key(name).raw(*t);
    std::uint64_t vocab = embedding_rows(kv, row.gguf);
    if (auto v = kv.num(a + "vocab_size"); v && *v != double(vocab))
        throw Error(ErrorCode::Malformed, "--layout hf: " + a + "vocab_size differs from token_embd.weight's rows", cat.path);
    kv.mark(a + "vocab_size");
    w.key("vocab_size").value(vocab);
    w.key("torch_dtype").value(f.out_dtype == DType::F32 ? "float32" : f.out_dtype == DType::F16 ? "float16" : "bfloat16");
    w.end_object();
    return w.take();
}

std::string bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    JsonWriter w(2);
    w.begin_object();
    encoder_sizes(w, row, kv);
    w.key("hidden_act").value(row.hidden_act);
    if (auto t = kv.number_text(a + "attention.layer_norm_epsilon")) w.key("layer_norm_eps").raw(*t);
    // XLM-RoBERTa: the converter subtracted the position offset (the rows it cut) from max_position_embeddings.
    w.key("max_position_embeddings").value(kv.required_u64(a + "context_length") + f.position_offset);
    w.key("position_embedding_type").value("absolute");
    if (const std::uint64_t types = token_types(kv)) w.key("type_vocab_size").value(types);
    w.key("vocab_size").value(embedding_rows(kv, row.gguf));
    if (auto t = kv.number_text("tokenizer.ggml.padding_token_id")) w.key("pad_token_id").raw(*t);
    // BertModel.set_gguf_parameters writes attention.causal false: BERT's own attention.
    if (auto c = kv.num(a + "attention.causal"); c && *c != 0) kv.unmark(a + "attention.causal");
    // classifier.output_labels ← id2label (label2id its inverse), keys the label ids.
    kv.mark(a + "classifier.output_labels");
    if (const MetaValue* l = cat.meta(a + "classifier.output_labels")) {
        if (!l->is_array() || l->elem_type != GgufType::String)
            throw Error(ErrorCode::Malformed, "--layout hf: " + a + "classifier.output_labels is not an array of strings", cat.path);
        w.key("id2label").begin_object();
        for (std::size_t i = 0; i < l->size(); ++i) w.key(std::to_string(i)).value(l->string_at(i));
        w.end_object();
        w.key("label2id").begin_object();
        for (std::size_t i = 0; i < l->size(); ++i) w.key(l->string_at(i)).value(static_cast<std::uint64_t>(i));
        w.end_object();
    }
    w.key("torch_dtype").value(f.out_dtype == DType::F32 ? "float32" : f.out_dtype == DType::F16 ? "float16" : "bfloat16");
    w.end_object();
    return w.take();
}

std::vector<std::pair<std::string, std::string>> embedding_side_files(const arch::ArchRow& row, const GgufKeys& kv) {
    const std::string key = std::string(row.gguf) + ".pooling_type";
    const auto type = kv.num(key);
    // llama.cpp's LLAMA_POOLING_TYPE: 1 mean, 2 cls, 3 last; the converter writes no other (none, rank).
    const char* mode = !type ? nullptr : *type == 1 ? "pooling_mode_mean_tokens" : *type == 2 ? "pooling_mode_cls_token"
                                                   : *type == 3 ? "pooling_mode_lasttoken" : nullptr;
    if (!mode) {
        if (type) kv.unmark(key);  // no sentence-transformers pooling for it: named as not carried
        return {};
    }
    JsonWriter m(2);
    m.begin_array();
    m.begin_object().key("idx").value(std::uint64_t{0}).key("name").value("0").key("path").value("");
    m.key("type").value("sentence_transformers.models.Transformer").end_object();
    m.begin_object().key("idx").value(std::uint64_t{1}).key("name").value("1").key("path").value("1_Pooling");
    m.key("type").value("sentence_transformers.models.Pooling").end_object();
    m.end_array();
    JsonWriter p(2);
    p.begin_object();
    p.key("word_embedding_dimension").value(kv.required_u64(std::string(row.gguf) + ".embedding_length"));
    for (const char* k : {"pooling_mode_cls_token", "pooling_mode_mean_tokens", "pooling_mode_max_tokens",
                          "pooling_mode_mean_sqrt_len_tokens", "pooling_mode_weightedmean_tokens", "pooling_mode_lasttoken"})
        p.key(k).value(std::string_view(k) == mode);
    p.end_object();
    return {{"modules.json", m.take() + "\n"}, {"1_Pooling/config.json", p.take() + "\n"}};
}

}  // namespace amn::detail
