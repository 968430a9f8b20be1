// RandomSample's ranking (larger key first, lower index on ties, NaN as -Inf) and the
// bitonic sort that orders (key, index) pairs by it, apart from the kernels
// (random_sample.cu) so that the CPU tests run the very same steps: the compare-exchange,
// the pairing of threads, the stages a tile runs in shared memory and the launch schedule.
#ifndef INFINICTS_REF_OP_CUDA_ROWS_BITONIC_RANK_H
#define INFINICTS_REF_OP_CUDA_ROWS_BITONIC_RANK_H

#include <cmath>
#include <cstdint>

#include "cuda/rows/rows_geometry.h"  // INFINICTS_HOST_DEVICE

namespace infinicts::ref::op::cuda_rows {

constexpr int64_t kSortTile = 2048;  // sorted in shared memory, two elements a thread

inline int64_t PaddedCount(int64_t n) {
  int64_t padded = 1;
  while (padded < n) padded <<= 1;
  return padded;
}

INFINICTS_HOST_DEVICE inline double RankKey(double v) { return v != v ? -INFINITY : v; }

// Whether (key a, index a) ranks before (key b, index b).
INFINICTS_HOST_DEVICE inline bool RanksBefore(double key_a, int64_t index_a, double key_b, int64_t index_b) {
  return key_a > key_b || (key_a == key_b && index_a < index_b);
}

// The compare-exchange of a bitonic sort for the pair (i, i + j) of stage k: in blocks
// where bit k of i is clear the pair ends in rank order, else in reverse rank order, so
// every stage leaves runs of 2k in alternating order and the last one (k = padded) ranks
// all. `global_i` is i's place in the whole array (i may be a tile's own index).
INFINICTS_HOST_DEVICE inline void CompareExchange(double *keys, int64_t *indices, int64_t i, int64_t j,
                                                       int64_t global_i, int64_t k) {
  const int64_t partner = i + j;
  const bool forward = (global_i & k) == 0;
  const bool before = RanksBefore(keys[i], indices[i], keys[partner], indices[partner]);
  if (before != forward) {
    const double key = keys[i];
    keys[i] = keys[partner];
    keys[partner] = key;
    const int64_t index = indices[i];
    indices[i] = indices[partner];
    indices[partner] = index;
  }
}

// The element of pair t for distance j: the t-th index with bit j clear.
INFINICTS_HOST_DEVICE inline int64_t PairFirst(int64_t t, int64_t j) { return (t / j) * 2 * j + t % j; }

// The steps (k, j) a tile of `tile` elements runs for stages k_first .. k_last (powers of
// two), each from j = min(k, tile) / 2 down to 1; all pairs of one step are disjoint.
template <class Step>
INFINICTS_HOST_DEVICE void ForEachTileStep(int64_t tile, int64_t k_first, int64_t k_last, Step step) {
  for (int64_t k = k_first; k <= k_last; k <<= 1) {
    for (int64_t j = (k < tile ? k : tile) / 2; j > 0; j >>= 1) step(k, j);
  }
}

// The whole sort of `padded` (a power of two) elements with tiles of `tile` (a power of
// two, at most padded): tile_steps(k_first, k_last) runs stages inside every tile,
// global_step(k, j) one step over the whole array for distances j >= tile.
template <class TileSteps, class GlobalStep>
void RunBitonicSchedule(int64_t padded, int64_t tile, TileSteps tile_steps, GlobalStep global_step) {
  if (padded <= 1) return;
  tile_steps(2, tile);
  for (int64_t k = 2 * tile; k <= padded; k <<= 1) {
    for (int64_t j = k / 2; j >= tile; j >>= 1) global_step(k, j);
    tile_steps(k, k);
  }
}

}  // namespace infinicts::ref::op::cuda_rows

#endif  // INFINICTS_REF_OP_CUDA_ROWS_BITONIC_RANK_H
