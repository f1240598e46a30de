#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""A ~GIB GiB (as BF16 output) ONNX model of MatMulNBits int4 layers, the
layout onnxruntime-genai's builder writes for an int4 LLM: per layer
`layers.N.mlp.up_proj.MatMul.weight_Q4G32` U8 [N, K/32, 16], its F16
`_scales` [N·K/32] and packed U8 `_zero_points` [N·⌈K/32/2⌉], every
initializer in the external data file `model.onnx_data` (random codes), for
tests/bench/onnx_e2e.sh. usage: make_big_onnx.py OUT_DIR [GIB]"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

out = Path(sys.argv[1])
gib = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
K = N = 4096
bs = 32
layers = max(1, int(gib * (1 << 30) / (K * N * 2)))
rng = np.random.default_rng(0)
out.mkdir(parents=True, exist_ok=True)
inits, nodes = [], []
x = "x"
with open(out / "model.onnx_data", "wb") as data:
    def external(name, dtype, dims, raw):
        t = TensorProto()
        t.name, t.data_type = name, dtype
        t.dims.extend(dims)
        t.data_location = TensorProto.EXTERNAL
        off = data.tell()
        data.write(raw)
        for k, v in (("location", "model.onnx_data"), ("offset", str(off)), ("length", str(len(raw)))):
            e = t.external_data.add()
            e.key, e.value = k, v
        inits.append(t)

    for i in range(layers):
        p = f"layers.{i}.mlp.up_proj.MatMul.weight"
        blocks = K // bs
        external(p + "_Q4G32", TensorProto.UINT8, [N, blocks, bs // 2], rng.integers(0, 256, (N, blocks, bs // 2), dtype=np.uint8).tobytes())
        external(p + "_scales", TensorProto.FLOAT16, [N * blocks], rng.normal(0, 0.002, N * blocks).astype(np.float16).tobytes())
        external(p + "_zero_points", TensorProto.UINT8, [N * ((blocks + 1) // 2)],
                 rng.integers(0, 256, N * ((blocks + 1) // 2), dtype=np.uint8).tobytes())
        y = f"h{i}"
        nodes.append(helper.make_node("MatMulNBits", [x, p + "_Q4G32", p + "_scales", p + "_zero_points"], [y],
                                      domain="com.microsoft", K=K, N=N, bits=4, block_size=bs))
        x = y
g = helper.make_graph(nodes, "big", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, K])],
                      [helper.make_tensor_value_info(x, TensorProto.FLOAT16, [1, N])], inits)
m = helper.make_model(g, producer_name="amn-bench", opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
onnx.save(m, str(out / "model.onnx"))
