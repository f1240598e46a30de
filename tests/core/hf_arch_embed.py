#!/usr/bin/python3
"""The embedding-model cases of hf_arch_models.py (conversion/bert.py): per case, config.json (the
real model's with its dimensions shrunk), the tensor shapes of its safetensors, its tokenizer and the
stored dtype; and the side files those folders need (write_side_files): a tokenizer.json derived
from the committed bert-base-uncased vocab.txt (tests/core/data/bert-base-uncased, Apache-2.0) in the
form transformers' BertTokenizerFast saves, tokenizer_config.json / special_tokens_map.json as
BAAI/bge-small-en-v1.5 has them, and sentence-transformers' modules.json + 1_Pooling/config.json."""
import base64
import json
import os
import shutil
import struct

H, L, NH, FF = 32, 2, 4, 64
HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB = os.path.join(HERE, "data", "bert-base-uncased", "vocab.txt")
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
XLMR_SPM = os.path.join(HERE, "data", "xlmr-unigram", "sentencepiece.bpe.model")


def bert_layer_tensors(t, prefix):
    for i in range(L):
        p = f"{prefix}encoder.layer.{i}."
        for n, rows, cols in [("attention.self.query", H, H), ("attention.self.key", H, H), ("attention.self.value", H, H),
                              ("attention.output.dense", H, H), ("intermediate.dense", FF, H), ("output.dense", H, FF)]:
            t[p + n + ".weight"] = (rows, cols)
            t[p + n + ".bias"] = (rows,)
        for n in ("attention.output.LayerNorm", "output.LayerNorm"):
            t[p + n + ".weight"] = (H,)
            t[p + n + ".bias"] = (H,)


def bge_small(case):
    """BAAI/bge-small-en-v1.5 (BertModel, CLS pooling, id2label with one label), shrunk."""
    cfg = {"_name_or_path": "/root/.cache/torch/sentence_transformers/BAAI_bge-small-en/", "architectures": ["BertModel"],
           "attention_probs_dropout_prob": 0.1, "classifier_dropout": None, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
           "hidden_size": H, "id2label": {"0": "LABEL_0"}, "initializer_range": 0.02, "intermediate_size": FF,
           "label2id": {"LABEL_0": 0}, "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert",
           "num_attention_heads": NH, "num_hidden_layers": L, "pad_token_id": 0, "position_embedding_type": "absolute",
           "torch_dtype": "float32", "transformers_version": "4.30.0", "type_vocab_size": 2, "use_cache": True,
           "vocab_size": 30522}
    t = {"embeddings.word_embeddings.weight": (30522, H), "embeddings.position_embeddings.weight": (512, H),
         "embeddings.token_type_embeddings.weight": (2, H), "embeddings.LayerNorm.weight": (H,),
         "embeddings.LayerNorm.bias": (H,), "pooler.dense.weight": (H, H), "pooler.dense.bias": (H,)}
    bert_layer_tensors(t, "")
    return cfg, t, "bert-cls"


def ms_marco_minilm(case):
    """cross-encoder/ms-marco-MiniLM-L-6-v2 (BertForSequenceClassification, a reranker: `bert.` prefixes, the pooler,
    one label — its classifier becomes cls.output —, no sentence-transformers pooling files), shrunk."""
    labels = {"0": "LABEL_0"}
    cfg = {"_name_or_path": "nreimers/MiniLM-L6-H384-uncased", "architectures": ["BertForSequenceClassification"],
           "attention_probs_dropout_prob": 0.1, "classifier_dropout": None, "gradient_checkpointing": False,
           "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": H, "id2label": labels,
           "initializer_range": 0.02, "intermediate_size": FF, "label2id": {v: int(k) for k, v in labels.items()},
           "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert", "num_attention_heads": NH,
           "num_hidden_layers": L, "pad_token_id": 0, "position_embedding_type": "absolute",
           "sbert_ce_default_activation_function": "torch.nn.modules.linear.Identity", "torch_dtype": "float32",
           "transformers_version": "4.39.3", "type_vocab_size": 2, "use_cache": True, "vocab_size": 30522}
    t = {"bert.embeddings.word_embeddings.weight": (30522, H), "bert.embeddings.position_embeddings.weight": (512, H),
         "bert.embeddings.token_type_embeddings.weight": (2, H), "bert.embeddings.LayerNorm.weight": (H,),
         "bert.embeddings.LayerNorm.bias": (H,), "bert.pooler.dense.weight": (H, H), "bert.pooler.dense.bias": (H,),
         "classifier.weight": (len(labels), H), "classifier.bias": (len(labels),)}
    bert_layer_tensors(t, "bert.")
    return cfg, t, "bert-rank"


