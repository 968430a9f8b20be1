// The CUDA paths of the MoE routers, Topksoftmax, Topkrouter and the OP-MOETOPK pair (their
// ops/*.cc call them for NVIDIA descriptors): one thread per token row, running the
// row's whole routing below. Each row function is plain host and device code taking the
// row's values through a loader, so the host tests run exactly what a GPU thread runs. The
// selection, the group score and Topkrouter's routing after its sigmoids are the CPU path's
// own (ops/topk_select.h, ops/topkrouter_route.h).
#ifndef INFINICTS_REF_OP_CUDA_MOE_ROUTING_H
#define INFINICTS_REF_OP_CUDA_MOE_ROUTING_H

#include <math.h>

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "core/host_device.h"
#include "cuda/kernel_limits.h"
#include "ops/moe_topk_route.h"
#include "ops/topk_select.h"
#include "ops/topkrouter_route.h"

namespace infinicts::ref::op::cuda {

constexpr int64_t kTopksoftmaxMaxTopk = 32;  // the spec's bound (InfiniCore's kernels stop there)
// The router's shape, as the host tests name it here.
using op::kRouterExperts, op::kRouterGroups, op::kRouterGroupSize, op::kRouterKeptGroups;

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

// One Topkrouter row (DeepSeek-V3): s = sigmoid(x) (x(i) as double, s rounded to float), then
// the CPU's routing (ops/topkrouter_route.h).
template <class LoadX, class LoadBias>
INFINICTS_HOST_DEVICE void TopkrouterRow(const LoadX &x, const LoadBias &bias, float scale, int64_t topk,
                                         float *values, int32_t *indices) {
  float scores[kRouterExperts];
  for (int64_t i = 0; i < kRouterExperts; ++i) {
    scores[i] = static_cast<float>(1.0 / (1.0 + exp(-x(i))));  // e^(-x) = Inf gives 0
  }
  double choice[kRouterExperts], best[kRouterExperts];
  RouteTopkrouterRow(scores, bias, scale, topk, choice, best, values, indices);
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

static_assert(FitsKernelParameters<MoeTopkPlan>(), "the OP-MOETOPK routers' plan must fit in 4 KB");
// MoeTopkSoftmax and MoeTopkSigmoid, a thread per row through MoeTopkRow (checked by the
// caller: the plan's shapes; bias NULL without has_bias).
infiniStatus_t MoeTopk(const InfiniopDescriptor &desc, const MoeTopkPlan &plan, float *weights, int32_t *indices,
                       const void *gating_output, const float *correction_bias, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_MOE_ROUTING_H
