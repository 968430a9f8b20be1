// InfiniCore's sampling rule, shared by RandomSample and RandomSampleBatch (one row each
// call), in double. `values` holds n logits; NaN ranks as -Inf.
//  - random_val == 0, topp == 0, topk == 1 or temperature == 0: the index of the largest
//    logit (the lowest such index on ties).
//  - otherwise: rank the logits from largest to smallest (ties: lower index first);
//    with max the largest, cum[i] = sum over ranks r <= i of exp((v_r - max) / temperature)
//    (so cum[0] = 1), K = topk when 0 < topk <= n else n, total = cum over all n;
//    limit = random_val * min(cum[K - 1], total * topp); the result is the index at
//    the first rank i with limit <= cum[i] (the rank K - 1 when none: random_val > 1).
#ifndef INFINICTS_REF_OP_OPS_SAMPLING_H
#define INFINICTS_REF_OP_OPS_SAMPLING_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/descriptor.h"
#include "core/dtype.h"

namespace infinicts::ref::op {

struct Sample {
  float random_val, topp, temperature;
  int topk;
};

// The largest index a result dtype can hold.
inline uint64_t LargestIndex(infiniDtype_t dtype) {
  uint64_t largest = 0;
  DispatchInteger(dtype, [&](auto tag) {
    using I = typename decltype(tag)::type;
    largest = static_cast<uint64_t>(std::numeric_limits<I>::max());
  });
  return largest;
}

// Bytes of scratch one row's draw needs: its logits in double and their ranking.
inline size_t SampleScratchBytes(size_t n) { return n * (sizeof(double) + sizeof(size_t)); }

inline double RankKey(double v) { return std::isnan(v) ? -INFINITY : v; }

// One draw over values[0, n); `order` is scratch of n entries.
inline size_t DrawSample(const double *values, size_t *order, size_t n, const Sample &s) {
  const auto ranks_before = [values](size_t a, size_t b) {
    const double ka = RankKey(values[a]), kb = RankKey(values[b]);
    return ka > kb || (ka == kb && a < b);
  };
  for (size_t i = 0; i < n; ++i) order[i] = i;
  if (s.random_val == 0 || s.topp == 0 || s.topk == 1 || s.temperature == 0) {
    return *std::min_element(order, order + n, ranks_before);
  }
  const size_t k = (s.topk > 0 && static_cast<size_t>(s.topk) <= n) ? static_cast<size_t>(s.topk) : n;
  std::partial_sort(order, order + k, order + n, ranks_before);
  const double max = RankKey(values[order[0]]);
  const double temperature = s.temperature;
  double total = 0;
  for (size_t i = 0; i < n; ++i) total += std::exp((RankKey(values[i]) - max) / temperature);
  double cum_k = 0;
  for (size_t i = 0; i < k; ++i) cum_k += std::exp((RankKey(values[order[i]]) - max) / temperature);
  const double limit = static_cast<double>(s.random_val) * std::min(cum_k, total * static_cast<double>(s.topp));
  double cum = 0;
  for (size_t i = 0; i < k; ++i) {
    cum += std::exp((RankKey(values[order[i]]) - max) / temperature);
    if (limit <= cum) return order[i];
  }
  return order[k - 1];
}

// Loads n logits of `dtype`, `step` elements apart, into `values` and draws one index.
inline size_t DrawFromRow(infiniDtype_t dtype, const void *row, ptrdiff_t step, size_t n, double *values,
                          size_t *order, const Sample &s) {
  DispatchFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *p = static_cast<const T *>(row);
    for (size_t i = 0; i < n; ++i) values[i] = LoadDouble(p[static_cast<ptrdiff_t>(i) * step]);
  });
  return DrawSample(values, order, n, s);
}

// Stores an index into one element of an integer result.
inline void StoreIndex(infiniDtype_t dtype, void *result, ptrdiff_t offset, size_t index) {
  DispatchInteger(dtype, [&](auto tag) {
    using I = typename decltype(tag)::type;
    static_cast<I *>(result)[offset] = static_cast<I>(index);
  });
}

// RandomSampleBatch's descriptors, for RandomSample's workspace query and destroy, which
// serve them (random_sample_batch.cc).
infiniStatus_t GetRandomSampleBatchWorkspaceSize(InfiniopDescriptor *desc, size_t *size);
infiniStatus_t DestroyRandomSampleBatchDescriptor(InfiniopDescriptor *desc);

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_SAMPLING_H
