#!/usr/bin/python3
"""The older decoder cases of hf_arch_models.py with their own converter key lists (GPT-NeoX, …): per case,
config.json (the real model's with its dimensions shrunk), the tensor shapes of its safetensors, which
borrowed tokenizer it gets and the stored dtype."""

from hf_arch_dense import FF, H, L, NH

V = 151936  # Qwen3's tokenizer (the borrowed one) and its padded vocab_size


def linear(t, p, rows, cols, bias=True):
    t[p + ".weight"] = (rows, cols)
    if bias:
        t[p + ".bias"] = (rows,)


def layer_norm(t, p):
    t.update({p + ".weight": (H,), p + ".bias": (H,)})


def gptneox(case):
    # EleutherAI/pythia-70m's config.json (F16): fused query_key_value stored per head [q, k, v] (the converter
    # regroups it, weight and bias, into all q, all k, all v), partial rotary (rotary_pct 0.25), parallel
    # residual, biases everywhere, an untied embed_out; no general.file_type in the converter's file.
    cfg = {"architectures": ["GPTNeoXForCausalLM"], "bos_token_id": 0, "classifier_dropout": 0.1, "eos_token_id": 0,
           "hidden_act": "gelu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "layer_norm_eps": 1e-05, "max_position_embeddings": 2048, "model_type": "gpt_neox", "num_attention_heads": NH,
           "num_hidden_layers": L, "rotary_emb_base": 10000, "rotary_pct": 0.25, "tie_word_embeddings": False,
           "torch_dtype": "float16", "transformers_version": "4.24.0", "use_cache": True, "use_parallel_residual": True,
           "vocab_size": V}
    t = {"gpt_neox.embed_in.weight": (V, H), "embed_out.weight": (V, H)}
    layer_norm(t, "gpt_neox.final_layer_norm")
    for i in range(L):
        p = f"gpt_neox.layers.{i}."
        layer_norm(t, p + "input_layernorm")
        layer_norm(t, p + "post_attention_layernorm")
        linear(t, p + "attention.query_key_value", 3 * H, H)
        linear(t, p + "attention.dense", H, H)
        linear(t, p + "mlp.dense_h_to_4h", FF, H)
        linear(t, p + "mlp.dense_4h_to_h", H, FF)
    return cfg, t, "qwen3", "F16"


def starcoder(case):
    # bigcode/gpt_bigcode-santacoder's config.json: multi-query c_attn [H + 2 · head_dim, H] (kept fused: the
    # converter writes one KV head), learned positions (wpe), GELU MLP c_fc/c_proj as nn.Linear, biases, tied
    # embeddings (no lm_head stored).
    cfg = {"activation_function": "gelu_pytorch_tanh", "architectures": ["GPTBigCodeForCausalLM"], "attention_softmax_in_fp32": True,
           "attn_pdrop": 0.1, "bos_token_id": 49152, "embd_pdrop": 0.1, "eos_token_id": 49152, "initializer_range": 0.02,
           "layer_norm_epsilon": 1e-05, "model_type": "gpt_bigcode", "multi_query": True, "n_embd": H, "n_head": NH,
           "n_inner": 4 * H, "n_layer": L, "n_positions": 2048, "resid_pdrop": 0.1, "scale_attention_softmax_in_fp32": True,
           "scale_attn_weights": True, "torch_dtype": "float32", "transformers_version": "4.28.1", "use_cache": True,
           "vocab_size": V}
    hd = H // NH
    t = {"transformer.wte.weight": (V, H), "transformer.wpe.weight": (2048, H)}
    layer_norm(t, "transformer.ln_f")
    for i in range(L):
        p = f"transformer.h.{i}."
        layer_norm(t, p + "ln_1")
        layer_norm(t, p + "ln_2")
        linear(t, p + "attn.c_attn", H + 2 * hd, H)
        linear(t, p + "attn.c_proj", H, H)
        linear(t, p + "mlp.c_fc", 4 * H, H)
        linear(t, p + "mlp.c_proj", H, 4 * H)
    return cfg, t, "qwen3"


