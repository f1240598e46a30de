# SPDX-License-Identifier: MIT OR Apache-2.0
"""The first difference between two GGUF files, as one line (None when they
are byte-identical): a key/value, the tensor list (name, shape, type, order),
or a tensor's data (F32: the first differing element with both values; other
types: the first differing byte). Written from ggml docs/gguf.md (version 3)."""
import numpy as np

from gguf_numpy_check import parse  # the suite's independent GGUF reader


def first_difference(path_a, path_b):
    a, b = open(path_a, "rb").read(), open(path_b, "rb").read()
    if a == b:
        return None
    _, kva, ta, da, _ = parse(path_a)
    _, kvb, tb, db, _ = parse(path_b)
    kva, kvb = list(kva.items()), list(kvb.items())
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
