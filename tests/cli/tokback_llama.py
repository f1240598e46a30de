# SPDX-License-Identifier: MIT OR Apache-2.0
"""llama.cpp's tokenizer for the tokback recorders (tokback_reference.py, tokback_pre_reference.py):
tests/cli/tokback_llama_tokenize.cpp compiled against a llama.cpp build, and the texts file it reads."""
import os
import struct
import subprocess

here = os.path.dirname(os.path.abspath(__file__))


def build_tool(llama_src, llama_bin, tmp):
    """Compile tokback_llama_tokenize into `tmp`; returns (its path, the tokenizer description for the reference)."""
    tool = os.path.join(tmp, "tokback_llama_tokenize")
    subprocess.run(["g++", "-std=c++17", "-O1", f"-I{llama_src}/include", f"-I{llama_src}/ggml/include",
                    os.path.join(here, "tokback_llama_tokenize.cpp"), f"-L{llama_bin}", "-lllama", "-lggml", "-lggml-base",
                    f"-Wl,-rpath,{llama_bin}", "-o", tool], check=True)
    commit = subprocess.run(["git", "-C", llama_src, "rev-parse", "HEAD"], capture_output=True).stdout.decode().strip()
    return tool, "llama.cpp llama_tokenize(add_special=true, parse_special=true), llama.cpp " + (
        commit or "build at " + llama_bin + " (commit not recorded there)")


def write_texts(texts, path):
    """The tool's input: u32 count, then per text u32 length + UTF-8 bytes (little-endian)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<I", len(texts)))
        for t in texts:
            b = t.encode("utf-8")
            f.write(struct.pack("<I", len(b)) + b)
