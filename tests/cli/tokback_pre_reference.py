#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""llama.cpp's token ids for test_cli_tokback's pre-tokenizer families (issue 32).

One `tokenizer.ggml.pre` name per family of llama.cpp's byte-level BPE
pre-tokenizers (src/llama-vocab.cpp: the names that share one regex list and
`ignore_merges`; amn's rows: core/src/tokenizer/pre_definitions.cc). For each,
a vocab-only GGUF of the shared hf-gguf fixture Meta-Llama-3-8B-Instruct's
tokenizer with that name (`amn convert … --to gguf --vocab-only --vocab-pre
NAME`: Llama 3's vocabulary and merges split by another family's regexes),
then llama.cpp's own tokenizer on it, llama_tokenize(add_special=true,
parse_special=true) through tests/cli/tokback_llama_tokenize.cpp (compiled here
against the llama.cpp build), on tests/cli/data/tokback_reference.json's texts.
The test makes the same GGUF (checked by its sha256), writes its tokenizer with
`amn remember --layout hf` and tokenizes the texts with @huggingface/tokenizers.

    /usr/bin/python3 tests/cli/tokback_pre_reference.py LLAMA_SRC LLAMA_BUILD_BIN AMN \\
        ../shared/fixtures/hf-gguf tests/cli/data/tokback_pre_reference.json
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tokback_llama  # noqa: E402

llama_src, llama_bin, amn, fixtures, out_path = sys.argv[1:6]
here = os.path.dirname(os.path.abspath(__file__))

# One name per family, in pre_definitions.cc's order, but qwen2 (its NFC normalizer: tested with Qwen3's own
# vocabulary in tokback_reference.json, as llama-bpe and gpt-2 are too; dbrx shares Llama 3's regex with
# ignore_merges off).
NAMES = ["llama-bpe", "jais-2", "dbrx", "deepseek-llm", "deepseek-v3", "youtu", "deepseek-coder", "falcon", "starcoder",
         "gpt-2", "stablelm2", "qwen35", "bloom", "viking", "tekken", "chameleon", "gpt-4o",
         "granite-embed-multi-97m", "tiny_aya", "bailingmoe", "seed-coder", "laguna", "exaone-moe", "minicpm5", "kimi-k2", "afmoe", "superbpe", "default"]

texts = json.load(open(os.path.join(here, "data", "tokback_reference.json"), encoding="utf-8"))["texts"]
result = {"generator": "tests/cli/tokback_pre_reference.py", "tokenizer": "",
          "input": "Meta-Llama-3-8B-Instruct", "texts": "tests/cli/data/tokback_reference.json", "cases": []}
with tempfile.TemporaryDirectory() as tmp:
    tool, result["tokenizer"] = tokback_llama.build_tool(llama_src, llama_bin, tmp)
    blob = os.path.join(tmp, "texts.bin")
    tokback_llama.write_texts(texts, blob)
    for name in NAMES:
        gguf = os.path.join(tmp, name + ".gguf")
        subprocess.run([amn, "convert", os.path.join(fixtures, "inputs", result["input"]), "--to", "gguf", "--vocab-only",
                        "--vocab-pre", name, "-o", gguf, "--quiet"], check=True)
        digest = hashlib.sha256(open(gguf, "rb").read()).hexdigest()
        r = subprocess.run([tool, gguf, blob], check=True, capture_output=True)
        ids = [json.loads(line) for line in r.stdout.decode("ascii").splitlines()]
        assert len(ids) == len(texts), (name, len(ids), len(texts))
        result["cases"].append({"pre": name, "gguf_sha256": digest, "ids": ids})
        print(name, file=sys.stderr)

# One line per text's ids.
cases = result.pop("cases")
text = json.dumps(result, ensure_ascii=False, indent=0)[:-2] + ',\n"cases":[\n'
text += ",\n".join('{"pre":%s,"gguf_sha256":%s,"ids":[\n%s\n]}' % (
    json.dumps(c["pre"]), json.dumps(c["gguf_sha256"]), ",\n".join(json.dumps(i, separators=(",", ":")) for i in c["ids"]))
    for c in cases)
with open(out_path, "w", encoding="utf-8") as f:
    f.write(text + "\n]}\n")
