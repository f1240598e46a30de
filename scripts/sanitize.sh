#!/usr/bin/env bash
# Sanitizer stage of CI (.ci/run, after scripts/test.sh), usable locally too:
# one clang-14 tree, build/sanitize (CMake preset `sanitize`: ASan + UBSan,
# -fno-sanitize-recover=all, -fsanitize=fuzzer-no-link so the same objects
# serve the fuzz targets, -O1 -g, no GUI), then
#   1. the ctest suites (all but $AMN_SANITIZE_EXCLUDE, below; seven of them
#      on a named part of their test functions, $subset_suites) under ASan,
#      UBSan and LeakSanitizer; the tests that run `amn` run this tree's
#      instrumented amn, and every sanitizer report of any process (also a
#      child whose stderr a test swallows) is logged to build/sanitize/
#      sanitizer-logs/ and fails the stage;
#   2. every libFuzzer target for $AMN_FUZZ_SECONDS s (default 20), two at a
#      time, seeded from tests/fuzz/corpus/<target>/ (read only; new inputs
#      go to build/sanitize/fuzz/<target>/, crashes to .../artifacts/); the
#      Hugging Face targets (hf_*, spm_model) also from the shared fixtures'
#      real tokenizer/config files when present (hf-gguf/inputs, shrunk by
#      tests/fuzz/hf_seeds.py into build/sanitize/fuzz/<target>/seeds; never
#      committed).
# Non-zero exit on any failing test, sanitizer report or fuzzer finding.
# Needs clang-14, libclang-rt-14-dev (libFuzzer, ASan/UBSan runtimes) and
# llvm-14 (llvm-symbolizer, for readable reports): installed here if missing
# (CI only; not a build dependency of anamnesis).
#
# Usage: scripts/sanitize.sh [build|test|fuzz|all]   (default: all)
#   AMN_SANITIZE_TESTS    ctest -R regex of the suites to run (default: all)
#   AMN_SANITIZE_EXCLUDE  ctest -E regex of suites left out (default below;
#                         empty: none)
#   AMN_FUZZ_SECONDS    seconds per fuzz target (default 20)
#   AMN_FUZZ_JOBS       fuzz targets run at once (default: nproc, at most 2)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
stage=${1:-all}
build="$top/build/sanitize"
fuzzers=(safetensors gguf zip npy pth pickle onnx hf_tokenizer spm_model hf_config hf_vocab remote)
# The shared fixtures (as tests/support/test_support.cc finds them):
# $AMN_REFERENCE_DIR/.. or ../shared/fixtures beside the checkout.
if [ -n "${AMN_REFERENCE_DIR:-}" ]; then shared_fixtures="$AMN_REFERENCE_DIR/.."; else shared_fixtures="$top/../shared/fixtures"; fi
hf_inputs="$shared_fixtures/hf-gguf/inputs"
# Every ctest suite of this tree (core and CLI; no GUI here) but these, which
# the g++ run of scripts/test.sh covers (measured, tests/fuzz/README.md):
# test_cli_forget (llama-quantize references on 56 real GGUF models: more
# than 7 minutes under ASan here), the Hugging Face ↔ GGUF conversion
# matrices test_cli_hf_gguf and test_cli_hf_arch (over 10 minutes),
# test_cli_hf_roundtrip (2 minutes) and test_cli_tokback (1 minute) — the
# same readers, tokenizers and arch rows run here through test_arch_table,
# test_gguf_vocab, test_bpe_tokenizer, test_hf_layout and the hf_* fuzzers —,
# the packaging.* checks (install, .deb) and the core.* checks (scripts, not
# instrumented binaries).
excluded=(test_cli_forget test_cli_hf_gguf test_cli_hf_arch test_cli_hf_roundtrip test_cli_tokback)
# These suites run here on a named part of their test functions instead of
# whole (Qt Test arguments: FUNCTION, or FUNCTION:DATATAG for one row), after
# the ctest run, two at a time: every code path of amn they reach runs once
# under the sanitizers; what is left out repeats a path already run, or is
# the work of an uninstrumented reference (python, llama.cpp's tools), and
# runs whole in the g++ run. Minutes are whole-suite times under ASan on this
# 2-core machine (2026-11-30, ctest -j2, the machine shared):
#   test_gguf_imatrix (8 min whole): every test function, and the
#     llama-quantize comparison on one real model per importance-matrix
#     quantizer (IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS: pure-* files,
#     one type everywhere) instead of all 15 (1.6 min alone, 3 min beside
#     another suite);
#   test_cli_onnx (2.1 min whole): all but parse_matches_onnx_load_testdata
#     (1.6 min: amn parse on libonnx-testdata's ~1 000 node-test models,
#     python3-onnx's onnx.load beside each); the ONNX reader runs on the 8
#     real fixtures, the broken models and the onnxruntime cross-check here,
#     and in fuzz_onnx;
#   test_cli_hf_lora (1.8-2.6 min whole): all but two of exportLora's three
#     rows (2 min: llama.cpp's llama-export-lora merging and
#     lora_merge_check.py, uninstrumented); the 48-row adapter matrix runs
#     whole, exportLora on "llama 2" (q/k rows permuted);
#   test_cli_mlx_moe_gguf (1.7-2.9 min whole, one model per row): the
#     DeepSeek-V2-Lite row only (MLA and shared experts: the most of the
#     unstacking path; the OLMoE and Qwen1.5-MoE rows repeat it with other
#     tensor names);
#   test_forget_st_wide (1-1.7 min whole): rowsOverOneMi on BF16 only (its
#     two kernel paths; F32 goes through the same chunking with one, 26 s);
#   test_cli_hf_mmproj (0.9-1.1 min whole): every mmproj row and bad input;
#     the text model and llama-mtmd-cli's load on gemma-3 only (the Qwen2-VL
#     rows' 52 s are their BPE text models — test_gguf_vocab,
#     test_bpe_tokenizer — and llama-mtmd-cli, uninstrumented);
#   test_cli_remote (1.3-1.5 min whole): every row but
#     same_as_local:safetensors+config (33 s under ASan, why not looked into;
#     one file over HTTP runs in the gguf, pth and npz rows, config.json
#     fetched beside the weights in hub-folder).
subset_suites=(test_gguf_imatrix test_cli_onnx test_cli_hf_lora test_cli_mlx_moe_gguf test_forget_st_wide
  test_cli_hf_mmproj test_cli_remote)