def olmo(case):
    # allenai/OLMo-1.7-7B-hf's config.json: non-parametric LayerNorms (no norm tensors at all), clip_qkv 8 (the
    # converter's clamp_kqv), SwiGLU, no biases, an untied lm_head; q_proj/k_proj permuted as LlamaModel's.
    cfg = {"architectures": ["OlmoForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": None,
           "clip_qkv": 8.0, "eos_token_id": 50279, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "max_position_embeddings": 4096, "model_type": "olmo", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": NH, "pad_token_id": 1, "pretraining_tp": 1, "rope_scaling": None,
           "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "float32",
           "transformers_version": "4.40.0.dev0", "use_cache": True, "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        for n in ("q_proj", "k_proj", "v_proj", "o_proj"):
            linear(t, p + "self_attn." + n, H, H, bias=False)
        linear(t, p + "mlp.gate_proj", FF, H, bias=False)
        linear(t, p + "mlp.up_proj", FF, H, bias=False)
        linear(t, p + "mlp.down_proj", H, FF, bias=False)
    return cfg, t, "qwen3", "BF16"


def bloom(case):
    # bigscience/bloom-560m's config.json (F16; no seq_length: the converter writes the width as the context):
    # ALiBi (no positions), the embedding LayerNorm, fused query_key_value stored per head [q, k, v] (regrouped,
    # weight and bias), biases everywhere, tied embeddings; names as BloomForCausalLM saves them (transformer.*).
    cfg = {"apply_residual_connection_post_layernorm": False, "architectures": ["BloomForCausalLM"], "attention_dropout": 0.0,
           "attention_softmax_in_fp32": True, "bias_dropout_fusion": True, "bos_token_id": 1, "eos_token_id": 2,
           "hidden_dropout": 0.0, "hidden_size": H, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
           "masked_softmax_fusion": True, "model_type": "bloom", "n_head": NH, "n_inner": None, "n_layer": L,
           "offset_alibi": 100, "pad_token_id": 3, "pretraining_tp": 1, "skip_bias_add": True, "skip_bias_add_qkv": False,
           "slow_but_exact": False, "torch_dtype": "float16", "transformers_version": "4.21.0", "unk_token_id": 0,
           "use_cache": True, "vocab_size": V}
    t = {"transformer.word_embeddings.weight": (V, H)}
    layer_norm(t, "transformer.word_embeddings_layernorm")
    layer_norm(t, "transformer.ln_f")
    for i in range(L):
        p = f"transformer.h.{i}."
        layer_norm(t, p + "input_layernorm")
        layer_norm(t, p + "post_attention_layernorm")
        linear(t, p + "self_attention.query_key_value", 3 * H, H)
        linear(t, p + "self_attention.dense", H, H)
        linear(t, p + "mlp.dense_h_to_4h", 4 * H, H)
        linear(t, p + "mlp.dense_4h_to_h", H, 4 * H)
    return cfg, t, "qwen3", "F16"


def minicpm(case):
    # openbmb/MiniCPM-2B-sft-bf16's config.json (remote code): scale_emb 12, dim_model_base 256 (H · 8 here: the
    # logit scale 1/8), scale_depth 1.4 (the converter's residual scale 1.4 / √layers), tied embeddings (no lm_head
    # stored), q_proj/k_proj permuted; its SentencePiece tokenizer (Llama 2's here, vocab_size following it).
    cfg = {"architectures": ["MiniCPMForCausalLM"],
           "auto_map": {"AutoConfig": "configuration_minicpm.MiniCPMConfig", "AutoModel": "modeling_minicpm.MiniCPMModel",
                        "AutoModelForCausalLM": "modeling_minicpm.MiniCPMForCausalLM"},
           "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.1,
           "intermediate_size": FF, "max_position_embeddings": 4096, "num_attention_heads": NH, "num_hidden_layers": L,
           "num_key_value_heads": NH, "rms_norm_eps": 1e-05, "rope_scaling": None, "torch_dtype": "bfloat16",
           "transformers_version": "4.36.0", "use_cache": True, "vocab_size": 32000, "scale_emb": 12,
           "dim_model_base": 8 * H, "scale_depth": 1.4}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,)})
        for n in ("q_proj", "k_proj", "v_proj", "o_proj"):
            linear(t, p + "self_attn." + n, H, H, bias=False)
        linear(t, p + "mlp.gate_proj", FF, H, bias=False)
        linear(t, p + "mlp.up_proj", FF, H, bias=False)
        linear(t, p + "mlp.down_proj", H, FF, bias=False)
    return cfg, t, "llama2-spm", "BF16"


def internlm2(case):
    # internlm/internlm2-chat-1_8b's config.json (remote code): wqkv stored per KV group [q, q, k, v] × head_dim
    # rows (2 KV heads here; the converter splits it into q, k, v with q and k permuted), "dynamic" rope scaling
    # (no key), an untied `output`; Llama 2's tokenizer.model with InternLM3's tokenizer_config (a special
    # <|im_end|>, which the converter makes eos).
    nkv = 2
    cfg = {"architectures": ["InternLM2ForCausalLM"], "attn_implementation": "eager",
           "auto_map": {"AutoConfig": "configuration_internlm2.InternLM2Config",
                        "AutoModelForCausalLM": "modeling_internlm2.InternLM2ForCausalLM"},
           "bias": False, "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 32768, "model_type": "internlm2",
           "num_attention_heads": NH, "num_hidden_layers": L, "num_key_value_heads": nkv, "pad_token_id": 2,
           "rms_norm_eps": 1e-05, "rope_scaling": {"type": "dynamic", "factor": 2.0}, "rope_theta": 1000000,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16", "transformers_version": "4.33.2", "use_cache": True,
           "vocab_size": 32000}
    hd = H // NH
    t = {"model.tok_embeddings.weight": (32000, H), "output.weight": (32000, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "attention_norm.weight": (H,), p + "ffn_norm.weight": (H,)})
        linear(t, p + "attention.wqkv", (NH + 2 * nkv) * hd, H, bias=False)
        linear(t, p + "attention.wo", H, H, bias=False)
        linear(t, p + "feed_forward.w1", FF, H, bias=False)
        linear(t, p + "feed_forward.w3", FF, H, bias=False)
        linear(t, p + "feed_forward.w2", H, FF, bias=False)
    return cfg, t, "llama2-internlm3", "BF16"
