// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The converter classes' own filter_tensors / modify_tensors (and the config
// values those read), one ClassTensors per class that has them; a row of the
// architecture table names its class's (ArchRow::tensors). Defined in
// class_tensors.cc; TextModel's generic parts stay in arch_tensors.cc.
#include "arch/arch_table.hpp"

namespace amn::arch::classes {

// filter_tensors (before TextModel's): rename in place, false = dropped.
bool drop_lm_head(std::string& name);       // GemmaModel / Gemma2Model
bool strip_text_model(std::string& name);   // LlamaModel (SmolVLM's text_model.) and its subclasses
bool granite_filter(std::string& name);     // GraniteModel: the vision encoder and projectors, then LlamaModel's
bool deepseek2_filter(std::string& name);   // DeepseekV2Model: the OCR vision encoders
bool gpt_oss_filter(std::string& name);     // GptOssModel: ".weight" after "sinks"
bool bert_filter(std::string& name);        // BertModel
bool nomic_bert_filter(std::string& name);  // NomicBertModel, then BertModel's
bool modern_bert_filter(std::string& name); // ModernBertModel, then BertModel's
bool roberta_filter(std::string& name);  // RobertaModel: roberta., then BertModel's
bool xlmroberta_filter(std::string& name);  // XLMRobertaModel: roberta., .parametrizations., then BertModel's
bool ernie_filter(std::string& name);       // Ernie4_5Model: ernie. → model.
bool ernie_moe_filter(std::string& name);   // Ernie4_5MoeModel: the MTP tensors, then Ernie4_5Model's
bool lfm2_filter(std::string& name);        // LFM2Model: the audio tensors, lfm. → model.
bool bloom_filter(std::string& name);       // BloomModel: transformer. removed (its modify_tensors does it)
bool qwen2vl_filter(std::string& name);     // Qwen2VLModel: a leading thinker.
bool qwen3vl_filter(std::string& name);     // Qwen3VL*TextModel: every thinker.
bool mamba2_filter(std::string& name);      // Mamba2Model: model.backbone / model.lm_head, dt_bias → dt_proj.bias

// config values modify_tensors reads (TensorMapper's constructor).
void glm4moe_read(ClassHparams& hp, const HfConfig& cfg);
void granitemoe_read(ClassHparams& hp, const HfConfig& cfg);
void falcon_read(ClassHparams& hp, const HfConfig& cfg);
void ernie_read(ClassHparams& hp, const HfConfig& cfg);
void deepseek2_read(ClassHparams& hp, const HfConfig& cfg);
void internlm2_read(ClassHparams& hp, const HfConfig& cfg);
void tied_read(ClassHparams& hp, const HfConfig& cfg);
void mamba2_read(ClassHparams& hp, const HfConfig& cfg);  // d_inner, n_groups
void xlmroberta_read(ClassHparams& hp, const HfConfig& cfg);  // 1 + pad_token_id
void bert_read(ClassHparams& hp, const HfConfig& cfg);        // labels kept (BertForSequenceClassification)
void qkv_per_head_read(ClassHparams& hp, const HfConfig& cfg);  // n_head / hidden_size (GPTNeoXModel, BloomModel)  // tie_word_embeddings (HunYuanModel)

// modify_tensors (before the generic part: Gemma's + 1, GPT-2's transposes, experts).
using Tensors = std::optional<std::vector<MappedTensor>>;
Tensors granitemoe_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors lfm2_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors llama4_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors qwen3vlmoe_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors falcon_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors ernie_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors tied_lm_head_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors deepseek2_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors gptneox_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors qk_weights_permuted_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors bloom_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors internlm2_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors bert_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors xlmroberta_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors mamba_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors mamba2_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);
Tensors gpt_oss_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);

