// SPDX-License-Identifier: MIT OR Apache-2.0
// The split options every GGUF verb takes (llama.cpp's names) and how the
// files of a GGUF output are listed.
#include "anamnesis/error.hpp"
#include "anamnesis/human_bytes.hpp"
#include "anamnesis/json_writer.hpp"
#include "cli.hpp"

#include <cstdio>

namespace amn::cli {

GgufSplitOptions parse_split_options(Args& args, bool keep) {
    GgufSplitOptions o;
    if (auto v = args.option("--split-max-size")) {
        try {
            o.max_bytes = parse_split_max_size(*v);
        } catch (const Error& e) {
            throw UsageError{e.message()};
        }
    }
    if (auto v = args.option("--split-max-tensors")) {
        try {
            std::size_t used = 0;
            const unsigned long long n = std::stoull(*v, &used);
            if (used != v->size() || n == 0 || n > (1ull << 31)) throw 0;
            o.max_tensors = n;
        } catch (...) {
            throw UsageError{"--split-max-tensors must be a number of tensors (1 or more), not '" + *v + "'"};
        }
    }
    o.no_tensor_first_split = args.flag("--no-tensor-first-split");
    if (keep) o.keep_split = args.flag("--keep-split");
    return o;
}

void print_gguf_files(const std::vector<GgufOutputFile>& files, bool planned) {
    if (files.size() == 1 && !planned) {
        std::printf("  wrote %s\n", printable(files[0].path).c_str());
        return;
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto& f = files[i];
        std::printf("  %s %s  (%zu tensor(s), %s)\n", planned ? "would write" : "wrote", printable(f.path).c_str(), f.tensors,
                    human_bytes(f.bytes).c_str());
    }
}

void write_gguf_files_json(JsonWriter& w, const std::vector<GgufOutputFile>& files) {
    w.key("files").begin_array();
    for (const auto& f : files)
        w.begin_object().key("path").value(f.path).key("bytes").value(f.bytes).key("tensors").value(
            static_cast<std::uint64_t>(f.tensors)).end_object();
    w.end_array();
}

}  // namespace amn::cli
