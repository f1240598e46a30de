#!/usr/bin/python3
"""The dense decoder cases of hf_arch_models.py: per case, config.json (the real model's with its
dimensions shrunk), the tensor shapes of its safetensors, which borrowed tokenizer it gets and the
stored dtype. The shared dimensions and small layer builders live here too (hf_arch_moe.py uses them)."""

H, L, NH, FF = 32, 2, 4, 64


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


def lfm2(case):
    # LiquidAI/LFM2-350M's config.json: layer_types mixing short-convolution and attention blocks (the per-layer
    # head_count_kv array, 0 for "conv"), conv_L_cache 3 (conv.conv [H, 1, 3], squeezed to [H, 3]), per-head
    # q/k layernorms, the embedding norm, tied embeddings; the feed-forward length as _add_feed_forward_length
    # computes it (block_ff_dim 100 → int(2 · 100 / 3) = 66 → × 1.0 → up to a multiple of 16 = 80; the
    # intermediate_size TextModel writes first is replaced in place).
    cfg = {"architectures": ["Lfm2ForCausalLM"], "block_auto_adjust_ff_dim": True, "block_dim": H, "block_ff_dim": 100,
           "block_ffn_dim_multiplier": 1.0, "block_mlp_init_scale": 1.0, "block_multiple_of": 16, "block_norm_eps": 1e-05,
           "block_out_init_scale": 1.0, "block_use_swiglu": True, "block_use_xavier_init": True, "bos_token_id": 1,
           "conv_L_cache": 3, "conv_bias": False, "conv_dim": H, "conv_dim_out": H, "conv_use_xavier_init": True,
           "eos_token_id": 7, "hidden_size": H, "initializer_range": 0.02, "intermediate_size": 100,
           "layer_types": ["conv", "full_attention"], "max_position_embeddings": 128000, "model_type": "lfm2",
           "norm_eps": 1e-05, "num_attention_heads": NH, "num_heads": NH, "num_hidden_layers": L,
           "num_key_value_heads": 2, "pad_token_id": 0, "rope_theta": 1000000.0, "theta": 1000000.0,
           "tie_embedding": True, "torch_dtype": "bfloat16", "use_cache": True, "use_pos_enc": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.embedding_norm.weight": (H,)}
    for i, kind in enumerate(cfg["layer_types"]):
        p = f"model.layers.{i}."
        t.update({p + "operator_norm.weight": (H,), p + "ffn_norm.weight": (H,), p + "feed_forward.w1.weight": (80, H),
                  p + "feed_forward.w3.weight": (80, H), p + "feed_forward.w2.weight": (H, 80)})
        if kind == "conv":
            t.update({p + "conv.conv.weight": (H, 1, 3), p + "conv.in_proj.weight": (3 * H, H),
                      p + "conv.out_proj.weight": (H, H)})
        else:
            t.update({p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (16, H),
                      p + "self_attn.v_proj.weight": (16, H), p + "self_attn.out_proj.weight": (H, H),
                      p + "self_attn.q_layernorm.weight": (8,), p + "self_attn.k_layernorm.weight": (8,)})
    return cfg, t, "qwen3", "BF16"


def hunyuan_dense(case):
    # tencent/Hunyuan-7B-Instruct's config.json (HunYuanDenseV1ForCausalLM) shrunk: NTK-alpha "dynamic" RoPE (alpha
    # 1000: rope.freq_base = 10000 · 1000^(16/14) for head_dim 16, context 262144), num_experts 1 (popped by the
    # converter: no expert_count), per-head query/key layernorms, tied embeddings with an lm_head the converter drops,
    # eod_token_id (written as eos) and generation_config.json's eos list (its first id written as eot:
    # HUNYUAN_GENERATION). Llama 3's tokenizer.json (HunYuan's own is a tiktoken-style BPE of 128167 tokens).
    cfg = {"architectures": ["HunYuanDenseV1ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "bos_token_id": 128000, "eod_token_id": 128009, "eos_token_id": 128001, "head_dim": 16, "hidden_act": "silu",
           "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 32768,
           "mlp_bias": False, "model_type": "hunyuan_v1_dense", "num_attention_heads": NH, "num_experts": 1,
           "num_hidden_layers": L, "num_key_value_heads": 2, "pad_token_id": 128004, "rms_norm_eps": 1e-05,
           "rope_scaling": {"alpha": 1000.0, "beta_fast": 32, "beta_slow": 1, "factor": 1.0, "mscale": 1.0,
                            "mscale_all_dim": 1.0, "type": "dynamic"},
           "rope_theta": 10000.0, "tie_word_embeddings": True, "torch_dtype": "bfloat16", "use_cache": True,
           "use_qk_norm": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update(layer_tensors(p, NH * 16, 2 * 16, ("input_layernorm", "post_attention_layernorm")))
        t.update({p + "self_attn.query_layernorm.weight": (16,), p + "self_attn.key_layernorm.weight": (16,)})
    return cfg, t, "llama3", "BF16"


# generation_config.json of the cases that have one (the converter reads it).
GENERATION_CONFIGS = {"Hunyuan-7B-Instruct": {"bos_token_id": 128000, "eos_token_id": [128009, 128001],
                                              "pad_token_id": 128004, "do_sample": True, "temperature": 0.7}}
