// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The `general.*` key/values llama.cpp's convert_hf_to_gguf.py writes for a
// Hugging Face folder, from `general.type` to the end of the metadata block
// (before the architecture's parameters), and the file name it picks when no
// --outfile is given. Matches, as of llama.cpp 34af94cd:
// - conversion/base.py `ModelBase.prepare_metadata` (name fallback, size
//   label from the parameter counts), `set_type`, `TextModel.prepare_metadata`
//   (default file name);
// - gguf-py metadata.py `Metadata.load`, `load_model_card`,
//   `load_hf_parameters`, `load_generation_config`,
//   `apply_metadata_heuristic`, `set_gguf_meta_model`;
// - gguf-py gguf_writer.py `get_total_parameter_count`, the `add_*` calls
//   and their GGUF types, `add_string`/`add_array` (empty values skipped),
//   `_pack_val` (array element typing).
// Not supported (the CLI has no such options): `--metadata` override files,
// `--vocab-only` names, remote (`--remote`) models, MTP-only outputs.
//
// Where values come from, in the converter's order of precedence:
// 1. README.md YAML front matter (model_card.hpp): name/author/version/
//    organization/description/finetune/basename/size_label, `model_*`
//    variants, `model_creator`, `model_type` (→ basename), url/doi/uuid/
//    repo_url (→ general.source.*), base_model(s), datasets, license,
//    license_name, license_link, tags + pipeline_tag, languages + language;
// 2. config.json `_name_or_path` when it has at most one '/'
//    ("meta-llama/Llama-2-7b-hf" → organization "Meta Llama");
// 3. the folder's name (its last path component as given);
// 4. the size label from the parameter counts when still unset and total > 0;
// 5. `--model-name` replaces the name.
// Sampling parameters come from generation_config.json (top_k, top_p,
// temperature, min_p, xtc_*, penalty_*, mirostat*, sequence).
#include "anamnesis/metadata.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace amn::arch {

/// The parameter counts of gguf-py `GGUFWriter.get_total_parameter_count()`:
/// what the converter derives the size label from (and passes, as `total`,
/// to the name heuristics).
struct ParamCounts {
    std::int64_t total = 0;         ///< every element counted (negative: a LoRA adapter, not exact)
    std::int64_t shared = 0;        ///< elements of non-expert tensors
    std::int64_t expert = 0;        ///< elements of ONE expert summed over the expert tensors
    std::int64_t expert_count = 0;  ///< mean expert count of the expert tensors (floor), 0 without experts
};

/// Accumulates ParamCounts the way get_total_parameter_count walks the
/// writer's tensors. Feed it **every tensor the converter writes, in file
/// order, after conversion**: the GGUF name and the *logical* shape in GGUF
/// order (`ne`, elements — for a quantized tensor the element shape, not its
/// byte shape), so:
/// - generated tensors count (`rope_freqs`, `rope_factors_long/short`,
///   NVFP4 `.scale`/`.input_scale`), dropped ones do not;
/// - merged MoE experts count as the one 3-D tensor (`blk.N.ffn_*_exps.weight`,
///   ne = [cols, rows, n_expert]); the output type changes nothing.
/// Rule per tensor: size = product of ne (1 for no dims); a name containing
/// "_exps." with ≥ 3 dims is an expert tensor: n = ne[2] (ne[1] when the name
/// contains ".bias"), expert += size / n, its n enters the mean expert count;
/// everything else adds to shared; total adds size. "*.lora_a" tensors are
/// not counted themselves; a following "*.lora_b" counts with ne[0] replaced
/// by its lora_a's ne[0] (an unpaired lora_b makes every count 0), and the
/// presence of a lora_a negates the total.
class ParamCounter {
public:
    void add(std::string_view gguf_name, std::span<const std::uint64_t> ne);
    /// Every tensor of `tensors` (members `name`, the GGUF name, and `shape`,
    /// row-major: read reversed as ne), in order, as add() counts them.
    template <class Tensors>
    void add_all(const Tensors& tensors) {
        for (const auto& t : tensors) {
            const std::vector<std::uint64_t> ne(t.shape.rbegin(), t.shape.rend());
            add(t.name, ne);
        }
    }
    ParamCounts counts() const noexcept;

private:
    std::int64_t total_ = 0, shared_ = 0, expert_ = 0, expert_sum_ = 0, n_expert_tensors_ = 0;
    bool bail_ = false, have_lora_a_ = false;
    std::string lora_a_name_;
    std::uint64_t lora_a_ne0_ = 1;
};

