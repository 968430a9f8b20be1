// I8Gemm on the GPU (cuda/i8_gemm.h): the int32 sums by cuBLASLt's int8 matmul (TN: weights
// read as the transposed [n, k] operand, x as [k, m], the sums as a column-major [n, m], i.e.
// row-major [m, n]) or, where cuBLASLt declines the operands, by a tiled kernel of our own;
// then one thread per output element scales, adds the bias and rounds.
#include <cublasLt.h>

#include <cstdint>

#include "core/int8_steps.h"
#include "cuda/cublas_handles.h"
#include "cuda/device_handles.h"
#include "cuda/device_types.cuh"
#include "cuda/i8_gemm.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

constexpr int kSumTile = 16;  // the fallback kernel's output tile edge and K step

// sums[m, n] = Σ_k x[m, k]·weights[k, n], one thread per output element, K staged through
// shared memory a tile at a time.
__global__ void SumKernel(const __grid_constant__ I8GemmGeometry g, const int8_t *x, const int8_t *weights,
                          int32_t *sums) {
  __shared__ int32_t x_tile[kSumTile][kSumTile + 1];
  __shared__ int32_t w_tile[kSumTile][kSumTile + 1];
  const int64_t row = static_cast<int64_t>(blockIdx.y) * kSumTile + threadIdx.y;
  const int64_t col = static_cast<int64_t>(blockIdx.x) * kSumTile + threadIdx.x;
  const int64_t w_col = static_cast<int64_t>(blockIdx.x) * kSumTile + threadIdx.y;
  int32_t sum = 0;
  for (int64_t k0 = 0; k0 < g.k; k0 += kSumTile) {
    const int64_t k = k0 + threadIdx.x;
    x_tile[threadIdx.y][threadIdx.x] = (row < g.m && k < g.k) ? x[row * g.x_row + k] : 0;
    w_tile[threadIdx.y][threadIdx.x] = (w_col < g.n && k < g.k) ? weights[w_col * g.weights_column + k] : 0;
    __syncthreads();
    for (int t = 0; t < kSumTile; ++t) sum += x_tile[threadIdx.y][t] * w_tile[threadIdx.x][t];
    __syncthreads();
  }
  if (row < g.m && col < g.n) sums[row * g.n + col] = sum;
}

template <class T>
__global__ void ScaleKernel(const __grid_constant__ I8GemmGeometry g, const int32_t *sums, const float *x_scale,
                            const float *weights_scale, const T *bias, T *out) {
  const int64_t count = g.m * g.n;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    const int64_t row = i / g.n, col = i % g.n;
    const float shift = bias != nullptr ? DeviceNum<T>::Load(bias[col * g.bias_step]) : 0.0f;
    out[row * g.out_row + col] = DeviceNum<T>::Store(
        I8GemmScaled(sums[i], x_scale[row * g.x_scale_step], weights_scale[col * g.weights_scale_step], shift));
  }
}

infiniStatus_t CreateLt(cublasLtHandle_t *out) { return CublasToStatus(cublasLtCreate(out)); }

// The matmul's descriptors, destroyed with it.
struct LtPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t weights = nullptr, x = nullptr, sums = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;
  ~LtPlan() {
    if (preference != nullptr) cublasLtMatmulPreferenceDestroy(preference);
    if (sums != nullptr) cublasLtMatrixLayoutDestroy(sums);
    if (x != nullptr) cublasLtMatrixLayoutDestroy(x);
    if (weights != nullptr) cublasLtMatrixLayoutDestroy(weights);
    if (op != nullptr) cublasLtMatmulDescDestroy(op);
  }
};

