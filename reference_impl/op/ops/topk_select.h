// The selection both MoE routers make (Topksoftmax, Topkrouter): the k largest of n scores,
// largest first, ties to the lower index.
#ifndef INFINICTS_REF_OP_OPS_TOPK_SELECT_H
#define INFINICTS_REF_OP_OPS_TOPK_SELECT_H

#include <cstddef>
#include <vector>

namespace infinicts::ref::op {

// best[0 .. k) and chosen[0 .. k) get the k largest scores and their positions, in order.
// One pass keeping the k best seen so far sorted: a score enters only when it beats the
// k-th, so with the routers' small k (2 to 8 of up to 256 experts) most cost one compare.
// Only a strictly larger score moves ahead of an equal one, which was seen earlier and so
// has the lower index. 1 <= k <= n.
template <class Score, class Index>
void SelectTopK(const Score *scores, size_t n, size_t k, Score *best, Index *chosen) {
  size_t filled = 0;
  for (size_t i = 0; i < n; ++i) {
    const Score score = scores[i];
    if (filled == k && !(score > best[k - 1])) continue;
    size_t place = filled < k ? filled++ : k - 1;  // when full, the k-th drops out
    while (place > 0 && score > best[place - 1]) {
      best[place] = best[place - 1];
      chosen[place] = chosen[place - 1];
      --place;
    }
    best[place] = score;
    chosen[place] = static_cast<Index>(i);
  }
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
