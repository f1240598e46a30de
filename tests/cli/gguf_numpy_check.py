#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""An independent GGUF reader (numpy only, written from ggml docs/gguf.md) for
the forget tests: parse OUT and IN, check OUT's layout (alignment, offsets,
sizes), decode OUT's F32/F16/BF16/Q8_0/Q4_0 tensors and check each against
IN's F32 values within the type's error bound (per block: Q8_0 |d|/2,
Q4_0 |d|, each plus the F16 rounding of d; F16/BF16 half an ulp). Prints one JSON line; exit 1 on a failure.

usage: gguf_numpy_check.py OUT.gguf IN-F32.gguf
"""
import json
import struct
import sys

import numpy as np

SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
BLOCK = {0: (1, 4), 1: (1, 2), 30: (1, 2), 8: (32, 34), 2: (32, 18), 12: (256, 144), 14: (256, 210),
         3: (32, 20), 6: (32, 22), 7: (32, 24), 10: (256, 84), 11: (256, 110), 13: (256, 176)}


class Reader:
    def __init__(self, path):
        self.b = open(path, "rb").read()
        self.p = 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.b, self.p)
        self.p += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v

    def string(self):
        n = self.take("Q")
        s = self.b[self.p:self.p + n]
        self.p += n
        return s.decode("utf-8", "replace")

    def value(self, t):
        if t == 8:
            return self.string()
        if t == 9:
            et, n = self.take("I"), self.take("Q")
            return [self.value(et) for _ in range(n)]
        return self.take(SCALAR[t])


def parse(path):
    r = Reader(path)
    assert r.b[:4] == b"GGUF", "magic"
    r.p = 4
    version, nt, nkv = r.take("I"), r.take("Q"), r.take("Q")
    assert version == 3, version
    kv = {}
    for _ in range(nkv):
        k = r.string()
        kv[k] = r.value(r.take("I"))
    tensors = []
    for _ in range(nt):
        name = r.string()
        nd = r.take("I")
        dims = [r.take("Q") for _ in range(nd)]
        t, off = r.take("I"), r.take("Q")
        tensors.append((name, dims, t, off))
    align = kv.get("general.alignment", 32)
    data = (r.p + align - 1) // align * align
    return r.b, kv, tensors, data, align


def f16(b):
    return np.frombuffer(b, dtype="<f2").astype(np.float32)


def decode(raw, t, n):
    if t == 0:
        return np.frombuffer(raw, dtype="<f4"), None
    if t == 1:
        return f16(raw), None
    if t == 30:
        return (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32), None
    if t == 8:
        blk = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 34)
        d = f16(blk[:, :2].tobytes())
        q = blk[:, 2:].view(np.int8).astype(np.float32)
        return (q * d[:, None]).reshape(-1), np.repeat(np.abs(d) * (0.5 + 127 / 2048), 32)  # rounding + the F16 scale's rounding
    if t == 2:
        blk = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 18)
        d = f16(blk[:, :2].tobytes())
        qs = blk[:, 2:]
        q = np.concatenate([qs & 15, qs >> 4], axis=1).astype(np.float32) - 8
        return (q * d[:, None]).reshape(-1), np.repeat(np.abs(d) * (1 + 8 / 2048), 32)  # clamp at +7 + the F16 scale's rounding
    return None, None


def main():
    out_b, out_kv, out_t, out_data, align = parse(sys.argv[1])
    in_b, _, in_t, in_data, _ = parse(sys.argv[2])
    inputs = {name: (dims, t, off) for name, dims, t, off in in_t}
    checked, fail = 0, []
    expect = 0
    for name, dims, t, off in out_t:
        n = int(np.prod(dims))
        be, bb = BLOCK.get(t, (None, None))
        if off % align:
            fail.append(f"{name}: offset {off} not aligned to {align}")
        if expect is not None and off != expect:
            fail.append(f"{name}: offset {off}, expected {expect}")
        if be is None:
            expect = None
            continue
        size = n // be * bb
        if expect is not None:
            expect = (off + size + align - 1) // align * align
        y, bound = decode(out_b[out_data + off:out_data + off + size], t, n)
        if y is None:
            continue
        idims, it, ioff = inputs[name]
        assert it == 0 and idims == dims, name
        x = np.frombuffer(in_b[in_data + ioff:in_data + ioff + 4 * n], dtype="<f4")
        err = np.abs(y.astype(np.float64) - x.astype(np.float64))
        if bound is None:  # F32/F16/BF16: half an ulp of the narrower type
            ulp = {0: 0.0, 1: 2.0 ** -11, 30: 2.0 ** -8}[t]
            bound = np.abs(x.astype(np.float64)) * ulp + (2.0 ** -25 if t == 1 else 0.0)
        if np.any(err > bound * (1 + 1e-6)):
            i = int(np.argmax(err - bound))
            fail.append(f"{name}: element {i} error {err[i]} above bound {bound[i]}")
        checked += 1
    print(json.dumps({"tensors": len(out_t), "checked": checked, "file_type": out_kv.get("general.file_type"),
                      "quantization_version": out_kv.get("general.quantization_version"), "failures": fail}))
    sys.exit(1 if fail else 0)


if __name__ == "__main__":
    main()
