#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a large BF16 safetensors model for the forget-to-safetensors
end-to-end benchmark (tests/bench/forget_st_e2e.sh).

Usage: make_big_bf16.py OUTDIR [GIB] [--one-weight]
  default: N llama-shaped MLP weights model.layers.I.mlp.{gate,up,down}_proj.weight
           [4096, 4096] BF16, N(0, 0.02^2) (numpy, seed 0), ~GIB GiB in all;
  --one-weight: a single model.layers.0.mlp.down_proj.weight of ~GIB GiB
           ([R, 16384], R a multiple of 128), to measure that peak RSS does not
           grow with the largest weight.
Plus a llama config.json. Values are rounded to BF16 (round to nearest even)."""
import json
import os
import struct
import sys

import numpy as np

args = [a for a in sys.argv[1:] if not a.startswith("--")]
out = args[0]
gib = float(args[1]) if len(args) > 1 else 1.0
one = "--one-weight" in sys.argv
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)

if one:
    C = 16384
    R = max(128, int(gib * (1 << 30) / (2 * C)) // 128 * 128)
    shapes = [("model.layers.0.mlp.down_proj.weight", R, C)]
else:
    R = C = 4096
    n = max(1, int(round(gib * (1 << 30) / (R * C * 2))))
    proj = ("gate_proj", "up_proj", "down_proj")
    shapes = [(f"model.layers.{i // 3}.mlp.{proj[i % 3]}.weight", R, C) for i in range(n)]

header, off = {"__metadata__": {"format": "pt"}}, 0
for name, r, c in shapes:
    header[name] = {"dtype": "BF16", "shape": [r, c], "data_offsets": [off, off + r * c * 2]}
    off += r * c * 2
h = json.dumps(header).encode()
h += b" " * ((8 - (8 + len(h)) % 8) % 8)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    for name, r, c in shapes:
        for r0 in range(0, r, 1024):  # in slices: bounded memory
            x = (rng.standard_normal((min(1024, r - r0), c), dtype=np.float32) * np.float32(0.02))
            u = x.view(np.uint32)
            f.write(((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).tobytes())
cfg = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "torch_dtype": "bfloat16",
       "hidden_size": 4096, "intermediate_size": 4096, "num_hidden_layers": max(1, len(shapes) // 3)}
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(cfg, f, indent=2)
