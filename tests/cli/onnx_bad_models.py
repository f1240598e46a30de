#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write broken ONNX models, one folder per case, with python3-onnx (the
models are otherwise valid: onnx.checker accepts the ones it can check), and
print a JSON list of {"case", "model", "expect"}: `expect` is a piece of the
one error line `amn` must print for it. Used by test_cli_onnx.

usage: onnx_bad_models.py OUTDIR
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
cases = []


def model(initializers, nodes=(), inputs=(), outputs=None):
    outputs = outputs or [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    g = helper.make_graph(list(nodes), "g", list(inputs), outputs, list(initializers))
    return helper.make_model(g, producer_name="amn-test", opset_imports=[helper.make_opsetid("", 17),
                                                                       helper.make_opsetid("com.microsoft", 1)])


def save(case, m, expect, raw=None):
    d = os.path.join(out, case)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, "model.onnx")
    data = raw if raw is not None else m.SerializeToString()
    with open(p, "wb") as f:
        f.write(data)
    cases.append({"case": case, "model": p, "expect": expect})
    return d


def external(name, location, offset=None, length=None, shape=(4, 4)):
    t = TensorProto()
    t.name = name
    t.data_type = TensorProto.FLOAT
    t.dims.extend(shape)
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", offset), ("length", length)):
        if v is not None:
            e = t.external_data.add()
            e.key, e.value = k, str(v)
    return t


rng = np.random.default_rng(33)
w = numpy_helper.from_array(rng.standard_normal((16, 16)).astype(np.float32), "w")
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])

# A truncated protobuf: the model cut inside w's raw_data.
good = model([w], [helper.make_node("MatMul", ["x", "w"], ["y"])], [x]).SerializeToString()
save("truncated", None, "truncated protobuf", raw=good[: len(good) - 200])

# External data: missing, shorter than its length, bad offsets, ways out of the folder.
save("ext-missing", model([external("e", "weights.bin", 0, 64)]), "not found")
d = save("ext-short", model([external("e", "weights.bin", 4096, 64)]), "shorter than its offset")
with open(os.path.join(d, "weights.bin"), "wb") as f:
    f.write(b"\xab" * 4100)
d = save("ext-negative", model([external("e", "weights.bin", -4096, 64)]), "is negative")
with open(os.path.join(d, "weights.bin"), "wb") as f:
    f.write(b"\xab" * 8192)
d = save("ext-overflow", model([external("e", "weights.bin", 2**64 + 5, 64)]), "overflows 64 bits")
with open(os.path.join(d, "weights.bin"), "wb") as f:
    f.write(b"\xab" * 8192)
d = save("ext-size", model([external("e", "weights.bin", 0, 60)]), "external data holds 60 bytes")
with open(os.path.join(d, "weights.bin"), "wb") as f:
    f.write(b"\xab" * 8192)
with open(os.path.join(out, "secret.bin"), "wb") as f:
    f.write(b"\xcd" * 64)
save("ext-absolute", model([external("e", os.path.join(out, "secret.bin"), 0, 64)]), "is absolute")
save("ext-dotdot", model([external("e", "../secret.bin", 0, 64)]), "leaves the model's folder")
d = save("ext-symlink", model([external("e", "sub/link.bin", 0, 64)]), "symbolic link")
os.makedirs(os.path.join(d, "sub"), exist_ok=True)
os.symlink(os.path.join("..", "..", "secret.bin"), os.path.join(d, "sub", "link.bin"))

# raw_data of another size than shape × dtype.
t = numpy_helper.from_array(np.zeros((4, 4), np.float32), "short")
t.raw_data = t.raw_data[:60]
save("raw-size", model([t]), "raw_data holds 60 bytes")

# A MatMulNBits weight whose packed bytes disagree with K, N, bits and block_size.
K, N, bs = 64, 8, 32
B = numpy_helper.from_array(rng.integers(0, 256, (N, 1, bs // 2), dtype=np.uint8), "fc.weight_Q4")  # 1 block, K needs 2
S = numpy_helper.from_array(rng.random(N * 2).astype(np.float32), "fc.weight_scales")
node = helper.make_node("MatMulNBits", ["x", "fc.weight_Q4", "fc.weight_scales"], ["y"], domain="com.microsoft",
                        K=K, N=N, bits=4, block_size=bs)
save("nbits-size", model([B, S], [node], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, K])]),
     "packed weight 'fc.weight_Q4' holds 128 bytes")

