#!/usr/bin/python3
"""Tiny Hugging Face folders for the architectures the shared hf-gguf fixtures
lack, and what llama.cpp's convert_hf_to_gguf.py writes for them:
tests/core/hf_arch_reference.json (per case: every non-tokenizer KV of the
--outtype f32 file in file order with its type and raw little-endian value,
every tensor's name, type, ne — the shape of the shared manifest's "gguf"
objects; and "sha256": the whole file
per --outtype f32 / bf16 / q8_0).

  hf_arch_models.py OUT --shared SHARED_FIXTURES [--inputs-only]
      [--llama-cpp /work/ref/llama.cpp --shim /work/ref/hf_shim] [--write-reference FILE]
      [--cases A,B]   (convert only these; the reference keeps the other cases;
                       with --inputs-only: write only these folders)

--inputs-only writes the folders only (test_arch_table and test_cli_hf_gguf do
this at test time: the JSON holds the converter's answer). Cases and configs:
qwen2 with q/k/v biases, qwen3moe, phi3 with longrope, gpt2 (F32 weights);
gemma2 (an lm_head the converter drops; also stored F16: norms + 1 in F16), gemma3 (SentencePiece) and gemma3
without tokenizer.model (BPE: embedding cut to the tokenizer), granite (with a
head_dim it ignores), OLMo 2, OLMo 3 (4 layers, sliding-window layer_types),
Ministral3ForCausalLM (yarn rope_parameters) and Mistral-Small-3.1's
Mistral3ForConditionalGeneration (text_config, vision tensors dropped),
DeepSeek-V3 (MLA with q_lora_rank, dense + MoE layer, shared expert, sigmoid
router with its correction bias, an MTP layer the converter skips) and
DeepSeek-V2-Lite (27 layers as the real one: llama.cpp tells the Lite model by
that count), gpt-oss-20b (MXFP4 experts: seeded U8 blocks and E8M0 scales
2^-6 … 2^2) and its BF16 form (experts [E, in, out]), Hunyuan-7B-Instruct (NTK-alpha
"dynamic" RoPE, eod_token_id, a generation_config.json whose eos list gives eot;
GENERATION_CONFIGS) — BF16 weights, config.json the real model's with dimensions shrunk.

Tokenizers are copied from the shared fixtures at generation time and never
committed (none of the real ones of these models is at hand; the nearest kind
is used): Qwen3's tokenizer.json for qwen2/qwen3moe, gpt2, the BPE gemma3
case and DeepSeek-V3; Llama 2's tokenizer.model for phi3, and with its tokenizer_config.json
and special_tokens_map.json for gemma2/gemma3 (Gemma's are SentencePiece
models of 256k pieces); Llama 3's tokenizer.json (a tiktoken-style BPE like
Granite's, OLMo's dolma2, Mistral's tekken and DeepSeek's) for granite,
olmo2/olmo3, Ministral 3, DeepSeek-V2-Lite and gpt-oss (o200k); Mistral v0.1's tokenizer.model (the Mixtral fixture's) for
Mistral Small 3.1. vocab_size follows the tokenizer. Conventions of the shared
fixtures: hidden 32, 2 layers, 4 heads, intermediate 64, weights 0.02·N(0,1)
(norms 1 + …), numpy RandomState seeded from sha256("<case>/<tensor>"),
BF16 by round-to-nearest-even.

BAAI/bge-small-en-v1.5 (BertModel, sentence-transformers CLS pooling) gets a real
WordPiece tokenizer: the committed bert-base-uncased vocab.txt (tests/core/data,
Apache-2.0) as tokenizer.json (hf_arch_embed.py), F32 weights; so does nomic-embed-text-v1.5
(NomicBertModel: fused Wqkv, SwiGLU, rotary; vocab_size 30528 over the 30522 tokens, mean pooling).
nomic-ai/modernbert-embed-base (ModernBertModel, 3 layers: one global, two sliding-window) has Qwen3's
tokenizer.json in place of ModernBERT's BPE one (not at hand), vocab_size following it, mean pooling.
BAAI/bge-m3 (XLMRobertaModel, CLS pooling) has a real tiny Unigram sentencepiece.bpe.model trained here
(tests/core/data/xlmr-unigram, with its tokenizer.json built from it), vocab_size its pieces + 2 as XLM-R's;
BAAI/bge-reranker-v2-m3 (XLMRobertaForSequenceClassification: roberta. prefixes, classifier.dense/out_proj, one
label, no pooling files) the same. cross-encoder/ms-marco-MiniLM-L-6-v2 (BertForSequenceClassification: bert.
prefixes, one label, no pooling files) has bert-base-uncased's vocabulary as bge-small's. (A classifier with
AutoConfig's default LABEL_0/LABEL_1 pair has no case: the shim's converter reads config.json's string keys, and
BertModel.__init__'s `cls_out_labels[0]` raises KeyError there, where transformers' AutoConfig gives int keys.)

EleutherAI/pythia-70m (GPTNeoXForCausalLM, F16), gpt_bigcode-santacoder (GPTBigCodeForCausalLM, F32),
OLMo-1.7-7B-hf (OlmoForCausalLM) and bloom-560m (BloomForCausalLM, F16) have Qwen3's tokenizer.json (their
own BPE tokenizers are not at hand); MiniCPM-2B-sft-bf16 (MiniCPMForCausalLM) Llama 2's SentencePiece files and
internlm2-chat-1_8b (InternLM2ForCausalLM) Llama 2's tokenizer.model with InternLM3's tokenizer_config.json
(a special <|im_end|>), vocab_size 32000 following them. Baichuan (BaichuanForCausalLM) has no case: the
converter at 34af94c recurses without end on it (BaichuanModel.modify_tensors calls itself for every tensor
but W_pack: RecursionError), so there is no file to be identical to.

The cases (config.json, tensor shapes, tokenizer, dtype per model) are in
hf_arch_dense.py, hf_arch_moe.py, hf_arch_embed.py and hf_arch_classic.py; this script writes their folders and
records the converter's answer.
"""
import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

