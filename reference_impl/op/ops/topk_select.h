// The selection both MoE routers make (Topksoftmax, Topkrouter): the k largest of n scores,
// largest first, ties to the lower index.
#ifndef INFINICTS_REF_OP_OPS_TOPK_SELECT_H
#define INFINICTS_REF_OP_OPS_TOPK_SELECT_H

#include <math.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/host_device.h"

namespace infinicts::ref::op {

// best[0 .. k) and chosen[0 .. k) get the k largest of n scores (score(i)) and their
// positions, in order. One pass keeping the k best seen so far sorted: a score enters only
// when it beats the k-th, so with the routers' small k (2 to 8 of up to 256 experts) most
// cost one compare. Only a strictly larger score moves ahead of an equal one, which was
// seen earlier and so has the lower index. 1 <= k <= n. Host and device code: the CUDA
// routers (cuda/moe_routing.h) run it too.
template <class Score, class Index, class Load>
INFINICTS_HOST_DEVICE void SelectTopK(const Load &score, int64_t n, int64_t k, Score *best, Index *chosen) {
  int64_t filled = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Score value = score(i);
    if (filled == k && !(value > best[k - 1])) continue;
    int64_t place = filled < k ? filled++ : k - 1;  // when full, the k-th drops out
    while (place > 0 && value > best[place - 1]) {
      best[place] = best[place - 1];
      chosen[place] = chosen[place - 1];
      --place;
    }
    best[place] = value;
    chosen[place] = static_cast<Index>(i);
  }
}

// The sum of the two largest of value(i) for first <= i < end (equal ones both count):
// Topkrouter's group score.
template <class Load>
INFINICTS_HOST_DEVICE double SumOfTwoLargest(const Load &value, int64_t first, int64_t end) {
  double largest = -INFINITY, second = -INFINITY;
  for (int64_t i = first; i < end; ++i) {
    const double v = value(i);
    if (v > largest) {
      second = largest;
      largest = v;
    } else if (v > second) {
      second = v;
    }
  }
  return largest + second;
}

// Per-thread scratch of at least n elements, one buffer per `slot`, reused across rows and calls.
template <class T, int slot>
T *RouterScratch(size_t n) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_TOPK_SELECT_H