subset_test_gguf_imatrix=(read_gguf_imatrix read_legacy_imatrix read_errors requires_imatrix
  no_imatrix_equals_block_encoders imatrix_round_trip
  llama_quantize:pure-IQ1_S llama_quantize:pure-IQ1_M llama_quantize:pure-IQ2_XXS
  llama_quantize:pure-IQ2_XS llama_quantize:pure-IQ2_S llama_quantize:pure-IQ3_XXS)
subset_test_cli_onnx=(fixtures parse_matches_onnx_load_fixtures inspect_names_the_scheme onnxruntime_crosscheck
  bad_inputs)
subset_test_cli_hf_lora=(matrix defaultNameAndType "exportLora:llama 2" inspectAdapter refusals)
subset_test_cli_mlx_moe_gguf=(toGguf:DeepSeek-V2-Lite)
subset_test_forget_st_wide=(referenceMatchesFixtures rowsOverOneMi:BF16)
subset_test_cli_hf_mmproj=(mmproj defaultNameTextAndInspect:gemma-3-4b-pt mtmdLoads:gemma3 badInput)
subset_test_cli_remote=(same_as_local:gguf same_as_local:gguf-1GiB same_as_local:gguf-split-part2
  same_as_local:safetensors-index same_as_local:safetensors-1GiB-index same_as_local:pth same_as_local:npz
  same_as_local:hub-folder same_as_local:hub-revision same_as_local:hub-file same_as_local:hub-onnx-external
  header_bytes_only hub_token preview_rows download_then_convert download_resumes bad_servers)
