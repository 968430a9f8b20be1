#include "cuda/device_types.cuh"
#include "cuda/gemm_scale.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class T>
__global__ void GemmScaleKernel(T *c, GemmMatrix layout, uint64_t batch, uint64_t m, uint64_t n, float beta) {
  using C = DeviceCompute<T>;
  const uint64_t total = batch * m * n;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t col = static_cast<int64_t>(i % n);
    const int64_t row = static_cast<int64_t>(i / n % m);
    const int64_t b = static_cast<int64_t>(i / (n * m));
    const int64_t ld = layout.ld;
    T &value = c[b * layout.batch_stride + (layout.column_major ? row + col * ld : row * ld + col)];
    value = DeviceNum<T>::Store(beta == 0 ? C(0) : static_cast<C>(beta) * DeviceNum<T>::Load(value));
  }
}

}  // namespace

bool LaunchGemmScale(const GemmProblem &problem, void *c, float beta, cudaStream_t stream) {
  const uint64_t total = static_cast<uint64_t>(problem.batch) * problem.m * problem.n;
  return DispatchDeviceFloat(problem.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    GemmScaleKernel<T><<<BlocksFor(total), kThreads, 0, stream>>>(static_cast<T *>(c), problem.c, problem.batch,
                                                                   problem.m, problem.n, beta);
  });
}

}  // namespace infinicts::ref::op::cuda
