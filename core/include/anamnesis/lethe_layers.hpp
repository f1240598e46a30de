// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file lethe_layers.hpp
/// "What Lethe took" per layer: the logical tensors grouped by the layer
/// their name gives, with their stored bytes and bits per weight — the
/// numbers the GUI's Lethe chart shows. Read from the plan only (no tensor
/// data is read).

#include "anamnesis/plan.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace amn {

/// The layer a tensor name belongs to: the name up to and including its
/// first all-digit dotted component ("model.layers.12.mlp.up_proj.weight" →
/// "model.layers.12", "blk.3.attn_q.weight" → "blk.3"); "" when the name has
/// no numeric component (embeddings, final norm, head).
std::string layer_of(const std::string& tensor_name);

/// "What Lethe took" for one layer: logical tensors grouped by `layer_of`.
struct LayerLethe {
    std::string layer;                 ///< layer_of() key; "" = outside the numbered layers
    std::size_t tensors = 0;           ///< logical tensors in the layer
    std::size_t quantized_tensors = 0;
    std::uint64_t parameters = 0;      ///< elements of its logical tensors
    std::uint64_t stored_bytes = 0;    ///< bytes of all their sources in the input
    std::uint64_t bf16_bytes = 0;      ///< 2 × parameters
    /// Stored bits per weight = stored_bytes × 8 / parameters (0 if none).
    double bits_per_weight() const noexcept;
    /// bf16_bytes − stored_bytes when positive, else 0: bytes quantization saved.
    std::uint64_t saved_bytes() const noexcept;
};

/// Per-layer figures: numbered layers sorted by prefix, then numerically by
/// their number ("layers.2" before "layers.10"); the un-numbered group ("") last.
std::vector<LayerLethe> lethe_by_layer(const Plan& plan);

}  // namespace amn
