// Topkrouter's routing of one token row once its sigmoids are known, one copy for both paths:
// ops/topkrouter.cc (whose sigmoids come from the vector kernel) and the CUDA thread per row
// (cuda/moe_routing.h), so the host tests of the one check the other.
#ifndef INFINICTS_REF_OP_OPS_TOPKROUTER_ROUTE_H
#define INFINICTS_REF_OP_OPS_TOPKROUTER_ROUTE_H

#include <cstdint>

#include "core/host_device.h"
#include "ops/topk_select.h"

namespace infinicts::ref::op {

// DeepSeek-V3's shape: 256 experts in 8 groups of 32, 4 groups kept.
constexpr int64_t kRouterExperts = 256, kRouterGroups = 8, kRouterGroupSize = 32, kRouterKeptGroups = 4;
constexpr double kRouterSumEpsilon = 1e-9;

// scores: the row's sigmoids s (F32); bias(i): correction bias i (F32). b = s + bias selects;
// a group scores the sum of its two largest b; the 4 best groups stay (ties: the lower
// group); the topk largest b of those (0 elsewhere; ties: the lower expert) go to indices,
// largest first, and scale · s / (Σ s of the chosen + 1e-9) to values, all in double.
// Scratch: choice of kRouterExperts, best of topk. 1 <= topk <= kRouterExperts.
template <class LoadBias>
INFINICTS_HOST_DEVICE void RouteTopkrouterRow(const float *scores, const LoadBias &bias, float scale, int64_t topk,
                                              double *choice, double *best, float *values, int32_t *indices) {
  for (int64_t i = 0; i < kRouterExperts; ++i) {
    choice[i] = static_cast<double>(scores[i]) + static_cast<double>(bias(i));
  }
  double group_score[kRouterGroups];
  for (int64_t g = 0; g < kRouterGroups; ++g) {
    group_score[g] = SumOfTwoLargest([&](int64_t i) { return choice[i]; }, g * kRouterGroupSize,
                                     (g + 1) * kRouterGroupSize);
  }
  double kept_score[kRouterKeptGroups];
  int32_t kept_group[kRouterKeptGroups];
  SelectTopK<double>([&](int64_t g) { return group_score[g]; }, kRouterGroups, kRouterKeptGroups, kept_score,
                     kept_group);
  bool kept[kRouterGroups] = {};
  for (int32_t g : kept_group) kept[g] = true;
  for (int64_t i = 0; i < kRouterExperts; ++i) {
    if (!kept[i / kRouterGroupSize]) choice[i] = 0.0;
  }
  SelectTopK<double>([&](int64_t i) { return choice[i]; }, kRouterExperts, topk, best, indices);
  double sum = kRouterSumEpsilon;
  for (int64_t j = 0; j < topk; ++j) sum += static_cast<double>(scores[indices[j]]);
  const double factor = static_cast<double>(scale) / sum;
  for (int64_t j = 0; j < topk; ++j) values[j] = static_cast<float>(factor * static_cast<double>(scores[indices[j]]));
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_TOPKROUTER_ROUTE_H
