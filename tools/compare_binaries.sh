#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Run two amn binaries on the same write jobs and compare everything they
# produce: output files (cmp / diff -r), stdout, stderr and the exit code.
# Proof that a refactoring changed no behaviour (issue 22).
#
# usage: tools/compare_binaries.sh OLD_AMN NEW_AMN [WORKDIR]
#   AMN_SHARED    shared fixtures (default: ../shared/fixtures of the repo)
#   AMN_COMPARE   "quick": fewer inputs per job (default: all)
# Every job writes to the same path for both binaries (so paths printed on
# stdout match); timings on stdout/stderr are masked. Prints one line per
# differing run and a summary; exit 1 when any run differs.
set -u
OLD=$(realpath "$1") NEW=$(realpath "$2")
WORK=${3:-$(mktemp -d)}
REPO=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${AMN_SHARED:-$REPO/../shared/fixtures}
[ -d "$SHARED" ] || SHARED=/work/shared/fixtures
mkdir -p "$WORK"
RUNS=0
SAME=0
OK=0  # runs that succeeded (exit 0); the others compare an error
DIFFS=()

# Timings ("in 0.31 s", "12.3 MiB/s", "elapsed") vary between runs.
mask() { sed -E 's/[0-9]+(\.[0-9]+)? ?(s|ms|MiB\/s|GiB\/s|MB\/s|GB\/s)\b/<t>/g; s/"(seconds|elapsed_s|secs)": *[0-9.e+-]+/"\1": <t>/g' "$1" > "$1.m" && mv "$1.m" "$1"; }

# run_case NAME ARGS...   (@OUT@ in ARGS = the output path of the run)
run_case() {
    local name=$1
    shift
    local side bin
    for side in old new; do
        bin=$OLD
        [ "$side" = new ] && bin=$NEW
        rm -rf "$WORK/run" && mkdir -p "$WORK/run"
        local args=()
        local a
        for a in "$@"; do args+=("${a//@OUT@/$WORK/run/out}"); done
        (cd "$WORK/run" && "$bin" "${args[@]}" > "$WORK/run/stdout" 2> "$WORK/run/stderr"; echo $? > "$WORK/run/rc")
        mask "$WORK/run/stdout"
        mask "$WORK/run/stderr"
        rm -rf "$WORK/$side" && mv "$WORK/run" "$WORK/$side"
    done
    RUNS=$((RUNS + 1))
    [ "$(cat "$WORK/old/rc")" = 0 ] && OK=$((OK + 1))
    if diff -r "$WORK/old" "$WORK/new" > "$WORK/diff.txt" 2>&1; then
        SAME=$((SAME + 1))
    else
        DIFFS+=("$name")
        echo "DIFFERS: $name: $(head -c 300 "$WORK/diff.txt" | tr '\n' ' ')"
    fi
}

GGUF=("$SHARED"/gguf-real/*.gguf)
FLOAT_GGUF=("$SHARED"/gguf-real/tiny-llama-F32.gguf "$SHARED"/gguf-real/tiny-llama-F16.gguf "$SHARED"/gguf-real/tiny-llama-BF16.gguf)
REF=("$SHARED"/reference/*/*/input)
REPO_IN=("$REPO"/fixtures/*/*/input "$REPO"/fixtures/sample/tiny-llama-fp8)
if [ "${AMN_COMPARE:-}" = quick ]; then
    GGUF=("${GGUF[@]:0:6}")
    REF=("${REF[@]:0:6}")
fi
id() { echo "$1" | sed -E "s#^$SHARED/##; s#^$REPO/##; s#/#_#g"; }
T=(--threads 2)

# ---- parse / inspect (read side: unchanged by a write-side change) ----------
for in in "${GGUF[@]}" "${REF[@]}" "${REPO_IN[@]}"; do
    n=$(id "$in")
    run_case "parse $n" parse "$in" --json --kv
    run_case "inspect $n" inspect "$in"
    run_case "inspect-json $n" inspect "$in" --json
done

# ---- remember / convert ----------------------------------------------------
for in in "${GGUF[@]}" "${REF[@]}" "${REPO_IN[@]}"; do
    n=$(id "$in")
    run_case "remember-file $n" remember "$in" -o @OUT@.safetensors "${T[@]}"
    run_case "remember-dir $n" remember "$in" -o @OUT@ "${T[@]}"
    run_case "remember-f32 $n" remember "$in" --to f32 -o @OUT@.safetensors "${T[@]}"
    run_case "convert $n" convert "$in" --to safetensors -o @OUT@.safetensors "${T[@]}"
done
for in in "${GGUF[@]}"; do
    n=$(id "$in")
    run_case "remember-hf $n" remember "$in" --layout hf -o @OUT@ "${T[@]}"
    run_case "remember-hf-file $n" remember "$in" --layout hf --to f16 -o @OUT@.safetensors "${T[@]}"
done

# ---- forget to safetensors schemes ------------------------------------------
SCHEMES=("bnb-nf4" "bnb-fp4" "bnb-nf4 --blocksize 128" "bnb-nf4 --double-quant" "bnb-fp4 --double-quant --blocksize 128"
         "bnb-int8" "fp8 --granularity tensor" "fp8 --granularity channel" "fp8 --granularity block"
         "fp8-block-deepseek" "fp8-block-deepseek --ue8m0" "w4a16" "w4a16-asym" "w8a16" "w8a16-asym"
         "w4a16 --group-size channel" "w8a16-asym --group-size channel" "w4a16 --group-size 32"
         "mlx" "mlx:8" "mlx:mxfp4" "mlx:nvfp4" "mlx:mxfp8")