def nomic_embed(case):
    """nomic-ai/nomic-embed-text-v1.5 (NomicBertModel, remote code: fused Wqkv, rotary, SwiGLU fc11/fc12/fc2, no
    biases, post-norm; n_positions 8192 trained for 2048; vocab_size padded to 30528, a multiple of 64, over
    bert-base-uncased's 30522 tokens; sentence-transformers mean pooling), shrunk."""
    cfg = {"_name_or_path": "nomic-ai/nomic-bert-2048", "activation_function": "swiglu", "architectures": ["NomicBertModel"],
           "attn_pdrop": 0.0,
           "auto_map": {"AutoConfig": "nomic-ai/nomic-bert-2048--configuration_hf_nomic_bert.NomicBertConfig",
                        "AutoModel": "nomic-ai/nomic-bert-2048--modeling_hf_nomic_bert.NomicBertModel",
                        "AutoModelForMaskedLM": "nomic-ai/nomic-bert-2048--modeling_hf_nomic_bert.NomicBertForPreTraining"},
           "bos_token_id": None, "causal": False, "dense_seq_output": True, "embd_pdrop": 0.0, "eos_token_id": None,
           "fused_bias_fc": True, "fused_dropout_add_ln": True, "initializer_range": 0.02, "layer_norm_epsilon": 1e-12,
           "max_trained_positions": 2048, "mlp_fc1_bias": False, "mlp_fc2_bias": False, "model_type": "nomic_bert",
           "n_embd": H, "n_head": NH, "n_inner": FF, "n_layer": L, "n_positions": 8192, "pad_vocab_size_multiple": 64,
           "parallel_block": False, "parallel_block_tied_norm": False, "prenorm": False, "qkv_proj_bias": False,
           "reorder_and_upcast_attn": False, "resid_pdrop": 0.0, "rotary_emb_base": 1000, "rotary_emb_fraction": 1.0,
           "rotary_emb_interleaved": False, "rotary_emb_scale_base": None, "rotary_scaling_factor": None,
           "scale_attn_by_inverse_layer_idx": False, "scale_attn_weights": True, "summary_activation": None,
           "summary_first_dropout": 0.0, "summary_proj_to_labels": True, "summary_type": "cls_index",
           "summary_use_proj": True, "torch_dtype": "float32", "transformers_version": "4.34.0", "type_vocab_size": 2,
           "use_cache": True, "use_flash_attn": True, "use_rms_norm": False, "use_xentropy": True, "vocab_size": 30528}
    t = {"embeddings.word_embeddings.weight": (30528, H), "embeddings.token_type_embeddings.weight": (2, H),
         "emb_ln.weight": (H,), "emb_ln.bias": (H,)}
    for i in range(L):
        p = f"encoder.layers.{i}."
        t[p + "attn.Wqkv.weight"] = (3 * H, H)
        t[p + "attn.out_proj.weight"] = (H, H)
        t[p + "mlp.fc11.weight"] = (FF, H)
        t[p + "mlp.fc12.weight"] = (FF, H)
        t[p + "mlp.fc2.weight"] = (H, FF)
        for n in ("norm1", "norm2"):
            t[p + n + ".weight"] = (H,)
            t[p + n + ".bias"] = (H,)
    return cfg, t, "bert-mean"


def modernbert_embed(case):
    """nomic-ai/modernbert-embed-base (ModernBertModel over answerdotai/ModernBERT-base: fused Wqkv, GeGLU Wi, no
    biases, no norm biases, layer 0 without attn_norm, global attention every 3rd layer and a 128-token window
    between, sentence-transformers mean pooling), shrunk to 3 layers. Its BPE tokenizer (the "modern-bert" hash) is
    not at hand: Qwen3's tokenizer.json stands in (the converter knows its hash), vocab_size following it."""
    cfg = {"_name_or_path": "answerdotai/ModernBERT-base", "architectures": ["ModernBertModel"], "attention_bias": False,
           "attention_dropout": 0.0, "bos_token_id": 50281, "classifier_activation": "gelu", "classifier_bias": False,
           "classifier_dropout": 0.0, "classifier_pooling": "mean", "cls_token_id": 50281, "decoder_bias": True,
           "deterministic_flash_attn": False, "embedding_dropout": 0.0, "eos_token_id": 50282,
           "global_attn_every_n_layers": 3, "global_rope_theta": 160000.0, "gradient_checkpointing": False,
           "hidden_activation": "gelu", "hidden_size": H, "initializer_cutoff_factor": 2.0, "initializer_range": 0.02,
           "intermediate_size": FF, "layer_norm_eps": 1e-05, "local_attention": 128, "local_rope_theta": 10000.0,
           "max_position_embeddings": 8192, "mlp_bias": False, "mlp_dropout": 0.0, "model_type": "modernbert",
           "norm_bias": False, "norm_eps": 1e-05, "num_attention_heads": NH, "num_hidden_layers": 3, "pad_token_id": 50283,
           "position_embedding_type": "absolute", "reference_compile": False, "sep_token_id": 50282,
           "sparse_pred_ignore_index": -100, "sparse_prediction": False, "torch_dtype": "float32",
           "transformers_version": "4.48.0", "vocab_size": 151936}
    t = {"embeddings.tok_embeddings.weight": (151936, H), "embeddings.norm.weight": (H,), "final_norm.weight": (H,)}
    for i in range(3):
        p = f"layers.{i}."
        if i:
            t[p + "attn_norm.weight"] = (H,)
        t[p + "attn.Wqkv.weight"] = (3 * H, H)
        t[p + "attn.Wo.weight"] = (H, H)
        t[p + "mlp_norm.weight"] = (H,)
        t[p + "mlp.Wi.weight"] = (2 * FF, H)
        t[p + "mlp.Wo.weight"] = (H, FF)
    return cfg, t, "qwen3-mean"


