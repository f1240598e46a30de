#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Independent reference of `amn forget --to <safetensors scheme>` (numpy, and
torch only for the double-quant offset, whose value depends on torch's CPU
summation order). Written from the pitfalls of
shared/fixtures/quantize-ref-st/README.md, sharing no code with core/.

usage:
  forget_st_reference.py MODEL.safetensors OUTDIR SCHEME...
      Quantize every 2-D tensor of MODEL (a Linear weight NAME = PREFIX.weight)
      to each SCHEME and write OUTDIR/SCHEME.safetensors holding the tensors
      the library stores for it (names as transformers / compressed-tensors /
      DeepSeek write them).
  forget_st_reference.py --check QUANTIZE_REF_ST_DIR SCHEME...
      Check this reference against the shared fixtures: every input of
      inputs.safetensors to each SCHEME, every stored tensor compared byte for
      byte with SCHEME.safetensors (exit 1 on any difference).

SCHEME ids are those of the fixtures: bnb-{nf4,fp4}-b{64,128}[-dq], bnb-int8,
ct-fp8-{tensor,channel,block}, ds-fp8-block[-ue8m0],
ct-w{4,8}-{sym,asym}-{g128,channel}.
"""
import json
import os
import struct
import sys

os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")  # the reference's summation order (8 lanes)

import numpy as np  # noqa: E402

F32 = np.float32

# ---- safetensors I/O -------------------------------------------------------------------------

NP_OF = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "U8": np.uint8, "I8": np.int8,
         "I32": np.int32, "I64": np.int64, "F8_E4M3": np.uint8}


def read_st(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        head = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, v in head.items():
        if k == "__metadata__":
            continue
        b, e = v["data_offsets"]
        out[k] = (v["dtype"], list(v["shape"]), data[b:e])
    return out


def write_st(path, tensors):
    head, blobs, off = {}, [], 0
    for k in sorted(tensors):
        dt, shape, b = tensors[k]
        head[k] = {"dtype": dt, "shape": list(shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(head).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


# ---- dtypes ----------------------------------------------------------------------------------

def bf16_to_f32(u16):
    return (u16.astype(np.uint32) << 16).view(F32)


def f32_to_bf16_bits(x):  # round to nearest even (finite inputs)
    u = x.astype(F32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def decode(dt, b, shape):
    a = np.frombuffer(b, dtype=NP_OF[dt]).reshape(shape)
    return bf16_to_f32(a) if dt == "BF16" else a.astype(F32)


def rnd(dt, x):
    """Round f32 values to the weight dtype (an op of torch in that dtype)."""
    x = np.asarray(x, dtype=F32)
    if dt == "BF16":
        return bf16_to_f32(f32_to_bf16_bits(x))
    if dt == "F16":
        return x.astype(np.float16).astype(F32)
    return x


def stored(dt, x):
    """Bytes of f32 values that are exact in dtype dt."""
    if dt == "BF16":
        return f32_to_bf16_bits(x).tobytes()
    if dt == "F16":
        return x.astype(np.float16).tobytes()
    return x.astype(F32).tobytes()


EPS = {"BF16": F32(2.0 ** -7), "F16": F32(2.0 ** -10), "F32": F32(2.0 ** -23)}


def e4m3fn(x):
    """torch's .to(float8_e4m3fn) of f32 values: round to nearest even, subnormal
    step 2^-9, (448, 464] -> 448, beyond -> NaN (0x7F | sign), -0 -> 0x80."""
    x = np.asarray(x, dtype=F32)
    a = np.abs(x).astype(np.float64)
    sign = np.signbit(x).astype(np.uint8) << 7
    code = np.zeros(x.shape, dtype=np.int64)
    sub = a < 2.0 ** -6
    code[sub] = np.rint(a[sub] * 2.0 ** 9).astype(np.int64)  # 8 -> 0x08, the first normal
    m, e = np.frexp(a[~sub])  # a = m * 2^e, m in [0.5, 1)
    e = e - 1
    q = np.rint((m * 2 - 1) * 8).astype(np.int64)
    up = q == 8
    e[up] += 1
    q[up] = 0
    code[~sub] = ((e + 7) << 3) | q
    code = np.where(a > 464, 0x7F, np.minimum(code, 0x7E))
    code = np.where(np.isnan(x), 0x7F, code)
    return code.astype(np.uint8) | sign


# ---- bitsandbytes 4-bit ----------------------------------------------------------------------

NF4 = np.array([-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
                -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
                0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
                0.7229568362236023, 1.0], dtype=F32)
# Entry 8 is +0.0 (a Python integer -0 in the source).
FP4 = (np.array([0, 0.0625, 8, 12, 4, 6, 2, 3, 0, -0.0625, -8, -12, -4, -6, -2, -3], dtype=F32) / F32(12)).astype(F32)


def dynamic_map():
    """bitsandbytes create_dynamic_map(signed=True, 7, 8) with the linspace of
    real checkpoints: start + step * i (or end - step * k past halfway), one
    rounding (FMA), as CUDA computes it."""
    data = []
    for i in range(7):
        n = 2 ** i + 1
        start, end = F32(0.1), F32(1.0)
        step = F32((end - start) / F32(n - 1))
        b = np.empty(n, dtype=F32)
        for j in range(n):
            if j < n // 2:
                b[j] = F32(float(start) + float(step) * j)
            else:
                b[j] = F32(float(end) - float(step) * (n - j - 1))
        means = ((b[:-1] + b[1:]) / F32(2)).astype(F32)
        s = F32(10.0 ** (-6 + i))
        data += [float(v) for v in (s * means).astype(F32)]
        data += [float(v) for v in (-s * means).astype(F32)]
    data += [0.0, 1.0]
    data.sort()
    return np.array(data, dtype=F32)


def codes_of(table, v):
    """Index into `table` of each value: bucketize against the float32
    midpoints of the stably sorted table, a tie to the lower code."""
    order = np.argsort(table, kind="stable")
    srt = table[order]
    mids = ((srt[:-1] + srt[1:]) / F32(2)).astype(F32)
    return order[np.searchsorted(mids, v, side="left")]


def blockwise(x, bs, table):
    """absmax per block of bs (flattened) and the codes: full blocks times
    f32(1/max(absmax, 1e-38)), the last partial block divided (its absmax stored
    clamped), clamped to [-1, 1]."""
    n = x.size
    full = n // bs
    tiny = F32(1e-38)
    absmax, scaled = [], []
    if full:
        blocks = x[:full * bs].reshape(full, bs)
        am = np.abs(blocks).max(axis=1).astype(F32)
        inv = (F32(1) / np.maximum(am, tiny)).astype(F32)
        absmax.append(am)
        scaled.append((blocks * inv[:, None]).astype(F32).ravel())
    if n % bs:
        t = x[full * bs:]
        am = np.maximum(np.abs(t).max().astype(F32), tiny)
        absmax.append(np.array([am], dtype=F32))
        scaled.append((t / am).astype(F32))
    absmax = np.concatenate(absmax)
    s = np.clip(np.concatenate(scaled), F32(-1), F32(1))
    return absmax, codes_of(table, s)


def torch_mean_f32(a):
    import torch
    torch.set_num_threads(1)
    return F32(torch.from_numpy(a.copy()).mean().item())


def bnb4(name, dt, shape, x, quant_type, bs, dq):
    table = NF4 if quant_type == "nf4" else FP4
    absmax, codes = blockwise(x.ravel(), bs, table)
    if codes.size % 2:
        codes = np.append(codes, 7 if quant_type == "nf4" else 0)
    packed = ((codes[0::2] << 4) | codes[1::2]).astype(np.uint8)
    out = {name: ("U8", [packed.size, 1], packed.tobytes()),
           name + ".quant_map": ("F32", [16], table.tobytes())}
    qs = {"quant_type": quant_type, "blocksize": bs,
          "dtype": {"BF16": "bfloat16", "F16": "float16", "F32": "float32"}[dt], "shape": list(shape)}
    if dq:
        offset = torch_mean_f32(absmax)
        dyn = dynamic_map()
        nabs, ncodes = blockwise((absmax - offset).astype(F32), 256, dyn)
        out[name + ".absmax"] = ("U8", [absmax.size], ncodes.astype(np.uint8).tobytes())
        out[name + ".nested_absmax"] = ("F32", [nabs.size], nabs.tobytes())
        out[name + ".nested_quant_map"] = ("F32", [256], dyn.tobytes())
        qs.update({"nested_blocksize": 256, "nested_dtype": "float32", "nested_offset": float(offset)})
    else:
        out[name + ".absmax"] = ("F32", [absmax.size], absmax.tobytes())
    js = json.dumps(qs).encode()
    out[name + ".quant_state.bitsandbytes__" + quant_type] = ("U8", [len(js)], js)
    return out


# ---- LLM.int8 --------------------------------------------------------------------------------

def int8(prefix, x):
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        w = x.astype(np.float16).astype(F32)
        scb = np.abs(w).max(axis=1).astype(F32)
        scale = ((F32(1) / scb).astype(F32) * F32(127)).astype(F32)
        q = np.rint((w * scale[:, None]).astype(F32))
    q = np.where(np.isnan(q), 0, q).astype(np.int8)
    return {prefix + ".weight": ("I8", list(x.shape), q.tobytes()),
            prefix + ".SCB": ("F32", [x.shape[0]], scb.tobytes()),
            prefix + ".weight_format": ("U8", [], bytes([0]))}


# ---- compressed-tensors ----------------------------------------------------------------------

def groups_view(x, gran):
    """Scale entries: (per-entry reducer view, scale shape, broadcast back)."""
    R, C = x.shape
    if gran == "tensor":
        return x.reshape(1, 1, -1), [1]
    if gran == "channel":
        return x.reshape(R, 1, C), [R, 1]
    g = int(gran)
    return x.reshape(R, C // g, g), [R, C // g]


def tile_reduce(x, op):
    """op (np.min / np.max) over each 128x128 tile, partial tiles padded with zeros."""
    R, C = x.shape
    nbr, nbc = -(-R // 128), -(-C // 128)
    pad = np.zeros((R, nbc * 128), dtype=F32)
    pad[:, :C] = x
    per_row = op(pad.reshape(R, nbc, 128), axis=2)
    out = np.stack([op(per_row[i * 128:(i + 1) * 128], axis=0) for i in range(nbr)])
    if R % 128:  # the zero rows of the last partial tile
        out[-1] = op(np.stack([out[-1], np.zeros(nbc, dtype=F32)]), axis=0)
    return out.astype(F32)


def ct_scheme(prefix, dt, x, kind, gran):
    """kind: fp8, int4, int8 (sym) or int4a, int8a (asym); gran: tensor,
    channel, block or a group size."""
    R, C = x.shape
    qmin, qmax, div = {"fp8": (-448, 448, 448.0), "int4": (-8, 7, 7.5), "int8": (-128, 127, 127.5),
                       "int4a": (-8, 7, 15.0), "int8a": (-128, 127, 255.0)}[kind]
    if gran == "block":
        mn = np.minimum(tile_reduce(x, np.min), 0)
        mx = np.maximum(tile_reduce(x, np.max), 0)
        sshape = list(mn.shape)
    else:
        v, sshape = groups_view(x, gran)
        mn = np.minimum(v.min(axis=2), 0)
        mx = np.maximum(v.max(axis=2), 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if kind.endswith("a"):
            scale = rnd(dt, rnd(dt, mx - mn) / F32(div))
            zp = rnd(dt, F32(qmin) - rnd(dt, mn / scale))
            zp = np.rint(np.clip(zp, qmin, qmax))
            zp = np.where(np.isnan(zp), 0, zp).astype(F32)
        else:
            scale = rnd(dt, np.maximum(np.abs(mn), np.abs(mx)) / F32(div))
            zp = np.zeros_like(scale)
        scale = np.where(scale == 0, EPS[dt], scale).astype(F32)
    # Back to one scale / zero point per element.
    if gran == "block":
        full_s = scale[np.arange(R) // 128][:, np.arange(C) // 128]
        full_z = np.zeros((R, C), dtype=F32)
    elif gran == "tensor":
        full_s, full_z = np.full((R, C), scale.ravel()[0], dtype=F32), np.full((R, C), zp.ravel()[0], dtype=F32)
    else:
        g = C if gran == "channel" else int(gran)
        full_s = np.repeat(scale.reshape(R, -1), g, axis=1)
        full_z = np.repeat(zp.reshape(R, -1), g, axis=1)
    s = rnd(dt, x / full_s)
    s = rnd(dt, s + full_z)
    s = np.clip(s, F32(qmin), F32(qmax))
    out = {prefix + ".weight_scale": (dt, sshape, stored(dt, scale.reshape(-1)))}
    if kind == "fp8":
        out[prefix + ".weight"] = ("F8_E4M3", [R, C], e4m3fn(s).tobytes())
        return out
    bits = 4 if kind.startswith("int4") else 8
    q = np.rint(s).astype(np.int64)
    out[prefix + ".weight_packed"] = ("I32", [R, -(-C * bits // 32)], pack_rows(q + (1 << (bits - 1)), bits).tobytes())
    out[prefix + ".weight_shape"] = ("I64", [2], np.array([R, C], dtype=np.int64).tobytes())
    if kind.endswith("a"):
        z = zp.reshape(R, -1).astype(np.int64) + (1 << (bits - 1))
        zpk = pack_rows(np.ascontiguousarray(z.T), bits).T  # packed down dim 0
        out[prefix + ".weight_zero_point"] = ("I32", list(zpk.shape), np.ascontiguousarray(zpk).tobytes())
    return out


def pack_rows(u, bits):
    """Element j of a row at bits (j*bits)%32 of word j*bits/32, first element
    lowest; rows padded with zeros to whole words."""
    R, C = u.shape
    per = 32 // bits
    W = -(-C // per)
    pad = np.zeros((R, W * per), dtype=np.uint64)
    pad[:, :C] = u.astype(np.uint64)
    words = np.zeros((R, W), dtype=np.uint64)
    for k in range(per):
        words |= pad[:, k::per] << np.uint64(k * bits)
    return words.astype(np.uint32).view(np.int32)


# ---- DeepSeek block FP8 ----------------------------------------------------------------------

def ds_fp8(prefix, x, ue8m0):
    R, C = x.shape
    nbr, nbc = -(-R // 128), -(-C // 128)
    amax = np.maximum(tile_reduce(np.abs(x), np.max), F32(1e-4)).astype(F32)
    sf = (amax / F32(448)).astype(F32)
    if ue8m0:
        b = sf.view(np.uint32)
        e = ((b >> 23) & 0xFF).astype(np.int64) + ((b & 0x7FFFFF) != 0)
        sf = (np.clip(e, 1, 254).astype(np.uint32) << 23).view(F32)
    inv = (F32(1) / sf).astype(F32)
    full_inv = inv[np.arange(R) // 128][:, np.arange(C) // 128]
    q = e4m3fn((x * full_inv).astype(F32))
    return {prefix + ".weight": ("F8_E4M3", [R, C], q.tobytes()),
            prefix + ".weight_scale_inv": ("F32", [nbr, nbc], sf.tobytes())}


# ---- dispatch --------------------------------------------------------------------------------

def quantize(scheme, name, dt, shape, x):
    prefix = name[:-len(".weight")] if name.endswith(".weight") else name
    if scheme.startswith("bnb-") and scheme != "bnb-int8":
        return bnb4(name, dt, shape, x, scheme[4:7], 128 if "-b128" in scheme else 64, scheme.endswith("-dq"))
    if scheme == "bnb-int8":
        return int8(prefix, x)
    if scheme.startswith("ct-fp8-"):
        return ct_scheme(prefix, dt, x, "fp8", scheme[7:])
    if scheme.startswith("ds-fp8-block"):
        return ds_fp8(prefix, x, scheme.endswith("ue8m0"))
    if scheme.startswith("ct-w"):
        bits, sym, gran = scheme[4], scheme.split("-")[2], scheme.split("-")[3]
        kind = "int" + bits + ("" if sym == "sym" else "a")
        return ct_scheme(prefix, dt, x, kind, "128" if gran == "g128" else "channel")
    raise SystemExit("unknown scheme " + scheme)


def main():
    if sys.argv[1] == "--check":
        d, schemes = sys.argv[2], sys.argv[3:]
        inputs = read_st(os.path.join(d, "inputs.safetensors"))
        bad = compared = 0
        for sc in schemes:
            ref = read_st(os.path.join(d, sc + ".safetensors"))
            for k, (dt, shape, b) in sorted(inputs.items()):
                name = k.split(".")[0]
                if "g128" in sc and shape[1] % 128:
                    continue
                got = quantize(sc, name + ".weight", dt, shape, decode(dt, b, shape))
                for rk in ref:
                    if rk.split(".")[0] == name and not rk.endswith(".dequant") and rk not in got:
                        bad += 1
                        print(f"{sc} {rk}: not made here")
                for rk, v in got.items():
                    compared += 1
                    if rk not in ref or ref[rk] != (v[0], v[1], v[2]):
                        bad += 1
                        print(f"{sc} {rk}: differs" if rk in ref else f"{sc} {rk}: not in the fixture")
        print(f"{compared} tensors compared, {bad} difference(s)")
        sys.exit(1 if bad or not compared else 0)
    model, outdir, schemes = sys.argv[1], sys.argv[2], sys.argv[3:]
    tensors = read_st(model)
    for sc in schemes:
        out = {}
        for k, (dt, shape, b) in sorted(tensors.items()):
            if len(shape) == 2:
                out.update(quantize(sc, k, dt, shape, decode(dt, b, shape)))
        write_st(os.path.join(outdir, sc + ".safetensors"), out)


if __name__ == "__main__":
    main()