from hf_arch_dense import (GENERATION_CONFIGS, GLM_SPECIALS, arcee, cohere2, command_r, ernie4_5, exaone, exaone4, falcon40b, falcon7b,
    gemma, gemma2, gemma2_f16, gemma3, gemma3_bpe, gemma3_mm, glm4, gpt2, granite, hunyuan_dense, internlm3, lfm2, ministral3,
    mistral_small3, olmo2, olmo3, phi2, phi3, qwen2, qwen2_5_vl, qwen3_vl, seed_oss, smollm3, stablelm, starcoder2)
from hf_arch_classic import bloom, gptneox, internlm2, minicpm, olmo, starcoder
from hf_arch_embed import (bge_m3, bge_reranker_v2_m3, bge_small, distilroberta, ms_marco_minilm, modernbert_embed, nomic_embed,
    stsb_roberta, write_pooling, write_side_files, write_xlmr_side_files)
from hf_arch_ssm import a_log, falcon_mamba, mamba, mamba2, qwen3_next
from hf_arch_moe import (deepseek_v2_lite, deepseek_v3, ernie4_5_moe, glm4moe, gpt_oss, gpt_oss_bf16, granitemoe,
    llama4, minimax_m2, olmoe, qwen2moe, qwen3_vl_moe, qwen3moe)


def rand(case, name, shape, norm=False):
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    v = np.random.RandomState(seed).standard_normal(shape) * 0.02
    return (v + 1.0 if norm else v).astype(np.float32)


def rand_u8(case, name, shape):
    """MXFP4 payloads, seeded as rand(): `_blocks` any byte (two E2M1 codes), `_scales` E8M0 exponents 2^-6 … 2^2."""
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    r = np.random.RandomState(seed)
    return (r.randint(0, 256, shape) if name.endswith("_blocks") else r.randint(121, 130, shape)).astype(np.uint8)


