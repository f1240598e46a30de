#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a large FP8 block-quantized model for the end-to-end benchmark:
N tensors of [8192, 16384] F8_E4M3 (128 MiB each) with 128x128 BF16 scales,
plus config.json. Usage: make_big_fp8.py OUTDIR [GIB] (default 2 GiB)."""
import json
import os
import struct
import sys

import numpy as np

out = sys.argv[1]
gib = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
R, C = 8192, 16384
n = max(1, int(round(gib * (1 << 30) / (R * C))))
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
header, off = {"__metadata__": {"format": "pt"}}, 0
scale = (rng.random((R // 128, C // 128), dtype=np.float32) * 1e-3 + 1e-4).astype(np.float32)
sbits = ((scale.view(np.uint32) + 0x7FFF + ((scale.view(np.uint32) >> 16) & 1)) >> 16).astype(np.uint16)
for i in range(n):
    w = f"model.layers.{i}.mlp.down_proj.weight"
    header[w] = {"dtype": "F8_E4M3", "shape": [R, C], "data_offsets": [off, off + R * C]}
    off += R * C
    header[w + "_scale_inv"] = {"dtype": "BF16", "shape": list(sbits.shape), "data_offsets": [off, off + sbits.nbytes]}
    off += sbits.nbytes
h = json.dumps(header).encode()
h += b" " * ((8 - (8 + len(h)) % 8) % 8)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    for i in range(n):
        codes = rng.integers(0, 0x7E, R * C, dtype=np.uint8)
        codes[::2] |= 0x80  # both signs
        f.write(codes.tobytes())
        f.write(sbits.tobytes())
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump({"model_type": "llama", "torch_dtype": "bfloat16",
               "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]}}, f)
print(f"{n} tensors, {off / (1 << 30):.2f} GiB of tensor data")
