#!/usr/bin/python3
"""Tiny Hugging Face folders for the architectures the shared hf-gguf fixtures
lack, and what llama.cpp's convert_hf_to_gguf.py writes for them:
tests/core/hf_arch_reference.json (per case: every non-tokenizer KV of the
--outtype f32 file in file order with its type and raw little-endian value,
every tensor's name, type, ne — the shape of the shared manifest's "gguf"
objects; and "sha256": the whole file
per --outtype f32 / bf16 / q8_0).

  hf_arch_models.py OUT --shared SHARED_FIXTURES [--inputs-only]
      [--llama-cpp /work/ref/llama.cpp --shim /work/ref/hf_shim] [--write-reference FILE]
      [--cases A,B]   (convert only these; the reference keeps the other cases)

--inputs-only writes the folders only (test_arch_table and test_cli_hf_gguf do
this at test time: the JSON holds the converter's answer). Cases and configs:
qwen2 with q/k/v biases, qwen3moe, phi3 with longrope, gpt2 (F32 weights);
gemma2 (an lm_head the converter drops; also stored F16: norms + 1 in F16), gemma3 (SentencePiece) and gemma3
without tokenizer.model (BPE: embedding cut to the tokenizer), granite (with a
head_dim it ignores), OLMo 2, OLMo 3 (4 layers, sliding-window layer_types),
Ministral3ForCausalLM (yarn rope_parameters) and Mistral-Small-3.1's
Mistral3ForConditionalGeneration (text_config, vision tensors dropped),
DeepSeek-V3 (MLA with q_lora_rank, dense + MoE layer, shared expert, sigmoid
router with its correction bias, an MTP layer the converter skips) and
DeepSeek-V2-Lite (27 layers as the real one: llama.cpp tells the Lite model by
that count), gpt-oss-20b (MXFP4 experts: seeded U8 blocks and E8M0 scales
2^-6 … 2^2) and its BF16 form (experts [E, in, out]) — BF16 weights,
config.json the real model's with dimensions shrunk.

Tokenizers are copied from the shared fixtures at generation time and never
committed (none of the real ones of these models is at hand; the nearest kind
is used): Qwen3's tokenizer.json for qwen2/qwen3moe, gpt2, the BPE gemma3
case and DeepSeek-V3; Llama 2's tokenizer.model for phi3, and with its tokenizer_config.json
and special_tokens_map.json for gemma2/gemma3 (Gemma's are SentencePiece
models of 256k pieces); Llama 3's tokenizer.json (a tiktoken-style BPE like
Granite's, OLMo's dolma2, Mistral's tekken and DeepSeek's) for granite,
olmo2/olmo3, Ministral 3, DeepSeek-V2-Lite and gpt-oss (o200k); Mistral v0.1's tokenizer.model (the Mixtral fixture's) for
Mistral Small 3.1. vocab_size follows the tokenizer. Conventions of the shared
fixtures: hidden 32, 2 layers, 4 heads, intermediate 64, weights 0.02·N(0,1)
(norms 1 + …), numpy RandomState seeded from sha256("<case>/<tensor>"),
BF16 by round-to-nearest-even.
"""
import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

H, L, NH, FF = 32, 2, 4, 64


def rand(case, name, shape, norm=False):
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    v = np.random.RandomState(seed).standard_normal(shape) * 0.02
    return (v + 1.0 if norm else v).astype(np.float32)


def rand_u8(case, name, shape):
    """MXFP4 payloads, seeded as rand(): `_blocks` any byte (two E2M1 codes), `_scales` E8M0 exponents 2^-6 … 2^2."""
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    r = np.random.RandomState(seed)
    return (r.randint(0, 256, shape) if name.endswith("_blocks") else r.randint(121, 130, shape)).astype(np.uint8)


def to_bf16_bytes(a):
    """f32 → BF16 by round-to-nearest-even (as torch's .to(torch.bfloat16); no NaN here)."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).tobytes()


def write_safetensors(path, tensors, dtype="F32"):
    header, off, blobs = {}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        dt = "U8" if a.dtype == np.uint8 else dtype  # MXFP4 blocks/scales
        b = to_bf16_bytes(a) if dt == "BF16" else a.astype(np.float16).tobytes() if dt == "F16" else a.tobytes()
        header[name] = {"dtype": dt, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def qwen2(case):
    cfg = {"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643, "eos_token_id": 151645,
           "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "max_position_embeddings": 32768, "max_window_layers": 21, "model_type": "qwen2", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_scaling": None,
           "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
           "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.q_proj.bias": (H,),
                  p + "self_attn.k_proj.weight": (16, H), p + "self_attn.k_proj.bias": (16,),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.v_proj.bias": (16,),
                  p + "self_attn.o_proj.weight": (H, H), p + "mlp.gate_proj.weight": (FF, H),
                  p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "qwen3"


def qwen3moe(case):
    cfg = {"architectures": ["Qwen3MoeForCausalLM"], "attention_bias": False, "bos_token_id": 151643, "decoder_sparse_step": 1,
           "eos_token_id": 151645, "head_dim": 16, "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF,
           "max_position_embeddings": 40960, "max_window_layers": 48, "mlp_only_layers": [], "model_type": "qwen3_moe",
           "moe_intermediate_size": 16, "norm_topk_prob": True, "num_attention_heads": NH, "num_experts": 4,
           "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2, "output_router_logits": False,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
           "sliding_window": None, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
           "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (64, H), p + "self_attn.k_proj.weight": (32, H),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.o_proj.weight": (H, 64),
                  p + "self_attn.q_norm.weight": (16,), p + "self_attn.k_norm.weight": (16,),
                  p + "mlp.gate.weight": (4, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "qwen3"


def phi3(case):
    cfg = {"architectures": ["Phi3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 1,
           "embd_pdrop": 0.0, "eos_token_id": 32000, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "max_position_embeddings": 131072, "model_type": "phi3", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": NH, "original_max_position_embeddings": 4096,
           "pad_token_id": 32000, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05,
           "rope_scaling": {"long_factor": [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601 + 1e-9],
                            "short_factor": [1.0, 1.0199999809265137, 1.0299999713897705, 1.1 / 3], "type": "longrope"},
           "rope_theta": 10000.0, "sliding_window": 262144, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
           "use_cache": True, "vocab_size": 32064}
    t = {"model.embed_tokens.weight": (32064, H), "model.norm.weight": (H,), "lm_head.weight": (32064, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.qkv_proj.weight": (3 * H, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "mlp.gate_up_proj.weight": (2 * FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "llama2"


def gpt2(case):
    cfg = {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1, "bos_token_id": 50256,
           "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
           "model_type": "gpt2", "n_ctx": 1024, "n_embd": H, "n_head": NH, "n_layer": L, "n_positions": 1024,
           "resid_pdrop": 0.1, "summary_activation": None, "summary_first_dropout": 0.1, "summary_proj_to_labels": True,
           "summary_type": "cls_index", "summary_use_proj": True, "vocab_size": 151936}
    t = {"wte.weight": (151936, H), "wpe.weight": (1024, H), "ln_f.weight": (H,), "ln_f.bias": (H,)}
    for i in range(L):
        p = f"h.{i}."
        t.update({p + "ln_1.weight": (H,), p + "ln_1.bias": (H,), p + "ln_2.weight": (H,), p + "ln_2.bias": (H,),
                  p + "attn.c_attn.weight": (H, 3 * H), p + "attn.c_attn.bias": (3 * H,),
                  p + "attn.c_proj.weight": (H, H), p + "attn.c_proj.bias": (H,),
                  p + "mlp.c_fc.weight": (H, 4 * H), p + "mlp.c_fc.bias": (4 * H,),
                  p + "mlp.c_proj.weight": (4 * H, H), p + "mlp.c_proj.bias": (H,)})
    return cfg, t, "qwen3"


def layer_tensors(p, q_rows, kv_rows, norms, qk_norm=None):
    """One decoder layer's attention + gated MLP tensors, plus the named norms ((H,) each)."""
    t = {p + "self_attn.q_proj.weight": (q_rows, H), p + "self_attn.k_proj.weight": (kv_rows, H),
         p + "self_attn.v_proj.weight": (kv_rows, H), p + "self_attn.o_proj.weight": (H, q_rows),
         p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)}
    for n in norms:
        t[p + n + ".weight"] = (H,)
    if qk_norm:
        t[p + "self_attn.q_norm.weight"] = (qk_norm[0],)
        t[p + "self_attn.k_norm.weight"] = (qk_norm[1],)
    return t


