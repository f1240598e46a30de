#!/bin/sh
# Render the desktop app's screenshots (main window: overview, "what Lethe
# took", tensor detail and its Values tab, metadata, dark palette; the
# conversion wizard) for the bundled FP8 sample under Xvfb, into
# docs/screenshots/; then the forget wizard
# (target, summary, measured loss) for $AMN_SCREENSHOT_FORGET (a GGUF → Q4_K_M);
# with AMN_SCREENSHOT_FORGET set but empty, for MODEL itself through the main
# window's Convert… (a Hugging Face folder, e.g. AWQ or bitsandbytes → GGUF
# Q4_K_M; another model → fp8); then for a multimodal folder its vision
# projector (wizard-mmproj-*.png), for a PEFT adapter folder with
# AMN_SCREENSHOT_LORA_BASE (the base's folder) its GGUF adapter (wizard-lora-*.png):
#   tools/screenshots.sh [BUILD_DIR] [OUT_DIR] [MODEL]
#   AMN_SCREENSHOT_FORGET= tools/screenshots.sh build/dev /tmp/shots ../shared/fixtures/hf-gguf/inputs/Mistral-7B-v0.1-bnb-4bit
# Needs xvfb-run (package xvfb). Extra args after MODEL go to the app
# (e.g. --lang de).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/dev}
out=${2:-$here/docs/screenshots}
model=${3:-$here/fixtures/sample/tiny-llama-fp8}
[ $# -ge 3 ] && shift 3 || shift $#
app=$build/app/studio/anamnesis
[ -x "$app" ] || { echo "screenshots.sh: build the 'anamnesis' target first ($app missing)" >&2; exit 2; }
mkdir -p "$out"
# The forget wizard quantizes a real GGUF when the shared fixtures are there.
: "${AMN_SCREENSHOT_FORGET=$here/../shared/fixtures/gguf-real/tiny-llama-F32.gguf}"
export AMN_SCREENSHOT_FORGET
xvfb-run -a -s "-screen 0 1280x800x24" "$app" --screenshot "$out" "$@" "$model"
ls -l "$out"/*.png
