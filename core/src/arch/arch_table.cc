// SPDX-License-Identifier: MIT OR Apache-2.0
// The architecture rows (data), gguf-py's tensor-name data, config.json
// access and architecture detection.
#include "arch/arch_table.hpp"
#include "arch/arch_hf_names.hpp"
#include "arch/class_tensors.hpp"

#include "anamnesis/error.hpp"

#include <filesystem>
#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

namespace amn::arch {

#include "arch/arch_tensor_names.inc"
#include "arch/arch_kind_lists.inc"

namespace {

using K = TensorKind;

using namespace hf_names;

// ---- HF classes (conversion/*.py @ModelBase.register names handled as the row) --------

constexpr std::string_view kLlamaClasses[] = {"LlamaForCausalLM", "MistralForCausalLM", "MixtralForCausalLM",
                                              "LLaMAForCausalLM"};
constexpr std::string_view kQwen2Classes[] = {"Qwen2ForCausalLM"};
constexpr std::string_view kQwen3Classes[] = {"Qwen3ForCausalLM"};
constexpr std::string_view kQwen3MoeClasses[] = {"Qwen3MoeForCausalLM"};
constexpr std::string_view kPhi3Classes[] = {"Phi3ForCausalLM"};
constexpr std::string_view kGpt2Classes[] = {"GPT2LMHeadModel"};
constexpr std::string_view kGemma2Classes[] = {"Gemma2ForCausalLM"};
// Gemma3ForConditionalGeneration (4B/12B/27B) is the same converter class: its text model
// (language_model. stripped, the vision tower and projector dropped; the mmproj file is not written).
constexpr std::string_view kGemma3Classes[] = {"Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"};
constexpr std::string_view kGraniteClasses[] = {"GraniteForCausalLM"};
constexpr std::string_view kOlmo2Classes[] = {"Olmo2ForCausalLM", "Olmo3ForCausalLM"};
constexpr std::string_view kDeepseek2Classes[] = {"DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"};
constexpr std::string_view kGptOssClasses[] = {"GptOssForCausalLM"};
constexpr std::string_view kMistral3Classes[] = {"Mistral3ForConditionalGeneration", "Ministral3ForCausalLM"};
constexpr std::string_view kSmolLM3Classes[] = {"SmolLM3ForCausalLM"};       // llama.py SmolLM3Model(LlamaModel), no body
constexpr std::string_view kArceeClasses[] = {"ArceeForCausalLM"};           // llama.py ArceeModel: LlamaModel + pooling
constexpr std::string_view kSeedOssClasses[] = {"SeedOssForCausalLM"};       // olmo.py SeedOssModel(TextModel), no body
constexpr std::string_view kStarcoder2Classes[] = {"Starcoder2ForCausalLM"}; // starcoder.py StarCoder2Model(TextModel), no body
constexpr std::string_view kQwen2MoeClasses[] = {"Qwen2MoeForCausalLM"};     // qwen.py Qwen2MoeModel
constexpr std::string_view kOlmoeClasses[] = {"OlmoeForCausalLM"};           // olmo.py OlmoeModel
constexpr std::string_view kGemmaClasses[] = {"GemmaForCausalLM"};           // gemma.py GemmaModel
constexpr std::string_view kExaoneClasses[] = {"ExaoneForCausalLM"};         // exaone.py ExaoneModel (EXAONE 3.x)
constexpr std::string_view kExaone4Classes[] = {"Exaone4ForCausalLM"};       // exaone.py Exaone4Model
constexpr std::string_view kCommandRClasses[] = {"CohereForCausalLM"};       // command_r.py CommandR2Model
constexpr std::string_view kCohere2Classes[] = {"Cohere2ForCausalLM"};       // command_r.py Cohere2Model
constexpr std::string_view kPhi2Classes[] = {"PhiForCausalLM"};             // phi.py Phi2Model
// internlm.py InternLM3Model: GGUF `llama`, LlamaModel's keys and Q/K permutation, but no experts, no
// rope_freqs and its own vocabulary (the way back is the llama row's).
constexpr std::string_view kInternLM3Classes[] = {"InternLM3ForCausalLM"};
constexpr std::string_view kMiniMaxM2Classes[] = {"MiniMaxM2ForCausalLM"};   // minimax.py MiniMaxM2Model
constexpr std::string_view kGraniteMoeClasses[] = {"GraniteMoeForCausalLM", "GraniteMoeSharedForCausalLM"};  // granite.py
constexpr std::string_view kErnie4_5Classes[] = {"Ernie4_5ForCausalLM", "Ernie4_5_ForCausalLM"};  // ernie.py Ernie4_5Model
constexpr std::string_view kGlm4Classes[] = {"Glm4ForCausalLM"};         // glm.py Glm4Model (not Glm4v: M-RoPE)
constexpr std::string_view kGlm4MoeClasses[] = {"Glm4MoeForCausalLM"};   // glm.py Glm4MoeModel (not Glm4vMoe)
constexpr std::string_view kFalconClasses[] = {"FalconForCausalLM", "RWForCausalLM"};  // falcon.py FalconModel
constexpr std::string_view kErnie4_5MoeClasses[] = {"Ernie4_5_MoeForCausalLM"};  // ernie.py Ernie4_5MoeModel
constexpr std::string_view kLfm2Classes[] = {"Lfm2ForCausalLM", "LFM2ForCausalLM"};  // lfm2.py LFM2Model
// llama.py Llama4Model: the text model (vision_model / multi_modal_projector dropped; the mmproj is not written).
constexpr std::string_view kLlama4Classes[] = {"Llama4ForConditionalGeneration", "Llama4ForCausalLM"};
// qwenvl.py Qwen2VLModel / qwen3vl.py Qwen3VLTextModel: the text model (vision tower dropped; the mmproj is not written).
constexpr std::string_view kQwen2VlClasses[] = {"Qwen2VLForConditionalGeneration", "Qwen2_5_VLForConditionalGeneration"};
constexpr std::string_view kQwen3VlClasses[] = {"Qwen3VLForConditionalGeneration"};
constexpr std::string_view kQwen3VlMoeClasses[] = {"Qwen3VLMoeForConditionalGeneration"};  // qwen3vl.py Qwen3VLMoeTextModel
constexpr std::string_view kHunYuanDenseClasses[] = {"HunYuanDenseV1ForCausalLM"};  // hunyuan.py HunYuanModel
// bert.py BertModel and its classifier (cross-encoder rerankers: classifier as cls.output with its labels;
// CamembertModel, registered with them, is refused by name: kRefusedClasses).
constexpr std::string_view kBertClasses[] = {"BertModel", "BertForMaskedLM", "BertForSequenceClassification"};
constexpr std::string_view kNomicBertClasses[] = {"NomicBertModel"};  // bert.py NomicBertModel (not its MoE form)
constexpr std::string_view kModernBertClasses[] = {"ModernBertModel"};  // bert.py ModernBertModel (not the MLM/classifier heads)
// bert.py XLMRobertaModel and its classifier (bge-reranker-v2-m3: classifier.dense / out_proj as cls / cls.output),
// the Unigram sentencepiece.bpe.model as "t5". The way back takes this row for a `bert` GGUF with a "t5" tokenizer
// (hf_layout.cc): the dropped position rows come back as zeros, the Unigram model as sentencepiece.bpe.model.
constexpr std::string_view kXlmRobertaClasses[] = {"XLMRobertaModel", "XLMRobertaForSequenceClassification"};
// bert.py RobertaModel (sentence-transformers' RoBERTa encoders, cross-encoder rerankers): XLM-R's position cut and
// classifier head, a gpt2 BPE tokenizer.json (+ token_type_count). The way back takes it for a `bert` GGUF with a
// "gpt2" tokenizer (hf_layout.cc).
constexpr std::string_view kRobertaClasses[] = {"RobertaModel", "RobertaForSequenceClassification"};
constexpr std::string_view kGptNeoXClasses[] = {"GPTNeoXForCausalLM"};  // gptneox.py GPTNeoXModel
constexpr std::string_view kStarCoderClasses[] = {"GPTBigCodeForCausalLM"};  // starcoder.py StarCoderModel
constexpr std::string_view kOlmoClasses[] = {"OlmoForCausalLM"};  // olmo.py OlmoModel (not hf_olmo's OLMoForCausalLM layout)
constexpr std::string_view kBloomClasses[] = {"BloomForCausalLM", "BloomModel"};  // bloom.py BloomModel
constexpr std::string_view kMiniCPMClasses[] = {"MiniCPMForCausalLM"};  // minicpm.py MiniCPMModel
constexpr std::string_view kInternLM2Classes[] = {"InternLM2ForCausalLM"};  // internlm.py InternLM2Model
constexpr std::string_view kStableLmClasses[] = {"StableLmForCausalLM", "StableLMEpochForCausalLM",
                                                 "LlavaStableLMEpochForCausalLM"};  // stablelm.py StableLMModel

// mamba.py MambaModel (FalconMamba: model_type falcon_mamba, ssm.dt_b_c_rms).
constexpr std::string_view kMambaClasses[] = {"MambaForCausalLM", "MambaLMHeadModel", "FalconMambaForCausalLM"};
constexpr std::string_view kMamba2Classes[] = {"Mamba2ForCausalLM"};  // mamba.py Mamba2Model
constexpr std::string_view kQwen3NextClasses[] = {"Qwen3NextForCausalLM"};  // qwen.py Qwen3NextModel
using tok::VocabStyle;
using HR = HparamsRule;
using ER = ExpertRule;
using GR = GeneratedRule;

// clang-format off
constexpr ArchRow kRows[] = {
    // hf_classes        gguf        vocab              hparams       kinds            permute transpose experts       generated
    //   GGUF → HF: hf_class, model_type, hidden_act, norm+1, sandwich, names; the class's own filter/modify_tensors
    {kLlamaClasses,    "llama",    VocabStyle::Llama, HR::Llama,    kKinds_llama,    true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "LlamaForCausalLM", "llama", "silu", false, false, kLlamaHfNames, &classes::kLlama},
    // GGUF → HF only: an older llama.cpp architecture name.
    {{},               "mistral",  VocabStyle::Llama, HR::None,     kKinds_llama,    true,  false, ER::None,     GR::None,
        "MistralForCausalLM", "mistral", "silu", false, false, kLlamaHfNames},
    {kQwen2Classes,    "qwen2",    VocabStyle::Qwen2, HR::Qwen2,    kKinds_qwen2,    false, false, ER::None,     GR::None,
        "Qwen2ForCausalLM", "qwen2", "silu", false, false, kPlainHfNames},
    {kQwen3Classes,    "qwen3",    VocabStyle::Qwen2, HR::Qwen2,    kKinds_qwen3,    false, false, ER::None,     GR::None,
        "Qwen3ForCausalLM", "qwen3", "silu", false, false, kPlainHfNames},
    {kQwen3MoeClasses, "qwen3moe", VocabStyle::Qwen2, HR::Qwen2Moe, kKinds_qwen3moe, false, false, ER::Qwen2Moe, GR::None,
        "Qwen3MoeForCausalLM", "qwen3_moe", "silu", false, false, kQwenMoeHfNames},
    {kPhi3Classes,     "phi3",     VocabStyle::Phi3,  HR::Phi3,     kKinds_phi3,     false, false, ER::None,     GR::Phi3RopeFactors,
        "Phi3ForCausalLM", "phi3", "silu", false, false, kPhi3HfNames},
    {kGpt2Classes,     "gpt2",     VocabStyle::Gpt2,  HR::Gpt2,     kKinds_gpt2,     false, true,  ER::None,     GR::None,
        "GPT2LMHeadModel", "gpt2", "gelu_new", false, false, kGpt2HfNames},
    {kGemmaClasses,    "gemma",    VocabStyle::Gemma, HR::Gemma,    kKinds_gemma,    false, false, ER::None,     GR::None,
        "GemmaForCausalLM", "gemma", "gelu_pytorch_tanh", true, false, kPlainHfNames, &classes::kGemma},
    {kGemma2Classes,   "gemma2",   VocabStyle::Gemma2, HR::Gemma2,  kKinds_gemma2,   false, false, ER::None,     GR::None,
        "Gemma2ForCausalLM", "gemma2", "gelu_pytorch_tanh", true, true, kSandwichHfNames, &classes::kGemma},
    {kGemma3Classes,   "gemma3",   VocabStyle::Gemma3, HR::Gemma3,  kKinds_gemma3,   false, false, ER::None,     GR::None,
        "Gemma3ForCausalLM", "gemma3_text", "gelu_pytorch_tanh", true, true, kSandwichHfNames, nullptr, true},
    {kGraniteClasses,  "granite",  VocabStyle::Llama, HR::Granite,  kKinds_granite,  true,  false, ER::Mixtral,  GR::None,
        "GraniteForCausalLM", "granite", "silu", false, false, kPlainHfNames, &classes::kGranite},
    {kOlmo2Classes,    "olmo2",    VocabStyle::Gpt2,  HR::Olmo2,    kKinds_olmo2,    false, false, ER::None,     GR::None,
        "Olmo2ForCausalLM", "olmo2", "silu", false, false, kSandwichHfNames},
    {kMistral3Classes, "mistral3", VocabStyle::Llama, HR::Mistral3, kKinds_mistral3, true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "Ministral3ForCausalLM", "ministral3", "silu", false, false, kPlainHfNames, &classes::kLlama},
    {kDeepseek2Classes, "deepseek2", VocabStyle::Gpt2, HR::Deepseek2, kKinds_deepseek2, false, false, ER::Deepseek2, GR::None,
        "DeepseekV3ForCausalLM", "deepseek_v3", "silu", false, false, kDeepseek2HfNames, &classes::kDeepseek2},
    {kGptOssClasses,   "gpt-oss",  VocabStyle::Gpt2,  HR::GptOss,   kKinds_gpt_oss,  false, false, ER::None,     GR::None,
        "GptOssForCausalLM", "gpt_oss", "silu", false, false, kGptOssHfNames, &classes::kGptOss},
    {kSmolLM3Classes,  "smollm3",  VocabStyle::Llama, HR::Llama,    kKinds_smollm3,  true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "SmolLM3ForCausalLM", "smollm3", "silu", false, false, kPlainHfNames, &classes::kLlama},
    {kArceeClasses,    "arcee",    VocabStyle::Llama, HR::Arcee,    kKinds_arcee,    true,  false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "ArceeForCausalLM", "arcee", "relu2", false, false, kPlainHfNames, &classes::kLlama},
    {kSeedOssClasses,  "seed_oss", VocabStyle::Gpt2,  HR::Text,     kKinds_seed_oss, false, false, ER::None,     GR::None,
        "SeedOssForCausalLM", "seed_oss", "silu", false, false, kSandwichHfNames},
    {kStarcoder2Classes, "starcoder2", VocabStyle::Gpt2, HR::Text,  kKinds_starcoder2, false, false, ER::None,   GR::None,
        "Starcoder2ForCausalLM", "starcoder2", "gelu_pytorch_tanh", false, false, kStarcoder2HfNames},
    {kQwen2MoeClasses, "qwen2moe", VocabStyle::Gpt2,  HR::Qwen2Moe, kKinds_qwen2moe, false, false, ER::Qwen2Moe, GR::None,
        "Qwen2MoeForCausalLM", "qwen2_moe", "silu", false, false, kQwenMoeHfNames},
    {kOlmoeClasses,    "olmoe",    VocabStyle::Gpt2,  HR::Olmoe,    kKinds_olmoe,    false, false, ER::Qwen2Moe, GR::None,
        "OlmoeForCausalLM", "olmoe", "silu", false, false, kQwenMoeHfNames},
    {kExaoneClasses,   "exaone",   VocabStyle::Gpt2,  HR::Exaone,   kKinds_exaone,   false, false, ER::None,     GR::Llama3RopeFreqs,
        "ExaoneForCausalLM", "exaone", "silu", false, false, kExaoneHfNames},
    {kExaone4Classes,  "exaone4",  VocabStyle::Gpt2,  HR::Exaone4,  kKinds_exaone4,  false, false, ER::None,     GR::Llama3RopeFreqs,
        "Exaone4ForCausalLM", "exaone4", "silu", false, false, kSandwichHfNames},
    {kCommandRClasses, "command-r", VocabStyle::Gpt2, HR::CommandR, kKinds_command_r, false, false, ER::None,    GR::None,
        "CohereForCausalLM", "cohere", "silu", false, false, kPlainHfNames},
    {kCohere2Classes,  "cohere2",  VocabStyle::Gpt2,  HR::Cohere2,  kKinds_cohere2,  false, false, ER::None,     GR::None,
        "Cohere2ForCausalLM", "cohere2", "silu", false, false, kPlainHfNames},
    {kStableLmClasses, "stablelm", VocabStyle::Gpt2,  HR::StableLm, kKinds_stablelm, false, false, ER::None,     GR::None,
        "StableLmForCausalLM", "stablelm", "silu", false, false, kPlainHfNames},
    {kPhi2Classes,     "phi2",     VocabStyle::Gpt2,  HR::Phi2,     kKinds_phi2,     false, false, ER::None,     GR::None,
        "PhiForCausalLM", "phi", "gelu_new", false, false, kPhi2HfNames},
    {kInternLM3Classes, "llama",   VocabStyle::InternLM3, HR::Llama, kKinds_llama,   true,  false, ER::None,     GR::None,
        "LlamaForCausalLM", "llama", "silu", false, false, {}, &classes::kLlama},
    {kMiniMaxM2Classes, "minimax-m2", VocabStyle::Gpt2, HR::MiniMaxM2, kKinds_minimax_m2, false, false, ER::Mixtral, GR::None,
        "MiniMaxM2ForCausalLM", "minimax_m2", "silu", false, false, kMiniMaxM2HfNames},
    {kErnie4_5Classes, "ernie4_5", VocabStyle::Ernie4_5, HR::Ernie4_5, kKinds_ernie4_5, false, false, ER::None, GR::None,
        "Ernie4_5ForCausalLM", "ernie4_5", "silu", false, false, kPlainHfNames, &classes::kErnie4_5},
    {kGlm4Classes,     "glm4",     VocabStyle::Glm4,  HR::Glm4,     kKinds_glm4,     false, false, ER::None,     GR::None,
        "Glm4ForCausalLM", "glm4", "silu", false, false, kGlm4HfNames},
    {kGlm4MoeClasses,  "glm4moe",  VocabStyle::Glm,   HR::Glm4Moe,  kKinds_glm4moe,  false, false, ER::Deepseek2, GR::None,
        "Glm4MoeForCausalLM", "glm4_moe", "silu", false, false, kGlm4MoeHfNames, &classes::kGlm4Moe},
    {kFalconClasses,   "falcon",   VocabStyle::Gpt2,  HR::Falcon,   kKinds_falcon,   false, false, ER::None,     GR::None,
        "FalconForCausalLM", "falcon", "gelu", false, false, kFalconHfNames, &classes::kFalcon},
    {kErnie4_5MoeClasses, "ernie4_5-moe", VocabStyle::Ernie4_5, HR::Ernie4_5Moe, kKinds_ernie4_5_moe, false, false, ER::Ernie4_5Moe, GR::None,
        "Ernie4_5_MoeForCausalLM", "ernie4_5_moe", "silu", false, false, kErnieMoeHfNames, &classes::kErnie4_5Moe},
    // The way back is the text class, Llama4ForCausalLM (the GGUF holds no vision tower).
    {kLlama4Classes,   "llama4",   VocabStyle::Gpt2,  HR::Llama4,   kKinds_llama4,   false, false, ER::Mixtral,  GR::Llama3RopeFreqs,
        "Llama4ForCausalLM", "llama4_text", "silu", false, false, kLlama4HfNames, &classes::kLlama4},
    {kLfm2Classes,     "lfm2",     VocabStyle::Gpt2,  HR::Lfm2,     kKinds_lfm2,     false, false, ER::None,     GR::None,
        "Lfm2ForCausalLM", "lfm2", "silu", false, false, kLfm2HfNames, &classes::kLfm2},
    {kGraniteMoeClasses, "granitemoe", VocabStyle::Llama, HR::GraniteMoe, kKinds_granitemoe, true, false, ER::None, GR::None,
        "GraniteMoeSharedForCausalLM", "granitemoeshared", "silu", false, false, kGraniteMoeHfNames, &classes::kGraniteMoe},
    // HF → GGUF only: the way back would need the vision tower the GGUF does not hold.
    {kQwen2VlClasses,  "qwen2vl",  VocabStyle::Qwen2, HR::Text,     kKinds_qwen2vl,  false, false, ER::None,     GR::None,
        "Qwen2_5_VLForConditionalGeneration", "qwen2_5_vl", "silu", false, false, {}, &classes::kQwen2VL},
    {kQwen3VlClasses,  "qwen3vl",  VocabStyle::Qwen2, HR::Qwen3VL,  kKinds_qwen3vl,  false, false, ER::None,     GR::None,
        "Qwen3VLForConditionalGeneration", "qwen3_vl", "silu", false, false, {}, &classes::kQwen3VL},
    {kQwen3VlMoeClasses, "qwen3vlmoe", VocabStyle::Gpt2, HR::Qwen3VLMoe, kKinds_qwen3vlmoe, false, false, ER::Qwen2Moe, GR::None,
        "Qwen3VLMoeForConditionalGeneration", "qwen3_vl_moe", "silu", false, false, {}, &classes::kQwen3VLMoe},
    {kHunYuanDenseClasses, "hunyuan-dense", VocabStyle::HunYuan, HR::HunYuanDense, kKinds_hunyuan_dense, false, false, ER::None, GR::None,
        "HunYuanDenseV1ForCausalLM", "hunyuan_v1_dense", "silu", false, false, kHunYuanHfNames, &classes::kHunYuanDense},
    {kBertClasses,     "bert",     VocabStyle::Bert,  HR::Bert,     kKinds_bert,     false, false, ER::None,     GR::None,
        "BertModel", "bert", "gelu", false, false, kBertHfNames, &classes::kBert},
    {kNomicBertClasses, "nomic-bert", VocabStyle::Bert, HR::NomicBert, kKinds_nomic_bert, false, false, ER::None, GR::None,
        "NomicBertModel", "nomic_bert", "swiglu", false, false, kNomicBertHfNames, &classes::kNomicBert},
    {kModernBertClasses, "modern-bert", VocabStyle::ModernBert, HR::ModernBert, kKinds_modern_bert, false, false, ER::None, GR::None,
        "ModernBertModel", "modernbert", "gelu", false, false, kModernBertHfNames, &classes::kModernBert},
    {kXlmRobertaClasses, "bert", VocabStyle::XlmRoberta, HR::XlmRoberta, kKinds_bert, false, false, ER::None, GR::None,
        "XLMRobertaModel", "xlm-roberta", "gelu", false, false, kXlmRobertaHfNames, &classes::kXlmRoberta},
    {kRobertaClasses, "bert", VocabStyle::Roberta, HR::Roberta, kKinds_bert, false, false, ER::None, GR::None,
        "RobertaModel", "roberta", "gelu", false, false, kXlmRobertaHfNames, &classes::kRoberta},
    {kGptNeoXClasses,  "gptneox",  VocabStyle::Gpt2,  HR::GptNeoX,  kKinds_gptneox,  false, false, ER::None,     GR::None,
        "GPTNeoXForCausalLM", "gpt_neox", "gelu", false, false, kGptNeoXHfNames, &classes::kGptNeoX},
    {kStarCoderClasses, "starcoder", VocabStyle::Gpt2, HR::StarCoder, kKinds_starcoder, false, false, ER::None,   GR::None,
        "GPTBigCodeForCausalLM", "gpt_bigcode", "gelu_pytorch_tanh", false, false, kGpt2HfNames},
    {kMambaClasses,    "mamba",    VocabStyle::Mamba, HR::Mamba,    kKinds_mamba,    false, false, ER::None,     GR::None,
        "MambaForCausalLM", "mamba", "silu", false, false, kMambaHfNames, &classes::kMamba},
    {kMamba2Classes,   "mamba2",   VocabStyle::Mamba2, HR::Mamba2,  kKinds_mamba2,   false, false, ER::None,     GR::None,
        "Mamba2ForCausalLM", "mamba2", "silu", false, false, kMamba2HfNames, &classes::kMamba2},
    {kQwen3NextClasses, "qwen3next", VocabStyle::Gpt2, HR::Qwen3Next, kKinds_qwen3next, false, false, ER::Qwen2Moe, GR::None,
        "Qwen3NextForCausalLM", "qwen3_next", "silu", false, false, kQwen3NextHfNames, &classes::kQwen3Next},
    // OLMo 1's LayerNorms have no weights: the common names without their norms.
    {kOlmoClasses,     "olmo",     VocabStyle::Gpt2,  HR::Olmo,     kKinds_olmo,     true,  false, ER::None,     GR::None,
        "OlmoForCausalLM", "olmo", "silu", false, false, kCommonHfNames, &classes::kOlmo},
    {kBloomClasses,    "bloom",    VocabStyle::Gpt2,  HR::Bloom,    kKinds_bloom,    false, false, ER::None,     GR::None,
        "BloomForCausalLM", "bloom", "gelu", false, false, kBloomHfNames, &classes::kBloom},
    {kMiniCPMClasses,  "minicpm",  VocabStyle::SentencePiece, HR::MiniCPM, kKinds_minicpm, true, false, ER::None, GR::None,
        "MiniCPMForCausalLM", "minicpm", "silu", false, false, kPlainHfNames, &classes::kMiniCPM},
    {kInternLM2Classes, "internlm2", VocabStyle::InternLM2, HR::Text, kKinds_internlm2, false, false, ER::None,  GR::None,
        "InternLM2ForCausalLM", "internlm2", "silu", false, false, kInternLM2HfNames, &classes::kInternLM2},
};
// Rows with hf_names, in table order, are hf_layout_architectures(): keep that list's order.
// clang-format on

}  // namespace

std::span<const TensorKindInfo> tensor_kind_rows() noexcept { return kKindRows; }

std::string_view tensor_kind_name(TensorKind kind) noexcept {
    for (const auto& r : kKindRows)
        if (r.kind == kind) return r.gguf;
    return {};
}

std::span<const TensorKind> forced_f32_kinds() noexcept { return kForcedF32; }
std::span<const TensorKind> ternary_f16_kinds() noexcept { return kTernaryF16; }

std::span<const ArchRow> arch_rows() noexcept { return kRows; }

const ArchRow* find_hf_arch(std::string_view hf_class) noexcept {
    for (const auto& r : kRows)
        for (auto c : r.hf_classes)
            if (c == hf_class) return &r;
    return nullptr;
}

const ArchRow* find_gguf_arch(std::string_view gguf) noexcept {
    for (const auto& r : kRows)
        if (r.gguf == gguf) return &r;
    return nullptr;
}

std::string supported_hf_architectures() {
    std::string s;
    for (const auto& r : kRows)
        for (auto c : r.hf_classes) s += (s.empty() ? "" : ", ") + std::string(c);
    return s;
}

// ---- config.json ------------------------------------------------------------------------

namespace {
// How errors name the document: its file name (config.json, adapter_config.json, …).
std::string json_file_name(const std::string& file) {
    const std::string name = std::filesystem::path(file).filename().string();
    return name.empty() ? std::string("config.json") : name;
}
}  // namespace

HfConfig::HfConfig(std::string_view text, std::string file) : doc_(text, file, json_file_name(file)) {
    if (!doc_.root().is_object()) throw Error(ErrorCode::BadJson, json_file_name(doc_.file()) + " is not a JSON object", doc_.file());
    if (auto t = detail::json_get(doc_.root(), "text_config"); t && t->is_object()) text_ = *t;
}

HfConfig HfConfig::load(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(ErrorCode::Io, "cannot read config.json", path);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return HfConfig(text, path);
}

std::optional<simdjson::dom::element> HfConfig::get(std::string_view key) const noexcept {
    if (text_)
        if (auto v = detail::json_get(*text_, key)) return v;
    return detail::json_get(doc_.root(), key);
}

std::optional<simdjson::dom::element> HfConfig::top(std::string_view key) const noexcept {
    return detail::json_get(doc_.root(), key);
}

std::optional<std::pair<std::string_view, simdjson::dom::element>> HfConfig::find(
    std::span<const std::string_view> keys) const {
    for (auto k : keys)
        if (auto v = get(k)) return std::pair{k, *v};
    return std::nullopt;
}

namespace {

std::optional<std::string> first_architecture(simdjson::dom::element obj, const std::string& file,
                                              std::string_view where) {
    auto a = detail::json_get(obj, "architectures");
    if (!a || a->is_null()) return std::nullopt;
    if (!a->is_array())
        throw Error(ErrorCode::BadJson,
                    std::string(where) + "architectures: expected a list, got " + std::string(detail::json_type_name(*a)),
                    file);
    simdjson::dom::array arr = *a;
    if (arr.size() == 0) return std::nullopt;
    simdjson::dom::element first = arr.at(0);
    if (!first.is_string())
        throw Error(ErrorCode::BadJson,
                    std::string(where) + "architectures[0]: expected a string, got " +
                        std::string(detail::json_type_name(first)),
                    file);
    return std::string(std::string_view(first));
}

}  // namespace

std::string detect_hf_architecture(const HfConfig& cfg) {
    std::optional<std::string> arch = first_architecture(cfg.root(), cfg.file(), "");
    if (auto s = cfg.top("ssm_cfg"); !arch && s) {  // non-HF Mamba / Mamba-2: ssm_cfg.get("layer", "Mamba") + "ForCausalLM"
        if (!s->is_object()) throw Error(ErrorCode::BadJson, "config.json key 'ssm_cfg': expected an object", cfg.file());
        const auto layer = detail::json_get(*s, "layer");
        if (layer && !layer->is_string()) throw Error(ErrorCode::BadJson, "config.json key 'ssm_cfg.layer': expected a string", cfg.file());
        arch = (layer ? std::string(std::string_view(*layer)) : std::string("Mamba")) + "ForCausalLM";
    }
    if (auto t = cfg.top("text_config"); t && t->is_object())
        if (auto ta = first_architecture(*t, cfg.file(), "text_config."); ta) arch = ta;
    if (!arch)
        throw Error(ErrorCode::Malformed,
                    "config.json has no 'architectures' entry (the converter fails: \"Failed to detect model architecture\")",
                    cfg.file());
    return *arch;
}

namespace {

/// Classes convert_hf_to_gguf.py registers that are refused on purpose: the reason, not "unknown".
constexpr std::pair<std::string_view, std::string_view> kRefusedClasses[] = {
    {"HunYuanMoEV1ForCausalLM",
     "its tokenizer exists only as the model's remote code (tokenization_hy.py over hy.tiktoken, its special tokens "
     "defined in Python), which the converter runs with trust_remote_code and anamnesis never runs"},
    // bert.py registers it as BertModel, whose get_vocab_base_pre knows no checksum for a SentencePiece (Unigram)
    // tokenizer: the converter stops (run here through the shim on a Unigram CamembertModel folder).
    {"CamembertModel",
     "llama.cpp's converter (34af94c) reads it as BertModel, whose vocabulary step knows no pre-tokenizer checksum "
     "for CamemBERT's SentencePiece tokenizer and stops (\"BPE pre-tokenizer was not recognized\"): there is no "
     "GGUF of it to match"},
};

}  // namespace

const ArchRow& hf_arch_for_config(const HfConfig& cfg) {
    const std::string a = detect_hf_architecture(cfg);
    for (const auto& [cls, why] : kRefusedClasses)
        if (a == cls)
            throw Error(ErrorCode::Unsupported,
                        a + " is not supported: " + std::string(why) + " (supported: " + supported_hf_architectures() + ")",
                        cfg.file());
    if (const ArchRow* r = find_hf_arch(a)) {
        if (r->hparams == HparamsRule::Mistral3)
            if (auto mt = cfg.get("model_type"); mt && mt->is_string() && std::string_view(*mt) == "mistral4")
                throw Error(ErrorCode::Unsupported,
                            "Mistral 4 (" + a + " with model_type mistral4) is not supported (supported: " +
                                supported_hf_architectures() + ")",
                            cfg.file());
        return *r;
    }
    throw Error(ErrorCode::Unsupported, "unknown architecture " + a + " (supported: " + supported_hf_architectures() + ")",
                cfg.file());
}

}  // namespace amn::arch
