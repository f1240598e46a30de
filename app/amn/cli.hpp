// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// amn: shared pieces of the command-line front end (no Qt: the CLI links core only).
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/lora_adapter.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/remote.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn {
class JsonWriter;
}
namespace amn::cli {
/// The "gguf" object of --json output; `full_kv` writes complete values instead of summaries.
void write_gguf_json(amn::JsonWriter& w, const Catalog& cat, bool full_kv);

/// Exit codes: 0 ok, 1 error, 2 usage.
inline constexpr int kOk = 0, kError = 1, kUsage = 2;

/// A usage error (bad flag, missing argument): exit code 2.
struct UsageError {
    std::string message;
};

/// Minimal argument scanner: flags may come before or after the positional
/// arguments; "--" ends flags; "--opt=value" and "--opt value" both work.
class Args {
public:
    Args(std::vector<std::string> argv) : a_(std::move(argv)) {}
    /// True (and consumed) when a flag named `name` (or `alias`) is present.
    bool flag(std::string_view name, std::string_view alias = {});
    /// The value of an option, consumed; nullopt when absent.
    /// \throws UsageError when present without a value.
    std::optional<std::string> option(std::string_view name, std::string_view alias = {});
    /// Remaining positional arguments. \throws UsageError on unknown flags.
    std::vector<std::string> positionals();

private:
    std::vector<std::string> a_;
};

/// `--threads N` when given (1..1024; 0 = absent, the default).
/// \throws UsageError when it is not a number in that range.
unsigned parse_threads(Args& args);

struct Context {
    bool quiet = false;
    bool json = false;
};

/// The MODEL argument of parse and inspect: a local path, or a remote model
/// (`https://…`, `hf://ORG/REPO[@REV][/PATH]`) whose headers are fetched
/// into a temporary mirror on construction (anamnesis/remote.hpp), removed
/// with this object.
class ModelArg {
public:
    /// \throws what RemoteModel::open throws, for a remote model.
    explicit ModelArg(const std::string& arg);
    /// What open_model() opens: the argument, or the mirror path.
    const std::string& path() const;
    bool remote() const { return remote_.has_value(); }
    /// Mirror paths in `text` → the remote names (local: unchanged).
    std::string relabel(std::string text) const;
    /// The catalog's paths and messages relabelled (after every read).
    void relabel(Catalog& cat) const;
    /// `e` with its file and message relabelled.
    amn::Error relabel(const amn::Error& e) const;
    /// `"remote": {spec, bytes_fetched, requests, files: [{url, size, fetched}]}`
    /// of --json output, for a remote model (nothing for a local one).
    void write_json(amn::JsonWriter& w) const;

private:
    std::string arg_;
    std::optional<amn::RemoteModel> remote_;
};

/// remember/convert/forget of a remote model (`argv`: the command's
/// arguments, which must give -o): its files — what parsing reads and every
/// shard of its catalog — downloaded whole, resumably, into
/// RemoteModel::default_download_dir() (kept), with a progress bar on a
/// terminal unless --quiet; returns the local path that stands for `spec`.
/// \throws UsageError without -o; what RemoteModel::open/download throw.
std::string download_remote_model(const std::string& spec, const std::vector<std::string>& argv);

int cmd_parse(Args& args);
int cmd_inspect(Args& args);
/// remember/dequantize; `convert` = true accepts `--to safetensors` (keep dtypes) and requires --to.
int cmd_remember(Args& args, bool convert);

/// convert MODEL --to gguf[:TYPE]: a Hugging Face folder → GGUF as convert_hf_to_gguf.py does
/// (`to` is the --to value).
int cmd_convert_gguf(Args& args, const std::string& to);

/// forget/quantize: quantize to GGUF (--to gguf:FTYPE) as llama-quantize does.
int cmd_forget(Args& args);

/// --split-max-size N[K|M|G], --split-max-tensors N, --no-tensor-first-split,
/// and --keep-split when `keep` (llama.cpp's names; gguf_split.hpp).
/// \throws UsageError for a malformed value or both max options.
GgufSplitOptions parse_split_options(Args& args, bool keep);
/// "  wrote PATH" for one file; per file "wrote"/"would write" (`planned`)
/// PATH (N tensor(s), SIZE) for a split set or a dry run.
void print_gguf_files(const std::vector<GgufOutputFile>& files, bool planned);
/// The "files" array of --json: [{path, bytes, tensors}].
void write_gguf_files_json(amn::JsonWriter& w, const std::vector<GgufOutputFile>& files);

/// `s` made safe for a terminal: control characters (ESC as "\e", CR as
/// "\r", others as "\xNN"), DEL, C1 controls and bytes that are not valid
/// UTF-8 shown as escapes, so text from a file can never move the cursor,
/// recolour or rewrite the terminal. Everything the CLI prints that comes
/// from a file (names, values, messages) goes through it.
std::string printable(std::string_view s);

/// Help texts ("amn help VERB" and "amn VERB --help").
void print_help(std::FILE* out, std::string_view verb);

/// GGUF header facts (version, alignment, architecture, file type), two-space indented.
void print_gguf_facts(const Catalog& cat);
/// ONNX container facts for `amn inspect` (onnx_facts.cc): IR version,
/// producer, opset imports, graph inputs/outputs and operator counts (from
/// Catalog::metadata, onnx.hpp), then each quantized weight with the
/// initializer it comes from and its scheme.
void print_onnx_facts(const Catalog& cat, const Plan& plan);
/// The same as `"onnx"` (the container facts, values as text) and
/// `"onnx_weights"` ([{name, shape, from, scheme}]) members of a JSON object.
void write_onnx_json(amn::JsonWriter& w, const Catalog& cat, const Plan& plan);

/// PEFT adapter facts for `amn inspect` (adapter_facts.cc, lora_adapter.hpp):
/// the adapter type, rank, alpha and PEFT's scale, the targets, the base
/// model, and the GGUF adapter it becomes (`amn convert MODEL --to gguf
/// --base BASE_DIR`) or why not; two-space indented.
void print_adapter_facts(const LoraAdapterInfo& a);
/// The same as an `"adapter"` member of a JSON object.
void write_adapter_json(amn::JsonWriter& w, const LoraAdapterInfo& a);

/// Role of stored tensor `i` in words ("quantized", "scale", "companion", "passthrough", "unsupported").
std::string role_text(const Plan& plan, std::size_t i);

}  // namespace amn::cli
