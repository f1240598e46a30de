#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""llama.cpp's token ids for test_cli_tokback (issue 24, the way back keeps the tokenizer).

For each tokenizer of the shared hf-gguf fixtures (BPE: Llama 3, Qwen3;
SentencePiece: Llama 2, Mistral v0.1), the GGUF of the fixture folder is made
with `amn convert` and checked to be byte for byte what llama.cpp's
convert_hf_to_gguf.py wrote (the manifest's sha256 of that output), then
llama.cpp's own tokenizer tokenizes a fixed text set: `llama_tokenize(vocab,
text, add_special=true, parse_special=true)` (BOS/EOS as the GGUF's
add_bos/add_eos_token say, special tokens in the text recognised, as the HF
tokenizer does) through tests/cli/tokback_llama_tokenize.cpp, compiled here
against the llama.cpp build (its llama-tokenize has no switch for parse_special).
The test tokenizes the same texts with the tokenizer.json that
`amn remember --layout hf` writes, through @huggingface/tokenizers.

Also, for each text that is not in Unicode NFC, the ids of its NFC form
(`ids_nfc`, null elsewhere): Qwen's tokenizer.json normalizes to NFC, which
llama.cpp leaves out, so for those texts transformers' ids are llama.cpp's
ids of the NFC text.

Texts: tests/core/bpe_encode_reference.py's TEXTS, a few SentencePiece cases,
and llama.cpp's tokenizer test texts (models/ggml-vocab-*.gguf.inp, the list
convert_hf_to_gguf_update.py writes; the same for every vocabulary).

    /usr/bin/python3 tests/cli/tokback_reference.py LLAMA_SRC LLAMA_BUILD_BIN AMN \\
        ../shared/fixtures/hf-gguf /work/ref/llama.cpp/models/ggml-vocab-llama-bpe.gguf.inp \\
        tests/cli/data/tokback_reference.json
    (here: LLAMA_SRC=/work/ref/llama-src LLAMA_BUILD_BIN=/work/ref/llama-build/bin)

    ... tests/cli/data/tokback_reference.json --arch CASE OUTTYPE
        adds (or replaces) one case of tests/core/hf_arch_models.py (BERT's WordPiece:
        bge-small-en-v1.5 f32) to the existing file, on its texts: the folder written with
        --inputs-only --cases CASE, its GGUF made with `amn convert --to gguf:OUTTYPE` and
        checked against tests/core/hf_arch_reference.json's sha256 of the converter's file.
"""
import ast
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tokback_llama  # noqa: E402

llama_src, llama_bin, amn, fixtures, inp_path, out_path = sys.argv[1:7]
arch_case = sys.argv[8:10] if len(sys.argv) >= 10 and sys.argv[7] == "--arch" else None
here = os.path.dirname(os.path.abspath(__file__))

# (case, name of the manifest output whose GGUF is used)
CASES = [
    ("Meta-Llama-3-8B-Instruct", "f16"),
    ("Qwen3-0.6B", "bf16"),
    ("Llama-2-7b-hf", "auto"),
    ("Mistral-7B-v0.1-FP8", "auto"),
]
SPM_TEXTS = [
    "<s>Hello</s> <unk> text after",
    "  two leading spaces, then\n a newline and  two spaces",
    "rare characters for byte fallback: \U0001f999 \u2603 \u0f04 \ua9c1 \U00010348",
    "Llama 2 \u2581already\u2581escaped\u2581spaces",
]


def bpe_texts():
    tree = ast.parse(open(os.path.join(here, "..", "core", "bpe_encode_reference.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "TEXTS" for t in node.targets):
            # a list of string literals, one of them `"a" * 300 + …`: evaluated without builtins
            return list(eval(compile(ast.Expression(node.value), "TEXTS", "eval"), {"__builtins__": {}}))
    raise SystemExit("TEXTS not found in bpe_encode_reference.py")


def inp_texts():
    inp = open(inp_path, encoding="utf-8", newline="").read()
    return inp.split("\n__ggml_vocab_test__\n")[:-1]


texts = []
for t in bpe_texts() + SPM_TEXTS + inp_texts():
    if t not in texts:
        texts.append(t)
previous = None
if arch_case:
    previous = json.load(open(out_path, encoding="utf-8"))
    texts = previous["texts"]

manifest = json.load(open(os.path.join(fixtures, "manifest.json"), encoding="utf-8"))
nfc = [unicodedata.normalize("NFC", t) for t in texts]
nfc_only = [n for t, n in zip(texts, nfc) if n != t]
result = {"generator": "tests/cli/tokback_reference.py", "tokenizer": "", "texts": texts, "cases": []}
with tempfile.TemporaryDirectory() as tmp:
    tool, result["tokenizer"] = tokback_llama.build_tool(llama_src, llama_bin, tmp)
    blob = os.path.join(tmp, "texts.bin")
    tokback_llama.write_texts(texts + nfc_only, blob)
    def llama_ids(gguf):
        r = subprocess.run([tool, gguf, blob], check=True, capture_output=True)
        ids = [json.loads(line) for line in r.stdout.decode("ascii").splitlines()]
        assert len(ids) == len(texts) + len(nfc_only), (gguf, len(ids), len(texts))
        extra = iter(ids[len(texts):])
        return ids[: len(texts)], [next(extra) if n != t else None for t, n in zip(texts, nfc)]

    if arch_case:
        case, outtype = arch_case
        models = os.path.join(tmp, "models")
        subprocess.run([sys.executable, os.path.join(here, "..", "core", "hf_arch_models.py"), models, "--inputs-only",
                        "--cases", case], check=True)
        gguf = os.path.join(tmp, case + ".gguf")
        subprocess.run([amn, "convert", os.path.join(models, case), "--to", "gguf:" + outtype.upper(), "-o", gguf, "--quiet"],
                       check=True)
        digest = hashlib.sha256(open(gguf, "rb").read()).hexdigest()
        ref = json.load(open(os.path.join(here, "..", "core", "hf_arch_reference.json"), encoding="utf-8"))
        if digest != ref["cases"][case]["sha256"][outtype]:
            raise SystemExit(f"{case}: amn's GGUF is not convert_hf_to_gguf.py's ({digest})")
        ids, ids_nfc = llama_ids(gguf)
        previous["cases"] = [c for c in previous["cases"] if c["case"] != case]
        previous["cases"].append({"case": case, "gguf": f"tests/core/hf_arch_models.py {case} --outtype {outtype}",
                                  "gguf_sha256": digest, "ids": ids, "ids_nfc": ids_nfc})
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(previous, f, ensure_ascii=False, indent=0)
            f.write("\n")
        sys.exit(0)

    for case, outtype in CASES:
        (m,) = [c for c in manifest["cases"] if c["name"] == case]
        (o,) = [o for o in m["outputs"] if o["outtype"] == outtype]
        cmd = o["amn"][0].split()
        gguf = os.path.join(tmp, case + ".gguf")
        args = [amn] + [a.replace("{in}", os.path.join(fixtures, "inputs", case)).replace("{out}", gguf) for a in cmd]
        subprocess.run(args + ["--quiet"], check=True)
        digest = hashlib.sha256(open(gguf, "rb").read()).hexdigest()
        if digest != o["gguf"]["sha256"]:
            raise SystemExit(f"{case}: amn's GGUF is not convert_hf_to_gguf.py's ({digest})")
        r = subprocess.run([tool, gguf, blob], check=True, capture_output=True)
        ids = [json.loads(line) for line in r.stdout.decode("ascii").splitlines()]
        assert len(ids) == len(texts) + len(nfc_only), (case, len(ids), len(texts))
        extra = iter(ids[len(texts):])
        ids_nfc = [next(extra) if n != t else None for t, n in zip(texts, nfc)]
        ids = ids[: len(texts)]
        result["cases"].append({"case": case, "gguf": o["convert_cmd"], "gguf_sha256": digest, "ids": ids,
                               "ids_nfc": ids_nfc})
        print(case, len(ids), "texts", file=sys.stderr)

with open(out_path, "w", encoding="utf-8") as f:
    json.dump(result, f, ensure_ascii=False, indent=0)
    f.write("\n")
