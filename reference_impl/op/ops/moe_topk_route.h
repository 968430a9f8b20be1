// One token row of the OP-MOETOPK routers (MoeTopkSoftmax, MoeTopkSigmoid), one copy for both
// paths: the CPU kernels (ops/moe_topk.h, their scores precomputed per row) and the CUDA
// thread per row (cuda/moe_routing.h, its scores computed where they are read), so the host
// tests of the one check the other. Everything in double.
#ifndef INFINICTS_REF_OP_OPS_MOE_TOPK_ROUTE_H
#define INFINICTS_REF_OP_OPS_MOE_TOPK_ROUTE_H

#include <math.h>

#include <cstdint>

#include "core/host_device.h"
#include "infinicore.h"
#include "ops/topk_select.h"

namespace infinicts::ref::op {

// The spec lets k beyond 32 be refused (OP-MOETOPK): a thread's arrays stay small.
constexpr int64_t kMoeTopkMaxTopk = 32;

enum class MoeScore : int32_t { kSoftmax, kSigmoid };

struct MoeTopkParams {
  MoeScore score;
  bool renormalize;
  float softcap;  // the softmax's moe_softcapping; 0: none
};

// One router's problem: gating_output [tokens, experts] of `dtype`, topk_weights (F32) and
// topk_indices (I32) [tokens, topk], correction_bias F32 [experts] when has_bias; strides in
// elements.
struct MoeTopkPlan {
  infiniDtype_t dtype;
  MoeTopkParams params;
  int64_t tokens, experts, topk;
  int64_t gating_strides[2], weight_strides[2], index_strides[2], bias_stride;
  bool has_bias;
};

// A logit after the soft cap (none when softcap is 0).
INFINICTS_HOST_DEVICE inline double CappedLogit(double x, double softcap) {
  return softcap != 0.0 ? softcap * tanh(x / softcap) : x;
}

// What a softmax score needs of its row: the largest capped logit and Σ e^(y − max).
struct SoftmaxRowStats {
  double max, denominator;
};

template <class LoadLogit>
INFINICTS_HOST_DEVICE SoftmaxRowStats SoftmaxStatsOf(const LoadLogit &logit, int64_t n, double softcap) {
  double max = -INFINITY;
  for (int64_t i = 0; i < n; ++i) max = fmax(max, CappedLogit(logit(i), softcap));
  double denominator = 0.0;
  for (int64_t i = 0; i < n; ++i) denominator += exp(CappedLogit(logit(i), softcap) - max);
  return {max, denominator};
}

// Expert i's score s_i from its logit x (the softmax's from its row's stats).
INFINICTS_HOST_DEVICE inline double MoeScoreOf(double x, const MoeTopkParams &p, const SoftmaxRowStats &stats) {
  if (p.score == MoeScore::kSigmoid) return 1.0 / (1.0 + exp(-x));  // e^(-x) = Inf gives 0
  return exp(CappedLogit(x, static_cast<double>(p.softcap)) - stats.max) / stats.denominator;
}

// The selection and the weights: the k largest score(i) + bias(i) (ties to the lower expert)
// into indices, largest first, and their score(i), divided by their sum when renormalizing,
// into weights; weight j at weights[j * weight_step], index j at indices[j * index_step].
// 1 <= k <= kMoeTopkMaxTopk.
template <class LoadScore, class LoadBias>
INFINICTS_HOST_DEVICE void SelectMoeExperts(const LoadScore &score, const LoadBias &bias, int64_t n, int64_t k,
                                            bool renormalize, float *weights, int64_t weight_step, int32_t *indices,
                                            int64_t index_step) {
  double best[kMoeTopkMaxTopk];
  int32_t chosen[kMoeTopkMaxTopk];
  SelectTopK<double>([&](int64_t i) { return score(i) + bias(i); }, n, k, best, chosen);
  double selected[kMoeTopkMaxTopk];
  double sum = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    selected[j] = score(chosen[j]);
    sum += selected[j];
  }
  for (int64_t j = 0; j < k; ++j) {
    weights[j * weight_step] = static_cast<float>(renormalize ? selected[j] / sum : selected[j]);
    indices[j * index_step] = chosen[j];
  }
}

// Row r of a plan on a thread without a row buffer (the CUDA path): the scores computed where
// they are read, the softmax's row stats first. logit(i) and bias(i) as double.
template <class LoadLogit, class LoadBias>
INFINICTS_HOST_DEVICE void MoeTopkRow(const MoeTopkPlan &plan, int64_t r, const LoadLogit &logit,
                                      const LoadBias &bias, float *weights, int32_t *indices) {
  SoftmaxRowStats stats{0.0, 1.0};
  if (plan.params.score == MoeScore::kSoftmax) {
    stats = SoftmaxStatsOf(logit, plan.experts, static_cast<double>(plan.params.softcap));
  }
  SelectMoeExperts([&](int64_t i) { return MoeScoreOf(logit(i), plan.params, stats); }, bias, plan.experts,
                   plan.topk, plan.params.renormalize, weights + r * plan.weight_strides[0], plan.weight_strides[1],
                   indices + r * plan.index_strides[0], plan.index_strides[1]);
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_MOE_TOPK_ROUTE_H
