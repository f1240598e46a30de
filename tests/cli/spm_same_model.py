#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Are two SentencePiece models the same tokenizer, as libsentencepiece (Debian's
python3-sentencepiece) loads and runs them? Compares the model type, the piece
count, every piece (text, score, and whether it is unknown / control / unused /
byte), and the ids of every text of TEXTS_JSON's "texts" (encode with the
models' own normalizer: precompiled charsmap, dummy prefix, whitespace rules).
Prints "ok N pieces, M texts" or the first difference; exit 1 on a difference.

With --llama-ids CASE (XLM-RoBERTa's fairseq ids): also MODEL_B's ids of every text, as
XLMRobertaTokenizer numbers them (<s> 0, </s> 2, <unk> 3, piece p ≥ 3 at p + 1) between <s> and
</s>, must be the llama.cpp ids TEXTS_JSON records for CASE (llama_tokenize on the GGUF) — but for
texts holding a special token's text, which llama.cpp parses as that token and SentencePiece as
text.

usage: spm_same_model.py MODEL_A MODEL_B TEXTS_JSON [--llama-ids CASE]
"""
import json
import os
import sys

os.environ.setdefault("PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION", "python")
import sentencepiece as spm  # noqa: E402
from sentencepiece import sentencepiece_model_pb2 as model_pb2  # noqa: E402


def main():
    a_path, b_path, texts_path = sys.argv[1:4]
    a, b = spm.SentencePieceProcessor(), spm.SentencePieceProcessor()
    a.LoadFromFile(a_path)
    b.LoadFromFile(b_path)
    ma, mb = model_pb2.ModelProto(), model_pb2.ModelProto()
    ma.ParseFromString(open(a_path, "rb").read())
    mb.ParseFromString(open(b_path, "rb").read())
    if ma.trainer_spec.model_type != mb.trainer_spec.model_type:
        print(f"model_type {ma.trainer_spec.model_type} vs {mb.trainer_spec.model_type}")
        return 1
    if a.GetPieceSize() != b.GetPieceSize():
        print(f"{a.GetPieceSize()} pieces vs {b.GetPieceSize()}")
        return 1
    for i in range(a.GetPieceSize()):
        fa = (a.IdToPiece(i), a.GetScore(i), a.IsUnknown(i), a.IsControl(i), a.IsUnused(i), a.IsByte(i))
        fb = (b.IdToPiece(i), b.GetScore(i), b.IsUnknown(i), b.IsControl(i), b.IsUnused(i), b.IsByte(i))
        if fa != fb:
            print(f"piece {i}: {fa!r} vs {fb!r}")
            return 1
    with open(texts_path, encoding="utf-8") as f:
        texts = json.load(f)["texts"]
    for t in texts:
        ia, ib = a.EncodeAsIds(t), b.EncodeAsIds(t)
        if ia != ib:
            print(f"text {t!r}: {ia} vs {ib}")
            return 1
    extra = ""
    if "--llama-ids" in sys.argv:
        case = sys.argv[sys.argv.index("--llama-ids") + 1]
        with open(texts_path, encoding="utf-8") as f:
            ref = [c for c in json.load(f)["cases"] if c["case"] == case][0]["ids"]
        fairseq = {0: 3, 1: 0, 2: 2}
        same = special = 0
        for t, want in zip(texts, ref):
            got = [0] + [fairseq.get(i, i + 1) for i in b.EncodeAsIds(t)] + [2]
            if got == want:
                same += 1
            elif any(s in t for s in ("<s>", "</s>", "<unk>", "<pad>", "<mask>")):
                special += 1
            else:
                print(f"text {t!r}: SentencePiece {got} vs llama.cpp {want}")
                return 1
        extra = f"; llama.cpp's ids for {same}, {special} with special-token text"
    print(f"ok {a.GetPieceSize()} pieces, {len(texts)} texts{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
