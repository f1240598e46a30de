// SPDX-License-Identifier: MIT OR Apache-2.0
// The way back for BERT (GGUF `bert` → transformers BertModel): config.json and the
// sentence-transformers pooling files, the inverse of core/src/arch/arch_embed_params.cc
// (conversion/bert.py BertModel.set_gguf_parameters, base.py _try_set_pooling_type).
#include "plan/hf_config.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/metadata.hpp"

namespace amn::detail {

std::string bert_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    JsonWriter w(2);
    w.begin_object();
    w.key("architectures").begin_array().value(row.hf_class).end_array();
    w.key("model_type").value(row.model_type);
    w.key("hidden_size").value(kv.required_u64(a + "embedding_length"));
    w.key("intermediate_size").value(kv.required_u64(a + "feed_forward_length"));
    w.key("num_hidden_layers").value(kv.required_u64(a + "block_count"));
    w.key("num_attention_heads").value(kv.required_u64(a + "attention.head_count"));
    w.key("hidden_act").value(row.hidden_act);
    if (auto t = kv.number_text(a + "attention.layer_norm_epsilon")) w.key("layer_norm_eps").raw(*t);
    w.key("max_position_embeddings").value(kv.required_u64(a + "context_length"));
    w.key("position_embedding_type").value("absolute");
    // token_types.weight rows (what BertModel's token_type_embeddings holds), else the tokenizer's count.
    std::uint64_t types = 0;
    if (auto e = cat.find("token_types.weight"); e && !cat.tensors[*e].shape.empty()) types = cat.tensors[*e].shape[0];
    else if (auto n = kv.num("tokenizer.ggml.token_type_count")) types = static_cast<std::uint64_t>(*n);
    if (types) w.key("type_vocab_size").value(types);
    std::uint64_t vocab = 0;
    if (auto e = cat.find("token_embd.weight"); e && !cat.tensors[*e].shape.empty()) vocab = cat.tensors[*e].shape[0];
    if (!vocab) throw Error(ErrorCode::Malformed, "--layout hf: a bert GGUF without token_embd.weight", cat.path);
    w.key("vocab_size").value(vocab);
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
