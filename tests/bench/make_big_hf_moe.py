#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a Mixtral-shaped BF16 Hugging Face folder whose stacked expert
tensors are large (issue 30: memory that does not grow with the experts),
for tests/bench/moe_memory.sh and tests/bench/scale_e2e.sh.

Usage: make_big_hf_moe.py OUTDIR TOKENIZER_DIR [EXPERTS] [LAYERS] [SHARDS] [HIDDEN] [FF]
  OUTDIR         the folder to make (its name is the model name)
  TOKENIZER_DIR  a Mixtral/Mistral folder whose tokenizer.model, tokenizer.json,
                 tokenizer_config.json and generation_config.json are copied
                 (e.g. the hf-gguf fixture inputs/Mixtral-8x7B-v0.1)
  EXPERTS        experts per layer (default 128)
  LAYERS         decoder layers (default 2)
  SHARDS         model-0000i-of-0000N.safetensors files (default 3): the
                 tensors in name order cut into N runs of about equal bytes,
                 so one layer's experts straddle files as real checkpoints do
  HIDDEN, FF     hidden size (default 1024) and expert intermediate size
                 (default 512): each stacked ffn_{gate,up,down}_exps tensor
                 is EXPERTS × FF × HIDDEN BF16 (128 × 512 × 1024 = 128 MiB)

Attention: 8 heads, 2 KV heads; vocab 32000 (the tokenizer's); untied
lm_head; values 0.02·N(0,1) (norms 1 + …) rounded to BF16 to nearest even,
numpy default_rng(0); written slice by slice (bounded memory), each shard
as the upstream writer lays it out (data sorted by name, `__metadata__`
{"format": "pt"}), with model.safetensors.index.json."""
import json
import os
import shutil
import struct
import sys

import numpy as np

out, tokdir = sys.argv[1], sys.argv[2]
E = int(sys.argv[3]) if len(sys.argv) > 3 else 128
layers = int(sys.argv[4]) if len(sys.argv) > 4 else 2
nshards = int(sys.argv[5]) if len(sys.argv) > 5 else 3
H = int(sys.argv[6]) if len(sys.argv) > 6 else 1024
FF = int(sys.argv[7]) if len(sys.argv) > 7 else 512
NH, NKV, V = 8, 2, 32000
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
    shapes[p + "block_sparse_moe.gate.weight"] = (E, H)
    for e in range(E):
        q = p + f"block_sparse_moe.experts.{e}."
        shapes[q + "w1.weight"] = (FF, H)
        shapes[q + "w2.weight"] = (H, FF)
        shapes[q + "w3.weight"] = (FF, H)
names = sorted(shapes)
nbytes = {n: int(np.prod(shapes[n])) * 2 for n in names}
total = sum(nbytes.values())

# Cut the name-ordered tensors into nshards runs of about total / nshards bytes.
runs, cur, acc = [], [], 0
for n in names:
    cur.append(n)
    acc += nbytes[n]
    if acc >= total * (len(runs) + 1) / nshards and len(runs) < nshards - 1:
        runs.append(cur)
        cur = []
runs.append(cur)
nshards = len(runs)

rng = np.random.default_rng(0)
weight_map = {}
for si, run in enumerate(runs):
    fname = f"model-{si + 1:05d}-of-{nshards:05d}.safetensors"
    header, off = {"__metadata__": {"format": "pt"}}, 0
    for n in run:
        header[n] = {"dtype": "BF16", "shape": list(shapes[n]), "data_offsets": [off, off + nbytes[n]]}
        off += nbytes[n]
        weight_map[n] = fname
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - (8 + len(h)) % 8) % 8)
    with open(os.path.join(out, fname), "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for n in run:
            s = shapes[n]
            count = int(np.prod(s))
            for e0 in range(0, count, 1 << 24):  # 16 Mi values at a time
                x = rng.standard_normal(min(1 << 24, count - e0), dtype=np.float32) * np.float32(0.02)
                if len(s) == 1:
                    x += np.float32(1)
                u = x.view(np.uint32)
                f.write(((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).tobytes())
with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
    json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    f.write("\n")

cfg = {
    "architectures": ["MixtralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 2,
    "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
    "max_position_embeddings": 32768, "model_type": "mixtral", "num_attention_heads": NH, "num_experts_per_tok": 2,
    "num_hidden_layers": layers, "num_key_value_heads": NKV, "num_local_experts": E, "output_router_logits": False,
    "rms_norm_eps": 1e-05, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.02, "sliding_window": None,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "transformers_version": "4.36.0.dev0",
    "use_cache": True, "vocab_size": V,
}
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(cfg, f, indent=2)
    f.write("\n")
for t in ("tokenizer.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
          "generation_config.json"):
    if os.path.exists(os.path.join(tokdir, t)):
        shutil.copyfile(os.path.join(tokdir, t), os.path.join(out, t))
