// SPDX-License-Identifier: MIT OR Apache-2.0
// test_cli_tokback: a Hugging Face folder's tokenizer.json run by
// @huggingface/tokenizers (the JS port of the Rust `tokenizers` library,
// installed from ../shared/tools/hf_shim's package-lock.json), with no
// tokenizer_config (as the Rust library, which reads tokenizer.json only).
//   node hf_tokenize.mjs TOKENIZER.json TEXTS.json [--no-special]
// TEXTS.json: an object whose "texts" member is an array of strings.
// Output (stdout): a JSON array, per text encode(text, add_special_tokens=true).ids
// (false with --no-special: what llama.cpp's models/ggml-vocab-*.gguf.out hold).
import { readFileSync } from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";

const [tokenizerPath, textsPath, flag] = process.argv.slice(2);
const addSpecial = flag !== "--no-special";
const tok = new Tokenizer(JSON.parse(readFileSync(tokenizerPath, "utf8")), {});
const texts = JSON.parse(readFileSync(textsPath, "utf8")).texts;
const out = texts.map((t) => tok.encode(t, { add_special_tokens: addSpecial }).ids);
process.stdout.write(JSON.stringify(out) + "\n");