// SUCCESS when cuBLASLt queued the sums; NOT_IMPLEMENTED when it has no kernel for them.
infiniStatus_t LtSums(int device, cudaStream_t stream, const I8GemmGeometry &g, const int8_t *x,
                      const int8_t *weights, int32_t *sums, void *lt_workspace) {
  DeviceHandleLease<cublasLtHandle_t> lease(device, CreateLt);
  INFINIOP_RETURN_IF_ERROR(lease.status());
  LtPlan plan;
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasLtMatmulDescCreate(&plan.op, CUBLAS_COMPUTE_32I, CUDA_R_32I)));
  const cublasOperation_t transposed = CUBLAS_OP_T;
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(
      cublasLtMatmulDescSetAttribute(plan.op, CUBLASLT_MATMUL_DESC_TRANSA, &transposed, sizeof(transposed))));
  const auto u64 = [](int64_t v) { return static_cast<uint64_t>(v); };
  INFINIOP_RETURN_IF_ERROR(
      CublasToStatus(cublasLtMatrixLayoutCreate(&plan.weights, CUDA_R_8I, u64(g.k), u64(g.n), g.weights_column)));
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasLtMatrixLayoutCreate(&plan.x, CUDA_R_8I, u64(g.k), u64(g.m), g.x_row)));
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasLtMatrixLayoutCreate(&plan.sums, CUDA_R_32I, u64(g.n), u64(g.m), g.n)));
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasLtMatmulPreferenceCreate(&plan.preference)));
  const uint64_t bytes = kI8GemmLtWorkspaceBytes;
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasLtMatmulPreferenceSetAttribute(
      plan.preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof(bytes))));
  cublasLtMatmulHeuristicResult_t found = {};
  int count = 0;
  const cublasStatus_t heuristic = cublasLtMatmulAlgoGetHeuristic(lease.handle(), plan.op, plan.weights, plan.x,
                                                                   plan.sums, plan.sums, plan.preference, 1, &found,
                                                                   &count);
  if (heuristic == CUBLAS_STATUS_NOT_SUPPORTED || (heuristic == CUBLAS_STATUS_SUCCESS && count == 0)) {
    return INFINI_STATUS_NOT_IMPLEMENTED;
  }
  INFINIOP_RETURN_IF_ERROR(CublasToStatus(heuristic));
  const int32_t one = 1, zero = 0;
  const cublasStatus_t run = cublasLtMatmul(lease.handle(), plan.op, &one, weights, plan.weights, x, plan.x, &zero,
                                            sums, plan.sums, sums, plan.sums, &found.algo, lt_workspace, bytes, stream);
  if (run == CUBLAS_STATUS_NOT_SUPPORTED) return INFINI_STATUS_NOT_IMPLEMENTED;
  return CublasToStatus(run);
}

}  // namespace

infiniStatus_t I8Gemm(const InfiniopDescriptor &desc, infiniDtype_t out_dtype, const I8GemmGeometry &g, void *out,
                      const void *bias, const int8_t *x, const float *x_scale, const int8_t *weights,
                      const float *weights_scale, void *workspace, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (g.m == 0 || g.n == 0) return INFINI_STATUS_SUCCESS;
  const uintptr_t base = (reinterpret_cast<uintptr_t>(workspace) + kI8GemmAlignment - 1) & ~(kI8GemmAlignment - 1);
  auto *sums = reinterpret_cast<int32_t *>(base);
  void *lt_workspace = reinterpret_cast<void *>(base + I8GemmLtOffset(g.m, g.n));
  infiniStatus_t summed = INFINI_STATUS_NOT_IMPLEMENTED;
  if (I8GemmSuitsCublasLt(g, reinterpret_cast<uintptr_t>(x), reinterpret_cast<uintptr_t>(weights))) {
    summed = LtSums(scope.device(), scope.stream(), g, x, weights, sums, lt_workspace);
    if (summed != INFINI_STATUS_SUCCESS && summed != INFINI_STATUS_NOT_IMPLEMENTED) return summed;
  }
  if (summed == INFINI_STATUS_NOT_IMPLEMENTED) {
    const dim3 block(kSumTile, kSumTile);
    const dim3 grid(static_cast<unsigned>((g.n + kSumTile - 1) / kSumTile),
                    static_cast<unsigned>((g.m + kSumTile - 1) / kSumTile));
    SumKernel<<<grid, block, 0, scope.stream()>>>(g, x, weights, sums);
  }
  const bool known = DispatchDeviceFloat(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ScaleKernel<T><<<BlocksFor(static_cast<uint64_t>(g.m * g.n)), kThreads, 0, scope.stream()>>>(
        g, sums, x_scale, weights_scale, static_cast<const T *>(bias), static_cast<T *>(out));
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
