// The MoE routers on the GPU (moe_routing.h): one thread per token row.
#include <cstdint>
#include <type_traits>

#include "cuda/device_types.cuh"
#include "cuda/launch.h"
#include "cuda/moe_routing.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class T>
__global__ void TopksoftmaxKernel(const __grid_constant__ RouterGeometry g, float *values, int32_t *indices,
                                  const T *x, int64_t topk, bool norm) {
  using Score = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < g.tokens; r += step) {
    const T *row = x + r * g.token_stride;
    const auto logit = [&](int64_t i) { return static_cast<Score>(DeviceNum<T>::Load(row[i * g.expert_stride])); };
    TopksoftmaxRow<Score>(logit, g.experts, topk, norm, values + r * topk, indices + r * topk);
  }
}

template <class T>
__global__ void TopkrouterKernel(const __grid_constant__ RouterGeometry g, float *values, int32_t *indices,
                                 const T *x, const float *bias, float scale, int64_t topk) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < g.tokens; r += step) {
    const T *row = x + r * g.token_stride;
    const auto logit = [&](int64_t i) { return LoadF64(row[i * g.expert_stride]); };
    const auto bias_of = [&](int64_t i) { return bias[i * g.bias_stride]; };
    TopkrouterRow(logit, bias_of, scale, topk, values + r * topk, indices + r * topk);
  }
}

template <class T>
__global__ void MoeTopkKernel(const __grid_constant__ MoeTopkPlan plan, float *weights, int32_t *indices,
                              const T *gating, const float *bias) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < plan.tokens; r += step) {
    const T *row = gating + r * plan.gating_strides[0];
    const auto logit = [&](int64_t i) { return LoadF64(row[i * plan.gating_strides[1]]); };
    const auto bias_of = [&](int64_t i) { return bias != nullptr ? static_cast<double>(bias[i * plan.bias_stride]) : 0.0; };
    MoeTopkRow(plan, r, logit, bias_of, weights, indices);
  }
}

// Rows per block: small, since every thread keeps its row's arrays in local memory.
constexpr unsigned kRowThreads = 64;

unsigned RowBlocks(int64_t tokens) {
  const uint64_t blocks = (static_cast<uint64_t>(tokens) + kRowThreads - 1) / kRowThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

}  // namespace

infiniStatus_t Topksoftmax(const InfiniopDescriptor &desc, const RouterGeometry &geometry, infiniDtype_t dtype,
                           float *values, int32_t *indices, const void *x, int64_t topk, bool norm, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (geometry.tokens == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TopksoftmaxKernel<T><<<RowBlocks(geometry.tokens), kRowThreads, 0, scope.stream()>>>(
        geometry, values, indices, static_cast<const T *>(x), topk, norm);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

infiniStatus_t Topkrouter(const InfiniopDescriptor &desc, const RouterGeometry &geometry, infiniDtype_t dtype,
                          float *values, int32_t *indices, const void *x, const float *correction_bias,
                          float routed_scaling_factor, int64_t topk, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (geometry.tokens == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TopkrouterKernel<T><<<RowBlocks(geometry.tokens), kRowThreads, 0, scope.stream()>>>(
        geometry, values, indices, static_cast<const T *>(x), correction_bias, routed_scaling_factor, topk);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

infiniStatus_t MoeTopk(const InfiniopDescriptor &desc, const MoeTopkPlan &plan, float *weights, int32_t *indices,
                       const void *gating_output, const float *correction_bias, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (plan.tokens == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    MoeTopkKernel<T><<<RowBlocks(plan.tokens), kRowThreads, 0, scope.stream()>>>(
        plan, weights, indices, static_cast<const T *>(gating_output), correction_bias);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