default_exclude="^($(IFS='|'; echo "${excluded[*]}|${subset_suites[*]}")|packaging\\..*|core\\..*)\$"
tests_re=${AMN_SANITIZE_TESTS:-.}
exclude_re=${AMN_SANITIZE_EXCLUDE-$default_exclude}
fuzz_seconds=${AMN_FUZZ_SECONDS:-20}
fuzz_jobs=${AMN_FUZZ_JOBS:-$(( $(nproc) < 2 ? 1 : 2 ))}

log() { printf 'sanitize: %s\n' "$*" >&2; }

do_build() {
  local missing=()
  for p in clang-14 libclang-rt-14-dev llvm-14; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    local SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
  fi
  cmake --preset sanitize -S "$top" >/dev/null
  # The targets: amn (run by the CLI suites), the selected suites and the
  # subsetted ones, the fuzzers.
  local targets=(amn "${subset_suites[@]}") t
  for t in "${fuzzers[@]}"; do targets+=("fuzz_$t"); done
  while read -r t; do targets+=("$t"); done < <(ctest --test-dir "$build" -N -R "$tests_re" ${exclude_re:+-E "$exclude_re"} | sed -n 's/^ *Test *#[0-9]*: //p')
  export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR="$top"
  local s=$SECONDS
  cmake --build "$build" -j "$(nproc)" $(printf -- '--target %s ' "${targets[@]}") >&2
  log "built ${#targets[@]} targets in $((SECONDS - s)) s"
}

# `$1 ITEM` for each further argument, $fuzz_jobs at a time (the subsetted suites, the fuzzers), each one's
# output into $2/ITEM.summary, printed in their order once all are done; non-zero when any failed.
run_jobs() {
  local fn=$1 dir=$2 t i rc=0 pids=() names=()
  shift 2
  for t in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$fuzz_jobs" ]; do sleep 1; done
    "$fn" "$t" >"$dir/$t.summary" 2>&1 &
    pids+=($!); names+=("$t")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || rc=1
    cat "$dir/${names[$i]}.summary"
  done
  return $rc
}

sanitizer_env() {
  local logs=$1
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
  # A distinct exit code: amn's own are 0/1/2, so a sanitizer report in a
  # child amn can never pass for a named error.
  export ASAN_OPTIONS="exitcode=86:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:log_path=$logs/asan"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86:log_path=$logs/ubsan"
  export LSAN_OPTIONS="suppressions=$top/tests/fuzz/lsan.supp:print_suppressions=0"
}

# One subsetted suite: $1 = its name; runs its subset_<name> arguments in
# its ctest working folder, prints one summary line (and the log's end when
# it failed), exit status of the suite.
subset_one() {
  local t=$1 exe out rc=0 s=$SECONDS
  local -n args="subset_$t"
  exe=$(find "$build/tests" -maxdepth 2 -type f -name "$t" -perm -u+x | head -1)
  [ -n "$exe" ] || { echo "$t: not built"; return 1; }
  out="$build/subsets/$t.log"
  (cd "$(dirname "$exe")" && QT_QPA_PLATFORM=offscreen timeout 900 "./$t" "${args[@]}") >"$out" 2>&1 || rc=$?
  printf '%-22s (part: %d arguments) exit %d in %d s; %s\n' "$t" "${#args[@]}" "$rc" "$((SECONDS - s))" \
    "$(grep -a '^Totals:' "$out" | tail -1)"
  [ $rc -eq 0 ] || { echo "---- $t failed; last lines of $out:"; tail -80 "$out"; }
  return $rc
}

