#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""amn's dequantized ONNX weights against onnxruntime's own kernels.

For each case a model with random data (seeded) is written whose graph
applies the quantizing operator the way the quantizers use it, to an input
that makes its output the dequantized weight: MatMulNBits / MatMulBnb4 /
MatMulInteger on an identity A [K, K] (output = the [K, N] weight),
GatherBlockQuantized over every row, DequantizeLinear of the initializer.
onnxruntime-node (onnx_ort_run.cjs) runs each model; `amn remember MODEL -o
OUT.safetensors --to f32` must write the same values bit for bit, except that
where amn writes −0.0 the identity product may give +0.0 (the GEMM
accumulates from +0.0). Prints one line per case and "N passed, M failed";
exit 1 on a failure.

usage: onnx_ort_check.py AMN ORT_MODULE_DIR WORKDIR
"""
import json
import os
import struct
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(3333)
cases = []
WORK = None


def pack_low_first(q, bits):
    """Fields from bit 0 up, (8 / bits) per byte, over the flattened array."""
    q = np.asarray(q, np.uint8).reshape(-1)
    per = 8 // bits
    pad = (-q.size) % per
    q = np.concatenate([q, np.zeros(pad, np.uint8)]).reshape(-1, per)
    out = np.zeros(q.shape[0], np.uint8)
    for j in range(per):
        out |= (q[:, j] & ((1 << bits) - 1)) << (j * bits)
    return out


def int4_tensor(name, q, signed, shape):
    t = TensorProto()
    t.name = name
    t.data_type = 22 if signed else 21  # INT4 / UINT4 (onnx 1.16's ids; python3-onnx 1.12 predates them)
    t.dims.extend(shape)
    t.raw_data = pack_low_first(np.asarray(q).astype(np.int64) & 15, 4).tobytes()
    return t


def add(name, initializers, nodes, inputs, feeds, output, weight_name, opset=21, f16_out=False):
    g = helper.make_graph(nodes, name, inputs, [helper.make_tensor_value_info(output, TensorProto.FLOAT16 if f16_out else TensorProto.FLOAT, None)],
                          initializers)
    m = helper.make_model(g, producer_name="amn-ort-check", opset_imports=[helper.make_opsetid("", opset),
                                                                          helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 10
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    feed_files = {}
    for k, (arr, dt) in feeds.items():
        p = os.path.join(d, f"feed-{k}.bin")
        arr.astype(dt).tofile(p)
        feed_files[k] = {"path": p, "type": {np.float32: "float32", np.float16: "float16", np.int64: "int64", np.uint8: "uint8"}[dt],
                         "dims": list(arr.shape)}
    cases.append({"name": name, "dir": d, "feeds": feed_files, "output": output, "weight": weight_name, "f16": f16_out})


def matmul_nbits(name, K, N, bits, bs, zp, scale_dtype=np.float32, g_idx=False):
    kb = (K + bs - 1) // bs
    q = rng.integers(0, 1 << bits, (N, kb * bs), dtype=np.uint8)
    B = np.stack([pack_low_first(q[n], bits).reshape(kb, bs * bits // 8) for n in range(N)])
    s = (rng.standard_normal(N * kb) * 0.05).astype(scale_dtype)
    inits = [numpy_helper.from_array(B, f"{name}.weight_Q{bits}"), numpy_helper.from_array(s, f"{name}.weight_scales")]
    ins = ["A", f"{name}.weight_Q{bits}", f"{name}.weight_scales"]
    if zp == "uint8":
        z = rng.integers(0, 1 << bits, (N, kb), dtype=np.uint8)
        inits.append(numpy_helper.from_array(np.stack([pack_low_first(z[n], bits) for n in range(N)]), f"{name}.weight_zero_points"))
        ins.append(f"{name}.weight_zero_points")
    elif zp == "float":
        z = (rng.random(N * kb) * ((1 << bits) - 1)).astype(scale_dtype)
        inits.append(numpy_helper.from_array(z, f"{name}.weight_zero_points"))
        ins.append(f"{name}.weight_zero_points")
    if g_idx:  # act order: row k of W is in group g_idx[k] (every group used; the rows shuffled)
        g = rng.permutation(np.arange(K) // bs).astype(np.int32)
        if zp is None:
            ins.append("")
        inits.append(numpy_helper.from_array(g, f"{name}.weight_g_idx"))
        ins.append(f"{name}.weight_g_idx")
    node = helper.make_node("MatMulNBits", ins, ["Y"], domain="com.microsoft", K=K, N=N, bits=bits, block_size=bs)
    et = TensorProto.FLOAT16 if scale_dtype == np.float16 else TensorProto.FLOAT
    add(name, inits, [node], [helper.make_tensor_value_info("A", et, [K, K])], {"A": (np.eye(K), scale_dtype)}, "Y",
        f"{name}.weight", f16_out=scale_dtype == np.float16)


def write_models(work):
    """Write every case's model (and feeds) under `work`; returns the case list."""
    global WORK
    WORK = work
    matmul_nbits("nbits-q4-b32-sym", 96, 24, 4, 32, None)
    matmul_nbits("nbits-q4-b16-zp-k-ragged", 72, 20, 4, 16, "uint8")
    matmul_nbits("nbits-q4-b64-fzp", 128, 16, 4, 64, "float")
    matmul_nbits("nbits-q8-b32-zp", 64, 12, 8, 32, "uint8")
    matmul_nbits("nbits-q2-b32-zp", 96, 8, 2, 32, "uint8")
    matmul_nbits("nbits-q4-b32-f16", 64, 16, 4, 32, None, np.float16)
    # g_idx (act order, 4 bits only): packed, float and no zero points, ragged K, float16.
    matmul_nbits("nbits-q4-b16-zp-gidx", 64, 12, 4, 16, "uint8", g_idx=True)
    matmul_nbits("nbits-q4-b32-fzp-gidx", 96, 8, 4, 32, "float", g_idx=True)
    matmul_nbits("nbits-q4-b32-gidx", 64, 8, 4, 32, None, g_idx=True)
    matmul_nbits("nbits-q4-b16-zp-gidx-k-ragged", 72, 8, 4, 16, "uint8", g_idx=True)
    matmul_nbits("nbits-q4-b32-zp-gidx-f16", 64, 8, 4, 32, "uint8", np.float16, g_idx=True)
    matmul_nbits("nbits-q4-b32-fzp-gidx-f16", 64, 8, 4, 32, "float", np.float16, g_idx=True)

    # MatMulBnb4: NF4 and FP4 codes of the [N, K] weight flattened, first element in the high nibble.
    for qt, tag in ((1, "nf4"), (0, "fp4")):
        K, N, bs = 64, 24, 64
        codes = rng.integers(0, 16, N * K, dtype=np.uint8)
        packed = (codes[0::2] << 4) | codes[1::2]
        absmax = (rng.random(N * K // bs) + 0.1).astype(np.float32)
        node = helper.make_node("MatMulBnb4", ["A", f"{tag}.weight_Bnb4", f"{tag}.weight_absmax"], ["Y"], domain="com.microsoft",
                                K=K, N=N, block_size=bs, quant_type=qt)
        add(f"bnb4-{tag}", [numpy_helper.from_array(packed, f"{tag}.weight_Bnb4"), numpy_helper.from_array(absmax, f"{tag}.weight_absmax")],
            [node], [helper.make_tensor_value_info("A", TensorProto.FLOAT, [K, K])], {"A": (np.eye(K), np.float32)}, "Y", f"{tag}.weight")

    # GatherBlockQuantized: INT4 (default zero point 0), UINT4 with zero points, UINT8 bits 4 and 8, float16 scales.
    V, H, bs = 40, 64, 32
    idx = (np.arange(V).reshape(1, V), np.int64)
    q = rng.integers(-8, 8, (V, H))
    s = (rng.standard_normal((V, H // bs)) * 0.02).astype(np.float32)
    node = helper.make_node("GatherBlockQuantized", ["e.weight_Q4", "ids", "e.weight_scales"], ["Y"], domain="com.microsoft",
                            gather_axis=0, quantize_axis=1, block_size=bs)
    add("gbq-int4", [int4_tensor("e.weight_Q4", q, True, [V, H]), numpy_helper.from_array(s, "e.weight_scales")], [node],
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, V])], {"ids": idx}, "Y", "e.weight")
    q = rng.integers(0, 16, (V, H))
    z = rng.integers(0, 16, (V, H // bs))
    s16 = (rng.standard_normal((V, H // bs)) * 0.02).astype(np.float16)
    node = helper.make_node("GatherBlockQuantized", ["e.weight_Q4", "ids", "e.weight_scales", "e.weight_zp"], ["Y"], domain="com.microsoft",
                            gather_axis=0, quantize_axis=1, block_size=bs)
    add("gbq-uint4-zp-f16", [int4_tensor("e.weight_Q4", q, False, [V, H]), numpy_helper.from_array(s16, "e.weight_scales"),
                             int4_tensor("e.weight_zp", z, False, [V, H // bs])], [node],
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, V])], {"ids": idx}, "Y", "e.weight", f16_out=True)
    for bits in (4, 8):
        q = rng.integers(0, 1 << bits, (V, H), dtype=np.uint8)
        z = rng.integers(0, 1 << bits, (V, H // bs), dtype=np.uint8)
        data = np.stack([pack_low_first(q[v], bits) for v in range(V)])
        zp = np.stack([pack_low_first(z[v], bits) for v in range(V)])
        node = helper.make_node("GatherBlockQuantized", ["e.weight_Q", "ids", "e.weight_scales", "e.weight_zp"], ["Y"], domain="com.microsoft",
                                gather_axis=0, quantize_axis=1, block_size=bs, bits=bits)
        add(f"gbq-uint8-{bits}bit", [numpy_helper.from_array(data, "e.weight_Q"), numpy_helper.from_array(s, "e.weight_scales"),
                                     numpy_helper.from_array(zp, "e.weight_zp")], [node],
            [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, V])], {"ids": idx}, "Y", "e.weight_Q")

    # DequantizeLinear: int8 per axis 0, uint8 per tensor, int8 blocked along axis 1, INT4 blocked, float16 scale.
    x8 = rng.integers(-128, 128, (32, 48), dtype=np.int8)
    dq_cases = [
        ("dq-int8-axis0", numpy_helper.from_array(x8, "w_quantized"), (rng.random(32) * 0.1).astype(np.float32),
         rng.integers(-20, 20, 32, dtype=np.int8), dict(axis=0)),
        ("dq-uint8-tensor", numpy_helper.from_array(rng.integers(0, 256, (32, 48), dtype=np.uint8), "w_quantized"),
         np.array(0.037, np.float32), np.array(131, np.uint8), {}),
        ("dq-int8-block16", numpy_helper.from_array(x8, "w_quantized"), (rng.random((32, 3)) * 0.1).astype(np.float32),
         rng.integers(-20, 20, (32, 3), dtype=np.int8), dict(axis=1, block_size=16)),
        ("dq-int8-f16-axis1", numpy_helper.from_array(x8, "w_quantized"), (rng.random(48) * 0.1).astype(np.float16), None, dict(axis=1)),
    ]
    for name, x, sc, zp, attrs in dq_cases:
        inits = [x, numpy_helper.from_array(sc, "w_scale")]
        ins = ["w_quantized", "w_scale"]
        if zp is not None:
            inits.append(numpy_helper.from_array(zp, "w_zero_point"))
            ins.append("w_zero_point")
        add(name, inits, [helper.make_node("DequantizeLinear", ins, ["Y"], **attrs)], [], {}, "Y", "w", f16_out=sc.dtype == np.float16)
    q4 = rng.integers(-8, 8, (24, 64))
    add("dq-int4-block32", [int4_tensor("w_DQ_Q4", q4, True, [24, 64]),
                            numpy_helper.from_array((rng.random((24, 2)) * 0.1).astype(np.float32), "w_DQ_scales")],
        [helper.make_node("DequantizeLinear", ["w_DQ_Q4", "w_DQ_scales"], ["Y"], axis=1, block_size=32)], [], {}, "Y", "w")

    # MatMulInteger (IntegerOps): identity uint8 A with zero point 0; Cast; Mul by the weight's scale.
    K, N = 48, 20
    W = rng.integers(-128, 128, (K, N), dtype=np.int8)
    Wz = rng.integers(-10, 10, N, dtype=np.int8)
    Ws = (rng.random(N) * 0.01).astype(np.float32)
    nodes = [helper.make_node("MatMulInteger", ["A", "fc.weight_quantized", "a_zp", "fc.weight_zero_point"], ["P"]),
             helper.make_node("Cast", ["P"], ["Pf"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["Pf", "fc.weight_scale"], ["Y"])]
    add("matmulinteger-int8-axis", [numpy_helper.from_array(W, "fc.weight_quantized"), numpy_helper.from_array(Wz, "fc.weight_zero_point"),
                                    numpy_helper.from_array(Ws, "fc.weight_scale"), numpy_helper.from_array(np.array(0, np.uint8), "a_zp")],
        nodes, [helper.make_tensor_value_info("A", TensorProto.UINT8, [K, K])], {"A": (np.eye(K), np.uint8)}, "Y", "fc.weight")

    # IntegerOps as onnxruntime's dynamic quantizer writes it: DynamicQuantizeLinear(A) → MatMulInteger →
    # Cast → Mul by Mul(A_scale, W's scale); the scale's name says nothing (amn finds it through the Mul).
    # The output checked is DequantizeLinear of the same initializers (a second branch of the graph, after
    # the MatMulInteger one, so amn recognises the weight from MatMulInteger).
    K, N = 40, 24
    W = rng.integers(0, 256, (K, N), dtype=np.uint8)
    Wz = np.array(rng.integers(100, 156), np.uint8)
    Ws = np.array(rng.random() * 0.01, np.float32)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["A"], ["A_q", "A_scale", "A_zp"]),
             helper.make_node("MatMulInteger", ["A_q", "dense.weight_quantized", "A_zp", "dense.weight_zero_point"], ["P"]),
             helper.make_node("Cast", ["P"], ["Pf"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["A_scale", "s7"], ["AS"]),
             helper.make_node("Mul", ["Pf", "AS"], ["Z"]),
             helper.make_node("DequantizeLinear", ["dense.weight_quantized", "s7", "dense.weight_zero_point"], ["Y"])]
    g_inits = [numpy_helper.from_array(W, "dense.weight_quantized"), numpy_helper.from_array(Wz, "dense.weight_zero_point"),
               numpy_helper.from_array(Ws, "s7")]
    add("matmulinteger-dynamic-uint8", g_inits, nodes, [helper.make_tensor_value_info("A", TensorProto.FLOAT, [1, K])],
        {"A": (rng.standard_normal((1, K)), np.float32)}, "Y", "dense.weight", opset=17)

    # transformers.js embeddings: Gather(W_quantized, ids) → DequantizeLinear(W_scale, W_zero_point).
    V, H = 30, 16
    E = rng.integers(0, 256, (V, H), dtype=np.uint8)
    nodes = [helper.make_node("Gather", ["model.embed_tokens.weight_quantized", "ids"], ["G"]),
             helper.make_node("DequantizeLinear", ["G", "model.embed_tokens.weight_scale", "model.embed_tokens.weight_zero_point"], ["Y"])]
    add("gather-dequantizelinear", [numpy_helper.from_array(E, "model.embed_tokens.weight_quantized"),
                                    numpy_helper.from_array(np.array(0.0173, np.float32), "model.embed_tokens.weight_scale"),
                                    numpy_helper.from_array(np.array(119, np.uint8), "model.embed_tokens.weight_zero_point")],
        nodes, [helper.make_tensor_value_info("ids", TensorProto.INT64, [V])], {"ids": (np.arange(V), np.int64)}, "Y",
        "model.embed_tokens.weight", opset=17)
    return cases


def read_st(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack_from("<Q", data, 0)
    hdr = json.loads(data[8:8 + n])
    hdr.pop("__metadata__", None)
    return {k: (v["dtype"], v["shape"], data[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]]) for k, v in hdr.items()}


def main():
    amn, ort, work = sys.argv[1:4]
    write_models(work)
    # onnxruntime's outputs.
    with open(os.path.join(work, "cases.json"), "w") as f:
        json.dump(cases, f)
    r = subprocess.run(["node", os.path.join(HERE, "onnx_ort_run.cjs"), ort, os.path.join(work, "cases.json")], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"onnxruntime-node failed: {r.stderr.strip()[-2000:]}")
        sys.exit(1)


    ok = bad = 0
    for c in cases:
        out = os.path.join(c["dir"], "out.safetensors")
        r = subprocess.run([amn, "remember", os.path.join(c["dir"], "model.onnx"), "-o", out, "--to", "f32", "--force"],
                           capture_output=True, text=True)
        err = None
        if r.returncode != 0:
            err = f"amn exit {r.returncode}: {r.stderr.strip()[:300]}"
        else:
            tensors = read_st(out)
            if c["weight"] not in tensors:
                err = f"no tensor {c['weight']} in {sorted(tensors)}"
            else:
                dt, shape, raw = tensors[c["weight"]]
                mine = np.frombuffer(raw, np.float32).reshape(shape)
                ort = np.fromfile(os.path.join(c["dir"], "ort.bin"), np.float16 if c["f16"] else np.float32)
                if dt != "F32" or ort.size != mine.size:
                    err = f"dtype {dt}, {mine.size} values vs onnxruntime's {ort.size}"
                else:
                    ort = ort.reshape(mine.shape)
                    if c["f16"]:
                        mine = mine.astype(np.float16)  # onnxruntime's float16 output: amn's F32 value rounded once
                    bits_m = mine.view(np.uint16 if c["f16"] else np.uint32)
                    bits_o = ort.view(np.uint16 if c["f16"] else np.uint32)
                    differ = (bits_m != bits_o) & ~((mine == 0) & (ort == 0))  # −0.0 vs +0.0 of the identity product
                    if err is None and differ.any():
                        i = np.argwhere(differ)[0]
                        err = f"{int(differ.sum())}/{mine.size} values differ, first at {tuple(int(v) for v in i)}: amn {mine[tuple(i)]!r} onnxruntime {ort[tuple(i)]!r}"
        if err:
            bad += 1
            print(f"FAIL {c['name']}: {err}")
        else:
            ok += 1
            print(f"ok   {c['name']}")
    print(f"{ok} passed, {bad} failed")
    sys.exit(0 if bad == 0 else 1)


if __name__ == "__main__":
    main()
