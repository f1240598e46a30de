#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write the fuzz seeds into OUT_DIR/<target>/, from the repository alone.

Usage: /usr/bin/python3 tests/fuzz/make_seeds.py OUT_DIR

- safetensors: the repository's fixtures/**/*.safetensors of at most 64 KiB;
- gguf: small GGUF v2/v3 files written here, one per ggml type listed in
  core/include/anamnesis/ggml_type_list.hpp plus the plain types, with
  key/values of every GGUF value type (strings, arrays, nested arrays) and a
  custom general.alignment; block contents are random bytes (seeded);
- onnx: the models of tests/cli/onnx_ort_check.py (every quantizing operator
  amn reads, random data) and tests/cli/onnx_bad_models.py (broken ones), and
  one with every typed value field (python3-onnx);
- npy, zip, pth, pickle: fixtures/npz_pth/make_npz_pth_fixtures.py's output
  (NPY, NPZ, PyTorch ZIP and legacy checkpoints, plain pickles and the
  data.pkl of every ZIP checkpoint), without the `wide.*` inputs and
  anything over 64 KiB (16 KiB for pickles, fuzz_pickle's -max_len).

tests/fuzz/make_corpus.sh minimises these (with what a fuzz run has grown)
into tests/fuzz/corpus/. Nothing is read from outside the repository.
"""
import glob
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = sys.argv[1]
MAX_LEN = 65536
rng = random.Random(14)


def out_dir(target):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    return d


# --- safetensors: the repository's own fixtures -----------------------------
n = 0
for path in sorted(glob.glob(os.path.join(TOP, "fixtures", "**", "*.safetensors"), recursive=True)):
    if os.path.getsize(path) <= MAX_LEN:
        rel = os.path.relpath(path, os.path.join(TOP, "fixtures")).replace(os.sep, "_")
        shutil.copyfile(path, os.path.join(out_dir("safetensors"), rel))
        n += 1
print(f"safetensors: {n} seeds")

# --- GGUF: written here -----------------------------------------------------
# ggml block types: (name, id, block elements, block bytes) from the core's own list.
types = []
with open(os.path.join(TOP, "core", "include", "anamnesis", "ggml_type_list.hpp")) as f:
    for m in re.finditer(r"X\((\w+), (\d+), (\d+), (\d+)(?:, \w+)+\)", f.read()):
        types.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))))
# ggml's plain types (ggml.h): F32 0, F16 1, I8 24, I16 25, I32 26, I64 27, F64 28, BF16 30.
types += [("F32", 0, 1, 4), ("F16", 1, 1, 2), ("I8", 24, 1, 1), ("I16", 25, 1, 2),
          ("I32", 26, 1, 4), ("I64", 27, 1, 8), ("F64", 28, 1, 8), ("BF16", 30, 1, 2)]


def gstr(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def kv(key, vtype, payload):
    return gstr(key) + struct.pack("<I", vtype) + payload


def all_kvs(alignment):
    kvs = [
        kv("general.architecture", 8, gstr("llama")),
        kv("general.name", 8, gstr("fuzz seed \u00e9")),
        kv("general.alignment", 4, struct.pack("<I", alignment)),
        kv("llama.block_count", 4, struct.pack("<I", 1)),
        kv("k.u8", 0, struct.pack("<B", 7)), kv("k.i8", 1, struct.pack("<b", -7)),
        kv("k.u16", 2, struct.pack("<H", 700)), kv("k.i16", 3, struct.pack("<h", -700)),
        kv("k.i32", 5, struct.pack("<i", -70000)), kv("k.f32", 6, struct.pack("<f", 1.5)),
        kv("k.bool", 7, struct.pack("<B", 1)), kv("k.u64", 10, struct.pack("<Q", 1 << 40)),
        kv("k.i64", 11, struct.pack("<q", -(1 << 40))), kv("k.f64", 12, struct.pack("<d", 0.25)),
        kv("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 3) + gstr("<s>") + gstr("a") + gstr("\u2581b")),
        kv("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 3) + struct.pack("<3f", 0, -1, -2)),
        kv("k.nested", 9, struct.pack("<IQ", 9, 2) + struct.pack("<IQ", 4, 1) + struct.pack("<I", 5)
           + struct.pack("<IQ", 4, 0)),
    ]
    return kvs


def gguf(version, tensors, alignment=32, with_kvs=True):
    """tensors: [(name, ggml id, dims, data bytes)] laid out as ggml does."""
    kvs = all_kvs(alignment) if with_kvs else []
    if not with_kvs:
        alignment = 32
    head = b"GGUF" + struct.pack("<I", version) + struct.pack("<QQ", len(tensors), len(kvs)) + b"".join(kvs)
    offset, infos, data = 0, b"", b""
    for name, tid, dims, blob in tensors:
        infos += gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        infos += struct.pack("<IQ", tid, offset)
        pad = -len(blob) % alignment
        data += blob + b"\0" * pad
        offset += len(blob) + pad
    head += infos
    head += b"\0" * (-len(head) % alignment)
    return head + data


def tensor(name, tid, block_elems, block_bytes, rows, blocks_per_row):
    blob = bytes(rng.getrandbits(8) for _ in range(rows * blocks_per_row * block_bytes))
    return (name, tid, [block_elems * blocks_per_row, rows], blob)


g = out_dir("gguf")
for name, tid, be, bb in types:
    blocks = 2 if be >= 32 else 16
    ts = [tensor("blk.0.attn_q.weight", tid, be, bb, 2, blocks),
          tensor("output_norm.weight", 0, 1, 4, 1, 8)]
    with open(os.path.join(g, f"{name}.gguf"), "wb") as f:
        f.write(gguf(3, ts, alignment=32))
# variants: v2, alignment 64, no key/values, no tensors, a 3-D and a zero-row tensor
q4k = next(t for t in types if t[0] == "Q4_K")
with open(os.path.join(g, "v2-align64.gguf"), "wb") as f:
    f.write(gguf(2, [tensor("token_embd.weight", 8, 32, 34, 3, 1), tensor("blk.0.ffn_up.weight", *q4k[1:], 1, 1)],
                 alignment=64))
with open(os.path.join(g, "no-kv.gguf"), "wb") as f:
    f.write(gguf(3, [tensor("a", 1, 1, 2, 2, 4)], with_kvs=False))
with open(os.path.join(g, "no-tensors.gguf"), "wb") as f:
    f.write(gguf(3, []))
blob = bytes(rng.getrandbits(8) for _ in range(2 * 3 * 4 * 4))
with open(os.path.join(g, "3d-and-empty.gguf"), "wb") as f:
    f.write(gguf(3, [("blk.0.ffn_gate_exps.weight", 0, [4, 3, 2], blob), ("empty", 0, [4, 0], b"")]))
print(f"gguf: {len(os.listdir(g))} seeds")

# --- NPY / NPZ / PyTorch / ZIP / pickle: the fixture generator ---------------
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["/usr/bin/python3", os.path.join(TOP, "fixtures", "npz_pth", "make_npz_pth_fixtures.py"), tmp],
                   check=True, stdout=subprocess.DEVNULL)
    picks = {"npy": (".npy", ".npz"), "pth": (".pth", ".pt", ".bin"), "zip": (".zip", ".npz", ".pth", ".pt"),
             "pickle": (".pkl",)}
    for path in sorted(os.listdir(tmp)):
        full = os.path.join(tmp, path)
        if path.startswith("wide.") or not os.path.isfile(full) or os.path.getsize(full) > MAX_LEN:
            continue
        if path.endswith(".expected.safetensors"):
            continue
        for target, exts in picks.items():
            if path.endswith(exts):
                shutil.copyfile(full, os.path.join(out_dir(target), path))
        # the pickles inside PyTorch ZIP checkpoints seed the pickle machine too
        if path.endswith(".pth") and zipfile.is_zipfile(full):
            try:
                with zipfile.ZipFile(full) as z:
                    for member in z.namelist():
                        if member.endswith("data.pkl") and z.getinfo(member).file_size <= 16384:
                            with open(os.path.join(out_dir("pickle"), path + ".data.pkl"), "wb") as f:
                                f.write(z.read(member))
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError):
                pass  # the deliberately broken archives
for target in ("npy", "pth", "zip", "pickle"):
    print(f"{target}: {len(os.listdir(out_dir(target)))} seeds")

# --- ONNX: the models of tests/cli's ONNX generators (python3-onnx) ------------
# Every quantizing operator amn reads (onnx_ort_check.py, random data) and the
# broken models (onnx_bad_models.py), plus a typed-field model written here.
try:
    import numpy as np  # noqa: E402
    from onnx import TensorProto, helper  # noqa: E402
except ImportError:
    print("onnx: python3-onnx not installed, no seeds")
else:
    sys.path.insert(0, os.path.join(TOP, "tests", "cli"))
    import onnx_ort_check  # noqa: E402
    o = out_dir("onnx")
    with tempfile.TemporaryDirectory() as tmp:
        for c in onnx_ort_check.write_models(os.path.join(tmp, "ort")):
            shutil.copy(os.path.join(c["dir"], "model.onnx"), os.path.join(o, c["name"] + ".onnx"))
        subprocess.run(["/usr/bin/python3", os.path.join(TOP, "tests", "cli", "onnx_bad_models.py"), os.path.join(tmp, "bad")],
                       check=True, stdout=subprocess.DEVNULL)
        for case in sorted(os.listdir(os.path.join(tmp, "bad"))):
            m = os.path.join(tmp, "bad", case, "model.onnx")
            if os.path.isfile(m):
                shutil.copy(m, os.path.join(o, "bad-" + case + ".onnx"))
    typed = [helper.make_tensor("f", TensorProto.FLOAT, [2, 2], [0.5, -1.0, 2.0, 3.0]),
             helper.make_tensor("h", TensorProto.FLOAT16, [3], np.array([1, -2, 65504], np.float16).view(np.uint16).tolist()),
             helper.make_tensor("i8", TensorProto.INT8, [3], [-1, 0, 127]),
             helper.make_tensor("i64", TensorProto.INT64, [2], [-5, 1 << 40]),
             helper.make_tensor("d", TensorProto.DOUBLE, [2], [1.5, -0.25]),
             helper.make_tensor("u32", TensorProto.UINT32, [2], [1, 4000000000]),
             helper.make_tensor("s", TensorProto.STRING, [2], [b"a", b"bc"]),
             helper.make_tensor("empty", TensorProto.FLOAT, [0, 3], [])]
    g = helper.make_graph([helper.make_node("Identity", ["f"], ["y"])], "typed", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])], typed)
    with open(os.path.join(o, "typed-fields.onnx"), "wb") as f:
        f.write(helper.make_model(g, producer_name="amn-seeds").SerializeToString())
    print(f"onnx: {len(os.listdir(o))} seeds")

# --- Hugging Face → GGUF: hand-made tokenizer / config files ------------------
# (hf_seeds.py adds shrunk real ones at fuzz time, never committed.)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_seeds  # noqa: E402
import json  # noqa: E402

letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
byte_level = ["\u0120" + x for x in ("t", "h", "e")] + ["\u0120", "\u010a", "th", "the", "\u0120the", "er", "in"]
tok_vocab = {t: i for i, t in enumerate(["<unk>", "<s>", "</s>"] + letters + byte_level + ["\u2581", "\u2581t", "<0x41>", "<0xC3>", "<0xA9>", "1", "2", "12"])}
tok_merges = ["t h", "th e", "\u0120 the", "e r", "i n", "\u2581 t", "1 2"]
added = [{"id": 1, "content": "<s>", "special": True, "normalized": False, "lstrip": False, "rstrip": False, "single_word": False},
         {"id": 2, "content": "</s>", "special": True, "normalized": False, "lstrip": True, "rstrip": True, "single_word": False},
         {"id": len(tok_vocab), "content": "<|endoftext|>", "special": True, "normalized": True, "lstrip": False, "rstrip": False, "single_word": True},
         {"id": len(tok_vocab) + 1, "content": "hello", "special": False, "normalized": True, "lstrip": False, "rstrip": False, "single_word": False}]
template = {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}
pipelines = [
    # GPT-2 / Llama 3 style: byte level, a Split regex, NFC
    dict(normalizer={"type": "NFC"},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [
             {"type": "Split", "pattern": {"Regex": "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"}, "behavior": "Isolated", "invert": False},
             {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]},
         post_processor={"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
         decoder={"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}),
    # SentencePiece style: Prepend + Replace, ByteFallback / Fuse / Strip decoders, template
    dict(normalizer={"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "\u2581"},
                                                          {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}]},
         pre_tokenizer=None, post_processor=template,
         decoder={"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
                                                    {"type": "ByteFallback"}, {"type": "Fuse"},
                                                    {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
         byte_fallback=True),
    # Metaspace, NFKC + Lowercase + StripAccents, Bert/Roberta processors
    dict(normalizer={"type": "Sequence", "normalizers": [{"type": "NFKD"}, {"type": "StripAccents"}, {"type": "Lowercase"},
                                                          {"type": "Strip", "left": True, "right": True}]},
         pre_tokenizer={"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": True},
         post_processor={"type": "BertProcessing", "sep": ["</s>", 2], "cls": ["<s>", 1]},
         decoder={"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}),
    dict(normalizer={"type": "NFKC"},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, {"type": "Digits", "individual_digits": True},
                                                               {"type": "Punctuation", "behavior": "Contiguous"}]},
         post_processor={"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 1], "trim_offsets": True, "add_prefix_space": False},
         decoder={"type": "BPEDecoder", "suffix": "</w>"}, end_of_word_suffix="</w>"),
    dict(normalizer={"type": "NFD"},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, {"type": "CharDelimiterSplit", "delimiter": "e"},
                                                               {"type": "Split", "pattern": {"String": "th"}, "behavior": "MergedWithNext", "invert": True}]},
         post_processor={"type": "Sequence", "processors": [{"type": "ByteLevel", "trim_offsets": False}, template]},
         decoder={"type": "WordPiece", "prefix": "##", "cleanup": True}, continuing_subword_prefix="##"),
]
n = 0
for i, p in enumerate(pipelines):
    model = {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": p.get("continuing_subword_prefix"),
             "end_of_word_suffix": p.get("end_of_word_suffix"), "fuse_unk": i % 2 == 1, "byte_fallback": p.get("byte_fallback", False),
             "ignore_merges": i == 0, "vocab": tok_vocab,
             "merges": tok_merges if i % 2 == 0 else [m.split(" ") for m in tok_merges]}
    tj = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
          "normalizer": p["normalizer"], "pre_tokenizer": p["pre_tokenizer"], "post_processor": p["post_processor"],
          "decoder": p["decoder"], "model": model}
    n += hf_seeds.write_seed(OUT, "hf_tokenizer", json.dumps(tj, ensure_ascii=i % 2 == 0))
print(f"hf_tokenizer: {n} seeds")

configs = [
    {"architectures": ["LlamaForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 2, "num_key_value_heads": 2, "rms_norm_eps": 1e-5, "rope_theta": 500000.0, "vocab_size": 32,
     "max_position_embeddings": 8192, "bos_token_id": 1, "eos_token_id": [2, 3], "tie_word_embeddings": False,
     "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                      "original_max_position_embeddings": 8192}},
    {"architectures": ["MixtralForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 1, "num_key_value_heads": 2, "num_local_experts": 2, "num_experts_per_tok": 1,
     "rms_norm_eps": 1e-5, "rope_theta": 1e6, "vocab_size": 32, "sliding_window": None},
    {"architectures": ["Qwen3MoeForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "moe_intermediate_size": 32,
     "num_attention_heads": 4, "num_hidden_layers": 2, "num_key_value_heads": 2, "num_experts": 1, "num_experts_per_tok": 1,
     "head_dim": 4, "rms_norm_eps": 1e-6, "rope_theta": 1e6, "vocab_size": 32,
     "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}},
    {"architectures": ["Qwen2ForCausalLM"], "text_config": {"hidden_size": 16, "num_hidden_layers": 2,
     "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 32, "rms_norm_eps": 1e-6},
     "rope_theta": 10000, "vocab_size": 32, "max_window_layers": 2},
    {"architectures": ["Phi3ForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 2, "num_key_value_heads": 4, "rms_norm_eps": 1e-5, "vocab_size": 32,
     "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "partial_rotary_factor": 1.0,
     "rope_scaling": {"type": "longrope", "long_factor": [1.0, 1.5], "short_factor": [1.0, 1.0]}},
    {"architectures": ["GPT2LMHeadModel"], "n_embd": 16, "n_head": 4, "n_layer": 2, "n_ctx": 64, "n_positions": 64,
     "layer_norm_epsilon": 1e-5, "vocab_size": 32},
    {"architectures": ["Gemma2ForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 2, "num_key_value_heads": 2, "head_dim": 4, "rms_norm_eps": 1e-6, "vocab_size": 32,
     "max_position_embeddings": 64, "attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0, "sliding_window": 8},
    {"architectures": ["Gemma3ForCausalLM"], "hidden_size": 16, "num_hidden_layers": 2, "head_dim": 4,
     "rope_local_base_freq": 10000, "rope_theta": 1000000, "sliding_window": 8, "sliding_window_pattern": 6,
     "attn_logit_softcapping": None, "final_logit_softcapping": None, "vocab_size": 32},
    {"architectures": ["GraniteForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 2, "num_key_value_heads": 2, "head_dim": 4, "vocab_size": 32, "attention_multiplier": 0.25,
     "embedding_multiplier": 12.0, "residual_multiplier": 0.22, "logits_scaling": 8.0},
    {"architectures": ["Olmo3ForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 4, "sliding_window": 8, "layer_types": ["sliding_attention", "full_attention"], "vocab_size": 32},
    {"architectures": ["Ministral3ForCausalLM"], "model_type": "ministral3", "hidden_size": 16, "num_attention_heads": 4,
     "num_hidden_layers": 2, "vocab_size": 32, "rope_parameters": {"rope_type": "yarn", "factor": 16.0,
     "original_max_position_embeddings": 16, "mscale_all_dim": 1.0, "llama_4_scaling_beta": 0.1, "rope_theta": 1e6}},
    {"architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "moe_intermediate_size": 8,
     "num_attention_heads": 4, "num_hidden_layers": 2, "num_key_value_heads": 4, "kv_lora_rank": 8, "q_lora_rank": 8,
     "qk_nope_head_dim": 8, "qk_rope_head_dim": 4, "v_head_dim": 8, "n_routed_experts": 2, "n_shared_experts": 1,
     "first_k_dense_replace": 1, "norm_topk_prob": True, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid",
     "n_group": 1, "topk_group": 1, "vocab_size": 32,
     "rope_scaling": {"type": "yarn", "factor": 40, "mscale_all_dim": 1.0, "original_max_position_embeddings": 16}},
    {"architectures": ["GptOssForCausalLM"], "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4,
     "num_hidden_layers": 2, "num_key_value_heads": 2, "head_dim": 4, "num_local_experts": 2, "num_experts_per_tok": 1,
     "sliding_window": 8, "vocab_size": 32, "quantization_config": {"quant_method": "mxfp4"}},
]
n = 0
for c in configs:
    n += hf_seeds.write_seed(OUT, "hf_config", json.dumps(c, indent=2))
print(f"hf_config: {n} seeds")

# Tiny SentencePiece models trained here (python3-sentencepiece; skipped without it).
n = 0
spm_models = []
try:
    import io
    import sentencepiece as spm
    with tempfile.TemporaryDirectory() as tmp:
        # Sentences from an iterator: no temporary path recorded in trainer_spec (seeds stay byte-stable).
        lines = ["The quick brown fox jumps over the lazy dog. Caf\u00e9 na\u00efve \u00dcber \u4f60\u597d 1234 <b>"] * 40
        rules = "rules.tsv"  # relative (the trainer records the path): run in tmp
        cwd = os.getcwd()
        os.chdir(tmp)
        with open(rules, "w") as f:  # a small normalization table (precompiled charsmap)
            f.write("41\t61\nFF21\t41\n2160\t49\n")
        for model_type, extra in (("unigram", {}), ("bpe", {"byte_fallback": True}), ("char", {}), ("word", {}),
                                  ("unigram", {"normalization_rule_tsv": rules, "user_defined_symbols": ["<b>"],
                                               "control_symbols": ["<ctl>"], "split_digits": True})):
            m = io.BytesIO()
            spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=m, model_type=model_type, minloglevel=3,
                                           vocab_size=320 if extra.get("byte_fallback") else 60, hard_vocab_limit=False,
                                           **({"normalization_rule_name": "identity"} if "normalization_rule_tsv" not in extra else {}),
                                           **extra)
            spm_models.append(m.getvalue())
            n += hf_seeds.write_seed(OUT, "spm_model", m.getvalue())
        os.chdir(cwd)
except ImportError:
    pass
print(f"spm_model: {n} seeds")

tc = {"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": {"content": "</s>", "lstrip": False},
      "unk_token": "<unk>", "pad_token": None, "model_max_length": 1000000000000000019884624838656,
      "chat_template": "{% for m in messages %}{{ m['content'] }}{% endfor %}",
      "added_tokens_decoder": {"1": {"content": "<s>", "special": True}, "2": {"content": "</s>", "special": True},
                               "70": {"content": "<|im_start|>", "special": False}, "71": {"content": "\u2581x", "special": False}}}
tc_list = dict(tc, chat_template=[{"name": "default", "template": "{{ x }}"}, {"name": "tool_use", "template": "{{ y }}"}])
cfg = json.dumps(configs[0]).encode()
tj0 = open(os.path.join(OUT, "hf_tokenizer", sorted(os.listdir(os.path.join(OUT, "hf_tokenizer")))[0]), "rb").read()
n = 0
for files in (
        {"tokenizer_config.json": json.dumps(tc).encode(), "config.json": cfg, "tokenizer.json": tj0},
        {"tokenizer_config.json": json.dumps(tc_list).encode(), "tokenizer.json": tj0,
         "added_tokens.json": b'{"<extra>": 72, "<neg>": -1}', "chat_template.jinja": b"{{ bos_token }}\r\n"},
        {"tokenizer_config.json": json.dumps(tc).encode(), "config.json": cfg,
         "tokenizer.model": spm_models[0] if spm_models else b""},
        {"config.json": cfg, "tokenizer.json": tj0, "tokenizer.model": spm_models[1] if len(spm_models) > 1 else b"",
         "added_tokens.json": b'{"<extra>": 60}'},
):
    n += hf_seeds.write_seed(OUT, "hf_vocab", hf_seeds.vocab_folder(files))
print(f"hf_vocab: {n} seeds")