# A MatMulNBits whose scales are one short.
B = numpy_helper.from_array(rng.integers(0, 256, (N, 2, bs // 2), dtype=np.uint8), "fc.weight_Q4")
S = numpy_helper.from_array(rng.random(N * 2 - 1).astype(np.float32), "fc.weight_scales")
save("nbits-scales", model([B, S], [node], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, K])]),
     "scales 'fc.weight_scales' holds 15 values, 16 expected")

# MatMulNBits act order: a g_idx entry past the blocks of a row, a g_idx of the wrong type, an 8-bit g_idx
# (onnxruntime runs act order for 4 bits only).
S = numpy_helper.from_array(rng.random(N * 2).astype(np.float32), "fc.weight_scales")
for case, g, bits, expect in (
        ("nbits-gidx-range", np.where(np.arange(K) == 40, 2, np.arange(K) // bs).astype(np.int32), 4, "g_idx[40] = 2 is out of range (2 blocks per row)"),
        ("nbits-gidx-dtype", (np.arange(K) // bs).astype(np.int64), 4, "g_idx 'fc.weight_g_idx' is I64 [64], I32 [64] expected"),
        ("nbits-gidx-8bit", (np.arange(K) // bs).astype(np.int32), 8, "g_idx with 8-bit weights (onnxruntime runs act order for 4 bits only)")):
    B = numpy_helper.from_array(rng.integers(0, 256, (N, 2, bs * bits // 8), dtype=np.uint8), "fc.weight_Q4")
    node = helper.make_node("MatMulNBits", ["x", "fc.weight_Q4", "fc.weight_scales", "", "fc.weight_g_idx"], ["y"], domain="com.microsoft",
                            K=K, N=N, bits=bits, block_size=bs)
    save(case, model([B, S, numpy_helper.from_array(g, "fc.weight_g_idx")], [node], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, K])]),
         expect)

# Typed fields that disagree with the shape or the data type.
t = helper.make_tensor("f", TensorProto.FLOAT, [2, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
del t.float_data[5:]
save("typed-count", model([t]), "float_data holds 5 values, F32 [2, 3] needs 6")
t = helper.make_tensor("i", TensorProto.INT64, [2], [1, 2])
t.float_data.extend([1.0, 2.0])
del t.int64_data[:]
save("typed-field", model([t]), "float_data does not hold I64 values")
t = numpy_helper.from_array(np.zeros((4,), np.float32), "neg")
t.dims[0] = -4
save("negative-dim", model([t]), "negative dimension -4")
t = numpy_helper.from_array(np.zeros((4,), np.float32), "seg")
t.segment.begin, t.segment.end = 0, 4
save("segment", model([t]), "segmented tensor")

# A DequantizeLinear scale of neither one value nor one per index of the axis.
x = numpy_helper.from_array(rng.integers(-128, 128, (8, 6), dtype=np.int8), "w_quantized")
sc = numpy_helper.from_array(rng.random(5).astype(np.float32), "w_scale")
save("dq-scale", model([x, sc], [helper.make_node("DequantizeLinear", ["w_quantized", "w_scale"], ["y"], axis=1)]),
     "scale 'w_scale' [5] is neither one value nor one per index of axis 1 (6)")

# GatherBlockQuantized scales for another block size.
data = numpy_helper.from_array(rng.integers(0, 256, (10, 32), dtype=np.uint8), "e.weight_Q4")
sc = numpy_helper.from_array(rng.random((10, 3)).astype(np.float32), "e.weight_scales")
node = helper.make_node("GatherBlockQuantized", ["e.weight_Q4", "ids", "e.weight_scales"], ["y"], domain="com.microsoft",
                        gather_axis=0, quantize_axis=1, block_size=32, bits=4)
save("gbq-scales", model([data, sc], [node], [helper.make_tensor_value_info("ids", TensorProto.INT64, [1])]),
     "scale 'e.weight_scales' is [10, 3], blocks of 32 along axis 1 need [10, 2]")

json.dump(cases, sys.stdout, indent=1)
