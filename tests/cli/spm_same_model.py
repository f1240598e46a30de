#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Are two SentencePiece models the same tokenizer, as libsentencepiece (Debian's
python3-sentencepiece) loads and runs them? Compares the model type, the piece
count, every piece (text, score, and whether it is unknown / control / unused /
byte), and the ids of every text of TEXTS_JSON's "texts" (encode with the
models' own normalizer: precompiled charsmap, dummy prefix, whitespace rules).
Prints "ok N pieces, M texts" or the first difference; exit 1 on a difference.

usage: spm_same_model.py MODEL_A MODEL_B TEXTS_JSON
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
    print(f"ok {a.GetPieceSize()} pieces, {len(texts)} texts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
