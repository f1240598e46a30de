// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: pieces shared by ggml's IQ2/IQ3 grid quantizers
// (quantize_iq2.cc, quantize_iq3.cc): the weights, the even-parity sign
// split, and the nearest-neighbour pick for a level vector that is not on
// the grid. Same f32 operations and order as ggml-quants.c.

#include "kernels/gguf/iq_grid_search.hpp"
#include "kernels/gguf/quantize_search.hpp"

#include <cfloat>
#include <cstddef>
#include <cmath>
#include <cstdint>

namespace amn::kernels::gguf::iqcommon {

/// Sum of squares of a 256-super-block times 2/256 (ggml's sigma2 for the IQ types).
inline float sigma2x2(const float* xbl) noexcept {
    float sumx2 = 0;
    for (int i = 0; i < search::QK_K; ++i) sumx2 += xbl[i] * xbl[i];
    return 2 * sumx2 / search::QK_K;
}

/// Magnitudes of 8 values into xval and their sign bits; with `even_parity`
/// (IQ2_XXS, IQ2_XS, IQ3_XXS store 7 sign bits and imply the 8th) an odd
/// number of negatives is made even by flipping the value with the smallest
/// weight·x² (its magnitude becomes negative). Returns the sign bits.
inline std::uint8_t split_signs(const float* xb, const float* weight, float* xval, bool even_parity) noexcept {
    int nflip = 0;
    std::uint8_t s = 0;
    for (int i = 0; i < 8; ++i) {
        if (xb[i] >= 0) {
            xval[i] = xb[i];
        } else {
            xval[i] = -xb[i];
            ++nflip;
            s = static_cast<std::uint8_t>(s | (1u << i));
        }
    }
    if (even_parity && nflip % 2) {
        int imin = 0;
        float min = weight[0] * xb[0] * xb[0];
        for (int i = 1; i < 8; ++i) {
            const float ax = weight[i] * xb[i] * xb[i];
            if (ax < min) {
                min = ax;
                imin = i;
            }
        }
        xval[imin] = -xval[imin];
        s = static_cast<std::uint8_t>(s ^ (1u << imin));
    }
    return s;
}

/// Levels (0..) of `n` magnitudes at inverse scale id: nearest_int(0.5·(id·x − 1))
/// clamped to [0, kmax−1], and their grid key.
inline int levels_and_key(const float* xval, int n, float id, int kmax, int bits, std::int8_t* L) noexcept {
    int key = 0;
    for (int i = 0; i < n; ++i) {
        int l = q::nearest_int(0.5f * (id * xval[i] - 1));
        l = l < 0 ? 0 : l > kmax - 1 ? kmax - 1 : l;
        L[i] = static_cast<std::int8_t>(l);
        key |= l << (bits * i);
    }
    return key;
}

/// ggml iq2_find_best_neighbour / iq3_find_best_neighbour: among the
/// neighbours of an off-grid key, the grid point with the smallest
/// Σ w·(scale·q − x)²; writes its levels to L, returns its index.
inline int find_best_neighbour(const iqgrid::GridSearch& g, const std::uint16_t* neighbours, const float* xval,
                               const float* weight, float scale, std::int8_t* L) noexcept {
    const int num_neighbors = neighbours[0];
    float best_d2 = FLT_MAX;
    int grid_index = -1;
    for (int j = 1; j <= num_neighbors; ++j) {
        const std::int8_t* pg = g.point(neighbours[j]);
        float d2 = 0;
        for (int i = 0; i < g.dim; ++i) {
            const float q = pg[i];
            const float diff = scale * q - xval[i];
            d2 += weight[i] * diff * diff;
        }
        if (d2 < best_d2) {
            best_d2 = d2;
            grid_index = neighbours[j];
        }
    }
    if (grid_index < 0) grid_index = neighbours[1];  // ggml asserts; only NaN input gets here
    const std::int8_t* pg = g.point(grid_index);
    for (int i = 0; i < g.dim; ++i) L[i] = static_cast<std::int8_t>((pg[i] - 1) / 2);
    return grid_index;
}

/// Grid index of level vector L (on the grid after the search), or the
/// best neighbour of it.
inline int key_of(const std::int8_t* L, int dim, int bits) noexcept {
    int key = 0;
    for (int i = 0; i < dim; ++i) key |= L[i] << (bits * i);
    return key;
}

/// Σ w·x·q and Σ w·q² for q = 2L+1 over n values.
inline void fit(int n, const float* weight, const float* xval, const std::int8_t* L, float& sumqx, float& sumq2) noexcept {
    sumqx = 0;
    sumq2 = 0;
    for (int i = 0; i < n; ++i) {
        const float w = weight[i];
        const float q = static_cast<float>(2 * L[i] + 1);
        sumqx += w * xval[i] * q;
        sumq2 += w * q * q;
    }
}


/// The scale search shared by IQ3_XXS, IQ3_S, IQ2_XS and IQ2_S: for the
/// inverse scales (2·kmax − 1 + is·step)/max, is = −nsteps..nsteps, map
/// every group of g.dim magnitudes to levels, replace off-grid groups by
/// their best neighbour, and keep the levels with the best Σwxq²/Σwq².
/// Then, if a group of the winner was off the grid (every group when
/// `refine_all`), re-map those groups with the winning scale and refit.
/// `on_grid_init` is what ggml assumes before any candidate wins.
struct GridFit {
    int kmax;          ///< levels 0..kmax−1
    int nsteps;        ///< is = −nsteps..nsteps
    float step;        ///< 0.1f or 0.2f
    bool on_grid_init;
    bool refine_all;
};

inline float grid_fit(const iqgrid::GridSearch& g, const GridFit& p, int n, const float* xval, const float* weight,
                      const float* waux, float max, std::int8_t* L) {
    const int dim = g.dim;
    const int ngroups = n / dim;
    std::int8_t Laux[32];
    bool on[8], on_aux[8];
    float best = 0;
    float scale = max / static_cast<float>(2 * p.kmax - 1);
    for (int k = 0; k < ngroups; ++k) on[k] = p.on_grid_init;
    for (int is = -p.nsteps; is <= p.nsteps; ++is) {
        const float id = (static_cast<float>(2 * p.kmax - 1) + static_cast<float>(is) * p.step) / max;
        const float this_scale = 1 / id;
        for (int k = 0; k < ngroups; ++k) {
            const int key = levels_and_key(xval + dim * k, dim, id, p.kmax, g.bits, Laux + dim * k);
            on_aux[k] = true;
            if (g.map[static_cast<std::size_t>(key)] < 0) {
                on_aux[k] = false;
                find_best_neighbour(g, g.neighbours_of(key), xval + dim * k, waux + dim * k, this_scale, Laux + dim * k);
            }
        }
        float sumqx, sumq2;
        fit(n, weight, xval, Laux, sumqx, sumq2);
        if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
            scale = sumqx / sumq2;
            best = scale * sumqx;
            for (int i = 0; i < n; ++i) L[i] = Laux[i];
            for (int k = 0; k < ngroups; ++k) on[k] = on_aux[k];
        }
    }
    int n_not_ongrid = 0;
    for (int k = 0; k < ngroups; ++k)
        if (!on[k]) ++n_not_ongrid;
    if (n_not_ongrid > 0 && scale > 0) {
        const float id = 1 / scale;
        for (int k = 0; k < ngroups; ++k) {
            if (!p.refine_all && on[k]) continue;
            const int key = levels_and_key(xval + dim * k, dim, id, p.kmax, g.bits, L + dim * k);
            if (g.map[static_cast<std::size_t>(key)] < 0)
                find_best_neighbour(g, g.neighbours_of(key), xval + dim * k, waux + dim * k, scale, L + dim * k);
        }
        float sumqx, sumq2;
        fit(n, weight, xval, L, sumqx, sumq2);
        if (sumq2 > 0) scale = sumqx / sumq2;
    }
    return scale;
}

/// Grid index of the level group at L (ggml aborts when it is off the grid,
/// which the search rules out).
inline int grid_index_of(const iqgrid::GridSearch& g, const std::int8_t* L) noexcept {
    const int index = g.map[static_cast<std::size_t>(key_of(L, g.dim, g.bits))];
    return index < 0 ? 0 : index;
}

}  // namespace amn::kernels::gguf::iqcommon
