#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""What llama.cpp's tools write when they cut, merge and keep GGUF parts
(issue 30), for test_cli_gguf_split: tests/cli/data/gguf_split_reference.json.

Every case runs one of llama.cpp's tools at the fixtures' commit (34af94c)
on the shared fixtures and records each file it wrote: name, size, sha256.
The test runs the case's `amn` command on the same input and compares every
file byte for byte. Cases:

- llama-gguf-split --split (by tensor count, by size, the default count,
  --no-tensor-first-split) of gguf-real's tiny-llama files, and --merge of
  its own parts and of the converter's parts;
- llama-quantize of a split F32 set, with and without --keep-split;
- convert_hf_to_gguf.py --split-max-tensors / --split-max-size (K) /
  --no-tensor-first-split on hf-gguf's Mixtral folder (MoE experts
  stacked, two input shards), and one split request that makes one part;
- convert_hf_to_gguf.py (lossless BF16) → llama-quantize Q4_K_M →
  llama-gguf-split, the chain `amn forget DIR --to gguf:Q4_K_M
  --split-max-tensors N` writes in one pass.

    /usr/bin/python3 tests/cli/gguf_split_reference.py LLAMA_SRC LLAMA_BIN HF_SHIM SHARED_FIXTURES OUT_JSON
    (LLAMA_SRC: llama.cpp's source at 34af94c, for convert_hf_to_gguf.py;
     LLAMA_BIN: its build's bin/ with llama-gguf-split and llama-quantize;
     HF_SHIM: a copy of ../shared/tools/hf_shim with node_modules, npm ci'd)

Placeholders in the amn arguments: {gguf_real}, {hf_gguf} (the shared
folders), {out} (the test's output folder), {ref:NAME} (a file of an earlier
case the test made with amn and checked first).
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

llama_src, llama_bin, shim, shared, out_json = sys.argv[1:6]
gguf_real = os.path.join(shared, "gguf-real")
hf_gguf = os.path.join(shared, "hf-gguf")
work = tempfile.mkdtemp(prefix="gguf-split-ref-")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def run(argv, cwd=None):
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(argv)}\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}")
    return r


def tool(name):
    return os.path.join(llama_bin, name)


def files_of(folder, prefix):
    names = sorted(n for n in os.listdir(folder) if n.startswith(prefix))
    return [{"name": n, "bytes": os.path.getsize(os.path.join(folder, n)), "sha256": sha256(os.path.join(folder, n))}
            for n in names]


def convert(case, outtype, out, *extra):
    # The converter derives general.name from the folder name: pass it by name from its parent.
    run(["/usr/bin/python3", os.path.join(shim, "run_convert.py"), llama_src, case, "--outtype", outtype,
         "--outfile", out, *extra], cwd=os.path.join(hf_gguf, "inputs"))


cases = []


def case(name, tool_cmd, amn_args, folder, prefix, note):
    cases.append({"name": name, "tool": tool_cmd, "amn": amn_args, "note": note, "files": files_of(folder, prefix)})
    print(name, [f["name"] for f in cases[-1]["files"]], file=sys.stderr)


q4 = os.path.join(gguf_real, "tiny-llama-Q4_K_M.gguf")
f32 = os.path.join(gguf_real, "tiny-llama-F32.gguf")

# llama-gguf-split --split
d = os.path.join(work, "t8"); os.makedirs(d)
run([tool("llama-gguf-split"), "--split", "--split-max-tensors", "8", q4, os.path.join(d, "q4-t8")])
case("gguf-split-tensors", "llama-gguf-split --split --split-max-tensors 8 tiny-llama-Q4_K_M.gguf q4-t8",
     ["convert", "{gguf_real}/tiny-llama-Q4_K_M.gguf", "--to", "gguf", "--split-max-tensors", "8", "-o", "{out}/q4-t8"],
     d, "q4-t8", "by tensor count")

d = os.path.join(work, "def"); os.makedirs(d)
run([tool("llama-gguf-split"), "--split", q4, os.path.join(d, "q4-def")])
case("gguf-split-default", "llama-gguf-split --split tiny-llama-Q4_K_M.gguf q4-def",
     ["convert", "{gguf_real}/tiny-llama-Q4_K_M.gguf", "--to", "gguf", "--split-max-tensors", "128", "-o", "{out}/q4-def.gguf"],
     d, "q4-def", "the default 128 tensors: one part, still named and keyed as a part")

