// SPDX-License-Identifier: MIT OR Apache-2.0
// The IQ grid maps and neighbour lists of iq_grid_search.hpp. ggml builds
// them from compact grid tables (kgrid_*: the levels of each point, 2 or 3
// bits per coordinate); those are the same grids iq_tables.hpp carries, so
// the levels are read back from there: IQ2 bytes {0x08, 0x19, 0x2b} and
// IQ1 values {−1, 0, +1} are levels 0, 1, 2; IQ3_XXS bytes are entries of
// its 8-value map; IQ3_S bytes are 2l+1 already.
//
// ggml sorts every off-grid key's distances to all grid points with qsort
// on (distance, index) and keeps the prefix with the `nwant` smallest
// distinct distances. The same list comes out of finding those distances
// first and then collecting indices in (distance, index) order, which is
// what this does (one pass per distance instead of a sort).
#include "kernels/gguf/iq_grid_search.hpp"
#include "kernels/gguf/iq_tables.hpp"

#include <algorithm>
#include <array>
#include <mutex>

namespace amn::kernels::gguf::iqgrid {

namespace {

template <class Grid, class LevelOf>
GridSearch build(const Grid& table, int dim, int bits, int nwant, LevelOf level_of) {
    GridSearch g;
    g.dim = dim;
    g.bits = bits;
    g.grid_size = static_cast<int>(table.size());
    g.grid.resize(static_cast<std::size_t>(g.grid_size) * static_cast<std::size_t>(dim));
    // Key space: ggml uses 43692 (2-bit, > 0xAAAA) and 4096 (3-bit).
    const int kmap_size = bits == 2 ? 43692 : 4096;
    g.map.assign(static_cast<std::size_t>(kmap_size), -1);
    for (int k = 0; k < g.grid_size; ++k) {
        int key = 0;
        for (int i = 0; i < dim; ++i) {
            const auto byte = static_cast<std::uint8_t>(table[static_cast<std::size_t>(k)] >> (8 * i));
            const int l = level_of(byte);
            g.grid[static_cast<std::size_t>(k * dim + i)] = static_cast<std::int8_t>(2 * l + 1);
            key |= l << (bits * i);
        }
        g.map[static_cast<std::size_t>(key)] = k;
    }

    const int mask = (1 << bits) - 1;
    std::vector<int> d2(static_cast<std::size_t>(g.grid_size));
    std::int8_t pos[8];
    for (int key = 0; key < kmap_size; ++key) {
        if (g.map[static_cast<std::size_t>(key)] >= 0) continue;
        for (int k = 0; k < dim; ++k) pos[k] = static_cast<std::int8_t>(2 * ((key >> (bits * k)) & mask) + 1);
        for (int j = 0; j < g.grid_size; ++j) {
            const std::int8_t* pg = g.point(j);
            int s = 0;
            for (int k = 0; k < dim; ++k) s += (pg[k] - pos[k]) * (pg[k] - pos[k]);
            d2[static_cast<std::size_t>(j)] = s;
        }
        // The nwant smallest distinct distances, ascending.
        std::array<int, 4> best{};
        int nbest = 0;
        for (const int s : d2) {
            int p = 0;
            while (p < nbest && best[static_cast<std::size_t>(p)] < s) ++p;
            if (p < nbest && best[static_cast<std::size_t>(p)] == s) continue;
            if (p >= nwant) continue;
            for (int q = std::min(nbest, nwant - 1); q > p; --q)
                best[static_cast<std::size_t>(q)] = best[static_cast<std::size_t>(q - 1)];
            best[static_cast<std::size_t>(p)] = s;
            nbest = std::min(nbest + 1, nwant);
        }
        const std::size_t start = g.neighbours.size();
        g.map[static_cast<std::size_t>(key)] = -static_cast<int>(start + 1);
        g.neighbours.push_back(0);
        for (int b = 0; b < nbest; ++b)
            for (int j = 0; j < g.grid_size; ++j)
                if (d2[static_cast<std::size_t>(j)] == best[static_cast<std::size_t>(b)])
                    g.neighbours.push_back(static_cast<std::uint16_t>(j));
        g.neighbours[start] = static_cast<std::uint16_t>(g.neighbours.size() - start - 1);
    }
    return g;
}

int level_iq2(std::uint8_t b) noexcept { return b == 0x08 ? 0 : b == 0x19 ? 1 : 2; }
int level_iq1(std::uint8_t b) noexcept { return b == 0xff ? 0 : b == 0x00 ? 1 : 2; }
int level_iq3xxs(std::uint8_t b) noexcept {
    for (int l = 0; l < 8; ++l)
        if (tables::hex::kMapIq3xxs[static_cast<std::size_t>(l)] == b) return l;
    return 0;
}
int level_iq3s(std::uint8_t b) noexcept { return (b - 1) / 2; }

struct Slot {
    std::once_flag once;
    GridSearch data;
};

}  // namespace

const GridSearch* grid_search(int ggml_id) {
    static Slot iq2xxs, iq2xs, iq2s, iq1, iq3xxs, iq3s;
    switch (ggml_id) {
        case 16:
            std::call_once(iq2xxs.once, [] { iq2xxs.data = build(tables::iq2xxs_grid, 8, 2, 2, level_iq2); });
            return &iq2xxs.data;
        case 17:
            std::call_once(iq2xs.once, [] { iq2xs.data = build(tables::iq2xs_grid, 8, 2, 2, level_iq2); });
            return &iq2xs.data;
        case 22:
            std::call_once(iq2s.once, [] { iq2s.data = build(tables::iq2s_grid, 8, 2, 1, level_iq2); });
            return &iq2s.data;
        case 19:
        case 29:
            std::call_once(iq1.once, [] { iq1.data = build(tables::iq1s_grid, 8, 2, 3, level_iq1); });
            return &iq1.data;
        case 18:
            std::call_once(iq3xxs.once, [] { iq3xxs.data = build(tables::iq3xxs_grid, 4, 3, 2, level_iq3xxs); });
            return &iq3xxs.data;
        case 21:
            std::call_once(iq3s.once, [] { iq3s.data = build(tables::iq3s_grid, 4, 3, 3, level_iq3s); });
            return &iq3s.data;
        default:
            return nullptr;
    }
}

}  // namespace amn::kernels::gguf::iqgrid
