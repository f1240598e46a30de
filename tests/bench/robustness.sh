#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Issue 14 bench: hostile files that used to take super-linear time or
# gigabytes of memory. Prints wall time and peak RSS of `amn inspect` on:
#   1. a GGUF with 160 000 zero-size tensors at one offset  (target < 1 s)
#   2. a .pth with 40 000 storages                          (target < 1 s; needs python3-torch)
#   3. a 4 MiB ZIP member declaring ~4 GiB (as .npz)        (target < 1 s, RSS < 100 MiB, named error)
# Usage: tests/bench/robustness.sh [path/to/amn]   (default build/release/app/amn/amn)
# Exit status 1 when a target is missed (judged on CPU time, user + system).
set -eu
AMN=${1:-build/release/app/amn/amn}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
exec /usr/bin/python3 - "$AMN" "$DIR" <<'PY'
import os, struct, subprocess, sys, time
amn, d = sys.argv[1], sys.argv[2]

def gguf_zero_tensors(path, n):
    b = bytearray(b"GGUF") + struct.pack("<IQQ", 3, n, 0)
    for i in range(n):
        name = b"t%d" % i
        b += struct.pack("<Q", len(name)) + name + struct.pack("<IQIQ", 1, 0, 0, 0)
    b += bytes((-len(b)) % 32)
    open(path, "wb").write(b)

def lying_zip(path, real, declared):
    stream = bytearray()
    done = 0
    while True:
        n = min(65535, real - done)
        last = done + n >= real
        stream += bytes([1 if last else 0]) + struct.pack("<HH", n, n ^ 0xFFFF) + bytes(n)
        done += n
        if last: break
    name = b"w.npy"
    local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 8, 0, 0, 0x12345678, len(stream), declared, len(name), 0) + name
    cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 8, 0, 0, 0x12345678, len(stream), declared, len(name), 0, 0, 0, 0, 0, 0) + name
    off = len(local) + len(stream)
    eocd = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), off, 0)
    open(path, "wb").write(local + stream + cd + eocd)

def measure(label, path, limit_s, limit_rss_mib=None):
    t0 = time.monotonic()
    p = subprocess.Popen([amn, "inspect", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace").strip()
    rss = ru.ru_maxrss / 1024.0
    cpu = ru.ru_utime + ru.ru_stime
    code = os.waitstatus_to_exitcode(status)
    # Judged on CPU time: on a shared 2-core machine wall time mostly measures the neighbours.
    ok = cpu < limit_s and code in (0, 1) and (limit_rss_mib is None or rss < limit_rss_mib)
    print("%-44s %6.2f s wall %6.2f s cpu  %7.1f MiB  exit %d  %s%s" % (label, dt, cpu, rss, code, "ok" if ok else "MISSED",
          ("  (" + err[:100] + ")") if err else ""))
    return ok

ok = True
p = os.path.join(d, "zero.gguf"); gguf_zero_tensors(p, 160000)
ok &= measure("GGUF, 160 000 zero-size tensors", p, 1.0)
# torch in a child process: this one stays small, so the RSS its children
# inherit before exec does not mask theirs.
p = os.path.join(d, "many.pth")
made = subprocess.run([sys.executable, "-c", "import sys, torch; torch.save({'t%d' % i: torch.zeros(1) for i in range(40000)}, sys.argv[1])", p],
                      stderr=subprocess.DEVNULL).returncode == 0
if made:
    ok &= measure(".pth, 40 000 storages", p, 1.0)
else:
    print(".pth, 40 000 storages                         skipped (no python3-torch)")
p = os.path.join(d, "lie.npz"); lying_zip(p, 4 << 20, 0xFFFFFFF0)
ok &= measure("ZIP member 4 MiB declaring 4 GiB (.npz)", p, 1.0, 100)
sys.exit(0 if ok else 1)
PY
