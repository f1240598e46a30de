// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the search structures ggml's IQ quantizers build at init
// (ggml-quants.c iq2xs_init_impl / iq3xs_init_impl), rebuilt here from the
// grids of iq_tables.hpp, once per grid and thread-safely.
//
// A grid point is a vector of `dim` (8 or 4) small levels l; ggml works with
// the odd values 2l+1. Its key packs the levels, `bits` (2 or 3) per
// coordinate, lowest coordinate first. For every key of the key space:
// - map[key] ≥ 0: the key is grid point map[key];
// - map[key] < 0: it is not on the grid; neighbours[−map[key] − 1] holds
//   the count n, followed by the n grid indices nearest to it (squared
//   distance of the odd values, ascending, ties by index) whose distance is
//   among the `nwant` smallest distinct distances (IQ2_XXS, IQ2_XS: 2;
//   IQ2_S: 1; IQ1_S, IQ1_M: 3; IQ3_XXS: 2; IQ3_S: 3).

#include <cstdint>
#include <vector>

namespace amn::kernels::gguf::iqgrid {

struct GridSearch {
    int dim = 0;                          ///< coordinates per grid point (8 or 4)
    int bits = 0;                         ///< key bits per coordinate (2 or 3)
    int grid_size = 0;
    std::vector<std::int8_t> grid;        ///< grid_size × dim odd values 2l+1
    std::vector<int> map;                 ///< per key: grid index, or −(offset + 1)
    std::vector<std::uint16_t> neighbours;

    const std::int8_t* point(int index) const noexcept { return grid.data() + index * dim; }
    /// Neighbour list of an off-grid key (first element: the count).
    const std::uint16_t* neighbours_of(int key) const noexcept { return neighbours.data() + (-map[key] - 1); }
};

/// The structure ggml_quantize_init builds for ggml type `ggml_id`: IQ2_XXS
/// (16), IQ2_XS (17), IQ2_S (22), IQ1_S (19) and IQ1_M (29) — these two
/// share one —, IQ3_XXS (18), IQ3_S (21). Built on first use; nullptr for
/// any other id.
const GridSearch* grid_search(int ggml_id);

}  // namespace amn::kernels::gguf::iqgrid
