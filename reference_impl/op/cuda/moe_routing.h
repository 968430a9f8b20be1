// The CUDA paths of the MoE routers, Topksoftmax and Topkrouter (ops/topksoftmax.cc and
// ops/topkrouter.cc call them for NVIDIA descriptors): one thread per token row, running the
// row's whole routing below. Each row function is plain host and device code taking the
// row's values through a loader, so the host tests run exactly what a GPU thread runs. The
// selection and the group score are the CPU path's own (ops/topk_select.h).
#ifndef INFINICTS_REF_OP_CUDA_MOE_ROUTING_H
#define INFINICTS_REF_OP_CUDA_MOE_ROUTING_H

#include <math.h>

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "core/host_device.h"
#include "cuda/kernel_limits.h"
#include "ops/topk_select.h"

namespace infinicts::ref::op::cuda {

constexpr int64_t kTopksoftmaxMaxTopk = 32;  // the spec's bound (InfiniCore's kernels stop there)
constexpr int64_t kRouterExperts = 256, kRouterGroups = 8, kRouterGroupSize = 32, kRouterKeptGroups = 4;

// One Topksoftmax row: the topk largest logits (logit(i) as float, or double for F64),
// their softmax over the row (or over themselves with norm) into values, in double.
template <class Score, class Load>
INFINICTS_HOST_DEVICE void TopksoftmaxRow(const Load &logit, int64_t n, int64_t topk, bool norm, float *values,
                                          int32_t *indices) {
  Score best[kTopksoftmaxMaxTopk];
  int32_t chosen[kTopksoftmaxMaxTopk];
  SelectTopK<Score>(logit, n, topk, best, chosen);
  const double max = static_cast<double>(best[0]);  // the row's maximum
  double denominator = 0.0;
  if (norm) {
    for (int64_t j = 0; j < topk; ++j) denominator += exp(static_cast<double>(best[j]) - max);
  } else {
    for (int64_t i = 0; i < n; ++i) denominator += exp(static_cast<double>(logit(i)) - max);
  }
  for (int64_t j = 0; j < topk; ++j) {
    indices[j] = chosen[j];
    values[j] = static_cast<float>(exp(static_cast<double>(best[j]) - max) / denominator);
  }
}

// One Topkrouter row (DeepSeek-V3): s = sigmoid(x) (x(i) as double, s rounded to float);
// b = s + bias (bias(i) as float) selects; a group scores the sum of its two largest b; the
// 4 best groups stay; the topk largest b of those (0 elsewhere) are chosen, and their values
// are scale · s / (Σ s of the chosen + 1e-9).
template <class LoadX, class LoadBias>
INFINICTS_HOST_DEVICE void TopkrouterRow(const LoadX &x, const LoadBias &bias, float scale, int64_t topk,
                                         float *values, int32_t *indices) {
  float scores[kRouterExperts];
  double choice[kRouterExperts];
  for (int64_t i = 0; i < kRouterExperts; ++i) {
    scores[i] = static_cast<float>(1.0 / (1.0 + exp(-x(i))));  // e^(-x) = Inf gives 0
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
  double best[kRouterExperts];
  SelectTopK<double>([&](int64_t i) { return choice[i]; }, kRouterExperts, topk, best, indices);
  double sum = 1e-9;
  for (int64_t j = 0; j < topk; ++j) sum += static_cast<double>(scores[indices[j]]);
  const double factor = static_cast<double>(scale) / sum;
  for (int64_t j = 0; j < topk; ++j) values[j] = static_cast<float>(factor * static_cast<double>(scores[indices[j]]));
}

// x [tokens, experts] of a float dtype (strides in elements); values F32 and indices I32
// contiguous [tokens, topk].
struct RouterGeometry {
  int64_t tokens, experts, token_stride, expert_stride, bias_stride;
};
static_assert(FitsKernelParameters<RouterGeometry>(), "the routers' parameters must fit in 4 KB");

// 1 <= topk <= min(experts, 32) (checked by the caller).
infiniStatus_t Topksoftmax(const InfiniopDescriptor &desc, const RouterGeometry &geometry, infiniDtype_t dtype,
                           float *values, int32_t *indices, const void *x, int64_t topk, bool norm, void *stream);
// experts = 256, 1 <= topk <= 256 (checked by the caller); correction_bias F32 [256].
infiniStatus_t Topkrouter(const InfiniopDescriptor &desc, const RouterGeometry &geometry, infiniDtype_t dtype,
                          float *values, int32_t *indices, const void *x, const float *correction_bias,
                          float routed_scaling_factor, int64_t topk, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_MOE_ROUTING_H
