#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a llama-shaped BF16 Hugging Face folder for the HF → GGUF end-to-end
benchmark (tests/bench/hf_gguf_e2e.sh).

Usage: make_big_hf_llama.py OUTDIR TOKENIZER_DIR [LAYERS]
  OUTDIR         the folder to make (its name is the model name the converters
                 derive general.name from)
  TOKENIZER_DIR  a Llama-2 style folder whose tokenizer.model, tokenizer.json,
                 tokenizer_config.json, special_tokens_map.json and
                 generation_config.json are copied (e.g. the hf-gguf fixture
                 inputs/Llama-2-7b-hf: the real Llama 2 SentencePiece model)
  LAYERS         decoder layers (default 10: ~1.1 GB of BF16)

Shape: hidden 2048, intermediate 5632, 32 heads, 4 KV heads (TinyLlama's),
vocab 32000, untied lm_head; every tensor BF16 (norms too, as BF16 checkpoints
ship them), values 0.02·N(0,1) (norms 1 + 0.02·N(0,1)), numpy seed 0, rounded
to BF16 to nearest even. One model.safetensors laid out as the upstream writer
does (data sorted by name, `__metadata__` {"format": "pt"}), written in slices:
bounded memory."""
import json
import os
import shutil
import struct
import sys

import numpy as np

out, tokdir = sys.argv[1], sys.argv[2]
layers = int(sys.argv[3]) if len(sys.argv) > 3 else 10
H, I, NH, NKV, V = 2048, 5632, 32, 4, 32000
HD = H // NH
os.makedirs(out, exist_ok=True)

shapes = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
for i in range(layers):
    p = f"model.layers.{i}."
    shapes[p + "input_layernorm.weight"] = (H,)
    shapes[p + "post_attention_layernorm.weight"] = (H,)
    shapes[p + "self_attn.q_proj.weight"] = (NH * HD, H)
    shapes[p + "self_attn.k_proj.weight"] = (NKV * HD, H)
    shapes[p + "self_attn.v_proj.weight"] = (NKV * HD, H)
    shapes[p + "self_attn.o_proj.weight"] = (H, NH * HD)
    shapes[p + "mlp.gate_proj.weight"] = (I, H)
    shapes[p + "mlp.up_proj.weight"] = (I, H)
    shapes[p + "mlp.down_proj.weight"] = (H, I)
names = sorted(shapes)

header, off = {"__metadata__": {"format": "pt"}}, 0
for n in names:
    nb = int(np.prod(shapes[n])) * 2
    header[n] = {"dtype": "BF16", "shape": list(shapes[n]), "data_offsets": [off, off + nb]}
    off += nb
h = json.dumps(header, separators=(",", ":")).encode()
h += b" " * ((8 - (8 + len(h)) % 8) % 8)
rng = np.random.default_rng(0)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    for n in names:
        s = shapes[n]
        total = int(np.prod(s))
        for e0 in range(0, total, 1 << 24):  # 16 Mi values at a time
            x = rng.standard_normal(min(1 << 24, total - e0), dtype=np.float32) * np.float32(0.02)
            if len(s) == 1:
                x += np.float32(1)
            u = x.view(np.uint32)
            f.write(((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).tobytes())

cfg = {
    "architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
    "hidden_size": H, "initializer_range": 0.02, "intermediate_size": I, "max_position_embeddings": 4096,
    "model_type": "llama", "num_attention_heads": NH, "num_hidden_layers": layers,
    "num_key_value_heads": NKV, "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None,
    "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
    "transformers_version": "4.31.0", "use_cache": True, "vocab_size": V,
}
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(cfg, f, indent=2)
    f.write("\n")
for t in ("tokenizer.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
          "generation_config.json"):
    if os.path.exists(os.path.join(tokdir, t)):
        shutil.copyfile(os.path.join(tokdir, t), os.path.join(out, t))
