// SPDX-License-Identifier: MIT OR Apache-2.0
// amn — the headless front end of anamnesis.
#include "anamnesis/kernels.hpp"
#include "cli.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace amn::cli;

int main(int argc, char** argv) {
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
    Args args(rest);
    try {
        if (args.flag("--help", "-h")) {
            print_help(stdout, verb);
            return kOk;
        }
        if (verb == "parse") return cmd_parse(args);
        if (verb == "inspect" || verb == "info") return cmd_inspect(args);
        if (verb == "remember" || verb == "dequantize") return cmd_remember(args, false);
        if (verb == "convert") return cmd_remember(args, true);
        if (verb == "forget" || verb == "quantize") return cmd_forget(args);
        std::fprintf(stderr, "amn: unknown command '%s' (see 'amn --help')\n", verb.c_str());
        return kUsage;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "amn %s: %s (see 'amn %s --help')\n", verb.c_str(), e.message.c_str(), verb.c_str());
        return kUsage;
    } catch (const amn::Error& e) {
        std::fprintf(stderr, "amn: error: %s\n", e.what());
        return kError;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "amn: error: %s\n", e.what());
        return kError;
    }
}
