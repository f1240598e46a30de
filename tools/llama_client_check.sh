#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The real client: does llama.cpp load, run and tokenize what `amn` writes
# from a Hugging Face folder? (issue 23, "real client"; not run by CI.)
#
# For every case of the hf-gguf fixtures (FIXTURES/inputs/<case>, passed by that
# path so the folder name is the model name) and every output type its
# manifest lists (auto/F32/F16/BF16/Q8_0 through `amn convert`), plus
# `amn forget DIR --to gguf:Q4_K_M` and `gguf:Q6_K` (one pass), the script
#   1. writes the GGUF with amn;
#   2. runs `llama-simple -m OUT -n 8 Hello` (the prompt is positional in
#      llama-simple): "loads" = exit 0 and no load error, "generates" = it
#      printed "decoded 8 tokens" (weights are random: any tokens will do);
#   3. runs `llama-tokenize -m OUT -f TEXT --no-escape --ids --log-disable` on
#      each text of a fixed set (accents composed and decomposed, CJK, emoji
#      with ZWJ sequences, flags and skin tones, code, runs of spaces / tabs /
#      newlines, leading and trailing spaces, numbers, punctuation) and
#      compares the ids with the model's own Hugging Face tokenizer,
#      `AutoTokenizer.from_pretrained(DIR).encode(text)` (add_special_tokens:
#      its post-processor adds BOS where the model has one). llama-tokenize adds
#      BOS when the GGUF says `add_bos_token` and parses special tokens (its
#      defaults); `-f --no-escape` passes the text's bytes unchanged. The two
#      lists must be equal, BOS included; a difference in the BOS alone is
#      counted apart ("BOS-only") so that it cannot hide a real one.
#   Known difference (llama.cpp, not the GGUF): llama.cpp does not run a
#   tokenizer.json `normalizer`; Qwen3's is NFC, so its decomposed-accents text
#   gives other ids than HF (the NFC form of the same text gives HF's ids).
# It prints a Markdown table: case | type | loads | generates | tokenize
# identical (n/N), and the first differing text of each output below it.
#
# Usage: tools/llama_client_check.sh LLAMA_BUILD AMN [FIXTURES] [WORKDIR]
#   LLAMA_BUILD  a llama.cpp build tree (bin/llama-simple, bin/llama-tokenize),
#                llama.cpp at the fixtures' commit (manifest llama_cpp_commit)
#   AMN          the amn binary
#   FIXTURES     the hf-gguf fixtures (default ../shared/fixtures/hf-gguf
#                beside the project)
#   WORKDIR      where the GGUFs and logs go (default a new /tmp folder;
#                kept: the logs of a failure are there)
# Environment:
#   HF_SHIM      the transformers stand-in that runs the real HF tokenizer
#                (fixtures README, "The transformers shim"; default
#                ../shared/tools/hf_shim beside the project — it needs its
#                node_modules: copy it and `npm ci` it first)
#   PYTHON       default /usr/bin/python3
#   ONLY         a grep -E regex on "<case> <type>" to run a subset
#   OWN_ARCHS    1: also the folders of tests/core/hf_arch_models.py (the
#                architectures the fixtures lack: gemma2, gemma3, granite,
#                olmo2, mistral3, …; made with --inputs-only in WORKDIR/arch),
#                each as F32, BF16, Q8_0 and forget Q4_K_M. Their tokenizers
#                are borrowed from other models (Gemma's SentencePiece options
#                on Llama 2's pieces), so only loads/generates are judged
#                there ("n/a" in the tokenize column). Left out: gemma-3-1b-bpe,
#                whose embedding the converter cuts below vocab_size (its own
#                file does not load in llama.cpp either).
# Exit 0 only if every output loads, generates and tokenizes every text
# identically.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 2 ]; then
  awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"
  exit 2
fi
llama=$(cd "$1" && pwd)
amn=$2
fixtures=${3:-$top/../shared/fixtures/hf-gguf}
work=${4:-$(mktemp -d /tmp/amn-client.XXXXXX)}
python=${PYTHON:-/usr/bin/python3}
hf_shim=${HF_SHIM:-$top/../shared/tools/hf_shim}
simple=$llama/bin/llama-simple
tokenize=$llama/bin/llama-tokenize
for b in "$simple" "$tokenize"; do
  [ -x "$b" ] || { echo "llama_client_check: $b: not built (cmake --build $llama --target llama-simple llama-tokenize)" >&2; exit 2; }
