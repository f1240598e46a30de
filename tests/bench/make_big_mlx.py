#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""A ~GIB GiB (as BF16 output) MLX 4-bit folder, group 64, BF16 scales and
biases (random codes; the layout mlx_lm.convert -q writes), for
tests/bench/mlx_e2e.sh. usage: make_big_mlx.py OUT_DIR [GIB]"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from mlx_folders import Tensor, bf16_round, of_array, write_st  # noqa: E402

out = Path(sys.argv[1])
gib = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
rows = cols = 4096
layers = max(1, int(gib * (1 << 30) / (rows * cols * 2)))
rng = np.random.default_rng(0)
t = {}
for i in range(layers):
    p = f"model.layers.{i}.mlp.up_proj"
    t[p + ".weight"] = Tensor("U32", [rows, cols // 8], rng.integers(0, 2 ** 32, size=(rows, cols // 8), dtype=np.uint32).tobytes())
    for k in ("scales", "biases"):
        t[p + "." + k] = of_array(bf16_round(rng.normal(0, 0.02, size=(rows, cols // 64)).astype(np.float32)), bf16=True)
out.mkdir(parents=True, exist_ok=True)
write_st(out / "model.safetensors", dict(sorted(t.items())), {"format": "mlx"})
(out / "config.json").write_text(json.dumps({"model_type": "llama", "quantization": {"group_size": 64, "bits": 4, "mode": "affine"},
                                             "torch_dtype": "bfloat16"}, indent=4))
