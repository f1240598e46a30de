# SPDX-License-Identifier: MIT OR Apache-2.0
"""Independent numpy decoders of quantized Hugging Face checkpoints, for
hf_scheme_folders.py dequantize (formulas and sources in its docstring).
Each decoder takes {name: (dtype, shape, raw)} and the quantization_config and
returns (kept, dequantized): the tensors copied as they are, and one F32
`<m>.weight` per quantized module."""
import json

import numpy as np

F32 = np.float32
NP = {"F32": np.float32, "F16": np.float16, "I32": np.int32, "I64": np.int64, "I8": np.int8, "U8": np.uint8}

# bitsandbytes dDequantizeNF4 (= functional.get_4bit_type("nf4")), float32.
NF4 = np.array([-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
                -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
                0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
                0.7229568362236023, 1.0], F32)
# bitsandbytes dDequantizeFP4Tree magnitudes (the low three bits), float32; bit 3 is the sign.
FP4_MAG = np.array([0.0, 5.208333333e-03, 0.66666667, 1.0, 0.33333333, 0.5, 0.16666667, 0.25], F32)

# Files D takes from Q as they are (tokenizer, generation config …): all but these.
NOT_COPIED = ("config.json", "hf_quant_config.json", "model.safetensors.index.json")


def files_to_copy(names):
    return sorted(n for n in names if not n.endswith(".safetensors") and n not in NOT_COPIED)


def e4m3_to_f32(b):
    """OCP FP8 E4M3 (bias 7, no infinities, S.1111.111 = NaN), exact in f32."""
    b = b.astype(np.int64)
    s = np.where(b & 0x80, -1.0, 1.0)
    e, m = (b >> 3) & 15, b & 7
    v = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * 2.0 ** (e - 7))
    v = np.where((e == 15) & (m == 7), np.nan, v)
    return (s * v).astype(F32)


def arr(t, name):
    dtype, shape, raw = t[name]
    if dtype == "BF16":
        return (np.frombuffer(raw, np.uint16).astype(np.uint32) << 16).view(F32).reshape(shape)
    if dtype == "F8_E4M3":
        return e4m3_to_f32(np.frombuffer(raw, np.uint8)).reshape(shape)
    return np.frombuffer(raw, NP[dtype]).reshape(shape)


def f32_tensor(a):
    a = np.ascontiguousarray(a, dtype=F32)
    return ("F32", list(a.shape), a.tobytes())


# ---- bitsandbytes ------------------------------------------------------------------------------