GEMMA_NORMS = ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm", "post_feedforward_layernorm")


def gemma2(case):
    # google/gemma-2-2b-it's config.json; head_dim 16 != 32/4 as Gemma's 256 != 2304/8. An lm_head.weight
    # (as AutoAWQ exports carry) that Gemma2Model drops.
    cfg = {"architectures": ["Gemma2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "attn_logit_softcapping": 50.0, "bos_token_id": 2, "cache_implementation": "hybrid", "eos_token_id": [1, 107],
           "final_logit_softcapping": 30.0, "head_dim": 16, "hidden_act": "gelu_pytorch_tanh",
           "hidden_activation": "gelu_pytorch_tanh", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "max_position_embeddings": 8192, "model_type": "gemma2", "num_attention_heads": NH, "num_hidden_layers": L,
           "num_key_value_heads": 2, "pad_token_id": 0, "query_pre_attn_scalar": 16, "rms_norm_eps": 1e-06,
           "rope_theta": 10000.0, "sliding_window": 4096, "torch_dtype": "bfloat16", "transformers_version": "4.42.4",
           "use_cache": True, "vocab_size": 32000}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,), "lm_head.weight": (32000, H)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", NH * 16, 2 * 16, GEMMA_NORMS))
    return cfg, t, "llama2-spm", "BF16"


def gemma2_f16(case):
    # The same in F16 (as F16 re-exports ship it): the converter adds 1 to the norms in F16.
    cfg, t, tok, _ = gemma2(case)
    cfg["torch_dtype"] = "float16"
    return cfg, t, tok, "F16"


