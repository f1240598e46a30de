#!/usr/bin/python3
"""The embedding-model cases of hf_arch_models.py (conversion/bert.py): per case, config.json (the
real model's with its dimensions shrunk), the tensor shapes of its safetensors, its tokenizer and the
stored dtype; and the side files those folders need (write_side_files): a tokenizer.json derived
from the committed bert-base-uncased vocab.txt (tests/core/data/bert-base-uncased, Apache-2.0) in the
form transformers' BertTokenizerFast saves, tokenizer_config.json / special_tokens_map.json as
BAAI/bge-small-en-v1.5 has them, and sentence-transformers' modules.json + 1_Pooling/config.json."""
import json
import os
import shutil

H, L, NH, FF = 32, 2, 4, 64
HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB = os.path.join(HERE, "data", "bert-base-uncased", "vocab.txt")
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


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


def write_side_files(d, tok):
    """The tokenizer files of `tok` ("bert-cls": bge-small's, CLS pooling; "bert-mean": mean pooling) in `d`."""
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
          "mask_token": "[MASK]", "model_max_length": 512, "never_split": None, "pad_token": "[PAD]", "sep_token": "[SEP]",
          "strip_accents": None, "tokenize_chinese_chars": True, "tokenizer_class": "BertTokenizer", "unk_token": "[UNK]"}
    with open(os.path.join(d, "tokenizer_config.json"), "w") as f:
        json.dump(tc, f, indent=2)
    with open(os.path.join(d, "special_tokens_map.json"), "w") as f:
        json.dump({"cls_token": "[CLS]", "mask_token": "[MASK]", "pad_token": "[PAD]", "sep_token": "[SEP]",
                   "unk_token": "[UNK]"}, f, indent=2)
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
               {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]
    with open(os.path.join(d, "modules.json"), "w") as f:
        json.dump(modules, f, indent=2)
    os.makedirs(os.path.join(d, "1_Pooling"), exist_ok=True)
    cls = tok == "bert-cls"
    with open(os.path.join(d, "1_Pooling", "config.json"), "w") as f:
        json.dump({"word_embedding_dimension": H, "pooling_mode_cls_token": cls, "pooling_mode_mean_tokens": not cls,
                   "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}, f, indent=2)