def bge_m3(case):
    """BAAI/bge-m3 (XLMRobertaModel: BERT's tensors, position rows from pad_token_id + 1, one token type, CLS pooling)
    shrunk, with max_position_embeddings 514 (xlm-roberta-base's) for its 8194. Its tokenizer is the committed tiny
    Unigram model (tests/core/data/xlmr-unigram) as XLM-R's sentencepiece.bpe.model: vocab_size its 177 pieces + 2
    as XLM-R's 250000 + 2 (fairseq's extra <pad> and the <mask> at the end)."""
    n_vocab = len(spm_pieces(XLMR_SPM)[0]) + 2
    cfg = {"_name_or_path": "", "architectures": ["XLMRobertaModel"], "attention_probs_dropout_prob": 0.1, "bos_token_id": 0,
           "classifier_dropout": None, "eos_token_id": 2, "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "layer_norm_eps": 1e-05, "max_position_embeddings": 514,
           "model_type": "xlm-roberta", "num_attention_heads": NH, "num_hidden_layers": L, "output_past": True,
           "pad_token_id": 1, "position_embedding_type": "absolute", "torch_dtype": "float32",
           "transformers_version": "4.33.0", "type_vocab_size": 1, "use_cache": True, "vocab_size": n_vocab}
    t = {"embeddings.word_embeddings.weight": (n_vocab, H), "embeddings.position_embeddings.weight": (514, H),
         "embeddings.token_type_embeddings.weight": (1, H), "embeddings.LayerNorm.weight": (H,),
         "embeddings.LayerNorm.bias": (H,), "pooler.dense.weight": (H, H), "pooler.dense.bias": (H,)}
    bert_layer_tensors(t, "")
    return cfg, t, "xlmr-cls"


def bge_reranker_v2_m3(case):
    """BAAI/bge-reranker-v2-m3 (XLMRobertaForSequenceClassification: `roberta.` prefixes, no pooler, the
    classification head classifier.dense + classifier.out_proj with one label) shrunk as bge_m3, no sentence-transformers
    pooling, the same tokenizer."""
    cfg, t, tok = bge_m3(case)
    cfg = dict(cfg, architectures=["XLMRobertaForSequenceClassification"], id2label={"0": "LABEL_0"}, label2id={"LABEL_0": 0})
    t = {"roberta." + n: s for n, s in t.items() if not n.startswith("pooler.")}
    t.update({"classifier.dense.weight": (H, H), "classifier.dense.bias": (H,), "classifier.out_proj.weight": (1, H),
              "classifier.out_proj.bias": (1,)})
    return cfg, t, "xlmr"