done
[ -f "$fixtures/manifest.json" ] || { echo "llama_client_check: $fixtures/manifest.json: no such file" >&2; exit 2; }
[ -d "$hf_shim/transformers" ] || { echo "llama_client_check: $hf_shim: no transformers shim (set HF_SHIM)" >&2; exit 2; }
mkdir -p "$work/texts" "$work/out" "$work/log"

# The fixed text set, one file each (raw UTF-8 bytes, no trailing newline
# unless the text has one).
"$python" - "$work/texts" <<'PY'
import os, sys
texts = {
    "ascii": "Hello world! This is a test.",
    "accents-nfc": "Caf\u00e9 na\u00efve r\u00e9sum\u00e9, \u00c5ngstr\u00f6m, S\u00e3o Paulo, Z\u00fcrich, \u0141\u00f3d\u017a, \u1ec7",
    "accents-nfd": "Cafe\u0301 nai\u0308ve re\u0301sume\u0301, A\u030angstro\u0308m, Sa\u0303o Paulo, Zu\u0308rich",
    "cjk": "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3068\u4e2d\u6587\u6587\u672c\uff0c\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8\u3002\u6f22\u5b57\u304b\u306a\u307e\u3058\u308a",
    "emoji-zwj": "Family \U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466, flags \U0001F1EB\U0001F1F7\U0001F1EF\U0001F1F5, skin \U0001F44D\U0001F3FD, rainbow \U0001F3F3\uFE0F\u200D\U0001F308 \U0001F600!",
    "code": "def f(x):\n\treturn x**2 + 1  # square\n\nif __name__ == '__main__':\n    print(f(3), {'a': [1, 2]})\n",
    "spaces": "a  b   c    d     e          f",
    "tabs-newlines": "x\t\ty\t \tz\n\n\nw \n \n  v\r\n\t\n",
    "lead-trail": "   leading and trailing spaces   ",
    "numbers": "3.14159 1234567890 12,345.67 0x1F 1e-10 2024-08-17 \u0663\u0664\u0665 \u2154",
    "punct": "\u00dcn\u00efc\u00f6d\u00e9 \u2014 \u201cquotes\u201d \u2018single\u2019 \u2026 \u20ac100 \u00bd \u2211\u222b\u221a I'm can't we'll THEY'RE",
    "newlines-only": "\n\n\n",
}
for k, v in texts.items():
    with open(os.path.join(sys.argv[1], k + ".txt"), "wb") as f:
        f.write(v.encode("utf-8"))