def to_bf16_bytes(a):
    """f32 → BF16 by round-to-nearest-even (as torch's .to(torch.bfloat16); no NaN here)."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).tobytes()


def write_safetensors(path, tensors, dtype="F32"):
    header, off, blobs = {}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        dt = "U8" if a.dtype == np.uint8 else dtype  # MXFP4 blocks/scales
        b = to_bf16_bytes(a) if dt == "BF16" else a.astype(np.float16).tobytes() if dt == "F16" else a.tobytes()
        header[name] = {"dtype": dt, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def patch_glm_tokenizer(d):
    """GLM's added tokens (<|user|>, [gMASK], <|observation|>, whose ids its set_vocab looks up) over Qwen3's
    tokenizer.json and tokenizer_config.json (ids past Qwen3's last added token)."""
    p = os.path.join(d, "tokenizer.json")
    with open(p, encoding="utf-8") as f:
        tj = json.load(f)
    for i, c in GLM_SPECIALS.items():
        tj["added_tokens"].append({"id": i, "content": c, "single_word": False, "lstrip": False, "rstrip": False,
                                   "normalized": False, "special": True})
    with open(p, "w", encoding="utf-8") as f:
        json.dump(tj, f, ensure_ascii=False)
    p = os.path.join(d, "tokenizer_config.json")
    with open(p, encoding="utf-8") as f:
        tc = json.load(f)
    for i, c in GLM_SPECIALS.items():
        tc["added_tokens_decoder"][str(i)] = {"content": c, "lstrip": False, "normalized": False, "rstrip": False,
                                              "single_word": False, "special": True}
    with open(p, "w", encoding="utf-8") as f:
        json.dump(tc, f, indent=2, ensure_ascii=False)


def patch_tokenizer_config(d, tok):
    """The tokenizer_config.json shapes of InternLM3 (add_prefix_space false, a special <|im_end|>, id 31999
    here) and ERNIE 4.5 (add_prefix_space false) over the copied Llama 2 one."""
    p = os.path.join(d, "tokenizer_config.json")
    with open(p) as f:
        tc = json.load(f)
    tc["add_prefix_space"] = False
    if tok == "llama2-internlm3":
        tc.setdefault("added_tokens_decoder", {})["31999"] = {"content": "<|im_end|>", "lstrip": False, "normalized": False,
                                                              "rstrip": False, "single_word": False, "special": True}
    with open(p, "w") as f:
        json.dump(tc, f, indent=2)


def patch_roberta_tokenizer(d):
    """Qwen3's tokenizer_config.json standing in for RoBERTa's, without its pad_token (<|endoftext|>): the converter's
    SpecialVocab then takes config.json's pad_token_id, 1 as RoBERTa's <pad> — the id whose position rows
    (pad_token_id + 1 of them) the converter cuts and the way back restores."""
    p = os.path.join(d, "tokenizer_config.json")
    with open(p) as f:
        tc = json.load(f)
    del tc["pad_token"]
    with open(p, "w") as f:
        json.dump(tc, f, indent=2)


CASES = {"Qwen2.5-0.5B": qwen2, "Qwen3-30B-A3B": qwen3moe, "Phi-3-mini-128k-instruct": phi3, "gpt2": gpt2,
         "gemma-2-2b-it": gemma2, "gemma-2-2b-it-f16": gemma2_f16, "gemma-3-1b-it": gemma3, "gemma-3-1b-bpe": gemma3_bpe,
         "granite-3.3-2b-instruct": granite, "OLMo-2-1124-7B-Instruct": olmo2, "Olmo-3-7B-Instruct": olmo3,
         "Ministral-3-3B-Instruct-2512": ministral3, "Mistral-Small-3.1-24B-Instruct-2503": mistral_small3,
         "DeepSeek-V3": deepseek_v3, "DeepSeek-V2-Lite": deepseek_v2_lite,
         "gpt-oss-20b": gpt_oss, "gpt-oss-20b-BF16": gpt_oss_bf16,
         "gemma-3-4b-it": gemma3_mm, "SmolLM3-3B": smollm3, "AFM-4.5B": arcee, "Seed-OSS-36B-Instruct": seed_oss,
         "starcoder2-3b": starcoder2, "Qwen1.5-MoE-A2.7B": qwen2moe, "OLMoE-1B-7B-0924-Instruct": olmoe,
         "gemma-2b": gemma, "EXAONE-3.5-2.4B-Instruct": exaone, "EXAONE-4.0-32B": exaone4,
         "c4ai-command-r-plus": command_r, "c4ai-command-r7b-12-2024": cohere2, "stablelm-2-1_6b": stablelm,
         "Qwen2.5-VL-3B-Instruct": qwen2_5_vl, "Qwen3-VL-4B-Instruct": qwen3_vl, "phi-2": phi2,
         "internlm3-8b-instruct": internlm3, "MiniMax-M2": minimax_m2, "ERNIE-4.5-0.3B": ernie4_5,
         "granite-3.1-3b-a800m-instruct": granitemoe, "GLM-4-9B-0414": glm4, "GLM-4.5-Air": glm4moe,
         "falcon-7b": falcon7b, "falcon-40b": falcon40b, "ERNIE-4.5-21B-A3B": ernie4_5_moe,
         "Llama-4-Maverick-17B-128E-Instruct": llama4,
         "Qwen3-VL-30B-A3B-Instruct": qwen3_vl_moe,
         "LFM2-350M": lfm2, "Hunyuan-7B-Instruct": hunyuan_dense, "bge-small-en-v1.5": bge_small,
         "nomic-embed-text-v1.5": nomic_embed, "modernbert-embed-base": modernbert_embed, "pythia-70m": gptneox,
         "gpt_bigcode-santacoder": starcoder, "OLMo-1.7-7B-hf": olmo,
         "bloom-560m": bloom, "MiniCPM-2B-sft-bf16": minicpm,
         "internlm2-chat-1_8b": internlm2, "bge-m3": bge_m3,
         "bge-reranker-v2-m3": bge_reranker_v2_m3, "ms-marco-MiniLM-L-6-v2": ms_marco_minilm,
         "mamba-130m-hf": mamba, "falcon-mamba-7b": falcon_mamba, "mamba2-130m": mamba2,
         "Qwen3-Next-80B-A3B-Instruct": qwen3_next,
         "all-distilroberta-v1": distilroberta, "stsb-roberta-base": stsb_roberta}
# Every case is checked as whole files at these outtypes (the first four were recorded as key/values
# and tensors only until issue 32 recorded their files too).
WHOLE_FILE_OUTTYPES = ["f32", "bf16", "q8_0"]
# Cases also checked at these outtypes (the issue asked F16 of them); words after the outtype are more
# converter options (amn's of the same name): Qwen3-Next with --no-mtp.
EXTRA_OUTTYPES = {"bge-m3": ["f16"], "bge-reranker-v2-m3": ["f16"], "mamba-130m-hf": ["f16"], "falcon-mamba-7b": ["f16"], "mamba2-130m": ["f16"],
                  "Qwen3-Next-80B-A3B-Instruct": ["f16", "f32 --no-mtp", "bf16 --no-mtp"]}
TOKENIZERS = {
    "qwen3": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "qwen3-glm": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "qwen3-mean": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "qwen3-roberta": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "qwen3-roberta-mean": ("Qwen3-0.6B", ["tokenizer.json", "tokenizer_config.json"]),
    "llama2": ("Llama-2-7b-hf", ["tokenizer.model"]),
    "llama2-spm": ("Llama-2-7b-hf", ["tokenizer.model", "tokenizer_config.json", "special_tokens_map.json"]),
    "llama2-internlm3": ("Llama-2-7b-hf", ["tokenizer.model", "tokenizer_config.json"]),
    "llama2-ernie": ("Llama-2-7b-hf", ["tokenizer.model", "tokenizer_config.json"]),
    "mistral-spm": ("Mixtral-8x7B-v0.1", ["tokenizer.model", "tokenizer_config.json"]),
    "llama3": ("Meta-Llama-3-8B-Instruct", ["tokenizer.json", "tokenizer_config.json"]),
}


def make_inputs_for(out, shared, case, cfg, shapes, tok, dtype="F32"):
    """One case's folder: config.json, model.safetensors (seeded), generation_config.json, the tokenizer."""
    d = os.path.join(out, case)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    write_safetensors(os.path.join(d, "model.safetensors"),
                      {n: rand_u8(case, n, s) if n.endswith(("_blocks", "_scales")) else a_log(case, n, s) if n.endswith(".A_log") else
                       rand(case, n, s, norm=("norm" in n or "ln_" in n or "emb_ln" in n or "LayerNorm" in n) and n.endswith("weight"))
                       for n, s in shapes.items()},
                      dtype)
    if case in GENERATION_CONFIGS:
        with open(os.path.join(d, "generation_config.json"), "w") as f:
            json.dump(GENERATION_CONFIGS[case], f, indent=2)
    if tok.startswith("bert-"):
        write_side_files(d, tok)
    elif tok in ("xlmr-cls", "xlmr"):
        write_xlmr_side_files(d, tok == "xlmr-cls")
    elif shared:
        src_case, files = TOKENIZERS[tok]
        for fn_ in files:
            shutil.copy(os.path.join(shared, "hf-gguf", "inputs", src_case, fn_), d)
        if tok in ("llama2-internlm3", "llama2-ernie"):
            patch_tokenizer_config(d, tok)
        if tok == "qwen3-glm":
            patch_glm_tokenizer(d)
        if tok.startswith("qwen3-roberta"):  # pad from config.json's pad_token_id (1), as RoBERTa's <pad>
            patch_roberta_tokenizer(d)
        if tok in ("qwen3-mean", "qwen3-roberta-mean"):  # an embedding model's sentence-transformers mean pooling
            write_pooling(d, False)


def make_inputs(out, shared, only=None):
    for case, fn in CASES.items():
        if only and case not in only:
            continue
        cfg, shapes, tok, *dtype = fn(case)
        make_inputs_for(out, shared, case, cfg, shapes, tok, dtype[0] if dtype else "F32")


TYPE_NAMES = {4: "UINT32", 5: "INT32", 6: "FLOAT32", 7: "BOOL", 8: "STRING", 9: "ARRAY"}


def read_gguf(path, llama_cpp):
    sys.path.insert(0, os.path.join(llama_cpp, "gguf-py"))
    from gguf import GGUFReader
    r = GGUFReader(path)
    kvs = []
    for f in r.fields.values():
        if f.name.startswith("tokenizer.") or f.name.startswith("GGUF."):
            continue
        t = f.types[0].value
        e = {"key": f.name, "type": TYPE_NAMES.get(t, str(t))}
        if t == 8:
            e["value"] = bytes(f.parts[f.data[0]]).decode()
        elif t == 9:
            e["value"] = [bytes(f.parts[i]).decode() if f.types[1].value == 8 else f.parts[i].tolist()[0] for i in f.data]
        else:
            e["raw"] = bytes(f.parts[f.data[0]]).hex()
        kvs.append(e)
    tensors = [{"name": t.name, "type": t.tensor_type.name, "ne": [int(x) for x in t.shape]} for t in r.tensors]
    return {"kv": kvs, "tensors": tensors}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shared")
    ap.add_argument("--inputs-only", action="store_true")
    ap.add_argument("--llama-cpp", default="/work/ref/llama.cpp")
    ap.add_argument("--shim", default="/work/ref/hf_shim")
    ap.add_argument("--write-reference")
    ap.add_argument("--cases", help="comma-separated case names to (re)convert; the reference keeps the others")
    a = ap.parse_args()
    if a.inputs_only:  # --cases: only these folders
        make_inputs(a.out, a.shared, a.cases.split(",") if a.cases else None)
        return
    make_inputs(a.out, a.shared, a.cases.split(",") if a.cases else None)
    ref = {"generator": "tests/core/hf_arch_models.py", "llama_cpp_commit": "34af94cd9ab2", "outtype": "f32",
           "notes": "gpt2 uses Qwen3's tokenizer.json (pre 'qwen2'): no GPT-2 tokenizer file was at hand; "
                    "the architecture KVs and tensors do not depend on it. Cases with 'sha256': the whole file "
                    "the converter wrote per --outtype.", "cases": {}}
    if a.write_reference and os.path.exists(a.write_reference):
        with open(a.write_reference) as f:
            ref["cases"] = json.load(f)["cases"]
    todo = a.cases.split(",") if a.cases else list(CASES)
    for case in todo:
        whole = True
        entry = {}
        for outtype in (WHOLE_FILE_OUTTYPES + EXTRA_OUTTYPES.get(case, [])) if whole else ["f32"]:
            outf = os.path.join(a.out, f"{case}.{outtype.upper().replace(' ', '')}.gguf")
            subprocess.run([sys.executable, os.path.join(a.shim, "run_convert.py"), a.llama_cpp, case, "--outtype"] + outtype.split() +
                           ["--outfile", outf], cwd=a.out, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if outtype == "f32":
                entry = read_gguf(outf, a.llama_cpp)
            if whole:
                with open(outf, "rb") as f:
                    entry.setdefault("sha256", {})[outtype] = hashlib.sha256(f.read()).hexdigest()
        ref["cases"][case] = entry
    ref["cases"] = {c: ref["cases"][c] for c in CASES if c in ref["cases"]}
    if a.write_reference:
        with open(a.write_reference, "w") as f:
            json.dump(ref, f, indent=1)
            f.write("\n")

if __name__ == "__main__":
    main()