def bnb4(t, qc):
    made = {}
    blobs = [k for k in t if ".quant_state.bitsandbytes__" in k]
    for blob in blobs:
        w = blob[: blob.index(".quant_state.")]
        st = json.loads(bytes(t[blob][2]).decode())
        shape, bs = st["shape"], st["blocksize"]
        n = int(np.prod(shape))
        packed = np.frombuffer(t[w][2], np.uint8)
        nib = np.empty(2 * packed.size, np.uint8)
        nib[0::2], nib[1::2] = packed >> 4, packed & 15  # high nibble first
        nib = nib[:n]
        if "nested_blocksize" in st:  # dequantize_blockwise of the absmax, then += offset
            code2 = arr(t, w + ".nested_quant_map").astype(F32)
            nabs = arr(t, w + ".nested_absmax").astype(F32)
            u8 = arr(t, w + ".absmax")
            idx = np.arange(u8.size) // st["nested_blocksize"]
            absmax = (code2[u8] * nabs[idx]).astype(F32) + F32(st["nested_offset"])
        else:
            absmax = arr(t, w + ".absmax").astype(F32)
        a = absmax[np.arange(n) // bs]
        if st["quant_type"] == "nf4":
            y = NF4[nib] * a
        else:  # (magnitude * absmax) * sign: code 8 gives -0.0
            y = (FP4_MAG[nib & 7] * a) * np.where(nib & 8, F32(-1), F32(1))
        made[w] = f32_tensor(y.astype(F32).reshape(shape))
    consumed = set(made)
    kept = {k: v for k, v in t.items() if k not in consumed and not any(k.startswith(w + ".") for w in made)}
    return kept, made


def bnb_int8(t, qc):
    made = {}
    for scb in [k for k in t if k.endswith(".SCB")]:
        m = scb[: -len(".SCB")]
        cb = arr(t, m + ".weight").astype(F32)
        s = arr(t, scb).astype(F32)
        made[m + ".weight"] = f32_tensor((cb * s[:, None]).astype(F32) * F32(7.874015718698502e-3))
    gone = {m + x for m in (k[: -len(".weight")] for k in made) for x in (".weight", ".SCB", ".weight_format")}
    kept = {k: v for k, v in t.items() if k not in gone}
    return kept, made


def bitsandbytes(t, qc):
    return bnb4(t, qc) if qc.get("load_in_4bit") else bnb_int8(t, qc)


# ---- FP8 (compressed-tensors float-quantized; quant_method fp8 with weight_block_size) --------

def fp8_scaled(t, suffix, block):
    made = {}
    for sk in [k for k in t if k.endswith(suffix)]:
        m = sk[: -len(suffix)]
        w = arr(t, m + ".weight")
        s = arr(t, sk).astype(F32)
        if s.size == 1:
            s = s.reshape(())
        elif s.ndim == 2 and s.shape[1] == 1 and s.shape[0] == w.shape[0]:
            pass  # channel: [out, 1] broadcast
        else:  # blocks repeated and cropped (partial blocks)
            s = np.repeat(np.repeat(s, block[0], axis=0), block[1], axis=1)[: w.shape[0], : w.shape[1]]
        made[m + ".weight"] = f32_tensor(w * s)
    kept = {k: v for k, v in t.items() if k not in made and not k.endswith(suffix)}
    return kept, made


def ct_float(t, qc):
    (g,) = qc["config_groups"].values()
    return fp8_scaled(t, ".weight_scale", g["weights"].get("block_structure") or [1, 1])


def fp8_deepseek(t, qc):
    return fp8_scaled(t, ".weight_scale_inv", qc["weight_block_size"])


# ---- compressed-tensors pack-quantized ----------------------------------------------------------

def ct_packed(t, qc):
    (g,) = qc["config_groups"].values()
    bits, group = g["weights"]["num_bits"], g["weights"]["group_size"]
    p, mask = 32 // bits, (1 << bits) - 1
    made, gone = {}, set()
    for pk in [k for k in t if k.endswith(".weight_packed")]:
        m = pk[: -len(".weight_packed")]
        out, cols = (int(x) for x in arr(t, m + ".weight_shape"))
        words = arr(t, pk).view(np.uint32)
        k = np.arange(cols)
        u = ((words[:, k // p] >> (bits * (k % p)).astype(np.uint32)) & mask).astype(np.int64)
        if m + ".weight_zero_point" in t:
            zw = arr(t, m + ".weight_zero_point").view(np.uint32)
            r = np.arange(out)
            z = ((zw[r // p, :] >> (bits * (r % p)).astype(np.uint32)[:, None]) & mask).astype(np.int64)
            off = z[:, k // group]
        else:
            off = 1 << (bits - 1)
        s = arr(t, m + ".weight_scale").astype(F32)[:, k // group]
        made[m + ".weight"] = f32_tensor((u - off).astype(F32) * s)
        gone |= {m + x for x in (".weight_packed", ".weight_scale", ".weight_shape", ".weight_zero_point")}
    return {k: v for k, v in t.items() if k not in gone}, made


# ---- AWQ GEMM -----------------------------------------------------------------------------------

AWQ_ORDER = [0, 2, 4, 6, 1, 3, 5, 7]


def awq_unpack(words):
    """I32 [r, c/8] → [r, c]: nibble i of word j is column 8j + AWQ_ORDER[i]."""
    w = words.view(np.uint32)
    out = np.empty((w.shape[0], w.shape[1] * 8), np.int64)
    for i in range(8):
        out[:, AWQ_ORDER[i]::8] = (w >> np.uint32(4 * i)) & 15
    return out


def awq(t, qc):
    g = qc["group_size"]
    made, gone = {}, set()
    for qk in [k for k in t if k.endswith(".qweight")]:
        m = qk[: -len(".qweight")]
        q = awq_unpack(arr(t, qk))  # [in, out]
        z = awq_unpack(arr(t, m + ".qzeros"))  # [groups, out]
        s = arr(t, m + ".scales").astype(F32)  # [groups, out]
        rows = np.arange(q.shape[0]) // g
        made[m + ".weight"] = f32_tensor(((q - z[rows]).astype(F32) * s[rows]).T)
        gone |= {m + x for x in (".qweight", ".qzeros", ".scales")}
    return {k: v for k, v in t.items() if k not in gone}, made


DECODERS = {
    "bitsandbytes": bitsandbytes,
    "compressed-tensors:float-quantized": ct_float,
    "compressed-tensors:pack-quantized": ct_packed,
    "fp8": fp8_deepseek,
    "awq": awq,
}
