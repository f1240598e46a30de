# SPDX-License-Identifier: MIT OR Apache-2.0
"""The first difference between two GGUF files, as one line (None when they
are byte-identical): a key/value, the tensor list (name, shape, type, order),
or a tensor's data (F32: the first differing element with both values; other
types: the first differing byte). Written from ggml docs/gguf.md (version 3)."""
import struct

import numpy as np

SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


class _Reader:
    def __init__(self, b):
        self.b, self.p = b, 4

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.b, self.p)
        self.p += struct.calcsize("<" + fmt)
        return v[0]

    def string(self):
        n = self.take("Q")
        self.p += n
        return self.b[self.p - n:self.p].decode("utf-8", "replace")

    def value(self, t):
        if t == 8:
            return self.string()
        if t == 9:
            et, n = self.take("I"), self.take("Q")
            return [self.value(et) for _ in range(n)]
        return self.take(SCALAR[t])


def _parse(b):
    r = _Reader(b)
    _, nt, nkv = r.take("I"), r.take("Q"), r.take("Q")
    kv = []
    for _ in range(nkv):
        k = r.string()
        kv.append((k, r.value(r.take("I"))))
    tensors = []
    for _ in range(nt):
        name = r.string()
        dims = [r.take("Q") for _ in range(r.take("I"))]
        tensors.append((name, dims, r.take("I"), r.take("Q")))
    align = dict(kv).get("general.alignment", 32)
    return kv, tensors, (r.p + align - 1) // align * align


def first_difference(path_a, path_b):
    a, b = open(path_a, "rb").read(), open(path_b, "rb").read()
    if a == b:
        return None
    kva, ta, da = _parse(a)
    kvb, tb, db = _parse(b)
    for i, (x, y) in enumerate(zip(kva, kvb)):
        if x != y:
            return f"key/value {i}: {x[0]} = {str(x[1])[:80]} vs {y[0]} = {str(y[1])[:80]}"
    if len(kva) != len(kvb):
        return f"{len(kva)} vs {len(kvb)} key/values"
    for i, (x, y) in enumerate(zip(ta, tb)):
        if x[:3] != y[:3]:
            return f"tensor {i}: {x[0]} {x[1]} type {x[2]} vs {y[0]} {y[1]} type {y[2]}"
    if len(ta) != len(tb):
        return f"{len(ta)} vs {len(tb)} tensors"
    ends_a = [t[3] for t in ta[1:]] + [len(a) - da]
    ends_b = [t[3] for t in tb[1:]] + [len(b) - db]
    for (name, dims, t, oa), (_, _, _, ob), ea, eb in zip(ta, tb, ends_a, ends_b):
        ra, rb = a[da + oa:da + ea], b[db + ob:db + eb]
        if ra == rb:
            continue
        if t == 0:
            n = int(np.prod(dims))
            xa, xb = np.frombuffer(ra[:4 * n], "<f4"), np.frombuffer(rb[:4 * n], "<f4")
            i = int(np.argmax(xa.view("<u4") != xb.view("<u4")))
            return f"tensor {name} (F32 {dims}): element {i} = {xa[i]!r} vs {xb[i]!r}"
        i = next(k for k in range(min(len(ra), len(rb))) if ra[k] != rb[k]) if ra[:len(rb)] != rb[:len(ra)] else min(len(ra), len(rb))
        return f"tensor {name} (type {t} {dims}): byte {i} of its data differs"
    return "files differ outside the key/values and tensor data (header layout or padding)"
