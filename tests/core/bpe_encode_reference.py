#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Expected token ids for test_bpe_tokenizer, from a real HF tokenizer.

Runs the `transformers` shim (AutoTokenizer over @huggingface/tokenizers, the
JS port of the Rust `tokenizers` library; see the shim's README) on the BPE
fixture tokenizers and writes, per case, `encode(text, add_special_tokens)`
for a fixed text set (+ `decode(ids)` without clean-up) and llama.cpp's own
tokenizer test vectors (`models/ggml-vocab-<pre>.gguf.inp/.out`, written by
convert_hf_to_gguf_update.py with the Rust library, add_special_tokens=False).

    /usr/bin/python3 tests/core/bpe_encode_reference.py /work/ref/hf_shim \
        ../shared/fixtures/hf-gguf /work/.mirror/unslothai+llama.cpp/repo \
        tests/core/data/bpe_encode_reference.json
"""
import json
import subprocess
import sys

shim, fixtures, mirror, out_path = sys.argv[1:5]
sys.path.insert(0, shim)
from transformers import AutoTokenizer  # noqa: E402  (the shim)

COMMIT = "34af94cd9ab2"
CASES = [("Meta-Llama-3-8B-Instruct", "llama-bpe"), ("Qwen3-0.6B", "qwen2")]
TEXTS = [
    "",
    " ",
    "Hello world",
    "Hello, world! How's it going? I'M FINE, they'll say; we'd've.",
    "café naïve résumé Ångström",
    "cafe\u0301 decomposed e\u0301 and A\u030a and \u212b (angstrom sign) \u1100\u1161\u11a8",
    "日本語のテキストと中文文本，한국어 텍스트",
    "emoji 🦙🚀 😶\u200d🌫️ 👩\u200d👩\u200d👧\u200d👦 flags 🇫🇷🇩🇪",
    "def f(x):\n\treturn x ** 2  # square\n\n\nif __name__ == '__main__':\r\n    print(f(12345))",
    "   leading and trailing spaces   ",
    "tabs\t\t\tand\n\n\nnewlines \u00a0nbsp \u3000ideographic \u2028ls",
    "numbers 0 12 123 1234 12345 123456 3.14159 1e-10 1,000,000 ١٢٣ ½",
    "<|begin_of_text|>Hello<|eot_id|> <|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>",
    "text<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nok<|endoftext|>",
    "<|begin_of_text|><|begin_of_text|> <|end_of_text|>x",
    "Ελληνικά ΣΊΣΥΦΟΣ, русский текст, עברית, العربية, हिन्दी, ไทย",
    "'s 't 're 've 'm 'll 'd 'S 'T 'RE ''' \"quoted\" ...!!! ??? ------====",
    "mixed123abc456 x1y2z3 ABCdef",
    "\u0000\u0001 control \u007f chars \u0085 nel",
    "a" * 300 + " " + "ab" * 150,
]


def inp_tests(pre):
    inp = subprocess.run(["git", "--git-dir", mirror, "show", f"{COMMIT}:models/ggml-vocab-{pre}.gguf.inp"],
                         check=True, capture_output=True).stdout.decode("utf-8")
    outp = subprocess.run(["git", "--git-dir", mirror, "show", f"{COMMIT}:models/ggml-vocab-{pre}.gguf.out"],
                          check=True, capture_output=True).stdout.decode("utf-8")
    texts = inp.split("\n__ggml_vocab_test__\n")[:-1]
    ids = [[int(x) for x in line.split()] for line in outp.split("\n")[: len(texts)]]
    assert len(texts) == len(ids), (pre, len(texts), len(ids))
    return texts, ids


result = {"generator": "tests/core/bpe_encode_reference.py", "tokenizer": "transformers shim over @huggingface/tokenizers",
          "llama_cpp_commit": COMMIT, "cases": []}
for case, pre in CASES:
    tok = AutoTokenizer.from_pretrained(f"{fixtures}/inputs/{case}")
    entries = []
    for text in TEXTS:
        for special in (True, False):
            ids = tok.encode(text, add_special_tokens=special)
            e = {"text": text, "add_special_tokens": special, "ids": ids}
            if ids and not special:
                e["decoded"] = tok.decode(ids, clean_up_tokenization_spaces=False)
            entries.append(e)
    texts, outs = inp_tests(pre)
    vectors = []
    for text, ids in zip(texts, outs):
        shim_ids = tok.encode(text, add_special_tokens=False)
        if shim_ids != ids:
            raise SystemExit(f"{case}: shim and llama.cpp .out differ on {text!r}")
        vectors.append({"text": text, "ids": ids})
    result["cases"].append({"case": case, "pre": pre, "encode": entries, "llama_cpp_vectors": vectors})

with open(out_path, "w", encoding="utf-8") as f:
    json.dump(result, f, ensure_ascii=True, indent=0)
    f.write("\n")