PY
texts=("$work"/texts/*.txt)

# case<TAB>type<TAB>amn arguments<TAB>input folder, from the manifest (its `amn`
# commands, the first of each output), then the two one-pass K-quant rows per
# case; with OWN_ARCHS=1 the own architecture folders after them.
"$python" - "$fixtures/manifest.json" "$fixtures/inputs" > "$work/plan.tsv" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for c in m["cases"]:
    name = c.get("name") or c.get("case")
    for o in c["outputs"]:
        t = o.get("outtype")
        print(f"{name}\t{t.upper() if t != 'auto' else 'auto'}\t{o['amn'][0]}\t{sys.argv[2]}/{name}")
    for q in ("Q4_K_M", "Q6_K"):
        print(f"{name}\t{q} (forget)\tforget {{in}} --to gguf:{q} -o {{out}}\t{sys.argv[2]}/{name}")
PY
if [ "${OWN_ARCHS:-0}" = 1 ]; then
  mkdir -p "$work/arch"
  "$python" "$top/tests/core/hf_arch_models.py" "$work/arch" --shared "$fixtures/.." --inputs-only || exit 2
  "$python" - "$top/tests/core/hf_arch_reference.json" "$work/arch" >> "$work/plan.tsv" <<'PY'
import json, sys
for name, c in json.load(open(sys.argv[1]))["cases"].items():
    if "sha256" not in c or name == "gemma-3-1b-bpe":
        continue
    for t in ("F32", "BF16", "Q8_0"):
        print(f"{name}\t{t} (own)\tconvert {{in}} --to gguf:{t} -o {{out}}\t{sys.argv[2]}/{name}")
    print(f"{name}\tQ4_K_M (own, forget)\tforget {{in}} --to gguf:Q4_K_M -o {{out}}\t{sys.argv[2]}/{name}")
PY
fi

# The HF ids of every text, once per case: hf/<case>/<text>.ids ("[1, 2, 3]").
hf_ids() {  # CASE_DIR OUT_DIR
  PYTHONPATH="$hf_shim" "$python" - "$1" "$2" "${texts[@]}" <<'PY'
import os, sys
from transformers import AutoTokenizer
tok = AutoTokenizer.from_pretrained(sys.argv[1])
for p in sys.argv[3:]:
    text = open(p, "rb").read().decode("utf-8")
    ids = tok.encode(text)
    with open(os.path.join(sys.argv[2], os.path.basename(p)[:-4] + ".ids"), "w") as f:
        f.write("[" + ", ".join(str(i) for i in ids) + "]\n")
PY
}

fail=0
echo "| case | type | loads | generates | tokenize identical |"
echo "|---|---|---|---|---|"
notes=()
while IFS=$'\t' read -r case type cmd in; do
  if [ -n "${ONLY:-}" ] && ! grep -qE -- "$ONLY" <<<"$case $type"; then continue; fi
  tag=$case.${type%% *}
  out=$work/out/$tag.gguf
  log=$work/log/$tag
  own=no
  [[ $type == *own* ]] && own=yes
  if [ $own = no ] && [ ! -d "$work/hf/$case" ]; then
    mkdir -p "$work/hf/$case"
    if ! hf_ids "$in" "$work/hf/$case" 2> "$work/log/$case.hf.err"; then
      echo "llama_client_check: the HF tokenizer of $case failed: $work/log/$case.hf.err" >&2
      rm -rf "$work/hf/$case"
    fi
  fi
  rm -f "$out"
  args=${cmd//\{in\}/$in}
  args=${args//\{out\}/$out}
  # shellcheck disable=SC2086  # the manifest's command is a word list
  if ! "$amn" $args --quiet > "$log.amn.out" 2>&1 || [ ! -s "$out" ]; then
    echo "| $case | $type | amn failed | — | — |"
    notes+=("$case $type: amn failed: $(head -c 300 "$log.amn.out")")
    fail=1
    continue
  fi
  loads=no gens=no
  "$simple" -m "$out" -n 8 Hello > "$log.simple.out" 2> "$log.simple.err"
  rc=$?
  # loads: llama_model_load_from_file returned a model (llama-simple says
  # "unable to load model" otherwise); generates: it ran to the end.
  grep -q "unable to load model" "$log.simple.err" || ! grep -q "llama_model_loader: loaded meta data" "$log.simple.err" || loads=yes
  [ $rc -eq 0 ] && [ $loads = yes ] && grep -q "decoded 8 tokens" "$log.simple.err" && gens=yes
  if [ $own = yes ]; then  # borrowed tokenizer: loads and generates only
    echo "| $case | $type | $loads | $gens | n/a |"
    if [ "$loads" != yes ]; then notes+=("$case $type: load: $(grep -iE "error|failed" "$log.simple.err" | head -2 | tr '\n' ' ')"); fi
    if [ "$loads" != yes ] || [ "$gens" != yes ]; then fail=1; fi
    rm -f "$out"
    continue
  fi
  n=0 same=0 bos=0 first=""
  for t in "${texts[@]}"; do
    k=$(basename "$t" .txt)
    n=$((n + 1))
    got=$("$tokenize" -m "$out" -f "$t" --no-escape --ids --log-disable 2> "$log.tok.$k.err" | tail -n 1)
    want=$(cat "$work/hf/$case/$k.ids" 2>/dev/null || echo "(no HF ids)")
    if [ "$got" = "$want" ]; then
      same=$((same + 1))
      continue
    fi
    # Equal but for one leading id (a BOS) on one side?
    g=${got#[}; g=${g%]}; w=${want#[}; w=${w%]}
    if [ "${g#*, }" = "$w" ] || [ "${w#*, }" = "$g" ] || { [ -z "$g" ] && [[ $w =~ ^[0-9]+$ ]]; } || { [ -z "$w" ] && [[ $g =~ ^[0-9]+$ ]]; }; then
      bos=$((bos + 1))
    fi
    [ -n "$first" ] || first="$k: llama.cpp $got, HF $want"
  done
  tokcell="$same/$n"
  [ $bos -gt 0 ] && tokcell="$tokcell ($bos BOS-only)"
  echo "| $case | $type | $loads | $gens | $tokcell |"
  if [ "$loads" != yes ]; then notes+=("$case $type: load: $(grep -iE "error|failed" "$log.simple.err" | head -2 | tr '\n' ' ')"); fi
  [ -n "$first" ] && notes+=("$case $type: $first")
  if [ "$loads" != yes ] || [ "$gens" != yes ] || [ "$same" -ne "$n" ]; then fail=1; fi
  rm -f "$out"  # the GGUFs are small, but 40 of them add up
done < "$work/plan.tsv"
if [ ${#notes[@]} -gt 0 ]; then
  echo
  for x in "${notes[@]}"; do echo "- $x"; done
fi
echo
echo "work folder: $work"
exit $fail
