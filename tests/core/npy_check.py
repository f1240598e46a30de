# SPDX-License-Identifier: MIT OR Apache-2.0
# Independent check of an .npy written by amn::write_npy: numpy.load it and
# compare with a tensor of a reference safetensors file (read here with
# json + numpy, no code shared with the core).
#   npy_check.py FILE.npy REF.safetensors TENSOR MODE
# MODE: f32  — the .npy is float32 and equals the reference's F32 values bit for bit
#       f16  — the .npy is float16 and equals the reference F32 values .astype(float16)
#       bf16 — the .npy is float32; rounded to BF16 (nearest even) it equals the reference BF16
# Prints "OK <shape>" and exits 0, else prints the difference and exits 1.
import json, struct, sys
import numpy as np

npy, ref, name, mode = sys.argv[1:5]
a = np.load(npy)
with open(ref, "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    h = json.loads(f.read(n))
    data = f.read()
e = h[name]
lo, hi = e["data_offsets"]
raw = data[lo:hi]
shape = tuple(e["shape"])
if tuple(a.shape) != shape:
    print("shape", a.shape, "expected", shape); sys.exit(1)
if mode == "f32":
    assert e["dtype"] == "F32"
    want = np.frombuffer(raw, dtype="<f4").reshape(shape)
    ok = a.dtype == np.float32 and np.array_equal(a.view(np.uint32), want.view(np.uint32))
elif mode == "f16":
    assert e["dtype"] == "F32"
    want = np.frombuffer(raw, dtype="<f4").reshape(shape).astype(np.float16)
    ok = a.dtype == np.float16 and np.array_equal(a.view(np.uint16), want.view(np.uint16))
elif mode == "bf16":
    assert e["dtype"] == "BF16"
    want = np.frombuffer(raw, dtype="<u2").reshape(shape)
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    got = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    ok = a.dtype == np.float32 and np.array_equal(got, want)
else:
    print("bad mode", mode); sys.exit(2)
if not ok:
    print("values differ (dtype %s)" % a.dtype); sys.exit(1)
print("OK", "x".join(str(s) for s in shape))