d = os.path.join(work, "s2m"); os.makedirs(d)
run([tool("llama-gguf-split"), "--split", "--split-max-size", "2M", f32, os.path.join(d, "f32-2m")])
case("gguf-split-size", "llama-gguf-split --split --split-max-size 2M tiny-llama-F32.gguf f32-2m",
     ["convert", "{gguf_real}/tiny-llama-F32.gguf", "--to", "gguf", "--split-max-size", "2M", "-o", "{out}/f32-2m"],
     d, "f32-2m", "by size: padded tensor bytes, M = 10^6")
f32_parts = [f["name"] for f in cases[-1]["files"]]  # f32-2m-0000i-of-0000N.gguf

d = os.path.join(work, "nf"); os.makedirs(d)
run([tool("llama-gguf-split"), "--split", "--split-max-tensors", "10", "--no-tensor-first-split", q4, os.path.join(d, "q4-nf")])
case("gguf-split-no-tensor-first", "llama-gguf-split --split --split-max-tensors 10 --no-tensor-first-split tiny-llama-Q4_K_M.gguf q4-nf",
     ["convert", "{gguf_real}/tiny-llama-Q4_K_M.gguf", "--to", "gguf", "--split-max-tensors", "10", "--no-tensor-first-split",
      "-o", "{out}/q4-nf"],
     d, "q4-nf", "part 1 holds the key/values only")

q4_parts = [f["name"] for f in cases[0]["files"]]

# llama-gguf-split --merge (of its own parts; any part may be named by amn)
d = os.path.join(work, "merge"); os.makedirs(d)
run([tool("llama-gguf-split"), "--merge", os.path.join(work, "t8", q4_parts[0]), os.path.join(d, "q4-merged.gguf")])
case("gguf-split-merge", "llama-gguf-split --merge " + q4_parts[0] + " q4-merged.gguf",
     ["convert", "{out}/" + q4_parts[1], "--to", "gguf", "-o", "{out}/q4-merged.gguf"],
     d, "q4-merged", "split.count moved to the end, 0; the parts named by their second part")

# llama-quantize of a split F32 set: with --keep-split (one output per part), and without (one file)
d = os.path.join(work, "keep"); os.makedirs(d)
run([tool("llama-quantize"), "--keep-split", os.path.join(work, "s2m", f32_parts[0]),
     os.path.join(d, "kq.gguf"), "Q4_K_M", "2"])
case("quantize-keep-split", "llama-quantize --keep-split " + f32_parts[0] + " kq.gguf Q4_K_M 2",
     ["forget", "{out}/" + f32_parts[0], "--to", "gguf:Q4_K_M", "--keep-split", "-o", "{out}/kq.gguf"],
     d, "kq", "one output per input part, tensors in input order, no/count/tensors.count")

d = os.path.join(work, "q1"); os.makedirs(d)
run([tool("llama-quantize"), os.path.join(work, "s2m", f32_parts[0]),
     os.path.join(d, "q-one.gguf"), "Q4_K_M", "2"])
case("quantize-split-input", "llama-quantize " + f32_parts[0] + " q-one.gguf Q4_K_M 2",
     ["forget", "{out}/" + f32_parts[-1], "--to", "gguf:Q4_K_M", "-o", "{out}/q-one.gguf"],
     d, "q-one", "a split input, one output: the split keys removed (= the unsplit file's output)")

# convert_hf_to_gguf.py --split-* on the Mixtral folder (MoE, two input shards)
mx = "Mixtral-8x7B-v0.1"
d = os.path.join(work, "cv"); os.makedirs(d)
convert(mx, "bf16", os.path.join(d, "mx-t8.gguf"), "--split-max-tensors", "8")
case("converter-tensors", "convert_hf_to_gguf.py Mixtral-8x7B-v0.1 --outtype bf16 --split-max-tensors 8 --outfile mx-t8.gguf",
     ["convert", "{hf_gguf}/inputs/" + mx, "--to", "gguf:BF16", "--split-max-tensors", "8", "-o", "{out}/mx-t8.gguf"],
     d, "mx-t8", "gguf-py: a part is full at 8 tensors; no/count/tensors.count appended")
