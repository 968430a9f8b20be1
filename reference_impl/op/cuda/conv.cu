// Conv on NVIDIA: cuDNN where the descriptor has its plan and every pointer is 16-byte
// aligned (the bias written into y first, then added to the sum by cuDNN's beta, so the
// result is rounded once), else, or when cuDNN refuses the call, a direct
// kernel: each thread computes whole output elements, walking the input channels and the
// kernel window (positions outside x count as zero), in any layout.
#include <cstdint>

#include "core/tensor.h"
#include "cuda/conv.h"
#include "cuda/conv_geometry.h"
#include "cuda/device_types.cuh"
#include "cuda/launch.h"
#include "infinicts_ref/cuda_errors.h"
#ifdef INFINIOP_WITH_CUDNN
#include "cuda/cudnn/conv_cudnn.h"
#include "cuda/cudnn/cudnn_alignment.h"
#include "cuda/cudnn/cudnn_handles.h"
#endif

namespace infinicts::ref::op::cuda {
namespace {

template <class T>
__global__ void ConvKernel(const __grid_constant__ ConvGeometry g, T *y, const T *x, const T *w, const T *bias) {
  using C = DeviceCompute<T>;
  const uint64_t total = g.batch * g.out_channels * g.out_volume;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const OutputElement e = Locate(g, i);
    const uint64_t b = e.b, co = e.co;
    const int64_t *window = e.window;
    C sum = C(0);
    const T *xb = x + static_cast<int64_t>(b) * g.x_strides[0];
    const T *wc = w + static_cast<int64_t>(co) * g.w_strides[0];
    for (uint64_t ci = 0; ci < g.in_channels; ++ci) {
      const T *x_channel = xb + static_cast<int64_t>(ci) * g.x_strides[1];
      const T *w_channel = wc + static_cast<int64_t>(ci) * g.w_strides[1];
      for (uint64_t r = 0; r < g.kernel_volume; ++r) {
        int64_t x_offset = 0, w_offset = 0;
        if (Tap(g, window, r, &x_offset, &w_offset)) sum += DeviceNum<T>::Load(x_channel[x_offset]) * DeviceNum<T>::Load(w_channel[w_offset]);
      }
    }
    const C shift = g.has_bias ? DeviceNum<T>::Load(bias[static_cast<int64_t>(co) * g.bias_step]) : C(0);
    y[e.y_offset] = DeviceNum<T>::Store(sum + shift);
  }
}

// y[b, co, o] = bias[co]: what cuDNN then adds the sums to.
template <class T>
__global__ void FillBiasKernel(const __grid_constant__ ConvGeometry g, T *y, const T *bias) {
  const uint64_t total = g.batch * g.out_channels * g.out_volume;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const OutputElement e = Locate(g, i);
    y[e.y_offset] = bias[static_cast<int64_t>(e.co) * g.bias_step];
  }
}

}  // namespace

std::shared_ptr<const CudnnConv> PlanConv(int device, const ConvProblem &problem) {
#ifdef INFINIOP_WITH_CUDNN
  return CudnnConv::Plan(device, problem);
#else
  (void)device, (void)problem;
  return nullptr;  // no cuDNN in this build
#endif
}

size_t ConvWorkspaceBytes(const CudnnConv *plan) {
#ifdef INFINIOP_WITH_CUDNN
  if (plan != nullptr) return plan->workspace_bytes();
#endif
  (void)plan;
  return 0;
}

infiniStatus_t Conv(const InfiniopDescriptor &desc, const ConvProblem &problem, const CudnnConv *plan, void *y,
                    const void *x, const void *w, const void *bias, void *workspace, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const ConvGeometry geometry = MakeGeometry(problem);
  const uint64_t total = geometry.batch * geometry.out_channels * geometry.out_volume;
  if (total == 0) return INFINI_STATUS_SUCCESS;
#ifdef INFINIOP_WITH_CUDNN
  if (plan != nullptr && CudnnAligned({y, x, w, bias, workspace})) {
    if (bias != nullptr) {
      const bool known = DispatchDeviceFloat(problem.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        FillBiasKernel<T><<<BlocksFor(total), kThreads, 0, scope.stream()>>>(geometry, static_cast<T *>(y),
                                                                               static_cast<const T *>(bias));
      });
      if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
      INFINIOP_RETURN_IF_ERROR(scope.Finish());
    }
    const cudnnStatus_t done = plan->Run(scope.device(), scope.stream(), y, x, w, bias != nullptr, workspace);
    if (done == CUDNN_STATUS_SUCCESS) return scope.Finish();
    // Whatever cuDNN refuses (not supported, a bad or misaligned parameter, an execution
    // failure) the direct kernel below computes; it writes every element of y. The refusal
    // must not be taken for the kernel's failure: its error is cleared (a lost context ends
    // the process instead).
    ClearLeftoverCudaError("libinfiniop, conv after cuDNN");
  }
#else
  (void)plan, (void)workspace;
#endif
  const bool known = DispatchDeviceFloat(problem.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ConvKernel<T><<<BlocksFor(total), kThreads, 0, scope.stream()>>>(
        geometry, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const T *>(w),
        static_cast<const T *>(bias));
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