def distilroberta(case):
    """sentence-transformers/all-distilroberta-v1 (RobertaModel: BERT's tensors, position rows from pad_token_id + 1,
    one token type, mean pooling), shrunk. RoBERTa's BPE tokenizer (the "roberta-bpe" hash) is not at hand: Qwen3's
    tokenizer.json stands in (the converter knows its hash), vocab_size following it, its tokenizer_config.json
    without a pad_token (patch_roberta_tokenizer: the padding id is config.json's 1, as RoBERTa's)."""
    V = 151936
    cfg = {"_name_or_path": "distilroberta-base", "architectures": ["RobertaModel"], "attention_probs_dropout_prob": 0.1,
           "bos_token_id": 0, "classifier_dropout": None, "eos_token_id": 2, "gradient_checkpointing": False,
           "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "layer_norm_eps": 1e-05, "max_position_embeddings": 514, "model_type": "roberta",
           "num_attention_heads": NH, "num_hidden_layers": L, "pad_token_id": 1, "position_embedding_type": "absolute",
           "torch_dtype": "float32", "transformers_version": "4.8.2", "type_vocab_size": 1, "use_cache": True,
           "vocab_size": V}
    t = {"embeddings.word_embeddings.weight": (V, H), "embeddings.position_embeddings.weight": (514, H),
         "embeddings.token_type_embeddings.weight": (1, H), "embeddings.LayerNorm.weight": (H,),
         "embeddings.LayerNorm.bias": (H,), "pooler.dense.weight": (H, H), "pooler.dense.bias": (H,)}
    bert_layer_tensors(t, "")
    return cfg, t, "qwen3-roberta-mean"


def stsb_roberta(case):
    """cross-encoder/stsb-roberta-base (RobertaForSequenceClassification, a cross-encoder: `roberta.` prefixes, no
    pooler, classifier.dense + classifier.out_proj with one label, no sentence-transformers pooling files), shrunk as
    distilroberta, the same stand-in tokenizer."""
    cfg, t, _ = distilroberta(case)
    cfg = dict(cfg, _name_or_path="roberta-base", architectures=["RobertaForSequenceClassification"],
               id2label={"0": "LABEL_0"}, label2id={"LABEL_0": 0})
    t = {"roberta." + n: s for n, s in t.items() if not n.startswith("pooler.")}
    t.update({"classifier.dense.weight": (H, H), "classifier.dense.bias": (H,), "classifier.out_proj.weight": (1, H),
              "classifier.out_proj.bias": (1,)})
    return cfg, t, "qwen3-roberta"


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def _fields(b):
    """(field, wire, value) of one protobuf message (value: int, or bytes for length-delimited, 4 bytes for fixed32)."""
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        wire = key & 7
        if wire == 0:
            v, i = _varint(b, i)
        elif wire == 2:
            n, i = _varint(b, i)
            v, i = b[i:i + n], i + n
        elif wire == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("unexpected wire type")
        yield key >> 3, wire, v


def spm_pieces(path):
    """The (piece, score) list and normalizer_spec.precompiled_charsmap of a SentencePiece ModelProto (sentencepiece_model.proto:
    pieces = 1 {piece 1, score 2}, normalizer_spec = 3 {precompiled_charsmap 2})."""
    with open(path, "rb") as f:
        b = f.read()
    pieces, charsmap = [], b""
    for field, _, v in _fields(b):
        if field == 1:
            d = {k: x for k, _, x in _fields(v)}
            pieces.append((d[1].decode("utf-8"), struct.unpack("<f", d[2])[0] if 2 in d else 0.0))
        elif field == 3:
            charsmap = {k: x for k, _, x in _fields(v)}.get(2, charsmap)
    return pieces, charsmap