/// What general_kvs() reads. The texts are the files' bytes (nullopt when
/// the file does not exist).
struct GeneralInputs {
    std::string folder;  ///< the model folder as given: its last component (path_name()) names the model
    std::optional<std::string> config_json;             ///< config.json
    std::optional<std::string> readme;                  ///< README.md
    std::optional<std::string> generation_config_json;  ///< generation_config.json
    std::optional<std::string> model_name;              ///< `--model-name` (replaces general.name)
    ParamCounts params;                                 ///< see ParamCounter
};

/// Read config.json, README.md and generation_config.json of `folder` (each
/// when it is a file) into GeneralInputs with `params`.
/// \throws Error{NotRegularFile} when `folder` is not a directory, Error{Io}
///         when a present file cannot be read (naming it).
GeneralInputs read_general_inputs(const std::string& folder, const ParamCounts& params);

/// The naming fields after the heuristics (gguf-py `Metadata` name, basename,
/// finetune, version, size_label), for default_gguf_name(). A field the
/// model card set to a falsy non-string (`version: 0`) is written nowhere
/// and listed in `non_string` (the converter fails building a default file
/// name from it); such a size label keeps its Python `str()` text.
struct GeneralNaming {
    std::optional<std::string> name, basename, finetune, version, size_label;
    std::set<std::string> non_string;  ///< "name", "basename", "finetune", "version"
};

/// general_kvs()'s result.
struct GeneralKvs {
    /// From `general.type` ("model") to the last metadata key
    /// (`general.languages` at the latest), in the converter's order and types:
    /// general.type, general.sampling.{sequence, top_k, top_p, min_p,
    /// xtc_probability, xtc_threshold, temp, penalty_last_n, penalty_repeat,
    /// mirostat, mirostat_tau, mirostat_eta}, general.{name, author, version,
    /// organization, finetune, basename, description, quantized_by,
    /// size_label, license, license.name, license.link, source.url,
    /// source.doi, source.uuid, source.repo_url}, general.base_model.count,
    /// general.base_model.N.{name, author, version, organization,
    /// description, url, doi, uuid, repo_url}, general.dataset.count (same
    /// per-dataset keys), general.tags, general.languages. Strings are
    /// STRING (an empty one is left out), top_k/penalty_last_n/mirostat
    /// INT32, the other sampling values FLOAT32, the counts UINT32, tags and
    /// languages arrays typed by their first element (STRING normally).
    /// general.quantized_by, general.url/doi/uuid/repo_url are in the
    /// converter's sequence too but only a --metadata file sets them (the
    /// model card's url/doi/uuid/repo_url go to general.source.*): never
    /// written here.
    std::vector<MetaKv> kvs;
    GeneralNaming naming;
    /// What gguf-py only logs: a front matter that is not a mapping, a
    /// base model / dataset entry of an unknown form, an unreadable
    /// generation_config.json (ignored).
    std::vector<std::string> warnings;
};

/// The converter's general block for `in` (see GeneralKvs).
/// \throws Error naming the file whose content the converter fails on:
///  - README.md: not UTF-8 (BadText); YAML PyYAML refuses (Malformed); a
///    value the writer cannot store: a truthy non-string where a string goes
///    (`version: 1.0`), a license list with non-strings, tags/languages with
///    mixed element types or elements that are None, dicts, dates, or an
///    INT32 out of range (Unsupported);
///  - config.json: not JSON, not an object, `_name_or_path` not a string
///    (BadJson);
///  - generation_config.json: a JSON value that is not an object, or a
///    sampling value of a type the writer cannot pack (`top_k: 40.0`,
///    a string, an int outside INT32, a float beyond f32) (BadJson).
GeneralKvs general_kvs(const GeneralInputs& in);

/// The file name the converter writes when no --outfile is given, placed in
/// the model folder itself (`dir_model / name`): gguf-py
/// `naming_convention(name, basename, finetune, version, size_label,
/// output_type, "LoRA" if total < 0)` + ".gguf", e.g.
/// "Mixtral-8x7B-v0.1-BF16.gguf", "Meta-Llama-3-8.2M-8b-Instruct-F16.gguf".
/// `output_type` as converter_output_type() (gguf_ftype.hpp) gives it (upper-cased anyway).
/// \throws Error{Unsupported} when a field it needs is a non-string (see
///         GeneralNaming::non_string), as the converter then fails.
std::string default_gguf_name(const GeneralNaming& naming, std::string_view output_type, const ParamCounts& params);

}  // namespace amn::arch
