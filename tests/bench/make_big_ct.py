#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a large compressed-tensors W4A16 model (pack-quantized, symmetric,
group 128) for the end-to-end benchmark: N linear layers of [8192, 16384]
as weight_packed I32 [out, in/8] (eight 4-bit fields per word, low bits
first), weight_scale BF16 [out, in/128], weight_shape I64 [2], plus a
config.json. Usage: make_big_ct.py OUTDIR [GIB] (default 1 GiB of input)."""
import json
import os
import struct
import sys

import numpy as np

out = sys.argv[1]
gib = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
R, C, GS = 8192, 16384, 128
per = R * C // 2 + R * (C // GS) * 2 + 16
n = max(1, int(round(gib * (1 << 30) / per)))
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
scale = (rng.random((R, C // GS), dtype=np.float32) * 1e-2 + 1e-3).astype(np.float32)
u = scale.view(np.uint32)
sbits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
shape = np.array([R, C], dtype=np.int64)
header, off = {"__metadata__": {"format": "pt"}}, 0
for i in range(n):
    p = f"model.layers.{i}.mlp.down_proj"
    for name, dt, shp, nb in ((p + ".weight_packed", "I32", [R, C // 8], R * C // 2),
                              (p + ".weight_scale", "BF16", [R, C // GS], sbits.nbytes),
                              (p + ".weight_shape", "I64", [2], 16)):
        header[name] = {"dtype": dt, "shape": shp, "data_offsets": [off, off + nb]}
        off += nb
h = json.dumps(header).encode()
h += b" " * ((8 - (8 + len(h)) % 8) % 8)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    for i in range(n):
        f.write(rng.integers(0, 1 << 32, R * C // 8, dtype=np.uint32).tobytes())
        f.write(sbits.tobytes())
        f.write(shape.tobytes())
weights = {"num_bits": 4, "type": "int", "symmetric": True, "group_size": 128, "strategy": "group",
           "block_structure": None, "dynamic": False, "actorder": None}
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump({"model_type": "llama", "torch_dtype": "bfloat16",
               "quantization_config": {"quant_method": "compressed-tensors", "format": "pack-quantized",
                                       "quantization_status": "compressed", "ignore": ["lm_head"],
                                       "config_groups": {"group_0": {"format": "pack-quantized", "targets": ["Linear"],
                                                                     "weights": weights, "input_activations": None,
                                                                     "output_activations": None}}}}, f, indent=1)
print(f"{n} layers, {off / (1 << 30):.2f} GiB of tensor data")