def write_xlmr_side_files(d, pooling=True):
    """XLM-R's tokenizer files in `d` as transformers' XLMRobertaTokenizerFast saves them: sentencepiece.bpe.model,
    tokenizer.json (the Unigram vocabulary with fairseq's ids: <s> <pad> </s> <unk>, the model's pieces from id 3
    shifted by one, <mask> last; Precompiled + Replace normalizer, Metaspace, TemplateProcessing <s> A </s> [</s> B </s>]),
    tokenizer_config.json, special_tokens_map.json, and (`pooling`) sentence-transformers' CLS pooling."""
    shutil.copy(XLMR_SPM, os.path.join(d, "sentencepiece.bpe.model"))
    pieces, charsmap = spm_pieces(XLMR_SPM)
    vocab = [["<s>", 0.0], ["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0]] + [[p, s] for p, s in pieces[3:]] + [["<mask>", 0.0]]
    specials = [(0, "<s>"), (1, "<pad>"), (2, "</s>"), (3, "<unk>"), (len(vocab) - 1, "<mask>")]
    added = [{"id": i, "content": c, "single_word": False, "lstrip": c == "<mask>", "rstrip": False, "normalized": False,
              "special": True} for i, c in specials]

    def special(s, type_id=0):
        return {"SpecialToken": {"id": s, "type_id": type_id}}

    def seq(a, type_id=0):
        return {"Sequence": {"id": a, "type_id": type_id}}

    metaspace = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}
    tj = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
          "normalizer": {"type": "Sequence", "normalizers": [
              {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode()},
              {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
          "pre_tokenizer": metaspace,
          "post_processor": {"type": "TemplateProcessing", "single": [special("<s>"), seq("A"), special("</s>")],
                             "pair": [special("<s>"), seq("A"), special("</s>"), special("</s>"), seq("B"), special("</s>")],
                             "special_tokens": {s: {"id": s, "ids": [i], "tokens": [s]} for i, s in ((0, "<s>"), (2, "</s>"))}},
          "decoder": metaspace,
          "model": {"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": False}}
    with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tj, f, indent=2, ensure_ascii=False)
    tc = {"bos_token": "<s>", "clean_up_tokenization_spaces": True, "cls_token": "<s>", "eos_token": "</s>",
          "mask_token": {"__type": "AddedToken", "content": "<mask>", "lstrip": True, "normalized": True, "rstrip": False,
                         "single_word": False},
          "model_max_length": 8192, "pad_token": "<pad>", "sep_token": "</s>", "sp_model_kwargs": {},
          "tokenizer_class": "XLMRobertaTokenizer", "unk_token": "<unk>"}
    with open(os.path.join(d, "tokenizer_config.json"), "w") as f:
        json.dump(tc, f, indent=2)
    with open(os.path.join(d, "special_tokens_map.json"), "w") as f:
        json.dump({"bos_token": "<s>", "cls_token": "<s>", "eos_token": "</s>",
                   "mask_token": {"content": "<mask>", "lstrip": True, "normalized": False, "rstrip": False, "single_word": False},
                   "pad_token": "<pad>", "sep_token": "</s>", "unk_token": "<unk>"}, f, indent=2)
    if pooling:
        write_pooling(d, True)


def write_pooling(d, cls):
    """sentence-transformers' modules.json (Transformer, Pooling, Normalize) and 1_Pooling/config.json in `d`."""
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
               {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]
    with open(os.path.join(d, "modules.json"), "w") as f:
        json.dump(modules, f, indent=2)
    os.makedirs(os.path.join(d, "1_Pooling"), exist_ok=True)
    with open(os.path.join(d, "1_Pooling", "config.json"), "w") as f:
        json.dump({"word_embedding_dimension": H, "pooling_mode_cls_token": cls, "pooling_mode_mean_tokens": not cls,
                   "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}, f, indent=2)


def write_side_files(d, tok):
    """The tokenizer files of `tok` ("bert-cls": bge-small's, CLS pooling; "bert-mean": nomic-embed-text's, mean
    pooling, model_max_length 8192) in `d`."""
    with open(VOCAB, encoding="utf-8") as f:
        vocab = f.read().split("\n")[:-1]  # one token per line, each line ended by \n (transformers' load_vocab)
    shutil.copy(VOCAB, os.path.join(d, "vocab.txt"))
    ids = {t: i for i, t in enumerate(vocab)}
    added = [{"id": ids[s], "content": s, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False,
              "special": True} for s in SPECIALS]

    def special(s, type_id=0):
        return {"SpecialToken": {"id": s, "type_id": type_id}}

    tj = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
          "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": None,
                         "lowercase": True},
          "pre_tokenizer": {"type": "BertPreTokenizer"},
          "post_processor": {"type": "TemplateProcessing",
                             "single": [special("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, special("[SEP]")],
                             "pair": [special("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, special("[SEP]"),
                                      {"Sequence": {"id": "B", "type_id": 1}}, special("[SEP]", 1)],
                             "special_tokens": {s: {"id": s, "ids": [ids[s]], "tokens": [s]} for s in ("[CLS]", "[SEP]")}},
          "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
          "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                    "max_input_chars_per_word": 100, "vocab": ids}}
    with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tj, f, indent=2, ensure_ascii=False)
    tc = {"clean_up_tokenization_spaces": True, "cls_token": "[CLS]", "do_basic_tokenize": True, "do_lower_case": True,
          "mask_token": "[MASK]", "model_max_length": 512 if tok in ("bert-cls", "bert-rank") else 8192, "never_split": None, "pad_token": "[PAD]", "sep_token": "[SEP]",
          "strip_accents": None, "tokenize_chinese_chars": True, "tokenizer_class": "BertTokenizer", "unk_token": "[UNK]"}
    with open(os.path.join(d, "tokenizer_config.json"), "w") as f:
        json.dump(tc, f, indent=2)
    with open(os.path.join(d, "special_tokens_map.json"), "w") as f:
        json.dump({"cls_token": "[CLS]", "mask_token": "[MASK]", "pad_token": "[PAD]", "sep_token": "[SEP]",
                   "unk_token": "[UNK]"}, f, indent=2)
    if tok != "bert-rank":  # a cross-encoder has no sentence-transformers pooling
        write_pooling(d, tok == "bert-cls")