ST_IN=("${FLOAT_GGUF[@]}")
for s in "${SCHEMES[@]}"; do
    read -r -a sa <<< "$s"
    for in in "${ST_IN[@]}"; do
        n=$(id "$in")
        run_case "forget[$s] $n" forget "$in" --to "${sa[@]}" -o @OUT@ "${T[@]}"
        run_case "forget[$s] --report $n" forget "$in" --to "${sa[@]}" --report -o @OUT@ "${T[@]}"
        run_case "forget[$s] --json $n" forget "$in" --to "${sa[@]}" --json -o @OUT@ "${T[@]}"
    done
    run_case "forget[$s] file $(id "${ST_IN[0]}")" forget "${ST_IN[0]}" --to "${sa[@]}" -o @OUT@.safetensors "${T[@]}"
    run_case "forget[$s] dry-run $(id "${ST_IN[0]}")" forget "${ST_IN[0]}" --to "${sa[@]}" --dry-run -o @OUT@ "${T[@]}"
    # Already-quantized inputs, decoded first (--requantize), and without it (an error).
    for in in "$SHARED"/gguf-real/tiny-llama-Q4_K_M.gguf "$REPO"/fixtures/sample/tiny-llama-fp8 "${REF[@]:0:4}"; do
        n=$(id "$in")
        run_case "forget[$s] --requantize --json $n" forget "$in" --to "${sa[@]}" --requantize --json -o @OUT@ "${T[@]}"
    done
    run_case "forget[$s] no --requantize" forget "$REPO"/fixtures/sample/tiny-llama-fp8 --to "${sa[@]}" -o @OUT@ "${T[@]}"
done
run_case "forget keep/only" forget "${ST_IN[0]}" --to w4a16 --keep 'layers\.0\.' --only 'proj' --json -o @OUT@ "${T[@]}"
run_case "forget one thread" forget "${ST_IN[0]}" --to bnb-nf4 --double-quant --json -o @OUT@ --threads 1

# ---- forget to GGUF ---------------------------------------------------------
FTYPES=(F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K_S Q3_K_M Q3_K_L Q4_K_S Q4_K_M Q5_K_S Q5_K_M Q6_K
        IQ4_NL IQ4_XS IQ3_S IQ3_M TQ1_0 TQ2_0 MXFP4_MOE Q1_0 Q2_0)
IMATRIX="$SHARED/gguf-real/aux/tiny-llama.imatrix.gguf"
for f in "${FTYPES[@]}"; do
    for in in "${FLOAT_GGUF[@]}"; do
        n=$(id "$in")
        run_case "forget[gguf:$f] $n" forget "$in" --to "gguf:$f" -o @OUT@.gguf "${T[@]}"
    done
    in=${FLOAT_GGUF[0]}
    n=$(id "$in")
    run_case "forget[gguf:$f] --json $n" forget "$in" --to "gguf:$f" --json -o @OUT@.gguf "${T[@]}"
    run_case "forget[gguf:$f] --report $n" forget "$in" --to "gguf:$f" --report -o @OUT@.gguf "${T[@]}"
    run_case "forget[gguf:$f] --pure $n" forget "$in" --to "gguf:$f" --pure -o @OUT@.gguf "${T[@]}"
    [ -f "$IMATRIX" ] && run_case "forget[gguf:$f] --imatrix $n" forget "$in" --to "gguf:$f" --imatrix "$IMATRIX" --json -o @OUT@.gguf "${T[@]}"
    run_case "forget[gguf:$f] requantize Q4_K_M" forget "$SHARED"/gguf-real/tiny-llama-Q4_K_M.gguf --to "gguf:$f" --json -o @OUT@.gguf "${T[@]}"
done
if [ -f "$IMATRIX" ]; then
    for f in IQ1_S IQ1_M IQ2_XXS IQ2_XS IQ2_S IQ2_M IQ3_XXS IQ3_XS Q2_K_S; do
        run_case "forget[gguf:$f] --imatrix" forget "${FLOAT_GGUF[0]}" --to "gguf:$f" --imatrix "$IMATRIX" --json -o @OUT@.gguf "${T[@]}"
    done
fi
run_case "forget gguf tensor-type" forget "${FLOAT_GGUF[0]}" --to gguf:Q4_K_M --tensor-type attn_v=Q8_0 --output-tensor-type Q6_K --token-embedding-type Q4_0 --report -o @OUT@.gguf "${T[@]}"
run_case "forget gguf from safetensors (error)" forget "$REPO"/fixtures/sample/tiny-llama-fp8 --to gguf:Q8_0 -o @OUT@.gguf "${T[@]}"

# ---- Hugging Face folder → GGUF (binaries that have it; else both fail alike) --
for in in "$SHARED"/hf-gguf/inputs/*/; do
    in=${in%/}
    n=$(id "$in")
    for t in gguf gguf:F32 gguf:F16 gguf:BF16 gguf:Q8_0; do
        run_case "convert[$t] $n" convert "$in" --to "$t" -o @OUT@.gguf "${T[@]}"
    done
    run_case "convert[gguf] --vocab-only $n" convert "$in" --to gguf --vocab-only -o @OUT@.gguf "${T[@]}"
    for f in Q4_K_M Q8_0 Q6_K; do
        run_case "forget[gguf:$f] --json $n" forget "$in" --to "gguf:$f" --json -o @OUT@.gguf "${T[@]}"
    done
done

echo "compared $RUNS runs ($OK wrote output, $((RUNS - OK)) ended in an error): $SAME identical, ${#DIFFS[@]} differing"
[ ${#DIFFS[@]} -eq 0 ]