// Qwen3NextModel with _QwenMtpMixin (class_tensors_qwen3next.cc): mtp.* renamed past num_hidden_layers, the MTP
// layers in block_count, the delta-net's dimensions, its modify_tensors.
bool qwen_mtp_filter(std::string& name, const HfConfig* cfg);
void qwen_mtp_read(ClassHparams& hp, const HfConfig& cfg, const std::string& model_dir);
void qwen3next_read(ClassHparams& hp, const HfConfig& cfg);
Tensors qwen3next_modify(const ClassTensorCtx&, std::string&, std::string_view, std::vector<std::uint64_t>&, TensorTransform&, std::optional<std::uint64_t>);

// The classes, as the rows name them.
inline constexpr ClassTensors kGemma{drop_lm_head};
inline constexpr ClassTensors kLlama{strip_text_model};
inline constexpr ClassTensors kLlama4{strip_text_model, nullptr, llama4_modify};
inline constexpr ClassTensors kGranite{granite_filter};
inline constexpr ClassTensors kGraniteMoe{granite_filter, granitemoe_read, granitemoe_modify};
inline constexpr ClassTensors kDeepseek2{deepseek2_filter, deepseek2_read, deepseek2_modify};
inline constexpr ClassTensors kGptOss{gpt_oss_filter, nullptr, gpt_oss_modify};
inline constexpr ClassTensors kBert{bert_filter, bert_read, bert_modify};
inline constexpr ClassTensors kNomicBert{nomic_bert_filter};
inline constexpr ClassTensors kModernBert{modern_bert_filter};
inline constexpr ClassTensors kXlmRoberta{xlmroberta_filter, xlmroberta_read, xlmroberta_modify};
/// RobertaModel: XLMRobertaModel's position offset and cut, without jina's `.parametrizations.`.
inline constexpr ClassTensors kRoberta{roberta_filter, xlmroberta_read, xlmroberta_modify};
inline constexpr ClassTensors kErnie4_5{ernie_filter, ernie_read, ernie_modify};
inline constexpr ClassTensors kErnie4_5Moe{ernie_moe_filter};
inline constexpr ClassTensors kLfm2{lfm2_filter, nullptr, lfm2_modify};
inline constexpr ClassTensors kQwen2VL{qwen2vl_filter};
inline constexpr ClassTensors kQwen3VL{qwen3vl_filter};
inline constexpr ClassTensors kQwen3VLMoe{qwen3vl_filter, nullptr, qwen3vlmoe_modify};
inline constexpr ClassTensors kGlm4Moe{nullptr, glm4moe_read};
inline constexpr ClassTensors kFalcon{nullptr, falcon_read, falcon_modify};
inline constexpr ClassTensors kGptNeoX{nullptr, qkv_per_head_read, gptneox_modify};
inline constexpr ClassTensors kOlmo{nullptr, nullptr, qk_weights_permuted_modify};
inline constexpr ClassTensors kMiniCPM{nullptr, nullptr, qk_weights_permuted_modify};
inline constexpr ClassTensors kBloom{bloom_filter, qkv_per_head_read, bloom_modify};
inline constexpr ClassTensors kInternLM2{nullptr, internlm2_read, internlm2_modify};
inline constexpr ClassTensors kMamba{nullptr, nullptr, mamba_modify};  // the tied output: hf_to_gguf.cc compares the values
inline constexpr ClassTensors kMamba2{mamba2_filter, mamba2_read, mamba2_modify};
inline constexpr ClassTensors kHunYuanDense{nullptr, tied_read, tied_lm_head_modify};
inline constexpr ClassTensors kQwen3Next{nullptr, qwen3next_read, qwen3next_modify, qwen_mtp_filter, qwen_mtp_read};

/// The rows whose converter class has `supports_mtp_export` (convert_hf_to_gguf.py's --no-mtp / --no-nextn
/// accepted): Qwen3-Next (qwen.py's _QwenMtpMixin), the rows reading their MTP layers with qwen_mtp_read.
inline bool supports_mtp_export(const ArchRow& row) { return row.tensors && row.tensors->read_dir == qwen_mtp_read; }

}  // namespace amn::arch::classes
