// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
#include <QString>

namespace amn::ui {
/// Open `model`, render the main window (overview, Lethe chart, tensor
/// detail with its Values tab, metadata, light and dark) and the conversion
/// wizard pages (remember and forget) to PNG files in
/// `dir`. Runs the event loop; returns the process exit code.
int runScreenshots(const QString& dir, const QString& model);
}  // namespace amn::ui
