#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Do two GGUF files hold the same model? Every key/value outside `general.*`
and `tokenizer.*` with its type (the architecture's), in file order, and every
tensor's name, dimensions, type and data bytes, in order. `general.*` is the
model card (folder name, README) and `tokenizer.*` has its own round-trip
test (test_cli_tokback). Prints "ok K key/values, T tensors" or the first
difference; exit 1 on a difference. Written from ggml docs/gguf.md (version 3)
with the suite's independent reader (gguf_numpy_check.Reader).

With --any-order the tensors may come in another order (a model whose
checkpoint fuses projections the converter splits — ERNIE 4.5's qkv_proj —
comes back from the Hugging Face layout unfused, so its tensors are read in
another order).

With --rename-arch B may be of another architecture whose key/values are
A's under its own prefix (Mistral Small 3.1's text model comes back as
MistralForCausalLM, which the converter writes as `llama`, the same keys
and tensors as A's `mistral3`).

With --mxfp4-values a tensor A stores as MXFP4 (type 39) may be F32 or BF16
in B with A's values (gpt-oss's experts come back dequantized, as
transformers holds them: ggml's dequantize_row_mxfp4 — E2M1 codes of
kvalues {0, ±1, ±2, ±3, ±4, ±6, ±8, ±12} × 2^(e − 128), the low nibbles
first — decoded here).

usage: gguf_same_model.py A.gguf B.gguf [--any-order] [--rename-arch] [--mxfp4-values]
"""
import sys

from gguf_numpy_check import Reader


def read(path):
    r = Reader(path)
    assert r.b[:4] == b"GGUF", f"{path}: not GGUF"
    r.p = 4
    version, nt, nkv = r.take("I"), r.take("Q"), r.take("Q")
    assert version == 3, version
    kv = []
    for _ in range(nkv):
        k = r.string()
        t = r.take("I")
        sub = None
        if t == 9:  # array: keep the element type too
            sub = struct_peek(r)
        kv.append((k, t, sub, r.value(t)))
    tensors = []
    for _ in range(nt):
        name = r.string()
        nd = r.take("I")
        dims = [r.take("Q") for _ in range(nd)]
        t, off = r.take("I"), r.take("Q")
        tensors.append((name, dims, t, off))
    align = next((v for k, _, _, v in kv if k == "general.alignment"), 32)
    data = (r.p + align - 1) // align * align
    ends = [t[3] for t in tensors[1:]] + [len(r.b) - data]
    blobs = [r.b[data + t[3]:data + e] for t, e in zip(tensors, ends)]
    return kv, tensors, blobs


def mxfp4_values(raw):
    """ggml's MXFP4 blocks (1 byte E8M0 exponent + 16 bytes of 4-bit codes per 32 values) as float32."""
    import numpy as np
    kvalues = np.array([0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12], dtype=np.float32)
    b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 17)
    d = np.ldexp(np.float32(1), b[:, 0].astype(np.int32) - 128).astype(np.float32)
    qs = b[:, 1:]
    return np.concatenate([kvalues[qs & 0x0F], kvalues[qs >> 4]], axis=1) * d[:, None]


def plain_values(raw, t):
    import numpy as np
    if t == 0:
        return np.frombuffer(raw, dtype="<f4")
    if t == 30:
        return (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
    return None


def struct_peek(r):
    import struct
    return struct.unpack_from("<I", r.b, r.p)[0]


def main():
    a, b = sys.argv[1], sys.argv[2]
    kva, ta, da = read(a)
    kvb, tb, db = read(b)
    if "--rename-arch" in sys.argv[3:]:
        arch = lambda kv: next(v for k, _, _, v in kv if k == "general.architecture") + "."
        pa, pb = arch(kva), arch(kvb)
        kvb = [((pa + x[0][len(pb):]) if x[0].startswith(pb) else x[0],) + x[1:] for x in kvb]
    keep = lambda kv: [x for x in kv if not x[0].startswith(("general.", "tokenizer."))]
    kva, kvb = keep(kva), keep(kvb)
    for x, y in zip(kva, kvb):
        if x != y:
            print(f"key/value {x[0]} (type {x[1]}) = {str(x[3])[:80]} vs {y[0]} (type {y[1]}) = {str(y[3])[:80]}")
            return 1
    if len(kva) != len(kvb):
        print(f"{len(kva)} vs {len(kvb)} key/values: {[x[0] for x in kva]} vs {[y[0] for y in kvb]}")
        return 1
    if "--any-order" in sys.argv[3:]:
        order_a = sorted(range(len(ta)), key=lambda i: ta[i][0])
        order_b = sorted(range(len(tb)), key=lambda i: tb[i][0])
        ta, da = [ta[i] for i in order_a], [da[i] for i in order_a]
        tb, db = [tb[i] for i in order_b], [db[i] for i in order_b]
    mxfp4 = "--mxfp4-values" in sys.argv[3:]
    for i, (x, y) in enumerate(zip(ta, tb)):
        if mxfp4 and x[2] == 39 and x[:2] == y[:2] and y[2] in (0, 30):
            n = 1
            for d in x[1]:
                n *= d
            va = mxfp4_values(da[i][:n // 32 * 17])
            vb = plain_values(db[i][:n * (4 if y[2] == 0 else 2)], y[2])
            if va.size != vb.size or not (va.ravel() == vb).all():
                print(f"tensor {x[0]}: B's values are not A's MXFP4 values")
                return 1
            da[i] = db[i]  # compared
            ta[i] = y
            continue
        if x[:3] != y[:3]:
            print(f"tensor {x[0]} {x[1]} type {x[2]} vs {y[0]} {y[1]} type {y[2]}")
            return 1
    if len(ta) != len(tb):
        print(f"{len(ta)} vs {len(tb)} tensors")
        return 1
    for x, ra, rb in zip(ta, da, db):
        # the data up to the next tensor's offset: padding is zeros in both writers
        if ra != rb:
            print(f"tensor {x[0]} ({x[1]} type {x[2]}): data differs")
            return 1
    print(f"ok {len(kva)} key/values, {len(ta)} tensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