def gemma3_config(vocab):
    # google/gemma-3-1b-it's config.json (Gemma3ForCausalLM, one KV head), head_dim 16.
    return {"architectures": ["Gemma3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
            "attn_logit_softcapping": None, "bos_token_id": 2, "cache_implementation": "hybrid", "eos_token_id": [1, 106],
            "final_logit_softcapping": None, "head_dim": 16, "hidden_activation": "gelu_pytorch_tanh", "hidden_size": H,
            "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 32768,
            "model_type": "gemma3_text", "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 1,
            "pad_token_id": 0, "query_pre_attn_scalar": 16, "rms_norm_eps": 1e-06, "rope_local_base_freq": 10000,
            "rope_scaling": None, "rope_theta": 1000000, "sliding_window": 512, "sliding_window_pattern": 6,
            "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0", "use_cache": True, "vocab_size": vocab}


def gemma3_tensors(vocab):
    t = {"model.embed_tokens.weight": (vocab, H), "model.norm.weight": (H,)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", NH * 16, 16, GEMMA_NORMS, qk_norm=(16, 16)))
    return t


def gemma3(case):
    return gemma3_config(32000), gemma3_tensors(32000), "llama2-spm", "BF16"


def gemma3_bpe(case):
    # No tokenizer.model: Gemma3Model takes the BPE path and keeps only len(vocab) + len(added_tokens)
    # = 151 669 of the 151 936 embedding rows.
    return gemma3_config(151936), gemma3_tensors(151936), "qwen3", "BF16"


def granite(case):
    # ibm-granite/granite-3.3-2b-instruct's config.json, plus a head_dim (= 32/4) that GraniteModel ignores.
    cfg = {"architectures": ["GraniteForCausalLM"], "attention_bias": False, "attention_dropout": 0.1,
           "attention_multiplier": 0.015625, "bos_token_id": 128000, "embedding_multiplier": 12.0, "eos_token_id": 128009,
           "head_dim": 8, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "logits_scaling": 8.0, "max_position_embeddings": 131072, "mlp_bias": False, "model_type": "granite",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 128009,
           "residual_multiplier": 0.22, "rms_norm_eps": 1e-05, "rope_scaling": None, "rope_theta": 10000000.0,
           "tie_word_embeddings": True, "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", H, 16, ("input_layernorm", "post_attention_layernorm")))
    return cfg, t, "llama3", "BF16"


def olmo2(case):
    # allenai/OLMo-2-1124-7B-Instruct's config.json (MHA; q_norm/k_norm over the whole projection).
    cfg = {"architectures": ["Olmo2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "bos_token_id": 128000, "eos_token_id": 128009, "hidden_act": "silu", "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 4096, "model_type": "olmo2",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": NH, "pad_token_id": 128009,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 500000, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", H, H, ("post_attention_layernorm", "post_feedforward_layernorm"),
                               qk_norm=(H, H)))
    return cfg, t, "llama3", "BF16"


def olmo3(case):
    # allenai/Olmo-3-7B-Instruct's config.json: sliding window on 3 of every 4 layers (4 layers here).
    cfg = {"architectures": ["Olmo3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "bos_token_id": 128000, "eos_token_id": 128009, "hidden_act": "silu", "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF,
           "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
           "max_position_embeddings": 65536, "model_type": "olmo3", "num_attention_heads": NH, "num_hidden_layers": 4,
           "num_key_value_heads": NH, "pad_token_id": 128009, "rms_norm_eps": 1e-06,
           "rope_scaling": {"attention_factor": 1.2079441541679836, "beta_fast": 32, "beta_slow": 1, "factor": 8.0,
                            "original_max_position_embeddings": 8192, "rope_type": "yarn"},
           "rope_theta": 500000, "sliding_window": 4096, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
           "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(4):
        t.update(layer_tensors(f"model.layers.{i}.", H, H, ("post_attention_layernorm", "post_feedforward_layernorm"),
                               qk_norm=(H, H)))
    return cfg, t, "llama3", "BF16"


def ministral3(case):
    # mistralai/Ministral-3-3B-Instruct-2512's text config as Ministral3ForCausalLM (yarn rope_parameters).
    cfg = {"architectures": ["Ministral3ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 128000,
           "eos_token_id": 128009, "head_dim": 16, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "max_position_embeddings": 262144, "model_type": "ministral3",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-05,
           "rope_parameters": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 16.0, "llama_4_scaling_beta": 0.1,
                               "mscale": 1.0, "mscale_all_dim": 1.0, "original_max_position_embeddings": 16384,
                               "rope_theta": 1000000.0, "rope_type": "yarn", "type": "yarn"},
           "sliding_window": None, "tie_word_embeddings": True, "torch_dtype": "bfloat16", "use_cache": True,
           "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", NH * 16, 2 * 16, ("input_layernorm", "post_attention_layernorm")))
    return cfg, t, "llama3", "BF16"


def mistral_small3(case):
    # mistralai/Mistral-Small-3.1-24B-Instruct-2503's config.json (Mistral3ForConditionalGeneration, text_config
    # model_type "mistral"); a few vision/projector tensors the converter drops, the text model under
    # "language_model.".
    cfg = {"architectures": ["Mistral3ForConditionalGeneration"], "image_token_index": 10, "model_type": "mistral3",
           "multimodal_projector_bias": False, "projector_hidden_act": "gelu", "spatial_merge_size": 2,
           "text_config": {"head_dim": 16, "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF,
                           "max_position_embeddings": 131072, "model_type": "mistral", "num_attention_heads": NH,
                           "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-05,
                           "rope_theta": 1000000000.0, "sliding_window": None, "vocab_size": 32000},
           "torch_dtype": "bfloat16",
           "vision_config": {"attention_dropout": 0.0, "head_dim": 8, "hidden_act": "silu", "hidden_size": H,
                             "image_size": 1540, "intermediate_size": FF, "model_type": "pixtral", "num_attention_heads": NH,
                             "num_channels": 3, "num_hidden_layers": 1, "patch_size": 14, "rope_theta": 10000.0},
           "vision_feature_layer": -1}
    t = {"language_model.model.embed_tokens.weight": (32000, H), "language_model.model.norm.weight": (H,),
         "language_model.lm_head.weight": (32000, H), "multi_modal_projector.linear_1.weight": (H, H),
         "multi_modal_projector.norm.weight": (H,), "vision_tower.ln_pre.weight": (H,),
         "vision_tower.patch_conv.weight": (H, 3, 2, 2)}
    for i in range(L):
        t.update(layer_tensors(f"language_model.model.layers.{i}.", NH * 16, 2 * 16,
                               ("input_layernorm", "post_attention_layernorm")))
    return cfg, t, "mistral-spm", "BF16"


def deepseek_v3(case):
    # deepseek-ai/DeepSeek-V3's config.json (BF16 here, no fp8 quantization_config): MLA with q_lora_rank,
    # layer 0 dense, layer 1 MoE (4 routed experts, 1 shared, sigmoid router + e_score_correction_bias),
    # and one Multi-Token-Prediction layer past num_hidden_layers that the converter skips.
    cfg = {"architectures": ["DeepseekV3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "aux_loss_alpha": 0.001, "bos_token_id": 151643, "eos_token_id": 151645, "ep_size": 1,
           "first_k_dense_replace": 1, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "kv_lora_rank": 32, "max_position_embeddings": 163840, "model_type": "deepseek_v3",
           "moe_intermediate_size": 16, "moe_layer_freq": 1, "n_group": 2, "n_routed_experts": 4, "n_shared_experts": 1,
           "norm_topk_prob": True, "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": NH, "num_nextn_predict_layers": 1, "q_lora_rank": 32, "qk_nope_head_dim": 32,
           "qk_rope_head_dim": 16, "rms_norm_eps": 1e-06,
           "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                            "original_max_position_embeddings": 4096, "type": "yarn"},
           "rope_theta": 10000, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid", "seq_aux": True,
           "tie_word_embeddings": False, "topk_group": 1, "topk_method": "noaux_tc", "torch_dtype": "bfloat16",
           "transformers_version": "4.33.1", "use_cache": True, "v_head_dim": 32, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L + 1):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_a_proj.weight": (32, H), p + "self_attn.q_a_layernorm.weight": (32,),
                  p + "self_attn.q_b_proj.weight": (NH * 48, 32), p + "self_attn.kv_a_proj_with_mqa.weight": (48, H),
                  p + "self_attn.kv_a_layernorm.weight": (32,), p + "self_attn.kv_b_proj.weight": (NH * 64, 32),
                  p + "self_attn.o_proj.weight": (H, NH * 32)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
        elif i < L:
            t.update({p + "mlp.gate.weight": (4, H), p + "mlp.gate.e_score_correction_bias": (4,),
                      p + "mlp.shared_experts.gate_proj.weight": (16, H), p + "mlp.shared_experts.up_proj.weight": (16, H),
                      p + "mlp.shared_experts.down_proj.weight": (H, 16)})
            for x in range(4):
                q = p + f"mlp.experts.{x}."
                t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
        else:  # the MTP layer's own tensors
            t.update({p + "enorm.weight": (H,), p + "hnorm.weight": (H,), p + "eh_proj.weight": (H, 2 * H),
                      p + "shared_head.norm.weight": (H,), p + "mlp.gate_proj.weight": (FF, H),
                      p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "qwen3", "BF16"


def deepseek_v2_lite(case):
    # deepseek-ai/DeepSeek-V2-Lite's config.json: no q_lora_rank (a plain q_proj), softmax router, 2 shared
    # experts, yarn with mscale_all_dim 0.707; its 27 layers (llama.cpp tells the Lite model, which has no
    # q_lora_rank, by that layer count).
    cfg = {"architectures": ["DeepseekV2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "aux_loss_alpha": 0.001, "bos_token_id": 128000, "eos_token_id": 128001, "first_k_dense_replace": 1,
           "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "kv_lora_rank": 32, "max_position_embeddings": 163840, "model_type": "deepseek_v2",
           "moe_intermediate_size": 16, "moe_layer_freq": 1, "n_group": 1, "n_routed_experts": 4, "n_shared_experts": 2,
           "norm_topk_prob": False, "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": 27,
           "num_key_value_heads": NH, "pretraining_tp": 1, "q_lora_rank": None, "qk_nope_head_dim": 32,
           "qk_rope_head_dim": 16, "rms_norm_eps": 1e-06,
           "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707, "mscale_all_dim": 0.707,
                            "original_max_position_embeddings": 4096, "type": "yarn"},
           "rope_theta": 10000, "routed_scaling_factor": 1.0, "scoring_func": "softmax", "seq_aux": True,
           "tie_word_embeddings": False, "topk_group": 1, "topk_method": "greedy", "torch_dtype": "bfloat16",
           "transformers_version": "4.33.1", "use_cache": True, "v_head_dim": 32, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(27):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 48, H), p + "self_attn.kv_a_proj_with_mqa.weight": (48, H),
                  p + "self_attn.kv_a_layernorm.weight": (32,), p + "self_attn.kv_b_proj.weight": (NH * 64, 32),
                  p + "self_attn.o_proj.weight": (H, NH * 32)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
        else:
            t.update({p + "mlp.gate.weight": (4, H), p + "mlp.shared_experts.gate_proj.weight": (32, H),
                      p + "mlp.shared_experts.up_proj.weight": (32, H), p + "mlp.shared_experts.down_proj.weight": (H, 32)})
            for x in range(4):
                q = p + f"mlp.experts.{x}."
                t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "llama3", "BF16"


def gpt_oss_config(mxfp4):
    # openai/gpt-oss-20b's config.json (its quantization_config only with mxfp4), shrunk: 4 experts, top 2.
    cfg = {"architectures": ["GptOssForCausalLM"], "attention_bias": True, "attention_dropout": 0.0,
           "eos_token_id": 128009, "experts_per_token": 2, "head_dim": 16, "hidden_act": "silu", "hidden_size": H,
           "initial_context_length": 4096, "initializer_range": 0.02, "intermediate_size": FF,
           "layer_types": ["sliding_attention", "full_attention"], "max_position_embeddings": 131072,
           "model_type": "gpt_oss", "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": 2, "num_local_experts": 4, "output_router_logits": False, "pad_token_id": 128004,
           "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                                              "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"},
           "rms_norm_eps": 1e-05,
           "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0, "original_max_position_embeddings": 4096,
                            "rope_type": "yarn", "truncate": False},
           "rope_theta": 150000, "router_aux_loss_coef": 0.9, "sliding_window": 128, "swiglu_limit": 7.0,
           "tie_word_embeddings": False, "transformers_version": "4.55.0.dev0", "use_cache": True, "vocab_size": 128256}
    if not mxfp4:
        del cfg["quantization_config"]
    return cfg


def gpt_oss_tensors(mxfp4):
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 16, H), p + "self_attn.q_proj.bias": (NH * 16,),
                  p + "self_attn.k_proj.weight": (32, H), p + "self_attn.k_proj.bias": (32,),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.v_proj.bias": (32,),
                  p + "self_attn.o_proj.weight": (H, NH * 16), p + "self_attn.o_proj.bias": (H,),
                  p + "self_attn.sinks": (NH,), p + "mlp.router.weight": (4, H), p + "mlp.router.bias": (4,),
                  p + "mlp.experts.gate_up_proj_bias": (4, 2 * FF), p + "mlp.experts.down_proj_bias": (4, H)})
        if mxfp4:  # [E, rows, in/32, 16] + [E, rows, in/32]
            t.update({p + "mlp.experts.gate_up_proj_blocks": (4, 2 * FF, H // 32, 16),
                      p + "mlp.experts.gate_up_proj_scales": (4, 2 * FF, H // 32),
                      p + "mlp.experts.down_proj_blocks": (4, H, FF // 32, 16),
                      p + "mlp.experts.down_proj_scales": (4, H, FF // 32)})
        else:  # transformers' dequantized layout: [E, in, out]
            t.update({p + "mlp.experts.gate_up_proj": (4, H, 2 * FF), p + "mlp.experts.down_proj": (4, FF, H)})
    return t


def gpt_oss(case):
    return gpt_oss_config(True), gpt_oss_tensors(True), "llama3", "BF16"


def gpt_oss_bf16(case):
    # The dequantized form (as unsloth/gpt-oss-20b-BF16 ships it): gate_up_proj / down_proj in [E, in, out].
    return gpt_oss_config(False), gpt_oss_tensors(False), "llama3", "BF16"


def gemma3_mm(case):
    # google/gemma-3-4b-it's config.json layout (Gemma3ForConditionalGeneration): the text model's keys
    # under text_config (rope_scaling linear 8 as the 4B has), a vision_config; tensors under
    # language_model., a SigLIP vision tower and the projector, which the converter drops.
    text = gemma3_config(32000)
    for k in ("architectures", "torch_dtype", "transformers_version", "vocab_size", "bos_token_id", "eos_token_id",
              "pad_token_id"):
        text.pop(k)
    text["rope_scaling"] = {"factor": 8.0, "rope_type": "linear"}
    text["sliding_window_pattern"] = 6
    cfg = {"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999, "eoi_token_index": 256000,
           "eos_token_id": [1, 106], "image_token_index": 262144, "initializer_range": 0.02, "mm_tokens_per_image": 256,
           "model_type": "gemma3", "text_config": text, "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0",
           "vision_config": {"hidden_size": 16, "image_size": 64, "intermediate_size": 32, "model_type": "siglip_vision_model",
                             "num_attention_heads": 2, "num_hidden_layers": 1, "patch_size": 16, "vision_use_head": False}}
    t = {"language_model." + k: v for k, v in gemma3_tensors(32000).items()}
    t.update({"vision_tower.vision_model.embeddings.patch_embedding.weight": (16, 3, 16, 16),
              "vision_tower.vision_model.embeddings.position_embedding.weight": (16, 16),
              "vision_tower.vision_model.post_layernorm.weight": (16,),
              "multi_modal_projector.mm_input_projection_weight": (16, H),
              "multi_modal_projector.mm_soft_emb_norm.weight": (16,)})
    return cfg, t, "llama2-spm", "BF16"


def smollm3(case):
    # HuggingFaceTB/SmolLM3-3B's config.json (NoPE every 4th layer: no_rope_layers, which the converter
    # does not write), GQA 4/2.
    cfg = {"architectures": ["SmolLM3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": None,
           "eos_token_id": 128012, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "max_position_embeddings": 65536, "max_window_layers": 28, "mlp_bias": False,
           "model_type": "smollm3", "no_rope_layer_interval": 4, "no_rope_layers": [1, 0], "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 128004, "pretraining_tp": 2,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 5000000.0, "sliding_window": None,
           "tie_word_embeddings": True, "torch_dtype": "bfloat16", "use_cache": False, "use_sliding_window": False,
           "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", H, 16, ("input_layernorm", "post_attention_layernorm")))
    return cfg, t, "llama3", "BF16"


def arcee(case):
    # arcee-ai/AFM-4.5B's config.json: ReLU² MLP without a gate (up/down only), yarn rope.
    cfg = {"architectures": ["ArceeForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 128000,
           "eos_token_id": 128003, "head_dim": 8, "hidden_act": "relu2", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "max_position_embeddings": 65536, "mlp_bias": False, "model_type": "arcee",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 128004,
           "rms_norm_eps": 1e-05,
           "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 20.0, "mscale": 1.0,
                            "original_max_position_embeddings": 4096, "rope_type": "yarn", "type": "yarn"},
           "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
           "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        lt = layer_tensors(p, H, 16, ("input_layernorm", "post_attention_layernorm"))
        del lt[p + "mlp.gate_proj.weight"]
        t.update(lt)
    return cfg, t, "llama3", "BF16"


def seed_oss(case):
    # ByteDance-Seed/Seed-OSS-36B-Instruct's config.json: q/k/v biases, head_dim 128 → 8 here.
    cfg = {"architectures": ["SeedOssForCausalLM"], "attention_bias": True, "attention_dropout": 0.1,
           "attention_out_bias": False, "bos_token_id": 0, "eos_token_id": 2, "head_dim": 8, "hidden_act": "silu",
           "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 524288,
           "mlp_bias": False, "model_type": "seed_oss", "num_attention_heads": NH, "num_hidden_layers": L,
           "num_key_value_heads": 2, "pad_token_id": 1, "residual_dropout": 0.1, "rms_norm_eps": 1e-06,
           "rope_scaling": {"rope_type": "default"}, "rope_theta": 10000000.0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update(layer_tensors(p, H, 16, ("input_layernorm", "post_attention_layernorm")))
        t.update({p + "self_attn.q_proj.bias": (H,), p + "self_attn.k_proj.bias": (16,), p + "self_attn.v_proj.bias": (16,)})
    return cfg, t, "qwen3", "BF16"


def starcoder2(case):
    # bigcode/starcoder2-3b's config.json: LayerNorm with bias, biases everywhere, a GELU MLP c_fc/c_proj,
    # norm_epsilon (→ attention.layer_norm_epsilon), sliding_window (not written).
    cfg = {"architectures": ["Starcoder2ForCausalLM"], "activation_function": "gelu", "attention_dropout": 0.1,
           "bos_token_id": 0, "embedding_dropout": 0.1, "eos_token_id": 0, "hidden_act": "gelu_pytorch_tanh",
           "hidden_size": H, "initializer_range": 0.018042, "intermediate_size": FF, "max_position_embeddings": 16384,
           "mlp_type": "default", "model_type": "starcoder2", "norm_epsilon": 1e-05, "norm_type": "layer_norm",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2, "rope_theta": 999999.4420358813,
           "sliding_window": 4096, "torch_dtype": "bfloat16", "use_bias": True, "use_cache": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "model.norm.bias": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        for n in ("input_layernorm", "post_attention_layernorm"):
            t.update({p + n + ".weight": (H,), p + n + ".bias": (H,)})
        for n, r in (("q_proj", H), ("k_proj", 16), ("v_proj", 16), ("o_proj", H)):
            t.update({p + f"self_attn.{n}.weight": (r, H), p + f"self_attn.{n}.bias": (r,)})
        t.update({p + "mlp.c_fc.weight": (FF, H), p + "mlp.c_fc.bias": (FF,), p + "mlp.c_proj.weight": (H, FF),
                  p + "mlp.c_proj.bias": (H,)})
    return cfg, t, "qwen3", "BF16"


def qwen2moe(case):
    # Qwen/Qwen1.5-MoE-A2.7B's config.json: 4 experts (60 there), a shared expert and its sigmoid gate.
    cfg = {"architectures": ["Qwen2MoeForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
           "decoder_sparse_step": 1, "eos_token_id": 151643, "hidden_act": "silu", "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 8192, "max_window_layers": 21,
           "model_type": "qwen2_moe", "moe_intermediate_size": 16, "norm_topk_prob": False, "num_attention_heads": NH,
           "num_experts": 4, "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": NH,
           "output_router_logits": False, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
           "shared_expert_intermediate_size": 32, "sliding_window": 32768, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.q_proj.bias": (H,),
                  p + "self_attn.k_proj.weight": (H, H), p + "self_attn.k_proj.bias": (H,),
                  p + "self_attn.v_proj.weight": (H, H), p + "self_attn.v_proj.bias": (H,),
                  p + "self_attn.o_proj.weight": (H, H), p + "mlp.gate.weight": (4, H),
                  p + "mlp.shared_expert.gate_proj.weight": (32, H), p + "mlp.shared_expert.up_proj.weight": (32, H),
                  p + "mlp.shared_expert.down_proj.weight": (H, 32), p + "mlp.shared_expert_gate.weight": (1, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "qwen3", "BF16"


def olmoe(case):
    # allenai/OLMoE-1B-7B-0924-Instruct's config.json: 4 experts (64 there), full-width q_norm/k_norm.
    cfg = {"architectures": ["OlmoeForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "clip_qkv": None,
           "eos_token_id": 50279, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": 16, "max_position_embeddings": 4096, "model_type": "olmoe", "norm_topk_prob": False,
           "num_attention_heads": NH, "num_experts": 4, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": NH, "output_router_logits": False, "pad_token_id": 1, "rms_norm_eps": 1e-05,
           "rope_scaling": None, "rope_theta": 10000.0, "router_aux_loss_coef": 0.01, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (H, H),
                  p + "self_attn.v_proj.weight": (H, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "self_attn.q_norm.weight": (H,), p + "self_attn.k_norm.weight": (H,), p + "mlp.gate.weight": (4, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "llama3", "BF16"


def gemma(case):
    # google/gemma-2b's config.json (GemmaForCausalLM, MQA: one KV head), head_dim 16; a stray lm_head.weight
    # (as AutoAWQ exports carry) that GemmaModel drops.
    cfg = {"architectures": ["GemmaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 2,
           "eos_token_id": 1, "head_dim": 16, "hidden_act": "gelu", "hidden_activation": None, "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 8192, "model_type": "gemma",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 1, "pad_token_id": 0,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 10000.0, "torch_dtype": "bfloat16",
           "transformers_version": "4.38.0.dev0", "use_cache": True, "vocab_size": 32000}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,), "lm_head.weight": (32000, H)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", NH * 16, 16, ("input_layernorm", "post_attention_layernorm")))
    return cfg, t, "llama2-spm", "BF16"


def exaone(case):
    # LGAI-EXAONE/EXAONE-3.5-2.4B-Instruct's config.json: transformer.* names, num_layers, layer_norm_epsilon
    # (an RMSNorm), Llama 3 rope scaling (rope_freqs generated), tied embeddings off.
    cfg = {"architectures": ["ExaoneForCausalLM"], "activation_function": "silu", "attention_dropout": 0.0,
           "bos_token_id": 1, "embed_dropout": 0.0, "eos_token_id": 361, "head_dim": 8, "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "layer_norm_epsilon": 1e-05, "max_position_embeddings": 32768,
           "model_type": "exaone", "num_attention_heads": NH, "num_key_value_heads": 2, "num_layers": L, "pad_token_id": 0,
           "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                            "original_max_position_embeddings": 8192, "rope_type": "llama3"},
           "rope_theta": 1000000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
           "vocab_size": 151936}
    t = {"transformer.wte.weight": (151936, H), "transformer.ln_f.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"transformer.h.{i}."
        t.update({p + "ln_1.weight": (H,), p + "ln_2.weight": (H,), p + "attn.attention.q_proj.weight": (H, H),
                  p + "attn.attention.k_proj.weight": (16, H), p + "attn.attention.v_proj.weight": (16, H),
                  p + "attn.attention.out_proj.weight": (H, H), p + "mlp.c_fc_0.weight": (FF, H),
                  p + "mlp.c_fc_1.weight": (FF, H), p + "mlp.c_proj.weight": (H, FF)})
    return cfg, t, "qwen3", "BF16"


def exaone4(case):
    # LGAI-EXAONE/EXAONE-4.0-32B's config.json: post-norms only (no pre-norms), q/k norms, hybrid attention
    # "LLLG" over 4 layers, Llama 3 rope scaling with Exaone4Model's default factor 16 (factor absent here).
    cfg = {"architectures": ["Exaone4ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 361,
           "head_dim": 8, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "max_position_embeddings": 131072, "model_type": "exaone4", "num_attention_heads": NH,
           "num_hidden_layers": 4, "num_key_value_heads": 2, "pad_token_id": 0, "rms_norm_eps": 1e-05,
           "rope_scaling": {"high_freq_factor": 4.0, "low_freq_factor": 1.0, "original_max_position_embeddings": 8192,
                            "rope_type": "llama3"},
           "rope_theta": 1000000, "sliding_window": 4096, "sliding_window_pattern": "LLLG", "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(4):
        t.update(layer_tensors(f"model.layers.{i}.", H, 16, ("post_attention_layernorm", "post_feedforward_layernorm"),
                               qk_norm=(8, 8)))
    return cfg, t, "qwen3", "BF16"


def command_r(case):
    # CohereLabs/c4ai-command-r-plus's config.json: tied embeddings, one LayerNorm per layer (parallel
    # attention + MLP, no bias), per-head q/k norms [heads, head_dim], logit_scale, model_max_length.
    cfg = {"architectures": ["CohereForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 5,
           "eos_token_id": 255001, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "layer_norm_eps": 1e-05, "logit_scale": 0.8333333333333334,
           "max_position_embeddings": 8192, "model_max_length": 131072, "model_type": "cohere", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 0, "rope_theta": 75000000.0,
           "torch_dtype": "float16", "use_cache": True, "use_qk_norm": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update(layer_tensors(p, H, 16, ("input_layernorm",)))
        t.update({p + "self_attn.q_norm.weight": (NH, 8), p + "self_attn.k_norm.weight": (2, 8)})
    return cfg, t, "qwen3", "F16"


def cohere2(case):
    # CohereLabs/c4ai-command-r7b-12-2024's config.json: sliding window every layer but each 4th, rotary_pct,
    # logit_scale, tied embeddings.
    cfg = {"architectures": ["Cohere2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 5,
           "eos_token_id": 255001, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "layer_norm_eps": 1e-05, "logit_scale": 0.25, "max_position_embeddings": 8192,
           "model_type": "cohere2", "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2,
           "order_of_interleaved_layers": "local_attn_first", "pad_token_id": 0, "position_embedding_type": "rope_gptj",
           "rope_scaling": None, "rope_theta": 50000, "rotary_pct": 1.0, "sliding_window": 4096,
           "sliding_window_pattern": 4, "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", H, 16, ("input_layernorm",)))
    return cfg, t, "qwen3", "BF16"


def stablelm(case):
    # stabilityai/stablelm-2-1_6b's config.json: LayerNorm with bias, q/k/v biases, a quarter of each head rotary.
    cfg = {"architectures": ["StableLmForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 100257,
           "eos_token_id": 100257, "hidden_act": "silu", "hidden_dropout": 0.0, "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "layer_norm_eps": 1e-05, "max_position_embeddings": 4096,
           "model_type": "stablelm", "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": NH,
           "partial_rotary_factor": 0.25, "qk_layernorm": False, "rope_scaling": None, "rope_theta": 10000,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True, "use_parallel_residual": False,
           "use_qkv_bias": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "model.norm.bias": (H,),
         "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update(layer_tensors(p, H, H, ("input_layernorm", "post_attention_layernorm")))
        t.update({p + "input_layernorm.bias": (H,), p + "post_attention_layernorm.bias": (H,),
                  p + "self_attn.q_proj.bias": (H,), p + "self_attn.k_proj.bias": (H,), p + "self_attn.v_proj.bias": (H,)})
    return cfg, t, "qwen3", "BF16"


def qwen2_5_vl(case):
    # Qwen/Qwen2.5-VL-3B-Instruct's config.json: M-RoPE (rope_scaling type mrope, sections of the rotary half:
    # [16, 24, 24] of 64 there, [2, 1, 1] of 4 here), q/k/v biases, tied embeddings; a vision tower the
    # converter drops (visual.*).
    cfg = {"architectures": ["Qwen2_5_VLForConditionalGeneration"], "attention_dropout": 0.0, "bos_token_id": 151643,
           "eos_token_id": 151645, "hidden_act": "silu", "hidden_size": H, "image_token_id": 151655,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 128000,
           "max_window_layers": 70, "model_type": "qwen2_5_vl", "num_attention_heads": NH, "num_hidden_layers": L,
           "num_key_value_heads": 2, "rms_norm_eps": 1e-06,
           "rope_scaling": {"mrope_section": [2, 1, 1], "rope_type": "default", "type": "default"},
           "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
           "use_cache": True, "use_sliding_window": False, "video_token_id": 151656,
           "vision_config": {"depth": 1, "hidden_size": 16, "out_hidden_size": H}, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,),
         "visual.patch_embed.proj.weight": (16, 3, 2, 2, 2), "visual.merger.mlp.0.weight": (H, 16)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update(layer_tensors(p, H, 16, ("input_layernorm", "post_attention_layernorm")))
        t.update({p + "self_attn.q_proj.bias": (H,), p + "self_attn.k_proj.bias": (16,), p + "self_attn.v_proj.bias": (16,)})
    return cfg, t, "qwen3", "BF16"


def qwen3_vl(case):
    # Qwen/Qwen3-VL-4B-Instruct's config.json: text_config nested (interleaved M-RoPE [24, 20, 20] → [2, 1, 1]),
    # q/k norms, tied embeddings, 3 deepstack layers in vision_config; names as transformers ≥ 4.57 saves them
    # (model.language_model.*, model.visual.*).
    text = {"attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 151643, "dtype": "bfloat16",
            "eos_token_id": 151645, "head_dim": 8, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
            "intermediate_size": FF, "max_position_embeddings": 262144, "model_type": "qwen3_vl_text",
            "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-06,
            "rope_scaling": {"mrope_interleaved": True, "mrope_section": [2, 1, 1], "rope_type": "default"},
            "rope_theta": 5000000, "tie_word_embeddings": True, "use_cache": True, "vocab_size": 151936}
    cfg = {"architectures": ["Qwen3VLForConditionalGeneration"], "image_token_id": 151655, "model_type": "qwen3_vl",
           "text_config": text, "tie_word_embeddings": True, "video_token_id": 151656,
           "vision_config": {"deepstack_visual_indexes": [5, 11, 17], "depth": 1, "hidden_size": 16, "model_type": "qwen3_vl",
                             "out_hidden_size": H}, "vision_end_token_id": 151653, "vision_start_token_id": 151652}
    t = {"model.language_model.embed_tokens.weight": (151936, H), "model.language_model.norm.weight": (H,),
         "model.visual.patch_embed.proj.weight": (16, 3, 2, 2, 2)}
    for i in range(L):
        t.update(layer_tensors(f"model.language_model.layers.{i}.", H, 16, ("input_layernorm", "post_attention_layernorm"),
                               qk_norm=(8, 8)))
    return cfg, t, "qwen3", "BF16"


def phi2(case):
    # microsoft/phi-2's config.json (F16): biases everywhere, a GELU MLP fc1/fc2, partial rotary (0.4 of 80 there,
    # 0.5 of 8 here: an even rotary dimension), the converter's add_bos_token false among the hparams.
    cfg = {"architectures": ["PhiForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 50256, "embd_pdrop": 0.0,
           "eos_token_id": 50256, "hidden_act": "gelu_new", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": 4 * H, "layer_norm_eps": 1e-05, "max_position_embeddings": 2048, "model_type": "phi",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": NH, "partial_rotary_factor": 0.5,
           "qk_layernorm": False, "resid_pdrop": 0.1, "rope_scaling": None, "rope_theta": 10000.0,
           "tie_word_embeddings": False, "torch_dtype": "float16", "use_cache": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.final_layernorm.weight": (H,),
         "model.final_layernorm.bias": (H,), "lm_head.weight": (151936, H), "lm_head.bias": (151936,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "input_layernorm.bias": (H,)})
        for n in ("q_proj", "k_proj", "v_proj", "dense"):
            t.update({p + f"self_attn.{n}.weight": (H, H), p + f"self_attn.{n}.bias": (H,)})
        t.update({p + "mlp.fc1.weight": (4 * H, H), p + "mlp.fc1.bias": (4 * H,), p + "mlp.fc2.weight": (H, 4 * H),
                  p + "mlp.fc2.bias": (H,)})
    return cfg, t, "qwen3", "F16"


def internlm3(case):
    # internlm/internlm3-8b-instruct's config.json: GGUF `llama` (Q/K permuted, q/k/v biases here as
    # InternLM's bias flag allows), dynamic rope (nothing written), SentencePiece with a special <|im_end|>
    # that becomes eos and add_prefix_space false (tokenizer_config.json: patch_tokenizer_config).
    cfg = {"architectures": ["InternLM3ForCausalLM"], "bias": False, "bos_token_id": 1, "eos_token_id": 2,
           "head_dim": 8, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "max_position_embeddings": 32768, "model_type": "internlm3", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 2, "qkv_bias": False,
           "rms_norm_eps": 1e-05, "rope_scaling": {"factor": 6.0, "rope_type": "dynamic"}, "rope_theta": 50000000,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 32000}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,), "lm_head.weight": (32000, H)}
    for i in range(L):
        t.update(layer_tensors(f"model.layers.{i}.", H, 16, ("input_layernorm", "post_attention_layernorm")))
    return cfg, t, "llama2-internlm3", "BF16"


def minimax_m2(case):
    # MiniMaxAI/MiniMax-M2's config.json (BF16 here; the release is FP8 with 128×128 block scales): 4 experts
    # (256 there) w1/w2/w3 under block_sparse_moe, a sigmoid router with its correction bias, full-width q/k
    # norms, partial rotary (rotary_dim).
    cfg = {"architectures": ["MiniMaxM2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 200034,
           "eos_token_id": 200020, "head_dim": 8, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": 16, "max_position_embeddings": 196608, "model_type": "minimax_m2",
           "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2,
           "num_local_experts": 4, "qk_norm_type": "per_layer", "rms_norm_eps": 1e-06, "rope_theta": 5000000,
           "rotary_dim": 4, "scoring_func": "sigmoid", "shared_intermediate_size": 0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_qk_norm": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "self_attn.q_norm.weight": (H,), p + "self_attn.k_norm.weight": (16,),
                  p + "block_sparse_moe.gate.weight": (4, H), p + "block_sparse_moe.e_score_correction_bias": (4,)})
        for x in range(4):
            q = p + f"block_sparse_moe.experts.{x}."
            t.update({q + "w1.weight": (16, H), q + "w2.weight": (H, 16), q + "w3.weight": (16, H)})
    return cfg, t, "qwen3", "BF16"


def ernie4_5(case):
    # baidu/ERNIE-4.5-0.3B-PT's config.json (head_dim 128 of 16 heads there, 8 of 4 here, 2 KV heads), tied
    # embeddings, with the fused projections of the non-PT exports: qkv_proj [(4 + 2·2)·8, H] and up_gate_proj
    # [2·FF, H], which the converter splits by rows (gate first); SentencePiece with add_prefix_space false.
    cfg = {"architectures": ["Ernie4_5ForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "head_dim": 8,
           "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF, "max_position_embeddings": 131072,
           "model_type": "ernie4_5", "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2,
           "pad_token_id": 0, "rms_norm_eps": 1e-05, "rope_theta": 500000, "tie_word_embeddings": True,
           "torch_dtype": "bfloat16", "use_bias": False, "use_cache": False, "vocab_size": 32000}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.qkv_proj.weight": ((NH + 2 * 2) * 8, H), p + "self_attn.o_proj.weight": (H, NH * 8),
                  p + "mlp.up_gate_proj.weight": (2 * FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "llama2-ernie", "BF16"


def ernie4_5_moe(case):
    # baidu/ERNIE-4.5-21B-A3B-PT's config.json: layer 0 dense (moe_layer_start_index 1), layer 1 with 4 experts
    # (64 there, moe_k 2 of them), two shared experts (their length written as intermediate_size //
    # num_key_value_heads, as the converter computes it), the router's correction bias [1, E] (moe_statics),
    # tied embeddings; the MTP block and norms the converter skips. SentencePiece with add_prefix_space false.
    cfg = {"architectures": ["Ernie4_5_MoeForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "head_dim": 8,
           "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF, "max_position_embeddings": 131072,
           "model_type": "ernie4_5_moe", "moe_capacity": [4, 4, 4], "moe_gate": "topk", "moe_intermediate_size": 16,
           "moe_k": 2, "moe_layer_end_index": 1, "moe_layer_interval": 1, "moe_layer_start_index": 1,
           "moe_num_experts": 4, "moe_num_shared_experts": 2, "moe_use_aux_free": True, "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "num_nextn_predict_layers": 1, "pad_token_id": 0,
           "rms_norm_eps": 1e-05, "rope_theta": 500000, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
           "use_bias": False, "use_cache": False, "vocab_size": 32000}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 8, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, NH * 8)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
            continue
        t.update({p + "mlp.gate.weight": (4, H), p + "mlp.moe_statics.e_score_correction_bias": (1, 4),
                  p + "mlp.shared_experts.gate_proj.weight": (32, H), p + "mlp.shared_experts.up_proj.weight": (32, H),
                  p + "mlp.shared_experts.down_proj.weight": (H, 32)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    t.update({"model.mtp_block.0.input_layernorm.weight": (H,), "model.mtp_block.0.self_attn.q_proj.weight": (NH * 8, H),
              "model.mtp_emb_norm.0.weight": (H,), "model.mtp_hidden_norm.0.weight": (H,),
              "model.mtp_linear_proj.0.weight": (H, 2 * H)})
    return cfg, t, "llama2-ernie", "BF16"


def granitemoe(case):
    # ibm-granite/granite-3.1-3b-a800m-instruct's config.json as GraniteMoeShared (a shared expert of 32): JetMoE's
    # fused experts input_linear [E, 2F, H] and shared_mlp.input_linear [2S, H] that the converter halves, the
    # router, Granite's multipliers, tied embeddings.
    cfg = {"architectures": ["GraniteMoeSharedForCausalLM"], "attention_bias": False, "attention_dropout": 0.1,
           "attention_multiplier": 0.015625, "bos_token_id": 0, "embedding_multiplier": 12.0, "eos_token_id": 0,
           "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": 16,
           "logits_scaling": 6.0, "max_position_embeddings": 131072, "model_type": "granitemoeshared",
           "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2,
           "num_local_experts": 4, "pad_token_id": 0, "residual_multiplier": 0.22, "rms_norm_eps": 1e-06,
           "rope_scaling": None, "rope_theta": 10000000.0, "shared_intermediate_size": 32, "tie_word_embeddings": True,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "block_sparse_moe.router.layer.weight": (4, H),
                  p + "block_sparse_moe.input_linear.weight": (4, 32, H), p + "block_sparse_moe.output_linear.weight": (4, H, 16),
                  p + "shared_mlp.input_linear.weight": (64, H), p + "shared_mlp.output_linear.weight": (H, 32)})
    return cfg, t, "llama3", "BF16"


def glm_attention(p, nh, nkv, hd):
    """GLM's attention: q/k/v with biases (attention_bias true), o_proj without."""
    t = {}
    for n, r in (("q_proj", nh * hd), ("k_proj", nkv * hd), ("v_proj", nkv * hd)):
        t.update({p + f"self_attn.{n}.weight": (r, H), p + f"self_attn.{n}.bias": (r,)})
    t[p + "self_attn.o_proj.weight"] = (H, nh * hd)
    return t


GLM_SPECIALS = {151669: "<|user|>", 151670: "[gMASK]", 151671: "<|observation|>"}


def glm4(case):
    # zai-org/GLM-4-9B-0414's config.json: head_dim 16 (128 there) with partial_rotary_factor 0.5, q/k/v biases,
    # fused mlp.gate_up_proj (kept fused: GGUF ffn_up), four norms per block (post_self_attn / post_mlp);
    # eos ids as a list (SpecialVocab skips it). Tokenizer: Qwen3's with GLM's added tokens (patch_glm_tokenizer).
    cfg = {"architectures": ["Glm4ForCausalLM"], "attention_bias": True, "attention_dropout": 0.0,
           "eos_token_id": [151643, 151669, 151671], "head_dim": 16, "hidden_act": "silu", "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 32768, "model_type": "glm4",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 151643,
           "partial_rotary_factor": 0.5, "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "transformers_version": "4.51.3", "use_cache": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update(glm_attention(p, NH, 2, 16))
        t.update({p + "mlp.gate_up_proj.weight": (2 * FF, H), p + "mlp.down_proj.weight": (H, FF)})
        for n in ("input_layernorm", "post_self_attn_layernorm", "post_attention_layernorm", "post_mlp_layernorm"):
            t[p + n + ".weight"] = (H,)
    return cfg, t, "qwen3-glm", "BF16"


def glm4moe(case):
    # zai-org/GLM-4.5-Air's config.json (use_qk_norm as GLM-4.5): layer 0 dense (first_k_dense_replace 1), layer 1
    # MoE with 4 routed experts (128 there), one shared expert, the sigmoid router's correction bias; and the
    # NextN (MTP) layer 2 (num_nextn_predict_layers 1) with its eh_proj, enorm/hnorm, own embedding and shared head,
    # which the converter writes as a third block.
    cfg = {"architectures": ["Glm4MoeForCausalLM"], "attention_bias": True, "attention_dropout": 0.0,
           "eos_token_id": [151643, 151669, 151671], "first_k_dense_replace": 1, "head_dim": 16, "hidden_act": "silu",
           "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 131072,
           "model_type": "glm4_moe", "moe_intermediate_size": 16, "n_group": 1, "n_routed_experts": 4,
           "n_shared_experts": 1, "norm_topk_prob": True, "num_attention_heads": NH, "num_experts_per_tok": 2,
           "num_hidden_layers": L, "num_key_value_heads": 2, "num_nextn_predict_layers": 1, "pad_token_id": 151643,
           "partial_rotary_factor": 0.5, "rms_norm_eps": 1e-05, "rope_scaling": None, "rope_theta": 1000000,
           "routed_scaling_factor": 2.5, "tie_word_embeddings": False, "topk_group": 1, "torch_dtype": "bfloat16",
           "transformers_version": "4.54.0", "use_cache": True, "use_qk_norm": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L + 1):
        p = f"model.layers.{i}."
        t.update(glm_attention(p, NH, 2, 16))
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_norm.weight": (16,), p + "self_attn.k_norm.weight": (16,)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
            continue
        t.update({p + "mlp.gate.weight": (4, H), p + "mlp.gate.e_score_correction_bias": (4,),
                  p + "mlp.shared_experts.gate_proj.weight": (16, H), p + "mlp.shared_experts.up_proj.weight": (16, H),
                  p + "mlp.shared_experts.down_proj.weight": (H, 16)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
        if i == L:  # the NextN layer
            t.update({p + "eh_proj.weight": (H, 2 * H), p + "embed_tokens.weight": (151936, H), p + "enorm.weight": (H,),
                      p + "hnorm.weight": (H,), p + "shared_head.head.weight": (151936, H), p + "shared_head.norm.weight": (H,)})
    return cfg, t, "qwen3-glm", "BF16"


def falcon_tensors(qkv_rows, norms, lm_head):
    t = {"transformer.word_embeddings.weight": (151936, H), "transformer.ln_f.weight": (H,), "transformer.ln_f.bias": (H,)}
    if lm_head:
        t["lm_head.weight"] = (151936, H)
    for i in range(L):
        p = f"transformer.h.{i}."
        for n in norms:
            t.update({p + n + ".weight": (H,), p + n + ".bias": (H,)})
        t.update({p + "self_attention.query_key_value.weight": (qkv_rows, H), p + "self_attention.dense.weight": (H, H),
                  p + "mlp.dense_h_to_4h.weight": (4 * H, H), p + "mlp.dense_4h_to_h.weight": (H, 4 * H)})
    return t


def falcon7b(case):
    # tiiuae/falcon-7b's config.json (transformers' FalconForCausalLM form): multi-query (one KV head, no
    # num_kv_heads: the converter's default 1), parallel attention, one input_layernorm per block, no biases in
    # the linears, tied embeddings; query_key_value [(4 + 2) · 8, H] — one group: the regrouping keeps its order.
    cfg = {"alibi": False, "apply_residual_connection_post_layernorm": False, "architectures": ["FalconForCausalLM"],
           "attention_dropout": 0.0, "bias": False, "bos_token_id": 11, "eos_token_id": 11, "hidden_dropout": 0.0,
           "hidden_size": H, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "falcon",
           "multi_query": True, "new_decoder_architecture": False, "num_attention_heads": NH, "num_hidden_layers": L,
           "parallel_attn": True, "torch_dtype": "bfloat16", "transformers_version": "4.27.4", "use_cache": True,
           "vocab_size": 151936}
    return cfg, falcon_tensors((NH + 2) * 8, ("input_layernorm",), False), "qwen3", "BF16"


def falcon40b(case):
    # tiiuae/falcon-40b's config.json: the new decoder architecture with num_kv_heads 2 (8 there), ln_attn and
    # ln_mlp per block, an lm_head; query_key_value stored per KV group [q, q, k, v] × 8 rows, which the
    # converter regroups into all q, all k, all v.
    cfg = {"alibi": False, "apply_residual_connection_post_layernorm": False, "architectures": ["FalconForCausalLM"],
           "attention_dropout": 0.0, "bias": False, "bos_token_id": 11, "eos_token_id": 11, "hidden_dropout": 0.0,
           "hidden_size": H, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "falcon",
           "new_decoder_architecture": True, "num_attention_heads": NH, "num_hidden_layers": L, "num_kv_heads": 2,
           "parallel_attn": True, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
           "transformers_version": "4.27.4", "use_cache": True, "vocab_size": 151936}
    return cfg, falcon_tensors((NH + 2 * 2) * 8, ("ln_attn", "ln_mlp"), True), "qwen3", "BF16"


def patch_glm_tokenizer(d):
    """GLM's added tokens (<|user|>, [gMASK], <|observation|>, whose ids its set_vocab looks up) over Qwen3's
    tokenizer.json and tokenizer_config.json (ids past Qwen3's last added token)."""
    p = os.path.join(d, "tokenizer.json")
    with open(p, encoding="utf-8") as f:
        tj = json.load(f)
    for i, c in GLM_SPECIALS.items():
        tj["added_tokens"].append({"id": i, "content": c, "single_word": False, "lstrip": False, "rstrip": False,
                                   "normalized": False, "special": True})
    with open(p, "w", encoding="utf-8") as f:
        json.dump(tj, f, ensure_ascii=False)
    p = os.path.join(d, "tokenizer_config.json")
    with open(p, encoding="utf-8") as f:
        tc = json.load(f)
    for i, c in GLM_SPECIALS.items():
        tc["added_tokens_decoder"][str(i)] = {"content": c, "lstrip": False, "normalized": False, "rstrip": False,
                                              "single_word": False, "special": True}
    with open(p, "w", encoding="utf-8") as f:
        json.dump(tc, f, indent=2, ensure_ascii=False)


def patch_tokenizer_config(d, tok):
    """The tokenizer_config.json shapes of InternLM3 (add_prefix_space false, a special <|im_end|>, id 31999
    here) and ERNIE 4.5 (add_prefix_space false) over the copied Llama 2 one."""
    p = os.path.join(d, "tokenizer_config.json")
    with open(p) as f:
        tc = json.load(f)
    tc["add_prefix_space"] = False
    if tok == "llama2-internlm3":
        tc.setdefault("added_tokens_decoder", {})["31999"] = {"content": "<|im_end|>", "lstrip": False, "normalized": False,
                                                              "rstrip": False, "single_word": False, "special": True}
    with open(p, "w") as f:
        json.dump(tc, f, indent=2)


CASES = {"Qwen2.5-0.5B": qwen2, "Qwen3-30B-A3B": qwen3moe, "Phi-3-mini-128k-instruct": phi3, "gpt2": gpt2,
         "gemma-2-2b-it": gemma2, "gemma-2-2b-it-f16": gemma2_f16, "gemma-3-1b-it": gemma3, "gemma-3-1b-bpe": gemma3_bpe,
         "granite-3.3-2b-instruct": granite, "OLMo-2-1124-7B-Instruct": olmo2, "Olmo-3-7B-Instruct": olmo3,
         "Ministral-3-3B-Instruct-2512": ministral3, "Mistral-Small-3.1-24B-Instruct-2503": mistral_small3,
         "DeepSeek-V3": deepseek_v3, "DeepSeek-V2-Lite": deepseek_v2_lite,
         "gpt-oss-20b": gpt_oss, "gpt-oss-20b-BF16": gpt_oss_bf16,
         "gemma-3-4b-it": gemma3_mm, "SmolLM3-3B": smollm3, "AFM-4.5B": arcee, "Seed-OSS-36B-Instruct": seed_oss,
         "starcoder2-3b": starcoder2, "Qwen1.5-MoE-A2.7B": qwen2moe, "OLMoE-1B-7B-0924-Instruct": olmoe,
         "gemma-2b": gemma, "EXAONE-3.5-2.4B-Instruct": exaone, "EXAONE-4.0-32B": exaone4,
         "c4ai-command-r-plus": command_r, "c4ai-command-r7b-12-2024": cohere2, "stablelm-2-1_6b": stablelm,
         "Qwen2.5-VL-3B-Instruct": qwen2_5_vl, "Qwen3-VL-4B-Instruct": qwen3_vl, "phi-2": phi2,
         "internlm3-8b-instruct": internlm3, "MiniMax-M2": minimax_m2, "ERNIE-4.5-0.3B": ernie4_5,
         "granite-3.1-3b-a800m-instruct": granitemoe, "GLM-4-9B-0414": glm4, "GLM-4.5-Air": glm4moe,
         "falcon-7b": falcon7b, "falcon-40b": falcon40b, "ERNIE-4.5-21B-A3B": ernie4_5_moe}
# Every case is checked as whole files at these outtypes (the first four were recorded as key/values
# and tensors only until issue 32 recorded their files too).
WHOLE_FILE_OUTTYPES = ["f32", "bf16", "q8_0"]
TOKENIZERS = {
    "qwen3": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "qwen3-glm": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "llama2": ("Llama-2-7b-hf", ["tokenizer.model"]),
    "llama2-spm": ("Llama-2-7b-hf", ["tokenizer.model", "tokenizer_config.json", "special_tokens_map.json"]),
    "llama2-internlm3": ("Llama-2-7b-hf", ["tokenizer.model", "tokenizer_config.json"]),
    "llama2-ernie": ("Llama-2-7b-hf", ["tokenizer.model", "tokenizer_config.json"]),
    "mistral-spm": ("Mixtral-8x7B-v0.1", ["tokenizer.model", "tokenizer_config.json"]),
    "llama3": ("Meta-Llama-3-8B-Instruct", ["tokenizer.json", "tokenizer_config.json"]),
}


def make_inputs(out, shared):
    for case, fn in CASES.items():
        cfg, shapes, tok, *dtype = fn(case)
        d = os.path.join(out, case)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")
        write_safetensors(os.path.join(d, "model.safetensors"),
                          {n: rand_u8(case, n, s) if n.endswith(("_blocks", "_scales")) else
                           rand(case, n, s, norm=("norm" in n or "ln_" in n) and n.endswith("weight")) for n, s in shapes.items()},
                          dtype[0] if dtype else "F32")
        if shared:
            src_case, files = TOKENIZERS[tok]
            for fn_ in files:
                shutil.copy(os.path.join(shared, "hf-gguf", "inputs", src_case, fn_), d)
            if tok in ("llama2-internlm3", "llama2-ernie"):
                patch_tokenizer_config(d, tok)
            if tok == "qwen3-glm":
                patch_glm_tokenizer(d)


TYPE_NAMES = {4: "UINT32", 5: "INT32", 6: "FLOAT32", 7: "BOOL", 8: "STRING", 9: "ARRAY"}


def read_gguf(path, llama_cpp):
    sys.path.insert(0, os.path.join(llama_cpp, "gguf-py"))
    from gguf import GGUFReader
    r = GGUFReader(path)
    kvs = []
    for f in r.fields.values():
        if f.name.startswith("tokenizer.") or f.name.startswith("GGUF."):
            continue
        t = f.types[0].value
        e = {"key": f.name, "type": TYPE_NAMES.get(t, str(t))}
        if t == 8:
            e["value"] = bytes(f.parts[f.data[0]]).decode()
        elif t == 9:
            e["value"] = [bytes(f.parts[i]).decode() if f.types[1].value == 8 else f.parts[i].tolist()[0] for i in f.data]
        else:
            e["raw"] = bytes(f.parts[f.data[0]]).hex()
        kvs.append(e)
    tensors = [{"name": t.name, "type": t.tensor_type.name, "ne": [int(x) for x in t.shape]} for t in r.tensors]
    return {"kv": kvs, "tensors": tensors}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shared")
    ap.add_argument("--inputs-only", action="store_true")
    ap.add_argument("--llama-cpp", default="/work/ref/llama.cpp")
    ap.add_argument("--shim", default="/work/ref/hf_shim")
    ap.add_argument("--write-reference")
    ap.add_argument("--cases", help="comma-separated case names to (re)convert; the reference keeps the others")
    a = ap.parse_args()
    make_inputs(a.out, a.shared)
    if a.inputs_only:
        return
    ref = {"generator": "tests/core/hf_arch_models.py", "llama_cpp_commit": "34af94cd9ab2", "outtype": "f32",
           "notes": "gpt2 uses Qwen3's tokenizer.json (pre 'qwen2'): no GPT-2 tokenizer file was at hand; "
                    "the architecture KVs and tensors do not depend on it. Cases with 'sha256': the whole file "
                    "the converter wrote per --outtype.", "cases": {}}
    if a.write_reference and os.path.exists(a.write_reference):
        with open(a.write_reference) as f:
            ref["cases"] = json.load(f)["cases"]
    todo = a.cases.split(",") if a.cases else list(CASES)
    for case in todo:
        whole = True
        entry = {}
        for outtype in WHOLE_FILE_OUTTYPES if whole else ["f32"]:
            outf = os.path.join(a.out, f"{case}.{outtype.upper()}.gguf")
            subprocess.run([sys.executable, os.path.join(a.shim, "run_convert.py"), a.llama_cpp, case, "--outtype", outtype,
                            "--outfile", outf], cwd=a.out, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if outtype == "f32":
                entry = read_gguf(outf, a.llama_cpp)
            if whole:
                with open(outf, "rb") as f:
                    entry.setdefault("sha256", {})[outtype] = hashlib.sha256(f.read()).hexdigest()
        ref["cases"][case] = entry
    ref["cases"] = {c: ref["cases"][c] for c in CASES if c in ref["cases"]}
    if a.write_reference:
        with open(a.write_reference, "w") as f:
            json.dump(ref, f, indent=1)
            f.write("\n")

if __name__ == "__main__":
    main()
