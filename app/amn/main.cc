// SPDX-License-Identifier: MIT OR Apache-2.0
// amn — the headless front end of anamnesis.
#include "anamnesis/remember.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/remote.hpp"
#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <algorithm>
#include <string>
#include <vector>

using namespace amn::cli;

namespace {

// AMN_SIMD_TARGET=NAME runs every kernel on that Highway target (bytes are
// the same on all; benchmarks of another machine's instruction set).
bool apply_simd_target() {
    const char* want = std::getenv("AMN_SIMD_TARGET");
    if (!want || !*want || amn::kernels::pin_target(want)) return true;
    std::string list;
    for (const auto& n : amn::kernels::available_target_names()) list += (list.empty() ? "" : ", ") + n;
    std::fprintf(stderr, "amn: AMN_SIMD_TARGET=%s: not a SIMD target of this build and CPU (available: %s)\n", want,
                 list.c_str());
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    if (!apply_simd_target()) return kUsage;
    std::vector<std::string> rest(argv + 1, argv + argc);
    if (rest.empty()) {
        print_help(stderr, "");
        return kUsage;
    }
    const std::string verb = rest.front();
    rest.erase(rest.begin());
    if (verb == "--version" || verb == "-V" || verb == "version") {
        std::printf("amn (anamnesis) %s\nSIMD target: %s\n", AMN_VERSION, amn::kernels::active_target_name());
        return kOk;
    }
    if (verb == "--help" || verb == "-h" || verb == "help") {
        print_help(stdout, rest.empty() ? "" : rest.front());
        return kOk;
    }
    // The model argument, for errors that carry no file (std::bad_alloc):
    // the first positional, skipping the values of options that take one.
    std::string model;
    std::size_t model_at = SIZE_MAX;  // its index in `rest`
    {
        static const char* const kValued[] = {"-o", "--output", "--to", "--threads", "--layout", "--imatrix", "--tensor-type",
                                              "--output-tensor-type", "--token-embedding-type", "--outfile", "--vocab-pre",
                                              "--split-max-size", "--split-max-tensors"};
        for (std::size_t i = 0; i < rest.size(); ++i) {
            const std::string& a = rest[i];
            if (a == "--") { if (i + 1 < rest.size()) { model = rest[i + 1]; model_at = i + 1; } break; }
            if (!a.empty() && a[0] == '-') {
                if (a.find('=') == std::string::npos)
                    for (const char* v : kValued)
                        if (a == v) { ++i; break; }
                continue;
            }
            model = a;
            model_at = i;
            break;
        }
    }
    // Stale temporary files removed while writing output: one line each.
    struct CleanupNotes {
        ~CleanupNotes() {
            for (const auto& m : amn::take_output_cleanup_messages()) std::fprintf(stderr, "amn: note: %s\n", printable(m).c_str());
        }
    } cleanup_notes;
    try {
        const bool help = std::find(rest.begin(), rest.end(), "--help") != rest.end() ||
                          std::find(rest.begin(), rest.end(), "-h") != rest.end();
        // A remote model for a command that reads tensor data: its files are
        // downloaded first (resumable), then read as a local model.
        if (!help && (verb == "remember" || verb == "dequantize" || verb == "convert" || verb == "forget" || verb == "quantize") &&
            amn::is_remote_model(model) && model_at != SIZE_MAX)
            rest[model_at] = download_remote_model(model, rest);
        Args args(rest);
        if (args.flag("--help", "-h")) {
            print_help(stdout, verb);
            return kOk;
        }
        if (verb == "parse") return cmd_parse(args);
        if (verb == "inspect" || verb == "info") return cmd_inspect(args);
        if (verb == "remember" || verb == "dequantize") return cmd_remember(args, false);
        if (verb == "convert") return cmd_remember(args, true);
        if (verb == "forget" || verb == "quantize") return cmd_forget(args);
        std::fprintf(stderr, "amn: unknown command '%s' (see 'amn --help')\n", printable(verb).c_str());
        return kUsage;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "amn %s: %s (see 'amn %s --help')\n", printable(verb).c_str(), printable(e.message).c_str(),
                     printable(verb).c_str());
        return kUsage;
    } catch (const amn::Error& e) {
        std::fprintf(stderr, "amn: error: %s\n", printable(e.what()).c_str());
        return kError;
    } catch (const std::bad_alloc&) {
        // Far more memory than the machine has, asked for by a (corrupt or
        // hostile) file: name the file instead of aborting.
        std::fprintf(stderr, "amn: error: %s: out of memory (the file asks for more memory than is available)\n",
                     printable(model.empty() ? verb : model).c_str());
        return kError;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "amn: error: %s%s%s\n", model.empty() ? "" : printable(model).c_str(), model.empty() ? "" : ": ",
                     printable(e.what()).c_str());
        return kError;
    }
}
