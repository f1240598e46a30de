// SPDX-License-Identifier: MIT OR Apache-2.0
#include "progress_bar.hpp"

#include <csignal>

namespace amn::cli {

namespace {
std::atomic<bool> g_cancel{false};
extern "C" void on_signal(int) { g_cancel.store(true); }
}  // namespace

const std::atomic<bool>& install_cancel_signals() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGHUP, on_signal);
    return g_cancel;
}

}  // namespace amn::cli