convert(mx, "q8_0", os.path.join(d, "mx-300k.gguf"), "--split-max-size", "300K")
case("converter-size", "convert_hf_to_gguf.py Mixtral-8x7B-v0.1 --outtype q8_0 --split-max-size 300K --outfile mx-300k.gguf",
     ["convert", "{hf_gguf}/inputs/" + mx, "--to", "gguf:Q8_0", "--split-max-size", "300K", "-o", "{out}/mx-300k.gguf"],
     d, "mx-300k", "gguf-py: unpadded bytes, K = 10^3")
convert(mx, "bf16", os.path.join(d, "mx-nf.gguf"), "--split-max-tensors", "20", "--no-tensor-first-split")
case("converter-no-tensor-first", "convert_hf_to_gguf.py Mixtral-8x7B-v0.1 --outtype bf16 --split-max-tensors 20 --no-tensor-first-split --outfile mx-nf.gguf",
     ["convert", "{hf_gguf}/inputs/" + mx, "--to", "gguf:BF16", "--split-max-tensors", "20", "--no-tensor-first-split",
      "-o", "{out}/mx-nf.gguf"],
     d, "mx-nf", "gguf-py small_first_shard")
convert(mx, "bf16", os.path.join(d, "mx-one.gguf"), "--split-max-tensors", "1000")
case("converter-one-part", "convert_hf_to_gguf.py Mixtral-8x7B-v0.1 --outtype bf16 --split-max-tensors 1000 --outfile mx-one.gguf",
     ["convert", "{hf_gguf}/inputs/" + mx, "--to", "gguf:BF16", "--split-max-tensors", "1000", "-o", "{out}/mx-one.gguf"],
     d, "mx-one", "\"Model fails split requirements, not splitting\": the plain file")

# llama-gguf-split --merge of the converter's parts (its key order: no, count, tensors.count)
d = os.path.join(work, "cmerge"); os.makedirs(d)
mx_parts = [f["name"] for f in next(c for c in cases if c["name"] == "converter-tensors")["files"]]
run([tool("llama-gguf-split"), "--merge", os.path.join(work, "cv", mx_parts[0]), os.path.join(d, "mx-merged.gguf")])
case("gguf-split-merge-converter", "llama-gguf-split --merge " + mx_parts[0] + " mx-merged.gguf",
     ["convert", "{out}/" + mx_parts[-1], "--to", "gguf", "-o", "{out}/mx-merged.gguf"],
     d, "mx-merged", "the converter's parts merged")

# convert (lossless BF16) → llama-quantize Q4_K_M → llama-gguf-split: amn forget DIR --split-max-tensors in one pass
d = os.path.join(work, "chain"); os.makedirs(d)
convert(mx, "bf16", os.path.join(d, "mx-bf16.gguf"))
run([tool("llama-quantize"), os.path.join(d, "mx-bf16.gguf"), os.path.join(d, "mx-q4.gguf"), "Q4_K_M", "2"])
run([tool("llama-gguf-split"), "--split", "--split-max-tensors", "8", os.path.join(d, "mx-q4.gguf"), os.path.join(d, "mxq-t8")])
case("forget-folder-split", "convert_hf_to_gguf.py --outtype bf16; llama-quantize Q4_K_M; llama-gguf-split --split --split-max-tensors 8",
     ["forget", "{hf_gguf}/inputs/" + mx, "--to", "gguf:Q4_K_M", "--split-max-tensors", "8", "-o", "{out}/mxq-t8"],
     d, "mxq-t8", "llama-gguf-split's rules on llama-quantize's file")

# The order matters: cases that name {out} files of earlier ones come after them.
with open(out_json, "w") as f:
    json.dump({"generator": "tests/cli/gguf_split_reference.py", "llama_cpp_commit": "34af94cd9ab2", "cases": cases}, f, indent=1)
    f.write("\n")
shutil.rmtree(work)