do_test() {
  local logs="$build/sanitizer-logs" rc=0
  rm -rf "$logs" "$build/subsets"; mkdir -p "$logs" "$build/subsets"
  (
    sanitizer_env "$logs"
    s=$SECONDS
    rc=0
    ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$(nproc)" --timeout 1500 -R "$tests_re" ${exclude_re:+-E "$exclude_re"} || rc=$?
    log "tests: $((SECONDS - s)) s"
    if [ "$exclude_re" = "$default_exclude" ] && [ "$tests_re" = . ]; then
      # The subsetted suites, $(nproc) at a time (at most 2), as the fuzzers.
      s=$SECONDS
      run_jobs subset_one "$build/subsets" "${subset_suites[@]}" >&2 || rc=1
      log "subsetted suites (${#subset_suites[@]}): $((SECONDS - s)) s"
    fi
    exit $rc
  ) || rc=$?
  if compgen -G "$logs/*" >/dev/null; then
    log "sanitizer reports:"
    for f in "$logs"/*; do echo "== $f"; cat "$f"; done >&2
    rc=1
  fi
  return $rc
}

# One fuzz target: $1 = target name; prints one summary line, exit status of libFuzzer.
fuzz_one() {
  local t=$1 max_len=65536 work="$build/fuzz/$t" out rc=0
  [ "$t" = pickle ] && max_len=16384
  rm -rf "$work"; mkdir -p "$work/corpus" "$work/artifacts"
  out="$work/fuzz.log"
  local seeds=()
  case $t in
    hf_*|spm_model)
      if [ -d "$hf_inputs" ]; then
        /usr/bin/python3 "$top/tests/fuzz/hf_seeds.py" "$hf_inputs" "$work/all-seeds" >/dev/null
        [ -d "$work/all-seeds/$t" ] && mv "$work/all-seeds/$t" "$work/seeds" && seeds=("$work/seeds")
        rm -rf "$work/all-seeds"
      fi ;;
  esac
  # -fork/-jobs not used: one process per target, two targets at a time.
  "$build/tests/fuzz/fuzz_$t" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
    -max_total_time="$fuzz_seconds" -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "$work/corpus" "$top/tests/fuzz/corpus/$t" ${seeds[@]+"${seeds[@]}"} >"$out" 2>&1 || rc=$?
  local execs cov ft
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out" | tail -1)
  local kept shared_seeds=0
  kept=$(ls "$top/tests/fuzz/corpus/$t" | wc -l)
  [ -d "$work/seeds" ] && shared_seeds=$(ls "$work/seeds" | wc -l)
  printf 'fuzz_%-12s exit %d, %s executions in %s s, %s, corpus %s (+%s shared seeds) -> %s files\n' "$t" "$rc" \
    "${execs:-?}" "$fuzz_seconds" "${cov:-cov: ?}" "$kept" "$shared_seeds" \
    "$(( kept + $(ls "$work/corpus" | wc -l) ))"
  if [ $rc -ne 0 ]; then
    echo "---- fuzz_$t failed; last lines of $out:"; tail -60 "$out"
  fi
  return $rc
}

do_fuzz() {
  local t rc=0 s=$SECONDS
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
  export ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  unset LSAN_OPTIONS
  for t in "${fuzzers[@]}"; do
    [ -d "$top/tests/fuzz/corpus/$t" ] || { log "no corpus tests/fuzz/corpus/$t"; return 1; }
  done
  run_jobs fuzz_one "$build/fuzz" "${fuzzers[@]}" || rc=1
  log "fuzz: $((SECONDS - s)) s"
  return $rc
}

mkdir -p "$build/fuzz"
case $stage in
  build) do_build ;;
  test) do_test ;;
  fuzz) do_fuzz ;;
  all)
    do_build
    rc=0
    do_test || rc=1
    do_fuzz || rc=1
    exit $rc ;;
  *) echo "usage: scripts/sanitize.sh [build|test|fuzz|all]" >&2; exit 2 ;;
esac
