#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Seeds of the Hugging Face → GGUF fuzz targets (fuzz_hf_tokenizer,
fuzz_spm_model, fuzz_hf_config, fuzz_hf_vocab), Python standard library only.

    /usr/bin/python3 tests/fuzz/hf_seeds.py INPUTS_DIR OUT_DIR

INPUTS_DIR holds Hugging Face folders (one per model: config.json,
tokenizer.json, tokenizer.model, tokenizer_config.json, …), e.g. the shared
fixtures' hf-gguf/inputs. Real tokenizer files are megabytes, far over the
fuzzers' -max_len (64 KiB), where libFuzzer would cut them into invalid
JSON/protobuf; they are *shrunk* instead, keeping everything but the size:
tokenizer.json keeps its normalizer, pre-tokenizer, post-processor, decoder,
added tokens and model options, with the first 300 vocabulary entries (and
every byte token) and the merges among them; tokenizer.model keeps its
trainer/normalizer specs (the precompiled charsmap included) and its first
300 pieces (protobuf wire format, walked here). Writes OUT_DIR/<target>/.

scripts/sanitize.sh runs this at fuzz time on ../shared/fixtures/hf-gguf/inputs
(when present) into build/sanitize/fuzz/<target>/seeds: these seeds derive
from third-party files and are never committed (tests/fuzz/README.md).
make_seeds.py uses the same writers for the hand-made seeds it commits.
"""
import hashlib
import json
import os
import sys

SEPARATOR = b"\n@@amn-next-file@@\n"  # fuzz_hf_vocab.cc kSeparator
VOCAB_FILES = ["tokenizer_config.json", "config.json", "tokenizer.json",
               "added_tokens.json", "chat_template.jinja", "tokenizer.model"]
MAX_LEN = 65536
KEEP = 300


def write_seed(out, target, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_LEN:
        return False
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)
    return True


def shrink_tokenizer_json(text, keep=KEEP):
    """A tokenizer.json with only the first `keep` ids (plus byte tokens <0x..>)."""
    tj = json.loads(text)
    model = tj.get("model") or {}
    vocab = model.get("vocab")
    if isinstance(vocab, dict):
        kept = {k: v for k, v in vocab.items()
                if isinstance(v, int) and (v < keep or (k.startswith("<0x") and len(k) == 6))}
        model["vocab"] = kept
        merges = model.get("merges")
        if isinstance(merges, list):
            out = []
            for m in merges:
                parts = m.split(" ", 1) if isinstance(m, str) else m
                if isinstance(parts, list) and len(parts) == 2 and all(isinstance(p, str) for p in parts) \
                        and parts[0] in kept and parts[1] in kept and parts[0] + parts[1] in kept:
                    out.append(m)
            model["merges"] = out
    return json.dumps(tj, ensure_ascii=False, indent=None).encode()


def _varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def shrink_spm_model(data, keep=KEEP):
    """tokenizer.model (ModelProto) with its first `keep` pieces (field 1), the rest as is."""
    out = bytearray()
    n = i = 0
    while i < len(data):
        start = i
        key, i = _varint(data, i)
        wt = key & 7
        if wt == 0:
            _, i = _varint(data, i)
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        elif wt == 2:
            ln, i = _varint(data, i)
            i += ln
        else:
            raise ValueError("unexpected wire type %d" % wt)
        if key >> 3 == 1:
            n += 1
            if n > keep:
                continue
        out += data[start:i]
    return bytes(out)


def vocab_folder(files):
    """One fuzz_hf_vocab input from {file name: bytes}."""
    return SEPARATOR.join(files.get(name, b"") for name in VOCAB_FILES)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def from_folders(inputs, out):
    counts = {}
    def put(t, data):
        if write_seed(out, t, data):
            counts[t] = counts.get(t, 0) + 1
    for case in sorted(os.listdir(inputs)):
        d = os.path.join(inputs, case)
        if not os.path.isdir(d):
            continue
        files = {}
        for name in ("config.json", "generation_config.json", "tokenizer_config.json",
                     "added_tokens.json", "chat_template.jinja"):
            p = os.path.join(d, name)
            if os.path.isfile(p):
                files[name] = read(p)
        if os.path.isfile(os.path.join(d, "tokenizer.json")):
            files["tokenizer.json"] = shrink_tokenizer_json(read(os.path.join(d, "tokenizer.json")))
            put("hf_tokenizer", files["tokenizer.json"])
        if os.path.isfile(os.path.join(d, "tokenizer.model")):
            files["tokenizer.model"] = shrink_spm_model(read(os.path.join(d, "tokenizer.model")))
            put("spm_model", files["tokenizer.model"])
        for name in ("config.json", "generation_config.json"):
            if name in files:
                put("hf_config", files[name])
        put("hf_vocab", vocab_folder(files))
        # Each tokenizer on its own (the dispatcher's other branches).
        put("hf_vocab", vocab_folder({k: v for k, v in files.items() if k != "tokenizer.model"}))
        put("hf_vocab", vocab_folder({k: v for k, v in files.items() if k != "tokenizer.json"}))
    return counts


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    for t, n in sorted(from_folders(sys.argv[1], sys.argv[2]).items()):
        print(f"{t}: {n} seeds")
